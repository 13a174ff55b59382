"""The bot's one SQLite connection: opened with its checks, held by one call at a time, closed.

:meth:`Connection.open` refuses, before it changes anything, with one line naming the file:

* a location it cannot write (missing directory, a directory or file without write permission);
* a file that is not an SQLite database, or one that fails ``PRAGMA quick_check``, unless it is
  the very file this code closed cleanly (:mod:`bot.storage.sqlite.files` says how it knows);
* a database newer than this code, or one with tables but no schema version (not ours);
* a missing file where a database was made before (the ``<file>.lock`` beside it says so), unless
  asked for a new one (``new_database``): a database deleted while the bot was stopped must not
  come back silently empty.

Then it sets WAL mode with ``synchronous`` ``NORMAL`` or ``FULL`` (setting ``database.synchronous``:
with NORMAL a commit survives the bot crashing, but the last commits may be lost on power loss;
with FULL each commit is also on disk when it returns; docs/performance/storage.md), foreign keys on and a
busy timeout, and applies the missing migrations (:mod:`bot.storage.sqlite.migrate`).

Every write (:meth:`Connection.use` with ``write``) first checks, with one ``os.stat``, that the
path still names the file it opened. Those checks, the lock file beside the database (one
process per database; a database made before; the record of a clean close, which spares the next
open ``PRAGMA quick_check``) and the refusals' words live in :mod:`bot.storage.sqlite.files`.

Checkpoints (copying the WAL back into the database file) would otherwise run inside the commit
that crosses SQLite's threshold, holding up every save behind it for tens of milliseconds. By
default a second connection, used for nothing else, runs a ``PASSIVE`` checkpoint every second,
beside the writer rather than in its way (``checkpoint_seconds=None`` turns that off and leaves
the checkpoints to SQLite).

A write of one statement may also go straight through (:meth:`Connection.write_now`): on the
calling thread, the event loop's, through a plain ``sqlite3`` connection of its own, when no call
holds the connection. With ``synchronous = normal`` and the background checkpoints, a commit
syncs nothing and copies nothing back: it takes about 0.1 ms, less than the hop to aiosqlite's
thread and back, which a busy event loop and a busy machine stretch to milliseconds (a move's
answer waits for its save: docs/performance/discord-layer.md). That connection never waits for a lock
(``busy_timeout`` 0): if SQLite is busy, the caller goes through :meth:`Connection.use`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from bot.storage import StorageError
from bot.storage.common import one_line
from bot.storage.sqlite.files import (
    FileId,
    LockFile,
    check_location,
    check_still_there,
    closed_record,
    corrupt,
    refusal,
)
from bot.storage.sqlite.migrate import check_version, migrate

__all__ = ["DEFAULT_SYNCHRONOUS", "Connection", "Synchronous"]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
WAL_AUTOCHECKPOINT_PAGES = 4000  # SQLite's own checkpoints, without the background ones
WAL_BACKSTOP_PAGES = 16000  # with them: only if they fall behind (a 64 MB WAL)

Synchronous = Literal["normal", "full"]
"""SQLite's ``PRAGMA synchronous`` in WAL mode: ``normal`` syncs at checkpoints only (a commit
survives a crash of the bot; a crash of the machine may lose what was committed since the last
checkpoint, about a second with the background checkpoints), ``full`` syncs the WAL at every
commit. The default is ``normal``: a move is answered once saved, and FULL's sync was most of
that answer's tail (docs/performance/storage.md, "Durability")."""
DEFAULT_SYNCHRONOUS: Synchronous = "normal"


