"""A thread per game (the channel setting ``threads``): ``/uno new`` leaves a one-line pointer in
the channel and opens the lobby in a public thread started from it; the whole game lives in the
thread, the pointer tells the result, and the channel's ``/uno history`` lists it. A thread archived or deleted ends its game cleanly."""

from __future__ import annotations

import random

from bot.localdiscord.records import Channel, User
from bot.localdiscord.testing import LocalDiscord
from bot.tables import Table, TableState
from tests.e2e.helpers import (
    bot_of,
    both_apis,
    choose,
    click,
    command,
    labels,
    lobby_message,
    play_out,
    published_table,
    table_of,
)


async def _threads_on(uno: LocalDiscord) -> None:
    alice = uno.user("alice")
    uno.stand_in.grant(alice, "manage_channels")
    answer = await command(uno, alice, uno.channel("uno"), "uno settings", threads=True)
    assert answer is not None and "A thread per game: **on**" in answer.text


async def _open_in_thread(
    uno: LocalDiscord, host: User, others: list[User], bots: int
) -> tuple[Channel, Table]:
    """``/uno new`` in #uno: the pointer answers in #uno, the lobby is in the thread started
    from it; the others join there, bots are added, the host starts."""
    s, parent = uno.stand_in, uno.channel("uno")
    pointer = await command(uno, host, parent, "uno new")
    assert pointer is not None and pointer.channel is parent and "join in the thread below" in pointer.text
    thread = await s.wait_until(lambda: pointer.thread)
    assert thread.parent is parent and thread.name == f"UNO · {host.name}'s game"
    await s.wait_until(lambda: any(m.buttons for m in s.messages(thread)))
    assert bot_of(uno).service.tables.get(parent.id) is None  # the thread is the table's channel
    for user in others:
        await click(uno, user, lobby_message(uno, thread), "Join")
    for _ in range(bots):
        await click(uno, host, lobby_message(uno, thread), "Add bot")
    await click(uno, host, lobby_message(uno, thread), "Start")
    await s.wait_until(lambda: published_table(uno, thread))
    return thread, table_of(uno, thread)


@both_apis
async def test_a_game_played_to_the_end_in_its_thread(uno: LocalDiscord) -> None:
    """Every message of the game is in the thread; #uno holds only the pointer, edited with the
    winner when the game ends; a second game runs side by side in a thread of its own; the next
    /uno new in the thread opens its lobby there."""
    s, parent = uno.stand_in, uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await _threads_on(uno)
    thread, table = await _open_in_thread(uno, alice, [bob], bots=1)
    other, second = await _open_in_thread(uno, carol, [], bots=1)
    assert other is not thread and second.state is TableState.PLAYING

    await play_out(uno, thread, table, {"alice": alice, "bob": bob}, random.Random(5))
    standings = await s.wait_for_message(thread, lambda m: "won!" in m.text)
    assert "Rematch" in [b.get("label") for b in standings.buttons]
    pointer = next(m for m in s.messages(parent) if m.thread is thread)
    await s.wait_until(lambda: "won" in pointer.text)
    assert pointer.text.count("\n") == 0 and "🏆" in pointer.text
    assert table.game is not None and table.name(table.game.winners[0]) in pointer.text
    # Nothing of the game was said in #uno: only the two pointers (and no ping).
    public = [m for m in s.messages(parent) if not m.ephemeral]
    assert [m.thread for m in public] == [thread, other]
    [record] = await bot_of(uno).storage.history(thread.id, limit=5)
    assert record.result.winners == table.game.winners
    # /uno history in #uno lists the game played in its thread, and gives its players its file.
    listing = await command(uno, alice, parent, "uno history")
    assert listing is not None and f"<#{thread.id}>" in listing.text
    assert [o["value"] for o in listing.selects[0]["options"]] == [record.result.game_id]
    answer = await choose(uno, alice, listing, record.result.game_id)
    assert answer is not None and "won!" in answer.text and len(answer.attachments) == 1
    assert second.state is TableState.PLAYING  # the other game goes on
    # /uno new in the thread opens the next lobby there (no thread in a thread), with #uno's settings.
    await command(uno, bob, thread, "uno new")
    await s.wait_until(lambda: any("Join" in labels(m) for m in s.messages(thread)))
    assert table_of(uno, thread).host.name == "bob" and len(s.threads()) == 2


