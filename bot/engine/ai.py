"""Computer players at three levels (:class:`AiLevel`), a uniformly random agent, and a driver
that plays rounds.

One entry point, :func:`choose`, takes the level. The normal AI follows color, keeps its wilds for
need, names its strongest color, calls UNO, catches, and challenges a restricted wild when the
odds favor it. The easy one plays any card it may, sometimes forgets to call UNO or to catch, and
never challenges. The hard one searches (bot/engine/search.py): it samples the hidden cards and
plays each candidate out many times with the normal AI in every seat.

>>> import random
>>> from bot.engine.game import Game
>>> game = Game(["ai", "r1", "r2"], seed=3)
>>> _ = game.start_round()
>>> steps = play_round(game, {"ai": choose}, random.Random(3))
>>> game.round_over and steps > 0
True
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Callable, Mapping
from typing import overload

from bot.engine import search
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Color, Face, Rank, Side
from bot.engine.dos.actions import DosAction
from bot.engine.dos.game import DosGame
from bot.engine.game import Game
from bot.engine.options import PendingKind

Policy = Callable[[Game, str, random.Random], Action]


class AiLevel(enum.StrEnum):
    """How well a computer player plays; the value is the level's name."""

    EASY = "easy"
    """Plays any card it may, forgets some UNO calls and catches, never plans or challenges."""
    NORMAL = "normal"
    """A sensible heuristic: follows color, keeps wilds for need, always calls and catches."""
    HARD = "hard"
    """Searches: samples the hidden cards and plays each candidate out (bot/engine/search.py)."""


EASY_UNO_CALL = 0.5
"""The chance that the easy AI calls UNO when a call counts (else it plays without calling)."""
EASY_CATCH = 0.5
"""The chance that the easy AI makes a catch it could make (judged once per game version)."""
HARD_BUDGET = search.HARD_BUDGET
"""The hard AI's default search time per decision, in seconds."""

# Points are shed first; among equals, actions hurt the next player more than numbers.
_ACTION_BONUS = {Rank.DRAW_TWO: 6, Rank.DRAW_THREE: 6, Rank.DRAW_FIVE: 6, Rank.DRAW_ONE: 4,
                 Rank.SKIP: 4, Rank.SKIP_EVERYONE: 5, Rank.REVERSE: 3, Rank.FLIP: 2}  # fmt: skip


_UNO = Action(ActionKind.UNO)


def random_action(game: Game, player: str, rng: random.Random) -> Action:
    """A uniformly random legal action resolving ``player``'s pending decision (or a UNO call).

    As in rlcard's random agent, an ordinary turn draws only when no card can be played
    (drawing at will makes rounds of random play last thousands of turns).

    Raises:
        ValueError: ``player`` has nothing to decide.
    """
    actions = game.decisions(player)
    if len(actions) > 1 and game.pending.kind is PendingKind.TURN:
        actions.pop()  # "draw" comes last
    hand = game.hands.get(player)
    if hand is not None and len(hand) <= 2 and game.can_call_uno(player):  # no call beyond 2 cards
        actions.append(_UNO)
    if not actions:
        raise ValueError(f"{player} has nothing to decide")
    return actions[int(rng.random() * len(actions))]


_VALUES: dict[tuple[str, Side], dict[Face, int]] = {}
"""Points of each face by variant and side (``Variant.value``, looked up once: the normal AI
runs in every playout of the hard one)."""


def _values(game: Game) -> dict[Face, int]:
    key = (game.variant.id, game.side)
    table = _VALUES.get(key)
    if table is None:
        side, value = game.side, game.variant.value
        faces = {card.face(side) for card in game.deck}
        table = _VALUES[key] = {face: value(face, side) for face in faces}
    return table


def _best_color(game: Game, player: str, without: Card | None = None) -> Color:
    counts = dict.fromkeys(game.colors, 0.0)
    light, values = game.side is Side.LIGHT, _values(game)
    for card in game.hands[player]:
        if card is without:
            continue
        face = card.light if light else card.back
        if face.color in counts:
            counts[face.color] += 1 + values[face] / 100
    return max(game.colors, key=lambda c: counts[c])


