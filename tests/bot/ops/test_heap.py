"""The collector's policy (`bot.ops.heap`): a full pass's survivors are frozen, so later full passes
walk only what is newer; cycles among frozen objects are freed once the frozen objects grow."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot.ops.heap import Heap


class Node:
    """An object in a reference cycle (it refers to itself): only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def heap() -> Iterator[Heap]:
    """A policy of its own (growth 1.5), stopped and everything unfrozen afterwards."""
    policy = Heap(growth=1.5)
    policy.start()
    yield policy
    policy.stop()
    gc.unfreeze()


def in_generations(obj: object) -> bool:
    """Whether a full pass would walk ``obj`` (frozen objects are in no generation)."""
    return any(o is obj for o in gc.get_objects(generation=2))


def test_a_full_pass_freezes_what_survives_it(heap: Heap) -> None:
    """Objects that outlive a full pass are not walked by the next ones; newer ones are."""
    old = [{"seat": n} for n in range(100)]
    gc.collect()  # a full pass
    young = [{"seat": n} for n in range(100)]
    gc.collect(1)  # young ones reach the oldest generation, without a full pass
    assert not in_generations(old)
    assert in_generations(young)


def test_stop_ends_the_freezing(heap: Heap) -> None:
    """After `stop`, a full pass leaves its survivors where they are."""
    heap.stop()
    try:
        survivor = [{"seat": n} for n in range(100)]
        gc.collect()
        assert in_generations(survivor)
    finally:
        heap.start()


def test_cycles_frozen_then_dropped_are_freed_once_the_frozen_objects_grow(heap: Heap) -> None:
    """A cycle dropped after it was frozen outlives full passes (nothing walks it) until the
    frozen objects outgrow `Heap.growth` times what the last thorough pass left; then the next
    full pass walks everything and frees it."""
    baseline = heap.frozen_after_thorough
    nodes = [Node() for _ in range(1000)]
    alive = [weakref.ref(n) for n in nodes]
    gc.collect()  # frozen with the rest
    del nodes
    gc.collect()
    assert all(ref() is not None for ref in alive)  # the leak the growth bound is there for
    thorough = heap.thorough_passes
    padding = [[n] for n in range(int(baseline * 0.6))]  # the frozen objects outgrow 1.5 times
    gc.collect()  # freezes, finds too many: unfreezes for the next pass
    gc.collect()  # the thorough pass
    assert all(ref() is None for ref in alive)
    assert heap.thorough_passes == thorough + 1
    assert heap.frozen_after_thorough >= len(padding)
