"""The SQLite database's files as :class:`~bot.storage.sqlite.connection.Connection` checks them:
the location before anything is opened, the lock file beside the database, the file still at its
path before each write, and the refusals' words.

The lock file ``<file>.lock`` (:class:`LockFile`) is held, with an exclusive lock, by the one
process using the database (two bots on one database would both restore its tables and act on
them). Its lines: the holder's pid (a second bot names it), `MADE` once a database was made at the
path (a database deleted while the bot was stopped must not come back silently empty), then the
`CLOSED` record of a clean close.

``PRAGMA quick_check`` reads the whole file (0.14-0.37 s for 10,000 saved games, more with
years of results), so it is skipped where it can only find what it found before: the file was
closed cleanly (its WAL written back and removed), and nothing has written to it since. At a clean
close the file's modification time is set back by one nanosecond and recorded, with its inode and
size, in the lock file (:func:`closed_record`); any later write, by anyone, sets the modification
time to the present, which cannot be that recorded moment. A crash, a kill or a power cut leaves
no record, and the next open checks the whole file (:meth:`LockFile.unchanged_since_closed`).
"""

from __future__ import annotations

import logging
import os

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
import sqlite3
from pathlib import Path

from bot.storage import StorageError
from bot.storage.common import one_line

__all__ = [
    "CLOSED",
    "MADE",
    "SQLITE_MAGIC",
    "FileId",
    "LockFile",
    "check_location",
    "check_still_there",
    "closed_record",
    "corrupt",
    "refusal",
]

log = logging.getLogger(__name__)

SQLITE_MAGIC = b"SQLite format 3\x00"
MADE = "a database was made at this path"  # the lock file's second line once one was
CLOSED = "closed cleanly:"  # the lock file's third line after a clean close: inode, size, mtime (ns)

FileId = tuple[int, int]
"""A file's ``(device, inode)``: the file a connection opened, whatever the path names since."""


class LockFile:
    """The lock file ``<path>.lock`` beside the database at ``path`` (see the module's docstring).

    Args:
        path: the database file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._held: tuple[int, Path | None] | None = None  # the lock file's descriptor, and if it made it
        self._closed: str | None = None  # its `CLOSED` line, from the last clean close

    def take(self, *, new_database: bool) -> None:
        """Take the database for this process alone: an exclusive lock on the lock file, held
        until :meth:`release` (the system drops it if the process dies).

        Args:
            new_database: a missing database where one was made before is made anew, not refused.

        Raises:
            StorageError: another process (its pid named) holds the database, or the database is
                missing where one was made before (and not ``new_database``); the lock is then
                not held.
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
        self._held = fd, lock if made else None
        lines = os.pread(fd, 4096, 0).decode(errors="replace").splitlines()
        was_made = MADE in lines
        self._closed = next((line for line in lines if line.startswith(CLOSED)), None)
        if was_made and not self.path.exists():
            if not new_database:
                self.release(refused=True)
                raise StorageError(
                    f"{self.path}: the database is missing, but one was made here before ({lock.name} "
                    "records it); nothing was created: put the file back (from a backup), or start "
                    "with --new-database to begin a new, empty one"
                )
            log.warning("%s: the database is missing; making a new, empty one (--new-database)", self.path)
            was_made = False
        self.write(made=was_made, closed=self._closed)  # kept until the file is opened

    def write(self, *, made: bool, closed: str | None = None) -> None:
        """Write the lock file, if held: this process's pid, then `MADE` once a database is (or
        was found) at the path, then ``closed``, the `CLOSED` line of a clean close."""
        if self._held is not None:
            fd = self._held[0]
            lines = [str(os.getpid()), *([MADE] if made else []), *([closed] if closed else [])]
            os.ftruncate(fd, 0)
            os.pwrite(fd, "".join(f"{line}\n" for line in lines).encode(), 0)

    def release(self, *, refused: bool = False) -> None:
        """Release the lock of :meth:`take`; after a refusal to open (``refused``), also remove
        the lock file it made, so a refused database leaves its folder as it found it."""
        if self._held is not None:
            fd, made = self._held
            if refused and made is not None:
                made.unlink(missing_ok=True)
            os.close(fd)  # closing the file releases its lock
            self._held = None

    def unchanged_since_closed(self) -> bool:
        """Whether the file is the one the last clean close left, not written since (its inode,
        size and modification time as recorded, and no WAL)."""
        if self._closed is None or not _wal_empty(self.path):
            return False
        try:
            now = os.stat(self.path)
        except OSError:
            return False
        return self._closed == f"{CLOSED} {now.st_ino} {now.st_size} {now.st_mtime_ns}"


def closed_record(path: Path, opened: FileId | None) -> str | None:
    """After the last connection to ``path`` closed: the `CLOSED` line for the lock file, with
    the file's modification time set back by 1 ns (see the module's docstring); None where the
    close left the WAL, the path no longer names the file ``opened``, or the file system cannot
    hold the time set (the next open then checks the whole file)."""
    try:
        before = os.stat(path)
        if (before.st_dev, before.st_ino) != opened or not _wal_empty(path):
            return None
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns - 1))
        after = os.stat(path)
    except OSError:
        return None
    if after.st_mtime_ns >= before.st_mtime_ns:
        return None
    return f"{CLOSED} {after.st_ino} {after.st_size} {after.st_mtime_ns}"


def _wal_empty(path: Path) -> bool:
    """Whether the WAL of the database at ``path`` holds nothing (no ``-wal`` file, or an empty one)."""
    try:
        return os.stat(path.with_name(path.name + "-wal")).st_size == 0
    except FileNotFoundError:
        return True


def check_still_there(path: Path, opened: FileId | None) -> None:
    """Refuse a write to a file that is no longer at ``path`` (one ``os.stat``): SQLite would go
    on writing to a deleted file's inode, every save "succeeding", and the next start would find
    no database at all.

    Raises:
        StorageError: the path names no file, or another one, than the file ``opened``.
    """
    try:
        now = os.stat(path)
    except OSError as exc:
        gone = isinstance(exc, FileNotFoundError)
        how = "was deleted (or moved away)" if gone else f"cannot be reached ({exc.strerror})"
    else:
        if (now.st_dev, now.st_ino) == opened:
            return
        how = "was replaced by another file"
    raise StorageError(
        f"{path}: the database file {how} while the bot was running; nothing more is "
        "saved. Stop the bot, put the file back (from a backup if it is gone), and start it "
        "again"
    )


def check_location(path: Path) -> None:
    """Refuse, before touching anything, a location SQLite could not write, or a file at ``path``
    that is not an SQLite database.

    Raises:
        StorageError: the directory is missing or not writable, or the file is not a regular,
            readable and writable SQLite file.
    """
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
        raise StorageError(_not_a_database(path))


def refusal(path: Path, exc: sqlite3.Error) -> StorageError:
    """The error that refuses to open ``path`` after SQLite's ``exc``, in the words of the checks."""
    text = one_line(exc)
    if "not a database" in text:
        return StorageError(_not_a_database(path))
    if "malformed" in text:
        return StorageError(corrupt(path, text))
    return StorageError(f"{path}: cannot use the database: {text}")


def corrupt(path: Path, detail: str) -> str:
    """The refusal of a database SQLite reports damaged (``detail``: what it reported)."""
    return (
        f"{path}: database is corrupt ({detail}); it was left unchanged: restore a "
        "backup or choose another path"
    )


def _not_a_database(path: Path) -> str:
    return (
        f"{path}: file is not a database (corrupt, or not SQLite); it was left "
        "unchanged: restore a backup or choose another path"
    )
