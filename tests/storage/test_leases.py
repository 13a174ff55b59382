"""Table leases (``Storage.acquire_tables``): on PostgreSQL one owner per table among several
storages (bot processes) on one database, taken over only once expired; on SQLite, where one
process holds the file, its one owner is granted every table."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from bot.storage import LeaseError, Storage

from .helpers import ANA, BEN, GUILD, game, rnd

if TYPE_CHECKING:
    from .conftest import Backend

LONG = 60.0  # seconds: a lease that does not expire during a test


def shared(storage: Backend) -> None:
    """Skip a backend whose database one process holds alone (no second owner to refuse)."""
    if not storage.name.startswith("postgresql"):
        pytest.skip(f"{storage.name}: one process holds the database; every table is its own")


async def both(storage: Backend) -> tuple[Storage, Storage]:
    """Two open storages (two bot processes) on the backend's database."""
    first, second = storage.make(), storage.make()
    await first.open()
    await second.open()
    assert first.owner != second.owner
    return first, second


def test_one_owner_per_table(storage: Backend) -> None:
    """A table leased to one storage is refused to another: not granted, and its saves and
    deletions raise LeaseError and change nothing, until the owner releases it."""
    shared(storage)

    async def main() -> None:
        a, b = await both(storage)
        try:
            assert await a.acquire_tables([1, 2], LONG) == {1, 2}
            assert await b.acquire_tables([2, 3], LONG) == {3}
            await a.save_table(GUILD, 2, {"by": "a"})
            with pytest.raises(LeaseError, match=f"channel 2 is leased to {a.owner}"):
                await b.save_table(GUILD, 2, {"by": "b"})
            with pytest.raises(LeaseError):
                await b.delete_table(2)
            assert await b.load_tables() == [{"by": "a"}]
            await b.save_table(GUILD, 3, {"by": "b"})  # its own table
            await b.save_table(GUILD, 4, {"by": "b"})  # a table nobody leased
            assert await a.acquire_tables([2], LONG) == {2}  # again: still its own
            await a.release_tables([2])
            assert await b.acquire_tables([2], LONG) == {2}
            with pytest.raises(LeaseError):
                await a.save_table(GUILD, 2, {"by": "a again"})
            assert await a.renew_tables(LONG) == {1}
            assert await b.renew_tables(LONG) == {2, 3}
            await b.delete_table(2)
            assert await a.load_tables() == [{"by": "b"}, {"by": "b"}]
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(main())


def test_expired_lease_taken_over(storage: Backend) -> None:
    """An expired lease (its owner died or lost touch) is granted to another storage; its old
    owner's renewal then leaves the table out, and its writes are refused."""
    shared(storage)

    async def main() -> None:
        a, b = await both(storage)
        try:
            assert await a.acquire_tables([5, 6], 0.2) == {5, 6}
            assert await b.acquire_tables([5], LONG) == set()
            await asyncio.sleep(0.3)
            assert await b.acquire_tables([5], LONG) == {5}
            assert await a.renew_tables(LONG) == {6}  # 6 expired too, but nobody took it
            with pytest.raises(LeaseError):
                await a.save_table(GUILD, 5, {"stale": True})
            await b.save_table(GUILD, 5, {"fresh": True})
            assert await a.load_tables() == [{"fresh": True}]
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(main())


def test_leases_of_a_process_gone_are_free_at_once(storage: Backend) -> None:
    """A storage closed without giving up its leases (a bot killed: its connections closed) no
    longer holds its tables: another takes them at once, long before the leases expire."""
    shared(storage)

    async def main() -> None:
        a, b = await both(storage)
        try:
            assert await a.acquire_tables([7, 8], LONG) == {7, 8}
            await a.save_table(GUILD, 7, {"by": "a"})
            assert await b.acquire_tables([7], LONG) == set()  # a runs: refused
            await a.close()
            assert await b.acquire_tables([7, 8], LONG) == {7, 8}
            await b.save_table(GUILD, 7, {"by": "b"})
            assert await b.load_tables() == [{"by": "b"}]
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(main())


def test_refused_save_fails_alone_without_its_results(storage: Backend) -> None:
    """Saves written together (group commit): the one of a table another storage holds fails,
    its round not recorded; the others land with theirs."""
    shared(storage)

    async def main() -> None:
        a, b = await both(storage)
        try:
            await a.acquire_tables([10], LONG)
            saves = [
                b.save_table(GUILD, 10, {"n": 10}, [rnd("held", 1, ANA, 5, [ANA, BEN], channel=10)]),
                *(
                    b.save_table(GUILD, c, {"n": c}, [rnd(f"g{c}", 1, BEN, c, [ANA, BEN], channel=c)])
                    for c in (11, 12)
                ),
            ]
            outcome = await asyncio.gather(*saves, return_exceptions=True)
            assert isinstance(outcome[0], LeaseError) and outcome[1:] == [None, None]
            assert sorted(t["n"] for t in await a.load_tables()) == [11, 12]
            assert (await a.stats(GUILD, BEN)).points == 23
            assert (await a.stats(GUILD, ANA)).rounds_won == 0
            with pytest.raises(LeaseError):  # nor a game's end
                await b.delete_table(10, [game("held", [ANA], [ANA, BEN])])
            assert await a.game("held") is None
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(main())


def test_bad_lease_length_refused(storage: Backend) -> None:
    """A lease of no time is refused (ValueError) where leases are real."""
    shared(storage)

    async def main(s: Storage) -> None:
        for seconds in (0, -1.0):
            with pytest.raises(ValueError, match="positive number of seconds"):
                await s.acquire_tables([1], seconds)
        assert await s.acquire_tables([], LONG) == set()

    storage.run(main)


def test_single_owner_granted_everything(storage: Backend) -> None:
    """Where one process holds the database, every table is granted, renewed until released,
    and nothing is refused."""
    if storage.name.startswith("postgresql"):
        pytest.skip("leases with several owners: the tests above")

    async def main(s: Storage) -> None:
        assert await s.acquire_tables([1, 2, 3], LONG) == {1, 2, 3}
        await s.release_tables([2])
        assert await s.renew_tables(LONG) == {1, 3}
        await s.save_table(GUILD, 2, {"n": 2})
        assert await s.load_tables() == [{"n": 2}]

    storage.run(main)
