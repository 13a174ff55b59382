"""Storage (bot/storage/sqlite.py) against a temporary SQLite file.

Tests taking the ``storage`` fixture hold for every backend (conftest.py); the others are about
SQLite files: migrations, pragmas, and the files it must refuse without changing them.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.engine.game import Game
from bot.storage import GameResult, RoundResult, Storage, StorageError
from bot.storage.sqlite import MIGRATIONS, SQLITE_MAGIC, SqliteStorage

if TYPE_CHECKING:
    from tests.storage.conftest import Backend

GUILD = 1
OTHER_GUILD = 2
ANA, BEN, CY, DEE = "101", "102", "103", "104"
TABLES = {
    "channel_settings",
    "open_tables",
    "people",
    "games",
    "game_players",
    "rounds",
    "round_players",
}


# --------------------------------------------------------------------------- helpers


def run_sqlite(path: Path, body: Any) -> Any:
    """Open a SqliteStorage on ``path``, await ``body(storage)``, close; the body's result."""

    async def main() -> Any:
        storage = SqliteStorage(path)
        await storage.open()
        try:
            return await body(storage)
        finally:
            await storage.close()

    return asyncio.run(main())


def open_error(path: Path) -> str:
    """The StorageError message opening ``path`` gives (fails if it opens)."""

    async def main() -> str:
        storage = SqliteStorage(path)
        try:
            await storage.open()
        except StorageError as exc:
            return str(exc)
        await storage.close()
        raise AssertionError(f"{path} opened")

    return asyncio.run(main())


def files(directory: Path) -> dict[str, bytes]:
    """Every file in ``directory`` with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def make_database(path: Path) -> None:
    """A current database with a little of everything in it."""

    async def fill(s: SqliteStorage) -> None:
        await s.set_channel_settings(GUILD, 10, {"variant": "flip"})
        results = [rnd("g1", n, ANA, 10 * n, [ANA, BEN]) for n in range(1, 4)]
        await s.save_table(GUILD, 10, snapshot(1), [*results, game("g1", [ANA], [ANA, BEN])])

    run_sqlite(path, fill)


def snapshot(seed: int, **extra: Any) -> dict[str, Any]:
    """A realistic table snapshot: an engine game in mid-round plus the table's own keys."""
    g = Game([ANA, BEN, "ai:1", "ai:2"], seed=seed)
    g.start_round()
    return {
        "kind": "game",
        "channel_id": 1000 + seed,
        "host": ANA,
        "message_id": 900_000_000_000_000_000 + seed,
        "turn_deadline": 1_700_000_000.5,
        "note": "ünïcødé ✓",
        "game": g.to_dict(),
        **extra,
    }


def rnd(
    game_id: str,
    round_no: int,
    winner: str | None,
    points: int,
    players: list[str],
    *,
    guild: int = GUILD,
    channel: int = 10,
    variant: str = "classic",
    scores: dict[str, int] | None = None,
) -> RoundResult:
    """A finished round."""
    return RoundResult(
        game_id=game_id,
        guild_id=guild,
        channel_id=channel,
        round_no=round_no,
        variant=variant,
        winner=winner,
        points=points,
        scores=scores if scores is not None else {p: 0 for p in players},
        players=players,
    )


def game(
    game_id: str,
    winners: list[str],
    players: list[str],
    *,
    guild: int = GUILD,
    channel: int = 10,
    variant: str = "classic",
    scores: dict[str, int] | None = None,
    rounds: int = 1,
) -> GameResult:
    """A finished game."""
    return GameResult(
        game_id=game_id,
        guild_id=guild,
        channel_id=channel,
        variant=variant,
        winners=winners,
        scores=scores if scores is not None else {p: 0 for p in players},
        players=players,
        rounds=rounds,
    )


