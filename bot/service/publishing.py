"""Publishing: every public message of a table (lobby, table, pings, summaries), always after the
table's lock is released.

Each message is updated in the background through `Updates` (one update in flight per message,
the latest state wins). The few bookkeeping changes publishing makes (the id of a new table
message or ping) are saved under the lock, with no Discord call inside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.utils import MISSING

from bot import render
from bot.client import pacing
from bot.client.components import digest, release
from bot.client.internals import edit_channel_message, edit_original_messages, post_message
from bot.i18n import N_, translator
from bot.render.faces import Faces
from bot.service.acting import Acting, After, NotSaved, Post
from bot.service.registry import TableRegistry
from bot.service.updates import Updates
from bot.settings import GameDefaults
from bot.tables import NoTable, TableState

if TYPE_CHECKING:
    from bot.client.pacing import GlobalPace
    from bot.tables import Table

log = logging.getLogger(__name__)
NONE = discord.AllowedMentions.none()
TABLE, LOBBY, PING = "table", "lobby", "ping"  # keys of a table's updates (with its channel)
# At most one edit of a table message per this many seconds: the changes meanwhile go in the
# next one, so the message is never further behind the game than this (plus the edit's own
# trip), and a busy table stays within Discord's rate limits (docs/performance/discord-layer.md).
TABLE_SPACING = 1.0


class Publisher:
    """The public messages of every table (see the module's docstring).

    Args:
        client: the discord client (the channels, for sending).
        updates: where each message's updates run, one in flight per message.
        tables: every table, with its lock (a new message's id is saved under it).
        acting: the changes of tables (a new message's id saved; a game that can't go on ended).
        defaults: the settings' game defaults (``ping_after_seconds``, ``ai_delay_seconds``).
        faces: the cards' emojis, shown in the table message.
        pace: the client's pace of the calls Discord's global limit counts (None: none).
        internals: use discord.py's internals where they save work (`bot.client.internals`).
        after: what follows a change (a game ended here).
    """

    def __init__(
        self,
        client: discord.Client,
        updates: Updates,
        tables: TableRegistry,
        acting: Acting,
        defaults: GameDefaults,
        faces: Faces,
        pace: GlobalPace | None,
        *,
        internals: bool,
        after: After,
    ) -> None:
        self.client = client
        self.updates = updates
        self.tables = tables
        self.acting = acting
        self.defaults = defaults
        self.faces = faces
        self.pace = pace
        self.internals = internals
        self.after = after
        self._posting: dict[int, asyncio.Future[None]] = {}
        self._answers: dict[int, list[discord.Webhook]] = {}
        self._ping_timers: dict[int, asyncio.TimerHandle] = {}
        self._shown_turn: dict[int, str | None] = {}  # the player each table message names
        self._shown: dict[int, tuple[int, int]] = {}  # each table message's id and `digest`

    def channel(self, table: Table) -> discord.PartialMessageable:
        """The table's channel, for sending (no cache needed)."""
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id or None)

    def publish(self, table: Table, *, repost: bool = False) -> None:
        """Bring the table's message up to date in the background: the lobby message before the
        start (with ``repost``, posted if it has none), then the table message (posted if it has
        none; with ``repost``, also if it is gone, as after a restart)."""
        if table.game is not None:
            self.updates.ask(
                (table.channel_id, TABLE),
                lambda: self._show_table(table, repost=repost),
                settle=self._table_settle(table),
                spacing=TABLE_SPACING,
            )
        elif table.state is TableState.LOBBY:
            self.updates.ask((table.channel_id, LOBBY), lambda: self._show_lobby(table, post=repost))

    def _table_settle(self, table: Table) -> float:
        """How long a table edit waits for more changes (at most `TABLE_SPACING`, so the
        message is never further behind): while a computer seat that plays faster than that is
        to act, its move goes in the same edit; while the player the message names still acts
        (a draw, then a play), their next move does too. None for a human whose turn begins
        (they are waiting for it) or a press answered in place."""
        game = table.game
        if game is None or table.state is not TableState.PLAYING or game.round_over:
            return 0.0
        player = game.pending.player
        seat = table.seat(player or "")
        if seat is None or table.channel_id in self._answers:
            return 0.0
        if seat.is_ai:
            return TABLE_SPACING if self.defaults.ai_delay_seconds < TABLE_SPACING else 0.0
        return TABLE_SPACING if self._shown_turn.get(table.channel_id) == player else 0.0

    def show_lobby_over(self, table: Table, message_id: int | None, title: str, footer: str = "") -> None:
        """Show the lobby message as over (`render.lobby_over`), in the background; ``title`` and
        ``footer`` in the table's language already."""
        if message_id is not None:
            view = render.lobby_over(table, title, translator(table.language), footer)
            self.updates.ask((table.channel_id, LOBBY), lambda: self.edit(table, message_id, view))

    def answer_in_place(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        """Answer a press on the table message (UNO!, Catch; acknowledged by a deferred update)
        with that message updated: the next update of the table, which `publish` asks for and
        which renders the table as it is when it runs, edits it through the press's token. A
        press on an older table message is left with its acknowledgement."""
        if interaction.message is not None and interaction.message.id == table.message_id:
            self._answers.setdefault(table.channel_id, []).append(interaction.followup)

    async def _show_lobby(self, table: Table, *, post: bool = False) -> None:
        """Edit the lobby message; with ``post``, post it if it has none (a restart after the
        lobby was saved and before its message was: `/uno new` posts it otherwise)."""
        if table.state is not TableState.LOBBY:
            return
        if table.message_id is not None:
            await self.edit(table, table.message_id, render.lobby(table, translator(table.language)))
        elif post:
            view = render.lobby(table, translator(table.language))
            with pacing.first():
                message = await self.channel(table).send(view=view, allowed_mentions=NONE)
            async with self.tables.lock(table.channel_id):
                table.message_id = message.id
                await self.acting.save(table)

    async def _show_table(self, table: Table, *, repost: bool = False) -> None:
        """Edit the table message, or post it if it has none (or, with ``repost``, if it is gone);
        not if it shows the table as it is already (an update asked for by a change that the
        one before it had drawn: the game changes under the table's lock, and the update that
        change asks for comes after the lock), unless with ``repost``, which checks that it is
        still there. A table message deleted during play ends the game."""
        answers = self._answers.pop(table.channel_id, [])  # answered with the table as rendered
        # Drawn once the call may go (a press's own token is not paced): what waited is not stale.
        pace = None if answers and table.message_id is not None else self.pace
        async with pacing.ahead(pace):
            await self._send_table(table, answers, repost=repost)

    async def _send_table(
        self, table: Table, answers: list[discord.Webhook], *, repost: bool = False
    ) -> None:
        self.updates.drawing((table.channel_id, TABLE))
        if table.game is None:
            return
        tr = translator(table.language)
        view = render.table(table, tr, self.faces)
        self._shown_turn[table.channel_id] = table.game.pending.player
        shown = digest(view)
        if not (answers or repost) and self._shown.get(table.channel_id) == (table.message_id, shown):
            release(view)
            return
        shown_in = table.message_id
        try:
            if answers and shown_in is not None:
                try:
                    await edit_original_messages(answers, view, internals=self.internals)
                except discord.HTTPException:  # the press's token: the table message is edited alone
                    await self.edit(table, shown_in, render.table(table, tr, self.faces))
            elif shown_in is None:
                message = await self.channel(table).send(view=view, allowed_mentions=NONE)
                shown_in = message.id
                async with self.tables.lock(table.channel_id):  # not in the middle of a move
                    table.message_id = message.id
                    await self.acting.save(table)
            else:
                await self.edit(table, shown_in, view)
            self._shown[table.channel_id] = (shown_in, shown)
        except discord.NotFound:
            if repost and table.message_id is not None:
                table.message_id = None
                await self._show_table(table)
                return
            await self._abandon(table, N_("The table message was deleted, so the game has ended."))
        except discord.Forbidden:
            await self._abandon(
                table, N_("I lost permission to post in this channel, so the game has ended.")
            )
        finally:
            if table.state is TableState.OVER:  # its last edit: nothing left to compare it with
                self._shown.pop(table.channel_id, None)
                self._shown_turn.pop(table.channel_id, None)

    async def _abandon(self, table: Table, why: str) -> None:
        """End the game, which can't go on in its channel, and say ``why`` there (English, said
        in the table's language)."""
        try:
            async with self.acting.change(table.channel_id) as change:
                if change.table is not table or table.state is TableState.OVER:
                    change.nothing()
                    return
                log.warning("table %s ended: %s", table.channel_id, why)
                change.abandon(translator(table.language)._(why))
        except (NoTable, NotSaved):  # ended meanwhile; or kept as saved, to end at its next update
            return
        await self.say(table, change.posts)
        self.after(change, publish=False)

    async def edit(self, table: Table, message_id: int, view: discord.ui.LayoutView) -> None:
        """Edit one of the bot's messages in the table's channel to the Components V2 ``view``
        (`bot.client.internals.edit_channel_message`: no `discord.Message` made of the response).
        A message posted before Components V2 (a game restored after an upgrade) becomes one: its
        text and embed are taken away in the same edit. Paced before pings and announcements
        (`bot.client.pacing.first`).

        Raises:
            discord.HTTPException: Discord refused the edit (NotFound: the message is gone).
        """
        with pacing.first():
            await edit_channel_message(
                self.client, table.channel_id, message_id, view=view, internals=self.internals
            )

    async def say(self, table: Table, posts: Sequence[Post]) -> None:
        """Say ``posts`` in the table's channel, in order, after what was said before there (a
        refused post is skipped). Awaited before the change's interaction is answered, so a
        game's result is in the channel before anyone is told their move was made."""
        if not posts:
            return
        channel_id = table.channel_id
        previous = self._posting.get(channel_id)
        said = self._posting[channel_id] = asyncio.get_running_loop().create_future()
        try:
            if previous is not None:
                await asyncio.shield(previous)
            for post in posts:
                with contextlib.suppress(discord.HTTPException):
                    channel = self.channel(table)
                    if isinstance(post.view, discord.ui.LayoutView):  # Components V2: no content
                        await channel.send(view=post.view, allowed_mentions=NONE)
                    else:
                        await channel.send(
                            post.content,
                            view=MISSING if post.view is None else post.view,
                            allowed_mentions=NONE,
                        )
                release(post.view)
        finally:
            said.set_result(None)
            if self._posting.get(channel_id) is said:
                del self._posting[channel_id]

    def delete(self, table: Table, message_id: int) -> None:
        """Delete one of the bot's messages in the table's channel (in the background; one that
        is gone already is fine)."""

        async def delete() -> None:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(table).get_partial_message(message_id).delete()

        self.updates.spawn(delete())

    def ping(self, table: Table) -> None:
        """Ping the human to act once the table has not changed for the settings'
        ``ping_after_seconds`` (a player who plays on needs no ping: their open hand and the
        table message say it is their move, and a ping costs two calls, its post and its
        deletion when the turn is over), unless they were pinged for this turn; and delete a
        ping that names a player whose turn is over at once (in the background)."""
        channel_id = table.channel_id
        timer = self._ping_timers.pop(channel_id, None)
        if timer is not None:
            timer.cancel()
        delay = self.defaults.ping_after_seconds
        mention = _to_ping(table) is not None
        if mention and delay > 0:
            self._ping_timers[channel_id] = asyncio.get_running_loop().call_later(
                delay, self._ping_due, table
            )
        if (mention and delay <= 0) or _stale_ping(table):
            self._ping_due(table, mention=mention and delay <= 0)

    def _ping_due(self, table: Table, *, mention: bool = True) -> None:
        if mention:
            self._ping_timers.pop(table.channel_id, None)
        self.updates.ask((table.channel_id, PING), lambda: self._ping(table, mention=mention))

    async def _ping(self, table: Table, *, mention: bool = True) -> None:
        """Mention the player who must act, once per turn (their mention only; not without
        ``mention``), and delete the previous ping; with no one to mention (an AI seat acts),
        only delete the previous one, so no ping names a player whose turn is over. One ping
        job per table at a time, so none are crossed. A new ping is saved before the old one is
        deleted: after a restart, the table knows the ping still to delete. A ping deleted alone
        is forgotten with the next save (at the latest the AI's move), not saved for itself:
        after a restart in between, its second deletion finds it gone, which is harmless.
        """
        player = _to_ping(table) if mention else None
        if player is None and not _stale_ping(table):
            return
        posted = None
        if player is not None:
            allowed = discord.AllowedMentions(
                users=[discord.Object(int(player))], everyone=False, roles=False
            )
            text, view = render.ping(table, player, translator(table.language))
            posted = await post_message(  # no `discord.Message` made of the response, as `edit`
                self.client,
                table.channel_id,
                text,
                view=view,
                allowed_mentions=allowed,
                internals=self.internals,
            )
        async with self.tables.lock(table.channel_id):  # not in the middle of a move
            if table.state is not TableState.OVER:  # the table as saved, if a failed save replaced it since
                table = self.tables.get(table.channel_id) or table
            last, table.ping_message_id = table.ping_message_id, posted
            game = table.game
            table.pinged = player if player and game is not None and game.pending.player == player else ""
            if table.state is TableState.OVER:  # closed meanwhile: this ping goes too
                last, table.ping_message_id = posted, None
            if posted is not None:
                await self.acting.save(table)
        if last is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(table).get_partial_message(last).delete()


def _to_ping(table: Table) -> str | None:
    """The human who must act, unless they were pinged for this turn already."""
    game = table.game
    if game is None or game.round_over or table.state is not TableState.PLAYING:
        return None
    player = game.pending.player
    seat = table.seat(player or "")
    return player if seat is not None and not seat.is_ai and player != table.pinged else None


def _stale_ping(table: Table) -> bool:
    """Whether the ping shown names a player whose turn is over (`Table.pinged` is cleared
    when it ends)."""
    return table.ping_message_id is not None and not table.pinged
