"""The DOS game aggregate: seats, rounds, running scores, and one validating method per action
(docs/rules.md §14; why a sibling of ``Game`` and not a variant of it: docs/engine-dos.md).

A :class:`DosGame` is pure and synchronous; all randomness comes from its own seeded
``random.Random``, so the same seed and the same actions give the same game. Its surface is
``Game``'s: :meth:`~DosGame.legal_actions`, :meth:`~DosGame.decisions`, :meth:`~DosGame.apply`,
one method per action, ``pending``, :meth:`~DosGame.public_view` / :meth:`~DosGame.private_view`,
:meth:`~DosGame.to_dict` / :meth:`~DosGame.from_dict`, :meth:`~DosGame.timeout`, the journal and
:meth:`~DosGame.replay`, :meth:`~DosGame.copy`.

>>> game = DosGame(["ana", "ben", "cy"], seed=1)
>>> _ = game.start_round()
>>> game.pending.kind.value, len(game.hands["ana"]), len(game.row)
('turn', 7, 2)
>>> DosGame.from_dict(game.to_dict()).to_dict() == game.to_dict()
True
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from bot.engine.base import DEAL, SCHEMA_VERSION, TableGame, shuffle
from bot.engine.cards import Color
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import COLORS, COPIES, DECK, DosCard, sort_key
from bot.engine.errors import (
    BadColor,
    BadOption,
    BadState,
    CatchRefused,
    ColorRequired,
    IllegalPlay,
    NoSuchCard,
    NotExpected,
    NotYourTurn,
    RoundOver,
    UnoError,
)
from bot.engine.events import public
from bot.engine.options import Options
from bot.engine.scoring import close_round

HAND_SIZE = 7
ROW_SIZE = 2
"""Piles the row is topped up to at the end of a turn (§14.7 step 2) and dealt with (§14.3)."""
DEFAULT_TARGET = 200
"""DOS's default target score (§14.3)."""
VARIANT_ID = "dos"


class DosRefused(UnoError):
    """A DOS call that would not count (docs/rules.md §14.8)."""

    reason = "dos-refused"
    default_message = "You can call DOS only holding two cards, or on your own turn holding more."


class DosPendingKind(enum.Enum):
    """The one decision a DOS game waits for (§14.13; docs/scenarios.md's DOS ``pending``)."""

    __hash__ = object.__hash__

    TURN = "turn"
    """A turn not yet begun: match or draw."""
    MATCH = "match"
    """After a match: another match or end the turn."""
    DRAW_DECISION = "draw-decision"
    """After a draw that made a match possible: match or place the no-match card."""
    PLACE = "place"
    """A card to add to the row: the no-match card, or a bonus card."""
    NONE = "none"
    """Nothing: the round (or the game) is over, or no round has been dealt."""


class DosPending(NamedTuple):
    """The decision the engine waits for, and whose it is (None only for ``NONE``)."""

    kind: DosPendingKind
    player: str | None = None


NOTHING = DosPending(DosPendingKind.NONE)


class DosEventKind(enum.StrEnum):
    """What an action caused (docs/engine-dos.md lists each kind's data)."""

    ROUND_STARTED = "round-started"
    """A round was dealt."""
    DEALER_DRAWN = "dealer-drawn"
    """Cards were drawn to pick the first dealer."""
    MATCH_MADE = "match-made"
    """A match was made on a pile (§14.5)."""
    CARDS_DRAWN = "cards-drawn"
    """A player drew cards (for the turn, a double color match, a catch)."""
    CARD_PLACED = "card-placed"
    """A card was added to the row: the no-match card or a bonus card (§14.6-§14.7)."""
    PILES_DISCARDED = "piles-discarded"
    """Covered piles went to the discard pile (§14.7 step 1)."""
    ROW_REFILLED = "row-refilled"
    """Cards were turned up to top the row up to two piles (§14.7 step 2)."""
    DECK_RESHUFFLED = "deck-reshuffled"
    """The discard pile was shuffled into a new draw pile (§14.9)."""
    BONUS_LOST = "bonus-lost"
    """Bonus cards were lost: an empty hand, or the player left (§14.6, §14.13)."""
    TURN_ENDED = "turn-ended"
    """A turn ended (after its end-of-turn steps)."""
    DOS_CALLED = "dos-called"
    """A player called DOS (§14.8)."""
    PLAYER_CAUGHT = "player-caught"
    """A player was caught without calling DOS (§14.8)."""
    PLAYER_LEFT = "player-left"
    """A player left the game."""
    PLAYER_ELIMINATED = "player-eliminated"
    """A player reached the target and is out (elimination)."""
    ROUND_OVER = "round-over"
    """The round ended."""
    GAME_OVER = "game-over"
    """The game ended."""


class DosEvent(NamedTuple):
    """One thing that happened: its kind, the player it happened to or by, JSON-safe details
    (``cards`` of ``cards-drawn`` is private to ``player``: see :meth:`public`)."""

    kind: DosEventKind
    player: str | None = None
    data: dict[str, Any] = {}  # noqa: RUF012 (never mutated)

    def public(self) -> dict[str, Any]:
        """The event as anyone at the table may see it (``events.public``: one rule for every
        edition)."""
        return public(self.kind, self.player, self.data)


_TURN_KINDS = (DosPendingKind.TURN, DosPendingKind.MATCH, DosPendingKind.DRAW_DECISION)
_DRAW = DosAction(DosActionKind.DRAW)
_END = DosAction(DosActionKind.END_TURN)
_CALL = DosAction(DosActionKind.DOS)