async def test_archiving_the_thread_ends_its_game(uno: LocalDiscord) -> None:
    """A member archives the thread mid-game (after a restart of the bot): the game ends, recorded with no winner, nothing
    more is posted in the thread (which stays archived), and the pointer says why."""
    s, parent = uno.stand_in, uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await _threads_on(uno)
    thread, table = await _open_in_thread(uno, alice, [bob], bots=1)
    # Archived while the game waits for a human and every message is up to date: an edit on its
    # way when the thread is archived would be refused (50083), as on Discord.
    await uno.restart_client()  # the game in its thread survives a restart
    table = table_of(uno, thread)
    game = table.game
    assert game is not None
    await s.wait_until(lambda: not table.seat(game.pending.player or "ai:1").is_ai)  # type: ignore[union-attr]
    await bot_of(uno).service.updates.drain()
    revisions = {m.id: m.revision for m in s.messages(thread)}
    s.archive(thread)
    await s.wait_until(lambda: bot_of(uno).service.tables.get(thread.id) is None)
    pointer = next(m for m in s.messages(parent) if m.thread is thread)
    await s.wait_until(lambda: "archived" in pointer.text)
    assert "no winner" in pointer.text
    [record] = await bot_of(uno).storage.history(thread.id, limit=5)
    assert record.result.winners == [] and table.state is TableState.OVER
    await bot_of(uno).service.updates.drain()
    # No message was posted or edited in the thread since (the turn's ping may be deleted).
    assert thread.archived and all(revisions.get(m.id) == m.revision for m in s.messages(thread))


async def test_a_thread_archived_while_the_bot_was_offline_ends_its_game_at_start(
    uno: LocalDiscord,
) -> None:
    """No THREAD_UPDATE reaches a stopped bot: at start, the guild's active threads (in its
    GUILD_CREATE) tell it the thread went, and the game ends as if archived then, with no call
    into the thread; a game whose thread is still active goes on."""
    s, parent = uno.stand_in, uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await _threads_on(uno)
    gone, _ = await _open_in_thread(uno, alice, [], bots=1)
    kept, _ = await _open_in_thread(uno, bob, [], bots=1)
    await bot_of(uno).service.updates.drain()
    await uno.stop_client()
    revisions = {m.id: m.revision for m in s.messages(gone)}
    s.archive(gone)
    await uno.start_client()
    pointer = next(m for m in s.messages(parent) if m.thread is gone)
    await s.wait_until(lambda: "while the bot was offline" in pointer.text)
    assert "no winner" in pointer.text and bot_of(uno).service.tables.get(gone.id) is None
    [record] = await bot_of(uno).storage.history(gone.id, limit=5)
    assert record.result.winners == []
    assert table_of(uno, kept).state is TableState.PLAYING
    await bot_of(uno).service.updates.drain()
    assert gone.archived and all(revisions.get(m.id) == m.revision for m in s.messages(gone))


async def test_deleting_the_thread_ends_its_lobby(uno: LocalDiscord) -> None:
    """A thread deleted while its lobby is open closes the lobby; the pointer says so."""
    s, parent = uno.stand_in, uno.channel("uno")
    alice = uno.user("alice")
    await _threads_on(uno)
    pointer = await command(uno, alice, parent, "uno new")
    assert pointer is not None
    thread = await s.wait_until(lambda: pointer.thread)
    await s.wait_until(lambda: any("Join" in labels(m) for m in s.messages(thread)))
    s.delete_channel(thread)
    await s.wait_until(lambda: bot_of(uno).service.tables.get(thread.id) is None)
    await s.wait_until(lambda: "lobby closed" in pointer.text)


@both_apis
async def test_without_create_public_threads_the_game_stays_in_the_channel(uno: LocalDiscord) -> None:
    """The bot lacking Create Public Threads: the pointer says so, and the lobby opens in the
    channel as without the setting."""
    s, parent = uno.stand_in, uno.channel("uno")
    alice = uno.user("alice")
    await _threads_on(uno)
    for role in s.state.roles.values():
        role.permissions &= ~(1 << 35)
    uno.expect_error(50013)
    pointer = await command(uno, alice, parent, "uno new")
    assert pointer is not None
    await s.wait_until(lambda: "Create Public Threads" in pointer.text)
    # The table is registered before its lobby message is posted: wait for the message.
    await s.wait_until(lambda: any("Join" in labels(m) for m in s.messages(parent)))
    await s.wait_until(lambda: table_of(uno, parent).message_id == lobby_message(uno, parent).id)
    assert s.threads() == []
