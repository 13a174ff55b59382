"""discord.py's rate-limit bucket scan: ``python -m benchmarks.buckets --channels 2000``.

A bot's first requests in ``--channels`` channels (``--routes`` routes each: a post, an edit and
a delete of a message make three keys per channel) go through `HTTPClient.get_ratelimit` as
discord.py makes them; the command times the buckets' bookkeeping with discord.py's own scan
(`HTTPClient._try_clear_expired_ratelimits`, which looks at every bucket on each new key once
there are 256) and with the amortized one `bot.client.internals.pace_bucket_scan` installs.
Prints one JSON line:
``{"channels", "buckets", "stock": {"scans", "ms"}, "amortized": {"scans", "ms"}}``, where
``scans`` counts the scans that looked at the buckets and ``ms`` is the CPU time of every
`get_ratelimit` call.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord.http import Route

from bot.client.internals import pace_bucket_scan

ROUTES = (
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"),
)


async def run(channels: int, routes: int, *, amortized: bool) -> dict[str, Any]:
    """The bookkeeping of ``channels`` × ``routes`` new keys on a fresh client."""
    client = discord.Client(intents=discord.Intents.none())
    http = client.http
    scan, scans = http._try_clear_expired_ratelimits, [0]

    def counted() -> None:
        scans[0] += len(http._buckets) >= 256
        scan()

    http._try_clear_expired_ratelimits = counted  # type: ignore[method-assign]
    if amortized:
        pace_bucket_scan(client, internals=True)
    keys = [
        f"{Route(method, path, channel_id=channel, message_id=1).key}:{channel}"
        for channel in range(channels)
        for method, path in ROUTES[:routes]
    ]
    began = time.process_time()
    for key in keys:
        http.get_ratelimit(key)
    return {
        "scans": scans[0],
        "ms": round(1000 * (time.process_time() - began), 1),
        "buckets": len(http._buckets),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: prints the JSON line."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.buckets", description=__doc__.split("\n\n")[1]
    )
    parser.add_argument("--channels", type=int, default=2000, help="channels (default 2000)")
    parser.add_argument(
        "--routes", type=int, default=3, choices=(1, 2, 3), help="routes per channel (default 3)"
    )
    args = parser.parse_args(argv)
    stock = asyncio.run(run(args.channels, args.routes, amortized=False))
    amortized = asyncio.run(run(args.channels, args.routes, amortized=True))
    buckets = stock.pop("buckets")
    amortized.pop("buckets")
    print(json.dumps({"channels": args.channels, "buckets": buckets, "stock": stock, "amortized": amortized}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
