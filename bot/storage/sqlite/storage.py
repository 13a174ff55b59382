""":class:`SqliteStorage`: the :class:`~bot.storage.Storage` interface on one SQLite file.

It is :class:`~bot.storage.sql.SqlStorage` on the :class:`~bot.storage.sqlite.connection.Connection`
(held by one call at a time; a call with several statements runs in one ``BEGIN IMMEDIATE``
transaction). One process holds the file (its lock file), so table leases have one owner.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.common import default_owner
from bot.storage.sql import SqlStorage, upsert_statement
from bot.storage.sqlite.connection import DEFAULT_SYNCHRONOUS, Connection, Synchronous

__all__ = ["SqliteStorage"]


class SqliteStorage(SqlStorage):
    """:class:`~bot.storage.Storage` in one SQLite file.

    Args:
        path: the database file; created (with the schema) if missing, its directory must exist.
        checkpoint_seconds: how often the background connection checkpoints the WAL; None: no
            background connection, SQLite checkpoints inside commits.
        synchronous: ``PRAGMA synchronous``, "normal" or "full" (setting ``database.synchronous``).
        new_database: make a new, empty database where one was made before but is missing
            (``--new-database``); otherwise :meth:`open` refuses.
        owner: the lease owner id (default: ``host:pid:random``); every table is granted to it.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        checkpoint_seconds: float | None = 1.0,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        new_database: bool = False,
        owner: str | None = None,
    ) -> None:
        self.path = Path(path)
        self.checkpoint_seconds = checkpoint_seconds
        connection = Connection(
            self.path,
            checkpoint_seconds=checkpoint_seconds,
            synchronous=synchronous,
            new_database=new_database,
        )
        super().__init__(connection, str(self.path), owner or default_owner())
        self._connection: Connection = connection

    def _write_now(self, row: tuple[int, int, str, float]) -> bool:
        """Write the row at once when the connection is free (`Connection.write_now`)."""
        return self._connection.write_now(upsert_statement(1), row)

    def __repr__(self) -> str:
        return f"SqliteStorage({str(self.path)!r})"
