"""Baseline speed of rlcard 1.2.0's UNO, the comparison point for this engine's benchmark.

:func:`measure_rlcard` plays ``games`` complete 4-player games twice, timed with
``time.process_time`` (CPU seconds of this process, so other load on the machine does not
skew the comparison), each loop after a ``gc.collect()`` with the collector on, as
``benchmarks.engine`` times its own rounds:

* ``env_*``: the RL layer, ``rlcard.make('uno')`` with a ``RandomAgent`` in each seat and
  ``env.run(is_training=False)`` (includes rlcard's state encoding and trajectories);
* ``game_*``: the bare ``rlcard.games.uno.game.UnoGame``, each move chosen uniformly at
  random from ``get_legal_actions()``.

``*_steps_per_game`` is the mean number of decisions (``step`` calls) per game.

rlcard is the optional ``bench`` extra (``pip install -e '.[bench]'``), imported only
inside :func:`measure_rlcard`, which returns ``None`` when it is missing; this module
itself needs only the standard library.

rlcard 1.2.0 ignores ``game_num_players`` for UNO (``Env.__init__`` applies game configs
to blackjack and hold'em only), so the env is reconfigured to 4 players after it is
made. Its ``UnoGame.get_payoffs`` assumes 2 players; payoffs are not used here.
"""

from __future__ import annotations

import gc
import importlib
import random
import sys
import time
from typing import TypedDict

PLAYERS = 4


class RlcardBaseline(TypedDict):
    rlcard_version: str
    env_games_per_second: float
    env_seconds: float
    env_steps_per_game: float
    game_games_per_second: float
    game_seconds: float
    game_steps_per_game: float


def measure_rlcard(games: int, seed: int) -> RlcardBaseline | None:
    """Time ``games`` random 4-player games of rlcard's UNO env and game; None without rlcard."""
    if games < 1:
        raise ValueError("games must be at least 1")
    try:  # importlib keeps the optional, untyped rlcard out of mypy's way
        np = importlib.import_module("numpy")
        rlcard = importlib.import_module("rlcard")
        agents = importlib.import_module("rlcard.agents")
        uno_game = importlib.import_module("rlcard.games.uno.game")
    except ImportError:
        return None

    env = rlcard.make("uno", config={"seed": seed, "game_num_players": PLAYERS})
    if env.num_players != PLAYERS:
        env.game.configure({"game_num_players": PLAYERS})
        env.num_players = PLAYERS
    env.set_agents([agents.RandomAgent(num_actions=env.num_actions)] * PLAYERS)
    saved = np.random.get_state()
    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    try:
        gc.collect()  # each timed loop starts from a collected heap, as the engine's own does
        start = time.process_time()
        for _ in range(games):
            env.run(is_training=False)
        env_seconds = time.process_time() - start
    finally:
        np.random.set_state(saved)
    env_steps = env.timestep  # counts every env.step, never reset

    game = uno_game.UnoGame(num_players=PLAYERS)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    game_steps = 0
    gc.collect()
    start = time.process_time()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            game_steps += 1
    game_seconds = time.process_time() - start

    return RlcardBaseline(
        rlcard_version=str(rlcard.__version__),
        env_games_per_second=games / env_seconds,
        env_seconds=env_seconds,
        env_steps_per_game=env_steps / games,
        game_games_per_second=games / game_seconds,
        game_seconds=game_seconds,
        game_steps_per_game=game_steps / games,
    )


if __name__ == "__main__":  # python -m benchmarks.rlcard_adapter GAMES SEED
    print(measure_rlcard(int(sys.argv[1]), int(sys.argv[2])))
