"""What both table games do alike, once: :class:`TableGame`, the base of UNO's ``Game`` and DOS's
``DosGame`` (docs/engine-dos.md, "One interface"): seats and teams, the journal (kept, saved,
read back, replayed, renamed for a seat taken over), leaving's common steps, the actor check, and
the part of a save every edition writes alike.

Each aggregate keeps its own rules, cards, events and pending decisions; the few things the base
needs of them are class attributes and hooks (``_IDLE``, ``_JOURNAL_BY_SEAT``, ``_parse_action``,
``_entry_text``), and one way to seat players: ``cls(players, variant=, options=, seed=)``.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

from bot.engine.errors import BadOption, BadState, NotInGame, RoundOver
from bot.engine.interface import PendingProtocol
from bot.engine.options import Options
from bot.engine.seats import renamed

SCHEMA_VERSION = 1
"""The version of every edition's save (``to_dict``)."""
DEAL: tuple[str | None, str] = (None, "deal")
"""The journal's entry for a deal (``start_round``)."""


class _Card(Protocol):
    @property
    def name(self) -> str: ...


class _Action(Protocol):
    @property
    def target(self) -> str | None: ...
    def text(self) -> str: ...
    def _replace(self, *, target: str | None) -> Self: ...


C = TypeVar("C", bound=_Card)
A = TypeVar("A", bound=_Action)
E = TypeVar("E")


