"""Discord calls paced on the bot's side: the global rate limit, and discord.py's bucket bookkeeping.

Discord allows a bot about 50 requests per second outside interactions (interaction callbacks and
the interaction webhooks that edit or follow up an answer are exempt). discord.py only learns of
the global limit from a 429, after which every request waits; `install` spaces the bot's
requests on other routes instead (a table message's edit, a ping, a post), below the limit. They
are spaced at the moment they leave (an aiohttp trace callback, awaited just before the request
is sent), after discord.py's per-route buckets: a bucket that held requests (a channel's 5 posts
per 5 s) and releases them together, or a retry after a 429, cannot send a burst. They go evenly
spaced (a second's worth sent at once would take little jitter to land in one second of
Discord's with the next). The table and lobby messages (what the players see of their game,
`first`) go before the others (pings, announcements), seven for one while both wait, first
asked first served within each. A message update
that waits for its turn keeps its key in `bot.service.updates.Updates`, so the changes meanwhile
collapse into it: under load the tables' messages are edited less often, not late by a growing
queue (docs/performance/discord-layer.md).

discord.py's own bookkeeping of its per-route buckets is amortized elsewhere, with its other
internals (`bot.client.internals.pace_bucket_scan`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar

import aiohttp

# Routes Discord leaves out of the global limit (below /api/v10).
EXEMPT = ("/interactions/", "/webhooks/")
# The share of the global limit the bot paces itself to: the rest absorbs the jitter between the
# moment a request leaves and the moment Discord counts it (a busy machine, the network).
SHARE = 0.8
# Requests go evenly spaced, at most this many seconds' worth at once: a second's worth sent at
# once, shifted by a little jitter, could land in the same second of Discord's as the next one's.
BURST_SECONDS = 0.1
# While both wait, this many requests asked within `first` go for each other one (a ping, an
# announcement), so the tables' messages come first and the others are never starved.
FIRST_PER_OTHER = 7
_FIRST: ContextVar[bool] = ContextVar("bot.client.pacing.first", default=False)
_HELD: ContextVar[bool] = ContextVar("bot.client.pacing.held", default=False)


@contextlib.contextmanager
def first() -> Iterator[None]:
    """Within this block (in this task), paced requests go before the others (`GlobalPace`):
    for what players see of their game, a table or lobby message posted or edited."""
    token = _FIRST.set(True)
    try:
        yield
    finally:
        _FIRST.reset(token)


@contextlib.asynccontextmanager
async def ahead(pace: GlobalPace | None) -> AsyncIterator[None]:
    """Wait for a turn of ``pace`` (None: no pacing) as `first` does, then run the block
    within `first`: its first paced request goes on that turn without waiting again. A block
    that renders a message after the wait sends it as it is then, not as it was when it began
    to wait (the changes meanwhile would otherwise need another turn). A request that a route's
    bucket holds meanwhile still goes on that turn when let go (a table's own messages seldom
    meet theirs)."""
    with first():
        if pace is None:
            yield
            return
        await pace.wait(first=True)
        token = _HELD.set(True)
        try:
            yield
        finally:
            _HELD.reset(token)


class GlobalPace:
    """Lets requests go evenly spaced at ``per_second`` (at most `BURST_SECONDS`' worth at
    once) and never more than ``per_second`` in any second (a sliding window over the moments
    they are let go, so a busy event loop that wakes late cannot send a second's worth at once).
    Those asked with ``first`` go before the others, `FIRST_PER_OTHER` for one while both wait;
    first asked first served within each.

    Args:
        per_second: requests per second (>= 1).
    """

    def __init__(self, per_second: int) -> None:
        self.per_second = max(1, per_second)
        self._gap = 1.0 / self.per_second
        self._burst = (max(1, round(BURST_SECONDS * self.per_second)) - 1) * self._gap
        self._next_at = 0.0  # the even spacing: the next request goes no earlier (loop clock)
        self._sent: deque[float] = deque()  # when the requests of the last second went (loop clock)
        self._first: deque[asyncio.Future[None]] = deque()
        self._rest: deque[asyncio.Future[None]] = deque()
        self._first_in_a_row = 0
        self._timer: asyncio.TimerHandle | None = None  # set while anyone waits

    async def wait(self, *, first: bool = False) -> None:
        """Return when one more request may go (at once if nobody waits and the pace allows
        it); ``first``: before the waiting requests asked without it (see the class)."""
        loop = asyncio.get_running_loop()
        turn = loop.create_future()
        (self._first if first else self._rest).append(turn)
        if self._timer is None:
            self._let_go(loop)
        await turn  # cancelled while waiting: `_let_go` passes it by

    def _let_go(self, loop: asyncio.AbstractEventLoop) -> None:
        """Let the waiting requests go while the pace allows, then wake when it next allows one
        (a timer, so a loop that wakes late never lets more go)."""
        self._timer = None
        now = loop.time()
        while self._sent and self._sent[0] <= now - 1.0:
            self._sent.popleft()
        while self._next_at <= now and len(self._sent) < self.per_second:
            turn = self._next_turn()
            if turn is None:
                return
            turn.set_result(None)
            self._sent.append(now)
            self._next_at = max(self._next_at, now - self._burst) + self._gap
        if self._first or self._rest:
            full = self._sent[0] + 1.0 if len(self._sent) >= self.per_second else 0.0
            self._timer = loop.call_at(max(self._next_at, full), self._let_go, loop)

    def _next_turn(self) -> asyncio.Future[None] | None:
        """The waiting request to go next (None: nobody waits); drops those cancelled."""
        for queue in (self._first, self._rest):
            while queue and queue[0].done():
                queue.popleft()
        if self._first and (not self._rest or self._first_in_a_row < FIRST_PER_OTHER):
            self._first_in_a_row += 1
            return self._first.popleft()
        self._first_in_a_row = 0
        return self._rest.popleft() if self._rest else None


def install(trace: aiohttp.TraceConfig, api_base: str, global_per_second: float) -> GlobalPace | None:
    """Pace the requests on routes below ``api_base`` that the global limit counts to a share
    of ``global_per_second`` (0: no pacing) at the moment they are sent, those sent within
    `first` first (see the module's docstring), through the client's aiohttp ``trace`` (the
    ``http_trace`` given to ``discord.Client``, before it logs in: aiohttp freezes it with the
    session). Returns the pace (None: no pacing)."""
    if global_per_second <= 0:
        return None
    pace = GlobalPace(int(SHARE * global_per_second))

    async def sending(session: object, context: object, params: aiohttp.TraceRequestStartParams) -> None:
        url = str(params.url)
        if not url.startswith(api_base):  # the gateway, the CDN
            return
        if url[len(api_base) :].startswith(EXEMPT):
            return
        if _HELD.get():  # the turn `ahead` waited for
            _HELD.set(False)
        else:
            await pace.wait(first=_FIRST.get())

    trace.on_request_start.insert(0, sending)  # before callbacks that time the request
    return pace
