"""The ``discord.internals`` setting through real discord.py: on, a move takes the bot's own paths
(`bot.client.internals`); off, discord.py's public API alone. Players see the same either way
(tests/e2e/test_games.py, test_table.py and test_threads.py run games and presses both ways)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import discord
import pytest

from bot.localdiscord.testing import LocalDiscord
from bot.service import TABLE
from tests.e2e.helpers import bot_of, both_apis, click, drawing_only, hand, table_message, table_of

PUBLIC = {
    "a click's message rebuilt as a view": (discord.ui.LayoutView, "from_message"),
    "a click answered by its response": (discord.InteractionResponse, "edit_message"),
    "an open hand edited through its token": (discord.Webhook, "edit_message"),
    "the table message edited": (discord.PartialMessage, "edit"),
}
"""The public discord.py path each of the adapter's functions falls back to, by what it does."""


def count_public_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count the calls of every `PUBLIC` path (they still run)."""
    calls: Counter[str] = Counter()
    for what, (cls, name) in PUBLIC.items():
        original = getattr(cls, name)
        if name == "from_message":  # a classmethod, called synchronously
            func = original.__func__

            def rebuilt(
                cls: type[Any], *args: Any, _what: str = what, _func: Any = func, **kwargs: Any
            ) -> Any:
                calls[_what] += 1
                return _func(cls, *args, **kwargs)

            monkeypatch.setattr(cls, name, classmethod(rebuilt))
        else:

            async def called(
                self: Any, *args: Any, _what: str = what, _original: Any = original, **kwargs: Any
            ) -> Any:
                calls[_what] += 1
                return await _original(self, *args, **kwargs)

            monkeypatch.setattr(cls, name, called)
    return calls


@both_apis
async def test_a_move_takes_the_paths_the_setting_says(
    uno: LocalDiscord, internals: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Draw from alice's hand, answered in place, the table message and bob's open hand
    updated: with the internals, through none of discord.py's public paths that parse what
    Discord sends back (and no click's message rebuilt); without them, through each of them, and
    neither the lean dispatch nor the amortized bucket scan is installed."""
    calls = count_public_calls(monkeypatch)
    game = await drawing_only(uno)
    ch, alice, bob = uno.channel("uno"), uno.user("alice"), uno.user("bob")
    bobs = await hand(uno, bob, ch)
    mine = await hand(uno, alice, ch)
    shown = bobs.text, table_message(uno, ch).text
    await click(uno, alice, mine, "Draw")
    assert game.pending.player == table_of(uno, ch).seats[1].id  # alice's draw passed the turn

    def updated() -> bool:  # bob's open hand and the table message say it is his move
        now = next(m for m in uno.stand_in.visible_messages(bob, ch) if m.id == bobs.id)
        return now.text != shown[0] and table_message(uno, ch).text != shown[1]

    await uno.stand_in.wait_until(updated)
    await bot_of(uno).service.updates.done((ch.id, TABLE))
    client = bot_of(uno)
    installed = {
        "lean dispatch": "schedule_dynamic_item_call" in vars(client._connection._view_store),
        "bucket scan": "_try_clear_expired_ratelimits" in vars(client.http),
    }
    if internals:
        assert calls == Counter() and all(installed.values()), (calls, installed)
    else:
        assert set(calls) == set(PUBLIC) and not any(installed.values()), (calls, installed)
