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
of playing or played a wild (``Game.unfollowed``: in most samples their hand then held nothing
they could play, nor the cards they drew when the turn passed at once, and the color a wild
named was the one they held most of).
Never the hidden cards themselves, Flip's secret pairing of faces (``game.deck``, docs/rules.md
ruling 1) beyond the cards whose both faces were in view, the game's seed or its generator.

DOS's hard player runs the same :func:`best_action` with its own sampler and playout
(bot/engine/dos/search.py): both games are :class:`Searchable`.

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
from typing import Any, Protocol, Self, TypeVar, cast

from bot.engine.actions import Action
from bot.engine.cards import Card, Color, Face, Side
from bot.engine.game import Game, Unfollowed
from bot.engine.options import Scoring
from bot.engine.scoring import Scored

Policy = Callable[[Game, str, random.Random], Action]
_T = TypeVar("_T")
_A = TypeVar("_A")
_A_contra = TypeVar("_A_contra", contravariant=True)


class _Decision(Protocol):
    @property
    def player(self) -> str | None: ...


class Searchable(Scored, Protocol[_A_contra]):
    """What :func:`best_action`, :func:`playout` and :func:`utility` need of a game: UNO's
    ``Game`` and DOS's ``DosGame`` (bot/engine/dos/search.py), whose actions are ``_A_contra``."""

    round_over: bool

    @property
    def pending(self) -> _Decision: ...

    def copy(self, *, journal: bool = ..., rng: random.Random | None = ...) -> Self: ...

    def apply_listed(self, player: str, action: _A_contra) -> None: ...


_G = TypeVar("_G", bound=Searchable[Any])

HARD_BUDGET = 0.2
"""The hard AI's default search time per decision, in seconds (every edition)."""
POINTS_SCALE = 400
"""Points worth one round win in :func:`utility` (a round's points are typically 50-150)."""
CONFIDENCE = 1.0
"""Standard errors by which a candidate's mean gain must beat the default action's (see
:func:`best_action`)."""
UNFOLLOWED_WEIGHT = 0.9
"""The share of samples in which a player who drew on their turn (``Game.unfollowed``) is dealt
no card they could have played then: drawing at will is allowed (docs/rules.md §1.6), so this
is likely, not certain."""
NAMED_WEIGHT = 0.9
"""The share of samples in which a player who named a color with a wild (``Unfollowed.named``)
is dealt that color as the one they held most of then: the normal AI names its most held color,
a person need not."""
MAX_PLAYOUT_STEPS = 400
"""Decisions after which a playout stops and counts as an even share."""


def determinize(game: Game, player: str, rng: random.Random) -> Game:
    """A copy of ``game`` whose cards hidden from ``player`` are dealt at random, consistently with
    what is public to ``player`` (see the module docstring); the copy keeps no journal, has its
    own generator seeded from ``rng``, and forgets what others were shown and which positions
    repeated (both depend on hidden cards).

    In Flip the pairing of light and dark faces is secret (docs/rules.md ruling 1): a hidden card
    is dealt as a face of the side in play drawn from those unaccounted for, joined to the inactive
    face the player sees on it (or, deep in the draw pile, to an unseen one drawn at random). The
    pairings read are those of the player's own hand and of the discard pile (both faces of each
    were in view), never ``game.deck``'s other pairings; so the sample's deck is its own.

    The cards of a hand revealed to ``player`` that its holder has not played since
    (``Game.revealed``) are dealt to it as they are; its other cards are sampled.

    Args:
        game: a round in progress.
        player: the seated player whose view is sampled.
        rng: the sampling's random generator (the only source of randomness).
    """
    side, hidden = game.side, game.side.other
    two_sided = game.deck[0].dark is not None
    known = [*game.hands[player], *game.discard_pile]
    # Faces of the side in play not yet accounted for (the deck's composition is public).
    faces = _unaccounted(game, side, known)
    others = [p for p in game.seated if p != player]
    seen = game.revealed.get(player, {})
    fixed: dict[str, dict[int, Card]] = {}
    for other in others:
        hand, slots = game.hands[other], {}
        for name in seen.get(other, ()):
            card = Card.parse(name)
            if faces.get(card.face(side), 0) <= 0:
                continue
            back = card.face(hidden) if two_sided else None
            fits = (i for i, c in enumerate(hand) if back is None or c.face(hidden) is back)
            free = next((i for i in fits if i not in slots), None)
            if free is not None:
                slots[free] = card
                faces[card.face(side)] -= 1
        fixed[other] = slots
    pool = _listed(faces)
    _shuffle(rng, pool)
    world = game.copy(journal=False, rng=random.Random(rng.random()))
    for other in others:
        slots = fixed[other]
        drawn = [pool.pop() for i in range(len(game.hands[other])) if i not in slots]
        notes = game.unfollowed.get(other)
        if notes:
            named = [n for n in notes if n.named is not None and n.side is side]
            if named and rng.random() < NAMED_WEIGHT:
                _lean(drawn, pool, named, rng)
            if rng.random() < UNFOLLOWED_WEIGHT:
                _unfollow(drawn, pool, [n for n in notes if n.side is side], rng)
        dealt = iter(drawn)
        world.hands[other] = [
            slots[i] if i in slots else _card(side, next(dealt), c.face(hidden) if two_sided else None)
            for i, c in enumerate(game.hands[other])
        ]
    draw = game.draw_pile
    if two_sided:  # the draw pile's faces of the side in play, joined to unseen inactive faces
        top = draw[-1].face(hidden) if draw else None
        backs = _unaccounted(game, hidden, [*known, *(c for p in others for c in game.hands[p]), *draw[-1:]])
        unseen = _listed(backs)
        _shuffle(rng, unseen)
        if top is not None:
            unseen.append(top)
        of = Card.of
        pairs = zip(pool, unseen, strict=True)
        light = side is Side.LIGHT
        world.draw_pile = [of(a, b) for a, b in pairs] if light else [of(b, a) for a, b in pairs]
        world.deck = [*known, *world.draw_pile, *(c for p in others for c in world.hands[p])]
    else:
        world.draw_pile = [Card.of(face) for face in pool]
    assert len(world.draw_pile) == len(draw), "the hidden cards don't add up"
    world.revealed = {player: {t: list(c) for t, c in seen.items()}} if seen else {}
    world.repeats = {}
    if world.pending.guilty is not None:
        world.pending = world.pending._replace(guilty=None)  # judged on the sampled hand
    return world


