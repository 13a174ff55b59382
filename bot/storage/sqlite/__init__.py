"""The :class:`~bot.storage.Storage` interface on SQLite, through aiosqlite.

One module per concern:

* :mod:`~bot.storage.sqlite.storage`: :class:`SqliteStorage`, the interface: channel settings,
  tables in progress (their group commit), and results through the records queries.
* :mod:`~bot.storage.sqlite.connection`: the one connection: the file's checks before anything
  changes (and, before each write, that the file is still there), WAL, ``synchronous`` and the
  background checkpoints, one call at a time, transactions, close.
* :mod:`~bot.storage.sqlite.migrate`: ``PRAGMA user_version`` checked and brought up to date
  from the numbered SQL files of :mod:`bot.storage.migrations`.
* :mod:`~bot.storage.sqlite.records`: the results and records queries (rounds and games
  written once, leaderboard, stats, forgetting a user).
* :mod:`~bot.storage.sqlite.common`: JSON text, one-value queries, one-line errors.
"""

from bot.storage.sqlite.connection import SQLITE_MAGIC
from bot.storage.sqlite.migrate import MIGRATIONS
from bot.storage.sqlite.storage import SqliteStorage

__all__ = ["MIGRATIONS", "SQLITE_MAGIC", "SqliteStorage"]
