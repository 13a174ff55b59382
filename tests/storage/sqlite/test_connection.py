"""The SQLite connection (bot/storage/sqlite/connection.py): its pragmas, the files it refuses
without changing them, its background checkpoints, and use when it is not open."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot.storage import StorageError
from bot.storage.sqlite import MIGRATIONS, SQLITE_MAGIC, SqliteStorage
from bot.storage.sqlite.connection import Connection

from ..helpers import GUILD, snapshot
from .helpers import files, make_database, open_error, open_error_as_nobody, run_sqlite


@pytest.mark.parametrize("existing", [False, True], ids=["no-file", "empty-file"])
@pytest.mark.parametrize(("checkpoint_seconds", "autocheckpoint"), [(1.0, 16000), (None, 4000)])
def test_user_version_and_pragmas(
    tmp_path: Path, existing: bool, checkpoint_seconds: float | None, autocheckpoint: int
) -> None:
    """A new database gets the latest user_version, WAL, synchronous=NORMAL, foreign keys, and
    rare checkpoints in commits when the background ones run."""
    path = tmp_path / "uno.db"
    if existing:
        path.write_bytes(b"")

    async def pragmas() -> list[Any]:
        connection = Connection(path, checkpoint_seconds=checkpoint_seconds)
        await connection.open()
        try:
            async with connection.use() as db:  # the connection's own settings are only visible from it
                names = ("user_version", "journal_mode", "synchronous", "foreign_keys", "busy_timeout")
                return [
                    next(iter(await db.execute_fetchall(f"PRAGMA {name}")))[0]
                    for name in (*names, "wal_autocheckpoint")
                ]
        finally:
            await connection.close()

    assert asyncio.run(pragmas()) == [len(MIGRATIONS), "wal", 1, 1, 5000, autocheckpoint]
    assert asyncio.run(pragmas())[0] == len(MIGRATIONS)  # reopening migrates nothing


def _damaged_page(number: int) -> Any:
    """Damage: a real database with page ``number`` (1-based) overwritten with noise."""

    def damage(path: Path) -> None:
        make_database(path)
        data = bytearray(path.read_bytes())
        size = int.from_bytes(data[16:18], "big") or 65536
        start = (number - 1) * size
        data[start : start + size] = random.Random(7).randbytes(size)
        path.write_bytes(bytes(data))

    return damage


def _damaged_bytes(path: Path) -> None:
    """Damage: a real database with every 7th byte after its first page overwritten."""
    make_database(path)
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big") or 65536
    for i in range(size, len(data), 7):
        data[i] = 0xAB
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(b"this is not a database\n" * 100),
        lambda p: p.write_bytes(SQLITE_MAGIC + random.Random(1).randbytes(3 * 4096)),
        lambda p: p.write_bytes(SQLITE_MAGIC[:10]),
        _damaged_page(3),  # a table's root page: reading the schema or quick_check fails
        _damaged_page(5),  # an index page: quick_check reports it
        _damaged_bytes,  # damage all over: quick_check reports thousands of characters
    ],
    ids=[
        "text",
        "magic-then-noise",
        "truncated-header",
        "damaged-table",
        "damaged-index",
        "damaged-everywhere",
    ],
)
def test_corrupt_file_refused_unchanged(tmp_path: Path, damage: Any) -> None:
    """A corrupt or non-SQLite file is refused with one clear line, and not a byte changes."""
    path = tmp_path / "uno.db"
    damage(path)
    before = files(tmp_path)
    message = open_error(path)
    assert "not a database" in message or "corrupt" in message, message
    assert str(path) in message and "\n" not in message
    assert len(message) <= len(str(path)) + 400, f"not one short line: {len(message)} characters"
    assert files(tmp_path) == before


def test_missing_directory_refused(tmp_path: Path) -> None:
    """A database path in a directory that does not exist is refused, and nothing is created."""
    message = open_error(tmp_path / "nope" / "uno.db")
    assert "does not exist" in message
    assert not (tmp_path / "nope").exists()


def test_directory_path_refused(tmp_path: Path) -> None:
    """A database path naming a directory is refused."""
    (tmp_path / "uno.db").mkdir()
    assert "not a regular file" in open_error(tmp_path / "uno.db")


@pytest.mark.parametrize(
    ("dir_mode", "file_mode", "expected"),
    [(0o555, 0o644, "not writable"), (0o777, 0o444, "not readable and writable")],
    ids=["read-only-directory", "read-only-file"],
)
def test_unwritable_location_refused_unchanged(
    shared_tmp: Path, dir_mode: int, file_mode: int, expected: str
) -> None:
    """A directory or file this user cannot write is refused before anything changes."""
    path = shared_tmp / "uno.db"
    make_database(path)
    before = files(shared_tmp)
    path.chmod(file_mode)
    shared_tmp.chmod(dir_mode)
    try:
        message = open_error_as_nobody(path)
    finally:
        shared_tmp.chmod(0o755)
        path.chmod(0o644)
    assert expected in message and str(path) in message, message
    assert files(shared_tmp) == before


def test_background_checkpoints(tmp_path: Path) -> None:
    """The background connection copies the WAL into the database file while the bot runs."""
    path = tmp_path / "uno.db"

    async def main() -> tuple[int, int]:
        s = SqliteStorage(path, checkpoint_seconds=0.01)
        await s.open()
        try:
            empty = path.stat().st_size
            await asyncio.gather(*(s.save_table(GUILD, 40 + n, snapshot(n)) for n in range(50)))
            for _ in range(200):
                await asyncio.sleep(0.01)
                if path.stat().st_size > empty + 50 * 3_000:
                    break
            return empty, path.stat().st_size
        finally:
            await s.close()

    empty, full = asyncio.run(main())
    assert full > empty + 50 * 3_000  # the snapshots reached the file before close


def test_closed_storage_raises(tmp_path: Path) -> None:
    """Using a storage that is not open raises StorageError, not an SQLite error."""

    async def main() -> None:
        s = SqliteStorage(tmp_path / "uno.db")
        with pytest.raises(StorageError, match="not open"):
            await s.load_tables()
        await s.open()
        await s.close()
        await s.close()  # closing twice is harmless
        with pytest.raises(StorageError, match="not open"):
            await s.save_table(GUILD, 1, {})

    asyncio.run(main())


def test_close_while_checkpoints_connect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A close that comes while the checkpoint connection is still being made waits for it and
    closes it: its thread ends before the event loop does (it would report to a closed loop)."""
    failures: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    connect = sqlite3.connect

    def slow_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        time.sleep(0.2)
        return connect(*args, **kwargs)

    async def body(s: SqliteStorage) -> None:
        monkeypatch.setattr(sqlite3, "connect", slow_connect)  # the checkpoint connection's
        await asyncio.sleep(0)  # it starts connecting

    before = set(threading.enumerate())
    run_sqlite(tmp_path / "uno.db", body)
    for thread in set(threading.enumerate()) - before:
        thread.join(5)
    assert failures == []


@pytest.mark.parametrize(("text", "why"), [("{not json", "not JSON"), ("[1, 2]", "not a JSON object")])
def test_an_unreadable_table_row_comes_marked(tmp_path: Path, text: str, why: str) -> None:
    """A table row whose snapshot can't be read comes back marked ``unreadable`` with its
    channel, between the readable ones, and stays in the database."""
    path = tmp_path / "uno.db"

    async def save(s: SqliteStorage) -> None:
        for channel in (10, 11, 12):
            await s.save_table(GUILD, channel, snapshot(channel))

    run_sqlite(path, save)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE open_tables SET snapshot = ? WHERE channel_id = 11", (text,))
    loaded = run_sqlite(path, lambda s: s.load_tables())
    assert [t == snapshot(c) for t, c in zip(loaded, (10, 11, 12), strict=True)] == [True, False, True]
    assert loaded[1]["channel_id"] == 11 and loaded[1]["guild_id"] == GUILD and why in loaded[1]["unreadable"]
    assert len(run_sqlite(path, lambda s: s.load_tables())) == 3
