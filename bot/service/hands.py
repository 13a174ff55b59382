"""Players' private hands: answered through interactions, then kept up to date in the background.

A player's latest hand message is an ephemeral answer that only its interaction's token can
edit, for 15 minutes. It is redrawn only when what it shows changes: at once when its owner can
act, or can no longer act; while they only watch (`render.watching`: the hand shows their cards,
not the table), `HAND_SETTLE_SECONDS` after the others' moves, and only if their cards (or a
hand shown to them) changed meanwhile, which a swap, a Flip or a penalty does, and the others'
turns mostly do not (docs/performance/discord-layer.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import discord

from bot import render
from bot.art.pictures import ArtFace, cards_picture, hand_picture, row_picture, table_picture
from bot.client.components import digest, release
from bot.client.errors import reader
from bot.client.internals import edit_original_messages, respond_with_message
from bot.engine.cards import Card, Color, Face, Side
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DosGame
from bot.engine.editions import AnyAction, edition_of
from bot.engine.game import Game
from bot.i18n import Tr
from bot.render.faces import TEXT_ONLY, Faces
from bot.service.updates import Updates
from bot.tables import Table, TableState

HAND_TOKEN_SECONDS = 14 * 60  # interaction tokens last 15 minutes
# A watching hand waits this long for more changes before it is drawn again and compared with
# what it shows: the others' quick moves make one drawing, not one each, and a change of its
# owner's cards (a swap, a Flip) shows about as soon as on the table message (`TABLE_SPACING`).
# A call is made only for such a change, so this costs drawing time alone (5 s while every
# redraw was a call; docs/performance/discord-layer.md).
HAND_SETTLE_SECONDS = 1.0
NONE = discord.AllowedMentions.none()


class OpenHand(NamedTuple):
    """The hand a player was answered with last: its interaction's webhook (whose token edits the
    message for 15 minutes), when it was answered, the table's version it shows, the language
    of the user who opened it (their ``interaction.locale``), which its background refreshes keep,
    and, if it shows a watching hand (`render.watching`), a digest of its content (`digest`; None
    otherwise), which a redraw to the same content is not sent for.

    Not the interaction itself: it holds the whole clicked message, which would outlive many
    collections for nothing and make the collector's full passes more frequent.
    """

    webhook: discord.Webhook
    since: float
    version: int
    tr: Tr
    shown: int | None = None

    @property
    def expired(self) -> bool:
        """Whether its token may no longer edit or delete the message."""
        return time.monotonic() - self.since > HAND_TOKEN_SECONDS


class Hands:
    """Every player's open hand, by (channel id, player id); ``internals``: answered and edited
    through discord.py's internals (`bot.client.internals`), else its public API."""

    def __init__(self, updates: Updates, faces: Faces = TEXT_ONLY, *, internals: bool = True) -> None:
        self.updates = updates
        self.faces = faces
        self.internals = internals
        self.open: dict[tuple[int, str], OpenHand] = {}

    async def respond(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        player: str,
        *,
        page: int = 0,
        pick: AnyAction | None = None,
        notice: str = "",
        new: bool = False,
    ) -> None:
        """Answer ``interaction`` with the player's hand, and keep that message up to date from
        now on: the clicked hand redrawn, or with ``new`` a new private message (``/uno hand``,
        My hand), which replaces the one shown before.

        Raises:
            discord.HTTPException: Discord refused the answer.
        """
        version = table.version
        tr = reader(interaction)
        view = render.hand(table, player, tr, page=page, pick=pick, notice=notice, faces=self.faces)
        shown = digest(view) if render.watching(table, player) else None
        previous = self.open.get((table.channel_id, player))
        if interaction.response.is_done() and not new:
            await edit_original_messages([interaction.followup], view, internals=self.internals)
        else:
            await respond_with_message(interaction, view, new=new, internals=self.internals)
        if new and previous is not None:  # one hand message at a time: the one this replaces goes
            self.updates.spawn(_delete(previous))
        self.open[(table.channel_id, player)] = OpenHand(
            interaction.followup, time.monotonic(), version, tr, shown
        )
        if table.version != version:  # changed while the answer was on its way
            self.refresh(table)

    async def picture(self, interaction: discord.Interaction[Any], table: Table, player: str) -> None:
        """Answer ``interaction`` privately with the player's hand and the table as pictures
        (``hand.png``, ``table.png``: `bot.art.pictures`; a DOS table's is its Center Row), as the
        table is now. Acknowledged first (a private "thinking" answer), then drawn off the event
        loop, which a picture would hold for tens of milliseconds (docs/card-art.md, "Pictures").

        Raises:
            discord.HTTPException: Discord refused the acknowledgement or the answer.
        """
        game = table.game
        assert game is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        tr = reader(interaction)
        # The hand in the order its text and buttons show it (`render.hand_cards`).
        cards = render.hand_cards(game, player)
        caption = render.count(len(cards), "card", tr)
        draw = _DRAWINGS[edition_of(game).family](game, cards, caption, tr)
        pictures = await asyncio.to_thread(draw)
        files = [discord.File(io.BytesIO(data), filename=name) for name, data in pictures.items()]
        await interaction.followup.send(
            tr._("Your hand at {channel}").format(channel=f"<#{table.channel_id}>"),
            files=files,
            ephemeral=True,
            allowed_mentions=NONE,
        )

    def refresh(self, table: Table) -> None:
        """Bring the open hands that show an older state up to date (in the background): at
        once where their owner can act, or could when it was drawn; a hand that watched and
        still watches after `HAND_SETTLE_SECONDS`, and only if what it shows changed (`_show`).
        A closed table's hands, and those of players who left, get a last update without
        buttons."""
        for seat in table.seats:
            key = (table.channel_id, seat.id)
            hand = self.open.get(key)
            if hand is not None and (hand.version != table.version or closed(table, seat.id)):
                watched = hand.shown is not None and render.watching(table, seat.id)
                settle = HAND_SETTLE_SECONDS if watched else 0.0
                self.updates.ask(key, functools.partial(self._show, table, seat.id), settle=settle)

    def let_go(self, table: Table, player: str) -> None:
        """Give the open hand of ``player``, whose seat is no longer theirs (handed to a bot,
        docs/rules.md §5.3), its last update without buttons (in the background): :meth:`refresh`
        sees only the seats at the table."""
        key = (table.channel_id, player)
        if key in self.open:
            self.updates.ask(key, functools.partial(self._show, table, player), settle=0.0)

    async def _show(self, table: Table, player: str) -> None:
        """Show the player's open hand as the table is now, unless it shows that already (the
        same version, or a watching hand's same content); a closed hand (see :func:`closed`) is
        shown once more, then forgotten."""
        key = (table.channel_id, player)
        hand, game = self.open.get(key), table.game
        done = closed(table, player)
        if hand is None or game is None or (hand.version == table.version and not done):
            return
        if done or hand.expired:
            del self.open[key]
        if hand.expired:
            return
        version = table.version
        view = render.hand(table, player, hand.tr, faces=self.faces)
        shown = digest(view) if render.watching(table, player) else None
        if shown is not None and shown == hand.shown:
            release(view)  # the same message: no call
        else:
            await edit_original_messages([hand.webhook], view, internals=self.internals)
        if self.open.get(key) is hand:  # not answered meanwhile
            self.open[key] = hand._replace(version=version, shown=shown)


