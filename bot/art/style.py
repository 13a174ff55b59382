"""The card art's style as data: the palette, each color's mark, each rank's glyph, and the shapes
they are drawn from.

Shapes live in a unit box (x and y from -1 to 1, y down) and are scaled into place when drawn, so
one definition serves every size. Every color has a mark of its own (a shape in the card's corner
badges), so a player who does not see the colors tells the cards apart by their marks:

>>> from bot.engine.cards import Side
>>> [len({MARKS[c] for c in Color.of_side(side)}) for side in Side]
[4, 4]
>>> GLYPHS[Rank.SEVEN], GLYPHS[Rank.WILD_DRAW_FOUR], GLYPHS[Rank.SKIP]
('7', '+4', <Symbol.SKIP: 'skip'>)
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from bot.engine.cards import Color, Rank
from bot.engine.dos.cards import DosCard, DosKind

RGB = tuple[int, int, int]
Point = tuple[float, float]

INK: RGB = (30, 27, 36)
"""Outlines, marks and the dark side's frame: a near-black that reads on every field."""
PAPER: RGB = (255, 255, 255)
"""Glyphs and the corner badges."""
FIELD: dict[Color, RGB] = {
    Color.RED: (222, 50, 56),
    Color.YELLOW: (246, 194, 30),
    Color.GREEN: (48, 180, 92),
    Color.BLUE: (28, 84, 196),
    Color.PINK: (238, 90, 168),
    Color.TEAL: (12, 150, 146),
    Color.ORANGE: (248, 140, 34),
    Color.PURPLE: (104, 58, 180),
}
"""The field (background) of a colored card; a wild's field shows its side's four colors. The
colors of a side also differ in lightness (in grayscale: blue, red, green, yellow and purple, teal,
pink, orange from dark to light), a second cue besides the marks."""


class Mark(enum.Enum):
    """A color's shape, drawn in the card's corner badges (and on the table's color chip)."""

    CIRCLE = "circle"
    """Red."""
    TRIANGLE = "triangle"
    """Yellow."""
    SQUARE = "square"
    """Green."""
    DIAMOND = "diamond"
    """Blue."""
    STAR = "star"
    """Pink."""
    PLUS = "plus"
    """Teal."""
    BOWTIE = "bowtie"
    """Orange."""
    BARS = "bars"
    """Purple."""


MARKS: dict[Color, Mark] = {
    Color.RED: Mark.CIRCLE,
    Color.YELLOW: Mark.TRIANGLE,
    Color.GREEN: Mark.SQUARE,
    Color.BLUE: Mark.DIAMOND,
    Color.PINK: Mark.STAR,
    Color.TEAL: Mark.PLUS,
    Color.ORANGE: Mark.BOWTIE,
    Color.PURPLE: Mark.BARS,
}
"""Each color's mark: the four light colors and the four dark ones each have their own shape."""


class Symbol(enum.Enum):
    """A drawn glyph, for the ranks that are not a numeral or a "+N"."""

    SKIP = "skip"
    """A ring with a slash: no turn."""
    SKIP_EVERYONE = "skip everyone"
    """Two rings with slashes: no turn for anyone else."""
    REVERSE = "reverse"
    """Two opposed arrows."""
    FLIP = "flip"
    """A round arrow: the table turns over."""
    WILD = "wild"
    """A four-pointed spark on the four-color field."""
    SUPER_HERO = "super hero"
    """A lightning bolt."""
    VILLAIN = "villain"
    """A horned mask."""
    HOWLER = "howler"
    """An envelope (the Howler is a letter)."""
    INVISIBILITY = "invisibility"
    """An eye struck through."""
    SPECIAL_AGENT = "special agent"
    """A magnifying glass."""
    CUSTOMIZABLE = "customizable"
    """A pencil: the host writes the card's rule."""
    SAVE_THE_DAY = "save the day"
    """A shield."""


GLYPHS: dict[Rank, str | Symbol] = {
    **{r: r.value for r in Rank if r.value.isdigit()},
    Rank.SKIP: Symbol.SKIP,
    Rank.REVERSE: Symbol.REVERSE,
    Rank.DRAW_ONE: "+1",
    Rank.DRAW_TWO: "+2",
    Rank.DRAW_THREE: "+3",
    Rank.DRAW_FIVE: "+5",
    Rank.SKIP_EVERYONE: Symbol.SKIP_EVERYONE,
    Rank.FLIP: Symbol.FLIP,
    Rank.WILD: Symbol.WILD,
    Rank.WILD_DRAW_FOUR: "+4",
    Rank.WILD_DRAW_TWO: "+2",
    Rank.WILD_DRAW_COLOR: "+?",
    Rank.WILD_SUPER_HERO: Symbol.SUPER_HERO,
    Rank.WILD_VILLAIN: Symbol.VILLAIN,
    Rank.HOWLER: Symbol.HOWLER,
    Rank.INVISIBILITY: Symbol.INVISIBILITY,
    Rank.SPECIAL_AGENT_MATER: Symbol.SPECIAL_AGENT,
    Rank.WILD_CUSTOMIZABLE: Symbol.CUSTOMIZABLE,
    Rank.SAVE_THE_DAY: Symbol.SAVE_THE_DAY,
}
"""The big glyph in the middle of each rank's card: text (numerals, "+N") or a drawn symbol. A wild
"+2" differs from a colored one by its four-color field."""


