"""Inference benchmark: ``python -m benchmarks.inference --positions 150 --samples 5``.

How well the hard level's sampler (``search.determinize``) guesses the hands hidden from it: a
fast proxy for its strength in 4 players (docs/performance/computer-players.md). Plays
``--positions`` rounds of ``--players``-player ``--variant`` with the normal AI in every seat
(catches included), position ``i`` stopped after ``10 + i % 30`` decisions (fewer if the round
ends first: then skipped), and deals ``--samples`` samples for the player to move. Prints one JSON
line:

* ``positions``, ``samples``: positions measured and samples dealt at each;
* ``cards_right``: the share of the other hands' cards a sample deals right (per hand, the
  multiset overlap of the faces of the side in play between the sample and the truth, summed
  over hands, samples and positions, over the cards in those hands);
* ``colors_right``: the same over the cards' colors only (a wild counts as its own color);
* ``ms_per_sample``: CPU milliseconds per sample (``time.process_time``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot.engine import ai, search
from bot.engine.game import Game
from bot.engine.variants import VARIANTS


def position(variant: str, players: int, seed: int, steps: int) -> Game | None:
    """A round after ``steps`` normal-AI decisions (each followed by the catches the normal AI
    makes), or None if it ended before."""
    game = Game([f"p{i}" for i in range(players)], variant=variant, seed=seed)
    game.start_round()
    rng = random.Random(seed)
    for _ in range(steps):
        player = game.pending.player
        if game.round_over or player is None:
            return None
        game.apply(player, ai.choose(game, player, rng))
        for watcher in game.seated:
            for catch in ai.catches(game, watcher):
                game.apply(watcher, catch)
    return None if game.round_over or game.pending.player is None else game


def measure(variant: str, players: int, positions: int, samples: int, seed: int) -> dict[str, Any]:
    """The figures of the module docstring."""
    right = colors = total = measured = dealt = 0
    spent = 0.0
    for i in range(positions):
        game = position(variant, players, seed + i, 10 + i % 30)
        if game is None:
            continue
        viewer = game.pending.player
        assert viewer is not None
        measured += 1
        side = game.side
        truth = {p: Counter(c.face(side) for c in hand) for p, hand in game.hands.items() if p != viewer}
        rng = random.Random(seed * 1_000_003 + i)
        for _ in range(samples):
            start = time.process_time()
            world = search.determinize(game, viewer, rng)
            spent += time.process_time() - start
            dealt += 1
            for p, faces in truth.items():
                sampled = Counter(c.face(side) for c in world.hands[p])
                right += sum((faces & sampled).values())
                colors += sum((_colors(faces) & _colors(sampled)).values())
                total += sum(faces.values())
    return {
        "variant": variant,
        "players": players,
        "positions": measured,
        "samples": samples,
        "cards_right": round(right / max(1, total), 4),
        "colors_right": round(colors / max(1, total), 4),
        "ms_per_sample": round(spent / max(1, dealt) * 1000, 3),
    }


def _colors(faces: Counter[Any]) -> Counter[Any]:
    found: Counter[Any] = Counter()
    for face, n in faces.items():
        found["wild" if face.wild else face.color] += n
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, measure, print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic", choices=sorted(VARIANTS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.variant, args.players, args.positions, args.samples, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
