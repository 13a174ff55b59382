"""The discord.py client: wiring of settings, storage, the table service, cogs and components.

Needs no privileged intent (only ``guilds``). Commands sync to ``discord.dev_guild_id`` at start
when it is set; a global sync is a deliberate act (``--sync-global``). The client is sharded
(``discord.shard_count``, ``discord.shard_ids``): each process serves the guilds of its shards.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.client import internals
from bot.client.components import UnoButton, UnoSelect, Unreadable
from bot.client.emojis import CardEmojis
from bot.client.errors import reply_error
from bot.client.pacing import install
from bot.client.shards import Shards
from bot.client.translator import CommandTranslator
from bot.i18n import LANGUAGES, translator
from bot.ops.heap import HEAP
from bot.ops.metrics import Metrics, MetricsServer
from bot.service import TableService, threads
from bot.settings import Settings
from bot.storage import Storage
from bot.storage.common import collector_paused

log = logging.getLogger(__name__)
EXTENSIONS = ("cogs.uno",)
IDENTIFY_SECONDS = 5.0
"""Discord lets ``max_concurrency`` sessions start per this many seconds, one per bucket
``shard_id % max_concurrency`` (https://discord.com/developers/docs/events/gateway#session-start-limit)."""


def point_at(settings: Settings) -> None:
    """Send every REST call and the gateway to the configured addresses (a REST proxy, a
    Discord-compatible server, or the local stand-in), and build image addresses (an emoji's
    ``url``) on the configured CDN (`internals.point_at_api`: whatever ``discord.internals`` says)."""
    internals.point_at_api(settings.discord.api_base, settings.discord.gateway_url, settings.discord.cdn_base)


class UnoBot(commands.AutoShardedBot):
    """The bot, running the shards of ``settings.discord`` (`shards`).

    Args:
        settings: all settings.
        storage: an unopened storage backend (opened in ``setup_hook``).
        sync_global: sync the slash commands globally at start.
        options: passed to ``discord.Client`` (tests pass a short ``guild_ready_timeout``).
    """

    service: TableService
    """Every lobby and game of this process; the cogs and the components hand their interactions
    over to it (``interaction.client.service``)."""

    def __init__(
        self, settings: Settings, storage: Storage, *, sync_global: bool = False, **options: Any
    ) -> None:
        self.internals = settings.discord.internals
        """Whether discord.py's internals are used where they save work (`bot.client.internals`)."""
        internals.quiet_voice_warnings(internals=self.internals)
        intents = discord.Intents.none()
        intents.guilds = True
        if settings.discord.shard_ids is not None:  # else every shard of the count
            options["shard_ids"] = settings.discord.shard_ids
        self.metrics = Metrics(lambda: [t.guild_id for t in self.service.tables], self._shards_run)
        """This process's Prometheus metrics (`bot.ops.metrics`), served when ``metrics.port`` is set."""
        trace = options["http_trace"] = self.metrics.watch(options.get("http_trace") or aiohttp.TraceConfig())
        pace = install(trace, settings.discord.api_base, settings.discord.global_requests_per_second)
        storage = self.metrics.timed(storage)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # the bot reads no cached message (and gets no message events)
            shard_count=settings.discord.shard_count,
            **options,
        )
        self.shards_run = Shards(settings.discord.shard_count, settings.discord.shard_ids)
        """The shards this process runs: it restores the tables of their guilds only."""
        self._max_concurrency: int | None = None
        self._identified: dict[int, float] = {}
        self.settings = settings
        internals.pace_bucket_scan(self, internals=self.internals)
        self.storage = storage
        self.sync_global = sync_global
        self.card_emojis = CardEmojis(self, enabled=settings.discord.card_emojis)
        self.service = TableService(
            self, storage, settings.game, self.card_emojis, pace, internals=self.internals
        )
        self.tree.error(self._on_app_command_error)
        self.add_listener(self._on_interaction, "on_interaction")
        self.metrics_server: MetricsServer | None = None
        """The ``/metrics`` and ``/health`` endpoint, while ``metrics.port`` is set."""
        self._heap_started = False

    async def setup_hook(self) -> None:
        """Open storage, load cogs and components, sync commands, restore saved tables, then
        make the missing card emojis in the background (`CardEmojis`)."""
        await self.storage.open()
        port = self.settings.metrics.port
        if port is not None:
            self.metrics_server = MetricsServer(self.metrics, self._shards_connected, self.is_ready)
            await self.metrics_server.start(self.settings.metrics.host, port)
            log.info(
                "metrics and health on http://%s:%d", self.settings.metrics.host, self.metrics_server.port
            )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(UnoButton, UnoSelect, Unreadable)
        # A click is dispatched without rebuilding its whole message.
        internals.install_lean_dispatch(self, internals=self.internals)
        for lang in LANGUAGES:  # compiled now (about 50 ms each), not in the middle of a game
            translator(lang)
        await self.tree.set_translator(CommandTranslator())  # localized names and descriptions
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
        # Thousands of games parsed and rebuilt make no garbage but many objects: the collector's
        # passes would walk them again and again (docs/performance/storage.md, "Restore").
        with collector_paused():
            restored = await self.service.restore(self.shards_run.serves)
            if restored:
                log.info("restored %d table(s)", restored)
            self.service.leases.start()
            self.card_emojis.start()
            # What start-up made (modules, discord.py, the restored tables) lives on: keep it, and
            # whatever outlives each later full pass, out of the collector's full passes, which
            # otherwise pause every table for 0.1 s and more (1.5 s at 2,000 tables).
            HEAP.start()
            self._heap_started = True

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread archived (by a member, or by Discord after its inactivity) ends its game."""
        if payload.data.get("thread_metadata", {}).get("archived"):
            await self.service.threads.gone(payload.thread_id, threads.ARCHIVED)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A guild's tables whose thread or channel went while the bot was offline end; the
        others, restored at start, resume."""
        await self.service.guild_available(guild)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread deleted ends its game."""
        await self.service.threads.gone(payload.thread_id, threads.DELETED)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel deleted ends its game and those of its threads."""
        await self.service.threads.gone(channel.id, threads.CHANNEL_DELETED)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait before a shard's IDENTIFY only as long as Discord's session start limit asks: 5
        seconds after the last IDENTIFY of its bucket (discord.py waits 5 s before every shard
        but the first, whatever ``max_concurrency`` Discord allows)."""
        if self._max_concurrency is None:
            try:
                self._max_concurrency = max(1, (await self.fetch_session_start_limits()).max_concurrency)
            except (discord.HTTPException, discord.GatewayNotFound):
                self._max_concurrency = 1
        bucket = (shard_id or 0) % self._max_concurrency
        loop = asyncio.get_running_loop()
        last = self._identified.get(bucket)
        if last is not None:
            await asyncio.sleep(max(0.0, last + IDENTIFY_SECONDS - loop.time()))
        self._identified[bucket] = loop.time()

    async def _on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.metrics.interaction(interaction)

    def _shards_run(self) -> tuple[int, list[int]]:
        """The shard count (1 until known) and the shards this process runs."""
        count = self.shard_count or 1
        return count, list(self.shard_ids or range(count))

    def _shards_connected(self) -> dict[int, bool]:
        """Each shard of this process, and whether its gateway connection is open."""
        return {shard_id: not shard.is_closed() for shard_id, shard in self.shards.items()}

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
            if self.metrics_server is not None:
                await self.metrics_server.close()
            await self.storage.close()
            if self._heap_started:
                self._heap_started = False
                HEAP.stop()