def color_bonus(cards: Sequence[DosCard], named: Color | None, pile: Color | None) -> str:
    """What a match of ``cards`` earns by color (docs/rules.md §14.6): ``"single-color"`` (a bonus
    card), ``"double-color"`` (a bonus card, and every other player draws one) or ``"none"``.
    ``named``: the color of its Wild DOS cards; ``pile``: the pile's color (named for a Wild DOS
    pile).

    >>> red3, wild = DosCard.parse("red 3"), DosCard.parse("wild dos")
    >>> color_bonus([wild], Color.RED, Color.RED), color_bonus([red3, wild], Color.BLUE, Color.RED)
    ('single-color', 'none')
    """
    if pile is not None and all((named if c.wild_dos else c.color) is pile for c in cards):
        return "single-color" if len(cards) == 1 else "double-color"
    return "none"


def _as_color(color: Color | str | None) -> Color:
    if isinstance(color, Color) and color in COLORS:
        return color
    name = color.strip().lower() if isinstance(color, str) else ""
    for c in COLORS:
        if c.value == name:
            return c
    raise BadColor.of("There is no color called {color}: red, yellow, green or blue.", color=color)


def _card(card: DosCard | str) -> DosCard:
    if isinstance(card, DosCard):
        return card
    try:
        return DosCard.parse(card)
    except UnoError:
        raise NoSuchCard.of("There is no DOS card called {card}.", card=card) from None


def adds_up(cards: Sequence[DosCard], pile: DosCard) -> bool:
    """True if ``cards`` (one or two) match ``pile`` by number (§14.5): some choice of numbers
    for the Wild # cards makes them add up to the pile's number.

    >>> adds_up([DosCard.parse("red 3"), DosCard.parse("wild dos")], DosCard.parse("blue 5"))
    True
    >>> adds_up([DosCard.parse("red 6"), DosCard.parse("red 5")], DosCard.parse("red wild number"))
    False
    """
    # ``fixed`` is the card's one number, 0 for a Wild # (any of 1-10): a Wild # needs its part
    # of the total to be 1-10.
    t = pile.fixed
    if len(cards) == 1:
        c = cards[0].fixed
        return not c or not t or c == t
    if len(cards) != 2:
        return False
    a, b = cards[0].fixed, cards[1].fixed
    if a and b:
        return a + b == t if t else a + b <= 10
    if a or b:  # one Wild #: the other card's number plus 1-10
        k = a or b
        return 1 <= t - k <= 10 if t else k <= 9
    return not t or t >= 2  # two Wild #: any total from 2 to 20


