"""Events: the kinds as an enum, the engine emitting them, the public form (bot/engine/events.py)."""

from __future__ import annotations

import json
import random
import re

import pytest

from bot.engine import ai, events
from bot.engine.dos.game import DosEvent, DosEventKind
from bot.engine.events import Event, EventKind
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options


def _documented_kinds() -> list[str]:
    """The kinds of the module docstring's table, in its order."""
    doc = events.__doc__ or ""
    table = doc.split("kind                 data")[1]
    return re.findall(r"^([a-z][a-z-]+) ", table, flags=re.MULTILINE)


def test_event_kinds_are_the_documented_table() -> None:
    """EventKind's values are exactly the kinds of the events.py docstring table, in order."""
    assert [k.value for k in EventKind] == _documented_kinds()
    assert len(EventKind) == 27


def test_event_kinds_compare_as_their_names() -> None:
    """A kind equals its name, hashes like it and prints as it (render.py compares strings)."""
    assert EventKind.CARD_PLAYED == "card-played"
    assert EventKind.ROUND_OVER in {"round-over"}
    assert {"side-flipped": 1}[EventKind.SIDE_FLIPPED] == 1
    assert f"{EventKind.HOUSE_RULE}" == "house-rule"


def test_engine_emits_members_only() -> None:
    """Every event of whole games in every option mix carries an EventKind member."""
    seen: set[EventKind] = set()
    for variant, options in [
        ("classic", Options(house_rules=frozenset(HouseRule))),
        ("flip-marvel", Options()),
        ("harry-potter", Options(elimination=True, target_score=50)),
        ("dc-super-hero-girls", Options(customizable_rule="everyone-draws-one")),
    ]:
        game = Game(["a", "b", "c", "d"], variant=variant, options=options, seed=11)
        log: list[Event] = list(game.start_round())
        rng = random.Random(11)
        while not game.round_over:
            player = game.pending.player
            assert player is not None
            log += game.apply(player, ai.random_action(game, player, rng))
        for event in log:
            assert type(event.kind) is EventKind, event
            seen.add(event.kind)
    assert {EventKind.ROUND_STARTED, EventKind.CARD_PLAYED, EventKind.ROUND_OVER} <= seen


def test_public_form_is_plain_json() -> None:
    """Event.public() writes the kind as plain text and drops the private card lists."""
    event = Event(EventKind.CARDS_DRAWN, "ana", {"count": 2, "cards": ["red 1", "red 2"], "reason": "turn"})
    public = event.public()
    assert public == {"kind": "cards-drawn", "player": "ana", "count": 2, "reason": "turn"}
    assert type(public["kind"]) is str
    assert json.loads(json.dumps(public)) == public


@pytest.mark.parametrize(
    ("event", "public"),
    [
        (
            DosEvent(DosEventKind.CARDS_DRAWN, "ana", {"count": 1, "cards": ["red 3"], "reason": "turn"}),
            {"kind": "cards-drawn", "player": "ana", "count": 1, "reason": "turn"},
        ),
        (
            Event(EventKind.HAND_REVEALED, "ben", {"to": ["ana"], "cards": ["red 1"], "by": "howler"}),
            {"kind": "hand-revealed", "player": "ben", "to": ["ana"], "by": "howler"},
        ),
        (
            DosEvent(DosEventKind.MATCH_MADE, "ana", {"pile": 1, "cards": ["red 3"], "bonus": "none"}),
            {"kind": "match-made", "player": "ana", "pile": 1, "cards": ["red 3"], "bonus": "none"},
        ),
        (
            Event(EventKind.DEALER_DRAWN, None, {"cards": {"ana": "red 7"}}),
            {"kind": "dealer-drawn", "cards": {"ana": "red 7"}},
        ),
        (DosEvent(DosEventKind.TURN_ENDED, None), {"kind": "turn-ended"}),
    ],
    ids=["dos-drawn", "uno-revealed", "dos-match", "uno-dealer", "dos-no-player"],
)
def test_public_form_is_one_rule_for_every_edition(
    event: Event | DosEvent, public: dict[str, object]
) -> None:
    """Both editions' events have one public form (events.public): only drawn cards and a shown
    hand's cards are private, and no player means no ``player`` key."""
    assert event.public() == public
