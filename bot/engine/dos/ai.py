"""DOS computer players (docs/engine-dos.md, "The AI"), a uniformly random agent, and a driver
that plays rounds. ``bot.engine.ai.choose`` hands a :class:`DosGame` to :func:`choose`.

The hard level searches as UNO's does (bot/engine/search.py): it samples the hidden cards
(bot/engine/dos/search.py) and plays each candidate out many times with the normal level in
every seat.

>>> import random
>>> game = DosGame(["ai", "r1", "r2"], seed=3)
>>> _ = game.start_round()
>>> steps = play_round(game, {"ai": choose}, random.Random(3))
>>> game.round_over and steps > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from bot.engine import search
from bot.engine.dos import search as dos_search
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import DosCard, DosKind
from bot.engine.dos.game import DosGame
from bot.engine.options import DosPendingKind

DosPolicy = Callable[[DosGame, str, random.Random], DosAction]

EASY_DOS_CALL = 0.5
"""The chance that the easy AI calls DOS when a call counts."""
CALL_AT = 4
"""The normal AI calls DOS on its own turn once it holds this many cards or fewer (the call
covers the hand coming down to two: docs/rules.md §14.3)."""
DOUBLE_COLOR = 60
"""Score of a double color match: a bonus card, and a card for every other player."""
SINGLE_COLOR = 30
"""Score of a color match: a bonus card (one more card shed)."""
PER_CARD = 15
"""Score of each card a match sheds (two-card matches empty the hand faster)."""
WILD_WORTH = {DosKind.WILD_NUMBER: 5, DosKind.WILD_DOS: 8}
"""What shedding a wild counts instead of its points: a wild in hand fits almost any pile."""

_CALL = DosAction(DosActionKind.DOS)
_DRAW = DosAction(DosActionKind.DRAW)
_END = DosAction(DosActionKind.END_TURN)


def _shed(card: DosCard) -> int:
    return WILD_WORTH.get(card.kind, card.value)


def _match_score(game: DosGame, action: DosAction) -> float:
    cards = action.cards
    pile = game.row[(action.pile or 1) - 1][0]
    pile_color = action.pile_color if pile.wild_dos else pile.color
    colored = all((action.color if c.wild_dos else c.color) is pile_color for c in cards)
    score = PER_CARD * len(cards) + sum(map(_shed, cards))
    if colored:
        score += DOUBLE_COLOR if len(cards) == 2 else SINGLE_COLOR
    return score


def _place_choice(game: DosGame, player: str) -> DosAction:
    """The card to add to the row: the highest number card, wilds only when nothing else is held."""
    hand = game.hands[player]
    numbers = [c for c in hand if c.kind is DosKind.NUMBER]
    card = max(numbers or hand, key=lambda c: c.value)
    return DosAction(DosActionKind.PLACE, cards=(card,))


def choose(
    game: DosGame,
    player: str,
    rng: random.Random,
    level: str = "normal",
    *,
    budget: float | None = search.HARD_BUDGET,
    playouts: int | None = None,
) -> DosAction:
    """The computer player's action for ``player``'s pending decision (a DOS call first when one
    counts). Every action returned is listed by ``game.legal_actions(player)``.

    Args:
        game: the game; not changed.
        rng: the random generator of the choice (easy's lapses, hard's samples).
        level: ``"easy"`` (random legal matches, forgets half its calls), ``"normal"`` or
            ``"hard"`` (searches: :func:`_hard`).
        budget: hard only: seconds of search per decision (wall clock); None: no time limit.
        playouts: hard only: at most this many playouts per decision. With ``budget`` None the
            choice depends only on the inputs and ``rng``'s state (deterministic).

    Raises:
        ValueError: ``player`` has nothing to decide, or an unknown level, or hard with neither
            a budget nor a playout count.
    """
    if level not in ("easy", "normal", "hard"):
        raise ValueError(f"unknown level {level!r}")
    p = game.pending
    if p.player != player or game.round_over:
        raise ValueError(f"{player} has nothing to decide")
    if level == "easy":
        if game.can_call_dos(player) and len(game.hands[player]) <= CALL_AT and rng.random() < EASY_DOS_CALL:
            return _CALL
        return random_action(game, player, rng)
    action = _normal(game, player, rng)
    if level == "hard" and action is not _CALL:  # the call stays a rule of thumb, as in UNO
        return _hard(game, player, rng, action, budget, playouts)
    return action


def _normal(game: DosGame, player: str, rng: random.Random) -> DosAction:
    """The normal level (docs/engine-dos.md, "The AI"); ``player`` must be the one to decide.
    Also the hard level's playout policy, in every seat."""
    p = game.pending
    hand = game.hands[player]
    if len(hand) <= CALL_AT and game.can_call_dos(player):
        return _CALL
    if p.kind is DosPendingKind.PLACE:
        return _place_choice(game, player)
    matches = game.matches(player)
    if matches:
        return max(matches, key=lambda a: _match_score(game, a))
    if p.kind is DosPendingKind.TURN:
        return _DRAW
    if p.kind is DosPendingKind.MATCH:
        return _END
    return _place_choice(game, player)


