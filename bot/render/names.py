"""Players' names and the text users type, as messages show them: a name :func:`plain` (escaped,
cut, right-to-left set apart) or :func:`as_label` (where Discord shows no Markdown), a bot's name
in the reader's words, a team's mark, a player or a team named at a table, why a player is out,
the running scores; text cut to a limit (:func:`trim`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

import discord

from bot.engine.editions import AnyGame
from bot.i18n import N_, Tr
from bot.storage import FORGOTTEN_NAME
from bot.tables import Removal, Table


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


REMOVAL_TEXT = {Removal.TIMEOUTS: N_("removed: timed out"), Removal.KICKED: N_("removed: kicked")}
"""How the table labels a player taken out of the game, by why (one who left is "left")."""
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
