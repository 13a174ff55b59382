"""Bot levels: the host seats a bot of a chosen level from the lobby (docs/rules.md §5.4); a hard
bot, at a UNO or a DOS table, searches in a worker process, off the event loop, and plays a game to
its end."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from pathlib import Path

import pytest

from bot.engine import editions
from bot.localdiscord.testing import LocalDiscord
from bot.replay import check
from bot.tables import Table
from tests.e2e.conftest import USERS, make_bot
from tests.e2e.helpers import (
    bot_of,
    choose,
    click,
    command,
    lobby_message,
    play_out,
    published_table,
    table_of,
)


@pytest.fixture
def uno(tmp_path: Path) -> LocalDiscord:
    """The bot with one search process and a short search (20 ms), so a game ends quickly."""
    return LocalDiscord(
        lambda s: make_bot(s, tmp_path / "uno.db", ai_workers=1, ai_budget_ms=20),
        users=USERS,
        channels=("uno",),
        rate_limits=False,
    )


async def test_a_hard_bot_searches_off_the_loop_and_plays_a_game_to_its_end(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alice seats a hard bot and an easy one through the lobby's select (their names say so, and
    the levels survive the table's save); the hard bot's moves are searched in the worker process
    pool, and the game ends with a recorded result that replays."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice = uno.user("alice")
    await command(uno, alice, channel, "uno new", scoring="single-round")
    for level in ("hard", "easy"):
        lobby = lobby_message(uno, channel)
        select = next(x for x in lobby.selects if any(o["value"] == "hard" for o in x["options"]))
        await choose(uno, alice, lobby, level, select["custom_id"])
    table = table_of(uno, channel)
    assert [(x.name, x.level) for x in table.seats[1:]] == [
        ("Bot 1 (hard)", "hard"),
        ("Bot 2 (easy)", "easy"),
    ]
    assert "Bot 1 (hard)" in lobby_message(uno, channel).text
    saved = Table.from_snapshot(table.to_snapshot())
    assert [x.level for x in saved.seats] == ["normal", "hard", "easy"]

    searched: list[str] = []
    run_in_executor = asyncio.get_running_loop().run_in_executor

    def watched(
        executor: concurrent.futures.Executor | None, func: object, *args: object
    ) -> asyncio.Future[object]:
        searched.append(type(executor).__name__)
        return run_in_executor(executor, func, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(asyncio.get_running_loop(), "run_in_executor", watched)
    await click(uno, alice, lobby_message(uno, channel), "Start")
    await s.wait_until(lambda: published_table(uno, channel))
    table = table_of(uno, channel)
    await play_out(uno, channel, table, {"alice": alice}, random.Random(7))
    assert table.game is not None and table.game.game_over
    assert searched and set(searched) == {"ProcessPoolExecutor"}
    await s.wait_until(lambda: bot_of(uno).service.tables.get(channel.id) is None)
    (record,) = await bot_of(uno).storage.history(channel.id)
    assert record.result.replay is not None and check(record.result) is None


async def test_a_hard_bot_at_a_dos_table_searches_in_the_worker_process_too(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A hard bot seated at a DOS table searches its DOS moves in the worker process pool, as UNO's
    hard bot does (``editions.hard_move`` on the game's snapshot): none fails, the game ends, and
    its record replays."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice = uno.user("alice")
    await command(uno, alice, channel, "uno new", variant="dos", scoring="single-round")
    lobby = lobby_message(uno, channel)
    select = next(x for x in lobby.selects if any(o["value"] == "hard" for o in x["options"]))
    await choose(uno, alice, lobby, "hard", select["custom_id"])
    table = table_of(uno, channel)
    assert [(x.name, x.level) for x in table.seats[1:]] == [("Bot 1 (hard)", "hard")]

    searched: list[tuple[str, object]] = []
    run_in_executor = asyncio.get_running_loop().run_in_executor

    def watched(
        executor: concurrent.futures.Executor | None, func: object, *args: object
    ) -> asyncio.Future[object]:
        searched.append((type(executor).__name__, func))
        return run_in_executor(executor, func, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(asyncio.get_running_loop(), "run_in_executor", watched)
    await click(uno, alice, lobby_message(uno, channel), "Start")
    await s.wait_until(lambda: published_table(uno, channel))
    table = table_of(uno, channel)
    assert type(table.game).__name__ == "DosGame"
    await play_out(uno, channel, table, {"alice": alice}, random.Random(3))
    assert table.game is not None and table.game.game_over
    assert searched and set(searched) == {("ProcessPoolExecutor", editions.hard_move)}
    assert "search failed" not in caplog.text and "machine move failed" not in caplog.text
    await s.wait_until(lambda: bot_of(uno).service.tables.get(channel.id) is None)
    (record,) = await bot_of(uno).storage.history(channel.id)
    assert record.result.replay is not None and check(record.result) is None


async def test_the_levels_say_what_each_bot_does(uno: LocalDiscord) -> None:
    """The lobby's level select names each level and says in one short line (a phone's width) what
    that bot does differently, at an UNO and at a DOS table, in English and French ("A sensible
    player (Add bot)" said neither)."""
    channel = uno.channel("uno")
    alice = uno.user("alice")

    async def levels(**options: str) -> list[tuple[str, str]]:
        lobby = await command(uno, alice, channel, "uno new", **options)
        assert lobby is not None
        select = next(x for x in lobby.selects if any(o["value"] == "hard" for o in x["options"]))
        return [(o["label"], o["description"]) for o in select["options"]]

    assert await levels() == [
        ("Easy bot", "Plays any card it can, often forgets UNO"),
        ("Normal bot", "Plays sensibly, never forgets UNO"),
        ("Hard bot", "Thinks ahead: the hardest to beat"),
    ]
    await command(uno, alice, channel, "uno end")
    dos = await levels(variant="dos")
    assert [d for _, d in dos][:2] == [
        "Plays any match it can, often forgets DOS",
        "Picks good matches, never forgets DOS",
    ]
    await command(uno, alice, channel, "uno end")
    uno.stand_in.grant(alice, "manage_channels")
    await command(uno, alice, channel, "uno settings", language="fr")
    french = await levels()
    await command(uno, alice, channel, "uno end")
    for label, description in french + await levels(variant="dos"):
        assert label.startswith("Bot ") and len(description) <= 50, (label, description)
        assert description.startswith(("Joue", "Associe", "Choisit", "Anticipe"))
