"""Search-quality benchmark: ``python -m benchmarks.regret --positions 80 --truth 3000 --playouts 700``.

How close the hard level's search comes to the best decision *its own sampler* allows: a fast
proxy for the search's part of hard's strength (the sampler's part is benchmarks/inference.py;
both in docs/performance/computer-players.md). Plays rounds of ``--players``-player
``--variant`` with the normal AI in every seat, position ``i`` stopped after ``10 + i % 30``
decisions (``benchmarks.inference.position``), and keeps the positions where the player to move
has more than one candidate (``ai.hard_candidates``) and no UNO to call. At each:

* the **reference**: every candidate's mean utility over ``--truth`` samples, each candidate
  played out once per sample with the same random numbers (``search.mean_values``);
* **hard**: ``ai.choose(..., "hard", budget=None, playouts=P)`` for each ``P`` of
  ``--playouts``, ``--reps`` times with different generators;
* the **normal** AI's choice (hard's default), and the **floor**: the best candidate by a second
  reference of the same size on other samples, whose regret is what the reference's own noise
  makes of a perfect search (a regret is measured against a noisy best).

A choice's **regret** is the reference's best mean less the mean of the candidate chosen (in
``search.utility``'s units: round wins, plus points at ``search.POINTS_SCALE`` points a win).
Prints one JSON line per ``--playouts`` value: ``variant``, ``players``, ``positions``,
``truth`` (samples per reference), ``playouts``, ``reps``; ``regret_normal``, ``regret_hard``,
``regret_floor`` (means over positions and reps); ``captured``: the share of the normal AI's
regret above the floor that hard removes, ``(normal - hard) / (normal - floor)``;
``departures``: the share of hard's choices that are not the normal AI's; ``seconds`` (wall
clock, the whole run). ``--jobs N`` measures the positions in N processes (the same figures as
one process: every generator is seeded per position).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

from benchmarks.inference import position
from bot.engine import ai, search
from bot.engine.actions import Action
from bot.engine.game import Game
from bot.engine.variants import VARIANTS


def chosen_position(variant: str, players: int, seed: int, steps: int) -> Game | None:
    """:func:`benchmarks.inference.position`, or None where the player to move has a UNO to call
    or fewer than two candidates (nothing for a search to choose)."""
    game = position(variant, players, seed, steps)
    if game is None:
        return None
    player = game.pending.player
    assert player is not None
    if game.can_call_uno(player) or len(ai.hard_candidates(game, player)[0]) < 2:
        return None
    return game


def measure_one(
    variant: str, players: int, truth: int, playouts: Sequence[int], reps: int, seed: int, i: int
) -> tuple[float, float, list[tuple[float, int]]] | None:
    """Position ``i``'s figures: the regrets of the normal AI and of the floor, and for each of
    ``playouts`` hard's mean regret over the reps and how many of its choices departed from the
    normal AI's; None if skipped."""
    game = chosen_position(variant, players, seed + i, 10 + i % 30)
    if game is None:
        return None
    player = game.pending.player
    assert player is not None
    candidates, default = ai.hard_candidates(game, player)
    base = seed * 1_000_003 + i * 1_009
    reference = search.mean_values(game, player, candidates, random.Random(base), ai._normal, truth)
    second = search.mean_values(game, player, candidates, random.Random(base + 1), ai._normal, truth)
    best = max(reference)

    def regret(action: Action) -> float:
        return best - reference[candidates.index(action)]

    floor = best - reference[max(range(len(candidates)), key=second.__getitem__)]
    hard = []
    for cap in playouts:
        total, departed = 0.0, 0
        for rep in range(reps):
            action = ai.choose(game, player, random.Random(base + 2 + rep), "hard", budget=None, playouts=cap)
            total += regret(action)
            departed += action != default
        hard.append((total / reps, departed))
    return regret(default), floor, hard


def measure(
    variant: str,
    players: int,
    positions: int,
    truth: int,
    playouts: Sequence[int],
    reps: int,
    seed: int,
    jobs: int = 1,
) -> list[dict[str, Any]]:
    """The figures of the module docstring, one dict per ``playouts`` value."""
    start = time.perf_counter()
    one = partial(measure_one, variant, players, truth, playouts, reps, seed)
    if jobs <= 1:
        found = [one(i) for i in range(positions)]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            found = list(pool.map(one, range(positions), chunksize=1))
    kept = [f for f in found if f is not None]
    n = max(1, len(kept))
    normal = sum(f[0] for f in kept) / n
    floor = sum(f[1] for f in kept) / n
    above = normal - floor
    seconds = round(time.perf_counter() - start, 1)
    figures = []
    for j, cap in enumerate(playouts):
        hard = sum(f[2][j][0] for f in kept) / n
        figures.append(
            {
                "variant": variant,
                "players": players,
                "positions": len(kept),
                "truth": truth,
                "playouts": cap,
                "reps": reps,
                "regret_normal": round(normal, 4),
                "regret_hard": round(hard, 4),
                "regret_floor": round(floor, 4),
                "captured": round((normal - hard) / above, 3) if above > 0 else None,
                "departures": round(sum(f[2][j][1] for f in kept) / (n * reps), 4),
                "seconds": seconds,
            }
        )
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, measure, print one JSON line per ``--playouts`` value."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.regret", description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic", choices=sorted(VARIANTS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=80, help="rounds tried (some are skipped)")
    parser.add_argument("--truth", type=int, default=3000, help="samples per reference")
    parser.add_argument("--playouts", type=int, nargs="+", default=[700], help="hard's playouts per decision")
    parser.add_argument("--reps", type=int, default=5, help="hard's searches per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    for figures in measure(
        args.variant, args.players, args.positions, args.truth, args.playouts, args.reps, args.seed, args.jobs
    ):
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
