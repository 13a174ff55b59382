"""The rule-scenario runner: ``python -m bot.engine.scenarios PATH [PATH ...]``.

Runs scenario files in the format of ``docs/scenarios.md``: files, or folders searched
recursively for ``*.toml``. Prints ``PASS <file>`` or ``FAIL <file>: <first difference>`` per
scenario (``ERROR <file>: <reason>`` for a file it cannot read or parse), then ``N passed, M
failed``. Exit status: 0 when all passed, 1 when a scenario failed, 2 when a file could not be
read or parsed.

Checked after every step, always: card conservation (copies of every card by its full name) and
exactly one pending decision (none once the round is over).
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine.actions import ActionKind
from bot.engine.cards import Card, Color, Face, Side
from bot.engine.dos.scenarios import DosScenario
from bot.engine.errors import UnoError
from bot.engine.events import Event
from bot.engine.expectations import Failed, Malformed, census, check, check_invariants
from bot.engine.game import LEFT, RIGHT, Game
from bot.engine.options import Options
from bot.engine.variants import get_variant

TOP_KEYS = {"title", "variant", "players", "seed", "options", "deal", "step", "expect"}
DEAL_KEYS = {
    "dealer", "discard", "draw", "color", "side", "direction", "turn", "started", "scores",
    "protected", "hands",
}  # fmt: skip
STEP_KEYS = {"player", "action", "card", "color", "target", "decline", "expect_error", "expect"}
EXPECT_KEYS = {
    "turn", "top", "color", "side", "direction", "hand_sizes", "hands", "draw_size",
    "discard_size", "pending", "round_over", "round_winner", "round_points", "scores",
    "game_over", "game_winner", "eliminated", "protected", "revealed_to", "events",
}  # fmt: skip


@dataclass
class Scenario:
    """One parsed scenario file."""

    path: Path
    title: str
    variant: str
    players: list[str]
    seed: int
    options: Options
    deal: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> Scenario:
        """Read and check the shape of a scenario file.

        Raises:
            Malformed: unreadable, not TOML, or not in the format.
        """
        return cls.from_data(path, _read(path))

    @classmethod
    def from_data(cls, path: Path, data: dict[str, Any]) -> Scenario:
        """Check the shape of a scenario read from ``path``.

        Raises:
            Malformed: not in the format.
        """
        _no_unknown(data, TOP_KEYS, "top level")
        for key in ("variant", "players", "deal"):
            if key not in data:
                raise Malformed(f"missing required key {key!r}")
        players = data["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise Malformed("'players' must be a list of names")
        deal = data["deal"]
        if not isinstance(deal, dict):
            raise Malformed("'deal' must be a table")
        _no_unknown(deal, DEAL_KEYS, "[deal]")
        steps = data.get("step", [])
        if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
            raise Malformed("'step' must be an array of tables ([[step]])")
        for i, step in enumerate(steps, 1):
            _no_unknown(step, STEP_KEYS, f"step {i}")
            if "player" not in step or "action" not in step:
                raise Malformed(f"step {i} needs 'player' and 'action'")
            if step["action"] not in ACTIONS:
                raise Malformed(f"step {i}: unknown action {step['action']!r}")
            _check_expect(step.get("expect", {}), f"step {i} expect")
        expect = data.get("expect", {})
        _check_expect(expect, "[expect]")
        try:
            options = Options.parse(data.get("options"))
            get_variant(data["variant"])
        except UnoError as exc:
            raise Malformed(exc.message) from None
        seed = data.get("seed", 0)
        if not isinstance(seed, int):
            raise Malformed("'seed' must be an integer")
        return cls(
            path, str(data.get("title", path.stem)), data["variant"], players, seed, options, deal,
            steps, expect,
        )  # fmt: skip

    def build(self) -> tuple[Game, list[Event]]:
        """The game in the scenario's dealt position.

        Raises:
            Malformed: cards that don't parse or don't fit the variant's deck, bad deal fields.
        """
        deal = self.deal
        variant = get_variant(self.variant)
        hands = deal.get("hands", {})
        if not isinstance(hands, dict):
            raise Malformed("[deal.hands] must be a table")
        unknown = set(hands) - set(self.players)
        if unknown:
            raise Malformed(f"[deal.hands] names players not in 'players': {sorted(unknown)}")
        parsed_hands = {p: _cards(h, variant.two_sided, f"hand of {p}") for p, h in hands.items()}
        draw = _cards(deal.get("draw", []), variant.two_sided, "draw")
        discard = _cards(deal.get("discard", []), variant.two_sided, "discard")
        if not discard:
            raise Malformed("[deal] discard needs at least the top card")
        everything = [c for h in parsed_hands.values() for c in h] + draw + discard
        _check_copies(everything, variant.copies())
        try:
            side = Side(deal.get("side", "light"))
            direction = {"left": LEFT, "right": RIGHT}[deal.get("direction", "left")]
            color = Color(str(deal["color"])) if "color" in deal else None
        except (ValueError, KeyError) as exc:
            raise Malformed(f"bad [deal] value: {exc}") from None
        scores = deal.get("scores", {})
        if not isinstance(scores, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in scores.values()
        ):
            raise Malformed("[deal] scores must be a table of player (or team) = whole number")
        started = deal.get("started", True)
        if not isinstance(started, bool):
            raise Malformed("[deal] started must be true or false")
        if "dealer" not in deal:
            raise Malformed("[deal] needs a dealer")
        try:
            return Game.from_deal(
                self.players,
                variant=self.variant,
                options=self.options,
                seed=self.seed,
                dealer=deal["dealer"],
                hands=parsed_hands,
                draw_pile=list(reversed(draw)),
                discard_pile=discard,
                side=side,
                color=color,
                direction=direction,
                turn=deal.get("turn"),
                started=started,
                scores=deal.get("scores"),
                protected=deal.get("protected") or None,
            )
        except UnoError as exc:
            raise Malformed(f"bad deal: {exc.message}") from None

    def run(self) -> None:
        """Play the steps and check every expectation and invariant.

        Raises:
            Malformed: the deal or a step is not in the format.
            Failed: the first difference between the engine and the scenario.
        """
        game, events = self.build()
        deck = census(game)
        check_invariants(game, deck, "after the deal")
        for i, step in enumerate(self.steps, 1):
            where = f"step {i} ({step['player']} {step['action']})"
            before = game.to_dict()
            expected_error = step.get("expect_error")
            try:
                events = ACTIONS[step["action"]](game, step)
            except UnoError as exc:
                if expected_error in (None, False):
                    raise Failed(f"{where} was refused: {exc.reason}: {exc.message}") from None
                if isinstance(expected_error, str) and expected_error != exc.reason:
                    raise Failed(
                        f"{where} was refused with {exc.reason!r}, expected {expected_error!r}"
                    ) from None
                if game.to_dict() != before:
                    raise Failed(f"{where} was refused but changed the game") from None
                events = []
            else:
                if expected_error not in (None, False):
                    raise Failed(f"{where} was accepted, expected refusal {expected_error!r}")
            check_invariants(game, deck, where)
            check(game, events, step.get("expect", {}), where)
        check(game, events, self.expect, "at the end")


# --------------------------------------------------------------------------- actions


def _step_color(step: Mapping[str, Any]) -> Color | str | None:
    value = step.get("color")
    return value if value is None else str(value)


def _card_arg(step: Mapping[str, Any]) -> str:
    if not isinstance(step.get("card"), str):
        raise Malformed(f"action {step['action']!r} needs a 'card'")
    return str(step["card"])


def _target(step: Mapping[str, Any]) -> str:
    if not isinstance(step.get("target"), str):
        raise Malformed(f"action {step['action']!r} needs a 'target'")
    return str(step["target"])


ACTIONS: dict[str, Callable[[Game, dict[str, Any]], list[Event]]] = {
    ActionKind.PLAY: lambda g, s: g.play(
        s["player"], _card_arg(s), color=_step_color(s), target=s.get("target")
    ),
    ActionKind.DRAW: lambda g, s: g.draw(s["player"]),
    ActionKind.PLAY_DRAWN: lambda g, s: g.play_drawn(
        s["player"], color=_step_color(s), target=s.get("target")
    ),
    ActionKind.KEEP: lambda g, s: g.keep(s["player"]),
    ActionKind.UNO: lambda g, s: g.call_uno(s["player"]),
    ActionKind.CATCH: lambda g, s: g.catch(s["player"], _target(s)),
    ActionKind.CHALLENGE: lambda g, s: g.challenge(s["player"]),
    ActionKind.ACCEPT: lambda g, s: g.accept(s["player"]),
    ActionKind.DISCARD: lambda g, s: g.discard(s["player"], None if s.get("decline") else _card_arg(s)),
    ActionKind.CHOOSE_COLOR: lambda g, s: g.choose_color(s["player"], str(s.get("color", ""))),
    ActionKind.REVEAL: lambda g, s: g.reveal(s["player"]),
    ActionKind.JUMP_IN: lambda g, s: g.jump_in(
        s["player"], _card_arg(s), color=_step_color(s), target=s.get("target")
    ),
    ActionKind.LEAVE: lambda g, s: g.leave(s["player"]),
    ActionKind.TIMEOUT: lambda g, s: g.timeout(s["player"]),
}
"""The engine call of each step's ``action`` (every :class:`ActionKind`; a step names a card by
its text, which may be the active face alone, so steps don't go through ``Action``)."""


