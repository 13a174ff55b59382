"""The table's log: one short public line per event, each kind by its own small formatter (UNO's,
then DOS's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.cards import Card, Side
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DosEvent, DosEventKind
from bot.engine.events import Event, EventKind
from bot.engine.game import Game
from bot.i18n import N_, Tr
from bot.render.dos import card_text
from bot.render.faces import card_label, color_name
from bot.render.names import headcount, named
from bot.render.options import customizable_text
from bot.render.words import points_text
from bot.tables import Table

Line = Callable[["_Said"], "str | None"]
"""A formatter: the log line of one event (None: not worth a line)."""


class _Said:
    """What a formatter reads: the table, the event's player by name, its data, the side in play,
    and the language of the line (``tr``)."""

    __slots__ = ("_", "data", "name", "player", "side", "tbl", "tr")

    def __init__(self, tbl: Table, event: Event | DosEvent, side: Side, tr: Tr) -> None:
        self.tbl, self.player, self.data, self.side, self.tr = tbl, event.player, event.data, side, tr
        self._ = tr._
        self.name = named(tbl, event.player, tr) if event.player else ""

    def who(self, key: str) -> str:
        """The name of the player (or team) the data names under ``key``."""
        return named(self.tbl, self.data[key], self.tr)

    def card(self, key: str = "card") -> str:
        """The card the data names under ``key``, as shown on the side in play."""
        return card_label(Card.parse(self.data[key]), self.side, self.tr)

    def color(self) -> str:
        """The color the data names, in the line's language."""
        return color_name(self.data["color"], self.tr)

    def say(self, message: str, **more: object) -> str:
        """``message`` translated, with ``{name}`` (the event's player) and ``more`` filled in."""
        return self._(message).format(name=self.name, **more)


def _played(s: _Said) -> str:
    card = Card.parse(s.data["card"])
    if s.data.get("jump_in"):
        text = s.say("{name} jumped in with {card}", card=s.card())
    else:
        text = s.say("{name} played {card}", card=s.card())
    if card.face(s.side).color is None and s.data.get("color"):
        text += f" → {s.color()}"
    return text


def _drew(s: _Said) -> str | None:
    if s.data["reason"] == "catch":  # the catch's own line says it
        return None
    n = s.data["count"]
    if not n:
        return s.say("{name} had nothing to draw")
    return s.tr.ngettext("{name} drew {n} card", "{name} drew {n} cards", n).format(name=s.name, n=n)


def _color_named(s: _Said) -> str:
    game = s.tbl.game
    if game is not None and s.player not in game.hands:  # named for a player who left
        return s.say("{color} is named for {name}, who left", color=s.color())
    return s.say("{name} names {color}", color=s.color())


def _challenge(s: _Said) -> str:
    if s.data["guilty"]:
        return s.say("⚖️ {by} challenged {name}: guilty, they draw the penalty", by=s.who("by"))
    return s.say("⚖️ {by} challenged {name}: innocent, the challenger draws", by=s.who("by"))


def _revealed(s: _Said) -> str:
    viewers = s.data["to"]
    if len(viewers) > 1:
        return s.say("👀 {name}'s hand is shown to the table")
    who = named(s.tbl, viewers[0], s.tr) if viewers else s._("nobody")
    return s.say("👀 {name}'s hand is shown to {who}", who=who)


def _round_over(s: _Said) -> str:
    if s.data["winner"] is None:
        return s._("🔄 The round went in circles and is void: nobody scores")
    return round_won(s.tbl, s.data["winner"], s.data["points"], s.tr)


def round_won(tbl: Table, winner: str, points: int, tr: Tr) -> str:
    """The log line of a round won by ``winner`` (a player or a team, the verb agreeing),
    ``points`` its score (shown where the winner scores): ``"🏁 alice wins the round (+47)"``."""
    return tr.ngettext(
        "🏁 {winner} wins the round{points}", "🏁 {winner} win the round{points}", headcount(tbl, [winner])
    ).format(winner=named(tbl, winner, tr), points=points_text(tbl, points))


def game_won(tbl: Table, winners: Sequence[str], tr: Tr) -> str:
    """The log line of a game won by ``winners`` (players or teams, the verb agreeing with them
    all): ``"🏆 alice wins the game"``."""
    names = " & ".join(named(tbl, w, tr) for w in winners)
    return tr.ngettext(
        "🏆 {winners} wins the game", "🏆 {winners} win the game", headcount(tbl, winners)
    ).format(winners=names)


def _game_over(s: _Said) -> str:
    return game_won(s.tbl, s.data["winners"], s.tr)


DIRECTIONS = {"left": N_("to the left"), "right": N_("to the right")}
"""The engine's directions as the log says them."""


