"""Actions as values: what a player can do, with one canonical text form (docs/scenarios.md,
"Actions").

An :class:`Action` is immutable; :meth:`Action.text` writes it and :meth:`Action.parse` reads it
back exactly (as python-chess's ``Move.uci()`` / ``Move.from_uci()``). The text goes into
Discord ``custom_id``\\s and select values, so it is short and has no JSON or quoting::

    <kind>[ <card's canonical name>][ color=<color>][ target=<player id>][ decline]

>>> action = Action.parse("play wild draw four color=red")
>>> action.kind is ActionKind.PLAY, action.card.name, action.color
(True, 'wild draw four', <Color.RED: 'red'>)
>>> action.text()
'play wild draw four color=red'
>>> Action.parse("catch target=ai:2")
Action(kind=<ActionKind.CATCH: 'catch'>, card=None, color=None, target='ai:2', decline=False)
>>> Action(ActionKind.DISCARD, decline=True).text()
'discard decline'

A partial action (a wild without its color, a Howler without its target) is a value too:
``Game.completions`` lists the legal actions that complete it.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from bot.engine.cards import Card, Color
from bot.engine.errors import BadAction, BadCard


class ActionKind(enum.StrEnum):
    """The kinds of player action (docs/scenarios.md's action table); the value is the action's name.

    A StrEnum: a member equals its name (``ActionKind.PLAY == "play"``) and hashes like it, so
    plain strings still find members in dicts and sets.
    """

    PLAY = "play"
    """Play a card from the hand (on one's turn, or to answer a penalty or a Howler)."""
    DRAW = "draw"
    """Draw a card for the turn."""
    PLAY_DRAWN = "play-drawn"
    """Play the card just drawn."""
    KEEP = "keep"
    """Keep the card just drawn; the turn passes."""
    UNO = "uno"
    """Call UNO."""
    CATCH = "catch"
    """Catch a player who did not call UNO."""
    CHALLENGE = "challenge"
    """Challenge the restricted wild just played on you."""
    ACCEPT = "accept"
    """Take a pending penalty."""
    DISCARD = "discard"
    """Wild Super Hero: discard one card, or decline."""
    CHOOSE_COLOR = "choose-color"
    """Name the color when the engine asks."""
    REVEAL = "reveal"
    """Howler target: let the hand be shown."""
    JUMP_IN = "jump-in"
    """House rule jump-in: play a card identical to the top card out of turn."""
    LEAVE = "leave"
    """Leave the game (docs/rules.md §5.1)."""
    TIMEOUT = "timeout"
    """The player who must act ran out of time: the engine's default move (docs/rules.md §5.2)."""


class Action(NamedTuple):
    """One decision a player can make (see ``Game.legal_actions``), complete or partial.

    Attributes:
        kind: what kind of action.
        card: the card, for ``play``, ``play-drawn`` (the drawn card; optional), ``discard`` and
            ``jump-in``.
        color: the named color, for wilds and ``choose-color``.
        target: the picked player (Howler, Save The Day, Seven-O 7, hand swap) or the caught one:
            a Discord snowflake as text, ``ai:<n>``, or a scenario's name (no spaces, no ``=``).
        decline: ``discard`` only: decline to discard.
    """

    kind: ActionKind
    card: Card | None = None
    color: Color | None = None
    target: str | None = None
    decline: bool = False

    def text(self) -> str:
        """The canonical text form, which :meth:`parse` reads back as this very action.

        >>> from bot.engine.cards import Card
        >>> Action(ActionKind.PLAY, Card.parse("red 7 / purple skip everyone"), target="1234").text()
        'play red 7 / purple skip everyone target=1234'
        >>> Action(ActionKind.CHOOSE_COLOR, color=Color.BLUE).text()
        'choose-color color=blue'
        """
        parts = [str(self.kind)]
        if self.card is not None:
            parts.append(self.card.name)
        if self.color is not None:
            parts.append(f"color={self.color.value}")
        if self.target is not None:
            parts.append(f"target={self.target}")
        if self.decline:
            parts.append("decline")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action's text form (:meth:`text`); fields may be left out (a partial action).

        Words are separated by spaces. After the kind come the card's words (read by
        ``Card.parse``, so either face alone is not enough for a two-sided card: the full name
        is), then ``color=``, ``target=`` and ``decline`` in that order or any other, each at
        most once. Whether the fields suit the kind is the game's to judge (``Game.apply``).

        >>> Action.parse("play-drawn color=green")
        Action(kind=<ActionKind.PLAY_DRAWN: 'play-drawn'>, card=None, color=<Color.GREEN: 'green'>, target=None, decline=False)
        >>> Action.parse("play wild draw four").color is None
        True
        >>> Action.parse("play wild color=mauve")
        Traceback (most recent call last):
        ...
        bot.engine.errors.BadAction: That button is broken; press Refresh.

        Raises:
            BadAction: an unknown kind, a card text that names no card, card words after the
                fields, an unknown or repeated field, a bad color, or an empty or malformed
                target.
        """
        words = text.split()
        if not words:
            raise BadAction(text, "no action")
        try:
            kind = ActionKind(words[0])
        except ValueError:
            raise BadAction(text, f"unknown kind {words[0]!r}") from None
        card_words: list[str] = []
        fields: dict[str, str] = {}
        for word in words[1:]:
            if word == "decline":
                key, value = word, ""
            elif "=" in word:
                key, _, value = word.partition("=")
                if key not in _KEYS:
                    raise BadAction(text, f"unknown field {key!r}")
                if not value or "=" in value:
                    raise BadAction(text, f"malformed {key}")
            elif fields:
                raise BadAction(text, "card words after the fields")
            else:
                card_words.append(word)
                continue
            if key in fields:
                raise BadAction(text, f"{key} given twice")
            fields[key] = value
        card = None
        if card_words:
            try:
                card = Card.parse(" ".join(card_words))
            except BadCard:
                raise BadAction(text, "names no card") from None
        color = None
        if "color" in fields:
            color = _COLORS.get(fields["color"])
            if color is None:
                raise BadAction(text, f"{fields['color']!r} isn't a color")
        return cls(kind, card, color, fields.get("target"), "decline" in fields)


_KEYS = frozenset({"color", "target"})
_COLORS = {c.value: c for c in Color}

__all__ = ["Action", "ActionKind"]
