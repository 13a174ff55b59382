"""The SQLite connection (bot/storage/sqlite/connection.py, its file checks in files.py): its
pragmas, the files it refuses without changing them, its background checkpoints, and use when it
is not open."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage import StorageError
from bot.storage.sqlite import MIGRATIONS, SQLITE_MAGIC, SqliteStorage
from bot.storage.sqlite.connection import Connection, Synchronous

from ..helpers import ANA, GUILD, run, snapshot
from .helpers import files, make_database, open_error, open_error_as_nobody, run_sqlite


@pytest.mark.parametrize("existing", [False, True], ids=["no-file", "empty-file"])
@pytest.mark.parametrize(("checkpoint_seconds", "autocheckpoint"), [(1.0, 16000), (None, 4000)])
@pytest.mark.parametrize(("synchronous", "level"), [("normal", 1), ("full", 2)])
def test_user_version_and_pragmas(
    tmp_path: Path,
    existing: bool,
    checkpoint_seconds: float | None,
    autocheckpoint: int,
    synchronous: Synchronous,
    level: int,
) -> None:
    """A new database gets the latest user_version, WAL, the synchronous level asked for
    (NORMAL 1, FULL 2), foreign keys, and rare checkpoints in commits when the background ones
    run."""
    path = tmp_path / "uno.db"
    if existing:
        path.write_bytes(b"")

    async def pragmas() -> list[Any]:
        connection = Connection(path, checkpoint_seconds=checkpoint_seconds, synchronous=synchronous)
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

    assert asyncio.run(pragmas()) == [len(MIGRATIONS), "wal", level, 1, 5000, autocheckpoint]
    assert asyncio.run(pragmas())[0] == len(MIGRATIONS)  # reopening migrates nothing


def _damaged_page(number: int) -> Any:
    """Damage: a real database with page ``number`` (1-based) overwritten with noise."""

    def damage(path: Path) -> None:
        make_database(path)
        _overwrite_page(path, number)

    return damage


def _overwrite_page(path: Path, number: int) -> None:
    """Overwrite page ``number`` (1-based) of the database file with noise."""
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big") or 65536
    start = (number - 1) * size
    data[start : start + size] = random.Random(7).randbytes(size)
    path.write_bytes(bytes(data))


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


def _statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SQL statement the storage's connections run from now on (SQLite's trace)."""
    statements: list[str] = []
    connect = aiosqlite.connect

    async def traced(*args: Any, **kwargs: Any) -> aiosqlite.Connection:
        db = await connect(*args, **kwargs)
        await db.set_trace_callback(statements.append)
        return db

    monkeypatch.setattr(aiosqlite, "connect", traced)
    return statements


