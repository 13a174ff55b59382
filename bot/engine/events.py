"""Events: what an action caused, in order, for the table log and the bot's messages.

Event kinds (``Event.kind``) and their ``data`` keys:

==================== ==========================================================================
kind                 data
==================== ==========================================================================
round-started        round (number), dealer
dealer-drawn         cards: {player: card} drawn to pick the first dealer
start-card-returned  card: a start card put back into the draw pile (RULES.md section 2)
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
hand-revealed        to: list of viewers; cards (PRIVATE to those viewers)
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
                     true: the round went in circles, see docs/rules.md)
game-over            winners: list of players or teams
==================== ==========================================================================
"""

from __future__ import annotations

from typing import Any, NamedTuple

PRIVATE_KEYS = frozenset({"cards"})


class Event(NamedTuple):
    """One thing that happened.

    Attributes:
        kind: one of the kinds in the module docstring.
        player: the player it happened to or by, if any.
        data: details, JSON-safe; ``cards`` is private (see :meth:`public`).
    """

    kind: str
    player: str | None = None
    data: dict[str, Any] = {}  # noqa: RUF012 (never mutated; events are built with their data)

    def public(self) -> dict[str, Any]:
        """The event as anyone at the table may see it (private card lists removed)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.player is not None:
            out["player"] = self.player
        out.update((k, v) for k, v in self.data.items() if k not in PRIVATE_KEYS)
        return out