async def play(
    s: Storage,
    game_id: str,
    rounds: list[tuple[str, int]],
    winners: list[str],
    players: list[str],
    **kw: Any,
) -> None:
    """Play a game at channel 10's table as the bot records it: each round but the last with the
    table's save, the last round and the game with its deletion."""
    results = [rnd(game_id, n, winner, points, players, **kw) for n, (winner, points) in enumerate(rounds, 1)]
    for result in results[:-1]:
        await s.save_table(kw.get("guild", GUILD), 10, {"game": game_id, "round": result.round_no}, [result])
    await s.delete_table(10, [results[-1], game(game_id, winners, players, rounds=len(rounds), **kw)])


async def league(s: Storage) -> None:
    """Guild 1: dee wins 2 small games; cy, ana and ben win 1 each (600, 530, 130 points)."""
    await play(s, "g1", [(ANA, 50), (BEN, 30), (ANA, 480)], [ANA], [ANA, BEN, "ai:1"])
    await play(s, "g2", [(CY, 600)], [CY], [ANA, BEN, CY], variant="flip")
    await play(s, "g3", [("ai:1", 500)], ["ai:1"], [BEN, "ai:1"])
    await play(s, "g4", [(BEN, 100)], [BEN], [BEN, CY])
    await play(s, "g5", [(DEE, 10)], [DEE], [DEE, "ai:2"])
    await play(s, "g6", [(DEE, 5)], [DEE], [DEE, "ai:2"])
    # Another guild, where ana wins everything: not on guild 1's board.
    for i in range(3):
        await play(s, f"o{i}", [(ANA, 999)], [ANA], [ANA, BEN], guild=OTHER_GUILD)


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A directory under /tmp that another user can enter (pytest's tmp_path is private)."""
    directory = Path(tempfile.mkdtemp(prefix="uno-storage-"))
    directory.chmod(0o755)
    yield directory
    directory.chmod(0o755)
    shutil.rmtree(directory)


def open_error_as_nobody(path: Path) -> str:
    """:func:`open_error` as an unprivileged user (in a forked child when we are root)."""
    if os.geteuid() != 0:
        return open_error(path)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            os.setgid(65534)
            os.setuid(65534)
            message = open_error(path)
        except BaseException as exc:
            message = f"child failed: {exc!r}"
        os.write(write, message.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read().decode()
    os.waitpid(pid, 0)
    return message


# --------------------------------------------------------------------------- migrations and files


@pytest.mark.parametrize("start", range(len(MIGRATIONS)))
def test_every_migration_from_empty(tmp_path: Path, start: int) -> None:
    """A database at any older version (0: empty) migrates to the latest, sound and complete."""
    path = tmp_path / "uno.db"
    with sqlite3.connect(path) as raw:
        for number in range(start):
            raw.executescript(MIGRATIONS[number])
        raw.execute(f"PRAGMA user_version = {start}")
    raw.close()
    run_sqlite(path, lambda s: s.load_tables())
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        names = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    raw.close()
    assert names >= TABLES


@pytest.mark.parametrize("existing", [False, True], ids=["no-file", "empty-file"])
def test_user_version_and_pragmas(tmp_path: Path, existing: bool) -> None:
    """A new database gets the latest user_version, WAL, synchronous=NORMAL, foreign keys."""
    path = tmp_path / "uno.db"
    if existing:
        path.write_bytes(b"")

    async def pragmas(s: SqliteStorage) -> list[Any]:
        assert s._db is not None  # the connection's own settings are only visible from it
        return [
            next(iter(await s._db.execute_fetchall(f"PRAGMA {name}")))[0]
            for name in (
                "user_version",
                "journal_mode",
                "synchronous",
                "foreign_keys",
                "busy_timeout",
            )
        ]

    assert run_sqlite(path, pragmas) == [len(MIGRATIONS), "wal", 1, 1, 5000]
    assert run_sqlite(path, pragmas)[0] == len(MIGRATIONS)  # reopening migrates nothing


def test_newer_database_refused_unchanged(tmp_path: Path) -> None:
    """A database from newer code is refused with a clear line, and not a byte changes."""
    path = tmp_path / "uno.db"
    make_database(path)
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    raw.close()
    before = files(tmp_path)
    message = open_error(path)
    assert "newer than this code" in message and str(path) in message
    assert "\n" not in message
    assert files(tmp_path) == before


def test_foreign_database_refused_unchanged(tmp_path: Path) -> None:
    """A database with tables but no schema version (someone else's) is refused unchanged."""
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE notes (body TEXT)")
    raw.close()
    before = files(tmp_path)
    assert "not this bot's" in open_error(path)
    assert files(tmp_path) == before


def _damaged_page(number: int) -> Any:
    """Damage: a real database with page ``number`` (1-based) overwritten with noise."""

    def damage(path: Path) -> None:
        make_database(path)
        data = bytearray(path.read_bytes())
        size = int.from_bytes(data[16:18], "big") or 65536
        start = (number - 1) * size
        data[start : start + size] = random.Random(7).randbytes(size)
        path.write_bytes(bytes(data))

    return damage


def _damaged_bytes(path: Path) -> None:
    """Damage: a real database with every 7th byte after its first page overwritten."""
    make_database(path)
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big") or 65536
    for i in range(size, len(data), 7):
        data[i] = 0xAB
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(b"this is not a database\n" * 100),
        lambda p: p.write_bytes(SQLITE_MAGIC + random.Random(1).randbytes(3 * 4096)),
        lambda p: p.write_bytes(SQLITE_MAGIC[:10]),
        _damaged_page(3),  # a table's root page: reading the schema or quick_check fails
        _damaged_page(5),  # an index page: quick_check reports it
        _damaged_bytes,  # damage all over: quick_check reports thousands of characters
    ],
    ids=[
        "text",
        "magic-then-noise",
        "truncated-header",
        "damaged-table",
        "damaged-index",
        "damaged-everywhere",
    ],
)
def test_corrupt_file_refused_unchanged(tmp_path: Path, damage: Any) -> None:
    """A corrupt or non-SQLite file is refused with one clear line, and not a byte changes."""
    path = tmp_path / "uno.db"
    damage(path)
    before = files(tmp_path)
    message = open_error(path)
    assert "not a database" in message or "corrupt" in message, message
    assert str(path) in message and "\n" not in message
    assert len(message) <= len(str(path)) + 400, f"not one short line: {len(message)} characters"
    assert files(tmp_path) == before


