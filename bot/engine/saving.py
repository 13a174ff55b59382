"""``Game``'s persistence: its save (:func:`to_dict`, the whole game as JSON-safe data with a
schema version), its restore (:func:`from_dict`, which refuses a malformed or inconsistent save)
and a game dealt in a given position (:func:`from_deal`, for scenarios and tests). ``Game``'s
``to_dict``, ``from_dict`` and ``from_deal`` are these.

The save's format is fixed: games saved before must load (tests/engine/test_game.py's round trips,
tests/storage). The part every edition writes alike is ``TableGame._saved_seats``.
"""

from __future__ import annotations

import base64
import binascii
import random
import struct
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from bot.engine import game as _game  # a cycle: read at call time only
from bot.engine.base import SCHEMA_VERSION
from bot.engine.cards import Card, Color, Side
from bot.engine.errors import BadOption, BadState, UnoError
from bot.engine.events import Event
from bot.engine.options import Options, Pending, PendingKind
from bot.engine.variants import get_variant

if TYPE_CHECKING:
    from bot.engine.game import Game

G = TypeVar("G", bound="Game")


def _names(cards: Iterable[Card]) -> list[str]:
    return [c.name for c in cards]


def to_dict(game: Game) -> dict[str, Any]:
    """The whole game, JSON-safe, with a schema version (``Game.to_dict``); :func:`from_dict`
    restores it exactly."""
    saved = game._saved_seats()
    saved["rng"], saved["deck"] = rng_state(game), _names(game.deck)
    return saved | {
        "draw_pile": _names(game.draw_pile),
        "discard_pile": _names(game.discard_pile),
        "side": game.side.value,
        "color": game.color.value if game.color else None,
        "direction": game.direction,
        "pending": game.pending.to_dict(),
        "called": sorted(game.called),
        "catchable": sorted(game.catchable),
        "protected": game.protected,
        "revealed": {v: {t: list(c) for t, c in r.items()} for v, r in game.revealed.items()},
        "drawn": game.drawn.name if game.drawn else None,
        "round_over": game.round_over,
        "round_winner": game.round_winner,
        "round_points": game.round_points,
        "repeats": dict(game.repeats),
        "unfollowed": {p: [n.to_list() for n in notes] for p, notes in game.unfollowed.items()},
        "journal": game._journal_dict(),
    }


def rng_state(game: Game) -> list[Any]:
    """The generator's state for :func:`to_dict`: ``[version, base64 words, gauss]``.

    Packing the 625 words costs more than the rest of ``to_dict``, and the generator is only
    used to shuffle, so the text is kept until the generator is read again through
    ``Game.rng``.
    """
    saved = game._rng_saved
    if saved is None:
        version, internal, gauss = game._rng.getstate()
        saved = game._rng_saved = (version, _pack(internal), gauss)
    return list(saved)


def from_dict(cls: type[G], data: Mapping[str, Any]) -> G:
    """Restore a game (of class ``cls``) saved by :func:`to_dict` (``Game.from_dict``).

    Raises:
        BadState: wrong schema version or a malformed or inconsistent state.
    """
    if not isinstance(data, Mapping):
        raise BadState("A saved game must be a JSON object.")
    try:
        if data.get("schema") != SCHEMA_VERSION:
            raise BadState(f"Saved game schema {data.get('schema')!r} isn't {SCHEMA_VERSION}.")
        game = cls.__new__(cls)
        game.variant = get_variant(data["variant"])
        game._load_seats(data)
        v, internal, gauss = data["rng"]
        # No seeding (random.Random() reads the OS's entropy): setstate sets the whole state.
        rng = random.Random.__new__(random.Random)
        rng.setstate((v, _unpack(internal), gauss))
        game.rng = rng
        game._rng_saved = (v, internal, gauss)
        deck, deck_counts = _parse_deck(tuple(data["deck"]))
        game.deck = list(deck)
        game._derive()
        game._reset_round()
        game.hands = {p: _parse_cards(h) for p, h in data["hands"].items()}
        game.draw_pile = _parse_cards(data["draw_pile"])
        game.discard_pile = _parse_cards(data["discard_pile"])
        game.side = Side(data["side"])
        game.color = Color(data["color"]) if data["color"] else None
        game.direction = int(data["direction"])
        game.pending = Pending.from_dict(data["pending"])
        game.called = set(data["called"])
        game.catchable = set(data["catchable"])
        game.protected = data["protected"]
        game.revealed = {v: {t: list(c) for t, c in r.items()} for v, r in data["revealed"].items()}
        game.drawn = Card.parse(data["drawn"]) if data["drawn"] else None
        game.round_over = bool(data["round_over"])
        game.round_winner = data["round_winner"]
        game.round_points = int(data["round_points"])
        game.repeats = {str(k): int(n) for k, n in data.get("repeats", {}).items()}
        game.unfollowed = {
            str(p): [_game.Unfollowed.from_list(n) for n in notes]
            for p, notes in data.get("unfollowed", {}).items()
        }
        game._load_journal(data.get("journal"))
    except BadState:
        raise
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        binascii.Error,
        struct.error,
        UnoError,
    ) as exc:
        raise BadState(f"Saved game is malformed: {exc!r}.") from None
    check_consistent(game, deck_counts)
    return game


