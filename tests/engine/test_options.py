"""Game options: parsing, the JSON form and validation (bot/engine/options.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.errors import BadOption
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options, Pending, PendingKind, Scoring


@pytest.mark.parametrize(
    "data",
    [
        {"bogus": 1},
        {"target_score": 0},
        {"target_score": -5},
        {"target_score": 100_001},
        {"target_score": "500"},
        {"target_score": 1.5},
        {"target_score": True},
        {"scoring": "weird"},
        {"scoring": None},
        {"house_rules": "stacking"},
        {"house_rules": ["stacking", "nope"]},
        {"house_rules": [1]},
        {"partners": "yes"},
        {"partners": 1},
        {"elimination": None},
        {"customizable_rule": 5},
        {"customizable_rule": "x" * 301},
        {"house_rules": None},
        {"house_rules": 5},
        5,
        ["stacking"],
    ],
    ids=lambda d: repr(d)[:40],
)
def test_options_parse_errors(data: Any) -> None:
    """Unknown keys and values of the wrong type or out of range raise BadOption."""
    with pytest.raises(BadOption) as exc:
        Options.parse(data)
    assert exc.value.reason == "bad-option"


def test_options_parse_defaults_and_round_trip() -> None:
    """Missing options take the official defaults; to_dict parses back to the same options."""
    assert Options.parse(None) == Options.parse({}) == Options()
    defaults = Options()
    assert defaults.target_score == 500
    assert defaults.scoring is Scoring.STANDARD
    assert not defaults.partners and not defaults.elimination and not defaults.house_rules
    full = Options.parse(
        {
            "target_score": 1,
            "scoring": "running-tally",
            "partners": True,
            "house_rules": [r.value for r in HouseRule],
            "customizable_rule": "  swap-hands ",
        }
    )
    assert full.customizable_rule == "swap-hands"
    assert full.house_rules == frozenset(HouseRule)
    assert Options.parse(full.to_dict()) == full
    assert Options.parse({"elimination": True}).effective_scoring is Scoring.RUNNING_TALLY


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            Options(partners=True, elimination=True),
            "Partners and elimination can't be combined: choose one of them.",
        ),
        (
            Options(elimination=True, scoring=Scoring.SINGLE_ROUND),
            "Elimination plays many rounds (scored as a running tally), so it can't be a single round.",
        ),
    ],
    ids=["partners-elimination", "elimination-single-round"],
)
def test_validate_refuses_options_that_dont_go_together(options: Options, message: str) -> None:
    """Partners with elimination, and elimination as a single round, are refused everywhere."""
    for players in (None, ["a", "b", "c", "d"]):
        with pytest.raises(BadOption) as exc:
            options.validate(players)
        assert exc.value.message == message
    with pytest.raises(BadOption, match="can't"):
        Game(["a", "b", "c", "d"], options=options)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["a", "b", "c"], "Partners need 4, 6, 8 or 10 players."),
        (["a", "b", "c", "d", "e"], "Partners need 4, 6, 8 or 10 players."),
        (["a+b", "c", "d", "e"], "With partners, player ids can't contain '+'."),
    ],
)
def test_validate_checks_partner_seating(players: list[str], message: str) -> None:
    """Partners need an even 4 to 10 seats and ids without '+' (team keys are "a+b")."""
    options = Options(partners=True)
    assert options.validate() is options  # fine before anyone sits down
    with pytest.raises(BadOption) as exc:
        options.validate(players)
    assert exc.value.message == message


@pytest.mark.parametrize(
    "options",
    [
        Options(),
        Options(partners=True),
        Options(elimination=True),
        Options(elimination=True, scoring=Scoring.RUNNING_TALLY),
        Options(scoring=Scoring.SINGLE_ROUND, house_rules=frozenset(HouseRule)),
    ],
    ids=repr,
)
def test_validate_accepts_and_returns_the_options(options: Options) -> None:
    """Options that go together are returned as they are."""
    assert options.validate(["a", "b", "c", "d"]) is options
    assert options.validate() is options


def test_ids_with_plus_are_fine_without_partners() -> None:
    """A '+' in a player id matters only with partners."""
    assert Options().validate(["a+b", "c"]) == Options()


def test_pending_round_trip() -> None:
    """Pending.to_dict / from_dict round-trip a decision with every field set."""
    from bot.engine.cards import Color, Rank

    pending = Pending(PendingKind.CHALLENGE, "ben", "ana", Rank.WILD_DRAW_FOUR, 4, Color.RED, "cy", True)
    assert Pending.from_dict(pending.to_dict()) == pending
