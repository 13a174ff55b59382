"""Scheduling: computer players' moves, turn timers, and lobby expiry.

One task per table and kind (``"ai"``, ``"timer"``, ``"lobby"``); scheduling a kind again
replaces its task. A move made by a task acts only if the table has not moved on since it was
scheduled (the table's version), so a late timer never plays for a player who already did.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from bot import render
from bot.engine import editions
from bot.engine.editions import AnyEvent
from bot.render import seats as render_seats
from bot.service.acting import NotSaved, Post
from bot.tables import NoTable, Removal, Table, TableState

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)


class Scheduler:
    """The timed work of every table (see the module's docstring)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.defaults = service.defaults
        self._tasks: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._rng = random.Random(service.defaults.seed)

    def schedule(self, table: Table) -> None:
        """Start what the table waits for: its lobby's expiry, an AI seat's move or catch, or the
        turn timer of the human who must act."""
        if table.state is TableState.LOBBY:
            self._start(table.channel_id, "lobby", self._expire_lobby(table.channel_id))
            return
        game = table.game
        if game is None or table.state is not TableState.PLAYING or game.round_over:
            return
        if (table.channel_id, "idle") not in self._tasks:
            self._start(table.channel_id, "idle", self._end_idle_game(table.channel_id))
        player = game.pending.player or ""
        seat = table.seat(player)
        ai_catch = any(s.is_ai and editions.catches(game, s.id) for s in table.seats)
        if (seat is not None and seat.is_ai) or ai_catch:
            self._start(table.channel_id, "ai", self._ai_later(table.channel_id, table.version))
        if seat is not None and not seat.is_ai and table.turn_seconds:
            self._start(
                table.channel_id,
                "timer",
                self._timeout_later(table.channel_id, table.version, player, table.turn_seconds),
            )

    def cancel(self, channel_id: int) -> None:
        """Stop every task of the table (it has ended)."""
        for key in [k for k in self._tasks if k[0] == channel_id]:
            task = self._tasks.pop(key)
            if task is not asyncio.current_task():  # an AI move may be closing its own table
                task.cancel()

    def close(self) -> None:
        """Stop every task of every table (the bot shuts down)."""
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    def _start(self, channel_id: int, kind: str, job: Coroutine[Any, Any, None]) -> None:
        old = self._tasks.pop((channel_id, kind), None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        self._tasks[(channel_id, kind)] = asyncio.get_running_loop().create_task(job)

    async def _ai_later(self, channel_id: int, version: int) -> None:
        await asyncio.sleep(self.defaults.ai_delay_seconds)
        await self.service.updates.take_turn()
        await self._machine_move(channel_id, version, None)

    async def _timeout_later(self, channel_id: int, version: int, player: str, seconds: int) -> None:
        await asyncio.sleep(seconds)
        await self._machine_move(channel_id, version, player)

    async def _machine_move(self, channel_id: int, version: int, timed_out: str | None) -> None:
        """AI seats' catches and the AI's decision, or a human's timeout (docs/rules.md §5.2),
        if the table hasn't moved on since ``version``."""
        try:
            async with self.service.acting.change(channel_id) as change:
                table, game = change.table, change.table.game
                if game is None or table.version != version or table.state is not TableState.PLAYING:
                    change.nothing()
                    return
                events: list[AnyEvent] = []
                for bot_seat in table.seats:
                    if bot_seat.is_ai and bot_seat.id in game.hands:
                        for catch in editions.catches(game, bot_seat.id):
                            events += game.apply(bot_seat.id, catch)  # type: ignore[arg-type]
                player = game.pending.player
                seat = table.seat(player or "")
                if timed_out is not None and player == timed_out and not game.round_over:
                    # The log tells it in order: the timeout, what it did, then a removal.
                    name = render.named(table, timed_out)
                    change.log(events, f"⏰ {name} ran out of time")
                    events = list(game.apply(timed_out, editions.timeout_action(game)))  # type: ignore[arg-type]
                    count = table.timeouts[timed_out] = table.timeouts.get(timed_out, 0) + 1
                    if count >= self.defaults.max_timeouts:
                        change.log(events, f"{name} was removed after {count} timeouts")
                        events = table.leave_game(timed_out, Removal.TIMEOUTS)
                    elif count == self.defaults.max_timeouts - 1:
                        # One short of removal: the seat can still go to a bot with its hand
                        # (docs/rules.md §5.3); once removed, the hand is back in the draw pile.
                        text, view = render_seats.seat_offer(table, timed_out, count)
                        change.posts.append(Post(text, view=view))
                elif seat is not None and seat.is_ai and not game.round_over and player is not None:
                    events += game.apply(player, editions.choose(game, player, self._rng))  # type: ignore[arg-type]
                elif not events:
                    change.nothing()
                    return
                change.played(events)
            await self.service.publisher.say(change.table, change.posts)
            self.service.after(change)
        except (NoTable, NotSaved):  # gone meanwhile; or back to the saved state, tried again
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("machine move failed at table %s", channel_id)

    async def _end_idle_game(self, channel_id: int) -> None:
        """End a game nobody has moved in for ``game_idle_hours`` (with the turn timer off, it
        would otherwise wait for ever), recording it as played with no winner."""
        idle = self.defaults.game_idle_hours * 3600
        while True:
            table = self.service.tables.get(channel_id)
            if table is None or table.state is not TableState.PLAYING:
                return
            wait = table.touched + idle - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            hours = self.defaults.game_idle_hours
            since = f"{hours:g} hour{'' if hours == 1 else 's'}"
            try:
                async with self.service.acting.change(channel_id) as change:
                    if change.table is not table or table.touched + idle > time.time():
                        change.nothing()  # moved meanwhile, or replaced: look again
                        continue
                    change.abandon(f"Nobody has moved for {since}, so the game has ended.")
            except NotSaved:
                await asyncio.sleep(60)  # the database is failing: try again in a minute
                continue
            await self.service.publisher.say(change.table, change.posts)
            self.service.after(change)
            return

    async def _expire_lobby(self, channel_id: int) -> None:
        """Close the lobby once it has been idle for the configured time."""
        while True:
            table = self.service.tables.get(channel_id)
            if table is None or table.state is not TableState.LOBBY:
                return
            wait = table.touched + self.defaults.lobby_idle_seconds - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            try:
                async with self.service.acting.change(channel_id) as change:
                    if change.table is not table or table.state is not TableState.LOBBY:
                        change.nothing()
                        return
                    table.state = TableState.OVER
            except NotSaved:  # the lobby is back as saved, with its expiry scheduled again
                return
            self.service.after(change)
            self.service.publisher.show_lobby_over(
                table,
                table.message_id,
                f"UNO lobby (expired after {max(1, round(self.defaults.lobby_idle_seconds / 60))} idle minutes)",
            )
            return
