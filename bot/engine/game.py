"""The game aggregate: seats, rounds, running scores, and one validating method per action.

A :class:`Game` is pure and synchronous; all randomness comes from its own seeded
``random.Random``, so the same seed and the same actions give the same game.

>>> game = Game(["ana", "ben", "cy"], variant="classic", seed=1)
>>> events = game.start_round()
>>> game.pending.kind.value, len(game.hands["ana"])
('turn', 7)
>>> game2 = Game.from_dict(game.to_dict())
>>> game2.to_dict() == game.to_dict()
True
"""

from __future__ import annotations

import contextlib
import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple, NoReturn, TypeVar

from bot.engine import effects, saving
from bot.engine.actions import Action, ActionKind
from bot.engine.base import DEAL, TableGame, shuffle
from bot.engine.cards import Card, Color, Face, Rank, Side
from bot.engine.errors import (
    BadColor,
    BadOption,
    BadTarget,
    CannotChallenge,
    CannotDiscard,
    CannotJumpIn,
    CatchRefused,
    ColorRequired,
    IllegalPlay,
    MustPlayDrawn,
    NoBluffing,
    NoSuchCard,
    NotExpected,
    NotPlayable,
    NotYourTurn,
    RoundOver,
    TargetRequired,
    UnoError,
    UnoRefused,
)
from bot.engine.events import Event, EventKind
from bot.engine.options import NOTHING, HouseRule, Options, Pending, PendingKind
from bot.engine.scoring import close_round
from bot.engine.variants import Variant, get_variant

# Enum members read on every decision, bound once: in Python 3.11 reading ``PendingKind.TURN``
# goes through ``EnumType.__getattr__``'s hook, about ten times the cost of reading a global.
_PENDING_TURN, _PENDING_DRAW_DECISION = PendingKind.TURN, PendingKind.DRAW_DECISION
_PENDING_CHALLENGE, _PENDING_PENALTY, _PENDING_HOWLER = (
    PendingKind.CHALLENGE,
    PendingKind.PENALTY,
    PendingKind.HOWLER,
)
_LIGHT, _KIND_PLAY, _KIND_DRAW = Side.LIGHT, ActionKind.PLAY, ActionKind.DRAW
_PLAYED, _DRAWN = EventKind.CARD_PLAYED, EventKind.CARDS_DRAWN

HAND_SIZE = 7
LEFT, RIGHT = 1, -1
REPETITIONS = 3
UNFOLLOWED_KEPT = 3
"""How many of a player's latest draws on their turn :attr:`Game.unfollowed` keeps."""
"""The same position after a rebuilt draw pile this many times voids the round (docs/rules.md ruling 46)."""


def _as_color(color: Color | str | None) -> Color | None:
    if color is None or isinstance(color, Color):
        return color
    try:
        return Color(color.strip().lower())
    except ValueError:
        raise BadColor.of("There is no color called {color}.", color=color) from None


def _names(cards: Iterable[Card]) -> list[str]:
    return [c.name for c in cards]


class Unfollowed(NamedTuple):
    """A turn on which a player drew instead of playing (docs/rules.md §1.6), or played a wild
    from their hand: they then held no other card they chose to play on ``color`` or ``rank``
    (usually none they could play), and still hold at least ``held`` of the cards they held then
    (minus those played since; for a wild, the cards left beside it; for a draw on which the turn
    passed at once, the cards drawn too, which could not be played either). A wild's note also
    keeps the color its player named (``named``: usually the one they held most of then)."""

    side: Side
    """The side in play then (the faces that counted)."""
    color: Color | None
    """The current color then."""
    rank: Rank
    """The top card's rank then."""
    held: int
    """How many cards of the hand held then may remain (its size then, less plays since; >= 1)."""
    named: Color | None = None
    """The color named with the wild played then (None: a draw, or no color named)."""

    def to_list(self) -> list[Any]:
        """JSON-safe form: ``[side, color or None, rank, held]``, and the color named if any."""
        data = [self.side.value, _color_name(self.color), self.rank.value, self.held]
        if self.named is not None:
            data.append(self.named.value)
        return data

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> Unfollowed:
        """The inverse of :meth:`to_list`. Raises ValueError: a bad value."""
        side, color, rank, held, *named = data
        return cls(
            Side(side),
            Color(color) if color else None,
            Rank(rank),
            int(held),
            Color(named[0]) if named else None,
        )


