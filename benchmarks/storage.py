"""Storage benchmark: ``python -m benchmarks.storage --tables 200 --actions 20 --restore 1000``.

Runs on fresh SQLite files in a temporary directory (or ``--db-dir``) and prints one JSON line.
``--inline-checkpoints`` measures without the background checkpoint connection;
``--synchronous normal|full`` sets ``PRAGMA synchronous`` (default: the bot's, setting
``database.synchronous``). ``--url postgresql://...`` runs the same on PostgreSQL instead, each
measurement on a fresh schema of that database (dropped after); a throwaway cluster:
``bash -c '. scripts/_postgres.sh; postgres_start; .venv/bin/python -m benchmarks.storage --url
"$UNO_TEST_POSTGRES_URL"'``.
Each table is a real engine game (``Game(...).start_round()``) played by ``ai.random_action``;
after every action the table's snapshot (``Game.to_dict()`` plus the table's own keys, about
11 kB) is saved, as the bot does inside the table lock before answering.

* Saturated: every table acts and saves back to back, all at once.
  ``actions_per_second`` is the actions persisted per second; ``saturated_p50_persist_ms`` /
  ``saturated_p99_persist_ms`` include waiting behind the other tables' saves.
* Paced: every table acts about every ``--interval-ms`` (uniform 0.5-1.5 x, random start;
  default 1000, a brisk table: AI turns wait 1.2 s by default, people take longer), the load of
  ``tables`` busy channels. ``p50_persist_ms`` / ``p99_persist_ms`` / ``max_persist_ms``
  are the time from the accepted action to its snapshot being committed (``to_dict``, JSON, the
  wait for the connection and the write). Target: p99 under 5 ms (with ``--synchronous
  normal``; ``full`` adds the disk's sync to every commit: docs/performance/storage.md).
* Control: the paced run again with a storage that only serializes and makes one trip to a
  thread (``control_p50_ms`` / ``control_p99_ms``): the floor this machine's scheduler and the
  event loop set, whatever the database. On a loaded machine it explains most of the p99.
* Restore: ``--restore`` games in mid-round are saved, the storage closed, then
  ``restore_seconds`` times a restart: open, ``load_tables``, ``Game.from_dict`` for each.
  ``restore_load_seconds`` is the storage's part (open and ``load_tables``). Target: 10,000
  games under 3 s on SQLite, under 6 s on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.engine.ai import random_action
from bot.engine.game import Game
from bot.storage import Storage
from bot.storage.common import collector_paused
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage
from bot.storage.sqlite.connection import DEFAULT_SYNCHRONOUS, Synchronous

GUILD = 111_111_111_111_111_111
CHANNEL = 222_222_222_222_222_000


class Table:
    """One channel's game, driven by random legal actions."""

    def __init__(self, n: int, seed: int) -> None:
        self.n = n
        self.channel_id = CHANNEL + n
        self.rng = random.Random(seed * 7_919 + n)
        self.games = 0
        self.new_game(seed * 1_000_003 + n)

    def new_game(self, seed: int) -> None:
        """Seat two humans and two AI players and deal."""
        self.games += 1
        humans = [str(300_000_000_000_000_000 + self.n * 10 + i) for i in range(2)]
        self.game = Game([*humans, f"ai:{self.n}:1", f"ai:{self.n}:2"], seed=seed)
        self.game.start_round()

    def act(self) -> None:
        """One accepted action (a new round or game when one ends)."""
        game = self.game
        if game.game_over:
            self.new_game(self.rng.randrange(2**31))
            return
        if game.round_over:
            game.start_round()
            return
        player = game.pending.player
        assert player is not None
        game.apply(player, random_action(game, player, self.rng))

    def snapshot(self) -> dict[str, Any]:
        """The table as the bot saves it: the game plus the table's own keys."""
        return {
            "kind": "game",
            "guild_id": GUILD,
            "channel_id": self.channel_id,
            "game_id": f"{self.channel_id}-{self.games}",
            "host": self.game.players[0],
            "message_id": 900_000_000_000_000_000 + self.n,
            "turn_deadline": time.time() + 90,
            "timeouts": {p: 0 for p in self.game.players},
            "game": self.game.to_dict(),
        }


def _ms(ns: Sequence[int], q: float) -> float:
    ordered = sorted(ns)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1e6, 3)


