"""The open lobby: its seats (joining, leaving, bots), its options (the edition, house rules),
and the start of the game. (A lobby opens in ``opening.py``.)

Each body acknowledges its interaction first, changes the table through `Acting` (under its lock,
saved, or nothing at all), then answers and publishes once the lock is released.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import discord

from bot import render
from bot.client.errors import reader
from bot.i18n import N_, translator
from bot.service.acting import Acting, After
from bot.service.interactions import acknowledge, channel_of, from_message
from bot.service.opening import seat_of
from bot.service.publishing import Publisher
from bot.settings import GameDefaults
from bot.tables import LobbyError, StaleAction, Table, TableState


class Lobby:
    """The open lobby's commands and buttons (see the module's docstring).

    Args:
        acting: the changes of tables.
        publisher: the public messages (the lobby message, redrawn).
        defaults: the settings' game defaults (``seed``: the games' shuffles).
        after: what follows a change.
    """

    def __init__(self, acting: Acting, publisher: Publisher, defaults: GameDefaults, after: After) -> None:
        self.acting = acting
        self.publisher = publisher
        self.defaults = defaults
        self.after = after
        # With a seed set, the n-th game started gets the same shuffles on every run.
        self._seeds = random.Random(defaults.seed)

    async def join(self, interaction: discord.Interaction[Any], *, version: int | None = None) -> None:
        """``/uno join``, or the lobby's Join."""
        seat = seat_of(interaction.user)
        await self.change(interaction, lambda t: t.join(seat), N_("You joined the table."), version=version)

    async def change(
        self,
        interaction: discord.Interaction[Any],
        act: Callable[[Table], object],
        ack: str = N_("Done."),
        *,
        version: int | None = None,
    ) -> None:
        """Change the lobby with ``act`` (a `Table` method that raises `LobbyError` when it can't);
        a lobby everyone left closes. A click on the lobby message is answered with the lobby
        redrawn, a command with ``ack`` (English, said in the user's language).

        Raises:
            StaleAction: ``version`` (the clicked lobby's) is not the lobby's now.
            LobbyError, BadOption: as raised by ``act``.
            NotSaved: the change could not be saved; the lobby is as before.
        """
        await acknowledge(interaction)
        async with self.acting.change(channel_of(interaction)) as change:
            table = change.table
            _check_version(table, version)
            act(table)
            if not table.seats:
                table.state = TableState.OVER
        if table.state is TableState.LOBBY:
            if from_message(interaction):
                shown = table.version
                await interaction.edit_original_response(
                    content=None, embed=None, view=render.lobby(table, translator(table.language))
                )
                if table.version != shown:  # changed again while the answer was on its way
                    self.publisher.publish(table)
            else:
                await interaction.followup.send(reader(interaction)._(ack), ephemeral=True)
                self.publisher.publish(table)
            return
        footer = N_("Start a new one with /uno new.")
        await self._lobby_over(
            interaction, table, table.message_id, N_("{edition} lobby (closed: everyone left)"), footer, ack
        )
        self.after(change)

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
        and the lobby message is redrawn so in the background. The texts are English: ``title``
        (its ``{edition}``: the table's edition) and ``footer`` are said in the table's language,
        ``ack`` in the user's."""
        tr = translator(table.language)
        title, footer = tr._(title).format(edition=render.edition_name(table.variant, tr)), tr._(footer)
        if from_message(interaction):
            view = render.lobby_over(table, title, tr, footer)
            await interaction.edit_original_response(content=None, embed=None, view=view)
        else:
            await interaction.followup.send(reader(interaction)._(ack), ephemeral=True)
            self.publisher.show_lobby_over(table, message_id, title, footer)

    async def start(self, interaction: discord.Interaction[Any], *, version: int | None = None) -> None:
        """``/uno start``, or the lobby's Start (the host): deal the first round.

        Raises:
            StaleAction: ``version`` (the clicked lobby's) is not the lobby's now.
            LobbyError: not the host; too few players; started already.
            BadOption: options that don't fit the seats (partners with 3 players).
            NotSaved: the start could not be saved; the lobby is as before.
        """
        await acknowledge(interaction)
        async with self.acting.change(channel_of(interaction)) as change:
            table = change.table
            _check_version(table, version)
            if str(interaction.user.id) != table.host.id:
                raise LobbyError(N_("Only the host can start the game."))
            seed = None if self.defaults.seed is None else self._seeds.getrandbits(32)
            table.log.extend(render.log_lines(table, table.start(seed), change.tr))
            # The table gets its own message below the lobby; forget the lobby's before
            # answering, so no one sees a started table pointing at its lobby message.
            lobby_id, table.message_id = table.message_id, None
        footer = N_("The table is below; open your hand with its My hand button.")
        title = N_("{edition}: the game has started")
        await self._lobby_over(interaction, table, lobby_id, title, footer, N_("The game has started."))
        self.after(change)  # posts the table message and saves its id


def _check_version(table: Table, version: int | None) -> None:
    """Refuse a click on a lobby message that shows an older state of the lobby.

    Raises:
        StaleAction: ``version`` (the clicked message's; None for a command) is not the lobby's.
    """
    if version is not None and version != table.version and table.state is TableState.LOBBY:
        raise StaleAction(N_("The lobby changed; please try again."))
