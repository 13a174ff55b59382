"""Load benchmark: ``python -m benchmarks.load --tables 200 --seconds 30``.

Plays many UNO tables at once through the local Discord stand-in (``bot/localdiscord``) and
measures how fast the production bot (``UnoBot``, SQLite in a temporary directory, AI delay
``--ai-delay``, no turn timer) acknowledges interactions; then runs the same load shape against
a trivial discord.py bot that answers every slash command and button with "pong", as the floor
that the stand-in, the loopback network and discord.py alone impose.

UNO run: the stand-in (127.0.0.1, a free port) gets one channel and two users per table. Each
table is opened through the UI (``/uno new`` by the first user, the second user presses Join,
the host presses Add bot twice and Start) and then played: whenever the table message says the
game waits for one of the two humans, that human makes random choices among the enabled buttons
and selects of their hand (UNO! first, then a card, Draw, a color, a decision...) until the hand
no longer says it is their move; the AI seats play by themselves. The hand is the one they have
open, which the bot keeps up to date; they press My hand on the table message when they have
none open or it does not say it is their move (``--reopen-hand``: at every turn, as the
benchmark's players did up to 2026-11-30). A finished game is followed by a new ``/uno new``.
The clock starts ``--warmup`` seconds after every table is open (the tables' first turns come
all together) and runs ``--seconds``. The humans act as soon as they can (a stress test: real
players take seconds); ``--think S`` adds a thinking time (exponential, mean S) before every
action.

Pong run: a fresh stand-in with the same channels and users; in each channel the two users take
turns: ``/ping`` (answered with an ephemeral "pong" carrying a button, as My hand is answered
with an ephemeral hand), then a click on that button (answered by updating the message, as a
card click updates the hand). The channels start these rounds at random times at the rate the
UNO run reached (``--pong-rate``), so both bots are compared at the same load; ``--pong-rate 0``
instead lets each channel go again after a pause of ``--pong-gap`` seconds (default two AI
delays, the two AI turns of an UNO table), which pushes the pong bot as hard as it can go.

The time measured for an interaction is the stand-in's own: from its arrival at the bot (the
INTERACTION_CREATE frame written to the bot's gateway socket) to the stand-in's acceptance of
the bot's callback (``InteractionRecord.delivered_at`` → ``acknowledged_at``). It therefore
includes discord.py's parsing and dispatch, the bot's handler up to its response, and the
callback's HTTP request up to the stand-in's handling of it; ``sent_p50_ms`` / ``sent_p99_ms`` stop
at the bot's writing of the callback instead (``CallbackSends``: without the loopback and the
stand-in's own queue; ``sent_p99_ratio`` compares those); ``ack_p99_from_creation_ms`` counts
from the interaction's creation instead (``created_at``, where Discord's 3 seconds start), which
adds the stand-in's own wait before it writes the frame, a wait that grows with every other
request the bot makes of the stand-in (until 2026-11-30 the figures counted from there). Work the bot does after acknowledging (table message edit, hand
refreshes, pings, AI moves) only counts where it delays other interactions. The UNO bot defers
its moves (it acknowledges before taking the table's lock and saving), so the time until the
user sees the answer (``answered_at``: the callback with content, or the deferred answer's
``@original`` edit or followup) is reported beside it.

Shards across processes: ``--processes N --shards S`` runs the UNO bot as N processes (S shards
split between them in contiguous runs: 2 processes of 4 shards run {0,1} and {2,3}), against one
stand-in with one guild per shard (successive guilds fall on successive shards) and the tables
spread over the guilds, table ``i`` in guild ``i % S``; each process serves the tables of its own
guilds, and restores nothing (the run starts empty). They share one PostgreSQL database with
``--url`` (a fresh schema, dropped after), else each has its own SQLite file. The first process
starts alone (it makes the application's card emojis), then the others. The pong run is skipped
(the pong bot runs no shards). To compare one process with two at the same load per process::

    .venv/bin/python -m benchmarks.load --only uno --think 1 --url "$URL" --processes 1 --shards 2 --tables 100
    .venv/bin/python -m benchmarks.load --only uno --think 1 --url "$URL" --processes 2 --shards 4 --tables 200

By default the bot runs in its own process (the stand-in and the simulated users in this
one), as Discord and the bot run on different machines; ``--in-process`` shares one event loop
(this process's, a plain one). Both bots run on the production bot's event loop
(`bot.run.new_event_loop`: tasks start eagerly on Python 3.12+), or with ``--lazy-tasks`` on
asyncio's plain one.
This process's garbage collector is off during the measured window: the stand-in keeps every
request, message and interaction, and its full collections (0.1 s and more) would show up in
both bots' tails (with ``--in-process`` this also turns off the bot's).
``--profile DIR`` writes cProfile statistics (CPU time of the event-loop thread, so time spent
waiting or descheduled is not counted) of the bot process (``DIR/<run>-bot.prof``, its whole
life) and of this process during the measured window (``DIR/<run>-stand-in.prof``).

Prints one JSON line::

    {"tables", "seconds", "processes", "shards", "storage", "uno": {...}, "pong": {...}, "p99_ratio"}

where each run has ``interactions`` (acknowledged, created in the window), ``per_second``,
``ack_p50_ms``, ``ack_p99_ms`` and, for diagnosis, ``ack_max_ms``, ``ack_mean_ms``,
``ack_p99_from_creation_ms``, ``unacknowledged``, ``answer_p50_ms``, ``answer_p99_ms``, ``unanswered`` (acknowledged, never
answered), ``responses`` (how many callbacks of each type: 4 a new message, 5 and 6 deferred,
7 the clicked message updated: a move answered in one call), ``discord_errors`` (stand-in requests answered with an error other than 429),
``rate_limited`` (requests answered 429; only with ``--rate-limits``, which turns on Discord's
rate limits in the stand-in: 5 messages per 5 s per channel, 50 requests/s),
``bot_log_warnings`` (WARNING or worse logged in the bot once ready), ``refusals`` (ephemeral
text answers such as a stale click), ``usage_errors`` (clicks the stand-in refused), ``stalls``,
``bot_cpu_ms_per_interaction`` (with ``--in-process``, the whole process's),
``bot_requests_per_interaction`` (REST calls of the bot in the
window per interaction), ``cpu`` (cores used in the window by this process, the bot process,
and the whole machine: other programs running at the same time show as ``machine`` above the
sum) and ``by_kind`` (count, p50, p99 per command or component verb: ``table:hand`` is My hand,
``hand:p`` a card played...) and ``gc`` (the bot process's garbage-collector passes in the
window per generation: ``passes``, ``ms`` in all, ``max_ms``, and the same in CPU time,
``cpu_ms``, ``cpu_max_ms``; None with ``--in-process``). ``--memory FILE`` writes what the bot
process holds when it stops (`memory_report`; with several processes, ``FILE-N`` for each).
With shards the UNO run also has ``processes``: per bot process, ``pid``, ``shards``,
``guilds``, ``tables``, the interaction figures above for the interactions of its guilds
(``interactions``, ``per_second``, ``ack_p50_ms``, ``ack_p99_ms``...), its own REST calls per
interaction (``bot_requests_per_interaction``, counted by the process), its ``cpu`` (cores) and
``bot_cpu_ms_per_interaction``, ``gc``, ``rss_mb`` and ``rss_kb_growth``; the run's own figures
are the combined ones (``cpu.bot`` the sum of the processes', ``gc`` None with several).
``p99_ratio`` is the UNO p99 over the pong p99. Progress, the
busiest routes, error samples and the machine go to stderr. The exit status is 1 if an
interaction went unacknowledged or the stand-in answered any request with an error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import logging
import math
import multiprocessing
import os
import platform
import queue
import random
import re
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, ParamSpec, TypeVar

import aiohttp
import discord
from discord import app_commands

from benchmarks import loopstats
from benchmarks.storage import fresh_schema
from bot.client.bot import UnoBot, point_at
from bot.local import local_settings
from bot.localdiscord.interactions import CommandUsageError
from bot.localdiscord.ratelimits import GLOBAL_EXEMPT
from bot.localdiscord.records import Channel, InteractionRecord, InteractionResponse, Message, User
from bot.localdiscord.server import StandIn, point_discord_py_at, start_stand_in
from bot.localdiscord.state import State
from bot.ops.heap import HEAP
from bot.run import new_event_loop
from bot.settings import load_settings
from bot.storage.choose import make_storage

BotKind = Literal["uno", "pong"]
T = TypeVar("T")
P = ParamSpec("P")

ACK_TIMEOUT = 5.0  # wall seconds to wait for a callback (the stand-in refuses it after 3)
ANSWER_TIMEOUT = 15.0  # wall seconds to wait for the answer of a deferred interaction
POLL_SECONDS = 0.002  # how often the watcher re-checks what the simulated users wait for
STALL_SECONDS = 15.0  # an AI turn that does not come within this is counted as a stall
CONTROL = {"Refresh", "Back", "◀", "▶", "Show as picture"}  # no move: they only redraw or show
HAND_WAIT = 2.0  # seconds a human waits for their open hand to say it is their move
WAITING = re.compile(r"Waiting for \*\*(.+?)\*\*")
MAX_LOG_LINES = 200
MP = multiprocessing.get_context("spawn")


# ====================================================================== the bots


@dataclass(frozen=True)
class BotSpec:
    """What a bot process needs to log into the stand-in."""

    kind: BotKind
    api_url: str
    gateway_url: str
    token: str
    guild_id: int
    ai_delay: float
    database: str  # an SQLite file's path, or a PostgreSQL URL (`bot.storage.choose.make_storage`)
    profile: str | None = None
    gc_log: str | None = None
    sent_log: str | None = None
    lazy_tasks: bool = False  # asyncio's plain event loop instead of the production bot's
    behind_log: str | None = None  # where the bot writes how far behind its messages were
    stock_buckets: bool = (
        False  # discord.py's own bucket scan, not the amortized one (`bot.client.internals`)
    )
    rate_limits: bool = False  # the stand-in enforces Discord's rate limits (the bot paces itself)
    shard_count: int | None = None  # None: no shards (one connection, as Discord recommends here)
    shard_ids: tuple[int, ...] = ()  # the shards this process runs, of ``shard_count``
    memory_log: str | None = None  # where the bot writes what it holds (`memory_report`)
    memory_trace: bool = False  # tracemalloc from ready on, for `memory_report`

    @property
    def base_url(self) -> str:
        """The stand-in's ``http://HOST:PORT`` (its CDN too)."""
        return self.api_url.removesuffix("/api/v10")


