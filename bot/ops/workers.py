"""Worker processes of the bot (hard bots' searches): they give way to the bot, and end when it does.

:func:`start_worker` is the pool's initializer. It makes the worker give way to the bot
(:func:`give_way`): a search runs for its whole time budget, and where the machine has fewer
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
"""Where the system has no idle scheduling class: how much lower a worker's priority is than the
bot's (``os.nice``; 19 the lowest)."""


def start_worker(parent: int) -> None:
    """The pool's initializer: give way to the bot (:func:`give_way`) and end with ``parent``,
    the bot's process id (:func:`end_with_parent`)."""
    give_way()
    end_with_parent(parent)


def give_way() -> None:
    """Run this process only on CPU time no one else wants: Linux's idle scheduling class
    (``SCHED_IDLE``; any process may enter it), else `WORKER_NICENESS` lower. A niced worker
    still took a tenth of a core from the bot under load, and the bot's acknowledgement p99 with
    hard bots was 1.5-2x the normal bots'; in the idle class it is nearer
    (docs/performance/discord-layer.md, "Search workers in the idle class")."""
    if hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return
        except OSError:  # a container's seccomp profile, say: fall back to a priority
            pass
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)


def end_with_parent(parent: int) -> None:
    """Start a daemon thread that ends this process as soon as its parent is no longer ``parent``
    (a process id)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(POLL_SECONDS)
        os._exit(0)  # the bot is gone: no one waits for this worker's answers

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
