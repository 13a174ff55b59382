"""Engine benchmark: ``python -m benchmarks.engine --variant classic --players 4 --games 2000 --seed 1``.

Plays complete rounds ("games") between uniformly random legal agents (``ai.random_action``) and
prints one JSON line:

* ``games``, ``seconds``, ``games_per_second``: whole rounds, from a new game to its end, timed in
  CPU seconds of this process (``time.process_time``), so that other load on the machine does not
  skew the figures (rlcard is timed the same way); ``wall_seconds`` is the elapsed time;
* ``decisions_per_second``, ``decisions_per_game``: decisions made (``Game.apply`` calls);
* ``p50_decision_us``, ``p99_decision_us``: time the engine takes for one decision (``apply``, or
  with ``--listed`` the search's unvalidated ``apply_listed``; ``path`` says which), timed in a
  separate pass of the same rounds (at most 500), so the clock reads don't slow the rounds timed
  above (rlcard's loop reads no clock per step either);
* ``bytes_per_live_game``: memory held by one game in mid-round (tracemalloc over many games);
* ``rlcard``: rlcard 1.2.0's UNO env and bare game measured in the same run, when rlcard is
  installed (``pip install -e '.[bench]'``), else null; ``vs_rlcard_env`` is our games per
  second over its env's, ``vs_rlcard_game`` over its bare game's (best runs of each side);
  ``vs_rlcard_game_pairs`` (sorted) and ``vs_rlcard_game_median``: the same ratio within each
  repeat, whose runs follow each other (ours, then rlcard's).

``--variant dos`` plays DOS (``DosGame``, docs/engine-dos.md) with its random agent; ``--listed``
does not apply to it (DOS has no unvalidated path).

Figures and the machine they came from are recorded in ``docs/performance/engine.md``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from benchmarks import rlcard_adapter
from bot.engine.ai import random_action
from bot.engine.dos.ai import random_action as dos_random_action
from bot.engine.dos.game import DEFAULT_TARGET as DOS_TARGET
from bot.engine.dos.game import VARIANT_ID as DOS
from bot.engine.dos.game import DosGame
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options
from bot.engine.variants import VARIANTS


def _players(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def new_game(variant: str, names: list[str], options: Options, seed: int) -> Any:
    """A new game of ``variant``: a ``DosGame`` for ``dos`` (docs/engine-dos.md; target 200, no
    house rules), else a ``Game``. Typed Any: both offer ``start_round``, ``pending``, ``apply``."""
    if variant == DOS:
        return DosGame(
            names, options=replace(options, target_score=DOS_TARGET, house_rules=frozenset()), seed=seed
        )
    return Game(names, variant=variant, options=options, seed=seed)


def run(
    variant: str, players: int, games: int, seed: int, options: Options, listed: bool = False
) -> dict[str, Any]:
    """Play ``games`` rounds and return the figures (see the module docstring); ``listed``: each
    decision through ``Game.apply_listed`` (the search's unvalidated path) instead of ``apply``."""
    decisions = 0
    names = _players(players)
    rng = random.Random(seed * 7_919)  # the agents' one generator, as rlcard's loop has one
    gc.collect()
    start, wall = time.process_time(), time.perf_counter()
    for i in range(games):
        game, apply, agent = _deal(variant, names, options, seed, i, listed)
        while not game.round_over:
            player = game.pending.player
            assert player is not None
            apply(player, agent(game, player, rng))
            decisions += 1
    seconds = time.process_time() - start
    wall = time.perf_counter() - wall
    timings = decision_times(variant, names, min(games, 500), seed, options, listed)
    return {
        "variant": variant,
        "players": players,
        "path": "apply_listed" if listed else "apply",
        "games": games,
        "seconds": round(seconds, 3),
        "wall_seconds": round(wall, 3),
        "games_per_second": round(games / seconds, 1),
        "decisions_per_second": round(decisions / seconds, 1),
        "decisions_per_game": round(decisions / games, 2),
        "p50_decision_us": round(timings[len(timings) // 2] / 1000, 2),
        "p99_decision_us": round(timings[int(len(timings) * 0.99)] / 1000, 2),
        "bytes_per_live_game": live_game_bytes(variant, players, options, seed),
    }


def _deal(
    variant: str, names: list[str], options: Options, seed: int, i: int, listed: bool
) -> tuple[Any, Callable[[str, Any], object], Callable[[Any, str, random.Random], Any]]:
    """Round ``i`` of a run: its game (:func:`new_game`), dealt; how the game applies an action
    (``apply_listed`` with ``listed``, not in DOS); the random agent."""
    game = new_game(variant, names, options, seed * 1_000_003 + i)
    game.start_round()
    apply = game.apply_listed if listed and isinstance(game, Game) else game.apply
    agent = dos_random_action if isinstance(game, DosGame) else random_action
    return game, apply, agent


def decision_times(
    variant: str, names: list[str], games: int, seed: int, options: Options, listed: bool
) -> list[int]:
    """Nanoseconds of each decision (``apply`` or ``apply_listed``) of the first ``games`` rounds
    of :func:`run`, sorted."""
    timings: list[int] = []
    clock = time.perf_counter_ns
    rng = random.Random(seed * 7_919)
    for i in range(games):
        game, apply, agent = _deal(variant, names, options, seed, i, listed)
        while not game.round_over:
            player = game.pending.player
            assert player is not None
            action = agent(game, player, rng)
            t0 = clock()
            apply(player, action)
            timings.append(clock() - t0)
    timings.sort()
    return timings


def live_game_bytes(variant: str, players: int, options: Options, seed: int, count: int = 200) -> int:
    """Average memory of one game in mid-round, measured over ``count`` live games."""
    rng = random.Random(seed)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    live = []
    for i in range(count):
        game = new_game(variant, _players(players), options, seed + i)
        game.start_round()
        agent = dos_random_action if isinstance(game, DosGame) else random_action
        for _ in range(10):
            if game.round_over:
                break
            player = game.pending.player
            assert player is not None
            game.apply(player, agent(game, player, rng))
        live.append(game)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) // count


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; prints one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic", choices=[*sorted(VARIANTS), DOS])
    parser.add_argument("--players", type=int, default=4, choices=range(2, 11), metavar="2-10")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--house-rule", action="append", default=[], choices=[r.value for r in HouseRule])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side; the fastest counts")
    parser.add_argument("--no-rlcard", action="store_true", help="skip the rlcard comparison")
    parser.add_argument("--listed", action="store_true", help="apply through Game.apply_listed")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    options = Options(house_rules=frozenset(HouseRule(r) for r in args.house_rule))
    # rlcard's comparison is for 4 players only (its UNO is measured with 4 seats).
    skip = args.no_rlcard or args.players != rlcard_adapter.PLAYERS
    results, baselines = [], []
    for _ in range(max(1, args.repeat)):  # interleaved, so both sides meet the same machine load
        results.append(run(args.variant, args.players, args.games, args.seed, options, args.listed))
        measured = None if skip else rlcard_adapter.measure_rlcard(args.games, args.seed)
        if measured is not None:
            baselines.append(measured)
    result = min(results, key=lambda r: r["seconds"])
    result["repeat"] = len(results)
    baseline = max(baselines, key=lambda b: b["env_games_per_second"]) if baselines else None
    result["rlcard"] = baseline
    if baseline is not None:
        # Each repeat's own pair (ours, then rlcard's, same moment): on a shared machine the
        # median of these is steadier than a ratio of two bests.
        pairs = sorted(
            r["games_per_second"] / b["game_games_per_second"]
            for r, b in zip(results, baselines, strict=True)
        )
        best_game = max(b["game_games_per_second"] for b in baselines)
        baseline["game_games_per_second"] = best_game
        result["vs_rlcard_env"] = round(result["games_per_second"] / baseline["env_games_per_second"], 2)
        result["vs_rlcard_game"] = round(result["games_per_second"] / best_game, 2)
        result["vs_rlcard_game_pairs"] = [round(x, 3) for x in pairs]
        result["vs_rlcard_game_median"] = round(statistics.median(pairs), 3)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
