"""The :class:`~bot.storage.Storage` interface on SQLite, through aiosqlite.

One module per concern (the interface itself, and the results queries, are shared with
PostgreSQL: :mod:`bot.storage.sql`, :mod:`bot.storage.records`):

* :mod:`~bot.storage.sqlite.storage`: :class:`SqliteStorage`, the shared
  :class:`~bot.storage.sql.SqlStorage` on the connection below (one owner of every table lease).
* :mod:`~bot.storage.sqlite.connection`: the one connection: WAL, ``synchronous`` and the
  background checkpoints, one call at a time, transactions, saves written at once, close.
* :mod:`~bot.storage.sqlite.files`: the file's checks before anything changes (and, before each
  write, that the file is still there), the lock file beside it (one process per database, a
  database made before, a clean close), and the refusals' words.
* :mod:`~bot.storage.sqlite.migrate`: ``PRAGMA user_version`` checked and brought up to date
  from the numbered SQL files of :mod:`bot.storage.migrations`.
"""

from bot.storage.sqlite.files import SQLITE_MAGIC
from bot.storage.sqlite.migrate import MIGRATIONS
from bot.storage.sqlite.storage import SqliteStorage

__all__ = ["MIGRATIONS", "SQLITE_MAGIC", "SqliteStorage"]
