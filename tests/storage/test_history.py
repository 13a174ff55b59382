"""Recorded games as ``/uno history`` reads them, on every backend (conftest.py's ``storage``):
the replay kept with the result, a channel's last games newest first, one game by id, and a
forgotten player's seat renamed in the replays that named them."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from bot.engine.game import Game
from bot.storage import GameResult, Storage

from .helpers import ANA, BEN, game, play

if TYPE_CHECKING:
    from .conftest import Backend


def replay_of(players: list[str], names: list[str], *, rounds: int = 0, seed: int = 4) -> dict[str, Any]:
    """A replay as the bot keeps it: a game seated with ``players``, dealt, its first player's
    first legal actions applied (a catch's target naming a player, if one can be made)."""
    g = Game(players, seed=seed)
    g.start_round()
    for _ in range(rounds):
        player = g.pending.player
        g.apply(player, g.legal_actions(player)[0])
    saved = g.to_dict()
    return {**{k: saved[k] for k in ("variant", "options", "seed", "players", "journal")}, "names": names}


def with_replay(result: GameResult, replay: dict[str, Any] | None) -> GameResult:
    return dataclasses.replace(result, replay=replay)


def test_a_channel_s_history_lists_its_threads_games(storage: Backend) -> None:
    """A game played in a thread of its own (its result naming the parent channel) is listed in
    the thread's history and in its parent channel's, newest first with the channel's own, and
    comes back with its parent; a sibling channel's history doesn't list it."""
    in_thread = dataclasses.replace(game("t1", [ANA], [ANA, BEN], channel=20), parent_id=10)

    async def main(s: Storage) -> tuple[list[Any], ...]:
        await s.delete_table(10, [game("c1", [BEN], [ANA, BEN])])
        await s.delete_table(20, [in_thread])
        await s.delete_table(11, [game("c2", [BEN], [ANA, BEN], channel=11)])
        return await s.history(10), await s.history(20), await s.history(11), [await s.game("t1")]

    parent, thread, sibling, one = storage.run(main)
    assert [r.result.game_id for r in parent] == ["t1", "c1"]
    assert parent[0].result == in_thread and one[0] == parent[0]
    assert [r.result.game_id for r in thread] == ["t1"] and parent[1].result.parent_id is None
    assert [r.result.game_id for r in sibling] == ["c2"]


def test_history_keeps_each_games_replay(storage: Backend) -> None:
    """Games come back newest first with their replay (None where none was kept), at most
    ``limit``, only the channel's; one game by id."""
    replay = replay_of([ANA, BEN, "ai:1"], ["Ana", "B*n", "Bot 1"], rounds=3)

    async def main(s: Storage) -> tuple[list[Any], Any, Any, Any, Any]:
        await s.delete_table(10, [with_replay(game("h1", [ANA], [ANA, BEN, "ai:1"]), replay)])
        await s.delete_table(10, [game("h2", [BEN], [ANA, BEN])])  # no journal: no replay
        await s.delete_table(11, [game("h3", [BEN], [ANA, BEN], channel=11)])
        return (
            await s.history(10),
            await s.history(10, limit=1),
            await s.history(None, limit=None),
            await s.game("h1"),
            await s.game("nope"),
        )

    listed, last, everything, one, none = storage.run(main)
    assert [r.result.game_id for r in listed] == ["h2", "h1"]
    assert listed[1].result == with_replay(game("h1", [ANA], [ANA, BEN, "ai:1"]), replay)
    assert listed[0].result.replay is None and listed[0].finished_at >= listed[1].finished_at
    assert [r.result.game_id for r in last] == ["h2"]
    assert {r.result.game_id for r in everything} == {"h1", "h2", "h3"}
    assert one == listed[1] and none is None


def test_forgotten_player_renamed_in_replays(storage: Backend) -> None:
    """Forgetting a player renames their seat in the replays (id and name), and the game still
    replays to the same state under the new id."""
    replay = replay_of([ANA, BEN], ["Ana", "Ben"], rounds=6)

    async def main(s: Storage) -> Any:
        await s.delete_table(10, [with_replay(game("f1", [ANA], [ANA, BEN]), replay)])
        await play(s, "f2", [(BEN, 5)], [BEN], [BEN, "ai:1"])
        await s.forget_user(ANA)
        return await s.game("f1"), await s.game("f2")

    forgotten, untouched = storage.run(main)
    kept = forgotten.result.replay
    (anon,) = [p for p in forgotten.result.players if p.startswith("forgotten:")]
    assert kept["players"] == [anon, BEN] and kept["names"] == ["a former player", "Ben"]
    assert ANA not in str(kept)
    assert kept["journal"] == replay["journal"]  # seat indices: the actions did not name Ana
    assert Game.replay(kept).to_dict()["hands"][anon] == Game.replay(replay).to_dict()["hands"][ANA]
    assert untouched.result.replay is None and untouched.result.players == [BEN, "ai:1"]


def test_a_player_whose_seat_a_bot_took_is_forgotten_there_too(storage: Backend) -> None:
    """A game whose seat Ana handed to a bot (docs/rules.md §5.3) names her as the player who
    left and in its replay's handover (and the bot's name says whose seat it took); forgetting
    her renames her in all three, and the game still replays."""
    replay = {
        **replay_of(["ai:1", BEN], ["Bot 1 (for Ana)", "Ben"], rounds=4),
        "handovers": [{"seat": "ai:1", "player": ANA, "name": "Ana", "at": 3}],
    }
    result = dataclasses.replace(game("b1", [BEN], ["ai:1", BEN], left=[ANA]), replay=replay)

    async def main(s: Storage) -> Any:
        await s.delete_table(10, [result])
        before = await s.game("b1")
        await s.forget_user(ANA)
        return before, await s.game("b1")

    before, after = storage.run(main)
    assert before.result == result
    (anon,) = after.result.left
    kept = after.result.replay
    assert anon.startswith("forgotten:") and "Ana" not in str(kept) and ANA not in str(kept)
    assert kept["handovers"] == [{"seat": "ai:1", "player": anon, "name": "a former player", "at": 3}]
    assert kept["names"] == ["Bot 1 (for a former player)", "Ben"]
    assert Game.replay(kept).to_dict()["hands"] == Game.replay(replay).to_dict()["hands"]
