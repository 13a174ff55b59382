"""Dispatch of clicks: what a lobby, table or hand component means, and the one error funnel
for them.

The components (``bot/client/components.py``) only read their `Click`; here its scope and verb
become a lobby command, an engine action, or a redraw of the player's hand.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.errors import reply_error
from bot.engine.actions import Action, ActionKind
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.game import DosGame
from bot.engine.editions import AnyAction, AnyGame, parse_action
from bot.engine.errors import BadAction, CatchRefused, NotInGame
from bot.engine.game import Game
from bot.engine.options import Options
from bot.i18n import N_
from bot.service.acting import Change
from bot.service.hands import closed
from bot.tables import BadClick, LobbyError, StaleAction, Table

if TYPE_CHECKING:
    from bot.service import TableService

TWO_STEP = frozenset({ActionKind.PLAY, ActionKind.PLAY_DRAWN, ActionKind.JUMP_IN})
"""Actions whose card may need a color, then a player, asked for in a second step."""
# How long a move in a hand may take (the table's lock, the engine, the save) to be answered by
# its interaction's own response; slower, it is acknowledged first and answered after (Discord
# fails an interaction not acknowledged within 3 s; docs/performance/discord-layer.md). An interaction
# that reaches its move this old already (a busy event loop) waits less, or not at all.
ANSWER_DEADLINE = 0.25
ANSWER_BY_AGE = 1.0
HOST_ONLY = frozenset({Verb.START, Verb.EDITION, Verb.HOUSE_RULES, Verb.ADD_BOT, Verb.REMOVE_BOT})
"""The lobby's verbs only its host may use (the host sets the table up)."""
log = logging.getLogger(__name__)
_Handler = Callable[[discord.Interaction[Any], Click, list[str]], Awaitable[None]]
"""What a click's verb does: ``handler(interaction, click, values)`` (values: a select's)."""


