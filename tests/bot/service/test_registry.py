"""The registry of tables and their locks."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.registry import TableRegistry
from bot.tables import NoTable


def test_registry_locks_serialize_work_per_table() -> None:
    """Two coroutines on one table run one after the other under its lock."""
    registry = TableRegistry()
    order: list[str] = []

    async def work(name: str) -> None:
        async with registry.lock(7):
            order.append(f"{name}-in")
            await asyncio.sleep(0.01)
            order.append(f"{name}-out")

    async def main() -> None:
        await asyncio.gather(work("a"), work("b"))

    asyncio.run(main())
    assert order in (["a-in", "a-out", "b-in", "b-out"], ["b-in", "b-out", "a-in", "a-out"])
    with pytest.raises(NoTable):
        registry.require(7)


def test_the_registry_knows_which_task_holds_a_lock() -> None:
    """``held_here`` is true inside a table's lock, in that task only, and false after it."""
    registry = TableRegistry()
    seen: dict[str, bool] = {}

    async def other() -> None:
        seen["other task"] = registry.held_here()

    async def main() -> None:
        seen["before"] = registry.held_here()
        async with registry.lock(7):
            seen["inside"] = registry.held_here()
            await asyncio.create_task(other())
        seen["after"] = registry.held_here()

    asyncio.run(main())
    assert seen == {"before": False, "inside": True, "other task": False, "after": False}
