"""What a table costs the bot in memory: ``python -m benchmarks.memory --tables 250``.

Runs the production bot (``UnoBot``, SQLite in a temporary directory) in its own process, as the
load benchmark does, and the local Discord stand-in and its simulated users in this one, and opens
tables one after another through the UI, as the load benchmark's users do (``/uno new``, Join,
Add bot twice, Start; then both humans press My hand); the computer seats play until a human is
to act, and the table waits there: a game in progress, both hands open, its ping posted. Nothing
races a clock (a busy machine makes it slower, not different). With a fifth of the tables open
and again with all of them, once every background update has had time to run (``--settle``
seconds), each process collects its garbage and takes a tracemalloc snapshot (tracebacks of
``--frames`` frames) and its resident memory; the difference between the two, per table opened
in between, is what one more table holds.

Why two processes: CPython keeps freed dicts, their key tables, tuples, lists and floats on free
lists and hands them to the next ones made anywhere, and tracemalloc still names the line that
first allocated the block. In one process the stand-in's records (hundreds of small dicts per
table) took blocks first allocated by the bot's requests (``discord/http.py``'s parsed answers,
aiohttp's keyword dicts), which then counted as the bot's (docs/performance/discord-layer.md,
"Memory per table"). Each process's total is exact; within the bot, a line's figure is where its
blocks were first allocated, which for small dicts and tuples need not be who holds them now.

The bot's allocations are grouped by the innermost frame in ``bot/`` or ``cogs/`` (where our code
asked for it, through discord.py or not), and by the innermost frame whatever its file; those
with a frame in ``benchmarks/`` (the benchmark's own hooks in the bot's process), other than the
one that runs the event loop, are the benchmark's, not the bot's.

Prints one JSON line: ``tables`` (opened between the snapshots), ``bot_bytes_per_table``,
``bench_bytes_per_table`` (the benchmark's hooks in the bot's process), ``stand_in_bytes_per_table``
(the stand-in and its users, this process), ``bot_rss_bytes_per_table`` and
``stand_in_rss_bytes_per_table``, ``by_our_line`` and ``by_line`` (the bot's bytes per table,
allocations per table), and ``objects_per_table`` and ``objects_by_type`` (objects the bot's
collector tracks). With ``--frames 0`` nothing is traced (tracemalloc's own records, tens of
bytes per allocation, count in the resident memory), and only ``tables`` and the resident
memory are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import json
import random
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord

from benchmarks.load import BotRunner, BotSpec, Driver, Watcher, bot_process_main, rss_kb_of
from bot.localdiscord.server import start_stand_in

OURS = ("/bot/", "/cogs/")
BENCH = "/benchmarks/"


def _lines_of(function: Any) -> tuple[str, range]:
    source, first = inspect.getsourcelines(function)
    return inspect.getsourcefile(function) or "", range(first, first + len(source))


def place(frames: Sequence[tracemalloc.Frame], loop: tuple[str, range]) -> tuple[bool, str, str]:
    """For one traceback (innermost frame last): whether it is the benchmark's, the innermost
    frame of ours, and the innermost frame. ``loop``: the file and lines of the function that
    runs the bot's event loop, which every task's traceback starts with."""
    loop_file, loop_lines = loop
    bench = any(
        BENCH in f.filename and not (f.filename == loop_file and f.lineno in loop_lines) for f in frames
    )
    ours = next((f for f in reversed(frames) if any(m in f.filename for m in OURS)), None)
    return bench, _short(ours) if ours else "-", _short(frames[-1])


def _short(frame: tracemalloc.Frame) -> str:
    name = frame.filename
    for marker in ("/site-packages/", "/lib/python3"):
        if marker in name:
            name = name.split(marker, 1)[1]
    root = str(Path(__file__).resolve().parent.parent) + "/"
    return f"{name.removeprefix(root)}:{frame.lineno}"


async def open_tables(driver: Driver, first: int, last: int) -> int:
    """Open tables ``first`` to ``last`` - 1 and open both humans' hands; how many opened."""
    stand_in = driver.stand_in
    opened = 0
    for i in range(first, last):
        channel = stand_in.channels[i]
        host, guest = stand_in.user(f"u{i:04d}a"), stand_in.user(f"u{i:04d}b")
        table = await driver.open_uno(channel, host, guest)
        if table is None:
            continue
        opened += 1
        for user in (host, guest):
            await driver.act(stand_in.click, user, table, label="My hand")
    return opened


def tracked_objects() -> Counter[str]:
    """Objects the collector tracks, frozen ones included, by type."""
    gc.unfreeze()
    types = Counter(type(o).__qualname__ for o in gc.get_objects())
    gc.freeze()
    return types


def settled_snapshot() -> tracemalloc.Snapshot:
    """This process's snapshot once its garbage is collected."""
    # Cycles frozen by `bot.ops.heap` after a full pass that came while they were in flight are
    # garbage the next thorough pass frees: not what a table holds.
    gc.unfreeze()
    gc.collect()
    return tracemalloc.take_snapshot()


_SNAPSHOTS: list[tuple[tracemalloc.Snapshot, Counter[str]]] = []
"""The bot's process's snapshots so far (`bot_probe`)."""


