"""The results and records queries: finished rounds and games written, counted and anonymized.

Every function runs on a connection the caller holds (:meth:`SqlStorage._connection.use
<bot.storage.sql.SqlConnection.use>`), inside the caller's transaction when it writes: the caller
decides what commits together (a table's snapshot with the results it just finished). The SQL is
the one both backends read (:class:`~bot.storage.common.Db`).

Players are rows of ``people`` (an integer id and their user id). Results refer to that row, so
:func:`forget_user` renames one row to ``forgotten:<n>``: every result stays counted, and nothing
names the user any more. A record's players, winners and scores are kept as JSON with people ids
(``[[3, 4], 120]`` is team ``"a+b"`` with 120 points) so that it reads back exactly (the storage
tests read it); ``game_players`` and ``round_players`` hold who played and who won, for the
leaderboard's SQL.
"""

from __future__ import annotations

import time
from typing import Any

import orjson

from bot.storage import FORGOTTEN_NAME, GameRecord, GameResult, PlayerGame, PlayerStats, Result, RoundResult
from bot.storage.common import Db, dumps, scalar

__all__ = [
    "FORGOTTEN",
    "forget_user",
    "games",
    "insert_result",
    "leaderboard",
    "recent_games",
    "stats",
]

FORGOTTEN = "forgotten:"
_AI = "ai:"

# One row per (person, played, won, rounds won, points) fact, for the leaderboard and stats:
# a finished game they sat in, or a round they (or their team) won. The two ``?`` triples are the
# guild and the variant twice (None: every variant; the CAST tells PostgreSQL the mark's type).
_DECIDED = "EXISTS (SELECT 1 FROM game_players AS w WHERE w.game = g.id AND w.won = 1)"
"""Whether the game ``g`` had a winner: one ended with none (``/uno end``, an idle game, a thread
gone) counts in no one's games played, won or lost; its finished rounds still count (docs/playing.md,
"/uno leaderboard, /uno stats")."""
_FACTS = f"""
    SELECT gp.person AS person, g.variant AS variant,
           CASE WHEN {_DECIDED} THEN 1 ELSE 0 END AS played, gp.won AS won, 0 AS rounds_won, 0 AS points
    FROM game_players AS gp JOIN games AS g ON g.id = gp.game
    WHERE g.guild_id = ? AND (CAST(? AS TEXT) IS NULL OR g.variant = ?)
    UNION ALL
    SELECT rp.person, r.variant, 0, 0, 1, r.points
    FROM round_players AS rp
    JOIN rounds AS r ON r.game = rp.game AND r.round_no = rp.round_no
    WHERE rp.won = 1 AND r.guild_id = ? AND (CAST(? AS TEXT) IS NULL OR r.variant = ?)
"""


def _members(key: str) -> list[str]:
    """The player ids in a score key: ``"a"`` or a team ``"a+b"``.

    >>> _members("101+103")
    ['101', '103']
    """
    return key.split("+")


def _everyone(result: Result, winners: set[str]) -> list[str]:
    """Every player id a result names (seats, then score keys' members, then winners, then those
    who left), once each and in that order."""
    keys = (m for k in result.scores for m in _members(k))
    return list(dict.fromkeys([*result.players, *keys, *sorted(winners), *result.left]))


def _credited(result: Result, winners: set[str]) -> set[str]:
    """Who a win counts for: the winning keys' members but those who had left (docs/rules.md
    §5.1, §5.3: their team's win after they left is not theirs).

    >>> _credited(RoundResult("g", 1, 2, 1, "classic", "a+c", 0, {}, ["a", "b", "c", "d"], ["a"]), {"a", "c"})
    {'c'}
    """
    return winners - set(result.left)


def _encode(ids: dict[str, int], key: str) -> list[int]:
    """A score key as the people ids of its members (``"a+b"`` -> ``[3, 4]``)."""
    return [ids[m] for m in _members(key)]


# ---------------------------------------------------------------------- writing results


async def insert_result(db: Db, result: Result) -> None:
    """Record a finished round or game inside the caller's transaction.

    Idempotent: a round already recorded (same game_id and round_no), or a game already
    finished (same game_id), is left as it is (the first one stays). Every member of a
    winning key (the player, or both partners) is credited with the round and its points, or
    the game, but one who had left it (``result.left``, who played it all the same).

    Raises:
        sqlite3.Error, asyncpg.PostgresError: a write failed (the caller rolls back).
        TypeError, ValueError: points or a score that is not a number (the caller rolls back).
    """
    if isinstance(result, RoundResult):
        await _insert_round(db, result)
    else:
        await _insert_game(db, result)