@dataclass(frozen=True)
class Poly:
    """A filled polygon."""

    points: tuple[Point, ...]


@dataclass(frozen=True)
class Disc:
    """A filled circle of radius ``r`` around (``x``, ``y``)."""

    x: float
    y: float
    r: float


@dataclass(frozen=True)
class Arc:
    """A stroke of ``width`` along the circle of radius ``r`` from ``start`` to ``end`` degrees
    (clockwise from 3 o'clock); a full turn when they are 0 and 360, round ends otherwise."""

    x: float
    y: float
    r: float
    width: float
    start: float = 0
    end: float = 360


@dataclass(frozen=True)
class Stroke:
    """A polyline of ``width`` with round ends and joints."""

    points: tuple[Point, ...]
    width: float


Shape = Poly | Disc | Arc | Stroke
Part = tuple[Shape, bool]
"""A shape and whether it is inked (True) or paper (False)."""


def regular(n: int, r: float, turn: float = -90, inner: float | None = None) -> tuple[Point, ...]:
    """The points of a regular polygon (or, with ``inner``, a star of ``n`` points) of radius ``r``
    around the origin, its first point at ``turn`` degrees."""
    count = 2 * n if inner is not None else n
    points = []
    for i in range(count):
        radius = r if inner is None or i % 2 == 0 else inner
        angle = math.radians(turn + 360 * i / count)
        points.append((radius * math.cos(angle), radius * math.sin(angle)))
    return tuple(points)


def rotated(points: tuple[Point, ...], degrees: float) -> tuple[Point, ...]:
    """The points turned by ``degrees`` (clockwise on screen) around the origin."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return tuple((x * c - y * s, x * s + y * c) for x, y in points)


def _no_sign(x: float, y: float, r: float) -> list[Part]:
    d = r * 0.68
    return [(Arc(x, y, r, r * 0.34), False), (Stroke(((x - d, y + d), (x + d, y - d)), r * 0.34), False)]


def _arrow(y: float, direction: int) -> list[Part]:
    """A straight arrow at height ``y`` pointing right (1) or left (-1)."""
    tail, neck, tip = -0.85 * direction, 0.2 * direction, 0.92 * direction
    return [
        (Stroke(((tail, y), (neck, y)), 0.26), False),
        (Poly(((neck, y - 0.4), (tip, y), (neck, y + 0.4))), False),
    ]


def _round_arrow() -> list[Part]:
    r, start, end = 0.62, 150.0, 400.0
    a = math.radians(end)
    px, py = r * math.cos(a), r * math.sin(a)
    nx, ny = math.cos(a), math.sin(a)  # outward
    tx, ty = -math.sin(a), math.cos(a)  # along the turn
    head = ((px + nx * 0.4, py + ny * 0.4), (px + tx * 0.5, py + ty * 0.5), (px - nx * 0.4, py - ny * 0.4))
    return [(Arc(0, 0, r, 0.26, start, end - 4), False), (Poly(head), False)]


def _eye() -> list[Part]:
    upper = [(math.cos(t) * 0.95, -math.sin(t) * 0.55) for t in (math.pi * i / 12 for i in range(13))]
    lower = [(x, -y) for x, y in reversed(upper)][1:-1]
    return [
        (Poly(tuple(upper + lower)), False),
        (Disc(0, 0, 0.3), True),
        (Stroke(((-0.8, 0.8), (0.8, -0.8)), 0.16), True),
    ]


def _pencil() -> list[Part]:
    body = ((-0.95, -0.24), (0.4, -0.24), (0.4, 0.24), (-0.95, 0.24))
    tip = ((0.4, -0.24), (0.98, 0), (0.4, 0.24))
    lead = ((0.75, -0.1), (0.98, 0), (0.75, 0.1))
    band = ((-0.62, -0.24), (-0.52, -0.24), (-0.52, 0.24), (-0.62, 0.24))
    return [
        (Poly(rotated(p, 135)), ink) for p, ink in ((body, False), (tip, False), (lead, True), (band, True))
    ]


def moved(parts: list[Part], dx: float, dy: float, k: float = 1) -> list[Part]:
    """The parts scaled by ``k`` around the origin, then shifted by (``dx``, ``dy``)."""

    def p(x: float, y: float) -> Point:
        return x * k + dx, y * k + dy

    out: list[Part] = []
    for shape, inked in parts:
        moved_shape: Shape
        if isinstance(shape, Poly):
            moved_shape = Poly(tuple(p(x, y) for x, y in shape.points))
        elif isinstance(shape, Stroke):
            moved_shape = Stroke(tuple(p(x, y) for x, y in shape.points), shape.width * k)
        elif isinstance(shape, Disc):
            moved_shape = Disc(*p(shape.x, shape.y), shape.r * k)
        else:
            moved_shape = Arc(*p(shape.x, shape.y), shape.r * k, shape.width * k, shape.start, shape.end)
        out.append((moved_shape, inked))
    return out


PEN = 0.44
"""The numerals' stroke width, in units of their half height."""


