"""The bodies of the game's ``/uno`` commands: leaving, kicking, ending, hands, the table
message, records. (The lobby's are in ``lobby.py``.)

Each one acknowledges its interaction first, changes its table through `Acting` (under the
table's lock, saved, or nothing at all), then answers and publishes once the lock is released.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord

from bot import render
from bot.client.errors import reader
from bot.engine.errors import NotInGame
from bot.i18n import N_
from bot.render import seats as render_seats
from bot.service.acting import Change, NotSaved
from bot.service.interactions import acknowledge, channel_of, from_message
from bot.service.publishing import TABLE
from bot.storage import StorageError
from bot.tables import LobbyError, Removal, StaleAction, Table, TableState

if TYPE_CHECKING:
    from bot.service import TableService

NONE = discord.AllowedMentions.none()
SPECTATOR = N_(
    "You're watching this game: the table message shows every move. "
    "To play in the next one, press Join in its lobby once this game ends (or open it with /uno new)."
)
"""What a member who isn't at the table is told when they ask for a hand."""
GAME_OVER = N_("That game is over: nothing changed.")
"""What a press of a leave's confirmation is told once its game is over."""


def _playing(table: Table | None, game_id: str) -> bool:
    """Whether ``table`` is playing the game ``game_id`` (a leave's confirmation asked about)."""
    return table is not None and table.game_id == game_id and table.state is TableState.PLAYING


