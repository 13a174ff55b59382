"""What every command and click body does with its interaction first: acknowledge it, find its
channel, and refuse who may not act on the table."""

from __future__ import annotations

from typing import Any

import discord

from bot.client.errors import PUBLIC
from bot.i18n import N_
from bot.tables import LobbyError, Table


async def acknowledge(interaction: discord.Interaction[Any], *, public: bool = False) -> None:
    """Acknowledge ``interaction`` now, before any work that may wait (a table's lock, the
    database): Discord fails an interaction it sees no answer to within 3 seconds. A click on a
    lobby message is deferred as an update of that message (answered with
    ``edit_original_response``); a command as a private answer to come, or a ``public`` one,
    shown as "thinking" until the first ``followup.send`` replaces it. A refusal after a public
    acknowledgement is still private: the error funnel (`bot.client.errors.reply_error`) takes the
    placeholder back first.

    Raises:
        discord.HTTPException: Discord refused the acknowledgement (it came too late).
    """
    if interaction.response.is_done():
        return
    if from_message(interaction):
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        if public:
            interaction.extras[PUBLIC] = True


def channel_of(interaction: discord.Interaction[Any]) -> int:
    """The channel of a command or click (a table's id).

    Raises:
        LobbyError: not in a server's text channel (a DM).
    """
    if interaction.channel_id is None:
        raise LobbyError("UNO is played in a server's text channel.")
    return interaction.channel_id


def thread_parent(interaction: discord.Interaction[Any]) -> int | None:
    """The channel a command or click's thread belongs to (its settings are the thread's), or
    None outside a thread."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return None


def from_message(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction is a click on the lobby message (answered by redrawing it)."""
    return interaction.type is discord.InteractionType.component


def check_moderator(interaction: discord.Interaction[Any], table: Table) -> None:
    """Refuse one who is neither the table's host (now) nor a member with Manage Messages.

    Raises:
        LobbyError: neither.
    """
    perms = getattr(interaction, "permissions", None)
    if str(interaction.user.id) != table.host_now.id and not (perms and perms.manage_messages):
        raise LobbyError(N_("Only the host or a member with Manage Messages can do that."))
