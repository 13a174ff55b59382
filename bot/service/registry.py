"""The registry of tables: every table by channel, each with its own lock.

Two clicks on one table never race: every change of a table runs under its lock. The registry
also knows which task holds a lock, so that no Discord call is made while one is held (it would
keep every other command of that table waiting on Discord; the end-to-end tests check it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

from bot.tables import NoTable, Table


class TableRegistry:
    """Every table, by channel id, each with its own lock, so two clicks can never race."""

    def __init__(self) -> None:
        self._tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._holders: dict[asyncio.Task[Any] | None, int] = {}

    def get(self, channel_id: int) -> Table | None:
        """The channel's table, if any."""
        return self._tables.get(channel_id)

    def require(self, channel_id: int) -> Table:
        """The channel's table. Raises NoTable."""
        table = self._tables.get(channel_id)
        if table is None:
            raise NoTable()
        return table

    def put(self, table: Table) -> None:
        """Register (or replace) the channel's table."""
        self._tables[table.channel_id] = table

    def remove(self, channel_id: int) -> None:
        """Forget the channel's table (its lock stays for callers still waiting)."""
        self._tables.pop(channel_id, None)

    @contextlib.asynccontextmanager
    async def lock(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's lock (created on first use) for the block.

        Not reentrant: a task holding it must not ask for it again.
        """
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock:
            task = asyncio.current_task()
            self._holders[task] = self._holders.get(task, 0) + 1
            try:
                yield
            finally:
                if self._holders[task] == 1:
                    del self._holders[task]
                else:
                    self._holders[task] -= 1

    def held_here(self) -> bool:
        """Whether the running task holds a table's lock (no Discord call may be made then: it
        would keep every other command of that table waiting on Discord)."""
        return asyncio.current_task() in self._holders

    def __iter__(self) -> Iterator[Table]:
        """Every table (a copy of the list: tables may come and go while it is walked)."""
        return iter(list(self._tables.values()))

    def __len__(self) -> int:
        return len(self._tables)
