"""DOS's hard computer player (bot/engine/dos/search.py, bot/engine/dos/ai.py; docs/engine-dos.md,
"The AI"): its samples keep what is public and read nothing hidden, its decisions are legal, the
fast copy and fast apply match the validating paths."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine import ai, editions, search
from bot.engine.dos import ai as dos_ai
from bot.engine.dos import search as dos_search
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DosGame

PLAYOUTS = 40
"""Playouts per hard decision in these tests: few, and counted, so no test reads a clock."""


def position(players: int, seed: int, steps: int) -> DosGame:
    """A round of ``players`` after ``steps`` normal decisions (fewer if it ends)."""
    game = DosGame([f"p{i}" for i in range(players)], seed=seed)
    game.start_round()
    rng = random.Random(seed)
    for _ in range(steps):
        player = game.pending.player
        if game.round_over or player is None:
            break
        game.apply(player, ai.choose(game, player, rng))
    return game


def choose_hard(game: DosGame, player: str, seed: int) -> DosAction:
    return ai.choose(game, player, random.Random(seed), "hard", budget=None, playouts=PLAYOUTS)


def hidden_replaced(game: DosGame, player: str, seed: int) -> DosGame:
    """A copy of ``game`` whose cards hidden from ``player`` (the other hands, the draw pile) are
    shuffled among those places, each keeping its size, with another seed, generator and deck
    order: what ``player`` sees is unchanged."""
    rng = random.Random(seed)
    copy = game.copy(rng=random.Random(seed + 1))
    copy.seed = seed + 1
    others = [p for p in game.seated if p != player]
    hidden = [*game.draw_pile, *(c for p in others for c in game.hands[p])]
    rng.shuffle(hidden)
    for p in others:
        size = len(game.hands[p])
        copy.hands[p], hidden = hidden[:size], hidden[size:]
    copy.draw_pile = hidden
    copy.deck = list(reversed(game.deck))
    return copy


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hard_never_reads_a_hidden_card(players: int) -> None:
    """The hard AI's decision depends only on what is public and its own hand: with the hidden
    cards dealt again, the same seed gives the same samples and the same decision."""
    changed = 0
    for seed in range(8):
        game = position(players, seed, 3 + 2 * seed)
        player = game.pending.player
        if game.round_over or player is None:
            continue
        other = hidden_replaced(game, player, seed)
        changed += other.to_dict()["hands"] != game.to_dict()["hands"]
        samples = [dos_search.determinize(g, player, random.Random(seed)) for g in (game, other)]
        assert samples[0].to_dict()["hands"] == samples[1].to_dict()["hands"], seed
        assert samples[0].draw_pile == samples[1].draw_pile, seed
        assert choose_hard(other, player, seed) == choose_hard(game, player, seed), seed
    assert changed > 5


def test_determinize_keeps_what_is_public() -> None:
    """A sample keeps the player's hand, the row, the discard pile, the public state, every hand
    size and the draw pile's size; it holds the deck's cards, deals the hidden ones differently
    from sample to sample, and keeps no journal."""
    dealt_differently = 0
    for seed in range(10):
        game = position(3, seed, 8 + seed)
        player = game.pending.player
        if game.round_over or player is None:
            continue
        world = dos_search.determinize(game, player, random.Random(seed))
        again = dos_search.determinize(game, player, random.Random(seed + 100))
        assert world.hands[player] == game.hands[player]
        assert world.row == game.row and world.discard_pile == game.discard_pile
        assert world.public_view() == game.public_view()
        assert {p: len(h) for p, h in world.hands.items()} == {p: len(h) for p, h in game.hands.items()}
        held = [*world.draw_pile, *world.discard_pile, *(c for pile in world.row for c in pile)]
        held += [c for hand in world.hands.values() for c in hand]
        assert Counter(held) == Counter(game.deck)
        assert world.journal is None
        dealt_differently += world.hands != again.hands
    assert dealt_differently > 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hard_plays_whole_rounds_legally(players: int) -> None:
    """Every decision of the hard AI, in every seat of a few seeded rounds, is a legal action the
    game accepts; the rounds end."""
    for seed in range(2):
        game = DosGame([f"p{i}" for i in range(players)], seed=seed)
        game.start_round()
        rng = random.Random(seed)
        steps = dos_ai.play_round(game, {}, rng, default=_checked_hard, max_steps=500)
        assert game.round_over and steps > 0


def _checked_hard(game: DosGame, player: str, rng: random.Random) -> DosAction:
    action = ai.choose(game, player, rng, "hard", budget=None, playouts=PLAYOUTS)
    assert action in game.legal_actions(player), (action, game.pending)
    return action


def test_hard_calls_dos_first_as_normal_does() -> None:
    """With three cards on its turn, hard calls DOS at once (the rule of thumb), as normal does."""
    game = DosGame.from_deal(
        ["ana", "ben"],
        dealer="ben",
        hands={"ana": _cards("red 7", "green 1", "blue 3"), "ben": _cards("red 7", "yellow 8", "blue 9")},
        row=[[c] for c in _cards("red 7", "yellow 8")],
        draw_pile=_cards("green 3", "yellow 4", "yellow 5"),
    )
    assert choose_hard(game, "ana", 1) == DosAction(DosActionKind.DOS)


def test_candidates_keep_one_color_per_match() -> None:
    """A Wild DOS may name four colors, on a Wild DOS pile times four: the search tries one per
    match (pile and cards), the color that makes a color match when one does."""
    game = DosGame.from_deal(
        ["ana", "ben"],
        dealer="ben",
        hands={"ana": _cards("wild dos", "blue 3", "red 4"), "ben": _cards("red 7", "yellow 8")},
        row=[[c] for c in _cards("wild dos", "blue 5")],
        draw_pile=_cards("green 3", "yellow 4", "yellow 5"),
    )
    listed = game.decisions("ana")
    kept = dos_ai._candidates(game, listed)
    plays = [a for a in kept if a.kind is DosActionKind.PLAY]
    assert len({(a.pile, a.cards) for a in plays}) == len(plays)
    assert len(listed) > len(kept) and set(kept) <= set(listed)
    assert [a.kind for a in kept if a.kind is not DosActionKind.PLAY] == [DosActionKind.DRAW]
    on_pile_2 = next(a for a in plays if a.pile == 2 and set(a.cards) == set(_cards("wild dos", "blue 3")))
    assert on_pile_2.color is DosCard.parse("blue 5").color  # a double color match
    two = next(a for a in plays if a.pile == 1 and a.cards == _cards("wild dos"))
    assert two.color is two.pile_color  # a color match on a Wild DOS pile


def test_search_keeps_to_its_playout_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The DOS search spends at most its playout count, and most of it, in DOS playouts."""
    game = next(g for seed in range(20) if len(_searched(g := position(2, seed, 0))) >= 4)
    player = game.pending.player
    assert player is not None
    calls: list[int] = []
    real = dos_search.playout

    def counted(g: DosGame, p: str, policy: dos_ai.DosPolicy, rng: random.Random) -> float:
        calls.append(1)
        return real(g, p, policy, rng)

    monkeypatch.setattr(dos_search, "playout", counted)
    choose_hard(game, player, 1)
    assert PLAYOUTS // 2 < len(calls) <= PLAYOUTS