def _pick_target(game: Game, player: str, card: Card | None) -> str:
    others = [p for p in game.seated if p != player]
    face = card.face(game.side) if card else None
    if face and face.rank is Rank.SAVE_THE_DAY:
        mates = [p for p in others if game.team_of(p) == game.team_of(player)]
        # Protect a partner, or the least threatening opponent.
        return mates[0] if mates else max(others, key=lambda p: len(game.hands[p]))
    if face and face.rank in (Rank.SEVEN, Rank.WILD_CUSTOMIZABLE):
        return min(others, key=lambda p: len(game.hands[p]))  # take the smallest hand
    # Howler: expose the most dangerous opponent.
    return min(others, key=lambda p: len(game.hands[p]))


def _best_play(game: Game, player: str, plays: list[Action]) -> Action:
    """The play the normal AI prefers: most points shed and most of the hand kept in one color,
    actions when the next opponent is about to go out, wilds only when nothing else fits (the
    first of equals in ``plays``' order). Counts the hand once (this runs in every playout)."""
    light = game.side is Side.LIGHT
    hand = game.hands[player]
    colors: dict[Color | None, int] = {}
    for c in hand:
        color = (c.light if light else c.back).color
        colors[color] = colors.get(color, 0) + 1
    nxt = game.next_seat(player)
    danger = len(game.hands[nxt]) <= 2 and game.team_of(nxt) != game.team_of(player)
    values = _values(game)
    best, best_score = plays[0], -math.inf
    scored: dict[Card, float] = {}
    for action in plays:
        card = action.card
        assert card is not None
        score = scored.get(card)
        if score is None:
            face = card.light if light else card.back
            if face.wild:
                # Keep wilds for need: play them only when nothing else fits, restricted ones
                # last unless the next player is about to go out.
                score = -100 + (30 if danger and face.restricted else 0)
            else:
                score = values[face] / 10 + _ACTION_BONUS.get(face.rank, 0)
                if danger and face.rank in _ACTION_BONUS:
                    score += 20
                # Stay in a color we hold (this card's other copies not counted).
                score = score + (colors[face.color] - hand.count(card))
            scored[card] = score
        if score > best_score:
            best, best_score = action, score
    return best


@overload
def choose(
    game: Game,
    player: str,
    rng: random.Random,
    level: AiLevel | str = ...,
    *,
    budget: float | None = ...,
    playouts: int | None = ...,
) -> Action: ...


@overload
def choose(
    game: DosGame,
    player: str,
    rng: random.Random,
    level: AiLevel | str = ...,
    *,
    budget: float | None = ...,
    playouts: int | None = ...,
) -> DosAction: ...


def choose(
    game: Game | DosGame,
    player: str,
    rng: random.Random,
    level: AiLevel | str = AiLevel.NORMAL,
    *,
    budget: float | None = HARD_BUDGET,
    playouts: int | None = None,
) -> Action | DosAction:
    """The computer player's action at ``level`` for ``player``'s pending decision (a UNO call
    first when one counts, which the easy level sometimes forgets), by the game's edition's
    player (``editions.Edition.choose``: :func:`choose_uno`, or DOS's, bot/engine/dos/ai.py,
    whose hard level searches too). Every action returned is listed by
    ``game.legal_actions(player)``.

    Args:
        game: the game; not changed.
        player: the seated player whose decision is pending.
        rng: the random generator of the choice (easy's lapses, hard's samples).
        level: ``"easy"``, ``"normal"`` or ``"hard"`` (:class:`AiLevel`).
        budget: hard only: seconds of search per decision (wall clock); None: no time limit.
        playouts: hard only: at most this many playouts per decision. With ``budget`` None the
            choice depends only on the inputs and ``rng``'s state (deterministic).

    Raises:
        ValueError: ``player`` has nothing to decide, or an unknown level.
    """
    from bot.engine.editions import edition_of

    return edition_of(game).choose(game, player, rng, level, budget=budget, playouts=playouts)


