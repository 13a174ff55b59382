"""Actions as values: kinds, the canonical text form and its parser, dispatch (bot/engine/actions.py)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import ai, errors
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Color, Rank
from bot.engine.effects import VICTIM_NAMES_COLOR, target_ranks
from bot.engine.errors import BadAction, NotExpected, UnoError
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options
from bot.engine.variants import VARIANTS

SCENARIOS_MD_KINDS = [
    "play", "draw", "play-drawn", "keep", "uno", "catch", "challenge", "accept", "discard",
    "choose-color", "reveal", "jump-in", "leave", "timeout",
]  # fmt: skip
ALL_CARDS = sorted(
    {card for v in VARIANTS.values() for seed in range(3) for card in v.build_deck(random.Random(seed))},
    key=lambda c: c.name,
)
PROFILE = settings(
    deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

player_ids = st.one_of(
    st.integers(10**16, 10**19).map(str),  # Discord snowflakes
    st.integers(0, 9).map(lambda n: f"ai:{n}"),
    st.from_regex(r"[a-z][a-z0-9_+:-]{0,11}", fullmatch=True),  # scenario names
)
actions = st.builds(
    Action,
    st.sampled_from(ActionKind),
    st.none() | st.sampled_from(ALL_CARDS),
    st.none() | st.sampled_from(Color),
    st.none() | player_ids,
    st.booleans(),
)


# ----------------------------------------------------------------------------- kinds


def test_kinds_are_scenarios_md_actions() -> None:
    """ActionKind's values are exactly the scenario format's action names (docs/scenarios.md), in order."""
    assert [k.value for k in ActionKind] == SCENARIOS_MD_KINDS


def test_kinds_compare_and_hash_as_their_names() -> None:
    """A kind equals its name and finds dict entries keyed by it (and the other way round)."""
    assert ActionKind.PLAY_DRAWN == "play-drawn"
    assert hash(ActionKind.JUMP_IN) == hash("jump-in")
    assert {"draw": 1}[ActionKind.DRAW] == 1
    assert {ActionKind.DRAW: 1}["draw"] == 1
    assert str(ActionKind.CHOOSE_COLOR) == f"{ActionKind.CHOOSE_COLOR}" == "choose-color"


# ----------------------------------------------------------------------------- text form


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("draw", Action(ActionKind.DRAW)),
        ("play wild draw four color=red", Action(ActionKind.PLAY, Card.parse("wild draw four"), Color.RED)),
        (
            "play red 7 / purple skip everyone target=123456789012345678",
            Action(ActionKind.PLAY, Card.parse("red 7 / purple skip everyone"), target="123456789012345678"),
        ),
        ("catch target=ai:2", Action(ActionKind.CATCH, target="ai:2")),
        ("discard decline", Action(ActionKind.DISCARD, decline=True)),
        ("choose-color color=blue", Action(ActionKind.CHOOSE_COLOR, color=Color.BLUE)),
        ("play-drawn color=green", Action(ActionKind.PLAY_DRAWN, color=Color.GREEN)),
        ("play wild draw four", Action(ActionKind.PLAY, Card.parse("wild draw four"))),
        (
            "jump-in blue 7 color=blue target=ben decline",
            Action(ActionKind.JUMP_IN, Card.parse("blue 7"), Color.BLUE, "ben", True),
        ),
    ],
)
def test_text_and_parse_of_examples(text: str, expected: Action) -> None:
    """The issue's examples parse to the expected action and are its canonical text."""
    assert Action.parse(text) == expected
    assert expected.text() == text


def test_parse_forgives_spacing_and_field_order() -> None:
    """Extra spaces and fields in another order read the same action."""
    action = Action.parse("  play   wild  target=ana   color=red ")
    assert action == Action(ActionKind.PLAY, Card.parse("wild"), Color.RED, "ana")
    assert action.text() == "play wild color=red target=ana"


