"""Card effects, Save The Day's protection and the answers to a pending penalty (bot/engine/effects.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine import effects
from bot.engine.cards import Card, Color, Rank, Side
from bot.engine.effects import Answer
from bot.engine.events import Event, EventKind
from bot.engine.game import Game
from bot.engine.options import Options, PendingKind

PLAYERS = ["ana", "ben", "cy"]


def deal(
    hands: dict[str, list[str]],
    *,
    variant: str = "classic",
    top: str = "red 5",
    draw: Sequence[str] = ("blue 1", "blue 2", "blue 3", "blue 4", "blue 5"),
    options: dict[str, Any] | None = None,
    **kwargs: Any,
) -> Game:
    """A started game at ana's turn on ``top`` (``draw`` top first), like a scenario's [deal]."""
    players = list(hands)
    game, _ = Game.from_deal(
        players,
        variant=variant,
        options=Options.parse(options),
        dealer=players[-1],
        hands={p: [Card.parse(c) for c in h] for p, h in hands.items()},
        draw_pile=[Card.parse(c) for c in reversed(draw)],
        discard_pile=[Card.parse(top)],
        color=kwargs.pop("color", None),
        **kwargs,
    )
    return game


def kinds(events: Sequence[Event]) -> list[str]:
    """The kinds of ``events``, in order."""
    return [str(e.kind) for e in events]


def sizes(game: Game) -> dict[str, int]:
    """Each hand's size."""
    return {p: len(h) for p, h in game.hands.items()}


# ----------------------------------------------------------------------------- the table


def test_effects_table() -> None:
    """Every action and special wild rank has its named effect; numbers and plain wilds none."""
    assert effects.EFFECTS[Rank.SKIP] is effects.skip
    assert effects.EFFECTS[Rank.SEVEN] is effects.EFFECTS[Rank.ZERO] is effects.seven_o
    assert {effects.EFFECTS[r] for r in (Rank.DRAW_ONE, Rank.DRAW_TWO, Rank.DRAW_THREE, Rank.DRAW_FIVE)} == {
        effects.draw_card
    }
    assert {effects.EFFECTS[r] for r in (Rank.WILD_DRAW_FOUR, Rank.WILD_DRAW_TWO, Rank.WILD_DRAW_COLOR)} == {
        effects.restricted_wild
    }
    for rank in (Rank.ONE, Rank.NINE, Rank.WILD, Rank.INVISIBILITY):
        assert rank not in effects.EFFECTS


# ----------------------------------------------------------------------------- each effect


def test_skip() -> None:
    """Skip: the next player loses their turn."""
    game = deal({"ana": ["red skip", "red 1"], "ben": ["red 2"], "cy": ["red 3"]}, color=Color.RED)
    assert kinds(game.play("ana", "red skip")) == ["card-played", "turn-skipped"]
    assert game.pending.player == "cy"


def test_reverse_with_three_players() -> None:
    """Reverse: the direction reverses and play goes on to the right."""
    game = deal({"ana": ["red reverse", "red 1"], "ben": ["red 2"], "cy": ["red 3"]}, color=Color.RED)
    events = game.play("ana", "red reverse")
    assert kinds(events) == ["card-played", "direction-reversed"]
    assert events[1].data == {"direction": "right"}
    assert game.direction == -1 and game.pending.player == "cy"


def test_reverse_with_two_players_is_a_skip() -> None:
    """Reverse with two players: its player plays again."""
    game = deal({"ana": ["red reverse", "red 1"], "ben": ["red 2"]}, color=Color.RED)
    assert kinds(game.play("ana", "red reverse")) == ["card-played", "direction-reversed", "turn-skipped"]
    assert game.pending.player == "ana"