def _direction(s: _Said, message: str) -> str:
    direction = str(s.data["direction"])
    return s.say(message, direction=s._(DIRECTIONS[direction]) if direction in DIRECTIONS else direction)


def _side(s: _Said) -> str:
    side = str(s.data["side"])
    game = s.tbl.game
    names = game.variant.side_names if isinstance(game, Game) else ("light", "dark")
    shown = (
        s._(names[0 if side == Side.LIGHT.value else 1])
        if side in (Side.LIGHT.value, Side.DARK.value)
        else side
    )
    return s.say("🔄 FLIP! The table turns to the {side} side", side=shown)


LINES: dict[EventKind, Line] = {
    EventKind.CARD_PLAYED: _played,
    EventKind.CARDS_DRAWN: _drew,
    EventKind.TURN_SKIPPED: lambda s: s.say("{name} loses a turn"),
    EventKind.DRAWN_CARD_KEPT: lambda s: s.say("{name} keeps the drawn card"),
    EventKind.UNO_CALLED: lambda s: s.say("📣 {name}: UNO!"),
    EventKind.PLAYER_LEFT: lambda s: s.say("{name} left the game"),
    EventKind.PROTECTION_ENDED: lambda s: s._("🛡️ Save The Day's protection ends"),
    EventKind.DIRECTION_REVERSED: lambda s: _direction(s, N_("Direction reversed: now {direction}")),
    EventKind.SIDE_FLIPPED: _side,
    EventKind.COLOR_NAMED: _color_named,
    EventKind.PLAYER_CAUGHT: lambda s: s.say("🚨 {by} caught {name} without UNO: +2 cards", by=s.who("by")),
    EventKind.CHALLENGE: _challenge,
    EventKind.HAND_REVEALED: _revealed,
    EventKind.PENALTY_BLOCKED: lambda s: s.say("🛡️ {name} is protected: {card} has no effect", card=s.card()),
    EventKind.PROTECTED: lambda s: s.say("🛡️ {name} is protected by {by}", by=s.who("by")),
    EventKind.CARD_DISCARDED: lambda s: (
        s.say("{name} keeps all cards")
        if s.data.get("declined")
        else s.say("{name} discards {card}", card=s.card())
    ),
    EventKind.HANDS_SWAPPED: lambda s: s.say("🔁 {name} swaps hands with {other}", other=s.who("with_")),
    EventKind.HANDS_PASSED: lambda s: _direction(s, N_("🔁 Every hand passes {direction}")),
    EventKind.DECK_RESHUFFLED: lambda s: s._("The discard pile is shuffled into a new draw pile"),
    # A known Wild Customizable rule by its id; the host's own text as written.
    EventKind.HOUSE_RULE: lambda s: s.say(
        "📜 House rule: {rule}", rule=customizable_text(s.data.get("rule", s.data["text"]), s.tr)
    ),
    EventKind.PLAYER_ELIMINATED: lambda s: s.say(
        "❌ {name} reached {score} and is out", score=s.data["score"]
    ),
    EventKind.ROUND_OVER: _round_over,
    EventKind.GAME_OVER: _game_over,
    EventKind.ROUND_STARTED: lambda s: s.say(
        "Round {round}: {dealer} deals", round=s.data["round"], dealer=s.who("dealer")
    ),
    EventKind.START_CARD_RETURNED: lambda s: s.say(
        "{card} turned up first and went back into the draw pile", card=s.card()
    ),
}
"""The log line of each kind of event worth one (the others, such as a pending penalty, have none)."""


def describe(tbl: Table, event: Event, tr: Tr, side: Side | None = None) -> str | None:
    """One short public log line for an event in ``tr``'s language, or None for events not worth a
    line.

    Args:
        side: the side in play when the event happened (default: the game's side now).
    """
    line = LINES.get(event.kind)
    if line is None:
        return None
    if side is None:
        side = tbl.game.side if isinstance(tbl.game, Game) else Side.LIGHT
    return line(_Said(tbl, event, side, tr))


