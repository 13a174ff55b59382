"""The bot's event loop in CPU time: ``UNO_LOOP_STATS=DIR python -m benchmarks.load ...``, then
``python -m benchmarks.loopstats DIR``.

A click that reaches the bot waits for the synchronous stretch the loop is running (one
callback, or one step of a task, from its start to its next ``await`` that suspends), then for
the stretches queued ahead of it, then for its own. Wall-clock latencies measure that only on a
quiet machine; the stretches' CPU time (``time.thread_time``) measures it on a busy one too.

In the load benchmark's bot process (``benchmarks.load.bot_process_main``), `install` wraps
``asyncio.events.Handle._run`` (every callback and task step of the plain loop goes through it)
and discord.py's ``ConnectionState.parse_interaction_create``, and records:

- every stretch: its end (epoch seconds) and its thread CPU time (seconds); those of 1 ms and
  more also a label (the task's coroutine or the callback, and the line it suspended at);
- per interaction, the CPU of the stretches of its own chain (its parse, then the tasks
  discord.py starts for it, which inherit a context variable naming it) until its callback
  request is made: the CPU the loop spends on a click before acknowledging it.

The driver writes the measured window (``window-<kind>.json``) beside the bot's
``<kind>-loop.json``; ``python -m benchmarks.loopstats DIR`` prints, per run, within the window:
stretches per second, the CPU per second, the longest stretches (p99, p99.9, max), how many a
second lasted 1, 2, 5 and 10 ms or more, what the 1 ms+ stretches were, and the CPU before the
acknowledgement (p50, p99). Not imported by the bot.
"""

from __future__ import annotations

import array
import asyncio
import contextvars
import gc
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ENV = "UNO_LOOP_STATS"
LONG = 0.001  # seconds of CPU from which a stretch gets a label
_CLICK: contextvars.ContextVar[int | None] = contextvars.ContextVar("uno_loopstats_click", default=None)


class LoopStats:
    """What `install` records in this process (see the module's docstring)."""

    def __init__(self) -> None:
        self.ends = array.array("d")  # epoch seconds at each stretch's end
        self.cpu = array.array("d")  # its thread CPU seconds
        self.long: list[tuple[float, float, str]] = []  # (end, cpu, label) of stretches >= LONG
        self.before_ack: dict[int, float] = defaultdict(float)  # interaction id -> CPU seconds
        self.kind: dict[int, tuple[str, float]] = {}  # interaction id -> (verb or command, epoch arrival)
        self.acked: set[int] = set()
        self.timed: dict[str, list[tuple[float, float]]] = defaultdict(list)  # name -> (end, CPU s)
        self.gc: list[tuple[float, int, float]] = []  # collector passes: (end, generation, CPU s)

    def dump(self, path: str) -> None:
        """Write the records as JSON to ``path``."""
        Path(path).write_text(
            json.dumps(
                {
                    "ends": self.ends.tolist(),
                    "cpu": self.cpu.tolist(),
                    "long": self.long,
                    "before_ack": {str(k): v for k, v in self.before_ack.items() if k in self.acked},
                    "kind": {str(k): v for k, v in self.kind.items()},
                    "timed": self.timed,
                    "gc": self.gc,
                }
            )
        )


def _label(handle: asyncio.Handle) -> str:
    """The task's coroutine and the line it stopped at, or the callback's name."""
    callback = handle._callback  # type: ignore[attr-defined]
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        frame = getattr(coro, "cr_frame", None)
        where = f" @{frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno}" if frame else " (done)"
        return f"task {getattr(coro, '__qualname__', coro)!s}{where}"
    return f"callback {getattr(callback, '__qualname__', callback)!s}"


def _verb(data: dict[str, Any]) -> str:
    """``uno:h:...:a:play ...`` -> ``h:play``; a command -> its name."""
    inner = data.get("data") or {}
    custom = inner.get("custom_id")
    if custom is None:
        return f"/{inner.get('name', '?')}"
    parts = custom.split(":")
    verb = parts[1] if len(parts) > 1 else custom
    action = parts[4].split(" ")[0] if len(parts) > 4 else ""
    return f"{verb}:{action}" if action else verb


