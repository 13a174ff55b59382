"""Shards across processes: one stand-in with 8 guilds, bot processes running shards of 4; each
guild's games are served by the process of its shard, and a process restores the tables of its
own guilds only (docs/architecture.md; `bot.client.shards`)."""

from __future__ import annotations

from pathlib import Path

from bot.client.bot import UnoBot
from bot.client.shards import shard_of
from tests.e2e.helpers import bot_of
from tests.e2e.sharding import GUILDS, SHARDS, eight_guilds, move, open_game, process, uno_channel


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
