"""A move by a click (in a hand, or UNO! and Catch on the table message): applied and saved
under the table's lock, then answered within Discord's 3 seconds, by the interaction's own
response when the move is quick, else by a deferred update first and an edit after.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord

from bot.engine.actions import Action
from bot.engine.dos.actions import DosAction
from bot.engine.editions import AnyAction, AnyGame
from bot.engine.errors import NotInGame
from bot.service.acting import Acting, After, Change
from bot.service.hands import Hands
from bot.service.publishing import Publisher
from bot.service.updates import Updates
from bot.tables import StaleAction, Table

# How long a move in a hand may take (the table's lock, the engine, the save) to be answered by
# its interaction's own response; slower, it is acknowledged first and answered after (Discord
# fails an interaction not acknowledged within 3 s; docs/performance/discord-layer.md). An interaction
# that reaches its move this old already (a busy event loop) waits less, or not at all.
ANSWER_DEADLINE = 0.25
ANSWER_BY_AGE = 1.0


class Moves:
    """The moves clicks make (see the module's docstring).

    Args:
        acting: the changes of tables (the moves).
        publisher: the public messages (what a move leaves to say; a press answered in place).
        hands: the players' open hands (a move in one answered by its redraw).
        updates: the background jobs (a late acknowledgement).
        after: what follows a change.
    """

    def __init__(
        self, acting: Acting, publisher: Publisher, hands: Hands, updates: Updates, after: After
    ) -> None:
        self.acting = acting
        self.publisher = publisher
        self.hands = hands
        self.updates = updates
        self.after = after

    async def act(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int | None,
        action: AnyAction | Callable[[AnyGame, str], AnyAction],
        *,
        in_hand: bool = True,
    ) -> None:
        """Apply one engine action (or the one ``action(game, player)`` makes) for the interacting
        player; answer in place: with their hand redrawn (a click in the hand), or, for a press on
        the table message (not ``in_hand``: UNO!, Catch), with that message updated, its log
        saying what happened (`Publisher.answer_in_place`). No new message either way; only a
        refusal gets one, private.

        A move in the hand saved within `ANSWER_DEADLINE` seconds is answered by the
        interaction's own response, the hand redrawn (one call: Discord's "update message"),
        made in this task as soon as the move is saved (each hop to another task would wait
        behind everything else a busy event loop has queued). Otherwise, and for a press on the
        table message or a move whose round's summary or standings must be said first, the
        interaction is acknowledged by a deferred update (a timer's, past the deadline) and
        answered by an edit once the move is saved (two calls). Either way the answer comes
        after the save, never under the table's lock, and within Discord's 3 seconds however
        slow the lock or the database are (docs/performance/discord-layer.md).

        Raises:
            StaleAction: ``version`` (the clicked hand's) is not the table's now.
            NotInGame: no game, or the player isn't in it.
            UnoError: the engine refused the action (nothing changed).
            NotSaved: the move could not be saved, so it was not made.
            discord.HTTPException: Discord refused the acknowledgement or the answer.
        """
        answer = _Answer(interaction)
        wait = _answer_wait(interaction) if in_hand else 0.0
        deadline = None
        try:
            if wait > 0:  # answered by the move itself, unless it takes longer than this
                deadline = asyncio.get_running_loop().call_later(wait, self._acknowledge_late, answer)
            else:
                await answer.acknowledge()
            await self._move_and_answer(answer, table.channel_id, version, action, in_hand=in_hand)
        except BaseException:
            await answer.settled()  # a refusal follows a deferral still on its way
            raise
        finally:
            if deadline is not None:
                deadline.cancel()

    def _acknowledge_late(self, answer: _Answer) -> None:
        """The move is taking longer than its deadline: acknowledge it now by a deferred update
        (it is answered by an edit once saved); a failure is logged."""
        self.updates.spawn(answer.defer())

    async def _move_and_answer(
        self,
        answer: _Answer,
        channel_id: int,
        version: int | None,
        action: AnyAction | Callable[[AnyGame, str], AnyAction],
        *,
        in_hand: bool,
    ) -> None:
        """The move (`_move`), then its answer (see `act`): its own response once saved, or
        its posts and an edit once acknowledged; what follows the change is started either way,
        even when the answer fails (the move was made).

        Raises:
            UnoError: as `_move` (nothing is answered).
            discord.HTTPException: the acknowledgement or the answer failed (posts are said).
        """
        player = str(answer.interaction.user.id)
        change = await self._move(channel_id, version, player, action)
        table, interaction = change.table, answer.interaction
        try:
            if in_hand and not change.posts and answer.claim():
                await self.hands.respond(interaction, table, player)
                return
            try:
                acknowledged = await answer.acknowledge()
            finally:
                await self.publisher.say(table, change.posts)  # said whatever the answer's fate
            if not acknowledged:
                pass
            elif in_hand:
                await self.hands.respond(interaction, table, player)
            else:
                self.publisher.answer_in_place(table, interaction)
        finally:
            self.after(change)

    async def _move(
        self,
        channel_id: int,
        version: int | None,
        player: str,
        action: AnyAction | Callable[[AnyGame, str], AnyAction],
    ) -> Change:
        """Apply and save the player's action under the table's lock (see `act`); the change."""
        async with self.acting.change(channel_id) as change:
            table, game = change.table, change.table.game
            if game is None:
                raise NotInGame("The game hasn't started yet.")
            if version is not None and version != table.version:
                raise StaleAction()
            if player not in game.hands:
                raise NotInGame()
            chosen = action if isinstance(action, Action | DosAction) else action(game, player)
            events = game.apply(player, chosen)  # type: ignore[arg-type]  # the game's own kind
            table.timeouts.pop(player, None)
            change.played(events)
        return change


class _Answer:
    """Who answers a move's interaction (see `Moves.act`): the move itself, by the
    interaction's response (:meth:`claim`), or a deferred update first (:meth:`acknowledge`),
    whichever comes first; never both."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        self._claimed = False
        self._deferral: asyncio.Future[bool] | None = None  # True once deferred; False: it failed

    def claim(self) -> bool:
        """Take the answer for the interaction's own response; False if a deferral came first."""
        if self._deferral is not None:
            return False
        self._claimed = True
        return True

    async def acknowledge(self) -> bool:
        """Acknowledge by a deferred update, unless done or claimed already: True once it is
        acknowledged (or claimed), False if another caller's deferral failed.

        Raises:
            discord.HTTPException: this call's deferral failed.
        """
        if self._claimed:
            return True
        if self._deferral is not None:
            return await asyncio.shield(self._deferral)
        self._deferral = deferral = asyncio.get_running_loop().create_future()
        try:
            await self.interaction.response.defer()
        except BaseException:
            deferral.set_result(False)
            raise
        deferral.set_result(True)
        return True

    async def defer(self) -> None:
        """:meth:`acknowledge`, as a background job.

        Raises:
            discord.HTTPException: the deferral failed.
        """
        await self.acknowledge()

    async def settled(self) -> None:
        """Wait for a deferral on its way, if any, to succeed or fail (its answer, a refusal,
        must follow it)."""
        if self._deferral is not None:
            await asyncio.shield(self._deferral)


def _answer_wait(interaction: discord.Interaction[Any]) -> float:
    """How many seconds a move may take to be answered by its interaction's own response:
    `ANSWER_DEADLINE`, less what the interaction's age (by its id's timestamp, Discord's clock)
    takes it past `ANSWER_BY_AGE`."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(ANSWER_DEADLINE, ANSWER_BY_AGE - age)
