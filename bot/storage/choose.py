"""The storage a ``database.url`` (or ``--database``) names: SQLite or PostgreSQL.

* ``sqlite:///uno.db`` (relative path), ``sqlite:////var/lib/uno/uno.db`` (absolute), or a
  plain path: :class:`~bot.storage.sqlite.SqliteStorage`, one bot process on one file (the
  default, ``database.path``).
* ``postgresql://user:password@host:5432/database`` (or ``postgres://``):
  :class:`~bot.storage.postgres.PostgresStorage`, shared by several bot processes.

>>> parse_url("sqlite:///data/uno.db"), parse_url("sqlite:////data/uno.db")
(('sqlite', PosixPath('data/uno.db')), ('sqlite', PosixPath('/data/uno.db')))
>>> parse_url("postgresql://uno@db/uno")
('postgresql', 'postgresql://uno@db/uno')
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from bot.storage import Storage
from bot.storage.sqlite.connection import DEFAULT_SYNCHRONOUS, Synchronous

__all__ = ["is_url", "make_storage", "parse_url"]

SQLITE = "sqlite:///"
POSTGRESQL = ("postgresql://", "postgres://")


def is_url(text: str) -> bool:
    """True if ``text`` is a database URL this bot knows, rather than a file's path.

    >>> is_url("postgres://x/y"), is_url("uno.db")
    (True, False)
    """
    return text.startswith((SQLITE, *POSTGRESQL))


def parse_url(url: str) -> tuple[Literal["sqlite"], Path] | tuple[Literal["postgresql"], str]:
    """The backend a database URL names, with the SQLite file's path or PostgreSQL's URL.

    Raises:
        ValueError: not ``sqlite:///PATH``, ``postgresql://...`` or ``postgres://...``.
    """
    if url.startswith(SQLITE) and len(url) > len(SQLITE):
        return "sqlite", Path(url[len(SQLITE) :])
    if url.startswith(POSTGRESQL):
        return "postgresql", url
    raise ValueError("must be sqlite:///PATH or postgresql://user:password@host:port/database")


def make_storage(
    location: Path | str, *, synchronous: Synchronous = DEFAULT_SYNCHRONOUS, new_database: bool = False
) -> Storage:
    """The storage (not yet open) at ``location``: a database URL, or an SQLite file's path.

    Args:
        location: ``database.url``, ``database.path`` or ``--database``.
        synchronous, new_database: SQLite's (``database.synchronous``, ``--new-database``);
            PostgreSQL has neither (its server decides how commits reach disk, and a missing
            database is an error of the connection).

    Raises:
        ValueError: a string that looks like a URL (``scheme://``) of no backend.
    """
    if isinstance(location, str) and (is_url(location) or "://" in location):
        backend, where = parse_url(location)
        if backend == "postgresql":
            from bot.storage.postgres import PostgresStorage

            return PostgresStorage(str(where))
        location = where
    from bot.storage.sqlite import SqliteStorage

    return SqliteStorage(location, synchronous=synchronous, new_database=new_database)
