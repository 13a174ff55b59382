"""The garbage collector's full passes kept short: what outlived the last one is not walked again.

CPython's cyclic collector walks every tracked object of the process in a full (generation 2)
pass, and a full pass comes once a quarter more objects than the last one left have been
promoted. With 2,000 tables those passes took 1.5 s each, several times a minute, and every
table waited for them (docs/performance/discord-layer.md). After each full pass `Heap` freezes its
survivors (`gc.freeze`): later passes walk only the objects made since, so a pass costs what was
promoted since the last one, not the whole heap. Frozen objects are still freed by their
reference counts the moment nothing holds them; only reference cycles among them are never
found. So that those cannot pile up, once the frozen objects have grown to `GROWTH` times what
the last thorough pass left, the next full pass walks everything again (`gc.unfreeze`) and
frees them: about once per doubling of the tables, and in a steady state only as often as
cycles leak.
"""

from __future__ import annotations

import gc
from typing import Any

GROWTH = 2.0
"""Frozen objects may grow to this many times what the last thorough pass left before the next
full pass walks them all again."""


class Heap:
    """The policy above, for this process (one callback however many clients run in it).

    Attributes:
        thorough_passes: the full passes that walked every object, start-up's included.
        frozen_after_thorough: objects frozen right after the last thorough pass.
    """

    def __init__(self, growth: float = GROWTH) -> None:
        self.growth = growth
        self.thorough_passes = 0
        self.frozen_after_thorough = 0
        self._users = 0
        self._thorough = False

    def start(self) -> None:
        """Collect everything now and freeze what is left (start-up's modules, the restored
        tables), then keep freezing after each full pass, until as many `stop` calls as
        `start` calls."""
        gc.collect()
        gc.freeze()
        self.thorough_passes += 1
        self.frozen_after_thorough = gc.get_freeze_count()
        self._thorough = False
        if self._users == 0:
            gc.callbacks.append(self._after_pass)
        self._users += 1

    def stop(self) -> None:
        """Stop freezing after full passes (when every client that started it has stopped);
        what is frozen stays so."""
        self._users = max(0, self._users - 1)
        if self._users == 0 and self._after_pass in gc.callbacks:
            gc.callbacks.remove(self._after_pass)

    def _after_pass(self, phase: str, info: dict[str, Any]) -> None:
        """A `gc.callbacks` entry: after a full pass, freeze its survivors (the younger
        generations are empty then: a full pass takes them in), or let the next one walk
        everything once the frozen objects have grown too much."""
        if phase != "stop" or info["generation"] != 2:
            return
        gc.freeze()
        frozen = gc.get_freeze_count()
        if self._thorough:
            self._thorough = False
            self.thorough_passes += 1
            self.frozen_after_thorough = frozen
        elif frozen > self.growth * max(self.frozen_after_thorough, 1):
            gc.unfreeze()  # into the oldest generation: the next full pass walks them all
            self._thorough = True


HEAP = Heap()
"""This process's policy (`bot.client.bot.UnoBot` starts it once set up and stops it at close)."""
