"""The group commit (bot/storage/group_commit.py) without a database: saves queued while one is
written go together in the next batch, a refused save fails alone, a failed write fails its
batch, and drain waits for every queued save."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from bot.storage import LeaseError, StorageError
from bot.storage.group_commit import TABLES_PER_STATEMENT, GroupCommit, QueuedTable


class Writes:
    """A batch writer that records the channels of each batch; refuses the channels in
    ``refused`` (with their owner) and fails a batch holding ``failing``."""

    def __init__(self, refused: Mapping[int, str] | None = None, failing: int | None = None) -> None:
        self.batches: list[list[int]] = []
        self.refused = refused or {}
        self.failing = failing

    async def __call__(self, batch: Sequence[QueuedTable]) -> Mapping[int, str]:
        self.batches.append([q.row[0] for q in batch])
        await asyncio.sleep(0)
        if self.failing in self.batches[-1]:
            raise OSError("disk full")
        return {c: o for c, o in self.refused.items() if c in self.batches[-1]}


def refusal(channel_id: int, owner: str) -> Exception:
    return LeaseError(f"channel {channel_id} is leased to {owner}")


def row(channel_id: int) -> tuple[int, int, str, float]:
    return (channel_id, 1, "{}", 0.0)


def test_saves_queued_while_one_is_written_go_together() -> None:
    """Saves queued before the writer runs are written a statement's worth a batch, in the order
    they came; busy until the last is written."""
    writes = Writes()
    group = GroupCommit(writes, refusal)
    count = 2 * TABLES_PER_STATEMENT + 1

    async def main() -> bool:
        saves = [asyncio.ensure_future(group.save(row(n), ())) for n in range(count)]
        await asyncio.sleep(0)
        assert group.busy
        await asyncio.gather(*saves)
        return group.busy

    assert asyncio.run(main()) is False
    assert [len(b) for b in writes.batches] == [TABLES_PER_STATEMENT, TABLES_PER_STATEMENT, 1]
    assert [c for b in writes.batches for c in b] == list(range(count))


def test_a_refused_save_fails_alone_and_a_failed_write_fails_its_batch() -> None:
    """A refused channel's save raises the refusal's error, the others in its batch succeed; a
    write that raises fails every save of its batch with a StorageError, and the next batch is
    still written."""
    writes = Writes(refused={2: "bot-b"}, failing=5)
    group = GroupCommit(writes, refusal)

    async def main() -> list[BaseException | None]:
        first = [asyncio.ensure_future(group.save(row(n), ())) for n in range(4)]
        await asyncio.gather(*first, return_exceptions=True)
        failed = [asyncio.ensure_future(group.save(row(n), ())) for n in (5, 6)]
        await asyncio.gather(*failed, return_exceptions=True)
        await group.save(row(7), ())
        return [f.exception() for f in (*first, *failed)]

    outcomes = asyncio.run(main())
    assert outcomes[:2] == [None, None] and outcomes[3] is None
    assert isinstance(outcomes[2], LeaseError) and "bot-b" in str(outcomes[2])
    assert all(isinstance(e, StorageError) and "disk full" in str(e) for e in outcomes[4:])
    assert writes.batches[-1] == [7]


def test_drain_waits_for_every_queued_save() -> None:
    """drain returns once the saves queued before it (and while it waits) are written."""
    writes = Writes()
    group = GroupCommit(writes, refusal)

    async def main() -> None:
        saves = [asyncio.ensure_future(group.save(row(n), ())) for n in range(3)]
        await asyncio.sleep(0)
        await group.drain()
        assert all(s.done() for s in saves) and not group.busy

    asyncio.run(main())
    assert sorted(c for b in writes.batches for c in b) == [0, 1, 2]
