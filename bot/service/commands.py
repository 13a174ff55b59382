"""The bodies of the game's other ``/uno`` commands: ending the table, hands, the table message,
forgetting a member. (The lobby's are in ``lobby.py``, leaving and kicking in ``leaving.py``.)

Each one acknowledges its interaction first, changes its table through `Acting` (under the
table's lock, saved, or nothing at all), then answers and publishes once the lock is released.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot import render
from bot.client.errors import reader
from bot.engine.errors import NotInGame
from bot.i18n import N_
from bot.service.acting import Acting, After, NotSaved
from bot.service.hands import Hands
from bot.service.interactions import acknowledge, channel_of, check_moderator
from bot.service.publishing import TABLE, Publisher
from bot.service.registry import TableRegistry
from bot.service.updates import Updates
from bot.storage import Storage, StorageError
from bot.tables import LobbyError, TableState

NONE = discord.AllowedMentions.none()
SPECTATOR = N_(
    "You're watching this game: the table message shows every move. "
    "To play in the next one, press Join in its lobby once this game ends (or open it with /uno new)."
)
"""What a member who isn't at the table is told when they ask for a hand."""


class Commands:
    """Game commands (see the module's docstring).

    Args:
        tables: every table, with its lock.
        storage: where tables and results are kept (a set-aside table deleted, a member forgotten).
        acting: the changes of tables.
        publisher: the public messages.
        hands: the players' open hands.
        updates: the background jobs (an old table message's edits, waited for).
        set_aside: the channels whose saved table could not be read, and why (``/uno end`` clears it).
        after: what follows a change.
    """

    def __init__(
        self,
        tables: TableRegistry,
        storage: Storage,
        acting: Acting,
        publisher: Publisher,
        hands: Hands,
        updates: Updates,
        set_aside: dict[int, str],
        after: After,
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.acting = acting
        self.publisher = publisher
        self.hands = hands
        self.updates = updates
        self.set_aside = set_aside
        self.after = after

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno end``: the host or a member with Manage Messages closes the table; a game
        dealt is recorded as played with no winner, its finished rounds standing.

        Raises:
            NoTable: there is no table in the channel.
            LobbyError: neither the host nor a member with Manage Messages.
        """
        channel_id = channel_of(interaction)
        if self.tables.get(channel_id) is None and channel_id in self.set_aside:
            await self._clear_set_aside(interaction, channel_id)
            return
        check_moderator(interaction, self.tables.require(channel_id))  # refused privately
        await acknowledge(interaction, public=True)
        async with self.acting.change(channel_of(interaction)) as change:
            table = change.table
            check_moderator(interaction, table)
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
            self.publisher.show_lobby_over(
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
        self.after(change)

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
            await self.storage.delete_table(channel_id)
        except StorageError as exc:
            raise NotSaved.logged(channel_id, exc) from None
        self.set_aside.pop(channel_id, None)
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
        changed = await self.storage.forget_user(user)
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
        await self.hands.respond(interaction, table, player, new=True)

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
        self.publisher.publish(table)
        if old is not None:
            await self.updates.done((channel_id, TABLE))  # no edit still on its way to the old one
            with contextlib.suppress(discord.HTTPException):
                await self.publisher.channel(table).get_partial_message(old).delete()
