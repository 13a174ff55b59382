"""A crash test: the production bot (``python -m bot``) in a subprocess on the local stand-in,
killed with SIGKILL at seeded random points of a two-player game (between moves and in the middle
of moves), restarted each time, and the game played on to its end.

The game is fully determined by its seed and the users' choices, and the users choose by a fixed
policy of what their hand shows. So a reference run, never killed, gives the expected moves and
states, and the crashed run must match it: an answered move is in the restored game (not lost),
no move is applied twice (a click retried after a kill is refused as stale when its first try
was saved), every saved state equals the reference's state of the same version, and the moves,
the final standings and the recorded results are the same.

The test is the oracle: it reads the bot's SQLite file (the table snapshot is saved before each
answer) to know the game's version, and it decides where to kill: before a click, right after
dispatching it, a random few milliseconds after, when the bot posts its answer (which then never
arrives, or does), or once the table message is updated after the answer.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.localdiscord.records import Channel, InteractionRecord, Message, User
from bot.localdiscord.server import StandIn, start_stand_in
from tests.e2e.crashing import (
    COLORS,
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
    version_of,
)
from tests.storage.helpers import fresh_schema

KILL_SEED = int(os.environ.get("CRASH_TEST_SEED", "2024"))  # where and how the bot is killed
# How the bot is killed around a click (see `Killer`), and how many times each. The final move
# gets one more "before-answer" kill: the game ends while the bot dies.
KILL_PLAN = {
    "idle": 4,  # between moves: no interaction in flight
    "dispatch": 4,  # the click is dispatched; the bot is killed before it can read it
    "random": 6,  # the click is dispatched; the bot is killed a random 0-6 ms later
    "before-answer": 5,  # the bot posts its answer: killed, the answer never arrives
    "after-answer": 4,  # the bot's answer arrives: killed at that instant
    "after-publish": 3,  # killed once the table message was updated after the answer
}
MIN_KILLS = 20
MAX_STEPS = 2000


class KillPlan:
    """Seeded kill points, ``(game version, mode)``, used in order by the clicks on hands; a kill
    planned for a version the game has passed comes at the next click (but the final move only
    gets its own)."""

    def __init__(self, rng: random.Random, first: int, moves: int) -> None:
        modes = [mode for mode, n in KILL_PLAN.items() for _ in range(n)]
        rng.shuffle(modes)
        self.final = first + moves - 1
        versions = sorted(rng.choice(range(first, self.final)) for _ in modes)
        self.pending = [*zip(versions, modes, strict=True), (self.final, "before-answer")]

    def take(self, version: int) -> str | None:
        """The kill for a click at ``version``, if one is due."""
        if version >= self.final:
            self.pending = [p for p in self.pending if p[0] == self.final]
        if not self.pending or self.pending[0][0] > version:
            return None
        return self.pending.pop(0)[1]


@dataclass
class Outcome:
    """What one run did."""

    moves: list[tuple[int, str, str]] = field(default_factory=list)  # (version, user, labels)
    states: dict[int, dict[str, Any]] = field(default_factory=dict)  # version -> saved game
    first_version: int = 0
    standings: str = ""
    results: dict[str, list[Any]] = field(default_factory=dict)
    kills: Counter[str] = field(default_factory=Counter)  # by mode
    cases: Counter[str] = field(default_factory=Counter)  # clicks killed in flight, by outcome
    retries: int = 0
    stale_refusals: int = 0
    seconds: float = 0.0


class Play:
    """Two users playing one game through the stand-in, against one bot process; with a
    reference and a kill plan, the bot is killed and every saved state is checked."""

    def __init__(
        self,
        stand_in: StandIn,
        channel: Channel,
        users: list[User],
        bot: BotProcess,
        *,
        reference: Outcome | None = None,
        killer: Killer | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.s = stand_in
        self.channel = channel
        self.users = users
        self.bot = bot
        self.reference = reference
        self.killer = killer
        self.rng = rng or random.Random(0)
        self.plan: KillPlan | None = None
        self.name = "reference run" if reference is None else "crash run"
        self.out = Outcome()
        self.table: Message | None = None
        self.wild = ""  # the card of a wild whose color comes next

    # ------------------------------------------------------------ the oracle

    def saved(self) -> dict[str, Any] | None:
        """The saved snapshot of this game (None once the game is over)."""
        return read_snapshot(self.bot.db, self.channel.id)

    def check_saved(self, context: str) -> int | None:
        """The saved game's version; its state is recorded (reference run) or must be the
        reference's state at that version (crash run)."""
        snapshot = self.saved()
        version = version_of(snapshot)
        if snapshot is None or version is None:
            return None
        game = snapshot["game"]
        if self.reference is None:
            self.out.states[version] = game
            return version
        expected = self.reference.states.get(version)
        assert expected is not None, f"{context}: the game is at version {version}, unknown to the reference"
        if game != expected:
            keys = sorted(k for k in expected if expected.get(k) != game.get(k))
            raise AssertionError(
                f"{context}: the saved game at version {version} differs from the reference's in "
                f"{keys}: an action was lost or applied twice"
            )
        return version

    # ------------------------------------------------------------ playing

    async def open(self, host: User, guest: User) -> None:
        """``/uno new scoring:single-round``, the guest joins, the host starts."""
        run = await self.s.slash(host, self.channel, "uno new", scoring="single-round", timeout=TIMEOUT)
        lobby = (await run.answer(TIMEOUT)).message
        assert lobby is not None
        await (await self.s.click(guest, lobby, label="Join")).answer(TIMEOUT)
        await (await self.s.click(host, lobby, label="Start")).answer(TIMEOUT)

        def table() -> Message | None:
            found = [
                m
                for m in self.s.messages(self.channel)
                if m.id > lobby.id and any(b.get("label") == "My hand" for b in m.buttons)
            ]
            return found[-1] if found else None

        self.table = await self.s.wait_until(table, TIMEOUT)
        await self.s.wait_until(lambda: version_of(self.saved()) is not None, TIMEOUT)
        first = self.check_saved(f"{self.name}: the deal")
        assert first is not None
        self.out.first_version = first

    async def play(self) -> Outcome:
        """Play the game to its end: each turn, the users open their hands from the table
        message; the one whose hand says it's their move acts by the policy."""
        started = time.monotonic()
        table = self.table
        assert table is not None
        turn, misses = 0, 0
        for _ in range(MAX_STEPS):
            if self.saved() is None:
                break
            user = self.users[turn]
            hand = await self.press(user, table, table.component(label="My hand"))
            if hand is not None and my_move(hand):
                misses = 0
                while hand is not None and my_move(hand):
                    component, value = policy(hand)
                    hand = await self.press(user, hand, component, value)
            else:
                misses += 1
                assert misses < 3 or self.saved() is None, f"{self.name}: no hand says it's their move"
            turn = 1 - turn
        else:
            raise AssertionError(f"{self.name}: the game did not end in {MAX_STEPS} steps")
        final = await self.s.wait_for_message(
            self.channel, lambda m: "won!" in m.text and m.id > table.id, timeout=TIMEOUT
        )
        self.out.standings = final.text
        self.out.results = read_results(self.bot.db)
        self.out.seconds = time.monotonic() - started
        return self.out

    async def press(
        self, user: User, message: Message, component: dict[str, Any], value: str | None = None
    ) -> Message | None:
        """One click (or select) by ``user``, as a user does it: clicked again until the bot
        answers it. Kills the bot where the plan says, and checks what was saved.

        Returns:
            The message the bot answered with; None if the game is over.
        """
        custom_id = str(component["custom_id"])
        label = str(component.get("label") or value)
        on_hand = custom_id.startswith(("uno:h:", "unos:h:"))
        first_try = True
        while True:
            before = version_of(self.saved())
            if before is None:
                return None  # the game is over (a retried final move finds no table)
            if not any(c.get("custom_id") == custom_id for c in message.all_components()):
                # Retrying, the user finds their hand redrawn (the bot refreshes open hands after
                # each move): they go on from what it shows. A picker there answers this click
                # (the answer arrived as the bot was killed): the wild's color comes next.
                if on_hand and picking(message):
                    self.wild = label
                return message
            self.out.retries += not first_try
            first_try = False
            mode = self.plan.take(before) if self.plan is not None and on_hand else None
            context = f"{self.name}: {user.name} clicking {label!r} at version {before}"
            if mode is not None:
                context += f" (killed: {mode})"
                self.out.kills[mode] += 1
            if mode == "idle":
                self.bot.kill()
                await self.bot.restart()
                restored = self.check_saved(context + ", restored")
                assert restored == before, f"{context}: restored at version {restored}"
            record = await self._start(user, message, custom_id, value)
            if mode == "dispatch":
                self.bot.kill()
            elif mode == "random":
                await asyncio.sleep(self.rng.uniform(0, 0.006))  # the random kill point
                if not self.bot.killed:
                    self.bot.kill()
            elif mode in ("before-answer", "after-answer", "after-publish"):
                assert self.killer is not None
                self.killer.arm(mode, record)
            await self.s.wait_until(lambda r=record: r.answered_at or self.bot.dead(), TIMEOUT)
            if mode == "after-publish" and not self.bot.dead():
                response = record.current_answer()
                assert response is not None and self.killer is not None
                if self._is_move(response.message):
                    await self.s.wait_until(self.bot.dead, TIMEOUT)
                else:  # nothing is published after a picker: kill at the answer
                    self.killer.fire()
            if self.killer is not None:
                self.killer.disarm()
            if not self.bot.killed and record.answered_at is None:
                raise AssertionError(f"{context}: the bot died without answering:\n{self.bot.tail()}")
            if self.bot.killed:
                await self.bot.restart()
            answered = record.answered_at is not None  # an answer sent just before the kill counts
            context += ", answered" if answered else ", not answered"
            after = self.check_saved(context)
            moved = after != before
            if moved:
                assert after is None or after == before + 1, (
                    f"{context}: the game went from version {before} to {after}: an action doubled"
                )
                self.record_move(before, user, label)
            if mode is not None and mode != "idle":
                outcome = ("answered" if answered else "not answered") + (
                    ", applied" if moved else ", not applied"
                )
                self.out.cases[outcome] += 1
            if not answered:
                continue  # no answer seen: the user clicks again (maybe refused as stale)
            response = record.current_answer()
            assert response is not None
            answer = response.message
            expected = on_hand and self._is_move(answer)
            assert moved == expected, (
                f"{context}: answered with {answer.text[:300] if answer else None!r}, but the saved "
                f"game went from version {before} to {after}: "
                + ("an answered action was lost" if expected else "an action was applied without being asked")
            )
            if answer is not None and on_hand and STALE in answer.text:
                self.out.stale_refusals += 1
            if answer is not None and on_hand and picking(answer):
                self.wild = label
            return answer

    async def _start(
        self, user: User, message: Message, custom_id: str, value: str | None
    ) -> InteractionRecord:
        if value is None:
            return await self.s.click(user, message, custom_id)
        return await self.s.select(user, message, custom_id, [value])

    def _is_move(self, answer: Message | None) -> bool:
        """Whether the answer to a hand click says it was a move: the refreshed hand, not a
        picker (a wild's color comes next) nor a refusal as stale."""
        if answer is None:
            return False
        if not answer.text.startswith(HAND):
            raise AssertionError(f"{self.name}: a hand click was answered with {answer.text!r}")
        return not picking(answer) and STALE not in answer.text

    def record_move(self, before: int, user: User, label: str) -> None:
        """Note the move that took the game from version ``before`` to the next; in the crash
        run it must be the reference's."""
        move = (before, user.name, f"{self.wild} → {label}" if label in COLORS and self.wild else label)
        self.wild = ""
        self.out.moves.append(move)
        if self.reference is not None:
            index = before - self.reference.first_version
            expected = self.reference.moves[index] if index < len(self.reference.moves) else None
            assert move == expected, f"{self.name}: move {index} was {move}, the reference's {expected}"


