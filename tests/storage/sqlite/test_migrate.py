"""The SQLite migration runner (bot/storage/sqlite/migrate.py): a fresh database, databases made
by earlier code, a migration that fails, and the databases it must refuse unchanged.

``schema-v1.json`` beside this file is ``sqlite_master`` and ``user_version`` of a fresh database
made by the code before the migrations moved to SQL files (main at bcfedaa, where they were a
Python tuple in bot/storage/sqlite.py): what every database made since holds at version 1.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage import StorageError
from bot.storage.migrations import Migration
from bot.storage.sqlite import MIGRATIONS
from bot.storage.sqlite.migrate import check_version, migrate

from .helpers import files, make_database, open_error, run_sqlite

SCHEMA_V1 = json.loads((Path(__file__).parent / "schema-v1.json").read_text(encoding="utf-8"))
TABLES = {"channel_settings", "open_tables", "people", "games", "game_players", "rounds", "round_players"}
#: A second version for the tests: a column added to a table that holds rows.
NOTES = Migration(len(MIGRATIONS) + 1, "notes", "ALTER TABLE channel_settings ADD COLUMN note TEXT;")


def schema(path: Path) -> dict[str, Any]:
    """``user_version`` and ``sqlite_master`` of the database at ``path``, as in schema-v1.json."""
    with closing(sqlite3.connect(path)) as raw:
        rows = raw.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        return {
            "user_version": raw.execute("PRAGMA user_version").fetchone()[0],
            "sqlite_master": [list(row) for row in rows],
        }


def run_migrations(path: Path, migrations: Sequence[Migration]) -> int:
    """Check and migrate the database at ``path`` with ``migrations``; the version it was at."""

    async def main() -> int:
        async with aiosqlite.connect(path, isolation_level=None) as db:
            version = await check_version(db, path, migrations)
            await migrate(db, path, version, migrations)
            return version

    return asyncio.run(main())


def old_database(path: Path) -> None:
    """A database as the code before the SQL files made it, with a channel's settings and a table."""
    with closing(sqlite3.connect(path)) as raw:
        tables_first = sorted(SCHEMA_V1["sqlite_master"], key=lambda row: row[0] != "table")
        raw.executescript(";\n".join(sql for _, _, _, sql in tables_first if sql) + ";")
        raw.execute(f"PRAGMA user_version = {SCHEMA_V1['user_version']}")
        raw.execute("PRAGMA journal_mode = WAL")
        raw.execute('INSERT INTO channel_settings VALUES (10, 1, \'{"variant": "flip"}\', 0.0)')
        raw.execute('INSERT INTO open_tables VALUES (10, 1, \'{"kind": "lobby"}\', 0.0)')
        raw.commit()


# --------------------------------------------------------------------------- what the files make


def test_version_1_is_the_schema_main_made(tmp_path: Path) -> None:
    """Migration 1 from the SQL file makes exactly the schema the Python migration made."""
    assert run_migrations(tmp_path / "uno.db", MIGRATIONS[:1]) == 0
    assert schema(tmp_path / "uno.db") == SCHEMA_V1


@pytest.mark.parametrize("start", range(len(MIGRATIONS)))
def test_every_migration_from_empty(tmp_path: Path, start: int) -> None:
    """A database at any older version (0: empty) migrates to the latest, sound and complete."""
    path = tmp_path / "uno.db"
    with closing(sqlite3.connect(path)) as raw:
        for number in range(start):
            raw.executescript(MIGRATIONS[number].sql)
        raw.execute(f"PRAGMA user_version = {start}")
        raw.commit()
    run_sqlite(path, lambda s: s.load_tables())
    with closing(sqlite3.connect(path)) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        names = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert names >= TABLES


def test_old_database_opens_as_a_new_one(tmp_path: Path) -> None:
    """A database made by the code before the SQL files opens with its rows, and ends with the
    schema a new database gets (migrated to the latest version)."""
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    old_database(old)
    run_sqlite(new, lambda s: s.load_tables())

    async def read(s: Any) -> tuple[Any, Any]:
        return await s.get_channel_settings(10), await s.load_tables()

    assert run_sqlite(old, read) == ({"variant": "flip"}, [{"kind": "lobby"}])
    assert schema(old) == schema(new)


# --------------------------------------------------------------------------- the runner


def test_older_version_migrated_keeping_rows(tmp_path: Path) -> None:
    """A database one version behind gets the new migration, its rows kept, and reopening (or
    migrating again) does nothing more."""
    path = tmp_path / "uno.db"
    make_database(path)
    assert run_migrations(path, [*MIGRATIONS, NOTES]) == len(MIGRATIONS)
    assert run_migrations(path, [*MIGRATIONS, NOTES]) == NOTES.version
    with closing(sqlite3.connect(path)) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (NOTES.version,)
        assert raw.execute("SELECT note FROM channel_settings").fetchall() == [(None,)]
        assert raw.execute("SELECT count(*) FROM open_tables").fetchone() == (1,)


def test_failed_migration_rolls_back(tmp_path: Path) -> None:
    """A migration that fails mid-script leaves the database at the version before it, without
    the statements it ran, and the connection out of its transaction."""
    path = tmp_path / "uno.db"
    make_database(path)
    before = schema(path)
    broken = NOTES._replace(sql="CREATE TABLE half (a INTEGER);\nINSERT INTO nowhere VALUES (1);")

    async def main() -> bool:
        async with aiosqlite.connect(path, isolation_level=None) as db:
            with pytest.raises(sqlite3.OperationalError, match="nowhere"):
                await migrate(db, path, len(MIGRATIONS), [*MIGRATIONS, broken])
            return db.in_transaction

    assert asyncio.run(main()) is False
    assert schema(path) == before
    assert run_sqlite(path, lambda s: s.get_channel_settings(10)) == {"variant": "flip"}


def test_check_version_refuses_newer(tmp_path: Path) -> None:
    """check_version reads the version; past the list it refuses, naming both versions."""
    path = tmp_path / "uno.db"
    make_database(path)

    async def main(migrations: Sequence[Migration]) -> int:
        async with aiosqlite.connect(path, isolation_level=None) as db:
            return await check_version(db, path, migrations)

    assert asyncio.run(main(MIGRATIONS)) == len(MIGRATIONS)
    with pytest.raises(
        StorageError, match=rf"version {len(MIGRATIONS)} is newer than this code \(which knows up to 0\)"
    ):
        asyncio.run(main(()))


def test_newer_database_refused_unchanged(tmp_path: Path) -> None:
    """A database from newer code is refused with a clear line, and not a byte changes."""
    path = tmp_path / "uno.db"
    make_database(path)
    with closing(sqlite3.connect(path)) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        raw.commit()
    before = files(tmp_path)
    message = open_error(path)
    assert "newer than this code" in message and str(path) in message
    assert "\n" not in message
    assert files(tmp_path) == before


def test_foreign_database_refused_unchanged(tmp_path: Path) -> None:
    """A database with tables but no schema version (someone else's) is refused unchanged."""
    path = tmp_path / "other.db"
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("CREATE TABLE notes (body TEXT)")
        raw.commit()
    before = files(tmp_path)
    assert "not this bot's" in open_error(path)
    assert files(tmp_path) == before
