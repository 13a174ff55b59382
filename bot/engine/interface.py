"""What every table game offers its callers: :class:`GameProtocol`, which UNO's ``Game`` and
DOS's ``DosGame`` both satisfy (docs/engine-dos.md, "One interface"; mypy checks it below).

The table, the renderers, the service, the card art, the storage and the replays hold a game of
either edition through this surface; what only one edition has (UNO's side and color, DOS's
Center Row) they read from the edition's own aggregate, chosen by its ``Edition``
(bot/engine/editions.py).

The protocol is generic in the edition's action type ``A`` (``Action`` or ``DosAction``) and
event type ``E`` (``Event`` or ``DosEvent``); ``AnyGameProtocol`` is either.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar

from bot.engine.options import Options

A = TypeVar("A")
E = TypeVar("E")


class PendingProtocol(Protocol):
    """The one decision a game waits for: its kind (an enum whose ``"none"`` member means
    nothing is pending) and whose it is (None only for ``"none"``)."""

    @property
    def kind(self) -> enum.Enum: ...
    @property
    def player(self) -> str | None: ...


class EventProtocol(Protocol):
    """One thing that happened: its kind (a ``StrEnum``, equal to its name), the player it
    happened to or by, JSON-safe details."""

    @property
    def kind(self) -> enum.StrEnum: ...
    @property
    def player(self) -> str | None: ...
    @property
    def data(self) -> dict[str, Any]: ...
    def public(self) -> dict[str, Any]:
        """The event as anyone at the table may see it (private card lists removed)."""
        ...


class GameProtocol(Protocol[A, E]):
    """A table game of either edition, as its callers use it.

    Attributes are read-only here (each aggregate's own are mutable, with its card type):
    ``hands``, ``draw_pile`` and ``discard_pile`` hold the edition's cards. Every action method
    validates, changes the game and returns its events, or raises an ``UnoError`` and changes
    nothing.
    """

    @property
    def players(self) -> Sequence[str]:
        """Every seat in order, including players who left."""
        ...

    @property
    def options(self) -> Options: ...
    @property
    def seed(self) -> int: ...
    @property
    def version(self) -> int:
        """A counter bumped by every accepted action (stale-button checks)."""
        ...

    @property
    def out(self) -> Mapping[str, str]:
        """Players out of the game: ``"left"`` or ``"eliminated"``."""
        ...

    @property
    def scores(self) -> Mapping[str, int]:
        """Running score per player, or per team (``"ana+cy"``)."""
        ...

    @property
    def hands(self) -> Mapping[str, Sequence[object]]: ...
    @property
    def draw_pile(self) -> Sequence[object]: ...
    @property
    def discard_pile(self) -> Sequence[object]: ...
    @property
    def round_no(self) -> int: ...
    @property
    def dealer(self) -> str | None: ...
    @property
    def pending(self) -> PendingProtocol: ...
    @property
    def called(self) -> AbstractSet[str]: ...
    @property
    def catchable(self) -> AbstractSet[str]: ...
    @property
    def round_over(self) -> bool: ...
    @property
    def round_winner(self) -> str | None: ...
    @property
    def round_points(self) -> int: ...
    @property
    def game_over(self) -> bool: ...
    @property
    def winners(self) -> Sequence[str]: ...
    @property
    def seated(self) -> list[str]:
        """Players still in the game, in seat order."""
        ...

    @property
    def eliminated(self) -> list[str]: ...
    @property
    def journal(self) -> list[tuple[str | None, str]] | None:
        """``(player, action text)`` per action, ``(None, "deal")`` per deal; None when unknown."""
        ...

    def team_of(self, player: str) -> str:
        """The score key of ``player``: themself, or their team ``"a+b"``."""
        ...

    def next_seat(self, player: str) -> str: ...
    def hand_value(self, player: str) -> int: ...
    def catch_targets(self, player: str) -> list[str]: ...
    def start_round(self) -> list[E]: ...
    def legal_actions(self, player: str) -> list[A]: ...
    def decisions(self, player: str) -> list[A]: ...
    def apply(self, player: str, action: A) -> list[E]: ...
    def apply_listed(self, player: str, action: A) -> None: ...
    def leave(self, player: str) -> list[E]: ...
    def timeout(self, player: str) -> list[E]: ...
    def replaced(self, old: str, new: str) -> Self:
        """The game as if ``new`` had sat in ``old``'s seat from the start."""
        ...

    def copy(self, *, journal: bool = True, rng: random.Random | None = None) -> Self: ...
    def to_dict(self) -> dict[str, Any]: ...
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self: ...
    @classmethod
    def replay(cls, data: Mapping[str, Any]) -> Self: ...


AnyGameProtocol = GameProtocol[Any, Any]
"""A game of either edition."""


if TYPE_CHECKING:  # mypy --strict proves both aggregates satisfy the protocol
    from bot.engine.actions import Action
    from bot.engine.dos.actions import DosAction
    from bot.engine.dos.game import DosEvent, DosGame
    from bot.engine.events import Event
    from bot.engine.game import Game

    _uno: type[GameProtocol[Action, Event]] = Game
    _dos: type[GameProtocol[DosAction, DosEvent]] = DosGame
    _uno_event: type[EventProtocol] = Event
    _dos_event: type[EventProtocol] = DosEvent