class CallbackSends:
    """Callbacks added to the bot's aiohttp trace (``discord.Client(http_trace=...)``, which
    also holds `bot.client.pacing`'s and `bot.ops.metrics`') noting when the bot writes each interaction
    callback: interaction id → epoch seconds (``time.time()``, the stand-in's clock); and when
    each request leaves, paced (``requests``: epoch seconds, to count each process's calls when
    several share the stand-in).

    The moment is taken just before the request's body goes to the socket, in the same pass of
    the event loop, so it is the bot's acknowledgement without the trip through the loopback and
    the stand-in's own queue (which grows with the bot's other requests; real Discord serves
    them in parallel).
    """

    CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")

    def __init__(self, config: aiohttp.TraceConfig) -> None:
        self.sent: dict[int, float] = {}
        self.requests: list[float] = []
        config.on_request_chunk_sent.append(self._chunk_sent)
        config.on_request_start.append(self._started)

    async def _started(self, session: Any, context: Any, params: aiohttp.TraceRequestStartParams) -> None:
        self.requests.append(time.time())

    async def _chunk_sent(
        self, session: Any, context: Any, params: aiohttp.TraceRequestChunkSentParams
    ) -> None:
        match = self.CALLBACK.search(params.url.path)
        if match is not None:
            self.sent.setdefault(int(match[1]), time.time())


def make_uno_bot(spec: BotSpec) -> UnoBot:
    """The production bot with fast settings, pointed at the stand-in (as local mode does)."""
    settings = load_settings(None, environ={}, require_token=False)
    settings.game.ai_delay_seconds = spec.ai_delay
    settings.game.turn_seconds = 0
    # Paced below Discord's global limit only when the stand-in enforces it (`--rate-limits`).
    settings.discord.global_requests_per_second = 50 if spec.rate_limits else 0
    if spec.shard_count:
        settings.discord.shard_count, settings.discord.shard_ids = spec.shard_count, list(spec.shard_ids)
    settings = local_settings(settings, spec)
    point_at(settings)
    # Sharded, the commands are global, to reach every guild (as tests/e2e/sharding.py's bots).
    storage = make_storage(spec.database)
    return UnoBot(settings, storage, sync_global=bool(spec.shard_count), guild_ready_timeout=0.05)


class PongButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pong:again"):
    """The one button, answered by updating its message to "pong". A dynamic item, like the UNO
    bot's buttons, so discord.py keeps no view per message."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Pong", custom_id="pong:again"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PongButton:
        """Any click on a ``pong:again`` button."""
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Answer at once (callback type 7)."""
        await interaction.response.edit_message(content="pong")


async def _ping(interaction: discord.Interaction[Any]) -> None:
    """Answer at once with an ephemeral "pong" and its button (callback type 4)."""
    view = discord.ui.View(timeout=None).add_item(PongButton())
    await interaction.response.send_message("pong", view=view, ephemeral=True)
    # discord.py gives a view sent with an ephemeral message a 15-minute timeout task, which keeps
    # it alive (and the garbage collector busy); the dynamic button needs no view to be answered.
    view.stop()


class PongBot(discord.Client):
    """The trivial bot: ``/ping`` and its button answer "pong", nothing else happens."""

    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            intents=intents, allowed_mentions=discord.AllowedMentions.none(), guild_ready_timeout=0.05
        )
        self.guild = discord.Object(guild_id)
        self.tree = app_commands.CommandTree(self)
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name="ping", description="Answer pong", callback=_ping
        )
        self.tree.add_command(command, guild=self.guild)

    async def setup_hook(self) -> None:
        """Register the button, sync ``/ping`` to the guild, and keep what start-up made out of
        the collector's passes, as ``UnoBot.setup_hook`` does (else a full pass of this bot,
        70 ms and more, lands in its figures)."""
        self.add_dynamic_items(PongButton)
        await self.tree.sync(guild=self.guild)
        gc.collect()
        gc.freeze()


def make_pong_bot(spec: BotSpec) -> PongBot:
    """The pong bot, pointed at the stand-in."""
    point_discord_py_at(spec.base_url)
    return PongBot(spec.guild_id)


class _Forward(logging.Handler):
    """Sends WARNING and worse records (at most `MAX_LOG_LINES`) to the parent."""

    def __init__(self, sink: Any) -> None:
        super().__init__(logging.WARNING)
        self._sink = sink
        self._sent = 0
        self.armed = False  # set once the bot is ready (start-up notices such as "no voice" are not counted)

    def emit(self, record: logging.LogRecord) -> None:
        if not self.armed:
            return
        self._sent += 1
        if self._sent > MAX_LOG_LINES:
            return
        text = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        with contextlib.suppress(Exception):
            self._sink.put(text)


Probe = Callable[[discord.Client, str], Any]
"""Called in the bot's process with the client and a request's text; returns the answer (anything
a queue can carry): `BotRunner.probe`."""


