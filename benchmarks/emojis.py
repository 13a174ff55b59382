"""Card emoji sync benchmark (docs/card-art.md, "Emojis"): the production bot against the local
stand-in, its first sync (every face drawn and uploaded) and a restart's.

Run: ``python -m benchmarks.emojis``. Prints, without and with Discord's rate limits on the
stand-in: the first sync's seconds, uploads and 429s, then a restart's seconds, list requests and
uploads. Each run is a fresh process's first sync, so the faces are drawn afresh only in the first.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bot.client.bot import UnoBot
from bot.local import local_settings
from bot.localdiscord.server import StandIn
from bot.localdiscord.testing import LocalDiscord
from bot.run import new_event_loop
from bot.settings import load_settings
from bot.storage.sqlite import SqliteStorage


def emoji_requests(stand_in: StandIn, start: int = 0) -> dict[str, int]:
    """The bot's requests to its emoji route since request ``start``: lists, uploads and 429s."""
    route = f"/applications/{stand_in.application_id}/emojis"
    seen = [r for r in stand_in.requests[start:] if r.path == route]
    return {
        "lists": sum(r.method == "GET" and r.status == 200 for r in seen),
        "uploads": sum(r.method == "POST" and r.status == 201 for r in seen),
        "429s": sum(r.status == 429 for r in seen),
    }


async def run(rate_limits: bool) -> None:
    """One stand-in, a bot's first sync, then a restarted bot's."""
    with tempfile.TemporaryDirectory() as tmp:

        def factory(stand_in: StandIn) -> UnoBot:
            settings = local_settings(load_settings(None, environ={}, require_token=False), stand_in)
            return UnoBot(settings, SqliteStorage(Path(tmp) / "uno.db"), guild_ready_timeout=0.05)

        async with LocalDiscord(factory, rate_limits=rate_limits) as env:  # type: ignore[arg-type]
            label = "rate limits on" if rate_limits else "no rate limits"
            for which in ("first start", "restart"):
                start = 0  # the first start's requests are all the emoji sync's
                if which == "restart":
                    start = len(env.stand_in.requests)
                    await env.restart_client()
                emojis = env.client.card_emojis  # type: ignore[attr-defined]
                await asyncio.wait_for(emojis.done.wait(), 120)
                counts = emoji_requests(env.stand_in, start)
                print(f"{label}, {which}: {emojis.seconds:.2f} s, {len(emojis)} emojis, {counts}")


def main() -> None:
    """Print the figures."""
    for rate_limits in (False, True):
        with asyncio.Runner(loop_factory=new_event_loop) as runner:
            runner.run(run(rate_limits))


if __name__ == "__main__":
    main()
