"""The collector's full passes with many tables, with and without `bot.ops.heap`'s policy:
``python -m benchmarks.heap --tables 2000 --moves 200000``.

Builds ``--tables`` tables of the engine (`bot.tables.Table` with a game of two people and two
computer seats, a few moves in), each with ``--extra`` more small objects standing for what the
bot keeps beside it (its open hands' webhooks, rate-limit buckets, timers: about 800 tracked
objects a table in all, as `benchmarks.memory` counts), then plays ``--moves`` moves at random
tables (the next round dealt when one is over, a finished game replaced by a new table: the bot's
tables live for many rounds, each round a few minutes at people's pace). Each move also makes what an interaction
makes: a reference cycle holding a parsed payload (discord.py's `Interaction` and its response
refer to each other), in flight for the next ``--in-flight`` moves and then garbage that only the
collector frees. Nothing here waits, so the figures are CPU time, not the machine's load.

Prints one JSON line per policy (``stock``: CPython's collector as it comes; ``heap``: the
policy): full passes (count, CPU ms in all, the longest, each), the young passes' CPU ms, the thorough
passes, the objects frozen at the end, and how many of them had become garbage waiting for the
next thorough pass (``frozen_garbage``).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from bot.engine import ai
from bot.ops.heap import Heap
from bot.tables import Seat, Table


class Passes:
    """A `gc.callbacks` entry: CPU milliseconds of each pass, by generation."""

    def __init__(self) -> None:
        self.ms: list[list[float]] = [[], [], []]
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.thread_time()
        else:
            self.ms[info["generation"]].append(1000 * (time.thread_time() - self._began))


def new_table(i: int, rng: random.Random, extra: int) -> tuple[Table, list[Any]]:
    """A table a few moves into its game, and the objects standing for the rest of it."""
    table = Table.new(guild_id=1, channel_id=i, host=Seat(str(10_000 + i), "Ana"))
    table.join(Seat(str(20_000 + i), "Ben"))
    table.add_ai()
    table.add_ai()
    table.start(seed=rng.randrange(1 << 30))
    for _ in range(rng.randrange(3, 15)):
        if table.game is None or table.game.round_over or not move(table, rng):
            break
    return table, [[n, i] for n in range(extra)]  # lists: always tracked (not so a dict of numbers)


def move(table: Table, rng: random.Random) -> bool:
    """The player to act makes a move (as a normal bot would), after dealing the next round if
    one is over; False once the game is over."""
    game = table.game
    assert game is not None
    if game.game_over:
        return False
    if game.round_over:
        game.start_round()
    player = game.pending.player
    if player is None:
        return False
    action = ai.choose(game, player, rng)  # type: ignore[arg-type]
    table.track_reveals(game.apply(player, action))  # type: ignore[arg-type]
    table.log.append(str(action)[:40])
    return True


def interaction(n: int) -> dict[str, Any]:
    """A reference cycle like an interaction's: a payload, and a response referring back."""
    data: dict[str, Any] = {"id": n, "data": {"custom_id": f"uno:h:{n}:1:a:draw", "values": []}}
    data["response"] = {"parent": data, "done": False}
    return data


def run(policy: bool, args: argparse.Namespace) -> dict[str, Any]:
    """Build the tables and play the moves under one policy; the figures."""
    rng = random.Random(args.seed)
    gc.collect()
    tables = [new_table(i, rng, args.extra) for i in range(args.tables)]
    heap = Heap() if policy else None
    passes = Passes()
    if heap is not None:
        heap.start()
    else:
        gc.collect()
    gc.callbacks.append(passes)
    in_flight: deque[dict[str, Any]] = deque(maxlen=args.in_flight)
    began = time.process_time()
    try:
        for n in range(args.moves):
            i = rng.randrange(args.tables)
            if not move(tables[i][0], rng):
                tables[i] = new_table(i, rng, args.extra)
            in_flight.append(interaction(n))
    finally:
        gc.callbacks.remove(passes)
        cpu = time.process_time() - began
        if heap is not None:
            heap.stop()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    garbage = gc.collect()
    full, young = passes.ms[2], passes.ms[0] + passes.ms[1]
    return {
        "policy": "heap" if policy else "stock",
        "tables": args.tables,
        "moves": args.moves,
        "cpu_s": round(cpu, 1),
        "full_passes": len(full),
        "full_ms": round(sum(full), 1),
        "full_max_ms": round(max(full, default=0.0), 1),
        "full_each_ms": [round(ms) for ms in full],
        "young_passes": len(young),
        "young_ms": round(sum(young), 1),
        "thorough_passes": heap.thorough_passes - 1 if heap is not None else None,
        "frozen_at_end": frozen,
        "frozen_garbage": garbage if heap is not None else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; prints one JSON line per policy."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.heap", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000, help="tables (default 2000)")
    parser.add_argument("--moves", type=int, default=200_000, help="moves played (default 200,000)")
    parser.add_argument("--extra", type=int, default=300, help="more objects per table (default 300)")
    parser.add_argument("--in-flight", type=int, default=50, help="interactions in flight (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and moves")
    parser.add_argument("--only", choices=("stock", "heap"), help="run one policy")
    args = parser.parse_args(argv)
    for policy in (False, True):
        if args.only in (None, "heap" if policy else "stock"):
            print(json.dumps(run(policy, args)), flush=True)
            gc.unfreeze()
    return 0


if __name__ == "__main__":
    sys.exit(main())