async def serve_bot(
    spec: BotSpec, ready: Any, stop: Any, sink: Any, probes: tuple[Probe, Any, Any] | None = None
) -> None:
    """Run a bot against the stand-in until ``stop`` (an Event) is set; ``ready`` is set once
    it has the guild. WARNING and worse log records go to ``sink`` (a queue). With ``probes``
    (a function, a queue of requests, a queue of answers), each request is answered by the
    function, between two of the loop's passes."""
    handler = _Forward(sink)
    root = logging.getLogger()
    root.addHandler(handler)
    scans = BucketScans()
    client: discord.Client = make_uno_bot(spec) if spec.kind == "uno" else make_pong_bot(spec)
    if spec.stock_buckets:
        scans.use_stock(client.http)
    if client.http.http_trace is None:  # the pong bot's; the UNO bot's paces and counts
        client.http.http_trace = aiohttp.TraceConfig()  # read when the client logs in
    # Only when their figures are asked for: they grow with every request and move, which would
    # count as the bot's in a measure of its memory (benchmarks.memory).
    sends = CallbackSends(client.http.http_trace) if spec.sent_log else None
    if isinstance(client, UnoBot) and spec.behind_log:
        client.service.updates.behind = []
    try:
        async with client:
            task = asyncio.create_task(client.start(spec.token))
            while client.get_guild(spec.guild_id) is None and not task.done():
                await asyncio.sleep(0.02)
            # A fresh stand-in has none of the card emojis: their upload (once per application,
            # not the steady state) ends before the load starts.
            while isinstance(client, UnoBot) and not client.card_emojis.done.is_set() and not task.done():
                await asyncio.sleep(0.05)
            if not task.done():
                handler.armed = True
                if spec.memory_trace:
                    tracemalloc.start()
                ready.set()
            while not stop.is_set() and not task.done():
                await asyncio.sleep(0.1)
                if probes is not None:
                    with contextlib.suppress(queue.Empty):
                        probe, requests, answers = probes
                        answers.put(probe(client, requests.get_nowait()))
            if spec.memory_log:
                Path(spec.memory_log).write_text(json.dumps(memory_report(client)))
            if task.done() and not task.cancelled() and task.exception() is not None:
                sink.put(f"ERROR bot: client.start() died: {task.exception()!r}")
            await client.close()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 10)
    finally:
        root.removeHandler(handler)
        if spec.sent_log and sends is not None:
            Path(spec.sent_log).write_text(json.dumps({"sent": sends.sent, "requests": sends.requests}))
        if spec.behind_log:
            behind = client.service.updates.behind if isinstance(client, UnoBot) else None
            Path(spec.behind_log).write_text(
                json.dumps(
                    {"behind": behind or [], "scans": scans.scans, "buckets": len(client.http._buckets)}
                )
            )


def memory_report(client: discord.Client, top: int = 40) -> dict[str, Any]:
    """What the bot process holds, for finding what a table costs: the objects `bot.ops.heap` kept
    frozen (``frozen``) and how many of them were cyclic garbage waiting for its next thorough
    pass (``frozen_garbage``, freed here), the objects the collector tracks by type (count, and
    KiB by ``sys.getsizeof``, which leaves out what they point to and every untracked object:
    strings, numbers), the sizes of discord.py's and the service's caches, and while tracemalloc
    runs (``--memory-trace``, from ready on: the tables, not start-up) the KiB still allocated by
    source file and by line."""
    gc.collect()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    # What `bot.ops.heap` froze that has become cyclic garbage since (it waits for a thorough pass).
    report: dict[str, Any] = {"frozen": frozen, "frozen_garbage": gc.collect()}
    gc.unfreeze()  # that pass froze its survivors again: list them all
    types: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    for obj in gc.get_objects():
        name = type(obj).__qualname__
        types[name] += 1
        sizes[name] += sys.getsizeof(obj)
    state = client._connection
    report |= {
        "tracked_objects": types.total(),
        "types": [[name, types[name], round(size / 1024)] for name, size in sizes.most_common(top)],
        "caches": {
            "messages": len(state._messages or ()),
            "views": len(state._view_store._views),
            "synced_message_views": len(state._view_store._synced_message_views),
            "users": len(state._users),
            "buckets": len(client.http._buckets),
        },
    }
    report["thorough_passes"] = HEAP.thorough_passes
    if isinstance(client, UnoBot):
        report["caches"]["tables"] = len(list(client.service.tables))
        report["caches"]["open_hands"] = len(client.service.hands.open)
    if tracemalloc.is_tracing():
        snapshot = tracemalloc.take_snapshot()
        tracemalloc.stop()
        site, root = str(Path(discord.__file__).parent.parent), str(Path(__file__).parent.parent)

        def rows(key: str) -> list[list[Any]]:
            stats = snapshot.statistics(key)[:top]
            return [
                [str(s.traceback[0]).replace(site, "site").replace(root, "."), round(s.size / 1024), s.count]
                for s in stats
            ]

        report["traced_kb"] = round(sum(s.size for s in snapshot.statistics("filename")) / 1024)
        report["by_file"], report["by_line"] = rows("filename"), rows("lineno")
    return report


class BucketScans:
    """Times discord.py's rate-limit bucket scan (`HTTPClient._try_clear_expired_ratelimits`,
    which looks at every bucket whenever a new bucket key appears once there are 256 or more):
    ``scans`` is a list of (epoch seconds, buckets looked at, milliseconds). Made before the
    client, so the amortized scan `bot.client.internals` installs calls the timed one; with ``stock``
    (`use_stock`), discord.py's own scan runs on every new bucket again."""

    def __init__(self) -> None:
        self.scans: list[tuple[float, int, float]] = []
        scan = discord.http.HTTPClient._try_clear_expired_ratelimits

        def timed(http: discord.http.HTTPClient) -> None:
            size, began = len(http._buckets), time.perf_counter()
            scan(http)
            if size >= 256:
                self.scans.append((time.time(), size, 1000 * (time.perf_counter() - began)))

        discord.http.HTTPClient._try_clear_expired_ratelimits = timed  # type: ignore[method-assign]

    @staticmethod
    def use_stock(http: discord.http.HTTPClient) -> None:
        """Drop the bot's own scan from ``http``: discord.py's (timed) scan runs again."""
        vars(http).pop("_try_clear_expired_ratelimits", None)


class GcPasses:
    """A `gc.callbacks` entry noting each collector pass: (epoch seconds at its end, generation,
    milliseconds, CPU milliseconds of this thread: on a busy machine a pass's wall time includes
    its waits for a CPU)."""

    def __init__(self) -> None:
        self.passes: list[tuple[float, int, float, float]] = []
        self._began = self._cpu = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began, self._cpu = time.perf_counter(), time.thread_time()
        else:
            wall, cpu = time.perf_counter() - self._began, time.thread_time() - self._cpu
            self.passes.append((time.time(), info["generation"], 1000 * wall, 1000 * cpu))


def gc_figures(passes: list[list[float]], start: float, end: float) -> dict[str, Any]:
    """Per generation, the passes that ended in ``[start, end)``: count, total and longest ms
    (wall), and total and longest CPU ms."""
    figures: dict[str, Any] = {}
    for generation in range(3):
        ms = [(wall, cpu) for at, g, wall, cpu in passes if g == generation and start <= at < end]
        figures[f"gen{generation}"] = {
            "passes": len(ms),
            "ms": round(sum((w for w, _ in ms), 0.0), 1),
            "max_ms": round(max((w for w, _ in ms), default=0.0), 1),
            "cpu_ms": round(sum((c for _, c in ms), 0.0), 1),
            "cpu_max_ms": round(max((c for _, c in ms), default=0.0), 1),
        }
    return figures


def bot_process_main(
    spec: BotSpec, ready: Any, stop: Any, sink: Any, probes: tuple[Probe, Any, Any] | None = None
) -> None:
    """Entry point of the bot process (optionally under cProfile); notes its collector passes
    in ``spec.gc_log`` (JSON) when it ends."""
    logging.getLogger().setLevel(logging.WARNING)  # records are forwarded to the parent, which prints them
    # Started as a daemon (it dies with the benchmark), yet it starts hard bots' search processes
    # as the production bot does (they end with it: their pool's pipes close).
    MP.current_process().daemon = False
    profiler = cProfile.Profile(time.thread_time) if spec.profile else None
    # `UNO_LOOP_STATS=DIR`: the loop's stretches in CPU time (benchmarks/loopstats.py).
    loop_stats = loopstats.install() if os.environ.get(loopstats.ENV) else None
    passes = GcPasses()
    gc.callbacks.append(passes)
    if profiler is not None:
        profiler.enable()
    try:
        with asyncio.Runner(loop_factory=None if spec.lazy_tasks else new_event_loop) as runner:
            runner.run(serve_bot(spec, ready, stop, sink, probes))
    finally:
        if profiler is not None and spec.profile:
            profiler.disable()
            profiler.dump_stats(spec.profile)
        if spec.gc_log:
            Path(spec.gc_log).write_text(json.dumps(passes.passes))
        if loop_stats is not None:
            shards = "".join(f"-{n}" for n in spec.shard_ids)  # one file per process with shards
            loop_stats.dump(str(Path(os.environ[loopstats.ENV]) / f"{spec.kind}{shards}-loop.json"))


def rss_kb_of(pid: int | None) -> int | None:
    """A process's resident memory in KiB (Linux; ``None``: this process), None if unknown."""
    try:
        status = Path(f"/proc/{pid or 'self'}/status").read_text()
    except OSError:
        return None
    match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    return int(match[1]) if match else None