@pytest.mark.parametrize(
    ("variant", "card", "drawn"),
    [
        ("classic", "red draw two", 2),
        ("harry-potter", "red draw three", 3),
        ("flip", "red draw one / pink 1", 1),
    ],
)
def test_draw_card(variant: str, card: str, drawn: int) -> None:
    """Draw One / Two / Three: the next player draws that many and loses their turn."""
    other = "red 1" if variant != "flip" else "red 1 / pink 2"
    game = deal(
        {"ana": [card, other], "ben": ["red 2" if variant != "flip" else "red 2 / pink 3"], "cy": [other]},
        variant=variant,
        top="red 5" if variant != "flip" else "red 5 / pink 5",
        draw=[f"blue {n}" if variant != "flip" else f"blue {n} / teal {n}" for n in range(1, 6)],
        color=Color.RED,
    )
    events = game.play("ana", card)
    if variant == "harry-potter":  # every Draw Three victim may answer with Invisibility
        assert kinds(events) == ["card-played", "penalty-pending"]
        events = game.accept("ben")
    else:
        events = events[1:]
    assert kinds(events) == ["cards-drawn", "turn-skipped"]
    assert sizes(game)["ben"] == 1 + drawn and game.pending.player == "cy"


def test_skip_everyone() -> None:
    """Skip Everyone (Flip, dark side): every other player loses their turn; its player plays again."""
    game = deal(
        {
            "ana": ["red 1 / pink skip everyone", "red 2 / pink 2"],
            "ben": ["red 3 / teal 3"],
            "cy": ["red 4 / teal 4"],
        },
        variant="flip",
        top="red 5 / pink 5",
        draw=[],
        side=Side.DARK,
        color=Color.PINK,
    )
    assert kinds(game.play("ana", "pink skip everyone")) == ["card-played", "turn-skipped", "turn-skipped"]
    assert game.pending.player == "ana"


def test_flip_turns_the_table_over() -> None:
    """Flip: the piles turn over (the old bottom card is the new top), its color in force."""
    game = deal(
        {"ana": ["red flip / teal 1", "red 2 / pink 2"], "ben": ["red 3 / teal 3"], "cy": ["red 4 / teal 4"]},
        variant="flip",
        top="red 5 / purple 5",
        draw=[],
        color=Color.RED,
    )
    assert kinds(game.play("ana", "red flip")) == ["card-played", "side-flipped"]
    assert game.side is Side.DARK and game.color is Color.PURPLE and game.pending.player == "ben"


def test_flip_onto_a_wild_asks_its_player_for_the_color() -> None:
    """Flip onto a dark wild: its player names the color, then plays on as usual."""
    game = deal(
        {"ana": ["red flip / teal 1", "red 2 / pink 2"], "ben": ["red 3 / teal 3"], "cy": ["red 4 / teal 4"]},
        variant="flip",
        top="red 5 / wild",
        draw=[],
        color=Color.RED,
    )
    game.play("ana", "red flip")
    assert game.pending.kind is PendingKind.COLOR and game.pending.player == "ana" and game.color is None


def test_seven_o() -> None:
    """Seven-O: a 7 swaps hands with the picked player; a 0 passes every hand on."""
    hands = {"ana": ["red 7", "red 0", "red 1"], "ben": ["blue 2"], "cy": ["green 3", "green 4"]}
    game = deal(hands, color=Color.RED, options={"house_rules": ["seven-o"]})
    assert kinds(game.play("ana", "red 7", target="cy")) == ["card-played", "hands-swapped"]
    assert sizes(game) == {"ana": 2, "ben": 1, "cy": 2} and game.hands["cy"] == [
        Card.parse(c) for c in ("red 0", "red 1")
    ]
    plain = deal(hands, color=Color.RED)
    assert kinds(plain.play("ana", "red 7")) == ["card-played"]
    zero = deal(hands, color=Color.RED, options={"house_rules": ["seven-o"]})
    assert kinds(zero.play("ana", "red 0")) == ["card-played", "hands-passed"]
    assert sizes(zero) == {"ana": 2, "ben": 2, "cy": 1}


