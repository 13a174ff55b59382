"""Worker processes of the bot (hard bots' searches): they give way to the bot, and end when it does.

:func:`start_worker` is the pool's initializer. It lowers the worker's scheduling priority
(`WORKER_NICENESS`): a search runs for its whole time budget, and where the machine has fewer
free cores than busy processes the bot's event loop, which acknowledges every interaction of
every table, must not wait behind it (a search that gets less of a core plays fewer playouts in
its budget). And it ends the worker once the bot is gone: a process pool's workers wait on a pipe
from the bot; when the bot is killed (SIGKILL, a crash) nothing tells them, and they would stay
for ever (:func:`end_with_parent`: the worker is re-parented, so its parent id changes).
This module imports only the standard library: each worker imports it at start.
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 1.0
"""How often a worker checks that the bot is still there."""
WORKER_NICENESS = 10
"""How much lower a worker's scheduling priority is than the bot's (``os.nice``; 19 the lowest)."""


def start_worker(parent: int) -> None:
    """The pool's initializer: give way to the bot (`WORKER_NICENESS`, where the system has
    priorities) and end with ``parent``, the bot's process id (:func:`end_with_parent`)."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    end_with_parent(parent)


def end_with_parent(parent: int) -> None:
    """Start a daemon thread that ends this process as soon as its parent is no longer ``parent``
    (a process id)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(POLL_SECONDS)
        os._exit(0)  # the bot is gone: no one waits for this worker's answers

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