def log_lines(tbl: Table, events: Sequence[Event], tr: Tr) -> list[str]:
    """The public log lines of one move's ``events`` (in order, in ``tr``'s language: the table's,
    :attr:`Table.language`), each card named by its face on the
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
            lines.append(_start_card(tbl, dealt, tr))  # on the side it turned up on
        starts = dealt is not None or event.kind is EventKind.ROUND_STARTED
        dealt = side if starts and event.kind in _DEALING else None
        if line := describe(tbl, event, tr, side):
            lines.append(line)
    if dealt is not None:
        lines.append(_start_card(tbl, dealt, tr))
    return lines


_DEALING = frozenset({EventKind.ROUND_STARTED, EventKind.DEALER_DRAWN, EventKind.START_CARD_RETURNED})


def _start_card(tbl: Table, side: Side, tr: Tr) -> str:
    """The card that starts the round (the bottom of the discard pile as the round starts)."""
    assert isinstance(tbl.game, Game)
    return tr._("Start card: {card}").format(card=card_label(tbl.game.discard_pile[0], side, tr))


# ---------------------------------------------------------------------------- DOS (docs/rules.md §14)


def _dos_match(s: _Said) -> str:
    d, tr = s.data, s.tr
    # The color named for the match's Wild DOS cards goes beside each one (§14.6), not after the
    # last card, which may be another card of its own color: "🌈 Wild DOS (red) + 🟨 yellow Wild #".
    named = f" ({s.color()})" if d.get("color") else ""
    cards = " + ".join(card_text(c, tr) + (named if DosCard.parse(c).wild_dos else "") for c in d["cards"])
    pile_card = d.get("pile_card")
    if pile_card is not None and d.get("pile_color") and DosCard.parse(pile_card).wild_dos:
        # A Wild DOS pile's color is the one named for this match: beside it, as the played ones'.
        pile = card_text(pile_card, tr) + f" ({color_name(d['pile_color'], tr)})"
        line = s.say(
            "{name} matched pile {pile}’s {pile_card} with {cards}",
            pile=d["pile"],
            pile_card=pile,
            cards=cards,
        )
    else:
        line = s.say("{name} matched pile {pile} with {cards}", pile=d["pile"], cards=cards)
    if d["bonus"] == "double-color":
        return tr._("✨ {line}: double color match! A bonus card, and everyone else draws one").format(
            line=line
        )
    if d["bonus"] == "single-color":
        return tr._("{line}: color match, a bonus card").format(line=line)
    return line


def _dos_drawn(s: _Said) -> str | None:
    if s.data["reason"] != "double-color-match":
        return _drew(s)
    n = s.data["count"]
    return s.tr.ngettext(
        "{name} drew {n} card (double color match)", "{name} drew {n} cards (double color match)", n
    ).format(name=s.name, n=n)


def _dos_caught(s: _Said) -> str:
    if s.data.get("delayed"):
        return s.say("🚨 {by} caught {name} without DOS: +2 cards at the end of their turn", by=s.who("by"))
    return s.say("🚨 {by} caught {name} without DOS: +2 cards", by=s.who("by"))


def _dos_placed(s: _Said) -> str:
    card = card_text(s.data["card"], s.tr)
    if s.data["reason"] == "bonus":
        return s.say("{name} placed {card} (bonus card)", card=card)
    return s.say("{name} placed {card} (no match)", card=card)


DOS_LINES: dict[DosEventKind, Line] = {
    DosEventKind.ROUND_STARTED: lambda s: s._("Round {round}: {name} deals").format(
        round=s.data["round"], name=s.who("dealer")
    ),
    DosEventKind.MATCH_MADE: _dos_match,
    DosEventKind.CARDS_DRAWN: _dos_drawn,
    DosEventKind.CARD_PLACED: _dos_placed,
    DosEventKind.ROW_REFILLED: lambda s: s._("Row refilled: {cards}").format(
        cards=", ".join(card_text(c, s.tr) for c in s.data["cards"])
    ),
    DosEventKind.DECK_RESHUFFLED: LINES[EventKind.DECK_RESHUFFLED],
    DosEventKind.BONUS_LOST: lambda s: s.tr.ngettext(
        "{name} loses {n} bonus card", "{name} loses {n} bonus cards", s.data["count"]
    ).format(name=s.name, n=s.data["count"]),
    DosEventKind.DOS_CALLED: lambda s: s.say("📣 {name}: DOS!"),
    DosEventKind.PLAYER_CAUGHT: _dos_caught,
    DosEventKind.PLAYER_LEFT: LINES[EventKind.PLAYER_LEFT],
    DosEventKind.PLAYER_ELIMINATED: lambda s: s.say(
        "❌ {name} reached {score} and is out", score=s.data.get("score", "")
    ),
    DosEventKind.ROUND_OVER: lambda s: round_won(s.tbl, s.data["winner"], s.data.get("points", 0), s.tr),
    DosEventKind.GAME_OVER: _game_over,
}
"""The log line of each kind of DOS event worth one (piles discarded and turn ends have none),
with UNO's where they say the same."""


def dos_log_lines(tbl: Table, events: Sequence[DosEvent], tr: Tr) -> list[str]:
    """The public log lines of one move's DOS ``events``, in order, in ``tr``'s language (the
    table's)."""
    lines = []
    for event in events:
        line = DOS_LINES.get(event.kind)
        if line is not None and (text := line(_Said(tbl, event, Side.LIGHT, tr))):
            lines.append(text)
    return lines