def test_restricted_wild_opens_a_challenge() -> None:
    """Wild Draw Four: the next player may challenge or accept; the color before it is kept."""
    game = deal({"ana": ["wild draw four", "red 1"], "ben": ["red 2"], "cy": ["red 3"]}, color=Color.RED)
    assert kinds(game.play("ana", "wild draw four", color="blue")) == ["card-played", "penalty-pending"]
    p = game.pending
    assert (p.kind, p.player, p.source, p.rank, p.total, p.prev_color) == (
        PendingKind.CHALLENGE,
        "ben",
        "ana",
        Rank.WILD_DRAW_FOUR,
        4,
        Color.RED,
    )


def test_wild_super_hero_picks_the_most_cards_ties_in_turn_order() -> None:
    """Wild Super Hero: of equal hands the first in turn order from the next player discards."""
    game = deal(
        {
            "ana": ["wild super hero / pink 1", "red 2 / pink 2"],
            "ben": ["red 3 / teal 3", "red 4 / teal 4"],
            "cy": ["red 6 / teal 6", "red 7 / teal 7"],
        },
        variant="flip-marvel",
        top="red 5 / purple 5",
        draw=[],
        color=Color.RED,
    )
    game.play("ana", "wild super hero")
    assert (game.pending.kind, game.pending.player, game.color) == (PendingKind.DISCARD, "ben", None)


def test_wild_villain_fewest_cards_draw_three_and_name_the_color() -> None:
    """Wild Villain: the player with fewest cards draws three, then names the color."""
    game = deal(
        {
            "ana": ["red 1 / wild villain", "red 2 / pink 2", "red 8 / pink 8"],
            "ben": ["red 3 / teal 3", "red 4 / teal 4"],
            "cy": ["red 6 / teal 6"],
        },
        variant="flip-marvel",
        top="red 5 / purple 5",
        draw=["blue 1 / teal 1", "blue 2 / teal 2", "blue 3 / teal 3"],
        side=Side.DARK,
        color=Color.PURPLE,
    )
    game.play("ana", "wild villain")
    assert (game.pending.kind, game.pending.player) == (PendingKind.COLOR, "cy")
    assert sizes(game)["cy"] == 4


def test_howler_asks_the_picked_player() -> None:
    """Howler: the picked player lets their hand be shown (or answers with Invisibility)."""
    game = deal(
        {"ana": ["howler", "red 1"], "ben": ["red 2"], "cy": ["red 3"]},
        variant="harry-potter",
        color=Color.RED,
    )
    game.play("ana", "howler", color="green", target="cy")
    assert (game.pending.kind, game.pending.player, game.pending.source) == (PendingKind.HOWLER, "cy", "ana")


def test_special_agent_mater_shows_every_other_hand_to_its_player() -> None:
    """Special Agent Mater: its player privately sees every other hand."""
    game = deal(
        {"ana": ["special agent mater", "red 1"], "ben": ["red 2"], "cy": ["red 3"]},
        variant="cars2",
        color=Color.RED,
    )
    assert kinds(game.play("ana", "special agent mater", color="green")) == [
        "card-played",
        "hand-revealed",
        "hand-revealed",
    ]
    assert game.revealed == {"ana": {"ben": ["red 2"], "cy": ["red 3"]}}
    assert game.pending.player == "ben"


def test_save_the_day_protects_the_picked_player() -> None:
    """Save The Day: the picked player is protected; play goes on."""
    game = deal(
        {"ana": ["save the day", "red 1"], "ben": ["red 2"], "cy": ["red 3"]},
        variant="dc-super-hero-girls",
        color=Color.RED,
    )
    assert kinds(game.play("ana", "save the day", color="red", target="cy")) == ["card-played", "protected"]
    assert game.protected == "cy" and game.shielded("cy") and not game.shielded("ben")


CUSTOMIZABLE = [
    (
        "everyone-draws-one",
        None,
        ["card-played", "house-rule", "cards-drawn", "cards-drawn"],
        "ben",
        {"ben": 2, "cy": 2},
    ),
    ("swap-hands", "cy", ["card-played", "house-rule", "hands-swapped"], "ben", {"ana": 1, "cy": 1}),
    ("pass-hands", None, ["card-played", "house-rule", "hands-passed"], "ben", {"ana": 1, "ben": 1}),
    ("skip-two", None, ["card-played", "house-rule", "turn-skipped", "turn-skipped"], "ana", {}),
    ("play-again", None, ["card-played", "house-rule"], "ana", {}),
    ("next-draws-two", None, ["card-played", "house-rule", "cards-drawn", "turn-skipped"], "cy", {"ben": 3}),
    ("Everybody sings", None, ["card-played", "house-rule"], "ben", {}),
    ("", None, ["card-played"], "ben", {}),
]