async def _insert_round(db: Db, result: RoundResult) -> None:
    """Write a round's result inside the caller's transaction (nothing if it is there)."""
    winners = set(_members(result.winner)) if result.winner is not None else set()
    everyone = _everyone(result, winners)
    if await scalar(
        db,
        "SELECT count(*) FROM rounds AS r JOIN games AS g ON g.id = r.game "
        "WHERE g.game_id = ? AND r.round_no = ?",
        (result.game_id, result.round_no),
    ):
        return
    ids = await _people(db, everyone)
    credited = _credited(result, winners)
    game = await _game_row(db, result.game_id, result.guild_id, result.channel_id, result.variant)
    stored = {
        "players": [ids[p] for p in result.players],
        "winner": None if result.winner is None else _encode(ids, result.winner),
        "scores": [[_encode(ids, k), int(s)] for k, s in result.scores.items()],
        "left": [ids[p] for p in result.left],
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
            dumps(stored),
            time.time(),
        ),
    )
    await db.executemany(
        "INSERT INTO round_players (game, round_no, person, won) VALUES (?, ?, ?, ?)",
        [(game, result.round_no, ids[p], int(p in credited)) for p in everyone],
    )


async def _insert_game(db: Db, result: GameResult) -> None:
    """Write a game's result inside the caller's transaction (nothing if it is there)."""
    winners = {m for key in result.winners for m in _members(key)}
    everyone = _everyone(result, winners)
    if await scalar(
        db,
        "SELECT count(*) FROM games WHERE game_id = ? AND finished_at IS NOT NULL",
        (result.game_id,),
    ):
        return
    ids = await _people(db, everyone)
    credited = _credited(result, winners)
    game = await _game_row(db, result.game_id, result.guild_id, result.channel_id, result.variant)
    stored = {
        "players": [ids[p] for p in result.players],
        "winners": [_encode(ids, k) for k in result.winners],
        "scores": [[_encode(ids, k), int(s)] for k, s in result.scores.items()],
        "left": [ids[p] for p in result.left],
    }
    await db.execute_fetchall(
        "UPDATE games SET rounds = ?, result = ?, finished_at = ?, parent_id = ? WHERE id = ?",
        (result.rounds, dumps(stored), time.time(), result.parent_id, game),
    )
    await db.executemany(
        "INSERT INTO game_players (game, person, won) VALUES (?, ?, ?)",
        [(game, ids[p], int(p in credited)) for p in everyone],
    )
    if result.replay is not None:
        await db.execute_fetchall(
            "INSERT INTO game_replays (game, replay) VALUES (?, ?)", (game, dumps(result.replay))
        )


async def _people(db: Db, user_ids: list[str]) -> dict[str, int]:
    """The ``people`` id of each user id, adding the new ones."""
    await db.executemany(
        "INSERT INTO people (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING",
        [(u,) for u in user_ids],
    )
    ids: dict[str, int] = {}
    # 500 ids per query: under SQLite's limit on parameters (999 before 3.32).
    for start in range(0, len(user_ids), 500):
        chunk = user_ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        rows = await db.execute_fetchall(f"SELECT user_id, id FROM people WHERE user_id IN ({marks})", chunk)
        ids.update((u, i) for u, i in rows)
    return ids


async def _game_row(db: Db, game_id: str, guild_id: int, channel_id: int, variant: str) -> int:
    """The ``games`` id of ``game_id``, adding an unfinished game if it is new."""
    await db.execute_fetchall(
        "INSERT INTO games (game_id, guild_id, channel_id, variant, started_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
        (game_id, guild_id, channel_id, variant, time.time()),
    )
    return await scalar(db, "SELECT id FROM games WHERE game_id = ?", (game_id,))


# ---------------------------------------------------------------------- counting them