def test_missing_directory_refused(tmp_path: Path) -> None:
    """A database path in a directory that does not exist is refused, and nothing is created."""
    message = open_error(tmp_path / "nope" / "uno.db")
    assert "does not exist" in message
    assert not (tmp_path / "nope").exists()


def test_directory_path_refused(tmp_path: Path) -> None:
    """A database path naming a directory is refused."""
    (tmp_path / "uno.db").mkdir()
    assert "not a regular file" in open_error(tmp_path / "uno.db")


@pytest.mark.parametrize(
    ("dir_mode", "file_mode", "expected"),
    [(0o555, 0o644, "not writable"), (0o777, 0o444, "not readable and writable")],
    ids=["read-only-directory", "read-only-file"],
)
def test_unwritable_location_refused_unchanged(
    shared_tmp: Path, dir_mode: int, file_mode: int, expected: str
) -> None:
    """A directory or file this user cannot write is refused before anything changes."""
    path = shared_tmp / "uno.db"
    make_database(path)
    before = files(shared_tmp)
    path.chmod(file_mode)
    shared_tmp.chmod(dir_mode)
    try:
        message = open_error_as_nobody(path)
    finally:
        shared_tmp.chmod(0o755)
        path.chmod(0o644)
    assert expected in message and str(path) in message, message
    assert files(shared_tmp) == before


def test_background_checkpoints(tmp_path: Path) -> None:
    """The background connection copies the WAL into the database file while the bot runs."""
    path = tmp_path / "uno.db"

    async def main() -> tuple[int, int]:
        s = SqliteStorage(path, checkpoint_seconds=0.01)
        await s.open()
        try:
            empty = path.stat().st_size
            await asyncio.gather(*(s.save_table(GUILD, 40 + n, snapshot(n)) for n in range(50)))
            for _ in range(200):
                await asyncio.sleep(0.01)
                if path.stat().st_size > empty + 50 * 3_000:
                    break
            return empty, path.stat().st_size
        finally:
            await s.close()

    empty, full = asyncio.run(main())
    assert full > empty + 50 * 3_000  # the snapshots reached the file before close


