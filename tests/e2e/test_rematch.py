"""Rematch: the finished game's standings carry a button that opens a lobby like the game's, in
the same channel, even after a restart."""

from __future__ import annotations

import random

from bot.localdiscord.records import Channel, Message
from bot.localdiscord.testing import LocalDiscord
from bot.tables import TableState
from tests.e2e.helpers import bot_of, click, labels, leave, lobby_message, open_table, play_out, table_of


async def finish(uno: LocalDiscord, channel: Channel, bots: int, **options: object) -> Message:
    """alice hosts a game with bob and ``bots`` bots, played out: its standings message."""
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, channel, alice, [bob], bots=bots, **options)  # type: ignore[arg-type]
    await play_out(uno, channel, table, {"alice": alice, "bob": bob}, random.Random(3))
    return await uno.stand_in.wait_for_message(channel, lambda m: "won!" in m.text)


async def test_rematch_opens_a_lobby_like_the_finished_game(uno: LocalDiscord) -> None:
    """bob (not the host) presses Rematch: a lobby with the game's edition and options, bob and
    the bots seated, bob hosting until alice (the game's host) joins; pressed again while that
    lobby is open, it is refused privately and nothing changes."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    standings = await finish(uno, channel, 2, variant="flip", scoring="single-round")
    assert "Rematch" in labels(standings)
    await s.wait_until(lambda: bot_of(uno).service.tables.get(channel.id) is None)

    await click(uno, bob, standings, "Rematch")
    await s.wait_until(lambda: any("Join" in labels(m) for m in s.messages(channel)[-1:]))
    lobby = table_of(uno, channel)
    assert lobby.state is TableState.LOBBY and lobby.variant == "flip"
    assert lobby.options.scoring.value == "single-round"
    assert [x.name for x in lobby.seats] == ["bob", "Bot 1", "Bot 2"] and lobby.host.name == "bob"
    # The bot records the lobby message's id once Discord has answered its post: wait for it.
    await s.wait_until(lambda: table_of(uno, channel).message_id == lobby_message(uno, channel).id)

    await click(uno, alice, lobby_message(uno, channel), "Join")
    lobby = table_of(uno, channel)
    assert lobby.host.name == "alice" and "alice (host)" in lobby_message(uno, channel).text

    answer = await click(uno, alice, standings, "Rematch")
    assert answer is not None and answer.ephemeral and "already open" in answer.text
    assert table_of(uno, channel) is lobby and len(lobby.seats) == 4


async def test_rematch_after_a_restart(uno: LocalDiscord) -> None:
    """The standings' Rematch still works once the bot has restarted: the game's settings come
    from its record; alice, its host, hosts again."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice = uno.user("alice")
    standings = await finish(uno, channel, 1, target_score=50, partners=False)
    await s.wait_until(lambda: bot_of(uno).service.tables.get(channel.id) is None)
    await uno.restart_client()

    await click(uno, alice, standings, "Rematch")
    await s.wait_until(lambda: bot_of(uno).service.tables.get(channel.id) is not None)
    lobby = table_of(uno, channel)
    await s.wait_until(lambda: lobby.message_id is not None)
    assert (lobby.variant, lobby.options.target_score, lobby.host.name) == ("classic", 50, "alice")
    assert [x.name for x in lobby.seats] == ["alice", "Bot 1"] and lobby.rematch_host == ""
    await click(uno, alice, lobby_message(uno, channel), "Start")
    await s.wait_until(lambda: table_of(uno, channel).state is TableState.PLAYING)


async def test_a_rematch_seats_a_bot_that_took_a_seat_over_as_a_bot_of_its_own(uno: LocalDiscord) -> None:
    """bob hands his seat to a bot ("Bot 2 (for bob)") and alice finishes the game: the Rematch's
    lobby seats that bot as "Bot 2", since bob isn't at the new table (docs/rules.md §5.3)."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, channel, alice, [bob], bots=1, scoring="single-round")
    await leave(uno, bob, channel, bot=True)
    assert "Bot 2 (for bob)" in [x.name for x in table_of(uno, channel).seats]
    await play_out(uno, channel, table, {"alice": alice}, random.Random(3))
    standings = await s.wait_for_message(channel, lambda m: "won!" in m.text)
    await s.wait_until(lambda: bot_of(uno).service.tables.get(channel.id) is None)

    await click(uno, alice, standings, "Rematch")
    await s.wait_until(lambda: any("Join" in labels(m) for m in s.messages(channel)[-1:]))
    lobby = table_of(uno, channel)
    assert sorted(x.name for x in lobby.seats) == ["Bot 1", "Bot 2", "alice"]
    assert {x.level for x in lobby.seats if x.is_ai} == {"normal"}
