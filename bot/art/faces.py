"""Drawing one card face: its field, its big glyph and its color's corner marks; a DOS card
(``DosCard``) also its edition's mark and band.

A face is drawn four times larger than asked and scaled down (smooth edges at every size), and the
result is kept in memory per (face, side, height). The side matters only for UNO's wilds, whose
four-color field shows the colors of the side they are played on (docs/rules.md §7.5).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache

from PIL import Image, ImageDraw

from bot.art.style import (
    DOS_MARK,
    FIELD,
    GLYPHS,
    INK,
    MARK_SHAPES,
    MARKS,
    PAPER,
    PEN,
    RGB,
    SYMBOLS,
    Arc,
    Disc,
    Part,
    Poly,
    Stroke,
    Symbol,
    dos_glyph,
    on_circle,
    text_parts,
)
from bot.engine.cards import Color, Side
from bot.engine.dos.cards import DosCard
from bot.engine.editions import EDITIONS, REGISTRY, AnyFace

SUPERSAMPLE = 4
"""Faces are drawn this many times larger, then scaled down."""
ASPECT = 0.75
"""A card's width over its height."""

BADGE = 0.22
"""The corner badge's radius, as a share of the card's width."""
DOS_BADGE = 0.14
"""DOS's mark's badge radius (top-right corner), as a share of the card's width: smaller than the
color's, beside it."""
Box = tuple[float, float, float]
"""Where a unit-box shape goes: its center x, center y and the pixels per unit."""


def card_size(height: int) -> tuple[int, int]:
    """The (width, height) in pixels of a card drawn ``height`` pixels tall."""
    return max(1, round(height * ASPECT)), height


def art_side(face: AnyFace, side: Side = Side.LIGHT) -> Side:
    """The side whose look a face takes: its color's side, or ``side`` for an UNO wild; a DOS
    card has one side, the light one's colors."""
    if isinstance(face, DosCard):
        return Side.LIGHT
    return face.color.side if face.color is not None else side


def emoji_name(face: AnyFace, side: Side = Side.LIGHT) -> str:
    """The face's stable name, valid for a Discord application emoji (2-32 of ``[A-Za-z0-9_]``),
    the same in every edition that has the face: ``uno_red_7``, ``uno_blue_draw_two``,
    ``uno_wild_draw_four``; a wild drawn for the dark side (Flip) starts ``uno_dark_``:
    ``uno_dark_wild``, ``uno_dark_wild_draw_color``. A DOS card's starts ``dos_``: ``dos_red_10``,
    ``dos_green_wild_number``, ``dos_wild_dos``.

    >>> from bot.engine.cards import Face
    >>> emoji_name(Face.parse("pink skip everyone"))
    'uno_pink_skip_everyone'
    >>> emoji_name(Face.parse("wild"), Side.DARK)
    'uno_dark_wild'
    >>> emoji_name(DosCard.parse("blue wild number"), Side.DARK)
    'dos_blue_wild_number'
    """
    if isinstance(face, DosCard):
        return "dos_" + face.name.replace(" ", "_")
    dark = "dark_" if face.color is None and side is Side.DARK else ""
    return "uno_" + dark + face.name.replace(" ", "_")


def edition_faces(edition: str) -> tuple[tuple[AnyFace, Side], ...]:
    """Every distinct face of an edition's deck (``edition``: its id in ``EDITIONS``) with its
    side, light side first, in deck order.

    Raises:
        KeyError: ``edition`` is not an edition's id.
    """
    return tuple(dict.fromkeys((f, art_side(f, s)) for f, s in REGISTRY[edition].faces))


def all_faces() -> tuple[tuple[AnyFace, Side], ...]:
    """Every distinct face of every edition (faces shared by editions once), editions in the order
    of ``EDITIONS`` (DOS's last)."""
    return tuple(dict.fromkeys(fs for edition in EDITIONS for fs in edition_faces(edition)))


def paint(draw: ImageDraw.ImageDraw, parts: Iterable[Part], box: Box, grow: float = 0) -> None:
    """Draw ``parts`` into ``box``, each grown by ``grow`` pixels (an outline's extent) when given;
    then in ink, else in their own color (paper or ink)."""
    cx, cy, s = box

    def at(x: float, y: float) -> tuple[float, float]:
        return cx + x * s, cy + y * s

    def disc(x: float, y: float, r: float, color: RGB) -> None:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=color)

    for shape, inked in parts:
        color = INK if grow or inked else PAPER
        if isinstance(shape, Poly):
            points = [at(x, y) for x, y in shape.points]
            draw.polygon(points, fill=color)
            if grow:  # the polygon widened by a disc: its edges thickened and its corners rounded
                draw.line([*points, points[0]], fill=color, width=round(2 * grow))
                for x, y in points:
                    disc(x, y, grow, color)
        elif isinstance(shape, Disc):
            x, y = at(shape.x, shape.y)
            disc(x, y, shape.r * s + grow, color)
        elif isinstance(shape, Arc):
            x, y = at(shape.x, shape.y)
            half = shape.width * s / 2 + grow
            outer = shape.r * s + half
            draw.arc(
                (x - outer, y - outer, x + outer, y + outer), shape.start, shape.end, color, round(2 * half)
            )
            if shape.end - shape.start < 360:
                for degrees in (shape.start, shape.end):
                    disc(*at(*on_circle(shape.x, shape.y, shape.r, degrees)), half, color)
        elif isinstance(shape, Stroke):
            points = [at(x, y) for x, y in shape.points]
            half = shape.width * s / 2 + grow
            draw.line(points, fill=color, width=round(2 * half), joint="curve")
            for x, y in (points[0], points[-1]):
                disc(x, y, half, color)


