"""The one error funnel: an ``UnoError`` becomes a private reply; anything else is logged with the
table id and the player gets a short apology. No stack trace ever reaches a user."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.engine.errors import UnoError
from bot.i18n import N_, Tr, language_of, translator

log = logging.getLogger(__name__)
SORRY = N_("Something went wrong on our side; nothing was changed. Please try again.")
WITHDRAWN = "…"
"""What a public placeholder taken back says in the moment before it is deleted."""
PUBLIC = "uno.public"
"""The key of ``Interaction.extras`` set on a command acknowledged publicly (its "thinking"
placeholder, shown to the channel, becomes the answer; ``bot.service.interactions.acknowledge``)."""


def message_for(error: BaseException, tr: Tr) -> str:
    """The text a player sees for an error, in ``tr``'s language (an engine's or the bot's
    refusal whose text has no translation reads in English)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UnoError):
        if error.template is not None:
            params = {  # a parameter named *_msg is itself a message (English), said in tr's language
                k: tr._(v) if k.endswith("_msg") and isinstance(v, str) else v
                for k, v in error.params.items()
            }
            return tr._(error.template).format(**params)
        return tr._(error.message)
    if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
        return str(error)
    return tr._(SORRY)


def reader(interaction: discord.Interaction[Any]) -> Tr:
    """The language of the user of ``interaction`` (their Discord client's, ``locale``): every
    private answer is in it."""
    return translator(language_of(interaction.locale))


async def reply_error(
    interaction: discord.Interaction[Any],
    error: BaseException,
    table: int | None = None,
    *,
    redraw: Callable[[str], Awaitable[None]] | None = None,
) -> None:
    """Answer ``interaction`` privately with the error's message (log unexpected errors).

    A command acknowledged publicly (its answer is for the channel) is refused privately too: its
    public placeholder is taken back first, unless its public answer was sent already.

    Args:
        table: the table's channel id, for the log (default: the interaction's channel).
        redraw: for a click in a player's hand, redraws that hand through ``interaction`` with a
            notice line. A refusal (an ``UnoError``) is answered so, its message as the notice:
            the hand then shows the game as it is, not the refused choice in its select.
    """
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if not isinstance(original, UnoError | app_commands.CheckFailure | app_commands.TransformerError):
        log.error("error at table %s", table or interaction.channel_id, exc_info=original)
    text = message_for(error, reader(interaction))
    try:
        if redraw is not None and isinstance(original, UnoError):
            await redraw("⚠️ " + text)
        elif interaction.response.is_done():
            await _withdraw_public(interaction)
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:  # the interaction may have expired
        log.warning("could not report an error to the player: %s", exc)


async def _withdraw_public(interaction: discord.Interaction[Any]) -> None:
    """Take back the public placeholder of a command acknowledged publicly (`PUBLIC`) that is
    still "thinking", so that a refusal sent next is a private message of its own.

    Raises:
        discord.HTTPException: Discord refused a request.
    """
    if not interaction.extras.get(PUBLIC):
        return
    placeholder = await interaction.original_response()
    if placeholder.flags.loading:  # else it is the public answer, which stays
        # Answered first: a followup sent while it still loads would replace it, public.
        await placeholder.edit(content=WITHDRAWN, allowed_mentions=discord.AllowedMentions.none())
        await placeholder.delete()
