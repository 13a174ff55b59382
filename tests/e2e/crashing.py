"""What the crash tests share (test_crash.py, test_crash_wide.py): the production bot
(``python -m bot``) in a subprocess on the local stand-in (`BotProcess`), killed with SIGKILL at a
point of one interaction's handling (`Killer`), the database read as the oracle, and the users'
click policy. The bot's database is an SQLite file, or a PostgreSQL schema (``database``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.engine.cards import Color
from bot.localdiscord import interactions, limits
from bot.localdiscord.records import Channel, InteractionRecord, Message
from bot.localdiscord.server import StandIn
from tests.e2e.helpers import CONTROL

REPO = Path(__file__).resolve().parents[2]
GAME_SEED = 1  # the bots' game.seed setting (see `BotProcess`)
DECISIONS = {"Draw", "Keep it", "Challenge!", "Let them see", "Keep all my cards"}
ACCEPTS = ("Take ", "Draw until ", "Lose the turn")  # an Accept button says what it costs
COLORS = {c.value for c in Color}
HAND = "Your hand at"
STALE = "⚠️"
TIMEOUT = 20.0
# A dropped answer is a callback, or after a deferral an @original edit or a followup.
DROPPED_ANSWERS = {"POST interactions 10062", "PATCH webhooks 10062", "POST webhooks 10062"}


# ---------------------------------------------------------------------- the database (oracle)


def _postgres_rows(url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """A query's rows in the PostgreSQL database at ``url`` (read on a thread of its own); no
    rows where its table is not made yet (before the bot's first start)."""
    import asyncpg

    from tests.storage.helpers import in_thread

    async def read() -> list[tuple[Any, ...]]:
        connection = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await connection.fetch(sql, *params)]
        except asyncpg.UndefinedTableError:
            return []
        finally:
            await connection.close()

    return in_thread(read())


def read_snapshot(db: Path | str, channel_id: int) -> dict[str, Any] | None:
    """The table snapshot the bot saved for the channel (None: no table, e.g. the game ended);
    ``db``: an SQLite file, or a PostgreSQL URL."""
    if isinstance(db, str):
        rows = _postgres_rows(db, "SELECT snapshot FROM open_tables WHERE channel_id = $1", channel_id)
        return json.loads(rows[0][0]) if rows else None
    if not db.exists():
        return None
    with contextlib.closing(sqlite3.connect(db, timeout=10)) as con:
        row = con.execute("SELECT snapshot FROM open_tables WHERE channel_id = ?", (channel_id,)).fetchone()
    return None if row is None else json.loads(row[0])


def version_of(snapshot: dict[str, Any] | None) -> int | None:
    """The saved game's version (every accepted action adds one), None without a game."""
    game = (snapshot or {}).get("game")
    return None if game is None else int(game["version"])


def read_results(db: Path | str) -> dict[str, list[Any]]:
    """Every recorded result (without timestamps and random game ids); ``db``: an SQLite file, or
    a PostgreSQL URL (its row ids renumbered 1, 2, ...: a transaction cut short by a kill still
    uses up numbers of PostgreSQL's sequences, where SQLite's next id is the last one plus 1)."""
    queries = {
        "people": "SELECT id, user_id FROM people ORDER BY id",
        "games": "SELECT id, variant, rounds, result, finished_at IS NOT NULL FROM games ORDER BY id",
        "game_players": "SELECT game, person, won FROM game_players ORDER BY game, person",
        "rounds": "SELECT game, round_no, variant, points, result FROM rounds ORDER BY game, round_no",
        "round_players": "SELECT game, round_no, person, won FROM round_players ORDER BY 1, 2, 3",
        "open_tables": "SELECT channel_id FROM open_tables",
    }
    if isinstance(db, str):
        return _dense({name: _postgres_rows(db, sql) for name, sql in queries.items()})
    with contextlib.closing(sqlite3.connect(db, timeout=10)) as con:
        return {name: con.execute(sql).fetchall() for name, sql in queries.items()}


