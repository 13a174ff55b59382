"""The operators' endpoint (`bot.ops.metrics`): ``/health`` and Prometheus' ``/metrics``, scraped
while users play, count what the bot did."""

from __future__ import annotations

import random
from pathlib import Path

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.client.bot import UnoBot
from bot.localdiscord import RateLimits
from bot.localdiscord.server import StandIn
from bot.localdiscord.testing import LocalDiscord
from tests.e2e.conftest import USERS, make_bot
from tests.e2e.helpers import bot_of, command, hand, open_table, play_randomly


def watched(stand_in: StandIn, db: Path) -> UnoBot:
    """The bot with its endpoint on a free port."""
    bot = make_bot(stand_in, db)
    bot.settings.metrics.port = 0
    return bot


@pytest.fixture
def env(tmp_path: Path) -> LocalDiscord:
    """The bot with metrics on (no rate limits unless a test sets them)."""
    return LocalDiscord(
        lambda s: watched(s, tmp_path / "uno.db"), users=USERS, channels=("uno",), wait_ready=True
    )


async def scrape(
    session: aiohttp.ClientSession, bot: UnoBot
) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``, by name and labels."""
    assert bot.metrics_server is not None
    async with session.get(f"http://127.0.0.1:{bot.metrics_server.port}/metrics") as response:
        assert response.status == 200
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def test_metrics_count_a_game(env: LocalDiscord) -> None:
    """During a game: every interaction is counted by kind, each acknowledged once and within 3
    s, the 429s and a Discord error are counted, the table is on shard 0, the saves are timed;
    ``/health`` says the shard is connected."""
    s, channel, bot = env.stand_in, env.channel("uno"), bot_of(env)
    alice, bob = env.user("alice"), env.user("bob")
    async with aiohttp.ClientSession() as session:
        before = await scrape(session, bot)
        assert before[("uno_tables", (("shard", "0"),))] == 0
        await open_table(env, channel, alice, [bob])
        for _ in range(2):
            table = bot.service.tables.require(channel.id)
            assert table.game is not None
            player = alice if table.game.pending.player == str(alice.id) else bob
            await play_randomly(env, player, await hand(env, player, channel), random.Random(3))
        await command(env, alice, channel, "uno rules")
        env.expect_error(10008)
        with pytest.raises(discord.NotFound):
            await bot.http.get_message(channel.id, 1)  # a message that does not exist
        # One request a second: the second of two posts in a row meets a global 429 (discord.py
        # waits out the rest of that second and posts it again).
        s.rate_limits = RateLimits(global_requests=1, global_seconds=1.0)
        text_channel = bot.get_channel(channel.id)
        assert isinstance(text_channel, discord.TextChannel)
        for text in ("Metrics check", "Metrics check again"):
            await text_channel.send(text)
        s.rate_limits = False
        acknowledged = "uno_acknowledgement_seconds_count"  # once the bot has read each answer
        await s.wait_until(lambda: bot.metrics.registry.get_sample_value(acknowledged) == len(s.interactions))

        after = await scrape(session, bot)
        kinds = {
            kind: after.get(("uno_interactions_total", (("kind", kind),)), 0)
            for kind in ("command", "component")
        }
        sent = {
            "command": sum(i.type == 2 for i in s.interactions),
            "component": sum(i.type == 3 for i in s.interactions),
        }
        assert kinds == sent and sent["command"] >= 2 and sent["component"] >= 4
        assert after[("uno_acknowledgement_seconds_count", ())] == len(s.interactions)
        assert after[("uno_acknowledgement_seconds_bucket", (("le", "3.0"),))] == len(s.interactions)
        assert after[("uno_discord_rate_limited_total", ())] >= 1 and s.rate_limited
        assert after[("uno_discord_errors_total", (("status", "404"),))] == 1
        assert after[("uno_tables", (("shard", "0"),))] == 1
        assert after[("uno_storage_seconds_count", (("operation", "save_table"),))] > 0

        async with session.get(f"http://127.0.0.1:{bot.metrics_server.port}/health") as response:  # type: ignore[union-attr]
            assert response.status == 200
            assert await response.json() == {"status": "ok", "shards": {"0": "connected"}}
