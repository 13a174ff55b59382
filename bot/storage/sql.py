""":class:`SqlStorage`: the :class:`~bot.storage.Storage` interface on an SQL database, whichever
the backend (:class:`~bot.storage.sqlite.SqliteStorage`, :class:`~bot.storage.postgres.PostgresStorage`).

It answers each call on the backend's :class:`SqlConnection`: the channel settings, the tables in
progress and their leases here, the results in its base
:class:`~bot.storage.sql_records.SqlRecords` (with the queries of :mod:`bot.storage.records`). A
call with several statements runs in one transaction. Saving a table is a single statement (one
trip to the database); saves that arrive while one is being written are written together by the
next statement (group commit, :mod:`bot.storage.group_commit`), and each call returns once its
snapshot is committed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

import orjson

from bot.storage import LeaseError, Result, StorageError, records
from bot.storage.common import Db, collector_paused, dumps
from bot.storage.group_commit import GroupCommit, QueuedTable
from bot.storage.sql_records import SqlRecords

__all__ = ["SqlConnection", "SqlStorage", "upsert_statement"]


def _check_id(name: str, value: int) -> None:
    """Refuse a bad Discord id before it is queued with other tables' writes.

    >>> _check_id("channel_id", 2**64)
    Traceback (most recent call last):
    ValueError: channel_id must be a Discord id (an int), not 18446744073709551616
    """
    if not isinstance(value, int) or not 0 <= value < 2**63:
        raise ValueError(f"{name} must be a Discord id (an int), not {value!r}")


class SqlConnection(Protocol):
    """A backend's connection (or pool) as :class:`SqlStorage` uses it."""

    @property
    def is_open(self) -> bool:
        """True between a successful :meth:`open` and :meth:`close`."""

    async def open(self) -> None:
        """Connect, check the database and apply the missing migrations; nothing if open.

        Raises:
            StorageError: the database can't be used (the backend's reasons); it is unchanged.
        """

    async def close(self) -> None:
        """Close; nothing if not open."""

    def use(self, *, transaction: bool = False, write: bool = False) -> AbstractAsyncContextManager[Db]:
        """A connection for one call; in one transaction if ``transaction`` (committed when the
        block ends, rolled back when it raises); ``write``: the call writes.

        Raises:
            StorageError: not open, or any database error (after rolling back).
        """


