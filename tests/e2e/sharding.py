"""Shards across bot processes in one test: a stand-in with 8 guilds, bots running shards of 4,
and what users do in each guild (`test_shards.py`, `test_leases.py`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.client.bot import UnoBot
from bot.localdiscord.records import Channel, Guild
from bot.localdiscord.testing import ClientFactory, LocalDiscord
from bot.tables import Table
from tests.e2e.conftest import make_bot
from tests.e2e.helpers import click, command, lobby_message, play_randomly

GUILDS = 8
SHARDS = 4


def eight_guilds(factory: ClientFactory) -> LocalDiscord:
    """A stand-in with `GUILDS` guilds (two on each of `SHARDS` shards), a channel #uno in each,
    and alice in all of them."""
    env = LocalDiscord(factory, users=("alice",), channels=("uno",), rate_limits=False)
    for n in range(1, GUILDS):
        env.stand_in.add_guild(f"Guild {n}")
    return env


def process(
    db: Path, shard_ids: list[int] | None, shard_count: int = SHARDS, storage: Callable[[], Any] | None = None
) -> ClientFactory:
    """A bot process running ``shard_ids`` (None: all) of ``shard_count`` on the SQLite database
    ``db``, or on a new storage object from ``storage`` (PostgreSQL, shared)."""
    return lambda stand_in: make_bot(
        stand_in, db, shards=(shard_count, shard_ids), storage=storage() if storage else None
    )


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

    return await env.stand_in.wait_until(waiting)


async def move(env: LocalDiscord, bot: UnoBot, channel: Channel, seed: int) -> None:
    """alice makes one move from ``/uno hand``; wait until ``bot``'s game has it."""
    table = bot.service.tables.require(channel.id)
    assert table.game is not None
    before = table.game.version
    message = await command(env, env.user("alice"), channel, "uno hand")
    assert message is not None
    await play_randomly(env, env.user("alice"), message, random.Random(seed))
    await env.stand_in.wait_until(lambda: table.game is not None and table.game.version != before)
