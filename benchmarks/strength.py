"""Strength benchmark: ``python -m benchmarks.strength --seats hard normal normal normal --rounds 400``.

Plays rounds between computer players of the given levels (``ai.choose``), one level per seat
as listed. Each deal is played once per rotation of the seats (round ``i`` deals deal ``i // n``
with the seats turned by ``i % n``), so every level meets the same cards from every seat. The
counted side is every seat with the first seat's level; the others are its opponents. Prints one
JSON line:

* ``seats``, ``variant``, ``players``, ``rounds``, ``house_rules``;
* ``wins``: rounds won by the counted side; ``share`` their share; ``ci95``: its 95 % Wilson
  score interval; ``even_share``: the share if levels did not matter (counted seats / seats);
* ``voids``: rounds voided with no winner (docs/rules.md ruling 46; counted as not won);
* ``budget_ms``, ``playouts``: the hard level's search per decision (time budget, playout cap);
* ``decisions``, ``decision_ms_p50``, ``decision_ms_p99``: decisions of the counted side and the
  time each took (wall clock);
* ``seconds``: the whole run (wall clock).

``--jobs N`` plays the rounds in N processes (each a run of consecutive rounds; the same rounds
and, for levels that read no clock, the same results as one process): on a machine with N free
cores, the rounds an interval needs take 1/N of the time.

``--variant dos`` plays DOS (docs/engine-dos.md; its easy level is random legal play; its hard
level searches as UNO's, with the same ``--budget-ms`` and ``--playouts``).
Rounds are scored with the edition's standard scoring (the hard level's search values points too).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from itertools import pairwise
from typing import Any

from bot.engine import ai
from bot.engine.actions import Action
from bot.engine.dos import ai as dos_ai
from bot.engine.dos.game import DEFAULT_TARGET as DOS_TARGET
from bot.engine.dos.game import VARIANT_ID as DOS
from bot.engine.dos.game import DosGame
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options
from bot.engine.variants import VARIANTS


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / n`` (95 % for the default ``z``).

    >>> wilson(50, 100)
    (0.4038, 0.5962)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 4), round(centre + half, 4))


def run(
    seats: Sequence[str],
    variant: str,
    rounds: int,
    seed: int,
    options: Options,
    budget: float | None,
    playouts: int | None,
    progress: int = 0,
    jobs: int = 1,
) -> dict[str, Any]:
    """Play ``rounds`` rounds and return the figures (see the module docstring); every
    ``progress`` rounds (0: never), the rounds and wins so far go to stderr. ``jobs`` > 1 splits
    the rounds into that many runs of consecutive rounds in as many processes: the same rounds,
    so the same results for levels that do not read the clock (a time budget does)."""
    start = time.perf_counter()
    play = partial(_play, seats, variant, seed, options, budget, playouts, progress)
    if jobs <= 1:
        parts = [play(range(rounds))]
    else:
        cuts = [rounds * k // jobs for k in range(jobs + 1)]
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(play, [range(a, b) for a, b in pairwise(cuts)]))
    wins = sum(p[0] for p in parts)
    voids = sum(p[1] for p in parts)
    timings = sorted(t for p in parts for t in p[2])
    seconds = time.perf_counter() - start
    n = len(seats)
    return {
        "seats": list(seats),
        "variant": variant,
        "players": n,
        "house_rules": sorted(options.house_rules),
        "rounds": rounds,
        "wins": wins,
        "share": round(wins / rounds, 4),
        "ci95": list(wilson(wins, rounds)),
        "even_share": round(seats.count(seats[0]) / n, 4),
        "voids": voids,
        "budget_ms": None if budget is None else round(budget * 1000, 1),
        "playouts": playouts,
        "decisions": len(timings),
        "decision_ms_p50": round(timings[len(timings) // 2] * 1000, 3) if timings else None,
        "decision_ms_p99": round(timings[int(len(timings) * 0.99)] * 1000, 3) if timings else None,
        "seconds": round(seconds, 1),
    }


def _play(
    seats: Sequence[str],
    variant: str,
    seed: int,
    options: Options,
    budget: float | None,
    playouts: int | None,
    progress: int,
    indices: range,
) -> tuple[int, int, list[float]]:
    """Play the rounds numbered ``indices`` (see the module docstring); their wins, voids and
    the counted side's decision times (seconds)."""
    n = len(seats)
    names = [f"p{i}" for i in range(n)]
    counted = seats[0]
    timings: list[float] = []
    wins = voids = 0
    start = time.perf_counter()
    for done, i in enumerate(indices, 1):
        turn = i % n
        levels = {names[(k + turn) % n]: seats[k] for k in range(n)}
        game_seed, rng = seed * 1_000_003 + i // n, random.Random(seed * 7_919 + i)
        if variant == DOS:
            winner = _dos_round(levels, counted, timings, options, game_seed, rng, budget, playouts)
        else:
            policies: dict[str, ai.Policy] = {}
            for name, level in levels.items():
                choose = partial(ai.choose, level=level, budget=budget, playouts=playouts)
                policies[name] = _timed(choose, timings) if level == counted else choose
            game = Game(names, variant=variant, options=options, seed=game_seed)
            game.start_round()
            ai.play_round(game, policies, rng, levels=levels)
            winner = game.round_winner
        if winner is None:
            voids += 1
        elif levels[winner] == counted:
            wins += 1
        if progress and done % progress == 0:
            since = time.perf_counter() - start
            part = f" (rounds {indices.start}-{indices.stop - 1})" if len(indices) else ""
            print(f"{done} rounds, {wins} won, {since:.0f} s{part}", file=sys.stderr)
    return wins, voids, timings


