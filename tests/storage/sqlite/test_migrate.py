"""The SQLite migration runner (bot/storage/sqlite/migrate.py): databases at every older version
migrated, and the databases it must refuse unchanged."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.storage.sqlite import MIGRATIONS

from .helpers import files, make_database, open_error, run_sqlite

TABLES = {"channel_settings", "open_tables", "people", "games", "game_players", "rounds", "round_players"}


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
