"""Soak run of the engine's property tests: many games per configuration, on every core.

    .venv/bin/python scripts/property_soak.py                      # 10,000 games x 86 configurations
    .venv/bin/python scripts/property_soak.py --games 1000 --config classic-4p --config flip-4p
    .venv/bin/python scripts/property_soak.py --list               # the configuration ids

It plays the games of ``tests/engine/test_properties.py``'s ``test_random_play_keeps_invariants``
(and, for the ``dos-*`` configurations, ``test_dos_properties.py``'s) with every check of that
test, after every step. Each configuration's games are split into chunks
(``--chunk`` games, each chunk its own Hypothesis seed, so a chunk is reproducible from the
printed seed); ``--jobs`` worker processes (default: every core) take chunks in turn. One line per
configuration as it finishes: games, agent decisions ("steps"), checked actions, CPU seconds and
microseconds per step; then the totals and the wall time. The exit status is 1 if any chunk failed
(its error and Hypothesis' reproduction details are printed), else 0.
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import os
import sys
import time
import traceback
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Chunk:
    config: str
    games: int
    seed: int


MODULES = ("test_properties", "test_dos_properties")
"""The property-test modules whose configurations the soak plays (UNO editions, DOS)."""


def _modules() -> list[Any]:
    """The property-test modules (imported in each worker)."""
    for path in (str(REPO), str(REPO / "tests" / "engine")):
        if path not in sys.path:
            sys.path.insert(0, path)
    return [importlib.import_module(name) for name in MODULES]


def _properties(config: str) -> Any:
    """The property-test module that holds configuration ``config``."""
    return next(m for m in _modules() if any(c.id == config for c in m.CONFIGS))


def run_chunk(chunk: Chunk) -> dict[str, Any]:
    """Play one chunk of games; returns its counts, CPU seconds and error (or None)."""
    from hypothesis import given, seed, settings
    from hypothesis import strategies as st

    tp = _properties(chunk.config)
    config = next(c for c in tp.CONFIGS if c.id == chunk.config)

    @seed(chunk.seed)
    @settings(tp.PROFILE, max_examples=chunk.games)
    @given(data=st.data())
    def soak(data: Any) -> None:
        tp._play(config, data)

    tp.PLAYED.clear()
    start = time.process_time()
    error = None
    try:
        soak()
    except BaseException as exc:  # report it and go on with the other chunks
        error = "".join(traceback.format_exception(exc))
    return {
        "chunk": chunk,
        "cpu": time.process_time() - start,
        "error": error,
        **tp.PLAYED,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per configuration (10000)")
    parser.add_argument("--config", action="append", default=[], help="a configuration id (repeatable)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--chunk", type=int, default=500, help="games per chunk (500)")
    parser.add_argument("--seed", type=int, default=0, help="base of the chunks' Hypothesis seeds")
    parser.add_argument("--list", action="store_true", help="list the configuration ids and stop")
    args = parser.parse_args(argv)
    ids = [c.id for m in _modules() for c in m.CONFIGS]
    if args.list:
        print("\n".join(ids))
        return 0
    unknown = sorted(set(args.config) - set(ids))
    if unknown:
        parser.error(f"unknown configuration(s): {', '.join(unknown)} (see --list)")
    if args.games < 1 or args.chunk < 1 or args.jobs < 1:
        parser.error("--games, --chunk and --jobs must be at least 1")
    chosen = [i for i in ids if i in args.config] if args.config else ids
    chunks = []
    for config in chosen:
        for k, first in enumerate(range(0, args.games, args.chunk)):
            games = min(args.chunk, args.games - first)
            chunks.append(Chunk(config, games, args.seed * 1_000_000 + k))
    left: dict[str, int] = defaultdict(int)
    for c in chunks:
        left[c.config] += 1
    totals: dict[str, dict[str, Any]] = {c: defaultdict(int) for c in chosen}
    failed = 0
    print(
        f"{len(chosen)} configuration(s) x {args.games} games, {len(chunks)} chunks, {args.jobs} jobs",
        flush=True,
    )
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for result in pool.imap_unordered(run_chunk, chunks):
            chunk: Chunk = result["chunk"]
            total = totals[chunk.config]
            for key in ("games", "steps", "actions", "cpu"):
                total[key] += result.get(key, 0)
            if result["error"]:
                failed += 1
                total["failed"] += 1
                print(f"FAILED {chunk.config} (chunk seed {chunk.seed}):\n{result['error']}", flush=True)
            left[chunk.config] -= 1
            if not left[chunk.config]:
                status = "FAILED" if total["failed"] else "ok"
                print(_line(chunk.config, total, status), flush=True)
    wall = time.perf_counter() - start
    grand: dict[str, Any] = defaultdict(int)
    for total in totals.values():
        for key, value in total.items():
            grand[key] += value
    print(_line("total", grand, f"{failed} failed chunk(s)"))
    print(f"wall time {wall:.1f} s with {args.jobs} job(s)")
    return 1 if failed else 0


def _line(name: str, total: dict[str, Any], status: str) -> str:
    steps = max(1, total["steps"])
    return (
        f"{name:48s} games {total['games']:>7} steps {total['steps']:>9} actions {total['actions']:>9} "
        f"cpu {total['cpu']:9.1f} s  {1e6 * total['cpu'] / steps:6.0f} us/step  {status}"
    )


if __name__ == "__main__":
    sys.exit(main())
