"""The wider crash test: three tables at once, each with human users driven by the test and
computer seats, a turn timer, two-round games to a low target score, lobby buttons and slash
commands, UNO! and Catch; the production bot (``python -m bot``) killed with SIGKILL at seeded
random points of any interaction (and between them), restarted each time.

Computer seats move in the background and turn timers fire by the wall clock, so the games are not
a function of the users' clicks and no reference run can be compared move by move (test_crash.py
does that for a human-only game). The oracle is the game's journal instead (``Game.journal``):
after every restart, and every time the test looks at a table, each table's saved game must

* replay from its seed to exactly the saved state (``Game.replay``);
* extend the journal saved before (nothing saved is ever lost);
* hold every action the test saw acknowledged as applied (a hand's click answered as a move, a
  Catch answered in place by the table message, ``/uno leave`` confirmed and answered "You left") exactly once: a hand's action
  at the version its button carried, a table's or command's between the versions before and
  after it; and no action twice where the user clicked once (a click retried after a kill).

At the end every game is over, its result recorded once (a games row, its rounds), no table is
left open, the bot logged no ERROR and the stand-in saw no Discord error but the answers dropped
by the kills.

Environment: ``CRASH_TEST_SEED`` (the kills' and the users' seed; ``random``: a fresh one, printed)
and ``CRASH_KILLS`` (default 20; the soak: ``CRASH_KILLS=200 CRASH_TEST_SEED=random``, see
docs/performance/properties-and-crash.md). More sets of three games are played until the kills are spent.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.engine.actions import Action, ActionKind
from bot.engine.game import Game
from bot.localdiscord.interactions import CommandUsageError
from bot.localdiscord.records import Channel, InteractionRecord, Message, User
from bot.localdiscord.server import StandIn, start_stand_in
from tests.e2e.crashing import (
    DROPPED_ANSWERS,
    HAND,
    STALE,
    TIMEOUT,
    BotProcess,
    Killer,
    my_move,
    picking,
    policy,
    read_results,
    read_snapshot,
)
from tests.e2e.helpers import LEAVE

_SEED = os.environ.get("CRASH_TEST_SEED", "2024")
SEED = random.SystemRandom().randrange(10**6) if _SEED == "random" else int(_SEED)
KILLS = int(os.environ.get("CRASH_KILLS", "20"))
MODES = ("idle", "dispatch", "random", "before-answer", "after-answer", "after-publish")
TURN_SECONDS = 10  # the shortest turn timer the settings allow
IDLE_CHANCE = 0.06  # a user whose move it is looks away and lets the timer play for them
UNO_CHANCE = 0.75  # a user offered UNO! presses it (else they can be caught)
CATCH_CHANCE = 0.8  # a user seeing Catch on the table message presses it
LEAVE_AT = 25  # the third user of the first table runs /uno leave once the game is past this
# Per table: its channel, the host, the other users (the first joins by the lobby's button, the
# others by /uno join), computer seats, and the target score (standard scoring: a round's winner
# scores the others' cards, so one or two rounds reach it).
TABLES = (
    ("uno-a", "alice", ("bob", "carol"), 1, 150),
    ("uno-b", "dave", ("erin",), 1, 150),
    ("uno-c", "frank", (), 2, 120),
)
USERS = ["alice", "bob", "carol", "dave", "erin", "frank"]
MAX_SECONDS = 1800.0


class Plan:
    """Seeded kills: the modes in a shuffled even mix, each at the interaction a random 1-4
    interactions after the one before."""

    def __init__(self, rng: random.Random, kills: int) -> None:
        self.rng = rng
        self.modes = [MODES[i % len(MODES)] for i in range(kills)]
        rng.shuffle(self.modes)
        self.gap = rng.randint(1, 4)

    def take(self) -> str | None:
        """The kill for the next interaction, if one is due."""
        if not self.modes:
            return None
        self.gap -= 1
        if self.gap > 0:
            return None
        self.gap = self.rng.randint(1, 4)
        return self.modes.pop()


@dataclass
class Ack:
    """An interaction of a user that may have applied one action: ``at`` the journal index a
    hand's button fixes, else the action falls between versions ``low`` and ``high``."""

    table: Table
    user: User
    clicked: Action
    low: int
    high: int
    at: int | None
    applied: bool  # acknowledged as applied


