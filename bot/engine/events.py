"""Events: what an action caused, in order, for the table log and the bot's messages.

Event kinds (``Event.kind``, an :class:`EventKind`) and their ``data`` keys:

==================== ==========================================================================
kind                 data
==================== ==========================================================================
round-started        round (number), dealer
dealer-drawn         cards: {player: card} drawn to pick the first dealer
start-card-returned  card: a start card put back into the draw pile (docs/rules.md ruling 4)
card-played          card, color (named or printed), jump_in (bool), answer (bool: a reaction)
cards-drawn          count; cards (PRIVATE to ``player``); reason: turn | penalty | catch | ...
drawn-card-kept      (none): the player kept the card they drew
turn-skipped         (none)
direction-reversed   direction: left | right
side-flipped         side: light | dark
color-named          color
uno-called           (none)
player-caught        by: the catcher
challenge            by (challenger), guilty (bool)
hand-revealed        to: list of viewers; cards (PRIVATE to those viewers); by: the rank that
                     showed it (a challenged restricted wild, howler, special agent mater)
penalty-pending      decision: challenge | penalty; total (cards, stacking)
penalty-blocked      card: the penalty card Save The Day blocked
protected            by: the Save The Day's player
protection-ended     (none)
card-discarded       card (Wild Super Hero discard), or declined = True
hands-swapped        with: the other player
hands-passed         direction
deck-reshuffled      count: cards in the new draw pile
house-rule           text: the Wild Customizable's rule as announced
player-left          (none)
player-eliminated    score
round-over           winner (player or team; None for a void round), points, scores, void (only when
                     true: the round went in circles, see docs/rules.md ruling 46)
game-over            winners: list of players or teams
==================== ==========================================================================
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, NamedTuple

PRIVATE_KEYS = frozenset({"cards"})
"""The data keys private to some players in the events of :data:`PRIVATE_KINDS`."""
PRIVATE_KINDS = frozenset({"cards-drawn", "hand-revealed"})
"""The kinds whose ``cards`` are private: the cards drawn (the drawer's), a hand shown (its
viewers'); a dealer draw's and a DOS match's cards are everyone's."""


class EventKind(enum.StrEnum):
    """The kinds of event, as in the table above; the value is the kind's name.

    A StrEnum: a member equals its name (``EventKind.CARD_PLAYED == "card-played"``) and hashes
    like it, so code and scenarios that compare kinds with strings keep working.
    """

    ROUND_STARTED = "round-started"
    """A round was dealt."""
    DEALER_DRAWN = "dealer-drawn"
    """Cards were drawn to pick the first dealer."""
    START_CARD_RETURNED = "start-card-returned"
    """A start card was put back into the draw pile (docs/rules.md ruling 4)."""
    CARD_PLAYED = "card-played"
    """A card went onto the discard pile (a play, a jump-in or an answer)."""
    CARDS_DRAWN = "cards-drawn"
    """A player drew cards (for the turn, a penalty, a catch, ...)."""
    DRAWN_CARD_KEPT = "drawn-card-kept"
    """A player kept the card they drew."""
    TURN_SKIPPED = "turn-skipped"
    """A player lost their turn."""
    DIRECTION_REVERSED = "direction-reversed"
    """The direction of play reversed."""
    SIDE_FLIPPED = "side-flipped"
    """The table turned over to the other side (Flip)."""
    COLOR_NAMED = "color-named"
    """A player named the color."""
    UNO_CALLED = "uno-called"
    """A player called UNO."""
    PLAYER_CAUGHT = "player-caught"
    """A player was caught without calling UNO."""
    CHALLENGE = "challenge"
    """A restricted wild was challenged."""
    HAND_REVEALED = "hand-revealed"
    """A hand was shown to some players (challenge, Mater, Howler)."""
    PENALTY_PENDING = "penalty-pending"
    """A victim may answer a penalty or challenge it before it applies."""
    PENALTY_BLOCKED = "penalty-blocked"
    """A penalty had no effect (Save The Day, or its player left)."""
    PROTECTED = "protected"
    """Save The Day protects a player."""
    PROTECTION_ENDED = "protection-ended"
    """Save The Day's protection ended (another wild was played)."""
    CARD_DISCARDED = "card-discarded"
    """Wild Super Hero: a player discarded a card, or declined."""
    HANDS_SWAPPED = "hands-swapped"
    """Two players swapped hands."""
    HANDS_PASSED = "hands-passed"
    """Every hand passed on one seat."""
    DECK_RESHUFFLED = "deck-reshuffled"
    """The discard pile was shuffled into a new draw pile."""
    HOUSE_RULE = "house-rule"
    """Wild Customizable: its house rule was announced."""
    PLAYER_LEFT = "player-left"
    """A player left the game."""
    PLAYER_ELIMINATED = "player-eliminated"
    """A player reached the target and is out (elimination)."""
    ROUND_OVER = "round-over"
    """The round ended (won or void)."""
    GAME_OVER = "game-over"
    """The game ended."""


class Event(NamedTuple):
    """One thing that happened.

    Attributes:
        kind: what happened.
        player: the player it happened to or by, if any.
        data: details, JSON-safe; ``cards`` is private (see :meth:`public`).
    """

    kind: EventKind
    player: str | None = None
    data: dict[str, Any] = {}  # noqa: RUF012 (never mutated; events are built with their data)

    def public(self) -> dict[str, Any]:
        """The event as anyone at the table may see it (:func:`public`)."""
        return public(self.kind, self.player, self.data)


def public(kind: enum.StrEnum, player: str | None, data: Mapping[str, Any]) -> dict[str, Any]:
    """An event of any edition (UNO's :class:`Event`, DOS's ``DosEvent``) as anyone at the table
    may see it: its kind as plain text, its player (when it has one), and its data but the
    private card lists (``cards`` of the kinds in :data:`PRIVATE_KINDS`)."""
    out: dict[str, Any] = {"kind": str(kind)}
    if player is not None:
        out["player"] = player
    if kind in PRIVATE_KINDS:
        out.update((k, v) for k, v in data.items() if k not in PRIVATE_KEYS)
    else:
        out.update(data)
    return out