@PROFILE
@given(action=actions)
def test_text_parse_round_trip_any_action(action: Action) -> None:
    """Every action value, complete or partial, reads back from its text exactly."""
    text = action.text()
    assert Action.parse(text) == action
    assert Action.parse(text).text() == text
    assert Action.parse(text).kind is action.kind


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "dance",
        "PLAY red 7",
        "play red 99",
        "play red",
        "play red 7 / red 8",
        "play color=red wild",
        "play wild colour=red",
        "play wild color=mauve",
        "play wild color=Red",
        "play wild color=",
        "catch target=",
        "catch target=a=b",
        "play wild color=red color=blue",
        "discard decline decline",
        "discard decline=yes",
        "catch ana",
    ],
)
def test_parse_refuses_malformed_text(text: str) -> None:
    """Malformed text raises BadAction: reason bad-action, a message fit for the player."""
    with pytest.raises(BadAction) as exc:
        Action.parse(text)
    assert isinstance(exc.value, UnoError)
    assert exc.value.reason == "bad-action"
    assert exc.value.message == "That button is broken; press Refresh."
    assert repr(text) in exc.value.detail


def test_longest_action_text() -> None:
    """The longest text a legal action can have is 70 characters (a custom_id holds 100)."""
    # A Flip 7 played as the drawn card under Seven-O, picking a 20-digit snowflake.
    targeted = {Rank.SEVEN, Rank.HOWLER, Rank.SAVE_THE_DAY, Rank.WILD_CUSTOMIZABLE}
    texts = []
    for card in ALL_CARDS:
        for face in filter(None, (card.light, card.dark)):
            color = Color.YELLOW if face.wild and face.rank not in VICTIM_NAMES_COLOR else None
            target = "9" * 20 if face.rank in targeted else None
            for kind in (ActionKind.PLAY, ActionKind.PLAY_DRAWN, ActionKind.JUMP_IN):
                texts.append(Action(kind, card, color, target).text())
    longest = max(texts, key=len)
    assert longest == "play-drawn yellow 7 / orange skip everyone target=99999999999999999999"
    assert len(longest) == 70


def test_every_reason_id_is_documented() -> None:
    """Every refusal's reason id stands in docs/rules.md §13 (Reason ids)."""
    table = re.split(r"(?m)^## .*Reason ids$", RULES_MD.read_text(encoding="utf-8"), maxsplit=1)[1]
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", table, flags=re.MULTILINE))
    reasons = {
        cls.reason for cls in vars(errors).values() if isinstance(cls, type) and issubclass(cls, UnoError)
    }
    assert "bad-action" in reasons
    assert reasons <= documented


# ----------------------------------------------------------------------------- dispatch


def _game() -> Game:
    game = Game(["ana", "ben", "cy"], seed=5)
    game.start_round()
    return game


def test_apply_dispatches_every_kind() -> None:
    """Game.apply has a handler for every kind, and refuses an unknown kind with not-expected."""
    from bot.engine.game import _HANDLERS

    assert set(_HANDLERS) == set(ActionKind)
    with pytest.raises(NotExpected):
        _game().apply("ana", Action("dance"))  # type: ignore[arg-type]


def test_apply_with_a_parsed_action_equals_the_method() -> None:
    """A parsed action text does what the action method does (same events, same state)."""
    a, b = _game(), _game()
    player = a.pending.player
    assert player is not None
    legal = a.legal_actions(player)
    action = legal[0]
    assert a.apply(player, Action.parse(action.text())) == b.apply(player, action)
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", Options(house_rules=frozenset(HouseRule))),
        ("flip", Options(house_rules=frozenset({HouseRule.STACKING, HouseRule.JUMP_IN}))),
        ("flip-marvel", Options()),
        ("harry-potter", Options(house_rules=frozenset({HouseRule.SEVEN_O}))),
        ("cars2", Options(house_rules=frozenset({HouseRule.JUMP_IN}))),
        ("dc-super-hero-girls", Options(customizable_rule="swap-hands")),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