def _arc(x: float, y: float, r: float, start: float = 0, end: float = 360) -> Part:
    return Arc(x, y, r, PEN, start, end), False


def _line(*points: Point) -> Part:
    return Stroke(points, PEN), False


def on_circle(x: float, y: float, r: float, degrees: float) -> Point:
    """The point at ``degrees`` (clockwise from 3 o'clock) on the circle of radius ``r`` around
    (``x``, ``y``)."""
    a = math.radians(degrees)
    return x + r * math.cos(a), y + r * math.sin(a)


CHARACTERS: dict[str, tuple[float, list[Part]]] = {
    "0": (
        1.0,
        [
            _arc(0, -0.45, 0.5, 180, 360),
            _arc(0, 0.45, 0.5, 0, 180),
            _line((-0.5, -0.45), (-0.5, 0.45)),
            _line((0.5, -0.45), (0.5, 0.45)),
        ],
    ),
    "1": (0.7, [_line((-0.35, -0.62), (0.1, -0.95), (0.1, 0.95))]),
    "2": (
        1.0,
        [_arc(0, -0.45, 0.48, 195, 385), _line(on_circle(0, -0.45, 0.48, 25), (-0.5, 0.95), (0.55, 0.95))],
    ),
    "3": (1.0, [_arc(0, -0.52, 0.43, 200, 450), _arc(0, 0.44, 0.51, 270, 515)]),
    "4": (1.1, [_line((0.25, 0.95), (0.25, -0.95), (-0.58, 0.38), (0.6, 0.38))]),
    "5": (
        1.0,
        [_line((0.48, -0.95), (-0.38, -0.95), on_circle(0, 0.36, 0.59, 225)), _arc(0, 0.36, 0.59, 225, 500)],
    ),
    "6": (
        1.0,
        [_arc(0, 0.43, 0.52), _arc(0.02, -0.36, 0.54, 180, 305), _line((-0.52, -0.36), (-0.52, 0.43))],
    ),
    "7": (1.0, [_line((-0.52, -0.95), (0.55, -0.95), (-0.15, 0.95))]),
    "8": (1.0, [_arc(0, -0.53, 0.42), _arc(0, 0.43, 0.52)]),
    "9": (1.0, [_arc(0, -0.43, 0.52), _arc(-0.02, 0.36, 0.54, 0, 125), _line((0.52, 0.36), (0.52, -0.43))]),
    "+": (0.9, [_line((-0.42, 0), (0.42, 0)), _line((0, -0.42), (0, 0.42))]),
    # Thinner strokes than the numerals', so its four bars stay apart at 40 px (DOS's Wild #).
    "#": (
        1.5,
        [
            (Stroke(((-0.2, -0.92), (-0.5, 0.92)), PEN * 0.7), False),
            (Stroke(((0.5, -0.92), (0.2, 0.92)), PEN * 0.7), False),
            (Stroke(((-0.72, -0.36), (0.78, -0.36)), PEN * 0.7), False),
            (Stroke(((-0.78, 0.36), (0.72, 0.36)), PEN * 0.7), False),
        ],
    ),
    "?": (
        1.0,
        [_arc(0, -0.48, 0.45, 190, 450), _line((0, -0.03), (0, 0.3)), (Disc(0, 0.8, PEN * 0.62), False)],
    ),
}
"""Our own rounded numerals and signs, drawn as strokes (no font): each character's advance width
and parts, in a box two units tall around the origin."""


def text_parts(text: str) -> tuple[list[Part], float]:
    """The parts of ``text`` laid out left to right and centered on the origin, and their width
    (the height is 2 + ``PEN``).

    Raises:
        KeyError: a character that ``CHARACTERS`` has not.
    """
    gap = PEN * 1.05
    widths = [CHARACTERS[c][0] for c in text]
    total = sum(widths) + gap * (len(text) - 1)
    x = -total / 2
    parts: list[Part] = []
    for c, w in zip(text, widths, strict=True):
        parts += moved(CHARACTERS[c][1], x + w / 2, 0)
        x += w + gap
    return parts, total + PEN


