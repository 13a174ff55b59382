"""A bot for a seat: a player hands theirs over with ``/uno leave bot:True``, the host gives one
with ``/uno kick … bot:True``; the bot plays on with that seat's hand and score (docs/rules.md §5.3)."""

from __future__ import annotations

import random

import pytest

from bot.engine.dos.game import DosGame
from bot.engine.editions import AnyGame, replay_game
from bot.engine.game import Game
from bot.localdiscord.testing import LocalDiscord
from bot.replay import check
from tests.e2e.helpers import (
    bot_of,
    choose,
    click,
    command,
    hand,
    labels,
    leave,
    open_table,
    play_out,
    play_randomly,
    table_of,
)


def held(game: AnyGame, player: str) -> list[str]:
    """A player's cards by name, sorted."""
    return sorted(c.name for c in game.hands[player])


async def test_leave_with_a_bot_keeps_the_hand_in_play(uno: LocalDiscord) -> None:
    """bob leaves in the middle of a round with ``bot:True``: a bot takes his seat with his hand
    and plays the game to its end; the record seats the bot, notes bob as having left (from
    which move) and replays (bob's hand is the bot's at the moment it took over); bob played
    the game and did not win it, and its file is his too."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    table = await open_table(uno, channel, alice, [bob, carol], scoring="single-round")
    table.turn_seconds = 0
    game = table.game
    assert game is not None
    bobs, version = held(game, str(bob.id)), game.version

    answer = await leave(uno, bob, channel, bot=True)
    assert answer is not None and answer.ephemeral and "A bot plays your seat" in answer.text
    table = table_of(uno, channel)
    game = table.game
    assert game is not None and [x.name for x in table.seats][1] == "Bot 1 (for bob)"
    assert game.players[1] == "ai:1" and str(bob.id) not in game.players
    assert "bob handed their seat to Bot 1 (for bob)" in "\n".join(table.log)

    await play_out(uno, channel, table, {"alice": alice, "carol": carol}, random.Random(4))
    await s.wait_until(lambda: bot_of(uno).service.tables.get(channel.id) is None)
    record = (await bot_of(uno).storage.history(channel.id))[0].result
    assert record.players == [str(alice.id), "ai:1", str(carol.id)] and record.replay is not None
    assert record.replay["names"][1] == "Bot 1 (for bob)" and record.left == [str(bob.id)]
    assert record.replay["handovers"] == [
        {"seat": "ai:1", "player": str(bob.id), "name": "bob", "at": version}
    ]
    assert check(record) is None  # the renamed journal replays to the recorded end
    bobs_record = await bot_of(uno).storage.stats(s.guild_id, str(bob.id))
    assert (bobs_record.games_played, bobs_record.games_won) == (1, 0)  # docs/rules.md §5.1, §5.3
    listing = await command(uno, bob, channel, "uno history")
    assert listing is not None
    answer = await choose(uno, bob, listing, record.game_id)
    assert answer is not None and len(answer.attachments) == 1  # he sat there: the file is his
    journal = record.replay["journal"]
    then = Game.replay({**record.replay, "journal": journal[:version]})
    assert held(then, "ai:1") == bobs  # the bot took bob's hand as it was
    assert any(seat == 1 for seat, _ in journal[version:])  # and played it


async def test_the_host_gives_a_seat_to_a_bot(uno: LocalDiscord) -> None:
    """alice (the host) gives carol's seat to a bot mid-round (bob may not): the bot holds
    carol's cards; a player who has left can't have theirs given (their hand is back in the
    draw pile), and nothing changes."""
    channel = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    table = await open_table(uno, channel, alice, [bob, carol], bots=1)
    table.turn_seconds = 0
    game = table.game
    assert game is not None
    carols, version = held(game, str(carol.id)), game.version
    carols_hand = await hand(uno, carol, channel)

    answer = await command(uno, bob, channel, "uno kick", member=carol, bot=True)
    assert answer is not None and "Only the host" in answer.text
    answer = await command(uno, alice, channel, "uno kick", member=carol, bot=True)
    assert answer is not None and "a bot plays their seat now" in answer.text
    table = table_of(uno, channel)
    game = table.game
    assert game is not None and str(carol.id) not in game.players and table.removed == {}
    saved = game.to_dict()
    assert held(Game.replay({**saved, "journal": saved["journal"][:version]}), "ai:2") == carols

    assert [x.name for x in table.seats] == ["alice", "bob", "Bot 2 (for carol)", "Bot 1"]
    # carol's open hand is no longer hers to play: redrawn without buttons
    await uno.stand_in.wait_until(lambda: "Not in this game" in carols_hand.text and not carols_hand.buttons)

    await leave(uno, bob, channel)
    answer = await command(uno, alice, channel, "uno kick", member=bob, bot=True)
    assert answer is not None and "no bot can take it" in answer.text
    assert table_of(uno, channel).seat(str(bob.id)) is not None and "ai:3" not in game.players


@pytest.mark.parametrize("variant", ["classic", "dos"])
async def test_a_seat_one_timeout_from_removal_is_offered_to_a_bot(uno: LocalDiscord, variant: str) -> None:
    """bob runs out of time a second time (one short of removal at 3): the channel is told, with
    a button that gives his seat to a bot; carol (not the host) may not press it, alice (the
    host) does, and the bot holds bob's hand as the timeout left it; pressed again, it is
    refused."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    table = await open_table(uno, channel, alice, [bob], bots=1, variant=variant)
    table.turn_seconds = 0
    game = table.game
    assert game is not None
    rng = random.Random(2)
    while game.pending.player != str(bob.id):  # alice plays, the bot by itself, until bob's turn
        before = game.version
        if game.pending.player == str(alice.id):
            await play_randomly(uno, alice, await hand(uno, alice, channel), rng)
        await s.wait_until(lambda before=before: game.version != before)
    table.timeouts[str(bob.id)] = 1
    # bob's turn timer alone: 1 s, and no timer for whoever comes next.
    table.turn_seconds = 1
    bot_of(uno).service.scheduler.schedule(table)
    table.turn_seconds = 0
    offer = await s.wait_for_message(channel, lambda m: "Give bob's seat to a bot" in labels(m))
    assert "bob has run out of time 2 times in a row" in offer.text
    assert table.in_game(str(bob.id)) and table.timeouts[str(bob.id)] == 2
    version = game.version
    bobs = held(game, str(bob.id))

    answer = await click(uno, carol, offer, "Give bob's seat to a bot")
    assert answer is not None and answer.ephemeral and "Only the host" in answer.text
    assert table_of(uno, channel).in_game(str(bob.id))
    answer = await click(uno, alice, offer, "Give bob's seat to a bot")
    assert answer is not None and answer.ephemeral and "bob: a bot plays their seat now" in answer.text
    table = table_of(uno, channel)
    game = table.game
    assert game is not None and str(bob.id) not in game.players
    assert [x.name for x in table.seats] == ["alice", "Bot 2 (for bob)", "Bot 1"]
    saved = game.to_dict()
    assert held(replay_game({**saved, "journal": saved["journal"][:version]}), "ai:2") == bobs
    answer = await click(uno, alice, offer, "Give bob's seat to a bot")
    assert answer is not None and answer.text == "That player isn't at this table."


