"""A table has one owner across bot processes on one PostgreSQL database (bot/service/leases.py):
a process whose shards overlap another's acts on none of that one's tables, and a replacement
started before the old process stopped takes its tables only once they are free. Skipped where
the PostgreSQL storage or a PostgreSQL server (``UNO_TEST_POSTGRES_URL``, scripts/test) is
missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client.bot import UnoBot
from bot.client.shards import shard_of
from tests.e2e.helpers import bot_of
from tests.e2e.sharding import SHARDS, eight_guilds, move, open_game, process, uno_channel

postgres = pytest.importorskip("bot.storage.postgres", reason="this tree has no PostgreSQL storage")
storage_helpers = pytest.importorskip("tests.storage.helpers")
LeaseError = pytest.importorskip("bot.storage").LeaseError


async def test_a_table_has_one_owner(tmp_path: Path) -> None:
    """A (shards 0, 1 of 4) and B (2, 3) open a game in each of their guilds. C, started on
    shards 1 and 2 (both others' shards), restores none of their tables and cannot save them.
    A2, A's replacement started while A still runs, holds nothing until A stops; then it takes
    A's four tables (`Leases.renew`, as its next renewal would) and they go on."""
    url = storage_helpers.fresh_schema()

    def on_postgres(shard_ids: list[int]) -> object:
        return process(tmp_path / "unused.db", shard_ids, storage=lambda: postgres.PostgresStorage(url))

    env = eight_guilds(on_postgres([0, 1]))  # type: ignore[arg-type]
    async with env:
        a = bot_of(env)
        b = await env.start_other(on_postgres([2, 3]))  # type: ignore[arg-type]
        assert isinstance(b, UnoBot)
        guilds = env.stand_in.guilds
        owner = {g.id: a if shard_of(g.id, SHARDS) < 2 else b for g in guilds}
        for guild in guilds:
            await open_game(env, owner[guild.id], uno_channel(env, guild))
        theirs = {uno_channel(env, g).id for g in guilds if shard_of(g.id, SHARDS) in (1, 2)}

        c = await env.start_other(on_postgres([1, 2]))  # type: ignore[arg-type]
        assert isinstance(c, UnoBot)
        assert len(c.service.tables) == 0 and c.service.leases.waiting == theirs
        table = a.service.tables.require(min(theirs & {t.channel_id for t in a.service.tables}))
        with pytest.raises(LeaseError):
            await c.storage.save_table(table.guild_id, table.channel_id, table.to_snapshot())
        await c.service.leases.renew()  # still theirs: nothing taken
        assert len(c.service.tables) == 0
        await env.stop_other(c)

        a_channels = {t.channel_id for t in a.service.tables}
        a2 = await env.start_other(on_postgres([0, 1]))  # type: ignore[arg-type]
        assert isinstance(a2, UnoBot)
        assert len(a2.service.tables) == 0 and a2.service.leases.waiting == a_channels
        saved = {t.channel_id: t.game.to_dict() for t in a.service.tables if t.game is not None}
        await env.stop_client()  # A stops, giving up its leases
        await a2.service.leases.renew()
        assert {t.channel_id for t in a2.service.tables} == a_channels
        for guild in guilds:
            channel = uno_channel(env, guild)
            if channel.id in a_channels:
                restored = a2.service.tables.require(channel.id)
                assert restored.game is not None and restored.game.to_dict() == saved[channel.id]
                await move(env, a2, channel, seed=guild.id % 83)