_DECK_FACES: dict[tuple[int, Side], tuple[list[Card], dict[Face, int]]] = {}
"""How many of each face a game's deck shows on each side, faces in name order, by the deck's
``id`` (the deck itself kept beside, so an id is not reused while cached; a few decks at most:
:func:`determinize` runs once per pass of the search on the same game)."""


def _unaccounted(game: Game, side: Side, seen: Sequence[Card]) -> dict[Face, int]:
    """How many of each face of ``side`` the deck holds besides the cards ``seen``, in name
    order (so samples do not depend on the deck's order)."""
    deck = game.deck
    cached = _DECK_FACES.get((id(deck), side))
    if cached is None or cached[0] is not deck:
        if len(_DECK_FACES) >= 8:
            _DECK_FACES.clear()
        found = Counter(card.face(side) for card in deck)
        cached = _DECK_FACES[(id(deck), side)] = (deck, {f: found[f] for f in sorted(found, key=_name)})
    counts = cached[1]
    left = dict(counts)
    for card in seen:
        left[card.face(side)] -= 1
    return left


def _listed(counts: dict[Face, int]) -> list[Face]:
    listed: list[Face] = []
    for face, n in counts.items():
        if n > 0:
            listed += [face] * n
    return listed


def _card(side: Side, active: Face, inactive: Face | None) -> Card:
    """The card showing ``active`` with ``side`` in play and ``inactive`` on its back."""
    if inactive is None:
        return Card.of(active)
    return Card.of(active, inactive) if side is Side.LIGHT else Card.of(inactive, active)


def _unfollow(hand: list[Face], pool: list[Face], notes: Sequence[Unfollowed], rng: random.Random) -> None:
    """Swap faces of a sampled ``hand`` with faces of ``pool`` until, for each note (of the side
    in play), at least ``held`` faces of the hand could not have been played on that turn (not a
    wild, nor the color or the rank then), as far as ``pool`` allows."""
    for note in notes:
        bad = [i for i, f in enumerate(hand) if _follows(f, note)]
        need = min(note.held, len(hand)) - (len(hand) - len(bad))
        if need <= 0:
            continue
        good = [j for j, f in enumerate(pool) if not _follows(f, note)]
        _shuffle(rng, bad)
        _shuffle(rng, good)
        for i, j in zip(bad[:need], good, strict=False):
            hand[i], pool[j] = pool[j], hand[i]


