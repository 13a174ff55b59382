"""Card faces in words and colors: each color's and rank's name, a face's name and label (``"🟥 red
7"``), its emoji, its button's style and its embed's color, the short form many cards on a line
take, a hand's order, and the card emojis put into log lines within a field's limit (`Faces`:
where the custom emojis are looked up)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Protocol

import discord

from bot.engine.cards import Card, Color, Face, Rank, Side
from bot.engine.editions import AnyFace
from bot.engine.variants import VARIANTS
from bot.i18n import N_, Tr
from bot.render.names import trim

EMOJI = {
    Color.RED: "🟥", Color.YELLOW: "🟨", Color.GREEN: "🟩", Color.BLUE: "🟦",
    Color.PINK: "🩷", Color.TEAL: "🩵", Color.ORANGE: "🟧", Color.PURPLE: "🟪",
}  # fmt: skip
WILD_EMOJI = "🌈"
EMBED_COLOR = {
    Color.RED: 0xD72600, Color.YELLOW: 0xECD407, Color.GREEN: 0x379711, Color.BLUE: 0x0956BF,
    Color.PINK: 0xE52C8B, Color.TEAL: 0x0FA3A3, Color.ORANGE: 0xF27A1A, Color.PURPLE: 0x7A3FB0,
}  # fmt: skip
NEUTRAL = 0x2B2D31  # the accent while no color is named (and of a watching hand)
BUTTON_STYLE = {
    Color.RED: discord.ButtonStyle.danger, Color.GREEN: discord.ButtonStyle.success,
    Color.BLUE: discord.ButtonStyle.primary,
}  # fmt: skip
"""A color's button style where Discord has one that looks it; any other color (yellow, and the
dark side's four, teal too: blurple would read as the one recommended) is grey."""
COLOR_NAMES = {
    Color.RED: N_("red"), Color.YELLOW: N_("yellow"), Color.GREEN: N_("green"), Color.BLUE: N_("blue"),
    Color.PINK: N_("pink"), Color.TEAL: N_("teal"), Color.ORANGE: N_("orange"), Color.PURPLE: N_("purple"),
}  # fmt: skip
"""Each color's name (English: the engine's own, ``Color.value``)."""
RANK_NAMES = {
    Rank.SKIP: N_("skip"), Rank.REVERSE: N_("reverse"), Rank.DRAW_ONE: N_("draw one"),
    Rank.DRAW_TWO: N_("draw two"), Rank.DRAW_THREE: N_("draw three"), Rank.DRAW_FIVE: N_("draw five"),
    Rank.SKIP_EVERYONE: N_("skip everyone"), Rank.FLIP: N_("flip"), Rank.WILD: N_("wild"),
    Rank.WILD_DRAW_FOUR: N_("wild draw four"), Rank.WILD_DRAW_TWO: N_("wild draw two"),
    Rank.WILD_DRAW_COLOR: N_("wild draw color"), Rank.WILD_SUPER_HERO: N_("wild super hero"),
    Rank.WILD_VILLAIN: N_("wild villain"), Rank.HOWLER: N_("howler"), Rank.INVISIBILITY: N_("invisibility"),
    Rank.SPECIAL_AGENT_MATER: N_("special agent mater"), Rank.WILD_CUSTOMIZABLE: N_("wild customizable"),
    Rank.SAVE_THE_DAY: N_("save the day"),
}  # fmt: skip
"""Each card's rank as players name it (numbers are their digits); English: ``Rank.value``. Each
language uses its own printed sheets' terms (docs/i18n: "Joker", "Comodín", "Curinga")."""
SIDE_NAMES = (N_("light"), N_("dark"))
"""The sides' names of the editions that name them no other way (``Variant.side_names``' default),
here for extraction: each is translated where it is shown."""
_COLOR_ORDER = {c: i for i, c in enumerate(Color)}
_RANK_ORDER = {r: i for i, r in enumerate(Rank)}


def face_name(face: Face, tr: Tr) -> str:
    """A face's name in ``tr``'s language: ``"red 7"``, ``"wild draw four"`` (English: the
    engine's ``Face.name``), ``"7 rouge"``, ``"joker +4"``.

    >>> from bot.engine.cards import Face
    >>> from bot.i18n import translator
    >>> face = Face.parse("red draw two")
    >>> face_name(face, translator("en")), face_name(face, translator("pt_BR"))
    ('red draw two', 'comprar 2 vermelho')
    """
    rank = tr._(RANK_NAMES[face.rank]) if face.rank in RANK_NAMES else face.rank.value
    if face.color is None:
        return rank
    return tr._("{color} {rank}").format(color=tr._(COLOR_NAMES[face.color]), rank=rank)


