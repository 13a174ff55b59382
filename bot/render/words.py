"""The counts and what the game waits for, in the reader's words: a noun in the plural form its
number takes (:func:`count`), a player's record, a round's points, and each kind of decision a
game waits for. The other words every message shares: card faces in :mod:`bot.render.faces`,
players' names and typed text in :mod:`bot.render.names`, options and editions in
:mod:`bot.render.options`."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.options import PendingKind, Scoring
from bot.i18n import N_, Tr
from bot.tables import Table

PENDING_TEXT = {
    PendingKind.TURN: N_("to play a card or draw"),
    PendingKind.CHALLENGE: N_("to challenge or accept"),
    PendingKind.PENALTY: N_("to take the penalty or answer it"),
    PendingKind.COLOR: N_("to name the color"),
    PendingKind.DISCARD: N_("to discard a card (Wild Super Hero)"),
    PendingKind.HOWLER: N_("to answer the Howler"),
    PendingKind.DRAW_DECISION: N_("to play the drawn card or keep it"),
}
"""What the game waits for, in English (each reader's ``tr._`` translates it)."""
WATCHING = N_("⏳ Not your turn: the table message shows the play.")
"""A watching hand's status line (`bot.render.hand.watching`), in place of what is on the table."""


_COUNTS: dict[str, Callable[[Tr, int], str]] = {
    "card": lambda tr, n: tr.n("{n} card", "{n} cards", n),
    "round": lambda tr, n: tr.n("{n} round", "{n} rounds", n),
    "point": lambda tr, n: tr.n("{n} point", "{n} points", n),
    "game": lambda tr, n: tr.n("{n} game", "{n} games", n),
}


def count(n: int, noun: str, tr: Tr) -> str:
    """``n`` and the noun (``"card"``, ``"round"``, ``"point"`` or ``"game"``) in ``tr``'s language, in the
    plural form ``n`` takes there.

    >>> from bot.i18n import translator
    >>> count(1, "round", translator("en")), count(0, "point", translator("en"))
    ('1 round', '0 points')
    >>> count(1, "card", translator("fr")), count(0, "card", translator("fr"))
    ('1 carte', '0 carte')
    """
    return _COUNTS[noun](tr, n)


def record_text(tr: Tr, *, games_played: int, games_won: int, rounds_won: int, points: int) -> str:
    """A player's record (``/uno stats``), one count a line; the keywords are the storage's counts.

    >>> from bot.i18n import translator
    >>> print(record_text(translator("en"), games_played=4, games_won=1, rounds_won=6, points=230))
    Games played: **4** · won: **1** (25%)
    Rounds won: **6**
    Points scored: **230**
    """
    rate = f" ({games_won / games_played:.0%})" if games_played else ""
    return tr._(
        "Games played: **{played}** · won: **{won}**{rate}\nRounds won: **{rounds}**\nPoints scored: **{points}**"
    ).format(played=games_played, won=games_won, rate=rate, rounds=rounds_won, points=points)


def points_text(tbl: Table, points: int) -> str:
    """``" (+42)"`` for the round's winner, only where they score (standard scoring)."""
    standard = tbl.game is not None and tbl.game.options.effective_scoring is Scoring.STANDARD
    return f" (+{points})" if standard else ""
