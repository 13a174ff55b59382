"""The tables in progress and channel settings of every backend (conftest.py's ``storage``):
snapshots read back exactly, saves written together and all of them by close."""

from __future__ import annotations

import asyncio
import gc
from typing import TYPE_CHECKING, Any

import pytest

from bot.engine.game import Game
from bot.storage import GameResult, RoundResult, Storage, StorageError

from .helpers import ANA, GUILD, game, rnd, snapshot

if TYPE_CHECKING:
    from .conftest import Backend


def test_channel_settings_round_trip(storage: Backend) -> None:
    """Channel settings read back equal, are replaced by the next save, and survive a restart."""
    first = {"variant": "flip", "target_score": 250, "house_rules": ["stacking"], "x": None}
    second = {"variant": "classic", "turn_seconds": 0, "ai_delay_seconds": 1.5, "n": "ü"}

    async def save(s: Storage) -> None:
        assert await s.get_channel_settings(10) is None
        await s.set_channel_settings(GUILD, 10, first)
        await s.set_channel_settings(GUILD, 11, {"variant": "cars2"})
        assert await s.get_channel_settings(10) == first
        await s.set_channel_settings(GUILD, 10, second)

    storage.run(save)

    async def check(s: Storage) -> None:
        assert await s.get_channel_settings(10) == second
        assert await s.get_channel_settings(11) == {"variant": "cars2"}
        assert await s.get_channel_settings(12) is None

    storage.run(check)


def test_table_snapshot_round_trip_replace_delete(storage: Backend) -> None:
    """A snapshot reads back equal after a restart; saving again replaces it; delete removes it."""
    lobby = {"kind": "lobby", "channel_id": 20, "seats": [ANA], "options": {"partners": False}}

    async def save(s: Storage) -> None:
        await s.save_table(GUILD, 20, lobby)
        await s.save_table(GUILD, 21, snapshot(1))
        await s.save_table(GUILD, 20, snapshot(2, channel_id=20))  # the lobby became a game

    storage.run(save)

    async def check(s: Storage) -> None:
        tables = await s.load_tables()
        assert tables == [snapshot(2, channel_id=20), snapshot(1)]
        restored = Game.from_dict(tables[1]["game"])
        assert restored.to_dict() == snapshot(1)["game"]
        await s.delete_table(20)
        await s.delete_table(999)  # no such table: nothing happens

    storage.run(check)
    assert storage.run(lambda s: s.load_tables()) == [snapshot(1)]


def test_snapshot_not_json_safe_writes_nothing(storage: Backend) -> None:
    """A snapshot that is not JSON-safe (an object, a key that is not a string, a lone
    surrogate) raises before anything is written."""

    async def main(s: Storage) -> list[dict[str, Any]]:
        await s.save_table(GUILD, 30, {"v": 1})
        for bad in ({"v": object()}, {"v": {1: "one"}}, {"v": "\ud800"}):
            with pytest.raises((TypeError, ValueError)):
                await s.save_table(GUILD, 30, bad)
        return await s.load_tables()

    assert storage.run(main) == [{"v": 1}]


def test_load_tables_many_channels(storage: Backend) -> None:
    """load_tables returns every saved table once, from every guild."""

    async def main(s: Storage) -> list[dict[str, Any]]:
        for channel in range(40):
            await s.save_table(GUILD + channel % 3, 500 + channel, {"channel": 500 + channel})
        await s.delete_table(505)
        return await s.load_tables()

    tables = storage.run(main)
    assert sorted(t["channel"] for t in tables) == [500 + c for c in range(40) if c != 5]


def test_load_tables_runs_no_collector_pass(storage: Backend) -> None:
    """Loading many saved games runs no pass of the garbage collector while it parses them (each
    pass walks every object parsed so far: with them, 10,000 games took five times as long to
    load), at most the one pass that meets them once the collector is on again."""
    game = snapshot(1)
    passes: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    async def main(s: Storage) -> int:
        await asyncio.gather(
            *(s.save_table(GUILD, 4000 + n, {**game, "channel_id": 4000 + n}) for n in range(300))
        )
        gc.collect()
        gc.callbacks.append(note)
        try:
            return len(await s.load_tables())
        finally:
            gc.callbacks.remove(note)

    assert storage.run(main) == 300
    assert len(passes) <= 1, f"{len(passes)} collector passes"
    assert gc.isenabled()


def test_concurrent_writers(storage: Backend) -> None:
    """Fifty tables saving (some saves with results) and reading at once all land, with their
    last state, each result once."""

    async def table(s: Storage, n: int) -> None:
        channel, seats = 3000 + n, [f"{n}", "ai:1"]
        results: dict[int, list[RoundResult | GameResult]] = {
            2: [rnd(f"c{n}", 1, f"{n}", n, seats, channel=channel)],
            4: [game(f"c{n}", [f"{n}"], seats, channel=channel)],
        }
        for version in range(5):
            await s.save_table(
                GUILD, channel, {"channel": channel, "version": version}, results.get(version, [])
            )
            await asyncio.sleep(0)
        await s.leaderboard(GUILD)

    async def main(s: Storage) -> None:
        await asyncio.gather(*(table(s, n) for n in range(50)))

    storage.run(main)
    tables = storage.run(lambda s: s.load_tables())
    assert sorted((t["channel"], t["version"]) for t in tables) == [(3000 + n, 4) for n in range(50)]
    board = storage.run(lambda s: s.leaderboard(GUILD, limit=100))
    assert len(board) == 50 and all(p.games_won == 1 and p.rounds_won == 1 for p in board)
    assert sum(p.points for p in board) == sum(range(50))


def test_close_writes_queued_snapshots(storage: Backend) -> None:
    """Saves still in flight when the bot shuts down are written before close returns."""

    async def main(s: Storage) -> None:
        pending = [asyncio.ensure_future(s.save_table(GUILD, 700 + n, {"n": n})) for n in range(30)]
        await asyncio.sleep(0)  # the saves are queued, not yet all written
        await s.close()
        await asyncio.gather(*pending)

    storage.run(main)
    assert sorted(t["n"] for t in storage.run(lambda s: s.load_tables())) == list(range(30))


def test_close_finishes_when_cancelled(storage: Backend) -> None:
    """A close cancelled on its way (a second Ctrl+C or SIGTERM) still writes the queued saves and
    closes; the cancellation is raised after."""

    async def main(s: Storage) -> None:
        pending = [asyncio.ensure_future(s.save_table(GUILD, 800 + n, {"n": n})) for n in range(30)]
        await asyncio.sleep(0)
        closing = asyncio.ensure_future(s.close())
        for _ in range(5):  # cancelled again and again while it closes
            await asyncio.sleep(0)
            closing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await closing
        await asyncio.gather(*pending)
        with pytest.raises(StorageError, match="not open"):
            await s.load_tables()

    storage.run(main)
    assert sorted(t["n"] for t in storage.run(lambda s: s.load_tables())) == list(range(30))


def test_bad_id_fails_alone(storage: Backend) -> None:
    """A save with a bad channel id fails by itself; the saves written with it still land."""

    async def main(s: Storage) -> list[dict[str, Any]]:
        good = [s.save_table(GUILD, 800 + n, {"n": n}) for n in range(5)]
        bad = s.save_table(GUILD, 2**64, {"n": -1})
        results = await asyncio.gather(*good, bad, return_exceptions=True)
        assert results[:5] == [None] * 5 and isinstance(results[5], ValueError)
        return await s.load_tables()

    assert [t["n"] for t in storage.run(main)] == list(range(5))