class BotRunner:
    """A bot in its own process (default) or as a task on this loop; ``probe`` (a module-level
    function, so that the bot's process can import it) answers `probe` requests there."""

    def __init__(self, spec: BotSpec, *, in_process: bool, probe: Probe | None = None) -> None:
        self.spec = spec
        self.in_process = in_process
        self._ready = MP.Event()
        self._stop = MP.Event()
        self._sink: Any = MP.Queue()
        self._probes: tuple[Probe, Any, Any] | None = (
            None if probe is None else (probe, MP.Queue(), MP.Queue())
        )
        self._process: Any = None
        self._task: asyncio.Task[None] | None = None
        self.logs: list[str] = []

    @property
    def pid(self) -> int | None:
        """The bot process's id (None in-process)."""
        return None if self._process is None else int(self._process.pid)

    async def start(self, timeout: float = 60.0) -> None:
        """Start the bot and wait until it has the guild.

        Raises:
            RuntimeError: the bot died or was not ready in time.
        """
        if self.in_process:
            self._task = asyncio.create_task(
                serve_bot(self.spec, self._ready, self._stop, self._sink, self._probes)
            )
        else:
            self._process = MP.Process(
                target=bot_process_main,
                args=(self.spec, self._ready, self._stop, self._sink, self._probes),
                name=f"loadbench-{self.spec.kind}-bot",
                daemon=True,
            )
            self._process.start()
        deadline = time.monotonic() + timeout
        while not self._ready.is_set():
            dead = (self._task is not None and self._task.done()) or (
                self._process is not None and not self._process.is_alive()
            )
            if dead or time.monotonic() > deadline:
                self._drain()
                raise RuntimeError(f"the {self.spec.kind} bot did not start: {self.logs[-5:]}")
            await asyncio.sleep(0.05)

    async def probe(self, request: str, timeout: float = 600.0) -> Any:
        """The bot's side's answer to ``request`` (the ``probe`` function's, run with its client).

        Raises:
            RuntimeError: no probe function was given, or no answer came in ``timeout`` seconds.
        """
        if self._probes is None:
            raise RuntimeError("this bot was started without a probe function")
        _, requests, answers = self._probes
        requests.put(request)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                return answers.get_nowait()
            except queue.Empty:
                await asyncio.sleep(0.05)
        raise RuntimeError(f"the bot did not answer the probe {request!r}")

    def _drain(self) -> None:
        while True:
            try:
                self.logs.append(self._sink.get_nowait())
            except (queue.Empty, OSError, ValueError):
                return

    async def stop(self) -> list[str]:
        """Stop the bot (closing its client and storage); returns what it logged."""
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._task, 30)
        if self._process is not None:
            deadline = time.monotonic() + 30
            while self._process.is_alive() and time.monotonic() < deadline:
                self._drain()
                await asyncio.sleep(0.05)
            if self._process.is_alive():
                self._process.terminate()
                self.logs.append("ERROR loadbench: the bot process did not stop; terminated")
            self._process.join(5)
        self._drain()
        return self.logs

    def rss_kb(self) -> int | None:
        """The bot process's resident memory in KiB (Linux), None in-process."""
        return None if self.pid is None else rss_kb_of(self.pid)

    def cpu_seconds(self) -> float | None:
        """User + system CPU seconds of the bot process so far (Linux), None in-process."""
        if self.pid is None:
            return None
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ====================================================================== the simulated users


class Watcher:
    """Wakes coroutines waiting for a condition on the stand-in's state: one task re-checks
    every waiting predicate after state changes (at most every `POLL_SECONDS`), so hundreds of
    waiting users cost one scan, not hundreds of polls (``State.wait_until`` wakes every waiter
    on every change)."""

    def __init__(self, state: State) -> None:
        self._waits: list[tuple[Callable[[], Any], asyncio.Future[Any], float]] = []
        self._dirty = True
        self._remove = state.add_listener(self._mark)
        self._task: asyncio.Task[None] | None = None

    def _mark(self) -> None:
        self._dirty = True

    def start(self) -> None:
        """Start re-checking."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop; pending waits are cancelled."""
        self._remove()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for _, future, _ in self._waits:
            future.cancel()
        self._waits.clear()

    async def wait(self, predicate: Callable[[], T | None], timeout: float) -> T:
        """``predicate()`` once it is truthy.

        Raises:
            TimeoutError: not within ``timeout`` seconds.
        """
        result = predicate()
        if result:
            return result
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._waits.append((predicate, future, loop.time() + timeout))
        return await future

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last_full = 0.0
        while True:
            await asyncio.sleep(POLL_SECONDS)
            now = loop.time()
            if not self._dirty and now - last_full < 0.05:
                continue
            self._dirty = False
            last_full = now
            keep = []
            for item in self._waits:
                predicate, future, deadline = item
                if future.done():
                    continue
                try:
                    result = predicate()
                except Exception as exc:
                    future.set_exception(exc)
                    continue
                if result:
                    future.set_result(result)
                elif now > deadline:
                    future.set_exception(TimeoutError(f"not within the time allowed: {predicate}"))
                else:
                    keep.append(item)
            self._waits = keep


def has_button(message: Message, label: str) -> bool:
    """Whether ``message`` has a button labelled ``label``."""
    return any(b.get("label") == label for b in message.buttons)


def text_of(message: Message) -> str:
    """``message.text``, worked out once per revision: hundreds of waiting users read it after
    every change, in the process whose delays the figures count."""
    cached = _texts.get(message.id)
    if cached is None or cached[0] != message.revision:
        cached = _texts[message.id] = (message.revision, message.text)
    return cached[1]


_texts: dict[int, tuple[int, str]] = {}


def waiting_for(message: Message) -> str | None:
    """The name the table message says the game waits for."""
    match = WAITING.search(text_of(message))
    return match.group(1) if match else None


def my_move(hand: Message) -> bool:
    """Whether a hand message says it is its holder's move (or shows a color/player picker)."""
    return "🟢 Your move" in text_of(hand) or has_button(hand, "Back")


def edited_since(message: Message, revision: int) -> Callable[[], bool]:
    """A predicate: ``message`` was edited (or deleted) since ``revision``."""
    return lambda: message.revision != revision or message.deleted


def no_longer_waiting_for(table: Message, name: str) -> Callable[[], bool]:
    """A predicate: the table message no longer says the game waits for ``name``."""
    return lambda: table.deleted or waiting_for(table) != name


def find_table_message(state: State, channel: Channel, after: int) -> Message | None:
    """The bot's newest public message in ``channel`` with a My hand button, newer than ``after``
    (scans from the newest message back to ``after``)."""
    for message in reversed(state.messages.values()):
        if message.id <= after:
            return None
        if (
            message.channel is channel
            and message.author is state.bot
            and not message.ephemeral
            and not message.deleted
            and has_button(message, "My hand")
        ):
            return message
    return None