class Connection:
    """One aiosqlite connection to one database file, lent to one caller at a time.

    Every use takes one :class:`asyncio.Lock`, so the statements of one call never interleave
    with another's on the shared connection.

    Args:
        path: the database file; created (with the schema) if missing, its directory must exist.
        checkpoint_seconds: how often the background connection checkpoints the WAL; None: no
            background connection, SQLite checkpoints inside commits.
        synchronous: ``PRAGMA synchronous`` (see `Synchronous`).
        new_database: make a new, empty database even where the lock file says one was made
            before (a missing file is otherwise refused).
    """

    def __init__(
        self,
        path: Path,
        *,
        checkpoint_seconds: float | None = 1.0,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        new_database: bool = False,
    ) -> None:
        self.path = path
        self.checkpoint_seconds = checkpoint_seconds
        self.synchronous = synchronous
        self.new_database = new_database
        self.db: aiosqlite.Connection | None = None  # None: not open; callers take it by use()
        self._direct: sqlite3.Connection | None = None  # write_now's; None: it writes nothing
        self._checkpointer: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._lock_file = LockFile(path)
        self._file: FileId | None = None  # the file opened

    @property
    def is_open(self) -> bool:
        """True from a successful :meth:`open` until :meth:`close`."""
        return self.db is not None

    async def open(self) -> None:
        """Connect, check the file and apply missing migrations; nothing if already open.

        Raises:
            StorageError: the location is not writable, the file is not a (sound) SQLite
                database, it is newer than this code, or it is missing where one was made
                before (and ``new_database`` is not set). The file is then left unchanged.
        """
        if self.db is not None:
            return
        check_location(self.path)
        self._lock_file.take(new_database=self.new_database)
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            self._lock_file.release(refused=True)
            raise StorageError(f"{self.path}: cannot open the database: {one_line(exc)}") from exc
        try:
            await self._check_and_migrate(db)
        except BaseException as exc:
            await db.close()
            self._lock_file.release(refused=True)
            if isinstance(exc, sqlite3.Error):
                raise refusal(self.path, exc) from exc
            raise
        self.db = db
        opened = os.stat(self.path)
        self._file = opened.st_dev, opened.st_ino
        self._lock_file.write(made=True)
        if self.checkpoint_seconds is not None:
            self._checkpointer = asyncio.create_task(self._checkpoint_forever(self.checkpoint_seconds))
            if self.synchronous == "normal":  # a commit that syncs nothing: quick enough for the loop
                self._direct = self._connect_direct()

    def _connect_direct(self) -> sqlite3.Connection | None:
        """The connection of :meth:`write_now` (the database is open and migrated); None if it
        can't be made (every write then goes through :meth:`use`)."""
        direct = None
        try:
            direct = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            direct.execute("PRAGMA busy_timeout = 0")
            direct.execute("PRAGMA synchronous = NORMAL")
            direct.execute(f"PRAGMA wal_autocheckpoint = {WAL_BACKSTOP_PAGES}")
            direct.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            if direct is not None:
                direct.close()
            log.warning("%s: every write goes through the connection's thread: %s", self.path, one_line(exc))
            return None
        return direct

    async def close(self) -> None:
        """Stop the checkpoints, let SQLite update its planner statistics, then close
        (checkpointing the WAL); nothing if not open."""
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            await asyncio.gather(self._checkpointer, return_exceptions=True)
            self._checkpointer = None
        db, self.db = self.db, None
        if db is None:
            return
        direct, self._direct = self._direct, None
        if direct is not None:
            direct.close()
        async with self._lock:
            try:
                await db.execute_fetchall("PRAGMA optimize")
            except sqlite3.Error as exc:  # pragma: no cover - best effort
                log.warning("%s: PRAGMA optimize failed: %s", self.path, one_line(exc))
            finally:
                await db.close()
                self._lock_file.write(made=True, closed=closed_record(self.path, self._file))
                self._lock_file.release()

    @asynccontextmanager
    async def use(
        self, *, transaction: bool = False, write: bool = False
    ) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, held alone; in ``BEGIN IMMEDIATE`` … ``COMMIT`` if ``transaction``.

        ``write`` (implied by ``transaction``): the caller writes, so the path must still name the
        file this connection opened (checked once, before anything is written).

        Raises:
            StorageError: not open, the file was deleted or replaced (a write), or any SQLite
                error (after rolling back).
        """
        async with self._lock:
            db = self.db
            if db is None:
                raise StorageError(f"{self.path}: storage is not open")
            if write or transaction:
                check_still_there(self.path, self._file)
            try:
                if transaction:
                    await db.execute_fetchall("BEGIN IMMEDIATE")
                yield db
                if transaction:
                    await db.execute_fetchall("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    try:
                        await db.rollback()
                    except sqlite3.Error as again:  # pragma: no cover - already failing
                        log.error("%s: rollback failed: %s", self.path, one_line(again))
                if isinstance(exc, sqlite3.Error):
                    raise StorageError(f"{self.path}: {one_line(exc)}") from exc
                raise

    def write_now(self, sql: str, parameters: Sequence[Any]) -> bool:
        """Run the write statement ``sql`` (autocommitted) at once on this thread, if the
        connection is free (see the module's docstring).

        Returns:
            True: written and committed. False: nothing written (no such connection: not open,
            ``synchronous = full`` or no background checkpoints; a call holds the connection; or
            SQLite is busy): the caller writes through :meth:`use`.

        Raises:
            StorageError: the file was deleted or replaced, or SQLite failed (nothing written).
        """
        direct = self._direct
        if direct is None or self._lock.locked():
            return False
        check_still_there(self.path, self._file)
        try:
            direct.execute(sql, parameters)
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return False  # held by another connection (the checkpoints'): never wait here
            raise StorageError(f"{self.path}: {one_line(exc)}") from exc
        return True

    async def _check_and_migrate(self, db: aiosqlite.Connection) -> None:
        """Read-only checks first; only then set WAL and migrate."""
        await db.execute_fetchall(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = await check_version(db, self.path)
        if not self._lock_file.unchanged_since_closed():
            problems = [row[0] for row in await db.execute_fetchall("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StorageError(corrupt(self.path, f"quick_check: {one_line(problems[0])}"))
        (mode,) = next(iter(await db.execute_fetchall("PRAGMA journal_mode = WAL")))
        if str(mode).lower() != "wal":
            log.warning("%s: journal mode is %s, not WAL (unsupported file system?)", self.path, mode)
        await db.execute_fetchall(f"PRAGMA synchronous = {self.synchronous.upper()}")
        # A checkpoint copies each page changed since the last one, once, and runs inside the
        # commit that triggers it. Table rows are rewritten all the time, so rarer checkpoints
        # do less work and delay fewer saves (the WAL grows to about 16 MB, then is reused).
        pages = WAL_AUTOCHECKPOINT_PAGES if self.checkpoint_seconds is None else WAL_BACKSTOP_PAGES
        await db.execute_fetchall(f"PRAGMA wal_autocheckpoint = {pages}")
        await db.execute_fetchall("PRAGMA foreign_keys = ON")
        await migrate(db, self.path, version)

    # ------------------------------------------------------------------ checkpoints

    async def _checkpoint_forever(self, seconds: float) -> None:
        """Every ``seconds``, a ``PASSIVE`` checkpoint on a connection of its own.

        A passive checkpoint never waits for the writer nor holds it up; what it cannot copy yet
        it copies next time. Errors are logged, not raised: the writer's backstop remains.
        """
        connecting = asyncio.ensure_future(aiosqlite.connect(self.path, isolation_level=None))
        try:
            checkpoints = await asyncio.shield(connecting)
        except asyncio.CancelledError:
            # Closed while connecting: aiosqlite would stop the connection's thread without
            # waiting, and the thread would then report to a closed event loop. Let it connect,
            # and close it.
            with contextlib.suppress(sqlite3.Error):
                await (await connecting).close()
            raise
        except sqlite3.Error as exc:
            log.warning("%s: no background checkpoints: %s", self.path, one_line(exc))
            return
        try:
            await checkpoints.execute_fetchall(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            while True:
                await asyncio.sleep(seconds)
                try:
                    await checkpoints.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as exc:
                    log.warning("%s: checkpoint failed: %s", self.path, one_line(exc))
        finally:
            await checkpoints.close()