def test_closed_storage_raises(tmp_path: Path) -> None:
    """Using a storage that is not open raises StorageError, not an SQLite error."""

    async def main() -> None:
        s = SqliteStorage(tmp_path / "uno.db")
        with pytest.raises(StorageError, match="not open"):
            await s.load_tables()
        await s.open()
        await s.close()
        await s.close()  # closing twice is harmless
        with pytest.raises(StorageError, match="not open"):
            await s.save_table(GUILD, 1, {})

    asyncio.run(main())


# --------------------------------------------------------------------------- channels and tables


def test_channel_settings_round_trip(storage: Backend) -> None:
    """Channel settings read back equal, are replaced by the next save, and survive a restart."""
    first = {"variant": "flip", "target_score": 250, "house_rules": ["stacking"], "x": None}
    second = {"variant": "classic", "turn_seconds": 0, "ai_delay_seconds": 1.5, "n": "ü"}

    async def save(s: Storage) -> None:
        assert await s.get_channel_settings(10) is None
        await s.set_channel_settings(GUILD, 10, first)
        await s.set_channel_settings(GUILD, 11, {"variant": "cars2"})
        assert await s.get_channel_settings(10) == first
        await s.set_channel_settings(GUILD, 10, second)

    storage.run(save)

    async def check(s: Storage) -> None:
        assert await s.get_channel_settings(10) == second
        assert await s.get_channel_settings(11) == {"variant": "cars2"}
        assert await s.get_channel_settings(12) is None

    storage.run(check)


def test_table_snapshot_round_trip_replace_delete(storage: Backend) -> None:
    """A snapshot reads back equal after a restart; saving again replaces it; delete removes it."""
    lobby = {"kind": "lobby", "channel_id": 20, "seats": [ANA], "options": {"partners": False}}

    async def save(s: Storage) -> None:
        await s.save_table(GUILD, 20, lobby)
        await s.save_table(GUILD, 21, snapshot(1))
        await s.save_table(GUILD, 20, snapshot(2, channel_id=20))  # the lobby became a game

    storage.run(save)

    async def check(s: Storage) -> None:
        tables = await s.load_tables()
        assert tables == [snapshot(2, channel_id=20), snapshot(1)]
        restored = Game.from_dict(tables[1]["game"])
        assert restored.to_dict() == snapshot(1)["game"]
        await s.delete_table(20)
        await s.delete_table(999)  # no such table: nothing happens

    storage.run(check)
    assert storage.run(lambda s: s.load_tables()) == [snapshot(1)]


def test_snapshot_not_json_safe_writes_nothing(storage: Backend) -> None:
    """A snapshot that is not JSON-safe (an object, a key that is not a string, a lone
    surrogate) raises before anything is written."""

    async def main(s: Storage) -> list[dict[str, Any]]:
        await s.save_table(GUILD, 30, {"v": 1})
        for bad in ({"v": object()}, {"v": {1: "one"}}, {"v": "\ud800"}):
            with pytest.raises((TypeError, ValueError)):
                await s.save_table(GUILD, 30, bad)
        return await s.load_tables()

    assert storage.run(main) == [{"v": 1}]


def test_load_tables_many_channels(storage: Backend) -> None:
    """load_tables returns every saved table once, from every guild."""

    async def main(s: Storage) -> list[dict[str, Any]]:
        for channel in range(40):
            await s.save_table(GUILD + channel % 3, 500 + channel, {"channel": 500 + channel})
        await s.delete_table(505)
        return await s.load_tables()

    tables = storage.run(main)
    assert sorted(t["channel"] for t in tables) == [500 + c for c in range(40) if c != 5]


