"""The :class:`~bot.storage.Storage` interface on PostgreSQL, through asyncpg: several bot
processes (shards) on one database, each acting only on the tables it leases.

* :mod:`~bot.storage.postgres.storage`: :class:`PostgresStorage`, the shared
  :class:`~bot.storage.sql.SqlStorage` with table leases as rows with an expiry.
* :mod:`~bot.storage.postgres.connection`: the pool of connections, its errors as
  :class:`~bot.storage.StorageError`, and the shared queries' ``?`` marks numbered.
* :mod:`~bot.storage.postgres.migrate`: the schema version checked and brought up to date from the
  ``*.postgresql.sql`` files of :mod:`bot.storage.migrations`, one process at a time.
"""

from bot.storage.postgres.migrate import MIGRATIONS
from bot.storage.postgres.storage import PostgresStorage

__all__ = ["MIGRATIONS", "PostgresStorage"]