@settings(PROFILE, max_examples=8)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_every_legal_action_round_trips(variant: str, options: Options, seed: int, players: int) -> None:
    """In random positions every legal action reads back from its text, and the game accepts it."""
    names = [str(10**17 + n) if n % 2 else f"ai:{n}" for n in range(players)]
    game = Game(names, variant=variant, options=options, seed=seed)
    game.start_round()
    rng = random.Random(seed)

    def check(g: Game) -> None:
        for player in g.seated:
            for action in g.legal_actions(player):
                assert Action.parse(action.text()) == action, action
        player = g.pending.player
        if player is not None:
            action = rng.choice(g.legal_actions(player))
            copy = Game.from_dict(g.to_dict())
            copy.apply(player, Action.parse(action.text()))

    check(game)
    ai.play_round(game, {}, rng, after_step=check)


# ----------------------------------------------------------------------------- completions


def _deal(
    hands: dict[str, list[str]], top: str = "red 9", variant: str = "classic", **options: object
) -> Game:
    """A started game at ana's turn on ``top`` (red), with ``hands`` and an empty draw pile."""
    game, _ = Game.from_deal(
        list(hands),
        variant=variant,
        options=Options.parse(options),
        dealer=list(hands)[-1],
        hands={p: [Card.parse(c) for c in h] for p, h in hands.items()},
        draw_pile=[Card.parse("blue 1")],
        discard_pile=[Card.parse(top)],
        color=Color.RED,
    )
    return game


def _texts(actions: list[Action]) -> list[str]:
    return [a.text() for a in actions]


def test_completions_of_a_wild_ask_for_its_color() -> None:
    """A wild without its color is not legal as it stands; its completions name each color."""
    game = _deal({"ana": ["wild", "red 2"], "ben": ["red 3"]})
    wild = Action.parse("play wild")
    assert wild not in game.legal_actions("ana")
    assert _texts(game.completions("ana", wild)) == [
        f"play wild color={c}" for c in ("red", "yellow", "green", "blue")
    ]
    assert game.completions("ana", Action.parse("play wild color=green")) == [
        Action.parse("play wild color=green")
    ]


def test_completions_ask_for_the_color_then_the_target() -> None:
    """Save The Day: its completions carry a color and a target; with the color, only targets."""
    game = _deal(
        {"ana": ["save the day", "red 2"], "ben": ["red 3"], "cy": ["red 4"]}, variant="dc-super-hero-girls"
    )
    partial = Action.parse("play save the day")
    assert len(game.completions("ana", partial)) == 4 * 2
    colored = game.completions("ana", Action.parse("play save the day color=blue"))
    assert _texts(colored) == [
        "play save the day color=blue target=ben",
        "play save the day color=blue target=cy",
    ]


def test_completions_of_a_seven_under_seven_o_ask_for_the_target() -> None:
    """Seven-O: a 7 needs a target and no color."""
    game = _deal({"ana": ["red 7", "red 2"], "ben": ["red 3"], "cy": ["red 4"]}, house_rules=["seven-o"])
    assert _texts(game.completions("ana", Action.parse("play red 7"))) == [
        "play red 7 target=ben",
        "play red 7 target=cy",
    ]


def test_wild_super_hero_is_legal_without_a_color() -> None:
    """Flip Marvel's Wild Super Hero takes no color when played: the partial action is complete."""
    game, _ = Game.from_deal(
        ["ana", "ben"],
        variant="flip-marvel",
        dealer="ben",
        hands={
            "ana": [Card.parse("wild super hero / pink 3"), Card.parse("red 2 / teal 4")],
            "ben": [Card.parse("red 3 / pink 5")],
        },
        draw_pile=[],
        discard_pile=[Card.parse("red 9 / purple 9")],
        color=Color.RED,
    )
    action = Action(ActionKind.PLAY, Card.parse("wild super hero / pink 3"))
    assert game.completions("ana", action) == [action]


def test_completions_of_a_refused_action_are_empty() -> None:
    """A card that can't be played, a kind not expected, or a wrong target: no completions."""
    game = _deal({"ana": ["blue 2", "wild"], "ben": ["red 3"]})
    assert game.completions("ana", Action.parse("play blue 2")) == []
    assert game.completions("ana", Action.parse("keep")) == []
    assert game.completions("ben", Action.parse("play red 3")) == []
    assert game.completions("ana", Action.parse("play wild color=pink")) == []
    assert game.completions("ana", Action.parse("leave")) == []