# --------------------------------------------------------------------------- results


def test_results_round_trip(storage: Backend) -> None:
    """Rounds and games saved with the table are recorded exactly, with team keys, no-winner
    rounds and AI seats."""
    seats = [ANA, BEN, CY, "ai:1"]
    us, them = f"{ANA}+{CY}", f"{BEN}+ai:1"
    rounds = [
        rnd("p1", 1, us, 80, seats, variant="flip", scores={us: 80, them: 0}),
        rnd("p1", 2, None, 0, seats, variant="flip", scores={us: 80, them: 0}),
        rnd("p1", 3, them, 520, seats, variant="flip", scores={us: 80, them: 520}),
    ]
    final = game("p1", [them], seats, variant="flip", rounds=3, scores={us: 80, them: 520})

    async def main(s: Storage) -> None:
        await s.save_table(GUILD, 10, {"round": 2}, rounds[:1])
        await s.save_table(GUILD, 10, {"round": 3}, rounds[1:2])
        assert storage.results.rounds("p1") == rounds[:2]
        assert storage.results.game("p1") is None  # rounds recorded, game not finished yet
        await s.delete_table(10, [rounds[2], final])

    storage.run(main)
    assert storage.results.rounds("p1") == rounds
    assert storage.results.game("p1") == final
    assert storage.results.rounds("nope") == [] and storage.results.game("nope") is None


def test_results_commit_with_the_table_or_not_at_all(storage: Backend) -> None:
    """A table saved or deleted with its finished round and game records them in the same
    transaction: when the write fails, neither the table nor the results change."""
    bad = rnd("t1", 2, ANA, "lots", [ANA, BEN])  # type: ignore[arg-type]  # fails mid-transaction

    async def main(s: Storage) -> None:
        first = snapshot(1)
        await s.save_table(GUILD, 1001, first, [rnd("t1", 1, ANA, 40, [ANA, BEN])])
        assert [r.round_no for r in storage.results.rounds("t1")] == [1]
        with pytest.raises(StorageError):
            await s.save_table(GUILD, 1001, snapshot(1, note="moved"), [bad])
        assert await s.load_tables() == [first] and len(storage.results.rounds("t1")) == 1
        with pytest.raises((StorageError, ValueError)):
            await s.delete_table(1001, [game("t1", [ANA], [ANA, BEN], rounds=2), bad])
        assert await s.load_tables() == [first] and storage.results.game("t1") is None
        await s.delete_table(
            1001, [rnd("t1", 2, ANA, 500, [ANA, BEN]), game("t1", [ANA], [ANA, BEN], rounds=2)]
        )
        assert await s.load_tables() == [] and storage.results.game("t1") is not None
        assert (await s.stats(GUILD, ANA)).points == 540

    storage.run(main)


def test_recording_is_idempotent(storage: Backend) -> None:
    """A round or a game saved again with its table (a retry after a crash) is recorded once."""
    first, second = rnd("g1", 1, ANA, 40, [ANA, BEN]), rnd("g1", 2, ANA, 500, [ANA, BEN])
    final = game("g1", [ANA], [ANA, BEN], rounds=2)

    async def main(s: Storage) -> None:
        for _ in range(2):
            await s.save_table(GUILD, 10, {"round": 2}, [first])
            await s.delete_table(10, [second, final])
        await s.save_table(GUILD, 10, {"round": 3}, [first, second])  # both again, together
        # A different retry: the first record stays.
        await s.delete_table(10, [rnd("g1", 2, BEN, 7, [ANA, BEN]), game("g1", [BEN], [ANA, BEN])])
        assert storage.results.rounds("g1") == [first, second]
        assert storage.results.game("g1") == final
        stats = await s.stats(GUILD, ANA)
        counts = (stats.games_played, stats.games_won, stats.rounds_won, stats.points)
        assert counts == (1, 1, 2, 540)
        assert (await s.stats(GUILD, BEN)).games_played == 1

    storage.run(main)


