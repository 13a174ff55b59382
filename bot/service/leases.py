"""Table leases: which bot process acts on a table, so that a table never has two owners.

Discord sends a guild's interactions to the process running its shard, but two processes may
still both believe they serve one (two started with overlapping ``discord.shard_ids``, or a
replacement started before the old process died). Each process takes a table's lease before it
restores or opens it, renews its leases every `RENEW_SECONDS`, gives up those of closed tables,
and drops a table whose lease another process took over (after it expired: its owner stopped
renewing). A write to a table leased to another process is refused by the storage
(``LeaseError``, a ``StorageError``: the change is rolled back and the player told it was not
saved).

The leases are the storage's (``acquire_tables``, ``renew_tables``, ``release_tables``: rows with
an expiry on PostgreSQL). A storage without them (one process per database) holds every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Protocol, runtime_checkable

from bot.storage import StorageError

log = logging.getLogger(__name__)
LEASE_SECONDS = 60.0
"""How long a lease lasts unless renewed: a process that died holds its tables this long."""
RENEW_SECONDS = 15.0
"""How often the leases are renewed (a quarter of `LEASE_SECONDS`: three renewals may fail)."""


@runtime_checkable
class Leasing(Protocol):
    """A storage with table leases (see ``bot.storage.Storage.acquire_tables``)."""

    async def acquire_tables(self, channel_ids: Sequence[int], seconds: float) -> set[int]:
        """Take these tables' leases; the channel ids now held."""

    async def renew_tables(self, seconds: float) -> set[int]:
        """Extend every lease held; the channel ids still held."""

    async def release_tables(self, channel_ids: Sequence[int]) -> None:
        """Give up these tables' leases."""


class Leases:
    """This process's table leases.

    Args:
        storage: the bot's storage (leases only if it has them, `Leasing`).
        open_tables: the channel ids of the tables in memory, read at each renewal.
        lost: called with a table's channel id once its lease went to another process (drop
            the table from memory: its new owner restores it).
        gained: called with the channel ids of `waiting` tables once their leases are held
            (restore them).

    Attributes:
        waiting: saved tables of this process's guilds whose lease another process held at
            restore; each renewal tries to take them (the other process may have died).
    """

    def __init__(
        self,
        storage: object,
        open_tables: Callable[[], Iterable[int]],
        lost: Callable[[int], Awaitable[None]],
        gained: Callable[[set[int]], Awaitable[object]],
    ) -> None:
        self._storage = storage if isinstance(storage, Leasing) else None
        self._open_tables = open_tables
        self._lost = lost
        self._gained = gained
        self._renewing: asyncio.Task[None] | None = None
        self.waiting: set[int] = set()

    async def take(self, channel_ids: Sequence[int]) -> set[int]:
        """Take these tables' leases; the channel ids held (all of them without leases).

        Raises:
            StorageError: the database failed (nothing is held then).
        """
        if self._storage is None or not channel_ids:
            return set(channel_ids)
        return await self._storage.acquire_tables(channel_ids, LEASE_SECONDS)

    def start(self) -> None:
        """Renew the leases every `RENEW_SECONDS` until `close`."""
        if self._storage is not None and self._renewing is None:
            self._renewing = asyncio.create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self.renew()
            except StorageError as exc:  # the next renewal tries again, well within the lease
                log.warning("table leases not renewed: %s", exc)

    async def renew(self) -> None:
        """Renew every lease held; give up those of tables no longer open here; take those of
        open tables that have none (a lobby opened while the last renewal ran), and drop the
        tables whose lease another process holds; take the `waiting` ones that are free now, and
        restore them.

        Raises:
            StorageError: the database failed.
        """
        if self._storage is None:
            return
        held = await self._storage.renew_tables(LEASE_SECONDS)
        open_here = set(self._open_tables())
        closed = sorted(held - open_here)
        if closed:
            await self._storage.release_tables(closed)
        missing = sorted(open_here - held)
        regained = await self._storage.acquire_tables(missing, LEASE_SECONDS) if missing else set()
        for channel_id in missing:
            if channel_id not in regained:
                log.warning("the table of channel %s is now served by another bot process", channel_id)
                await self._lost(channel_id)
                self.waiting.add(channel_id)  # back here if that process stops serving it
        if self.waiting:
            gained = await self._storage.acquire_tables(sorted(self.waiting), LEASE_SECONDS)
            self.waiting -= gained
            if gained:
                await self._gained(gained)

    async def close(self) -> None:
        """Stop renewing and give up every lease (another process may take the tables at once)."""
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
            self._renewing = None
        if self._storage is not None:
            try:
                await self._storage.release_tables(sorted(self._open_tables()))
            except StorageError as exc:  # they expire by themselves
                log.warning("table leases not given up: %s", exc)