# --------------------------------------------------------------------------- checks


def _no_unknown(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise Malformed(f"unknown key(s) in {where}: {', '.join(sorted(unknown))}")


def _check_expect(expect: Any, where: str) -> None:
    if not isinstance(expect, dict):
        raise Malformed(f"{where} must be a table")
    _no_unknown(expect, EXPECT_KEYS, where)


def _cards(names: Any, two_sided: bool, where: str) -> list[Card]:
    if not isinstance(names, list):
        raise Malformed(f"{where} must be a list of cards")
    out = []
    for name in names:
        try:
            card = Card.parse(str(name))
        except UnoError:
            raise Malformed(f"{where}: {name!r} isn't a card") from None
        if two_sided and card.dark is None:
            raise Malformed(f"{where}: {name!r} needs both faces ('light / dark') in this variant")
        if not two_sided and card.dark is not None:
            raise Malformed(f"{where}: {name!r} is two-sided, but this variant's cards are not")
        out.append(card)
    return out


def _check_copies(cards: Iterable[Card], copies: Counter[Face]) -> None:
    count: Counter[Face] = Counter()
    for card in cards:
        count[card.light] += 1
        if card.dark is not None:
            count[card.dark] += 1
    for face, n in count.items():
        if n > copies[face]:
            raise Malformed(f"the deal holds {n} x {face.name}, the deck only {copies[face]}")


# --------------------------------------------------------------------------- command line


def collect(paths: Iterable[str]) -> list[Path]:
    """The scenario files named by ``paths`` (folders searched recursively), sorted.

    Raises:
        Malformed: a path that does not exist.
    """
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.toml")))
        elif path.is_file():
            files.append(path)
        else:
            raise Malformed(f"{name}: no such file or folder")
    return files


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise Malformed(f"cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise Malformed(f"not valid TOML: {exc}") from None


def load(path: Path) -> Scenario | DosScenario:
    """Read a scenario file: a DOS scenario (docs/scenarios.md's DOS section) for ``variant = "dos"``.

    Raises:
        Malformed: unreadable, not TOML, or not in the format.
    """
    from bot.engine.editions import REGISTRY

    data = _read(path)
    _no_unknown(data, TOP_KEYS, "top level")
    edition = REGISTRY.get(
        str(data.get("variant", "classic")), REGISTRY["classic"]
    )  # UNO's refuses a bad one
    return edition.scenario(path, data)


def run_file(path: Path) -> tuple[str, str | None]:
    """Run one scenario file: ``("PASS", None)``, ``("FAIL", difference)`` or ``("ERROR", why)``."""
    try:
        load(path).run()
    except Malformed as exc:
        return "ERROR", str(exc)
    except Failed as exc:
        return "FAIL", str(exc)
    except Exception as exc:  # an engine crash is a failure of the engine, reported, not raised
        return "FAIL", f"engine error {type(exc).__name__}: {exc}"
    return "PASS", None


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m bot.engine.scenarios PATH [PATH ...]", file=sys.stderr)
        return 2
    try:
        files = collect(args)
    except Malformed as exc:
        print(f"ERROR {exc}")
        print("0 passed, 1 failed")
        return 2
    passed = failed = errors = 0
    for path in files:
        status, why = run_file(path)
        if status == "PASS":
            passed += 1
            print(f"PASS {path}")
        else:
            failed += 1
            errors += status == "ERROR"
            print(f"{status} {path}: {why}")
    print(f"{passed} passed, {failed} failed")
    if errors:
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
