"""Worker processes end with the bot (bot/ops/workers.py): a hard bot's search process left behind by
a killed bot would hold a core's worth of memory and pipes for ever."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.ops.workers import WORKER_NICENESS, start_worker

BOT = """
import concurrent.futures, multiprocessing, os, time
from bot.ops.workers import start_worker

if __name__ == "__main__":
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(1, context, initializer=start_worker, initargs=(os.getpid(),))
    print(pool.submit(os.getpid).result(), flush=True)
    time.sleep(120)
"""


def alive(pid: int) -> bool:
    """True while the process exists (a zombie of another parent counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return status != "Z"


@pytest.mark.slow
def test_a_search_process_ends_when_the_bot_is_killed(tmp_path: Path) -> None:
    """A stand-in for the bot starts its search pool as the scheduler does, then dies by SIGKILL
    (no clean shutdown): its worker notices and ends within a few seconds."""
    script = tmp_path / "bot_stand_in.py"
    script.write_text(BOT)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        assert alive(worker)
        bot.send_signal(signal.SIGKILL)
        bot.wait(10)
        deadline = time.monotonic() + 15
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker), "the search process outlived the bot"
    finally:
        bot.kill()


def test_a_search_process_gives_way_to_the_bot() -> None:
    """A search worker runs in the idle scheduling class where there is one (Linux), else
    `WORKER_NICENESS` below the bot's priority, so the bot's event loop does not wait behind a
    search for a core."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        1, context, initializer=start_worker, initargs=(os.getpid(),)
    ) as pool:
        niceness = pool.submit(os.nice, 0).result(timeout=60)
        policy = (
            pool.submit(os.sched_getscheduler, 0).result(timeout=60) if hasattr(os, "SCHED_IDLE") else None
        )
    if policy is not None:
        assert policy == os.SCHED_IDLE
        assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the bot itself is not
    else:
        assert niceness == min(19, os.nice(0) + WORKER_NICENESS)