class SqlStorage(SqlRecords):
    """:class:`~bot.storage.Storage` on a backend's :class:`SqlConnection`.

    A backend subclasses it with its connection and, where it has them, real table leases
    (:meth:`acquire_tables`; here, one owner: every table is granted).

    Args:
        connection: the backend's connection, not yet open.
        where: the database as errors name it (a path; a URL without its password).
        owner: this storage's lease owner (:attr:`owner`).
    """

    def __init__(self, connection: SqlConnection, where: str, owner: str) -> None:
        self._connection = connection
        self._where = where
        self.owner = owner
        self._group = GroupCommit(self._write_batch, self._lease_error)
        self._leased: set[int] = set()  # the single owner's tables (a backend without leases)

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        """Connect, check the database and apply missing migrations (the backend's
        :meth:`SqlConnection.open`).

        Raises:
            StorageError: the database can't be used (unreachable, not this bot's, newer than
                this code, ...); it is then left unchanged.
        """
        await self._connection.open()

    async def close(self) -> None:
        """Write the snapshots still queued, then close the connection (checkpointing the WAL).

        A cancellation (a second Ctrl+C or SIGTERM) does not cut it short: an open connection's
        thread would keep the process from exiting. It is raised once the storage is closed.
        """
        closing = asyncio.ensure_future(self._close())
        cancelled = False
        while not closing.done():
            try:
                await asyncio.shield(closing)
            except asyncio.CancelledError:
                cancelled = True
        closing.result()
        if cancelled:
            raise asyncio.CancelledError

    async def _close(self) -> None:
        await self._group.drain()  # write the snapshots still queued
        await self._connection.close()

    # ------------------------------------------------------------------ channel settings

    async def get_channel_settings(self, channel_id: int) -> dict[str, Any] | None:
        """The channel's saved defaults (a JSON object), or None.

        Raises:
            StorageError: not open, or the database failed.
        """
        async with self._connection.use() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT settings FROM channel_settings WHERE channel_id = ?", (channel_id,)
                )
            )
        return orjson.loads(rows[0][0]) if rows else None

    async def set_channel_settings(self, guild_id: int, channel_id: int, settings: dict[str, Any]) -> None:
        """Save the channel's defaults (replaces them).

        Raises:
            TypeError: the settings are not JSON-safe (nothing is written).
            StorageError: not open, the file was deleted or replaced since it was opened, or
                the database failed.
        """
        text = dumps(settings)
        async with self._connection.use(write=True) as db:
            await db.execute_fetchall(
                "INSERT INTO channel_settings (channel_id, guild_id, settings, updated_at) "
                "VALUES (?, ?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (channel_id, guild_id, text, time.time()),
            )

    # ------------------------------------------------------------------ tables in progress

    async def save_table(
        self, guild_id: int, channel_id: int, snapshot: dict[str, Any], results: Sequence[Result] = ()
    ) -> None:
        """Save a table and record ``results``: see :meth:`Storage.save_table
        <bot.storage.Storage.save_table>`.

        Committed when this returns. A save with no results, when nothing else is being written,
        may be written at once by the backend (:meth:`_write_now`); saves that arrive while one
        is being written are written together, in one transaction, by :meth:`_write_batch`
        (:class:`~bot.storage.group_commit.GroupCommit`).

        Raises:
            TypeError, ValueError: the snapshot is not JSON-safe or an id is not an int
                (nothing is written).
            LeaseError: another owner holds the table's lease (nothing is written).
            StorageError: not open, the file was deleted or replaced since it was opened, or
                the write failed.
        """
        _check_id("guild_id", guild_id)
        _check_id("channel_id", channel_id)
        text = dumps(snapshot)
        self._check_open()
        row = (channel_id, guild_id, text, time.time())
        if not results and not self._group.busy and self._write_now(row):  # never ahead of a queued save
            return
        await self._group.save(row, results)

    async def _write_batch(self, batch: Sequence[QueuedTable]) -> dict[int, str]:
        """Write a batch of the group commit, in one transaction if it records results; the
        channels whose tables another owner leases, with that owner, are not written (nor their
        results recorded)."""
        async with self._connection.use(transaction=any(q.results for q in batch), write=True) as db:
            # A channel's last snapshot only: PostgreSQL refuses to update one row twice in a
            # statement.
            refused = await self._save_rows(db, list({q.row[0]: q.row for q in batch}.values()))
            for result in (r for q in batch if q.row[0] not in refused for r in q.results):
                await records.insert_result(db, result)
        return refused

    async def load_tables(self) -> list[dict[str, Any]]:
        """Every saved table snapshot (by channel id), for restoring after a restart; a row whose
        snapshot is not a JSON object comes as ``{"channel_id", "guild_id", "unreadable": why}``
        (see :meth:`Storage.load_tables`).

        Raises:
            StorageError: not open, or the database failed.
        """
        with collector_paused():  # the rows and their parsed snapshots: no garbage, many objects
            async with self._connection.use() as db:
                rows = await db.execute_fetchall(
                    "SELECT channel_id, guild_id, snapshot FROM open_tables ORDER BY channel_id"
                )
            return [_snapshot(*row) for row in rows]

    async def delete_table(self, channel_id: int, results: Sequence[Result] = ()) -> None:
        """Forget a table (game over, ended, lobby expired); no error if there is none. ``results``
        (its last round and the game) are recorded in the same transaction.

        Raises:
            TypeError, ValueError: a result's points or scores are not numbers (nothing changes).
            LeaseError: another owner holds the table's lease (nothing changes).
            StorageError: not open, the file was deleted or replaced since it was opened, or
                the database failed (nothing changes).
        """
        async with self._connection.use(transaction=bool(results), write=True) as db:
            holder = await self._delete_row(db, channel_id)
            if holder is not None:
                raise self._lease_error(channel_id, holder)  # rolls back
            for result in results:
                await records.insert_result(db, result)

    # ------------------------------------------------------------------ table leases

    async def acquire_tables(self, channel_ids: Sequence[int], seconds: float) -> set[int]:
        """Take the tables' leases: see :meth:`Storage.acquire_tables
        <bot.storage.Storage.acquire_tables>`. One owner here (the backend lets one process use
        the database): every table is granted.

        Raises:
            StorageError: not open.
        """
        self._check_open()
        self._leased.update(channel_ids)
        return set(channel_ids)

    async def renew_tables(self, seconds: float) -> set[int]:
        """Extend this owner's leases: see :meth:`Storage.renew_tables
        <bot.storage.Storage.renew_tables>`. One owner here: every lease taken is still held.

        Raises:
            StorageError: not open.
        """
        self._check_open()
        return set(self._leased)

    async def release_tables(self, channel_ids: Sequence[int]) -> None:
        """Give up this owner's leases of the tables: see :meth:`Storage.release_tables
        <bot.storage.Storage.release_tables>`.

        Raises:
            StorageError: not open.
        """
        self._check_open()
        self._leased.difference_update(channel_ids)

    def _write_now(self, row: tuple[int, int, str, float]) -> bool:
        """Write one table row ``(channel_id, guild_id, snapshot, updated_at)`` at once, without
        awaiting, if the backend can (SQLite: :meth:`Connection.write_now
        <bot.storage.sqlite.connection.Connection.write_now>`); False: not written, the caller
        queues it. Here: never.

        Raises:
            StorageError: the write failed (nothing written).
        """
        return False

    async def _save_rows(self, db: Db, rows: Sequence[tuple[int, int, str, float]]) -> dict[int, str]:
        """Write table rows ``(channel_id, guild_id, snapshot, updated_at)``, one per channel, in
        one statement, except those of tables another owner leases: those, with their owner.
        (Here one owner: every row is written.)"""
        await db.execute_fetchall(upsert_statement(len(rows)), [value for row in rows for value in row])
        return {}

    async def _delete_row(self, db: Db, channel_id: int) -> str | None:
        """Delete the table's row, unless another owner leases it: then that owner, and nothing
        is deleted. (Here one owner.)"""
        await db.execute_fetchall("DELETE FROM open_tables WHERE channel_id = ?", (channel_id,))
        return None

    def _lease_error(self, channel_id: int, holder: str) -> LeaseError:
        return LeaseError(
            f"{self._where}: the table in channel {channel_id} is leased to {holder}, not to this "
            f"bot ({self.owner}); nothing was saved"
        )

    def _check_open(self) -> None:
        if not self._connection.is_open:
            raise StorageError(f"{self._where}: storage is not open")


def upsert_statement(rows: int) -> str:
    """The statement writing ``rows`` table rows (four parameters each: see `_save_rows`).

    >>> upsert_statement(2)[:102]
    'INSERT INTO open_tables (channel_id, guild_id, snapshot, updated_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)'
    """
    return (
        "INSERT INTO open_tables (channel_id, guild_id, snapshot, updated_at) VALUES "
        + ", ".join(["(?, ?, ?, ?)"] * rows)
        + " ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
        "snapshot = excluded.snapshot, updated_at = excluded.updated_at"
    )


def _snapshot(channel_id: int, guild_id: int, text: str) -> dict[str, Any]:
    """A saved table's snapshot, or what makes it unreadable (one bad row must not stop the rest)."""
    try:
        snapshot = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return {"channel_id": channel_id, "guild_id": guild_id, "unreadable": f"not JSON: {exc}"}
    if not isinstance(snapshot, dict):
        return {"channel_id": channel_id, "guild_id": guild_id, "unreadable": "not a JSON object"}
    return snapshot
