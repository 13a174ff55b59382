"""Changes of a table under its lock: saved with their results, or nothing at all
(bot/service/acting.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest

from bot.engine.options import Options, Scoring
from bot.service.acting import Acting, Change, NotSaved
from bot.service.registry import TableRegistry
from bot.storage import GameResult, RoundResult
from bot.storage.sqlite import SqliteStorage
from bot.tables import LobbyError, Seat, Table, TableState

from .helpers import ANA, BEN, CHANNEL, GUILD, MemoryStorage, finish_round, game, lobby, run


def acting(storage: object, table: Table) -> tuple[Acting, list[Table]]:
    """An `Acting` on a registry holding ``table``, and the tables it says it rolled back to."""
    tables = TableRegistry()
    tables.put(table)
    rolled: list[Table] = []
    return Acting(tables, storage, rolled_back=rolled.append), rolled  # type: ignore[arg-type]


def test_a_change_is_saved_with_its_results(tmp_path: Path) -> None:
    """At the end of the block the table and the results it holds are saved, in SQLite."""
    storage = SqliteStorage(tmp_path / "uno.db", checkpoint_seconds=None)
    table = lobby("ai")
    act, _ = acting(storage, table)
    won = RoundResult(
        game_id=table.game_id, guild_id=GUILD, channel_id=CHANNEL, round_no=1, variant="classic",
        winner=BEN, points=40, scores={ANA: 0, BEN: 40}, players=[ANA, BEN],
    )  # fmt: skip

    async def body() -> None:
        await storage.open()
        try:
            async with act.change(CHANNEL) as change:
                change.table.join(Seat(BEN, "Ben"))
                change.results.append(won)
            assert await storage.load_tables() == [table.to_snapshot()]
            stats = await storage.stats(GUILD, BEN)
            assert (stats.rounds_won, stats.points) == (1, 40)
        finally:
            await storage.close()

    run(body)
    assert [s.id for s in table.seats] == [ANA, "ai:1", BEN]


def test_a_body_that_raises_saves_nothing() -> None:
    """A change refused inside the block saves nothing, and the table is as before it."""
    storage, table = MemoryStorage(), lobby(BEN)
    act, rolled = acting(storage, table)
    before = table.to_snapshot()

    async def body() -> None:
        async with act.change(CHANNEL) as change:
            change.table.join(Seat(BEN, "Ben again"))

    with pytest.raises(LobbyError):
        run(body)
    assert storage.writes == 0 and storage.tables == {} and rolled == []
    assert act.tables.get(CHANNEL) is table and table.to_snapshot() == before


@pytest.mark.parametrize("error", [KeyError("a bug"), LobbyError("refused after a partial change")])
def test_a_body_that_raises_after_changing_the_table_rolls_it_back(error: Exception) -> None:
    """A block that changed the table, then raised (a bug, or a refusal after a partial change):
    the table as last saved takes its place, ``rolled_back`` is told, nothing is saved, and the
    exception goes on."""
    storage, table = MemoryStorage(), game(BEN, first=ANA)
    act, rolled = acting(storage, table)
    before = table.to_snapshot()

    async def body() -> None:
        async with act.change(CHANNEL) as change:
            played = change.table.game
            assert played is not None
            change.played(played.apply(ANA, played.legal_actions(ANA)[0]))
            raise error

    with pytest.raises(type(error)):
        run(body)
    restored = act.tables.get(CHANNEL)
    assert restored is not None and restored.to_snapshot() == before
    assert rolled == [restored] and storage.writes == 0 and storage.tables == {}


def test_a_failed_save_rolls_back_to_the_saved_table() -> None:
    """A failed save puts the table as saved back, tells ``rolled_back``, raises NotSaved, records nothing."""
    storage, table = MemoryStorage(), game(BEN, options=Options(scoring=Scoring.SINGLE_ROUND))
    act, rolled = acting(storage, table)
    before = table.to_snapshot()
    storage.fail = True

    async def body() -> None:
        async with act.change(CHANNEL) as change:
            change.played(finish_round(change.table))
            assert change.results

    with pytest.raises(NotSaved):
        run(body)
    restored = act.tables.get(CHANNEL)
    assert restored is not None and restored is not table
    assert restored.to_snapshot() == before and restored.state is TableState.PLAYING
    assert rolled == [restored]
    assert storage.results == [] and storage.tables == {}


def test_nothing_saves_nothing() -> None:
    """A body that calls ``change.nothing()`` leaves without a save."""
    storage, table = MemoryStorage(), lobby()
    act, _ = acting(storage, table)

    async def body() -> None:
        async with act.change(CHANNEL) as change:
            change.nothing()

    run(body)
    assert storage.writes == 0 and storage.tables == {}


def test_a_table_set_over_is_deleted_and_its_ping_reported() -> None:
    """A change that ends the table deletes it from storage and registry and reports its last ping."""
    storage, table = MemoryStorage(), game(BEN)
    storage.tables[CHANNEL] = table.to_snapshot()
    table.ping_message_id = 77
    act, _ = acting(storage, table)

    async def body() -> Change:
        async with act.change(CHANNEL) as change:
            change.table.state = TableState.OVER
        return change

    change = run(body)
    assert storage.tables == {} and storage.writes == 1 and act.tables.get(CHANNEL) is None
    assert change.closed and change.stale_ping == 77 and table.ping_message_id is None


def test_a_finished_round_is_recorded_once_and_the_next_one_dealt() -> None:
    """A finished round is recorded once (not again on a retry), summed up, and the next one dealt."""
    table = game(BEN, options=Options(target_score=100_000))
    change = Change(table, table.to_snapshot())
    change.played(finish_round(table))
    assert table.game is not None and table.game.round_no == 2 and not table.game.round_over
    assert [type(r) for r in change.results] == [RoundResult] and change.results[0].round_no == 1
    assert table.recorded_rounds == 1 and len(change.posts) == 1 and change.posts[0].content
    assert table.state is TableState.PLAYING

    again = Change(table, table.to_snapshot())
    finish_round(table)
    table.recorded_rounds = 2  # a retry of a round already recorded
    again.played([])
    assert again.results == [] and table.game.round_no == 3


def test_game_over_ends_the_game_with_the_standings() -> None:
    """At game over the round and the game are recorded, the table is over, the standings posted."""
    table = game(BEN, options=Options(scoring=Scoring.SINGLE_ROUND))
    change = Change(table, table.to_snapshot())
    change.played(finish_round(table))
    assert table.state is TableState.OVER
    assert [type(r) for r in change.results] == [RoundResult, GameResult]
    assert len(change.posts) == 1 and isinstance(change.posts[0].view, discord.ui.LayoutView)


def test_a_game_left_to_bots_ends() -> None:
    """When the last human leaves, the game ends (and counts) rather than bots playing on."""
    storage, table = MemoryStorage(), game("ai", "ai")
    act, _ = acting(storage, table)

    async def body() -> Change:
        async with act.change(CHANNEL) as change:
            game_ = change.table.game
            assert game_ is not None
            change.played(game_.leave(ANA))
        return change

    change = run(body)
    assert change.closed and storage.tables == {} and act.tables.get(CHANNEL) is None
    assert [type(r) for r in storage.results] == [GameResult]
    assert "Only bots" in (change.posts[0].content or "")
    # Its players can play again: the post carries the game's Rematch button.
    view = change.posts[0].view
    assert view is not None
    assert [c.get("label") for row in view.to_components() for c in row["components"]] == ["Rematch"]


def test_changes_of_one_table_take_turns_under_its_lock() -> None:
    """Two changes of a table take turns; ``held_here`` is true only in the task inside one."""
    storage, table = MemoryStorage(), lobby()
    act, _ = acting(storage, table)
    order: list[str] = []
    seen: dict[str, bool] = {}

    async def change(name: str) -> None:
        async with act.change(CHANNEL) as change:
            order.append(f"{name}-in")
            seen[name] = act.tables.held_here()
            seen[f"{name}-elsewhere"] = await asyncio.create_task(_held(act.tables))
            await asyncio.sleep(0.01)
            change.table.add_ai()
            order.append(f"{name}-out")

    async def body() -> None:
        seen["outside"] = act.tables.held_here()
        await asyncio.gather(change("a"), change("b"))
        seen["after"] = act.tables.held_here()

    run(body)
    assert order in (["a-in", "a-out", "b-in", "b-out"], ["b-in", "b-out", "a-in", "a-out"])
    assert seen == {"outside": False, "a": True, "a-elsewhere": False, "b": True,
                    "b-elsewhere": False, "after": False}  # fmt: skip
    assert storage.writes == 2 and len(storage.tables[CHANNEL]["seats"]) == 3


async def _held(tables: TableRegistry) -> bool:
    return tables.held_here()
