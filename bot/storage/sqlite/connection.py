"""The bot's one SQLite connection: opened with its checks, held by one call at a time, closed.

:meth:`Connection.open` refuses, before it changes anything, with one line naming the file:

* a location it cannot write (missing directory, a directory or file without write permission);
* a file that is not an SQLite database, or one that fails ``PRAGMA quick_check``, unless it is
  the very file this code closed cleanly (below);
* a database newer than this code, or one with tables but no schema version (not ours);
* a missing file where a database was made before (the ``<file>.lock`` beside it says so), unless
  asked for a new one (``new_database``): a database deleted while the bot was stopped must not
  come back silently empty.

Then it sets WAL mode with ``synchronous`` ``NORMAL`` or ``FULL`` (setting ``database.synchronous``:
with NORMAL a commit survives the bot crashing, but the last commits may be lost on power loss;
with FULL each commit is also on disk when it returns; docs/performance/storage.md), foreign keys on and a
busy timeout, and applies the missing migrations (:mod:`bot.storage.sqlite.migrate`).

Every write (:meth:`Connection.use` with ``write``) first checks, with one ``os.stat``, that the
path still names the file it opened: SQLite would go on writing to a deleted file's inode, every
save "succeeding", and the next start would find no database at all.

``PRAGMA quick_check`` reads the whole file (0.14-0.37 s for 10,000 saved games, more with
years of results), so it is skipped where it can only find what it found before: the file was
closed cleanly (its WAL written back and removed), and nothing has written to it since. At a clean
close the file's modification time is set back by one nanosecond and recorded, with its inode and
size, in the lock file; any later write, by anyone, sets the modification time to the present,
which cannot be that recorded moment. A crash, a kill or a power cut leaves no record, and the
next open checks the whole file.

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

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from bot.storage import StorageError
from bot.storage.common import one_line
from bot.storage.sqlite.migrate import check_version, migrate

__all__ = ["DEFAULT_SYNCHRONOUS", "SQLITE_MAGIC", "Connection", "Synchronous"]

log = logging.getLogger(__name__)

SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 5000
WAL_AUTOCHECKPOINT_PAGES = 4000  # SQLite's own checkpoints, without the background ones
WAL_BACKSTOP_PAGES = 16000  # with them: only if they fall behind (a 64 MB WAL)
MADE = "a database was made at this path"  # the lock file's second line once one was
CLOSED = "closed cleanly:"  # the lock file's third line after a clean close: inode, size, mtime (ns)

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
        self._alone: tuple[int, Path | None] | None = None  # the held lock file, and if it made it
        self._closed: str | None = None  # the lock file's CLOSED line, from the last clean close
        self._file: tuple[int, int] | None = None  # the open file's (device, inode)

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
        self._check_location()
        self._hold_alone()
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            self._let_go(refused=True)
            raise StorageError(f"{self.path}: cannot open the database: {one_line(exc)}") from exc
        try:
            await self._check_and_migrate(db)
        except BaseException as exc:
            await db.close()
            self._let_go(refused=True)
            if isinstance(exc, sqlite3.Error):
                raise self._refusal(exc) from exc
            raise
        self.db = db
        opened = os.stat(self.path)
        self._file = opened.st_dev, opened.st_ino
        self._write_lock(made=True)
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
                self._write_lock(made=True, closed=self._mark_closed())
                self._let_go()

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
                self._check_still_there()
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
        self._check_still_there()
        try:
            direct.execute(sql, parameters)
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return False  # held by another connection (the checkpoints'): never wait here
            raise StorageError(f"{self.path}: {one_line(exc)}") from exc
        return True

    # ------------------------------------------------------------------ checks

    def _hold_alone(self) -> None:
        """Take the database for this process alone: an exclusive lock on ``<file>.lock`` beside
        it, held until :meth:`close` (the system drops it if the process dies). Two bots on one
        database would both restore its tables and act on them.

        Raises:
            StorageError: another process (its pid named) holds the database.
        """
        if fcntl is None:  # pragma: no cover - not a POSIX system: no guarantee
            return
        lock = self.path.with_name(self.path.name + ".lock")
        made = not lock.exists()
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = (os.pread(fd, 32, 0).decode(errors="replace").split() or ["unknown"])[0]
            os.close(fd)
            raise StorageError(
                f"{self.path}: in use by another running bot (pid {holder}); one bot per database: "
                "stop that one, or give this one its own database.path"
            ) from None
        self._alone = fd, lock if made else None
        lines = os.pread(fd, 4096, 0).decode(errors="replace").splitlines()
        was_made = MADE in lines
        self._closed = next((line for line in lines if line.startswith(CLOSED)), None)
        if was_made and not self.path.exists():
            if not self.new_database:
                self._let_go(refused=True)
                raise StorageError(
                    f"{self.path}: the database is missing, but one was made here before ({lock.name} "
                    "records it); nothing was created: put the file back (from a backup), or start "
                    "with --new-database to begin a new, empty one"
                )
            log.warning("%s: the database is missing; making a new, empty one (--new-database)", self.path)
            was_made = False
        self._write_lock(made=was_made, closed=self._closed)  # kept until the file is opened

    def _write_lock(self, *, made: bool, closed: str | None = None) -> None:
        """Write the lock file: this process's pid (a second bot names it), then `MADE` once a
        database is (or was found) at the path, then the `CLOSED` line of a clean close."""
        if self._alone is not None:
            fd = self._alone[0]
            lines = [str(os.getpid()), *([MADE] if made else []), *([closed] if closed else [])]
            os.ftruncate(fd, 0)
            os.pwrite(fd, "".join(f"{line}\n" for line in lines).encode(), 0)

    def _wal_empty(self) -> bool:
        """Whether the WAL holds nothing (no ``-wal`` file, or an empty one)."""
        try:
            return os.stat(self.path.with_name(self.path.name + "-wal")).st_size == 0
        except FileNotFoundError:
            return True

    def _mark_closed(self) -> str | None:
        """After the last connection closed: the `CLOSED` line for the lock file, with the file's
        modification time set back by 1 ns (see the module's docstring); None where the close
        left the WAL, the path no longer names the file opened, or the file system cannot hold
        the time set (the next open then checks the whole file)."""
        try:
            before = os.stat(self.path)
            if (before.st_dev, before.st_ino) != self._file or not self._wal_empty():
                return None
            os.utime(self.path, ns=(before.st_atime_ns, before.st_mtime_ns - 1))
            after = os.stat(self.path)
        except OSError:
            return None
        if after.st_mtime_ns >= before.st_mtime_ns:
            return None
        return f"{CLOSED} {after.st_ino} {after.st_size} {after.st_mtime_ns}"

    def _unchanged_since_closed(self) -> bool:
        """Whether the file is the one the last clean close left, not written since (its inode,
        size and modification time as recorded, and no WAL)."""
        if self._closed is None or not self._wal_empty():
            return False
        try:
            now = os.stat(self.path)
        except OSError:
            return False
        return self._closed == f"{CLOSED} {now.st_ino} {now.st_size} {now.st_mtime_ns}"

    def _check_still_there(self) -> None:
        """Refuse a write to a file that is no longer at the path (one ``os.stat``).

        Raises:
            StorageError: the path names no file, or another one, than the one opened.
        """
        try:
            now = os.stat(self.path)
        except OSError as exc:
            gone = isinstance(exc, FileNotFoundError)
            how = "was deleted (or moved away)" if gone else f"cannot be reached ({exc.strerror})"
        else:
            if (now.st_dev, now.st_ino) == self._file:
                return
            how = "was replaced by another file"
        raise StorageError(
            f"{self.path}: the database file {how} while the bot was running; nothing more is "
            "saved. Stop the bot, put the file back (from a backup if it is gone), and start it "
            "again"
        )

    def _let_go(self, *, refused: bool = False) -> None:
        """Release the lock of :meth:`_hold_alone`; after a refusal to open, also remove the lock
        file it made, so a refused database leaves its folder as it found it."""
        if self._alone is not None:
            fd, made = self._alone
            if refused and made is not None:
                made.unlink(missing_ok=True)
            os.close(fd)  # closing the file releases its lock
            self._alone = None

    def _check_location(self) -> None:
        """Refuse, before touching anything, a location SQLite could not write."""
        path = self.path
        directory = path.absolute().parent
        if not directory.is_dir():
            raise StorageError(f"{path}: directory {directory} does not exist")
        if not os.access(directory, os.W_OK | os.X_OK):
            raise StorageError(
                f"{path}: directory {directory} is not writable (SQLite creates {path.name}-wal "
                "and -shm beside the database); fix its permissions or choose another path"
            )
        if not path.exists():
            return
        if not path.is_file():
            raise StorageError(f"{path}: not a regular file")
        if not os.access(path, os.R_OK | os.W_OK):
            raise StorageError(f"{path}: the file is not readable and writable by this user")
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
        if head and head != SQLITE_MAGIC:
            raise StorageError(self._not_a_database())

    def _not_a_database(self) -> str:
        return (
            f"{self.path}: file is not a database (corrupt, or not SQLite); it was left "
            "unchanged: restore a backup or choose another path"
        )

    def _refusal(self, exc: sqlite3.Error) -> StorageError:
        text = one_line(exc)
        if "not a database" in text:
            return StorageError(self._not_a_database())
        if "malformed" in text:
            return StorageError(self._corrupt(text))
        return StorageError(f"{self.path}: cannot use the database: {text}")

    def _corrupt(self, detail: str) -> str:
        return (
            f"{self.path}: database is corrupt ({detail}); it was left unchanged: restore a "
            "backup or choose another path"
        )

    async def _check_and_migrate(self, db: aiosqlite.Connection) -> None:
        """Read-only checks first; only then set WAL and migrate."""
        await db.execute_fetchall(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = await check_version(db, self.path)
        if not self._unchanged_since_closed():
            problems = [row[0] for row in await db.execute_fetchall("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StorageError(self._corrupt(f"quick_check: {one_line(problems[0])}"))
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
