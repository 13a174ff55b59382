"""Dispatch of clicks: what a lobby, table or hand component means, and the one error funnel
for them.

The components (``bot/client/components.py``) only read their `Click`; here its scope and verb
become a lobby command, an engine action, or a redraw of the player's hand.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

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
from bot.service.commands import Commands
from bot.service.hands import Hands, closed
from bot.service.history import History
from bot.service.leaving import Leaving
from bot.service.lobby import Lobby
from bot.service.moves import Moves
from bot.service.opening import Opening
from bot.service.registry import TableRegistry
from bot.tables import BadClick, LobbyError, StaleAction

TWO_STEP = frozenset({ActionKind.PLAY, ActionKind.PLAY_DRAWN, ActionKind.JUMP_IN})
"""Actions whose card may need a color, then a player, asked for in a second step."""
HOST_ONLY = frozenset({Verb.START, Verb.EDITION, Verb.HOUSE_RULES, Verb.ADD_BOT, Verb.REMOVE_BOT})
"""The lobby's verbs only its host may use (the host sets the table up)."""
log = logging.getLogger(__name__)
_Handler = Callable[[discord.Interaction[Any], Click, list[str]], Awaitable[None]]
"""What a click's verb does: ``handler(interaction, click, values)`` (values: a select's)."""


class Dispatch:
    """Clicks on components (see the module's docstring): a handler for each `Scope`, which
    refuses a verb not its own.

    Args:
        tables: every table.
        hands: the players' open hands (a click in one answered by its redraw).
        moves: the moves clicks make.
        opening: the standings' Rematch.
        lobby: the lobby's buttons.
        leaving: the buttons of a leave's confirmation and of a seat offered to a bot.
        commands: the table's My hand button.
        history: ``/uno history``'s select.
    """

    def __init__(
        self,
        tables: TableRegistry,
        hands: Hands,
        moves: Moves,
        opening: Opening,
        lobby: Lobby,
        leaving: Leaving,
        commands: Commands,
        history: History,
    ) -> None:
        self.tables = tables
        self.hands = hands
        self.moves = moves
        self.opening = opening
        self.lobby = lobby
        self.leaving = leaving
        self.commands = commands
        self.history = history
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
        table = self.tables.get(channel_id)  # as it is now (a failed save replaces it)
        player = str(interaction.user.id)
        if table is None or closed(table, player):
            return None
        return lambda notice: self.hands.respond(interaction, table, player, notice=notice)

    async def _on_games(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        """A past game chosen in ``/uno history``'s select: no table needed."""
        if click.verb is not Verb.GAME:
            raise BadClick(f"history verb {click.verb.value!r}")
        await self.history.choose(interaction, values[0] if values else "")

    async def _on_rematch(
        self, interaction: discord.Interaction[Any], click: Click, values: list[str]
    ) -> None:
        """A finished game's Rematch: no table needed."""
        if click.verb is not Verb.REMATCH:
            raise BadClick(f"rematch verb {click.verb.value!r}")
        await self.opening.rematch(interaction, click.arg)

    async def _on_lobby(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        table, verb, version = self.tables.require(click.channel), click.verb, click.version
        lobby = self.lobby
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
                await self.leaving.confirm_leave(interaction, game_id, player, bot=bot)
            case Verb.STAY:
                await self.leaving.stay(interaction)
            case _:
                raise BadClick(f"leave verb {click.verb.value!r}")

    async def _on_table(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        table = self.tables.require(click.channel)
        dos = isinstance(table.game, DosGame)
        match click.verb:
            case Verb.GIVE_SEAT:  # the offer of a timing-out player's seat to a bot (render/seats.py)
                await self.leaving.give_seat(interaction, click.arg)
            case Verb.SHOW_HAND:
                await self.commands.show_hand(interaction)
            case Verb.UNO if not dos:
                await self.moves.act(interaction, table, None, Action(ActionKind.UNO), in_hand=False)
            case Verb.DOS if dos:
                await self.moves.act(interaction, table, None, DosAction(DosActionKind.DOS), in_hand=False)
            case Verb.CATCH:
                await self.moves.act(interaction, table, None, _catch, in_hand=False)
            case _:  # another scope's verb, or UNO! at a DOS table, DOS! at an UNO table
                raise BadClick(f"table verb {click.verb.value!r}")

    async def _on_hand(self, interaction: discord.Interaction[Any], click: Click, values: list[str]) -> None:
        """A click in a hand: Refresh, a page of the card select, Back from a two-step play, Show
        as picture (a private answer), an action (its text in the argument, or a select's
        value). A play still missing its color or player is answered with the hand asking for it."""
        verb, version, arg = click.verb, click.version, click.arg
        table, player = self.tables.require(click.channel), str(interaction.user.id)
        game = table.game
        if game is None or player not in game.hands:
            raise NotInGame()
        hands = self.hands
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
        await self.moves.act(interaction, table, version or None, action)


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
