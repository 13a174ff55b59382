"""SQLite files for the tests: a storage run on a path, the error opening one gives, the bytes
of a directory, a database with a little of everything."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from bot.storage import StorageError
from bot.storage.sqlite import SqliteStorage

from ..helpers import ANA, BEN, GUILD, game, rnd, run, snapshot


def run_sqlite(path: Path, body: Any) -> Any:
    """Open a SqliteStorage on ``path``, await ``body(storage)``, close; the body's result."""
    return run(SqliteStorage(path), body)


def open_error(path: Path) -> str:
    """The StorageError message opening ``path`` gives (fails if it opens)."""

    async def main() -> str:
        storage = SqliteStorage(path)
        try:
            await storage.open()
        except StorageError as exc:
            return str(exc)
        await storage.close()
        raise AssertionError(f"{path} opened")

    return asyncio.run(main())


def files(directory: Path) -> dict[str, bytes]:
    """Every file in ``directory`` with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def make_database(path: Path) -> None:
    """A current database with a little of everything in it."""

    async def fill(s: SqliteStorage) -> None:
        await s.set_channel_settings(GUILD, 10, {"variant": "flip"})
        results = [rnd("g1", n, ANA, 10 * n, [ANA, BEN]) for n in range(1, 4)]
        await s.save_table(GUILD, 10, snapshot(1), [*results, game("g1", [ANA], [ANA, BEN])])

    run_sqlite(path, fill)


def open_error_as_nobody(path: Path) -> str:
    """:func:`open_error` as an unprivileged user (in a forked child when we are root)."""
    if os.geteuid() != 0:
        return open_error(path)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            os.setgid(65534)
            os.setuid(65534)
            message = open_error(path)
        except BaseException as exc:
            message = f"child failed: {exc!r}"
        os.write(write, message.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read().decode()
    os.waitpid(pid, 0)
    return message
