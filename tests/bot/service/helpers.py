"""What the service's tests share: an event loop per test, an in-memory storage that can be
made to fail, a fake discord client that records its calls, tables in a given state and a
service built on them."""

from __future__ import annotations

import asyncio
import copy
import itertools
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from types import SimpleNamespace
from typing import Any, TypeVar

import discord

from bot.engine import ai
from bot.engine.events import Event
from bot.engine.options import Options
from bot.service import Change, TableService
from bot.settings import GameDefaults
from bot.storage import GameResult, RoundResult, StorageError
from bot.tables import Seat, Table

T = TypeVar("T")
GUILD, CHANNEL = 1, 20
ANA, BEN = "1", "2"
Snapshot = dict[str, Any]
Results = Sequence[RoundResult | GameResult]


def run(body: Callable[[], Awaitable[T]]) -> T:
    """Await ``body()`` in an event loop of its own; its result."""

    async def main() -> T:
        return await body()

    return asyncio.run(main())


async def until(condition: Callable[[], bool], seconds: float = 2.0) -> None:
    """Wait (a few milliseconds at a time) until ``condition()`` holds; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.002)


class MemoryStorage:
    """The part of :class:`~bot.storage.Storage` the service's changes use, in memory. With
    ``fail`` set, every save and deletion raises :class:`StorageError` and keeps nothing.

    Attributes:
        tables: the saved snapshots by channel id (copies).
        results: every round and game recorded, in order.
        writes: how many saves and deletions were kept.
    """

    def __init__(self) -> None:
        self.tables: dict[int, Snapshot] = {}
        self.results: list[RoundResult | GameResult] = []
        self.writes = 0
        self.fail = False

    def _write(self, results: Results) -> None:
        if self.fail:
            raise StorageError("the disk is full")
        self.results += results
        self.writes += 1

    async def save_table(
        self, guild_id: int, channel_id: int, snapshot: Snapshot, results: Results = ()
    ) -> None:
        """Keep a copy of the snapshot, and the results."""
        self._write(results)
        self.tables[channel_id] = copy.deepcopy(snapshot)

    async def delete_table(self, channel_id: int, results: Results = ()) -> None:
        """Forget the table; keep the results."""
        self._write(results)
        self.tables.pop(channel_id, None)

    async def load_tables(self) -> list[Snapshot]:
        """Every saved snapshot."""
        return [copy.deepcopy(s) for s in self.tables.values()]

    async def get_channel_settings(self, channel_id: int) -> None:
        """No channel has settings of its own."""
        return None


class FakeClient:
    """A discord client that records what the service asks of Discord (``calls``): posts in a
    channel, message edits and deletions, each answered with a new message id after
    ``latency`` seconds. Posts whose content is in ``refused`` are refused (Forbidden), and
    edits of messages in ``gone`` too (NotFound)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.pings: list[dict[str, Any]] = []  # each ping's payload
        self.latency = 0.0
        self.refused: set[str] = set()
        self.gone: set[int] = set()
        self._ids = itertools.count(1000)
        self.http = SimpleNamespace(
            edit_message=self._edit, send_message=self._send_message, delete_message=self._delete
        )

    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> Any:
        """A channel that can only send, and delete a message."""

        async def send(content: str | None = None, *, embed: Any = discord.utils.MISSING, **_: Any) -> Any:
            await asyncio.sleep(self.latency)
            if content in self.refused:
                raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "Missing Access")
            self.calls.append(
                ("send", channel_id, content, None if embed is discord.utils.MISSING else embed)
            )
            return SimpleNamespace(id=next(self._ids))

        def get_partial_message(message_id: int) -> Any:
            return SimpleNamespace(delete=lambda: self._delete(channel_id, message_id))

        return SimpleNamespace(send=send, get_partial_message=get_partial_message)

    async def _edit(self, channel_id: int, message_id: int, *, params: Any) -> None:
        if message_id in self.gone:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Message")
        self.calls.append(("edit", channel_id, message_id))

    async def _send_message(self, channel_id: int, *, params: Any) -> dict[str, Any]:
        self.calls.append(("ping", channel_id, params.payload["content"]))
        self.pings.append(params.payload)
        return {"id": str(next(self._ids))}

    async def _delete(self, channel_id: int, message_id: int) -> None:
        self.calls.append(("delete", channel_id, message_id))


def lobby(*seats: str, channel_id: int = CHANNEL) -> Table:
    """A lobby hosted by Ana (id "1"), with more seats: ``"ai"`` a bot, else a human's id."""
    table = Table.new(guild_id=GUILD, channel_id=channel_id, host=Seat(ANA, "Ana"))
    for seat in seats:
        if seat == "ai":
            table.add_ai()
        else:
            table.join(Seat(seat, f"Player {seat}"))
    return table


def game(
    *seats: str,
    first: str | None = None,
    options: Options | None = None,
    channel_id: int = CHANNEL,
    variant: str | None = None,
) -> Table:
    """A table whose game has started (see :func:`lobby`; of ``variant``, else classic), with
    ``first`` to act if given: the first seed of the shuffles that deals it that way."""
    for seed in range(200):
        table = lobby(*seats, channel_id=channel_id)
        if options is not None:
            table.configure(options=options)
        if variant is not None:
            table.configure(variant=variant)
        table.start(seed=seed)
        assert table.game is not None
        if first is None or table.game.pending.player == first:
            return table
    raise AssertionError(f"no deal lets {first} act first")


def finish_round(table: Table, seed: int = 0) -> list[Event]:
    """Play the table's round to its end with random moves; the events of the last one."""
    game, rng = table.game, random.Random(seed)
    assert game is not None
    events: list[Event] = []
    for _ in range(5000):
        if game.round_over:
            return events
        player = game.pending.player
        assert player is not None
        events = game.apply(player, ai.random_action(game, player, rng))
    raise AssertionError("the round never ended")


def service(storage: Any, *tables: Table, **defaults: Any) -> tuple[TableService, FakeClient, list[Change]]:
    """A service on a fake client with ``tables`` registered (and saved), its game defaults
    ``defaults``; its :meth:`TableService.after` only records the changes it is given (no
    publishing, no next AI move or timer), in the list returned."""
    client = FakeClient()
    built = TableService(client, storage, GameDefaults(**{"ping_after_seconds": 0, **defaults}))  # type: ignore[arg-type]
    for table in tables:
        built.tables.put(table)
        if isinstance(storage, MemoryStorage):
            storage.tables[table.channel_id] = table.to_snapshot()
    changes: list[Change] = []
    built.after = lambda change, publish=True, point=True: changes.append(change)  # type: ignore[method-assign]
    return built, client, changes