def _dense(found: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """``read_results`` with people and games numbered 1, 2, ... in their order, in the rows and
    in the stored results (people ids in ``players``, ``winner``, ``winners`` and ``scores``)."""
    person = {old: new for new, (old, _) in enumerate(found["people"], 1)}
    game = {old: new for new, (old, *_) in enumerate(found["games"], 1)}

    def members(ids: list[int] | None) -> list[int] | None:
        return None if ids is None else [person[i] for i in ids]

    def result(text: str) -> str:
        stored = json.loads(text)
        stored["players"] = members(stored["players"])
        stored["scores"] = [[members(k), v] for k, v in stored["scores"]]
        if "winners" in stored:
            stored["winners"] = [members(k) for k in stored["winners"]]
        else:
            stored["winner"] = members(stored["winner"])
        return json.dumps(stored, sort_keys=True)

    return {
        "people": [(person[i], u) for i, u in found["people"]],
        "games": [(game[i], v, n, None if r is None else result(r), f) for i, v, n, r, f in found["games"]],
        "game_players": [(game[g], person[p], w) for g, p, w in found["game_players"]],
        "rounds": [(game[g], n, v, p, result(r)) for g, n, v, p, r in found["rounds"]],
        "round_players": [(game[g], n, person[p], w) for g, n, p, w in found["round_players"]],
        "open_tables": found["open_tables"],
    }


# ---------------------------------------------------------------------- the bot process


class BotProcess:
    """``python -m bot`` in a subprocess, logged into the stand-in, with its own database.

    It runs in ``workdir``, which has no ``config.toml`` (``--config`` with a missing file is
    refused), so every setting comes from ``UNO_…`` variables.
    """

    def __init__(
        self,
        stand_in: StandIn,
        channels: Sequence[Channel],
        workdir: Path,
        *,
        database: str | None = None,
        **game: str,
    ) -> None:
        """``database``: a PostgreSQL URL (None: ``uno.db`` in ``workdir``); ``game``: more
        ``game.`` settings, e.g. ``turn_seconds="10"`` (``UNO_GAME__…``)."""
        workdir.mkdir()
        self.stand_in = stand_in
        self.channels = list(channels)
        self.workdir = workdir
        self.db: Path | str = database or workdir / "uno.db"
        self.log = workdir / "bot.log"
        self.proc: asyncio.subprocess.Process | None = None
        self.killed = False
        self.kills = 0
        self.start_seconds: list[float] = []
        env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
        env.update(
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
            UNO_DISCORD__TOKEN=stand_in.token,
            UNO_DISCORD__API_BASE=stand_in.api_url,
            UNO_DISCORD__GATEWAY_URL=stand_in.gateway_url,
            UNO_DISCORD__DEV_GUILD_ID=str(stand_in.guild_id),
            **(
                {"UNO_DATABASE__URL": self.db}
                if isinstance(self.db, str)
                else {"UNO_DATABASE__PATH": str(self.db)}
            ),
            # With a seed, a bot's first game gets the same shuffles on every run: the crash run
            # plays the reference's deal.
            UNO_GAME__SEED=str(GAME_SEED),
            UNO_GAME__TURN_SECONDS="0",
            UNO_GAME__AI_DELAY_SECONDS="0",
            # Text labels from the first click: the card emojis' background sync (its restarts
            # are tested in test_emojis.py) would change them mid-game, and the users' policy and
            # the reference comparison read labels.
            UNO_DISCORD__CARD_EMOJIS="false",
        )
        env.update({f"UNO_GAME__{key.upper()}": value for key, value in game.items()})
        self.env = env

    def output(self) -> str:
        """Everything the bot processes printed."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def tail(self, lines: int = 30) -> str:
        """The end of the output, for failure messages."""
        return "\n".join(self.output().splitlines()[-lines:]) or "(no output)"

    def dead(self) -> bool:
        """Killed, or exited by itself."""
        return self.killed or (self.proc is not None and self.proc.returncode is not None)

    async def start(self) -> None:
        """Start the bot; wait until it has logged in to the gateway and, with games saved, has
        restored their table messages (it edits them before connecting)."""
        started = time.monotonic()
        identifies = self.stand_in.gateway.identifies
        first_request = len(self.stand_in.requests)
        snapshots = [read_snapshot(self.db, c.id) for c in self.channels]
        versions = [version_of(s) for s in snapshots]
        with self.log.open("ab") as out:
            out.write(f"---- start {len(self.start_seconds) + 1}, game versions {versions}\n".encode())
            out.flush()
            self.proc = proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=self.workdir,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )
        self.killed = False
        tables = {
            f"/channels/{c.id}/messages/{s.get('message_id')}"
            for c, s in zip(self.channels, snapshots, strict=True)
            if s is not None and s.get("state") == "playing" and s.get("message_id")
        }

        def ready() -> bool:
            if proc.returncode is not None:
                return True
            if self.stand_in.gateway.identifies <= identifies:
                return False
            restored = {
                r.path
                for r in self.stand_in.requests[first_request:]
                if r.method == "PATCH" and r.path in tables and r.status == 200
            }
            return restored == tables

        await self.stand_in.wait_until(ready, TIMEOUT)
        if proc.returncode is not None:
            raise AssertionError(f"the bot exited with status {proc.returncode}:\n{self.tail()}")
        self.start_seconds.append(time.monotonic() - started)

    def kill(self) -> None:
        """SIGKILL, now (synchronously: nothing else runs in the test's event loop meanwhile)."""
        assert self.proc is not None and not self.killed
        os.kill(self.proc.pid, signal.SIGKILL)
        self.killed = True
        self.kills += 1

    async def restart(self) -> None:
        """After a kill: reap the process, start a new one."""
        assert self.proc is not None and self.killed
        await self.proc.wait()
        await self.start()

    async def stop(self) -> None:
        """Kill the process if it still runs, and reap it."""
        proc = self.proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 10)


# ---------------------------------------------------------------------- killing


class Killer:
    """Kills the bot at a point of one interaction's handling, as the stand-in sees it.

    ``before-answer`` and ``after-answer`` act where the stand-in records the bot's answer (the
    callback, or after a deferral the first ``@original`` edit or followup: the answer is dropped,
    or recorded, at the instant of the kill); ``after-publish`` acts once the bot completes its
    first request after the answer (the table message edit; card emoji uploads do not count).
    """

    def __init__(self, stand_in: StandIn, monkeypatch: pytest.MonkeyPatch) -> None:
        self.stand_in = stand_in
        self.bot: BotProcess | None = None
        self.mode: str | None = None
        self.token: str | None = None
        self.answered_at: int | None = None
        original = interactions.answered

        def answered(state: Any, record: InteractionRecord, message: Any, at: Any = None) -> None:
            mode = self.mode if self.token == record.token and record.answered_at is None else None
            if mode == "before-answer":
                self.fire()
                raise limits.unknown("interaction")  # as if it had never been sent
            original(state, record, message, at)
            if mode == "after-answer":
                self.fire()
            elif mode == "after-publish":
                self.answered_at = len(state.requests)

        monkeypatch.setattr(interactions, "answered", answered)
        stand_in.state.add_listener(self._on_change)

    def arm(self, mode: str, record: InteractionRecord) -> None:
        """Kill the bot at ``mode``'s point of handling ``record``."""
        self.mode, self.token, self.answered_at = mode, record.token, None

    def disarm(self) -> None:
        """Nothing to kill any more."""
        self.mode = self.token = self.answered_at = None

    def fire(self) -> None:
        """Kill the bot now (if not yet)."""
        if self.bot is not None and not self.bot.killed:
            self.bot.kill()
        self.disarm()

    def _on_change(self) -> None:
        if (
            self.mode == "after-publish"
            and self.answered_at is not None
            # The card emoji sync's uploads (the bot's first minutes) are not the table's.
            and any(r.status and "/emojis" not in r.path for r in self.stand_in.requests[self.answered_at :])
        ):
            self.fire()


# ---------------------------------------------------------------------- the users


def my_move(message: Message) -> bool:
    """The hand says it is the user's move."""
    return "🟢 Your move" in message.text


def picking(message: Message) -> bool:
    """The hand shows a color or player picker (a wild in progress)."""
    return any(b.get("label") == "Back" for b in message.buttons)


def policy(message: Message, *, call_uno: bool = True) -> tuple[dict[str, Any], str | None]:
    """The user's choice, from what their hand shows: UNO! if offered (and ``call_uno``), else the
    first playable card in label order, else Draw, else the first other decision (a color, Keep
    it, Accept...). Returns the component and, for a select, the value picked."""
    buttons = [b for b in message.buttons if not b.get("disabled") and b.get("label") not in CONTROL]
    by_label = {str(b.get("label")): b for b in buttons}
    if "UNO!" in by_label and (call_uno or len(by_label) == 1):
        return by_label["UNO!"], None
    by_label.pop("UNO!", None)
    cards = sorted(
        label for label in by_label if label not in DECISIONS | COLORS and not label.startswith(ACCEPTS)
    )
    if cards:
        return by_label[cards[0]], None
    if message.selects:
        select = message.selects[0]
        return select, select["options"][0]["value"]
    if "Draw" in by_label:
        return by_label["Draw"], None
    if by_label:
        return next(iter(by_label.values())), None
    raise AssertionError(f"a hand that says it's our move offers nothing: {message.text!r}")
