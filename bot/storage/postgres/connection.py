"""The PostgreSQL connections: a pool opened with its checks, one connection lent per call.

:meth:`Connection.open` connects, refuses (one line naming the database, its password left out) a
server it cannot reach, a schema newer than this code or one that is not this bot's, and applies
the missing migrations (:mod:`bot.storage.postgres.migrate`). Each call then takes a connection
of the pool for its statements, in a transaction when it writes several; reads run side by side.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.storage import StorageError
from bot.storage.common import one_line
from bot.storage.postgres.migrate import AnyConnection, migrate

__all__ = ["ERRORS", "Connection", "Db", "numbered", "redacted"]

#: What a failing server, connection or statement raises (a lost connection is an OSError).
ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, asyncio.TimeoutError)
CONNECT_SECONDS = 10.0
STATEMENT_SECONDS = 30.0


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The statement with its ``?`` marks numbered as PostgreSQL's ``$1``, ``$2``, ... (the
    shared queries hold no ``?`` inside a string).

    >>> numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?)")
    'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)'
    """
    count = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


def redacted(url: str) -> str:
    """The URL as errors and logs name it: without its password.

    >>> redacted("postgresql://uno:secret@db.example:5432/uno")
    'postgresql://uno@db.example:5432/uno'
    >>> redacted("postgresql:///uno?host=/run/postgresql")
    'postgresql:///uno?host=/run/postgresql'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


class Db:
    """An asyncpg connection as the shared queries use it (:class:`bot.storage.common.Db`)."""

    def __init__(self, connection: AnyConnection) -> None:
        self.connection = connection

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = (), /) -> Sequence[Any]:
        """Run one statement (``?`` marks); its rows (``asyncpg.Record``, which unpack like tuples).

        Raises:
            asyncpg.PostgresError, OSError: the statement or the connection failed.
        """
        return await self.connection.fetch(numbered(sql), *parameters)

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]], /) -> None:
        """Run one statement (``?`` marks) once per parameter row, in one trip.

        Raises:
            asyncpg.PostgresError, OSError: the statement or the connection failed.
        """
        rows = [tuple(row) for row in parameters]
        if rows:
            await self.connection.executemany(numbered(sql), rows)


class Connection:
    """A pool of asyncpg connections to one database.

    Args:
        url: ``postgresql://user:password@host:port/database`` (libpq's forms; options such as
            ``?host=/run/postgresql`` or ``?search_path=uno`` too: asyncpg passes query
            parameters it does not know to the server as settings).
        max_connections: the pool's size (the group commit writes on one; reads share the rest).
    """

    def __init__(self, url: str, *, max_connections: int = 10, alive_key: int | None = None) -> None:
        self.url = url
        self.where = redacted(url)
        self.max_connections = max_connections
        self.alive_key = alive_key
        self.pool: asyncpg.Pool[Any] | None = None
        self._alive: asyncpg.Connection[Any] | None = None

    @property
    def is_open(self) -> bool:
        """True from a successful :meth:`open` until :meth:`close`."""
        return self.pool is not None

    async def open(self) -> None:
        """Connect, check the schema and apply missing migrations; nothing if already open.

        Raises:
            StorageError: the server can't be reached or refuses us, or the schema is newer
                than this code or not this bot's (then nothing was changed).
        """
        if self.pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.max_connections,
                timeout=CONNECT_SECONDS,
                # A statement that hangs (a lost server, a lock never released) fails rather than
                # holding its table's lock, and every move there, for ever.
                command_timeout=STATEMENT_SECONDS,
                server_settings={"application_name": "uno-bot"},
            )
        except (*ERRORS, ValueError) as exc:  # ValueError: a URL asyncpg can't read
            raise StorageError(f"{self.where}: cannot connect to PostgreSQL: {one_line(exc)}") from exc
        try:
            async with pool.acquire() as connection:
                await migrate(connection, self.where)
            await self.keep_alive()
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, ERRORS):
                raise StorageError(f"{self.where}: cannot use the database: {one_line(exc)}") from exc
            raise
        self.pool = pool

    async def keep_alive(self) -> None:
        """Hold the session advisory lock ``alive_key`` on a connection of its own, for as long as
        this process runs (reconnecting if that connection was lost): the server lets it go the
        moment the process dies, so another process may take this one's table leases at once
        rather than when they expire. Nothing without ``alive_key``.

        Raises:
            asyncpg.PostgresError, OSError: the server can't be reached.
        """
        if self.alive_key is None or (self._alive is not None and not self._alive.is_closed()):
            return
        alive = await asyncpg.connect(self.url, timeout=CONNECT_SECONDS)
        await alive.execute("SELECT pg_advisory_lock($1)", self.alive_key)
        self._alive = alive

    async def close(self) -> None:
        """Close the pool, once the calls using its connections are done, then let go of the
        advisory lock of :meth:`keep_alive`; nothing if not open."""
        pool, self.pool = self.pool, None
        if pool is not None:
            await pool.close()
        alive, self._alive = self._alive, None
        if alive is not None:
            await alive.close()

    @asynccontextmanager
    async def use(self, *, transaction: bool = False, write: bool = False) -> AsyncIterator[Db]:
        """A connection of the pool for one call; in one transaction if ``transaction``.
        (``write`` changes nothing here: the server checks its own files.)

        Raises:
            StorageError: not open, or any database or connection error (after rolling back).
        """
        pool = self.pool
        if pool is None:
            raise StorageError(f"{self.where}: storage is not open")
        try:
            async with pool.acquire() as connection:
                if transaction:
                    async with connection.transaction():
                        yield Db(connection)
                else:
                    yield Db(connection)
        except ERRORS as exc:
            raise StorageError(f"{self.where}: {one_line(exc)}") from exc