def _uno_drawing(game: Game, cards: list[Card], caption: str, tr: Tr) -> Callable[[], dict[str, bytes]]:
    """The pictures of an UNO hand (``cards``) and its table's top card to draw, as the game is
    now: it may change while they are drawn."""
    side, top, color = game.side, game.top, game.color
    if game.variant.two_sided:
        side_name = tr._(game.variant.side_names[side is Side.DARK])
        caption += " · " + tr._("{side} side").format(side=side_name)
    return functools.partial(_pictures, cards, side, top, color, caption, tr._("Top card"))


def _dos_drawing(game: DosGame, cards: list[DosCard], caption: str, tr: Tr) -> Callable[[], dict[str, bytes]]:
    """The pictures of a DOS hand (``cards``) and the Center Row to draw, as the game is now."""
    piles = [list(pile) for pile in game.row]
    return functools.partial(_dos_pictures, cards, piles, caption, tr._("Center Row"))


_DRAWINGS: dict[str, Callable[[Any, Any, str, Tr], Callable[[], dict[str, bytes]]]] = {
    "uno": _uno_drawing,
    "dos": _dos_drawing,
}
"""Each family of editions' hand pictures (``Edition.family``)."""


def _pictures(
    cards: list[Card], side: Side, top: Face, color: Color | None, caption: str, top_caption: str
) -> dict[str, bytes]:
    """The PNGs of a hand and of the table's top card (with the current color), by file name,
    with their captions (in the player's language)."""
    return {
        "hand.png": hand_picture(cards, side, caption=caption),
        "table.png": table_picture(top, side, color, caption=top_caption),
    }


def _dos_pictures(
    cards: list[DosCard], piles: list[list[DosCard]], caption: str, row_caption: str
) -> dict[str, bytes]:
    """The PNGs of a DOS hand and of the Center Row, by file name, with their captions."""
    faces: list[ArtFace] = [(card, Side.LIGHT) for card in cards]
    return {
        "hand.png": cards_picture(faces, caption=caption),
        "table.png": row_picture(piles, caption=row_caption),
    }


def closed(table: Table, player: str) -> bool:
    """Whether the player's hand has nothing more to offer: the table is closed, or they left."""
    return table.state is TableState.OVER or table.game is None or player not in table.game.hands


async def _delete(hand: OpenHand) -> None:
    """Delete a hand message while its token lasts (after that it stays, and its buttons are
    refused as out of date)."""
    if hand.expired:
        return
    with contextlib.suppress(discord.HTTPException):
        await hand.webhook.delete_message("@original")  # type: ignore[arg-type]  # Discord API
