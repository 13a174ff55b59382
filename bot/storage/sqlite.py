"""The :class:`~bot.storage.Storage` interface on SQLite, through aiosqlite.

One connection per bot, in WAL mode with ``synchronous=NORMAL`` (a commit survives the bot
crashing; the last commits may be lost on power loss), foreign keys on and a busy timeout. Every
call takes one :class:`asyncio.Lock`, so the statements of one call never interleave with another's
on the shared connection; a call with several statements runs in one ``BEGIN IMMEDIATE``
transaction. Saving a table is a single statement (one trip to the database thread); saves that
arrive while one is being written are written together by the next statement (group commit), and
each call returns once its snapshot is committed.

Checkpoints (copying the WAL back into the database file) would otherwise run inside the commit
that crosses SQLite's threshold, holding up every save behind it for tens of milliseconds. By
default a second connection, used for nothing else, runs a ``PASSIVE`` checkpoint every second,
beside the writer rather than in its way (``checkpoint_seconds=None`` turns that off and leaves
the checkpoints to SQLite).

The schema is versioned by ``PRAGMA user_version``: :data:`MIGRATIONS` ``[n]`` (the numbered SQL
files of :mod:`bot.storage.migrations`) takes a database from version ``n`` to ``n + 1`` in one
transaction, and :meth:`SqliteStorage.open` applies the missing ones. Before it changes anything, ``open`` refuses, with one line naming the file:

* a location it cannot write (missing directory, a directory or file without write permission);
* a file that is not an SQLite database, or one that fails ``PRAGMA quick_check``;
* a database newer than this code, or one with tables but no schema version (not ours).

Players are rows of ``people`` (an integer id and their user id). Results refer to that row, so
:meth:`SqliteStorage.forget_user` renames one row to ``forgotten:<n>``: every result stays
counted, and nothing names the user any more. A record's players, winners and scores are kept as
JSON with people ids (``[[3, 4], 120]`` is team ``"a+b"`` with 120 points) so that it reads back
exactly (the storage tests read it); ``game_players`` and ``round_players`` hold who played and who
won, for the leaderboard's SQL.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite
import orjson

from bot.storage import GameResult, PlayerStats, RoundResult, StorageError
from bot.storage.migrations import load

__all__ = ["MIGRATIONS", "SqliteStorage"]

log = logging.getLogger(__name__)

#: ``MIGRATIONS[n]`` takes the schema from ``user_version`` n to n + 1: the SQL files of
#: :mod:`bot.storage.migrations`.
MIGRATIONS: tuple[str, ...] = tuple(m.sql for m in load("sqlite"))

SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 5000
WAL_AUTOCHECKPOINT_PAGES = 4000  # SQLite's own checkpoints, without the background ones
WAL_BACKSTOP_PAGES = 16000  # with them: only if they fall behind (a 64 MB WAL)
TABLES_PER_STATEMENT = 100  # snapshots written by one statement (4 parameters each)
FORGOTTEN = "forgotten:"
_AI = "ai:"

# One row per (person, played, won, rounds won, points) fact, for the leaderboard and stats:
# a finished game they sat in, or a round they (or their team) won. The two ``?`` pairs are the
# guild and the variant (None: every variant).
_FACTS = """
    SELECT gp.person AS person, g.variant AS variant,
           1 AS played, gp.won AS won, 0 AS rounds_won, 0 AS points
    FROM game_players AS gp JOIN games AS g ON g.id = gp.game
    WHERE g.guild_id = ? AND (? IS NULL OR g.variant = ?)
    UNION ALL
    SELECT rp.person, r.variant, 0, 0, 1, r.points
    FROM round_players AS rp
    JOIN rounds AS r ON r.game = rp.game AND r.round_no = rp.round_no
    WHERE rp.won = 1 AND r.guild_id = ? AND (? IS NULL OR r.variant = ?)
