"""Computer players' moves, turn timers and lobby expiry (bot/service/scheduling.py)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from bot.engine import editions
from bot.i18n import ENGLISH_TR
from bot.render.seats import seat_offer
from bot.service.scheduling import SEARCH_GRACE, SEARCHES_PER_WORKER, Scheduler
from bot.storage import GameResult
from bot.tables import TableState

from .helpers import ANA, BEN, CHANNEL, MemoryStorage, game, lobby, run, service, until


async def finished(scheduler: Scheduler) -> None:
    """Wait until every move the scheduler holds now is done (not the idle game's end, hours off)."""
    tasks = {task for (_, kind), task in scheduler._tasks.items() if kind != "idle"}
    if tasks:  # finished ones are let go
        await asyncio.wait(tasks)


def test_an_ai_seat_plays_its_turn() -> None:
    """An AI seat to act moves after ``ai_delay``, not before; the move is saved."""
    storage, table = MemoryStorage(), game("ai", first="ai:1")
    table.turn_seconds = 0
    svc, _, changes = service(storage, table, ai_delay_seconds=0.03, seed=1)
    version = table.version

    async def body() -> float:
        start = time.monotonic()
        svc.scheduler.schedule(table)
        await until(lambda: bool(changes))
        svc.scheduler.close()
        return time.monotonic() - start

    assert run(body) >= 0.03
    assert table.version > version and storage.writes == 1
    assert storage.tables[CHANNEL] == table.to_snapshot() and changes[0].table is table


@pytest.mark.parametrize("first", ["ai:1", ANA])
def test_a_move_of_a_table_changed_meanwhile_does_nothing(first: str) -> None:
    """An AI move or timeout scheduled before the table changed does nothing, same player to act."""
    storage, table = MemoryStorage(), game(BEN, "ai", first=first)
    table.turn_seconds = 0.01  # type: ignore[assignment]  # a timer as short as the AI's delay
    svc, _, changes = service(storage, table, ai_delay_seconds=0.01)

    async def body() -> None:
        svc.scheduler.schedule(table)
        async with svc.acting.change(CHANNEL) as change:
            assert change.table.game is not None
            change.played(change.table.game.leave(BEN))
        await finished(svc.scheduler)

    run(body)
    assert table.game is not None and table.game.pending.player == first
    assert storage.writes == 1 and changes == [] and table.timeouts == {}


def test_a_turn_timer_plays_the_timeout_move() -> None:
    """A human who doesn't act within ``turn_seconds`` gets the default move and a timeout."""
    storage, table = MemoryStorage(), game(BEN, first=ANA)
    table.turn_seconds = 0.01  # type: ignore[assignment]
    svc, _, changes = service(storage, table)
    version = table.version

    async def body() -> None:
        svc.scheduler.schedule(table)
        await until(lambda: bool(changes))

    run(body)
    assert table.game is not None and table.game.pending.player == BEN
    assert table.timeouts == {ANA: 1} and table.in_game(ANA) and table.version > version
    assert "⏰ Ana ran out of time" in table.log and storage.writes == 1


def test_a_player_is_removed_after_max_timeouts() -> None:
    """The ``max_timeouts``-th timeout in a row removes the player; the game goes on without them;
    the log says so in order."""
    storage, table = MemoryStorage(), game(BEN, "ai", first=ANA)
    table.turn_seconds = 0.01  # type: ignore[assignment]
    table.timeouts[ANA] = 1
    svc, _, changes = service(storage, table, max_timeouts=2)

    async def body() -> None:
        svc.scheduler.schedule(table)
        await until(lambda: bool(changes))

    run(body)
    assert not table.in_game(ANA) and table.state is TableState.PLAYING
    # In the order it happened: the timeout, the removal, then its consequences.
    at = [
        next(i for i, line in enumerate(table.log) if said in line)
        for said in ("Ana ran out of time", "Ana was removed after 2 timeouts", "Ana left the game")
    ]
    assert at == sorted(at), table.log
    assert storage.tables[CHANNEL]["timeouts"] == {ANA: 2}
    assert storage.tables[CHANNEL]["removed"] == {ANA: "timeouts"}  # shown as removed, not "left"


def test_one_timeout_short_of_removal_offers_the_seat_to_a_bot() -> None:
    """The timeout that leaves a player one short of ``max_timeouts`` keeps them in the game and
    says so in the channel, with a button (for the host or a moderator) giving the seat to a bot
    (docs/rules.md §5.3)."""
    storage, table = MemoryStorage(), game(BEN, "ai", first=ANA)
    table.turn_seconds = 0.01  # type: ignore[assignment]
    table.timeouts[ANA] = 1
    svc, client, changes = service(storage, table, max_timeouts=3)

    async def body() -> None:
        svc.scheduler.schedule(table)
        await until(lambda: bool(changes))

    run(body)
    assert table.in_game(ANA) and table.timeouts == {ANA: 2}
    text, view = seat_offer(table, ANA, 2, ENGLISH_TR)
    assert [p.content for p in changes[0].posts] == [text] and ("send", CHANNEL, text, None) in client.calls
    assert "Ana has run out of time 2 times in a row: once more and they leave the game" in text
    [button] = [c for row in view.to_components() for c in row["components"]]
    assert button["label"] == "Give Ana's seat to a bot"
    assert button["custom_id"] == f"uno:t:{CHANNEL}:0:seat:{ANA}"


def test_an_idle_lobby_expires() -> None:
    """An idle lobby is closed and its message shown as over; a lobby in use stays open."""
    storage, idle, busy = MemoryStorage(), lobby(), lobby(channel_id=CHANNEL + 1)
    idle.touched, idle.message_id = time.time() - 601, 555
    svc, client, changes = service(storage, idle, busy, lobby_idle_seconds=600)

    async def body() -> None:
        svc.scheduler.schedule(busy)
        svc.scheduler.schedule(idle)
        await until(lambda: bool(changes))
        await svc.updates.drain()
        svc.scheduler.close()

    run(body)
    assert changes[0].table is idle and changes[0].closed and idle.state is TableState.OVER
    assert svc.tables.get(CHANNEL) is None and list(storage.tables) == [CHANNEL + 1]
    assert client.calls == [("edit", CHANNEL, 555)]
    assert svc.tables.get(CHANNEL + 1) is busy and busy.state is TableState.LOBBY


def test_cancel_stops_a_tables_tasks() -> None:
    """After ``cancel``, a table's scheduled AI move never comes; another table's does."""
    storage = MemoryStorage()
    stopped, other = game("ai", first="ai:1"), game("ai", first="ai:1", channel_id=CHANNEL + 1)
    svc, _, changes = service(storage, stopped, other, ai_delay_seconds=0.01)
    version = stopped.version

    async def body() -> None:
        svc.scheduler.schedule(stopped)
        svc.scheduler.schedule(other)
        svc.scheduler.cancel(CHANNEL)
        await until(lambda: bool(changes))
        await asyncio.sleep(0.02)
        svc.scheduler.close()

    run(body)
    assert [c.table for c in changes] == [other] and stopped.version == version


def test_a_table_at_rest_holds_only_the_tasks_it_waits_on() -> None:
    """Once its game starts, a lobby's expiry stops at once (not when it would have woken), and
    a computer seat's move, once made, is let go: the idle game's end is all that is left."""
    storage, table = MemoryStorage(), game("ai", first="ai:1")
    table.turn_seconds = 0
    svc, _, changes = service(storage, table, ai_delay_seconds=0.01, lobby_idle_seconds=600)

    async def body() -> tuple[bool, set[tuple[int, str]]]:
        table.state = TableState.LOBBY
        svc.scheduler.schedule(table)
        expiry = svc.scheduler._tasks[(CHANNEL, "lobby")]
        table.state = TableState.PLAYING
        svc.scheduler.schedule(table)
        await until(lambda: bool(changes))
        await asyncio.sleep(0.01)  # the move's task ends after its change
        held = set(svc.scheduler._tasks)
        svc.scheduler.close()
        return expiry.cancelled(), held

    stopped, held = run(body)
    assert stopped and held == {(CHANNEL, "idle")}
    assert changes[0].table is table and table.state is TableState.PLAYING


def test_a_move_that_could_not_be_saved_is_tried_again() -> None:
    """An AI move whose save fails leaves the table as saved, and is made again from it."""
    storage, table = MemoryStorage(), game("ai", first="ai:1")
    table.turn_seconds = 0
    svc, _, changes = service(storage, table, ai_delay_seconds=0.01)
    version, storage.fail = table.version, True

    async def body() -> None:
        svc.scheduler.schedule(table)
        await until(lambda: svc.tables.get(CHANNEL) is not table)
        storage.fail = False
        await until(lambda: bool(changes))
        svc.scheduler.close()

    run(body)
    again = svc.tables.get(CHANNEL)
    assert again is not None and changes[0].table is again and again.version > version
    assert storage.tables[CHANNEL] == again.to_snapshot()


def test_a_game_nobody_moves_in_ends_recorded_with_no_winner() -> None:
    """A game with no move for ``game_idle_hours`` ends (turn timer off), recorded as played with
    no winner, and says why; a game moved in meanwhile goes on."""
    storage, idle, busy = MemoryStorage(), game(BEN, first=ANA), game(BEN, first=ANA, channel_id=CHANNEL + 1)
    idle.turn_seconds = busy.turn_seconds = 0
    idle.touched = time.time() - 3601
    svc, _, changes = service(storage, idle, busy, game_idle_hours=1.0)

    async def body() -> None:
        svc.scheduler.schedule(busy)
        svc.scheduler.schedule(idle)
        await until(lambda: bool(changes))
        svc.scheduler.close()

    run(body)
    assert changes[0].table is idle and changes[0].closed and idle.state is TableState.OVER
    assert [p.content for p in changes[0].posts] == ["Nobody has moved for 1 hour, so the game has ended."]
    [result] = storage.results
    assert isinstance(result, GameResult) and result.winners == [] and result.rounds == 0
    assert svc.tables.get(CHANNEL + 1) is busy and busy.state is TableState.PLAYING


@pytest.mark.parametrize("variant", ["classic", "dos"])
def test_a_hard_bot_searches_off_the_loop_unless_every_worker_is_taken(variant: str) -> None:
    """A hard bot's decision, UNO's or DOS's, is searched in the pool (here its thread:
    ``ai_workers`` 0; ``editions.hard_move`` on the game's snapshot) and is one of its legal
    actions; with :data:`SEARCHES_PER_WORKER` searches already in flight, its move is not searched
    (None: the normal AI moves for it at once) and no pool work is queued."""
    storage, table = MemoryStorage(), game("ai", first="ai:1", variant=variant)
    bot = next(s for s in table.seats if s.is_ai)
    bot.level = "hard"
    svc, _, _ = service(storage, table, ai_workers=0, ai_budget_ms=10)
    assert table.game is not None
    scheduler, legal = svc.scheduler, table.game.legal_actions("ai:1")

    async def body() -> tuple[str | None, str | None]:
        searched = await scheduler._search(CHANNEL, table.version)
        scheduler._searches = SEARCHES_PER_WORKER
        capped = await scheduler._search(CHANNEL, table.version)
        scheduler.close()
        return searched, capped

    searched, capped = run(body)
    assert searched is not None and editions.parse_action(table.game, searched) in legal
    assert capped is None


def test_a_search_answered_late_is_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search whose answer has not come :data:`SEARCH_GRACE` after the bot's move delay (a
    starved worker) is given up: the move is the normal AI's (None), and the search counts
    against the workers' share until the worker is done with it."""
    storage, table = MemoryStorage(), game("ai", first="ai:1")
    next(s for s in table.seats if s.is_ai).level = "hard"
    svc, _, _ = service(storage, table, ai_workers=0, ai_budget_ms=10, ai_delay_seconds=0)
    scheduler, release = svc.scheduler, threading.Event()

    def starved(*args: object) -> str:
        release.wait(30)
        raise RuntimeError("a late search's failure, retrieved, not reported")

    monkeypatch.setattr(editions, "hard_move", starved)

    async def body() -> tuple[str | None, float, int, int]:
        started = time.monotonic()
        searched = await scheduler._search(CHANNEL, table.version)
        waited, busy = time.monotonic() - started, scheduler._searches
        release.set()
        await until(lambda: scheduler._searches == 0)
        scheduler.close()
        return searched, waited, busy, scheduler._searches

    searched, waited, busy, after = run(body)
    assert searched is None and SEARCH_GRACE <= waited < 10
    assert (busy, after) == (1, 0)
