"""Background jobs, and message updates one in flight per message.

Every Discord message the bot keeps up to date (a table message, a lobby message, a hand, the
turn ping) has a key. An update asked for while one of the same key is in flight waits for it and
for `UPDATE_SPACING`; updates asked for meanwhile collapse into one, which renders the state as it
is when it runs (the latest state wins).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.storage import StorageError

log = logging.getLogger(__name__)
Key = tuple[int, str]
"""A message's key: its table's channel id, and ``"table"``, ``"lobby"``, ``"ping"`` or a player."""
Show = Callable[[], Awaitable[None]]
# At most one update of a message per this many seconds; changes meanwhile collapse into the next.
# (Discord allows about five edits per channel every five seconds; AI seats move in quick turns.)
UPDATE_SPACING = 0.2


class Updates:
    """The bot's background jobs: message updates by key, and other jobs that must not be lost
    before shutdown (:meth:`spawn`)."""

    def __init__(self) -> None:
        self._background: set[asyncio.Task[None]] = set()
        self._running: dict[Key, asyncio.Task[None]] = {}
        self._next: dict[Key, Show] = {}
        self._settling: dict[Key, asyncio.Future[None]] = {}
        self._turnstile = asyncio.Lock()
        self._asked: dict[Key, float] = {}
        self._drawn_from: dict[Key, float] = {}  # see `drawing`
        self.behind: list[tuple[float, str, float]] | None = None
        """When a list (off by default; the load benchmark sets it): one entry per update done,
        (epoch seconds, ``"table"``, ``"lobby"``, ``"ping"`` or ``"hand"``, how many seconds
        passed from the first change it shows to its end: how far behind the game its message
        was)."""

    def ask(self, key: Key, show: Show, *, settle: float = 0.0, spacing: float | None = None) -> None:
        """Run ``show`` (an update of one message, which renders the state when it runs) after
        ``settle`` seconds, or after the update of ``key`` in flight and ``spacing`` seconds
        from its start (default `UPDATE_SPACING`): updates asked for meanwhile collapse into
        one. An update without ``settle`` cuts short the wait of one settling."""
        if self.behind is not None:
            self._asked.setdefault(key, time.monotonic())
        if key in self._running:
            self._next[key] = show
            if not settle:
                _wake(self._settling.pop(key, None))
        else:
            gap = UPDATE_SPACING if spacing is None else spacing
            self._running[key] = self.spawn(self._run(key, show, settle, gap))

    def drawing(self, key: Key) -> None:
        """Called by the update of ``key`` in flight as it draws its message, when that is later
        than its start (it waited for its turn: `bot.client.pacing.ahead`): the changes asked for until
        now are in it, so no further update is due for them, and the update is behind from the
        first change it shows."""
        self._next.pop(key, None)
        if (asked := self._asked.pop(key, None)) is not None:
            self._drawn_from.setdefault(key, asked)

    async def _run(self, key: Key, show: Show | None, settle: float, spacing: float) -> None:
        loop = asyncio.get_running_loop()
        try:
            if settle:
                woken = self._settling[key] = loop.create_future()
                timer = loop.call_later(settle, _wake, woken)
                await woken
                timer.cancel()
                show = self._next.pop(key, show)
            while show is not None:
                next_at = loop.time() + spacing
                await self.take_turn()
                asked = self._asked.pop(key, None)
                try:
                    await show()
                except discord.NotFound as exc:  # an expired hand token, a message deleted
                    log.debug("update of %s (channel, message) found nothing: %r", key, exc)
                except discord.HTTPException as exc:
                    log.warning("update of %s (channel, message) refused by Discord: %r", key, exc)
                except StorageError as exc:  # a known failure, one line (a move's is an ERROR)
                    log.warning("update of %s (channel, message) not saved: %s", key, exc)
                except Exception:
                    log.exception("update of %s (channel, message) failed", key)
                drawn_from = self._drawn_from.pop(key, None)
                asked = drawn_from if asked is None else asked
                if asked is not None and self.behind is not None:
                    kind = key[1] if key[1] in ("table", "lobby", "ping") else "hand"
                    self.behind.append((time.time(), kind, time.monotonic() - asked))
                await asyncio.sleep(next_at - loop.time())
                show = self._next.pop(key, None)
        finally:
            self._running.pop(key, None)
            self._next.pop(key, None)
            self._settling.pop(key, None)
            self._asked.pop(key, None)
            self._drawn_from.pop(key, None)

    async def take_turn(self) -> None:
        """Wait until no other background job (a message update, an AI move) has started in this
        pass of the event loop. The jobs a move sets off (table, hands, ping, the next AI move)
        then run one per pass, with the sockets polled between them, so an interaction that
        arrives meanwhile waits for one of them, not for all: a fifth off the acknowledgements'
        p99 under load (docs/performance/discord-layer.md)."""
        async with self._turnstile:
            await asyncio.sleep(0)

    async def done(self, key: Key) -> None:
        """Wait until no update of ``key`` is in flight or asked for."""
        while (task := self._running.get(key)) is not None:
            await asyncio.wait({task})

    def spawn(self, job: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``job`` in the background; :meth:`drain` waits for it."""
        task = asyncio.get_running_loop().create_task(job)
        self._background.add(task)  # keep a reference until it is done
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._background.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.warning("background job %s failed: %r", task.get_coro(), exc, exc_info=exc)

    async def drain(self) -> None:
        """Let every update go now (none waits to settle), and wait until no job is left."""
        for waiting in list(self._settling.values()):
            _wake(waiting)
        while self._background:
            await asyncio.wait(set(self._background))


def _wake(waiting: asyncio.Future[None] | None) -> None:
    if waiting is not None and not waiting.done():
        waiting.set_result(None)
