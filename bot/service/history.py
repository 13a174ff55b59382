"""``/uno history``: the channel's last games, and one of them round by round and as a file.

The list is private to the member who asks: it is a lookup of their own (a public list would
flood the channel each time someone looks), and its select then answers only them. Choosing a game
answers privately with its rounds; a member who sat at that table also gets the whole game as a
text file (it shows every hand, so others are politely refused it). The game is replayed from
storage off the event loop (a long game's replay and text take a noticeable time).
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoSelect, release
from bot.client.errors import reader
from bot.engine.errors import UnoError
from bot.i18n import N_
from bot.render import history as render
from bot.service.interactions import acknowledge, channel_of
from bot.storage import Storage
from bot.tables import BadClick

__all__ = ["History"]

NONE = discord.AllowedMentions.none()
log = logging.getLogger(__name__)


class History:
    """``/uno history`` and its select (see the module's docstring); ``storage``: where the
    games' records are kept."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno history``: the channel's last games (at most ten, those of its games' threads
        included), privately, with a select."""
        channel_id = channel_of(interaction)
        await acknowledge(interaction)
        records = await self.storage.history(channel_id, limit=render.LISTED)
        tr = reader(interaction)
        select = None
        if records:
            options = render.history_options(records, tr, here=channel_id)
            select = UnoSelect(
                Click(Scope.HISTORY, channel_id, 0, Verb.GAME),
                options=options,
                placeholder=tr._("Choose a game"),
            )
        view = render.history_list(records, tr, select, here=channel_id)
        await interaction.followup.send(view=view, ephemeral=True, allowed_mentions=NONE)
        release(view)

    async def choose(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """A game chosen in the list: its private summary, and its text file for its players.

        Raises:
            BadClick: no game of this channel (or of a thread of its own started here) has that
                id (the select offered it: a game recorded elsewhere is never listed here).
        """
        # A new private answer (a component's usual acknowledgement would edit the list instead).
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.storage.game(game_id)
        if record is None or channel_of(interaction) not in (
            record.result.channel_id,
            record.result.parent_id,
        ):
            raise BadClick(
                f"history of game {game_id[:40]!r}", N_("That game isn't in this channel's history.")
            )
        tr = reader(interaction)
        replay: render.Replayed | None = None
        note = ""
        if record.result.replay is not None:
            try:
                replay = await asyncio.to_thread(render.replayed, record, tr)
            except UnoError as exc:  # a stored replay the engine no longer follows
                log.warning("game %s: its replay can't be played again: %s", game_id, exc.message)
                note = tr._("This game's moves can't be shown (its replay no longer matches the rules).")
        sat = [*record.result.players, *record.result.left]  # a player who left sat there too
        if replay is not None and str(interaction.user.id) not in sat:
            note = tr._(
                "The whole game as a file (with every hand) is only for the players who sat at that table."
            )
        view = render.summary(record, replay, tr, note)
        if replay is None or note:
            await interaction.followup.send(view=view, ephemeral=True, allowed_mentions=NONE)
            return
        file = discord.File(io.BytesIO(replay.text.encode()), filename=render.game_file_name(record))
        await interaction.followup.send(view=view, file=file, ephemeral=True, allowed_mentions=NONE)