def check_consistent(game: Game, deck_counts: Mapping[Card, int]) -> None:
    """Refuse a restored state that breaks the engine's invariants.

    Args:
        deck_counts: how many of each card ``game.deck`` holds.

    Raises:
        BadState: players, hands, pending decision, direction or cards that don't fit.
    """
    if not all(isinstance(p, str) and p for p in game.players) or len(set(game.players)) != len(game.players):
        raise BadState("Saved game: players must be distinct texts.")
    if set(game.out) - set(game.players) or set(game.hands) - set(game.players):
        raise BadState("Saved game: a hand or seat belongs to nobody at the table.")
    if not game.round_over and set(game.hands) & set(game.out):
        raise BadState("Saved game: a player out of the game still holds cards.")
    if game.direction not in (_game.LEFT, _game.RIGHT):
        raise BadState("Saved game: direction must be 1 or -1.")
    p = game.pending
    if p.kind is not PendingKind.NONE and p.player not in game.hands:
        raise BadState("Saved game: the pending decision belongs to nobody at the table.")
    if set(game.scores) != set(game._team_keys()):
        raise BadState("Saved game: scores don't match the players.")
    if game.round_no:
        held = [*game.draw_pile, *game.discard_pile]
        for hand in game.hands.values():
            held += hand
        # Cards are interned, so counting them compares the cards' full names. dict's == is
        # Counter's without its slow per-key Python loop (the counts are all positive).
        if len(held) != len(game.deck) or not dict.__eq__(Counter(held), deck_counts):
            raise BadState("Saved game: the cards in play don't match the game's deck.")


# ------------------------------------------------------------------ explicit deals


def from_deal(
    cls: type[G],
    players: Sequence[str],
    *,
    variant: str,
    options: Options | None = None,
    seed: int = 0,
    dealer: str,
    hands: Mapping[str, Sequence[Card]],
    draw_pile: Sequence[Card],
    discard_pile: Sequence[Card],
    side: Side = Side.LIGHT,
    color: Color | None = None,
    direction: int = 1,  # LEFT
    turn: str | None = None,
    started: bool = True,
    scores: Mapping[str, int] | None = None,
    protected: str | None = None,
) -> tuple[G, list[Event]]:
    """A game (of class ``cls``) in a given position (``Game.from_deal``: scenarios and tests).

    Args:
        draw_pile: top card LAST. discard_pile: top card LAST.
        started: True: the top card is in play and ``turn`` has an ordinary turn;
            False: the round was just dealt and the start card's rule is applied.

    Returns:
        The game and the events of the start card (empty when started).

    Raises:
        BadOption: players, options, scores or cards that don't fit.
    """
    game = cls(players, variant=variant, options=options, seed=seed)
    game._journal = None  # not dealt from the seed: no replay
    if dealer not in game.players:
        raise BadOption(f"The dealer {dealer!r} isn't a player.")
    if set(hands) - set(game.players):
        raise BadOption("A hand belongs to nobody at the table.")
    if not discard_pile:
        raise BadOption("The discard pile needs a top card.")
    game.deck = [c for h in hands.values() for c in h] + list(draw_pile) + list(discard_pile)
    game.round_no = 1
    game.dealer = dealer
    game._deal_scores(scores)
    game.hands = {p: list(hands.get(p, ())) for p in game.players}
    game.draw_pile = list(draw_pile)
    game.discard_pile = list(discard_pile)
    game.side = side
    if protected is not None and protected not in game.players:
        raise BadOption(f"The protected player {protected!r} isn't a player.")
    game.protected = protected
    if not started:
        game.apply_start_card()
        return game, game._flush()
    game.direction = direction
    face = game.top
    game.color = face.color if not face.wild else color
    if game.color is None or game.color not in game.colors:
        raise BadOption("The current color must be one of the active side's colors.")
    first = turn or game.next_seat(dealer)
    if first not in game.players:
        raise BadOption(f"The player to start, {first!r}, isn't a player.")
    game.set_turn(first)
    game._flush()
    game.version = 0
    return game, []


def _pack(numbers: Sequence[int]) -> str:
    """The random generator's state (625 32-bit words) as compact base64 text."""
    return base64.b64encode(struct.pack(f"<{len(numbers)}I", *numbers)).decode("ascii")


@lru_cache(maxsize=64)
def _parse_deck(names: tuple[str, ...]) -> tuple[tuple[Card, ...], Counter[Card]]:
    """A saved deck and how many of each card it holds (cached: a game's deck never changes).

    Callers must not change the returned Counter. Raises BadCard or TypeError.
    """
    deck = tuple(map(Card.parse, names))
    return deck, Counter(deck)


def _parse_cards(names: Iterable[str]) -> list[Card]:
    """Cards from their names (``Card.parse`` is cached). Raises BadCard or TypeError."""
    return list(map(Card.parse, names))


@lru_cache(maxsize=16)
def _unpack(text: str) -> tuple[int, ...]:
    """Inverse of :func:`_pack` (cached: a saved game is often restored more than once).

    Raises ValueError on malformed text, TypeError on an unhashable value.
    """
    if not isinstance(text, str):
        raise ValueError("random state must be text")
    raw = base64.b64decode(text.encode("ascii"), validate=True)
    if len(raw) % 4:
        raise ValueError("random state has a partial word")
    return struct.unpack(f"<{len(raw) // 4}I", raw)