@pytest.mark.parametrize(
    ("rule", "target", "events", "turn", "hand_sizes"),
    CUSTOMIZABLE,
    ids=[c[0] or "none" for c in CUSTOMIZABLE],
)
def test_wild_customizable(
    rule: str, target: str | None, events: list[str], turn: str, hand_sizes: dict[str, int]
) -> None:
    """Wild Customizable: the host's catalogued rule, announced free text, or a plain wild."""
    game = deal(
        {"ana": ["wild customizable", "red 1"], "ben": ["red 2"], "cy": ["red 3"]},
        variant="dc-super-hero-girls",
        color=Color.RED,
        options={"customizable_rule": rule},
    )
    assert kinds(game.play("ana", "wild customizable", color="red", target=target)) == events
    assert game.pending.player == turn
    assert {p: n for p, n in sizes(game).items() if p in hand_sizes} == hand_sizes


def test_custom_rules_carry_a_name_and_effect_only() -> None:
    """The catalogue gives each rule an id, a name for the table and its effect."""
    for rule_id, rule in effects.CUSTOMIZABLE_RULES.items():
        assert rule.id == rule_id and rule.name and callable(rule.apply)
        assert not hasattr(rule, "description")
    assert [r for r, rule in effects.CUSTOMIZABLE_RULES.items() if rule.needs_target] == ["swap-hands"]


def test_target_ranks() -> None:
    """Plays that need a picked player: Howler, Save The Day, a Seven-O 7, a swap-hands wild."""
    plain = effects.target_ranks(deal({"ana": ["red 1"], "ben": []}, color=Color.RED))
    assert plain == {Rank.HOWLER, Rank.SAVE_THE_DAY}
    seven = deal({"ana": ["red 1"], "ben": []}, color=Color.RED, options={"house_rules": ["seven-o"]})
    assert effects.target_ranks(seven) == {Rank.HOWLER, Rank.SAVE_THE_DAY, Rank.SEVEN}


# ----------------------------------------------------------------------------- a last card


def test_last_card_draw_still_hits_the_next_player() -> None:
    """A last Draw Two: the round ends and the next player still draws two."""
    game = deal({"ana": ["red draw two"], "ben": ["red 2"], "cy": ["red 3"]}, color=Color.RED)
    assert kinds(game.play("ana", "red draw two"))[:3] == ["card-played", "cards-drawn", "round-over"]
    assert sizes(game)["ben"] == 3


def test_last_card_flip_turns_the_table_over() -> None:
    """A last Flip still turns the table over before the round is scored."""
    game = deal(
        {"ana": ["red flip / teal 1"], "ben": ["red 3 / teal 3"], "cy": ["red 4 / teal 4"]},
        variant="flip",
        top="red 5 / purple 5",
        draw=[],
        color=Color.RED,
    )
    assert kinds(game.play("ana", "red flip"))[:3] == ["card-played", "side-flipped", "round-over"]
    assert game.side is Side.DARK


def test_last_card_skip_does_nothing() -> None:
    """A last Skip: only draws and flips are carried out; the round ends."""
    game = deal({"ana": ["red skip"], "ben": ["red 2"], "cy": ["red 3"]}, color=Color.RED)
    assert kinds(game.play("ana", "red skip"))[:2] == ["card-played", "round-over"]


# ----------------------------------------------------------------------------- protection


