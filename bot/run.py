"""Running the bot against Discord (or any server the settings point at)."""

from __future__ import annotations

import logging
from pathlib import Path

import aiohttp
import discord

from bot.client import UnoBot, point_at
from bot.settings import Settings
from bot.storage import StorageError
from bot.storage.sqlite import SqliteStorage

log = logging.getLogger(__name__)


async def run_bot(settings: Settings, *, database: Path | None = None, sync_global: bool = False) -> int:
    """Log in and serve until stopped; returns the exit status (2: bad token or database)."""
    point_at(settings)
    storage = SqliteStorage(database or settings.database.path)
    try:
        await storage.open()  # a bad database stops the bot before it contacts Discord
    except StorageError as exc:
        log.error("database: %s", exc)
        return 2
    bot = UnoBot(settings, storage, sync_global=sync_global)
    token = settings.discord.token.get_secret_value() if settings.discord.token else ""
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        log.error("Discord refused the token (setting discord.token).")
        return 2
    except (aiohttp.ClientError, OSError) as exc:
        log.error("cannot reach Discord at %s: %s (setting discord.api_base)", settings.discord.api_base, exc)
        return 2
    except StorageError as exc:
        log.error("database: %s", exc)
        return 2
    return 0
