""":class:`PostgresStorage`: the :class:`~bot.storage.Storage` interface on PostgreSQL.

It is :class:`~bot.storage.sql.SqlStorage` on a pool of connections
(:class:`~bot.storage.postgres.connection.Connection`), with table leases: rows of
``table_leases`` (channel, owner, expiry by the database's clock). A lease is free once it expires,
or at once when its owner's process is gone: each process holds a session advisory lock of its
own (its ``owner_key``) while it runs, which the server lets go when the process dies, so a bot
restarted after a crash takes its tables back without waiting for their leases to expire (this
needs a direct connection: a pooler in transaction mode, such as PgBouncer's, cannot hold session
locks). Every table write reads the
table's lease row ``FOR SHARE`` in its own statement (one trip): a write by another owner is
refused, and a takeover (:meth:`PostgresStorage.acquire_tables` updating that row) waits for the
write in flight, so the new owner reads the table as it was last saved.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence

from bot.storage.common import Db, default_owner, one_line
from bot.storage.postgres.connection import ERRORS, Connection
from bot.storage.sql import SqlStorage

__all__ = ["PostgresStorage"]

log = logging.getLogger(__name__)

# The advisory lock (session level, a bigint key: its high and low halves in classid and objid)
# of a lease row's owner, held while that owner's process runs (Connection.keep_alive).
_ALIVE = (
    "SELECT 1 FROM pg_locks AS l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND CAST(l.classid AS BIGINT) * 4294967296 + CAST(l.objid AS BIGINT) = table_leases.owner_key"
)

# The lease rows of the given tables (marks: the channel ids, this owner) naming another owner,
# locked FOR SHARE until the write commits: a takeover (acquire_tables updating the row) waits
# for it, then its new owner reads the table as written.
_HELD = (
    "SELECT channel_id, owner FROM table_leases WHERE channel_id = ANY(CAST(? AS BIGINT[])) "
    "AND owner <> ? ORDER BY channel_id FOR SHARE"
)


def _check_seconds(seconds: float) -> float:
    """A lease's length, if it is one.

    >>> _check_seconds(0)
    Traceback (most recent call last):
    ValueError: a lease lasts a positive number of seconds, not 0
    """
    if not isinstance(seconds, int | float) or not seconds > 0:
        raise ValueError(f"a lease lasts a positive number of seconds, not {seconds!r}")
    return float(seconds)


class PostgresStorage(SqlStorage):
    """:class:`~bot.storage.Storage` in a PostgreSQL database, shared by several bot processes.

    Args:
        url: ``postgresql://user:password@host:port/database`` (setting ``database.url``; see
            :class:`~bot.storage.postgres.connection.Connection`).
        owner: the lease owner id (default: ``host:pid:random``, new at every start).
        max_connections: the pool's size.
    """

    def __init__(self, url: str, *, owner: str | None = None, max_connections: int = 10) -> None:
        # The advisory lock this process holds while it runs (`Connection.keep_alive`).
        self.owner_key = secrets.randbits(62) + 1
        connection = Connection(url, max_connections=max_connections, alive_key=self.owner_key)
        super().__init__(connection, connection.where, owner or default_owner())
        self._connection: Connection = connection
        self.url = url

    def __repr__(self) -> str:
        return f"PostgresStorage({self._where!r})"

    async def acquire_tables(self, channel_ids: Sequence[int], seconds: float) -> set[int]:
        """Take the tables' leases: see :meth:`Storage.acquire_tables
        <bot.storage.Storage.acquire_tables>` (one statement for them all).

        Raises:
            ValueError: ``seconds`` is not positive.
            StorageError: not open, or the database failed.
        """
        seconds = _check_seconds(seconds)
        # In id order: two processes taking overlapping tables lock their rows in the same order.
        channels = sorted(set(channel_ids))
        if not channels:
            return set()
        async with self._connection.use(write=True) as db:
            rows = await db.execute_fetchall(
                "INSERT INTO table_leases (channel_id, owner, owner_key, expires_at) "
                "SELECT c, CAST(? AS TEXT), CAST(? AS BIGINT), clock_timestamp() + make_interval(secs => ?) "
                "FROM unnest(CAST(? AS BIGINT[])) AS c ORDER BY c "
                "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, "
                "owner_key = excluded.owner_key, expires_at = excluded.expires_at "
                "WHERE table_leases.owner = excluded.owner OR table_leases.expires_at <= clock_timestamp() "
                f"OR NOT EXISTS ({_ALIVE}) "
                "RETURNING channel_id",
                (self.owner, self.owner_key, seconds, channels),
            )
        return {row[0] for row in rows}

    async def renew_tables(self, seconds: float) -> set[int]:
        """Extend this owner's leases: see :meth:`Storage.renew_tables
        <bot.storage.Storage.renew_tables>`.

        Raises:
            ValueError: ``seconds`` is not positive.
            StorageError: not open, or the database failed.
        """
        seconds = _check_seconds(seconds)
        try:
            await self._connection.keep_alive()
        except ERRORS as exc:  # the leases stand until they expire; the next renewal tries again
            log.warning("%s: cannot hold this process's advisory lock: %s", self._where, one_line(exc))
        async with self._connection.use(write=True) as db:
            rows = await db.execute_fetchall(
                "UPDATE table_leases SET expires_at = clock_timestamp() + make_interval(secs => ?) "
                "WHERE owner = ? RETURNING channel_id",
                (seconds, self.owner),
            )
        return {row[0] for row in rows}

    async def release_tables(self, channel_ids: Sequence[int]) -> None:
        """Give up this owner's leases of the tables: see :meth:`Storage.release_tables
        <bot.storage.Storage.release_tables>`.

        Raises:
            StorageError: not open, or the database failed.
        """
        async with self._connection.use(write=True) as db:
            await db.execute_fetchall(
                "DELETE FROM table_leases WHERE owner = ? AND channel_id = ANY(CAST(? AS BIGINT[]))",
                (self.owner, sorted(set(channel_ids))),
            )

    async def _save_rows(self, db: Db, rows: Sequence[tuple[int, int, str, float]]) -> dict[int, str]:
        """Write the rows of the tables no other owner leases, in one statement (its lease check
        included: a save is one trip); the others, with their owner (expired or not: a lease must
        be taken over first)."""
        held = await db.execute_fetchall(
            f"WITH held AS ({_HELD}), written AS ("
            "INSERT INTO open_tables (channel_id, guild_id, snapshot, updated_at) "
            # Columns as arrays: one statement (prepared once) for any number of rows.
            "SELECT * FROM unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), "
            "CAST(? AS DOUBLE PRECISION[])) AS v (channel_id, guild_id, snapshot, updated_at) "
            "WHERE channel_id NOT IN (SELECT channel_id FROM held) "
            "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
            "snapshot = excluded.snapshot, updated_at = excluded.updated_at) "
            "SELECT channel_id, owner FROM held",
            (
                sorted({row[0] for row in rows}),
                self.owner,
                *(list(column) for column in zip(*rows, strict=True)),
            ),
        )
        return {channel_id: owner for channel_id, owner in held}

    async def _delete_row(self, db: Db, channel_id: int) -> str | None:
        """Delete the table's row unless another owner leases it (then that owner), in one
        statement."""
        held = list(
            await db.execute_fetchall(
                f"WITH held AS ({_HELD}), deleted AS (DELETE FROM open_tables WHERE channel_id = ? "
                "AND NOT EXISTS (SELECT 1 FROM held)) SELECT owner FROM held",
                ([channel_id], self.owner, channel_id),
            )
        )
        return str(held[0][0]) if held else None