class Game(TableGame[Card, Action, Event]):
    """A game of UNO in any edition: seats, rounds and running scores.

    Create it, then :meth:`start_round`; act through the action methods (or :meth:`apply`), each of
    which validates, changes the game and returns the :class:`Event`\\s it caused, or raises an
    :class:`UnoError` and changes nothing.

    Card effects (effects.py) act through a small public surface that neither validates nor
    returns events: :meth:`emit`, :meth:`next_seat`, :meth:`set_turn`, :meth:`pass_turn`,
    :meth:`draw_cards`, :meth:`take_penalty`, :meth:`hit`, :meth:`shielded`, :meth:`block`,
    :meth:`show_hand_to`, :meth:`flip`, :meth:`swap_hands`, :meth:`pass_hands`, and the
    attributes below.

    Attributes:
        players: every seat in order, including players who left (see :meth:`seated`).
        variant: the edition.
        options: the host's options.
        scores: running score per player (or per team, key ``"ana+cy"``), in points.
        hands: each seated player's cards.
        draw_pile: the draw pile, top card LAST.
        discard_pile: the discard pile, top card LAST.
        side: the active side (always light outside Flip).
        color: the current color (None while a color is being named).
        direction: +1 (to the left, seat order) or -1 (to the right).
        pending: the one decision the engine waits for.
        version: a counter bumped by every accepted action (stale-button checks).
        protected: the player Save The Day protects, or None (see :meth:`shielded`).
        unfollowed: per player, the turns of this round they drew on instead of playing, or
            played a wild from their hand on (:class:`Unfollowed`, oldest first): public, for
            the hard AI's sampling.
        revealed: per viewer, per player whose hand was shown to them this round
            (:meth:`show_hand_to`), the card names seen that the player still holds: a card the
            player plays or discards since leaves the list (if it is there: else it was one
            drawn since), and the list follows the hand when hands move; the viewer's own
            knowledge, which the hard AI's sampling reads.
    """

    # Slots: faster attribute access than an instance dict (a Game has more attributes than
    # CPython shares dict keys for) and less memory. Those every edition has are TableGame's.
    __slots__ = (
        "_effects",
        "_jump_in",
        "_no_bluffing",
        "_notes",
        "_reshuffled",
        "_rng",
        "_rng_saved",
        "_sheds",
        "_special_ranks",
        "_target_ranks",
        "_unfollowed",
        "_until_playable",
        "_victim_ranks",
        "color",
        "direction",
        "drawn",
        "protected",
        "repeats",
        "revealed",
        "side",
        "variant",
    )

    _IDLE = PendingKind.NONE
    _JOURNAL_BY_SEAT = True

    _parse_action = staticmethod(Action.parse)

    @staticmethod
    def _entry_text(action: Action) -> str:
        return _journal_text(action)

    @property
    def variant_id(self) -> str:
        """The edition's id (``variant.id``)."""
        return self.variant.id

    def __init__(
        self,
        players: Sequence[str],
        *,
        variant: str = "classic",
        options: Options | None = None,
        seed: int | None = None,
    ) -> None:
        """Seat the players.

        Args:
            players: 2-10 distinct player ids in seat order.
            variant: a variant id of docs/rules.md §6-§11.
            options: the host's options (defaults: the official rules).
            seed: seed of the game's random generator (None: a random seed).

        Raises:
            BadOption: wrong player count, duplicate ids, an unknown variant, or options that
                don't go together or don't fit the players (:meth:`Options.validate`).
        """
        self.variant: Variant = get_variant(variant)
        self.options: Options = options or Options()
        self.players: list[str] = list(players)
        _check_players(self.players)
        self.options.validate(self.players)
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        self.out: dict[str, str] = {}
        self.scores: dict[str, int] = dict.fromkeys(self._team_keys(), 0)
        self.deck: list[Card] = self.variant.build_deck(self.rng)
        self._derive()
        self.round_no = 0
        self.dealer: str | None = None
        self.version = 0
        # An entry's action is kept as applied and written as text when the journal is read
        # (each save reads it): the text costs more than the rest of a move.
        self._journal: list[tuple[str | None, str | Action]] | None = []
        self.game_over = False
        self.winners: list[str] = []
        self._reset_round()

    # ------------------------------------------------------------------ setup

    def _derive(self) -> None:
        """Values that follow from the variant and options, kept for speed (worked out once
        per variant and options: a new game costs no more than a copy)."""
        key = (self.variant.id, self.options)
        derived = _DERIVED.get(key)
        if derived is None:
            rules = self.options.house_rules
            seven_o = HouseRule.SEVEN_O in rules
            derived = _Derived(
                HouseRule.NO_BLUFFING in rules,
                HouseRule.JUMP_IN in rules,
                HouseRule.DRAW_UNTIL_PLAYABLE in rules,
                effects.target_ranks(self),
                # The ranks whose victim gets a decision, and the effects a play carries out (a
                # 0 or 7 without Seven-O only passes the turn, as a number does).
                frozenset(r for r in Rank if effects.victim_decides(self, r)),
                {r: e for r, e in effects.EFFECTS.items() if seven_o or r not in (Rank.SEVEN, Rank.ZERO)},
            )
            if len(_DERIVED) >= _DERIVED_KEPT:  # hosts' options vary little: a bound, not an LRU
                _DERIVED.clear()
            _DERIVED[key] = derived
        self._no_bluffing, self._jump_in, self._until_playable = derived[0], derived[1], derived[2]
        self._target_ranks = self._special_ranks = derived[3]  # non-wild ranks that need a target
        self._victim_ranks, self._effects = derived[4], derived[5]

    def _reset_round(self) -> None:
        self.hands: dict[str, list[Card]] = {p: [] for p in self.seated}
        self.draw_pile: list[Card] = []
        self.discard_pile: list[Card] = []
        self.side = Side.LIGHT
        self.color: Color | None = None
        self.direction = LEFT
        self.pending: Pending = NOTHING
        self.called: set[str] = set()
        self.catchable: set[str] = set()
        self.protected: str | None = None
        self.revealed: dict[str, dict[str, list[str]]] = {}
        self.drawn: Card | None = None
        self.round_over = False
        self.round_winner: str | None = None
        self.round_points = 0
        self.repeats: dict[str, int] = {}
        self._notes: dict[str, list[tuple[Side, Color | None, Rank, int, Color | None]]] = {}
        self._sheds: dict[str, int] = {}
        self._unfollowed: dict[str, list[Unfollowed]] | None = {}
        self._reshuffled = False
        self._events: list[Event] = []

    def start_round(self) -> list[Event]:
        """Choose the dealer, deal seven cards each and turn the start card (docs/rules.md §1.2-§1.4).

        Round 1's dealer is chosen by a draw (highest number deals; actions and wilds count as
        zero; tied players draw again); later rounds pass the deal to the left.

        Returns:
            The events of the deal (``round-started``, ``dealer-drawn``, the start card's own).

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
        if self.dealer is None:
            self.dealer = self._draw_for_dealer(cards)
        else:
            self.dealer = self.next_seat(self.dealer, LEFT)
        self.emit(EventKind.ROUND_STARTED, None, round=self.round_no, dealer=self.dealer)
        shuffle(self.rng, cards)
        seated = self.seated  # the dealer among them; the deal starts on their left
        at = seated.index(self.dealer) + 1
        order = seated[at:] + seated[:at]
        # One card at a time to each player in order, from the top (the end) of the shuffled cards.
        dealt = cards[: -HAND_SIZE * len(order) - 1 : -1]
        del cards[-HAND_SIZE * len(order) :]
        for i, p in enumerate(order):
            self.hands[p].extend(dealt[i :: len(order)])
        self.draw_pile = cards
        self.discard_pile = [self.draw_pile.pop()]
        self.apply_start_card()
        if self._journal is not None:
            self._journal.append(DEAL)
        return self._flush()

    def _draw_for_dealer(self, cards: list[Card]) -> str:
        contenders = self.seated
        drawn: dict[str, str] = {}
        left = list(range(len(cards)))  # cards not drawn yet (a full shuffle is not needed)
        while True:
            best = -1
            values: dict[str, int] = {}
            for p in contenders:
                if not left:
                    left = list(range(len(cards)))
                card = cards[left.pop(int(self.rng.random() * len(left)))]
                drawn[p] = card.name
                values[p] = card.light.rank.number or 0
                best = max(best, values[p])
            contenders = [p for p in contenders if values[p] == best]
            if len(contenders) == 1:
                self.emit(EventKind.DEALER_DRAWN, None, cards=dict(drawn))
                return contenders[0]

    def apply_start_card(self) -> None:
        """Carry out the start card on top of the discard pile (docs/rules.md §1.4 table; rulings 3-5).

        Called by :meth:`start_round`; public for scenario deals that are "just dealt".
        """
        assert self.dealer is not None
        put_back = self.variant.put_back
        top = self.discard_pile[-1]
        while top.face(self.side).rank in put_back and any(
            c.face(self.side).rank not in put_back for c in self.draw_pile
        ):
            self.discard_pile.pop()
            self.draw_pile.insert(self.rng.randrange(len(self.draw_pile) + 1), top)
            self.emit(EventKind.START_CARD_RETURNED, None, card=top.name)
            top = self.draw_pile.pop()
            self.discard_pile.append(top)
        first = self.next_seat(self.dealer)
        face = top.face(self.side)
        flipped = face.rank is Rank.FLIP
        if flipped:
            self.flip()
            face = self.top
        if face.wild:
            self.color = None
            self.pending = Pending(PendingKind.COLOR, first, resume=first, resume_self=True)
            return
        self.color = face.color
        if flipped:  # the Flip start card's dark face, its action not carried out (docs/rules.md ruling 5)
            self.set_turn(first)
        elif face.rank is Rank.REVERSE:
            self.direction = RIGHT
            self.emit(EventKind.DIRECTION_REVERSED, None, direction="right")
            self.set_turn(self.dealer)
        elif face.rank is Rank.SKIP or face.rank.draw_count:
            self.hit(first, face.rank, face.rank.draw_count, answerable=False)
        else:
            self.set_turn(first)

    # ------------------------------------------------------------------ queries

    @property
    def top(self) -> Face:
        """The active face of the top card of the discard pile."""
        return self.discard_pile[-1].face(self.side)

    @property
    def colors(self) -> tuple[Color, ...]:
        """The colors that may be named now (the active side's four)."""
        return Color.of_side(self.side)

    def playable(self, player: str, card: Card) -> bool:
        """True if ``card`` may be played now on the top card by ``player`` (docs/rules.md §1.5;
        no bluffing: §4.6)."""
        if self.side is Side.LIGHT:
            face, top = card.light, self.discard_pile[-1].light
        else:
            face, top = card.back, self.discard_pile[-1].back
        if face.wild:
            return not (face.restricted and self._no_bluffing and self._holds_color(player, self.color))
        return face.color is self.color or face.rank is top.rank

    def _holds_color(self, player: str, color: Color | None) -> bool:
        light = self.side is _LIGHT
        for card in self.hands[player]:
            f = card.light if light else card.back  # card.face, without a call per card
            if f.color is color and not f.wild:
                return True
        return False

    def can_call_uno(self, player: str) -> bool:
        """True if a UNO call by ``player`` would count now (docs/rules.md §1.7, ruling 10)."""
        hand = self.hands.get(player)
        if hand is None or len(hand) > 2 or self.round_over or player in self.called:
            return False
        if len(hand) == 1:
            return True
        # Two cards count on one's own decision: a turn, a drawn card, a penalty one may answer
        # by playing (Invisibility, stacking: that turn's play) or a Wild Super Hero discard.
        p = self.pending
        return p.player == player and p.kind in _OWN_DECISIONS

    def hand_value(self, player: str) -> int:
        """Points of the cards in ``player``'s hand on the active side."""
        side = self.side
        return sum(self.variant.value(c.face(side), side) for c in self.hands.get(player, ()))

    def most_held_color(self, player: str) -> Color:
        """The active color ``player`` holds most of (ties: color order); timeouts use it."""
        return self._most_of(self.hands.get(player, []))

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, player: str) -> list[Action]:
        """Every concrete action ``player`` may take now (excluding ``leave`` and ``timeout``):
        :meth:`decisions`, then the calls anyone may make (UNO, catch, jump-in).

        Wilds are listed once per color they may name (and per target they need).
        """
        out = self.decisions(player)
        if not out and (self.round_over or player not in self.hands):
            return out
        if self.can_call_uno(player):
            out.append(_UNO)
        out.extend(Action(ActionKind.CATCH, target=t) for t in self.catch_targets(player))
        if self._jump_in and self.pending.kind is PendingKind.TURN and self.pending.player != player:
            for card in dict.fromkeys(self.hands[player]):
                if self._identical_to_top(card):
                    out.extend(self._expand(ActionKind.JUMP_IN, player, card))
        return out

    def completions(self, player: str, action: Action) -> list[Action]:
        """The legal actions of ``player`` (:meth:`legal_actions`) that agree with ``action``:
        the same kind, and the same card, color and target wherever ``action`` sets one (None
        is a wildcard), and a decline if it declines.

        For choices made in two steps: a hand button carries a partial action (a wild without
        its color, a Howler without its target). If the action is among its own completions, it
        is legal as it stands; otherwise the completions show what is still missing (a color
        first, then a target); if there are none, the game refuses the action (:meth:`apply`
        says why).

        :meth:`legal_actions` lists one form of each choice, which the game always accepts; the
        game also accepts a few forms it does not list, which are then not completions of
        themselves: a last card without its color (Wild Draw Color excepted) or its target;
        a color or a target for a card that takes none (they are ignored); a jump-in by the
        player whose turn it is (listed as a play of that card); ``leave`` and ``timeout``.
        So a two-step button asks for a last wild's color, as for any other.

        >>> from bot.engine.cards import Card
        >>> game, _ = Game.from_deal(
        ...     ["ana", "ben"], variant="harry-potter", dealer="ben", color=Color.RED,
        ...     hands={"ana": [Card.parse("howler"), Card.parse("red 2")], "ben": [Card.parse("red 3")]},
        ...     draw_pile=[], discard_pile=[Card.parse("red 9")])
        >>> howler = Action(ActionKind.PLAY, Card.parse("howler"))
        >>> [a.text() for a in game.completions("ana", howler)][:2]
        ['play howler color=red target=ben', 'play howler color=yellow target=ben']
        >>> red = howler._replace(color=Color.RED)
        >>> [a.text() for a in game.completions("ana", red)]
        ['play howler color=red target=ben']
        >>> done = red._replace(target="ben")
        >>> game.completions("ana", done) == [done]
        True
        >>> game.completions("ana", done._replace(target="cy"))
        []
        """
        kind, card, color, target, decline = action
        return [
            a
            for a in self.legal_actions(player)
            if a.kind == kind
            and (card is None or a.card is card)
            and (color is None or a.color is color)
            and (target is None or a.target == target)
            and (not decline or a.decline)
        ]

    def decisions(self, player: str) -> list[Action]:
        """The actions that resolve the pending decision, if it is ``player``'s (else [])."""
        p = self.pending
        if p.player != player or self.round_over:
            return []
        out: list[Action] = []
        hand = self.hands[player]
        kind = p.kind
        if kind is _PENDING_TURN:
            light, color = self.side is _LIGHT, self.color
            top = self.discard_pile[-1]
            top_rank = (top.light if light else top.back).rank
            bluff_ok = not self._no_bluffing or not self._holds_color(player, color)
            special = self._special_ranks
            listed: list[Card] = []  # each card once, in hand order (cheaper than dict.fromkeys)
            for card in hand:
                face = card.light if light else card.back
                if face.wild:
                    if not bluff_ok and face.restricted:
                        continue
                elif face.color is not color and face.rank is not top_rank:
                    continue
                if card in listed:
                    continue
                listed.append(card)
                if face.wild or face.rank in special:
                    out.extend(self._expand(_KIND_PLAY, player, card))
                else:
                    out.append(_PLAY_ACTIONS[card])
            out.append(DRAW)
        elif kind is _PENDING_DRAW_DECISION:
            assert self.drawn is not None
            out.extend(self._expand(ActionKind.PLAY_DRAWN, player, self.drawn))
            if HouseRule.FORCED_PLAY not in self.options.house_rules:
                out.append(_KEEP)
        elif kind in (_PENDING_PENALTY, _PENDING_CHALLENGE, _PENDING_HOWLER):
            out.append(_REVEAL if kind is _PENDING_HOWLER else _ACCEPT)
            if kind is _PENDING_CHALLENGE:
                out.append(_CHALLENGE)
            for card in dict.fromkeys(hand):
                if effects.answer(self, card.face(self.side)):
                    out.extend(self._expand(_KIND_PLAY, player, card))
        elif kind is PendingKind.COLOR:
            out.extend(_actions(ActionKind.CHOOSE_COLOR, None, self.colors))
        elif kind is PendingKind.DISCARD:
            out.extend(Action(ActionKind.DISCARD, card=c) for c in dict.fromkeys(hand))
            out.append(_DECLINE)
        return out

    def _expand(self, kind: ActionKind, player: str, card: Card) -> Sequence[Action]:
        side = self.side
        if (card.light if side is _LIGHT else card.back).rank not in self._target_ranks:
            return _EXPANDED[kind, card, side]
        targets = [t for t in self.seated if t != player]
        return [Action(kind, card, c, t) for c in _named_colors(card, side) for t in targets]

    def _jump_in_open(self) -> bool:
        return self._jump_in and self.pending.kind is PendingKind.TURN

    def _identical_to_top(self, card: Card) -> bool:
        face = card.face(self.side)
        return not face.wild and face == self.top

    # ------------------------------------------------------------------ actions

    def apply(self, player: str, action: Action) -> list[Event]:
        """Carry out an :class:`Action` by ``player``: the action method of its kind, by
        :data:`_HANDLERS` (``leave`` and ``timeout`` included), and note it in the
        :attr:`journal`.

        Raises:
            UnoError: as the action's method; ``NotExpected`` for an unknown kind or a missing
                card (``play``, ``jump-in``) or color (``choose-color``).
        """
        kind = action.kind
        card = action.card
        if kind is _KIND_PLAY and card.__class__ is Card:  # the most common: no lookup
            events = self.play(player, card, color=action.color, target=action.target)
            if self._journal is not None:
                self._journal.append((player, action))
            return events
        if kind is _KIND_DRAW:  # the next most common
            events = self.draw(player)
            if self._journal is not None:
                self._journal.append((player, action))
            return events
        try:
            handler = _HANDLERS[kind]
        except KeyError:
            raise NotExpected(f"Unknown action {kind!r}.") from None
        if card is not None and type(card) is not Card and self._journal is not None:
            # A card named by its active face alone is journaled as the card held, which
            # names it whatever side is up when the journal is replayed.
            with contextlib.suppress(UnoError, KeyError):
                action = action._replace(card=self._find(player, card))
        events = handler(self, player, action)
        if self._journal is not None:
            self._journal.append((player, action))
        return events

    def apply_listed(self, player: str, action: Action) -> None:
        """Carry out an action just listed by :meth:`decisions` or :meth:`legal_actions` for
        ``player``, without validating it: the fast path of search playouts (``ai`` level hard).

        The result is that of :meth:`apply` for a listed action (journal included); for any
        other action it is undefined, so callers pass only listed actions, unchanged. Events are
        not returned.
        """
        kind = action.kind
        if kind is _KIND_PLAY and action.card is not None:
            card = action.card
            if self.pending.kind is _PENDING_TURN:
                self.catchable.clear()  # a turn begins (docs/rules.md §1.7)
                self._play(player, card, action.color, action.target)
            else:
                how = effects.answer(self, card.face(self.side))
                assert how is not None
                self._answer(player, card, action.color, how)
        elif kind is _KIND_DRAW:
            self.catchable.clear()
            self._draw_for_turn(player, True)
        elif kind is ActionKind.PLAY_DRAWN and self.drawn is not None:
            card, self.drawn = self.drawn, None
            self._play(player, card, action.color, action.target)
        else:  # rarer kinds: their validating method
            _HANDLERS[kind](self, player, action)
            if self._journal is not None:
                self._journal.append((player, action))
            return
        self._flush()
        if self._journal is not None:
            self._journal.append((player, action))

    def copy(self, *, journal: bool = True, rng: random.Random | None = None) -> Game:
        """An independent copy of the game, cheaper than ``from_dict(to_dict())``: cards, faces,
        options and the variant are immutable and shared; lists, dicts and sets are copied.

        Args:
            journal: False: the copy keeps no journal (:attr:`journal` is None), for speed.
            rng: the copy's random generator (its own from then on); None: a copy of this
                game's generator in its current state.
        """
        new = Game.__new__(Game)
        new.variant, new.options, new.players, new.seed = (
            self.variant,
            self.options,
            list(self.players),
            self.seed,
        )
        if rng is None:
            rng = random.Random.__new__(random.Random)
            rng.setstate(self._rng.getstate())
            new._rng, new._rng_saved = rng, self._rng_saved
        else:
            new.rng = rng
        new._no_bluffing, new._jump_in = self._no_bluffing, self._jump_in
        new._target_ranks, new._special_ranks = self._target_ranks, self._special_ranks
        new._until_playable, new._victim_ranks, new._effects = (
            self._until_playable,
            self._victim_ranks,
            self._effects,
        )
        new.out, new.scores, new.deck = dict(self.out), dict(self.scores), self.deck  # the deck never changes
        new.round_no, new.dealer, new.version = self.round_no, self.dealer, self.version
        new._journal = list(self._journal) if journal and self._journal is not None else None
        new.game_over, new.winners = self.game_over, list(self.winners)
        new.hands = {p: list(h) for p, h in self.hands.items()}
        new.draw_pile, new.discard_pile = list(self.draw_pile), list(self.discard_pile)
        new.side, new.color, new.direction, new.pending = self.side, self.color, self.direction, self.pending
        new.called, new.catchable, new.protected = set(self.called), set(self.catchable), self.protected
        new.revealed = {v: {t: list(c) for t, c in r.items()} for v, r in self.revealed.items()}
        new.drawn, new.round_over, new.round_winner = self.drawn, self.round_over, self.round_winner
        new.round_points, new.repeats = self.round_points, dict(self.repeats)
        new._notes, new._sheds = {p: list(n) for p, n in self._notes.items()}, dict(self._sheds)
        new._unfollowed = None
        new._reshuffled, new._events = self._reshuffled, list(self._events)
        return new

    def play(
        self,
        player: str,
        card: Card | str,
        *,
        color: Color | str | None = None,
        target: str | None = None,
    ) -> list[Event]:
        """Play a card from the hand: on one's turn, or as an answer to a pending penalty
        (stacking, Invisibility) or Howler (docs/rules.md §1.5, §4.1, §9.6-§9.7).

        Args:
            player: who plays.
            card: the card, or its text (the active face alone is enough for two-sided cards).
            color: the color named with a wild (not needed for a last card, Wild Super Hero or
                Wild Villain).
            target: the picked player for Howler, Save The Day, a Seven-O 7 or a hand swap.

        Raises:
            NotInGame, RoundOver, NotYourTurn, NotExpected, NoSuchCard, IllegalPlay,
            ColorRequired, BadColor, TargetRequired, BadTarget, NoBluffing.
        """
        p = self.pending
        if p.player != player or self.round_over or self.game_over or player in self.out:
            self._check_actor(player)  # raises the reason (an unknown player is nobody's turn)
            raise NotYourTurn()
        found = card if card.__class__ is Card and card in self.hands[player] else self._find(player, card)
        named = color if color is None or color.__class__ is Color else _as_color(color)
        if p.kind is _PENDING_TURN:
            face = found.light if self.side is _LIGHT else found.back
            if face.wild or face.rank in self._target_ranks:
                self._validate_play(player, found, named, target)
            elif face.color is not self.color and face.rank is not self.top.rank:
                raise IllegalPlay()  # (the rest of _validate_play concerns wilds and targets)
            self.catchable.clear()  # a turn begins (docs/rules.md §1.7)
            self._play(player, found, named, target)
        elif p.kind is _PENDING_DRAW_DECISION:
            raise NotExpected("Play the card you drew, or keep it.")
        elif p.kind in (_PENDING_PENALTY, _PENDING_CHALLENGE, _PENDING_HOWLER):
            how = effects.answer(self, found.face(self.side))
            if how is None:
                raise IllegalPlay("That card can't answer this. Accept it, or answer with a card that can.")
            self._validate_play(player, found, named, target, answer=True)
            self._answer(player, found, named, how)
        else:
            raise NotExpected()
        return self._flush()

    def draw(self, player: str) -> list[Event]:
        """Draw for the turn (docs/rules.md §1.6; house rule draw-until-playable, §4.4).

        A playable drawn card waits for :meth:`play_drawn` or :meth:`keep`; otherwise (or if
        nothing could be drawn) the turn passes.

        Raises:
            NotInGame, RoundOver, NotYourTurn, NotExpected.
        """
        p = self.pending
        if (
            p.player != player
            or p.kind is not _PENDING_TURN
            or self.round_over
            or self.game_over
            or player in self.out
            or player not in self.hands
        ):
            self._expect(player, _PENDING_TURN)  # raises the reason
        self.catchable.clear()  # a turn begins (docs/rules.md §1.7)
        self._draw_for_turn(player, True)
        return self._flush()

    def _note_unfollowed(self, player: str, named: Color | None = None, playable: int = 0) -> None:
        """``player`` chose to draw on their turn (now with the cards drawn, of which the last
        ``playable`` could be played), or to play a wild from their hand (which is now without
        it) naming ``named``: note what they did not follow and the color named (the last
        :data:`UNFOLLOWED_KEPT` such turns)."""
        shed = self._sheds.get(player, 0)
        notes = self._notes.get(player)
        if notes is None:
            notes = self._notes[player] = []
        elif len(notes) >= UNFOLLOWED_KEPT:  # keep the latest that may still be held
            notes[:] = [n for n in notes if n[3] > shed]  # (others are left out of unfollowed)
        side = self.side
        top = self.discard_pile[-1]
        rank = (top.light if side is Side.LIGHT else top.back).rank
        notes.append((side, self.color, rank, len(self.hands[player]) - playable + shed, named))
        if len(notes) > UNFOLLOWED_KEPT:
            del notes[0]
        self._unfollowed = None

    def _shed(self, player: str) -> None:
        """A card left ``player``'s hand by their own play or discard: one fewer of the cards
        held at each :attr:`unfollowed` turn may remain (counted, not written into each note:
        this runs on most plays, :attr:`unfollowed` is read once a search decision)."""
        self._sheds[player] = self._sheds.get(player, 0) + 1
        self._unfollowed = None

    @property
    def unfollowed(self) -> dict[str, list[Unfollowed]]:
        """Per player, the turns of this round they drew on instead of playing, or played a wild
        from their hand on (:class:`Unfollowed`, oldest first, at most :data:`UNFOLLOWED_KEPT`;
        a note goes when none of the cards it counts may remain): public, for the hard AI's
        sampling. Read-only: assign a new mapping to change it."""
        view = self._unfollowed
        if view is None:
            # A note keeps the hand's size then plus the cards shed before it (``_sheds``);
            # the cards shed since make the difference.
            view = self._unfollowed = {}
            for p, notes in self._notes.items():
                shed = self._sheds.get(p, 0)
                view[p] = [
                    _new_note(Unfollowed, (n[0], n[1], n[2], n[3] - shed, n[4])) for n in notes if n[3] > shed
                ]
        return view

    @unfollowed.setter
    def unfollowed(self, notes: Mapping[str, Sequence[Unfollowed]]) -> None:
        self._notes = {p: [(n[0], n[1], n[2], n[3], n[4]) for n in ns] for p, ns in notes.items()}
        self._sheds = {}
        self._unfollowed = None

    def _draw_for_turn(self, player: str, noted: bool = False) -> Card | None:
        """Draw for the turn; ``noted``: the player chose to, so it is noted in :attr:`unfollowed`
        after the draw, with the cards drawn that could not be played (in view: the turn passed
        on them)."""
        drawn: list[Card] = []
        until = self._until_playable
        while True:
            card = self._take()
            if card is None:
                break
            drawn.append(card)
            if not until or self.playable(player, card):
                break
        self._give(player, drawn, "turn")
        if drawn and self.playable(player, drawn[-1]):
            self.drawn = drawn[-1]
            self.pending = _DRAW_DECISIONS[player]
            if noted:
                self._note_unfollowed(player, playable=1)
            return drawn[-1]
        if noted:
            self._note_unfollowed(player)
        self.pass_turn(player)
        return None

    def play_drawn(
        self, player: str, *, color: Color | str | None = None, target: str | None = None
    ) -> list[Event]:
        """Play the card just drawn (docs/rules.md §1.6, ruling 6).

        Raises:
            NotInGame, RoundOver, NotYourTurn, NotPlayable, ColorRequired, BadColor,
            TargetRequired, BadTarget.
        """
        self._check_actor(player)
        if self.pending.player != player:
            raise NotYourTurn()
        if self.pending.kind is not _PENDING_DRAW_DECISION or self.drawn is None:
            raise NotPlayable()
        named = _as_color(color)
        self._validate_play(player, self.drawn, named, target)
        card, self.drawn = self.drawn, None
        self._play(player, card, named, target)
        return self._flush()

    def keep(self, player: str) -> list[Event]:
        """Keep the card just drawn; the turn passes.

        Raises:
            NotInGame, RoundOver, NotYourTurn, NotExpected, MustPlayDrawn (house rule forced-play).
        """
        self._expect(player, PendingKind.DRAW_DECISION)
        if self.options.has(HouseRule.FORCED_PLAY):
            raise MustPlayDrawn()
        self.drawn = None
        self.emit(EventKind.DRAWN_CARD_KEPT, player)
        self.pass_turn(player)
        return self._flush()

    def call_uno(self, player: str) -> list[Event]:
        """Call UNO (docs/rules.md §1.7).

        Raises:
            NotInGame, RoundOver, UnoRefused: not holding one card, or two on one's own turn, or
                already called.
        """
        self._check_actor(player)
        if not self.can_call_uno(player):
            if player in self.called:
                raise UnoRefused("You have already called UNO.")
            raise UnoRefused()
        self.called.add(player)
        self.catchable.discard(player)
        self.emit(EventKind.UNO_CALLED, player)
        return self._flush()

    def catch_targets(self, player: str) -> list[str]:
        """The players ``player`` may catch now, in seat order: those in a catch window, less
        themself and, with partners, their partner (docs/rules.md §3.2)."""
        if not self.catchable:
            return []
        team = self.team_of(player)
        return [t for t in self.seated if t in self.catchable and self.team_of(t) != team]

    def catch(self, catcher: str, target: str) -> list[Event]:
        """Catch a player who went down to one card without calling UNO: they draw two.

        Raises:
            NotInGame, RoundOver, CatchRefused: the target called, holds more than one card, the
                window closed, or the catcher is the target or (with partners) their partner.
        """
        self._check_actor(catcher)
        if target == catcher:
            raise CatchRefused("You can't catch yourself.")
        if target in self.players and self.team_of(target) == self.team_of(catcher):
            raise CatchRefused("They're your partner.")
        if target not in self.hands:
            raise CatchRefused("That player isn't in this game.")
        if target in self.called:
            raise CatchRefused("They called UNO in time.")
        if len(self.hands[target]) != 1:
            raise CatchRefused("They hold more than one card.")
        if target not in self.catchable:
            raise CatchRefused("Too late: the next turn has begun.")
        self.emit(EventKind.PLAYER_CAUGHT, target, by=catcher)
        self.draw_cards(target, 2, "catch")
        return self._flush()

    def challenge(self, player: str) -> list[Event]:
        """Challenge the restricted wild just played on you (docs/rules.md §1.9).

        Raises:
            NotInGame, RoundOver, CannotChallenge: no challenge is open for this player.
        """
        self._check_actor(player)
        p = self.pending
        if p.kind is not PendingKind.CHALLENGE or p.player != player:
            raise CannotChallenge()
        bluffer = p.source
        assert bluffer is not None and p.rank is not None
        self.show_hand_to(bluffer, [player], p.rank)
        guilty = self._holds_color(bluffer, p.prev_color) if p.guilty is None else p.guilty
        self.emit(EventKind.CHALLENGE, bluffer, by=player, guilty=guilty)
        if guilty:
            self.take_penalty(bluffer, p.rank, p.total, "challenge")
            self.set_turn(player)
        else:
            self.take_penalty(player, p.rank, p.total, "challenge")
            self.draw_cards(player, 2, "challenge")
            self._lose_turn(player)
        return self._flush()

    def accept(self, player: str) -> list[Event]:
        """Take the pending penalty and lose the turn (no challenge, no answer).

        Raises:
            NotInGame, RoundOver, NotYourTurn, NotExpected.
        """
        self._check_actor(player)
        p = self.pending
        if p.player != player:
            raise NotYourTurn()
        if p.kind not in (PendingKind.PENALTY, PendingKind.CHALLENGE):
            raise NotExpected()
        assert p.rank is not None
        self.take_penalty(player, p.rank, p.total, "penalty")
        self._lose_turn(player)
        return self._flush()

    def discard(self, player: str, card: Card | str | None) -> list[Event]:
        """Wild Super Hero: discard one card beneath the top card, or decline with None.

        Raises:
            NotInGame, RoundOver, CannotDiscard, NoSuchCard.
        """
        self._check_actor(player)
        p = self.pending
        if p.kind is not PendingKind.DISCARD or p.player != player:
            raise CannotDiscard()
        if card is None:
            self.emit(EventKind.CARD_DISCARDED, player, declined=True)
        else:
            found = self._find(player, card)
            self.hands[player].remove(found)
            self._shed(player)
            if self.revealed:
                self._unshow(player, found)
            self.discard_pile.insert(len(self.discard_pile) - 1, found)
            self.emit(EventKind.CARD_DISCARDED, player, card=found.name)
            self._hand_shrank(player)
            if not self.hands[player]:
                self._end_round(player)
                return self._flush()
        self.pending = Pending(PendingKind.COLOR, player, resume=p.source)
        return self._flush()

    def choose_color(self, player: str, color: Color | str) -> list[Event]:
        """Name the color when the engine asks (a wild start card, a flip onto a wild,
        Wild Super Hero / Wild Villain).

        Raises:
            NotInGame, RoundOver, NotYourTurn, NotExpected, BadColor.
        """
        self._expect(player, PendingKind.COLOR)
        named = self._check_color(_as_color(color))
        self.color = named
        self.emit(EventKind.COLOR_NAMED, player, color=named.value)
        self._resume(self.pending)
        return self._flush()

    def reveal(self, player: str) -> list[Event]:
        """Howler target: let the hand be shown to the table.

        Raises:
            NotInGame, RoundOver, NotYourTurn, NotExpected.
        """
        self._expect(player, PendingKind.HOWLER)
        source = self.pending.source
        assert source is not None
        self.show_hand_to(player, [v for v in self.seated if v != player], Rank.HOWLER)
        self.pass_turn(source)
        return self._flush()

    def jump_in(
        self,
        player: str,
        card: Card | str,
        *,
        color: Color | str | None = None,
        target: str | None = None,
    ) -> list[Event]:
        """House rule jump-in: play a card identical to the top card out of turn (docs/rules.md §4.2).

        Raises:
            NotInGame, RoundOver, CannotJumpIn, NoSuchCard, TargetRequired, BadTarget.
        """
        self._check_actor(player)
        if not self._jump_in_open():
            raise CannotJumpIn("Jump-in isn't possible now.")
        found = self._find(player, card)
        if not self._identical_to_top(found):
            raise CannotJumpIn()
        self._validate_play(player, found, _as_color(color), target)
        self._turn_begins()
        self._play(player, found, _as_color(color), target, jump_in=True)
        return self._flush()

    def leave(self, player: str) -> list[Event]:
        """A player leaves (or is removed): docs/rules.md §5.1.

        Their hand is shuffled into the draw pile; their score stays but they can't win; a
        decision of theirs gets its default move; a challenge they opened is cancelled.

        Raises:
            NotInGame: not seated.
        """
        self._check_seated(player)
        p = self.pending
        self.emit(EventKind.PLAYER_LEFT, player)
        hand = self.hands.pop(player, [])
        deciding = not self.round_over and not self.game_over and p.player == player
        if deciding and p.kind in (PendingKind.COLOR, PendingKind.DISCARD):
            self.color = self._most_of(hand)
            self.emit(EventKind.COLOR_NAMED, player, color=self.color.value)
        if self.protected == player:
            self.protected = None
        if self.drawn is not None and p.player == player:
            self.drawn = None
        self._unseat(player, hand)
        if self._one_team_left() or self.round_over:
            return self._flush()
        if p.player == player:
            if p.kind in (PendingKind.COLOR, PendingKind.DISCARD):
                self._resume(p)
            elif p.kind is PendingKind.HOWLER:
                assert p.source is not None
                self.pass_turn(p.source)
            else:
                self.pass_turn(player)
        elif p.kind is PendingKind.CHALLENGE and p.source == player:
            self.emit(EventKind.PENALTY_BLOCKED, p.player, card=p.rank.value if p.rank else None)
            assert p.player is not None
            self.set_turn(p.player)
        return self._flush()

    def timeout(self, player: str) -> list[Event]:
        """The player who must act ran out of time: make their default move (docs/rules.md §5.2).

        Turn: draw and keep (forced play: play a playable drawn card). Penalty or challenge:
        accept. Color: the color they hold most of. Howler: let the hand be shown. Wild Super
        Hero discard: decline.

        Raises:
            NotInGame, RoundOver, NotYourTurn.
        """
        self._check_actor(player)
        p = self.pending
        if p.player != player:
            raise NotYourTurn()
        kind = p.kind
        if kind is PendingKind.TURN:
            self._turn_begins()
            drawn = self._draw_for_turn(player)
            if drawn is not None:
                self._default_drawn(player)
        elif kind is PendingKind.DRAW_DECISION:
            self._default_drawn(player)
        elif kind in (PendingKind.PENALTY, PendingKind.CHALLENGE):
            return self.accept(player)
        elif kind is PendingKind.COLOR:
            return self.choose_color(player, self.most_held_color(player))
        elif kind is PendingKind.HOWLER:
            return self.reveal(player)
        elif kind is PendingKind.DISCARD:
            return self.discard(player, None)
        return self._flush()

    def _default_drawn(self, player: str) -> None:
        assert self.drawn is not None
        if not self.options.has(HouseRule.FORCED_PLAY):
            self.drawn = None
            self.emit(EventKind.DRAWN_CARD_KEPT, player)
            self.pass_turn(player)
            return
        card, self.drawn = self.drawn, None
        face = card.face(self.side)
        color = self.most_held_color(player) if face.wild else None
        target = self.next_seat(player) if face.rank in self._target_ranks else None
        self._play(player, card, color, target)

    # ------------------------------------------------------------------ validation

    def _expect(self, player: str, kind: PendingKind) -> None:
        self._check_actor(player)
        if self.pending.player != player:
            raise NotYourTurn()
        if self.pending.kind is not kind:
            raise NotExpected()

    def _find(self, player: str, card: Card | str) -> Card:
        hand = self.hands[player]
        if isinstance(card, Card):
            if card in hand:
                return card
            raise NoSuchCard()
        try:
            parsed = Card.parse(card)
        except UnoError:
            raise NoSuchCard.of("There is no card called {card}.", card=card) from None
        if parsed.dark is not None:
            if parsed in hand:
                return parsed
            raise NoSuchCard()
        for c in hand:
            if c.face(self.side) == parsed.light or (c.dark is None and c.light == parsed.light):
                return c
        raise NoSuchCard()

    def _check_color(self, color: Color | None) -> Color:
        if color is None:
            raise ColorRequired()
        if color not in self.colors:
            raise BadColor()
        return color

    def _validate_play(
        self,
        player: str,
        card: Card,
        color: Color | None,
        target: str | None,
        *,
        answer: bool = False,
    ) -> None:
        if self.side is _LIGHT:
            face, top = card.light, self.discard_pile[-1].light
        else:
            face, top = card.back, self.discard_pile[-1].back
        if not answer and not (
            (face.color is self.color or face.rank is top.rank)
            if not face.wild
            else self.playable(player, card)
        ):
            if face.wild:
                raise NoBluffing()
            raise IllegalPlay()
        hand = self.hands[player]
        last = len(hand) == 1 and card in hand
        # A wild names its color, except a last card (the round ends) other than Wild Draw
        # Color (the victim draws until that color); Wild Super Hero / Villain's is named later.
        if (
            face.wild
            and face.rank not in effects.VICTIM_NAMES_COLOR
            and (color is not None or not last or face.rank is Rank.WILD_DRAW_COLOR)
        ):
            self._check_color(color)
        if not last and face.rank in self._target_ranks:
            if target is None:
                raise TargetRequired()
            if target == player or target not in self.hands:
                raise BadTarget()

    # ------------------------------------------------------------------ mechanics

    def _flush(self) -> list[Event]:
        if self._reshuffled:
            self._reshuffled = False
            if not self.round_over:
                self._count_position()
        events, self._events = self._events, []
        self.version += 1
        return events

    def _lose_turn(self, player: str) -> None:
        self.emit(EventKind.TURN_SKIPPED, player)
        self.pass_turn(player)

    def _resume(self, p: Pending) -> None:
        assert p.resume is not None
        if p.resume_self and p.resume in self.hands:
            self.set_turn(p.resume)
        else:
            self.pass_turn(p.resume)

    def _turn_begins(self) -> None:
        """A turn begins: every catch window closes (docs/rules.md §1.7)."""
        self.catchable.clear()

    def _take(self) -> Card | None:
        """The top card of the draw pile, reshuffling the discard pile (all but its top) into a
        new draw pile when it is empty (docs/rules.md §1.6, ruling 7). None when nothing is left."""
        if not self.draw_pile:
            if len(self.discard_pile) <= 1:
                return None
            rest = self.discard_pile[:-1]
            del self.discard_pile[:-1]
            shuffle(self.rng, rest)
            self.draw_pile = rest
            self._reshuffled = True
            self.emit(EventKind.DECK_RESHUFFLED, None, count=len(rest))
        return self.draw_pile.pop()

    def _give(self, player: str, cards: list[Card], reason: str) -> None:
        names = [cards[0].name] if len(cards) == 1 else [c.name for c in cards]  # mostly one card
        data = {"count": len(cards), "cards": names, "reason": reason}
        self._events.append(_new_event(Event, (_DRAWN, player, data)))  # emit, inlined
        if cards:
            self.hands[player].extend(cards)
            self.called.discard(player)  # a call lapses when the hand grows
            self.catchable.discard(player)

    def _draw_until(self, player: str, color: Color, reason: str) -> None:
        """Draw one at a time until a card of ``color`` (not a wild) comes, or nothing is left."""
        cards = []
        while True:
            card = self._take()
            if card is None:
                break
            cards.append(card)
            face = card.face(self.side)
            if face.color is color and not face.wild:
                break
        self._give(player, cards, reason)

    def _hand_shrank(self, player: str) -> None:
        """The player's own play (or discard) left them with fewer cards: maybe open a window."""
        if len(self.hands[player]) == 1 and player not in self.called:
            self.catchable.add(player)
        else:
            self.catchable.discard(player)

    def _most_of(self, hand: list[Card]) -> Color:
        counts = dict.fromkeys(self.colors, 0)
        for card in hand:
            f = card.face(self.side)
            if f.color in counts:
                counts[f.color] += 1
        return max(self.colors, key=lambda c: counts[c])  # max keeps the first of equals

    def _after_hands_moved(self, players: list[str]) -> None:
        for p in players:
            if self._notes.pop(p, None) is not None:  # other cards now
                self._unfollowed = None
            self.catchable.discard(p)
            if len(self.hands[p]) != 1:
                self.called.discard(p)

    def _end_protection(self) -> None:
        """A wild other than Save The Day was played: protection ends (docs/rules.md §11.7, ruling 25)."""
        if self.protected:
            self.protected = None
            self.emit(EventKind.PROTECTION_ENDED, None)

    # ------------------------------------------------------------------ the effects' surface
    # What card effects (effects.py) may do to the game. These methods neither validate nor
    # return events: they change the game and record events for the action that runs them.

    def emit(self, kind: EventKind, player: str | None, **data: Any) -> None:
        """Record an event of the running action (returned by the action method).

        Args:
            kind: what happened.
            player: who it happened to or by, if anyone.
            **data: the kind's data keys (events.py's table), JSON-safe.
        """
        self._events.append(_new_event(Event, (kind, player, data)))

    def next_seat(self, player: str, direction: int | None = None, steps: int = 1) -> str:
        """The seated player ``steps`` seats from ``player`` (who may have left).

        Args:
            player: the seat to count from.
            direction: ``LEFT`` (+1, seat order) or ``RIGHT`` (-1); None: the current direction.
            steps: how many seated players to count.

        Returns:
            A seated player, or ``player`` when nobody else is seated.
        """
        d = self.direction if direction is None else direction
        seats = self.players
        n = len(seats)
        i = seats.index(player)
        if not self.out:
            return seats[(i + d * steps) % n]
        count = 0
        for _ in range(n * steps):
            i = (i + d) % n
            if seats[i] not in self.out:
                count += 1
                if count == steps:
                    return seats[i]
        return player

    def set_turn(self, player: str) -> None:
        """Wait on an ordinary turn of ``player``."""
        self.pending = _TURNS[player]

    def pass_turn(self, player: str) -> None:
        """Play continues with the player after ``player`` (an ordinary turn)."""
        self.pending = _TURNS[self.next_seat(player)]

    def draw_cards(self, player: str, count: int, reason: str) -> None:
        """``player`` draws ``count`` cards (fewer if the piles run out; docs/rules.md ruling 7).

        Args:
            reason: the ``cards-drawn`` event's reason (``"penalty"``, ``"catch"``, ...).
        """
        cards = []
        for _ in range(count):
            card = self._take()
            if card is None:
                break
            cards.append(card)
        self._give(player, cards, reason)

    def take_penalty(self, player: str, rank: Rank, total: int, reason: str) -> None:
        """``player`` draws what a penalty card of ``rank`` makes them draw: ``total`` cards, or
        for Wild Draw Color until the current color comes (docs/rules.md §7.9, ruling 11). No protection
        check (see :meth:`shielded`) and no loss of turn.
        """
        if rank is Rank.WILD_DRAW_COLOR:
            assert self.color is not None
            self._draw_until(player, self.color, reason)
        elif total:
            self.draw_cards(player, total, reason)

    def show_hand_to(self, player: str, viewers: Iterable[str], by: Rank) -> None:
        """Show ``player``'s hand to ``viewers`` because of a card of rank ``by`` (a challenged
        restricted wild, Special Agent Mater, Howler): kept in :attr:`revealed` for the round (less
        the cards since played) and announced as ``hand-revealed``."""
        viewers = list(viewers)
        cards = _names(self.hands[player])
        for v in viewers:
            self.revealed.setdefault(v, {})[player] = list(cards)
        self.emit(EventKind.HAND_REVEALED, player, to=viewers, cards=cards, by=by.value)

    def flip(self) -> None:
        """Turn the table over (docs/rules.md §7.1): the discard pile and the draw pile as
        wholes, then every hand (hands hold whole cards, so only the side changes)."""
        self.side = self.side.other
        self.discard_pile.reverse()
        self.draw_pile.reverse()
        self.emit(EventKind.SIDE_FLIPPED, None, side=self.side.value)

    def swap_hands(self, a: str, b: str) -> None:
        """Exchange two hands (Seven-O 7, Wild Customizable swap); opens no catch window."""
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        self._move_shown({a: b, b: a})
        self._after_hands_moved([a, b])

    def pass_hands(self) -> None:
        """Every hand passes to the next player in the current direction (Seven-O 0)."""
        seated = self.seated
        old = {p: self.hands[p] for p in seated}
        for p in seated:
            self.hands[self.next_seat(p)] = old[p]
        self._move_shown({p: self.next_seat(p) for p in seated})
        self._after_hands_moved(seated)

    def _move_shown(self, moves: Mapping[str, str]) -> None:
        """Hands moved from each key of ``moves`` to its value: what each viewer saw of a hand
        goes with it (a viewer who now holds it needs no note)."""
        for viewer, seen in self.revealed.items():
            moved = {moves[p]: cards for p, cards in seen.items() if p in moves}
            if moved:
                for p in moves:
                    seen.pop(p, None)
                seen.update((p, cards) for p, cards in moved.items() if p != viewer)

    def _unshow(self, player: str, card: Card) -> None:
        """``card`` left ``player``'s hand by their own play or discard: viewers who saw it there
        no longer count it as held (see :attr:`revealed`)."""
        name = card.name
        for seen in self.revealed.values():
            cards = seen.get(player)
            if cards and name in cards:
                cards.remove(name)

    def shielded(self, victim: str) -> bool:
        """True if Save The Day protects ``victim`` from penalty cards now (docs/rules.md §11.7);
        :meth:`block` announces a penalty that missed."""
        return victim == self.protected

    def block(self, victim: str, rank: Rank) -> None:
        """Announce that a penalty card of ``rank`` has no effect on the shielded ``victim``
        (``penalty-blocked``); the caller decides who plays next."""
        self.emit(EventKind.PENALTY_BLOCKED, victim, card=rank.value)

    def hit(
        self,
        victim: str,
        rank: Rank,
        total: int,
        *,
        answerable: bool = True,
        source: str | None = None,
        prev_color: Color | None = None,
    ) -> None:
        """A penalty card acts on one player: Save The Day blocks it (the victim plays next;
        docs/rules.md §11.7, ruling 21); a victim who may answer it or challenge it gets the
        decision (:func:`effects.victim_decides`; stacking §4.1, Harry Potter §9, challenges
        §1.9); else the victim takes it and loses the turn.

        Args:
            victim: the player it acts on.
            rank: the penalty card's rank (a Skip or Reverse draws nothing).
            total: cards at stake (the stacked total, for stacking).
            answerable: False for a penalty nobody may answer (a start card, Wild Customizable).
            source: who played it (the challenge's bluffer).
            prev_color: the color before a restricted wild (what a challenge checks).
        """
        if self.shielded(victim):
            self.block(victim, rank)
            self.set_turn(victim)
            return
        if answerable and rank in self._victim_ranks:  # effects.victim_decides
            kind = _PENDING_CHALLENGE if rank.is_restricted else _PENDING_PENALTY
            # A challenge judges the hand as it was when the wild was played (now), not as it is
            # when challenged: a catch may add cards meanwhile (docs/rules.md §1.9).
            guilty = self._holds_color(source, prev_color) if kind is _PENDING_CHALLENGE and source else None
            self.pending = Pending(
                kind, victim, source=source, rank=rank, total=total, prev_color=prev_color, guilty=guilty
            )
            self.emit(EventKind.PENALTY_PENDING, victim, decision=kind.value, total=total)
            return
        self.take_penalty(victim, rank, total, "penalty")
        self._lose_turn(victim)

    # ------------------------------------------------------------------ playing a card

    def _play(
        self,
        player: str,
        card: Card,
        color: Color | None,
        target: str | None,
        *,
        jump_in: bool = False,
    ) -> None:
        """Move a validated card to the discard pile and carry out its effect."""
        hand = self.hands[player]
        hand.remove(card)
        if player in self._notes:
            self._shed(player)
        if self.revealed:
            self._unshow(player, card)
        face = card.light if self.side is _LIGHT else card.back
        if face.wild and hand and not jump_in and self.pending.kind is _PENDING_TURN:
            self._note_unfollowed(player, color)  # a wild from the hand: it chose not to follow either
        self.discard_pile.append(card)
        prev_color = self.color
        self.color = face.color if face.color is not None else color
        data = {"card": card.name, "color": _COLOR_NAMES.get(self.color), "jump_in": jump_in}
        self._events.append(_new_event(Event, (_PLAYED, player, data)))  # emit, inlined
        if not hand:
            effects.last_card(self, player, face)
            self._end_round(player)
            return
        if len(hand) == 1 and player not in self.called:
            self.catchable.add(player)  # the catch window opens (docs/rules.md §1.7)
        effect = self._effects.get(face.rank)
        if effect is None:  # numbers and plain wilds: play continues with the next player
            seats = self.players
            self.pending = _TURNS[
                seats[(seats.index(player) + self.direction) % len(seats)]
                if not self.out
                else self.next_seat(player)
            ]
        else:
            effect(self, _new_play(effects.Play, (player, card, face, target, prev_color)))
        if face.wild and face.rank is not Rank.SAVE_THE_DAY:
            self._end_protection()

    def _answer(self, player: str, card: Card, color: Color | None, how: effects.Answer) -> None:
        """Stacking or Invisibility played on a pending penalty or Howler."""
        p = self.pending
        hand = self.hands[player]
        hand.remove(card)
        if player in self._notes:
            self._shed(player)
        if self.revealed:
            self._unshow(player, card)
        self.discard_pile.append(card)
        face = card.face(self.side)
        self.color = face.color if face.color is not None else color
        self.emit(
            EventKind.CARD_PLAYED,
            player,
            card=card.name,
            color=_color_name(self.color),
            answer=True,
        )
        if how is effects.Answer.STACK:
            total = p.total + face.rank.draw_count
            victim = self.next_seat(player)
            if not hand:
                # Unlike a last Draw card played on a turn (effects.last_card), no
                # penalty-blocked is announced here (kept as it was).
                if not self.shielded(victim):
                    self.draw_cards(victim, total, "penalty")
                self._end_round(player)
                return
            self._hand_shrank(player)
            self.hit(victim, face.rank, total)
            return
        if not hand:
            self._end_round(player)
            return
        self._hand_shrank(player)
        if p.kind is PendingKind.HOWLER:
            assert p.source is not None
            self.pass_turn(p.source)
        else:
            self.pass_turn(player)
        self._end_protection()  # Invisibility is a wild

    # ------------------------------------------------------------------ scoring

    def _count_position(self) -> None:
        """Count the position after an action that rebuilt the draw pile; void the round when it
        comes up the `REPETITIONS`-th time (docs/rules.md ruling 46).

        A round that never ends rebuilds its draw pile again and again, and a round has finitely
        many positions, so one of them must repeat: this is what ends every endless round. A
        position that repeats by chance needs the same draw pile in the same order, which only
        happens when the pile is a card or two.
        """
        position = (
            self.side.value,
            _color_name(self.color),
            self.direction,
            self.pending.to_dict(),
            self.drawn.name if self.drawn else None,
            self.protected,
            sorted(self.called),
            sorted(self.catchable),
            [(p, sorted(c.name for c in self.hands[p])) for p in self.seated],
            _names(self.draw_pile),
            _names(self.discard_pile),
        )
        key = hashlib.blake2b(repr(position).encode(), digest_size=8).hexdigest()
        self.repeats[key] = seen = self.repeats.get(key, 0) + 1
        if seen >= REPETITIONS:
            self._void_round()

    def _void_round(self) -> None:
        """End the round with no winner and no points; the next round is dealt as usual."""
        self.pending = NOTHING
        self.round_over = True
        self.drawn = None
        self.catchable.clear()
        self.round_winner = None
        self.round_points = 0
        self.emit(EventKind.ROUND_OVER, None, winner=None, points=0, scores=dict(self.scores), void=True)

    def _end_round(self, winner: str) -> None:
        """``winner`` has no cards left: score the round (docs/rules.md §2, §3.2, §3.3)."""
        self.pending = NOTHING
        self.round_over = True
        self.drawn = None
        self.catchable.clear()
        close_round(self, winner, EventKind.ROUND_OVER, EventKind.PLAYER_ELIMINATED)

    def _finish_game(self, winners: list[str]) -> None:
        self.game_over = True
        self.round_over = True
        self.pending = NOTHING
        self.drawn = None
        self.catchable.clear()
        self.winners = winners
        self.emit(EventKind.GAME_OVER, None, winners=list(winners))

    # ------------------------------------------------------------------ serialization

    def to_dict(self) -> dict[str, Any]:
        """The whole game, JSON-safe, with a schema version; :meth:`from_dict` restores it exactly
        (bot/engine/saving.py)."""
        return saving.to_dict(self)

    _rng_saved: tuple[Any, str, Any] | None
    """The generator's state as :meth:`to_dict` writes it, while unchanged (see :attr:`rng`)."""

    @property
    def rng(self) -> random.Random:
        """The game's random generator.

        Reading it forgets the cached text form of its state (see ``saving.rng_state``): whoever
        gets the generator may draw from it.
        """
        self._rng_saved = None
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng
        self._rng_saved = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Restore a game saved by :meth:`to_dict` (bot/engine/saving.py).

        Raises:
            BadState: wrong schema version or a malformed or inconsistent state.
        """
        return saving.from_dict(cls, data)

    @classmethod
    def from_deal(cls, players: Sequence[str], **deal: Any) -> tuple[Game, list[Event]]:
        """A game in a given position (scenarios and tests): ``saving.from_deal``'s arguments.

        Raises:
            BadOption: players, options, scores or cards that don't fit.
        """
        return saving.from_deal(cls, players, **deal)


def _journal_text(action: Action) -> str:
    """The canonical text of an accepted action, for the journal; fields given as text (which
    the engine reads as :meth:`Game.play` does) are written as the card or color they name, and
    fields the action could not have used (no such card or color, an empty target) are left out."""
    card, color, target = action.card, action.color, action.target
    if (
        (card is None or type(card) is Card)
        and (color is None or type(color) is Color)
        and (target is None or (target and " " not in target and "=" not in target))
    ):
        return action.text()
    if card is not None and type(card) is not Card:
        try:
            card = Card.parse(str(card))
        except UnoError:
            card = None
    if color is not None and type(color) is not Color:
        try:
            color = _as_color(color)
        except UnoError:
            color = None
    if not target or " " in target or "=" in target:
        target = None
    return Action(ActionKind(action.kind), card, color, target, bool(action.decline)).text()


def _color_name(color: Color | None) -> str | None:
    return None if color is None else _COLOR_NAMES[color]


_COLOR_NAMES: dict[Color | None, str] = {c: c.value for c in Color}


class _Derived(NamedTuple):
    """What :meth:`Game._derive` works out from a variant and options."""

    no_bluffing: bool
    jump_in: bool
    draw_until: bool
    target_ranks: frozenset[Rank]
    victim_ranks: frozenset[Rank]
    effects: dict[Rank, effects.Effect]


_DERIVED: dict[tuple[str, Options], _Derived] = {}
_DERIVED_KEPT = 256


DRAW = Action(ActionKind.DRAW)
_KEEP, _ACCEPT = Action(ActionKind.KEEP), Action(ActionKind.ACCEPT)
_CHALLENGE, _REVEAL = Action(ActionKind.CHALLENGE), Action(ActionKind.REVEAL)
_UNO, _DECLINE = Action(ActionKind.UNO), Action(ActionKind.DISCARD, decline=True)
_new_event = tuple.__new__  # builds an Event without NamedTuple's Python-level __new__ (speed)
_new_play = tuple.__new__  # the same for effects.Play
_new_note = tuple.__new__  # and for Unfollowed
_OWN_DECISIONS = frozenset(
    {
        PendingKind.TURN,
        PendingKind.DRAW_DECISION,
        PendingKind.PENALTY,
        PendingKind.CHALLENGE,
        PendingKind.HOWLER,
        PendingKind.DISCARD,
    }
)


_K = TypeVar("_K")
_V = TypeVar("_V")


class _Made(dict[_K, _V]):
    """A cache that makes a missing value with ``make``: ``made[key]`` costs a dict lookup, less
    than a call to a ``functools.cache``d function (asked several times a decision)."""

    def __init__(self, make: Callable[[_K], _V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: _K) -> _V:
        value = self[key] = self.make(key)
        return value


_PLAY_ACTIONS: _Made[Card, Action] = _Made(lambda card: Action(ActionKind.PLAY, card))
"""Playing each card, with no color nor target (actions are immutable: shared)."""


_NO_COLOR: tuple[Color | None, ...] = (None,)


@cache
def _actions(kind: ActionKind, card: Card | None, colors: tuple[Color | None, ...]) -> tuple[Action, ...]:
    """``kind`` with ``card`` naming each of ``colors`` (actions are immutable: shared)."""
    return tuple(Action(kind, card, c) for c in colors)


def _named_colors(card: Card, side: Side) -> tuple[Color | None, ...]:
    """The colors a play of ``card`` names with ``side`` up: a wild's four (Wild Super Hero's and
    Villain's are named later), else none."""
    face = card.face(side)
    if face.wild and face.rank not in effects.VICTIM_NAMES_COLOR:
        return Color.of_side(side)
    return _NO_COLOR


