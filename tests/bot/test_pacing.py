"""The bot's own pacing of Discord calls (`bot.pacing`): the global limit and discord.py's
bucket scan."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord.http import HTTPClient, Route

from bot.pacing import EXEMPT, GlobalPace, install


def test_no_second_holds_more_than_the_pace() -> None:
    """A second's worth of requests goes at once, the next ones as the earliest leave the
    sliding second, in the order they asked: no second ever holds more than the pace allows."""

    async def scenario() -> list[tuple[int, float]]:
        pace, loop, sent = GlobalPace(per_second=10), asyncio.get_running_loop(), []

        async def one(n: int) -> None:
            await pace.wait()
            sent.append((n, loop.time()))

        start = loop.time()
        await asyncio.gather(*(one(n) for n in range(25)))
        return [(n, at - start) for n, at in sent]

    sent = asyncio.run(scenario())
    assert [n for n, _ in sent] == list(range(25))  # first asked, first served
    times = [at for _, at in sent]
    assert all(at < 0.1 for at in times[:10]) and times[10] >= 1.0 and times[20] >= 2.0
    assert max(sum(1 for t in times if start <= t < start + 1.0) for start in times) <= 10


def test_only_routes_the_global_limit_counts_are_paced() -> None:
    """A channel route waits for its slot; an interaction's webhook never does."""

    async def scenario() -> list[str]:
        http = HTTPClient(asyncio.get_running_loop())
        sent: list[str] = []

        async def request(route: Route, **kwargs: Any) -> None:
            sent.append(route.path)

        http.request = request  # type: ignore[method-assign]
        pace = install(http, global_per_second=1.25)  # 1 a second
        assert pace is not None
        channel = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2)
        webhook = Route(
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            webhook_id=1,
            webhook_token="t",
        )
        first = asyncio.ensure_future(http.request(channel))
        second = asyncio.ensure_future(http.request(channel))
        await asyncio.sleep(0)  # both channel calls have asked for their turn
        await http.request(webhook)
        await first
        assert sent == [channel.path, webhook.path]  # the second channel call waits a second
        await second
        return sent

    assert asyncio.run(scenario())[-1].startswith("/channels/")
    assert "/webhooks/" in EXEMPT and "/interactions/" in EXEMPT


def test_no_pacing_at_zero() -> None:
    """A limit of 0 leaves requests alone (a bot whose Discord enforces no global limit)."""

    async def scenario() -> None:
        http = HTTPClient(asyncio.get_running_loop())
        request = http.request
        assert install(http, global_per_second=0) is None
        assert http.request == request

    asyncio.run(scenario())


def test_the_bucket_scan_runs_when_the_buckets_have_doubled() -> None:
    """discord.py looks at every bucket on each new one past 256; installed, the scan runs only
    once their number has doubled since the last, and still drops the idle ones."""

    async def scenario() -> list[int]:
        http = HTTPClient(asyncio.get_running_loop())
        scanned: list[int] = []
        stock = http._try_clear_expired_ratelimits

        def counting() -> None:
            scanned.append(len(http._buckets))
            stock()

        http._try_clear_expired_ratelimits = counting  # type: ignore[method-assign]
        install(http, global_per_second=0)
        for n in range(1100):
            http.get_ratelimit(f"route:{n}")
        return scanned

    assert asyncio.run(scenario()) == [256, 512, 1024]
    assert discord.http.HTTPClient._try_clear_expired_ratelimits is not None