async def _persist(storage: Storage | NoStorage, table: Table, timings: list[int]) -> None:
    t0 = time.perf_counter_ns()
    await storage.save_table(GUILD, table.channel_id, table.snapshot())
    timings.append(time.perf_counter_ns() - t0)


async def _all_at_once(storage: Storage | NoStorage, runs: list[Coroutine[Any, Any, None]]) -> float:
    """Run every table's loop at once, then close the storage; the seconds the loops took."""
    start = time.perf_counter()
    await asyncio.gather(*runs)
    seconds = time.perf_counter() - start
    await storage.close()
    return seconds


Make = Callable[[], Storage]
"""A new storage (not yet open) on one measurement's database."""


async def saturated(make: Make, tables: int, actions: int, seed: int) -> dict[str, Any]:
    """Every table acting and saving back to back."""
    storage = make()
    await storage.open()
    timings: list[int] = []
    live = [Table(n, seed) for n in range(tables)]

    async def run(table: Table) -> None:
        for _ in range(actions):
            table.act()
            await _persist(storage, table, timings)

    seconds = await _all_at_once(storage, [run(t) for t in live])
    return {
        "actions_per_second": round(len(timings) / seconds),
        "saturated_p50_persist_ms": _ms(timings, 0.50),
        "saturated_p99_persist_ms": _ms(timings, 0.99),
    }


class NoStorage:
    """The control: serialize the snapshot and make one trip to a thread, store nothing."""

    async def save_table(self, guild_id: int, channel_id: int, snapshot: dict[str, Any]) -> None:
        """What any thread-based driver costs before it writes anything."""
        json.dumps(snapshot)
        await asyncio.to_thread(int)

    async def close(self) -> None:
        """Nothing to close."""


async def paced(make: Make | None, tables: int, actions: int, seed: int, interval: float) -> dict[str, Any]:
    """Every table acting about every ``interval`` seconds (``make`` None: the control)."""
    storage: Storage | NoStorage = NoStorage() if make is None else make()
    if not isinstance(storage, NoStorage):
        await storage.open()
    timings: list[int] = []
    live = [Table(n, seed + 1) for n in range(tables)]

    async def run(table: Table) -> None:
        await asyncio.sleep(table.rng.uniform(0, interval))
        for _ in range(actions):
            table.act()
            await _persist(storage, table, timings)
            await asyncio.sleep(interval * table.rng.uniform(0.5, 1.5))

    seconds = await _all_at_once(storage, [run(t) for t in live])
    return {
        "paced_actions_per_second": round(len(timings) / seconds),
        "p50_persist_ms": _ms(timings, 0.50),
        "p99_persist_ms": _ms(timings, 0.99),
        "max_persist_ms": round(max(timings) / 1e6, 3),
        "mean_persist_ms": round(statistics.fmean(timings) / 1e6, 3),
    }


async def restore(make: Make, games: int, seed: int) -> dict[str, Any]:
    """Save ``games`` tables in mid-round, then time a restart that restores them all."""
    storage = make()
    await storage.open()
    size = 0
    for n in range(games):
        table = Table(n, seed + 2)
        for _ in range(table.rng.randrange(30)):
            table.act()
        snapshot = table.snapshot()
        size += len(json.dumps(snapshot))
        await storage.save_table(GUILD + n % 50, table.channel_id, snapshot)
    await storage.close()

    start = time.perf_counter()
    storage = make()
    await storage.open()
    with collector_paused():  # as the bot restores (`UnoBot.setup_hook`)
        snapshots = await storage.load_tables()
        loaded = time.perf_counter()
        restored = [Game.from_dict(s["game"]) for s in snapshots]
    done = time.perf_counter()
    await storage.close()
    if len(restored) != games:
        raise SystemExit(f"restored {len(restored)} games, expected {games}")
    return {
        "restore_games": games,
        "restore_seconds": round(done - start, 3),
        "restore_load_seconds": round(loaded - start, 3),
        "snapshot_bytes": round(size / max(games, 1)),
    }


def sqlite_databases(
    directory: Path, checkpoints: float | None, synchronous: Synchronous
) -> Callable[[str], Any]:
    """Each measurement's SQLite file in ``directory``: a function of its name giving a context
    (its storage maker; its size in ``database_bytes`` afterwards)."""

    @asynccontextmanager
    async def database(name: str) -> AsyncIterator[tuple[Make, dict[str, Any]]]:
        path = directory / f"{name}.db"
        extra: dict[str, Any] = {}
        yield (lambda: SqliteStorage(path, checkpoint_seconds=checkpoints, synchronous=synchronous)), extra
        extra["database_bytes"] = path.stat().st_size

    return database


