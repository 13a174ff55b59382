"""Worker processes of the bot (hard bots' searches): they end when the bot does.

A process pool's workers wait on a pipe from the bot; when the bot is killed (SIGKILL, a crash)
nothing tells them, and they would stay for ever. :func:`end_with_parent`, the pool's
initializer, ends a worker once its parent is gone (it is re-parented, so its parent id changes).
This module imports only the standard library: each worker imports it at start.
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 1.0
"""How often a worker checks that the bot is still there."""


def end_with_parent(parent: int) -> None:
    """Start a daemon thread that ends this process as soon as its parent is no longer ``parent``
    (a process id)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(POLL_SECONDS)
        os._exit(0)  # the bot is gone: no one waits for this worker's answers

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
