"""The replay check: stored games played again through the engine must end as they were recorded.

Every recorded game keeps its replay (``GameResult.replay``: seed, options, seats and journal).
:func:`check` plays it again with ``Game.replay`` and compares what it reaches with the stored
result: the scores, the winners and the rounds finished. Run it on a database (an SQLite file not
while a bot holds it: one process per file; a PostgreSQL database at any time)::

    python -m bot.replay --db uno.db [--game GAME_ID]
    python -m bot.replay --db postgresql://uno@localhost/uno

It prints one line per game (``ok``, ``MISMATCH`` with what differs, or ``no replay`` for a game
recorded before replays were kept) and exits with 1 if any game does not match (2 if the database
can't be opened or the game isn't there).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.engine.editions import replay_game
from bot.engine.errors import UnoError
from bot.engine.interface import AnyGameProtocol
from bot.storage import GameRecord, GameResult, Storage, StorageError
from bot.storage.choose import is_url, make_storage
from bot.storage.sqlite import SqliteStorage

__all__ = ["check", "check_database", "finished_rounds", "main"]


def finished_rounds(game: AnyGameProtocol) -> int:
    """The rounds ``game`` has finished, as the bot records them: the round in progress (or
    abandoned) doesn't count."""
    return game.round_no if game.round_over else game.round_no - 1


def check(result: GameResult) -> str | None:
    """Play a stored game again and compare it with its record.

    Returns:
        None when the replay ends with the stored scores, winners and number of rounds; else what
        differs, in one line (an action the engine refused names its place in the journal).

    Raises:
        ValueError: the game has no replay (``result.replay`` is None).
    """
    if result.replay is None:
        raise ValueError(f"game {result.game_id} has no replay")
    try:
        game = replay_game(result.replay)
    except UnoError as exc:
        return f"the engine refused its replay: {exc.message}"
    problems = []
    if dict(game.scores) != result.scores:
        problems.append(f"scores {dict(game.scores)} != stored {result.scores}")
    if list(game.winners) != result.winners:
        problems.append(f"winners {game.winners} != stored {result.winners}")
    if finished_rounds(game) != result.rounds:
        problems.append(f"{finished_rounds(game)} rounds != stored {result.rounds}")
    return "; ".join(problems) or None


async def check_database(path: str, game_id: str | None = None) -> list[tuple[GameRecord, str | None]]:
    """Every recorded game of the database at ``path`` (an SQLite file, or a ``postgresql://``
    URL) (or the one ``game_id``), newest first, with what :func:`check` found (games without a
    replay left out).

    Raises:
        StorageError: no file at ``path``, or the database can't be opened or read.
        LookupError: ``game_id`` is given and no finished game has it.
    """
    storage: Storage
    if is_url(path):
        storage = make_storage(path)
    elif not Path(path).is_file():  # opening would make a new, empty database there
        raise StorageError(f"{path}: no such database file")
    else:
        storage = SqliteStorage(path, checkpoint_seconds=None)
    await storage.open()
    try:
        if game_id is None:
            records = await storage.history(None, limit=None)
        else:
            record = await storage.game(game_id)
            if record is None:
                raise LookupError(f"no finished game {game_id!r} in {path}")
            records = [record]
    finally:
        await storage.close()
    return [(r, check(r.result) if r.result.replay is not None else "no replay") for r in records]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.replay``: check stored games; the exit status (0 all match, 1 a mismatch,
    2 the database or the game can't be read)."""
    parser = argparse.ArgumentParser(prog="python -m bot.replay", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db", required=True, help="the bot's database file (uno.db), or its postgresql:// URL"
    )
    parser.add_argument("--game", help="only this game id (default: every recorded game)")
    args = parser.parse_args(argv)
    try:
        found = asyncio.run(check_database(args.db, args.game))
    except (StorageError, LookupError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bad = 0
    for record, problem in found:
        game_id = record.result.game_id
        if problem is None:
            print(f"ok        {game_id}")
        elif record.result.replay is None:
            print(f"no replay {game_id}")
        else:
            bad += 1
            print(f"MISMATCH  {game_id}: {problem}")
    checked = sum(r.result.replay is not None for r, _ in found)
    print(f"{checked} game(s) replayed, {bad} mismatch(es), {len(found) - checked} without a replay")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