class TableGame(Generic[C, A, E]):
    """The base of a table game whose cards are ``C``, actions ``A`` and events ``E``.

    Attributes (set by each aggregate): players, options, seed, out, scores, deck, round_no,
    dealer, version, game_over, winners, hands, draw_pile, discard_pile, pending, called,
    catchable, round_over, round_winner, round_points, as ``GameProtocol`` documents them.
    """

    # The attributes every edition has, as slots (``Game`` lists its own; ``DosGame`` has none).
    __slots__ = (
        "_events",
        "_journal",
        "called",
        "catchable",
        "dealer",
        "deck",
        "discard_pile",
        "draw_pile",
        "game_over",
        "hands",
        "options",
        "out",
        "pending",
        "players",
        "round_no",
        "round_over",
        "round_points",
        "round_winner",
        "scores",
        "seed",
        "version",
        "winners",
    )

    _IDLE: ClassVar[enum.Enum]
    """The pending kind that means nothing is pending (the round or the game is over)."""
    _JOURNAL_BY_SEAT: ClassVar[bool]
    """True: a saved journal names an entry's player by seat index (UNO's); False: by id (DOS's)."""

    players: list[str]
    options: Options
    seed: int
    out: dict[str, str]
    scores: dict[str, int]
    deck: list[C]
    round_no: int
    dealer: str | None
    version: int
    game_over: bool
    winners: list[str]
    hands: dict[str, list[C]]
    draw_pile: list[C]
    discard_pile: list[C]
    pending: PendingProtocol
    called: set[str]
    catchable: set[str]
    round_over: bool
    round_winner: str | None
    round_points: int
    _journal: list[tuple[str | None, str | A]] | None
    """Every accepted action as applied (``A``, written as text when the journal is read) or as
    text, and :data:`DEAL` per deal; None when unknown."""

    rng: random.Random

    if TYPE_CHECKING:  # each aggregate's own, typed with its events

        @property
        def variant_id(self) -> str: ...
        def __init__(
            self,
            players: Sequence[str],
            *,
            variant: str,
            options: Options | None = None,
            seed: int | None = None,
        ) -> None: ...
        def start_round(self) -> list[E]: ...
        def apply(self, player: str, action: A) -> list[E]: ...
        def to_dict(self) -> dict[str, Any]: ...
        def _finish_game(self, winners: list[str]) -> None: ...

    # ------------------------------------------------------------------ hooks

    @staticmethod
    def _parse_action(text: str) -> A:
        """An action's text form read as this edition's action. Raises BadAction."""
        raise NotImplementedError

    @classmethod
    def _seated_from(cls, players: list[str], data: Mapping[str, Any]) -> Self:
        """A new game of ``players`` with the edition, options and seed of the save ``data``.

        Raises:
            KeyError, TypeError, ValueError: a malformed save. BadOption: seats it refuses.
        """
        options = Options.parse(data["options"])
        return cls(players, variant=data["variant"], options=options, seed=int(data["seed"]))

    @staticmethod
    def _entry_text(action: A) -> str:
        """The journal's text of an accepted action (its canonical text)."""
        return action.text()

    # ------------------------------------------------------------------ seats and teams

    @property
    def seated(self) -> list[str]:
        """Players still in the game, in seat order."""
        return [p for p in self.players if p not in self.out]

    @property
    def eliminated(self) -> list[str]:
        """Players out of the game by elimination, in seat order."""
        return [p for p in self.players if self.out.get(p) == "eliminated"]

    def team_of(self, player: str) -> str:
        """The score key of a player: themself, or their team ``"a+b"`` (seat order) with partners
        (docs/rules.md §3.2)."""
        if not self.options.partners:
            return player
        n = len(self.players)
        i = self.players.index(player) % (n // 2)
        return f"{self.players[i]}+{self.players[i + n // 2]}"

    def _team_keys(self) -> list[str]:
        return list(dict.fromkeys(self.team_of(p) for p in self.players))

    def _check_actor(self, player: str) -> None:
        """Raises NotInGame (not seated) or RoundOver (the game or the round is over)."""
        if player not in self.hands or player in self.out:
            raise NotInGame()
        if self.game_over:
            raise RoundOver("The game is over.")
        if self.round_over or self.pending.kind is self._IDLE:
            raise RoundOver()

    # ------------------------------------------------------------------ leaving

    def _check_seated(self, player: str) -> None:
        """Raises NotInGame: ``player`` never sat here, or is out of the game."""
        if player not in self.players or player in self.out:
            raise NotInGame()

    def _unseat(self, player: str, hand: list[C]) -> None:
        """``player`` left (docs/rules.md §5.1, §14.13): out of the game, their call and catch
        window gone, their ``hand`` (taken from :attr:`hands`) shuffled into the draw pile."""
        self.out[player] = "left"
        self.called.discard(player)
        self.catchable.discard(player)
        self.draw_pile.extend(hand)
        shuffle(self.rng, self.draw_pile)

    def _one_team_left(self) -> bool:
        """True if the game is over: it was, or fewer than two teams are seated now (then the
        one left, if any, wins and the game finishes)."""
        if self.game_over:
            return True
        teams = list(dict.fromkeys(self.team_of(q) for q in self.seated))
        if len(teams) < 2:
            self._finish_game(teams)
            return True
        return False

    # ------------------------------------------------------------------ the journal

    @property
    def journal(self) -> list[tuple[str | None, str]] | None:
        """Everything applied to the game since it was seated, in order: ``(player, action
        text)`` for each action of ``apply`` (``leave`` and ``timeout`` included) and ``(None,
        "deal")`` for each ``start_round``. Entry ``i`` took the game from :attr:`version` ``i``
        to ``i + 1``, so :meth:`replay` rebuilds the game.

        None when unknown: a game made by ``from_deal``, restored from a save that predates
        journals, or changed by an action method called directly (not through ``apply``).
        """
        journal = self._journal
        if journal is None or len(journal) != self.version:
            return None
        text = self._entry_text
        for i, (player, action) in enumerate(journal):
            if not isinstance(action, str):
                journal[i] = (player, text(action))
        return list(journal)  # type: ignore[arg-type]  # every entry is text now

    def _journal_dict(self) -> list[list[Any]] | None:
        """The journal for ``to_dict``: ``[seat index or id, text]`` (None for a deal)."""
        journal = self.journal
        if journal is None:
            return None
        if not self._JOURNAL_BY_SEAT:
            return [[p, text] for p, text in journal]
        seats = {p: i for i, p in enumerate(self.players)}
        return [[None if p is None else seats[p], text] for p, text in journal]

    @classmethod
    def _journal_entries(cls, data: Any, players: list[str]) -> list[tuple[str | None, str]]:
        """A saved journal's entries as ``(player or None, text)``.

        Raises:
            BadState: not a list of ``[seat index or id, or null; text]`` naming players here.
        """
        if not isinstance(data, list):
            raise BadState("Saved game: the journal must have one entry per version.")
        by_seat = cls._JOURNAL_BY_SEAT
        entries: list[tuple[str | None, str]] = []
        for entry in data:
            # Not a pair: read as a seat no player has, refused below.
            seat, text = entry if isinstance(entry, list | tuple) and len(entry) == 2 else (False, None)
            if seat is None and isinstance(text, str):
                entries.append(DEAL)
            elif by_seat and type(seat) is int and 0 <= seat < len(players) and isinstance(text, str):
                entries.append((players[seat], text))
            elif not by_seat and seat in players and isinstance(text, str):
                entries.append((seat, text))
            else:
                raise BadState("Saved game: a journal entry must be [seat index or null, text].")
        return entries

    def _load_journal(self, data: Any) -> None:
        """Keep a saved journal (None: unknown), one entry per :attr:`version`.

        Raises:
            BadState: a malformed journal, or not one entry per version.
        """
        if data is None:
            self._journal = None
            return
        entries = self._journal_entries(data, self.players)
        if len(entries) != self.version:
            raise BadState("Saved game: the journal must have one entry per version.")
        self._journal = list(entries)

    @classmethod
    def unplayed(cls, data: Mapping[str, Any]) -> tuple[Self, list[tuple[str | None, str]]]:
        """A recorded game (``to_dict``) as seated, before its first deal, and its journal's
        entries (``(player or None for a deal, action text)``) to apply to it in turn.

        Raises:
            BadState: no journal, or a malformed save.
        """
        try:
            journal = data["journal"]
            if journal is None:
                raise BadState("The saved game has no journal.")
            players = list(data["players"])
            return cls._seated_from(players, data), cls._journal_entries(journal, players)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise BadState(f"Saved game is malformed: {exc!r}.") from None

    @classmethod
    def replay(cls, data: Mapping[str, Any]) -> Self:
        """A saved game (``to_dict``) played again from its seats, options and seed by its
        journal: equal to ``from_dict(data)`` when the save is consistent.

        Raises:
            BadState: the save has no journal, or is malformed.
            UnoError: the engine refused a journal's action (the save is not consistent).
        """
        game, entries = cls.unplayed(data)
        for player, text in entries:
            if player is None:
                game.start_round()
            else:
                game.apply_text(player, text)
        return game

    def apply_text(self, player: str, text: str) -> list[E]:
        """Carry out the action whose text form is ``text`` (a component's, a journal's) by
        ``player``: ``apply(player, <the edition's action>.parse(text))``.

        Raises:
            BadAction: the text reads as no action. UnoError: as ``apply``.
        """
        return self.apply(player, self._parse_action(text))

    @classmethod
    def _retargeted(cls, text: str, old: str, new: str) -> str:
        """A journal entry's action text with its target ``old`` (a catch's, a Seven's...)
        named ``new``."""
        if "target=" not in text:  # a deal, or an action that names no player
            return text
        action = cls._parse_action(text)
        if action.target != old:
            return text
        return cls._entry_text(action._replace(target=new))

    def replaced(self, old: str, new: str) -> Self:
        """The game as if ``new`` had sat in ``old``'s seat from the start: the same seat, hand,
        score, turn, pending decision and calls, and ``old`` named nowhere, its journal included
        (so :meth:`replay` of the result's save rebuilds it). A computer player taking over a
        seat (docs/rules.md §5.3, §14.13).

        It is made by replaying the journal with the seat renamed, so the result is exactly
        what a replay of its save gives; this game is not changed. Not an action: it changes no
        card, score or turn, only the seat's name.

        Raises:
            NotInGame: ``old`` isn't in the game's seats, or is out of it (left or eliminated:
                their hand is gone).
            BadOption: ``new`` sits at the table already.
            BadState: the game has no journal to replay (dealt by hand, or saved before journals).
        """
        seated = old in self.hands and old not in self.out
        retarget = self._retargeted
        entry: Callable[[Any, str], list[Any]]
        if self._JOURNAL_BY_SEAT:  # the seat's index stays; only a target is renamed

            def entry(seat: Any, text: str) -> list[Any]:
                return [seat, text if seat is None else retarget(text, old, new)]

        else:

            def entry(player: Any, text: str) -> list[Any]:
                return [new if player == old else player, retarget(text, old, new)]

        return self.replay(renamed(self.to_dict(), old, new, seated=seated, entry=entry))

    # ------------------------------------------------------------------ saving

    def _saved_seats(self) -> dict[str, Any]:
        """The part of ``to_dict`` every edition writes alike, before its round: the seats, the
        options, the seed, the scores and the game's progress (the random generator's state and
        the deck are each edition's own: ``rng``, ``deck`` are filled in by it, in this order)."""
        return {
            "schema": SCHEMA_VERSION,
            "variant": self.variant_id,
            "options": self.options.to_dict(),
            "players": list(self.players),
            "seed": self.seed,
            "rng": None,
            "out": dict(self.out),
            "scores": dict(self.scores),
            "deck": None,
            "round": self.round_no,
            "dealer": self.dealer,
            "version": self.version,
            "game_over": self.game_over,
            "winners": list(self.winners),
            "hands": {p: [c.name for c in h] for p, h in self.hands.items()},
        }

    def _load_seats(self, data: Mapping[str, Any]) -> None:
        """Read back what :meth:`_saved_seats` wrote (but the generator, the deck and the hands).

        Raises:
            KeyError, TypeError, ValueError, UnoError: a malformed save (the caller's BadState).
        """
        self.options = Options.parse(data["options"])
        self.players = list(data["players"])
        self.seed = int(data["seed"])
        self.out = dict(data["out"])
        self.scores = {k: int(s) for k, s in data["scores"].items()}
        self.round_no = int(data["round"])
        self.dealer = data["dealer"]
        self.version = int(data["version"])
        self.game_over = bool(data["game_over"])
        self.winners = list(data["winners"])

    def _deal_scores(self, scores: Mapping[str, int] | None) -> None:
        """Set the running scores of a dealt position (``from_deal``).

        Raises:
            BadOption: a key that is no player's or team's.
        """
        for key, value in (scores or {}).items():
            if key not in self.scores:
                raise BadOption(f"No score key {key!r} (players, or teams 'a+b' with partners).")
            self.scores[key] = int(value)


def shuffle(rng: random.Random, cards: list[Any]) -> None:
    """Shuffle in place (Fisher-Yates driven by ``rng.random()``).

    ``random.Random.shuffle`` draws each index through a pure-Python helper and took a fifth of
    a benchmark round; for piles of at most a few hundred cards the float method's bias is
    below 2**-45.
    """
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