def _field(draw: ImageDraw.ImageDraw, face: AnyFace, side: Side, w: int, h: int) -> None:
    if face.color is not None:
        draw.rectangle((0, 0, w, h), fill=FIELD[face.color])
        return
    # A wild: four wedges meeting in the middle, in its side's color order.
    c = (w / 2, h / 2)
    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    for i, color in enumerate(Color.of_side(side)):
        draw.polygon([c, corners[i], corners[(i + 1) % 4]], fill=FIELD[color])


def badge(draw: ImageDraw.ImageDraw, color: Color, cx: float, cy: float, r: float) -> None:
    """The white badge with ``color``'s mark, of radius ``r`` pixels around (``cx``, ``cy``)."""
    ring = max(1.0, r * 0.12)
    draw.ellipse((cx - r - ring, cy - r - ring, cx + r + ring, cy + r + ring), fill=INK)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PAPER)
    paint(draw, MARK_SHAPES[MARKS[color]], (cx, cy, r * 0.62))


def dos_badge(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """DOS's mark (``DOS_MARK``): an ink badge ringed in paper, the reverse of a color's badge, so
    it is not read as a color."""
    ring = max(1.0, r * 0.12)
    draw.ellipse((cx - r - ring, cy - r - ring, cx + r + ring, cy + r + ring), fill=PAPER)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    paint(draw, DOS_MARK, (cx, cy, r * 0.8))


def _glyph(face: AnyFace) -> str | Symbol:
    return dos_glyph(face) if isinstance(face, DosCard) else GLYPHS[face.rank]


@cache
def card_image(face: AnyFace, side: Side = Side.LIGHT, height: int = 128) -> Image.Image:
    """The face drawn ``height`` pixels tall (RGBA, transparent round corners; see ``card_size``).
    A DOS card has a paper band inside its edge and DOS's mark in its top-right corner.

    The image is shared (cached): copy it before changing it.
    """
    side = art_side(face, side)
    dos = isinstance(face, DosCard)
    w, h = card_size(height)
    big_w, big_h = w * SUPERSAMPLE, h * SUPERSAMPLE
    image = Image.new("RGB", (big_w, big_h))
    draw = ImageDraw.Draw(image)
    _field(draw, face, side, big_w, big_h)
    frame = big_w * (0.085 if side is Side.DARK else 0.04)
    band = big_w * 0.06 if dos else 0
    outline = round(big_w * 0.035)
    glyph = _glyph(face)
    # Off the middle, away from the corner badge; a wild has none. A DOS card's under its two.
    if dos:
        middle = (big_w * 0.5, big_h * 0.65)
    elif face.color is None:
        middle = (big_w / 2, big_h / 2)
    else:
        middle = (big_w * 0.55, big_h * 0.6)
    if isinstance(glyph, str):
        parts, width = text_parts(glyph)
        tall = 0.42 if dos else 0.46 if len(glyph) == 1 else 0.4
        scale = min(big_w * 0.74 / width, big_h * tall / (2 + PEN))
    else:
        parts, scale = SYMBOLS[glyph], big_w * 0.33
    box = (*middle, scale)
    paint(draw, parts, box, grow=outline)
    paint(draw, parts, box)
    r = big_w * BADGE
    inset = frame + band + r * 1.1
    if face.color is not None:
        badge(draw, face.color, inset, inset, r)
    if dos:
        small = big_w * DOS_BADGE
        dos_badge(draw, big_w - frame - band - small * 1.3, frame + band + small * 1.3, small)
    radius = big_w * 0.12
    if band:
        draw.rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius, outline=PAPER, width=round(frame + band))
    draw.rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius, outline=INK, width=round(frame))
    alpha = Image.new("L", (big_w, big_h))
    ImageDraw.Draw(alpha).rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius, fill=255)
    image.putalpha(alpha)
    return image.convert("RGBa").resize((w, h), Image.Resampling.LANCZOS).convert("RGBA")


def png(image: Image.Image, compress_level: int = 6) -> bytes:
    """The image as PNG bytes (no date or other varying chunk: the same image gives the same bytes)."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=compress_level)
    return out.getvalue()


@cache
def card_png(face: AnyFace, side: Side = Side.LIGHT, height: int = 128, *, square: bool = False) -> bytes:
    """The face as PNG bytes, ``height`` pixels tall (see ``card_image``); the same arguments
    always give the same bytes.

    ``square``: the card centred on a transparent ``height`` x ``height`` canvas, the shape
    Discord gives an emoji (128 x 128 is the size it asks for); the card itself is unchanged.
    """
    image = card_image(face, side, height)
    if square:
        canvas = Image.new("RGBA", (height, height))
        canvas.alpha_composite(image, ((height - image.width) // 2, 0))
        image = canvas
    return png(image)
