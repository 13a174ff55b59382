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
from typing import Any

from discord.http import HTTPClient, Route

# Routes Discord leaves out of the global limit (below /api/v10).
EXEMPT = ("/interactions/", "/webhooks/")
# The share of the global limit the bot paces itself to, steadily and in a burst: together below it.
STEADY_SHARE, BURST_SHARE = 0.75, 0.1
# (The requests discord.py holds for a route's own bucket, a channel's 5 posts per 5 s, go when it
# frees, all at once: the share left, a fifth, absorbs them.)
BUCKET_SCAN_FROM = 256  # discord.py's own threshold


class GlobalPace:
    """When each request may go so that any second holds at most ``per_second`` + ``burst``
    of them (the generic cell rate algorithm: a steady rate, with a burst allowed after a quiet
    spell), first asked first served.

    Args:
        per_second: the steady rate (requests per second, > 0).
        burst: how many may go at once after a quiet spell (>= 1).
    """

    def __init__(self, per_second: float, burst: int) -> None:
        self.interval = 1.0 / per_second
        self.tolerance = (max(1, burst) - 1) * self.interval
        self._due = 0.0  # when the next request would go at the steady rate (loop seconds)

    def delay(self, now: float) -> float:
        """Take the next free slot at ``now`` (the event loop's clock, seconds); returns how
        many seconds to wait for it (0.0: at once)."""
        at = max(now, self._due - self.tolerance)
        self._due = max(self._due, at) + self.interval
        return at - now if at - now > 1e-9 else 0.0  # not a rounding error's wait


def install(http: HTTPClient, global_per_second: float) -> GlobalPace | None:
    """Pace ``http``'s requests on routes the global limit counts to a share of
    ``global_per_second`` (0: no pacing), and amortize its bucket scan (see the module's
    docstring). Returns the pace (None: no pacing)."""
    _amortize_bucket_scan(http)
    if global_per_second <= 0:
        return None
    pace = GlobalPace(STEADY_SHARE * global_per_second, round(BURST_SHARE * global_per_second))
    request = http.request

    async def paced(route: Route, **kwargs: Any) -> Any:
        if not route.path.startswith(EXEMPT):
            wait = pace.delay(asyncio.get_running_loop().time())
            if wait > 0:
                await asyncio.sleep(wait)
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