def _hard(
    game: DosGame,
    player: str,
    rng: random.Random,
    default: DosAction,
    budget: float | None,
    playouts: int | None,
) -> DosAction:
    """The hard level: the search (bot/engine/search.py) over :func:`_candidates`, keeping the
    normal level's ``default`` unless another candidate is clearly better."""
    actions = _candidates(game, game.decisions(player))
    if default not in actions:  # a color the pruning did not keep
        actions.append(default)
    return search.best_action(
        game,
        player,
        actions,
        rng,
        _normal,
        default=default,
        budget=budget,
        playouts=playouts,
        sample=dos_search.determinize,
        play_out=dos_search.playout,
    )


def _candidates(game: DosGame, actions: list[DosAction]) -> list[DosAction]:
    """``actions`` with one color per match (pile and cards): the named colors count only for
    its bonus (docs/rules.md §14.6; the pile is discarded at the end of the turn), so of the
    colors a Wild DOS may take the one :func:`_match_score` rates best (a color match when one
    is possible) stands for all of them, and fewer candidates get more playouts each."""
    kept: dict[tuple[DosActionKind, int | None, tuple[DosCard, ...]], DosAction] = {}
    for a in actions:
        key = (a.kind, a.pile, a.cards)
        best = kept.get(key)
        if best is None or _match_score(game, a) > _match_score(game, best):
            kept[key] = a
    return list(kept.values())


def random_action(game: DosGame, player: str, rng: random.Random) -> DosAction:
    """A uniformly random legal action resolving ``player``'s decision, or a DOS call at two cards.

    As the UNO random agent, a turn draws only when nothing can be matched.

    Raises:
        ValueError: ``player`` has nothing to decide.
    """
    actions = game.decisions(player)
    if len(actions) > 1 and game.pending.kind is DosPendingKind.TURN:
        actions.pop()  # "draw" comes last
    if len(game.hands.get(player, ())) == 2 and game.can_call_dos(player):
        actions.append(_CALL)
    if not actions:
        raise ValueError(f"{player} has nothing to decide")
    return actions[int(rng.random() * len(actions))]


def catches(game: DosGame, player: str) -> list[DosAction]:
    """Every catch ``player`` can make now."""
    return [DosAction(DosActionKind.CATCH, target=t) for t in game.catch_targets(player)]


def play_round(
    game: DosGame,
    policies: Mapping[str, DosPolicy],
    rng: random.Random,
    *,
    default: DosPolicy = random_action,
    max_steps: int = 5000,
    after_step: Callable[[DosGame], None] | None = None,
) -> int:
    """Play the current round to its end: each decision goes to the player's policy (``default``
    for the others); players with a policy make every catch they can after each step.

    Returns:
        The number of decisions made.

    Raises:
        RuntimeError: the round did not end within ``max_steps`` decisions.
    """
    steps = 0
    while not game.round_over:
        if steps >= max_steps:
            raise RuntimeError(f"round did not end in {max_steps} decisions")
        player = game.pending.player
        assert player is not None
        game.apply(player, policies.get(player, default)(game, player, rng))
        steps += 1
        if after_step is not None:
            after_step(game)
        for watcher in policies:
            for catch in catches(game, watcher):
                game.apply(watcher, catch)
                if after_step is not None:
                    after_step(game)
    return steps
