"""What follows a round, for every edition (`bot.engine.scoring.next_round`)."""

from __future__ import annotations

import random

import pytest

from bot.engine import ai
from bot.engine.dos.game import DosGame
from bot.engine.editions import AnyGame
from bot.engine.game import LEFT, Game
from bot.engine.scoring import next_round


@pytest.mark.parametrize("edition", ["classic", "flip", "dos"])
def test_next_round_follows_a_finished_round_only(edition: str) -> None:
    """docs/rules.md §1.1-§1.2, §14.3, §14.10: a finished round is followed by the next one's
    deal, the deal passing one seat to the left; nothing while the round goes on, nor once the
    game is over."""
    players = ["a", "b", "c"]
    game: AnyGame = DosGame(players, seed=5) if edition == "dos" else Game(players, variant=edition, seed=5)
    game.start_round()
    before = game.to_dict()
    assert next_round(game) == [] and game.to_dict() == before  # mid-round
    rng = random.Random(5)
    while True:
        while not game.round_over:
            player = game.pending.player
            assert player is not None
            game.apply(player, ai.choose(game, player, rng))  # type: ignore[arg-type]
        dealer, round_no = game.dealer, game.round_no
        assert dealer is not None
        if game.game_over:
            break
        events = next_round(game)
        assert str(events[0].kind) == "round-started" and game.round_no == round_no + 1
        left = game.next_seat(dealer) if isinstance(game, DosGame) else game.next_seat(dealer, LEFT)
        assert game.dealer == left and not game.round_over
        assert all(len(hand) >= 7 for hand in game.hands.values())  # a Draw Two start card: 9
    before = game.to_dict()
    assert round_no > 1 and next_round(game) == [] and game.to_dict() == before  # the game is over
