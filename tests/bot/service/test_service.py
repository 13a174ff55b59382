"""The service's front: what follows a change, restore after a restart, shutdown
(bot/service/__init__.py)."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil

import bot.service
from bot.tables import TableState

from .helpers import BEN, CHANNEL, GUILD, MemoryStorage, game, lobby, run, service


class Guild:
    """A guild as its GUILD_CREATE shows it: these channels and active threads, no other."""

    def __init__(self, *channels: int) -> None:
        self.id, self.channels = GUILD, set(channels)

    def get_channel(self, channel_id: int) -> object | None:
        return channel_id if channel_id in self.channels else None

    get_thread = get_channel


def test_restore_reloads_saved_tables_and_reposts_their_messages_once_their_guild_is_available() -> None:
    """Sound saved tables come back after a restart, a malformed one skipped; the table is
    reposted once its guild's GUILD_CREATE came, not before."""
    storage, table = MemoryStorage(), game(BEN)
    storage.tables = {
        CHANNEL: table.to_snapshot(),
        CHANNEL + 1: lobby(channel_id=CHANNEL + 1).to_snapshot(),
        CHANNEL + 2: {"snapshot": 99},
    }
    svc, client, _ = service(storage)

    async def body() -> int:
        count = await svc.restore()
        await svc.updates.drain()
        assert client.calls == []  # nothing sent before the guild is known to be there
        await svc.guild_available(Guild(CHANNEL, CHANNEL + 1))  # type: ignore[arg-type]
        await svc.close()
        return count

    assert run(body) == 2
    again = svc.tables.get(CHANNEL)
    assert again is not None and svc.tables.get(CHANNEL + 1) is not None and len(svc.tables) == 2
    assert (
        again.log[-1]
        == "♻️ The bot restarted; the game goes on. A hand opened before is out of date: press My hand."
    )
    assert ("send", CHANNEL) in [c[:2] for c in client.calls]
    assert again.message_id is not None and storage.tables[CHANNEL]["message_id"] == again.message_id


def test_after_a_closing_change_its_tasks_stop_and_its_ping_goes() -> None:
    """After a closing change its timer stops, its last ping goes and its message shows the end."""
    storage, table = MemoryStorage(), game(BEN)
    table.message_id = 500
    svc, client, _ = service(storage, table)
    del svc.after  # the service's own, not the helper's recorder

    async def body() -> bool:
        svc.scheduler.schedule(table)
        timer = svc.scheduler._tasks[(CHANNEL, "timer")]  # Ana's or Ben's
        async with svc.acting.change(CHANNEL) as change:
            change.table.state = TableState.OVER
            change.table.ping_message_id = 77
        svc.after(change)
        await svc.updates.drain()
        await asyncio.sleep(0)
        return timer.cancelled()  # before the loop's end cancels every task left

    assert run(body)
    assert sorted(client.calls) == [("delete", CHANNEL, 77), ("edit", CHANNEL, 500)]


def test_no_part_of_the_service_gets_the_service() -> None:
    """Each part of the service gets the collaborators it uses, not the service: no class of its
    modules takes a `TableService` (TableService alone wires them)."""
    takers = []
    for info in pkgutil.iter_modules(bot.service.__path__):
        module = importlib.import_module(f"bot.service.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            params = inspect.signature(cls.__init__).parameters.values()
            if any("TableService" in str(p.annotation) for p in params):
                takers.append(f"{info.name}.{name}")
    assert len(list(pkgutil.iter_modules(bot.service.__path__))) >= 15  # every part was looked at
    assert takers == []
