"""The bodies of the ``/uno`` commands and of the lobby's buttons.

Each one changes its table through `Acting` (under the table's lock, saved, or nothing at all),
then answers the interaction and publishes, after the lock is released.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import render
from bot.engine.errors import BadOption, NotInGame
from bot.engine.options import Options
from bot.engine.variants import VARIANTS
from bot.service.acting import NotSaved
from bot.service.publishing import TABLE
from bot.storage import StorageError
from bot.tables import LobbyError, Seat, StaleAction, Table, TableState, options_from

if TYPE_CHECKING:
    from bot.service import TableService

NONE = discord.AllowedMentions.none()


class Commands:
    """Lobby and table commands (see the module's docstring)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.tables = service.tables
        self.defaults = service.defaults
        # With a seed set, the n-th game started gets the same shuffles on every run.
        self._seeds = random.Random(service.defaults.seed)

    async def channel_defaults(self, channel_id: int) -> dict[str, Any]:
        """The channel's saved settings over the bot's defaults."""
        base = self.defaults.model_dump()
        base.update(await self.service.storage.get_channel_settings(channel_id) or {})
        return base

    async def new(self, interaction: discord.Interaction[Any], **choices: Any) -> None:
        """``/uno new``: open a lobby with the channel's defaults and the host's choices; the
        host running it again in their open lobby changes its options.

        Raises:
            LobbyError: a lobby or game is open in the channel already.
            BadOption: an unknown edition, or options that can't go together.
            NotSaved: the lobby could not be saved (none was opened).
        """
        channel_id = _channel_id(interaction)
        open_ = self.tables.get(channel_id)
        if (
            open_ is not None
            and open_.state is TableState.LOBBY
            and open_.host.id == str(interaction.user.id)
        ):
            await acknowledge(interaction)
            await self._reconfigure(interaction, choices, await self.channel_defaults(channel_id))
            return
        if open_ is not None:  # refused privately, before the public answer is begun
            raise LobbyError("A game is already open in this channel (/uno end closes it).")
        given = {k: v for k, v in choices.items() if v is not None}
        _variant(given.get("variant", "classic"))
        options_from(given)  # what the host asked for, refused privately before the public answer
        await acknowledge(interaction, public=True)
        settings = await self.channel_defaults(channel_id)
        settings.update(given)
        _one_mode(settings, given)
        table = Table.new(
            guild_id=interaction.guild_id or 0,
            channel_id=channel_id,
            host=_seat(interaction.user),
            variant=_variant(settings.get("variant", "classic")),
            options=options_from(settings),
            turn_seconds=int(settings.get("turn_seconds", self.defaults.turn_seconds)),
        )
        async with self.tables.lock(channel_id):
            existing = self.tables.get(channel_id)
            if existing is not None and existing.state is not TableState.OVER:
                raise LobbyError("A game is already open in this channel (/uno end closes it).")
            try:
                await self.service.storage.save_table(table.guild_id, channel_id, table.to_snapshot())
            except StorageError:
                raise NotSaved() from None
            self.tables.put(table)
            self.service.set_aside.pop(channel_id, None)  # an unreadable table saved here is replaced
        embed, view = render.lobby(table)
        try:  # the answer "thinking" so far becomes the lobby message
            message = await interaction.followup.send(
                embed=embed, view=view, allowed_mentions=NONE, wait=True
            )
        except discord.HTTPException:
            await self._discard(table)  # never a lobby without its message
            raise
        async with self.tables.lock(channel_id):
            table.message_id = message.id
            await self.service.acting.save(table)
        self.service.scheduler.schedule(table)

    async def _discard(self, table: Table) -> None:
        with contextlib.suppress(NotSaved):
            async with self.service.acting.change(table.channel_id) as change:
                if change.table is table:
                    table.state = TableState.OVER
                else:
                    change.nothing()

    async def _reconfigure(
        self, interaction: discord.Interaction[Any], choices: dict[str, Any], defaults: dict[str, Any]
    ) -> None:
        """The host runs ``/uno new`` again in their open lobby: change its options."""
        given = {k: v for k, v in choices.items() if v is not None}
        variant = given.pop("variant", None)
        if variant is not None:
            _variant(variant)
        async with self.service.acting.change(_channel_id(interaction)) as change:
            table = change.table
            if table.state is not TableState.LOBBY or table.host.id != str(interaction.user.id):
                raise LobbyError("A game is already open in this channel (/uno end closes it).")
            merged = {**table.options.to_dict(), **given}
            _one_mode(merged, given)
            table.configure(variant=variant, options=Options.parse(merged))
            # The turn timer is no /uno new option: it follows the channel's settings until Start.
            table.turn_seconds = int(defaults.get("turn_seconds", self.defaults.turn_seconds))
        await interaction.followup.send("The lobby's options were changed.", ephemeral=True)
        self.service.publisher.publish(table)

    async def join(self, interaction: discord.Interaction[Any], *, version: int | None = None) -> None:
        """``/uno join``, or the lobby's Join."""
        seat = _seat(interaction.user)
        await self.lobby(interaction, lambda t: t.join(seat), "You joined the table.", version=version)

    async def lobby(
        self,
        interaction: discord.Interaction[Any],
        act: Callable[[Table], object],
        ack: str = "Done.",
        *,
        version: int | None = None,
    ) -> None:
        """Change the lobby with ``act`` (a `Table` method that raises `LobbyError` when it can't);
        a lobby everyone left closes. A click on the lobby message is answered with the lobby
        redrawn, a command with ``ack``.

        Raises:
            StaleAction: ``version`` (the clicked lobby's) is not the lobby's now.
            LobbyError, BadOption: as raised by ``act``.
            NotSaved: the change could not be saved; the lobby is as before.
        """
        await acknowledge(interaction)
        async with self.service.acting.change(_channel_id(interaction)) as change:
            table = change.table
            _check_version(table, version)
            act(table)
            if not table.seats:
                table.state = TableState.OVER
        if table.state is TableState.LOBBY:
            if _from_message(interaction):
                shown = table.version
                embed, view = render.lobby(table)
                await interaction.edit_original_response(embed=embed, view=view)
                if table.version != shown:  # changed again while the answer was on its way
                    self.service.publisher.publish(table)
            else:
                await interaction.followup.send(ack, ephemeral=True)
                self.service.publisher.publish(table)
            return
        footer = "Start a new one with /uno new."
        await self._lobby_over(
            interaction, table, table.message_id, "UNO lobby (closed: everyone left)", footer, ack
        )
        self.service.after(change)

    async def _lobby_over(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        message_id: int | None,
        title: str,
        footer: str,
        ack: str,
    ) -> None:
        """Answer a change that ended the lobby (it closed, or the game started): a click on the
        lobby message redraws it without its components; a command is answered with ``ack``,
        and the lobby message is redrawn so in the background."""
        if _from_message(interaction):
            await interaction.edit_original_response(embed=render.lobby_over(table, title, footer), view=None)
        else:
            await interaction.followup.send(ack, ephemeral=True)
            self.service.publisher.show_lobby_over(table, message_id, title, footer)

    async def start(self, interaction: discord.Interaction[Any], *, version: int | None = None) -> None:
        """``/uno start``, or the lobby's Start (the host): deal the first round.

        Raises:
            StaleAction: ``version`` (the clicked lobby's) is not the lobby's now.
            LobbyError: not the host; too few players; started already.
            BadOption: options that don't fit the seats (partners with 3 players).
            NotSaved: the start could not be saved; the lobby is as before.
        """
        await acknowledge(interaction)
        async with self.service.acting.change(_channel_id(interaction)) as change:
            table = change.table
            _check_version(table, version)
            if str(interaction.user.id) != table.host.id:
                raise LobbyError("Only the host can start the game.")
            seed = None if self.defaults.seed is None else self._seeds.getrandbits(32)
            table.log.extend(render.log_lines(table, table.start(seed)))
            # The table gets its own message below the lobby; forget the lobby's before
            # answering, so no one sees a started table pointing at its lobby message.
            lobby_id, table.message_id = table.message_id, None
        footer = "The table is below; open your hand with its My hand button."
        await self._lobby_over(
            interaction, table, lobby_id, "UNO: the game has started", footer, "The game has started."
        )
        self.service.after(change)  # posts the table message and saves its id

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno leave``: stand up from the lobby, or leave the game in progress (docs/rules.md §5.1)."""
        player = str(interaction.user.id)
        if self.tables.require(_channel_id(interaction)).state is TableState.LOBBY:
            await self.lobby(interaction, lambda t: t.leave_lobby(player), "You left the table.")
            return
        await acknowledge(interaction)
        async with self.service.acting.change(_channel_id(interaction)) as change:
            change.played(change.table.leave_game(player))
        await self.service.publisher.say(change.table, change.posts)
        await interaction.followup.send("You left the game.", ephemeral=True)
        self.service.after(change)

    async def kick(self, interaction: discord.Interaction[Any], member: discord.abc.User) -> None:
        """``/uno kick``: the host or a member with Manage Messages removes a player.

        Raises:
            LobbyError: ``member`` is the one kicking (leaving is ``/uno leave``), or they are
                neither the host nor a member with Manage Messages.
            NotInGame: ``member`` isn't at the table, or is out of the game already.
            NoTable: there is no table in the channel.
        """
        channel_id = _channel_id(interaction)
        table = self.tables.require(channel_id)
        player = str(member.id)
        if player == str(interaction.user.id):  # a kick of oneself would act as a leave
            raise LobbyError("You can't kick yourself; /uno leave takes you away from the table.")
        _check_moderator(interaction, table)
        if table.seat(player) is None:
            raise NotInGame(f"{render.plain(member.display_name)} isn't at this table.")
        if table.state is TableState.LOBBY:
            await self.lobby(
                interaction,
                lambda t: t.leave_lobby(player),
                f"{render.plain(member.display_name)} was removed.",
            )
            return
        await acknowledge(interaction)
        async with self.service.acting.change(channel_id) as change:
            table = change.table
            if table.seat(player) is None:  # left meanwhile
                raise NotInGame(f"{render.plain(member.display_name)} isn't at this table.")
            if table.game is not None and not table.in_game(player):
                raise NotInGame(f"{render.plain(member.display_name)} isn't in this game any more.")
            change.played(table.leave_game(player))
        await self.service.publisher.say(table, change.posts)
        await interaction.followup.send(
            f"{render.plain(member.display_name)} was removed from the game.", ephemeral=True
        )
        self.service.after(change)

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno end``: the host or a member with Manage Messages closes the table.

        Raises:
            NoTable: there is no table in the channel.
            LobbyError: neither the host nor a member with Manage Messages.
        """
        channel_id = _channel_id(interaction)
        if self.tables.get(channel_id) is None and channel_id in self.service.set_aside:
            await self._clear_set_aside(interaction, channel_id)
            return
        _check_moderator(interaction, self.tables.require(channel_id))  # refused privately
        await acknowledge(interaction, public=True)
        async with self.service.acting.change(_channel_id(interaction)) as change:
            table = change.table
            _check_moderator(interaction, table)
            was_lobby = table.state is TableState.LOBBY
            table.state = TableState.OVER
            table.log.append(f"The table was closed by {render.plain(interaction.user.display_name)}.")
        if was_lobby:
            footer = f"Closed by {interaction.user.display_name}."
            self.service.publisher.show_lobby_over(table, table.message_id, "UNO lobby (closed)", footer)
        await interaction.followup.send(
            f"The UNO table was closed by {interaction.user.mention}.", allowed_mentions=NONE
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
                "This channel's saved table couldn't be read; a member with Manage Messages can clear it."
            )
        await acknowledge(interaction)
        try:
            await self.service.storage.delete_table(channel_id)
        except StorageError:
            raise NotSaved() from None
        self.service.set_aside.pop(channel_id, None)
        await interaction.followup.send(
            "This channel's saved table couldn't be read, and it is now cleared. /uno new starts a new one.",
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
            raise LobbyError(
                f"You are at the UNO table in <#{seated.channel_id}>, and its result will name you. "
                "Run /uno forget-me again once that game is over (or you have left its lobby)."
            )
        await acknowledge(interaction)
        changed = await self.service.storage.forget_user(user)
        await interaction.followup.send(
            f"Done: your name was removed from {changed} record(s).", ephemeral=True
        )

    async def show_hand(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno hand`` or the table's My hand button: the player's private hand, in a new
        message that replaces the one shown before.

        Raises:
            NotInGame: the game hasn't started, or they aren't (or are no longer) in it.
        """
        table = self.tables.require(_channel_id(interaction))
        player = str(interaction.user.id)
        if table.game is None:
            raise NotInGame("The game hasn't started yet.")
        if player not in table.game.hands:
            raise NotInGame()  # the same words as any other button of the game
        await self.service.hands.respond(interaction, table, player, new=True)

    async def repost_table(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno table``: post the table message again at the bottom of the channel.

        Raises:
            NotInGame: the game hasn't started (the lobby message is the one to use).
        """
        channel_id = _channel_id(interaction)
        await acknowledge(interaction)
        async with self.tables.lock(channel_id):
            table = self.tables.require(channel_id)
            if table.game is None:
                raise NotInGame("The game hasn't started yet: the lobby is its message.")
            old, table.message_id = table.message_id, None
        await interaction.followup.send("The table is below.", ephemeral=True)
        self.service.publisher.publish(table)
        if old is not None:
            await self.service.updates.done((channel_id, TABLE))  # no edit still on its way to the old one
            with contextlib.suppress(discord.HTTPException):
                await self.service.publisher.channel(table).get_partial_message(old).delete()


async def acknowledge(interaction: discord.Interaction[Any], *, public: bool = False) -> None:
    """Acknowledge ``interaction`` now, before any work that may wait (a table's lock, the
    database): Discord fails an interaction it sees no answer to within 3 seconds. A click on a
    lobby message is deferred as an update of that message (answered with
    ``edit_original_response``); a command as a private answer to come, or a ``public`` one,
    shown as "thinking" until the first ``followup.send`` replaces it.

    Raises:
        discord.HTTPException: Discord refused the acknowledgement (it came too late).
    """
    if interaction.response.is_done():
        return
    if _from_message(interaction):
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=not public, thinking=True)


def _channel_id(interaction: discord.Interaction[Any]) -> int:
    if interaction.channel_id is None:
        raise LobbyError("UNO is played in a server's text channel.")
    return interaction.channel_id


def _from_message(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction is a click on the lobby message (answered by redrawing it)."""
    return interaction.type is discord.InteractionType.component


def _one_mode(options: dict[str, Any], given: dict[str, Any]) -> None:
    """A mode the host asks for (partners, elimination) replaces the other one that ``options``
    had from before (the lobby's, or the channel's defaults): they can't be combined. Asked for
    together, they are refused when the options are read."""
    for mode, other in (("elimination", "partners"), ("partners", "elimination")):
        if given.get(mode) and other not in given:
            options[other] = False


def _check_version(table: Table, version: int | None) -> None:
    """Refuse a click on a lobby message that shows an older state of the lobby.

    Raises:
        StaleAction: ``version`` (the clicked message's; None for a command) is not the lobby's.
    """
    if version is not None and version != table.version and table.state is TableState.LOBBY:
        raise StaleAction("The lobby changed; please try again.")


def _variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise BadOption(f"Unknown edition {variant!r}.")
    return variant


def _check_moderator(interaction: discord.Interaction[Any], table: Table) -> None:
    perms = getattr(interaction, "permissions", None)
    if str(interaction.user.id) != table.host_now.id and not (perms and perms.manage_messages):
        raise LobbyError("Only the host or a member with Manage Messages can do that.")


def _seat(user: discord.abc.User) -> Seat:
    return Seat(str(user.id), user.display_name)
