"""Both aggregates' attributes, ``copy`` and ``to_dict`` agree (bot/engine/saving.py, bot/engine/base.py):
every attribute is copied, and saved or listed here as derived on purpose, so an attribute added
to one and forgotten in another fails here."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine import editions
from bot.engine.editions import AnyGame
from bot.engine.game import Game
from bot.engine.options import Options

SAVED = {
    "players": "players",
    "options": "options",
    "seed": "seed",
    "out": "out",
    "scores": "scores",
    "deck": "deck",
    "round_no": "round",
    "dealer": "dealer",
    "version": "version",
    "game_over": "game_over",
    "winners": "winners",
    "hands": "hands",
    "draw_pile": "draw_pile",
    "discard_pile": "discard_pile",
    "pending": "pending",
    "called": "called",
    "catchable": "catchable",
    "round_over": "round_over",
    "round_winner": "round_winner",
    "round_points": "round_points",
    "_journal": "journal",
}
"""The attributes every edition has (``TableGame``'s) and the save's key each is written under."""
SAVED_UNO = {
    **SAVED,
    "variant": "variant",
    "side": "side",
    "color": "color",
    "direction": "direction",
    "protected": "protected",
    "revealed": "revealed",
    "drawn": "drawn",
    "repeats": "repeats",
    "_rng": "rng",
    "_notes": "unfollowed",
}
"""``Game``'s attributes and the save's key each is written under."""
DERIVED_UNO = {
    "_effects": "from the variant and options (Game._derive)",
    "_jump_in": "from the options",
    "_no_bluffing": "from the options",
    "_special_ranks": "from the variant and options",
    "_target_ranks": "from the variant and options",
    "_until_playable": "from the options",
    "_victim_ranks": "from the variant and options",
    "_events": "empty between actions",
    "_reshuffled": "false between actions (Game._flush)",
    "_rng_saved": "a cache of the generator's state's text",
    "_unfollowed": "a cache of the notes less the cards shed since (Game.unfollowed)",
    "_sheds": "folded into the saved notes (Game.unfollowed), zero on restore",
}
"""``Game``'s attributes that are not saved, and why."""
SAVED_DOS = {
    **SAVED,
    "rng": "rng",
    "row": "row",
    "matched": "matched",
    "bonus": "bonus",
    "doubles": "doubles",
    "due": "due",
    "ended": "ended",
    "caught": "caught",
}
"""``DosGame``'s attributes and the save's key each is written under."""
DERIVED_DOS = {"_events": "empty between actions"}
"""``DosGame``'s attributes that are not saved, and why."""


def attributes(game: AnyGame) -> set[str]:
    """Every attribute an aggregate's instance holds: its classes' slots and its own."""
    slots = {name for cls in type(game).__mro__ for name in vars(cls).get("__slots__", ())}
    return slots | set(getattr(game, "__dict__", {}))


def played(edition: str, seed: int = 5, moves: int = 25) -> AnyGame:
    """A game of ``edition`` ``moves`` actions into its first rounds, by its normal bots."""
    game = editions.new_game(edition, ["ana", "ben", "cy"], Options(target_score=10_000), seed=seed)
    rng = random.Random(seed)
    game.start_round()
    for _ in range(moves):
        if game.round_over:
            game.start_round()
        player = game.pending.player
        assert player is not None
        game.apply(player, editions.choose(game, player, rng))  # type: ignore[arg-type]
    return game


def value(game: AnyGame, name: str) -> Any:
    """An attribute's value, as two games that agree on it compare it."""
    if name in ("_rng", "rng"):
        return getattr(game, name).getstate()
    if name == "_journal":
        return game.journal
    if name == "_notes":
        assert isinstance(game, Game)
        return game.unfollowed
    return getattr(game, name)


CASES: list[tuple[str, dict[str, str], dict[str, str]]] = [
    ("classic", SAVED_UNO, DERIVED_UNO),
    ("flip", SAVED_UNO, DERIVED_UNO),
    ("dos", SAVED_DOS, DERIVED_DOS),
]


@pytest.mark.parametrize(("edition", "saved", "derived"), CASES)
def test_every_attribute_is_saved_or_derived_on_purpose(
    edition: str, saved: dict[str, str], derived: dict[str, str]
) -> None:
    """Each attribute of the aggregate is listed once, saved under a key its save has, or
    derived; and the save has no key no attribute writes."""
    game = played(edition)
    assert attributes(game) == set(saved) | set(derived)
    assert not set(saved) & set(derived)
    # The schema and DOS's variant are written from the class.
    assert set(saved.values()) | {"schema", "variant"} == set(game.to_dict())


@pytest.mark.parametrize(("edition", "saved", "derived"), CASES)
def test_copy_and_restore_keep_every_saved_attribute(
    edition: str, saved: dict[str, str], derived: dict[str, str]
) -> None:
    """A copy and a restored save agree with the game on every saved attribute; the copy holds
    every attribute, and shares no saved container (but the deck, which never changes; what is
    derived from the variant and options is shared too)."""
    game = played(edition)
    copies: list[Callable[[AnyGame], AnyGame]] = [
        lambda g: g.copy(),
        lambda g: editions.game_from_dict(g.to_dict()),
    ]
    for make in copies:
        other = make(game)
        assert attributes(other) == attributes(game)
        assert [n for n in sorted(attributes(game)) if not hasattr(other, n)] == []  # every slot set
        for name in saved:
            assert value(other, name) == value(game, name), name
    copy = game.copy()
    for name in set(saved) - {"deck"}:
        mine = getattr(game, name)
        if isinstance(mine, list | dict | set) and mine:
            assert getattr(copy, name) is not mine, name
    assert copy.to_dict() == game.to_dict()
