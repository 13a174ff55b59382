"""The PostgreSQL migration runner (bot/storage/postgres/migrate.py): a fresh schema, a schema at an
older version, bots starting together, a migration that fails, and the schemas it must refuse
unchanged. Each test has a fresh schema of the tests' cluster (skipped without PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import asyncpg
import pytest

from bot.storage import StorageError
from bot.storage.migrations import Migration
from bot.storage.postgres import MIGRATIONS, PostgresStorage
from bot.storage.postgres.migrate import migrate

from ..helpers import GUILD, fresh_schema, postgres_url

TABLES = {
    "channel_settings",
    "open_tables",
    "people",
    "games",
    "game_players",
    "rounds",
    "round_players",
    "game_replays",
    "table_leases",
    "schema_version",
}


async def state(url: str) -> tuple[int | None, set[str]]:
    """The schema's version (None: no version table) and its tables."""
    connection = await asyncpg.connect(url)
    try:
        tables = {
            r[0]
            for r in await connection.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        }
        version = (
            await connection.fetchval("SELECT max(version) FROM schema_version")
            if "schema_version" in tables
            else None
        )
        return version, tables
    finally:
        await connection.close()


async def run_migrations(url: str, migrations: Sequence[Migration]) -> None:
    connection = await asyncpg.connect(url)
    try:
        await migrate(connection, url, migrations)
    finally:
        await connection.close()


async def sql(url: str, statement: str) -> Any:
    connection = await asyncpg.connect(url)
    try:
        return await connection.execute(statement)
    finally:
        await connection.close()


async def open_error(url: str) -> str:
    storage = PostgresStorage(url)
    with pytest.raises(StorageError) as refused:
        await storage.open()
    assert not storage._connection.is_open
    return str(refused.value)


@pytest.mark.parametrize("start", range(len(MIGRATIONS)))
def test_every_migration_from_older(start: int) -> None:
    """A schema at any older version (0: empty) migrates to the latest and keeps its rows."""
    url = fresh_schema()

    async def main() -> None:
        if start:
            await run_migrations(url, MIGRATIONS[:start])
            await sql(url, 'INSERT INTO open_tables VALUES (10, 1, \'{"kind": "lobby"}\', 0)')
            assert (await state(url))[0] == start
        storage = PostgresStorage(url)
        await storage.open()
        try:
            assert await storage.load_tables() == ([{"kind": "lobby"}] if start else [])
        finally:
            await storage.close()
        assert await state(url) == (len(MIGRATIONS), TABLES)

    asyncio.run(main())


def test_bots_starting_together_migrate_once() -> None:
    """Processes opening a new schema at once apply each migration once (the others wait)."""
    url = fresh_schema()

    async def main() -> None:
        storages = [PostgresStorage(url) for _ in range(4)]
        await asyncio.gather(*(s.open() for s in storages))
        await storages[0].save_table(GUILD, 1, {"n": 1})
        assert await storages[3].load_tables() == [{"n": 1}]
        await asyncio.gather(*(s.close() for s in storages))
        assert await state(url) == (len(MIGRATIONS), TABLES)

    asyncio.run(main())


def test_failed_migration_rolls_back() -> None:
    """A migration that fails leaves the schema at the version before it, whole."""
    url = fresh_schema()
    broken = Migration(len(MIGRATIONS) + 1, "broken", "ALTER TABLE people ADD COLUMN x TEXT; SELECT nope;")

    async def main() -> None:
        with pytest.raises(asyncpg.PostgresError):
            await run_migrations(url, [*MIGRATIONS, broken])
        assert await state(url) == (len(MIGRATIONS), TABLES)
        columns = await asyncpg_columns(url, "people")
        assert columns == ["id", "user_id"]

    asyncio.run(main())


async def asyncpg_columns(url: str, table: str) -> list[str]:
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        return [r[0] for r in rows]
    finally:
        await connection.close()


def test_newer_schema_refused_unchanged() -> None:
    """A schema migrated by a newer bot (a version past the list) is refused, and left as it is."""
    url = fresh_schema()

    async def main() -> None:
        await run_migrations(url, MIGRATIONS)
        await sql(url, f"UPDATE schema_version SET version = {len(MIGRATIONS) + 1}")
        assert "newer than this code" in await open_error(url)
        assert await state(url) == (len(MIGRATIONS) + 1, TABLES)

    asyncio.run(main())


def test_someone_elses_schema_refused_unchanged() -> None:
    """A schema with tables but no version is not this bot's: refused, nothing created."""
    url = fresh_schema()

    async def main() -> None:
        await sql(url, "CREATE TABLE invoices (id INTEGER)")
        assert "not this bot's" in await open_error(url)
        assert await state(url) == (None, {"invoices"})

    asyncio.run(main())


def test_unreachable_server_refused_in_one_line() -> None:
    """A server that does not answer is one line naming the URL, without its password."""
    postgres_url()  # skips without PostgreSQL, like the rest

    async def main() -> None:
        message = await open_error("postgresql://uno:secret@127.0.0.1:1/uno")
        assert message.startswith("postgresql://uno@127.0.0.1:1/uno: cannot connect to PostgreSQL")
        assert "secret" not in message and "\n" not in message

    asyncio.run(main())
