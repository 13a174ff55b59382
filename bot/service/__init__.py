"""The table service: every lobby and game of the bot, by concern.

=========================  ==================================================================
module                     its one job
=========================  ==================================================================
``opening.py``             a lobby opened: ``/uno new`` (or again: its options), Rematch
``lobby.py``               the open lobby: seats, options, the start
``channels.py``            the channels' defaults for new lobbies: ``/uno settings``
``leaving.py``             leaving and removals: ``/uno leave``, ``/uno kick``, a seat to a bot
``commands.py``            the game's other ``/uno`` commands: end, hands, table, forget-me
``interactions.py``        what every body does first: acknowledge, find the channel
``dispatch.py``            what a click on a component means; the error funnel for clicks
``moves.py``               a click's move: made under the lock, answered within 3 seconds
``acting.py``              a change of a table under its lock: validate, apply, save, or roll
                           back (:class:`Acting`, :class:`Change`)
``publishing.py``          the public messages: lobby, table, pings, summaries
``hands.py``               players' private hands, answered and kept up to date
``history.py``             ``/uno history``: past games, their rounds and their text files
``records.py``             ``/uno leaderboard`` and ``/uno stats``
``updates.py``             background jobs; message updates one in flight per message
``scheduling.py``          AI moves, turn timers, lobby expiry
``threads.py``             games in threads: the parent's pointer, archived or deleted threads
``leases.py``              which bot process acts on a table (its lease), so it has one owner
this module                the front: wiring, what follows a change, restore and shutdown
=========================  ==================================================================

Each part gets the collaborators it uses as its constructor's arguments, never the service:
:class:`TableService` builds them in order, and is the one place that wires them. What follows a
change (:meth:`TableService.after`) needs most parts, and most parts start it: they get it as a
callback (`bot.service.acting.After`).

A change runs under the table's lock and makes no Discord call; the answer to the interaction
and every message it implies come after the lock is released (:meth:`TableService.after`).
Rendering is in ``bot/render/``; the cog and the components only parse input and call in here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Set

import discord

from bot.client.pacing import GlobalPace
from bot.engine.errors import BadState, UnoError
from bot.i18n import translator
from bot.render.faces import TEXT_ONLY, Faces
from bot.service.acting import Acting, Change
from bot.service.channels import Channels
from bot.service.commands import Commands
from bot.service.dispatch import Dispatch
from bot.service.hands import Hands
from bot.service.history import History
from bot.service.leases import Leases
from bot.service.leaving import Leaving
from bot.service.lobby import Lobby
from bot.service.moves import Moves
from bot.service.opening import Opening
from bot.service.publishing import LOBBY, PING, TABLE, Publisher
from bot.service.records import Records
from bot.service.registry import TableRegistry
from bot.service.scheduling import Scheduler
from bot.service.threads import Threads
from bot.service.updates import Updates
from bot.settings import GameDefaults
from bot.storage import Storage
from bot.tables import Table, TableState

log = logging.getLogger(__name__)
CLOSE_SECONDS = 5.0  # how long a shutdown waits for moves in progress and message updates


class TableService:
    """Lobbies and games in every channel the bot serves.

    Args:
        client: the discord client (for channels and messages).
        storage: where tables, results and channel settings are kept.
        defaults: the settings' game defaults.
        faces: the cards' emojis (``bot.card_emojis``), shown in the table and the hands.
        pace: the client's pace of the calls Discord's global limit counts (`bot.client.pacing.install`;
            None: none): the table messages take their turn before they are drawn.
        internals: use discord.py's internals where they save work (`bot.client.internals`; the
            ``discord.internals`` setting); False: its public API only.

    Attributes:
        opening: ``/uno new`` and Rematch (the cog and dispatch call them).
        lobby: the open lobby's commands and buttons (the cog and dispatch call them).
        channels: ``/uno settings`` and the channels' defaults (the cog calls them).
        leaving: ``/uno leave``, ``/uno kick`` and their buttons (the cog and dispatch call them).
        commands: the game's other ``/uno`` commands (the cog calls them).
        history: ``/uno history`` and its select.
        records: ``/uno leaderboard`` and ``/uno stats``.
        dispatch: clicks on components (the components call it).
    """

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        defaults: GameDefaults,
        faces: Faces = TEXT_ONLY,
        pace: GlobalPace | None = None,
        *,
        internals: bool = True,
    ) -> None:
        self.storage = storage
        self.defaults = defaults
        self.tables = TableRegistry()
        self.updates = Updates()
        self.set_aside: dict[int, str] = {}
        """Channels whose saved table could not be read at the last start, and why."""

        # What follows a change needs the parts built below, and most of them start it: they get
        # this one callback (`After`), which looks `after` up when called, once every part exists.
        def after(change: Change, *, publish: bool = True, point: bool = True) -> None:
            self.after(change, publish=publish, point=point)

        self.hands = Hands(self.updates, faces, internals=internals)
        # A change rolled back starts its table's timed work again (the scheduler, built below).
        self.acting = Acting(self.tables, storage, rolled_back=lambda table: self.scheduler.schedule(table))
        self.publisher = Publisher(
            client,
            self.updates,
            self.tables,
            self.acting,
            defaults,
            faces,
            pace,
            internals=internals,
            after=after,
        )
        self.scheduler = Scheduler(self.tables, self.acting, self.publisher, self.updates, defaults, after)
        self.threads = Threads(
            client, self.updates, self.tables, self.acting, internals=internals, after=after
        )
        self.leases = Leases(
            storage,
            lambda: [t.channel_id for t in self.tables],
            self._lost,
            lambda held: self.restore(only=held),
        )
        """This process's table leases: a table is restored or opened only once its lease is held."""
        self.channels = Channels(storage, defaults, self.acting, self.publisher)
        self.opening = Opening(
            self.tables,
            storage,
            self.acting,
            self.publisher,
            self.scheduler,
            self.leases,
            self.channels,
            self.set_aside,
        )
        self.lobby = Lobby(self.acting, self.publisher, defaults, after)
        self.leaving = Leaving(self.tables, self.acting, self.publisher, self.hands, self.lobby, after)
        self.commands = Commands(
            self.tables, storage, self.acting, self.publisher, self.hands, self.updates, self.set_aside, after
        )
        self.history = History(storage)
        self.records = Records(self.tables, storage)
        self.moves = Moves(self.acting, self.publisher, self.hands, self.updates, after)
        self.dispatch = Dispatch(
            self.tables,
            self.hands,
            self.moves,
            self.opening,
            self.lobby,
            self.leaving,
            self.commands,
            self.history,
        )
        self._serves: Callable[[int], bool] = lambda guild_id: True
        self._available: set[int] = set()  # guilds whose GUILD_CREATE came (`guild_available`)
        self._held: dict[int, list[int]] = {}  # per guild: restored tables not yet resumed

    def after(self, change: Change, *, publish: bool = True, point: bool = True) -> None:
        """What follows a change once the table's lock is released and its interaction answered
        (and its posts said, :meth:`Publisher.say`), in the background: the table message (unless
        not ``publish``: it is gone), open hands, the ping of the player to act, AI moves and
        timers; for a table the change closed, the end of its tasks and of its last ping, and
        (unless not ``point``: done already) its pointer edited with the result, for a game in
        a thread of its own."""
        table = change.table
        if change.closed:
            self.scheduler.cancel(table.channel_id)
            if change.stale_ping is not None:
                self.publisher.delete(table, change.stale_ping)
            if point:
                self.threads.closed(table)
        if table.game is None:
            return
        if publish:
            self.publisher.publish(table)
        self.hands.refresh(table)
        if table.state is TableState.PLAYING:
            self.publisher.ping(table)
            self.scheduler.schedule(table)

    async def restore(
        self, serves: Callable[[int], bool] | None = None, *, only: Set[int] | None = None
    ) -> int:
        """Reload the saved tables of the guilds this process serves (``serves(guild_id)``: those
        of its shards, `bot.client.shards.Shards.serves`; default every guild, or as at the first call)
        after a restart, each once its lease is held; returns how many were restored. Other
        processes restore the others; a table whose lease another process holds is taken once
        that lease expires (`Leases.renew` calls this with ``only`` those tables).

        Raises:
            StorageError: the tables or their leases could not be read.
        """
        if serves is not None:
            self._serves = serves
        count = 0
        # A damaged snapshot may lack its ids: it is set aside below, by whichever process reads it.
        snapshots = [
            s
            for s in await self.storage.load_tables()
            if (only is None or s.get("channel_id") in only)
            and self.tables.get(s.get("channel_id", 0)) is None
            and (not isinstance(g := s.get("guild_id"), int) or self._serves(g))
        ]
        held = await self.leases.take([c for s in snapshots if isinstance(c := s.get("channel_id"), int)])
        for snapshot in snapshots:
            channel_id = snapshot.get("channel_id")
            if isinstance(channel_id, int) and channel_id not in held:
                log.warning("the table of channel %s is served by another bot process", channel_id)
                self.leases.waiting.add(channel_id)
                continue
            try:
                if "unreadable" in snapshot:
                    raise BadState(str(snapshot["unreadable"]))
                table = Table.from_snapshot(snapshot)
            except UnoError as exc:
                # Set aside, not deleted: kept for whoever looks into it, until /uno end (or a
                # new table) in its channel clears it.
                channel = snapshot.get("channel_id")
                log.error("the table of channel %s can't be read and is set aside: %s", channel, exc.message)
                if isinstance(channel, int):
                    self.set_aside[channel] = exc.message
                continue
            self.tables.put(table)
            count += 1
            if table.game is not None:
                tr = translator(table.language)  # the log is written in the table's language
                table.log.append(
                    tr._(
                        "♻️ The bot restarted; the game goes on. A hand opened before is out of date: press My hand."
                    )
                )
            if table.guild_id in self._available:
                self._resume(table)
            else:
                self._held.setdefault(table.guild_id, []).append(table.channel_id)
        return count

    async def guild_available(self, guild: discord.Guild) -> None:
        """``guild`` is available (its GUILD_CREATE, at start or after an outage): its tables
        whose thread or channel went while the bot was offline end (`Threads.check`), and the
        restored ones resume (their messages, hands, pings, timers and computer moves), which
        :meth:`restore` holds until then so that nothing is sent into a thread or channel that
        is gone."""
        self._available.add(guild.id)
        await self.threads.check(guild)
        for channel_id in self._held.pop(guild.id, []):
            table = self.tables.get(channel_id)
            if table is not None and table.state is not TableState.OVER:
                self._resume(table)

    def _resume(self, table: Table) -> None:
        """A restored table's messages, hands, ping, timers and computer moves start again."""
        if table.game is not None:
            self.publisher.publish(table, repost=True)
            self.hands.refresh(table)
            self.publisher.ping(table)
        elif table.message_id is None:  # a lobby saved just before the bot stopped
            self.publisher.publish(table, repost=True)
        self.scheduler.schedule(table)

    async def _lost(self, channel_id: int) -> None:
        """Forget a table whose lease another process took (it restores and serves it)."""
        async with self.tables.lock(channel_id):
            self.scheduler.cancel(channel_id)
            self.tables.remove(channel_id)

    async def close(self) -> None:
        """Cancel every timer and AI move, then let moves in progress and message updates
        finish (at most `CLOSE_SECONDS`) before the client disconnects, and give up the tables'
        leases. Every accepted move is saved already; this keeps the channel showing it."""
        self.scheduler.close()

        async def settle() -> None:
            for table in list(self.tables):
                async with self.tables.lock(table.channel_id):
                    pass
            await self.updates.drain()

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(settle(), CLOSE_SECONDS)
        await self.leases.close()


__all__ = ["LOBBY", "PING", "TABLE", "Change", "TableService"]
