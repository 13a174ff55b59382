"""A local Discord stand-in: REST v10 + gateway v10 + a browser page on 127.0.0.1, for running
an unmodified discord.py bot end to end without Discord.

Public API::

    stand_in = await start_stand_in(host="127.0.0.1", port=0, guild_name="UNO Club",
                                    users=["alice", "bob"], channels=["uno"],
                                    rate_limits=True)  # Discord's 429s (off by default)
    restore = point_discord_py_at(stand_in.base_url)   # Route.BASE + DEFAULT_GATEWAY
    run = await stand_in.slash(alice, channel, "uno new", variant="flip")
    response = await run.response()                     # InteractionResponse(type, message, modal)
    await stand_in.click(bob, response.message, label="Join")
    stand_in.visible_messages(bob, channel)
    await stand_in.close()

Tests use `bot.localdiscord.testing.LocalDiscord` (stand-in + client + strictness).
"""

from .interactions import CommandUsageError, parse_command_line
from .limits import DiscordError
from .ratelimits import RateLimits
from .records import (
    Channel,
    Clock,
    Emoji,
    Guild,
    InteractionRecord,
    InteractionResponse,
    Message,
    RequestRecord,
    Role,
    User,
)
from .server import DEFAULT_TOKEN, StandIn, point_discord_py_at, start_stand_in

__all__ = [
    "DEFAULT_TOKEN",
    "Channel",
    "Clock",
    "CommandUsageError",
    "DiscordError",
    "Emoji",
    "Guild",
    "InteractionRecord",
    "InteractionResponse",
    "Message",
    "RateLimits",
    "RequestRecord",
    "Role",
    "StandIn",
    "User",
    "parse_command_line",
    "point_discord_py_at",
    "start_stand_in",
]