def test_shielded_and_block() -> None:
    """shielded() names only the protected player; block() announces penalty-blocked."""
    game = deal(
        {"ana": ["red 1", "red 2"], "ben": ["red 2"], "cy": ["red 3"]},
        variant="dc-super-hero-girls",
        color=Color.RED,
        protected="ben",
    )
    assert game.shielded("ben") and not game.shielded("ana") and not game.shielded("cy")
    game.block("ben", Rank.SKIP)
    events = game.play("ana", "red 1")
    assert events[0] == Event(EventKind.PENALTY_BLOCKED, "ben", {"card": "skip"})


BLOCKED = [
    ("red skip", {}, ["card-played", "penalty-blocked"], "ben"),
    ("red draw two", {}, ["card-played", "penalty-blocked"], "ben"),
    ("wild draw four", {}, ["card-played", "penalty-blocked", "protection-ended"], "ben"),
    ("red draw two", {"house_rules": ["stacking"]}, ["card-played", "penalty-blocked"], "ben"),
    (
        "wild customizable",
        {"customizable_rule": "next-draws-two"},
        ["card-played", "house-rule", "penalty-blocked", "protection-ended"],
        "ben",
    ),
    (
        "wild customizable",
        {"customizable_rule": "skip-two"},
        ["card-played", "house-rule", "penalty-blocked", "protection-ended"],
        "ben",
    ),
    (
        "wild customizable",
        {"customizable_rule": "everyone-draws-one"},
        ["card-played", "house-rule", "penalty-blocked", "cards-drawn", "protection-ended"],
        "ben",
    ),
]


@pytest.mark.parametrize(
    ("card", "options", "events", "turn"), BLOCKED, ids=[f"{b[0]}-{b[1]}" for b in BLOCKED]
)
def test_protection_blocks_every_penalty(
    card: str, options: dict[str, Any], events: list[str], turn: str
) -> None:
    """Save The Day blocks every penalty on the protected player, who then plays as usual."""
    # A wild other than Save The Day ends the protection after its effect.
    game = deal(
        {"ana": [card, "red 1"], "ben": ["red 2"], "cy": ["red 3"]},
        variant="dc-super-hero-girls",
        color=Color.RED,
        protected="ben",
        options=options,
    )
    got = game.play("ana", card, color="red" if "wild" in card else None)
    assert kinds(got) == events
    assert game.pending.player == turn and game.pending.kind is PendingKind.TURN
    assert sizes(game)["ben"] == 1


def test_protection_blocks_a_last_draw_card() -> None:
    """A last Draw Two on the protected player: blocked (and announced), the round ends."""
    game = deal(
        {"ana": ["red draw two"], "ben": ["red 2"], "cy": ["red 3"]},
        variant="dc-super-hero-girls",
        color=Color.RED,
        protected="ben",
    )
    assert kinds(game.play("ana", "red draw two"))[:3] == ["card-played", "penalty-blocked", "round-over"]
    assert sizes(game)["ben"] == 1


def test_protection_ends_with_another_wild_only() -> None:
    """A colored card keeps the protection; Save The Day moves it; any other wild ends it."""
    hands = {"ana": ["red 1", "save the day", "wild", "red 4"], "ben": ["red 2"], "cy": ["red 3"]}
    game = deal(hands, variant="dc-super-hero-girls", color=Color.RED, protected="ben")
    game.play("ana", "red 1")
    assert game.protected == "ben"
    game = deal(hands, variant="dc-super-hero-girls", color=Color.RED, protected="ben")
    game.play("ana", "save the day", color="red", target="cy")
    assert game.protected == "cy"
    game = deal(hands, variant="dc-super-hero-girls", color=Color.RED, protected="ben")
    assert kinds(game.play("ana", "wild", color="red"))[-1] == "protection-ended"
    assert game.protected is None


# ----------------------------------------------------------------------------- answers


