"""The editions as data: decks, card values and start-card handling (docs/rules.md §6-§11, §1.4, §2.5).

Adding an edition means adding one :class:`Variant` to :data:`VARIANTS` (and any new card effect to
``effects.py``).

>>> [v.id for v in VARIANTS.values()]
['classic', 'flip', 'flip-marvel', 'harry-potter', 'cars2', 'dc-super-hero-girls']
>>> len(VARIANTS["classic"].deck_faces(Side.LIGHT))
108
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from bot.engine.cards import DARK_COLORS, LIGHT_COLORS, Card, Color, Face, Rank, Side
from bot.engine.errors import BadOption

NUMBERS = [Rank.ONE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE]


def _colored(colors: Iterable[Color], ranks: Mapping[Rank, int]) -> list[Face]:
    return [Face(c, r) for c in colors for r, n in ranks.items() for _ in range(n)]


def _wilds(ranks: Mapping[Rank, int]) -> list[Face]:
    return [Face(None, r) for r, n in ranks.items() for _ in range(n)]


_CLASSIC_COLOR = {Rank.ZERO: 1, **dict.fromkeys(NUMBERS, 2), Rank.SKIP: 2, Rank.REVERSE: 2, Rank.DRAW_TWO: 2}
_FLIP_LIGHT_COLOR = {
    **dict.fromkeys(NUMBERS, 2),
    Rank.DRAW_ONE: 2,
    Rank.REVERSE: 2,
    Rank.SKIP: 2,
    Rank.FLIP: 2,
}
_FLIP_DARK_COLOR = {
    **dict.fromkeys(NUMBERS, 2),
    Rank.DRAW_FIVE: 2,
    Rank.REVERSE: 2,
    Rank.SKIP_EVERYONE: 2,
    Rank.FLIP: 2,
}

_CLASSIC_VALUES = {
    Rank.SKIP: 20,
    Rank.REVERSE: 20,
    Rank.DRAW_TWO: 20,
    Rank.DRAW_THREE: 20,
    Rank.WILD: 50,
    Rank.WILD_DRAW_FOUR: 50,
    Rank.SPECIAL_AGENT_MATER: 50,
    Rank.WILD_CUSTOMIZABLE: 50,
    Rank.SAVE_THE_DAY: 50,
    Rank.HOWLER: 50,
    Rank.INVISIBILITY: 50,
}
_FLIP_LIGHT_VALUES = {
    Rank.DRAW_ONE: 10,
    Rank.SKIP: 20,
    Rank.REVERSE: 20,
    Rank.FLIP: 20,
    Rank.WILD: 40,
    Rank.WILD_SUPER_HERO: 40,
    Rank.WILD_DRAW_TWO: 50,
}
_FLIP_DARK_VALUES = {
    Rank.DRAW_FIVE: 20,
    Rank.SKIP: 20,
    Rank.REVERSE: 20,
    Rank.FLIP: 20,
    Rank.SKIP_EVERYONE: 30,
    Rank.WILD: 40,
    Rank.WILD_VILLAIN: 40,
    Rank.WILD_DRAW_COLOR: 60,
}

# Start cards that are put back and replaced (docs/rules.md §1.4, ruling 4).
_PUT_BACK = frozenset({Rank.WILD_DRAW_FOUR, Rank.WILD_DRAW_TWO, Rank.HOWLER, Rank.INVISIBILITY})


@dataclass(frozen=True)
class Variant:
    """One edition of the rule book.

    Attributes:
        id: the variant id of docs/rules.md §6-§11 (``"classic"``, ``"flip"``, ...).
        name: the edition's name for players.
        light: every light face of the deck (the only faces of a one-sided deck).
        dark: every dark face (two-sided decks), empty otherwise.
        light_values: points of action and wild ranks on the light side (numbers: face value).
        dark_values: the same for the dark side.
        side_names: what the edition calls its light and dark sides.
        put_back: start-card ranks put back into the draw pile.
    """

    id: str
    name: str
    light: tuple[Face, ...]
    dark: tuple[Face, ...] = ()
    light_values: Mapping[Rank, int] = field(default_factory=lambda: _CLASSIC_VALUES)
    dark_values: Mapping[Rank, int] = field(default_factory=dict)
    side_names: tuple[str, str] = ("light", "dark")
    put_back: frozenset[Rank] = _PUT_BACK

    @property
    def two_sided(self) -> bool:
        """True for the Flip editions."""
        return bool(self.dark)

    def deck_faces(self, side: Side) -> tuple[Face, ...]:
        """Every face of one side of the deck (112 for Flip, 108 for classic, ...)."""
        return self.dark if side is Side.DARK else self.light

    @property
    def customizable(self) -> bool:
        """True if the deck has Wild Customizable, whose rule the host sets
        (``Options.customizable_rule``; DC Super Hero Girls).

        >>> VARIANTS["dc-super-hero-girls"].customizable, VARIANTS["classic"].customizable
        (True, False)
        """
        return Rank.WILD_CUSTOMIZABLE in self.ranks

    @cached_property
    def ranks(self) -> frozenset[Rank]:
        """Every rank that occurs in this deck."""
        return frozenset(f.rank for f in self.light + self.dark)

    def copies(self) -> Counter[Face]:
        """How many copies of each face the deck holds (both sides of a Flip deck together)."""
        return Counter(self.light + self.dark)

    def build_deck(self, rng: random.Random) -> list[Card]:
        """A new unshuffled deck; a two-sided deck pairs faces by a shuffle from ``rng``.

        docs/rules.md ruling 1: the pairing of light and dark faces is fixed here, from the
        game's seed, and kept for the whole game.
        """
        if not self.dark:
            return list(self._one_sided)
        backs = list(self.dark)
        rng.shuffle(backs)
        return [Card.of(front, back) for front, back in zip(self.light, backs, strict=True)]

    @cached_property
    def _one_sided(self) -> tuple[Card, ...]:
        return tuple(Card(face) for face in self.light)

    def value(self, face: Face, side: Side) -> int:
        """Points a face left in a hand scores (docs/rules.md §2.5)."""
        if face.rank.number is not None:
            return face.rank.number
        table = self.dark_values if side is Side.DARK else self.light_values
        return table[face.rank]


def _classic(*extra: Face, draw: Rank = Rank.DRAW_TWO) -> tuple[Face, ...]:
    ranks = dict(_CLASSIC_COLOR)
    if draw is not Rank.DRAW_TWO:
        ranks[draw] = ranks.pop(Rank.DRAW_TWO)
    return tuple(_colored(LIGHT_COLORS, ranks) + _wilds({Rank.WILD: 4, Rank.WILD_DRAW_FOUR: 4}) + list(extra))


def _flip(light_wild: Rank, dark_wild: Rank) -> tuple[tuple[Face, ...], tuple[Face, ...]]:
    light = _colored(LIGHT_COLORS, _FLIP_LIGHT_COLOR) + _wilds({light_wild: 4, Rank.WILD_DRAW_TWO: 4})
    dark = _colored(DARK_COLORS, _FLIP_DARK_COLOR) + _wilds({dark_wild: 4, Rank.WILD_DRAW_COLOR: 4})
    return tuple(light), tuple(dark)


_FLIP = _flip(Rank.WILD, Rank.WILD)
_MARVEL = _flip(Rank.WILD_SUPER_HERO, Rank.WILD_VILLAIN)

VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        Variant("classic", "UNO", _classic()),
        Variant(
            "flip",
            "UNO Flip",
            _FLIP[0],
            _FLIP[1],
            _FLIP_LIGHT_VALUES,
            _FLIP_DARK_VALUES,
        ),
        Variant(
            "flip-marvel",
            "UNO Flip Marvel",
            _MARVEL[0],
            _MARVEL[1],
            _FLIP_LIGHT_VALUES,
            _FLIP_DARK_VALUES,
            side_names=("Super Heroes", "Villains"),
        ),
        Variant(
            "harry-potter",
            "Harry Potter UNO",
            _classic(Face(None, Rank.HOWLER), Face(None, Rank.INVISIBILITY), draw=Rank.DRAW_THREE),
        ),
        Variant("cars2", "UNO Cars 2", _classic(*[Face(None, Rank.SPECIAL_AGENT_MATER)] * 4)),
        Variant(
            "dc-super-hero-girls",
            "UNO DC Super Hero Girls",
            _classic(*[Face(None, Rank.WILD_CUSTOMIZABLE)] * 2, *[Face(None, Rank.SAVE_THE_DAY)] * 2),
        ),
    )
}


def get_variant(variant_id: str) -> Variant:
    """The variant with this id.

    Raises:
        BadOption: no such variant.
    """
    try:
        return VARIANTS[variant_id]
    except KeyError:
        raise BadOption(f"Unknown variant {variant_id!r}; choose one of {', '.join(VARIANTS)}.") from None
