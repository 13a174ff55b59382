"""The words and colors every message shares: card labels, counts, options, house rules."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Protocol

import discord

from bot.engine.cards import Card, Color, Face, Rank, Side
from bot.engine.editions import edition_name
from bot.engine.effects import CUSTOMIZABLE_RULES
from bot.engine.options import HouseRule, Options, PendingKind, Scoring
from bot.engine.variants import VARIANTS
from bot.tables import Removal, Table

EMOJI = {
    Color.RED: "🟥", Color.YELLOW: "🟨", Color.GREEN: "🟩", Color.BLUE: "🟦",
    Color.PINK: "🩷", Color.TEAL: "🩵", Color.ORANGE: "🟧", Color.PURPLE: "🟪",
}  # fmt: skip
WILD_EMOJI = "🌈"
EMBED_COLOR = {
    Color.RED: 0xD72600, Color.YELLOW: 0xECD407, Color.GREEN: 0x379711, Color.BLUE: 0x0956BF,
    Color.PINK: 0xE52C8B, Color.TEAL: 0x0FA3A3, Color.ORANGE: 0xF27A1A, Color.PURPLE: 0x7A3FB0,
}  # fmt: skip
BUTTON_STYLE = {
    Color.RED: discord.ButtonStyle.danger, Color.GREEN: discord.ButtonStyle.success,
    Color.BLUE: discord.ButtonStyle.primary, Color.TEAL: discord.ButtonStyle.primary,
}  # fmt: skip
PENDING_TEXT = {
    PendingKind.TURN: "to play a card or draw",
    PendingKind.CHALLENGE: "to challenge or accept",
    PendingKind.PENALTY: "to take the penalty or answer it",
    PendingKind.COLOR: "to name the color",
    PendingKind.DISCARD: "to discard a card (Wild Super Hero)",
    PendingKind.HOWLER: "to answer the Howler",
    PendingKind.DRAW_DECISION: "to play the drawn card or keep it",
}
REMOVAL_TEXT = {Removal.TIMEOUTS: "removed: timed out", Removal.KICKED: "removed: kicked"}
"""How the table labels a player taken out of the game, by why (one who left is "left")."""
HOUSE_RULE_NAMES = {
    HouseRule.STACKING: "Stacking",
    HouseRule.JUMP_IN: "Jump-in",
    HouseRule.SEVEN_O: "Seven-O",
    HouseRule.DRAW_UNTIL_PLAYABLE: "Draw until playable",
    HouseRule.FORCED_PLAY: "Forced play",
    HouseRule.NO_BLUFFING: "No bluffing",
}
"""The one place a house rule's id becomes the name players read (the headings of docs/rules.md §4,
without their numbers)."""
HOUSE_RULE_HINTS = {
    HouseRule.STACKING: "Answer a Draw card with the same Draw card, passing the total on",
    HouseRule.JUMP_IN: "Play a card identical to the top card out of turn",
    HouseRule.SEVEN_O: "A 7 swaps hands with a player you pick; a 0 passes every hand on",
    HouseRule.DRAW_UNTIL_PLAYABLE: "Drawing goes on until a playable card comes",
    HouseRule.FORCED_PLAY: "A playable drawn card must be played",
    HouseRule.NO_BLUFFING: "A restricted wild is refused while you hold the current color",
}
_COLOR_ORDER = {c: i for i, c in enumerate(Color)}
_RANK_ORDER = {r: i for i, r in enumerate(Rank)}


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1.

    >>> count(1, "round"), count(0, "point"), count(7, "card")
    ('1 round', '0 points', '7 cards')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def record_text(*, games_played: int, games_won: int, rounds_won: int, points: int) -> str:
    """A player's record (``/uno stats``), one count a line; the keywords are the storage's counts.

    >>> print(record_text(games_played=4, games_won=1, rounds_won=6, points=230))
    Games played: **4** · won: **1** (25%)
    Rounds won: **6**
    Points scored: **230**
    """
    rate = f" ({games_won / games_played:.0%})" if games_played else ""
    return (
        f"Games played: **{games_played}** · won: **{games_won}**{rate}\n"
        f"Rounds won: **{rounds_won}**\nPoints scored: **{points}**"
    )


def face_label(face: Face) -> str:
    """``"🟥 red 7"``, ``"🌈 wild draw four"``."""
    return f"{EMOJI[face.color] if face.color else WILD_EMOJI} {face.name}"


class Faces(Protocol):
    """Where a card face's custom emoji is looked up (`bot.emojis.CardEmojis`, ``bot.card_emojis``):
    rendering takes it as an argument, so it stays a pure function of what it is given."""

    def for_face(self, face: Face, side: Side = Side.LIGHT, /) -> discord.PartialEmoji | None:
        """The emoji of ``face`` as drawn for ``side``, or None: show the card as text."""


class _TextOnly:
    def for_face(self, face: Face, side: Side = Side.LIGHT, /) -> discord.PartialEmoji | None:
        return None


TEXT_ONLY: Faces = _TextOnly()
"""No card emojis: every card is shown as text (``face_label``), the default of every renderer."""


def face_text(face: Face, side: Side, faces: Faces = TEXT_ONLY) -> str:
    """A face in a message's text: its emoji and its name, ``"<:uno_red_7:123> red 7"`` (the name
    stays, for screen readers and for clients that show no custom emoji), or without an emoji
    ``face_label``'s ``"🟥 red 7"``. ``side``: the side it is shown on (a wild's picture)."""
    emoji = faces.for_face(face, side)
    return f"{emoji} {face.name}" if emoji else face_label(face)


def face_button(face: Face, side: Side, faces: Faces = TEXT_ONLY) -> tuple[str, discord.PartialEmoji | None]:
    """A face on a button or select option: ``("red 7", <emoji>)``, the color said by the emoji, or
    without an emoji ``("🟥 red 7", None)``."""
    emoji = faces.for_face(face, side)
    return (face.name, emoji) if emoji else (face_label(face), None)


@cache
def _labels() -> tuple[re.Pattern[str], dict[str, Face]]:
    """Every face's ``face_label`` of every edition, and a pattern finding them in text (the longest
    first: "🌈 wild draw four" before "🌈 wild")."""
    faces = {face_label(f): f for v in VARIANTS.values() for f in (*v.light, *v.dark)}
    alternatives = "|".join(map(re.escape, sorted(faces, key=len, reverse=True)))
    return re.compile(f"(?:{alternatives})(?![\\w])"), faces


def with_card_emojis(text: str, side: Side, faces: Faces = TEXT_ONLY) -> str:
    """``text`` (a log line, kept as text) with each card it names as ``face_text``: the card's
    emoji before its name (a wild's picture as for ``side``). Unchanged without emojis."""
    if faces is TEXT_ONLY:
        return text
    pattern, by_label = _labels()
    return pattern.sub(lambda m: face_text(by_label[m.group(0)], side, faces), text)


def fitted(lines: Sequence[str], side: Side, faces: Faces = TEXT_ONLY, limit: int = 1024) -> str:
    """Log ``lines`` joined as one embed field's value with their cards' emojis
    (``with_card_emojis``), newest last: where that would pass ``limit`` characters the oldest
    lines stay as text, and what still passes it is cut (``trim``), as the text alone would be.
    """
    shown = [with_card_emojis(line, side, faces) for line in lines]
    for n in range(len(lines)):
        if len("\n".join(shown)) <= limit:
            break
        shown[n] = lines[n]
    return trim("\n".join(shown), limit)


SHORT_RANKS = {
    Rank.REVERSE: "rev", Rank.DRAW_ONE: "+1", Rank.DRAW_TWO: "+2", Rank.DRAW_THREE: "+3",
    Rank.DRAW_FIVE: "+5", Rank.SKIP_EVERYONE: "skip all", Rank.WILD_DRAW_TWO: "wild+2",
    Rank.WILD_DRAW_FOUR: "wild+4", Rank.WILD_DRAW_COLOR: "wild+color", Rank.WILD_SUPER_HERO: "super hero",
    Rank.WILD_VILLAIN: "villain",
}  # fmt: skip
"""A rank's short text where many cards share a line (others: the rank's own name, ``"7"``)."""


def face_short(face: Face) -> str:
    """A face in a few characters, its color as the emoji and no color name: ``"🟧6"``,
    ``"🟪skip all"``, ``"🌈wild+color"``."""
    return (EMOJI[face.color] if face.color else WILD_EMOJI) + SHORT_RANKS.get(face.rank, face.rank.value)


def card_label(card: Card, side: Side) -> str:
    """The card as its holder sees it (active face)."""
    return face_label(card.face(side))


def cards_text(cards: Iterable[str], side: Side, faces: Faces = TEXT_ONLY, limit: int = 1024) -> str:
    """Cards (their text) as shown on ``side``, sorted, with their emojis while that fits in
    ``limit`` characters, else as text: ``"🟩 green 8, 🟦 blue 0"`` (``"none"`` for no cards)."""
    shown = sorted((Card.parse(c).face(side) for c in cards), key=face_order)
    text = ", ".join(face_text(f, side, faces) for f in shown)
    if len(text) > limit:
        text = ", ".join(map(face_label, shown))
    return text or "none"


def face_order(face: Face) -> tuple[int, int, int]:
    """Sort key of a hand: by color (the colors' fixed order), then rank; wilds last."""
    color = -1 if face.color is None else _COLOR_ORDER[face.color]
    return (face.color is None, color, _RANK_ORDER[face.rank])


def house_rules_text(rules: Iterable[HouseRule]) -> str:
    """``"Stacking, Seven-O"`` (in a fixed order), or ``"none"``."""
    chosen = set(rules)
    return ", ".join(name for rule, name in HOUSE_RULE_NAMES.items() if rule in chosen) or "none"


def scoring_text(options: Options) -> str:
    """How the game is won, with the target score only where it applies."""
    target = options.target_score
    if options.elimination:
        return f"elimination: out at {target} points, the last one left wins"
    if options.scoring is Scoring.SINGLE_ROUND:
        return "single round: the first player out wins"
    if options.scoring is Scoring.RUNNING_TALLY:
        return f"running tally: the game ends at {target} points, lowest total wins"
    return f"first to {target} points"


def customizable_text(rule: str) -> str:
    r"""The Wild Customizable rule as the table reads it: a known rule's name, or the host's own
    text (at most 300 characters) as :func:`plain` text, so ``**``, ``#``, ``>`` or a mention show
    as typed.

    >>> customizable_text("swap-hands"), customizable_text("")
    ('Swap hands', 'plain wild')
    >>> customizable_text("**Sing**") == r"\*\*Sing\*\*"
    True
    """
    known = CUSTOMIZABLE_RULES.get(rule)
    if known:
        return known.name
    return plain(rule, 300) if rule else "plain wild"


def settings_text(variant: str, options: Options, turn_seconds: int) -> str:
    """A channel's defaults for new games (``/uno settings``)."""
    return "\n".join(
        [
            f"Edition: **{edition_name(variant)}**",
            f"Scoring: **{scoring_text(options)}**",
            f"House rules: **{house_rules_text(options.house_rules)}**",
            f"Wild Customizable: **{customizable_text(options.customizable_rule)}**",
            f"Turn timer: **{f'{turn_seconds}s' if turn_seconds else 'off'}**",
        ]
    )


def plain(text: str, limit: int = 40) -> str:
    r"""Text a user typed (a display name) as Discord shows it verbatim, whatever it holds:
    Markdown and mentions escaped, at most ``limit`` characters, and bidirectional overrides
    dropped (a right-to-left override would turn the rest of the line); right-to-left text is
    set apart as its own run (Unicode isolates), so it reads right and leaves the line alone.

    >>> plain("[Free Nitro](https://x.y)")
    '\\[Free Nitro](https://x.y)'
    >>> "<@123456789012345678>" in plain("<@123456789012345678>")
    False
    >>> plain("\u202eevil"), plain("\u05d3\u05e0\u05d4") == "\u2068\u05d3\u05e0\u05d4\u2069"
    ('evil', True)
    """
    return _isolated(
        discord.utils.escape_mentions(discord.utils.escape_markdown(trim(text.translate(_OVERRIDES), limit)))
    )


def as_label(text: str, limit: int = 40) -> str:
    """Text a user typed where Discord shows no Markdown and pings nobody (a select option's or
    button's label, an embed's footer): as :func:`plain` without the escapes, which would show.

    >>> as_label("\u202e**evil**")
    '**evil**'
    """
    return _isolated(trim(text.translate(_OVERRIDES), limit))


def _isolated(text: str) -> str:
    """``text`` set apart as its own run (Unicode isolates) if it holds right-to-left letters."""
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
        return f"\u2068{text}\u2069"
    return text


_OVERRIDES = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)  # embeddings, overrides, isolates


def named(tbl: Table, key: str | None) -> str:
    """A player (or a team, ``"a+b"``) as the table names them, each name :func:`plain`."""
    if key and "+" in key and tbl.seat(key) is None:
        return " & ".join(named(tbl, member) for member in key.split("+"))
    return plain(tbl.name(key))


def out_text(tbl: Table, player: str) -> str | None:
    """Why a player is out of the game, as their row says it: ``"left"``, ``"removed: timed out"``,
    ``"removed: kicked"`` or ``"eliminated"``; None while they play."""
    state = tbl.game.out.get(player) if tbl.game else None
    removal = tbl.removed.get(player)
    return REMOVAL_TEXT[removal] if state == "left" and removal is not None else state


def trim(text: str, limit: int = 1024) -> str:
    """``text`` cut to ``limit`` characters (an embed field's 1,024 by default), ending in "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


def points_text(tbl: Table, points: int) -> str:
    """``" (+42)"`` for the round's winner, only where they score (standard scoring)."""
    standard = tbl.game is not None and tbl.game.options.effective_scoring is Scoring.STANDARD
    return f" (+{points})" if standard else ""
