"""Running the bot against Discord (or any server the settings point at)."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import discord

from bot.client.bot import UnoBot, point_at
from bot.ops.metrics import EndpointError
from bot.settings import Settings
from bot.storage import Storage, StorageError
from bot.storage.choose import make_storage

log = logging.getLogger(__name__)

T = TypeVar("T")


def new_event_loop() -> asyncio.AbstractEventLoop:
    """A new event loop for the bot, whose tasks start eagerly on Python 3.12 and later.

    With `asyncio.eager_task_factory` a new task runs at once, up to its first wait, instead of at
    the loop's next pass. discord.py runs every interaction's handler in a task of its own, and
    aiohttp writes a request's body from another; eager, a click's acknowledgement is written in
    the pass that read it, not two passes of a busy loop later (docs/performance/discord-layer.md).
    Python 3.11 has no eager tasks: there the loop is asyncio's plain one.
    """
    loop = asyncio.new_event_loop()
    if sys.version_info >= (3, 12):
        loop.set_task_factory(asyncio.eager_task_factory)
    return loop


def open_storage(settings: Settings, location: Path | str, *, new_database: bool = False) -> Storage:
    """The bot's storage at ``location`` (an SQLite file's path or a database URL; not yet open),
    with the settings' ``database.synchronous``; ``new_database`` (``--new-database``): make a new,
    empty SQLite database where one was made before but the file is missing (else opening it
    refuses)."""
    return make_storage(location, synchronous=settings.database.synchronous, new_database=new_database)


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to its end on a fresh `new_event_loop`, as `asyncio.run` does."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(main)


async def run_bot(
    settings: Settings,
    *,
    database: Path | str | None = None,
    new_database: bool = False,
    sync_global: bool = False,
) -> int:
    """Log in and serve until stopped; returns the exit status (2: bad token or database).

    ``database`` (a path or a URL) overrides the settings; ``new_database``: see `open_storage`."""
    point_at(settings)
    storage = open_storage(settings, database or settings.database.location, new_database=new_database)
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
    except EndpointError as exc:
        log.error("%s", exc)
        return 2
    return 0
