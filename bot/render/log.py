"""The table's log: one short public line per event, each kind by its own small formatter."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.cards import Card, Side
from bot.engine.events import Event, EventKind
from bot.engine.game import Game
from bot.render.words import card_label, count, customizable_text, named, points_text
from bot.tables import Table

Line = Callable[["_Said"], "str | None"]
"""A formatter: the log line of one event (None: not worth a line)."""


class _Said:
    """What a formatter reads: the table, the event's player by name, its data, the side in play."""

    __slots__ = ("data", "name", "player", "side", "tbl")

    def __init__(self, tbl: Table, event: Event, side: Side) -> None:
        self.tbl, self.player, self.data, self.side = tbl, event.player, event.data, side
        self.name = named(tbl, event.player) if event.player else ""

    def who(self, key: str) -> str:
        """The name of the player (or team) the data names under ``key``."""
        return named(self.tbl, self.data[key])

    def card(self, key: str = "card") -> str:
        """The card the data names under ``key``, as shown on the side in play."""
        return card_label(Card.parse(self.data[key]), self.side)


def _played(s: _Said) -> str:
    card = Card.parse(s.data["card"])
    text = f"{s.name} {'jumped in with' if s.data.get('jump_in') else 'played'} {s.card()}"
    if card.face(s.side).color is None and s.data.get("color"):
        text += f" → {s.data['color']}"
    return text


def _drew(s: _Said) -> str | None:
    if s.data["reason"] == "catch":  # the catch's own line says it
        return None
    n = s.data["count"]
    return f"{s.name} drew {count(n, 'card')}" if n else f"{s.name} had nothing to draw"


def _color_named(s: _Said) -> str:
    game = s.tbl.game
    if game is not None and s.player not in game.hands:  # named for a player who left
        return f"{s.data['color']} is named for {s.name}, who left"
    return f"{s.name} names {s.data['color']}"


def _challenge(s: _Said) -> str:
    verdict = "guilty: they draw the penalty" if s.data["guilty"] else "innocent: the challenger draws"
    return f"⚖️ {s.who('by')} challenged {s.name}: {verdict}"


def _revealed(s: _Said) -> str:
    viewers = s.data["to"]
    who = "the table" if len(viewers) > 1 else named(s.tbl, viewers[0]) if viewers else "nobody"
    return f"👀 {s.name}'s hand is shown to {who}"


def _round_over(s: _Said) -> str:
    if s.data["winner"] is None:
        return "🔄 The round went in circles and is void: nobody scores"
    return f"🏁 {s.who('winner')} wins the round{points_text(s.tbl, s.data['points'])}"


def _game_over(s: _Said) -> str:
    winners = s.data["winners"]
    return f"🏆 {' & '.join(named(s.tbl, w) for w in winners)} win{'s' if len(winners) == 1 else ''} the game"


LINES: dict[EventKind, Line] = {
    EventKind.CARD_PLAYED: _played,
    EventKind.CARDS_DRAWN: _drew,
    EventKind.TURN_SKIPPED: lambda s: f"{s.name} loses a turn",
    EventKind.DRAWN_CARD_KEPT: lambda s: f"{s.name} keeps the drawn card",
    EventKind.UNO_CALLED: lambda s: f"📣 {s.name}: UNO!",
    EventKind.PLAYER_LEFT: lambda s: f"{s.name} left the game",
    EventKind.PROTECTION_ENDED: lambda s: "🛡️ Save The Day's protection ends",
    EventKind.DIRECTION_REVERSED: lambda s: f"Direction reversed: now {s.data['direction']}",
    EventKind.SIDE_FLIPPED: lambda s: f"🔄 FLIP! The table turns to the {s.data['side']} side",
    EventKind.COLOR_NAMED: _color_named,
    EventKind.PLAYER_CAUGHT: lambda s: f"🚨 {s.who('by')} caught {s.name} without UNO: +2 cards",
    EventKind.CHALLENGE: _challenge,
    EventKind.HAND_REVEALED: _revealed,
    EventKind.PENALTY_BLOCKED: lambda s: f"🛡️ {s.name} is protected: {s.data['card']} has no effect",
    EventKind.PROTECTED: lambda s: f"🛡️ {s.name} is protected by {s.who('by')}",
    EventKind.CARD_DISCARDED: lambda s: (
        f"{s.name} keeps all cards" if s.data.get("declined") else f"{s.name} discards {s.card()}"
    ),
    EventKind.HANDS_SWAPPED: lambda s: f"🔁 {s.name} swaps hands with {s.who('with_')}",
    EventKind.HANDS_PASSED: lambda s: f"🔁 Every hand passes {s.data['direction']}",
    EventKind.DECK_RESHUFFLED: lambda s: "The discard pile is shuffled into a new draw pile",
    # A known Wild Customizable rule by its id; the host's own text as written.
    EventKind.HOUSE_RULE: lambda s: f"📜 House rule: {customizable_text(s.data.get('rule', s.data['text']))}",
    EventKind.PLAYER_ELIMINATED: lambda s: f"❌ {s.name} reached {s.data['score']} and is out",
    EventKind.ROUND_OVER: _round_over,
    EventKind.GAME_OVER: _game_over,
    EventKind.ROUND_STARTED: lambda s: f"Round {s.data['round']}: {s.who('dealer')} deals",
    EventKind.START_CARD_RETURNED: lambda s: f"{s.card()} turned up first and went back into the draw pile",
}
"""The log line of each kind of event worth one (the others, such as a pending penalty, have none)."""


def describe(tbl: Table, event: Event, side: Side | None = None) -> str | None:
    """One short public log line for an event, or None for events not worth a line.

    Args:
        side: the side in play when the event happened (default: the game's side now).
    """
    line = LINES.get(event.kind)
    if line is None:
        return None
    if side is None:
        side = tbl.game.side if isinstance(tbl.game, Game) else Side.LIGHT
    return line(_Said(tbl, event, side))


def log_lines(tbl: Table, events: Sequence[Event]) -> list[str]:
    """The public log lines of one move's ``events`` (in order), each card named by its face on the
    side in play when that event happened: a Flip among ``events`` turns the ones after it."""
    side = tbl.game.side if isinstance(tbl.game, Game) else Side.LIGHT
    sides = []
    for event in reversed(events):  # the game is on its side after the last event
        sides.append(side)
        if event.kind is EventKind.SIDE_FLIPPED:
            side = side.other
    sides.reverse()
    lines = []
    dealt: Side | None = None  # after a round-started event, until the start card is in play
    for event, side in zip(events, sides, strict=True):
        if dealt is not None and event.kind not in _DEALING:
            lines.append(_start_card(tbl, dealt))  # on the side it turned up on
        starts = dealt is not None or event.kind is EventKind.ROUND_STARTED
        dealt = side if starts and event.kind in _DEALING else None
        if line := describe(tbl, event, side):
            lines.append(line)
    if dealt is not None:
        lines.append(_start_card(tbl, dealt))
    return lines


_DEALING = frozenset({EventKind.ROUND_STARTED, EventKind.DEALER_DRAWN, EventKind.START_CARD_RETURNED})


def _start_card(tbl: Table, side: Side) -> str:
    """The card that starts the round (the bottom of the discard pile as the round starts)."""
    assert isinstance(tbl.game, Game)
    return f"Start card: {card_label(tbl.game.discard_pile[0], side)}"
