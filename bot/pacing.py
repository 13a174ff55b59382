"""Discord calls paced on the bot's side: the global rate limit, and discord.py's bucket bookkeeping.

Discord allows a bot about 50 requests per second outside interactions (interaction callbacks and
the interaction webhooks that edit or follow up an answer are exempt). discord.py only learns of
the global limit from a 429, after which every request waits; `install` spaces the bot's
requests on other routes instead (a table message's edit, a ping, a post), below the limit, in
the order they were asked for. A message update that waits for its turn keeps its key in
`bot.service.updates.Updates`, so the changes meanwhile collapse into it: under load the tables'
messages are edited less often, not late by a growing queue (docs/performance-load.md).

discord.py keeps one rate-limit bucket per route and channel and, once it has 256 of them, looks
at every bucket each time a new one appears (`HTTPClient._try_clear_expired_ratelimits`; a
bucket only goes after five idle minutes): with thousands of tables that is thousands of buckets
scanned per new table. `install` scans only when the buckets have doubled since the last scan.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from discord.http import HTTPClient, Route

# Routes Discord leaves out of the global limit (below /api/v10).
EXEMPT = ("/interactions/", "/webhooks/")
# The share of the global limit the bot paces itself to: the rest absorbs what discord.py's own
# buckets hold back and then send at once (a channel's 5 posts per 5 s, a retry after a 429).
SHARE = 0.8
BUCKET_SCAN_FROM = 256  # discord.py's own threshold


class GlobalPace:
    """Lets at most ``per_second`` requests go in any second (a sliding window over the moments
    they are let go, so a busy event loop that wakes late cannot send a second's worth at once),
    first asked first served.

    Args:
        per_second: requests per second (>= 1).
    """

    def __init__(self, per_second: int) -> None:
        self.per_second = max(1, per_second)
        self._sent: deque[float] = deque()  # when the requests of the last second went (loop clock)
        self._turn = asyncio.Lock()  # fair: waiters go in the order they asked

    async def wait(self) -> None:
        """Return when one more request may go (at once if the last second allows it)."""
        loop = asyncio.get_running_loop()
        async with self._turn:
            while True:
                now = loop.time()
                while self._sent and self._sent[0] <= now - 1.0:
                    self._sent.popleft()
                if len(self._sent) < self.per_second:
                    self._sent.append(now)
                    return
                await asyncio.sleep(self._sent[0] + 1.0 - now)


def install(http: HTTPClient, global_per_second: float) -> GlobalPace | None:
    """Pace ``http``'s requests on routes the global limit counts to a share of
    ``global_per_second`` (0: no pacing), and amortize its bucket scan (see the module's
    docstring). Returns the pace (None: no pacing)."""
    _amortize_bucket_scan(http)
    if global_per_second <= 0:
        return None
    pace = GlobalPace(int(SHARE * global_per_second))
    request = http.request

    async def paced(route: Route, **kwargs: Any) -> Any:
        if not route.path.startswith(EXEMPT):
            await pace.wait()
        return await request(route, **kwargs)

    http.request = paced  # type: ignore[method-assign]  # the one instance the client uses
    return pace


def _amortize_bucket_scan(http: HTTPClient) -> None:
    """Let discord.py's scan of its buckets run only when they have doubled since the last one:
    the same buckets go (those idle five minutes), at a cost per new bucket that does not grow
    with the number of tables."""
    scan = http._try_clear_expired_ratelimits
    next_scan = BUCKET_SCAN_FROM

    def clear_expired() -> None:
        nonlocal next_scan
        if len(http._buckets) >= next_scan:
            scan()
            next_scan = max(BUCKET_SCAN_FROM, 2 * len(http._buckets))

    http._try_clear_expired_ratelimits = clear_expired  # type: ignore[method-assign]