"""


def _dumps(value: Any) -> str:
    """Compact JSON through orjson: a table is saved after every move, and the standard
    library's encoder took a thirteenth of the bot's event-loop time under load
    (docs/performance-load.md). Stricter than the standard library's about keys (no int key
    turns silently into a string); a float that is not finite would be written as null (no
    table or result holds floats but times).

    Raises:
        TypeError: a value JSON cannot hold, a key that is not a string, or a string that is
            not valid Unicode (a lone surrogate); nothing is written.
    """
    return orjson.dumps(value).decode()


def _check_id(name: str, value: int) -> None:
    """Refuse a bad Discord id before it is queued with other tables' writes."""
    if not isinstance(value, int) or not 0 <= value < 2**63:
        raise ValueError(f"{name} must be a Discord id (an int), not {value!r}")


def _members(key: str) -> list[str]:
    """The player ids in a score key: ``"a"`` or a team ``"a+b"``."""
    return key.split("+")


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def _one_line(what: BaseException | str, limit: int = 200) -> str:
    """An error message (or SQLite's report) on one line, cut at ``limit`` characters
    (``PRAGMA quick_check`` can report thousands of characters of damaged cells)."""
    text = " ".join(str(what).split()) or type(what).__name__
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class _QueuedTable(NamedTuple):
    """A table snapshot waiting for the group commit: its row, the results to record with it,
    and the future its saver awaits."""

    row: tuple[int, int, str, float]
    results: tuple[RoundResult | GameResult, ...]
    done: asyncio.Future[None]


