"""The bot's own pacing of Discord calls (`bot.client.pacing`): the global limit."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from discord.http import HTTPClient, Route

from bot.client.pacing import BURST_SECONDS, EXEMPT, FIRST_PER_OTHER, GlobalPace, ahead, first, install

from .helpers import serving


@pytest.mark.slow
def test_requests_go_evenly_spaced_and_no_second_holds_more_than_the_pace() -> None:
    """Requests asked together go one per 1/``per_second`` (after a burst of `BURST_SECONDS`'
    worth), in the order they asked: no second ever holds more than the pace allows."""

    async def scenario() -> list[tuple[int, float]]:
        pace, loop, sent = GlobalPace(per_second=20), asyncio.get_running_loop(), []

        async def one(n: int) -> None:
            await pace.wait()
            sent.append((n, loop.time()))

        start = loop.time()
        await asyncio.gather(*(one(n) for n in range(30)))
        return [(n, at - start) for n, at in sent]

    sent = asyncio.run(scenario())
    assert [n for n, _ in sent] == list(range(30))  # first asked, first served
    times, burst = [at for _, at in sent], round(BURST_SECONDS * 20)
    assert all(at < 0.05 for at in times[:burst])
    assert all(at >= (n - burst + 1) / 20 for n, at in enumerate(times))  # lets a waiter go late, never early
    assert max(sum(1 for t in times if start <= t < start + 1.0) for start in times) <= 20


def test_firsts_go_before_the_others_without_starving_them() -> None:
    """With the pace used up, requests asked ``first`` go before those that asked earlier,
    `FIRST_PER_OTHER` of them for one of the others."""

    async def scenario() -> list[str]:
        pace, sent = GlobalPace(per_second=100), []
        for _ in range(round(BURST_SECONDS * 100)):  # the burst: the next ones wait
            await pace.wait()

        async def one(name: str, *, first: bool) -> None:
            await pace.wait(first=first)
            sent.append(name)

        others = [asyncio.ensure_future(one(f"other {n}", first=False)) for n in range(2)]
        await asyncio.sleep(0)  # the others ask first
        await asyncio.gather(*others, *(one(f"first {n}", first=True) for n in range(FIRST_PER_OTHER + 1)))
        return sent

    firsts = [f"first {n}" for n in range(FIRST_PER_OTHER + 1)]
    assert asyncio.run(scenario()) == [*firsts[:-1], "other 0", firsts[-1], "other 1"]


@contextlib.asynccontextmanager
async def discord_stand_in(
    monkeypatch: pytest.MonkeyPatch, global_per_second: float, bucket_reset: float = 0.0
) -> AsyncIterator[tuple[HTTPClient, GlobalPace, list[tuple[str, float]]]]:
    """A logged-in `HTTPClient` against a server that answers every request, its pace, and the
    requests as they left the client (method and path below the API base, loop time). With
    ``bucket_reset``, the first channel post empties its route's bucket (5 requests) for that
    many seconds, as Discord's 5 posts per 5 s per channel do."""
    loop, sent = asyncio.get_running_loop(), []
    posts = 0

    async def answer(request: web.Request) -> web.Response:
        nonlocal posts
        headers = {}
        if bucket_reset and request.method == "POST" and "/channels/" in request.path:
            posts += 1
            headers = {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0" if posts == 1 else "4",
                "X-RateLimit-Reset-After": str(bucket_reset),
                "X-RateLimit-Reset": str(time.time() + bucket_reset),
                "X-RateLimit-Bucket": "posts",
            }
        return web.json_response({"id": "1", "username": "bot", "discriminator": "0"}, headers=headers)

    async def leaving(session: object, context: object, params: aiohttp.TraceRequestStartParams) -> None:
        sent.append((f"{params.method} {params.url.path.removeprefix('/api/v10')}", loop.time()))

    async with serving(answer, monkeypatch):
        trace = aiohttp.TraceConfig()
        http = HTTPClient(loop, http_trace=trace)
        pace = install(trace, Route.BASE, global_per_second)
        assert pace is not None
        trace.on_request_start.append(leaving)  # after the pace's callback
        try:
            await http.static_login("token")  # GET /users/@me: the pace's first request
            yield http, pace, sent
        finally:
            await http.close()


