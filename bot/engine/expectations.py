"""What a scenario expects of the game: the expectation keys of the scenario format (``turn``,
``top``, ``hands``, ...; docs/scenarios.md) and the invariants checked after
every step. Used by the scenario runner (:mod:`bot.engine.scenarios`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.cards import Card
from bot.engine.errors import UnoError
from bot.engine.events import Event
from bot.engine.game import LEFT, Game
from bot.engine.options import PendingKind


class Malformed(Exception):
    """The scenario file is not in the format (the message says what is wrong)."""


class Failed(Exception):
    """The engine did not behave as the scenario says (the message is the first difference)."""


def census(game: Game) -> Counter[str]:
    """Copies of every card in play, by full name (hands, draw pile, discard pile)."""
    c: Counter[str] = Counter(card.name for h in game.hands.values() for card in h)
    c.update(card.name for card in game.draw_pile)
    c.update(card.name for card in game.discard_pile)
    return c


def check_invariants(game: Game, deck: Counter[str], where: str) -> None:
    """Checked after every step: every card conserved (``deck``, the :func:`census` after the
    deal), and exactly one decision pending, of a seated player (none once the round is over).

    Raises:
        Failed: the first of these that does not hold.
    """
    now = census(game)
    if now != deck:
        more = now - deck
        fewer = deck - now
        raise Failed(f"{where}: cards not conserved (extra {dict(more)}, missing {dict(fewer)})")
    p = game.pending
    if (p.kind is PendingKind.NONE) != game.round_over:
        raise Failed(f"{where}: pending {p.kind.value!r} with round_over={game.round_over}")
    if p.kind is not PendingKind.NONE and p.player not in game.seated:
        raise Failed(f"{where}: the engine waits on {p.player!r}, who is not seated")


def _face_name(game: Game, name: str) -> str:
    card = Card.parse(name)
    return card.face(game.side).name if card.dark is not None else card.light.name


def _same(label: str, actual: Any, expected: Any, where: str) -> None:
    if actual != expected:
        raise Failed(f"{where}: {label} is {actual!r}, expected {expected!r}")


def _as_list(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def check(game: Game, events: Sequence[Event], expect: Mapping[str, Any], where: str) -> None:
    """Check a step's (or the scenario's final) ``expect`` table against the game and the step's
    events.

    Raises:
        Failed: the first expectation the game does not meet.
        Malformed: an expectation that is not in the format.
    """
    for key, want in expect.items():
        try:
            _CHECKS[key](game, events, want, where)
        except (KeyError, ValueError, TypeError, UnoError) as exc:
            if isinstance(exc, Failed):
                raise
            raise Malformed(f"{where}: bad expectation {key} = {want!r} ({exc})") from None


def _table(
    label: str, actual: Callable[[Game, str], Any], norm: Callable[[Any], Any] = lambda v: v
) -> Callable[[Game, Sequence[Event], Any, str], None]:
    def check(game: Game, _events: Sequence[Event], want: Any, where: str) -> None:
        if not isinstance(want, dict):
            raise TypeError(f"{label} must be a table")
        for who, value in want.items():
            _same(f"{label}[{who}]", actual(game, who), norm(value), where)

    return check


def _hand_cards(game: Game, who: str) -> list[str]:
    return sorted(c.name for c in game.hands.get(who, []))


def _revealed(game: Game, who: str) -> list[str]:
    return sorted(game.revealed.get(who, {}))


_CHECKS: dict[str, Callable[[Game, Sequence[Event], Any, str], None]] = {
    "turn": lambda g, e, w, where: _same("turn", g.pending.player, w, where),
    "top": lambda g, e, w, where: _same("top", g.top.name, _face_name(g, w), where),
    "color": lambda g, e, w, where: _same("color", g.color.value if g.color else None, w, where),
    "side": lambda g, e, w, where: _same("side", g.side.value, w, where),
    "direction": lambda g, e, w, where: _same(
        "direction", "left" if g.direction == LEFT else "right", w, where
    ),
    "hand_sizes": _table("hand_sizes", lambda g, p: len(g.hands.get(p, []))),
    "hands": _table("hands", _hand_cards, lambda v: sorted(Card.parse(str(c)).name for c in v)),
    "draw_size": lambda g, e, w, where: _same("draw_size", len(g.draw_pile), w, where),
    "discard_size": lambda g, e, w, where: _same("discard_size", len(g.discard_pile), w, where),
    "pending": lambda g, e, w, where: _same("pending", g.pending.kind.value, w, where),
    "round_over": lambda g, e, w, where: _same("round_over", g.round_over, w, where),
    "round_winner": lambda g, e, w, where: _same("round_winner", g.round_winner, w, where),
    "round_points": lambda g, e, w, where: _same("round_points", g.round_points, w, where),
    "scores": _table("scores", lambda g, k: g.scores.get(k)),
    "game_over": lambda g, e, w, where: _same("game_over", g.game_over, w, where),
    "game_winner": lambda g, e, w, where: _same("game_winner", sorted(g.winners), sorted(_as_list(w)), where),
    "eliminated": lambda g, e, w, where: _same(
        "eliminated", sorted(g.eliminated), sorted(_as_list(w)), where
    ),
    "protected": lambda g, e, w, where: _same("protected", g.protected or "", w, where),
    "revealed_to": _table("revealed_to", _revealed, lambda v: sorted(_as_list(v))),
    "events": lambda g, e, w, where: _same("events", [str(ev.kind) for ev in e], list(w), where),
}
