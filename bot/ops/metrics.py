"""What operators see: Prometheus metrics of one bot process, and an HTTP endpoint serving them
with a health check (off unless ``metrics.port`` is set).

Metrics (prometheus-client; each bot has its own registry):

=====================================  ============================================================
``uno_interactions_total{kind}``       interactions received: ``command``, ``component``, ``modal``,
                                       ``autocomplete``
``uno_acknowledgement_seconds``        from an interaction's creation (its id's timestamp, as
                                       Discord counts its 3 seconds) to the end of the bot's first
                                       answer (the callback); past 3 s the user saw "This
                                       interaction failed"
``uno_discord_errors_total{status}``   Discord's error answers (4xx but 429, 5xx) and requests that
                                       got no answer (``status="connection"``)
``uno_discord_rate_limited_total``     Discord's 429s (discord.py waits and sends again)
``uno_tables{shard}``                  open tables (lobbies and games), by their guild's shard
``uno_storage_seconds{operation}``     each storage call, by method (``save_table``, ...)
=====================================  ============================================================

``GET /health``: 200 ``{"status": "ok", "shards": {...}}`` while every shard of the process is
connected, 503 with ``"status": "starting"`` or ``"disconnected"`` otherwise. ``GET /metrics``:
the Prometheus text format.
"""

from __future__ import annotations

import functools
import inspect
import re
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.client.shards import shard_of
from bot.storage import Storage

_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
    discord.InteractionType.autocomplete: "autocomplete",
}
ACK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Seconds; Discord's limit is 3."""
STORAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Metrics:
    """One bot's metrics, in its own registry (two bots in one process, as in the tests, count
    apart).

    Args:
        tables: the open tables' guild ids, read at each scrape.
        shards: the shard count and the shards this process runs, read at each scrape.
    """

    def __init__(
        self, tables: Callable[[], Iterable[int]], shards: Callable[[], tuple[int, Iterable[int]]]
    ) -> None:
        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "uno_interactions", "Interactions received, by kind", ["kind"], registry=self.registry
        )
        self.acknowledgement = Histogram(
            "uno_acknowledgement_seconds",
            "Seconds from an interaction's creation to the end of the bot's first answer",
            buckets=ACK_BUCKETS,
            registry=self.registry,
        )
        self.discord_errors = Counter(
            "uno_discord_errors",
            "Discord's error answers, by HTTP status",
            ["status"],
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "uno_discord_rate_limited", "Discord's 429 answers", registry=self.registry
        )
        self.storage = Histogram(
            "uno_storage_seconds",
            "Seconds per storage call, by method",
            ["operation"],
            buckets=STORAGE_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_TablesPerShard(tables, shards))

    def interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Count an interaction received (discord.py's ``on_interaction``)."""
        self.interactions.labels(_KINDS.get(interaction.type, "other")).inc()

    def watch(self, trace: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
        """Add to ``trace`` (the client's ``http_trace``) the callbacks that see every REST answer:
        errors, 429s and interaction callbacks (acknowledgement latency)."""

        async def ended(session: object, context: object, params: aiohttp.TraceRequestEndParams) -> None:
            status = params.response.status
            if status == 429:
                self.rate_limited.inc()
            elif status >= 400:
                self.discord_errors.labels(str(status)).inc()
            callback = _CALLBACK.search(params.url.path)
            if callback is not None and status < 300:
                created = discord.utils.snowflake_time(int(callback.group(1))).timestamp()
                self.acknowledgement.observe(max(0.0, time.time() - created))

        async def failed(
            session: object, context: object, params: aiohttp.TraceRequestExceptionParams
        ) -> None:
            self.discord_errors.labels("connection").inc()

        trace.on_request_end.append(ended)
        trace.on_request_exception.append(failed)
        return trace

    def timed(self, storage: Storage) -> Storage:
        """``storage`` with every call timed into ``uno_storage_seconds`` (`TimedStorage`)."""
        return cast(Storage, TimedStorage(storage, self.storage))

    def exposition(self) -> bytes:
        """The Prometheus text format of every metric."""
        return generate_latest(self.registry)


class _TablesPerShard(Collector):
    """``uno_tables{shard}`` for each shard this process runs, counted from the registry of
    tables at each scrape."""

    def __init__(
        self, tables: Callable[[], Iterable[int]], shards: Callable[[], tuple[int, Iterable[int]]]
    ) -> None:
        self._tables, self._shards = tables, shards

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "uno_tables", "Open tables (lobbies and games), by shard", labels=["shard"]
        )
        count, run = self._shards()
        per_shard = dict.fromkeys(run, 0)
        for guild_id in self._tables():
            shard = shard_of(guild_id, count)
            per_shard[shard] = per_shard.get(shard, 0) + 1
        for shard, tables in per_shard.items():
            family.add_metric([str(shard)], tables)
        yield family


class TimedStorage:
    """A storage backend whose every coroutine method is timed by method name; everything else
    (attributes, plain methods) is the backend's own. A method replaced on this object (a test
    making saves fail) replaces the timed one."""

    def __init__(self, storage: Storage, histogram: Histogram) -> None:
        self._storage = storage
        self._histogram = histogram

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._storage, name)
        if not inspect.iscoroutinefunction(attribute):
            return attribute
        observe = self._histogram.labels(name).observe

        @functools.wraps(attribute)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await attribute(*args, **kwargs)
            finally:
                observe(time.perf_counter() - start)

        setattr(self, name, timed)  # made once: the next call finds it without this lookup
        return timed


class EndpointError(Exception):
    """The metrics endpoint cannot listen where ``metrics.host`` and ``metrics.port`` say; the
    message is one line naming the setting."""


class MetricsServer:
    """``/metrics`` and ``/health`` over HTTP for one bot.

    Args:
        metrics: what ``/metrics`` serves.
        shards: each shard's id and whether it is connected, read at each ``/health``.
        ready: whether the bot finished starting (discord.py's ``is_ready``).
    """

    def __init__(
        self, metrics: Metrics, shards: Callable[[], dict[int, bool]], ready: Callable[[], bool]
    ) -> None:
        self._metrics, self._shards, self._ready = metrics, shards, ready
        self._runner: web.AppRunner | None = None
        self.port = 0
        """The port listened on (known once started; 0 asks for any free one)."""

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host:port``.

        Raises:
            EndpointError: the port is taken, or the host is not this machine's.
        """
        app = web.Application()
        app.add_routes([web.get("/metrics", self._serve_metrics), web.get("/health", self._health)])
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            await self.close()
            raise EndpointError(
                f"cannot serve metrics on {host}:{port}: {exc.strerror or exc} (settings metrics.host, metrics.port)"
            ) from None
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def close(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _serve_metrics(self, request: web.Request) -> web.Response:
        body = self._metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, request: web.Request) -> web.Response:
        shards = self._shards()
        if not self._ready() or not shards:
            status = "starting"
        elif all(shards.values()):
            status = "ok"
        else:
            status = "disconnected"
        body = {
            "status": status,
            "shards": {str(k): "connected" if v else "disconnected" for k, v in shards.items()},
        }
        return web.json_response(body, status=200 if status == "ok" else 503)


__all__ = ["EndpointError", "Metrics", "MetricsServer", "TimedStorage"]
