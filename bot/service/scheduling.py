"""Scheduling: computer players' moves, turn timers, and lobby expiry.

One task per table and kind (``"ai"``, ``"timer"``, ``"lobby"``, ``"idle"``); scheduling a kind
again replaces its task, and a task is let go once it ends (a finished task still holds its
coroutine; a started game's lobby expiry is stopped at once rather than waking to find nothing
to do): what a table at rest holds is the tasks it waits on (docs/performance/discord-layer.md). A move made by a task acts only if the table has not moved on since it was
scheduled (the table's version), so a late timer never plays for a player who already did.

A hard bot's search (``ai.choose`` at level hard, ``ai_budget_ms`` of it) runs off the event
loop, in a pool of ``ai_workers`` processes (0: one thread), during the bot's delay: the move
still comes ``ai_delay_seconds`` after the turn began, as a person's would.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Coroutine
from typing import Any

from bot import render
from bot.engine import ai, editions
from bot.engine.events import Event
from bot.ops.workers import start_worker
from bot.render import seats as render_seats
from bot.service.acting import Acting, After, NotSaved, Post
from bot.service.publishing import Publisher
from bot.service.registry import TableRegistry
from bot.service.updates import Updates
from bot.settings import GameDefaults
from bot.tables import NoTable, Removal, Table, TableState

log = logging.getLogger(__name__)

SEARCHES_PER_WORKER = 2
"""Hard searches waiting or running per worker at most; a hard bot whose search would wait
longer moves as a normal one (many hard bots on few workers: their moves stay on time)."""
SEARCH_GRACE = 0.5
"""Seconds a search's answer may come after the later of its budget and the bot's move delay;
a later one is not waited for (the move is the normal AI's): a worker that the machine's other
work starves (it runs only on idle CPU time, `bot.ops.workers.give_way`) never holds a bot's move."""


class Scheduler:
    """The timed work of every table (see the module's docstring).

    Args:
        tables: every table.
        acting: the changes of tables (the moves, timeouts and expiries made here).
        publisher: the public messages (what a move leaves to say; an expired lobby's message).
        updates: the background jobs (an AI move waits its turn behind the message updates).
        defaults: the settings' game defaults (delays, timeouts, idle times, the AI's workers).
        after: what follows a change.
    """

    def __init__(
        self,
        tables: TableRegistry,
        acting: Acting,
        publisher: Publisher,
        updates: Updates,
        defaults: GameDefaults,
        after: After,
    ) -> None:
        self.tables = tables
        self.acting = acting
        self.publisher = publisher
        self.updates = updates
        self.defaults = defaults
        self.after = after
        self._tasks: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._rng = random.Random(defaults.seed)
        self._pool: concurrent.futures.Executor | None = None
        self._searches = 0  # submitted to the pool and not yet answered

    def schedule(self, table: Table) -> None:
        """Start what the table waits for: its lobby's expiry, an AI seat's move or catch, or the
        turn timer of the human who must act."""
        if table.state is TableState.LOBBY:
            self._start(table.channel_id, "lobby", self._expire_lobby(table.channel_id))
            return
        self._stop((table.channel_id, "lobby"))
        game = table.game
        if game is None or table.state is not TableState.PLAYING or game.round_over:
            return
        if (table.channel_id, "idle") not in self._tasks:
            self._start(table.channel_id, "idle", self._end_idle_game(table.channel_id))
        player = game.pending.player or ""
        seat = table.seat(player)
        ai_catch = any(s.is_ai and editions.catches(game, s.id, s.level) for s in table.seats)
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
            self._stop(key)

    def close(self) -> None:
        """Stop every task of every table (the bot shuts down)."""
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _start(self, channel_id: int, kind: str, job: Coroutine[Any, Any, None]) -> None:
        key = (channel_id, kind)
        self._stop(key)
        task = asyncio.get_running_loop().create_task(job)
        self._tasks[key] = task
        task.add_done_callback(functools.partial(self._forget, key))

    def _stop(self, key: tuple[int, str]) -> None:
        task = self._tasks.pop(key, None)
        if task is not None and task is not asyncio.current_task():  # an AI move may be closing its own table
            task.cancel()

    def _forget(self, key: tuple[int, str], task: asyncio.Task[None]) -> None:
        if self._tasks.get(key) is task:  # not already replaced by a newer one
            del self._tasks[key]

    async def _ai_later(self, channel_id: int, version: int) -> None:
        started = time.monotonic()
        decision = await self._search(channel_id, version)
        await asyncio.sleep(max(0.0, self.defaults.ai_delay_seconds - (time.monotonic() - started)))
        await self.updates.take_turn()
        await self._machine_move(channel_id, version, None, decision)

    async def _search(self, channel_id: int, version: int) -> str | None:
        """A hard bot's decision at the table as it is at ``version`` (its action's text), searched
        off the event loop (UNO and DOS alike); None when the pending decision is not a hard bot's,
        the workers already have :data:`SEARCHES_PER_WORKER` searches each, the search failed, or
        its answer is late (:data:`SEARCH_GRACE`): the move is then the normal AI's."""
        table = self.tables.get(channel_id)
        game = table.game if table is not None else None
        if table is None or game is None or table.version != version or game.round_over:
            return None
        seat = table.seat(game.pending.player or "")
        if seat is None or not seat.is_ai or seat.level != ai.AiLevel.HARD:
            return None
        if self._searches >= SEARCHES_PER_WORKER * max(1, self.defaults.ai_workers):
            return None  # the workers are all taken: this move is the normal AI's
        # The snapshot is taken now, between awaits: no other move can change the game meanwhile.
        snapshot, seed = game.to_dict(), self._rng.random()
        budget = self.defaults.ai_budget_ms / 1000
        pool = self._pool or self._new_pool()
        self._searches += 1
        loop = asyncio.get_running_loop()
        search = loop.run_in_executor(pool, editions.hard_move, snapshot, seat.id, seed, budget)
        search.add_done_callback(self._answered)  # counted until the worker is free, late or not
        done, _ = await asyncio.wait(
            {search}, timeout=max(budget, self.defaults.ai_delay_seconds) + SEARCH_GRACE
        )
        if not done:
            log.info("hard search at table %s answered late: the normal AI moves", channel_id)
            return None
        try:
            return search.result()
        except Exception as exc:  # a failed search or a broken pool: the bot still moves (normal AI)
            if isinstance(exc, concurrent.futures.BrokenExecutor) and self._pool is pool:
                self._pool = None  # (a worker died: the next search starts a new pool)
            log.exception("hard search failed at table %s", channel_id)
            return None

    def _answered(self, search: asyncio.Future[str]) -> None:
        self._searches -= 1
        if not search.cancelled():
            search.exception()  # retrieved: a late one's failure is not reported as unretrieved

    def _new_pool(self) -> concurrent.futures.Executor:
        """The searches' pool: ``ai_workers`` processes, or one thread when that is 0 or this
        process may not start any (a daemonic process, as in the load benchmark's bot)."""
        workers = self.defaults.ai_workers
        if workers and not multiprocessing.current_process().daemon:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                workers,
                multiprocessing.get_context("spawn"),
                initializer=start_worker,
                initargs=(os.getpid(),),
            )
        else:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ai-search")
        return self._pool

    async def _timeout_later(self, channel_id: int, version: int, player: str, seconds: int) -> None:
        await asyncio.sleep(seconds)
        await self._machine_move(channel_id, version, player)

    async def _machine_move(
        self, channel_id: int, version: int, timed_out: str | None, decision: str | None = None
    ) -> None:
        """AI seats' catches and the AI's decision (``decision``: a hard bot's, searched for this
        ``version``), or a human's timeout (docs/rules.md §5.2), if the table hasn't moved on
        since ``version``."""
        try:
            async with self.acting.change(channel_id) as change:
                table, game = change.table, change.table.game
                if game is None or table.version != version or table.state is not TableState.PLAYING:
                    change.nothing()
                    return
                events: list[Event] = []
                for bot_seat in table.seats:
                    if bot_seat.is_ai and bot_seat.id in game.hands:
                        for catch in editions.catches(game, bot_seat.id, bot_seat.level):
                            events += game.apply(bot_seat.id, catch)  # type: ignore[arg-type]
                player = game.pending.player
                seat = table.seat(player or "")
                if timed_out is not None and player == timed_out and not game.round_over:
                    # The log tells it in order: the timeout, what it did, then a removal.
                    name = render.named(table, timed_out, change.tr)
                    change.log(events, change.tr._("⏰ {name} ran out of time").format(name=name))
                    events = game.apply_text(timed_out, "timeout")
                    count = table.timeouts[timed_out] = table.timeouts.get(timed_out, 0) + 1
                    if count >= self.defaults.max_timeouts:
                        removed = change.tr.ngettext(
                            "{name} was removed after {n} timeout",
                            "{name} was removed after {n} timeouts",
                            count,
                        )
                        change.log(events, removed.format(name=name, n=count))
                        events = table.leave_game(timed_out, Removal.TIMEOUTS)
                    elif count == self.defaults.max_timeouts - 1:
                        # One short of removal: the seat can still go to a bot with its hand
                        # (docs/rules.md §5.3); once removed, the hand is back in the draw pile.
                        text, view = render_seats.seat_offer(table, timed_out, count, change.tr)
                        change.posts.append(Post(text, view=view))
                elif seat is not None and seat.is_ai and not game.round_over and player is not None:
                    if decision is not None and not events:  # (a catch just made changes the game)
                        action = editions.parse_action(game, decision)
                    else:  # easy and normal decide at once; a hard bot without its search, as normal
                        level = ai.AiLevel.NORMAL if seat.level == ai.AiLevel.HARD else seat.level
                        action = editions.choose(game, player, self._rng, level)
                    events += game.apply(player, action)  # type: ignore[arg-type]
                elif not events:
                    change.nothing()
                    return
                change.played(events)
            await self.publisher.say(change.table, change.posts)
            self.after(change)
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
            table = self.tables.get(channel_id)
            if table is None or table.state is not TableState.PLAYING:
                return
            wait = table.touched + idle - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            hours = self.defaults.game_idle_hours
            try:
                async with self.acting.change(channel_id) as change:
                    if change.table is not table or table.touched + idle > time.time():
                        change.nothing()  # moved meanwhile, or replaced: look again
                        continue
                    why = change.tr.ngettext(
                        "Nobody has moved for {hours} hour, so the game has ended.",
                        "Nobody has moved for {hours} hours, so the game has ended.",
                        int(hours) if hours == int(hours) else 2,
                    )
                    change.abandon(why.format(hours=f"{hours:g}"))
            except NotSaved:
                await asyncio.sleep(60)  # the database is failing: try again in a minute
                continue
            await self.publisher.say(change.table, change.posts)
            self.after(change)
            return

    async def _expire_lobby(self, channel_id: int) -> None:
        """Close the lobby once it has been idle for the configured time."""
        while True:
            table = self.tables.get(channel_id)
            if table is None or table.state is not TableState.LOBBY:
                return
            wait = table.touched + self.defaults.lobby_idle_seconds - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            try:
                async with self.acting.change(channel_id) as change:
                    if change.table is not table or table.state is not TableState.LOBBY:
                        change.nothing()
                        return
                    table.state = TableState.OVER
            except NotSaved:  # the lobby is back as saved, with its expiry scheduled again
                return
            self.after(change)
            minutes = max(1, round(self.defaults.lobby_idle_seconds / 60))
            title = change.tr.ngettext(
                "{edition} lobby (expired after {n} idle minute)",
                "{edition} lobby (expired after {n} idle minutes)",
                minutes,
            )
            self.publisher.show_lobby_over(
                table,
                table.message_id,
                title.format(n=minutes, edition=render.edition_name(table.variant, change.tr)),
            )
            return
