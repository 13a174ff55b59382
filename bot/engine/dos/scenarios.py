"""DOS rule scenarios (``variant = "dos"``; docs/scenarios.md's DOS section): the deal with its Center
Row, the steps, the expectations and the invariants. The shared runner
(``python -m bot.engine.scenarios``) hands every DOS file to :class:`DosScenario`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine.dos.cards import COPIES, DosCard
from bot.engine.dos.game import DEFAULT_TARGET, DosGame
from bot.engine.errors import NotExpected, RoundOver, UnoError
from bot.engine.events import Event
from bot.engine.expectations import Failed, Malformed
from bot.engine.options import DosPendingKind, Options

DEAL_KEYS = {
    "dealer", "center", "draw", "discard", "turn", "dos_called", "scores", "hands", "started", "direction",
}  # fmt: skip
STEP_KEYS = {
    "player", "action", "pile", "cards", "card", "color", "pile_color", "target", "expect_error", "expect",
}  # fmt: skip
EXPECT_KEYS = {
    "turn", "hand_sizes", "hands", "draw_size", "discard_size", "pending", "round_over",
    "round_winner", "round_points", "scores", "game_over", "game_winner", "eliminated",
    "revealed_to", "events", "center", "center_size", "bonus_cards", "dos_called",
}  # fmt: skip
OTHER_VARIANTS = {
    "play-drawn", "keep", "uno", "challenge", "accept", "discard", "choose-color", "reveal", "jump-in",
}  # fmt: skip
"""Actions of the other editions: refused in DOS with ``not-expected`` (after ``round-over``)."""


def _no_unknown(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise Malformed(f"unknown or unused key(s) for DOS in {where}: {', '.join(sorted(unknown))}")


def _cards(names: Any, where: str) -> list[DosCard]:
    if not isinstance(names, list):
        raise Malformed(f"{where} must be a list of cards")
    try:
        return [DosCard.parse(str(n)) for n in names]
    except UnoError:
        raise Malformed(f"{where}: {names!r} holds a card DOS doesn't have") from None


@dataclass
class DosScenario:
    """One parsed DOS scenario file."""

    path: Path
    title: str
    players: list[str]
    seed: int
    options: Options
    deal: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_data(cls, path: Path, data: Mapping[str, Any]) -> DosScenario:
        """Check the shape of a DOS scenario read from ``path``.

        Raises:
            Malformed: not in the format.
        """
        players, deal = data.get("players"), data.get("deal")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise Malformed("'players' must be a list of names")
        if not isinstance(deal, dict):
            raise Malformed("'deal' must be a table")
        _no_unknown(deal, DEAL_KEYS, "[deal]")
        if deal.get("direction", "left") != "left":
            raise Malformed("DOS always plays to the left")
        steps = data.get("step", [])
        if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
            raise Malformed("'step' must be an array of tables ([[step]])")
        for i, step in enumerate(steps, 1):
            _no_unknown(step, STEP_KEYS, f"step {i}")
            if "player" not in step or "action" not in step:
                raise Malformed(f"step {i} needs 'player' and 'action'")
            if step["action"] not in ACTIONS and step["action"] not in OTHER_VARIANTS:
                raise Malformed(f"step {i}: unknown action {step['action']!r}")
            _check_expect(step.get("expect", {}), f"step {i} expect")
        _check_expect(data.get("expect", {}), "[expect]")
        raw = dict(data.get("options") or {})
        raw.setdefault("target_score", DEFAULT_TARGET)
        try:
            options = Options.parse(raw)
        except UnoError as exc:
            raise Malformed(exc.message) from None
        options = Options(
            target_score=options.target_score,
            scoring=options.scoring,
            partners=options.partners,
            elimination=options.elimination,
        )  # house rules are accepted and ignored (docs/rules.md §14.12)
        seed = data.get("seed", 0)
        if not isinstance(seed, int):
            raise Malformed("'seed' must be an integer")
        title = str(data.get("title", path.stem))
        return cls(path, title, players, seed, options, deal, steps, dict(data.get("expect", {})))

    def build(self) -> DosGame:
        """The game in the scenario's dealt position.

        Raises:
            Malformed: cards that don't parse or don't fit the deck, bad deal fields.
        """
        deal = self.deal
        hands = deal.get("hands", {})
        if not isinstance(hands, dict) or set(hands) - set(self.players):
            raise Malformed("[deal.hands] must be a table of players in 'players'")
        parsed = {p: _cards(h, f"hand of {p}") for p, h in hands.items()}
        if "center" not in deal or not isinstance(deal["center"], list):
            raise Malformed("[deal] center (a list of piles) is required for DOS")
        row = [_cards(pile, "center") for pile in deal["center"]]
        draw = _cards(deal.get("draw", []), "draw")
        discard = _cards(deal.get("discard", []), "discard")
        count = Counter(c for h in parsed.values() for c in h) + Counter(draw + discard)
        count.update(c for pile in row for c in pile)
        for card, n in count.items():
            if n > COPIES[card]:
                raise Malformed(f"the deal holds {n} x {card.name}, the deck only {COPIES[card]}")
        if "dealer" not in deal:
            raise Malformed("[deal] needs a dealer")
        called = deal.get("dos_called", [])
        if not isinstance(called, list):
            raise Malformed("[deal] dos_called must be a list of players")
        try:
            return DosGame.from_deal(
                self.players,
                options=self.options,
                seed=self.seed,
                dealer=deal["dealer"],
                hands=parsed,
                row=row,
                draw_pile=list(reversed(draw)),
                discard_pile=discard,
                turn=deal.get("turn"),
                scores=deal.get("scores"),
                dos_called=called,
            )
        except UnoError as exc:
            raise Malformed(f"bad deal: {exc.message}") from None

    def run(self) -> None:
        """Play the steps and check every expectation and invariant.

        Raises:
            Malformed: the deal or a step is not in the format.
            Failed: the first difference between the engine and the scenario.
        """
        game = self.build()
        deck = census(game)
        check_invariants(game, deck, "after the deal")
        events: list[Event] = []
        for i, step in enumerate(self.steps, 1):
            where = f"step {i} ({step['player']} {step['action']})"
            before = game.to_dict()
            wanted = step.get("expect_error")
            try:
                events = _act(game, step)
            except UnoError as exc:
                if wanted in (None, False):
                    raise Failed(f"{where} was refused: {exc.reason}: {exc.message}") from None
                if isinstance(wanted, str) and wanted != exc.reason:
                    raise Failed(f"{where} was refused with {exc.reason!r}, expected {wanted!r}") from None
                if game.to_dict() != before:
                    raise Failed(f"{where} was refused but changed the game") from None
                events = []
            else:
                if wanted not in (None, False):
                    raise Failed(f"{where} was accepted, expected refusal {wanted!r}")
            check_invariants(game, deck, where)
            check(game, events, step.get("expect", {}), where)
        check(game, events, self.expect, "at the end")


# --------------------------------------------------------------------------- steps


def _text(step: Mapping[str, Any], key: str) -> str | None:
    value = step.get(key)
    return None if value is None else str(value)


def _play(game: DosGame, step: Mapping[str, Any]) -> list[Event]:
    pile = step.get("pile")
    if not isinstance(pile, int) or isinstance(pile, bool):
        raise Malformed("action 'play' needs a whole-number 'pile'")
    if ("cards" in step) == ("card" in step):
        raise Malformed("action 'play' needs exactly one of 'cards' and 'card'")
    cards = step["cards"] if "cards" in step else [step["card"]]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise Malformed("'cards' must be a list of card names")
    return game.play(
        step["player"], pile, cards, color=_text(step, "color"), pile_color=_text(step, "pile_color")
    )


def _place(game: DosGame, step: Mapping[str, Any]) -> list[Event]:
    if not isinstance(step.get("card"), str):
        raise Malformed("action 'place' needs a 'card'")
    return game.place(step["player"], str(step["card"]))


def _catch(game: DosGame, step: Mapping[str, Any]) -> list[Event]:
    if not isinstance(step.get("target"), str):
        raise Malformed("action 'catch' needs a 'target'")
    return game.catch(step["player"], str(step["target"]))


ACTIONS: dict[str, Callable[[DosGame, Mapping[str, Any]], list[Event]]] = {
    "play": _play,
    "draw": lambda g, s: g.draw(s["player"]),
    "place": _place,
    "end-turn": lambda g, s: g.end_turn(s["player"]),
    "dos": lambda g, s: g.call_dos(s["player"]),
    "catch": _catch,
    "leave": lambda g, s: g.leave(s["player"]),
    "timeout": lambda g, s: g.timeout(s["player"]),
}
"""The engine call of each DOS step's ``action``."""


