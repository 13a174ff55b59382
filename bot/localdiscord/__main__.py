"""Run the stand-in alone: ``python -m bot.localdiscord --port 8765 --users alice bob``.

Then start the bot with its Discord API base set to ``http://127.0.0.1:8765/api/v10``, its
gateway to ``ws://127.0.0.1:8765/gateway`` and the printed token, and open the page.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from .limits import LOCALES
from .server import DEFAULT_TOKEN, start_stand_in


async def _serve(args: argparse.Namespace) -> None:
    stand_in = await start_stand_in(
        args.host,
        args.port,
        args.guild,
        args.users,
        channels=args.channels,
        token=args.token,
        rate_limits=args.rate_limits,
    )
    stand_in.state.guild_locale = args.guild_locale
    print(f"Local Discord on {stand_in.base_url}  (open it in a browser)")
    print(f"  API base {stand_in.api_url}\n  gateway  {stand_in.gateway_url}\n  token    {stand_in.token}")
    print(f"  guild    {stand_in.guild_id}  (a bot's discord.dev_guild_id, to sync its commands there)")
    try:
        await asyncio.Event().wait()
    finally:
        await stand_in.close()


def main() -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m bot.localdiscord", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--guild", default="Local Guild")
    parser.add_argument(
        "--users", nargs="*", default=["alice", "bob"], help="names, each as name or name:locale (bob:fr)"
    )
    parser.add_argument("--channels", nargs="*", default=["uno"])
    parser.add_argument(
        "--guild-locale",
        default="en-US",
        choices=sorted(LOCALES),
        help="the server's language (guild_locale)",
    )
    parser.add_argument("--token", default=DEFAULT_TOKEN)
    parser.add_argument(
        "--rate-limits",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="answer 429 as Discord does past 5 messages per 5 s per channel or 50 requests/s",
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(parser.parse_args()))


if __name__ == "__main__":
    main()
