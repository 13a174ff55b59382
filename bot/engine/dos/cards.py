"""DOS cards (docs/rules.md §14.1): numbers 1 and 3-10, Wild # (colored) and Wild DOS.

Every card has one canonical text form that parses back (docs/scenarios.md's DOS section):

>>> DosCard.parse("green wild number").name, DosCard.parse("wild dos").value
('green wild number', 20)
>>> DosCard.parse("red 10").numbers
frozenset({10})
>>> len(DECK)
108
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from bot.engine.cards import LIGHT_COLORS, Color
from bot.engine.errors import BadCard

COLORS = LIGHT_COLORS
"""DOS's four colors in the color order of docs/rules.md §1 (red, yellow, green, blue)."""
NUMBERS = (1, 3, 4, 5, 6, 7, 8, 9, 10)
"""The printed numbers: there is no 0 and no 2 (§14.1)."""
ANY_NUMBER = frozenset(range(1, 11))


class DosKind(enum.Enum):
    """What a DOS card is."""

    __hash__ = object.__hash__

    NUMBER = "number"
    """A number card: its face value."""
    WILD_NUMBER = "wild number"
    """Wild #: any number from 1 to 10, of its printed color."""
    WILD_DOS = "wild dos"
    """Wild DOS: the number 2, of the color its player names."""


_CARDS: dict[tuple[DosKind, Color | None, int], DosCard] = {}


@dataclass(frozen=True, slots=True, eq=False)
class DosCard:
    """One DOS card; interned, so copies are the same object (``==`` by identity).

    Attributes:
        kind: number, Wild # or Wild DOS.
        color: the printed color (None for Wild DOS).
        number: the face value of a number card (0 for the wilds).
    """

    kind: DosKind
    color: Color | None
    number: int = 0
    name: str = field(init=False, repr=False)
    """Canonical text: ``"red 7"``, ``"green wild number"``, ``"wild dos"``."""
    numbers: frozenset[int] = field(init=False, repr=False)
    """The numbers the card may count (§14.5): its face value, {2}, or 1-10."""
    value: int = field(init=False, repr=False)
    """Points when left in a hand (§14.10): face value, Wild DOS 20, Wild # 40."""
    fixed: int = field(init=False, repr=False)
    """The one number the card counts, or 0 for a Wild # (any number: :attr:`numbers`)."""

    def __new__(cls, kind: DosKind, color: Color | None, number: int = 0) -> DosCard:
        card = _CARDS.get((kind, color, number))
        if card is None:
            card = _CARDS[(kind, color, number)] = object.__new__(cls)
        return card

    def __post_init__(self) -> None:
        kind, color = self.kind, self.color
        if kind is DosKind.WILD_DOS:
            name, numbers, value = "wild dos", frozenset({2}), 20
        elif kind is DosKind.WILD_NUMBER:
            assert color is not None
            name, numbers, value = f"{color.value} wild number", ANY_NUMBER, 40
        else:
            assert color is not None
            name, numbers, value = f"{color.value} {self.number}", frozenset({self.number}), self.number
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "numbers", numbers)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "fixed", 0 if kind is DosKind.WILD_NUMBER else min(numbers))

    def __reduce__(self) -> tuple[type[DosCard], tuple[DosKind, Color | None, int]]:
        return (DosCard, (self.kind, self.color, self.number))

    def __str__(self) -> str:
        return self.name

    @property
    def wild_dos(self) -> bool:
        """True for a Wild DOS (its color is named, §14.6)."""
        return self.kind is DosKind.WILD_DOS

    @staticmethod
    @cache
    def parse(text: str) -> DosCard:
        """Parse a card's canonical text (case and spacing forgiven).

        Raises:
            BadCard: the text names no DOS card (a 2 or a 0 included: DOS has none).
        """
        words = text.strip().lower().split()
        if words == ["wild", "dos"]:
            return WILD_DOS
        color = _COLORS.get(words[0]) if words else None
        rest = " ".join(words[1:])
        if color is not None:
            if rest == "wild number":
                return DosCard(DosKind.WILD_NUMBER, color)
            if rest.isdigit() and int(rest) in NUMBERS:
                return DosCard(DosKind.NUMBER, color, int(rest))
        raise BadCard.of("There is no card called {card}.", card=text)


_COLORS = {c.value: c for c in COLORS}
WILD_DOS = DosCard(DosKind.WILD_DOS, None)


def _deck() -> tuple[DosCard, ...]:
    out: list[DosCard] = []
    for color in COLORS:
        for n in NUMBERS:
            out += [DosCard(DosKind.NUMBER, color, n)] * (3 if n <= 5 else 2)
        out += [DosCard(DosKind.WILD_NUMBER, color)] * 2
    return tuple(out + [WILD_DOS] * 12)


DECK = _deck()
"""The 108 cards (§14.1), unshuffled: per color three each of 1, 3, 4, 5, two each of 6-10 and
two Wild #; twelve Wild DOS."""
COPIES: Counter[DosCard] = Counter(DECK)
"""How many copies of each card the deck holds."""


def sort_key(card: DosCard) -> tuple[int, int]:
    """Order for the default card (§14.13): most points first, then the color order."""
    return (-card.value, COLORS.index(card.color) if card.color else len(COLORS))
