"""DOS actions as values, with one canonical text form (docs/scenarios.md's DOS section).

The text goes into Discord ``custom_id``\\s and the journal::

    <kind>[ pile=<n>][ <card>[ + <card>]][ color=<c>][ pile_color=<c>][ target=<player>]

>>> a = DosAction.parse("play pile=2 red 3 + wild dos color=red")
>>> a.pile, [c.name for c in a.cards], a.color
(2, ['red 3', 'wild dos'], <Color.RED: 'red'>)
>>> a.text()
'play pile=2 red 3 + wild dos color=red'
>>> DosAction.parse("place blue 10").text()
'place blue 10'
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from bot.engine.cards import Color
from bot.engine.dos.cards import COLORS, DosCard
from bot.engine.errors import BadAction, BadCard


class DosActionKind(enum.StrEnum):
    """The kinds of DOS action; the value is the action's name in scenarios and text."""

    PLAY = "play"
    """One match: one or two cards from the hand onto one pile (§14.5)."""
    DRAW = "draw"
    """Draw one card as the first act of the turn (§14.7)."""
    PLACE = "place"
    """Add a card of the hand to the row: the no-match card or a bonus card (§14.6, §14.7)."""
    END_TURN = "end-turn"
    """End the turn after at least one match (§14.4)."""
    DOS = "dos"
    """Call DOS (§14.8)."""
    CATCH = "catch"
    """Catch a player who did not call DOS (§14.8)."""
    LEAVE = "leave"
    """Leave the game (§14.13)."""
    TIMEOUT = "timeout"
    """The player who must act ran out of time: the default move (§14.13)."""


class DosAction(NamedTuple):
    """One decision of a DOS player.

    Attributes:
        kind: what kind of action.
        pile: ``play``: the pile's 1-based index in the row.
        cards: ``play``: one or two cards, in the order they go on the pile; ``place``: one card.
        color: ``play``: the color every Wild DOS of ``cards`` takes.
        pile_color: ``play``: the color a Wild DOS pile takes for this match.
        target: ``catch``: the caught player.
    """

    kind: DosActionKind
    pile: int | None = None
    cards: tuple[DosCard, ...] = ()
    color: Color | None = None
    pile_color: Color | None = None
    target: str | None = None

    def text(self) -> str:
        """The canonical text form, which :meth:`parse` reads back as this very action."""
        parts = [str(self.kind)]
        if self.pile is not None:
            parts.append(f"pile={self.pile}")
        if self.cards:
            parts.append(" + ".join(c.name for c in self.cards))
        if self.color is not None:
            parts.append(f"color={self.color.value}")
        if self.pile_color is not None:
            parts.append(f"pile_color={self.pile_color.value}")
        if self.target is not None:
            parts.append(f"target={self.target}")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> DosAction:
        """Read an action's text form (:meth:`text`); fields may be left out.

        Raises:
            BadAction: an unknown kind or field, a field given twice, a bad number, color or card.
        """
        words = text.split()
        if not words:
            raise BadAction(text, "no action")
        try:
            kind = DosActionKind(words[0])
        except ValueError:
            raise BadAction(text, f"unknown kind {words[0]!r}") from None
        fields: dict[str, str] = {}
        card_words: list[str] = []
        for word in words[1:]:
            if "=" not in word:
                card_words.append(word)
                continue
            key, _, value = word.partition("=")
            if key not in _KEYS or not value or key in fields:
                raise BadAction(text, f"bad field {word!r}")
            fields[key] = value
        try:
            cards = (
                tuple(DosCard.parse(name) for name in " ".join(card_words).split("+")) if card_words else ()
            )
            pile = int(fields["pile"]) if "pile" in fields else None
        except (BadCard, ValueError):
            raise BadAction(text, "bad card or pile") from None
        colors = [_color(text, fields.get(k)) for k in ("color", "pile_color")]
        return cls(kind, pile, cards, colors[0], colors[1], fields.get("target"))


def _color(text: str, value: str | None) -> Color | None:
    if value is None:
        return None
    color = _COLORS.get(value)
    if color is None:
        raise BadAction(text, f"{value!r} isn't a color")
    return color


_KEYS = frozenset({"pile", "color", "pile_color", "target"})
_COLORS = {c.value: c for c in COLORS}
