"""Players leaving the game or taken out of it (docs/rules.md §5): ``/uno leave`` and its
confirmation, ``/uno kick``, and a timing-out player's seat given to a bot.

Each body acknowledges its interaction first, changes the table through `Acting` (under its
lock, saved, or nothing at all), then answers and publishes once the lock is released.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import render
from bot.client.errors import reader
from bot.engine.errors import NotInGame
from bot.i18n import N_
from bot.render import seats as render_seats
from bot.service.acting import Acting, After, Change
from bot.service.hands import Hands
from bot.service.interactions import acknowledge, channel_of, check_moderator, from_message
from bot.service.lobby import Lobby
from bot.service.publishing import Publisher
from bot.service.registry import TableRegistry
from bot.tables import LobbyError, Removal, StaleAction, Table, TableState

NONE = discord.AllowedMentions.none()
GAME_OVER = N_("That game is over: nothing changed.")
"""What a press of a leave's confirmation is told once its game is over."""


def _playing(table: Table | None, game_id: str) -> bool:
    """Whether ``table`` is playing the game ``game_id`` (a leave's confirmation asked about)."""
    return table is not None and table.game_id == game_id and table.state is TableState.PLAYING


class Leaving:
    """Leaving and removals (see the module's docstring).

    Args:
        tables: every table.
        acting: the changes of tables.
        publisher: the public messages (what a change leaves to say).
        hands: the players' open hands (one whose seat a bot took is let go).
        lobby: the lobby (a leave or kick before the start is the lobby's change).
        after: what follows a change.
    """

    def __init__(
        self,
        tables: TableRegistry,
        acting: Acting,
        publisher: Publisher,
        hands: Hands,
        lobby: Lobby,
        after: After,
    ) -> None:
        self.tables = tables
        self.acting = acting
        self.publisher = publisher
        self.hands = hands
        self.lobby = lobby
        self.after = after

    async def leave(self, interaction: discord.Interaction[Any], *, bot: bool = False) -> None:
        """``/uno leave``: stand up from the lobby, or leave the game in progress (docs/rules.md
        §5.1); with ``bot``, a computer player takes the seat over with its hand (§5.3). A game
        is left only once the player confirms it (`render.seats.leave_confirmation`, answered by
        `confirm_leave` or `stay`): a mistaken command forfeits nothing.

        Raises:
            NotInGame: not in the game (any more).
            BadState: with ``bot``, a game saved before journals were kept.
        """
        player = str(interaction.user.id)
        table = self.tables.require(channel_of(interaction))
        if table.state is TableState.LOBBY:
            await self.lobby.change(
                interaction, lambda t: t.leave_lobby(player), reader(interaction)._("You left the table.")
            )
            return
        if table.state is TableState.PLAYING and table.in_game(player):
            text, view = render_seats.leave_confirmation(table, player, bot, reader(interaction))
            await interaction.response.send_message(text, view=view, ephemeral=True, allowed_mentions=NONE)
            return
        await self._leave_game(interaction, player, bot=bot)  # refused, as the game says why

    async def confirm_leave(
        self, interaction: discord.Interaction[Any], game_id: str, player: str, *, bot: bool
    ) -> None:
        """The "Leave the game" button of ``/uno leave``'s confirmation, pressed by ``player``:
        they leave the game ``game_id`` as ``/uno leave`` said (with ``bot``, a bot takes the
        seat over); the confirmation is replaced by what was done.

        Raises:
            StaleAction: that game is over (or another is played at the table now): nothing changed.
            NotInGame: the player is no longer in that game (left or removed meanwhile).
            BadState: with ``bot``, a game saved before journals were kept.
        """
        if not _playing(self.tables.get(channel_of(interaction)), game_id):
            raise StaleAction(GAME_OVER)
        await self._leave_game(interaction, player, bot=bot, game_id=game_id)

    async def stay(self, interaction: discord.Interaction[Any]) -> None:
        """The "Stay" button of ``/uno leave``'s confirmation: nothing changes; the confirmation
        says so, its buttons gone."""
        tr = reader(interaction)
        await interaction.response.edit_message(content=tr._("Cancelled: nothing changed."), view=None)

    async def _leave_game(
        self, interaction: discord.Interaction[Any], player: str, *, bot: bool, game_id: str | None = None
    ) -> None:
        """``player`` leaves the game in progress (docs/rules.md §5.1), or with ``bot`` hands their
        seat to a bot (§5.3); with ``game_id``, only that game, the player still in it. Answered
        by a private message, or for a confirmation's button by the confirmation replaced.

        Raises:
            StaleAction: the table's game is not ``game_id`` any more.
            NotInGame: the player isn't in the game (any more).
            BadState: with ``bot``, a game saved before journals were kept.
        """
        await acknowledge(interaction)
        async with self.acting.change(channel_of(interaction)) as change:
            if game_id is not None:  # as the button said, under the lock
                if not _playing(change.table, game_id):
                    raise StaleAction(GAME_OVER)
                if not change.table.in_game(player):
                    raise NotInGame(N_("You're no longer in this game: nothing changed."))
            if bot:
                self._hand_to_bot(change, player, N_("{name} handed their seat to {bot}."))
            else:
                change.played(change.table.leave_game(player))
        await self.publisher.say(change.table, change.posts)
        tr = reader(interaction)
        done = tr._("You left the game. A bot plays your seat now.") if bot else tr._("You left the game.")
        if from_message(interaction):  # the confirmation's button: the confirmation says it
            await interaction.edit_original_response(content=done, view=None)
        else:
            await interaction.followup.send(done, ephemeral=True)
        self.after(change)
        if bot:
            self.hands.let_go(change.table, player)

    @staticmethod
    def _hand_to_bot(change: Change, player: str, line: str) -> None:
        """A bot takes over ``player``'s seat (docs/rules.md §5.3), said in the table's log by
        ``line`` (English, in the table's language when written; its ``{name}``: the player's,
        ``{bot}``: the bot's)."""
        table = change.table
        name = render.plain(table.name(player))
        seat = table.hand_to_bot(player)
        bot = render.plain(render.seat_name(seat.name, change.tr))
        change.log((), "🤖 " + render.sentence(change.tr._(line).format(name=name, bot=bot)))
        change.played(())

    async def kick(
        self, interaction: discord.Interaction[Any], member: discord.abc.User, *, bot: bool = False
    ) -> None:
        """``/uno kick``: the host or a member with Manage Messages removes a player; with
        ``bot``, a computer player takes their seat over in the game, with its hand (docs/rules.md
        §5.3).

        Raises:
            LobbyError: ``member`` is the one kicking (leaving is ``/uno leave``), or they are
                neither the host nor a member with Manage Messages.
            NotInGame: ``member`` isn't at the table, or is out of the game already (then no bot
                can take their seat: their hand went back to the draw pile).
            NoTable: there is no table in the channel.
        """
        channel_id = channel_of(interaction)
        table = self.tables.require(channel_id)
        player = str(member.id)
        if player == str(interaction.user.id):  # a kick of oneself would act as a leave
            raise LobbyError(N_("You can't kick yourself; /uno leave takes you away from the table."))
        check_moderator(interaction, table)
        who = render.plain(member.display_name)
        if table.seat(player) is None:
            raise NotInGame.of(N_("{name} isn't at this table."), name=who)
        if table.state is TableState.LOBBY:
            tr = reader(interaction)
            await self.lobby.change(
                interaction, lambda t: t.leave_lobby(player), tr._("{name} was removed.").format(name=who)
            )
            return
        await self._out_of_game(interaction, channel_id, player, who, bot=bot)

    async def give_seat(self, interaction: discord.Interaction[Any], player: str) -> None:
        """The button offered when ``player`` (an id) is one timeout short of removal
        (`render.seats.seat_offer`): the host or a member with Manage Messages gives their seat,
        with its hand and score, to a bot (docs/rules.md §5.3), as ``/uno kick … bot:True``.

        Raises:
            LobbyError: neither the host nor a member with Manage Messages.
            NotInGame: the player isn't in the game any more (removed meanwhile: their hand went
                back to the draw pile), or the game hasn't started.
            NoTable: there is no table in the channel.
        """
        channel_id = channel_of(interaction)
        table = self.tables.require(channel_id)
        check_moderator(interaction, table)
        if table.game is None:
            raise NotInGame("The game hasn't started yet.")
        seated = table.seat(player) is not None
        tr = reader(interaction)
        name = render.plain(render.seat_name(table.name(player), tr)) if seated else tr._("That player")
        await self._out_of_game(interaction, channel_id, player, name, bot=True)

    async def _out_of_game(
        self, interaction: discord.Interaction[Any], channel_id: int, player: str, name: str, *, bot: bool
    ) -> None:
        """Take ``player`` (shown as ``name``) out of the game in progress: removed (§5.1), or
        with ``bot`` their seat given to a bot (§5.3).

        Raises:
            NotInGame: they aren't at the table, or are out of the game already.
        """
        await acknowledge(interaction)
        async with self.acting.change(channel_id) as change:
            table = change.table
            if table.seat(player) is None:  # left meanwhile
                raise NotInGame.of(N_("{name} isn't at this table."), name=name)
            if table.game is not None and not table.in_game(player):
                if bot:
                    raise NotInGame.of(
                        N_(
                            "{name} isn't in this game any more: their hand went back to the draw pile, "
                            "so no bot can take it."
                        ),
                        name=name,
                    )
                raise NotInGame.of(N_("{name} isn't in this game any more."), name=name)
            if bot:
                self._hand_to_bot(change, player, N_("{name}'s seat was given to {bot}."))
            else:
                change.played(table.leave_game(player, Removal.KICKED))
        await self.publisher.say(table, change.posts)
        tr = reader(interaction)
        done = tr._("{name}: a bot plays their seat now.") if bot else tr._("{name}: removed from the game.")
        await interaction.followup.send(done.format(name=name), ephemeral=True)
        self.after(change)
        if bot:
            self.hands.let_go(table, player)