def test_playout_ends_the_round_and_values_it() -> None:
    """A playout plays the round to its end (catches included) and values it as UNO's search
    does: a win plus the points won, a loss less the points kept (standard scoring)."""
    for seed in range(5):
        game = position(3, seed, 4).copy(journal=False)
        me = "p0"
        value = dos_search.playout(game, me, dos_ai._normal, random.Random(seed))
        assert game.round_over
        assert value == search.utility(game, me)
        if game.round_winner == me:
            assert value == 1 + game.round_points / search.POINTS_SCALE
        else:
            assert value == -game.hand_value(me) / search.POINTS_SCALE


def test_apply_listed_and_copy_match_the_validating_paths() -> None:
    """``apply_listed`` of a listed action leaves the game as ``apply`` does (journal included),
    on a ``copy`` that saves as the original and changes independently of it."""
    for seed in range(6):
        game = DosGame(["a", "b", "c"], seed=seed)
        game.start_round()
        rng = random.Random(seed)
        while not game.round_over:
            player = game.pending.player
            assert player is not None
            actions = game.legal_actions(player)
            action = actions[int(rng.random() * len(actions))]
            fast = game.copy()
            assert fast.to_dict() == game.to_dict()
            fast.apply_listed(player, action)
            game.apply(player, action)
            assert fast.to_dict() == game.to_dict(), action
        assert game.copy(journal=False).journal is None


def test_hard_move_searches_a_dos_snapshot() -> None:
    """The bot's worker path: a DOS game's save goes to ``editions.hard_move`` and comes back as
    the text of a legal action."""
    game = position(2, 5, 2)
    player = game.pending.player
    assert player is not None
    text = editions.hard_move(game.to_dict(), player, 0.5, 0.01)
    assert DosAction.parse(text) in game.legal_actions(player)


def _searched(game: DosGame) -> list[DosAction]:
    """The candidates the search would try at ``game``'s pending decision."""
    player = game.pending.player
    return dos_ai._candidates(game, game.decisions(player)) if player is not None else []


def _cards(*names: str) -> tuple[DosCard, ...]:
    return tuple(DosCard.parse(n) for n in names)
