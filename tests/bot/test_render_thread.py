"""The thread of a game and its pointer in the parent channel (bot/render/thread.py)."""

from __future__ import annotations

import random

from bot.engine import ai
from bot.engine.game import Game
from bot.engine.options import Options, Scoring
from bot.render.thread import pointer_open, pointer_over, thread_name
from bot.tables import Seat, Table


def _played(options: Options, seed: int = 3) -> Table:
    """Ana and Ben's game, played to its end by random moves."""
    table = Table.new(guild_id=1, channel_id=2, host=Seat("1", "Ana"), options=options)
    table.join(Seat("2", "Ben"))
    table.start(seed=seed)
    game = table.game
    assert game is not None
    rng = random.Random(seed)
    while not game.game_over:
        if game.round_over:
            game.start_round()
            continue
        player = game.pending.player
        assert player is not None
        game.apply(player, ai.random_action(game, player, rng))
    return table


def _unfinished() -> Game:
    table = Table.new(guild_id=1, channel_id=2, host=Seat("1", "Ana"))
    table.join(Seat("2", "Ben"))
    table.start(seed=1)
    assert table.game is not None
    return table.game


def test_names_within_discords_limit() -> None:
    """The thread's name names the host (and a non-classic edition), within 100 characters."""
    assert thread_name("alice", "classic") == "UNO · alice's game"
    assert thread_name("bob", "flip") == "UNO · bob's game (UNO Flip)"
    assert len(thread_name("x" * 300, "harry-potter")) <= 100
    assert "**alice**" in pointer_open("alice", "classic") and "\n" not in pointer_open("a*b", "flip")


def test_pointer_tells_the_result_in_one_line() -> None:
    """The winner and the scores, winners first, in one line; no points in single-round
    scoring; no winner with the reason; a lobby closed before its start."""
    table = _played(Options(target_score=100))
    game = table.game
    assert game is not None
    (winner,) = game.winners
    text = pointer_over(table)
    assert "\n" not in text and f"🏆 **{table.name(winner)}** won" in text
    assert text.index(f"{table.name(winner)} {game.scores[winner]}") < text.index(
        next(f"{table.name(k)} {v}" for k, v in game.scores.items() if k != winner)
    )
    single = pointer_over(_played(Options(scoring=Scoring.SINGLE_ROUND)))
    assert single.endswith("won, 1 round.")
    table.game = _unfinished()
    assert pointer_over(table, "its thread was archived") == (
        "🧵 UNO: the game ended with no winner (its thread was archived)."
    )
    table.game = None
    assert pointer_over(table) == "🧵 UNO: the lobby closed before the game started."