class Dispatch:
    """Clicks on components (see the module's docstring): a handler for each `Scope`, which
    refuses a verb not its own."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._scopes: dict[Scope, _Handler] = {
            Scope.LOBBY: self._on_lobby,
            Scope.TABLE: self._on_table,
            Scope.HAND: self._on_hand,
            Scope.HISTORY: self._on_games,
            Scope.REMATCH: self._on_rematch,
            Scope.LEAVE: self._on_leave,
        }

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        click: Click,
        values: list[str],
        *,
        unoffered: str = "",
    ) -> None:
        """A click on any component (a lobby's, a table's, a hand's...: its `Scope`); every error
        is answered here (`reply_error`), a refusal in a hand by redrawing it.

        ``unoffered`` says what a select's click chose that the select didn't offer: refused, as
        is a click naming another channel than the one clicked in, or a verb of another scope
        (all only come from a modified client), and logged at INFO, as is an action text that
        reads as none.
        """
        in_hand = click.scope is Scope.HAND
        try:
            if click.channel != interaction.channel_id:  # act only where clicked
                raise BadClick(
                    f"custom_id of channel {click.channel}",
                    N_("That button belongs to another channel's table."),
                )
            if unoffered:
                raise BadClick(unoffered, N_("That choice wasn't offered; press Refresh."))
            if in_hand and not _private(interaction):  # a hand is only ever a private message
                raise BadClick(
                    f"hand's {click.verb.value!r} on a public message",
                    N_("That button belongs to your hand, not to this message: nothing changed."),
                )
            await self._scopes[click.scope](interaction, click, values)
        except Exception as exc:  # the one funnel: UnoError to the player, the rest logged
            if isinstance(exc, BadClick | BadAction):
                _log_refused(interaction, exc.detail)
            # A refused click in a hand redraws it; never over a public message (the table's).
            redraw = (
                self._hand_redraw(interaction, click.channel) if in_hand and _private(interaction) else None
            )
            await reply_error(interaction, exc, click.channel, redraw=redraw)

    async def on_unreadable(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A click on a component whose ``custom_id`` reads as no `Click`: refused privately,
        logged at INFO."""
        _log_refused(interaction, f"unreadable custom_id {custom_id[:100]!r}")
        await reply_error(interaction, BadClick(custom_id))

    def _hand_redraw(
        self, interaction: discord.Interaction[Any], channel_id: int
    ) -> Callable[[str], Awaitable[None]] | None:
        """How a refused click in a hand is answered: the player's hand redrawn through the
        interaction with a notice (None: they have no hand at the table any more)."""
        table = self.service.tables.get(channel_id)  # as it is now (a failed save replaces it)
        player = str(interaction.user.id)
        if table is None or closed(table, player):
            return None
        return lambda notice: self.service.hands.respond(interaction, table, player, notice=notice)

    async def _on_games(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        """A past game chosen in ``/uno history``'s select: no table needed."""
        if click.verb is not Verb.GAME:
            raise BadClick(f"history verb {click.verb.value!r}")
        await self.service.history.choose(interaction, values[0] if values else "")

    async def _on_rematch(
        self, interaction: discord.Interaction[Any], click: Click, values: list[str]
    ) -> None:
        """A finished game's Rematch: no table needed."""
        if click.verb is not Verb.REMATCH:
            raise BadClick(f"rematch verb {click.verb.value!r}")
        await self.service.lobby.rematch(interaction, click.arg)

    async def _on_lobby(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        table, verb, version = self.service.tables.require(click.channel), click.verb, click.version
        lobby = self.service.lobby
        if verb in HOST_ONLY and str(interaction.user.id) != table.host.id:
            raise LobbyError("Only the host can do that.")
        match verb:
            case Verb.START:
                await lobby.start(interaction, version=version)
            case Verb.JOIN:
                await lobby.join(interaction, version=version)
            case Verb.LEAVE:
                player = str(interaction.user.id)
                await lobby.change(interaction, lambda t: t.leave_lobby(player), version=version)
            case Verb.EDITION:
                variant = values[0] if values else ""  # a forged empty choice is an unknown edition
                await lobby.change(interaction, lambda t: t.configure(variant=variant), version=version)
            case Verb.HOUSE_RULES:
                await lobby.change(
                    interaction,
                    lambda t: t.configure(
                        options=Options.parse({**t.options.to_dict(), "house_rules": values})
                    ),
                    version=version,
                )
            case Verb.ADD_BOT:  # the Add bot button (normal), or the select's level
                level = values[0] if values else "normal"
                await lobby.change(interaction, lambda t: t.add_ai(level), version=version)
            case Verb.REMOVE_BOT:
                await lobby.change(interaction, lambda t: t.remove_ai(), version=version)
            case _:
                raise BadClick(f"lobby verb {verb.value!r}")

    async def _on_leave(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        """A button of ``/uno leave``'s confirmation (`render.seats.leave_confirmation`), its
        argument ``<game id>.<player id>``: only on that private message, by that player (it
        is answered by editing the message clicked); refused with why when its game is over."""
        game_id, _, player = click.arg.partition(".")
        if not _private(interaction):
            raise BadClick(f"leave's {click.verb.value!r} on a public message")
        if player != str(interaction.user.id):
            raise BadClick(f"leave of {player[:20]!r}", N_("That button isn't yours: nothing changed."))
        match click.verb:
            case Verb.LEAVE | Verb.LEAVE_FOR_BOT:
                bot = click.verb is Verb.LEAVE_FOR_BOT
                await self.service.commands.confirm_leave(interaction, game_id, player, bot=bot)
            case Verb.STAY:
                await self.service.commands.stay(interaction)
            case _:
                raise BadClick(f"leave verb {click.verb.value!r}")

    async def _on_table(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        table = self.service.tables.require(click.channel)
        dos = isinstance(table.game, DosGame)
        match click.verb:
            case Verb.GIVE_SEAT:  # the offer of a timing-out player's seat to a bot (render/seats.py)
                await self.service.commands.give_seat(interaction, click.arg)
            case Verb.SHOW_HAND:
                await self.service.commands.show_hand(interaction)
            case Verb.UNO if not dos:
                await self.act(interaction, table, None, Action(ActionKind.UNO), in_hand=False)
            case Verb.DOS if dos:
                await self.act(interaction, table, None, DosAction(DosActionKind.DOS), in_hand=False)
            case Verb.CATCH:
                await self.act(interaction, table, None, _catch, in_hand=False)
            case _:  # another scope's verb, or UNO! at a DOS table, DOS! at an UNO table
                raise BadClick(f"table verb {click.verb.value!r}")

    async def _on_hand(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        """A click in a hand: Refresh, a page of the card select, Back from a two-step play, Show
        as picture (a private answer), an action (its text in the argument, or a select's
        value). A play still missing its color or player is answered with the hand asking for it."""
        verb, version, arg = click.verb, click.version, click.arg
        table, player = self.service.tables.require(click.channel), str(interaction.user.id)
        game = table.game
        if game is None or player not in game.hands:
            raise NotInGame()
        hands = self.service.hands
        if verb is Verb.REFRESH:
            await hands.respond(interaction, table, player)
            return
        if version and version != table.version:
            raise StaleAction()
        if verb is Verb.PICTURE:
            await hands.picture(interaction, table, player)
            return
        if verb is Verb.PAGE and not arg.isdigit():
            raise BadClick(f"page {arg[:20]!r}")
        if verb in (Verb.PAGE, Verb.BACK):
            await hands.respond(interaction, table, player, page=int(arg) if verb is Verb.PAGE else 0)
            return
        if verb is not Verb.ACT:  # another scope's verb: a forged component
            raise BadClick(f"hand verb {verb.value!r}")
        action = parse_action(game, values[0] if values else arg)
        if isinstance(action, DosAction):
            assert isinstance(game, DosGame)
            picks = game.completions(player, action) if action.kind is DosActionKind.PLAY else []
            if picks and action not in picks:  # a match whose Wild DOS colors are still to name
                await hands.respond(interaction, table, player, pick=action)
                return
        elif action.kind in TWO_STEP:
            assert isinstance(game, Game)
            completions = game.completions(player, action)
            if completions and action not in completions:
                if _asks(action, completions):
                    await hands.respond(interaction, table, player, pick=action)
                    return
                action = completions[0]  # only the card was left out: a drawn card's play
        await self.act(interaction, table, version or None, action)

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
        self.service.updates.spawn(answer.defer())

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
                await self.service.hands.respond(interaction, table, player)
                return
            try:
                acknowledged = await answer.acknowledge()
            finally:
                await self.service.publisher.say(table, change.posts)  # said whatever the answer's fate
            if not acknowledged:
                pass
            elif in_hand:
                await self.service.hands.respond(interaction, table, player)
            else:
                self.service.publisher.answer_in_place(table, interaction)
        finally:
            self.service.after(change)

    async def _move(
        self,
        channel_id: int,
        version: int | None,
        player: str,
        action: AnyAction | Callable[[AnyGame, str], AnyAction],
    ) -> Change:
        """Apply and save the player's action under the table's lock (see `act`); the change."""
        async with self.service.acting.change(channel_id) as change:
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
    """Who answers a move's interaction (see `Dispatch.act`): the move itself, by the
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


def _private(interaction: discord.Interaction[Any]) -> bool:
    """Whether the message clicked is a private (ephemeral) one, as every hand and leave's
    question is: their buttons on a public message come only from a modified client."""
    return interaction.message is not None and interaction.message.flags.ephemeral


def _log_refused(interaction: discord.Interaction[Any], detail: str) -> None:
    """Log a click refused as broken or forged: one INFO line, no traceback (not the bot's fault)."""
    log.info("refused a click by %s in %s: %s", interaction.user.id, interaction.channel_id, detail)


def _asks(action: Action, completions: list[Action]) -> bool:
    """Whether the player must still choose for ``action`` (the two-step plays): a color, or a
    player, which its completions have and it lacks (asked even when only one would do)."""
    return any(
        (action.color is None and a.color is not None) or (action.target is None and a.target is not None)
        for a in completions
    )


def _catch(game: AnyGame, player: str) -> AnyAction:
    """The table's Catch button: catch the first player open to a catch (none: refused).

    Raises:
        CatchRefused: nobody can be caught now.
    """
    targets = game.catch_targets(player)
    if not targets:
        raise CatchRefused()
    if isinstance(game, DosGame):
        return DosAction(DosActionKind.CATCH, target=targets[0])
    return Action(ActionKind.CATCH, target=targets[0])