class DosGame(TableGame[DosCard, DosAction, DosEvent]):
    """A game of DOS: seats, rounds and running scores (docs/rules.md §14).

    Create it, then :meth:`start_round`; act through the action methods (or :meth:`apply`), each
    of which validates, changes the game and returns the :class:`DosEvent`\\s it caused, or raises
    an :class:`UnoError` and changes nothing.

    Attributes:
        players: every seat in order, including players who left (see :attr:`seated`).
        options: the host's options (house rules are ignored: §14.12).
        scores: running score per player (or per team, key ``"ana+cy"``), in points.
        hands: each seated player's cards.
        row: the Center Row, piles left to right, each pile bottom..top.
        draw_pile: top card LAST. discard_pile: covered piles (order irrelevant).
        pending: the one decision the engine waits for.
        matched: indices (0-based) of the piles matched this turn.
        bonus: bonus cards the turn's player has earned and not yet placed.
        doubles: double color matches made this turn (each makes every other player draw one).
        due: DOS penalty cards the turn's player draws at the end of the turn (§14.8).
        ended: the turn's steps 1-2 are done and bonus cards are being placed.
        called: players whose DOS call stands. catchable: players with an open catch window.
        caught: players caught since their hand last came to two (their call is refused).
        version: a counter bumped by every accepted action.
    """

    variant_id = VARIANT_ID
    _IDLE = DosPendingKind.NONE
    _JOURNAL_BY_SEAT = False

    _parse_action = staticmethod(DosAction.parse)

    def __init__(
        self,
        players: Sequence[str],
        *,
        variant: str = VARIANT_ID,
        options: Options | None = None,
        seed: int | None = None,
    ) -> None:
        """Seat the players.

        Args:
            players: 2-10 distinct player ids in seat order.
            variant: ``"dos"`` (every edition's game is seated alike).
            options: the host's options (default: target 200, standard scoring).
            seed: seed of the game's random generator (None: a random seed).

        Raises:
            BadOption: another variant, wrong player count, duplicate ids, or options that don't
                go together.
        """
        if variant != VARIANT_ID:
            raise BadOption(f"A DOS game's variant is {VARIANT_ID!r}, not {str(variant)[:40]!r}.")
        self.players: list[str] = list(players)
        if not 2 <= len(self.players) <= 10 or len(set(self.players)) != len(self.players):
            raise BadOption("DOS needs 2 to 10 distinct players.")
        self.options: Options = (options or Options(target_score=DEFAULT_TARGET)).validate(self.players)
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        self.out: dict[str, str] = {}
        self.scores: dict[str, int] = dict.fromkeys(self._team_keys(), 0)
        self.deck: list[DosCard] = list(DECK)
        self.round_no = 0
        self.dealer: str | None = None
        self.version = 0
        self._journal: list[tuple[str | None, str | DosAction]] | None = []
        self.game_over = False
        self.winners: list[str] = []
        self._reset_round()

    def _reset_round(self) -> None:
        self.hands: dict[str, list[DosCard]] = {p: [] for p in self.seated}
        self.row: list[list[DosCard]] = []
        self.draw_pile: list[DosCard] = []
        self.discard_pile: list[DosCard] = []
        self.pending: DosPending = NOTHING
        self.called: set[str] = set()
        self.catchable: set[str] = set()
        self.caught: set[str] = set()
        self.round_over = False
        self.round_winner: str | None = None
        self.round_points = 0
        self._reset_turn()
        self._events: list[DosEvent] = []

    def _reset_turn(self) -> None:
        self.matched: set[int] = set()
        self.bonus = 0
        self.doubles = 0
        self.due = 0
        self.ended = False

    # ------------------------------------------------------------------ seats and teams

    def next_seat(self, player: str, steps: int = 1) -> str:
        """The seated player ``steps`` seats to the left of ``player`` (who may have left);
        ``player`` itself when nobody else is seated. DOS always moves to the left (§14.3)."""
        seats = self.players
        i = seats.index(player)
        count = 0
        for _ in range(len(seats) * steps):
            i = (i + 1) % len(seats)
            if seats[i] not in self.out:
                count += 1
                if count == steps:
                    return seats[i]
        return player

    def hand_value(self, player: str) -> int:
        """Points of the cards in ``player``'s hand (§14.10)."""
        return sum(c.value for c in self.hands.get(player, ()))

    def default_card(self, player: str) -> DosCard:
        """The card a timeout places (§14.13): most points, then the color order."""
        return min(self.hands[player], key=sort_key)

    # ------------------------------------------------------------------ the round

    def start_round(self) -> list[DosEvent]:
        """Choose the dealer, deal seven cards each and turn up piles 1 and 2 (§14.3).

        Raises:
            RoundOver: the game is over.
            NotExpected: a round is still in progress.
        """
        if self.game_over:
            raise RoundOver("The game is over.")
        if self.round_no and not self.round_over:
            raise NotExpected("This round is still being played.")
        self._reset_round()
        self.round_no += 1
        cards = list(self.deck)
        # Round 1: a draw picks the dealer; later rounds pass the deal to the left.
        self.dealer = self._draw_for_dealer(cards) if self.dealer is None else self.next_seat(self.dealer)
        self.emit(DosEventKind.ROUND_STARTED, None, round=self.round_no, dealer=self.dealer)
        shuffle(self.rng, cards)
        order = [self.next_seat(self.dealer, k) for k in range(1, len(self.seated) + 1)]
        for _ in range(HAND_SIZE):
            for p in order:
                if cards:
                    self.hands[p].append(cards.pop())
        for _ in range(ROW_SIZE):
            if cards:
                self.row.append([cards.pop()])
        self.draw_pile = cards
        self.pending = DosPending(DosPendingKind.TURN, order[0])
        if self._journal is not None:
            self._journal.append(DEAL)
        return self._flush()

    def _draw_for_dealer(self, cards: list[DosCard]) -> str:
        """Round 1: highest number deals, wilds count zero, tied highest draw again (§14.3)."""
        contenders = self.seated
        drawn: dict[str, str] = {}
        while True:
            pool = list(cards)
            values: dict[str, int] = {}
            for p in contenders:
                card = pool.pop(int(self.rng.random() * len(pool)))
                drawn[p] = card.name
                values[p] = card.number
            best = max(values.values())
            contenders = [p for p in contenders if values[p] == best]
            if len(contenders) == 1:
                self.emit(DosEventKind.DEALER_DRAWN, None, cards=dict(drawn))
                return contenders[0]

    # ------------------------------------------------------------------ what can be done

    def can_match(self, player: str) -> bool:
        """True if some pile not matched this turn can be matched from ``player``'s hand."""
        hand = self.hands.get(player, [])
        if not hand:
            return False
        open_piles = [pile[0] for i, pile in enumerate(self.row) if i not in self.matched]
        if not open_piles:
            return False
        if any(c.number == 0 and not c.wild_dos for c in hand):  # a Wild # matches any pile
            return True
        counts = Counter(c.number or 2 for c in hand)
        for pile in open_piles:
            if pile.number == 0 and not pile.wild_dos:  # a Wild # pile: any single card
                return True
            n = pile.number or 2
            if n in counts:
                return True
            for v, k in counts.items():
                w = n - v
                if w in counts and (w != v or k >= 2):
                    return True
        return False

    def matches(self, player: str) -> list[DosAction]:
        """Every legal match of ``player`` now, ignoring whose turn it is: each unmatched pile
        with each card and each pair of cards that adds up (§14.5), once per color a Wild DOS
        involved may take (§14.6)."""
        hand = self.hands.get(player, [])
        counts = Counter(hand)
        distinct = list(counts)
        pairs = [(a, b) for i, a in enumerate(distinct) for b in distinct[i:] if a is not b or counts[a] >= 2]
        out: list[DosAction] = []
        for i, pile in enumerate(self.row):
            if i in self.matched:
                continue
            top = pile[0]
            pile_colors: tuple[Color | None, ...] = COLORS if top.wild_dos else (None,)
            groups = [(c,) for c in distinct] + pairs
            for group in groups:
                if not adds_up(group, top):
                    continue
                colors: tuple[Color | None, ...] = COLORS if any(c.wild_dos for c in group) else (None,)
                for pc in pile_colors:
                    for color in colors:
                        out.append(DosAction(DosActionKind.PLAY, i + 1, group, color, pc))
        return out

    def decisions(self, player: str) -> list[DosAction]:
        """The actions that resolve the pending decision, if it is ``player``'s (else [])."""
        p = self.pending
        if p.player != player or self.round_over:
            return []
        kind = p.kind
        if kind is DosPendingKind.PLACE:
            return [DosAction(DosActionKind.PLACE, cards=(c,)) for c in dict.fromkeys(self.hands[player])]
        out = self.matches(player)
        if kind is DosPendingKind.TURN:
            out.append(_DRAW)
        elif kind is DosPendingKind.MATCH:
            out.append(_END)
        else:
            out += [DosAction(DosActionKind.PLACE, cards=(c,)) for c in dict.fromkeys(self.hands[player])]
        return out

    def legal_actions(self, player: str) -> list[DosAction]:
        """Every concrete action ``player`` may take now (excluding ``leave`` and ``timeout``):
        :meth:`decisions`, then a DOS call and the catches anyone may make."""
        out = self.decisions(player)
        if self.can_call_dos(player):
            out.append(_CALL)
        out += [DosAction(DosActionKind.CATCH, target=t) for t in self.catch_targets(player)]
        return out

    def completions(self, player: str, action: DosAction) -> list[DosAction]:
        """The legal actions of ``player`` (:meth:`legal_actions`) that agree with ``action``:
        the same kind, and the same pile, cards, colors and target wherever ``action`` sets one
        (None, or no cards, is a wildcard), as ``Game.completions``.

        For a match made in two steps (§14.6): a hand's select carries the pile and its cards;
        when a Wild DOS is in the match or is the pile, the completions name the colors it may
        take. If the action is among its own completions, it is legal as it stands; if there
        are none, the game refuses it (:meth:`apply` says why).

        >>> game = DosGame.from_deal(
        ...     ["ana", "ben"], dealer="ben", turn="ana",
        ...     hands={"ana": [DosCard.parse("wild dos"), DosCard.parse("red 3")],
        ...            "ben": [DosCard.parse("blue 1")]},
        ...     row=[[DosCard.parse("blue 5")], [DosCard.parse("green 7")]],
        ...     draw_pile=[DosCard.parse("green 1")] * 3)
        >>> pair = DosAction.parse("play pile=1 wild dos + red 3")
        >>> [a.color.value for a in game.completions("ana", pair)]
        ['red', 'yellow', 'green', 'blue']
        >>> done = pair._replace(color=Color.BLUE)
        >>> game.completions("ana", done) == [done]
        True
        >>> game.completions("ben", done)
        []
        """
        kind, pile, cards, color, pile_color, target = action
        return [
            a
            for a in self.legal_actions(player)
            if a.kind is kind
            and (pile is None or a.pile == pile)
            and (not cards or a.cards == cards)
            and (color is None or a.color is color)
            and (pile_color is None or a.pile_color is pile_color)
            and (target is None or a.target == target)
        ]

    def can_call_dos(self, player: str) -> bool:
        """True if a DOS call by ``player`` would count now (§14.8, §14.15)."""
        hand = self.hands.get(player)
        if hand is None or self.round_over or player in self.called:
            return False
        if len(hand) == 2:
            return player not in self.caught
        return len(hand) > 2 and self.pending.player == player

    def could_come_down_to_two(self, player: str) -> bool:
        """Whether ``player``'s hand could come down to two cards before the end of this turn, by
        an upper bound: two cards off for each pile not matched yet that one of the hand's cards
        or pairs fits, a bonus card for each bonus earned and for each such pile (§14.6), and
        one card for a no-match card (§14.7). A DOS call made ahead covers only this turn (§14.8):
        where this is False, it could not matter.

        >>> cards = lambda *names: [DosCard.parse(n) for n in names]
        >>> game = DosGame.from_deal(["a", "b"], dealer="b", turn="a", row=[cards("blue 5"), cards("green 7")],
        ...     draw_pile=cards("red 5", "red 8", "green 3"),
        ...     hands={"a": cards("red 1", "yellow 1", "red 10", "yellow 10", "green 10", "blue 10", "red 9"),
        ...            "b": cards("blue 1", "blue 4", "green 7", "red 3", "red 6", "yellow 8", "yellow 9")})
        >>> game.could_come_down_to_two("a"), game.could_come_down_to_two("b")
        (False, True)
        """
        hand = self.hands.get(player)
        if not hand:
            return False
        fits = {a.pile for a in self.matches(player)}
        return len(hand) - 3 * len(fits) - self.bonus - 1 <= 2

    def catch_targets(self, player: str) -> list[str]:
        """Players ``player`` may catch now: open window, not themself, not a partner."""
        if player not in self.hands or self.round_over:
            return []
        team = self.team_of(player)
        return sorted(t for t in self.catchable if t != player and self.team_of(t) != team)

    # ------------------------------------------------------------------ actions

    def apply(self, player: str, action: DosAction) -> list[DosEvent]:
        """Carry out a :class:`DosAction` by ``player`` (its kind's method) and journal it.

        Raises:
            UnoError: as the action's method.
        """
        kind = action.kind
        if kind is DosActionKind.PLAY:
            events = self.play(
                player, action.pile or 0, action.cards, color=action.color, pile_color=action.pile_color
            )
        elif kind is DosActionKind.PLACE:
            if len(action.cards) != 1:
                raise NotExpected("Place one card.")
            events = self.place(player, action.cards[0])
        elif kind is DosActionKind.CATCH:
            events = self.catch(player, action.target or "")
        else:
            events = _SIMPLE[kind](self, player)
        if self._journal is not None:
            self._journal.append((player, action))
        return events

    def apply_listed(self, player: str, action: DosAction) -> None:
        """Carry out an action just listed by :meth:`decisions` or :meth:`legal_actions` for
        ``player``, without validating it: the fast path of the hard AI's playouts
        (bot/engine/search.py), as ``Game.apply_listed``.

        The result is that of :meth:`apply` for a listed action (journal included); for any
        other action it is undefined, so callers pass only listed actions, unchanged. Events are
        not returned.
        """
        kind = action.kind
        if kind is DosActionKind.PLAY:
            pile = action.pile or 0
            top = self.row[pile - 1][0]
            pile_color = action.pile_color if top.wild_dos else top.color
            self._match(player, pile, action.cards, action.color, pile_color)
        elif kind is DosActionKind.DRAW:
            self._draw_for_turn(player)
        elif kind is DosActionKind.PLACE:
            self._place(player, action.cards[0])
        else:  # rarer kinds: their validating method
            self.apply(player, action)
            return
        self._flush()
        if self._journal is not None:
            self._journal.append((player, action))

    def play(
        self,
        player: str,
        pile: int,
        cards: Sequence[DosCard | str],
        *,
        color: Color | str | None = None,
        pile_color: Color | str | None = None,
    ) -> list[DosEvent]:
        """One match: ``cards`` (one or two, in order) from the hand onto pile ``pile`` (1-based).

        Raises:
            NotInGame, RoundOver, NotYourTurn; NotExpected: a placement is due;
            NoSuchCard: a card not held; IllegalPlay: not one or two cards, no such pile, a pile
            matched this turn, numbers that don't add up (§14.5); ColorRequired: a Wild DOS in
            ``cards`` without ``color``, or a Wild DOS pile without ``pile_color`` (§14.6);
            BadColor: a color other than red, yellow, green, blue.
        """
        self._expect(player, _TURN_KINDS)
        found = self._held(player, cards)
        if not 1 <= len(found) <= 2:
            raise IllegalPlay("A match is one card, or two whose numbers add up.")
        if not 1 <= pile <= len(self.row) or pile - 1 in self.matched:
            raise IllegalPlay("There is no such pile to match this turn.")
        top = self.row[pile - 1][0]
        if not adds_up(found, top):
            raise IllegalPlay.of("Those numbers don't add up to the pile's {card}.", card=top.name)
        own_dos = any(c.wild_dos for c in found)
        if (own_dos and color is None) or (top.wild_dos and pile_color is None):
            raise ColorRequired("Name the color of every Wild DOS in this match.")
        named = _as_color(color) if own_dos else None
        pile_named = _as_color(pile_color) if top.wild_dos else top.color
        self._match(player, pile, found, named, pile_named)
        return self._flush()

    def _match(
        self, player: str, pile: int, found: Sequence[DosCard], named: Color | None, pile_named: Color | None
    ) -> None:
        """A valid match (:meth:`play`'s checks passed): ``named`` is the color of the match's
        Wild DOS cards, ``pile_named`` the pile's color for it."""
        if self.pending.kind is DosPendingKind.TURN:
            self.catchable.clear()  # a turn begins (§14.8)
        hand = self.hands[player]
        for c in found:
            hand.remove(c)
        top = self.row[pile - 1][0]
        self.row[pile - 1].extend(found)
        self.matched.add(pile - 1)
        bonus = color_bonus(found, named, pile_named)
        if bonus != "none":
            self.bonus += 1
            self.doubles += bonus == "double-color"
        self.emit(
            DosEventKind.MATCH_MADE,
            player,
            pile=pile,
            pile_card=top.name,
            cards=[c.name for c in found],
            color=named.value if named else None,
            pile_color=pile_named.value if pile_named else None,
            bonus=bonus,
        )
        self._shed(player)
        if self.can_match(player):
            self.pending = DosPending(DosPendingKind.MATCH, player)
        else:
            self._end_turn(player)

    def draw(self, player: str) -> list[DosEvent]:
        """Draw one card as the first act of the turn (§14.7).

        Raises:
            NotInGame, RoundOver, NotYourTurn; NotExpected: the turn has begun.
        """
        self._expect(player, (DosPendingKind.TURN,))
        self._draw_for_turn(player)
        return self._flush()

    def place(self, player: str, card: DosCard | str) -> list[DosEvent]:
        """Add ``card`` from the hand to the row as a new pile at the right end: the no-match
        card after a draw (the turn then ends), or a bonus card at the end of the turn (§14.6-7).

        Raises:
            NotInGame, RoundOver, NotYourTurn; NotExpected: no placement is due;
            NoSuchCard: the card is not held.
        """
        self._expect(player, (DosPendingKind.PLACE, DosPendingKind.DRAW_DECISION))
        found = self._held(player, [card])[0]
        self._place(player, found)
        return self._flush()

    def end_turn(self, player: str) -> list[DosEvent]:
        """End the turn after at least one match (§14.4).

        Raises:
            NotInGame, RoundOver, NotYourTurn; NotExpected: no match made this turn yet.
        """
        self._expect(player, (DosPendingKind.MATCH,))
        self._end_turn(player)
        return self._flush()

    def call_dos(self, player: str) -> list[DosEvent]:
        """Call DOS (§14.8).

        Raises:
            NotInGame, RoundOver; DosRefused: the call would not count (§14.8, §14.15).
        """
        self._check_actor(player)
        if not self.can_call_dos(player):
            raise DosRefused()
        self.called.add(player)
        self.catchable.discard(player)
        self.emit(DosEventKind.DOS_CALLED, player)
        return self._flush()

    def catch(self, catcher: str, target: str) -> list[DosEvent]:
        """Catch ``target``, who did not call DOS: they draw two, at once or, during their own
        turn, at step 5 of its end (§14.8).

        Raises:
            NotInGame, RoundOver; CatchRefused: no open window, oneself, or a partner.
        """
        self._check_actor(catcher)
        if target not in self.catch_targets(catcher):
            raise CatchRefused("There is nothing to catch: no DOS window is open for that player.")
        self.catchable.discard(target)
        self.caught.add(target)
        own_turn = self.pending.player == target
        self.emit(DosEventKind.PLAYER_CAUGHT, target, by=catcher, delayed=own_turn)
        if own_turn:
            self.due += 2
        else:
            self._draw(target, 2, "catch")
        return self._flush()

    def leave(self, player: str) -> list[DosEvent]:
        """A player leaves (or is removed): §14.13. Their hand goes into the draw pile; during
        their own turn, steps 1-2 of the end of the turn follow and play goes on with the next
        player (no bonus cards, no draws for their double color matches, no DOS penalty).

        Raises:
            NotInGame: not seated.
        """
        self._check_seated(player)
        deciding = self.pending.player == player and not self.round_over
        self.emit(DosEventKind.PLAYER_LEFT, player)
        self.caught.discard(player)
        self._unseat(player, self.hands.pop(player, []))
        if self._one_team_left():
            return self._flush()
        if deciding:
            if not self.ended:
                self._discard_and_refill()
            if self.bonus:
                self.emit(DosEventKind.BONUS_LOST, player, count=self.bonus)
            self._reset_turn()
            self.pending = DosPending(DosPendingKind.TURN, self.next_seat(player))
        return self._flush()

    def timeout(self, player: str) -> list[DosEvent]:
        """The player who must act ran out of time: their default move (§14.13). A turn not
        begun: draw, then place the default card as the no-match card. After a draw: place the
        default card. After a match: end the turn. A card due: place the default card.

        Raises:
            NotInGame, RoundOver, NotYourTurn.
        """
        self._check_actor(player)
        p = self.pending
        if p.player != player:
            raise NotYourTurn()
        if p.kind is DosPendingKind.MATCH:
            self._end_turn(player)
            return self._flush()
        if p.kind is DosPendingKind.TURN:
            self._draw_for_turn(player)
        self._place(player, self.default_card(player))
        return self._flush()

    # ------------------------------------------------------------------ the steps

    def _draw_for_turn(self, player: str) -> None:
        self.catchable.clear()  # a turn begins (§14.8)
        self._draw(player, 1, "turn")
        kind = DosPendingKind.DRAW_DECISION if self.can_match(player) else DosPendingKind.PLACE
        self.pending = DosPending(kind, player)

    def _place(self, player: str, card: DosCard) -> None:
        self.hands[player].remove(card)
        self.row.append([card])
        bonus = self.ended
        self.emit(DosEventKind.CARD_PLACED, player, card=card.name, reason="bonus" if bonus else "no-match")
        self._shed(player)
        if not bonus:
            self._end_turn(player)
            return
        self.bonus -= 1
        self._place_bonus(player)

    def _shed(self, player: str) -> None:
        """The player's own match or placement made their hand smaller: a DOS window opens at
        exactly two cards without a standing call (§14.8)."""
        self._hand_changed(player, grew=False)
        if len(self.hands[player]) == 2 and player not in self.called:
            self.catchable.add(player)

    def _hand_changed(self, player: str, *, grew: bool) -> None:
        self.catchable.discard(player)
        self.caught.discard(player)
        n = len(self.hands[player])
        if n < 2 or (grew and n > 2):
            self.called.discard(player)  # a call lapses (§14.8, §14.15)

    def _end_turn(self, player: str) -> None:
        """Steps 1-2 of the end of a turn, then the bonus cards (step 3) or steps 4-6 (§14.7)."""
        self._discard_and_refill()
        self.ended = True
        self._place_bonus(player)

    def _discard_and_refill(self) -> None:
        covered = [pile for pile in self.row if len(pile) > 1]
        if covered:
            self.row = [pile for pile in self.row if len(pile) == 1]
            for pile in covered:
                self.discard_pile.extend(pile)
            self.emit(DosEventKind.PILES_DISCARDED, None, piles=len(covered), count=sum(map(len, covered)))
        self.matched.clear()
        turned = []
        while len(self.row) < ROW_SIZE:
            card = self._take()
            if card is None:
                break
            self.row.append([card])
            turned.append(card.name)
        if turned:
            self.emit(DosEventKind.ROW_REFILLED, None, cards=turned)

    def _place_bonus(self, player: str) -> None:
        if self.bonus and self.hands[player]:
            self.pending = DosPending(DosPendingKind.PLACE, player)
            return
        if self.bonus:
            self.emit(DosEventKind.BONUS_LOST, player, count=self.bonus)
        self._finish_turn(player)

    def _finish_turn(self, player: str) -> None:
        """Steps 4-6 of the end of a turn (§14.7)."""
        if self.doubles:
            other = self.next_seat(player)
            while other != player:
                self._draw(other, self.doubles, "double-color-match")
                other = self.next_seat(other)
        if self.due:
            self._draw(player, self.due, "catch")
        self._reset_turn()
        self.emit(DosEventKind.TURN_ENDED, player)
        if not self.hands[player]:
            self._end_round(player)
            return
        if len(self.hands[player]) > 2:
            self.called.discard(player)
        self.pending = DosPending(DosPendingKind.TURN, self.next_seat(player))

    def _take(self) -> DosCard | None:
        """The top card of the draw pile; an empty draw pile is first rebuilt from the whole
        discard pile (§14.9). None when nothing is left."""
        if not self.draw_pile:
            if not self.discard_pile:
                return None
            self.draw_pile, self.discard_pile = self.discard_pile, []
            shuffle(self.rng, self.draw_pile)
            self.emit(DosEventKind.DECK_RESHUFFLED, None, count=len(self.draw_pile))
        return self.draw_pile.pop()

    def _draw(self, player: str, count: int, reason: str) -> None:
        cards = []
        for _ in range(count):
            card = self._take()
            if card is None:
                break
            cards.append(card)
        self.emit(
            DosEventKind.CARDS_DRAWN, player, count=len(cards), cards=[c.name for c in cards], reason=reason
        )
        if cards:
            self.hands[player].extend(cards)
            self._hand_changed(player, grew=True)

    def _end_round(self, winner: str) -> None:
        """``winner`` went out: score the round (§14.10, §14.11)."""
        self.pending = NOTHING
        self.round_over = True
        self.catchable.clear()
        close_round(self, winner, DosEventKind.ROUND_OVER, DosEventKind.PLAYER_ELIMINATED)

    def _finish_game(self, winners: list[str]) -> None:
        self.game_over = True
        self.round_over = True
        self.pending = NOTHING
        self.catchable.clear()
        self.winners = winners
        self.emit(DosEventKind.GAME_OVER, None, winners=list(winners))

    # ------------------------------------------------------------------ validation

    def _expect(self, player: str, kinds: tuple[DosPendingKind, ...]) -> None:
        self._check_actor(player)
        if self.pending.player != player:
            raise NotYourTurn()
        if self.pending.kind not in kinds:
            raise NotExpected()

    def _held(self, player: str, cards: Iterable[DosCard | str]) -> list[DosCard]:
        found = [_card(c) for c in cards]
        hand = self.hands[player]
        for card in found:
            have = hand.count(card)
            if have < found.count(card):
                if have:
                    raise NoSuchCard.of("You don't hold that many {card}.", card=card.name)
                raise NoSuchCard.of("You don't hold {card}.", card=card.name)
        return found

    def emit(self, kind: DosEventKind, player: str | None, **data: Any) -> None:
        """Record an event of the running action (returned by the action method)."""
        self._events.append(DosEvent(kind, player, data))

    def _flush(self) -> list[DosEvent]:
        events, self._events = self._events, []
        self.version += 1
        return events

    # ------------------------------------------------------------------ views

    def public_view(self) -> dict[str, Any]:
        """What everyone at the table may see: the row, pile sizes, hand sizes, calls, scores."""
        return {
            "variant": VARIANT_ID,
            "round": self.round_no,
            "dealer": self.dealer,
            "row": [[c.name for c in pile] for pile in self.row],
            "matched": sorted(i + 1 for i in self.matched),
            "hand_sizes": {p: len(h) for p, h in self.hands.items()},
            "draw_size": len(self.draw_pile),
            "discard_size": len(self.discard_pile),
            "pending": {"kind": self.pending.kind.value, "player": self.pending.player},
            "bonus_cards": self.bonus,
            "dos_called": sorted(self.called),
            "catchable": sorted(self.catchable),
            "scores": dict(self.scores),
            "round_over": self.round_over,
            "round_winner": self.round_winner,
            "game_over": self.game_over,
            "winners": list(self.winners),
        }

    def private_view(self, player: str) -> dict[str, Any]:
        """:meth:`public_view` plus ``player``'s own hand and legal actions (as text)."""
        view = self.public_view()
        view["hand"] = [c.name for c in self.hands.get(player, [])]
        view["actions"] = [a.text() for a in self.legal_actions(player)]
        return view

    # ------------------------------------------------------------------ saving, replaying

    def to_dict(self) -> dict[str, Any]:
        """The whole game, JSON-safe, with a schema version; :meth:`from_dict` restores it exactly."""
        version, internal, gauss = self.rng.getstate()
        saved = self._saved_seats()
        saved["rng"], saved["deck"] = [version, list(internal), gauss], [c.name for c in self.deck]
        return saved | {
            "row": [[c.name for c in pile] for pile in self.row],
            "draw_pile": [c.name for c in self.draw_pile],
            "discard_pile": [c.name for c in self.discard_pile],
            "pending": [self.pending.kind.value, self.pending.player],
            "matched": sorted(self.matched),
            "bonus": self.bonus,
            "doubles": self.doubles,
            "due": self.due,
            "ended": self.ended,
            "called": sorted(self.called),
            "catchable": sorted(self.catchable),
            "caught": sorted(self.caught),
            "round_over": self.round_over,
            "round_winner": self.round_winner,
            "round_points": self.round_points,
            "journal": self._journal_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DosGame:
        """Restore a game saved by :meth:`to_dict`.

        Raises:
            BadState: wrong schema or variant, or a malformed or inconsistent state.
        """
        try:
            if data.get("schema") != SCHEMA_VERSION or data.get("variant") != VARIANT_ID:
                raise BadState("That isn't a saved DOS game.")
            game = cls.__new__(cls)
            game._load_seats(data)
            v, internal, gauss = data["rng"]
            game.rng = random.Random()
            game.rng.setstate((v, tuple(internal), gauss))
            cards = DosCard.parse
            game.deck = [cards(c) for c in data["deck"]]
            game._reset_round()
            game.hands = {p: [cards(c) for c in h] for p, h in data["hands"].items()}
            game.row = [[cards(c) for c in pile] for pile in data["row"]]
            game.draw_pile = [cards(c) for c in data["draw_pile"]]
            game.discard_pile = [cards(c) for c in data["discard_pile"]]
            kind, player = data["pending"]
            game.pending = DosPending(DosPendingKind(kind), player)
            game.matched = {int(i) for i in data["matched"]}
            game.bonus, game.doubles, game.due = int(data["bonus"]), int(data["doubles"]), int(data["due"])
            game.ended = bool(data["ended"])
            game.called, game.catchable = set(data["called"]), set(data["catchable"])
            game.caught = set(data["caught"])
            game.round_over = bool(data["round_over"])
            game.round_winner, game.round_points = data["round_winner"], int(data["round_points"])
            game._load_journal(data.get("journal"))
        except BadState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, UnoError) as exc:
            raise BadState(f"Saved game is malformed: {exc!r}.") from None
        held = [*game.draw_pile, *game.discard_pile, *(c for pile in game.row for c in pile)]
        for hand in game.hands.values():
            held += hand
        if game.round_no and Counter(held) != Counter(game.deck):
            raise BadState("Saved game: the cards in play don't match the game's deck.")
        if game.pending.kind is not DosPendingKind.NONE and game.pending.player not in game.hands:
            raise BadState("Saved game: the pending decision belongs to nobody at the table.")
        return game

    def copy(self, *, journal: bool = True, rng: random.Random | None = None) -> DosGame:
        """An independent copy of the game, cheaper than ``from_dict(to_dict())``: cards and
        options are immutable and shared, and so is the deck (never changed); lists, dicts and
        sets are copied.

        Args:
            journal: False: the copy keeps no journal (:attr:`journal` is None), for speed (the
                hard AI's playouts, bot/engine/dos/search.py).
            rng: the copy's random generator (its own from then on); None: a copy of this
                game's generator in its current state.
        """
        new = DosGame.__new__(DosGame)
        new.players, new.options, new.seed = list(self.players), self.options, self.seed
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        new.rng = rng
        new.out, new.scores, new.deck = dict(self.out), dict(self.scores), self.deck
        new.round_no, new.dealer, new.version = self.round_no, self.dealer, self.version
        new._journal = list(self._journal) if journal and self._journal is not None else None
        new.game_over, new.winners = self.game_over, list(self.winners)
        new.hands = {p: list(h) for p, h in self.hands.items()}
        new.row = [list(pile) for pile in self.row]
        new.draw_pile, new.discard_pile = list(self.draw_pile), list(self.discard_pile)
        new.pending = self.pending
        new.called, new.catchable, new.caught = set(self.called), set(self.catchable), set(self.caught)
        new.round_over, new.round_winner = self.round_over, self.round_winner
        new.round_points, new.matched = self.round_points, set(self.matched)
        new.bonus, new.doubles = self.bonus, self.doubles
        new.due, new.ended = self.due, self.ended
        new._events = list(self._events)
        return new

    @classmethod
    def from_deal(
        cls,
        players: Sequence[str],
        *,
        options: Options | None = None,
        seed: int = 0,
        dealer: str,
        hands: Mapping[str, Sequence[DosCard]],
        row: Sequence[Sequence[DosCard]],
        draw_pile: Sequence[DosCard],
        discard_pile: Sequence[DosCard] = (),
        turn: str | None = None,
        scores: Mapping[str, int] | None = None,
        dos_called: Iterable[str] = (),
    ) -> DosGame:
        """A game in a given position, waiting on an ordinary turn (scenarios and tests).

        Args:
            row: the piles left to right, one card each. draw_pile: top card LAST.
            turn: whose turn (default: left of the dealer).
            dos_called: players whose DOS call stands.

        Raises:
            BadOption: players, scores, piles or calls that don't fit.
        """
        game = cls(players, options=options, seed=seed)
        game._journal = None  # not dealt from the seed: no replay
        if dealer not in game.players or set(hands) - set(game.players):
            raise BadOption("The dealer and every hand must belong to players at the table.")
        if any(len(pile) != 1 for pile in row):
            raise BadOption("Every pile of a dealt row holds one card.")
        game.round_no, game.dealer = 1, dealer
        game._deal_scores(scores)
        game.hands = {p: list(hands.get(p, ())) for p in game.players}
        game.row = [list(pile) for pile in row]
        game.draw_pile, game.discard_pile = list(draw_pile), list(discard_pile)
        game.deck = [c for h in game.hands.values() for c in h] + [c for p in game.row for c in p]
        game.deck += game.draw_pile + game.discard_pile
        first = turn or game.next_seat(dealer)
        if first not in game.players:
            raise BadOption(f"The player to start, {first!r}, isn't a player.")
        game.pending = DosPending(DosPendingKind.TURN, first)
        for p in dos_called:
            if p not in game.hands:
                raise BadOption(f"{p!r} isn't a player.")
            game.called.add(p)
            if not game.can_call_dos_at_deal(p):
                raise BadOption(f"{p!r} could not have a standing DOS call.")
        return game

    def can_call_dos_at_deal(self, player: str) -> bool:
        """True if a call by ``player`` could stand now: two cards, or more on their own turn."""
        n = len(self.hands[player])
        return n == 2 or (n > 2 and self.pending.player == player)


_SIMPLE = {
    DosActionKind.DRAW: DosGame.draw,
    DosActionKind.END_TURN: DosGame.end_turn,
    DosActionKind.DOS: DosGame.call_dos,
    DosActionKind.LEAVE: DosGame.leave,
    DosActionKind.TIMEOUT: DosGame.timeout,
}

__all__ = [
    "COPIES",
    "DosEvent",
    "DosEventKind",
    "DosGame",
    "DosPending",
    "DosPendingKind",
    "DosRefused",
    "adds_up",
]
