"""Test harness: a stand-in, an unmodified discord.py client logged into it, and strictness.

A test fails (at the next wait, or at the end at the latest) on:

- an ERROR record from a ``discord`` logger (view callbacks and commands without a handler
  only log their exceptions),
- a request to a route the stand-in does not have,
- a Discord error returned to the client, unless announced with `LocalDiscord.expect_error`
  (and an announced error that never came fails too); a 429 is not one (discord.py waits and
  retries),
- the client's connect task dying.

Usage with the plain-asyncio runner below (``tests/localdiscord/conftest.py`` wires it)::

    @pytest.fixture
    def discord_env() -> LocalDiscord:
        return LocalDiscord(MyBot, users=["alice", "bob"])

    async def test_join(discord_env: LocalDiscord) -> None:
        alice = discord_env.user("alice")
        run = await discord_env.stand_in.slash(alice, discord_env.channel("uno"), "uno new")
        ...

or directly: ``async with LocalDiscord(MyBot) as env: ...``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import struct
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import discord

from .ratelimits import RateLimits
from .records import WAIT_SECONDS, Channel, Clock, User
from .server import StandIn, point_discord_py_at

ClientFactory = Callable[[StandIn], discord.Client]


def png(
    width: int = 2, height: int = 2, color: tuple[int, int, int] = (0xE5, 0x39, 0x35), *, padding: int = 0
) -> bytes:
    """A valid RGB PNG of one ``color`` (``width`` x ``height`` pixels), for emoji uploads in
    tests; ``padding`` bytes in a private chunk make the file larger without changing the picture.
    A one-pixel white frame marks its edges when it is at least 3 pixels each way."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    def pixel(x: int, y: int) -> bytes:
        edge = width >= 3 and height >= 3 and (x in (0, width - 1) or y in (0, height - 1))
        return b"\xff\xff\xff" if edge else bytes(color)

    rows = b"".join(b"\x00" + b"".join(pixel(x, y) for x in range(width)) for y in range(height))
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    extra = chunk(b"prIv", b"\x00" * padding) if padding else b""
    return b"\x89PNG\r\n\x1a\n" + header + extra + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class _Collector(logging.Handler):
    """Sends ERROR records of the ``discord`` loggers to the harness."""

    def __init__(self, sink: Callable[[logging.LogRecord], None]) -> None:
        super().__init__(logging.ERROR)
        self._sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self._sink(record)


