"""No Discord call under a table's lock: every end-to-end test is watched (`LockWatch`, an autouse
fixture); here the watch is shown to see such a call, and a whole game is played under it."""

from __future__ import annotations

import random

from bot.localdiscord.testing import LocalDiscord
from bot.service import LOBBY
from tests.e2e.conftest import LockWatch
from tests.e2e.helpers import bot_of, click, command, hand, lobby_message, play_randomly, table_of


async def test_the_watch_sees_a_call_made_under_a_lock(
    uno: LocalDiscord, no_rest_under_lock: LockWatch
) -> None:
    """A REST request sent by a task holding a table's lock is recorded (so the watch can fail)."""
    ch = uno.channel("uno")
    await command(uno, uno.user("alice"), ch, "uno new")
    tables = bot_of(uno).service.tables
    async with tables.lock(ch.id):
        await bot_of(uno).get_partial_messageable(ch.id).send("held")
    assert len(no_rest_under_lock.under_lock) == 1
    assert no_rest_under_lock.under_lock[0].startswith("POST /api/v10/channels/")
    no_rest_under_lock.under_lock.clear()  # seen: this test's one, on purpose


async def test_a_game_makes_no_call_under_a_lock(uno: LocalDiscord, no_rest_under_lock: LockWatch) -> None:
    """A game from the lobby to its end (lobby commands, AI seats, UNO calls, catches, the last
    round's summary and standings, /uno table, /uno end of the next lobby) sends every one of its
    REST requests with no table lock held."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await command(uno, alice, ch, "uno new", scoring="single-round")
    await command(uno, bob, ch, "uno join")
    await command(uno, bob, ch, "uno leave")
    await bot_of(uno).service.updates.done((ch.id, LOBBY))  # the lobby message shows it
    await click(uno, bob, lobby_message(uno, ch), "Join")
    await click(uno, alice, lobby_message(uno, ch), "Add bot")
    await click(uno, alice, lobby_message(uno, ch), "Start")
    await command(uno, alice, ch, "uno table")
    rng = random.Random(3)
    for _ in range(400):
        if bot_of(uno).service.tables.get(ch.id) is None:
            break
        game = table_of(uno, ch).game
        assert game is not None
        user = alice if game.pending.player == str(alice.id) else bob
        if game.pending.player in (str(alice.id), str(bob.id)):
            await play_randomly(uno, user, await hand(uno, user, ch), rng)
        else:
            await uno.stand_in.wait_until(
                lambda g=game, v=game.version: bot_of(uno).service.tables.get(ch.id) is None or g.version != v
            )
    await uno.stand_in.wait_for_message(ch, lambda m: "won!" in m.text)
    await command(uno, alice, ch, "uno new")
    await command(uno, alice, ch, "uno end")
    assert no_rest_under_lock.requests > 50  # the game's requests were seen, none under a lock
