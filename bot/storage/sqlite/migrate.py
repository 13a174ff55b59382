"""The SQLite migration runner: ``PRAGMA user_version`` read, checked, and brought up to date.

A database's ``user_version`` is how many of :data:`MIGRATIONS` (the ``*.sqlite.sql`` files of
:mod:`bot.storage.migrations`) it has run: 0 for a new file. Opening takes two steps, with the
file's other checks between them (:class:`~bot.storage.sqlite.connection.Connection`):
:func:`check_version` only reads, so a database it refuses is left unchanged; :func:`migrate`
applies the missing migrations, each in its own transaction with the version it reaches.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import aiosqlite

from bot.storage import StorageError
from bot.storage.common import scalar
from bot.storage.migrations import Migration, load

__all__ = ["MIGRATIONS", "check_version", "migrate"]

log = logging.getLogger(__name__)

#: ``MIGRATIONS[n]`` takes the schema from ``user_version`` n to n + 1.
MIGRATIONS: tuple[Migration, ...] = load("sqlite")


async def check_version(
    db: aiosqlite.Connection, path: Path, migrations: Sequence[Migration] = MIGRATIONS
) -> int:
    """The database's schema version, once it is known to be one this code can use. Reads only.

    Args:
        db: a connection to the database, in autocommit mode (``isolation_level=None``).
        path: the database file, named in the errors.
        migrations: the list the version counts (the default: the shipped files).

    Returns:
        The ``user_version``: 0 (a new, empty database) to ``len(migrations)``.

    Raises:
        StorageError: the database is newer than this code (its version is past the list), or
            it has tables but version 0 (someone else's database).
        sqlite3.Error: the file cannot be read as a database.
    """
    version = await scalar(db, "PRAGMA user_version")
    latest = len(migrations)
    if version > latest:
        raise StorageError(
            f"{path}: database schema version {version} is newer than this code "
            f"(which knows up to {latest}); run a newer bot or choose another path "
            "(the file was left unchanged)"
        )
    if version == 0 and await scalar(db, "SELECT count(*) FROM sqlite_master"):
        raise StorageError(
            f"{path}: the database has tables but no schema version, so it is not "
            "this bot's; choose another path (the file was left unchanged)"
        )
    return version


async def migrate(
    db: aiosqlite.Connection, path: Path, version: int, migrations: Sequence[Migration] = MIGRATIONS
) -> None:
    """Apply ``migrations[version:]`` in order, each with its new ``user_version`` in one
    ``BEGIN IMMEDIATE`` transaction: a migration that fails leaves the database at the version
    before it.

    Args:
        db: the connection (autocommit mode, as :func:`check_version`'s).
        path: the database file, named in the log.
        version: the database's version, from :func:`check_version`.
        migrations: the list to apply from (the default: the shipped files).

    Raises:
        sqlite3.Error: a migration failed (rolled back).
    """
    for number in range(version, len(migrations)):
        # executescript runs the whole script; a failure leaves the transaction open.
        try:
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{migrations[number].sql}\nPRAGMA user_version = {number + 1};\nCOMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                await db.rollback()
            raise
        log.info("%s: schema migrated to version %d", path, number + 1)