class LocalDiscord:
    """A started `StandIn` with a discord.py client connected to it (an async context manager).

    Args:
        client_factory: builds the client (given the stand-in, e.g. for its guild id, token and
            URLs); it must not be started.
        guild_name, users, channels, bot_name, clock, rate_limits: passed to `StandIn` (rate
            limits are off unless asked for).
        wait_ready: also wait for ``on_ready``. Start-up always waits until the client cached
            the guild from GUILD_CREATE, which is enough for interactions; ``on_ready`` comes
            ``guild_ready_timeout`` (discord.py default 2 s) later, after member chunking.
        timeout: seconds allowed for start-up.
    """

    def __init__(
        self,
        client_factory: ClientFactory,
        *,
        guild_name: str = "Test Guild",
        users: Iterable[str] = ("alice", "bob"),
        channels: Iterable[str] = ("uno",),
        bot_name: str = "UNO Bot",
        clock: Clock | None = None,
        rate_limits: bool | RateLimits = False,
        wait_ready: bool = False,
        timeout: float = WAIT_SECONDS,
    ) -> None:
        self.stand_in = StandIn(
            guild_name=guild_name, users=users, channels=channels, bot_name=bot_name, clock=clock
        )
        self.stand_in.rate_limits = rate_limits
        self.stand_in.rest.check_responses = True  # and the gateway's events: Discord's shapes
        self.stand_in.gateway.check_payloads = True
        self.stand_in.state.check_emojis = True  # text and images name emojis that exist
        self._factory = client_factory
        self._wait_ready = wait_ready
        self._timeout = timeout
        self._client: discord.Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._others: dict[discord.Client, asyncio.Task[None]] = {}
        self._expected_errors: Counter[int] = Counter()
        self._expected_logs: list[str] = []
        self._checked = 0
        self._collector = _Collector(self._on_log)
        self._restore: Callable[[], None] | None = None
        self._remove_listener: Callable[[], None] | None = None

    # ------------------------------------------------------------------ shortcuts

    @property
    def client(self) -> discord.Client:
        """The running client.

        Raises:
            RuntimeError: no client is running.
        """
        if self._client is None:
            raise RuntimeError("no client is running")
        return self._client

    def user(self, name: str) -> User:
        """A stand-in user by name."""
        return self.stand_in.user(name)

    def channel(self, name: str) -> Channel:
        """A stand-in text channel by name."""
        return self.stand_in.channel(name)

    # ------------------------------------------------------------------ expectations

    def expect_error(self, code: int, times: int = 1) -> None:
        """Announce that the client will get Discord error ``code`` (``times`` times)."""
        self._expected_errors[code] += times

    def expect_log(self, text: str) -> None:
        """Allow one ERROR log record whose message contains ``text``."""
        self._expected_logs.append(text)

    def _on_log(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            message += f" ({record.exc_info[1]!r})"
        for index, text in enumerate(self._expected_logs):
            if text in message:
                del self._expected_logs[index]
                return
        self.stand_in.state.fail(f"ERROR logged by {record.name}: {message}")

    def _on_change(self) -> None:
        requests = self.stand_in.state.requests
        while self._checked < len(requests) and requests[self._checked].status:
            record = requests[self._checked]
            self._checked += 1
            if record.unknown_route:
                self.stand_in.state.fail(f"unknown route {record.method} {record.path}")
            elif record.status == 429:
                pass  # rate limited: not a failure, discord.py waits retry_after and sends it again
            elif record.error is not None:
                code = record.error.code
                if self._expected_errors[code] > 0:
                    self._expected_errors[code] -= 1
                else:
                    self.stand_in.state.fail(
                        f"Discord error {code} ({record.error.message}) for {record.method} "
                        f"{record.path}: {record.response}"
                    )

    def unmet_expectations(self) -> list[str]:
        """Announced errors and log records that have not happened (yet)."""
        errors = [
            f"expected Discord error {c} was not returned" for c, n in self._expected_errors.items() if n
        ]
        logs = [f"expected an ERROR log containing {text!r}" for text in self._expected_logs]
        return errors + logs

    def problems(self) -> list[str]:
        """Everything that fails the test at exit: reported problems and unmet expectations."""
        return [*self.stand_in.state.problems, *self.unmet_expectations()]

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> LocalDiscord:
        await self.stand_in.start()
        self._restore = point_discord_py_at(self.stand_in.base_url)
        logging.getLogger("discord").addHandler(self._collector)
        self._remove_listener = self.stand_in.state.add_listener(self._on_change)
        try:
            await self.start_client()
        except BaseException:
            await self._shutdown()
            raise
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self._shutdown()
        if exc_type is None and self.problems():
            raise AssertionError("local Discord problems:\n- " + "\n- ".join(self.problems()))

    async def _shutdown(self) -> None:
        for other in list(self._others):
            await self.stop_other(other)
        await self.stop_client()
        if self._remove_listener is not None:
            self._remove_listener()
        logging.getLogger("discord").removeHandler(self._collector)
        await self.stand_in.close()
        if self._restore is not None:
            self._restore()

    async def start_client(self) -> discord.Client:
        """Build, log in and connect a client; wait for its gateway session (and ``on_ready``
        when ``wait_ready``)."""
        client = self._factory(self.stand_in)
        self._client = client
        self._task = await self._connect(client)
        return client

    async def start_other(self, factory: ClientFactory) -> discord.Client:
        """Build, log in and connect another client beside `client` (another process of a
        sharded bot, say), held to the same strictness and stopped at exit (or `stop_other`)."""
        client = factory(self.stand_in)
        self._others[client] = await self._connect(client)
        return client

    async def stop_other(self, client: discord.Client) -> None:
        """Close a client started with `start_other`."""
        await self._close(client, self._others.pop(client))

    async def _connect(self, client: discord.Client) -> asyncio.Task[None]:
        """Log ``client`` in and connect it; wait until it has the guilds of its shards (and
        ``on_ready`` when ``wait_ready``)."""
        identifies = self.stand_in.gateway.identifies
        await client.login(self.stand_in.token)
        task = asyncio.create_task(client.connect(reconnect=True))
        task.add_done_callback(self._connect_ended)
        await self.stand_in.wait_until(lambda: self.stand_in.gateway.identifies > identifies, self._timeout)
        await self.stand_in.wait_until(lambda: self._has_its_guilds(client), self._timeout)
        if self._wait_ready:
            await asyncio.wait_for(client.wait_until_ready(), self._timeout)
        return task

    def _has_its_guilds(self, client: discord.Client) -> bool:
        """Whether ``client`` cached every guild of its shards (from their GUILD_CREATEs): all of
        them for an unsharded client or one that runs every shard."""
        count = client.shard_count or 1
        if isinstance(client, discord.AutoShardedClient):
            shards = set(client.shard_ids or range(count))
        else:
            shards = {client.shard_id or 0}
        return all(
            client.get_guild(guild.id) is not None
            for guild in self.stand_in.guilds
            if guild.shard(count) in shards
        )

    def _connect_ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.stand_in.state.fail(f"client.connect() died: {task.exception()!r}")

    async def stop_client(self) -> None:
        """Close the client (the stand-in keeps its state)."""
        if self._client is not None:
            await self._close(self._client, self._task)
        self._client, self._task = None, None

    @staticmethod
    async def _close(client: discord.Client, task: asyncio.Task[None] | None) -> None:
        await client.close()
        if task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 5.0)

    async def restart_client(self) -> discord.Client:
        """Stop the client and start a fresh one from the factory (a bot restart)."""
        await self.stop_client()
        return await self.start_client()


def run_coroutine_test(
    pyfuncitem: Any,
    timeout: float = 30.0,
    loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None,
) -> bool | None:
    """Body of a ``pytest_pyfunc_call`` hook: run an ``async def`` test on a fresh event loop
    (from ``loop_factory``; default asyncio's), entering every `LocalDiscord` argument around it.
    Returns None for other tests.

    In a conftest::

        @pytest.hookimpl(tryfirst=True)
        def pytest_pyfunc_call(pyfuncitem):
            return run_coroutine_test(pyfuncitem)
    """
    function = pyfuncitem.obj
    if not inspect.iscoroutinefunction(function):
        return None
    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}

    async def main() -> None:
        async with contextlib.AsyncExitStack() as stack:
            for value in arguments.values():
                if isinstance(value, LocalDiscord):
                    await stack.enter_async_context(value)
            await asyncio.wait_for(function(**arguments), timeout)

    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(main())
    return True


__all__ = ["LocalDiscord", "png", "run_coroutine_test"]