SYMBOLS: dict[Symbol, list[Part]] = {
    Symbol.SKIP: _no_sign(0, 0, 0.78),
    Symbol.SKIP_EVERYONE: _no_sign(0.5, -0.5, 0.46) + _no_sign(-0.5, 0.5, 0.46),
    Symbol.REVERSE: _arrow(-0.42, 1) + _arrow(0.42, -1),
    Symbol.FLIP: _round_arrow(),
    Symbol.WILD: [(Poly(regular(4, 1.0, inner=0.3)), False)],
    Symbol.SUPER_HERO: [
        (
            Poly(
                ((0.25, -1), (-0.55, 0.12), (-0.05, 0.12), (-0.3, 1), (0.55, -0.18), (0.06, -0.18), (0.4, -1))
            ),
            False,
        )
    ],
    Symbol.VILLAIN: [
        (
            Poly(
                (
                    (-0.9, -0.95),
                    (-0.4, -0.4),
                    (0.4, -0.4),
                    (0.9, -0.95),
                    (0.8, 0.1),
                    (0.4, 0.72),
                    (0, 0.9),
                    (-0.4, 0.72),
                    (-0.8, 0.1),
                )
            ),
            False,
        ),
        (Poly(((-0.55, -0.08), (-0.1, 0.12), (-0.5, 0.32))), True),
        (Poly(((0.55, -0.08), (0.1, 0.12), (0.5, 0.32))), True),
    ],
    Symbol.HOWLER: [
        (Poly(((-0.95, -0.62), (0.95, -0.62), (0.95, 0.62), (-0.95, 0.62))), False),
        (Stroke(((-0.95, -0.62), (0, 0.1), (0.95, -0.62)), 0.14), True),
    ],
    Symbol.INVISIBILITY: _eye(),
    Symbol.SPECIAL_AGENT: [
        (Arc(-0.22, -0.22, 0.52, 0.24), False),
        (Stroke(((0.2, 0.2), (0.82, 0.82)), 0.32), False),
    ],
    Symbol.CUSTOMIZABLE: _pencil(),
    Symbol.SAVE_THE_DAY: [
        (Poly(((-0.8, -0.78), (0, -1), (0.8, -0.78), (0.76, 0.1), (0, 1), (-0.76, 0.1))), False),
        (Stroke(((0, -0.62), (0, 0.55)), 0.16), True),
    ],
}
"""Each symbol's parts in a unit box; paper parts get one ink outline around them all."""

MARK_SHAPES: dict[Mark, list[Part]] = {
    Mark.CIRCLE: [(Disc(0, 0, 0.78), True)],
    Mark.TRIANGLE: [(Poly(((0, -0.9), (0.9, 0.68), (-0.9, 0.68))), True)],
    Mark.SQUARE: [(Poly(((-0.76, -0.76), (0.76, -0.76), (0.76, 0.76), (-0.76, 0.76))), True)],
    Mark.DIAMOND: [(Poly(regular(4, 0.95)), True)],
    Mark.STAR: [(Poly(regular(5, 1.0, inner=0.42)), True)],
    Mark.PLUS: [(Stroke(((-0.8, 0), (0.8, 0)), 0.5), True), (Stroke(((0, -0.8), (0, 0.8)), 0.5), True)],
    Mark.BOWTIE: [
        (Poly(((-0.9, -0.75), (0, 0), (-0.9, 0.75))), True),
        (Poly(((0.9, -0.75), (0, 0), (0.9, 0.75))), True),
    ],
    Mark.BARS: [
        (Poly(((-0.85, -0.75), (0.85, -0.75), (0.85, -0.3), (-0.85, -0.3))), True),
        (Poly(((-0.85, 0.3), (0.85, 0.3), (0.85, 0.75), (-0.85, 0.75))), True),
    ],
}
"""Each mark's parts in a unit box, inked on the white badge."""


def dos_glyph(card: DosCard) -> str:
    """The big glyph of a DOS card (docs/rules.md §14.1): its number (``"10"`` too), ``"#"`` for a
    Wild # (any number, on its color's field), ``"2"`` for a Wild DOS (on the four-color field).

    >>> [dos_glyph(DosCard.parse(c)) for c in ("red 10", "blue wild number", "wild dos")]
    ['10', '#', '2']
    """
    if card.kind is DosKind.WILD_NUMBER:
        return "#"
    return str(card.fixed)


DOS_MARK: list[Part] = [(Disc(-0.4, -0.4, 0.3), False), (Disc(0.4, 0.4, 0.3), False)]
"""DOS's own mark, on every DOS card: a domino's two (two paper pips) on an ink badge in the
top-right corner, so a DOS 5 is not taken for an UNO 5 (with the paper band inside its edge)."""
