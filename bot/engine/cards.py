"""Card value types: colors, ranks, sides, card faces and physical cards.

Every card has one canonical text form that parses back, used in scenarios, storage and
``custom_id``\\s:

>>> Card.parse("wild draw four").name
'wild draw four'
>>> card = Card.parse("red 7 / purple draw five")
>>> card.face(Side.DARK).name
'purple draw five'
>>> Face.parse("blue skip").rank is Rank.SKIP
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache

from bot.engine.errors import BadCard


class Side(enum.Enum):
    """The side of a two-sided (Flip) card in play; one-sided decks only use LIGHT."""

    __hash__ = object.__hash__  # identity hash: enum members are singletons (speed)

    LIGHT = "light"
    """The light side (Flip), "Super Heroes" (Flip Marvel); the only side of other decks."""
    DARK = "dark"
    """The dark side (Flip), "Villains" (Flip Marvel)."""

    @property
    def other(self) -> Side:
        """The side a flip turns to."""
        return Side.DARK if self is Side.LIGHT else Side.LIGHT


class Color(enum.Enum):
    """A card color; the first four belong to the light side, the last four to the dark side."""

    __hash__ = object.__hash__  # identity hash: enum members are singletons (speed)

    RED = "red"
    """Light side (and classic) red."""
    YELLOW = "yellow"
    """Light side (and classic) yellow."""
    GREEN = "green"
    """Light side (and classic) green."""
    BLUE = "blue"
    """Light side (and classic) blue."""
    PINK = "pink"
    """Dark side pink."""
    TEAL = "teal"
    """Dark side teal."""
    ORANGE = "orange"
    """Dark side orange."""
    PURPLE = "purple"
    """Dark side purple."""

    @property
    def side(self) -> Side:
        """The side this color belongs to."""
        return Side.LIGHT if self in LIGHT_COLORS else Side.DARK

    @classmethod
    def of_side(cls, side: Side) -> tuple[Color, ...]:
        """The colors of ``side`` in the color order of docs/rules.md §1."""
        return LIGHT_COLORS if side is _LIGHT else DARK_COLORS


_LIGHT = Side.LIGHT
"""Read by ``Card.face`` and ``Color.of_side`` on every call: a global costs less than
``Side.LIGHT``, which Python 3.11 looks up through ``EnumType.__getattr__``'s hook."""
LIGHT_COLORS = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
DARK_COLORS = (Color.PINK, Color.TEAL, Color.ORANGE, Color.PURPLE)


class Rank(enum.Enum):
    """What a card face is: a number, an action or a wild (docs/rules.md §6-§11)."""

    __hash__ = object.__hash__  # identity hash: enum members are singletons (speed)

    ZERO = "0"
    """Number 0."""
    ONE = "1"
    """Number 1."""
    TWO = "2"
    """Number 2."""
    THREE = "3"
    """Number 3."""
    FOUR = "4"
    """Number 4."""
    FIVE = "5"
    """Number 5."""
    SIX = "6"
    """Number 6."""
    SEVEN = "7"
    """Number 7."""
    EIGHT = "8"
    """Number 8."""
    NINE = "9"
    """Number 9."""
    SKIP = "skip"
    """The next player loses their turn."""
    REVERSE = "reverse"
    """Direction reverses (a Skip with two players)."""
    DRAW_ONE = "draw one"
    """Flip light side: the next player draws one and loses their turn."""
    DRAW_TWO = "draw two"
    """The next player draws two and loses their turn."""
    DRAW_THREE = "draw three"
    """Harry Potter: the next player draws three and loses their turn."""
    DRAW_FIVE = "draw five"
    """Flip dark side: the next player draws five and loses their turn."""
    SKIP_EVERYONE = "skip everyone"
    """Flip dark side: every other player loses their turn."""
    FLIP = "flip"
    """Flip: the whole table turns to the other side."""
    WILD = "wild"
    """Names any color of the active side."""
    WILD_DRAW_FOUR = "wild draw four"
    """Restricted wild: the next player draws four and loses their turn."""
    WILD_DRAW_TWO = "wild draw two"
    """Flip light side restricted wild: the next player draws two and loses their turn."""
    WILD_DRAW_COLOR = "wild draw color"
    """Flip dark side restricted wild: the next player draws until the named color."""
    WILD_SUPER_HERO = "wild super hero"
    """Flip Marvel light wild: the player with most cards may discard one, then names the color."""
    WILD_VILLAIN = "wild villain"
    """Flip Marvel dark wild: the player with fewest cards draws three, then names the color."""
    HOWLER = "howler"
    """Harry Potter wild: the picked player's hand is shown to the table."""
    INVISIBILITY = "invisibility"
    """Harry Potter wild: cancels an action card played on its player."""
    SPECIAL_AGENT_MATER = "special agent mater"
    """Cars 2 wild: its player privately sees every other hand."""
    WILD_CUSTOMIZABLE = "wild customizable"
    """DC Super Hero Girls wild carrying the host's house rule."""
    SAVE_THE_DAY = "save the day"
    """DC Super Hero Girls wild: protects a picked player from penalty cards."""

    @property
    def is_wild(self) -> bool:
        """True for every wild rank (played on anything, with a named color)."""
        return self in WILD_RANKS

    @property
    def number(self) -> int | None:
        """The face value of a number rank, None for actions and wilds."""
        return NUMBER_VALUES.get(self)

    @property
    def draw_count(self) -> int:
        """Cards the victim draws for a Draw card (0 for others; see also ``penalty``)."""
        return DRAW_COUNTS.get(self, 0)

    @property
    def is_restricted(self) -> bool:
        """True for the wilds that may be challenged (docs/rules.md §1.5 and §1.9)."""
        return self in RESTRICTED_RANKS


