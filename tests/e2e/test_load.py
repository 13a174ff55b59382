"""What keeps the bot light under many tables (docs/performance-load.md), through real discord.py:
no view outlives its message, and the table message ends on the latest state however its edits
were coalesced."""

from __future__ import annotations

import gc

import discord

from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import bot_of, click, hand, open_table


async def test_no_view_outlives_its_message(uno: LocalDiscord) -> None:
    """Every component is dynamic, so discord.py keeps no view of a sent hand or table (a running
    view sent with an ephemeral hand would get a 15-minute timeout that keeps it alive)."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    message = await hand(uno, alice, ch)
    await click(uno, alice, message, "Refresh")

    def no_view() -> bool:
        gc.collect()
        return not any(isinstance(o, discord.ui.View) for o in gc.get_objects())

    await uno.stand_in.wait_until(no_view)
    store = bot_of(uno)._connection._view_store
    assert not store._views and not store._synced_message_views