@dataclass
class Driver:
    """The simulated users of one run and what went wrong for them."""

    stand_in: StandIn
    watcher: Watcher
    rng: random.Random
    tables: int
    think: float = 0.0
    reopen_hand: bool = False
    bot_level: str = "normal"  # the level of the two bots at each table (the lobby's select)
    hands: dict[tuple[int, str], Message] = field(default_factory=dict)  # the last hand each user opened
    stopping: bool = False
    opened: int = 0
    all_open: asyncio.Event = field(default_factory=asyncio.Event)
    usage_errors: Counter[str] = field(default_factory=Counter)
    unacknowledged: int = 0
    stalls: int = 0
    games_started: int = 0
    hand_opens: Counter[str] = field(default_factory=Counter)  # My hand presses, by why
    refusals: Counter[str] = field(default_factory=Counter)

    async def act(
        self, start: Callable[P, Awaitable[InteractionRecord]], *args: P.args, **kwargs: P.kwargs
    ) -> InteractionResponse | None:
        """Start an interaction (``stand_in.slash/click/select``) and wait for its callback;
        None when stopping, refused by the stand-in (a click Discord would not send), or not
        acknowledged in time."""
        if self.stopping:
            return None
        try:
            record = await start(*args, **kwargs)
        except CommandUsageError as exc:
            self.usage_errors[re.sub(r"\d+", "N", str(exc))[:80]] += 1
            return None
        try:
            await self.watcher.wait(record.current_response, ACK_TIMEOUT)
        except TimeoutError:
            self.unacknowledged += 1
            return None
        try:  # a deferred interaction is answered later, by an edit or a followup
            response = await self.watcher.wait(record.current_answer, ANSWER_TIMEOUT)
        except TimeoutError:
            return None  # counted by `summarize`
        message = response.message
        if response.type in (4, 5) and message is not None and message.ephemeral and not message.components:
            self.refusals[message.content[:80]] += 1
        return response

    async def pause(self) -> None:
        """A human's thinking time before an action: exponential with mean ``think`` (0: none)."""
        if self.think > 0:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))

    def _opened_one(self) -> None:
        self.opened += 1
        if self.opened >= self.tables:
            self.all_open.set()

    # ------------------------------------------------------------------ UNO

    async def uno_table(self, channel: Channel, host: User, guest: User, *, start: float = 0.0) -> None:
        """Open a table in ``channel`` after ``start`` seconds and play it, again and again, until
        stopping."""
        await asyncio.sleep(start)
        humans = {host.name: host, guest.name: guest}
        first = True
        while not self.stopping:
            table = await self.open_uno(channel, host, guest)
            if table is None:
                await asyncio.sleep(0.5)
                continue
            self.games_started += 1
            if first:
                first = False
                self._opened_one()
            await self.play_uno(table, humans)

    async def open_uno(self, channel: Channel, host: User, guest: User) -> Message | None:
        """``/uno new``, Join, Add bot ×2, Start; returns the table message."""
        s = self.stand_in
        new = await self.act(s.slash, host, channel, "uno new")
        if new is None or new.message is None or not has_button(new.message, "Join"):
            await self.act(s.slash, host, channel, "uno end")  # e.g. a table left open
            return None
        lobby = new.message
        for user, label in ((guest, "Join"), (host, "Add bot"), (host, "Add bot"), (host, "Start")):
            if label == "Add bot" and self.bot_level != "normal":  # the select of levels
                current = s.state.messages[lobby.id]
                select = next(x for x in current.selects if x["custom_id"].endswith(":bot"))
                done = await self.act(s.select, user, current, select["custom_id"], [self.bot_level])
            else:
                done = await self.act(s.click, user, lobby, label=label)
            if done is None:
                return None
        state = s.state
        try:
            return await self.watcher.wait(lambda: find_table_message(state, channel, lobby.id), 10)
        except TimeoutError:
            self.stalls += 1
            return None

    async def play_uno(self, table: Message, humans: dict[str, User]) -> None:
        """Play the humans' turns until the game is over (or stopping)."""
        for name in humans:  # the hands of the previous game say nothing of this one
            self.hands.pop((table.channel.id, name), None)
        while not self.stopping:
            if table.deleted or not has_button(table, "My hand"):
                return  # the game is over: the table message lost its buttons
            user = self.to_act(table, humans)
            if user is None:  # an AI seat's turn, or the table message has not caught up
                revision = table.revision
                try:
                    await self.watcher.wait(
                        lambda revision=revision: table.revision != revision or self.to_act(table, humans),
                        STALL_SECONDS,
                    )
                except TimeoutError:
                    self.stalls += 1
                continue
            await self.uno_turn(user, table)
            name = user.name
            with contextlib.suppress(TimeoutError):  # the table message catches up with the move
                await self.watcher.wait(
                    lambda name=name, user=user: (
                        no_longer_waiting_for(table, name)() or self.to_act(table, humans) not in (None, user)
                    ),
                    2.0,
                )

    def to_act(self, table: Message, humans: dict[str, User]) -> User | None:
        """The human whose move it is as they see it: one whose open hand says so; else the one
        the table message names, if they have no hand open (a player who keeps their hand open
        watches it: the table message is edited at most once a second, and less often under
        Discord's global limit, while a hand is redrawn as soon as its owner can act)."""
        named = waiting_for(table)
        for name, user in humans.items():
            hand = self.hands.get((table.channel.id, name))
            if hand is not None and not hand.deleted:
                if my_move(hand):
                    return user
            elif name == named:
                return user
        return None

    async def uno_turn(self, user: User, table: Message) -> None:
        """Random enabled choices (UNO! first) in the user's hand while it says it is their move
        (see ``tests/e2e/helpers.play_randomly``); `pause` before each.

        The hand is the one the user opened last, which the bot keeps up to date, as a player
        keeps it open; My hand opens one when they have none (their first turn of a game), when
        theirs does not say it is their move within `HAND_WAIT` seconds, and, with
        ``reopen_hand``, at every turn."""
        s = self.stand_in
        await self.pause()
        key = (table.channel.id, user.name)
        hand = None if self.reopen_hand else self.hands.get(key)
        if hand is not None:
            kept = hand
            with contextlib.suppress(TimeoutError):
                await self.watcher.wait(lambda: kept.deleted or my_move(kept), HAND_WAIT)
        if hand is None or hand.deleted or not my_move(hand):
            why = "every turn" if self.reopen_hand else "none open" if hand is None else "not current"
            self.hand_opens[why] += 1
            response = await self.act(s.click, user, table, label="My hand")
            hand = response.message if response is not None else None
        if hand is not None:
            self.hands[key] = hand
        for _ in range(8):
            if hand is None or not hand.ephemeral or not my_move(hand):
                return
            await self.pause()
            buttons = [b for b in hand.buttons if not b.get("disabled") and b.get("label") not in CONTROL]
            uno = [b for b in buttons if b.get("label") == "UNO!"]
            if uno:
                response = await self.act(s.click, user, hand, uno[0]["custom_id"])
            elif hand.selects and (not buttons or self.rng.random() < 0.5):
                select = hand.selects[0]
                value = self.rng.choice(select["options"])["value"]
                response = await self.act(s.select, user, hand, select["custom_id"], [value])
            elif buttons:
                response = await self.act(s.click, user, hand, self.rng.choice(buttons)["custom_id"])
            else:
                return
            hand = response.message if response is not None else None

    # ------------------------------------------------------------------ pong

    async def pong_channel(
        self, channel: Channel, users: Sequence[User], rate: float | None, gap: float
    ) -> None:
        """The users take turns: ``/ping``, then a click on its answer (a round). With ``rate``
        (interactions per second over all channels) a channel starts rounds at random (Poisson)
        times averaging that rate, at once when a round overran; without, it pauses ``gap``
        ± 50 % after each round and `pause` before each action."""
        s = self.stand_in
        self._opened_one()
        loop = asyncio.get_running_loop()
        period = 2 * len(users) * self.tables / rate if rate else None
        # The first start is exponential too, so the channels together keep the rate from the
        # first second: a uniform first start overloads the first period (its rate climbs to
        # twice the target), and with it the measured window (about 15 % above the target).
        next_start = loop.time() + (self.rng.expovariate(1 / period) if period else 0.0)
        while not self.stopping:
            if period is not None:
                await asyncio.sleep(max(0.0, next_start - loop.time()))
            for user in users:
                if period is None:
                    await self.pause()
                response = await self.act(s.slash, user, channel, "ping")
                if response is not None and response.message is not None:
                    if period is None:
                        await self.pause()
                    await self.act(s.click, user, response.message, label="Pong")
            if period is not None:
                next_start = max(next_start + self.rng.expovariate(1 / period), loop.time())
            else:
                await asyncio.sleep(gap * self.rng.uniform(0.5, 1.5))


# ====================================================================== one run