class Commands:
    """Game commands (see the module's docstring)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.tables = service.tables

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
            await self.service.lobby.change(
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
        async with self.service.acting.change(channel_of(interaction)) as change:
            if game_id is not None:  # as the button said, under the lock
                if not _playing(change.table, game_id):
                    raise StaleAction(GAME_OVER)
                if not change.table.in_game(player):
                    raise NotInGame(N_("You're no longer in this game: nothing changed."))
            if bot:
                self._hand_to_bot(change, player, N_("{name} handed their seat to {bot}."))
            else:
                change.played(change.table.leave_game(player))
        await self.service.publisher.say(change.table, change.posts)
        tr = reader(interaction)
        done = tr._("You left the game. A bot plays your seat now.") if bot else tr._("You left the game.")
        if from_message(interaction):  # the confirmation's button: the confirmation says it
            await interaction.edit_original_response(content=done, view=None)
        else:
            await interaction.followup.send(done, ephemeral=True)
        self.service.after(change)
        if bot:
            self.service.hands.let_go(change.table, player)

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
        _check_moderator(interaction, table)
        who = render.plain(member.display_name)
        if table.seat(player) is None:
            raise NotInGame.of(N_("{name} isn't at this table."), name=who)
        if table.state is TableState.LOBBY:
            tr = reader(interaction)
            await self.service.lobby.change(
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
        _check_moderator(interaction, table)
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
        async with self.service.acting.change(channel_id) as change:
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
        await self.service.publisher.say(table, change.posts)
        tr = reader(interaction)
        done = tr._("{name}: a bot plays their seat now.") if bot else tr._("{name}: removed from the game.")
        await interaction.followup.send(done.format(name=name), ephemeral=True)
        self.service.after(change)
        if bot:
            self.service.hands.let_go(table, player)

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno end``: the host or a member with Manage Messages closes the table; a game
        dealt is recorded as played with no winner, its finished rounds standing.

        Raises:
            NoTable: there is no table in the channel.
            LobbyError: neither the host nor a member with Manage Messages.
        """
        channel_id = channel_of(interaction)
        if self.tables.get(channel_id) is None and channel_id in self.service.set_aside:
            await self._clear_set_aside(interaction, channel_id)
            return
        _check_moderator(interaction, self.tables.require(channel_id))  # refused privately
        await acknowledge(interaction, public=True)
        async with self.service.acting.change(channel_of(interaction)) as change:
            table = change.table
            _check_moderator(interaction, table)
            was_lobby = table.state is TableState.LOBBY
            change.abandon(None)  # a dealt game is recorded with no winner, as an idle one's end
            tr = change.tr
            table.log.append(
                render.sentence(
                    tr._("The table was closed by {name}.").format(
                        name=render.plain(interaction.user.display_name)
                    )
                )
            )
        if was_lobby:
            closer = render.plain(interaction.user.display_name)
            footer = render.sentence(tr._("Closed by {name}.").format(name=closer))
            self.service.publisher.show_lobby_over(
                table,
                table.message_id,
                tr._("{edition} lobby (closed)").format(edition=render.edition_name(table.variant, tr)),
                footer,
            )
        await interaction.followup.send(
            tr._("The {edition} table was closed by {mention}.").format(
                mention=interaction.user.mention, edition=render.edition_name(table.variant, tr)
            ),
            allowed_mentions=NONE,
        )
        self.service.after(change)

    async def _clear_set_aside(self, interaction: discord.Interaction[Any], channel_id: int) -> None:
        """``/uno end`` where the saved table could not be read at the start: a member with
        Manage Messages deletes it (who hosted it is unknown).

        Raises:
            LobbyError: not a member with Manage Messages.
        """
        perms = getattr(interaction, "permissions", None)
        if not (perms and perms.manage_messages):
            raise LobbyError(
                N_("This channel's saved table couldn't be read; a member with Manage Messages can clear it.")
            )
        await acknowledge(interaction)
        try:
            await self.service.storage.delete_table(channel_id)
        except StorageError as exc:
            raise NotSaved.logged(channel_id, exc) from None
        self.service.set_aside.pop(channel_id, None)
        await interaction.followup.send(
            reader(interaction)._(
                "This channel's saved table couldn't be read, and it is now cleared. /uno new starts a new one."
            ),
            ephemeral=True,
        )

    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno forget-me``: remove the member's name from every record (results stay counted).

        Raises:
            LobbyError: they sit at an open table (a lobby, or a game in progress even after
                leaving it), whose result would name them again when it is recorded.
        """
        user = str(interaction.user.id)
        seated = next(
            (t for t in self.tables if t.state is not TableState.OVER and t.seat(user) is not None), None
        )
        if seated is not None:
            raise LobbyError.of(
                N_(
                    "You are at the UNO table in {channel}, and its result will name you. "
                    "Run /uno forget-me again once that game is over (or you have left its lobby)."
                ),
                channel=f"<#{seated.channel_id}>",
            )
        await acknowledge(interaction)
        changed = await self.service.storage.forget_user(user)
        tr = reader(interaction)
        await interaction.followup.send(
            tr.n(
                "Done: your name was removed from {n} record.",
                "Done: your name was removed from {n} records.",
                changed,
            ),
            ephemeral=True,
        )

    async def show_hand(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno hand`` or the table's My hand button: the player's private hand, in a new
        message that replaces the one shown before.

        Raises:
            NotInGame: the game hasn't started, or they aren't (or are no longer) in it; a
                member who never sat at the table is told they are watching, and how to play
                in the next game.
        """
        table = self.tables.require(channel_of(interaction))
        player = str(interaction.user.id)
        if table.game is None:
            raise NotInGame(N_("The game hasn't started yet."))
        if table.seat(player) is None:
            raise NotInGame(SPECTATOR)
        if player not in table.game.hands:
            raise NotInGame()  # the same words as any other button of the game
        await self.service.hands.respond(interaction, table, player, new=True)

    async def repost_table(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno table``: post the table message again at the bottom of the channel.

        Raises:
            NotInGame: the game hasn't started (the lobby message is the one to use).
        """
        channel_id = channel_of(interaction)
        await acknowledge(interaction)
        async with self.tables.lock(channel_id):
            table = self.tables.require(channel_id)
            if table.game is None:
                raise NotInGame(N_("The game hasn't started yet: the lobby is its message."))
            old, table.message_id = table.message_id, None
        await interaction.followup.send(reader(interaction)._("The table is below."), ephemeral=True)
        self.service.publisher.publish(table)
        if old is not None:
            await self.service.updates.done((channel_id, TABLE))  # no edit still on its way to the old one
            with contextlib.suppress(discord.HTTPException):
                await self.service.publisher.channel(table).get_partial_message(old).delete()


def _check_moderator(interaction: discord.Interaction[Any], table: Table) -> None:
    perms = getattr(interaction, "permissions", None)
    if str(interaction.user.id) != table.host_now.id and not (perms and perms.manage_messages):
        raise LobbyError(N_("Only the host or a member with Manage Messages can do that."))
