"""Discord's rate limits in the stand-in (``rate_limits=True``): 5 messages per 5 s per channel, 50
requests per second per bot, interaction routes exempt; answered with Discord's 429 body and
headers, and waited out by discord.py itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord
import pytest

from bot.localdiscord import Clock, RateLimits, StandIn, start_stand_in
from bot.localdiscord import interactions as stand_in_interactions
from bot.localdiscord.testing import LocalDiscord

from .demo_bot import DemoBot

RATE_LIMITED = "You are being rate limited."


class Api:
    """Raw HTTP to a stand-in's ``/api/v10`` with its bot token; answers ``(status, headers,
    body)``."""

    def __init__(self, stand_in: StandIn, session: aiohttp.ClientSession) -> None:
        self.stand_in = stand_in
        self.session = session

    async def __call__(self, method: str, path: str, body: Any = None) -> tuple[int, Any, Any]:
        headers = {"Authorization": f"Bot {self.stand_in.token}"}
        url = self.stand_in.api_url + path
        async with self.session.request(method, url, json=body, headers=headers) as response:
            data = await response.json() if response.content_type == "application/json" else None
            return response.status, response.headers, data

    async def post(self, channel_id: int, content: str) -> tuple[int, Any, Any]:
        """``POST /channels/{id}/messages``."""
        return await self("POST", f"/channels/{channel_id}/messages", {"content": content})


@asynccontextmanager
async def api(rate_limits: bool = True) -> AsyncIterator[Api]:
    """A stand-in (channels #uno and #other, a frozen clock) and raw HTTP to it, no bot."""
    stand_in = await start_stand_in(
        users=["alice"], channels=["uno", "other"], clock=Clock(frozen=True), rate_limits=rate_limits
    )
    try:
        async with aiohttp.ClientSession() as session:
            yield Api(stand_in, session)
    finally:
        await stand_in.close()


async def test_channel_message_bucket() -> None:
    """The 6th message in 5 s in one channel gets 429 with retry_after and the bucket headers;
    another channel is unaffected; after the window the channel takes messages again."""
    async with api() as call:
        stand_in = call.stand_in
        uno, other = stand_in.channel("uno"), stand_in.channel("other")
        buckets = set()
        for n in range(5):
            status, headers, _ = await call.post(uno.id, f"m{n}")
            assert status == 200
            assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == str(4 - n)
            assert headers["X-RateLimit-Reset-After"] == "5.000"
            assert float(headers["X-RateLimit-Reset"]) == round(stand_in.clock.now() + 5, 3)
            buckets.add(headers["X-RateLimit-Bucket"])
        assert len(buckets) == 1

        status, headers, body = await call.post(uno.id, "m5")
        assert status == 429
        assert body == {"message": RATE_LIMITED, "retry_after": 5.0, "global": False}
        assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
        assert headers["Retry-After"] == "5" and headers["X-RateLimit-Remaining"] == "0"
        assert headers["X-RateLimit-Bucket"] in buckets and headers["Via"]  # discord.py needs Via

        status, headers, _ = await call.post(other.id, "elsewhere")
        assert status == 200 and headers["X-RateLimit-Remaining"] == "4"

        stand_in.clock.advance(2)
        status, _, body = await call.post(uno.id, "m5")
        assert status == 429 and body["retry_after"] == 3.0
        stand_in.clock.advance(3)
        status, headers, _ = await call.post(uno.id, "m5")
        assert status == 200 and headers["X-RateLimit-Remaining"] == "4"

        assert [m.content for m in stand_in.messages(uno)] == ["m0", "m1", "m2", "m3", "m4", "m5"]
        refused = stand_in.rate_limited
        assert len(refused) == 2 and all(r.error is not None and r.error.status == 429 for r in refused)
        assert all(r.response["message"] == RATE_LIMITED for r in refused)
        assert refused == [r for r in stand_in.errors if r.status == 429]  # in the log as errors are


async def test_global_limit() -> None:
    """The 51st counted request in one second gets a global 429 (whatever the route), and the
    next second takes requests again."""
    async with api() as call:
        stand_in, uno = call.stand_in, call.stand_in.channel("uno")
        for _ in range(49):
            assert (await call("GET", "/users/@me"))[0] == 200
        assert (await call.post(uno.id, "fiftieth"))[0] == 200
        for method, path in (("GET", "/users/@me"), ("POST", f"/channels/{uno.id}/messages")):
            status, headers, body = await call(method, path, {"content": "x"} if method == "POST" else None)
            assert status == 429
            assert body == {"message": RATE_LIMITED, "retry_after": 1.0, "global": True}
            assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
            assert headers["Retry-After"] == "1" and headers["Via"]
        stand_in.clock.advance(1)
        assert (await call("GET", "/users/@me"))[0] == 200
        assert [m.content for m in stand_in.messages(uno)] == ["fiftieth"]


async def test_interaction_routes_are_never_rate_limited() -> None:
    """With the global window and the channel's message bucket both full, interaction callbacks,
    followups and ``@original`` edits in that channel still go through."""
    async with api() as call:
        stand_in, uno = call.stand_in, call.stand_in.channel("uno")
        state, alice = stand_in.state, stand_in.user("alice")
        for n in range(5):
            assert (await call.post(uno.id, f"m{n}"))[0] == 200
        for _ in range(45):
            assert (await call("GET", "/users/@me"))[0] == 200
        assert (await call("GET", "/users/@me"))[0] == 429
        panel = state.create_message(uno, state.bot, {"content": "panel"}, validate=False)
        for n in range(60):
            run = stand_in_interactions.start(state, alice, uno, 2, {"name": "x"}, command="x")
            callback = f"/interactions/{run.id}/{run.token}/callback?with_response=1"
            webhook = f"/webhooks/{stand_in.application_id}/{run.token}"
            assert (await call("POST", callback, {"type": 4, "data": {"content": f"a{n}"}}))[0] == 200
            assert (await call("POST", webhook + "?wait=true", {"content": f"f{n}"}))[0] == 200
            assert (await call("PATCH", webhook + "/messages/@original", {"content": f"e{n}"}))[0] == 200
        assert len(stand_in.rate_limited) == 1 and panel.content == "panel"


async def test_off_by_default_and_switchable() -> None:
    """Without ``rate_limits`` nothing is refused and no rate limit headers are sent; turned on
    later, the limits count from then."""
    async with api(rate_limits=False) as call:
        stand_in, uno = call.stand_in, call.stand_in.channel("uno")
        assert stand_in.rate_limits is None
        for n in range(60):
            status, headers, _ = await call.post(uno.id, f"m{n}")
            assert status == 200 and "X-RateLimit-Limit" not in headers
        assert stand_in.rate_limited == []
        stand_in.rate_limits = True
        assert stand_in.rate_limits == RateLimits()
        statuses = [(await call.post(uno.id, f"n{n}"))[0] for n in range(6)]
        assert statuses == [200] * 5 + [429]


@pytest.mark.slow
async def test_discord_py_waits_out_a_429() -> None:
    """discord.py, logged into the stand-in with rate limits on, posts 7 messages in a row to a
    channel whose bucket another process of the bot has just filled: it gets a 429, waits
    retry_after, then paces itself by the bucket headers, and all 7 arrive in order. The 429s
    do not fail the harness. (A 2 s window instead of 5 s keeps the test short.)"""
    async with LocalDiscord(DemoBot, rate_limits=RateLimits(channel_seconds=2.0)) as env:
        stand_in, uno = env.stand_in, env.channel("uno")
        async with aiohttp.ClientSession() as session:
            call = Api(stand_in, session)
            for n in range(5):
                assert (await call.post(uno.id, f"other process {n}"))[0] == 200
        channel = env.client.get_channel(uno.id)
        assert isinstance(channel, discord.TextChannel)
        for n in range(7):
            await channel.send(f"m{n}")
        assert [m.content for m in stand_in.messages(uno)][5:] == [f"m{n}" for n in range(7)]
        assert stand_in.rate_limited and all(
            r.path == f"/channels/{uno.id}/messages" for r in stand_in.rate_limited
        )
    assert not env.problems()
