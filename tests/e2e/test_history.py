"""``/uno history`` after three games: the channel's list, a game's private summary, its text
file for its players only, and the replay check on every recorded game."""

from __future__ import annotations

import random
from pathlib import Path

from bot.i18n import translator
from bot.localdiscord.records import Channel, Message, User
from bot.localdiscord.testing import LocalDiscord
from bot.render.history import replayed
from bot.replay import check, check_database
from tests.e2e.helpers import bot_of, choose, click, command, leave, open_table, play_out, table_message

EN = translator("en")


async def pick(uno: LocalDiscord, user: User, channel: Channel, game_id: str) -> Message:
    """``/uno history`` by ``user``, then ``game_id`` chosen in its select: the answer."""
    listing = await command(uno, user, channel, "uno history")
    assert listing is not None and listing.ephemeral
    answer = await choose(uno, user, listing, game_id)
    assert answer is not None and answer.ephemeral and answer is not listing
    return answer


async def test_history_of_three_games(uno: LocalDiscord, tmp_path: Path) -> None:
    """Three games (played out, abandoned by its humans, played out) are listed newest first;
    choosing one gives its rounds, and its players the whole game as a file made from its
    replay; a member who didn't sit there gets the summary but not the file; every stored game
    replays to its recorded end, through the command-line check too."""
    s = uno.stand_in
    channel = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    storage = bot_of(uno).storage

    table = await open_table(uno, channel, alice, [bob], bots=1, scoring="single-round")
    await play_out(uno, channel, table, {"alice": alice, "bob": bob}, random.Random(1))
    await s.wait_until(lambda: uno.client.service.tables.get(channel.id) is None)  # type: ignore[attr-defined]

    table = await open_table(uno, channel, alice, [bob], bots=2, variant="flip")
    await leave(uno, bob, channel)
    await leave(uno, alice, channel)  # only bots are left: ended, no winner
    await s.wait_for_message(channel, lambda m: "Only bots were left" in m.text)

    table = await open_table(uno, channel, alice, [], bots=1, scoring="single-round")
    await play_out(uno, channel, table, {"alice": alice}, random.Random(2))
    await s.wait_until(lambda: uno.client.service.tables.get(channel.id) is None)  # type: ignore[attr-defined]

    records = await storage.history(channel.id)
    assert len(records) == 3 and all(r.result.replay is not None for r in records)
    last, abandoned, first = records
    assert (len(last.result.players), abandoned.result.winners, abandoned.result.variant) == (2, [], "flip")
    assert all(check(r.result) is None for r in records)

    listing = await command(uno, carol, channel, "uno history")
    assert listing is not None and listing.ephemeral
    assert listing.text.count("UNO Flip") == 1 and "no winner" in listing.text
    values = [o["value"] for o in listing.selects[0]["options"]]
    assert values == [last.result.game_id, abandoned.result.game_id, first.result.game_id]

    # alice sat at the first game: its rounds, and the file written from its stored replay.
    answer = await pick(uno, alice, channel, first.result.game_id)
    assert "Round 1:" in answer.text and "won!" in answer.text
    (attachment,) = answer.attachments
    assert attachment["filename"].endswith(f"{first.result.game_id}.txt")
    assert attachment["size"] == len(replayed(first, EN).text.encode())
    # carol didn't: the rounds, and a polite refusal of the file.
    answer = await pick(uno, carol, channel, first.result.game_id)
    assert "Round 1:" in answer.text and "only for the players" in answer.text and not answer.attachments
    # bob sat at the abandoned game (and left it): its file is his too.
    answer = await pick(uno, bob, channel, abandoned.result.game_id)
    assert "ended before anyone won" in answer.text and len(answer.attachments) == 1

    # The command-line check, once the bot has let go of its database.
    await uno.stop_client()
    found = await check_database(str(tmp_path / "uno.db"))
    assert [(r.result.game_id, problem) for r, problem in found] == [
        (r.result.game_id, None) for r in records
    ]


async def test_history_empty_and_per_channel(uno: LocalDiscord) -> None:
    """A channel without games says so, with nothing to choose; a game played in another
    channel is listed there, not here."""
    channel, other = uno.channel("uno"), uno.channel("uno-2")
    alice = uno.user("alice")
    answer = await command(uno, alice, channel, "uno history")
    assert answer is not None and "No game has been recorded" in answer.text and not answer.selects
    await open_table(uno, other, alice, [], bots=2)
    await leave(uno, alice, other)
    await uno.stand_in.wait_for_message(other, lambda m: "Only bots were left" in m.text)
    listing = await command(uno, alice, other, "uno history")
    assert listing is not None and len(listing.selects[0]["options"]) == 1
    answer = await command(uno, alice, channel, "uno history")
    assert answer is not None and "No game has been recorded" in answer.text


async def test_spectator_is_told_they_are_watching(uno: LocalDiscord) -> None:
    """A member who isn't at the table pressing My hand (or /uno hand) is told privately they
    are watching and how to join the next game; a player who left is told they aren't playing."""
    channel = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    table = await open_table(uno, channel, alice, [bob], bots=1)
    answer = await click(uno, carol, table_message(uno, channel), "My hand")
    assert answer is not None and answer.ephemeral and "You're watching this game" in answer.text
    assert "Join" in answer.text
    answer = await command(uno, carol, channel, "uno hand")
    assert answer is not None and answer.ephemeral and "You're watching this game" in answer.text
    await leave(uno, bob, channel)
    answer = await click(uno, bob, table_message(uno, channel), "My hand")
    assert answer is not None and answer.text.endswith("You aren't playing in this game.")
    assert table.game is not None and str(carol.id) not in table.game.hands
