"""The tables' public messages: posts in order, pings once per turn, a deleted table message
(bot/service/publishing.py)."""

from __future__ import annotations

import asyncio

from bot.service.acting import Post
from bot.tables import TableState

from .helpers import ANA, BEN, CHANNEL, MemoryStorage, game, run, service


def test_posts_are_said_in_order_and_a_refused_one_is_skipped() -> None:
    """Posts of two changes are said in order, though sending takes time; a refused one is skipped."""
    table = game(BEN)
    svc, client, _ = service(MemoryStorage(), table)
    client.latency, client.refused = 0.002, {"refused"}

    async def body() -> None:
        first = svc.publisher.say(table, [Post("one"), Post("refused"), Post("two")])
        await asyncio.gather(first, svc.publisher.say(table, [Post("three")]))

    run(body)
    assert [c[2] for c in client.calls] == ["one", "two", "three"]


def test_the_player_to_act_is_pinged_once_a_turn() -> None:
    """The human to act is pinged once a turn, the ping saved; the next turn's ping replaces it."""
    storage, table = MemoryStorage(), game(BEN, first=ANA)
    svc, client, _ = service(storage, table)

    async def body() -> None:
        for _ in range(2):
            svc.publisher.ping(table)
            await svc.updates.drain()
        first = table.ping_message_id
        assert client.calls == [("ping", CHANNEL, f"<@{ANA}>, it's your move at the UNO table.")]
        assert (table.pinged, storage.tables[CHANNEL]["ping_message_id"]) == (ANA, first)
        async with svc.acting.change(CHANNEL) as change:
            assert change.table.game is not None
            change.played(change.table.game.timeout(ANA))
        svc.publisher.ping(table)
        await svc.updates.drain()
        assert client.calls[1:] == [
            ("ping", CHANNEL, f"<@{BEN}>, it's your move at the UNO table."),
            ("delete", CHANNEL, first),
        ]

    run(body)
    assert table.pinged == BEN and storage.tables[CHANNEL]["ping_message_id"] == table.ping_message_id


def test_a_ping_opens_the_hand() -> None:
    """A ping carries the table's My hand button (a hand opened before a restart can't be
    updated: the ping is where a player finds theirs again), and mentions only its player."""
    table = game(BEN, first=ANA)
    svc, client, _ = service(MemoryStorage(), table)

    async def body() -> None:
        svc.publisher.ping(table)
        await svc.updates.drain()

    run(body)
    (payload,) = client.pings
    (row,) = payload["components"]
    (button,) = row["components"]
    assert (button["custom_id"], button["label"]) == (f"uno:t:{CHANNEL}:0:hand", "My hand")
    assert payload["allowed_mentions"]["users"] == [int(ANA)]


def test_a_new_table_message_is_posted_and_its_id_saved() -> None:
    """A table without its message gets one posted, whose id is saved; later updates edit it,
    unless it shows the table as it is already."""
    storage, table = MemoryStorage(), game(BEN)
    svc, client, _ = service(storage, table)

    async def body() -> None:
        for change in ("", "", "🔔 a line for the log"):
            if change:
                table.log.append(change)
            svc.publisher.publish(table)
            await svc.updates.drain()

    run(body)
    assert table.message_id is not None and storage.tables[CHANNEL]["message_id"] == table.message_id
    assert [c[0] for c in client.calls] == ["send", "edit"] and client.calls[1][2] == table.message_id


def test_a_deleted_table_message_ends_the_game() -> None:
    """When the table message is gone during play, the game ends, and the channel is told why."""
    storage, table = MemoryStorage(), game(BEN)
    table.message_id = 500
    svc, client, changes = service(storage, table)
    client.gone.add(500)

    async def body() -> None:
        svc.publisher.publish(table)
        await svc.updates.drain()

    run(body)
    assert table.state is TableState.OVER and storage.tables == {} and svc.tables.get(CHANNEL) is None
    assert client.calls == [("send", CHANNEL, "The table message was deleted, so the game has ended.", None)]
    assert len(changes) == 1 and changes[0].closed