def percentile(sorted_values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile of sorted values (None if empty)."""
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))]


def kind_of(record: InteractionRecord) -> str:
    """``/uno new``, ``lobby:join``, ``table:hand``, ``hand:p`` (component verb), ``pong:again``."""
    if record.command:
        return "/" + record.command
    custom_id = str(record.payload.get("data", {}).get("custom_id", ""))
    parts = custom_id.split(":")
    if parts[0] in ("uno", "unos") and len(parts) >= 5:
        scope = {"l": "lobby", "t": "table", "h": "hand"}.get(parts[1], parts[1])
        return f"{scope}:{parts[4]}"
    return custom_id or "?"


def machine_busy_seconds() -> float | None:
    """CPU seconds (all cores, every process) spent busy since boot, from ``/proc/stat``."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    ticks = [int(f) for f in fields]
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def route_of(method: str, path: str) -> str:
    """``PATCH /channels/{id}/messages/{id}``: a request's route, ids and tokens replaced."""
    parts = ["{id}" if p.isdigit() else "{token}" if len(p) > 40 else p for p in path.split("/")]
    return f"{method} {'/'.join(parts)}"


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def summarize(
    state: State,
    start: float,
    end: float,
    sent: dict[int, float],
    keep: Callable[[InteractionRecord], bool] | None = None,
) -> dict[str, Any]:
    """Figures for the interactions created in ``[start, end)`` (stand-in clock), those ``keep``
    accepts if given (one bot process's); ``sent``: when the bot wrote each callback
    (`CallbackSends`)."""
    records = [
        r for r in state.interactions.values() if start <= r.created_at < end and (keep is None or keep(r))
    ]
    latencies: list[float] = []
    sends: list[float] = []
    from_creation: list[float] = []
    answers: list[float] = []
    kinds: dict[str, list[float]] = {}
    unacknowledged = unanswered = 0
    for record in records:
        if record.acknowledged_at is None:
            unacknowledged += 1
            continue
        arrived = record.delivered_at if record.delivered_at is not None else record.created_at
        ms = (record.acknowledged_at - arrived) * 1000
        latencies.append(ms)
        if record.id in sent and record.delivered_at is not None:
            sends.append((sent[record.id] - record.delivered_at) * 1000)
        from_creation.append((record.acknowledged_at - record.created_at) * 1000)
        kinds.setdefault(kind_of(record), []).append(ms)
        if record.answered_at is None:
            unanswered += 1
        else:
            answers.append((record.answered_at - arrived) * 1000)
    latencies.sort()
    sends.sort()
    from_creation.sort()
    answers.sort()
    by_kind = {}
    for name, values in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        values.sort()
        by_kind[name] = {
            "n": len(values),
            "p50_ms": _ms(percentile(values, 0.5)),
            "p99_ms": _ms(percentile(values, 0.99)),
        }
    seconds = end - start
    return {
        "interactions": len(latencies),
        "per_second": round(len(latencies) / seconds, 1) if seconds > 0 else None,
        "ack_p50_ms": _ms(percentile(latencies, 0.5)),
        "ack_p99_ms": _ms(percentile(latencies, 0.99)),
        "ack_max_ms": _ms(latencies[-1] if latencies else None),
        "ack_mean_ms": _ms(sum(latencies) / len(latencies) if latencies else None),
        "ack_p99_from_creation_ms": _ms(percentile(from_creation, 0.99)),
        "sent_p50_ms": _ms(percentile(sends, 0.5)),
        "sent_p99_ms": _ms(percentile(sends, 0.99)),
        "unacknowledged": unacknowledged,
        "answer_p50_ms": _ms(percentile(answers, 0.5)),
        "answer_p99_ms": _ms(percentile(answers, 0.99)),
        "unanswered": unanswered,
        "responses": dict(Counter(str(r.response_type) for r in records if r.response_type is not None)),
        "by_kind": by_kind,
    }


def global_figures(stand_in: StandIn, requests: list[Any], start: float, end: float) -> dict[str, Any]:
    """The requests Discord counts against a bot's global limit (50 per second; not interaction
    callbacks nor interaction webhooks): per second on average and in the busiest second of the
    window, and the 429s the global limit gave in the whole run (when: seconds from the window's
    start) and in the window."""
    counted = [r.at for r in requests if not r.path.startswith(GLOBAL_EXEMPT)]
    seconds = Counter(int(at - start) for at in counted)
    refused = [r for r in stand_in.rate_limited if isinstance(r.response, dict) and r.response.get("global")]
    return {
        "per_second": round(len(counted) / (end - start), 1) if end > start else None,
        "busiest_second": max(seconds.values(), default=0),
        "limit": 50,
        "refused_429": len(refused),
        "refused_429_window": sum(start <= r.at < end for r in refused),
        "refused_429_when": sorted(round(r.at - start, 1) for r in refused),  # s from the window's start
        "refused_429_route": len(stand_in.rate_limited) - len(refused),
    }


def behind_figures(behind: list[list[Any]], clock: Any, start: float, end: float) -> dict[str, Any]:
    """How far behind the game the bot's messages were (`Updates.behind`: from the first change a
    message did not show yet to the end of the update that showed it), per kind of message, for
    updates that ended in the window: count, p50, p99 and max in seconds."""
    offset = clock.now() - time.time()  # the bot's epoch seconds on the stand-in's clock
    kinds: dict[str, list[float]] = {}
    for at, kind, seconds in behind:
        if start <= at + offset < end:
            kinds.setdefault(kind, []).append(seconds)
    figures = {}
    for kind, values in sorted(kinds.items()):
        values.sort()
        figures[kind] = {
            "n": len(values),
            "p50_s": round(percentile(values, 0.5) or 0.0, 3),
            "p99_s": round(percentile(values, 0.99) or 0.0, 3),
            "max_s": round(values[-1], 3),
        }
    return figures


def scan_figures(
    scans: list[list[float]], buckets: int | None, clock: Any, start: float, end: float
) -> dict[str, Any]:
    """discord.py's bucket scans (`BucketScans`): in the whole run and in the window (count, ms),
    and the buckets left when the bot stopped."""
    offset = clock.now() - time.time()
    window = [ms for at, _, ms in scans if start <= at + offset < end]
    return {
        "buckets_at_end": buckets,
        "run_scans": len(scans),
        "run_ms": round(sum(ms for _, _, ms in scans), 1),
        "window_scans": len(window),
        "window_ms": round(sum(window), 1),
    }


def _log(text: str) -> None:
    print(f"[loadbench] {text}", file=sys.stderr, flush=True)


def split_shards(processes: int, shards: int) -> list[tuple[int, ...]]:
    """The shards each bot process runs: contiguous runs, as even as can be (``[()]`` for one
    unsharded process).

    >>> split_shards(2, 4), split_shards(1, 2), split_shards(1, 0)
    ([(0, 1), (2, 3)], [(0, 1)], [()])
    """
    if not shards:
        return [()]
    return [tuple(range(k * shards // processes, (k + 1) * shards // processes)) for k in range(processes)]


async def stand_in_for(args: argparse.Namespace, guilds: int) -> tuple[StandIn, list[str]]:
    """A fresh stand-in with ``--tables`` channels spread over ``guilds`` guilds (table ``i`` in
    guild ``i % guilds``; the guilds fall on successive shards) and two users per table; the
    users' names, two per channel in the order of ``stand_in.channels``."""
    n = args.tables
    channels = [f"table-{i:03d}" for i in range(n)]
    users = [f"u{i:03d}{side}" for i in range(n) for side in "ab"]
    stand_in = await start_stand_in(
        "127.0.0.1", 0, "Load Bench", users, channels=channels[0::guilds], rate_limits=args.rate_limits
    )
    for g in range(1, guilds):  # every user is a member of each
        stand_in.add_guild(f"Load Bench {g}", channels=channels[g::guilds])
    return stand_in, users


@dataclass
class Process:
    """One bot process of a run and the guilds it serves (its shards')."""

    runner: BotRunner
    shard_ids: tuple[int, ...]
    guilds: set[int]
    sent_log: Path
    behind_log: Path
    cpu: list[float | None] = field(default_factory=list)  # CPU seconds at the window's start, end
    rss: list[int | None] = field(default_factory=list)  # KiB when ready, at the window's end

    def serves(self, record: InteractionRecord) -> bool:
        """Whether the interaction came to this process (its channel's guild is on its shards)."""
        return record.channel.guild_id in self.guilds

    def cores(self, seconds: float) -> float | None:
        """Cores the process used in the window of ``seconds`` (None in-process)."""
        cpu0, cpu1 = self.cpu
        return None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / seconds

    def mark(self) -> None:
        """Note the CPU time and memory at the window's end."""
        self.cpu.append(self.runner.cpu_seconds())
        self.rss.append(self.runner.rss_kb())


def process_figures(
    process: Process,
    state: State,
    start: float,
    end: float,
    sent: dict[int, float],
    requests: list[float],
    passes: list[Any] | None,
) -> dict[str, Any]:
    """One process's share of a run: its interactions (`summarize`), calls, CPU and memory."""
    figures = summarize(state, start, end, sent, process.serves)
    figures.pop("by_kind")
    seconds = end - start
    offset = state.clock.now() - time.time()  # the bot's epoch seconds on the stand-in's clock
    calls = sum(start <= at + offset < end for at in requests)
    used = process.cores(seconds)
    cores = None if used is None else round(used, 2)
    rss0, rss1 = process.rss
    return {
        "pid": process.runner.pid,
        "shards": list(process.shard_ids),
        "guilds": len(process.guilds),
        "tables": sum(1 for c in state.channels.values() if c.type == 0 and c.guild_id in process.guilds),
        **figures,
        "bot_requests_per_interaction": round(calls / figures["interactions"], 2)
        if figures["interactions"]
        else None,
        "cpu": cores,
        "bot_cpu_ms_per_interaction": (
            round(1000 * cores / figures["per_second"], 2)
            if cores is not None and figures["per_second"]
            else None
        ),
        "gc": None if passes is None else gc_figures(passes, start, end),
        "rss_mb": None if rss1 is None else round(rss1 / 1024, 1),
        "rss_kb_growth": None if rss0 is None or rss1 is None else rss1 - rss0,
    }


async def run_one(kind: BotKind, args: argparse.Namespace, pong_rate: float | None = None) -> dict[str, Any]:
    """One run (``uno`` or ``pong``) on a fresh stand-in; returns its figures. ``pong_rate``:
    the pong run's target interactions per second (None: pause ``--pong-gap`` per round)."""
    gc.collect()  # the previous run's stand-in, now (a full collection can take a second)
    n = args.tables
    shards = args.shards
    stand_in, users = await stand_in_for(args, max(1, shards))
    profile_dir = Path(args.profile) if args.profile else None
    if profile_dir is not None:
        profile_dir.mkdir(parents=True, exist_ok=True)
    async with contextlib.AsyncExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="uno-loadbench-")))
        url = (await stack.enter_async_context(fresh_schema(args.url, "load")))[0] if args.url else None
        processes: list[Process] = []
        for k, shard_ids in enumerate(split_shards(args.processes, shards)):
            guilds = {g.id for g in stand_in.guilds if not shards or (g.id >> 22) % shards in shard_ids}
            suffix = f"-{k}" if args.processes > 1 else ""
            spec = BotSpec(
                kind=kind,
                api_url=stand_in.api_url,
                gateway_url=stand_in.gateway_url,
                token=stand_in.token,
                guild_id=min(guilds),  # the bot is ready once it has this guild
                ai_delay=args.ai_delay,
                database=url or str(tmp / f"uno{suffix}.db"),  # one PostgreSQL database, or a file each
                profile=(
                    str(profile_dir / f"{kind}-bot{suffix}.prof")
                    if profile_dir and not args.in_process
                    else None
                ),
                gc_log=None if args.in_process else str(tmp / f"gc{suffix}.json"),
                sent_log=str(
                    tmp / f"sent{suffix}.json"
                ),  # written by the bot when it stops (`CallbackSends`)
                lazy_tasks=args.lazy_tasks,
                behind_log=str(tmp / f"behind{suffix}.json"),  # likewise (`Updates.behind`, `BucketScans`)
                stock_buckets=args.stock_buckets,
                rate_limits=args.rate_limits,
                shard_count=shards or None,
                shard_ids=shard_ids,
                memory_log=str(tmp / f"memory{suffix}.json") if args.memory else None,
                memory_trace=args.memory_trace,
            )
            processes.append(
                Process(
                    BotRunner(spec, in_process=args.in_process),
                    shard_ids,
                    guilds,
                    Path(spec.sent_log or ""),
                    Path(spec.behind_log or ""),
                )
            )
        watcher = Watcher(stand_in.state)
        driver = Driver(
            stand_in,
            watcher,
            random.Random(args.seed),
            n,
            think=args.think,
            reopen_hand=args.reopen_hand,
            bot_level=args.bot_level,
        )
        tasks: list[asyncio.Task[None]] = []
        logs: list[str] = []
        try:
            # The first process makes the application's card emojis, which the others then find
            # (started together, each would make them, and all but one be refused: name taken).
            await processes[0].runner.start()
            await asyncio.gather(*(p.runner.start() for p in processes[1:]))
            await stand_in.wait_until(lambda: stand_in.commands(guild=not shards), 10)
            pids = (
                "in-process" if args.in_process else "pid " + ", ".join(str(p.runner.pid) for p in processes)
            )
            _log(f"{kind}: bot ready ({pids})")
            for process in processes:
                process.rss.append(process.runner.rss_kb())
            watcher.start()
            _texts.clear()
            begun = time.monotonic()
            gap = args.pong_gap if args.pong_gap is not None else 2 * args.ai_delay
            for i, channel in enumerate(stand_in.channels):
                a, b = stand_in.user(users[2 * i]), stand_in.user(users[2 * i + 1])
                coro = (
                    driver.uno_table(channel, a, b, start=i / args.open_rate)
                    if kind == "uno"
                    else driver.pong_channel(channel, [a, b], pong_rate, gap)
                )
                tasks.append(asyncio.create_task(coro))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(driver.all_open.wait(), max(60.0, n * 0.5))
            open_seconds = time.monotonic() - begun
            await asyncio.sleep(args.warmup)  # every table's first turn comes at once: not the steady state
            _log(
                f"{kind}: {driver.opened}/{n} tables open after {open_seconds:.1f} s; measuring {args.seconds} s"
            )
            profiler = cProfile.Profile(time.thread_time) if profile_dir is not None else None
            for process in processes:
                process.cpu.append(process.runner.cpu_seconds())
            cpu_self0, busy0 = time.process_time(), machine_busy_seconds()
            if profiler is not None:
                profiler.enable()
            gc.freeze()  # collected at the start of the run
            gc.disable()  # the stand-in's own collection pauses (it keeps everything) are not the bot's
            try:
                start = stand_in.clock.now()
                await asyncio.sleep(args.seconds)
                end = stand_in.clock.now()
                if os.environ.get(loopstats.ENV):
                    window = Path(os.environ[loopstats.ENV]) / f"window-{kind}.json"
                    window.write_text(json.dumps({"start": start, "end": end}))
            finally:
                gc.enable()
                gc.unfreeze()
            if profiler is not None and profile_dir is not None:
                profiler.disable()
                profiler.dump_stats(str(profile_dir / f"{kind}-stand-in.prof"))
            cpu_self1, busy1 = time.process_time(), machine_busy_seconds()
            for process in processes:
                process.mark()
            driver.stopping = True
            _, pending = await asyncio.wait(tasks, timeout=ACK_TIMEOUT + 5)
            for task in pending:
                task.cancel()
            for task in tasks:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    driver.usage_errors[f"driver crashed: {task.exception()!r}"[:120]] += 1
        finally:
            for task in tasks:
                task.cancel()
            await watcher.close()
            for stopped in await asyncio.gather(*(p.runner.stop() for p in processes)):
                logs += stopped
            await stand_in.close()
        sent: dict[int, float] = {}
        requests: list[list[float]] = []
        behind: list[Any] = []
        scans: list[Any] = []
        buckets: int | None = None
        passes: list[list[Any] | None] = []
        for process in processes:
            written = json.loads(process.sent_log.read_text()) if process.sent_log.is_file() else {}
            sent.update({int(k): v for k, v in written.get("sent", {}).items()})
            requests.append(written.get("requests", []))
            logged = json.loads(process.behind_log.read_text()) if process.behind_log.is_file() else {}
            behind += logged.get("behind", [])
            scans += logged.get("scans", [])
            if logged.get("buckets") is not None:
                buckets = (buckets or 0) + logged["buckets"]
            gc_log = Path(process.runner.spec.gc_log) if process.runner.spec.gc_log else None
            passes.append(json.loads(gc_log.read_text()) if gc_log is not None and gc_log.exists() else None)
            memory_log = Path(process.runner.spec.memory_log or "")
            if args.memory and memory_log.is_file():
                written_to = args.memory + memory_log.stem.removeprefix("memory")
                Path(written_to).write_text(memory_log.read_text())
                _log(f"{kind}: what the bot holds written to {written_to}")
    figures = summarize(stand_in.state, start, end, sent)
    in_window = [r for r in stand_in.state.requests if start <= r.at < end]
    routes = Counter(route_of(r.method, r.path) for r in in_window)
    errors = [r for r in stand_in.errors if r.status != 429]  # 429s: discord.py waited and retried
    seconds = end - start
    cpu_stand_in = round((cpu_self1 - cpu_self0) / seconds, 2)
    cores = [p.cores(seconds) for p in processes]
    known = [c for c in cores if c is not None]
    cpu: dict[str, float | None] = {
        "stand_in": cpu_stand_in,
        "bot": round(sum(known), 2) if len(known) == len(cores) else None,
        "machine": None if busy0 is None or busy1 is None else round((busy1 - busy0) / seconds, 2),
    }
    bot_cpu = cpu["bot"] if cpu["bot"] is not None else cpu_stand_in
    per_second = figures["per_second"]
    rss = [kb for p in processes for kb in p.rss if kb is not None]  # ready, end of each process
    rss_known = len(rss) == 2 * len(processes)
    rss_end = sum(rss[1::2])
    figures.update(
        {
            "bot_cpu_ms_per_interaction": round(1000 * bot_cpu / per_second, 2) if per_second else None,
            "bot_requests_per_interaction": (
                round(routes.total() / figures["interactions"], 2) if figures["interactions"] else None
            ),
            "tables_open": driver.opened,
            "open_seconds": round(open_seconds, 1),
            "games_started": driver.games_started,
            "hand_opens": dict(driver.hand_opens),
            "discord_errors": len(errors),
            "rate_limited": len(stand_in.rate_limited),
            "unknown_routes": len(stand_in.unknown_routes),
            "stand_in_problems": len(stand_in.state.problems),
            "bot_log_warnings": len(logs),
            "refusals": sum(driver.refusals.values()),
            "usage_errors": sum(driver.usage_errors.values()),
            "stalls": driver.stalls,
            "cpu": cpu,
            "gc": None if len(processes) > 1 or passes[0] is None else gc_figures(passes[0], start, end),
            "rss_kb_per_table": round((rss_end - sum(rss[0::2])) / n, 1) if rss_known else None,
            "rss_mb": round(rss_end / 1024, 1) if rss_known else None,
            "global_limit": global_figures(stand_in, in_window, start, end),
            "by_route": {
                route: round(count / figures["interactions"], 3) for route, count in routes.most_common()
            }
            if figures["interactions"]
            else {},
            "behind": behind_figures(behind, stand_in.clock, start, end),
            "bucket_scans": scan_figures(scans, buckets, stand_in.clock, start, end),
        }
    )
    if shards or len(processes) > 1:
        figures["processes"] = [
            process_figures(p, stand_in.state, start, end, sent, calls, passed)
            for p, calls, passed in zip(processes, requests, passes, strict=True)
        ]
    if kind == "pong":
        figures["pace"] = (
            {"target_per_second": round(pong_rate, 1)} if pong_rate else {"gap_seconds": round(gap, 3)}
        )
    for route, count in routes.most_common(8):
        _log(f"{kind}: {count / seconds:7.1f}/s {route}")
    for record in errors[:10]:
        code = record.error.code if record.error is not None else ""
        _log(
            f"{kind}: Discord error {record.status} {code} on {record.method} {record.path}: {record.response}"
        )
    for problem in stand_in.state.problems[:10]:
        _log(f"{kind}: stand-in problem: {problem}")
    for line in logs[:20]:
        _log(f"{kind}: bot log: {line}")
    for text, count in driver.usage_errors.most_common(10):
        _log(f"{kind}: refused by the stand-in ×{count}: {text}")
    for text, count in driver.refusals.most_common(10):
        _log(f"{kind}: bot answered with a refusal ×{count}: {text!r}")
    _log(f"{kind}: {json.dumps({k: v for k, v in figures.items() if k != 'by_kind'})}")
    return figures


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    """The UNO run, then the pong run; the JSON figures."""
    result: dict[str, Any] = {
        "tables": args.tables,
        "seconds": args.seconds,
        "processes": args.processes,
        "shards": args.shards,
        "storage": "postgresql" if args.url else "sqlite",
    }
    if args.only in (None, "uno"):
        result["uno"] = await run_one("uno", args)
    if args.only in (None, "pong") and not args.shards:  # the pong bot runs no shards
        rate = args.pong_rate
        if rate is None and "uno" in result:
            rate = result["uno"]["per_second"]
        result["pong"] = await run_one("pong", args, rate or None)
    uno, pong = result.get("uno"), result.get("pong")
    if uno and pong and uno["ack_p99_ms"] and pong["ack_p99_ms"]:
        result["p99_ratio"] = round(uno["ack_p99_ms"] / pong["ack_p99_ms"], 2)
    else:
        result["p99_ratio"] = None
    if uno and pong and uno["sent_p99_ms"] and pong["sent_p99_ms"]:
        result["sent_p99_ratio"] = round(uno["sent_p99_ms"] / pong["sent_p99_ms"], 2)
    else:
        result["sent_p99_ratio"] = None
    return result


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__.split("\n\n")[1])
    parser.add_argument("--tables", type=int, default=200, help="simultaneous tables (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per run (default 30)")
    parser.add_argument(
        "--warmup",
        type=float,
        default=5.0,
        help="seconds of play between the last table's opening and the measured window (default 5)",
    )
    parser.add_argument(
        "--open-rate",
        type=float,
        default=40.0,
        help="tables opened per second at the start (default 40; all at once, 2,000 tables' /uno new "
        "came after Discord's 3 s and were tried again, for ever)",
    )
    parser.add_argument("--ai-delay", type=float, default=0.05, help="the AI seats' delay (default 0.05 s)")
    parser.add_argument(
        "--pong-rate",
        type=float,
        help="pong run: target interactions per second (default: the UNO run's; 0: use --pong-gap)",
    )
    parser.add_argument(
        "--pong-gap",
        type=float,
        help="pong run without a rate: pause per channel after both users (default: 2 × --ai-delay)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a human waits before each action (exponential; default 0: at once)",
    )
    parser.add_argument(
        "--reopen-hand",
        action="store_true",
        help="the humans press My hand at every turn (default: only when the hand they have open "
        "does not say it is their move)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the users' random choices")
    parser.add_argument(
        "--bot-level",
        choices=("easy", "normal", "hard"),
        default="normal",
        help="the two bots' level at each table (default normal; hard searches in a worker process)",
    )
    parser.add_argument("--only", choices=("uno", "pong"), help="run only one of the two bots")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="UNO bot processes, each running its share of --shards (default 1; more need --shards)",
    )
    parser.add_argument(
        "--shards",
        type=int,
        default=0,
        help="shards (1-8) split between the processes, one guild each, the tables spread over the "
        "guilds (default 0: one unsharded process and one guild, as before; no pong run with shards)",
    )
    parser.add_argument(
        "--url",
        help="postgresql://...: the processes share a fresh schema of this database (default: an "
        "SQLite file per process)",
    )
    parser.add_argument("--in-process", action="store_true", help="run the bot on this process's event loop")
    parser.add_argument(
        "--lazy-tasks",
        action="store_true",
        help="run both bots on asyncio's plain event loop (default: the production bot's, whose "
        "tasks start eagerly on Python 3.12+)",
    )
    parser.add_argument("--profile", metavar="DIR", help="write cProfile statistics to DIR")
    parser.add_argument(
        "--stock-buckets",
        action="store_true",
        help="keep discord.py's own rate-limit bucket scan (default: the amortized one of bot.client.internals)",
    )
    parser.add_argument(
        "--rate-limits",
        action="store_true",
        help="enforce Discord's rate limits in the stand-in (429s are counted as rate_limited)",
    )
    parser.add_argument(
        "--memory",
        metavar="FILE",
        help="write what the bot process holds when it stops to FILE (JSON: objects by type, caches; "
        "with --memory-trace, KiB by file and line)",
    )
    parser.add_argument(
        "--memory-trace",
        action="store_true",
        help="with --memory: trace the bot's allocations from ready on (tracemalloc; it slows the bot "
        "several times: open the tables slowly, e.g. --open-rate 5)",
    )
    args = parser.parse_args(argv)
    if args.processes < 1 or args.processes > max(1, args.shards) or not 0 <= args.shards <= 8:
        parser.error("--processes must be 1 to --shards (0 to 8; several processes need shards)")
    if args.shards and (args.only == "pong" or args.in_process):
        parser.error("--shards runs the UNO bot in processes of its own (no --only pong, no --in-process)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; prints the JSON line, returns the exit status (1 if any Discord error)."""
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="[stand-in] %(levelname)s %(name)s: %(message)s")
    _log(
        f"machine: {os.cpu_count()} CPUs ({platform.processor() or platform.machine()}), "
        f"Python {platform.python_version()}, discord.py {discord.__version__}"
    )
    result = asyncio.run(bench(args))
    print(json.dumps(result), flush=True)
    runs = [result[k] for k in ("uno", "pong") if k in result]
    failed = any(r["discord_errors"] or r["unacknowledged"] or r["stand_in_problems"] for r in runs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