def channel_post() -> Route:
    """A post in channel 1 (a Route's URL is made from `Route.BASE` when it is made)."""
    return Route("POST", "/channels/{channel_id}/messages", channel_id=1)


def channel_edit() -> Route:
    """An edit of message 2 in channel 1."""
    return Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2)


def webhook_edit() -> Route:
    """An edit of an interaction's answer."""
    return Route(
        "PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", webhook_id=1, webhook_token="t"
    )


@pytest.mark.slow
def test_only_routes_the_global_limit_counts_are_paced(monkeypatch: pytest.MonkeyPatch) -> None:
    """A channel route waits for its turn as it is sent, one sent within `first` (a table
    message's edit) before a post that asked earlier; an interaction's webhook never waits."""

    async def edit_first(http: HTTPClient) -> None:
        with first():
            await http.request(channel_edit())

    async def scenario() -> list[str]:
        async with discord_stand_in(monkeypatch, global_per_second=1.25) as (http, _, sent):  # 1 a second
            post = asyncio.ensure_future(http.request(channel_post()))
            await asyncio.sleep(0.05)  # the post waits for the next second
            edit = asyncio.ensure_future(edit_first(http))
            await asyncio.sleep(0.05)
            await http.request(webhook_edit())
            await asyncio.gather(post, edit)
            return [name for name, _ in sent]

    assert asyncio.run(scenario()) == [
        "GET /users/@me",
        "PATCH /webhooks/1/t/messages/@original",
        "PATCH /channels/1/messages/2",
        "POST /channels/1/messages",
    ]
    assert "/webhooks/" in EXEMPT and "/interactions/" in EXEMPT


@pytest.mark.slow
def test_a_message_drawn_ahead_goes_on_the_turn_it_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """`ahead` waits for a turn before the block draws its message; the block's first request
    goes on that turn, a second one waits for its own."""

    async def scenario() -> tuple[list[tuple[str, float]], float]:
        async with discord_stand_in(monkeypatch, global_per_second=1.25) as (http, pace, sent):  # 1 a second
            async with ahead(pace):
                drawn = asyncio.get_running_loop().time()
                await http.request(channel_edit())
                await http.request(channel_post())
            return sent, drawn

    sent, drawn = asyncio.run(scenario())
    login, edit, post = (at for _, at in sent)
    assert drawn - login >= 1.0 and edit - login < 2.0 and post - login >= 2.0  # a second wait: 2.0


@pytest.mark.slow
def test_requests_a_bucket_held_are_spaced_when_it_lets_them_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's bucket for a channel's posts holds the posts after the first one and lets
    them go together when it resets; the pace spaces them as they are sent, so no second holds
    more than it allows (paced when asked, they would have gone at once)."""

    async def scenario() -> list[float]:
        async with discord_stand_in(monkeypatch, global_per_second=2.5, bucket_reset=0.2) as (http, _, sent):
            await asyncio.gather(*(http.request(channel_post()) for _ in range(4)))
            start = sent[0][1]  # the login
            return [at - start for _, at in sent]

    times = asyncio.run(scenario())  # the login, then the posts, 2 a second: one per 0.5 s
    assert len(times) == 5
    assert all(at >= 0.5 * n - 0.01 for n, at in enumerate(times))  # the held ones too


def test_no_pacing_at_zero() -> None:
    """A limit of 0 leaves requests alone (a bot whose Discord enforces no global limit)."""
    trace = aiohttp.TraceConfig()
    assert install(trace, Route.BASE, global_per_second=0) is None
    assert not trace.on_request_start
