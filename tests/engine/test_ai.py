"""The computer players (bot/engine/ai.py): strength, legality, UNO calls and catches."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from bot.engine import ai
from bot.engine.cards import Card
from bot.engine.game import Action, Game
from bot.engine.options import Options, PendingKind

WIN_RATE_ROUNDS = 10_000
MIN_WIN_RATE = 0.40

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("flip", {}),
    ("flip-marvel", {}),
    ("harry-potter", {}),
    ("cars2", {}),
    ("dc-super-hero-girls", {"customizable_rule": "swap-hands"}),
    ("dc-super-hero-girls", {"customizable_rule": "everyone-draws-one"}),
    ("classic", {"house_rules": ["stacking", "jump-in", "seven-o"]}),
    ("classic", {"house_rules": ["forced-play", "draw-until-playable", "no-bluffing"]}),
    ("flip-marvel", {"house_rules": ["stacking"]}),
    ("harry-potter", {"partners": True}),
]
CONFIG_IDS = [
    "classic",
    "flip",
    "flip-marvel",
    "harry-potter",
    "cars2",
    "dc-swap-hands",
    "dc-everyone-draws-one",
    "classic-stacking-jump-in-seven-o",
    "classic-forced-play-draw-until-playable-no-bluffing",
    "flip-marvel-stacking",
    "harry-potter-partners",
]


def test_ai_win_rate() -> None:
    """One AI among three random players wins at least 40% of 10,000 4-player classic rounds."""
    players = ["p0", "p1", "p2", "p3"]
    wins = 0
    start = time.perf_counter()
    for i in range(WIN_RATE_ROUNDS):
        seat = players[i % 4]  # the AI's seat rotates
        game = Game(players, variant="classic", seed=i)
        game.start_round()
        ai.play_round(game, {seat: ai.choose}, random.Random(i))
        assert game.round_over
        wins += game.round_winner == seat
    rate = wins / WIN_RATE_ROUNDS
    elapsed = time.perf_counter() - start
    print(f"AI win rate {rate:.1%} over {WIN_RATE_ROUNDS} rounds in {elapsed:.1f} s")
    assert rate >= MIN_WIN_RATE, f"AI won only {rate:.1%} of {WIN_RATE_ROUNDS} rounds"


def checked_choose(game: Game, player: str, rng: random.Random) -> Action:
    """ai.choose, asserting the action it picks is one of the legal actions."""
    action = ai.choose(game, player, rng)
    assert action in game.legal_actions(player), (player, action, game.pending)
    return action


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=CONFIG_IDS)
def test_ai_actions_are_legal(variant: str, options: dict[str, Any]) -> None:
    """Every action (and catch) the AI picks is listed by legal_actions and accepted."""
    for seed in range(4):
        game = Game(["a", "b", "c", "d"], variant=variant, options=Options.parse(options), seed=seed)
        game.start_round()
        policies = dict.fromkeys(game.players, checked_choose)

        def catches_are_legal(g: Game) -> None:
            for player in g.seated:
                for catch in ai.catches(g, player):
                    assert catch in g.legal_actions(player)

        ai.play_round(game, policies, random.Random(seed), after_step=catches_are_legal)
        assert game.round_over


def test_ai_refuses_to_act_out_of_turn() -> None:
    """The AI has nothing to decide when another player must act."""
    game = Game(["a", "b", "c"], seed=1)
    game.start_round()
    waiting = next(p for p in game.players if p != game.pending.player)
    with pytest.raises(ValueError):
        ai.choose(game, waiting, random.Random(0))


def two_cards_on_turn(ben: tuple[str, ...] = ("blue 5", "green 6")) -> Game:
    """Ana's turn with two cards, both playable."""
    game, _ = Game.from_deal(
        ["ana", "ben", "cy"],
        variant="classic",
        dealer="cy",
        hands={
            "ana": [Card.parse("red 2"), Card.parse("red 3")],
            "ben": [Card.parse(c) for c in ben],
            "cy": [Card.parse("green 8"), Card.parse("yellow 1")],
        },
        draw_pile=[Card.parse("blue 1"), Card.parse("blue 2")],
        discard_pile=[Card.parse("red 7")],
    )
    return game