def _act(game: DosGame, step: Mapping[str, Any]) -> list[Event]:
    action = step["action"]
    if action in OTHER_VARIANTS:
        if game.round_over:
            raise RoundOver()
        raise NotExpected(f"{action!r} isn't an action of DOS.")
    return ACTIONS[action](game, step)


# --------------------------------------------------------------------------- checks


def census(game: DosGame) -> Counter[str]:
    """Copies of every card in play by name: hands, draw pile, discard pile and row."""
    c: Counter[str] = Counter(card.name for h in game.hands.values() for card in h)
    c.update(card.name for card in game.draw_pile)
    c.update(card.name for card in game.discard_pile)
    c.update(card.name for pile in game.row for card in pile)
    return c


def check_invariants(game: DosGame, deck: Counter[str], where: str) -> None:
    """Cards conserved; one pile card each while a turn waits; exactly one decision pending.

    Raises:
        Failed: the first of these that does not hold.
    """
    now = census(game)
    if now != deck:
        raise Failed(f"{where}: cards not conserved (extra {dict(now - deck)}, missing {dict(deck - now)})")
    p = game.pending
    if (p.kind is DosPendingKind.NONE) != game.round_over:
        raise Failed(f"{where}: pending {p.kind.value!r} with round_over={game.round_over}")
    if p.kind is not DosPendingKind.NONE and p.player not in game.seated:
        raise Failed(f"{where}: the engine waits on {p.player!r}, who is not seated")
    if p.kind is DosPendingKind.TURN and any(len(pile) != 1 for pile in game.row):
        raise Failed(f"{where}: a turn waits while a pile holds more than one card")


