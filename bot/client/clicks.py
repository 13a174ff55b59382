"""What a component's ``custom_id`` carries (`Click`), made and read here only.

A ``custom_id`` is ``uno:<scope>:<channel>:<version>:<verb>[:<arg>]`` for a button and
``unos:…`` for a select, at most Discord's 100 characters (e.g. ``uno:h:42:7:a:play red 5``):

* the scope (`Scope`) is the message the component sits on;
* ``version`` is the table's state version when the component was drawn (0: not checked), so a
  click on an older state is refused politely;
* the verb (`Verb`) and its argument say what to do (``bot/service/dispatch.py``): in a hand,
  `Verb.ACT` carries an engine action in its text form (``Action.text()``, e.g.
  ``play wild color=red``), in the argument of a button or as the values of a select.

These texts are on messages already sent: a letter or verb once used keeps its meaning.

>>> click = Click(Scope.HAND, 42, 7, Verb.ACT, "play red 5")
>>> click.custom_id()
'uno:h:42:7:a:play red 5'
>>> Click.parse("unos:l:42:7:variant") == Click(Scope.LOBBY, 42, 7, Verb.EDITION)
True
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Self

__all__ = ["ADDRESS", "BUTTON", "MAX_ID", "SELECT", "Click", "Scope", "Verb"]

MAX_ID = 100
"""Discord's limit on a ``custom_id``'s length."""
BUTTON = "uno"
"""A button's ``custom_id`` prefix."""
SELECT = "unos"
"""A select's ``custom_id`` prefix."""


class Scope(enum.Enum):
    """The message a component sits on (its letter in the ``custom_id``)."""

    LOBBY = "l"
    """The lobby message."""
    TABLE = "t"
    """The table message, and what is said in the channel during a game (a seat's offer)."""
    HAND = "h"
    """A player's hand (ephemeral)."""
    HISTORY = "g"
    """``/uno history``'s list of games (ephemeral; no table needed)."""
    REMATCH = "r"
    """A finished game's standings: its Rematch button, ``<game id>.<host id>`` (no table needed)."""
    LEAVE = "q"
    """The confirmation ``/uno leave`` asks for during a game (ephemeral), ``<game id>.<player id>``
    (checked against that game, so no table is needed to refuse it)."""


class Verb(enum.Enum):
    """What a click asks for (its word in the ``custom_id``), by the scope it is used in."""

    JOIN = "join"
    """Lobby: take a seat."""
    LEAVE = "leave"
    """Lobby: give up a seat; leave's confirmation: leave the game."""
    ADD_BOT = "bot"
    """Lobby: seat a computer player (the button: normal; the select: its level)."""
    REMOVE_BOT = "unbot"
    """Lobby: remove the last computer player."""
    START = "start"
    """Lobby: deal the first round."""
    EDITION = "variant"
    """Lobby: the edition select."""
    HOUSE_RULES = "rules"
    """Lobby: the house rules select."""
    SHOW_HAND = "hand"
    """Table: show me my hand."""
    UNO = "uno"
    """Table: say UNO!"""
    DOS = "dos"
    """Table: say DOS! (a DOS game)."""
    CATCH = "catch"
    """Table: catch a player who didn't say it."""
    GIVE_SEAT = "seat"
    """Table: give a timing-out player's seat to a bot (the argument: that player)."""
    REFRESH = "r"
    """Hand: draw it again."""
    PAGE = "pg"
    """Hand: a page of the card select (the argument: its number)."""
    BACK = "bk"
    """Hand: back from a two-step play."""
    PICTURE = "pic"
    """Hand: show it as a picture."""
    ACT = "a"
    """Hand: an engine action, in the argument or the select's value."""
    LEAVE_FOR_BOT = "leave-bot"
    """Leave's confirmation: leave the game to a bot."""
    STAY = "stay"
    """Leave's confirmation: stay."""
    GAME = "game"
    """History: the game chosen in the select."""
    REMATCH = "rematch"
    """Rematch: open a new lobby with the same players."""


def _either(enum_type: type[enum.Enum]) -> str:
    """A regex alternation of the members' texts, longest first."""
    return "|".join(re.escape(m.value) for m in sorted(enum_type, key=lambda m: -len(m.value)))


ADDRESS = (
    rf"(?P<scope>{_either(Scope)}):(?P<channel>[0-9]{{1,20}}):(?P<version>[0-9]{{1,9}})"
    rf":(?P<verb>{_either(Verb)})(?::(?P<arg>.+))?"
)
"""What follows a ``custom_id``'s prefix (discord.py matches a ``DynamicItem``'s template whole)."""
_CUSTOM_ID = re.compile(rf"(?:{BUTTON}|{SELECT}):{ADDRESS}")


@dataclass(frozen=True, slots=True)
class Click:
    """The address a component's ``custom_id`` carries (see the module's docstring).

    Attributes:
        scope: the message the component sits on.
        channel: the table's channel id.
        version: the table's state version when drawn (0: not checked).
        verb: what to do.
        arg: the verb's argument ("": none).
    """

    scope: Scope
    channel: int
    version: int
    verb: Verb
    arg: str = ""

    def custom_id(self, *, select: bool = False) -> str:
        """The ``custom_id`` of a button (or, with ``select``, a select) carrying this click.

        Raises:
            ValueError: it would be longer than Discord's 100 characters.
        """
        prefix = SELECT if select else BUTTON
        parts = [prefix, self.scope.value, str(self.channel), str(self.version), self.verb.value]
        text = ":".join([*parts, self.arg] if self.arg else parts)
        if len(text) > MAX_ID:
            raise ValueError(f"custom_id too long: {text!r}")
        return text

    @classmethod
    def of(cls, match: re.Match[str]) -> Self:
        """The click of a ``match`` of `ADDRESS` (discord.py's match of a template)."""
        return cls(
            Scope(match["scope"]),
            int(match["channel"]),
            int(match["version"]),
            Verb(match["verb"]),
            match["arg"] or "",
        )

    @classmethod
    def parse(cls, text: str) -> Self:
        """The click a button's or select's ``custom_id`` carries.

        Raises:
            ValueError: ``text`` reads as no click (another bot's, a forged or truncated one, a
                scope or verb this bot doesn't know).
        """
        match = _CUSTOM_ID.fullmatch(text) if len(text) <= MAX_ID else None
        if match is None:
            raise ValueError(f"not a click: {text[:MAX_ID]!r}")
        return cls.of(match)