def choose_uno(
    game: Game,
    player: str,
    rng: random.Random,
    level: AiLevel | str = AiLevel.NORMAL,
    *,
    budget: float | None = HARD_BUDGET,
    playouts: int | None = None,
) -> Action:
    """UNO's computer player: :func:`choose` for a game of one of UNO's editions (its
    ``Edition.choose``).

    Raises:
        ValueError: ``player`` has nothing to decide, or an unknown level.
    """
    level = AiLevel(level)
    if level is AiLevel.NORMAL:
        return _normal(game, player, rng)
    if level is AiLevel.EASY:
        return _easy(game, player, rng)
    return _hard(game, player, rng, budget, playouts)


def _normal(game: Game, player: str, rng: random.Random) -> Action:
    """The normal AI (see the module docstring). Raises ValueError: nothing to decide."""
    pending = game.pending
    if pending.player != player or game.round_over:
        raise ValueError(f"{player} has nothing to decide")
    if game.can_call_uno(player):
        return _UNO
    actions = game.decisions(player)
    kind = pending.kind
    if kind is PendingKind.TURN:  # the most common: the plays are listed first, then draw
        if len(actions) == 1:
            return actions[0]
        return _with_choices(game, player, _best_play(game, player, actions[:-1]))
    kinds = {a.kind for a in actions}
    hand = game.hands[player]
    if kind is PendingKind.COLOR:
        return Action(ActionKind.CHOOSE_COLOR, color=_best_color(game, player))
    if kind is PendingKind.DISCARD:
        if not hand:
            return Action(ActionKind.DISCARD, decline=True)
        worst = max(hand, key=lambda c: (not c.face(game.side).rank.is_wild,
                                         game.variant.value(c.face(game.side), game.side)))  # fmt: skip
        return Action(ActionKind.DISCARD, card=worst)
    answers = [a for a in actions if a.kind is ActionKind.PLAY]
    if kind is PendingKind.HOWLER:
        return (
            _with_choices(game, player, answers[0])
            if answers and len(hand) > 3
            else Action(ActionKind.REVEAL)
        )
    if kind is PendingKind.CHALLENGE:
        if answers:
            return _with_choices(game, player, answers[0])
        source = pending.source
        bluffer_cards = len(game.hands.get(source, ())) if source else 0
        # P(a k-card hand holds a given color) ~ 1 - 0.75**k; worth it from two cards on.
        return Action(ActionKind.CHALLENGE if bluffer_cards >= 2 else ActionKind.ACCEPT)
    if kind is PendingKind.PENALTY:
        return _with_choices(game, player, answers[0]) if answers else Action(ActionKind.ACCEPT)
    if kind is PendingKind.DRAW_DECISION:
        plays = [a for a in actions if a.kind is ActionKind.PLAY_DRAWN]
        drawn = game.drawn
        if plays and drawn is not None:
            face = drawn.face(game.side)
            if not face.rank.is_wild or len(hand) <= 3 or ActionKind.KEEP not in kinds:
                return _with_choices(game, player, plays[0], drawn)
        return Action(ActionKind.KEEP)
    plays = [a for a in actions if a.kind is ActionKind.PLAY]
    if not plays:
        return Action(ActionKind.DRAW)
    return _with_choices(game, player, _best_play(game, player, plays))


def _with_choices(game: Game, player: str, action: Action, card: Card | None = None) -> Action:
    color = action.color
    target = action.target
    if color is None and target is None:
        return action
    card = card or action.card
    if color is not None:
        color = _best_color(game, player, without=card)
    if target is not None:
        target = _pick_target(game, player, card)
    return Action(action.kind, card=action.card, color=color, target=target)


def _easy(game: Game, player: str, rng: random.Random) -> Action:
    """The easy AI: a random playable card (never a draw when one fits), its most held color, a
    random target; UNO called with chance :data:`EASY_UNO_CALL`; never challenges."""
    if game.pending.player != player or game.round_over:
        raise ValueError(f"{player} has nothing to decide")
    if game.can_call_uno(player) and rng.random() < EASY_UNO_CALL:
        return _UNO
    actions = game.decisions(player)
    kind = game.pending.kind
    plays = [a for a in actions if a.kind in (ActionKind.PLAY, ActionKind.PLAY_DRAWN)]
    if kind is PendingKind.TURN or kind is PendingKind.DRAW_DECISION:
        actions = plays or actions
    elif kind is PendingKind.CHALLENGE:
        actions = [a for a in actions if a.kind is not ActionKind.CHALLENGE]
    pick = actions[int(rng.random() * len(actions))]
    if pick.color is not None:
        color = game.most_held_color(player)
        pick = next(a for a in actions if a[:2] == pick[:2] and a.color is color and a.target == pick.target)
    return pick


