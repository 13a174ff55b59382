"""The operators' endpoint (`bot.ops.metrics`) on its own: ``/health`` by the shards' state, a taken
port, storage calls timed by method, tables counted on their guild's shard."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import pytest

from bot.client.shards import shard_of
from bot.ops.metrics import EndpointError, Metrics, MetricsServer
from bot.storage.sqlite import SqliteStorage

GUILDS = [81384788765712384 + (n << 22) for n in range(6)]  # one after another: shards 0, 1, 2, 3, 0, 1


def test_health_says_which_shard_is_down() -> None:
    """200 while every shard is connected; 503 "starting" before the bot is ready, 503
    "disconnected" naming the shard that is not."""
    shards = {0: True, 1: True}
    ready = [False]

    async def probe() -> list[tuple[int, object]]:
        server = MetricsServer(Metrics(list, lambda: (2, [0, 1])), lambda: dict(shards), lambda: ready[0])
        await server.start("127.0.0.1", 0)
        answers = []
        try:
            async with aiohttp.ClientSession() as session:
                for step in ("not ready", "ready", "shard 1 down"):
                    ready[0] = step != "not ready"
                    shards[1] = step != "shard 1 down"
                    async with session.get(f"http://127.0.0.1:{server.port}/health") as response:
                        answers.append((response.status, await response.json()))
        finally:
            await server.close()
        return answers

    assert asyncio.run(probe()) == [
        (503, {"status": "starting", "shards": {"0": "connected", "1": "connected"}}),
        (200, {"status": "ok", "shards": {"0": "connected", "1": "connected"}}),
        (503, {"status": "disconnected", "shards": {"0": "connected", "1": "disconnected"}}),
    ]


def test_a_taken_port_is_one_clear_error() -> None:
    """A port another program holds: `EndpointError` naming the settings, nothing left open."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = MetricsServer(Metrics(list, lambda: (1, [0])), dict, lambda: True)
        with pytest.raises(EndpointError, match=rf"127\.0\.0\.1:{port}.*metrics\.port"):
            asyncio.run(server.start("127.0.0.1", port))


def test_storage_calls_are_timed_by_method(tmp_path: Path) -> None:
    """Each call through the timed storage is one observation of its method; attributes are the
    backend's own."""
    metrics = Metrics(list, lambda: (1, [0]))
    backend = SqliteStorage(tmp_path / "uno.db")
    storage = metrics.timed(backend)

    async def use() -> None:
        await storage.open()
        try:
            for n in range(3):
                await storage.set_channel_settings(1, 2, {"n": n})
            assert await storage.get_channel_settings(2) == {"n": 2}
        finally:
            await storage.close()

    asyncio.run(use())
    count = metrics.registry.get_sample_value
    assert count("uno_storage_seconds_count", {"operation": "set_channel_settings"}) == 3
    assert count("uno_storage_seconds_count", {"operation": "get_channel_settings"}) == 1
    assert storage.close.__name__ == "close" and storage.path == tmp_path / "uno.db"  # type: ignore[attr-defined]


def test_tables_are_counted_on_their_guilds_shard() -> None:
    """``uno_tables`` for the shards this process runs (2 and 3 of 4), each table on its guild's
    shard."""
    assert [shard_of(g, 4) for g in GUILDS] == [2, 3, 0, 1, 2, 3]
    metrics = Metrics(lambda: [GUILDS[0], GUILDS[4], GUILDS[1]], lambda: (4, [2, 3]))
    value = metrics.registry.get_sample_value
    assert [value("uno_tables", {"shard": str(s)}) for s in range(4)] == [None, None, 2, 1]