def test_leaderboard_order_ai_excluded_by_variant(storage: Backend) -> None:
    """Games won then points rank the guild's humans; AI seats and other guilds are left out."""
    storage.run(league)
    board = storage.run(lambda s: s.leaderboard(GUILD))
    assert [(p.user_id, p.games_won, p.points) for p in board] == [
        (DEE, 2, 15),
        (CY, 1, 600),
        (ANA, 1, 530),
        (BEN, 1, 130),
    ]
    ben = board[3]
    assert (ben.games_played, ben.rounds_won, ben.win_rate) == (4, 2, 0.25)
    flip = storage.run(lambda s: s.leaderboard(GUILD, variant="flip"))
    assert [(p.user_id, p.games_played, p.games_won, p.points) for p in flip] == [
        (CY, 1, 1, 600),
        (ANA, 1, 0, 0),
        (BEN, 1, 0, 0),
    ]
    assert [p.user_id for p in storage.run(lambda s: s.leaderboard(GUILD, limit=2))] == [DEE, CY]
    assert storage.run(lambda s: s.leaderboard(GUILD, variant="cars2")) == []
    other = storage.run(lambda s: s.leaderboard(OTHER_GUILD))
    assert [(p.user_id, p.games_won, p.points) for p in other] == [(ANA, 3, 2997), (BEN, 0, 0)]


def test_partners_credit_both_members(storage: Backend) -> None:
    """A team's round and game win count for both partners."""

    async def main(s: Storage) -> list[tuple[str, int, int, int]]:
        seats = [ANA, BEN, CY, DEE]
        team, other = f"{ANA}+{CY}", f"{BEN}+{DEE}"
        scores = {team: 510, other: 0}
        await s.delete_table(
            10, [rnd("t1", 1, team, 510, seats, scores=scores), game("t1", [team], seats, scores=scores)]
        )
        board = await s.leaderboard(GUILD)
        return [(p.user_id, p.games_won, p.rounds_won, p.points) for p in board]

    assert storage.run(main) == [(ANA, 1, 1, 510), (CY, 1, 1, 510), (BEN, 0, 0, 0), (DEE, 0, 0, 0)]


def test_stats_per_variant(storage: Backend) -> None:
    """A player's stats add up their variants, in this guild only; a stranger has zeros."""
    storage.run(league)
    ana = storage.run(lambda s: s.stats(GUILD, ANA))
    counts = (ana.user_id, ana.games_played, ana.games_won, ana.rounds_won, ana.points)
    assert counts == (ANA, 2, 1, 2, 530)
    assert ana.win_rate == 0.5
    assert ana.by_variant == {
        "classic": {"games_played": 1, "games_won": 1, "rounds_won": 2, "points": 530},
        "flip": {"games_played": 1, "games_won": 0, "rounds_won": 0, "points": 0},
    }
    stranger = storage.run(lambda s: s.stats(GUILD, "999"))
    assert (stranger.games_played, stranger.win_rate, stranger.by_variant) == (0, 0.0, {})
    assert storage.run(lambda s: s.stats(OTHER_GUILD, ANA)).games_won == 3


def test_forget_user(storage: Backend) -> None:
    """A forgotten player's results stay counted, under an anonymous id; nothing names them."""
    storage.run(league)
    before = {p.user_id: p for p in storage.run(lambda s: s.leaderboard(GUILD))}
    # ana: games g1, g2 and three in the other guild; rounds 3 + 1 + 3.
    assert storage.run(lambda s: s.forget_user(ANA)) == 5 + 7
    after = {p.user_id: p for p in storage.run(lambda s: s.leaderboard(GUILD))}
    assert ANA not in after
    (anon,) = [u for u in after if u.startswith("forgotten:")]
    assert (after[anon].games_won, after[anon].points, after[anon].rounds_won) == (1, 530, 2)
    assert {u: p for u, p in after.items() if u != anon} == {u: p for u, p in before.items() if u != ANA}
    assert storage.run(lambda s: s.stats(GUILD, ANA)).games_played == 0
    g1 = storage.results.game("g1")
    assert g1 is not None and g1.winners == [anon] and g1.players == [anon, BEN, "ai:1"]
    assert [r.winner for r in storage.results.rounds("g1")] == [anon, BEN, anon]
    assert storage.run(lambda s: s.forget_user(ANA)) == 0  # nothing names them any more
    assert storage.run(lambda s: s.forget_user("555")) == 0  # never played
    assert storage.run(lambda s: s.forget_user(anon)) == 0

    async def again(s: Storage) -> tuple[int, int]:
        await play(s, "g7", [(ANA, 20)], [ANA], [ANA, BEN])
        fresh = await s.stats(GUILD, ANA)
        return fresh.games_played, fresh.points

    assert storage.run(again) == (1, 20)  # playing again starts a new record


