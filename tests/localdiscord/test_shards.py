"""The stand-in's shards: several guilds, IDENTIFY with ``shard``, READY and GUILD_CREATE per
shard, each guild's interactions on its shard's connection, ``GET /gateway/bot``."""

from __future__ import annotations

import aiohttp
import discord
import orjson

from bot.localdiscord.testing import LocalDiscord

from .demo_bot import Demo, DemoBot

SHARDS = 2


class ShardedDemo(DemoBot, discord.AutoShardedClient):
    """The demo bot running one shard of `SHARDS`, its commands synced globally (they reach
    every guild)."""

    def __init__(self, stand_in: object, shard_id: int) -> None:
        super().__init__(stand_in)  # type: ignore[arg-type]
        self.shard_count, self.shard_ids = SHARDS, [shard_id]

    async def setup_hook(self) -> None:
        """Sync /demo globally."""
        self.tree.add_command(Demo(self))
        await self.tree.sync()


def sharded(shard_id: int) -> object:
    """A `LocalDiscord` client factory for shard ``shard_id``."""
    return lambda stand_in: ShardedDemo(stand_in, shard_id)


async def test_each_guild_on_its_shard() -> None:
    """Two processes' worth of clients, shard 0 and shard 1 of 2, over four guilds: each is told
    of (READY, GUILD_CREATE) and gets the interactions of only the guilds of its shard; a DM's
    events go to shard 0, whichever shard sent it."""
    env = LocalDiscord(sharded(0), users=("alice",))
    async with env:
        stand_in = env.stand_in
        for n in range(3):
            stand_in.add_guild(f"Guild {n}")
        second = await env.start_other(sharded(1))  # type: ignore[arg-type]
        first = env.client
        assert isinstance(first, ShardedDemo) and isinstance(second, ShardedDemo)
        on = {shard: {g.id for g in stand_in.guilds if g.shard(SHARDS) == shard} for shard in (0, 1)}
        assert len(on[0]) == len(on[1]) == 2  # guilds added one after another alternate
        await stand_in.wait_until(lambda: len(second.guilds) == 2)
        assert {g.id for g in first.guilds} == on[0] and {g.id for g in second.guilds} == on[1]
        identifies = [d for op, d in stand_in.gateway.frames_received if op == 2]
        assert sorted(d["shard"] for d in identifies) == [[0, 2], [1, 2]]  # as discord.py sends them
        for guild in stand_in.guilds:
            channel = stand_in.guild_channels(guild)[0]
            run = await stand_in.slash(env.user("alice"), channel, "demo echo", text=guild.name, count=1)
            answer = await run.response()
            assert answer.message is not None and answer.message.content == guild.name
        assert sorted(e["text"] for e in first.echoes) == sorted(
            g.name for g in stand_in.guilds if g.id in on[0]
        )
        assert sorted(e["text"] for e in second.echoes) == sorted(
            g.name for g in stand_in.guilds if g.id in on[1]
        )
        shard_1 = next(g for g in stand_in.guilds if g.id in on[1])
        await (
            await stand_in.slash(env.user("alice"), stand_in.guild_channels(shard_1)[0], "demo dm")
        ).response()
        await stand_in.wait_until(lambda: any(m.guild is None for m in first.seen))
        assert not any(m.guild is None for m in second.seen)  # the sender never hears of it


async def test_gateway_bot_and_invalid_shard() -> None:
    """``GET /gateway/bot`` recommends the set shard count; an IDENTIFY naming a shard out of
    its count is closed with 4010 Invalid shard, as on Discord."""
    env = LocalDiscord(DemoBot)
    async with env, aiohttp.ClientSession() as session:
        stand_in = env.stand_in
        headers = {"Authorization": f"Bot {stand_in.token}"}
        stand_in.state.recommended_shards = 4
        async with session.get(f"{stand_in.api_url}/gateway/bot", headers=headers) as response:
            body = await response.json()
        assert body["shards"] == 4 and body["url"] == stand_in.gateway_url
        async with session.ws_connect(stand_in.gateway_url) as ws:
            await ws.receive()  # HELLO
            identify = {"token": stand_in.token, "intents": 1, "properties": {}, "shard": [2, 2]}
            await ws.send_str(orjson.dumps({"op": 2, "d": identify}).decode())
            closed = await ws.receive()
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4010