def _checks(path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many times opening ``path`` (then closing it) runs ``PRAGMA quick_check``."""
    with monkeypatch.context() as patch:
        statements = _statements(patch)
        run_sqlite(path, lambda s: s.load_tables())
    return sum("quick_check" in statement for statement in statements)


def _crash(path: Path, *, save: bool = True) -> None:
    """A bot process opens ``path``, saves a table (if ``save``) and dies without closing it."""
    script = (
        "import asyncio, os\n"
        "from bot.storage.sqlite import SqliteStorage\n"
        "async def main():\n"
        f"    s = SqliteStorage({str(path)!r})\n"
        "    await s.open()\n"
        f"    if {save}: await s.save_table({GUILD}, 77, {{'kind': 'lobby'}})\n"
        "    os._exit(0)\n"
        "asyncio.run(main())\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


def test_clean_close_spares_the_next_open_its_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole file is checked at the first open and after a crash, not when it is the very file
    a clean close left (quick_check reads it all: a slow start with many games)."""
    path = tmp_path / "uno.db"
    assert _checks(path, monkeypatch) == 1  # a new database
    assert _checks(path, monkeypatch) == 0  # closed cleanly, untouched since
    assert _checks(path, monkeypatch) == 0
    _crash(path)
    assert _checks(path, monkeypatch) == 1
    assert _checks(path, monkeypatch) == 0
    assert run_sqlite(path, lambda s: s.load_tables()) == [{"kind": "lobby"}]  # the crashed save is there


def test_damage_after_a_crash_refused_unchanged(tmp_path: Path) -> None:
    """A database its bot did not close, then damaged (an index page, which only the whole
    file's check finds), is refused and the database file left as it was."""
    path = tmp_path / "uno.db"
    make_database(path)
    _crash(path, save=False)
    _overwrite_page(path, 5)
    before = path.read_bytes()
    assert "corrupt" in open_error(path)
    assert path.read_bytes() == before


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


async def save_once(
    path: Path, synchronous: Synchronous, connect: Callable[[Path], sqlite3.Connection] = sqlite3.connect
) -> tuple[bool, int]:
    """Open the storage at ``path`` and save table 7: whether the save's coroutine finished
    without suspending, and the rows of table 7 another connection (``connect``) sees then."""
    s = SqliteStorage(path, synchronous=synchronous)
    await s.open()
    try:
        saving = s.save_table(GUILD, 7, snapshot(7))
        try:
            saving.send(None)
        except StopIteration:
            at_once = True
        else:
            at_once = False
            saving.close()
            await s.save_table(GUILD, 7, snapshot(7))  # the same save, awaited as it is
        with connect(path) as other:
            rows = other.execute("SELECT count(*) FROM open_tables WHERE channel_id = 7").fetchone()[0]
        return at_once, rows
    finally:
        await s.close()


@pytest.mark.parametrize(("synchronous", "at_once"), [("normal", True), ("full", False)])
def test_a_save_on_a_free_connection_is_written_at_once(
    tmp_path: Path, synchronous: Synchronous, at_once: bool
) -> None:
    """With ``synchronous = normal`` a table's save, the connection free, is committed without
    the coroutine ever suspending (no hop to aiosqlite's thread) and is visible to another
    connection; with ``full`` (a sync per commit) it goes through the connection's thread."""
    path = tmp_path / "uno.db"

    done, rows = asyncio.run(save_once(path, synchronous))
    assert done is at_once and rows == 1


def test_a_direct_connection_that_fails_its_pragmas_leaves_writes_to_the_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """If the connection for writes at once can be opened but refuses its settings (a disk
    error, say), the storage still opens: one warning, that connection closed, and every save
    goes through the connection's thread (the coroutine suspends), written all the same."""
    path = tmp_path / "uno.db"
    connect, made = sqlite3.connect, []

    class Refusing:
        def __init__(self, real: sqlite3.Connection) -> None:
            self.real, self.closed = real, False

        def execute(self, sql: str, *args: Any) -> Any:
            if sql.startswith("PRAGMA"):
                raise sqlite3.OperationalError("disk I/O error")
            return self.real.execute(sql, *args)

        def close(self) -> None:
            self.closed = True
            self.real.close()

    def connect_refusing(*args: Any, **kwargs: Any) -> Any:
        real = connect(*args, **kwargs)
        if threading.current_thread() is not threading.main_thread():
            return real  # aiosqlite's own connection, made in its thread
        made.append(Refusing(real))
        return made[-1]

    monkeypatch.setattr(sqlite3, "connect", connect_refusing)
    with caplog.at_level("WARNING"):
        at_once, rows = asyncio.run(save_once(path, "normal", connect))
    assert not at_once and rows == 1
    assert [r.message for r in caplog.records if "through the connection's thread" in r.message]
    assert made and all(m.closed for m in made)


def test_a_save_never_overtakes_a_queued_one(tmp_path: Path) -> None:
    """A save made while an earlier save of the same table waits for the connection is queued
    behind it, never written at once ahead of it: the later snapshot is the one kept."""
    path = tmp_path / "uno.db"

    async def main() -> list[dict[str, Any]]:
        s = SqliteStorage(path)
        await s.open()
        try:
            async with s._connection.use():  # a call holds the connection
                first = asyncio.create_task(s.save_table(GUILD, 7, snapshot(7, note="first")))
                await asyncio.sleep(0)  # queued, its writer waiting for the connection
            await s.save_table(GUILD, 7, snapshot(7, note="second"))  # the writer has not run yet
            await first
            return await s.load_tables()
        finally:
            await s.close()

    (table,) = asyncio.run(main())
    assert table["note"] == "second"


def test_a_save_waits_out_another_connections_lock(tmp_path: Path) -> None:
    """When another connection holds SQLite's write lock, a save is not refused as busy: it goes
    through the connection's thread, which waits for the lock, and is written once it is free."""
    path = tmp_path / "uno.db"

    async def main() -> list[dict[str, Any]]:
        s = SqliteStorage(path)
        await s.open()
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            other.execute("BEGIN IMMEDIATE")
            saving = asyncio.create_task(s.save_table(GUILD, 7, snapshot(7)))
            await asyncio.sleep(0.2)
            assert not saving.done()  # waiting for the lock, not failed
            other.execute("COMMIT")
            await saving
            return await s.load_tables()
        finally:
            other.close()
            await s.close()

    (table,) = asyncio.run(main())
    assert table["channel_id"] == 1007


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


def test_a_database_deleted_while_open_is_not_written(tmp_path: Path) -> None:
    """The file deleted under an open storage: every write after it fails with a StorageError
    naming the path and what to do (SQLite alone would write on to the deleted inode, every
    save "succeeding"); reads still answer."""
    path = tmp_path / "uno.db"

    async def body(s: SqliteStorage) -> list[str]:
        await s.save_table(GUILD, 10, snapshot(1))
        path.unlink()
        refused = []
        for write in (
            s.save_table(GUILD, 10, snapshot(2)),
            s.set_channel_settings(GUILD, 10, {"variant": "flip"}),
            s.delete_table(10),
            s.forget_user(ANA),
        ):
            with pytest.raises(StorageError) as caught:
                await write
            refused.append(str(caught.value))
        assert await s.load_tables() == [snapshot(1)]
        return refused

    for message in run_sqlite(path, body):
        assert message.startswith(
            f"{path}: the database file was deleted (or moved away) while the bot was running"
        )
        assert "Stop the bot, put the file back" in message


def test_a_database_replaced_while_open_is_not_written(tmp_path: Path) -> None:
    """Another file moved to the path (a backup restored under a running bot): the storage's
    writes are refused, and the new file is not touched."""
    path, other = tmp_path / "uno.db", tmp_path / "backup.db"
    make_database(other)

    async def body(s: SqliteStorage) -> str:
        await s.save_table(GUILD, 10, snapshot(1))
        os.replace(other, path)
        before = path.read_bytes()
        with pytest.raises(StorageError, match="was replaced by another file") as caught:
            await s.save_table(GUILD, 10, snapshot(2))
        assert path.read_bytes() == before
        return str(caught.value)

    assert run_sqlite(path, body).startswith(f"{path}: the database file was replaced")


def test_a_missing_database_that_existed_is_refused(tmp_path: Path) -> None:
    """A database made at a path, then deleted while no bot ran: opening the path again is
    refused with one line, and nothing is created; with ``new_database`` a new, empty one is
    made (and from then on guarded the same way)."""
    path = tmp_path / "uno.db"
    make_database(path)
    for name in ("uno.db", "uno.db-wal", "uno.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    before = files(tmp_path)
    message = open_error(path)
    assert message == (
        f"{path}: the database is missing, but one was made here before (uno.db.lock records it); "
        "nothing was created: put the file back (from a backup), or start with --new-database to "
        "begin a new, empty one"
    )
    assert files(tmp_path) == before
    assert run(SqliteStorage(path, new_database=True), lambda s: s.load_tables()) == []
    path.unlink()
    assert "the database is missing" in open_error(path)


def test_a_first_start_needs_no_flag(tmp_path: Path) -> None:
    """No database and no record of one (a fresh folder, or a lock file from before the record
    was kept): the database is made as ever."""
    path = tmp_path / "uno.db"
    (tmp_path / "uno.db.lock").write_text("4242")  # an older bot's lock file: its pid only
    assert run_sqlite(path, lambda s: s.load_tables()) == []
    assert path.is_file()