def _dos_round(
    levels: dict[str, str],
    counted: str,
    timings: list[float],
    options: Options,
    seed: int,
    rng: random.Random,
    budget: float | None,
    playouts: int | None,
) -> str | None:
    """One DOS round (docs/engine-dos.md) between the levels; returns its winner."""
    policies: dict[str, dos_ai.DosPolicy] = {}
    for name, level in levels.items():
        choose = partial(dos_ai.choose, level=level, budget=budget, playouts=playouts)
        if level == counted:
            policies[name] = _timed(choose, timings)  # type: ignore[arg-type]  # same shape for DOS
        else:
            policies[name] = choose
    dos_options = replace(options, target_score=DOS_TARGET, house_rules=frozenset())
    game = DosGame(list(levels), options=dos_options, seed=seed)
    game.start_round()
    dos_ai.play_round(game, policies, rng)
    return game.round_winner


def _timed(policy: ai.Policy, timings: list[float]) -> ai.Policy:
    def timed(game: Game, player: str, rng: random.Random) -> Action:
        t0 = time.perf_counter()
        action = policy(game, player, rng)
        timings.append(time.perf_counter() - t0)
        return action

    return timed


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; prints one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength", description=__doc__.split("\n")[0])
    parser.add_argument("--seats", nargs="+", default=["hard", "normal", "normal", "normal"],
                        choices=[level.value for level in ai.AiLevel], help="one level per seat")  # fmt: skip
    parser.add_argument("--variant", default="classic", choices=[*sorted(VARIANTS), DOS])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--house-rule", action="append", default=[], choices=[r.value for r in HouseRule])
    parser.add_argument("--budget-ms", type=float, default=ai.HARD_BUDGET * 1000,
                        help="hard: search time per decision; 0: none (then --playouts)")  # fmt: skip
    parser.add_argument("--playouts", type=int, default=None, help="hard: playouts per decision at most")
    parser.add_argument("--progress", type=int, default=0, help="rounds between progress lines on stderr")
    parser.add_argument("--jobs", type=int, default=1, help="processes, each playing a run of the rounds")
    args = parser.parse_args(argv)
    if not 2 <= len(args.seats) <= 10:
        parser.error("--seats needs 2 to 10 levels")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    budget = args.budget_ms / 1000 if args.budget_ms > 0 else None
    if budget is None and args.playouts is None:
        parser.error("--budget-ms 0 needs --playouts")
    options = Options(house_rules=frozenset(HouseRule(r) for r in args.house_rule))
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    result = run(
        args.seats,
        args.variant,
        args.rounds,
        args.seed,
        options,
        budget,
        args.playouts,
        args.progress,
        args.jobs,
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
