"""A seat taken over under another name: one rule for every edition (UNO's ``Game`` and DOS's
``DosGame``), docs/rules.md §5.3 and §14.13.

A computer player that takes over a seat is made to have sat there from the start: the game's
save is renamed (its players and its journal) and replayed, so the result is exactly what a replay
of its own save gives. The journal then names the bot for the whole game: who sat there before,
and until which entry, is the table's to note (``bot.tables.Handover``), for the game's history
and the player's record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.engine.errors import BadOption, BadState, NotInGame


def renamed(
    saved: Mapping[str, Any], old: str, new: str, *, seated: bool, entry: Callable[[Any, str], list[Any]]
) -> dict[str, Any]:
    """``saved`` (a game's ``to_dict``) with ``old``'s seat named ``new`` in its players and in
    every journal entry, which ``entry(seat, text)`` renames (each edition writes its journal's
    seats its own way); the caller replays it.

    >>> renamed({"players": ["a", "b"], "journal": [[None, "deal"], ["b", "draw"]]}, "b", "ai:1",
    ...         seated=True, entry=lambda p, t: ["ai:1" if p == "b" else p, t])
    {'players': ['a', 'ai:1'], 'journal': [[None, 'deal'], ['ai:1', 'draw']]}

    Raises:
        NotInGame: ``old`` isn't ``seated`` (never was, or left or was eliminated: their hand is
            gone).
        BadOption: ``new`` sits at the table already.
        BadState: the game has no journal to replay (dealt by hand, or saved before journals).
    """
    if not seated:
        raise NotInGame()
    players = list(saved["players"])
    if new in players:
        raise BadOption(f"{new!r} is at the table already.")
    if saved["journal"] is None:
        raise BadState("The game has no journal to replay.")
    return {
        **saved,
        "players": [new if p == old else p for p in players],
        "journal": [entry(seat, str(text)) for seat, text in saved["journal"]],
    }
