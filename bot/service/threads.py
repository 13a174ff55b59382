"""Games in threads of their own: the pointer in the parent channel, edited with the result when
the table closes, and the end of a game whose thread (or channel) was archived or deleted.

A thread that is archived or deleted takes its game with it: the game ends as an abandoned one
(recorded as played, no winner, its finished rounds standing), and nothing is said in the thread
(a message would reopen an archived thread; a deleted one is gone), only in the pointer.
"""

from __future__ import annotations

import contextlib
import logging

import discord

from bot.client.internals import edit_channel_message
from bot.i18n import N_, translator
from bot.render.thread import pointer_over
from bot.service.acting import Acting, After, NotSaved
from bot.service.registry import TableRegistry
from bot.service.updates import Updates
from bot.tables import NoTable, Table, TableState

log = logging.getLogger(__name__)
ARCHIVED = N_("its thread was archived")
DELETED = N_("its thread was deleted")
CHANNEL_DELETED = N_("its channel was deleted")
AWAY = N_("its thread was archived or deleted while the bot was offline")


class Threads:
    """The pointers of tables in threads, and the end of a thread's game (see the module).

    Args:
        client: the discord client (the pointers' channels).
        updates: the background jobs (a pointer's edit).
        tables: every table.
        acting: the changes of tables (a thread's game ended).
        internals: use discord.py's internals where they save work (`bot.client.internals`).
        after: what follows a change.
    """

    def __init__(
        self,
        client: discord.Client,
        updates: Updates,
        tables: TableRegistry,
        acting: Acting,
        *,
        internals: bool,
        after: After,
    ) -> None:
        self.client = client
        self.updates = updates
        self.tables = tables
        self.acting = acting
        self.internals = internals
        self.after = after

    def closed(self, table: Table, why: str = "") -> None:
        """The table closed: edit its pointer (if it has one) with the result, in the
        background. ``why``: English, marked ``N_``, said in the table's language."""
        if table.parent_id is None or table.pointer_id is None:
            return
        text = pointer_over(table, translator(table.language), why)
        parent_id, pointer_id = table.parent_id, table.pointer_id

        async def edit() -> None:
            with contextlib.suppress(discord.HTTPException):  # the pointer was deleted: nothing to tell
                await edit_channel_message(
                    self.client, parent_id, pointer_id, content=text, internals=self.internals
                )

        self.updates.spawn(edit())

    async def gone(self, channel_id: int, why: str) -> None:
        """The thread (or channel) ``channel_id`` was archived or deleted: its open table ends
        as abandoned (``why`` in its log and its pointer), and every table in a thread of a
        deleted channel too. Nothing happens where no table is open."""
        ids = [channel_id]
        if why == CHANNEL_DELETED:
            ids += [t.channel_id for t in self.tables if t.parent_id == channel_id]
        for table_id in ids:
            await self._end(table_id, DELETED if table_id != channel_id else why)

    async def check(self, guild: discord.Guild) -> None:
        """``guild`` became available (its GUILD_CREATE, at start or after an outage), which lists
        every channel and every *active* thread: a table whose thread is not among them was
        archived or deleted while the bot was offline (no THREAD_UPDATE or THREAD_DELETE reached
        it), and one whose channel is not among them was deleted; each ends as in :meth:`gone`.
        Costs no Discord call."""
        for table in [t for t in self.tables if t.guild_id == guild.id]:
            if table.parent_id is not None and guild.get_thread(table.channel_id) is None:
                await self._end(table.channel_id, AWAY)
            elif table.parent_id is None and guild.get_channel(table.channel_id) is None:
                await self._end(table.channel_id, CHANNEL_DELETED)

    async def _end(self, channel_id: int, why: str) -> None:
        table = self.tables.get(channel_id)
        if table is None or table.state is TableState.OVER:
            return
        try:
            async with self.acting.change(channel_id) as change:
                table = change.table
                if table.state is TableState.OVER:
                    change.nothing()
                    return
                log.info("table %s ended: %s", channel_id, why)
                change.abandon(change.tr._("The game has ended: {why}.").format(why=change.tr._(why)))
                change.posts.clear()  # said in the pointer only (see the module)
        except (NoTable, NotSaved):  # ended meanwhile; or kept as saved, ended at its next update
            return
        self.closed(table, why)
        self.after(change, publish=False, point=False)
