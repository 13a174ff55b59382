"""Local mode (``python -m bot --local``): the Discord stand-in, the bot, and a page to play in.

No Discord account, token or network: the stand-in (``bot/localdiscord``) serves Discord's REST
and gateway on 127.0.0.1 and a browser page at ``http://127.0.0.1:8765``; the unmodified bot logs
into it through its ``discord.api_base`` / ``discord.gateway_url`` settings.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import Protocol

from pydantic import SecretStr

from bot.client.bot import UnoBot, point_at
from bot.localdiscord.server import start_stand_in
from bot.run import open_storage
from bot.settings import Settings
from bot.storage import StorageError

log = logging.getLogger(__name__)
PLAYERS = ("alice", "bob", "carol", "dave")
CHANNELS = ("uno", "uno-2")


class StandInAddress(Protocol):
    """How the bot reaches a stand-in: a :class:`~bot.localdiscord.server.StandIn`, or its
    addresses copied to another process (the load benchmark's bot process)."""

    @property
    def token(self) -> str: ...
    @property
    def base_url(self) -> str: ...
    @property
    def api_url(self) -> str: ...
    @property
    def gateway_url(self) -> str: ...
    @property
    def guild_id(self) -> int: ...


def local_settings(settings: Settings, stand_in: StandInAddress) -> Settings:
    """The settings with Discord replaced by the stand-in (token, REST, gateway and CDN addresses,
    command guild)."""
    discord_settings = settings.discord.model_copy(
        update={
            "token": SecretStr(stand_in.token),
            "api_base": stand_in.api_url,
            "gateway_url": stand_in.gateway_url,
            "cdn_base": stand_in.base_url,  # it serves the emojis' images too
            "dev_guild_id": stand_in.guild_id,
            "sync_commands": True,
        }
    )
    return settings.model_copy(update={"discord": discord_settings})


async def run_local(
    settings: Settings, *, database: Path | str | None = None, new_database: bool = False
) -> int:
    """Serve the stand-in and run the bot against it until interrupted; returns the exit status
    (``new_database``: see `bot.run.open_storage`)."""
    try:
        # Discord's rate limits are on, so a person sees what a busy table would meet.
        stand_in = await start_stand_in(
            settings.local.host,
            settings.local.port,
            "UNO Local",
            PLAYERS,
            channels=CHANNELS,
            rate_limits=True,
        )
    except OSError as exc:
        log.error("cannot listen on %s:%s (%s); try --port", settings.local.host, settings.local.port, exc)
        return 2
    with tempfile.TemporaryDirectory(prefix="uno-local-") as tmp:
        path = database or Path(tmp) / "uno.db"
        storage = open_storage(settings, path, new_database=new_database)
        try:  # a database it cannot use stops local mode before it announces the page
            await storage.open()
        except StorageError as exc:
            log.error("database: %s", exc)
            await stand_in.close()
            return 2
        # The first user is the server's admin, so hosts can try /uno settings, kick and end.
        stand_in.grant(stand_in.user(PLAYERS[0]), "manage_channels", "manage_messages")
        bot_settings = local_settings(settings, stand_in)
        point_at(bot_settings)
        bot = UnoBot(bot_settings, storage)  # open already: closed with the bot
        print(f"\n  UNO is ready: open {stand_in.base_url} in your browser (Ctrl+C stops).\n", flush=True)
        try:
            async with bot:
                await bot.start(stand_in.token)
        except StorageError as exc:
            log.error("database: %s", exc)
            return 2
        finally:
            await stand_in.close()
    return 0
