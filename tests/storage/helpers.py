"""What the storage tests share, for every backend: a storage run from open to close, a realistic
table snapshot, finished rounds and games, and games played the way the bot records them."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import pytest

from bot.engine.game import Game
from bot.storage import GameResult, RoundResult, Storage

S = TypeVar("S", bound=Storage)
T = TypeVar("T")

GUILD = 1
OTHER_GUILD = 2
ANA, BEN, CY, DEE = "101", "102", "103", "104"


def run(storage: S, body: Callable[[S], Awaitable[T]]) -> T:
    """Open ``storage``, await ``body(storage)``, close it, in an event loop of its own (a bot
    from start to stop); the body's result."""

    async def main() -> T:
        await storage.open()
        try:
            return await body(storage)
        finally:
            await storage.close()

    return asyncio.run(main())


POSTGRES_URL = "UNO_TEST_POSTGRES_URL"
"""The environment variable naming the PostgreSQL database of the tests (a superuser's URL);
scripts/test sets it to a throwaway cluster of its own (scripts/_postgres.sh)."""


def postgres_url() -> str:
    """The tests' PostgreSQL URL; the test skips when there is none (PostgreSQL not installed)."""
    url = os.environ.get(POSTGRES_URL)
    if not url:
        pytest.skip(f"no PostgreSQL: {POSTGRES_URL} is not set (scripts/test starts a throwaway cluster)")
    return url


def in_thread(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end in an event loop of its own, on another thread: a test reads the
    database this way in the middle of a storage's own (blocked) event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


def fresh_schema() -> str:
    """The URL of a new, empty schema in the tests' PostgreSQL database (``search_path``), as
    a fresh SQLite file would be; skips without PostgreSQL."""
    import asyncpg

    url = postgres_url()
    schema = f"test_{uuid.uuid4().hex[:16]}"

    async def make() -> None:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(f"CREATE SCHEMA {schema}")
        finally:
            await connection.close()

    in_thread(make())
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


def snapshot(seed: int, **extra: Any) -> dict[str, Any]:
    """A realistic table snapshot: an engine game in mid-round plus the table's own keys."""
    g = Game([ANA, BEN, "ai:1", "ai:2"], seed=seed)
    g.start_round()
    return {
        "kind": "game",
        "channel_id": 1000 + seed,
        "host": ANA,
        "message_id": 900_000_000_000_000_000 + seed,
        "turn_deadline": 1_700_000_000.5,
        "note": "ünïcødé ✓",
        "game": g.to_dict(),
        **extra,
    }


def rnd(
    game_id: str,
    round_no: int,
    winner: str | None,
    points: int,
    players: list[str],
    *,
    guild: int = GUILD,
    channel: int = 10,
    variant: str = "classic",
    scores: dict[str, int] | None = None,
    left: list[str] | None = None,
) -> RoundResult:
    """A finished round (``left``: the players who had left the game by its end)."""
    return RoundResult(
        game_id=game_id,
        guild_id=guild,
        channel_id=channel,
        round_no=round_no,
        variant=variant,
        winner=winner,
        points=points,
        scores=scores if scores is not None else {p: 0 for p in players},
        players=players,
        left=left or [],
    )


def game(
    game_id: str,
    winners: list[str],
    players: list[str],
    *,
    guild: int = GUILD,
    channel: int = 10,
    variant: str = "classic",
    scores: dict[str, int] | None = None,
    rounds: int = 1,
    left: list[str] | None = None,
) -> GameResult:
    """A finished game (``left``: the players who had left it by its end)."""
    return GameResult(
        game_id=game_id,
        guild_id=guild,
        channel_id=channel,
        variant=variant,
        winners=winners,
        scores=scores if scores is not None else {p: 0 for p in players},
        players=players,
        rounds=rounds,
        left=left or [],
    )


async def play(
    s: Storage,
    game_id: str,
    rounds: list[tuple[str, int]],
    winners: list[str],
    players: list[str],
    **kw: Any,
) -> None:
    """Play a game at channel 10's table as the bot records it: each round but the last with the
    table's save, the last round and the game with its deletion."""
    results = [rnd(game_id, n, winner, points, players, **kw) for n, (winner, points) in enumerate(rounds, 1)]
    for result in results[:-1]:
        await s.save_table(kw.get("guild", GUILD), 10, {"game": game_id, "round": result.round_no}, [result])
    await s.delete_table(10, [results[-1], game(game_id, winners, players, rounds=len(rounds), **kw)])


async def league(s: Storage) -> None:
    """Guild 1: dee wins 2 small games; cy, ana and ben win 1 each (600, 530, 130 points)."""
    await play(s, "g1", [(ANA, 50), (BEN, 30), (ANA, 480)], [ANA], [ANA, BEN, "ai:1"])
    await play(s, "g2", [(CY, 600)], [CY], [ANA, BEN, CY], variant="flip")
    await play(s, "g3", [("ai:1", 500)], ["ai:1"], [BEN, "ai:1"])
    await play(s, "g4", [(BEN, 100)], [BEN], [BEN, CY])
    await play(s, "g5", [(DEE, 10)], [DEE], [DEE, "ai:2"])
    await play(s, "g6", [(DEE, 5)], [DEE], [DEE, "ai:2"])
    # Another guild, where ana wins everything: not on guild 1's board.
    for i in range(3):
        await play(s, f"o{i}", [(ANA, 999)], [ANA], [ANA, BEN], guild=OTHER_GUILD)