@dataclass
class Table:
    """One channel's table as the test drives it."""

    channel: Channel
    host: User
    guests: list[User]
    bots: int
    target: int
    leaver: User | None = None
    left: bool = False
    game_id: str | None = None
    journal: list[Any] = field(default_factory=list)  # the longest journal seen of this game
    idle: dict[int, tuple[int, float]] = field(default_factory=dict)  # user -> (version, since)
    done: bool = False
    rounds: int = 0

    @property
    def humans(self) -> list[User]:
        return [self.host, *self.guests]


@dataclass
class Figures:
    """What the run did, for the summary."""

    kills: Counter[str] = field(default_factory=Counter)
    cases: Counter[str] = field(default_factory=Counter)
    acks: Counter[str] = field(default_factory=Counter)
    retries: int = 0
    replays: int = 0
    timeouts: int = 0
    games: int = 0
    rounds: list[int] = field(default_factory=list)


class Run:
    """The users of three tables and one bot process, killed by the plan."""

    def __init__(self, stand_in: StandIn, bot: BotProcess, killer: Killer, rng: random.Random) -> None:
        self.s = stand_in
        self.bot = bot
        self.killer = killer
        self.rng = rng
        self.plan = Plan(rng, KILLS)
        self.out = Figures()
        self.tables: list[Table] = []

    # ------------------------------------------------------------ the oracle

    def check(self, context: str) -> None:
        """Every table's saved game replays to itself and extends the journal seen before."""
        for table in self.tables:
            self.saved(table, context)

    def saved(self, table: Table, context: str) -> dict[str, Any] | None:
        """The table's saved snapshot, checked (see the module's docstring)."""
        snapshot = read_snapshot(self.bot.db, table.channel.id)
        game = (snapshot or {}).get("game")
        if snapshot is None or game is None:
            return snapshot
        where = f"{context}: {table.channel.name} at version {game['version']}"
        journal = game["journal"]
        assert journal is not None and len(journal) == game["version"], f"{where}: no journal"
        if snapshot["game_id"] != table.game_id:
            table.game_id, table.journal = snapshot["game_id"], []
        seen = table.journal
        assert journal[: len(seen)] == seen, (
            f"{where}: the journal lost or changed saved actions: {seen[len(journal) - 3 :]} became "
            f"{journal[len(seen) - 3 : len(seen) + 1]}"
        )
        if len(journal) > len(seen):
            replayed = Game.replay(game).to_dict()
            assert replayed == game, f"{where}: the replayed game differs in " + str(
                sorted(k for k in game if replayed.get(k) != game.get(k))
            )
            self.out.replays += 1
            self.out.timeouts += sum(text == "timeout" for _, text in journal[len(seen) :])
            table.journal = journal
        table.rounds = int(game["round"])
        return snapshot

    def verify(self, ack: Ack, snapshot: dict[str, Any] | None) -> None:
        """The acknowledged action is in the journal once (or, unacknowledged, at most once)."""
        game = (snapshot or {}).get("game")
        if snapshot is None or game is None or snapshot["game_id"] != ack.table.game_id:
            self.out.acks["ended the game (checked by its result)"] += ack.applied
            return
        seat = game["players"].index(str(ack.user.id))
        journal = game["journal"]
        found = [
            i
            for i in range(ack.low, min(ack.high, len(journal)))
            if journal[i][0] == seat and _completes(Action.parse(journal[i][1]), ack.clicked)
        ]
        what = f"{ack.table.channel.name}: {ack.user.name}'s {ack.clicked.text()!r} ({ack.low}-{ack.high})"
        assert len(found) <= 1, f"{what} applied {len(found)} times: {[journal[i] for i in found]}"
        if ack.applied:
            assert found, f"{what} was answered as applied but is not in the journal: an action was lost"
            assert ack.at is None or found == [ack.at], f"{what} applied at {found}, its button's {ack.at}"
            self.out.acks[str(ack.clicked.kind)] += 1

    # ------------------------------------------------------------ interactions

    async def interact(
        self, context: str, start: Callable[[], Awaitable[InteractionRecord]]
    ) -> InteractionRecord | None:
        """One try of an interaction, the bot killed where the plan says (and restarted, and the
        tables checked); the record tells whether it was answered. None: the component was
        gone or disabled when the user clicked (nothing was sent)."""
        mode = self.plan.take()
        if mode is not None:
            self.out.kills[mode] += 1
            context += f" (killed: {mode})"
        if mode == "idle":
            self.bot.kill()
            await self.bot.restart()
            self.check(context + ", restarted")
        try:
            record = await start()
        except CommandUsageError as exc:
            # The bot redrew the message between the user's look and the click (an AI's move,
            # a timer, a restart): the button is gone or greyed, so nothing is clicked.
            if "is disabled" not in str(exc) and "has no component" not in str(exc):
                raise
            if mode not in (None, "idle"):
                self.out.kills[mode] -= 1
                self.plan.modes.append(mode)  # spent at the next interaction instead
                self.plan.gap = 1
            return None
        if mode == "dispatch":
            self.bot.kill()
        elif mode == "random":
            await asyncio.sleep(self.rng.uniform(0, 0.006))
            if not self.bot.killed:
                self.bot.kill()
        elif mode in ("before-answer", "after-answer", "after-publish"):
            self.killer.arm(mode, record)
        await self.s.wait_until(lambda: record.answered_at or self.bot.dead(), TIMEOUT)
        if mode == "after-publish" and not self.bot.dead():
            # Killed as the bot's next request after the answer completes (a table message, a
            # hand, another table's update); nothing may follow a refusal: then now.
            try:
                await self.s.wait_until(self.bot.dead, 2.0)
            except TimeoutError:
                self.killer.fire()
        self.killer.disarm()
        if not self.bot.killed and record.answered_at is None:
            raise AssertionError(f"{context}: the bot died without answering:\n{self.bot.tail()}")
        if self.bot.killed:
            await self.bot.restart()
            self.check(context + ", restarted")
        if mode not in (None, "idle"):
            self.out.cases["answered" if record.answered_at else "not answered"] += 1
        return record

    async def until(
        self,
        table: Table,
        what: str,
        done: Callable[[dict[str, Any] | None], bool],
        start: Callable[[], Awaitable[InteractionRecord] | None],
    ) -> None:
        """A lobby step: tried (``start``; None: not possible now) until the saved table shows it
        ``done``; a lobby message left showing an older lobby by a kill is refreshed by the
        host's ``/uno new`` (which only changes the options it is given)."""
        for _ in range(12):
            if done(read_snapshot(self.bot.db, table.channel.id)):
                return
            began = start()
            if began is None:
                # The lobby message is posted (its id saved) after the lobby is saved, and after a
                # restart for a lobby saved without one; else it shows an older lobby.
                with contextlib.suppress(TimeoutError):
                    await self.s.wait_until(
                        lambda: read_snapshot(self.bot.db, table.channel.id).get("message_id"),  # type: ignore[union-attr]
                        5.0,
                    )
                began = start()
            if began is None:
                await self.refresh_lobby(table)
                continue
            record = await self.interact(f"{table.channel.name}: {what}", lambda b=began: b)
            if record is None:
                continue  # the button was greyed meanwhile: nothing was clicked
            answer = record.current_answer()
            if answer is not None and answer.message is not None and "changed" in answer.message.text:
                await self.refresh_lobby(table)
        raise AssertionError(f"{table.channel.name}: {what} never took effect")

    async def refresh_lobby(self, table: Table) -> None:
        """The host runs ``/uno new`` with the table's options: the lobby message is redrawn."""
        record = await self.interact(
            f"{table.channel.name}: /uno new again",
            lambda: self.s.slash(
                table.host, table.channel, "uno new", scoring="standard", target_score=table.target
            ),
        )
        if record is not None and record.answered_at:
            await asyncio.sleep(0.2)  # the lobby message is edited in the background

    def lobby_message(self, table: Table, label: str) -> Message | None:
        """The lobby message showing the saved lobby's version, if it has ``label``."""
        snapshot = read_snapshot(self.bot.db, table.channel.id)
        if snapshot is None or snapshot.get("message_id") is None:
            return None
        version = snapshot["base_version"] + snapshot["lobby_version"]
        for m in self.s.messages(table.channel):
            if m.id == snapshot["message_id"]:
                button = next((b for b in m.buttons if b.get("label") == label), None)
                if button is not None and f":{version}:" in str(button["custom_id"]):
                    return m
        return None

    # ------------------------------------------------------------ the lobby

    async def open(self, table: Table) -> None:
        """``/uno new``; the first guest joins by the lobby's Join, the others by ``/uno join``;
        the host adds the computer seats and presses Start (or runs ``/uno start``)."""
        ch, host = table.channel, table.host
        await self.until(
            table,
            "/uno new",
            lambda s: s is not None,
            lambda: self.s.slash(host, ch, "uno new", scoring="standard", target_score=table.target),
        )

        def seated(user: User) -> Callable[[dict[str, Any] | None], bool]:
            return lambda s: s is not None and any(seat[0] == str(user.id) for seat in s["seats"])

        for i, guest in enumerate(table.guests):
            if i == 0:
                await self.until(
                    table, f"{guest.name} Join", seated(guest), lambda g=guest: self._click(g, table, "Join")
                )
            else:
                await self.until(
                    table,
                    f"{guest.name} /uno join",
                    seated(guest),
                    lambda g=guest: self.s.slash(g, ch, "uno join"),
                )
        seats = len(table.humans) + table.bots
        await self.until(
            table,
            "Add bot",
            lambda s: s is not None and len(s["seats"]) >= seats,
            lambda: self._click(host, table, "Add bot"),
        )
        started = lambda s: s is not None and s.get("game") is not None  # noqa: E731
        if self.rng.random() < 0.5:
            await self.until(table, "Start", started, lambda: self._click(host, table, "Start"))
        else:
            await self.until(table, "/uno start", started, lambda: self.s.slash(host, ch, "uno start"))
        self.saved(table, f"{ch.name}: started")
        self.out.games += 1

    def _click(self, user: User, table: Table, label: str) -> Awaitable[InteractionRecord] | None:
        message = self.lobby_message(table, label)
        return None if message is None else self.s.click(user, message, label=label)

    # ------------------------------------------------------------ the game

    def table_message(self, table: Table, snapshot: dict[str, Any]) -> Message | None:
        """The table message, once the bot has posted it."""
        return next((m for m in self.s.messages(table.channel) if m.id == snapshot.get("message_id")), None)

    async def visit(self, table: Table) -> bool:
        """One look at the table and, if a user has something to do, one turn of theirs.
        Returns whether anyone acted."""
        snapshot = self.saved(table, f"{table.channel.name}: a visit")
        if snapshot is None or snapshot.get("game") is None:
            table.done = True
            self.out.rounds.append(table.rounds)
            return False
        game = snapshot["game"]
        version = int(game["version"])
        message = self.table_message(table, snapshot)
        if message is None:
            return False
        seated = [u for u in table.humans if str(u.id) in game["hands"] and str(u.id) not in game["out"]]
        catch = next((b for b in message.buttons if b.get("label") == "Catch"), None)
        if catch is not None and not catch.get("disabled") and self.rng.random() < CATCH_CHANCE:
            catchable = set(game["catchable"])
            catchers = [u for u in seated if str(u.id) not in catchable]
            if catchers:
                user = self.rng.choice(catchers)
                await self.once(
                    table,
                    user,
                    Action(ActionKind.CATCH),
                    "",  # answered in place: the table message, not a private text
                    lambda: self.s.click(user, message, catch["custom_id"]),
                )
                return True
        leaver = table.leaver
        if leaver is not None and not table.left and version > LEAVE_AT and leaver in seated:
            table.left = True
            # /uno leave asks first (nothing changes: no kill planned there), then its Leave the
            # game button leaves.
            asked = await self.s.slash(leaver, table.channel, "uno leave")
            question = (await asked.answer(TIMEOUT)).message
            if question is not None and any(b.get("label") == LEAVE for b in question.buttons):
                await self.once(
                    table,
                    leaver,
                    Action(ActionKind.LEAVE),
                    "You left",
                    lambda: self.s.click(leaver, question, label=LEAVE),
                )
            return True
        pending = game["pending"]["player"]
        user = next((u for u in seated if str(u.id) == pending), None)
        if user is None:
            return False
        idle = table.idle.get(user.id)
        if idle is not None and idle[0] == version and time.monotonic() - idle[1] < 4 * TURN_SECONDS:
            return False  # looking away, until the timer plays for them
        if idle is None and self.rng.random() < IDLE_CHANCE:
            table.idle[user.id] = (version, time.monotonic())
            return False
        table.idle.pop(user.id, None)
        await self.turn(table, user, message)
        return True

    async def once(
        self,
        table: Table,
        user: User,
        clicked: Action,
        applied_text: str,
        start: Callable[[], Awaitable[InteractionRecord]],
    ) -> None:
        """A table's button or a command that applies one action: tried again while unanswered
        (a kill); checked against the journal. ``applied_text``: what its answer says when the
        action was applied ("": a table's button, answered by the table message updated)."""
        low = int(self.saved(table, "before")["game"]["version"])  # type: ignore[index]
        for attempt in range(6):
            self.out.retries += attempt > 0
            record = await self.interact(f"{table.channel.name}: {user.name} {clicked.kind}", start)
            if record is None:
                return  # the button was greyed meanwhile: nothing was clicked
            if record.answered_at:
                break
        answer = record.current_answer()
        said = answer.message if answer is not None else None
        # Applied: answered with ``applied_text``, or ("") with the table message edited in place
        # (a refusal is a private message).
        applied = said is not None and (applied_text in said.text if applied_text else not said.ephemeral)
        after = self.saved(table, "after")
        high = int(after["game"]["version"]) if after and after.get("game") else 10**9
        self.verify(Ack(table, user, clicked, low, high, None, applied), after)

    async def turn(self, table: Table, user: User, message: Message) -> None:
        """The user opens their hand (My hand, or ``/uno hand``) and plays by the policy while it
        says it is their move."""
        if self.rng.random() < 0.8:
            button = message.component(label="My hand")
            hand = await self.press(table, user, message, button, None)
        else:
            hand = await self.press(table, user, None, None, None)
        call_uno = self.rng.random() < UNO_CHANCE
        for _ in range(8):
            if hand is None or not my_move(hand):
                return
            component, value = policy(hand, call_uno=call_uno)
            hand = await self.press(table, user, hand, component, value)

    async def press(
        self,
        table: Table,
        user: User,
        message: Message | None,
        component: dict[str, Any] | None,
        value: str | None,
    ) -> Message | None:
        """A click (``message`` None: ``/uno hand``), tried again until answered; a hand's action
        is checked against the journal. Returns the answer (None: no hand to show)."""
        custom_id = str(component["custom_id"]) if component else ""
        on_hand = custom_id.startswith(("uno:h:", "unos:h:"))
        parts = custom_id.split(":", 5)  # uno:h:<channel>:<version>:<verb>[:<action text>]
        clicked = Action.parse(value or parts[5]) if on_hand and parts[4] == "a" else None
        before = self.saved(table, "before a click")
        if before is None or before.get("game") is None:
            return None
        low = int(before["game"]["version"])
        for attempt in range(8):
            if message is not None and not any(
                c.get("custom_id") == custom_id for c in message.all_components()
            ):
                return message  # redrawn meanwhile (after a restart): the user goes on from it
            self.out.retries += attempt > 0

            def start() -> Awaitable[InteractionRecord]:
                if message is None:
                    return self.s.slash(user, table.channel, "uno hand")
                if value is None:
                    return self.s.click(user, message, custom_id)
                return self.s.select(user, message, custom_id, [value])

            label = (component or {}).get("label") or value or "/uno hand"
            record = await self.interact(f"{table.channel.name}: {user.name} {label!r}", start)
            if record is None:
                return None  # the hand was redrawn meanwhile: nothing was clicked
            if record.answered_at:
                break
        else:
            return None
        response = record.current_answer()
        answer = response.message if response is not None else None
        if clicked is not None:
            assert answer is not None and answer.text.startswith(HAND), f"a hand click answered {answer}"
            applied = not picking(answer) and STALE not in answer.text
            button = int(custom_id.split(":")[3]) - int(before["base_version"])
            after = self.saved(table, "after a click")
            high = int(after["game"]["version"]) if after and after.get("game") else 10**9
            self.verify(Ack(table, user, clicked, low, high, button, applied), after)
        return answer


