"""What the Components V2 messages (the lobby, the table, a hand) are built of: a colored
container holding a heading (with a card's picture beside it when there is one), text blocks
and action rows (and what every edition's hand shows alike: its heading, its cards' block, its
last row, Back), within Discord's limits (40 components, nested ones counted; 4,000 characters
of text in all: https://discord.com/developers/docs/components/reference)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoButton, layout_of
from bot.engine.cards import Face, Side
from bot.engine.editions import AnyGame
from bot.i18n import Tr
from bot.render.faces import Faces
from bot.render.names import trim
from bot.render.words import count
from bot.tables import Table, TableState

MAX_COMPONENTS = 40
MAX_TEXT = 4000
HAND_TEXT = 2800
"""Characters a hand's card list may take with its cards' emojis (an emoji's ``<:name:id>`` costs
30-40), of the message's `MAX_TEXT`: past it the list is text alone. About 30 two-sided cards
with their backs; the rest is the heading, the Center Row and any hand shown to the player."""
ROW_WIDTH = 5  # buttons in an action row (a select fills one alone)
SELECT_PAGE = 25
"""A select's options at most (Discord's limit): a longer list is shown a page at a time (`paged`)."""
ACCENT = 0xD72600  # the editions' accent: the lobby's and the standings' container
Item = discord.ui.Item[Any]
T = TypeVar("T")


def block(title: str, text: str) -> str:
    """A titled block of text: ``"**Players**\\n…"``."""
    return f"**{title}**\n{text}"


def small(text: str) -> str:
    """One line in Discord's small grey text (``-#``), as an embed's footer was."""
    return "-# " + text.replace("\n", " ")


def picture(face: Face, side: Side, faces: Faces) -> str | None:
    """The address of ``face``'s card picture as drawn for ``side`` (its emoji's image on the
    CDN), or None when it has no emoji."""
    emoji = faces.for_face(face, side)
    return emoji.url if emoji is not None and emoji.id else None


def heading(text: str, image: str | None = None, description: str | None = None) -> Item:
    """``text`` with the picture at ``image`` on its right (a section with a thumbnail;
    ``description`` is its alternative text), or alone."""
    shown: discord.ui.TextDisplay[Any] = discord.ui.TextDisplay(text)
    if image is None:
        return shown
    return discord.ui.Section(shown, accessory=discord.ui.Thumbnail(image, description=description))


def my_hand(ch: int, tr: Tr) -> UnoButton:
    """The My hand button of the table in channel ``ch`` (on its message and on a ping): opens
    the clicker's hand privately."""
    return UnoButton(
        Click(Scope.TABLE, ch, 0, Verb.SHOW_HAND),
        label=tr._("My hand"),
        emoji="🃏",
        style=discord.ButtonStyle.primary,
    )


def hand_top(tbl: Table, game: AnyGame, player: str, tr: Tr, notice: str) -> str:
    """A hand's first lines, in every edition: ``"Your hand at <#…>"``, the ``notice`` (why a
    click was refused), and its heading (how many cards, or "Not in this game")."""
    title = (
        tr._("Not in this game") if player not in game.hands else count(len(game.hands[player]), "card", tr)
    )
    notice = f"\n{notice}" if notice else ""
    return tr._("Your hand at {channel}").format(channel=f"<#{tbl.channel_id}>") + notice + f"\n### {title}\n"


def cards_block(listed: str, tr: Tr) -> str:
    """The block of a hand's cards (``listed``: one a line, or joined), cut to `HAND_TEXT`."""
    return block(tr._("Your cards"), trim(listed or tr._("none"), HAND_TEXT))


def hand_buttons(tbl: Table, game: AnyGame, player: str, tr: Tr, call: str | None) -> list[Item]:
    """A hand's last row, in every edition: the edition's call (``call``: its action's text,
    ``"uno"`` or ``"dos"``, labelled in capitals; None: not open to the player now) and Refresh while the round goes on, Show
    as picture while the player is in the game."""
    ch, closed = tbl.channel_id, player not in game.hands or tbl.state is TableState.OVER
    items: list[Item] = []
    if not closed and not game.round_over:
        if call is not None:
            label = call.upper() + "!"
            click = Click(Scope.HAND, ch, tbl.version, Verb.ACT, call)
            items.append(UnoButton(click, label=label, style=discord.ButtonStyle.danger, row=4))
        items.append(
            UnoButton(Click(Scope.HAND, ch, 0, Verb.REFRESH), label=tr._("Refresh"), emoji="🔄", row=4)
        )
    if not closed:  # the picture shows the table as it is when pressed: no version to refuse
        items.append(
            UnoButton(Click(Scope.HAND, ch, 0, Verb.PICTURE), label=tr._("Show as picture"), emoji="🖼️", row=4)
        )
    return items


def back_button(tbl: Table, tr: Tr) -> UnoButton:
    """Back, from the second step of a play (a color, a player to pick) to the hand."""
    return UnoButton(Click(Scope.HAND, tbl.channel_id, tbl.version, Verb.BACK), label=tr._("Back"), row=1)