class SqliteStorage:
    """:class:`~bot.storage.Storage` in one SQLite file.

    Args:
        path: the database file; created (with the schema) if missing, its directory must exist.
        checkpoint_seconds: how often the background connection checkpoints the WAL; None: no
            background connection, SQLite checkpoints inside commits.
    """

    def __init__(self, path: Path | str, *, checkpoint_seconds: float | None = 1.0) -> None:
        self.path = Path(path)
        self.checkpoint_seconds = checkpoint_seconds
        self._db: aiosqlite.Connection | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._table_queue: list[_QueuedTable] = []
        self._table_writer: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return f"SqliteStorage({str(self.path)!r})"

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        """Connect, check the file and apply missing migrations.

        Raises:
            StorageError: the location is not writable, the file is not a (sound) SQLite
                database, or it is newer than this code. The file is then left unchanged.
        """
        if self._db is not None:
            return
        self._check_location()
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot open the database: {_one_line(exc)}") from exc
        try:
            await self._check_and_migrate(db)
        except BaseException as exc:
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise self._refusal(exc) from exc
            raise
        self._db = db
        if self.checkpoint_seconds is not None:
            self._checkpointer = asyncio.create_task(self._checkpoint_forever(self.checkpoint_seconds))

    async def close(self) -> None:
        """Let SQLite update its planner statistics, then close (checkpointing the WAL).

        A cancellation (a second Ctrl+C or SIGTERM) does not cut it short: an open connection's
        thread would keep the process from exiting. It is raised once the storage is closed.
        """
        closing = asyncio.ensure_future(self._close())
        cancelled = False
        while not closing.done():
            try:
                await asyncio.shield(closing)
            except asyncio.CancelledError:
                cancelled = True
        closing.result()
        if cancelled:
            raise asyncio.CancelledError

    async def _close(self) -> None:
        while self._table_writer is not None:  # write the snapshots still queued
            writer, self._table_writer = self._table_writer, None
            await asyncio.gather(writer, return_exceptions=True)
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            await asyncio.gather(self._checkpointer, return_exceptions=True)
            self._checkpointer = None
        db, self._db = self._db, None
        if db is None:
            return
        async with self._lock:
            try:
                await db.execute_fetchall("PRAGMA optimize")
            except sqlite3.Error as exc:  # pragma: no cover - best effort
                log.warning("%s: PRAGMA optimize failed: %s", self.path, _one_line(exc))
            finally:
                await db.close()

    def _check_location(self) -> None:
        """Refuse, before touching anything, a location SQLite could not write."""
        path = self.path
        directory = path.absolute().parent
        if not directory.is_dir():
            raise StorageError(f"{path}: directory {directory} does not exist")
        if not os.access(directory, os.W_OK | os.X_OK):
            raise StorageError(
                f"{path}: directory {directory} is not writable (SQLite creates {path.name}-wal "
                "and -shm beside the database); fix its permissions or choose another path"
            )
        if not path.exists():
            return
        if not path.is_file():
            raise StorageError(f"{path}: not a regular file")
        if not os.access(path, os.R_OK | os.W_OK):
            raise StorageError(f"{path}: the file is not readable and writable by this user")
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
        if head and head != SQLITE_MAGIC:
            raise StorageError(self._not_a_database())

    def _not_a_database(self) -> str:
        return (
            f"{self.path}: file is not a database (corrupt, or not SQLite); it was left "
            "unchanged: restore a backup or choose another path"
        )

    def _refusal(self, exc: sqlite3.Error) -> StorageError:
        text = _one_line(exc)
        if "not a database" in text:
            return StorageError(self._not_a_database())
        if "malformed" in text:
            return StorageError(self._corrupt(text))
        return StorageError(f"{self.path}: cannot use the database: {text}")

    def _corrupt(self, detail: str) -> str:
        return (
            f"{self.path}: database is corrupt ({detail}); it was left unchanged: restore a "
            "backup or choose another path"
        )

    async def _check_and_migrate(self, db: aiosqlite.Connection) -> None:
        """Read-only checks first; only then set WAL and migrate."""
        await db.execute_fetchall(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = await self._scalar(db, "PRAGMA user_version")
        latest = len(MIGRATIONS)
        if version > latest:
            raise StorageError(
                f"{self.path}: database schema version {version} is newer than this code "
                f"(which knows up to {latest}); run a newer bot or choose another path "
                "(the file was left unchanged)"
            )
        if version == 0 and await self._scalar(db, "SELECT count(*) FROM sqlite_master"):
            raise StorageError(
                f"{self.path}: the database has tables but no schema version, so it is not "
                "this bot's; choose another path (the file was left unchanged)"
            )
        problems = [row[0] for row in await db.execute_fetchall("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise StorageError(self._corrupt(f"quick_check: {_one_line(problems[0])}"))
        (mode,) = next(iter(await db.execute_fetchall("PRAGMA journal_mode = WAL")))
        if str(mode).lower() != "wal":
            log.warning("%s: journal mode is %s, not WAL (unsupported file system?)", self.path, mode)
        await db.execute_fetchall("PRAGMA synchronous = NORMAL")
        # A checkpoint copies each page changed since the last one, once, and runs inside the
        # commit that triggers it. Table rows are rewritten all the time, so rarer checkpoints
        # do less work and delay fewer saves (the WAL grows to about 16 MB, then is reused).
        pages = WAL_AUTOCHECKPOINT_PAGES if self.checkpoint_seconds is None else WAL_BACKSTOP_PAGES
        await db.execute_fetchall(f"PRAGMA wal_autocheckpoint = {pages}")
        await db.execute_fetchall("PRAGMA foreign_keys = ON")
        for number in range(version, latest):
            # executescript runs the whole script; a failure leaves the transaction open.
            try:
                await db.executescript(
                    f"BEGIN IMMEDIATE;\n{MIGRATIONS[number]}\nPRAGMA user_version = {number + 1};\nCOMMIT;"
                )
            except BaseException:
                if db.in_transaction:
                    await db.rollback()
                raise
            log.info("%s: schema migrated to version %d", self.path, number + 1)

    async def _checkpoint_forever(self, seconds: float) -> None:
        """Every ``seconds``, a ``PASSIVE`` checkpoint on a connection of its own.

        A passive checkpoint never waits for the writer nor holds it up; what it cannot copy yet
        it copies next time. Errors are logged, not raised: the writer's backstop remains.
        """
        try:
            checkpoints = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            log.warning("%s: no background checkpoints: %s", self.path, _one_line(exc))
            return
        try:
            await checkpoints.execute_fetchall(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            while True:
                await asyncio.sleep(seconds)
                try:
                    await checkpoints.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as exc:
                    log.warning("%s: checkpoint failed: %s", self.path, _one_line(exc))
        finally:
            await checkpoints.close()

    @staticmethod
    async def _scalar(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> int:
        rows = list(await db.execute_fetchall(sql, params))
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    @asynccontextmanager
    async def _use(self, *, transaction: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, held alone; in ``BEGIN IMMEDIATE`` … ``COMMIT`` if ``transaction``.

        Raises:
            StorageError: not open, or any SQLite error (after rolling back).
        """
        async with self._lock:
            db = self._db
            if db is None:
                raise StorageError(f"{self.path}: storage is not open")
            try:
                if transaction:
                    await db.execute_fetchall("BEGIN IMMEDIATE")
                yield db
                if transaction:
                    await db.execute_fetchall("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    try:
                        await db.rollback()
                    except sqlite3.Error as again:  # pragma: no cover - already failing
                        log.error("%s: rollback failed: %s", self.path, _one_line(again))
                if isinstance(exc, sqlite3.Error):
                    raise StorageError(f"{self.path}: {_one_line(exc)}") from exc
                raise

    # ------------------------------------------------------------------ channel settings

    async def get_channel_settings(self, channel_id: int) -> dict[str, Any] | None:
        """The channel's saved defaults (a JSON object), or None."""
        async with self._use() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT settings FROM channel_settings WHERE channel_id = ?", (channel_id,)
                )
            )
        return orjson.loads(rows[0][0]) if rows else None

    async def set_channel_settings(self, guild_id: int, channel_id: int, settings: dict[str, Any]) -> None:
        """Save the channel's defaults (replaces them)."""
        text = _dumps(settings)
        async with self._use() as db:
            await db.execute_fetchall(
                "INSERT INTO channel_settings (channel_id, guild_id, settings, updated_at) "
                "VALUES (?, ?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (channel_id, guild_id, text, time.time()),
            )

    # ------------------------------------------------------------------ tables in progress

    async def save_table(
        self,
        guild_id: int,
        channel_id: int,
        snapshot: dict[str, Any],
        results: Sequence[RoundResult | GameResult] = (),
    ) -> None:
        """Save a table in progress (lobby or game) as one JSON object, replacing the last one,
        and record ``results`` (the rounds it just finished) in the same transaction.

        Committed when this returns. Saves that arrive while one is being written are written
        together, in one transaction, by :meth:`_write_tables` (group commit).

        Raises:
            TypeError, ValueError: the snapshot is not JSON-safe or an id is not an int
                (nothing is written).
            StorageError: not open, or the write failed.
        """
        _check_id("guild_id", guild_id)
        _check_id("channel_id", channel_id)
        text = _dumps(snapshot)
        if self._db is None:
            raise StorageError(f"{self.path}: storage is not open")
        done = asyncio.get_running_loop().create_future()
        self._table_queue.append(
            _QueuedTable((channel_id, guild_id, text, time.time()), tuple(results), done)
        )
        if self._table_writer is None or self._table_writer.done():
            self._table_writer = asyncio.create_task(self._write_tables())
        await done

    async def _write_tables(self) -> None:
        """Write the queued snapshots, as many as there are, until the queue is empty."""
        while self._table_queue:
            batch = self._table_queue[:TABLES_PER_STATEMENT]
            del self._table_queue[:TABLES_PER_STATEMENT]
            rows = ", ".join(["(?, ?, ?, ?)"] * len(batch))
            try:
                async with self._use(transaction=any(q.results for q in batch)) as db:
                    await db.execute_fetchall(
                        "INSERT INTO open_tables (channel_id, guild_id, snapshot, updated_at) "
                        f"VALUES {rows} "
                        "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
                        "snapshot = excluded.snapshot, updated_at = excluded.updated_at",
                        [value for q in batch for value in q.row],
                    )
                    for result in (r for q in batch for r in q.results):
                        await self._insert_result(db, result)
            except BaseException as exc:
                for q in batch:
                    if not q.done.done():
                        q.done.set_exception(StorageError(str(exc) or type(exc).__name__))
                if not isinstance(exc, Exception):
                    raise
            else:
                for q in batch:
                    if not q.done.done():
                        q.done.set_result(None)

    async def load_tables(self) -> list[dict[str, Any]]:
        """Every saved table snapshot (by channel id), for restoring after a restart."""
        async with self._use() as db:
            rows = await db.execute_fetchall("SELECT snapshot FROM open_tables ORDER BY channel_id")
        return [orjson.loads(row[0]) for row in rows]

    async def delete_table(self, channel_id: int, results: Sequence[RoundResult | GameResult] = ()) -> None:
        """Forget a table (game over, ended, lobby expired); no error if there is none. ``results``
        (its last round and the game) are recorded in the same transaction."""
        async with self._use(transaction=bool(results)) as db:
            for result in results:
                await self._insert_result(db, result)
            await db.execute_fetchall("DELETE FROM open_tables WHERE channel_id = ?", (channel_id,))

    # ------------------------------------------------------------------ results

    async def _insert_result(self, db: aiosqlite.Connection, result: RoundResult | GameResult) -> None:
        """Record a finished round or game inside the caller's transaction.

        Idempotent: a round already recorded (same game_id and round_no), or a game already
        finished (same game_id), is left as it is (the first one stays). Every member of a
        winning key (the player, or both partners) is credited with the round and its points, or
        the game.
        """
        if isinstance(result, RoundResult):
            await self._insert_round(db, result)
        else:
            await self._insert_game(db, result)

    async def _insert_round(self, db: aiosqlite.Connection, result: RoundResult) -> None:
        """Write a round's result inside the caller's transaction (nothing if it is there)."""
        winners = set(_members(result.winner)) if result.winner is not None else set()
        everyone = _unique(
            [*result.players, *(m for k in result.scores for m in _members(k)), *sorted(winners)]
        )
        if await self._scalar(
            db,
            "SELECT count(*) FROM rounds AS r JOIN games AS g ON g.id = r.game "
            "WHERE g.game_id = ? AND r.round_no = ?",
            (result.game_id, result.round_no),
        ):
            return
        ids = await self._people(db, everyone)
        game = await self._game_row(db, result.game_id, result.guild_id, result.channel_id, result.variant)
        stored = {
            "players": [ids[p] for p in result.players],
            "winner": None if result.winner is None else self._encode(ids, result.winner),
            "scores": [[self._encode(ids, k), int(s)] for k, s in result.scores.items()],
        }
        await db.execute_fetchall(
            "INSERT INTO rounds (game, round_no, guild_id, channel_id, variant, points, "
            "result, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game,
                result.round_no,
                result.guild_id,
                result.channel_id,
                result.variant,
                int(result.points),
                _dumps(stored),
                time.time(),
            ),
        )
        await db.executemany(
            "INSERT INTO round_players (game, round_no, person, won) VALUES (?, ?, ?, ?)",
            [(game, result.round_no, ids[p], int(p in winners)) for p in everyone],
        )

    async def _insert_game(self, db: aiosqlite.Connection, result: GameResult) -> None:
        """Write a game's result inside the caller's transaction (nothing if it is there)."""
        winners = {m for key in result.winners for m in _members(key)}
        everyone = _unique(
            [*result.players, *(m for k in result.scores for m in _members(k)), *sorted(winners)]
        )
        if await self._scalar(
            db,
            "SELECT count(*) FROM games WHERE game_id = ? AND finished_at IS NOT NULL",
            (result.game_id,),
        ):
            return
        ids = await self._people(db, everyone)
        game = await self._game_row(db, result.game_id, result.guild_id, result.channel_id, result.variant)
        stored = {
            "players": [ids[p] for p in result.players],
            "winners": [self._encode(ids, k) for k in result.winners],
            "scores": [[self._encode(ids, k), int(s)] for k, s in result.scores.items()],
        }
        await db.execute_fetchall(
            "UPDATE games SET rounds = ?, result = ?, finished_at = ? WHERE id = ?",
            (result.rounds, _dumps(stored), time.time(), game),
        )
        await db.executemany(
            "INSERT INTO game_players (game, person, won) VALUES (?, ?, ?)",
            [(game, ids[p], int(p in winners)) for p in everyone],
        )

    async def _people(self, db: aiosqlite.Connection, user_ids: list[str]) -> dict[str, int]:
        """The ``people`` id of each user id, adding the new ones."""
        await db.executemany(
            "INSERT INTO people (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING",
            [(u,) for u in user_ids],
        )
        ids: dict[str, int] = {}
        for start in range(0, len(user_ids), 500):
            chunk = user_ids[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = await db.execute_fetchall(
                f"SELECT user_id, id FROM people WHERE user_id IN ({marks})", chunk
            )
            ids.update((u, i) for u, i in rows)
        return ids

    async def _game_row(
        self, db: aiosqlite.Connection, game_id: str, guild_id: int, channel_id: int, variant: str
    ) -> int:
        """The ``games`` id of ``game_id``, adding an unfinished game if it is new."""
        await db.execute_fetchall(
            "INSERT INTO games (game_id, guild_id, channel_id, variant, started_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
            (game_id, guild_id, channel_id, variant, time.time()),
        )
        return await self._scalar(db, "SELECT id FROM games WHERE game_id = ?", (game_id,))

    @staticmethod
    def _encode(ids: dict[str, int], key: str) -> list[int]:
        return [ids[m] for m in _members(key)]

    # ------------------------------------------------------------------ leaderboard and stats

    async def leaderboard(
        self, guild_id: int, *, variant: str | None = None, limit: int = 10
    ) -> list[PlayerStats]:
        """The guild's best players by games won, then points (AI seats excluded).

        Ties then go to more rounds won, fewer games played, then user id. Forgotten players
        stay ranked, as ``forgotten:<n>``.
        """
        if limit < 1:
            return []
        async with self._use() as db:
            rows = await db.execute_fetchall(
                "SELECT p.user_id, sum(f.played) AS played, sum(f.won) AS won, "
                "sum(f.rounds_won) AS rounds_won, sum(f.points) AS points "
                f"FROM ({_FACTS}) AS f JOIN people AS p ON p.id = f.person "
                "WHERE substr(p.user_id, 1, 3) <> ? "
                "GROUP BY p.id, p.user_id "
                "ORDER BY won DESC, points DESC, rounds_won DESC, played ASC, p.user_id "
                "LIMIT ?",
                (guild_id, variant, variant, guild_id, variant, variant, _AI, limit),
            )
        return [
            PlayerStats(
                user_id=user_id,
                games_played=played,
                games_won=won,
                rounds_won=rounds_won,
                points=points,
                win_rate=won / played if played else 0.0,
            )
            for user_id, played, won, rounds_won, points in rows
        ]

    async def stats(self, guild_id: int, user_id: str) -> PlayerStats:
        """One player's record in the guild, with the same counts per variant (all zero if new)."""
        async with self._use() as db:
            rows = await db.execute_fetchall(
                "SELECT f.variant, sum(f.played), sum(f.won), sum(f.rounds_won), sum(f.points) "
                f"FROM ({_FACTS}) AS f JOIN people AS p ON p.id = f.person "
                "WHERE p.user_id = ? GROUP BY f.variant ORDER BY f.variant",
                (guild_id, None, None, guild_id, None, None, user_id),
            )
        by_variant = {
            variant: {
                "games_played": played,
                "games_won": won,
                "rounds_won": rounds_won,
                "points": points,
            }
            for variant, played, won, rounds_won, points in rows
        }
        total = {
            key: sum(counts[key] for counts in by_variant.values())
            for key in ("games_played", "games_won", "rounds_won", "points")
        }
        played, won = total["games_played"], total["games_won"]
        return PlayerStats(
            user_id=user_id,
            games_played=played,
            games_won=won,
            rounds_won=total["rounds_won"],
            points=total["points"],
            win_rate=won / played if played else 0.0,
            by_variant=by_variant,
        )

    # ------------------------------------------------------------------ forget me

    async def forget_user(self, user_id: str) -> int:
        """Rename the user to ``forgotten:<n>`` in every result; the results stay counted.

        Snapshots of tables in progress and channel settings are not rewritten: the bot should
        take the player out of any table first. Results recorded after this name them again
        (a new record).

        Returns:
            How many game and round records no longer name them (0: none named them).
        """
        if user_id.startswith(FORGOTTEN):
            return 0
        async with self._use(transaction=True) as db:
            person = await self._scalar(db, "SELECT id FROM people WHERE user_id = ?", (user_id,))
            if not person:
                return 0
            records = await self._scalar(
                db,
                "SELECT (SELECT count(*) FROM game_players WHERE person = ?) "
                "+ (SELECT count(*) FROM round_players WHERE person = ?)",
                (person, person),
            )
            await db.execute_fetchall("UPDATE people SET user_id = ? || id WHERE id = ?", (FORGOTTEN, person))
        return records