NUMBER_VALUES = {r: int(r.value) for r in Rank if r.value.isdigit()}
DRAW_COUNTS = {
    Rank.DRAW_ONE: 1,
    Rank.DRAW_TWO: 2,
    Rank.DRAW_THREE: 3,
    Rank.DRAW_FIVE: 5,
    Rank.WILD_DRAW_FOUR: 4,
    Rank.WILD_DRAW_TWO: 2,
}
WILD_RANKS = frozenset(
    {
        Rank.WILD,
        Rank.WILD_DRAW_FOUR,
        Rank.WILD_DRAW_TWO,
        Rank.WILD_DRAW_COLOR,
        Rank.WILD_SUPER_HERO,
        Rank.WILD_VILLAIN,
        Rank.HOWLER,
        Rank.INVISIBILITY,
        Rank.SPECIAL_AGENT_MATER,
        Rank.WILD_CUSTOMIZABLE,
        Rank.SAVE_THE_DAY,
    }
)
RESTRICTED_RANKS = frozenset({Rank.WILD_DRAW_FOUR, Rank.WILD_DRAW_TWO, Rank.WILD_DRAW_COLOR})
_COLORS_BY_NAME = {c.value: c for c in Color}
_RANKS_BY_NAME = {r.value: r for r in Rank}


_FACES: dict[tuple[Color | None, Rank], Face] = {}
_CARDS: dict[tuple[Face, Face | None], Card] = {}


@dataclass(frozen=True, slots=True, eq=False)
class Face:
    """One face of a card: a color (None for wilds) and a rank.

    Faces are interned: equal faces are the same object, so ``==`` and hashing are by identity.

    Attributes:
        color: the printed color; None exactly when ``rank`` is a wild.
        rank: the number, action or wild kind.
    """

    color: Color | None
    rank: Rank
    name: str = field(init=False, repr=False)
    """Canonical text: ``"red 7"``, ``"blue draw two"``, ``"wild draw four"``."""
    wild: bool = field(init=False, repr=False)
    """True for wild ranks (cached ``rank.is_wild``)."""
    restricted: bool = field(init=False, repr=False)
    """True for restricted wilds (cached ``rank.is_restricted``)."""

    def __post_init__(self) -> None:
        name = self.rank.value if self.color is None else f"{self.color.value} {self.rank.value}"
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "wild", self.rank in WILD_RANKS)
        object.__setattr__(self, "restricted", self.rank in RESTRICTED_RANKS)

    def __new__(cls, color: Color | None, rank: Rank) -> Face:
        face = _FACES.get((color, rank))
        if face is None:
            face = _FACES[(color, rank)] = object.__new__(cls)
        return face

    def __reduce__(self) -> tuple[type[Face], tuple[Color | None, Rank]]:
        return (Face, (self.color, self.rank))

    def __str__(self) -> str:
        return self.name

    @staticmethod
    @cache
    def parse(text: str) -> Face:
        """Parse a face's canonical text (lower case, single spaces; case and spacing forgiven).

        Raises:
            BadCard: the text names no card face.
        """
        words = text.strip().lower().split()
        if not words:
            raise BadCard.of("There is no card called {card}.", card=text)
        joined = " ".join(words)
        if joined in _RANKS_BY_NAME and _RANKS_BY_NAME[joined].is_wild:
            return Face(None, _RANKS_BY_NAME[joined])
        color = _COLORS_BY_NAME.get(words[0])
        rank = _RANKS_BY_NAME.get(" ".join(words[1:]))
        if color is None or rank is None or rank.is_wild:
            raise BadCard.of("There is no card called {card}.", card=text)
        return Face(color, rank)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A physical card: its light face and, for two-sided (Flip) decks, its dark face.

    Cards are interned like faces: copies of the same card are the same object.

    Attributes:
        light: the face shown on the light side (the only face of one-sided decks).
        dark: the face on the back, or None for one-sided decks.
    """

    light: Face
    dark: Face | None = None
    back: Face = field(init=False, repr=False)
    """The dark face, or the light one for one-sided cards (fast ``face(Side.DARK)``)."""
    name: str = field(init=False, repr=False)
    """Canonical text: ``"red 7"`` or, two-sided, ``"red 7 / purple draw five"``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "back", self.dark or self.light)
        name = self.light.name if self.dark is None else f"{self.light.name} / {self.dark.name}"
        object.__setattr__(self, "name", name)

    def __new__(cls, light: Face, dark: Face | None = None) -> Card:
        card = _CARDS.get((light, dark))
        if card is None:
            card = _CARDS[(light, dark)] = object.__new__(cls)
        return card

    @staticmethod
    def of(light: Face, dark: Face | None = None) -> Card:
        """The card with these faces (a faster ``Card(light, dark)`` for existing cards)."""
        return _CARDS.get((light, dark)) or Card(light, dark)

    def __reduce__(self) -> tuple[type[Card], tuple[Face, Face | None]]:
        return (Card, (self.light, self.dark))

    def face(self, side: Side) -> Face:
        """The face that is active when ``side`` is in play."""
        return self.light if side is _LIGHT else self.back

    def __str__(self) -> str:
        return self.name

    @staticmethod
    @cache
    def parse(text: str) -> Card:
        """Parse a card's canonical text, one face or ``"light / dark"``.

        Raises:
            BadCard: the text names no card.
        """
        if "/" in text:
            light, _, dark = text.partition("/")
            card = Card(Face.parse(light), Face.parse(dark))
            if (card.light.color and card.light.color.side is not Side.LIGHT) or (
                card.dark is not None and card.dark.color and card.dark.color.side is not Side.DARK
            ):
                raise BadCard.of("There is no card called {card}.", card=text)
            return card
        return Card(Face.parse(text))