@pytest.mark.parametrize(
    ("variant", "rules", "rank", "stack", "cancel", "decides"),
    [
        ("classic", [], Rank.DRAW_TWO, False, False, False),
        ("classic", ["stacking"], Rank.DRAW_TWO, True, False, True),
        ("classic", ["stacking"], Rank.SKIP, False, False, False),
        ("classic", ["stacking"], Rank.WILD_DRAW_FOUR, False, False, True),
        ("classic", [], Rank.WILD_DRAW_FOUR, False, False, True),
        ("harry-potter", [], Rank.DRAW_THREE, False, True, True),
        ("harry-potter", [], Rank.SKIP, False, True, True),
        ("harry-potter", [], Rank.REVERSE, False, True, True),
        ("harry-potter", [], Rank.WILD_DRAW_FOUR, False, True, True),
        ("harry-potter", ["stacking"], Rank.DRAW_THREE, True, True, True),
        ("classic", [], Rank.SKIP, False, False, False),
        ("dc-super-hero-girls", ["stacking"], Rank.WILD_CUSTOMIZABLE, False, False, False),
    ],
)
def test_who_may_answer_a_penalty(
    variant: str, rules: list[str], rank: Rank, stack: bool, cancel: bool, decides: bool
) -> None:
    """stackable, cancellable and victim_decides by edition, house rule and penalty rank."""
    game = Game(["a", "b"], variant=variant, options=Options.parse({"house_rules": rules}))
    assert effects.stackable(game, rank) is stack
    assert effects.cancellable(game, rank) is cancel
    assert effects.victim_decides(game, rank) is decides


def test_answer_stacks_the_same_draw_rank_only() -> None:
    """Only a Draw card of the pending Draw rank stacks (not another rank, a number or a wild)."""
    game = deal(
        {
            "ana": ["red draw two", "red 1"],
            "ben": ["blue draw two", "wild draw four", "red 9"],
            "cy": ["red 3"],
        },
        color=Color.RED,
        options={"house_rules": ["stacking"]},
    )
    game.play("ana", "red draw two")
    assert game.pending.kind is PendingKind.PENALTY
    face = Card.parse
    assert effects.answer(game, face("blue draw two").light) is Answer.STACK
    assert effects.answer(game, face("wild draw four").light) is None
    assert effects.answer(game, face("red 9").light) is None
    assert effects.answer(game, face("red draw one / pink 1").light) is None
    assert [a.text() for a in game.decisions("ben")] == ["accept", "play blue draw two"]


def test_answer_never_stacks_on_a_restricted_wild() -> None:
    """A Wild Draw Four waits for a challenge; another Wild Draw Four is no answer."""
    game = deal(
        {"ana": ["wild draw four", "red 1"], "ben": ["wild draw four", "red 9"], "cy": ["red 3"]},
        color=Color.RED,
        options={"house_rules": ["stacking"]},
    )
    game.play("ana", "wild draw four", color="blue")
    assert effects.answer(game, Card.parse("wild draw four").light) is None
    assert [a.text() for a in game.decisions("ben")] == ["accept", "challenge"]


@pytest.mark.parametrize(("card", "answers"), [("red skip", True), ("howler", True), ("red draw two", False)])
def test_answer_with_invisibility(card: str, answers: bool) -> None:
    """Harry Potter: Invisibility answers a Skip and a Howler, not what it doesn't cancel."""
    game = deal(
        {"ana": [card, "red 1"], "ben": ["invisibility", "red 9"], "cy": ["red 3"]},
        variant="harry-potter" if card != "red draw two" else "classic",
        color=Color.RED,
    )
    game.play(
        "ana", card, color="red" if card == "howler" else None, target="ben" if card == "howler" else None
    )
    got = effects.answer(game, Card.parse("invisibility").light)
    assert got is (Answer.INVISIBILITY if answers else None)


def test_stacked_last_card_on_a_shielded_player() -> None:
    """A stacked last Draw Two passes nothing to a protected player, silently (as before)."""
    # Unlike a last Draw Two played on a turn, which announces penalty-blocked.
    game = deal(
        {"ana": ["red draw two", "red 1"], "ben": ["blue draw two"], "cy": ["red 3"]},
        variant="dc-super-hero-girls",
        color=Color.RED,
        protected="cy",
        options={"house_rules": ["stacking"]},
    )
    game.play("ana", "red draw two")
    events = game.play("ben", "blue draw two")
    assert kinds(events)[:2] == ["card-played", "round-over"]
    assert sizes(game)["cy"] == 1
