"""Dispatch of clicks: what a lobby, table or hand component means, and the one error funnel
for them.

The components (``bot/components.py``) only parse their ``custom_id``; here a click becomes a
lobby command, an engine action, or a redraw of the player's hand.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Color
from bot.engine.errors import BadOption, CatchRefused, NotInGame, NotYourTurn
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.options import Options
from bot.errors import reply_error
from bot.service.hands import closed
from bot.tables import LobbyError, StaleAction, Table

if TYPE_CHECKING:
    from bot.service import TableService

HOST_ONLY = frozenset({"start", "variant", "rules", "bot", "unbot"})  # the host sets the table up


class Dispatch:
    """Clicks on components (see the module's docstring)."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        scope: str,
        channel_id: int,
        version: int,
        verb: str,
        args: list[str],
        values: list[str],
    ) -> None:
        """A click on a lobby (``scope`` ``"l"``), table (``"t"``) or hand (``"h"``) component;
        every error is answered here (`reply_error`), a refusal in a hand by redrawing it."""
        try:
            table = self.service.tables.require(channel_id)
            if scope == "l":
                await self._on_lobby(interaction, table, version, verb, values)
            elif scope == "t":
                await self._on_table(interaction, table, verb)
            else:
                await self._on_hand(interaction, table, version, verb, args, values)
        except Exception as exc:  # the one funnel: UnoError to the player, the rest logged
            redraw = self._hand_redraw(interaction, channel_id) if scope == "h" else None
            await reply_error(interaction, exc, channel_id, redraw=redraw)

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

    async def _on_lobby(
        self, interaction: discord.Interaction[Any], table: Table, version: int, verb: str, values: list[str]
    ) -> None:
        commands = self.service.commands
        if verb in HOST_ONLY and str(interaction.user.id) != table.host.id:
            raise LobbyError("Only the host can do that.")
        if verb == "start":
            await commands.start(interaction, version=version)
        elif verb == "join":
            await commands.join(interaction, version=version)
        elif verb == "leave":
            player = str(interaction.user.id)
            await commands.lobby(interaction, lambda t: t.leave_lobby(player), version=version)
        elif verb == "variant":
            await commands.lobby(interaction, lambda t: t.configure(variant=values[0]), version=version)
        elif verb == "rules":
            await commands.lobby(
                interaction,
                lambda t: t.configure(options=Options.parse({**t.options.to_dict(), "house_rules": values})),
                version=version,
            )
        elif verb == "bot":
            await commands.lobby(interaction, lambda t: t.add_ai(), version=version)
        elif verb == "unbot":
            await commands.lobby(interaction, lambda t: t.remove_ai(), version=version)
        else:
            raise LobbyError("Unknown lobby button.")

    async def _on_table(self, interaction: discord.Interaction[Any], table: Table, verb: str) -> None:
        if verb == "hand":
            await self.service.commands.show_hand(interaction)
        elif verb == "uno":
            await self.act(interaction, table, None, lambda g, p: g.call_uno(p), answer="You called UNO!")
        elif verb == "catch":
            await self.act(interaction, table, None, _catch_someone, answer="Caught!")
        else:
            raise LobbyError("Unknown table button.")

    async def _on_hand(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int,
        verb: str,
        args: list[str],
        values: list[str],
    ) -> None:
        player = str(interaction.user.id)
        game = table.game
        if game is None or player not in game.hands:
            raise NotInGame()
        hands = self.service.hands
        if verb == "r":
            await hands.respond(interaction, table, player)
            return
        if version and version != table.version:
            raise StaleAction()
        if verb == "pg":
            await hands.respond(interaction, table, player, page=int(args[0]))
            return
        if verb == "bk":
            await hands.respond(interaction, table, player)
            return
        if verb == "sel":  # a card chosen from the select: "<verb>:<index>"
            verb, _, index = values[0].partition(":")
            args = [index]
        if verb == "tgt":  # a picked player for a play in progress: args = verb, index, color
            verb, args = args[0], [args[1], args[2], str(game.players[int(values[0])])]
        action = _hand_action(game, player, verb, args, values)
        if isinstance(action, tuple):  # a wild still needs a color or a player: second step
            await hands.respond(interaction, table, player, pick=action)
            return
        await self.act(interaction, table, version or None, action, answer=None)

    async def act(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int | None,
        action: Callable[[Game, str], list[Event]],
        *,
        answer: str | None,
    ) -> None:
        """Run one engine action for the interacting player; answer with their hand redrawn
        (``answer`` None: a click in the hand) or with the private text ``answer``.

        The interaction is acknowledged first (a deferred update): the answer waits for the
        table's lock and for the move to be saved, and Discord wants an acknowledgement within
        3 seconds whatever the load.

        Raises:
            StaleAction: ``version`` (the clicked hand's) is not the table's now.
            NotInGame: no game, or the player isn't in it.
            UnoError: the engine refused the action (nothing changed).
            NotSaved: the move could not be saved, so it was not made.
        """
        player = str(interaction.user.id)
        await interaction.response.defer()
        async with self.service.acting.change(table.channel_id) as change:
            table, game = change.table, change.table.game
            if game is None:
                raise NotInGame("The game hasn't started yet.")
            if version is not None and version != table.version:
                raise StaleAction()
            if player not in game.hands:
                raise NotInGame()
            events = action(game, player)
            table.timeouts.pop(player, None)
            change.played(events)
        await self.service.publisher.say(table, change.posts)
        if answer is None:
            await self.service.hands.respond(interaction, table, player)
        else:
            await interaction.followup.send(answer, ephemeral=True)
        self.service.after(change)


