"""Hypothesis property tests for DOS (bot/engine/dos; docs/rules.md §14), in the style of
test_properties.py: whole games of mixed AI / random play with timeouts, DOS calls, catches, leaves
and junk actions, for every DOS configuration (2-10 players, each scoring mode, partners,
elimination, leaves and timeouts). After every step:

* no exception but :class:`UnoError` refusals, and every round ends within a step cap;
* card conservation: hands, row, draw pile and discard pile hold exactly the deck (108 cards);
* exactly one pending decision: ``none`` iff the round is over, else a seated player who has a
  legal way to make it, and nobody else has one; every pile holds one card while a turn waits;
* DOS calls and windows: a catch window only on a player holding two cards without a call; a call
  only on a hand of two, or of more on its owner's own decision;
* ``DosGame.from_dict(d).to_dict() == d``; a refused action changes nothing;
* on every ``SAMPLE``-th step every legal action of every seated player reads back from its text
  and is accepted by a restored copy, which keeps the invariants;
* at the game's end, ``DosGame.replay`` of its save is the game.

``UNO_PROPERTY_GAMES`` games per configuration (default 10: DOS games are short, the soak is the
long run); ``scripts/property_soak.py`` runs the
10,000-game soak of these configurations too.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from test_properties import PROFILE

from bot.engine.dos import ai as dos_ai
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import COLORS, DECK
from bot.engine.dos.game import DosGame
from bot.engine.errors import UnoError
from bot.engine.options import DosPendingKind, Options, Scoring

GAMES = int(os.environ.get("UNO_PROPERTY_GAMES", "10"))
MAX_STEPS = 20_000
MAX_ROUNDS = 200
SAMPLE = 10
PLAYED: Counter[str] = Counter()
"""Whole games, decisions ("steps") and actions played in this process (for the soak script)."""
DECK_COUNT = Counter(c.name for c in DECK)


@dataclass(frozen=True)
class Config:
    """One DOS configuration: a player count and the host's options (target drawn)."""

    id: str
    players: int
    options: Options = field(default_factory=lambda: Options(target_score=200))
    targets: tuple[int, int] = (1, 200)
    leave_rates: tuple[float, ...] = (0.0, 0.0, 0.003, 0.01)
    timeout_rates: tuple[float, ...] = (0.0, 0.0, 0.03, 0.1)


def _configs() -> list[Config]:
    out = [Config(f"dos-{n}p", n) for n in range(2, 11)]
    out += [
        Config("dos-4p-running-tally", 4, Options(scoring=Scoring.RUNNING_TALLY)),
        Config("dos-3p-single-round", 3, Options(scoring=Scoring.SINGLE_ROUND)),
        Config("dos-5p-elimination", 5, Options(elimination=True), (50, 300)),
        Config("dos-4p-partners", 4, Options(partners=True)),
        Config("dos-10p-partners", 10, Options(partners=True)),
        Config("dos-6p-partners-running-tally", 6, Options(partners=True, scoring=Scoring.RUNNING_TALLY)),
        Config("dos-6p-leaves-timeouts", 6, leave_rates=(0.01, 0.03), timeout_rates=(0.2, 0.4)),
        Config("dos-4p-partners-leaves", 4, Options(partners=True), leave_rates=(0.01, 0.03)),
    ]
    assert len({c.id for c in out}) == len(out)
    return out


CONFIGS = _configs()


def check_state(game: DosGame) -> None:
    """The invariants every state keeps (also checked on copies)."""
    held = Counter(c.name for c in chain(game.draw_pile, game.discard_pile, *game.hands.values()))
    held.update(c.name for pile in game.row for c in pile)
    assert held == DECK_COUNT, f"cards not conserved: {(held - DECK_COUNT) or ''} {(DECK_COUNT - held) or ''}"
    p = game.pending
    seated = game.seated
    if game.game_over:
        assert game.round_over and game.winners and set(game.winners) <= set(game.scores)
    if game.round_over:
        assert p.kind is DosPendingKind.NONE and p.player is None
        assert all(game.legal_actions(q) == [] for q in game.players)
        return
    assert p.kind is not DosPendingKind.NONE, "round in progress without a pending decision"
    assert set(game.hands) == set(seated)
    assert p.player in seated, f"pending player {p.player!r} isn't seated"
    assert game.decisions(p.player), f"{p.player} must decide {p.kind.value} but has no way to"
    assert all(not game.decisions(q) for q in seated if q != p.player)
    if p.kind is DosPendingKind.TURN:
        assert all(len(pile) == 1 for pile in game.row), "a turn waits on a covered pile"
        assert not game.matched and not game.bonus and not game.doubles and not game.due
        assert game.hands[p.player], "a turn with an empty hand"
    if p.kind is DosPendingKind.MATCH:
        assert game.matched and game.can_match(p.player)
    for q in game.catchable:
        assert q in seated and len(game.hands[q]) == 2 and q not in game.called, q
    for q in game.called:
        assert len(game.hands[q]) == 2 or (len(game.hands[q]) > 2 and p.player == q), q


