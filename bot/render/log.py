"""The table's log: one short public line per event."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card, Side
from bot.engine.events import Event
from bot.render.words import card_label, count, customizable_text, points_text
from bot.tables import Table


def log_lines(tbl: Table, events: Sequence[Event]) -> list[str]:
    """The public log lines of one move's ``events`` (in order), each card named by its face on the
    side in play when that event happened: a Flip among ``events`` turns the ones after it."""
    side = tbl.game.side if tbl.game else Side.LIGHT
    sides = []
    for event in reversed(events):  # the game is on its side after the last event
        sides.append(side)
        if event.kind == "side-flipped":
            side = side.other
    sides.reverse()
    lines = []
    dealt: Side | None = None  # after a round-started event, until the start card is in play
    for event, side in zip(events, sides, strict=True):
        if dealt is not None and event.kind not in _DEALING:
            lines.append(_start_card(tbl, dealt))  # on the side it turned up on
        dealt = (
            side if (dealt is not None or event.kind == "round-started") and event.kind in _DEALING else None
        )
        if line := describe(tbl, event, side):
            lines.append(line)
    if dealt is not None:
        lines.append(_start_card(tbl, dealt))
    return lines


_DEALING = frozenset({"round-started", "dealer-drawn", "start-card-returned"})


def _start_card(tbl: Table, side: Side) -> str:
    """The card that starts the round (the bottom of the discard pile as the round starts)."""
    assert tbl.game is not None
    return f"Start card: {card_label(tbl.game.discard_pile[0], side)}"


def describe(tbl: Table, event: Event, side: Side | None = None) -> str | None:
    """One short public log line for an event, or None for events not worth a line.

    Args:
        side: the side in play when the event happened (default: the game's side now).
    """
    name = tbl.name(event.player) if event.player else ""
    d = event.data
    k = event.kind
    if side is None:
        side = tbl.game.side if tbl.game else Side.LIGHT
    if k == "card-played":
        card = Card.parse(d["card"])
        text = f"{name} {'jumped in with' if d.get('jump_in') else 'played'} {card_label(card, side)}"
        if card.face(side).color is None and d.get("color"):
            text += f" → {d['color']}"
        return text
    if k == "cards-drawn":
        if d["reason"] in ("catch",):
            return None
        n = d["count"]
        return f"{name} drew {count(n, 'card')}" if n else f"{name} had nothing to draw"
    simple = {
        "turn-skipped": f"{name} loses a turn",
        "drawn-card-kept": f"{name} keeps the drawn card",
        "uno-called": f"📣 {name}: UNO!",
        "player-left": f"{name} left the game",
        "protection-ended": "🛡️ Save The Day's protection ends",
    }
    if k in simple:
        return simple[k]
    if k == "direction-reversed":
        return f"Direction reversed: now {d['direction']}"
    if k == "side-flipped":
        return f"🔄 FLIP! The table turns to the {d['side']} side"
    if k == "color-named":
        if tbl.game is not None and event.player not in tbl.game.hands:  # named for a leaver
            return f"{d['color']} is named for {name}, who left"
        return f"{name} names {d['color']}"
    if k == "player-caught":
        return f"🚨 {tbl.name(d['by'])} caught {name} without UNO: +2 cards"
    if k == "challenge":
        verdict = "guilty: they draw the penalty" if d["guilty"] else "innocent: the challenger draws"
        return f"⚖️ {tbl.name(d['by'])} challenged {name}: {verdict}"
    if k == "hand-revealed":
        viewers = d["to"]
        who = "the table" if len(viewers) > 1 else tbl.name(viewers[0]) if viewers else "nobody"
        return f"👀 {name}'s hand is shown to {who}"
    if k == "penalty-blocked":
        return f"🛡️ {name} is protected: {d['card']} has no effect"
    if k == "protected":
        return f"🛡️ {name} is protected by {tbl.name(d['by'])}"
    if k == "card-discarded":
        return (
            f"{name} keeps all cards"
            if d.get("declined")
            else f"{name} discards {card_label(Card.parse(d['card']), side)}"
        )
    if k == "hands-swapped":
        return f"🔁 {name} swaps hands with {tbl.name(d['with_'])}"
    if k == "hands-passed":
        return f"🔁 Every hand passes {d['direction']}"
    if k == "deck-reshuffled":
        return "The discard pile is shuffled into a new draw pile"
    if k == "house-rule":  # a known rule by its id, the host's own text as written
        return f"📜 House rule: {customizable_text(d.get('rule', d['text']))}"
    if k == "player-eliminated":
        return f"❌ {name} reached {d['score']} and is out"
    if k == "round-over":
        if d["winner"] is None:
            return "🔄 The round went in circles and is void: nobody scores"
        return f"🏁 {tbl.name(d['winner'])} wins the round{points_text(tbl, d['points'])}"
    if k == "game-over":
        return f"🏆 {' & '.join(tbl.name(w) for w in d['winners'])} win{'s' if len(d['winners']) == 1 else ''} the game"
    if k == "round-started":
        return f"Round {d['round']}: {tbl.name(d['dealer'])} deals"
    if k == "start-card-returned":
        return f"{card_label(Card.parse(d['card']), side)} turned up first and went back into the draw pile"
    return None