def _check_expect(expect: Any, where: str) -> None:
    if not isinstance(expect, dict):
        raise Malformed(f"{where} must be a table")
    _no_unknown(expect, EXPECT_KEYS, where)


def _same(label: str, actual: Any, expected: Any, where: str) -> None:
    if actual != expected:
        raise Failed(f"{where}: {label} is {actual!r}, expected {expected!r}")


def _names(value: Any) -> list[str]:
    return sorted(DosCard.parse(str(c)).name for c in value)


def _as_list(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else sorted(value)


def _table(
    label: str, actual: Callable[[DosGame, str], Any], norm: Callable[[Any], Any] = lambda v: v
) -> _Check:
    def check_table(game: DosGame, _events: Sequence[Event], want: Any, where: str) -> None:
        if not isinstance(want, dict):
            raise TypeError(f"{label} must be a table")
        for who, value in want.items():
            _same(f"{label}[{who}]", actual(game, who), norm(value), where)

    return check_table


_Check = Callable[[DosGame, Sequence[Event], Any, str], None]


def _value(label: str, get: Callable[[DosGame], Any], norm: Callable[[Any], Any] = lambda v: v) -> _Check:
    return lambda g, e, w, where: _same(label, get(g), norm(w), where)


_CHECKS: dict[str, _Check] = {
    "turn": _value("turn", lambda g: g.pending.player),
    "hand_sizes": _table("hand_sizes", lambda g, p: len(g.hands.get(p, []))),
    "hands": _table("hands", lambda g, p: sorted(c.name for c in g.hands.get(p, [])), _names),
    "draw_size": _value("draw_size", lambda g: len(g.draw_pile)),
    "discard_size": _value("discard_size", lambda g: len(g.discard_pile)),
    "pending": _value("pending", lambda g: g.pending.kind.value),
    "round_over": _value("round_over", lambda g: g.round_over),
    "round_winner": _value("round_winner", lambda g: g.round_winner),
    "round_points": _value("round_points", lambda g: g.round_points),
    "scores": _table("scores", lambda g, k: g.scores.get(k)),
    "game_over": _value("game_over", lambda g: g.game_over),
    "game_winner": _value("game_winner", lambda g: sorted(g.winners), _as_list),
    "eliminated": _value("eliminated", lambda g: sorted(g.eliminated), _as_list),
    "revealed_to": _table("revealed_to", lambda g, p: [], lambda v: sorted(_as_list(v))),
    "events": lambda g, e, w, where: _same("events", [str(ev.kind) for ev in e], list(w), where),
    "center": _value(
        "center",
        lambda g: [[c.name for c in pile] for pile in g.row],
        lambda w: [[DosCard.parse(str(c)).name for c in pile] for pile in w],
    ),
    "center_size": _value("center_size", lambda g: len(g.row)),
    "bonus_cards": _value("bonus_cards", lambda g: g.bonus),
    "dos_called": _value("dos_called", lambda g: sorted(g.called), _as_list),
}


def check(game: DosGame, events: Sequence[Event], expect: Mapping[str, Any], where: str) -> None:
    """Check an ``expect`` table against the game and the step's events.

    Raises:
        Failed: the first expectation the game does not meet.
        Malformed: an expectation that is not in the format.
    """
    for key, want in expect.items():
        try:
            _CHECKS[key](game, events, want, where)
        except (KeyError, ValueError, TypeError, UnoError) as exc:
            raise Malformed(f"{where}: bad expectation {key} = {want!r} ({exc})") from None