# ---------------------------------------------------------------------- the test


@pytest.mark.parametrize(
    # PostgreSQL's server shares the machine's cores with the bot and the stand-in: more time.
    "backend",
    ["sqlite", pytest.param("postgresql", marks=pytest.mark.timeout(240))],
)
async def test_game_survives_sigkill_at_random_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """The bot, killed with SIGKILL 20+ times during a game (between moves and in the middle of
    moves) and restarted each time, finishes the game exactly as a run that was never killed;
    on SQLite and on PostgreSQL (each run on a fresh schema; skipped without PostgreSQL)."""
    databases = [fresh_schema(), fresh_schema()] if backend == "postgresql" else [None, None]
    stand_in = await start_stand_in("127.0.0.1", 0, "Crash Guild", ["alice", "bob"], channels=["uno"])
    channel = stand_in.channel("uno")  # both runs play here, each its bot's first game: the same deal
    users = [stand_in.user("alice"), stand_in.user("bob")]
    killer = Killer(stand_in, monkeypatch)
    bots: list[BotProcess] = []
    try:
        # The reference: the same bot, seed, channel and policy; never killed.
        ref_bot = BotProcess(stand_in, [channel], tmp_path / "reference", database=databases[0])
        bots.append(ref_bot)
        await ref_bot.start()
        ref_play = Play(stand_in, channel, users, ref_bot)
        await ref_play.open(users[0], users[1])
        reference = await ref_play.play()
        await ref_bot.stop()  # the game is over
        ref_pings = _pings(stand_in, channel)
        assert len(reference.moves) >= 10, f"the reference game is too short: {reference.moves}"

        # The crash run: a fresh database, the same game, the bot killed again and again.
        bot = BotProcess(stand_in, [channel], tmp_path / "crash", database=databases[1])
        bots.append(bot)
        killer.bot = bot
        rng = random.Random(KILL_SEED)
        await bot.start()
        play = Play(stand_in, channel, users, bot, reference=reference, killer=killer, rng=rng)
        await play.open(users[0], users[1])
        play.plan = KillPlan(rng, reference.first_version, len(reference.moves))
        crashed = await play.play()

        pings = _pings(stand_in, channel) - ref_pings
        summary = (
            f"reference: {len(reference.moves)} moves in {reference.seconds:.1f}s; crash run: "
            f"{len(crashed.moves)} moves in {crashed.seconds:.1f}s with {bot.kills} kills "
            f"{dict(crashed.kills)}; clicks killed in flight: {dict(crashed.cases)}; "
            f"{crashed.retries} clicks retried, {crashed.stale_refusals} refused as stale; "
            f"bot starts {min(bot.start_seconds):.2f}-{max(bot.start_seconds):.2f}s; "
            f"'your move' pings left in the channel: {ref_pings} by the reference, {pings} by the crash run"
        )
        print(summary)
        assert crashed.moves == reference.moves, f"the moves differ from the reference's\n{summary}"
        assert crashed.standings == reference.standings, (
            f"the final standings differ:\n{crashed.standings}\nthe reference's:\n{reference.standings}"
        )
        assert crashed.results == reference.results, (
            f"the recorded results differ:\n{crashed.results}\nthe reference's:\n{reference.results}"
        )
        assert crashed.results["games"] and crashed.results["games"][0][-1], "no finished game recorded"
        assert not crashed.results["open_tables"], "the finished game is still saved as open"
        assert bot.kills >= MIN_KILLS, f"only {bot.kills} kills\n{summary}"
        in_flight = sum(crashed.cases.values())
        assert in_flight >= MIN_KILLS // 2, f"only {in_flight} kills with a click in flight\n{summary}"
        for case in ("not answered, not applied", "not answered, applied", "answered, applied"):
            assert crashed.cases[case], f"no click killed in flight ended {case!r}\n{summary}"
        problems = stand_in.state.problems + [f"unknown route {r}" for r in stand_in.unknown_routes]
        assert not problems, problems
        errors = Counter(f"{r.method} {r.path.split('/')[1]} {r.error.code}" for r in stand_in.errors)
        assert set(errors) <= DROPPED_ANSWERS and sum(errors.values()) == crashed.kills["before-answer"], (
            f"Discord errors {dict(errors)}; expected only the dropped answers"
        )
        for each in bots:
            logged = [line for line in each.output().splitlines() if " ERROR " in line]
            assert not logged, "the bot logged errors:\n" + "\n".join(logged)
    except BaseException:
        for each in bots:
            print(f"---- the {each.workdir.name} bot's output (end):\n{each.tail()}")
        raise
    finally:
        for each in bots:
            await each.stop()
        await stand_in.close()


def _pings(stand_in: StandIn, channel: Channel) -> int:
    """The bot's "it's your move" messages in the channel (it deletes each when it pings again)."""
    return sum("it's your move" in m.text for m in stand_in.messages(channel))
