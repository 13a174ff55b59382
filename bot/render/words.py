"""The words and colors every message shares: card labels, counts, options, house rules."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Protocol

import discord

from bot.engine.cards import Card, Color, Face, Rank, Side
from bot.engine.editions import EDITIONS, AnyFace, AnyGame
from bot.engine.effects import CUSTOMIZABLE_RULES
from bot.engine.options import HouseRule, Options, PendingKind, Scoring
from bot.engine.variants import VARIANTS
from bot.i18n import LANGUAGES, N_, Tr
from bot.storage import FORGOTTEN_NAME
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
NEUTRAL = 0x2B2D31  # the accent while no color is named (and of a watching hand)
BUTTON_STYLE = {
    Color.RED: discord.ButtonStyle.danger, Color.GREEN: discord.ButtonStyle.success,
    Color.BLUE: discord.ButtonStyle.primary,
}  # fmt: skip
"""A color's button style where Discord has one that looks it; any other color (yellow, and the
dark side's four, teal too: blurple would read as the one recommended) is grey."""
PENDING_TEXT = {
    PendingKind.TURN: N_("to play a card or draw"),
    PendingKind.CHALLENGE: N_("to challenge or accept"),
    PendingKind.PENALTY: N_("to take the penalty or answer it"),
    PendingKind.COLOR: N_("to name the color"),
    PendingKind.DISCARD: N_("to discard a card (Wild Super Hero)"),
    PendingKind.HOWLER: N_("to answer the Howler"),
    PendingKind.DRAW_DECISION: N_("to play the drawn card or keep it"),
}
"""What the game waits for, in English (each reader's ``tr._`` translates it)."""
WATCHING = N_("⏳ Not your turn: the table message shows the play.")
"""A watching hand's status line (`bot.render.hand.watching`), in place of what is on the table."""
REMOVAL_TEXT = {Removal.TIMEOUTS: N_("removed: timed out"), Removal.KICKED: N_("removed: kicked")}
"""How the table labels a player taken out of the game, by why (one who left is "left")."""
HOUSE_RULE_NAMES = {
    HouseRule.STACKING: N_("Stacking"),
    HouseRule.JUMP_IN: N_("Jump-in"),
    HouseRule.SEVEN_O: N_("Seven-O"),
    HouseRule.DRAW_UNTIL_PLAYABLE: N_("Draw until playable"),
    HouseRule.FORCED_PLAY: N_("Forced play"),
    HouseRule.NO_BLUFFING: N_("No bluffing"),
}
"""The one place a house rule's id becomes the name players read (the headings of docs/rules.md §4,
without their numbers)."""
HOUSE_RULE_HINTS = {
    HouseRule.STACKING: N_("Answer a Draw card with the same Draw card, passing the total on"),
    HouseRule.JUMP_IN: N_("Play a card identical to the top card out of turn"),
    HouseRule.SEVEN_O: N_("A 7 swaps hands with a player you pick; a 0 passes every hand on"),
    HouseRule.DRAW_UNTIL_PLAYABLE: N_("Drawing goes on until a playable card comes"),
    HouseRule.FORCED_PLAY: N_("A playable drawn card must be played"),
    HouseRule.NO_BLUFFING: N_("A restricted wild is refused while you hold the current color"),
}
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


_COUNTS: dict[str, Callable[[Tr, int], str]] = {
    "card": lambda tr, n: tr.n("{n} card", "{n} cards", n),
    "round": lambda tr, n: tr.n("{n} round", "{n} rounds", n),
    "point": lambda tr, n: tr.n("{n} point", "{n} points", n),
    "game": lambda tr, n: tr.n("{n} game", "{n} games", n),
}