def _catch_someone(game: Game, player: str) -> list[Event]:
    targets = game.catch_targets(player)
    if not targets:
        raise CatchRefused()
    return game.catch(player, targets[0])


def _hand_action(
    game: Game, player: str, verb: str, args: list[str], values: list[str]
) -> Callable[[Game, str], list[Event]] | tuple[str, ...]:
    """The engine call for a hand component, or the pick still needed ``(verb, index[, color])``.

    Raises:
        UnoError: a malformed or impossible choice (an index out of the hand, an unknown color).
    """
    simple: dict[str, Callable[[Game, str], list[Event]]] = {
        "d": lambda g, p: g.draw(p),
        "k": lambda g, p: g.keep(p),
        "u": lambda g, p: g.call_uno(p),
        "ch": lambda g, p: g.challenge(p),
        "a": lambda g, p: g.accept(p),
        "rv": lambda g, p: g.reveal(p),
        "dec": lambda g, p: g.discard(p, None),
    }
    if verb in simple:
        return simple[verb]
    if verb == "col":
        color = _color(args[0])
        return lambda g, p: g.choose_color(p, color)
    hand = game.hands[player]
    if verb == "dis":
        card = hand[_index(values[0] if values else args[0], hand)]
        return lambda g, p: g.discard(p, card)
    if verb not in ("p", "pd", "j"):
        raise NotYourTurn("That button isn't for you.")
    index = args[0] if args else "-"
    card = game.drawn if verb == "pd" else hand[_index(index, hand)]
    if card is None:
        raise NotYourTurn("There is no drawn card to play.")
    color = _color(args[1]) if len(args) > 1 and args[1] else None
    target = args[2] if len(args) > 2 else None
    action = Action(_HAND_KINDS[verb], card, color, target)
    completions = game.completions(player, action)
    if completions and action not in completions:  # a field is missing: ask for it
        if color is None and any(a.color is not None for a in completions):
            return (verb, index)
        if target is None and any(a.target is not None for a in completions):
            return (verb, index, color.value if color else "")
    return lambda g, p: g.apply(p, action)


_HAND_KINDS = {"p": ActionKind.PLAY, "pd": ActionKind.PLAY_DRAWN, "j": ActionKind.JUMP_IN}


def _index(text: str, hand: list[Any]) -> int:
    try:
        i = int(text)
    except ValueError:
        raise NotYourTurn("That button is broken; press Refresh.") from None
    if not 0 <= i < len(hand):
        raise StaleAction()
    return i


def _color(text: str) -> Color:
    try:
        return Color(text)
    except ValueError:
        raise BadOption(f"{text!r} isn't a color.") from None
