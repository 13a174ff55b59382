"""The discord.py client: wiring of settings, storage, the table service, cogs and components.

Needs no privileged intent (only ``guilds``). Commands sync to ``discord.dev_guild_id`` at start
when it is set; a global sync is a deliberate act (``--sync-global``).
"""

from __future__ import annotations

import gc
import logging
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.components import UnoButton, UnoSelect, Unreadable
from bot.emojis import CardEmojis
from bot.errors import reply_error
from bot.pacing import install
from bot.service import TableService
from bot.settings import Settings
from bot.storage import Storage

log = logging.getLogger(__name__)
EXTENSIONS = ("cogs.uno",)


def point_at(settings: Settings) -> None:
    """Send every REST call and the gateway to the configured addresses (a REST proxy, a
    Discord-compatible server, or the local stand-in), and build image addresses (an emoji's
    ``url``) on the configured CDN."""
    discord.http.Route.BASE = settings.discord.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord.gateway_url)
    discord.asset.Asset.BASE = settings.discord.cdn_base


class UnoBot(commands.Bot):
    """The bot.

    Args:
        settings: all settings.
        storage: an unopened storage backend (opened in ``setup_hook``).
        sync_global: sync the slash commands globally at start.
        options: passed to ``discord.Client`` (tests pass a short ``guild_ready_timeout``).
    """

    def __init__(
        self, settings: Settings, storage: Storage, *, sync_global: bool = False, **options: Any
    ) -> None:
        # The bot never joins voice: discord.py's start-up warnings about voice libraries only
        # alarm whoever reads the log.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        install(self.http, settings.discord.global_requests_per_second)
        self.storage = storage
        self.sync_global = sync_global
        self.card_emojis = CardEmojis(self, enabled=settings.discord.card_emojis)
        self.service = TableService(self, storage, settings.game, self.card_emojis)
        self.tree.on_error = self._on_app_command_error

    async def setup_hook(self) -> None:
        """Open storage, load cogs and components, sync commands, restore saved tables, then
        make the missing card emojis in the background (`CardEmojis`)."""
        await self.storage.open()
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(UnoButton, UnoSelect, Unreadable)
        guild_id = self.settings.discord.dev_guild_id
        if self.settings.discord.sync_commands and guild_id:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        if self.sync_global:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))
        elif not (self.settings.discord.sync_commands and guild_id):
            # Without a sync the commands are whatever was synced last: none on a new application.
            log.info("commands not synced: set discord.dev_guild_id, or run once with --sync-global")
        restored = await self.service.restore()
        if restored:
            log.info("restored %d table(s)", restored)
        self.card_emojis.start()
        # What start-up made (modules, discord.py, the restored tables) lives on: keep it out of
        # the collector's full passes, which otherwise pause every table for 0.1 s and more.
        gc.collect()
        gc.freeze()

    async def _on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await reply_error(interaction, error)

    async def close(self) -> None:
        """Stop timers, disconnect, close storage (whatever happened before)."""
        try:
            await self.card_emojis.close()
            await self.service.close()
            await super().close()
        finally:
            await self.storage.close()