def test_completions_of_a_kind_alone() -> None:
    """The kind alone completes to every legal action of that kind; decline to the decline."""
    game = _deal({"ana": ["red 2", "red 5", "wild"], "ben": ["red 3"]})
    legal = game.legal_actions("ana")
    assert game.completions("ana", Action(ActionKind.PLAY)) == [a for a in legal if a.kind is ActionKind.PLAY]
    assert game.completions("ana", Action(ActionKind.DRAW)) == [Action(ActionKind.DRAW)]
    assert game.completions("ana", Action(ActionKind.DISCARD, decline=True)) == []


def test_last_wild_is_accepted_without_a_color_but_listed_with_one() -> None:
    """A last wild is accepted without a color but listed (and completed) with one."""
    # So a button asks for its color, as for any wild.
    game = _deal({"ana": ["wild"], "ben": ["red 3"]})
    bare = Action.parse("play wild")
    assert bare not in game.legal_actions("ana")
    assert len(game.completions("ana", bare)) == 4
    assert Game.from_dict(game.to_dict()).apply("ana", bare)[-1].kind == "round-over"


def _button_shaped(game: Game, player: str) -> list[Action]:
    """Every play, play-drawn and jump-in of ``player``'s cards with any color (or none) and
    any target (or none): what a button could carry."""
    colors = [None, *game.colors]
    targets = [None, *(p for p in game.seated if p != player)]
    cards = dict.fromkeys(game.hands[player])
    out = []
    for kind in (ActionKind.PLAY, ActionKind.JUMP_IN, ActionKind.PLAY_DRAWN):
        for card in cards if kind is not ActionKind.PLAY_DRAWN else [game.drawn]:
            out += [Action(kind, card, c, t) for c in colors for t in targets]
    return out


def _accepted(game: Game, player: str, action: Action) -> bool:
    try:
        Game.from_dict(game.to_dict()).apply(player, action)
    except UnoError:
        return False
    return True


def _documented_extra(game: Game, player: str, action: Action) -> bool:
    """An accepted form legal_actions does not list: a last card without color or target, a
    color or target the card ignores, or a jump-in by the player whose turn it is (the play
    of that card is listed)."""
    assert action.card is not None
    face = action.card.face(game.side)
    takes_color = face.wild and face.rank not in VICTIM_NAMES_COLOR
    takes_target = face.rank in target_ranks(game)
    last = len(game.hands[player]) == 1
    return (
        (action.kind is ActionKind.JUMP_IN and game.pending.player == player)
        or (action.color is not None and not takes_color)
        or (action.target is not None and not takes_target)
        or (last and (action.color is None or action.target is None))
    )


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        (
            "classic",
            Options(house_rules=frozenset({HouseRule.SEVEN_O, HouseRule.JUMP_IN, HouseRule.STACKING})),
        ),
        ("flip-marvel", Options()),
        ("harry-potter", Options()),
        ("dc-super-hero-girls", Options(customizable_rule="swap-hands")),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
@settings(PROFILE, max_examples=3)
@given(seed=st.integers(0, 2**32))
def test_buttons_find_every_accepted_play(variant: str, options: Options, seed: int) -> None:
    """Every play a button could carry that the game accepts is legal or a documented extra form."""
    # Also: every legal action is the only completion of itself.
    game = Game(["ana", "ben", "cy"], variant=variant, options=options, seed=seed)
    game.start_round()
    rng = random.Random(seed)
    steps = 0

    def check(g: Game) -> None:
        nonlocal steps
        steps += 1
        for player in g.seated:
            legal = g.legal_actions(player)
            for action in legal:
                assert g.completions(player, action) == [action]
            if steps % 4 or g.round_over:
                continue
            for action in _button_shaped(g, player):
                if action.card is not None and _accepted(g, player, action):
                    assert action in legal or _documented_extra(g, player, action), action

    check(game)
    ai.play_round(game, {}, rng, after_step=check)
