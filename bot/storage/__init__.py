"""Storage behind a small repository interface, so that another backend can take its place.

:class:`Storage` is what the bot needs; :mod:`bot.storage.sqlite` implements it with aiosqlite
(one process, the default) and :mod:`bot.storage.postgres` with asyncpg (several processes on one
database), both through :class:`bot.storage.sql.SqlStorage` and the shared queries of
:mod:`bot.storage.records`, with the one numbered list of migrations of
:mod:`bot.storage.migrations`; they run the same tests (``tests/storage/``).
:func:`bot.storage.choose.make_storage` picks one from the ``database.url`` setting.

Records are plain JSON-safe dicts and small dataclasses, so a backend needs no engine types.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

FORGOTTEN_NAME = "a former player"
"""A forgotten player's name in the replays that named them (``/uno forget-me``), stored in
English like every seat's name and said in the reader's words (`bot.render.names.seat_name`)."""


class StorageError(Exception):
    """The database cannot be used (corrupt, unwritable, newer than this code); one clear line."""


class LeaseError(StorageError):
    """A table's lease is held by another owner (another bot process acts on it): nothing of this
    call was written (:meth:`Storage.acquire_tables`)."""


@dataclass(frozen=True)
class RoundResult:
    """One finished round.

    Attributes:
        game_id: the game's id (unique across the database).
        guild_id, channel_id: where it was played.
        round_no: 1, 2, ...
        variant: variant id.
        winner: the round's winner (player id, or a team ``"a+b"``), None if nobody went out.
        points: points the winner scored this round (standard scoring; else 0).
        scores: running score per player or team after the round.
        players: player ids at the table (AI seats included, ids starting ``ai:``).
        left: the players who had left the game by the round's end, by themselves, removed, or
            with a bot in their seat (they are then no longer among ``players``; docs/rules.md
            §5.1, §5.3): they played it, and their team's win is not theirs.
    """

    game_id: str
    guild_id: int
    channel_id: int
    round_no: int
    variant: str
    winner: str | None
    points: int
    scores: dict[str, int]
    players: list[str]
    left: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class GameResult:
    """One finished game (same fields as a round, with the game's winners).

    Attributes:
        left: the players who had left it by its end (as :attr:`RoundResult.left`): each
            played it and won none of it, whoever won for their team.
        rounds: the rounds it finished (an abandoned round doesn't count).
        replay: what replays it (``Game.replay`` reads it): ``variant``, ``options``, ``seed``,
            ``players`` (ids in seat order), ``journal`` (``[seat index or null, action text]``
            per version), ``names`` (each seat's name as shown then, in seat order) and
            ``handovers`` (the seats bots took over: ``{"seat", "player", "name", "at"}``, as
            ``bot.tables.Handover``; none in games recorded before they were kept); None
            when its journal is unknown (a game saved before journals were kept).
        parent_id: for a game played in a thread of its own (``channel_id``), the channel the
            thread belongs to (``/uno history`` there lists it); None otherwise, and for a game
            recorded before parents were kept.
    """

    game_id: str
    guild_id: int
    channel_id: int
    variant: str
    winners: list[str]
    scores: dict[str, int]
    players: list[str]
    rounds: int
    replay: dict[str, Any] | None = None
    parent_id: int | None = None
    left: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class GameRecord:
    """A recorded game as ``/uno history`` lists it.

    Attributes:
        result: the game's result, with its replay (None if not kept).
        finished_at: when it was recorded (seconds since the epoch, ``time.time()``).
    """

    result: GameResult
    finished_at: float


@dataclass(frozen=True)
class PlayerStats:
    """A player's record in one guild (optionally one variant).

    Attributes:
        user_id: Discord user id as text.
        games_played, games_won, rounds_won: counts.
        points: total points scored in rounds they won (standard scoring).
        win_rate: games_won / games_played (0.0 with no games).
        by_variant: the same counts per variant id (only in ``stats``).
    """

    user_id: str
    games_played: int
    games_won: int
    rounds_won: int
    points: int
    win_rate: float
    by_variant: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerGame:
    """One finished game as one player lived it (``/uno stats``'s recent results and chart).

    Attributes:
        finished_at: when it was recorded (seconds since the epoch).
        variant: the edition's id.
        won: whether the player (or their team) won it.
        points: the points the player scored in it (the rounds they won; 0 in single-round
            scoring).
        decided: False for a game ended with no winner (``/uno end``, idle, its thread gone):
            neither won nor lost.
    """

    finished_at: float
    variant: str
    won: bool
    points: int
    decided: bool = True


Result: TypeAlias = RoundResult | GameResult
"""A finished round or game, as :meth:`Storage.save_table` and :meth:`Storage.delete_table` record it."""


class Storage(Protocol):
    """What the bot stores. Every method may raise :class:`StorageError`.

    Attributes:
        owner: this storage's owner id in table leases (:meth:`acquire_tables`): unique per
            process and start (host, pid and a random part unless given).
    """

    owner: str

    async def open(self) -> None:
        """Connect and apply migrations (refuse a database newer than this code)."""

    async def close(self) -> None:
        """Flush and close."""

    async def get_channel_settings(self, channel_id: int) -> dict[str, Any] | None:
        """The channel's saved defaults (a JSON object), or None."""

    async def set_channel_settings(self, guild_id: int, channel_id: int, settings: dict[str, Any]) -> None:
        """Save the channel's defaults (replaces them)."""

    async def save_table(
        self, guild_id: int, channel_id: int, snapshot: dict[str, Any], results: Sequence[Result] = ()
    ) -> None:
        """Save a table in progress (lobby or game) as one JSON object, replacing the last one;
        record ``results`` (rounds it just finished) in the same transaction: both or neither.

        A result already recorded (a round by game_id and round_no, a game by game_id; a retry
        after a crash) is not recorded again: the first one stays. Raises :class:`LeaseError`
        (nothing written) while another owner holds the table's lease (:meth:`acquire_tables`)."""

    async def load_tables(self) -> list[dict[str, Any]]:
        """Every saved table snapshot, for restoring after a restart. A row that can't be read
        comes as ``{"channel_id": int, "guild_id": int, "unreadable": str}`` (the reason), so one
        bad row never stops the others from being restored; the row stays until a new table
        replaces it or :meth:`delete_table` clears it."""

    async def delete_table(self, channel_id: int, results: Sequence[Result] = ()) -> None:
        """Forget a table (game over, ended, lobby expired); record ``results`` (its last round
        and the game) in the same transaction: both or neither (once, as with ``save_table``);
        :class:`LeaseError` as with ``save_table``."""

    async def leaderboard(
        self, guild_id: int, *, variant: str | None = None, limit: int = 10
    ) -> list[PlayerStats]:
        """The guild's best human players, by games won then points (AI seats excluded)."""

    async def stats(self, guild_id: int, user_id: str) -> PlayerStats:
        """One player's record in the guild, with per-variant counts."""

    async def recent_games(self, guild_id: int, user_id: str, limit: int = 30) -> list[PlayerGame]:
        """The player's last ``limit`` finished games in the guild, oldest first."""

    async def history(self, channel_id: int | None, limit: int | None = 10) -> list[GameRecord]:
        """The channel's last recorded games (None: every channel's), newest first, at most
        ``limit`` (None: all), each with its replay."""

    async def game(self, game_id: str) -> GameRecord | None:
        """One recorded game, with its replay; None if no finished game has that id."""

    async def acquire_tables(self, channel_ids: Sequence[int], seconds: float) -> set[int]:
        """Take the lease of each table (by channel id) for :attr:`owner`, for ``seconds`` from now.

        A lease says which bot process acts on a table: while another owner holds it, saving or
        deleting that table here raises :class:`LeaseError` and writes nothing. A lease is
        granted when it is free, already this owner's, or expired (its old owner died or lost
        touch: taking it over makes that owner's :meth:`renew_tables` leave it out). Take a table
        before restoring or creating it, keep it with :meth:`renew_tables` well within
        ``seconds``, and give it up with :meth:`release_tables` when the process stops serving it.
        An expired lease nobody took over still refuses other owners' writes: take it first.

        On PostgreSQL leases are rows with an expiry by the database's clock, so processes on
        different machines agree; a lease whose owner's process is gone (its connections closed:
        it died, or closed its storage) is free at once, not only once expired. On SQLite one process holds the whole database (its lock file),
        so every table is granted.

        Args:
            channel_ids: the tables' channels (a table need not be saved yet).
            seconds: how long the lease lasts unless renewed (> 0).

        Returns:
            The channel ids now held by this owner (those held by another owner, not expired,
            are left out: do not act on them).
        """

    async def renew_tables(self, seconds: float) -> set[int]:
        """Extend every lease :attr:`owner` still holds to ``seconds`` from now (one statement,
        however many tables); the channel ids still held. A table missing from the answer was
        taken over by another owner after its lease expired: stop acting on it (drop it from
        memory; its new owner restores it from the database)."""

    async def release_tables(self, channel_ids: Sequence[int]) -> None:
        """Give up :attr:`owner`'s leases of these tables (those it does not hold are left as
        they are), so another process may take them at once rather than after they expire."""

    async def forget_user(self, user_id: str) -> int:
        """Remove a user's name from every record (results stay counted; in replays their id
        becomes ``forgotten:<n>`` and their name "a former player"); returns rows changed."""
