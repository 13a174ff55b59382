"""Whole games through real discord.py and the stand-in: every edition played by users through
slash commands and buttons to a final score, under Discord's rate limits."""

from __future__ import annotations

import random

import pytest

from bot.engine.editions import EDITIONS
from bot.localdiscord.testing import LocalDiscord
from bot.replay import check
from tests.e2e.helpers import bot_of, open_table, play_out


@pytest.mark.parametrize(
    ("variant", "internals"),
    [
        *(pytest.param(variant, True, id=variant) for variant in sorted(EDITIONS)),
        # discord.py's public API only (``discord.internals = false``), in an UNO and a DOS game.
        pytest.param("classic", False, id="classic-public-api"),
        pytest.param("dos", False, id="dos-public-api"),
    ],
    indirect=["internals"],
)
async def test_full_game_through_buttons(uno: LocalDiscord, variant: str) -> None:
    """Two users and a bot play an edition to its final standings, only through the UI, with
    Discord's rate limits on (a 429 makes discord.py wait and retry; the game still ends); the
    same with discord.py's public API only."""
    s = uno.stand_in
    s.rate_limits = True  # Discord's: 5 messages per 5 s per channel, 50 requests per second
    channel = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, channel, alice, [bob], bots=1, variant=variant, target_score=60)
    await play_out(uno, channel, table, {"alice": alice, "bob": bob}, random.Random(variant))
    final = await s.wait_for_message(channel, lambda m: "won!" in m.text)
    assert any(name in final.text for name in ("alice", "bob", "Bot 1"))
    assert uno.client.service.tables.get(channel.id) is None  # type: ignore[attr-defined]
    storage = bot_of(uno).storage
    rows = await storage.leaderboard(s.guild_id, variant=variant)
    assert sum(r.games_played for r in rows) == 2
    # The game's replay is kept, and the engine plays it again to the recorded end.
    (record,) = await storage.history(channel.id)
    assert record.result.replay is not None and check(record.result) is None
