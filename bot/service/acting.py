"""Acting on a table: validate, apply, save, all under the table's lock, or nothing at all.

One idiom for every change, the lobby's and the game's, a player's and a computer's:

    async with acting.change(channel_id) as change:
        events = change.table.game.apply(player, action)  # the engine refuses, nothing changes
        change.played(events)                               # log, score, next round
    publish(change)                                         # Discord, after the lock

At the end of the block the table is saved (or, once it is over, deleted with its results) in
one transaction. If that save fails, the table goes back to its last saved state and
:class:`NotSaved` is raised: nothing is lost and nothing half-made is kept. So does a block that
raises (a refusal after a partial change, or a bug) having changed the table: it goes back to its
last saved state, and the exception goes on. The block makes no
Discord call; what the change leaves to say in the channel (a round's summary, the standings) is
collected in :attr:`Change.posts` and said once the lock is released.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot import render
from bot.engine.errors import UnoError
from bot.engine.events import Event
from bot.engine.scoring import next_round
from bot.i18n import Tr, translator
from bot.service.registry import TableRegistry
from bot.storage import GameResult, Result, RoundResult, Storage, StorageError
from bot.tables import Table, TableState

log = logging.getLogger(__name__)


class NotSaved(UnoError):
    """The move could not be saved, so it was not made (the table is as before it)."""

    reason = "not-saved"
    default_message = "The table couldn't be saved just now, so nothing was changed. Please try again."

    @classmethod
    def logged(cls, channel_id: int, exc: StorageError) -> NotSaved:
        """The refusal for a change of the channel's table that storage refused with ``exc``,
        logged at ERROR (the bot's operator must know: a full disk, a deleted file...)."""
        log.error("table %s: could not save a change: %s", channel_id, exc)
        return cls()


@dataclass
class Post:
    """A message for the table's channel, said after the change: ``content`` with a ``view`` of
    its components, or a Components V2 ``view`` alone (a `discord.ui.LayoutView`: the standings)."""

    content: str | None = None
    view: discord.ui.View | discord.ui.LayoutView | None = None


@dataclass
class Change:
    """One change of a table in progress (see the module's docstring).

    Attributes:
        table: the channel's table, to change in place.
        before: its snapshot as last saved (the rollback's state).
        results: rounds and the game to record with the save.
        posts: what to say in the channel once the lock is released.
        closed: the change ended the table (deleted from storage and the registry).
        stale_ping: the id of a turn ping the closed table leaves, to delete.
        unchanged: nothing to save (see :meth:`nothing`).
    """

    table: Table
    before: dict[str, Any]
    results: list[Result] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    closed: bool = False
    stale_ping: int | None = None
    unchanged: bool = False

    @property
    def tr(self) -> Tr:
        """The table's language: its log and public posts are written in it."""
        return translator(self.table.language)

    def nothing(self) -> None:
        """Leave the block without saving: the body found nothing to do."""
        self.unchanged = True

    def log(self, events: Sequence[Event], note: str = "") -> None:
        """Write ``events`` in the table's log, then ``note`` (a line of the service's own, in the
        table's language already)."""
        self.table.log.extend(render.log_lines(self.table, events, self.tr))
        if note:
            self.table.log.append(note)

    def played(self, events: Sequence[Event]) -> None:
        """Account for a game's ``events``: log them, record a finished round, start the next
        round, or end the game (at its end, or once only bots are left).

        A finished round or game is recorded in the same transaction as the table's save (or its
        deletion), so a failed save records nothing, and a round is never recorded twice.
        """
        table, game = self.table, self.table.game
        assert game is not None
        self.log(events)
        table.track_reveals(events)
        table.touched = time.time()  # the last move: a game idle for long ends (scheduling.py)
        if game.round_over:
            if table.recorded_rounds < game.round_no:
                table.recorded_rounds = game.round_no
                self.results.append(_round_result(table))
            if game.game_over:
                self._over()
                self.posts.append(Post(view=render.standings(table, self.tr)))
                return
            self.posts.append(
                Post(render.round_summary(table, game.round_winner, game.round_points, self.tr))
            )
            table.log.extend(render.log_lines(table, next_round(game), self.tr))
            table.track_reveals(())  # the round's shown hands go with it
        if not any(not s.is_ai and table.in_game(s.id) for s in table.seats):
            # Everyone human left or was removed: bots don't play on for nobody (nor score).
            # The game still counts as played, and lost, by every human who sat in it.
            table.log.append(self.tr._("Only bots were left, so the game has ended."))
            self._over()
            self.posts.append(
                Post(
                    self.tr._("Only bots were left at the {edition} table, so the game has ended.").format(
                        edition=render.edition_name(table.variant, self.tr)
                    ),
                    view=render.rematch(table, self.tr),
                )
            )
            return
        if game.pending.player != table.pinged:
            table.pinged = ""  # their turn is over: the next one gets its own ping

    def abandon(self, why: str | None) -> None:
        """End the table before its game is over (it can't go on, or it was closed): a dealt
        game is recorded as played with no winner (its finished rounds stand), and ``why`` (in
        the table's language; None: nothing) is said in the channel."""
        self.table.state = TableState.OVER
        if self.table.game is not None:
            self.results.append(_game_result(self.table))
        if why is not None:
            self.posts.append(Post(why))

    def _over(self) -> None:
        """The game ended by the rules: the table is over, and the game's result recorded."""
        self.table.state = TableState.OVER
        self.results.append(_game_result(self.table))


class After(Protocol):
    """What follows a change once its table's lock is released (`bot.service.TableService.after`):
    its table message (unless not ``publish``), hands, ping, AI moves and timers, and for a table
    it closed its pointer (unless not ``point``). The parts that change tables get this one
    callback, not the service that keeps them all."""

    def __call__(self, change: Change, /, *, publish: bool = True, point: bool = True) -> None: ...


class Acting:
    """Changes of tables under their locks (see the module's docstring).

    Args:
        tables: every table, with its lock.
        storage: where tables and results are saved.
        rolled_back: called with the table as last saved, once it replaced one whose change
            could not be saved (its lobby expiry, AI moves and timers start again).
    """

    def __init__(self, tables: TableRegistry, storage: Storage, rolled_back: Callable[[Table], None]) -> None:
        self.tables = tables
        self.storage = storage
        self.rolled_back = rolled_back

    @contextlib.asynccontextmanager
    async def change(self, channel_id: int) -> AsyncIterator[Change]:
        """Hold the channel's lock and change its table; save on leaving (see the module).

        Raises:
            NoTable: the channel has no table.
            NotSaved: the change could not be saved; the table is as it was before it.
            UnoError: as raised by the block (nothing is saved then, and the table is as it was
                before it); so is any other exception of the block.
        """
        async with self.tables.lock(channel_id):
            table = self.tables.require(channel_id)
            change = Change(table, table.to_snapshot())
            try:
                yield change
            except BaseException:
                if _changed(table, change.before):  # a refusal usually changed nothing
                    self._restore(change)
                raise
            if not change.unchanged:
                await self._commit(change)

    def _restore(self, change: Change) -> None:
        """Put the table as last saved (``change.before``) in the place of the changed one."""
        restored = Table.from_snapshot(change.before)
        self.tables.put(restored)
        self.rolled_back(restored)

    async def _commit(self, change: Change) -> None:
        table = change.table
        try:
            if table.state is TableState.OVER:
                await self.storage.delete_table(table.channel_id, change.results)
            else:
                await self.storage.save_table(
                    table.guild_id, table.channel_id, table.to_snapshot(), change.results
                )
        except StorageError as exc:
            # Nothing is lost: the table goes back to its last saved state, and whoever acted
            # is told their change was not made.
            self._restore(change)
            raise NotSaved.logged(table.channel_id, exc) from None
        if table.state is TableState.OVER:
            self.tables.remove(table.channel_id)
            change.closed = True
            change.stale_ping, table.ping_message_id = table.ping_message_id, None

    async def save(self, table: Table) -> None:
        """Save a bookkeeping change of ``table`` (a message id; lock held), unless it is over or
        no longer the channel's: a table replaced by its last saved state after a failed save
        may still hold the move that was not made, and a background job holding it must not
        save that move."""
        if table.state is not TableState.OVER and self.tables.get(table.channel_id) is table:
            await self.storage.save_table(table.guild_id, table.channel_id, table.to_snapshot())


def _changed(table: Table, before: dict[str, Any]) -> bool:
    """Whether ``table`` is no longer as its snapshot ``before`` (one it can't take: changed)."""
    try:
        return table.to_snapshot() != before
    except Exception:  # a half-made change may not even be savable
        return True


def _round_result(table: Table) -> RoundResult:
    game = table.game
    assert game is not None
    return RoundResult(
        **_shared(table), round_no=game.round_no, winner=game.round_winner, points=game.round_points
    )


def _game_result(table: Table) -> GameResult:
    game = table.game
    assert game is not None
    # The rounds recorded so far: all of them at the game's end; an abandoned round doesn't count.
    return GameResult(
        **_shared(table),
        winners=list(game.winners),
        rounds=table.recorded_rounds,
        replay=_replay(table),
        parent_id=table.parent_id,
    )


def _replay(table: Table) -> dict[str, Any] | None:
    """What replays the table's game (``GameResult.replay``): its journal so far, with the seats'
    names as shown now and the seats bots took over (who sat there before, until when); None
    when the journal is unknown (a game saved before journals)."""
    game = table.game
    assert game is not None
    saved = game.to_dict()  # once a game: its journal as the table's save writes it
    if saved["journal"] is None:
        return None
    replay = {key: saved[key] for key in ("variant", "options", "seed", "players", "journal")}
    handovers = [h._asdict() for h in table.handovers]
    return {**replay, "names": [table.name(p) for p in game.players], "handovers": handovers}


def _shared(table: Table) -> dict[str, Any]:
    """What a round's and a game's results both say: which game, where, and its scores."""
    game = table.game
    assert game is not None
    return {
        "game_id": table.game_id,
        "guild_id": table.guild_id,
        "channel_id": table.channel_id,
        "variant": table.variant,
        "scores": dict(game.scores),
        "players": list(game.players),
        "left": table.left,
    }