_EXPANDED: _Made[tuple[ActionKind, Card, Side], tuple[Action, ...]] = _Made(
    lambda key: _actions(key[0], key[1], _named_colors(key[1], key[2]))
)
"""``(kind, card, side)``: the actions of a card that needs no target (see ``Game._expand``)."""


_TURNS: _Made[str, Pending] = _Made(lambda player: Pending(PendingKind.TURN, player))
"""An ordinary turn of each player (``Pending`` is immutable: shared)."""
_DRAW_DECISIONS: _Made[str, Pending] = _Made(lambda player: Pending(PendingKind.DRAW_DECISION, player))
"""Each player's decision on a drawn playable card."""


def _missing() -> NoReturn:
    """An action without the card or color its kind needs (``card or _missing()``: no call when
    the field is there; cards and colors are never false)."""
    raise NotExpected("Something is missing from that action.")


_Handler = Callable[[Game, str, Action], list[Event]]
_HANDLERS: dict[str, _Handler] = {
    ActionKind.PLAY: lambda g, p, a: g.play(p, a.card or _missing(), color=a.color, target=a.target),
    ActionKind.DRAW: lambda g, p, a: g.draw(p),
    ActionKind.PLAY_DRAWN: lambda g, p, a: g.play_drawn(p, color=a.color, target=a.target),
    ActionKind.KEEP: lambda g, p, a: g.keep(p),
    ActionKind.UNO: lambda g, p, a: g.call_uno(p),
    ActionKind.CATCH: lambda g, p, a: g.catch(p, a.target or ""),
    ActionKind.CHALLENGE: lambda g, p, a: g.challenge(p),
    ActionKind.ACCEPT: lambda g, p, a: g.accept(p),
    ActionKind.DISCARD: lambda g, p, a: g.discard(p, None if a.decline else a.card),
    ActionKind.CHOOSE_COLOR: lambda g, p, a: g.choose_color(p, a.color or _missing()),
    ActionKind.REVEAL: lambda g, p, a: g.reveal(p),
    ActionKind.JUMP_IN: lambda g, p, a: g.jump_in(p, a.card or _missing(), color=a.color, target=a.target),
    ActionKind.LEAVE: lambda g, p, a: g.leave(p),
    ActionKind.TIMEOUT: lambda g, p, a: g.timeout(p),
}
"""The action method of each :class:`ActionKind`, for :meth:`Game.apply` (keyed by str: a plain
string kind finds its member's entry)."""


def _check_players(players: list[str]) -> None:
    """2 to 10 distinct player ids (what the options ask of them: ``Options.validate``)."""
    if not 2 <= len(players) <= 10:
        raise BadOption("A game needs 2 to 10 players.")
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise BadOption("Player ids must be distinct, non-empty texts.")


__all__ = ["Action", "ActionKind", "Game", "Pending"]