def _lean(hand: list[Face], pool: list[Face], notes: Sequence[Unfollowed], rng: random.Random) -> None:
    """Swap faces of a sampled ``hand`` with faces of ``pool`` until, for each note of a wild
    that named a color, that color is among the most held of the ``held`` cards that may remain
    from then (the first of ``hand``, whose order is random), as far as ``pool`` allows: the
    normal AI names the color it holds most of."""
    for note in notes:
        named = note.named
        if named is None:
            continue
        old = min(note.held, len(hand))
        counts: dict[Color, int] = {}
        for f in hand[:old]:
            if f.color is not None and not f.wild:
                counts[f.color] = counts.get(f.color, 0) + 1
        mine = counts.pop(named, 0)
        while counts:
            most = max(counts, key=counts.__getitem__)
            if counts[most] <= mine:
                break
            ins = [j for j, f in enumerate(pool) if f.color is named and not f.wild]
            if not ins:
                break
            outs = [i for i in range(old) if hand[i].color is most and not hand[i].wild]
            i, j = outs[int(rng.random() * len(outs))], ins[int(rng.random() * len(ins))]
            hand[i], pool[j] = pool[j], hand[i]
            counts[most] -= 1
            mine += 1


def _follows(face: Face, note: Unfollowed) -> bool:
    return face.wild or face.color is note.color or face.rank is note.rank


def _name(item: Card | Face) -> str:
    return item.name


def _shuffle(rng: random.Random, cards: list[_T]) -> None:
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def utility(game: Searchable[Any], player: str) -> float:
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


def playout(
    game: _G,
    player: str,
    policy: Callable[[_G, str, random.Random], _A],
    rng: random.Random,
    after: Callable[[_G], None] | None = None,
) -> float:
    """Play ``game`` (changed in place) to the round's end with ``policy`` in every seat, through
    ``apply_listed``, calling ``after`` with the game after each step (DOS's catches); the
    :func:`utility` for ``player``."""
    steps = 0
    while not game.round_over and steps < MAX_PLAYOUT_STEPS:
        actor = game.pending.player
        assert actor is not None
        game.apply_listed(actor, policy(game, actor, rng))
        steps += 1
        if after is not None:
            after(game)
    return utility(game, player)


def best_action(
    game: _G,
    player: str,
    candidates: Sequence[_A],
    rng: random.Random,
    policy: Callable[[_G, str, random.Random], _A],
    *,
    default: _A | None = None,
    budget: float | None = HARD_BUDGET,
    playouts: int | None = None,
    sample: Callable[[_G, str, random.Random], _G] | None = None,
    play_out: Callable[[_G, str, Callable[[_G, str, random.Random], _A], random.Random], float] | None = None,
) -> _A:
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
        sample: deals a sample of the hidden cards (None: :func:`determinize`, UNO's; DOS's is
            ``bot.engine.dos.search.determinize``).
        play_out: plays a copy out to the round's end and gives the :func:`utility` (None:
            :func:`playout`; DOS's is ``bot.engine.dos.search.playout``).

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
    # UNO's by default, looked up now (a test counts playouts by replacing ``playout``).
    deal = sample or cast(Callable[[_G, str, random.Random], _G], determinize)
    finish = play_out or playout
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
            world = deal(game, player, rng)
            for k, result in zip(
                alive, _pass(world, player, [candidates[k] for k in alive], rng, policy, finish), strict=True
            ):
                results[k].append(result)
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


def _pass(
    world: _G,
    player: str,
    candidates: Sequence[_A],
    rng: random.Random,
    policy: Callable[[_G, str, random.Random], _A],
    finish: Callable[[_G, str, Callable[[_G, str, random.Random], _A], random.Random], float],
) -> list[float]:
    """Each of ``candidates`` played out once on its own copy of the sample ``world``, all with
    the same random numbers (one seed drawn from ``rng``): their :func:`utility` values."""
    seed = rng.random()
    values = []
    for action in candidates:
        copy = world.copy(journal=False, rng=random.Random(seed))
        copy.apply_listed(player, action)
        values.append(finish(copy, player, policy, random.Random(seed)))
    return values


def mean_values(
    game: Game,
    player: str,
    candidates: Sequence[Action],
    rng: random.Random,
    policy: Policy,
    passes: int,
) -> list[float]:
    """The mean :func:`utility` of each of ``candidates`` over ``passes`` samples
    (:func:`determinize`), each candidate played out once per sample with the same random numbers:
    what :func:`best_action` estimates, with equal shares and no time limit (the search-quality
    benchmark's reference, benchmarks/regret.py).

    Raises:
        ValueError: ``passes`` below 1.
    """
    if passes < 1:
        raise ValueError("at least one pass is needed")
    totals = [0.0] * len(candidates)
    for _ in range(passes):
        world = determinize(game, player, rng)
        for k, value in enumerate(_pass(world, player, candidates, rng, policy, playout)):
            totals[k] += value
    return [total / passes for total in totals]