def count(n: int, noun: str, tr: Tr) -> str:
    """``n`` and the noun (``"card"``, ``"round"``, ``"point"`` or ``"game"``) in ``tr``'s language, in the
    plural form ``n`` takes there.

    >>> from bot.i18n import translator
    >>> count(1, "round", translator("en")), count(0, "point", translator("en"))
    ('1 round', '0 points')
    >>> count(1, "card", translator("fr")), count(0, "card", translator("fr"))
    ('1 carte', '0 carte')
    """
    return _COUNTS[noun](tr, n)


def record_text(tr: Tr, *, games_played: int, games_won: int, rounds_won: int, points: int) -> str:
    """A player's record (``/uno stats``), one count a line; the keywords are the storage's counts.

    >>> from bot.i18n import translator
    >>> print(record_text(translator("en"), games_played=4, games_won=1, rounds_won=6, points=230))
    Games played: **4** · won: **1** (25%)
    Rounds won: **6**
    Points scored: **230**
    """
    rate = f" ({games_won / games_played:.0%})" if games_played else ""
    return tr._(
        "Games played: **{played}** · won: **{won}**{rate}\nRounds won: **{rounds}**\nPoints scored: **{points}**"
    ).format(played=games_played, won=games_won, rate=rate, rounds=rounds_won, points=points)


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


def edition_name(variant: str, tr: Tr) -> str:
    """An edition's name as sold in ``tr``'s language (``"UNO Carros 2"`` in Brazil): the same
    translation as the commands' edition choice. ``variant``: its id; an unknown id as it is."""
    known = EDITIONS.get(variant)
    return tr.pgettext("choice", known) if known else variant


def leaderboard_title(variant: str | None, tr: Tr) -> str:
    """``/uno leaderboard``'s title: named by its edition (``"DOS leaderboard"``: DOS is no UNO),
    or of every game the bot plays without one.

    >>> from bot.i18n import translator
    >>> leaderboard_title("dos", translator("en")), leaderboard_title(None, translator("fr"))
    ('DOS leaderboard', 'Classement · toutes les éditions')
    """
    if variant is None:
        return tr._("Leaderboard · all editions")
    return tr._("{edition} leaderboard").format(edition=edition_name(variant, tr))


def record_title(name: str, variants: Sequence[str], tr: Tr) -> str:
    """``/uno stats``' title: the player's record named by the edition they played, when only one
    (``"alice's DOS record"``), else without an edition's name.

    >>> from bot.i18n import translator
    >>> record_title("alice", ["dos"], translator("en")), record_title("alice", ["dos", "classic"], translator("en"))
    ("alice's DOS record", "alice's record")
    """
    if len(variants) == 1:
        return tr._("{name}'s {edition} record").format(name=name, edition=edition_name(variants[0], tr))
    return tr._("{name}'s record").format(name=name)


def language_name(lang: str) -> str:
    """A language's own name for itself (``"Français"``)."""
    return LANGUAGES.get(lang, lang)


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
    lines stay as text, and what still passes it is cut (``trim``), as the text alone would be.
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


def house_rules_text(rules: Iterable[HouseRule], tr: Tr) -> str:
    """``"Stacking, Seven-O"`` (in a fixed order), or ``"none"``."""
    chosen = set(rules)
    return ", ".join(tr._(name) for rule, name in HOUSE_RULE_NAMES.items() if rule in chosen) or tr._("none")


def scoring_text(options: Options, tr: Tr) -> str:
    """How the game is won, with the target score only where it applies."""
    target = options.target_score
    if options.elimination:
        return tr._("elimination: out at {target} points, the last one left wins").format(target=target)
    if options.scoring is Scoring.SINGLE_ROUND:
        return tr._("single round: the first player out wins")
    if options.scoring is Scoring.RUNNING_TALLY:
        return tr._("running tally: the game ends at {target} points, lowest total wins").format(
            target=target
        )
    return tr._("first to {target} points").format(target=target)


