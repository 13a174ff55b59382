"""The ``storage`` fixture: one test body per storage backend (only SQLite so far).

A backend is a factory of unopened :class:`~bot.storage.Storage` objects on one fresh database.
Tests drive asyncio themselves (``backend.run(body)``), so no asyncio plugin is needed. To add
PostgreSQL, add an entry to :data:`BACKENDS` that makes a storage on a fresh schema.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest

from bot.storage import Storage
from bot.storage.sqlite import SqliteStorage

T = TypeVar("T")

#: name -> function of the test's temporary directory returning a storage factory.
BACKENDS: dict[str, Callable[[Path], Callable[[], Storage]]] = {
    "sqlite": lambda tmp: lambda: SqliteStorage(tmp / "uno.db"),
    # SQLite checkpointing inside commits instead of on its own connection.
    "sqlite-inline-checkpoints": lambda tmp: lambda: SqliteStorage(tmp / "uno.db", checkpoint_seconds=None),
}


class Backend:
    """Storages of one backend on one database, and a way to run async test bodies on them."""

    def __init__(self, name: str, make: Callable[[], Storage]) -> None:
        self.name = name
        self.make = make

    def run(self, body: Callable[[Storage], Awaitable[T]]) -> T:
        """Open a storage on the database, await ``body(storage)``, close it; the body's result.

        Each call is a fresh connection (a bot restart), on the same data.
        """

        async def main() -> T:
            storage = self.make()
            await storage.open()
            try:
                return await body(storage)
            finally:
                await storage.close()

        return asyncio.run(main())


@pytest.fixture(params=sorted(BACKENDS))
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """A backend on a fresh, empty database."""
    name: str = request.param
    return Backend(name, BACKENDS[name](tmp_path))