def _hard(game: Game, player: str, rng: random.Random, budget: float | None, playouts: int | None) -> Action:
    """The hard AI: UNO when it counts, then a search over its decisions (bot/engine/search.py)
    with the normal AI as the playout policy."""
    if game.pending.player != player or game.round_over:
        raise ValueError(f"{player} has nothing to decide")
    if game.can_call_uno(player):
        return _UNO
    actions, default = hard_candidates(game, player)
    return search.best_action(
        game, player, actions, rng, _normal, default=default, budget=budget, playouts=playouts
    )


def hard_candidates(game: Game, player: str) -> tuple[list[Action], Action]:
    """The actions the hard AI searches for ``player``'s pending decision (each wild naming only
    colors held besides it, see :func:`_candidates`) and its default among them, the normal AI's
    choice (kept unless a candidate beats it clearly, ``search.best_action``).

    Raises:
        ValueError: ``player`` has nothing to decide.
    """
    actions = _candidates(game, player, game.decisions(player))
    default = _normal(game, player, random.Random(0))  # the normal AI draws no random number
    if default not in actions:  # a wild's color the pruning did not keep
        actions = [*actions, default]
    return actions, default


def _candidates(game: Game, player: str, actions: list[Action]) -> list[Action]:
    """``actions`` with each wild naming only colors ``player`` holds besides it (the normal
    AI's color when none): naming a color one does not hold rarely pays, and fewer candidates
    get more playouts each."""
    side = game.side
    kept: list[Action] = []
    for a in actions:
        if a.color is not None and game.pending.kind is not PendingKind.COLOR:
            card = a.card if a.card is not None else game.drawn
            others = {c.face(side).color for c in game.hands[player] if c is not card}
            if a.color not in others and (
                others & set(game.colors) or a.color is not _best_color(game, player, card)
            ):
                continue
        kept.append(a)
    return kept


def catches(
    game: Game,
    player: str,
    level: AiLevel | str = AiLevel.NORMAL,
    rng: random.Random | None = None,
) -> list[Action]:
    """Catches ``player`` makes now at ``level``: normal and hard make every one they can at
    once; easy makes each with chance :data:`EASY_CATCH`, judged by ``rng`` or, without one, by
    a generator seeded from the game's version and the player (so asking again before the game
    changes gives the same answer).

    Raises:
        ValueError: an unknown level.
    """
    level = AiLevel(level)
    if player not in game.hands or game.round_over:
        return []
    found = [Action(ActionKind.CATCH, target=t) for t in sorted(game.catch_targets(player))]
    if level is AiLevel.EASY and found:
        coin = rng or random.Random(f"{game.version}:{player}")
        found = [a for a in found if coin.random() < EASY_CATCH]
    return found


def play_round(
    game: Game,
    policies: Mapping[str, Policy],
    rng: random.Random,
    *,
    default: Policy = random_action,
    max_steps: int = 5000,
    after_step: Callable[[Game], None] | None = None,
    levels: Mapping[str, AiLevel | str] | None = None,
) -> int:
    """Play the current round to its end: each pending decision goes to the player's policy
    (``default`` for players without one); players with a policy catch as :func:`catches` says
    at their level in ``levels`` (normal when not given: whenever they can).

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
        policy = policies.get(player, default)
        game.apply(player, policy(game, player, rng))
        steps += 1
        if after_step is not None:
            after_step(game)
        for watcher in policies:
            level = levels.get(watcher, AiLevel.NORMAL) if levels else AiLevel.NORMAL
            for catch in catches(game, watcher, level, rng if level is AiLevel.EASY else None):
                game.apply(watcher, catch)
                if after_step is not None:
                    after_step(game)
    return steps
