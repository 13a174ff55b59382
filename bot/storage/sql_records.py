""":class:`SqlRecords`: the results calls of :class:`~bot.storage.sql.SqlStorage` (the leaderboard,
a player's stats and recent games, the recorded games with their replays, forgetting a player),
each on one connection of the backend's :class:`~bot.storage.sql.SqlConnection`, answered by the
queries of :mod:`bot.storage.records`. Results are written with the tables they finish
(:meth:`SqlStorage.save_table <bot.storage.sql.SqlStorage.save_table>`, ``delete_table``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from bot.storage import GameRecord, PlayerGame, PlayerStats, StorageError, records

if TYPE_CHECKING:
    from bot.storage.sql import SqlConnection

__all__ = ["SqlRecords"]


class SqlRecords:
    """The results half of :class:`~bot.storage.Storage` on an SQL database: a base of
    :class:`~bot.storage.sql.SqlStorage`, which sets the backend's connection and how errors
    name the database."""

    _connection: SqlConnection
    _where: str  # the database as errors name it

    async def leaderboard(
        self, guild_id: int, *, variant: str | None = None, limit: int = 10
    ) -> list[PlayerStats]:
        """The guild's best players by games won, then points (AI seats excluded).

        Ties then go to more rounds won, fewer games played, then user id. Forgotten players
        stay ranked, as ``forgotten:<n>``. A ``limit`` under 1 gives an empty list.

        Raises:
            StorageError: not open, or the database failed.
        """
        if limit < 1:
            return []
        async with self._connection.use() as db:
            return await records.leaderboard(db, guild_id, variant, limit)

    async def stats(self, guild_id: int, user_id: str) -> PlayerStats:
        """One player's record in the guild, with the same counts per variant (all zero if new).

        Raises:
            StorageError: not open, or the database failed.
        """
        async with self._connection.use() as db:
            return await records.stats(db, guild_id, user_id)

    async def recent_games(self, guild_id: int, user_id: str, limit: int = 30) -> list[PlayerGame]:
        """The player's last ``limit`` finished games in the guild, oldest first, with the
        points they scored in each.

        Raises:
            StorageError: not open, or the database failed.
        """
        async with self._connection.use() as db:
            return await records.recent_games(db, guild_id, user_id, limit)

    async def history(self, channel_id: int | None, limit: int | None = 10) -> list[GameRecord]:
        """The channel's last recorded games (None: every channel's), newest first, at most
        ``limit`` (None: all; under 1: none), each with its replay (None where none was kept).

        Raises:
            StorageError: not open, the database failed, or a record can't be read.
        """
        if limit is not None and limit < 1:
            return []
        return await self._games(channel_id=channel_id, limit=limit)

    async def game(self, game_id: str) -> GameRecord | None:
        """One recorded game with its replay; None if no finished game has that id.

        Raises:
            StorageError: not open, the database failed, or the record can't be read.
        """
        found = await self._games(game_id=game_id)
        return found[0] if found else None

    async def _games(self, **where: Any) -> list[GameRecord]:
        async with self._connection.use() as db:
            try:
                return await records.games(db, **where)
            except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise StorageError(f"{self._where}: a game record can't be read: {exc!r}") from None

    async def forget_user(self, user_id: str) -> int:
        """Rename the user to ``forgotten:<n>`` in every result; the results stay counted.

        Their seats in stored replays are renamed too (id ``forgotten:<n>``, name "a former
        player"). Snapshots of tables in progress and channel settings are not rewritten: the bot should
        take the player out of any table first. Results recorded after this name them again
        (a new record).

        Returns:
            How many game and round records no longer name them (0: none named them).

        Raises:
            StorageError: not open, the file was deleted or replaced since it was opened, or
                the database failed (nothing changes).
        """
        if user_id.startswith(records.FORGOTTEN):
            return 0
        async with self._connection.use(transaction=True) as db:
            return await records.forget_user(db, user_id)
