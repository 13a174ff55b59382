"""Pure rendering: lobbies, tables, hands and events to Discord messages (the lobby, the table and
the hands and the standings as Components V2 layouts), text and components.

Nothing here changes a game; every function takes the table (and a player) and returns what to
show. Card names are the engine's (``"red draw two"``), with a color emoji before them.

============  ==================================================================================
module        what it draws
============  ==================================================================================
``faces``     card faces in words and colors: names, labels, emojis, button styles, a hand's order
``names``     players' names and the text users type, as messages show them
``options``   house rules, scoring, a channel's settings, editions' and languages' names
``words``     counts in each language's plural forms, and what the game waits for
``layout``    what the Components V2 messages are built of, within Discord's limits
``lobby``     the lobby message
``table``     the public table message, standings, round summaries
``hand``      a player's private hand and their decisions as components
``log``       the table's log lines, one per event
``dos``       a DOS table, hand and log lines (the functions below send a DOS game there)
============  ==================================================================================

Which module draws a game is its edition's family's :class:`Renderer` (:data:`RENDERERS`, keyed by
``Edition.family``): the engine knows no Discord, so the choice lives here.
"""

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import discord

from bot.engine.cards import Card
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DosGame
from bot.engine.editions import AnyAction, AnyEvent, AnyGame, edition_of
from bot.engine.game import Game
from bot.i18n import Tr
from bot.render import dos
from bot.render import hand as _hand
from bot.render import log as _log
from bot.render import table as _table
from bot.render.faces import TEXT_ONLY, Faces, cards_text, sorted_hand
from bot.render.layout import my_hand
from bot.render.lobby import lobby, lobby_over
from bot.render.log import describe
from bot.render.names import as_label, named, plain, seat_name, sentence
from bot.render.options import (
    HOUSE_RULE_HINTS,
    HOUSE_RULE_NAMES,
    edition_name,
    leaderboard_title,
    record_title,
    settings_text,
)
from bot.render.table import rematch, round_summary, standings
from bot.render.words import count, record_text
from bot.tables import Table

__all__ = [
    "HOUSE_RULE_HINTS",
    "HOUSE_RULE_NAMES",
    "RENDERERS",
    "Renderer",
    "as_label",
    "count",
    "describe",
    "edition_name",
    "hand",
    "hand_cards",
    "leaderboard_title",
    "lobby",
    "lobby_over",
    "log_lines",
    "named",
    "ping",
    "plain",
    "record_text",
    "record_title",
    "rematch",
    "renderer",
    "round_summary",
    "seat_name",
    "sentence",
    "settings_text",
    "standings",
    "table",
    "watching",
]


class Renderer(NamedTuple):
    """How the games of one family of editions are drawn (``Edition.family``)."""

    table: Callable[..., discord.ui.LayoutView]
    """The public table message: ``(tbl, tr, faces)``."""
    hand: Callable[..., discord.ui.LayoutView]
    """A player's private hand: ``(tbl, player, tr, *, page, pick, notice, faces)``."""
    watching: Callable[[Table, str], bool]
    """Whether the player can do nothing now but watch."""
    log_lines: Callable[[Table, Any, Tr], list[str]]
    """The log lines of one move's events."""
    hand_cards: Callable[[Any, str], list[Any]]
    """A player's cards (``(game, player)``) in the order their hand shows them."""
    held: Callable[[Any, str, Tr], str]
    """A player's hand as text (``(game, player, tr)``: the history's deal lines)."""
    row: Callable[[Any, Tr], list[str]]
    """What lies in the middle, as lines (``(game, tr)``: DOS's Center Row; UNO's is none, its
    start card is in its deal's log lines)."""


def _uno_hand_cards(game: Game, player: str) -> list[Card]:
    return sorted_hand(game.hands.get(player, ()), game.side)


def _dos_hand_cards(game: DosGame, player: str) -> list[DosCard]:
    return dos.sorted_hand(game.hands.get(player, ()))


def _uno_held(game: Game, player: str, tr: Tr) -> str:
    return cards_text([c.name for c in game.hands[player]], game.side, tr)


def _dos_held(game: DosGame, player: str, tr: Tr) -> str:
    return dos.held_text(game.hands[player], tr)


RENDERERS = {
    "uno": Renderer(
        _table.table, _hand.hand, _hand.watching, _log.log_lines, _uno_hand_cards, _uno_held, lambda g, tr: []
    ),
    "dos": Renderer(
        dos.table,
        dos.hand,
        dos.watching,
        _log.dos_log_lines,
        _dos_hand_cards,
        _dos_held,
        lambda g, tr: ["  " + dos.row_text(g, tr)],
    ),
}
"""Each family of editions' :class:`Renderer`, by ``Edition.family``."""


def renderer(game: AnyGame | None) -> Renderer:
    """The renderer of ``game``'s edition (UNO's without a game: the lobby's table)."""
    return RENDERERS["uno" if game is None else edition_of(game).family]


def table(tbl: Table, tr: Tr, faces: Faces = TEXT_ONLY) -> discord.ui.LayoutView:
    """The public table message in ``tr``'s language (`bot.render.table.table`; a DOS game's:
    `bot.render.dos.table`)."""
    return renderer(tbl.game).table(tbl, tr, faces)


def hand(
    tbl: Table,
    player: str,
    tr: Tr,
    *,
    page: int = 0,
    pick: AnyAction | None = None,
    notice: str = "",
    faces: Faces = TEXT_ONLY,
) -> discord.ui.LayoutView:
    """A player's private hand in ``tr``'s language (`bot.render.hand.hand`; a DOS game's:
    `bot.render.dos.hand`); ``pick``: an action of the game's edition."""
    return renderer(tbl.game).hand(tbl, player, tr, page=page, pick=pick, notice=notice, faces=faces)


def hand_cards(game: AnyGame, player: str) -> list[Card] | list[DosCard]:
    """The player's cards in the order their hand shows them, in its text, its buttons and its
    picture alike: an UNO hand by color, then rank, wilds last, on the active side
    (`bot.render.faces.sorted_hand`); a DOS hand by color, then number, wilds last
    (`bot.render.dos.sorted_hand`). Empty for a player who left."""
    return renderer(game).hand_cards(game, player)


def ping(tbl: Table, player: str, tr: Tr) -> tuple[str, discord.ui.View]:
    """The ping of the ``player`` to act at ``tbl``: its text, which mentions them, and a My hand
    button, which opens their hand from the ping itself (a hand they opened before a restart
    can't be brought up to date: its interaction's token is gone with the process)."""
    text = tr._("{mention}, it's your move at the {edition} table.").format(
        mention=f"<@{player}>", edition=edition_name(tbl.variant, tr)
    )
    view = discord.ui.View(timeout=None)
    view.add_item(my_hand(tbl.channel_id, tr))
    return text, view


def watching(tbl: Table, player: str) -> bool:
    """Whether the player can do nothing now but watch, their hand then showing only what
    changes for them (`bot.render.hand.watching`; a DOS game's: `bot.render.dos.watching`);
    False without a game."""
    return tbl.game is not None and renderer(tbl.game).watching(tbl, player)


def log_lines(tbl: Table, events: Sequence[AnyEvent], tr: Tr) -> list[str]:
    """The log lines of one move's events in ``tr``'s language (`bot.render.log.log_lines`; DOS's:
    `bot.render.log.dos_log_lines`)."""
    return renderer(tbl.game).log_lines(tbl, events, tr)
