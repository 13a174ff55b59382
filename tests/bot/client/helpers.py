"""What the tests of the Discord-facing modules share: a small HTTP server in Discord's place."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web
from discord.http import Route


@contextlib.asynccontextmanager
async def serving(
    answer: Callable[[web.Request], Awaitable[web.StreamResponse]], monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[None]:
    """Within the block, a server on 127.0.0.1 answers every request with ``answer``, and
    discord.py's REST calls go to it (`Route.BASE`: ``http://127.0.0.1:PORT/api/v10``)."""
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10")
    try:
        yield
    finally:
        await runner.cleanup()
