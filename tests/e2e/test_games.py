"""Whole games through real discord.py and the stand-in: every edition played by users through
slash commands and buttons to a final score, under Discord's rate limits."""

from __future__ import annotations

import random

import pytest

from bot.engine.variants import VARIANTS
from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import hand, open_table, play_randomly, table_message, waiting_for


@pytest.mark.parametrize("variant", sorted(VARIANTS))
async def test_full_game_through_buttons(uno: LocalDiscord, variant: str) -> None:
    """Two users and a bot play an edition to its final standings, only through the UI, with
    Discord's rate limits on (a 429 makes discord.py wait and retry; the game still ends)."""
    s = uno.stand_in
    s.rate_limits = True  # Discord's: 5 messages per 5 s per channel, 50 requests per second
    channel = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, channel, alice, [bob], bots=1, variant=variant, target_score=60)
    game = table.game
    assert game is not None
    rng = random.Random(variant)
    users = {"alice": alice, "bob": bob}
    for _ in range(3000):
        if game.game_over:
            break
        name = table.name(game.pending.player)
        if name not in users:  # a bot's move: it plays by itself
            await s.wait_until(lambda: game.game_over or table.name(game.pending.player) in users, 10)
            continue
        # The table message names the player the game waits for, once it is published.
        await s.wait_until(lambda name=name: waiting_for(table_message(uno, channel)) == name, 10)
        before = game.version
        await play_randomly(uno, users[name], await hand(uno, users[name], channel), rng)
        await s.wait_until(lambda before=before: game.version != before or game.game_over, 10)
    assert game.game_over, "the game did not finish"
    final = await s.wait_for_message(channel, lambda m: "won!" in m.text)
    assert any(name in final.text for name in ("alice", "bob", "Bot 1"))
    assert uno.client.service.tables.get(channel.id) is None  # type: ignore[attr-defined]
    rows = await uno.client.storage.leaderboard(s.guild_id, variant=variant)  # type: ignore[attr-defined]
    assert sum(r.games_played for r in rows) == 2