def test_ai_calls_uno_before_its_next_to_last_card() -> None:
    """Holding two cards on its turn, the AI first calls UNO, then plays; it can't be caught."""
    game = two_cards_on_turn()
    rng = random.Random(0)
    assert ai.choose(game, "ana", rng) == Action("uno")
    game.apply("ana", ai.choose(game, "ana", rng))
    action = ai.choose(game, "ana", rng)
    assert action.kind == "play"
    game.apply("ana", action)
    assert len(game.hands["ana"]) == 1
    assert "ana" in game.called
    assert "ana" not in game.catchable
    assert ai.catches(game, "ben") == []


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("cars2", {}),
        ("flip", {}),
        ("harry-potter", {}),
        ("classic", {"house_rules": ["stacking", "seven-o", "jump-in"]}),
        ("dc-super-hero-girls", {"customizable_rule": "swap-hands"}),
    ],
    ids=["classic", "cars2", "flip", "harry-potter", "classic-stacking-seven-o-jump-in", "dc"],
)
def test_ai_never_left_catchable(variant: str, options: dict[str, Any]) -> None:
    """Over many rounds, an AI that plays (or answers) down to one card has called UNO."""
    players = ["p0", "p1", "p2", "p3"]
    one_card = 0
    for seed in range(40):
        seat = players[seed % 4]
        game = Game(players, variant=variant, options=Options.parse(options), seed=seed)
        game.start_round()

        def called(g: Game, seat: str = seat) -> None:
            nonlocal one_card
            if g.round_over or len(g.hands[seat]) != 1:
                return
            one_card += 1
            assert seat not in g.catchable, f"{seat} can be caught: it did not call UNO"

        ai.play_round(game, {seat: ai.choose}, random.Random(seed), after_step=called)
    assert one_card > 20


def test_ai_not_catchable_after_wild_super_hero_discard() -> None:
    """An AI with two cards picked by a Wild Super Hero is never left open to a catch."""
    game, _ = Game.from_deal(
        ["ana", "ben", "cy"],
        variant="flip-marvel",
        dealer="cy",
        hands={
            "ana": [Card.parse(c) for c in ("wild super hero / pink 5", "green 3 / orange 6")],
            "ben": [Card.parse(c) for c in ("blue 6 / pink 3", "red 9 / orange 2")],
            "cy": [Card.parse("blue 2 / pink 4")],
        },
        draw_pile=[Card.parse("yellow 1 / purple 9")],
        discard_pile=[Card.parse("red 4 / purple 4")],
    )
    game.play("ana", "wild super hero")
    assert (game.pending.kind, game.pending.player) == (PendingKind.DISCARD, "ben")
    game.apply("ben", ai.choose(game, "ben", random.Random(0)))
    assert "ben" not in game.catchable


def forgetful(game: Game, player: str, rng: random.Random) -> Action:
    """A player who never calls UNO (plays the first card it can, else the first choice)."""
    actions = [a for a in game.legal_actions(player) if a.kind not in ("uno", "catch", "jump-in")]
    plays = [a for a in actions if a.kind in ("play", "play-drawn")]
    return (plays or actions)[0]


def test_ai_catches_a_player_who_forgot_uno() -> None:
    """When a player goes down to one card without calling, the AI catches them at once."""
    game = two_cards_on_turn()
    game.play("ana", "red 2")
    assert game.catchable == {"ana"}
    assert ai.catches(game, "ben") == [Action("catch", target="ana")]
    assert ai.catches(game, "ana") == []
    game.apply("ben", ai.catches(game, "ben")[0])
    assert len(game.hands["ana"]) == 3
    assert ai.catches(game, "ben") == []


def test_ai_catches_during_play_round() -> None:
    """play_round lets the AI catch as soon as the window opens."""
    game = two_cards_on_turn(ben=("red 4",))
    trace: list[tuple[frozenset[str], int]] = []
    ai.play_round(
        game,
        {"ben": ai.choose},
        random.Random(1),
        default=forgetful,
        after_step=lambda g: trace.append((frozenset(g.catchable), len(g.hands["ana"]))),
    )
    assert trace[0] == (frozenset({"ana"}), 1)
    assert trace[1] == (frozenset(), 3)
    assert game.round_winner == "ben"


@pytest.mark.parametrize("seed", range(3))
def test_ai_catches_every_forgetful_player(seed: int) -> None:
    """With the AI at the table, no forgetful player stays catchable until the next decision."""
    players = ["p0", "p1", "p2", "p3"]
    opened = 0
    for round_seed in range(seed * 30, seed * 30 + 30):
        game = Game(players, variant="classic", seed=round_seed)
        game.start_round()

        def decide(g: Game, player: str, rng: random.Random) -> Action:
            assert not g.catchable - {"p0"}, f"{sorted(g.catchable)} left uncaught"
            return forgetful(g, player, rng)

        def count(g: Game) -> None:
            nonlocal opened
            opened += bool(g.catchable - {"p0"})

        ai.play_round(game, {"p0": ai.choose}, random.Random(round_seed), default=decide, after_step=count)
    assert opened > 5


def test_random_action_is_legal() -> None:
    """The random player only picks legal actions, and draws only when it can't play."""
    for seed in range(10):
        game = Game(["a", "b", "c"], variant="flip", seed=seed)
        game.start_round()
        rng = random.Random(seed)
        while not game.round_over:
            player = game.pending.player
            assert player is not None
            legal = game.legal_actions(player)
            action = ai.random_action(game, player, rng)
            assert action in legal
            plays = [a for a in legal if a.kind == "play"]
            if game.pending.kind is PendingKind.TURN and plays:
                assert action.kind != "draw"
            game.apply(player, action)