def install() -> LoopStats:
    """Start recording in this process (call before its event loop runs)."""
    import discord.state
    import discord.webhook.async_

    stats = LoopStats()
    clock = time.thread_time
    run = asyncio.events.Handle._run

    def timed_run(self: asyncio.Handle) -> None:
        click = self._context.get(_CLICK)  # type: ignore[attr-defined]
        counts = click is not None and click not in stats.acked
        began = clock()
        run(self)
        spent = clock() - began
        stats.ends.append(time.time())
        stats.cpu.append(spent)
        if spent >= LONG:
            stats.long.append((time.time(), spent, _label(self)))
        if counts:
            stats.before_ack[click] += spent  # type: ignore[index]

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]

    parse = discord.state.ConnectionState.parse_interaction_create

    def timed_parse(self: Any, data: Any) -> None:
        click = int(data["id"])
        stats.kind[click] = (_verb(data), time.time())
        token = _CLICK.set(click)
        try:
            parse(self, data)
        finally:
            _CLICK.reset(token)

    discord.state.ConnectionState.parse_interaction_create = timed_parse  # type: ignore[method-assign]

    respond = discord.webhook.async_.AsyncWebhookAdapter.create_interaction_response

    def noted_respond(self: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
        stats.acked.add(int(interaction_id))
        return respond(self, interaction_id, *args, **kwargs)

    discord.webhook.async_.AsyncWebhookAdapter.create_interaction_response = noted_respond  # type: ignore[method-assign]
    hands = sys.modules.get("bot.service.hands") or __import__("bot.service.hands", fromlist=["_"])
    answer = getattr(hands, "answer", None)  # the bot's own callback (where this version has it)
    if answer is not None:

        def noted_answer(interaction: Any, *args: Any, **kwargs: Any) -> Any:
            stats.acked.add(int(interaction.id))
            return answer(interaction, *args, **kwargs)

        hands.answer = noted_answer
    _time_calls(stats)
    began = [0.0]

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = clock()
        else:
            stats.gc.append((time.time(), info["generation"], clock() - began[0]))

    gc.callbacks.append(collected)
    return stats


def _time_calls(stats: LoopStats) -> None:
    """Time (thread CPU) the synchronous steps a click or a message update goes through:
    discord.py's parse of an interaction (with the clicked message), its rebuilding of the
    clicked message's view, and the bot's drawing of a hand and a table message (where they
    exist in this version of the bot)."""
    import discord
    import discord.interactions
    import discord.ui.view

    from bot import render

    def timed(name: str, function: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            began = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                stats.timed[name].append((time.time(), time.thread_time() - began))

        return call

    discord.interactions.Interaction.__init__ = timed(  # type: ignore[method-assign]
        "parse interaction", discord.interactions.Interaction.__init__
    )
    for cls in (discord.ui.View, getattr(discord.ui, "LayoutView", None)):
        if cls is not None:
            original = cls.from_message.__func__  # type: ignore[attr-defined]
            cls.from_message = classmethod(timed(f"{cls.__name__}.from_message", original))
    for name in ("hand", "table"):
        setattr(render, name, timed(f"render.{name}", getattr(render, name)))


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(records: dict[str, Any], start: float, end: float) -> dict[str, Any]:
    """The figures of one run's records within ``[start, end)`` (epoch seconds); times in ms."""
    seconds = end - start
    cpu = [c for t, c in zip(records["ends"], records["cpu"], strict=True) if start <= t < end]
    long = [(c, label) for t, c, label in records["long"] if start <= t < end]
    labels: Counter[str] = Counter()
    label_ms: Counter[str] = Counter()
    for c, label in long:
        labels[label] += 1
        label_ms[label] += 1000 * c
    acks: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    for key, value in records["before_ack"].items():
        verb, at = records["kind"].get(key, ("?", 0.0))
        if start <= at < end:
            acks.append(1000 * value)
            by_kind[verb].append(1000 * value)
    return {
        "stretches_per_s": round(len(cpu) / seconds, 1),
        "loop_cpu_per_s": round(sum(cpu) / seconds, 3),
        "p99_ms": round(1000 * _pct(cpu, 0.99), 3),
        "p999_ms": round(1000 * _pct(cpu, 0.999), 3),
        "max_ms": round(1000 * max(cpu, default=0.0), 2),
        "per_s_at_least_ms": {
            str(ms): round(sum(1 for c in cpu if c >= ms / 1000) / seconds, 2) for ms in (1, 2, 5, 10)
        },
        "top_long": [
            (label, n, round(label_ms[label], 1))
            for label, n in label_ms.most_common(12)
            for n in [labels[label]]
        ],
        "before_ack_ms": {
            "n": len(acks),
            "p50": round(_pct(acks, 0.5), 3),
            "p99": round(_pct(acks, 0.99), 3),
        },
        "timed_us": {
            name: {
                "n": len(v),
                "p50": round(1e6 * _pct(v, 0.5)),
                "p99": round(1e6 * _pct(v, 0.99)),
                "mean": round(1e6 * sum(v) / len(v)) if v else 0,
            }
            for name, calls in records.get("timed", {}).items()
            for v in [[c for t, c in calls if start <= t < end]]
        },
        "gc": {
            f"gen{g}": {
                "passes": len(v),
                "cpu_ms": round(1000 * sum(v), 1),
                "max_ms": round(1000 * max(v, default=0), 1),
            }
            for g in range(3)
            for v in [[c for t, gen, c in records.get("gc", []) if gen == g and start <= t < end]]
        },
        "before_ack_by_kind": {
            kind: {"n": len(v), "p50": round(_pct(v, 0.5), 3), "p99": round(_pct(v, 0.99), 3)}
            for kind, v in sorted(by_kind.items(), key=lambda kv: -len(kv[1]))[:8]
        },
    }


def main(argv: list[str]) -> None:
    """Print each run's summary found in the directory ``argv[0]``."""
    folder = Path(argv[0])
    for loop in sorted(folder.glob("*-loop.json")):
        kind = loop.name.removesuffix("-loop.json")
        window = json.loads((folder / f"window-{kind}.json").read_text())
        print(json.dumps({kind: summary(json.loads(loop.read_text()), window["start"], window["end"])}))


if __name__ == "__main__":
    main(sys.argv[1:] or [os.environ[ENV]])
