"""Shards across processes: one stand-in with 8 guilds, bot processes running shards of 4; each
guild's games are served by the process of its shard, and a process restores the tables of its
own guilds only (docs/architecture.md; `bot.shards`)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.client import UnoBot
from bot.localdiscord.records import Channel, Guild
from bot.localdiscord.testing import ClientFactory, LocalDiscord
from bot.shards import shard_of
from bot.tables import Table
from tests.e2e.conftest import make_bot
from tests.e2e.helpers import bot_of, click, command, lobby_message, play_randomly

GUILDS = 8
SHARDS = 4


def eight_guilds(factory: ClientFactory) -> LocalDiscord:
    """A stand-in with `GUILDS` guilds (two on each of `SHARDS` shards), a channel #uno in each,
    and alice in all of them."""
    env = LocalDiscord(factory, users=("alice",), channels=("uno",), rate_limits=False)
    for n in range(1, GUILDS):
        env.stand_in.add_guild(f"Guild {n}")
    return env


def process(db: Path, shard_ids: list[int] | None, shard_count: int = SHARDS) -> ClientFactory:
    """A bot process running ``shard_ids`` (None: all) of ``shard_count`` on the database ``db``."""
    return lambda stand_in: make_bot(stand_in, db, shards=(shard_count, shard_ids))


def uno_channel(env: LocalDiscord, guild: Guild) -> Channel:
    """The guild's #uno."""
    return env.stand_in.guild_channels(guild)[0]


async def open_game(env: LocalDiscord, bot: UnoBot, channel: Channel) -> Table:
    """alice opens a table, adds a computer player and starts; returns the table once its
    message is out and the game waits for alice."""
    alice = env.user("alice")
    await command(env, alice, channel, "uno new")
    await click(env, alice, lobby_message(env, channel), "Add bot")
    await click(env, alice, lobby_message(env, channel), "Start")

    def waiting() -> Table | None:
        table = bot.service.tables.get(channel.id)
        ready = table is not None and table.game is not None and table.message_id is not None
        return table if ready and table.game.pending.player == str(alice.id) else None  # type: ignore[union-attr]

    return await env.stand_in.wait_until(waiting, 10)


async def move(env: LocalDiscord, bot: UnoBot, channel: Channel, seed: int) -> None:
    """alice makes one move from ``/uno hand``; wait until ``bot``'s game has it."""
    table = bot.service.tables.require(channel.id)
    assert table.game is not None
    before = table.game.version
    message = await command(env, env.user("alice"), channel, "uno hand")
    assert message is not None
    await play_randomly(env, env.user("alice"), message, random.Random(seed))
    await env.stand_in.wait_until(lambda: table.game is not None and table.game.version != before)


async def test_two_processes_each_serve_their_shards(tmp_path: Path) -> None:
    """Processes A (shards 0 and 1 of 4) and B (2 and 3): a game in each of 8 guilds is served
    by the process of its guild's shard and unknown to the other; A restarts and its four games
    go on where they were, B's untouched."""
    env = eight_guilds(process(tmp_path / "a.db", [0, 1]))
    async with env:
        a = bot_of(env)
        b = await env.start_other(process(tmp_path / "b.db", [2, 3]))
        assert isinstance(b, UnoBot)
        mine = {g.id: (a if shard_of(g.id, SHARDS) < 2 else b) for g in env.stand_in.guilds}
        assert sorted(bot is a for bot in mine.values()) == [False] * 4 + [True] * 4
        tables = {}
        for guild in env.stand_in.guilds:
            tables[guild.id] = await open_game(env, mine[guild.id], uno_channel(env, guild))
        for guild in env.stand_in.guilds:
            other = b if mine[guild.id] is a else a
            assert other.service.tables.get(uno_channel(env, guild).id) is None
        for bot, shards in ((a, (0, 1)), (b, (2, 3))):  # what each process's metrics say
            for shard in range(SHARDS):
                count = bot.metrics.registry.get_sample_value("uno_tables", {"shard": str(shard)})
                assert count == (GUILDS // SHARDS if shard in shards else None)

        saved = {g: t.game.to_dict() for g, t in tables.items() if mine[g] is a and t.game is not None}
        await env.restart_client()
        a = bot_of(env)
        for guild in env.stand_in.guilds:
            channel = uno_channel(env, guild)
            if mine[guild.id] is b:
                assert b.service.tables.get(channel.id) is tables[guild.id]  # B never noticed
                continue
            restored = a.service.tables.require(channel.id)
            assert restored.game is not None and restored.game.to_dict() == saved[guild.id]
            await move(env, a, channel, seed=guild.id % 97)
        await move(env, b, uno_channel(env, next(g for g in env.stand_in.guilds if mine[g.id] is b)), 1)


async def test_a_process_restores_its_own_guilds_and_a_reshard_all(tmp_path: Path) -> None:
    """One database: a process running all 4 shards opens a game in each of 8 guilds; a process
    running shards 0 and 1 restores only the four of its guilds (the others stay saved for their
    own process); a process on 2 shards (a reshard from 4) restores all eight, and they go on."""
    db = tmp_path / "uno.db"
    env = eight_guilds(process(db, None))
    async with env:
        everything = bot_of(env)
        for guild in env.stand_in.guilds:
            await open_game(env, everything, uno_channel(env, guild))
        await env.stop_client()

        half = await env.start_other(process(db, [0, 1]))
        assert isinstance(half, UnoBot)
        ours = {uno_channel(env, g).id for g in env.stand_in.guilds if shard_of(g.id, SHARDS) < 2}
        assert {t.channel_id for t in half.service.tables} == ours and len(ours) == GUILDS // 2
        assert len(await half.storage.load_tables()) == GUILDS
        await env.stop_other(half)

        resharded = await env.start_other(process(db, None, shard_count=2))
        assert isinstance(resharded, UnoBot)
        assert len(resharded.service.tables) == GUILDS
        for guild in env.stand_in.guilds:
            if shard_of(guild.id, SHARDS) >= 2:  # those the half process had left alone
                await move(env, resharded, uno_channel(env, guild), seed=guild.id % 89)