class Table:
    """Drives one DOS game: policies, extra actions, and the checks."""

    def __init__(
        self, game: DosGame, ai_seats: tuple[bool, ...], rates: dict[str, float], rng: random.Random
    ):
        self.game, self.rng, self.rates = game, rng, rates
        self.steps = 0
        self.log: list[tuple[int, str, str]] = []
        self.state: dict[str, Any] = game.to_dict()
        seats = dict(zip(game.players, ai_seats, strict=True))
        self.policies = {p: self._policy(dos_ai.choose) for p, is_ai in seats.items() if is_ai}
        self.default = self._policy(dos_ai.random_action)

    def _policy(self, base: dos_ai.DosPolicy) -> dos_ai.DosPolicy:
        def policy(game: DosGame, player: str, rng: random.Random) -> DosAction:
            timeout = rng.random() < self.rates["timeout"]
            action = DosAction(DosActionKind.TIMEOUT) if timeout else base(game, player, rng)
            self.log.append((game.round_no, player, action.text()))
            self.steps += 1
            return action

        return policy

    def apply(self, player: str, action: DosAction) -> None:
        self.log.append((self.game.round_no, player, action.text()))
        self.game.apply(player, action)
        self.after_step(self.game)

    def play_game(self) -> None:
        game = self.game
        rounds = 0
        while not game.game_over:
            rounds += 1
            assert rounds <= MAX_ROUNDS, f"game not over after {MAX_ROUNDS} rounds"
            game.start_round()
            self.after_step(game)
            dos_ai.play_round(
                game,
                self.policies,
                self.rng,
                default=self.default,
                max_steps=MAX_STEPS,
                after_step=self.after_step,
            )
            assert game.round_over
            if not game.game_over and self.rng.random() < self.rates["leave"] * 20:
                self.apply(self.rng.choice(game.seated), DosAction(DosActionKind.LEAVE))

    def after_step(self, game: DosGame) -> None:
        check_state(game)
        saved = game.to_dict()
        assert DosGame.from_dict(saved).to_dict() == saved, "from_dict(to_dict()) isn't the game"
        self.state = saved
        self.junk()
        if self.steps % SAMPLE == 0:
            self.sample()
        self.extras()

    def junk(self) -> None:
        """A random action that is not legal now is refused and changes nothing."""
        game, r = self.game, self.rng
        player = r.choice(game.players)
        kind = r.choice(list(DosActionKind))
        cards = tuple(r.sample(DECK, r.randint(0, 3)))
        action = DosAction(kind, r.randint(0, len(game.row) + 1), cards, r.choice([None, *COLORS]))
        if kind in (DosActionKind.LEAVE, DosActionKind.TIMEOUT) or action in game.legal_actions(player):
            return
        try:
            game.apply(player, action)
        except UnoError:
            assert game.to_dict() == self.state, f"a refused {action.text()} by {player} changed the game"
        else:  # accepted although not listed (e.g. a color given where none is needed): keep going
            self.log.append((game.round_no, player, action.text()))
            check_state(game)
            self.state = game.to_dict()

    def sample(self) -> None:
        """Every legal action of every seated player: read back from its text, accepted by a copy."""
        game = self.game
        for q in game.seated:
            for action in game.legal_actions(q):
                assert DosAction.parse(action.text()) == action, action.text()
                copy = DosGame.from_dict(self.state)
                try:
                    copy.apply(q, action)
                except UnoError as exc:
                    raise AssertionError(f"legal {action.text()} by {q} refused: {exc.reason}") from exc
                check_state(copy)

    def extras(self) -> None:
        """DOS calls, catch attempts and leaves, each with its own chance."""
        game, r = self.game, self.rng
        if game.round_over:
            return
        for q in game.seated:
            if game.can_call_dos(q) and r.random() < self.rates["call"]:
                self.apply(q, DosAction(DosActionKind.DOS))
        if r.random() < self.rates["catch"]:
            catcher, target = r.choice(game.seated), r.choice(game.players)
            action = DosAction(DosActionKind.CATCH, target=target)
            if action in game.legal_actions(catcher):
                self.apply(catcher, action)
            else:
                with pytest.raises(UnoError):
                    game.apply(catcher, action)
                assert game.to_dict() == self.state, "a refused catch changed the game"
        if not game.round_over and r.random() < self.rates["leave"]:
            self.apply(r.choice(game.seated), DosAction(DosActionKind.LEAVE))

    def describe(self) -> str:
        g = self.game
        tail = "\n".join(f"  round {n} {p}: {a}" for n, p, a in self.log[-12:])
        return f"players={g.players} seed={g.seed} options={g.options.to_dict()}\nlast actions:\n{tail}"


def _play(config: Config, data: st.DataObject) -> None:
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    n = config.players
    ai_seats = tuple(data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="ai seats"))
    rates = {
        "timeout": data.draw(st.sampled_from(config.timeout_rates), label="timeout"),
        "leave": data.draw(st.sampled_from(config.leave_rates), label="leave"),
        "call": data.draw(st.sampled_from((0.0, 0.3, 1.0)), label="call"),
        "catch": data.draw(st.sampled_from((0.0, 0.2)), label="catch"),
    }
    target = data.draw(st.integers(*config.targets), label="target")
    options = dataclasses.replace(config.options, target_score=target)
    game = DosGame([f"p{i}" for i in range(n)], options=options, seed=seed)
    table = Table(game, ai_seats, rates, random.Random(seed))
    try:
        table.play_game()
        saved = game.to_dict()
        assert saved["journal"] is not None, "a game played through apply lost its journal"
        assert DosGame.replay(saved).to_dict() == saved, "replaying the journal gave another game"
    except BaseException:
        note(table.describe())
        raise
    PLAYED.update(games=1, steps=table.steps, actions=game.version)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.id)
@pytest.mark.timeout(max(900, GAMES))
@settings(PROFILE, max_examples=GAMES)
@given(data=st.data())
def test_dos_random_play_keeps_invariants(config: Config, data: st.DataObject) -> None:
    """Whole DOS games of mixed AI/random play keep every invariant after every step."""
    _play(config, data)