def customizable_text(rule: str, tr: Tr) -> str:
    r"""The Wild Customizable rule as the table reads it: a known rule's name, or the host's own
    text (at most 300 characters) as :func:`plain` text, so ``**``, ``#``, ``>`` or a mention show
    as typed.

    >>> from bot.i18n import translator
    >>> en = translator("en")
    >>> customizable_text("swap-hands", en), customizable_text("", en)
    ('Swap hands', 'plain wild')
    >>> customizable_text("**Sing**", en) == r"\*\*Sing\*\*"
    True
    """
    known = CUSTOMIZABLE_RULES.get(rule)
    if known:
        return tr._(known.name)
    return plain(rule, 300) if rule else tr._("plain wild")


def settings_text(variant: str, options: Options, turn_seconds: int, tr: Tr, language: str = "") -> str:
    """A channel's defaults for new games (``/uno settings``), in ``tr``'s language; ``language``:
    the channel's language as set (empty: the server's)."""
    timer = tr._("{seconds}s").format(seconds=turn_seconds) if turn_seconds else tr._("off")
    lines = [
        tr._("Edition: **{edition}**").format(edition=edition_name(variant, tr)),
        tr._("Scoring: **{scoring}**").format(scoring=scoring_text(options, tr)),
        tr._("House rules: **{rules}**").format(rules=house_rules_text(options.house_rules, tr)),
        tr._("Wild Customizable: **{rule}**").format(rule=customizable_text(options.customizable_rule, tr)),
        tr._("Turn timer: **{timer}**").format(timer=timer),
        tr._("Language: **{language}**").format(
            language=language_name(language) if language else tr._("the server's")
        ),
    ]
    return "\n".join(lines)


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


_BOT_NAME = re.compile(r"Bot (\d+) \((?:(easy|hard)|for (.+))\)", re.S)
BOT_LEVEL_WORDS = {"easy": N_("easy"), "hard": N_("hard")}
"""A computer seat's level as its name says it (docs/rules.md §5.4)."""


FOR_NAME = 16
"""The most characters of a player's name a bot's name says (``"Bot 2 (for Maximilian-Alex…)"``):
the name is cut, never the bot's, whose parenthesis closes; the whole stays within the 40
characters a name is shown in (:func:`plain`)."""


def seat_name(name: str, tr: Tr) -> str:
    """A seat's name in ``tr``'s language, not yet :func:`plain`: a computer seat's name is stored
    in English with its level or the player it took over from (``"Bot 2 (hard)"``, ``"Bot 3 (for
    alice)"``, docs/rules.md §5.3-5.4) and said in the reader's words, the player's name cut to
    :data:`FOR_NAME` characters; any other name as it is. Every bot's name shown goes through here.

    >>> from bot.i18n import translator
    >>> seat_name("Bot 2 (hard)", translator("fr")), seat_name("Bot 3 (for al)", translator("es"))
    ('Bot 2 (difficile)', 'Bot 3 (por al)')
    >>> seat_name("Bot 2 (for Maximilian-Alexander-Wolfgang)", translator("en"))
    'Bot 2 (for Maximilian-Alex…)'
    >>> seat_name("Bot 2 (for a former player)", translator("fr")), seat_name("a former player", translator("es"))
    ('Bot 2 (pour un ancien joueur)', 'un exjugador')
    """
    if name == FORGOTTEN_NAME:
        return tr._("a former player")
    match = _BOT_NAME.fullmatch(name)
    if match is None:
        return name
    if match[2]:
        return tr._("Bot {n} ({level})").format(n=match[1], level=tr._(BOT_LEVEL_WORDS[match[2]]))
    who = tr._("a former player") if match[3] == FORGOTTEN_NAME else trim(match[3], FOR_NAME)
    return tr._("Bot {n} (for {name})").format(n=match[1], name=who)


TEAM_LETTERS = "ABCDE"
"""The teams' letters, in the order of their first seats (docs/rules.md §3.2: team A is seat 1 and
the seat half way round), up to five teams of ten players."""