def test_concurrent_writers(storage: Backend) -> None:
    """Fifty tables saving (some saves with results) and reading at once all land, with their
    last state, each result once."""

    async def table(s: Storage, n: int) -> None:
        channel, seats = 3000 + n, [f"{n}", "ai:1"]
        results: dict[int, list[RoundResult | GameResult]] = {
            2: [rnd(f"c{n}", 1, f"{n}", n, seats, channel=channel)],
            4: [game(f"c{n}", [f"{n}"], seats, channel=channel)],
        }
        for version in range(5):
            await s.save_table(
                GUILD, channel, {"channel": channel, "version": version}, results.get(version, [])
            )
            await asyncio.sleep(0)
        await s.leaderboard(GUILD)

    async def main(s: Storage) -> None:
        await asyncio.gather(*(table(s, n) for n in range(50)))

    storage.run(main)
    tables = storage.run(lambda s: s.load_tables())
    assert sorted((t["channel"], t["version"]) for t in tables) == [(3000 + n, 4) for n in range(50)]
    board = storage.run(lambda s: s.leaderboard(GUILD, limit=100))
    assert len(board) == 50 and all(p.games_won == 1 and p.rounds_won == 1 for p in board)
    assert sum(p.points for p in board) == sum(range(50))


def test_close_writes_queued_snapshots(storage: Backend) -> None:
    """Saves still in flight when the bot shuts down are written before close returns."""

    async def main(s: Storage) -> None:
        pending = [asyncio.ensure_future(s.save_table(GUILD, 700 + n, {"n": n})) for n in range(30)]
        await asyncio.sleep(0)  # the saves are queued, not yet all written
        await s.close()
        await asyncio.gather(*pending)

    storage.run(main)
    assert sorted(t["n"] for t in storage.run(lambda s: s.load_tables())) == list(range(30))


def test_close_finishes_when_cancelled(storage: Backend) -> None:
    """A close cancelled on its way (a second Ctrl+C or SIGTERM) still writes the queued saves and
    closes; the cancellation is raised after."""

    async def main(s: Storage) -> None:
        pending = [asyncio.ensure_future(s.save_table(GUILD, 800 + n, {"n": n})) for n in range(30)]
        await asyncio.sleep(0)
        closing = asyncio.ensure_future(s.close())
        for _ in range(5):  # cancelled again and again while it closes
            await asyncio.sleep(0)
            closing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await closing
        await asyncio.gather(*pending)
        with pytest.raises(StorageError, match="not open"):
            await s.load_tables()

    storage.run(main)
    assert sorted(t["n"] for t in storage.run(lambda s: s.load_tables())) == list(range(30))


def test_bad_id_fails_alone(storage: Backend) -> None:
    """A save with a bad channel id fails by itself; the saves written with it still land."""

    async def main(s: Storage) -> list[dict[str, Any]]:
        good = [s.save_table(GUILD, 800 + n, {"n": n}) for n in range(5)]
        bad = s.save_table(GUILD, 2**64, {"n": -1})
        results = await asyncio.gather(*good, bad, return_exceptions=True)
        assert results[:5] == [None] * 5 and isinstance(results[5], ValueError)
        return await s.load_tables()

    assert [t["n"] for t in storage.run(main)] == list(range(5))
