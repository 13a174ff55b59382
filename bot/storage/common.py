"""What the storage backends share: the little a query needs of a connection (:class:`Db`),
JSON text for the database, one-value queries, one-line errors, the collector paused while
many objects are made at once."""

from __future__ import annotations

import gc
import os
import socket
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

import orjson

__all__ = ["Db", "collector_paused", "default_owner", "dumps", "one_line", "scalar"]


class Db(Protocol):
    """A connection as the shared queries (:mod:`bot.storage.records`) use it: aiosqlite's
    ``Connection`` as it is, and PostgreSQL's through :class:`bot.storage.postgres.connection.Db`
    (which numbers the ``?`` marks). Queries are written in the SQL both dialects read (``?``
    marks, ``CAST(? AS TEXT)`` where a mark's type is not otherwise known)."""

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = ..., /) -> Iterable[Any]:
        """Run one statement; its rows (tuples or rows that unpack like them)."""

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> Any:
        """Run one statement once per parameter row."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block (as it was after it; nesting is fine).

    For restoring many tables at once: parsing and rebuilding them makes millions of objects, none
    of them garbage, and each collector pass walks every object made so far, so the passes grow
    with the restore: 10,000 saved games took 5.3 s to parse with the collector and 1.1 s without
    (docs/performance/storage.md, "Restore"). Only around work that makes little garbage.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def default_owner() -> str:
    """A table lease owner id for this process and start: ``host:pid:random`` (a process
    restarted with the same pid is still another owner)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def dumps(value: Any) -> str:
    """Compact JSON through orjson: a table is saved after every move, and the standard
    library's encoder took a thirteenth of the bot's event-loop time under load
    (docs/performance/discord-layer.md). Stricter than the standard library's about keys (no int key
    turns silently into a string); a float that is not finite would be written as null (no
    table or result holds floats but times).

    >>> dumps({"seats": ["101", "ai:1"], "score": 50})
    '{"seats":["101","ai:1"],"score":50}'

    Raises:
        TypeError: a value JSON cannot hold, a key that is not a string, or a string that is
            not valid Unicode (a lone surrogate); nothing is written.
    """
    return orjson.dumps(value).decode()


def one_line(what: BaseException | str, limit: int = 200) -> str:
    """An error message (or the database's report) on one line, cut at ``limit`` characters
    (``PRAGMA quick_check`` can report thousands of characters of damaged cells).

    >>> one_line("row 3 missing\\n  from index  x")
    'row 3 missing from index x'
    >>> len(one_line("x" * 500))
    200
    """
    text = " ".join(str(what).split()) or type(what).__name__
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


async def scalar(db: Db, sql: str, params: Sequence[Any] = ()) -> int:
    """The first column of the query's first row as an int; 0 when there is no row or it is NULL.

    Raises:
        sqlite3.Error, asyncpg.PostgresError: the query failed.
    """
    rows = list(await db.execute_fetchall(sql, params))
    return int(rows[0][0]) if rows and rows[0][0] is not None else 0