def team_tag(game: AnyGame, key: str, *, markdown: bool = True) -> str:
    """The mark of the team of ``key`` (a player, or a team ``"a+b"``) with partners, as the
    table, the scores and the standings show it before a name: ``"`A` "`` (inline code, a small
    box, the same in every language and readable on a phone), ``"[A] "`` in plain text (not
    ``markdown``: a text file); ``""`` without partners.

    >>> from bot.engine.game import Game
    >>> from bot.engine.options import Options
    >>> game = Game(["a", "b", "c", "d"], options=Options(partners=True), seed=1)
    >>> [team_tag(game, p) for p in ("a", "b", "c", "d", "b+d")]
    ['`A` ', '`B` ', '`A` ', '`B` ', '`B` ']
    """
    member = key.split("+", 1)[0]
    if not game.options.partners or member not in game.players:
        return ""
    teams = list(dict.fromkeys(game.team_of(p) for p in game.players))  # the engine's teams
    letter = TEAM_LETTERS[teams.index(game.team_of(member))]
    return f"`{letter}` " if markdown else f"[{letter}] "


def scores_text(tbl: Table, game: AnyGame, tr: Tr) -> str:
    """The running scores on one line, a player or a team each, in the engine's order: ``"Ana 40 ·
    Ben 12"``; with partners each team's total with its mark (:func:`team_tag`), ``"`A` Ana & Cy
    40 · `B` Ben & Di 12"`` (docs/rules.md §3.2: scores are kept per team)."""
    marks = {k: team_tag(game, k, markdown=tbl.markdown) for k in game.scores}
    return " · ".join(f"{marks[k]}{named(tbl, k, tr)} {v}" for k, v in game.scores.items())


def players_title(game: AnyGame, tr: Tr) -> str:
    """The Players block's title: with partners it says what the marks before the names are."""
    return tr._("Players and teams (partners sit across)") if game.options.partners else tr._("Players")


def named(tbl: Table, key: str | None, tr: Tr) -> str:
    """A player (or a team, ``"a+b"``) as the table names them, each name :func:`plain` (or
    :func:`as_label`, as typed, where the table says no Markdown: ``Table.markdown``); nobody
    and a player no longer seated in ``tr``'s language."""
    if key and "+" in key and tbl.seat(key) is None:
        return " & ".join(named(tbl, member, tr) for member in key.split("+"))
    if key is None:
        return tr._("nobody")
    seat = tbl.seat(key)
    if seat is None:
        return tr._("someone who left")
    return (plain if tbl.markdown else as_label)(seat_name(seat.name, tr))


def headcount(tbl: Table, keys: Iterable[str]) -> int:
    """How many players ``keys`` name together, a team (``"a+b"``, as :func:`named` reads it)
    counting its members: the number a sentence with them as its subject agrees with
    (``tr.ngettext``: French "alice gagne", "alice & Bot 3 gagnent")."""
    return sum(len(k.split("+")) if "+" in k and tbl.seat(k) is None else 1 for k in keys)


OUT_TEXT = {"left": N_("left"), "eliminated": N_("eliminated")}
"""The engine's ``Game.out`` states as a player's row says them."""


def out_text(tbl: Table, player: str, tr: Tr) -> str | None:
    """Why a player is out of the game, as their row says it: ``"left"``, ``"removed: timed out"``,
    ``"removed: kicked"`` or ``"eliminated"``; None while they play."""
    state = tbl.game.out.get(player) if tbl.game else None
    removal = tbl.removed.get(player)
    if state == "left" and removal is not None:
        return tr._(REMOVAL_TEXT[removal])
    return tr._(OUT_TEXT.get(state, state)) if state else None


def sentence(text: str) -> str:
    """``text`` with no period right after an ellipsis: a sentence that ends on a name cut short
    (:func:`trim`) ends with the ellipsis alone.

    >>> sentence("Closed by Maximilian-Alexander-Wolfgang-Amadeus-Jo….")
    'Closed by Maximilian-Alexander-Wolfgang-Amadeus-Jo…'
    """
    return text.replace("….", "…")


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
