"""What a table costs the bot in memory: ``python -m benchmarks.memory --tables 250``.

Runs the production bot (``UnoBot``, SQLite in a temporary directory) and the local Discord
stand-in in this one process, and opens tables one after another through the UI, as the load
benchmark's users do (``/uno new``, Join, Add bot twice, Start; then both humans press My hand);
the computer seats play until a human is to act, and the table waits there: a game in progress,
both hands open, its ping posted. Nothing races a clock (a busy machine makes it slower, not
different). With a fifth of the tables open and again with all of them, once every background
update has had time to run (``--settle`` seconds), it takes a tracemalloc snapshot (tracebacks of
``--frames`` frames) and the resident memory; the difference between the two, per table opened
in between, is what one more table holds.

Each allocation still held is the stand-in's when a frame of its traceback is in
``bot/localdiscord/``, in aiohttp's server (``aiohttp/web*``) or in the benchmarks; else the
bot's. The bot's are grouped by the innermost frame in ``bot/`` or ``cogs/`` (where our code
asked for it, through discord.py or not), and by the innermost frame whatever its file.

Prints one JSON line: ``tables`` (opened between the snapshots), ``bot_bytes_per_table``,
``stand_in_bytes_per_table``, ``rss_bytes_per_table`` (this process: the bot's and the
stand-in's), ``by_our_line`` and ``by_line`` (bytes per table, allocations per table), and
``objects_per_table`` and ``objects_by_type`` (objects the collector tracks, both sides).
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

from benchmarks.load import BotRunner, BotSpec, Driver, Watcher, rss_kb_of
from bot.localdiscord.server import start_stand_in

STAND_IN = ("/bot/localdiscord/", "/aiohttp/web")
OURS = ("/bot/", "/cogs/")


def _users_lines() -> list[tuple[str, range]]:
    """The files and lines of the simulated users (`Driver`, `Watcher`, `open_tables`)."""
    spans = []
    for obj in (Driver, Watcher, open_tables):
        source, first = inspect.getsourcelines(obj)
        spans.append((inspect.getsourcefile(obj) or "", range(first, first + len(source))))
    return spans


def _stand_in(frame: tracemalloc.Frame, users: list[tuple[str, range]]) -> bool:
    """Whether a frame is the stand-in's or its simulated users'."""
    if any(frame.filename == name and frame.lineno in span for name, span in users):
        return True
    return any(marker in frame.filename for marker in STAND_IN)


def side_and_place(
    frames: Sequence[tracemalloc.Frame], users: list[tuple[str, range]]
) -> tuple[bool, str, str]:
    """For one traceback (innermost frame last): whether it is the stand-in's, the innermost
    frame of ours, and the innermost frame."""
    stand_in = any(_stand_in(f, users) for f in frames)
    ours = next((f for f in reversed(frames) if any(m in f.filename for m in OURS)), None)
    return stand_in, _short(ours) if ours else "-", _short(frames[-1])


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
        bot = BotRunner(spec, in_process=True)
        watcher = Watcher(stand_in.state)
        driver = Driver(stand_in, watcher, random.Random(1), n)
        try:
            await bot.start()
            watcher.start()
            tracemalloc.start(args.frames)
            points = []
            for low, high in ((0, first), (first, n)):
                began = time.monotonic()
                opened = await open_tables(driver, low, high)
                await asyncio.sleep(args.settle)
                # Cycles frozen by `bot.heap` after a full pass that came while they were in
                # flight are garbage the next thorough pass frees: not what a table holds.
                gc.unfreeze()
                gc.collect()
                points.append((opened, tracemalloc.take_snapshot(), rss_kb_of(None), tracked_objects()))
                print(
                    f"[memory] {opened} tables opened in {time.monotonic() - began:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
            tracemalloc.stop()
        finally:
            driver.stopping = True
            await watcher.close()
            await bot.stop()
            await stand_in.close()
    (_, before, rss_before, objects_before), (added, after, rss_after, objects_after) = points
    sides: Counter[bool] = Counter()
    ours: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    spans = _users_lines()
    for stat in after.compare_to(before, "traceback"):
        stand_in_side, our_line, line = side_and_place(list(stat.traceback), spans)
        sides[stand_in_side] += stat.size_diff
        if not stand_in_side:
            ours[our_line] += stat.size_diff
            lines[line] += stat.size_diff
            counts[line] += stat.count_diff
    per = max(added, 1)
    grown = objects_after
    grown.subtract(objects_before)

    def top(counter: Counter[str]) -> list[list[Any]]:
        return [
            [place, round(size / per), round(counts[place] / per, 1)]
            for place, size in counter.most_common(args.top)
        ]

    return {
        "tables": added,
        "bot_bytes_per_table": round(sides[False] / per),
        "stand_in_bytes_per_table": round(sides[True] / per),
        "rss_bytes_per_table": round(1024 * ((rss_after or 0) - (rss_before or 0)) / per),
        "objects_per_table": round(grown.total() / per),
        "objects_by_type": [[name, round(count / per, 1)] for name, count in grown.most_common(args.top)],
        "by_our_line": [[place, round(size / per)] for place, size in ours.most_common(args.top)],
        "by_line": top(lines),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; prints the JSON line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250, help="tables opened in all (default 250)")
    parser.add_argument("--ai-delay", type=float, default=0.2, help="the AI seats' delay (default 0.2 s)")
    parser.add_argument(
        "--settle",
        type=float,
        default=8.0,
        help="seconds left for background updates (default 8: pings come after 5)",
    )
    parser.add_argument("--frames", type=int, default=25, help="frames kept per allocation (default 25)")
    parser.add_argument("--top", type=int, default=25, help="lines listed (default 25)")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(measure(args))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
