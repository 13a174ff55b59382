"""DOS's side of the hard computer player's search (bot/engine/search.py, whose
``best_action`` runs it): a sampler of the hidden cards and a playout.

What a DOS player sees (docs/rules.md §14.2-§14.8): their own hand, the Center Row, the discard
pile (every card in it lay face up in the row), each hand's size, the draw pile's size, and the
public state (the pending decision, matched piles, bonus cards due, DOS calls, catch windows, a
penalty due, scores). DOS shows no hidden card to anyone: no rule reveals a hand, a drawn card
(the turn's, a double color match's, a catch's) is its drawer's alone, and a hand that goes back
into the draw pile when its player leaves is not shown. So every card not seen is as likely in
any hidden place, and :func:`determinize` deals them so. Never read: the other hands, the draw
pile's order, the deck's order (a dealt game's deck lists its hands first), the seed or the
game's generator.

>>> import random
>>> game = DosGame(["ana", "ben"], seed=4)
>>> _ = game.start_round()
>>> world = determinize(game, "ana", random.Random(1))
>>> (world.hands["ana"], world.row) == (game.hands["ana"], game.row), len(world.hands["ben"])
(True, 7)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from bot.engine import search
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DosGame

DosPolicy = Callable[[DosGame, str, random.Random], DosAction]


def determinize(game: DosGame, player: str, rng: random.Random) -> DosGame:
    """A copy of ``game`` whose cards hidden from ``player`` (the other hands and the draw pile)
    are dealt again at random from the cards not accounted for: the deck less ``player``'s hand,
    the Center Row and the discard pile (see the module docstring). Every hand keeps its size and
    the draw pile its size; the copy keeps no journal and has its own generator seeded from
    ``rng``.

    Args:
        game: a round in progress.
        player: the seated player whose view is sampled.
        rng: the sampling's random generator (the only source of randomness).
    """
    left = Counter(game.deck)
    left.subtract(game.hands[player])
    left.subtract(game.discard_pile)
    for pile in game.row:
        left.subtract(pile)
    pool: list[DosCard] = []
    for card in sorted(left, key=_name):  # by name: the deck's order is not read
        pool += [card] * left[card]
    rand = rng.random
    for i in range(len(pool) - 1, 0, -1):  # Fisher-Yates
        j = int(rand() * (i + 1))
        pool[i], pool[j] = pool[j], pool[i]
    world = game.copy(journal=False, rng=random.Random(rand()))
    for other in game.seated:
        if other != player:
            size = len(game.hands[other])
            world.hands[other], pool = pool[:size], pool[size:]
    assert len(pool) == len(game.draw_pile), "the hidden cards don't add up"
    world.draw_pile = pool
    return world


def _name(card: DosCard) -> str:
    return card.name


def playout(game: DosGame, player: str, policy: DosPolicy, rng: random.Random) -> float:
    """The search's playout (``search.playout``: ``policy`` in every seat to the round's end,
    ``game`` changed in place) with every seat making each catch it can after each step, as
    ``ai.play_round`` has them (docs/rules.md §14.8); the search's ``utility`` for ``player``."""
    return search.playout(game, player, policy, rng, _catch_all)


def _catch_all(game: DosGame) -> None:
    if game.catchable:  # rare: the normal AI calls DOS before coming down to two
        for watcher in game.seated:
            for target in game.catch_targets(watcher):
                game.apply_listed(watcher, DosAction(DosActionKind.CATCH, target=target))