def postgres_databases(url: str) -> Callable[[str], Any]:
    """Each measurement's fresh schema of the PostgreSQL database at ``url``, dropped after (its
    tables' size in ``database_bytes``)."""

    @asynccontextmanager
    async def database(name: str) -> AsyncIterator[tuple[Make, dict[str, Any]]]:
        async with fresh_schema(url, name) as (at, admin):
            extra: dict[str, Any] = {}
            yield (lambda: PostgresStorage(at)), extra
            extra["database_bytes"] = await admin.fetchval(
                "SELECT CAST(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename))) AS BIGINT) "
                "FROM pg_tables WHERE schemaname = current_schema()",
            )
            extra["postgresql"] = await admin.fetchval("SHOW server_version")

    return database


@asynccontextmanager
async def fresh_schema(url: str, name: str) -> AsyncIterator[tuple[str, Any]]:
    """A new, empty schema of the PostgreSQL database at ``url``, dropped after: the URL that
    uses it (``search_path``), and an asyncpg connection there."""
    import asyncpg

    schema = f"bench_{name}_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        await admin.execute(f"SET search_path = {schema}")
        yield f"{url}{'&' if '?' in url else '?'}search_path={schema}", admin
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def main_async(args: argparse.Namespace, database: Callable[[str], Any]) -> dict[str, Any]:
    """All three measurements, each on its own database (``database(name)``)."""
    figures: dict[str, Any] = {"tables": args.tables, "actions_per_table": args.actions}
    async with database("saturated") as (make, _):
        figures |= await saturated(make, args.tables, args.actions, args.seed)
    figures["interval_ms"] = args.interval_ms
    async with database("paced") as (make, _):
        figures |= await paced(make, args.tables, args.actions, args.seed, args.interval_ms / 1000)
    control = await paced(None, args.tables, args.actions, args.seed, args.interval_ms / 1000)
    figures["control_p50_ms"] = control["p50_persist_ms"]
    figures["control_p99_ms"] = control["p99_persist_ms"]
    async with database("restore") as (make, extra):
        figures |= await restore(make, args.restore, args.seed)
    figures |= extra
    if args.url is None:
        figures["background_checkpoints"] = not args.inline_checkpoints
        figures["synchronous"] = args.synchronous
        figures["sqlite"] = sqlite3.sqlite_version
    figures["python"] = platform.python_version()
    return figures


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the arguments, run the benchmark, print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=200, help="active tables (default 200)")
    parser.add_argument("--actions", type=int, default=20, help="actions per table (default 20)")
    parser.add_argument("--restore", type=int, default=1000, help="games to restore (default 1000)")
    parser.add_argument(
        "--interval-ms",
        type=float,
        default=1000.0,
        help="paced run: mean time between one table's actions (default 1000)",
    )
    parser.add_argument(
        "--inline-checkpoints",
        action="store_true",
        help="no background checkpoint connection: SQLite checkpoints inside commits",
    )
    parser.add_argument(
        "--synchronous",
        choices=["normal", "full"],
        default=DEFAULT_SYNCHRONOUS,
        help=f"PRAGMA synchronous (default {DEFAULT_SYNCHRONOUS}, the bot's)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-dir", type=Path, help="directory for the database files")
    parser.add_argument("--url", help="postgresql://...: measure PostgreSQL (fresh schemas there)")
    args = parser.parse_args(argv)
    checkpoints = None if args.inline_checkpoints else 1.0
    if args.url is not None:
        figures = asyncio.run(main_async(args, postgres_databases(args.url)))
    elif args.db_dir is not None:
        args.db_dir.mkdir(parents=True, exist_ok=True)
        for name in ("saturated.db", "paced.db", "restore.db"):
            for suffix in ("", "-wal", "-shm", ".lock"):  # a new database each run
                (args.db_dir / (name + suffix)).unlink(missing_ok=True)
        figures = asyncio.run(main_async(args, sqlite_databases(args.db_dir, checkpoints, args.synchronous)))
    else:
        with tempfile.TemporaryDirectory(prefix="uno-bench-") as tmp:
            figures = asyncio.run(
                main_async(args, sqlite_databases(Path(tmp), checkpoints, args.synchronous))
            )
    json.dump(figures, sys.stdout)
    print()


if __name__ == "__main__":
    main()
