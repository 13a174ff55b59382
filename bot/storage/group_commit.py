""":class:`GroupCommit`: table saves written together. A save that arrives while others are being
written waits in the queue; the next write takes every save queued (up to a statement's worth),
and each saver's future is settled with its own outcome. What a write does (its SQL, its
transaction, its lease checks) is the storage's: :class:`~bot.storage.sql.SqlStorage` gives it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import NamedTuple

from bot.storage import Result, StorageError

__all__ = ["TABLES_PER_STATEMENT", "GroupCommit", "QueuedTable"]

TABLES_PER_STATEMENT = 100  # snapshots written by one statement (4 parameters each)


class QueuedTable(NamedTuple):
    """A table snapshot waiting for the group commit: its row ``(channel_id, guild_id, snapshot,
    updated_at)``, the results to record with it, and the future its saver awaits."""

    row: tuple[int, int, str, float]
    results: tuple[Result, ...]
    done: asyncio.Future[None]


WriteBatch = Callable[[Sequence[QueuedTable]], Awaitable[Mapping[int, str]]]
"""Writes a batch of saves (a channel's last one) and commits it; returns the channels whose saves
were refused, each with the lease's owner (another owner's table: that save fails alone, its
results unrecorded), the others written."""


class GroupCommit:
    """The queue of table saves and the one task writing them, batch after batch.

    Args:
        write: writes one batch (see `WriteBatch`); an error it raises fails the whole batch.
        refusal: the error of a save ``write`` refused, from its channel id and the lease's owner.
    """

    def __init__(self, write: WriteBatch, refusal: Callable[[int, str], Exception]) -> None:
        self._write = write
        self._refusal = refusal
        self._queue: list[QueuedTable] = []
        self._writer: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """Whether saves are queued or being written (a save written otherwise must not pass them)."""
        return bool(self._queue) or (self._writer is not None and not self._writer.done())

    async def save(self, row: tuple[int, int, str, float], results: Sequence[Result]) -> None:
        """Queue the row with its results and return once the batch holding it is committed.

        Raises:
            StorageError: the batch's write failed (nothing of it was written).
            Exception: ``refusal``'s error: ``write`` refused this save (nothing of it was written).
        """
        done = asyncio.get_running_loop().create_future()
        self._queue.append(QueuedTable(row, tuple(results), done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        await done

    async def drain(self) -> None:
        """Wait until every save queued (and any queued meanwhile) is written or has failed."""
        while self._writer is not None:
            writer, self._writer = self._writer, None
            await asyncio.gather(writer, return_exceptions=True)

    async def _write_queued(self) -> None:
        """Write the queued saves, as many as there are, until the queue is empty."""
        while self._queue:
            batch = self._queue[:TABLES_PER_STATEMENT]
            del self._queue[:TABLES_PER_STATEMENT]
            try:
                refused = await self._write(batch)
            except BaseException as exc:
                for q in batch:
                    if not q.done.done():
                        q.done.set_exception(StorageError(str(exc) or type(exc).__name__))
                if not isinstance(exc, Exception):
                    raise
            else:
                for q in batch:
                    if q.done.done():
                        continue
                    channel_id = q.row[0]
                    if channel_id in refused:
                        q.done.set_exception(self._refusal(channel_id, refused[channel_id]))
                    else:
                        q.done.set_result(None)