def color_name(color: Color | str, tr: Tr) -> str:
    """A color's name in ``tr``'s language (``color``: the color or its engine id, ``"red"``)."""
    known = Color(color) if isinstance(color, str) and color in Color._value2member_map_ else color
    return tr._(COLOR_NAMES[known]) if isinstance(known, Color) else str(color)


def face_label(face: Face, tr: Tr) -> str:
    """``"🟥 red 7"``, ``"🌈 wild draw four"``."""
    return f"{EMOJI[face.color] if face.color else WILD_EMOJI} {face_name(face, tr)}"


class Faces(Protocol):
    """Where a card face's custom emoji is looked up (`bot.client.emojis.CardEmojis`, ``bot.card_emojis``):
    rendering takes it as an argument, so it stays a pure function of what it is given."""

    def for_face(self, face: AnyFace, side: Side = Side.LIGHT, /) -> discord.PartialEmoji | None:
        """The emoji of ``face`` (an UNO face or a DOS card) as drawn for ``side``, or None: show
        the card as text."""


class _TextOnly:
    def for_face(self, face: AnyFace, side: Side = Side.LIGHT, /) -> discord.PartialEmoji | None:
        return None


TEXT_ONLY: Faces = _TextOnly()
"""No card emojis: every card is shown as text (``face_label``), the default of every renderer."""


def face_text(face: Face, side: Side, tr: Tr, faces: Faces = TEXT_ONLY) -> str:
    """A face in a message's text: its emoji and its name, ``"<:uno_red_7:123> red 7"`` (the name
    stays, for screen readers and for clients that show no custom emoji), or without an emoji
    ``face_label``'s ``"🟥 red 7"``. ``side``: the side it is shown on (a wild's picture)."""
    emoji = faces.for_face(face, side)
    return f"{emoji} {face_name(face, tr)}" if emoji else face_label(face, tr)


def face_button(
    face: Face, side: Side, tr: Tr, faces: Faces = TEXT_ONLY
) -> tuple[str, discord.PartialEmoji | None]:
    """A face on a button or select option: ``("red 7", <emoji>)``, the color said by the emoji, or
    without an emoji ``("🟥 red 7", None)``."""
    emoji = faces.for_face(face, side)
    return (face_name(face, tr), emoji) if emoji else (face_label(face, tr), None)


@cache
def _labels(tr: Tr) -> tuple[re.Pattern[str], dict[str, Face]]:
    """Every face's ``face_label`` of every edition in ``tr``'s language, and a pattern finding them
    in text (the longest first: "🌈 wild draw four" before "🌈 wild")."""
    faces = {face_label(f, tr): f for v in VARIANTS.values() for f in (*v.light, *v.dark)}
    return label_pattern(faces), faces


def label_pattern(labels: Iterable[str]) -> re.Pattern[str]:
    """A pattern finding any of the cards' ``labels`` in text, the longest first ("🌈 wild draw
    four" before "🌈 wild") and not followed by a letter or digit ("🟥 red 1" is not in "🟥 red
    10")."""
    alternatives = "|".join(map(re.escape, sorted(labels, key=len, reverse=True)))
    return re.compile(f"(?:{alternatives})(?![\\w])")


def with_card_emojis(text: str, side: Side, tr: Tr, faces: Faces = TEXT_ONLY) -> str:
    """``text`` (a log line, kept as text) with each card it names as ``face_text``: the card's
    emoji before its name (a wild's picture as for ``side``). Unchanged without emojis."""
    if faces is TEXT_ONLY:
        return text
    pattern, by_label = _labels(tr)
    return pattern.sub(lambda m: face_text(by_label[m.group(0)], side, tr, faces), text)