def bot_probe(client: discord.Client, request: str) -> Any:
    """Run in the bot's process (`BotRunner.probe`). ``"start FRAMES"``: start tracing;
    ``"snapshot"``: note a snapshot, answer the resident memory (KiB); ``"compare"``: what the
    last snapshot holds more than the one before, in bytes and allocations (the benchmark's
    apart), and the tracked objects' growth by type."""
    if request.startswith("start "):
        frames = int(request.split()[1])
        if frames:
            tracemalloc.start(frames)
        return None
    if request == "snapshot":
        if not tracemalloc.is_tracing():
            gc.unfreeze()
            gc.collect()
            return rss_kb_of(None)
        snapshot = settled_snapshot()
        _SNAPSHOTS.append((snapshot, tracked_objects()))
        return rss_kb_of(None)
    if not tracemalloc.is_tracing():
        return None
    (before, objects_before), (after, objects_after) = _SNAPSHOTS[-2:]
    bench = 0
    total = 0
    ours: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    loop = _lines_of(bot_process_main)
    for stat in after.compare_to(before, "traceback"):
        is_bench, our_line, line = place(list(stat.traceback), loop)
        if is_bench:
            bench += stat.size_diff
            continue
        total += stat.size_diff
        ours[our_line] += stat.size_diff
        lines[line] += stat.size_diff
        counts[line] += stat.count_diff
    objects_after.subtract(objects_before)
    return {
        "bot": total,
        "bench": bench,
        "ours": dict(ours),
        "lines": dict(lines),
        "counts": dict(counts),
        "objects": dict(objects_after),
    }


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Open the tables in two steps and compare what is held after each."""
    n = args.tables
    first = max(1, n // 5)
    channels = [f"table-{i:04d}" for i in range(n)]
    users = [f"u{i:04d}{side}" for i in range(n) for side in "ab"]
    stand_in = await start_stand_in("127.0.0.1", 0, "Memory Bench", users, channels=channels)
    with tempfile.TemporaryDirectory(prefix="uno-memory-") as tmp:
        spec = BotSpec(
            kind="uno",
            api_url=stand_in.api_url,
            gateway_url=stand_in.gateway_url,
            token=stand_in.token,
            guild_id=stand_in.guild_id,
            ai_delay=args.ai_delay,
            database=str(Path(tmp) / "uno.db"),
        )
        bot = BotRunner(spec, in_process=False, probe=bot_probe)
        watcher = Watcher(stand_in.state)
        driver = Driver(stand_in, watcher, random.Random(1), n)
        try:
            await bot.start()
            watcher.start()
            await bot.probe(f"start {args.frames}")
            if args.frames:
                tracemalloc.start(args.frames)
            points = []
            for low, high in ((0, first), (first, n)):
                began = time.monotonic()
                opened = await open_tables(driver, low, high)
                await asyncio.sleep(args.settle)
                bot_rss = await bot.probe("snapshot")
                snapshot = settled_snapshot() if args.frames else None
                points.append((opened, snapshot, rss_kb_of(None), bot_rss))
                print(
                    f"[memory] {opened} tables opened in {time.monotonic() - began:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
            held = await bot.probe("compare")
            if args.frames:
                tracemalloc.stop()
        finally:
            driver.stopping = True
            await watcher.close()
            logs = await bot.stop()
            await stand_in.close()
    for line in logs:
        print(f"[bot] {line}", file=sys.stderr)
    (_, before, rss_before, bot_rss_before), (added, after, rss_after, bot_rss_after) = points
    per = max(added, 1)

    def kib(after_kb: int | None, before_kb: int | None) -> int:
        return round(1024 * ((after_kb or 0) - (before_kb or 0)) / per)

    rss = {
        "tables": added,
        "bot_rss_bytes_per_table": kib(bot_rss_after, bot_rss_before),
        "stand_in_rss_bytes_per_table": kib(rss_after, rss_before),
    }
    if held is None or before is None or after is None:
        return rss
    stand_in_bytes = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    ours, lines, counts = Counter(held["ours"]), Counter(held["lines"]), Counter(held["counts"])
    objects = Counter(held["objects"])
    return rss | {
        "bot_bytes_per_table": round(held["bot"] / per),
        "bench_bytes_per_table": round(held["bench"] / per),
        "stand_in_bytes_per_table": round(stand_in_bytes / per),
        "objects_per_table": round(objects.total() / per),
        "objects_by_type": [[name, round(count / per, 1)] for name, count in objects.most_common(args.top)],
        "by_our_line": [[where, round(size / per)] for where, size in ours.most_common(args.top)],
        "by_line": [
            [where, round(size / per), round(counts[where] / per, 1)]
            for where, size in lines.most_common(args.top)
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; prints the JSON line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250, help="tables opened in all (default 250)")
    parser.add_argument("--ai-delay", type=float, default=0.2, help="the AI seats' delay (default 0.2 s)")
    parser.add_argument(
        "--settle",
        type=float,
        default=12.0,
        help="seconds left for background updates (default 12: pings come after 10)",
    )
    parser.add_argument(
        "--frames",
        type=int,
        default=25,
        help="frames kept per allocation (default 25; 0: no tracemalloc, resident memory only)",
    )
    parser.add_argument("--top", type=int, default=25, help="lines listed (default 25)")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(measure(args))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
