"""End-to-end fixtures: the production bot (``UnoBot``) logged into the local Discord stand-in,
with a temporary database; async tests run on a fresh event loop of the production bot's kind
(``run_coroutine_test``, `bot.run.new_event_loop`).
The harness fails a test on any ERROR log of discord.py, unknown route or Discord error."""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.art import all_faces, card_png, emoji_name
from bot.client.bot import UnoBot
from bot.client.emojis import EMOJI_PIXELS
from bot.local import local_settings
from bot.localdiscord import contract
from bot.localdiscord.server import StandIn
from bot.localdiscord.testing import LocalDiscord, run_coroutine_test
from bot.run import new_event_loop
from bot.service import publishing
from bot.settings import load_settings
from bot.storage import Storage
from bot.storage.sqlite import SqliteStorage

USERS = ("alice", "bob", "carol")
PRODUCTION_TABLE_SPACING = publishing.TABLE_SPACING


# The end-to-end tests' share of `contract.TOTALS` (the stand-in's own tests, run in the same
# process, send violations on purpose).
E2E_TOTALS: Counter[str] = Counter()


@pytest.fixture(autouse=True)
def spec_counts() -> Iterator[None]:
    """Add what this end-to-end test's traffic had checked against the spec to `E2E_TOTALS`."""
    before = Counter(contract.TOTALS)
    yield
    E2E_TOTALS.update(Counter(contract.TOTALS) - before)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How much of the bots' traffic in the end-to-end tests was checked against Discord's
    OpenAPI spec (a violation fails its test: the bot gets Discord's 50035, which the harness
    fails on)."""
    totals = E2E_TOTALS
    if not totals:  # no end-to-end test ran (the fast lane deselects them): nothing to say
        return
    terminalreporter.write_line(
        f"Discord's spec, end-to-end tests: {totals['requests']} request bodies checked, "
        f"{totals['violations']} violations; {totals['responses']} REST responses and "
        f"{totals['gateway events']} gateway events checked"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Any:
    """Run ``async def`` tests with `run_coroutine_test`, on the production bot's event loop,
    for at most 120 seconds (or a ``pytest.mark.timeout``'s)."""
    marker = pyfuncitem.get_closest_marker("timeout")
    timeout = float(marker.args[0]) if marker and marker.args else 120.0
    return run_coroutine_test(pyfuncitem, timeout=timeout, loop_factory=new_event_loop)


class LockWatch:
    """Every REST request the bots under test send (Discord calls and interaction answers alike),
    and those sent by a task holding a table's lock, which would keep that table's other
    commands waiting on Discord: none may be (`TableRegistry.held_here`)."""

    def __init__(self) -> None:
        self.requests = 0
        self.under_lock: list[str] = []

    def trace(self, bot: Callable[[], UnoBot | None]) -> aiohttp.TraceConfig:
        """An aiohttp trace for a bot (``discord.Client(http_trace=...)``)."""
        config = aiohttp.TraceConfig()

        async def started(session: object, context: object, params: aiohttp.TraceRequestStartParams) -> None:
            self.requests += 1
            client = bot()
            if client is not None and client.service.tables.held_here():
                self.under_lock.append(f"{params.method} {params.url.path}")

        config.on_request_start.append(started)
        return config


LOCKS = LockWatch()


@pytest.fixture(autouse=True)
def quick_table_edits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Table messages edited up to every 0.2 s, not every `TABLE_SPACING` (a second): the tests
    play whole games through the UI, far faster than people, and wait for the table message to
    name each player. `production_spacing` puts the second back (tests/e2e/test_calls.py)."""
    monkeypatch.setattr(publishing, "TABLE_SPACING", 0.2)


@pytest.fixture
def production_spacing(quick_table_edits: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table messages' production `TABLE_SPACING`."""
    monkeypatch.setattr(publishing, "TABLE_SPACING", PRODUCTION_TABLE_SPACING)


@pytest.fixture(autouse=True)
def no_rest_under_lock() -> Iterator[LockWatch]:
    """Fail any end-to-end test in which a bot sent a REST request while holding a table's lock."""
    LOCKS.requests, LOCKS.under_lock = 0, []
    yield LOCKS
    assert not LOCKS.under_lock, f"REST requests sent under a table's lock: {LOCKS.under_lock}"


def make_bot(
    stand_in: StandIn,
    db: Path,
    *,
    card_emojis: bool = False,
    shards: tuple[int, list[int] | None] | None = None,
    storage: Storage | None = None,
    internals: bool = True,
    **game: Any,
) -> UnoBot:
    """The production bot configured for the stand-in (fast AI, no turn timer unless asked;
    ``card_emojis``: the setting, off unless asked: the sync would give cards their emojis one
    by one while a test plays, so what a test reads would depend on timing; see `with_emojis`),
    watched by `LOCKS`. ``shards``: ``(shard_count, shard_ids)`` to run (then its commands are
    synced globally, to reach every guild of the stand-in). ``storage``: another backend than
    SQLite on ``db`` (PostgreSQL, shared by several bots). ``internals``: the setting
    ``discord.internals`` (False: discord.py's public API only; see `internals`)."""
    settings = load_settings(None, environ={}, require_token=False)
    settings.discord.card_emojis = card_emojis
    settings.discord.internals = internals
    if shards is not None:
        settings.discord.shard_count, settings.discord.shard_ids = shards
    settings.game.ai_delay_seconds = game.pop("ai_delay_seconds", 0.0)
    settings.game.ping_after_seconds = game.pop("ping_after_seconds", 0.0)  # pinged at once, as tests expect
    settings.game.turn_seconds = game.pop("turn_seconds", 0)
    settings.game.seed = game.pop("seed", 1)  # the same deals every run
    for key, value in game.items():
        setattr(settings.game, key, value)
    made: list[UnoBot] = []
    bot = UnoBot(
        local_settings(settings, stand_in),
        storage or SqliteStorage(db),
        sync_global=shards is not None,
        guild_ready_timeout=0.05,
        http_trace=LOCKS.trace(lambda: made[0] if made else None),
    )
    made.append(bot)
    return bot


def with_emojis(db: Path, **game: Any) -> Callable[[StandIn], UnoBot]:
    """A bot factory for `LocalDiscord`: the application has every card face's emoji before the
    bot first starts (as after its first run), so its sync only lists them; wait for
    ``bot_of(env).card_emojis.done`` before reading messages."""

    def factory(stand_in: StandIn) -> UnoBot:
        if not stand_in.state.emojis:
            for face, side in all_faces():
                image = base64.b64encode(card_png(face, side, EMOJI_PIXELS, square=True)).decode()
                stand_in.state.create_emoji(emoji_name(face, side), f"data:image/png;base64,{image}")
        return make_bot(stand_in, db, card_emojis=True, **game)

    return factory


@pytest.fixture
def internals(request: pytest.FixtureRequest) -> bool:
    """The bot's ``discord.internals`` setting in `uno`: True, or a test's parameter
    (`tests.e2e.helpers.both_apis`)."""
    return bool(getattr(request, "param", True))


@pytest.fixture
def uno(tmp_path: Path, internals: bool) -> LocalDiscord:
    """The bot in a guild with alice, bob and carol and channels #uno and #uno-2 (no rate limits:
    tests play faster than people do); ``internals``: its ``discord.internals`` setting."""
    return LocalDiscord(
        lambda s: make_bot(s, tmp_path / "uno.db", internals=internals),
        users=USERS,
        channels=("uno", "uno-2"),
        rate_limits=False,
    )