async def test_dos_seats_go_to_bots(uno: LocalDiscord) -> None:
    """docs/rules.md §5.3 at a DOS table (§14.13): bob hands his seat to a bot with ``/uno leave
    bot:True`` and the host gives carol's to another with ``/uno kick … bot:True``; the bots play
    on with the hands they took over; alice plays the game to its end, whose record seats the
    bots, notes bob and carol as having left, and replays."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    table = await open_table(uno, channel, alice, [bob, carol], variant="dos", scoring="single-round")
    table.turn_seconds = 0
    game = table.game
    assert isinstance(game, DosGame)
    bobs, version = held(game, str(bob.id)), game.version  # nobody moves until a person does

    answer = await leave(uno, bob, channel, bot=True)
    assert answer is not None and "A bot plays your seat" in answer.text, answer and answer.text
    answer = await command(uno, alice, channel, "uno kick", member=carol, bot=True)
    assert answer is not None and "a bot plays their seat now" in answer.text, answer.text
    table = table_of(uno, channel)
    game = table.game
    assert isinstance(game, DosGame) and game.players[1:] == ["ai:1", "ai:2"]
    assert [x.name for x in table.seats] == ["alice", "Bot 1 (for bob)", "Bot 2 (for carol)"]
    saved = game.to_dict()  # the bot took bob's hand as it was (it may have played since)
    assert held(replay_game({**saved, "journal": saved["journal"][:version]}), "ai:1") == bobs
    log = "\n".join(table.log)
    assert "bob handed their seat to Bot 1 (for bob)" in log and "carol's seat was given to Bot 2" in log

    await play_out(uno, channel, table, {"alice": alice}, random.Random(4))
    await s.wait_until(lambda: bot_of(uno).service.tables.get(channel.id) is None)
    record = (await bot_of(uno).storage.history(channel.id))[0].result
    assert record.variant == "dos" and record.players == [str(alice.id), "ai:1", "ai:2"]
    assert record.replay is not None and record.left == [str(bob.id), str(carol.id)]
    assert [h["player"] for h in record.replay["handovers"]] == [str(bob.id), str(carol.id)]
    assert check(record) is None