def rows(items: Iterable[Item]) -> list[discord.ui.ActionRow[Any]]:
    """``items`` in action rows: grouped by their ``row`` (in its order; None last), a group
    wider than a row continued on the next, a select alone in its row."""
    return [discord.ui.ActionRow(*group) for group in _grouped(items)]


def rows_size(items: Iterable[Item]) -> int:
    """How many components ``items`` make in `rows` (theirs and the rows')."""
    groups = _grouped(items)
    return len(groups) + sum(map(len, groups))


def _grouped(items: Iterable[Item]) -> list[list[Item]]:
    by_row: dict[int, list[Item]] = {}
    for item in items:
        row = _row(item)
        by_row.setdefault(10_000 if row is None else row, []).append(item)
    groups: list[list[Item]] = []
    for key in sorted(by_row):
        width = ROW_WIDTH  # of the row being filled: none yet
        for item in by_row[key]:
            if width + item.width > ROW_WIDTH:
                groups.append([])
                width = 0
            groups[-1].append(item)
            width += item.width
    return groups


def _row(item: Item) -> int | None:
    """The row ``item`` asked for. discord.py keeps a select's row apart from the one a
    ``DynamicItem`` reads (a select's ``row`` is ignored in Components V2), so a wrapped select's
    own is asked for: without it every select went after every button (a DOS hand's match select
    below Draw, DOS! and Refresh)."""
    if item.row is not None:
        return item.row
    wrapped = getattr(item, "item", None)
    return getattr(wrapped, "row", None) if isinstance(wrapped, discord.ui.Item) else None


def paged(tbl: Table, entries: Sequence[T], page: int, tr: Tr) -> tuple[Sequence[T], list[Item]]:
    """A hand's select, a page at a time: page ``page`` (from 0, kept within the pages there are)
    of ``entries``, `SELECT_PAGE` of them, and the buttons between its pages in row 1: ◀, the
    page the player is on (``"Page 2 of 3"``, disabled: it only says so, on a phone too) and ▶;
    none for a single page. Each arrow's ``pg`` answer redraws the hand at its page."""
    pages = max(1, -(-len(entries) // SELECT_PAGE))
    page = max(0, min(page, pages - 1))
    shown = entries[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
    if pages == 1:
        return shown, []
    ch, v = tbl.channel_id, tbl.version
    where = tr._("Page {page} of {pages}").format(page=page + 1, pages=pages)
    return shown, [
        UnoButton(Click(Scope.HAND, ch, v, Verb.PAGE, str(page - 1)), label="◀", disabled=page == 0, row=1),
        UnoButton(Click(Scope.HAND, ch, v, Verb.PAGE, str(page)), label=where, disabled=True, row=1),
        UnoButton(
            Click(Scope.HAND, ch, v, Verb.PAGE, str(page + 1)), label="▶", disabled=page >= pages - 1, row=1
        ),
    ]


def size(items: Iterable[Item]) -> int:
    """How many components ``items`` are, nested ones counted (as Discord counts them)."""
    total = 0
    for item in items:
        total += 1
        walk = getattr(item, "walk_children", None)
        if walk is not None:
            total += sum(1 for _ in walk())
    return total


def fit(texts: list[str], limit: int = MAX_TEXT) -> list[str]:
    """``texts`` cut so that together they hold at most ``limit`` characters: the last ones
    first (each keeps its start, ending in "…")."""
    shown = list(texts)
    over = sum(map(len, shown)) - limit
    for n in range(len(shown) - 1, -1, -1):
        if over <= 0:
            break
        keep = max(len(shown[n]) - over, 1)
        over -= len(shown[n]) - keep
        shown[n] = trim(shown[n], keep) if keep > 1 else "…"
    return shown


def message(accent: int, top: list[Item], texts: list[str], bottom: list[Item]) -> discord.ui.LayoutView:
    """One container in ``accent``: the ``top`` items (a heading, maybe action rows), the
    ``texts`` as text blocks (cut to fit with the top's text, `fit`), then the ``bottom`` items
    (action rows)."""
    used = sum(len(c.content) for i in top for c in _texts(i))
    body: list[Item] = [discord.ui.TextDisplay(t) for t in fit([t for t in texts if t], MAX_TEXT - used)]
    container = discord.ui.Container(*top, *body, *bottom, accent_colour=accent)
    return layout_of(container)


def panel(title: str, texts: list[str], bottom: Iterable[Item] = ()) -> discord.ui.LayoutView:
    """A titled answer in the editions' accent: ``title`` as its ``###`` heading, the ``texts``
    as text blocks (cut to fit, `message`), then the ``bottom`` items (action rows, a media
    gallery, a small note)."""
    return message(ACCENT, [heading(f"### {trim(title, 256)}")], texts, list(bottom))


def _texts(item: Item) -> list[discord.ui.TextDisplay[Any]]:
    if isinstance(item, discord.ui.TextDisplay):
        return [item]
    children = getattr(item, "walk_children", None)
    return [c for c in children() if isinstance(c, discord.ui.TextDisplay)] if children else []
