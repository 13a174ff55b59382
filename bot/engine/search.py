"""Search for the hard computer player: determinized Monte Carlo (information-set sampling).

At a decision, :func:`best_action` samples the cards hidden from the player (:func:`determinize`:
the other hands and the draw pile, dealt at random consistently with what is public to that
player), plays every candidate action out on copies of each sample with a fast policy, and keeps
the action with the best mean result (:func:`utility`). Every candidate is played out on the same
samples with the same random numbers (common random numbers), so their comparison is fair even
with few playouts.

What the sampler may read is what the player can see (docs/rules.md §1, §7.1): their own hand, the
other hands' sizes, the discard pile, the draw pile's size, hands revealed to them
(``Game.revealed``), the public state (color, side, direction, scores, UNO calls, the pending
decision but not whether a challenged wild was a bluff) and, in Flip, the inactive face of every
card in the other hands and of the draw pile's top card, and the turns each player drew instead
of playing (``Game.unfollowed``: in most samples their hand then held nothing they could play;
not in Flip, whose hands are already constrained by their inactive faces). Never the hidden cards themselves, the
game's seed or its generator.

>>> import random
>>> from bot.engine.game import Game
>>> game = Game(["ai", "b", "c"], seed=4)
>>> _ = game.start_round()
>>> me = game.pending.player
>>> world = determinize(game, me, random.Random(1))
>>> world.hands[me] == game.hands[me], [len(world.hands[p]) for p in game.players]
(True, [7, 7, 7])
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from bot.engine.actions import Action
from bot.engine.cards import Card, Face
from bot.engine.game import Game, Unfollowed
from bot.engine.options import Scoring

Policy = Callable[[Game, str, random.Random], Action]
_T = TypeVar("_T")

POINTS_SCALE = 400
"""Points worth one round win in :func:`utility` (a round's points are typically 50-150)."""
CONFIDENCE = 1.0
"""Standard errors by which a candidate's mean gain must beat the default action's (see
:func:`best_action`)."""
UNFOLLOWED_WEIGHT = 0.9
"""The share of samples in which a player who drew on their turn (``Game.unfollowed``) is dealt
no card they could have played then: drawing at will is allowed (docs/rules.md §1.6), so this
is likely, not certain."""
MAX_PLAYOUT_STEPS = 400
"""Decisions after which a playout stops and counts as an even share."""


def determinize(game: Game, player: str, rng: random.Random) -> Game:
    """A copy of ``game`` whose cards hidden from ``player`` are dealt at random, consistently with
    what is public to ``player`` (see the module docstring); the copy keeps no journal, has its
    own generator seeded from ``rng``, and forgets what others were shown and which positions
    repeated (both depend on hidden cards).

    A hand revealed to ``player`` is taken as still held, as far as its cards are unaccounted
    for (a revealed card since played is not tracked: the sample is then merely less likely).

    Args:
        game: a round in progress.
        player: the seated player whose view is sampled.
        rng: the sampling's random generator (the only source of randomness).
    """
    hidden = game.side.other
    two_sided = game.deck[0].dark is not None
    pool = Counter(game.deck)
    pool.subtract(game.hands[player])
    pool.subtract(game.discard_pile)
    # By inactive face in Flip (public), else one group; cards in name order, then shuffled.
    groups: dict[Face | None, list[Card]] = {}
    for card in sorted(pool.elements(), key=_name):
        groups.setdefault(card.face(hidden) if two_sided else None, []).append(card)
    for cards in groups.values():
        _shuffle(rng, cards)
    others = [p for p in game.seated if p != player]
    hands: dict[str, list[Card | None]] = {}
    keys: dict[str, list[Face | None]] = {
        p: [c.face(hidden) if two_sided else None for c in game.hands[p]] for p in others
    }
    seen = game.revealed.get(player, {})
    for other in others:
        slots: list[Card | None] = [None] * len(keys[other])
        for name in seen.get(other, ()):
            card = Card.parse(name)
            key = card.face(hidden) if two_sided else None
            group = groups.get(key)
            if group and card in group:
                free = next((i for i, s in enumerate(slots) if s is None and keys[other][i] is key), None)
                if free is not None:
                    group.remove(card)
                    slots[free] = card
        hands[other] = slots
    if two_sided:  # constrained slots first (Flip), from their face's group
        for other in others:
            slots = hands[other]
            for i, key in enumerate(keys[other]):
                if slots[i] is None:
                    slots[i] = groups[key].pop()
    draw = game.draw_pile
    top: Card | None = None
    if two_sided and draw:
        top = groups[draw[-1].face(hidden)].pop()
    rest = [c for cards in groups.values() for c in cards]
    _shuffle(rng, rest)
    world = game.copy(journal=False, rng=random.Random(rng.random()))
    for other in others:
        world.hands[other] = [c if c is not None else rest.pop() for c in hands[other]]
    if not two_sided:  # (Flip's slots are already constrained by their inactive faces)
        for other in others:
            notes = game.unfollowed.get(other)
            if notes and rng.random() < UNFOLLOWED_WEIGHT:
                fixed = {i for i, c in enumerate(hands[other]) if c is not None}
                _unfollow(world.hands[other], rest, notes, fixed, rng)
    world.draw_pile = rest + ([top] if top is not None else [])
    assert len(world.draw_pile) == len(draw), "the hidden cards don't add up"
    world.revealed = {player: {t: list(c) for t, c in seen.items()}} if seen else {}
    world.repeats = {}
    if world.pending.guilty is not None:
        world.pending = world.pending._replace(guilty=None)  # judged on the sampled hand
    return world


def _unfollow(
    hand: list[Card], pool: list[Card], notes: Sequence[Unfollowed], fixed: set[int], rng: random.Random
) -> None:
    """Swap cards of a sampled ``hand`` (but not its ``fixed`` slots) with cards of ``pool``
    until, for each note, at least ``held`` cards of the hand could not have been played on that
    turn (not a wild, nor the color or the rank then), as far as ``pool`` allows."""
    for note in notes:
        bad = [i for i, c in enumerate(hand) if i not in fixed and _follows(c, note)]
        need = min(note.held, len(hand)) - (len(hand) - len(bad))
        if need <= 0:
            continue
        good = [j for j, c in enumerate(pool) if not _follows(c, note)]
        _shuffle(rng, bad)
        _shuffle(rng, good)
        for i, j in zip(bad[:need], good, strict=False):
            hand[i], pool[j] = pool[j], hand[i]


def _follows(card: Card, note: Unfollowed) -> bool:
    face = card.face(note.side)
    return face.wild or face.color is note.color or face.rank is note.rank


def _name(card: Card) -> str:
    return card.name


def _shuffle(rng: random.Random, cards: list[_T]) -> None:
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def utility(game: Game, player: str) -> float:
    """How good a finished (or stopped) round is for ``player``: 1 for a round won by their team,
    0 for a lost one; under scoring with points, plus the points won (standard) or less the
    points kept (running tally), at :data:`POINTS_SCALE` points per win. A round still going
    counts as an even share among the teams."""
    if not game.round_over:
        return 1 / len({game.team_of(p) for p in game.seated})
    team = game.team_of(player)
    win = game.round_winner == team
    scoring = game.options.effective_scoring
    if scoring is Scoring.STANDARD:
        points = game.round_points if win else -game.hand_value(player)
        return win + points / POINTS_SCALE
    if scoring is Scoring.RUNNING_TALLY:
        return win - game.hand_value(player) / POINTS_SCALE
    return float(win)


def playout(game: Game, player: str, policy: Policy, rng: random.Random) -> float:
    """Play ``game`` (changed in place) to the round's end with ``policy`` in every seat, through
    ``Game.apply_listed``; the :func:`utility` for ``player``."""
    steps = 0
    while not game.round_over and steps < MAX_PLAYOUT_STEPS:
        actor = game.pending.player
        assert actor is not None
        game.apply_listed(actor, policy(game, actor, rng))
        steps += 1
    return utility(game, player)


def best_action(
    game: Game,
    player: str,
    candidates: Sequence[Action],
    rng: random.Random,
    policy: Policy,
    *,
    default: Action | None = None,
    budget: float | None = 0.2,
    playouts: int | None = None,
) -> Action:
    """The candidate with the best mean :func:`utility` over sampled playouts, or ``default``
    unless another candidate is clearly better.

    Each pass deals one sample (:func:`determinize`) and plays every surviving candidate out once
    on it. Playouts go where they matter by successive halving: the search runs in
    ``ceil(log2(len(candidates)))`` rounds of equal shares of the budget (time or playouts), and
    after each round the worse half of the candidates by mean (never ``default``) drops out.
    A survivor replaces ``default`` only when its mean gain over ``default`` on the same samples
    exceeds :data:`CONFIDENCE` standard errors of that gain: with few playouts the search's
    noise would otherwise throw away a good heuristic's choice.

    Args:
        game: a round where ``player`` must decide.
        candidates: actions listed for ``player`` now (``Game.decisions``).
        rng: the search's random generator: with ``budget`` None, the same inputs and the same
            generator state give the same action.
        policy: the playout policy, for every seat.
        default: one of ``candidates``, kept unless beaten clearly; None: the first candidate,
            and the best mean wins.
        budget: seconds of search (wall clock); None: no time limit (``playouts`` must be set).
        playouts: at most this many playouts in all (at least one pass per round is made).

    Raises:
        ValueError: no candidates, ``default`` not among them, or neither a budget nor a
            playout count.
    """
    if not candidates:
        raise ValueError("no candidates")
    if budget is None and playouts is None:
        raise ValueError("a time budget or a playout count is needed")
    base = 0 if default is None else candidates.index(default)
    if len(candidates) == 1:
        return candidates[0]
    n = len(candidates)
    rounds = max(1, math.ceil(math.log2(n)))
    alive = list(range(n))
    results: list[list[float]] = [[] for _ in range(n)]
    start = time.perf_counter()
    for r in range(rounds):
        deadline = None if budget is None else start + budget * (r + 1) / rounds
        quota = None if playouts is None else max(1, playouts // rounds // len(alive))
        passes = 0
        while True:
            world = determinize(game, player, rng)
            seed = rng.random()
            for k in alive:
                copy = world.copy(journal=False, rng=random.Random(seed))
                copy.apply_listed(player, candidates[k])
                results[k].append(playout(copy, player, policy, random.Random(seed)))
            passes += 1
            if quota is not None and passes >= quota:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if r + 1 < rounds:
            ranked = sorted(alive, key=lambda k: -sum(results[k]) / len(results[k]))
            keep = ranked[: (len(alive) + 1) // 2]
            alive = [k for k in alive if k in keep or k == base]
    margin = CONFIDENCE if default is not None else 0.0
    best, best_gain = base, 0.0
    for k in alive:
        gains = [a - b for a, b in zip(results[k], results[base], strict=True)]
        total = len(gains)
        mean = sum(gains) / total
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, total - 1) / total)
        if mean > best_gain and mean > margin * spread:
            best, best_gain = k, mean
    return candidates[best]
