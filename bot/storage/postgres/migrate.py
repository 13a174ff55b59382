"""The PostgreSQL migration runner: the schema's version read, checked, and brought up to date.

A schema's version is the one row of its ``schema_version`` table: how many of :data:`MIGRATIONS`
(the ``*.postgresql.sql`` files of :mod:`bot.storage.migrations`) it has run; no such table is
version 0. The tables live in the connection's current schema (``public`` unless the URL sets
``search_path``). Each missing migration runs in a transaction of its own with the version it
reaches, under an advisory lock: processes started together apply each migration once, the others
waiting, then finding it done.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, TypeAlias

import asyncpg
import asyncpg.pool

from bot.storage import StorageError
from bot.storage.migrations import Migration, load

__all__ = ["MIGRATIONS", "AnyConnection", "check_version", "migrate"]

AnyConnection: TypeAlias = "asyncpg.Connection[Any] | asyncpg.pool.PoolConnectionProxy[Any]"
"""A connection of its own or one lent by a pool."""

log = logging.getLogger(__name__)

#: ``MIGRATIONS[n]`` takes the schema from version n to n + 1.
MIGRATIONS: tuple[Migration, ...] = load("postgresql")
MIGRATION_LOCK = 0x554E4F_0001  # pg_advisory_xact_lock's key while migrating ("UNO", 1)


async def check_version(
    connection: AnyConnection, where: str, migrations: Sequence[Migration] = MIGRATIONS
) -> int:
    """The schema's version, once it is known to be one this code can use. Reads only.

    Args:
        connection: a connection to the database.
        where: the database (URL without password), named in the errors.
        migrations: the list the version counts (the default: the shipped files).

    Returns:
        0 (a new, empty schema) to ``len(migrations)``.

    Raises:
        StorageError: the schema is newer than this code (its version is past the list), or it
            has tables but no version (someone else's).
        asyncpg.PostgresError: the database can't be read.
    """
    version = 0
    if await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
        version = await connection.fetchval("SELECT max(version) FROM schema_version") or 0
    latest = len(migrations)
    if version > latest:
        raise StorageError(
            f"{where}: database schema version {version} is newer than this code (which knows up "
            f"to {latest}); run a newer bot or choose another database (it was left unchanged)"
        )
    if version == 0 and await connection.fetchval(
        "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_version'"
    ):
        raise StorageError(
            f"{where}: schema {await connection.fetchval('SELECT current_schema()')} has tables but "
            "no schema version, so it is not this bot's; choose another database or schema "
            "(search_path) (it was left unchanged)"
        )
    return version


async def migrate(
    connection: AnyConnection, where: str, migrations: Sequence[Migration] = MIGRATIONS
) -> None:
    """Check the version (:func:`check_version`), then apply the missing migrations in order,
    each in one transaction with its new version: one that fails leaves the schema at the
    version before it.

    Raises:
        StorageError: as :func:`check_version` (nothing is changed).
        asyncpg.PostgresError: a migration failed (rolled back).
    """
    while True:
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            version = await check_version(connection, where, migrations)
            if version == len(migrations):
                return
            await connection.execute(migrations[version].sql)
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL); "
                f"DELETE FROM schema_version; INSERT INTO schema_version VALUES ({version + 1})"
            )
        log.info("%s: schema migrated to version %d", where, version + 1)