async def leaderboard(db: Db, guild_id: int, variant: str | None, limit: int) -> list[PlayerStats]:
    """The guild's best ``limit`` players by games won, then points (AI seats excluded).

    Ties then go to more rounds won, fewer games played, then user id. Forgotten players
    stay ranked, as ``forgotten:<n>``. A player is ranked once they have played a game with a
    winner, won a round or scored points: one whose only games ended with no winner is ranked by
    the rounds and points they won in them (0 games played, a win rate of 0); one who has none
    of the three is not. ``variant`` None counts every variant.

    Raises:
        sqlite3.Error, asyncpg.PostgresError: the query failed.
    """
    rows = await db.execute_fetchall(
        "SELECT p.user_id, sum(f.played) AS played, sum(f.won) AS won, "
        "sum(f.rounds_won) AS rounds_won, sum(f.points) AS points "
        f"FROM ({_FACTS}) AS f JOIN people AS p ON p.id = f.person "
        "WHERE substr(p.user_id, 1, 3) <> ? "
        "GROUP BY p.id, p.user_id "
        "HAVING sum(f.played) > 0 OR sum(f.rounds_won) > 0 OR sum(f.points) > 0 "
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


async def stats(db: Db, guild_id: int, user_id: str) -> PlayerStats:
    """One player's record in the guild, with the same counts per variant (all zero if new).

    Raises:
        sqlite3.Error, asyncpg.PostgresError: the query failed.
    """
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


async def recent_games(db: Db, guild_id: int, user_id: str, limit: int) -> list[PlayerGame]:
    """The player's last ``limit`` finished games in the guild, oldest first, each with the
    points of the rounds they won in it, and whether it had a winner.

    Raises:
        sqlite3.Error, asyncpg.PostgresError: the query failed.
    """
    rows = await db.execute_fetchall(
        f"SELECT g.finished_at, g.variant, gp.won, {_DECIDED}, coalesce(("
        "  SELECT sum(r.points) FROM round_players AS rp"
        "  JOIN rounds AS r ON r.game = rp.game AND r.round_no = rp.round_no"
        "  WHERE rp.game = g.id AND rp.person = gp.person AND rp.won = 1), 0) "
        "FROM game_players AS gp JOIN games AS g ON g.id = gp.game "
        "JOIN people AS p ON p.id = gp.person "
        "WHERE g.guild_id = ? AND p.user_id = ? AND g.finished_at IS NOT NULL "
        "ORDER BY g.finished_at DESC, g.id DESC LIMIT ?",
        (guild_id, user_id, limit),
    )
    return [
        PlayerGame(float(at), str(variant), bool(won), int(points), bool(decided))
        for at, variant, won, decided, points in rows
    ][::-1]


# ---------------------------------------------------------------------- reading games


async def games(
    db: Db, *, channel_id: int | None = None, game_id: str | None = None, limit: int | None = None
) -> list[GameRecord]:
    """Finished games, newest first, each with its replay (None where none was kept): those of
    ``channel_id`` (played there, or in a thread of its own started there) and/or the one
    ``game_id`` (None: any), at most ``limit`` (None: all).

    Raises:
        sqlite3.Error, asyncpg.PostgresError: the query failed.
        orjson.JSONDecodeError, KeyError: a record that isn't as written (a damaged row).
    """
    rows = await db.execute_fetchall(
        "SELECT g.game_id, g.guild_id, g.channel_id, g.variant, g.rounds, g.result, g.finished_at, "
        "r.replay, g.parent_id FROM games AS g LEFT JOIN game_replays AS r ON r.game = g.id "
        "WHERE g.finished_at IS NOT NULL "
        "AND (CAST(? AS BIGINT) IS NULL OR g.channel_id = ? OR g.parent_id = ?) "
        "AND (CAST(? AS TEXT) IS NULL OR g.game_id = ?) "
        "ORDER BY g.finished_at DESC, g.id DESC" + ("" if limit is None else " LIMIT ?"),
        (channel_id, channel_id, channel_id, game_id, game_id, *([] if limit is None else [limit])),
    )
    names: dict[int, str] = {}
    if rows:
        names.update((i, u) for i, u in await db.execute_fetchall("SELECT id, user_id FROM people"))

    def key(members: list[int]) -> str:
        return "+".join(names[m] for m in members)

    records = []
    for gid, guild, channel, variant, rounds, text, finished_at, replay, parent in rows:
        stored = orjson.loads(text)
        result = GameResult(
            game_id=gid,
            guild_id=guild,
            channel_id=channel,
            variant=variant,
            winners=[key(k) for k in stored["winners"]],
            scores={key(k): int(v) for k, v in stored["scores"]},
            players=[names[p] for p in stored["players"]],
            rounds=int(rounds or 0),
            replay=orjson.loads(replay) if replay is not None else None,
            parent_id=parent,
            left=[names[p] for p in stored.get("left", ())],  # none before they were kept
        )
        records.append(GameRecord(result, float(finished_at)))
    return records


# ---------------------------------------------------------------------- forget me


async def forget_user(db: Db, user_id: str) -> int:
    """Rename the user to ``forgotten:<n>`` in every result, inside the caller's transaction
    (the count and the rename must see the same rows).

    Returns:
        How many game and round records no longer name them (0: none named them).

    Raises:
        sqlite3.Error, asyncpg.PostgresError: a query failed (the caller rolls back).
    """
    person = await scalar(db, "SELECT id FROM people WHERE user_id = ?", (user_id,))
    if not person:
        return 0
    records = await scalar(
        db,
        "SELECT (SELECT count(*) FROM game_players WHERE person = ?) "
        "+ (SELECT count(*) FROM round_players WHERE person = ?)",
        (person, person),
    )
    await db.execute_fetchall(
        "UPDATE people SET user_id = CAST(? AS TEXT) || id WHERE id = ?", (FORGOTTEN, person)
    )
    replays = await db.execute_fetchall(
        "SELECT r.game, r.replay FROM game_replays AS r JOIN game_players AS gp ON gp.game = r.game "
        "WHERE gp.person = ?",
        (person,),
    )
    await db.executemany(
        "UPDATE game_replays SET replay = ? WHERE game = ?",
        [
            (dumps(_forgotten(orjson.loads(text), user_id, f"{FORGOTTEN}{person}")), game)
            for game, text in replays
        ],
    )
    return records


def _forgotten(replay: dict[str, Any], user_id: str, new_id: str) -> dict[str, Any]:
    """A replay with ``user_id`` renamed ``new_id`` (its seat, the actions that target it, in
    DOS's journal, which names each entry's player, its entries, and a seat they handed to a bot)
    and their name :data:`FORGOTTEN_NAME`; the game replays the same (the engine reads ids as
    mere names).

    >>> _forgotten({"players": ["7", "ai:1"], "names": ["Ana", "Bot 1"],
    ...             "journal": [[None, "deal"], [1, "catch target=7"]]}, "7", "forgotten:3")
    {'players': ['forgotten:3', 'ai:1'], 'names': ['a former player', 'Bot 1'], 'journal': [[None, 'deal'], [1, 'catch target=forgotten:3']], 'handovers': []}
    >>> _forgotten({"players": ["8", "ai:2"], "names": ["Ben", "Bot 2 (for Ana)"], "journal": [],
    ...             "handovers": [{"seat": "ai:2", "player": "7", "name": "Ana", "at": 4}]},
    ...            "7", "forgotten:3")
    {'players': ['8', 'ai:2'], 'names': ['Ben', 'Bot 2 (for a former player)'], 'journal': [], 'handovers': [{'seat': 'ai:2', 'player': 'forgotten:3', 'name': 'a former player', 'at': 4}]}
    >>> _forgotten({"players": ["7", "8"], "names": ["Ana", "Ben"],
    ...             "journal": [[None, "deal"], ["7", "draw"]]}, "7", "forgotten:3")["journal"]
    [[None, 'deal'], ['forgotten:3', 'draw']]
    """
    seats = [new_id if p == user_id else p for p in replay["players"]]
    names = [
        FORGOTTEN_NAME if p == user_id else n for p, n in zip(replay["players"], replay["names"], strict=True)
    ]
    target = f"target={user_id}"
    journal = [
        [
            new_id if seat == user_id else seat,
            " ".join(f"target={new_id}" if word == target else word for word in text.split(" ")),
        ]
        for seat, text in replay["journal"]
    ]
    handovers = [
        {**h, "player": new_id, "name": FORGOTTEN_NAME} if h["player"] == user_id else h
        for h in replay.get("handovers", ())
    ]
    for h in replay.get("handovers", ()):  # the bot's name said whose seat it took: no longer
        if h["player"] == user_id and h["seat"] in seats:
            names[seats.index(h["seat"])] = f"Bot {h['seat'][3:]} (for {FORGOTTEN_NAME})"
    return {**replay, "players": seats, "names": names, "journal": journal, "handovers": handovers}