def _completes(applied: Action, clicked: Action) -> bool:
    """The applied action is the clicked one, completed (a drawn card's play names no card)."""
    return applied.kind == clicked.kind and all(
        getattr(clicked, f) is None or getattr(clicked, f) == getattr(applied, f)
        for f in ("card", "color", "target")
    )


@pytest.mark.timeout(max(420, KILLS * 12))
async def test_three_tables_survive_sigkill_at_random_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three tables with computer seats and a turn timer, the bot killed at seeded random points
    (20+ times) and restarted: every saved game replays to itself, every acknowledged action is
    in it exactly once, and every game ends with its result recorded once."""
    print(f"CRASH_TEST_SEED={SEED} CRASH_KILLS={KILLS}")
    rng = random.Random(SEED)
    names = [t[0] for t in TABLES]
    stand_in = await start_stand_in("127.0.0.1", 0, "Crash Guild", USERS, channels=names)
    killer = Killer(stand_in, monkeypatch)
    bot = BotProcess(
        stand_in,
        [stand_in.channel(n) for n in names],
        tmp_path / "bot",
        turn_seconds=str(TURN_SECONDS),
        ai_delay_seconds="0.2",
        max_timeouts="10",
    )
    killer.bot = bot
    run = Run(stand_in, bot, killer, rng)
    started = time.monotonic()
    try:
        await bot.start()
        while run.plan.modes or not run.tables:
            tables = [
                Table(
                    stand_in.channel(ch),
                    stand_in.user(host),
                    [stand_in.user(g) for g in guests],
                    bots,
                    target,
                )
                for ch, host, guests, bots, target in TABLES
            ]
            tables[0].leaver = tables[0].guests[-1]
            run.tables = tables
            for table in tables:
                await run.open(table)
            while not all(t.done for t in tables):
                assert time.monotonic() - started < MAX_SECONDS, "the games did not end"
                acted = False
                for table in tables:
                    if not table.done:
                        acted |= await run.visit(table)
                if not acted:
                    await asyncio.sleep(0.1)
        seconds = time.monotonic() - started
        results = read_results(bot.db)
        out = run.out
        summary = (
            f"seed {SEED}: {out.games} games ({out.rounds} rounds) in {seconds:.0f}s; {bot.kills} kills "
            f"{dict(out.kills)}; killed in flight: {dict(out.cases)}; acknowledged actions checked: "
            f"{dict(out.acks)}; {out.retries} retries; {out.timeouts} turn timeouts; "
            f"{out.replays} saved games replayed; bot starts "
            f"{min(bot.start_seconds):.2f}-{max(bot.start_seconds):.2f}s"
        )
        print(summary)
        assert bot.kills >= KILLS, summary
        games = results["games"]
        assert len(games) == out.games and all(g[-1] for g in games), f"games recorded: {games}\n{summary}"
        for game_row, _variant, rounds, _result, _finished in games:
            numbers = [r[1] for r in results["rounds"] if r[0] == game_row]
            assert numbers == list(range(1, rounds + 1)), f"game {game_row}'s rounds recorded: {numbers}"
        assert not results["open_tables"], "a finished game is still saved as open"
        for table in run.tables:
            assert any("won!" in m.text for m in stand_in.messages(table.channel)), "no standings"
        problems = stand_in.state.problems + [f"unknown route {r}" for r in stand_in.unknown_routes]
        assert not problems, problems
        errors = Counter(f"{r.method} {r.path.split('/')[1]} {r.error.code}" for r in stand_in.errors)
        # A ping deleted by a bot killed before it saved that: the next bot deletes it again.
        assert set(errors) <= DROPPED_ANSWERS | {"DELETE channels 10008"}, (
            f"Discord errors {dict(errors)}\n{summary}"
        )
        logged = [line for line in bot.output().splitlines() if " ERROR " in line]
        assert not logged, "the bot logged errors:\n" + "\n".join(logged)
    except BaseException:
        print(f"seed {SEED}; the bot's output (end):\n{bot.tail(60)}")
        raise
    finally:
        await bot.stop()
        await stand_in.close()
