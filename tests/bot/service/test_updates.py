"""Message updates one in flight per key, collapsing, settling, and background jobs
(bot/service/updates.py)."""

from __future__ import annotations

import asyncio
import logging
import time
from types import SimpleNamespace

import discord
import pytest

from bot.service.updates import Show, Updates

from .helpers import run

A, B = (20, "table"), (20, "ping")


def shows(shown: list[str], state: dict[str, str], gate: asyncio.Event | None = None) -> Show:
    """An update that records the state as it is when it runs, then waits for ``gate`` (if any)."""

    async def show() -> None:
        shown.append(state["now"])
        if gate is not None:
            await gate.wait()

    return show


def test_updates_asked_in_flight_collapse_into_the_latest() -> None:
    """Updates asked while one is in flight collapse into one more run: the last asked, as of then."""
    shown: list[str] = []
    state = {"now": "first"}

    async def body() -> None:
        updates, gate = Updates(), asyncio.Event()
        updates.ask(A, shows(shown, state, gate))
        await asyncio.sleep(0.005)  # the first update is in flight, held at the gate
        for now in ("second", "third", "fourth"):
            updates.ask(A, shows(shown, {"now": now}))
        state["now"] = "latest"
        updates.ask(A, shows(shown, state))
        gate.set()
        await updates.done(A)

    run(body)
    assert shown == ["first", "latest"]


def test_an_update_that_draws_after_a_wait_covers_what_was_asked_meanwhile() -> None:
    """An update that waits for its turn before drawing (`Updates.drawing`) shows the changes
    asked while it waited: no further update runs for them, and it is behind from its first."""
    shown: list[str] = []
    state = {"now": "first"}

    async def body() -> list[tuple[float, str, float]]:
        updates, turn = Updates(), asyncio.Event()
        updates.behind = []

        async def show() -> None:
            await turn.wait()  # its turn of the pace
            updates.drawing(A)
            shown.append(state["now"])

        updates.ask(A, show)
        await asyncio.sleep(0.005)  # in flight, waiting for its turn
        state["now"] = "second"
        updates.ask(A, show)
        turn.set()
        await updates.done(A)
        return updates.behind

    behind = run(body)
    assert shown == ["second"] and [kind for _, kind, _ in behind] == ["table"]


def test_updates_of_different_keys_run_independently() -> None:
    """An update in flight holds back the next of its key only: another key's runs meanwhile."""
    shown: list[str] = []

    async def body() -> None:
        updates, gate = Updates(), asyncio.Event()
        updates.ask(A, shows(shown, {"now": "a"}, gate))
        updates.ask(B, shows(shown, {"now": "b"}))
        await asyncio.wait_for(updates.done(B), 1)
        assert shown == ["a", "b"] and not gate.is_set()
        gate.set()
        await updates.done(A)

    run(body)


def test_settle_delays_an_update() -> None:
    """An update asked with ``settle`` waits that long before it runs."""
    waited: list[float] = []

    async def body() -> None:
        updates, start = Updates(), time.monotonic()

        async def show() -> None:
            waited.append(time.monotonic() - start)

        updates.ask(A, show, settle=0.05)
        await updates.done(A)

    run(body)
    assert len(waited) == 1 and waited[0] >= 0.05


def test_an_unsettled_ask_cuts_the_settling_short() -> None:
    """An update asked without ``settle`` while one settles runs at once, in its place."""
    shown: list[str] = []

    async def body() -> None:
        updates = Updates()
        updates.ask(A, shows(shown, {"now": "settling"}), settle=60)
        await asyncio.sleep(0)
        updates.ask(A, shows(shown, {"now": "now"}))
        await asyncio.wait_for(updates.done(A), 1)

    run(body)
    assert shown == ["now"]


@pytest.mark.parametrize(
    ("error", "logged"),
    [
        (discord.HTTPException(SimpleNamespace(status=404, reason="Not Found"), "Unknown Message"), []),
        (KeyError("a bug"), ["update of (20, 'table') (channel, message) failed"]),
    ],
    ids=["http", "other"],
)
def test_a_failed_update_does_not_stop_later_ones(
    error: Exception, logged: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A failed update stops no later one; only an exception other than Discord's logs an error."""
    shown: list[str] = []

    async def body() -> None:
        updates, gate = Updates(), asyncio.Event()

        async def fails() -> None:
            await gate.wait()
            raise error

        updates.ask(A, fails)
        await asyncio.sleep(0)
        updates.ask(A, shows(shown, {"now": "meanwhile"}))
        gate.set()
        await updates.done(A)
        updates.ask(A, shows(shown, {"now": "later"}))
        await updates.done(A)

    with caplog.at_level(logging.DEBUG, logger="bot.service.updates"):
        run(body)
    assert shown == ["meanwhile", "later"]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == logged


def test_done_waits_for_every_update_of_the_key() -> None:
    """``done`` waits until no update of the key is in flight or asked for (one asked at the end too)."""
    shown: list[str] = []

    async def body() -> None:
        updates = Updates()
        await asyncio.wait_for(updates.done(A), 0.1)
        updates.ask(A, shows(shown, {"now": "one"}))
        updates.ask(A, shows(shown, {"now": "two"}))
        updates._running[A].add_done_callback(lambda _: updates.ask(A, shows(shown, {"now": "three"})))
        await updates.done(A)
        assert shown == ["one", "two", "three"]

    run(body)


def test_drain_wakes_settling_updates_and_waits_for_every_job() -> None:
    """``drain`` lets a settling update go now and returns once every job, spawned ones too, is done."""
    shown: list[str] = []

    async def body() -> None:
        updates = Updates()
        updates.ask(A, shows(shown, {"now": "hand"}), settle=60)

        async def job() -> None:
            await asyncio.sleep(0.01)
            shown.append("job")

        updates.spawn(job())
        await asyncio.wait_for(updates.drain(), 1)

    run(body)
    assert sorted(shown) == ["hand", "job"]
