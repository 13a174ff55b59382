"""Pictures composed from the card faces: a row of cards with a caption, a hand, the table (a
DOS table's Center Row).

Pure functions returning PNG bytes. A hand of 20 cards takes a few milliseconds once its faces are
drawn (docs/card-art.md has the figures), but drawing a face the first time takes longer: the service
calls these off the event loop (``await asyncio.to_thread(hand_picture, ...)``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.art.faces import badge, card_image, card_size, png
from bot.art.style import FIELD, INK
from bot.engine.cards import Card, Color, Face, Side
from bot.engine.dos.cards import DosCard
from bot.engine.editions import AnyFace

BACKGROUND = (49, 51, 56)
"""Behind the cards: the gray of Discord's dark theme, which also frames them on the light theme."""
TEXT = (230, 231, 233)
"""Captions and labels."""
PAD = 12
"""Pixels around the picture's content."""
GAP = 8
"""Pixels between cards, and between a row and the next."""
CAPTION = 18
"""The caption's font size in pixels."""
LABEL = 4
"""A card's label (a DOS pile's number) is a quarter of the card's height tall, in bold: 24 px
over a 96 px card, still about 13 px where a phone shows a row of eight piles at its width."""

ArtFace = tuple[AnyFace, Side]
"""A face and the side it is shown for (which matters only for an UNO wild's field)."""


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (``bold``: its bold), as matplotlib (a dependency: /uno stats' chart) ships
    it, found without importing matplotlib (a second); Pillow's own bundled font has no accented
    letters ("côté" drew a box), and is only the fallback."""
    spec = importlib.util.find_spec("matplotlib")
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "mpl-data" / "fonts" / "ttf" / name
        if path.is_file():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def _caption_height(caption: str) -> int:
    return CAPTION + GAP if caption else 0


def _caption_width(caption: str) -> int:
    return 2 * PAD + round(_font(CAPTION).getlength(caption)) if caption else 0


def cards_picture(
    faces: Sequence[ArtFace],
    *,
    under: Sequence[Sequence[ArtFace]] = (),
    labels: Sequence[str] = (),
    caption: str = "",
    height: int = 96,
    per_row: int = 10,
) -> bytes:
    """A PNG of ``faces`` left to right in rows of ``per_row``, ``height`` pixels tall each, under
    ``caption`` (one line); with ``under``, the faces shown half as tall under each card, side by
    side (overlapping where they are wider than it): a Flip card's inactive face (docs/rules.md
    §7), the cards matched onto a DOS pile this turn (§14); with ``labels``, a short label
    centred over each card, in bold (a DOS pile's number).

    The size is exactly ``(2*PAD + cols*w + (cols-1)*GAP, 2*PAD + caption + rows*row + (rows-1)*GAP)``
    with ``w, _ = card_size(height)``, ``cols = min(per_row, len(faces))`` (at least 1),
    ``caption = CAPTION + GAP`` when given, and ``row = height`` plus ``height // LABEL + GAP // 2``
    with labels, plus ``GAP // 2 + height // 2`` when any card has faces under it; wider if the
    caption needs it.

    Raises:
        ValueError: ``height`` or ``per_row`` is below 1, or ``under`` or ``labels`` is given with
            another length.
    """
    if height < 1 or per_row < 1:
        raise ValueError(f"height and per_row must be at least 1, not {height} and {per_row}")
    if under and len(under) != len(faces):
        raise ValueError(f"faces under {len(under)} cards for {len(faces)} cards")
    if labels and len(labels) != len(faces):
        raise ValueError(f"{len(labels)} labels for {len(faces)} cards")
    w, _ = card_size(height)
    small = height // 2
    small_w, _ = card_size(small)
    label = height // LABEL + GAP // 2 if labels else 0  # the band over each card
    row = label + height + (GAP // 2 + small if any(under) else 0)
    cols = max(1, min(per_row, len(faces)))
    rows = max(1, -(-len(faces) // per_row))
    top = PAD + _caption_height(caption)
    width = max(2 * PAD + cols * w + (cols - 1) * GAP, _caption_width(caption))
    size = (width, top + PAD + rows * row + (rows - 1) * GAP)
    picture = Image.new("RGBA", size, (*BACKGROUND, 255))
    draw = ImageDraw.Draw(picture)
    if caption:
        draw.text((PAD, PAD), caption, font=_font(CAPTION), fill=TEXT)
    for i, (face, side) in enumerate(faces):
        x, y = PAD + (i % per_row) * (w + GAP), top + (i // per_row) * (row + GAP)
        if labels:  # its bottom just over the card
            draw.text(
                (x + w / 2, y + label - GAP // 2),
                labels[i],
                font=_font(height // LABEL, True),
                fill=TEXT,
                anchor="ms",
            )
            y += label
        picture.alpha_composite(card_image(face, side, height), (x, y))
        below = under[i] if under else ()
        # Side by side, centred; closer (overlapping) where they would be wider than the card.
        step = min(small_w + GAP // 2, (w - small_w) // max(1, len(below) - 1))
        left = x + (w - small_w - step * (len(below) - 1)) // 2
        for n, (face, side) in enumerate(below):
            picture.alpha_composite(card_image(face, side, small), (left + n * step, y + height + GAP // 2))
    # RGB, fastest compression that still packs flat colors well: a 20-card hand in a few ms.
    return png(picture.convert("RGB"), compress_level=1)


def hand_picture(
    cards: Sequence[Card], side: Side, *, caption: str = "", height: int = 96, per_row: int = 10
) -> bytes:
    """A PNG of a hand: each card's face for ``side``, and for two-sided (Flip) cards their other
    face under it, half as tall (everyone sees the inactive faces, docs/rules.md §7). Sizes as in
    ``cards_picture``; call it off the event loop (``asyncio.to_thread``).
    """
    faces: list[ArtFace] = [(card.face(side), side) for card in cards]
    under: list[list[ArtFace]] = [
        [(card.dark if side is Side.LIGHT else card.light, side.other)] if card.dark else [] for card in cards
    ]
    return cards_picture(faces, under=under, caption=caption, height=height, per_row=per_row)


def table_picture(
    top: Face, side: Side, color: Color | None, *, caption: str = "", height: int = 160
) -> bytes:
    """A PNG of the discard pile's top card, ``height`` pixels tall, and beside it a chip of the
    current ``color`` (its field and its mark, docs/rules.md §1.5; none before it is named), under
    ``caption``. Call it off the event loop (``asyncio.to_thread``).
    """
    w, _ = card_size(height)
    chip = height // 2
    top_y = PAD + _caption_height(caption)
    width = max(2 * PAD + w + (GAP * 2 + chip if color else 0), _caption_width(caption))
    size = (width, top_y + height + PAD)
    picture = Image.new("RGBA", size, (*BACKGROUND, 255))
    draw = ImageDraw.Draw(picture)
    if caption:
        draw.text((PAD, PAD), caption, font=_font(CAPTION), fill=TEXT)
    picture.alpha_composite(card_image(top, side, height), (PAD, top_y))
    if color is not None:
        x, y = PAD + w + GAP * 2, top_y + (height - chip) // 2
        draw.rounded_rectangle((x, y, x + chip, y + chip), chip // 5, fill=FIELD[color], outline=INK, width=2)
        badge(draw, color, x + chip / 2, y + chip / 2, chip * 0.3)
        label = _font(CAPTION)
        draw.text((x + chip / 2, y + chip + GAP), color.value, font=label, fill=TEXT, anchor="mt")
    return png(picture.convert("RGB"), compress_level=1)


def row_picture(piles: Sequence[Sequence[DosCard]], *, caption: str = "", height: int = 96) -> bytes:
    """A PNG of a DOS table's Center Row (docs/rules.md §14): each pile's card left to right, pile
    1 first, in rows of 10, its number over it (the text names piles so: "**1.**"), and the
    cards matched onto it this turn half as tall under it. Sizes as in ``cards_picture``; call
    it off the event loop (``asyncio.to_thread``).

    Raises:
        ValueError: a pile is empty, or ``height`` is below 1.
    """
    if not all(piles):
        raise ValueError("an empty pile")
    faces: list[ArtFace] = [(pile[0], Side.LIGHT) for pile in piles]
    under = [[(card, Side.LIGHT) for card in pile[1:]] for pile in piles]
    numbers = [str(n) for n in range(1, len(piles) + 1)]
    return cards_picture(faces, under=under, labels=numbers, caption=caption, height=height)