def fitted(lines: Sequence[str], side: Side, tr: Tr, faces: Faces = TEXT_ONLY, limit: int = 1024) -> str:
    """Log ``lines`` joined as one embed field's value with their cards' emojis
    (``with_card_emojis``), newest last: where that would pass ``limit`` characters the oldest
    lines stay as text, and what still passes it is cut (:func:`~bot.render.names.trim`), as the text alone would be.
    """
    shown = [with_card_emojis(line, side, tr, faces) for line in lines]
    return trim("\n".join(as_text_to_fit(shown, lines, limit, range(len(lines)))), limit)


def as_text_to_fit(shown: Sequence[str], text: Sequence[str], limit: int, order: Iterable[int]) -> list[str]:
    """Lines ``shown`` with their cards' emojis (an emoji's ``<:name:id>`` costs 30-40 characters),
    each put back to its ``text`` (the same line as text, or in short), in ``order`` (line
    indexes: the oldest first in a log, the longest first in a list of hands or piles), until
    the lines joined by newlines fit in ``limit`` characters or none is left in ``order``.

    >>> as_text_to_fit(["a <:x:1>", "b <:y:2> <:z:3>"], ["a x", "b y z"], 14, [1, 0])
    ['a <:x:1>', 'b y z']
    """
    lines = list(shown)
    for n in order:
        if len("\n".join(lines)) <= limit:
            break
        lines[n] = text[n]
    return lines


def longest_first(lines: Sequence[str]) -> list[int]:
    """The indexes of ``lines``, the longest line's first (`as_text_to_fit`'s order where the
    lines that cost the most go to text first)."""
    return sorted(range(len(lines)), key=lambda n: -len(lines[n]))


SHORT_RANKS = {
    Rank.REVERSE: N_("rev"), Rank.DRAW_ONE: "+1", Rank.DRAW_TWO: "+2", Rank.DRAW_THREE: "+3",
    Rank.DRAW_FIVE: "+5", Rank.SKIP_EVERYONE: N_("skip all"), Rank.WILD_DRAW_TWO: N_("wild+2"),
    Rank.WILD_DRAW_FOUR: N_("wild+4"), Rank.WILD_DRAW_COLOR: N_("wild+color"),
    Rank.WILD_SUPER_HERO: N_("super hero"), Rank.WILD_VILLAIN: N_("villain"),
}  # fmt: skip
"""A rank's short text where many cards share a line (others: the rank's own name, ``"7"``)."""


def face_short(face: Face, tr: Tr) -> str:
    """A face in a few characters, its color as the emoji and no color name: ``"🟧6"``,
    ``"🟪skip all"``, ``"🌈wild+color"``."""
    short = tr._(SHORT_RANKS[face.rank]) if face.rank in SHORT_RANKS else None
    if short is None:
        short = tr._(RANK_NAMES[face.rank]) if face.rank in RANK_NAMES else face.rank.value
    return (EMOJI[face.color] if face.color else WILD_EMOJI) + short


def card_label(card: Card, side: Side, tr: Tr) -> str:
    """The card as its holder sees it (active face)."""
    return face_label(card.face(side), tr)


def cards_text(cards: Iterable[str], side: Side, tr: Tr, faces: Faces = TEXT_ONLY, limit: int = 1024) -> str:
    """Cards (their text) as shown on ``side``, sorted, with their emojis while that fits in
    ``limit`` characters, else as text: ``"🟩 green 8, 🟦 blue 0"`` (``"none"`` for no cards)."""
    shown = sorted((Card.parse(c).face(side) for c in cards), key=face_order)
    text = ", ".join(face_text(f, side, tr, faces) for f in shown)
    if len(text) > limit:
        text = ", ".join(face_label(f, tr) for f in shown)
    return text or tr._("none")


def face_order(face: Face) -> tuple[int, int, int]:
    """Sort key of a hand: by color (the colors' fixed order), then rank; wilds last."""
    color = -1 if face.color is None else _COLOR_ORDER[face.color]
    return (face.color is None, color, _RANK_ORDER[face.rank])


def button_style(face: Face) -> discord.ButtonStyle:
    """The button color closest to the face's color (grey for wilds and colors Discord lacks)."""
    return (
        BUTTON_STYLE.get(face.color, discord.ButtonStyle.secondary)
        if face.color
        else discord.ButtonStyle.secondary
    )


def sorted_hand(cards: Iterable[Card], side: Side) -> list[Card]:
    """A hand as shown: sorted by :func:`face_order` of the active side (stable)."""
    return sorted(cards, key=lambda c: face_order(c.face(side)))
