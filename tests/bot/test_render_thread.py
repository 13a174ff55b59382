"""The thread of a game and its pointer in the parent channel (bot/render/thread.py)."""

from __future__ import annotations

import random

import pytest

from bot.engine import ai
from bot.engine.game import Game
from bot.engine.options import Options, Scoring
from bot.i18n import ENGLISH, LANGUAGES, translator
from bot.i18n import ENGLISH_TR as EN
from bot.render.seats import seat_offer
from bot.render.stats import recent_lines
from bot.render.thread import pointer_open, pointer_over, thread_name
from bot.service.threads import ARCHIVED
from bot.storage import PlayerGame
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
    assert thread_name("alice", "classic", EN) == "UNO · alice's game"
    assert thread_name("bob", "flip", EN) == "UNO · bob's game (UNO Flip)"
    assert len(thread_name("x" * 300, "harry-potter", EN)) <= 100
    assert "**alice**" in pointer_open("alice", "classic", EN) and "\n" not in pointer_open("a*b", "flip", EN)


def test_pointer_tells_the_result_in_one_line() -> None:
    """The winner and the scores, winners first, in one line; no points in single-round
    scoring; no winner with the reason; a lobby closed before its start."""
    table = _played(Options(target_score=100))
    game = table.game
    assert game is not None
    (winner,) = game.winners
    text = pointer_over(table, EN)
    assert "\n" not in text and f"🏆 **{table.name(winner)}** won" in text
    assert text.index(f"{table.name(winner)} {game.scores[winner]}") < text.index(
        next(f"{table.name(k)} {v}" for k, v in game.scores.items() if k != winner)
    )
    single = pointer_over(_played(Options(scoring=Scoring.SINGLE_ROUND)), EN)
    assert single.endswith("won, 1 round.")
    table.game = _unfinished()
    assert pointer_over(table, EN, "its thread was archived") == (
        "🧵 UNO: the game ended with no winner (its thread was archived)."
    )
    table.game = None
    assert pointer_over(table, EN) == "🧵 UNO: the lobby closed before the game started."


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {ENGLISH}))
def test_the_thread_the_seat_offer_and_recent_results_read_in_the_table_s_language(lang: str) -> None:
    """Every line the threads, the seat offer and ``/uno stats``' results add is translated: none
    of them keeps its English words in French, Spanish or Portuguese (bot/i18n.py)."""
    tr = translator(lang)
    table = _played(Options(target_score=100))
    lines = [
        thread_name("ana", "flip", tr),
        pointer_open("ana", "classic", tr),
        pointer_over(table, tr),
        pointer_over(_played(Options(scoring=Scoring.SINGLE_ROUND)), tr),
    ]
    text, view = seat_offer(table, "2", 2, tr)
    lines += [text, *(str(getattr(item, "label", "")) for item in view.children)]
    lines += recent_lines([PlayerGame(1_700_000_000.0, "classic", True, 50)], tr)
    table.game = _unfinished()
    lines.append(pointer_over(table, tr, ARCHIVED))
    table.game = None
    lines.append(pointer_over(table, tr))
    english = ["'s game", "opened a game", "the thread below", "won", "no winner", "thread was archived",
               "lobby closed", "run out of time", "seat to a bot", "Won ·"]  # fmt: skip
    shown = "\n".join(lines)
    assert not [phrase for phrase in english if phrase in shown], shown
    assert "Ana" in shown and "ana" in shown  # the names are kept
    assert translator(lang)._(ARCHIVED) in shown
