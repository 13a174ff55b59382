"""The ``storage`` fixture: one test body per storage backend (SQLite, PostgreSQL).

The tests beside this file hold for every backend (``test_tables.py``, ``test_records.py``) or
for the backend-neutral list of migrations; ``sqlite/`` mirrors ``bot/storage/sqlite/``, the
tests of SQLite's own connection and migration runner.

A backend is a factory of unopened :class:`~bot.storage.Storage` objects on one fresh database,
and a reader of the results recorded there. Tests drive asyncio themselves
(``backend.run(body)``), so no asyncio plugin is needed. PostgreSQL's database is a fresh schema
of the cluster named by ``UNO_TEST_POSTGRES_URL`` (scripts/test starts one); without it, the
PostgreSQL tests skip.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest

from bot.storage import GameResult, RoundResult, Storage
from bot.storage.postgres import PostgresStorage
from bot.storage.postgres.connection import numbered
from bot.storage.sqlite import SqliteStorage

from .helpers import fresh_schema, in_thread, run

T = TypeVar("T")


class Results(Protocol):
    """The results recorded in a backend's database, read back as records.

    The bot only counts results (``leaderboard``, ``stats``); these reads check the records
    themselves, people named by their current user id (``forgotten:<n>`` once forgotten).
    """

    def game(self, game_id: str) -> GameResult | None:
        """The finished game, or None (not recorded, or only rounds of it so far)."""

    def rounds(self, game_id: str) -> list[RoundResult]:
        """The game's recorded rounds, in order."""


class SqlResults:
    """:class:`Results` of an SQL database, read with SQL (``?`` marks) on a connection of their
    own (:meth:`_read`, each backend's)."""

    def _read(self, sql: str, params: Sequence[Any]) -> tuple[dict[int, str], list[Any]]:
        """Every person's user id by people id, and the query's rows."""
        raise NotImplementedError

    def game(self, game_id: str) -> GameResult | None:
        """The finished game, or None (not recorded, or only rounds of it so far)."""
        names, rows = self._read(
            "SELECT guild_id, channel_id, variant, rounds, result FROM games "
            "WHERE game_id = ? AND finished_at IS NOT NULL",
            (game_id,),
        )
        if not rows:
            return None
        ((guild_id, channel_id, variant, rounds, text),) = rows
        stored = json.loads(text)
        return GameResult(
            game_id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            variant=variant,
            winners=[_key(names, k) for k in stored["winners"]],
            scores={_key(names, k): s for k, s in stored["scores"]},
            players=[names[p] for p in stored["players"]],
            rounds=rounds,
            left=[names[p] for p in stored.get("left", ())],
        )

    def rounds(self, game_id: str) -> list[RoundResult]:
        """The game's recorded rounds, in order."""
        names, rows = self._read(
            "SELECT r.round_no, r.guild_id, r.channel_id, r.variant, r.points, r.result "
            "FROM rounds AS r JOIN games AS g ON g.id = r.game "
            "WHERE g.game_id = ? ORDER BY r.round_no",
            (game_id,),
        )
        records = []
        for round_no, guild_id, channel_id, variant, points, text in rows:
            stored = json.loads(text)
            records.append(
                RoundResult(
                    game_id=game_id,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    round_no=round_no,
                    variant=variant,
                    winner=None if stored["winner"] is None else _key(names, stored["winner"]),
                    points=points,
                    scores={_key(names, k): s for k, s in stored["scores"]},
                    players=[names[p] for p in stored["players"]],
                    left=[names[p] for p in stored.get("left", ())],
                )
            )
        return records


class SqliteResults(SqlResults):
    """:class:`Results` of an SQLite database."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self, sql: str, params: Sequence[Any]) -> tuple[dict[int, str], list[Any]]:
        with contextlib.closing(sqlite3.connect(self.path)) as con:
            names = dict(con.execute("SELECT id, user_id FROM people").fetchall())
            return names, con.execute(sql, params).fetchall()


class PostgresResults(SqlResults):
    """:class:`Results` of a PostgreSQL database (read from another thread: the storage's event
    loop is waiting for the read)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def _read(self, sql: str, params: Sequence[Any]) -> tuple[dict[int, str], list[Any]]:
        import asyncpg

        async def read() -> tuple[dict[int, str], list[Any]]:
            con = await asyncpg.connect(self.url)
            try:
                names = {i: u for i, u in await con.fetch("SELECT id, user_id FROM people")}
                return names, [tuple(row) for row in await con.fetch(numbered(sql), *params)]
            finally:
                await con.close()

        return in_thread(read())


def _key(names: dict[int, str], members: list[int]) -> str:
    """A stored player or team (people ids) as its key: ``"a"`` or ``"a+b"``."""
    return "+".join(names[m] for m in members)


class Backend:
    """Storages of one backend on one database, a way to run async test bodies on them, and
    the results recorded there (:attr:`results`)."""

    def __init__(self, name: str, make: Callable[[], Storage], results: Results) -> None:
        self.name = name
        self.make = make
        self.results = results

    def run(self, body: Callable[[Storage], Awaitable[T]]) -> T:
        """Open a storage on the database, await ``body(storage)``, close it; the body's result.

        Each call is a fresh connection (a bot restart), on the same data.
        """
        return run(self.make(), body)


def _sqlite(**options: Any) -> Callable[[Path], tuple[Callable[[], Storage], Results]]:
    """An SQLite backend: storages made with ``options`` on ``uno.db`` in the test's directory."""

    def on(tmp: Path) -> tuple[Callable[[], Storage], Results]:
        return (lambda: SqliteStorage(tmp / "uno.db", **options)), SqliteResults(tmp / "uno.db")

    return on


def _postgres(tmp: Path) -> tuple[Callable[[], Storage], Results]:
    """A PostgreSQL backend on a fresh schema (the test skips without PostgreSQL)."""
    url = fresh_schema()
    return (lambda: PostgresStorage(url)), PostgresResults(url)


#: name -> function of the test's temporary directory returning a storage factory and the reader
#: of the results recorded by its storages.
BACKENDS: dict[str, Callable[[Path], tuple[Callable[[], Storage], Results]]] = {
    "sqlite": _sqlite(),
    # SQLite checkpointing inside commits instead of on its own connection.
    "sqlite-inline-checkpoints": _sqlite(checkpoint_seconds=None),
    "postgresql": _postgres,
}


@pytest.fixture(params=sorted(BACKENDS))
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """A backend on a fresh, empty database."""
    name: str = request.param
    return Backend(name, *BACKENDS[name](tmp_path))
