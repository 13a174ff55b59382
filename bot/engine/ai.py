"""Computer players: a sensible AI and a uniformly random agent, and a driver that plays rounds.

The AI follows color, keeps its wilds for need, names its strongest color, calls UNO, catches,
and challenges a restricted wild when the odds favor it.

>>> import random
>>> from bot.engine.game import Game
>>> game = Game(["ai", "r1", "r2"], seed=3)
>>> _ = game.start_round()
>>> steps = play_round(game, {"ai": choose}, random.Random(3))
>>> game.round_over and steps > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Color, Rank
from bot.engine.game import Game
from bot.engine.options import PendingKind

Policy = Callable[[Game, str, random.Random], Action]

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


def _best_color(game: Game, player: str, without: Card | None = None) -> Color:
    counts = dict.fromkeys(game.colors, 0.0)
    for card in game.hands[player]:
        if card is without:
            continue
        face = card.face(game.side)
        if face.color in counts:
            counts[face.color] += 1 + game.variant.value(face, game.side) / 100
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


def _score_play(game: Game, player: str, action: Action) -> float:
    assert action.card is not None
    face = action.card.face(game.side)
    nxt = game.next_seat(player)
    danger = len(game.hands[nxt]) <= 2 and game.team_of(nxt) != game.team_of(player)
    if face.rank.is_wild:
        # Keep wilds for need: play them only when nothing else fits, restricted ones last
        # unless the next player is about to go out.
        return -100 + (30 if danger and face.rank.is_restricted else 0)
    score = game.variant.value(face, game.side) / 10 + _ACTION_BONUS.get(face.rank, 0)
    if danger and face.rank in _ACTION_BONUS:
        score += 20
    same_color = sum(
        1 for c in game.hands[player] if c.face(game.side).color is face.color and c is not action.card
    )
    return score + same_color  # stay in a color we hold


def choose(game: Game, player: str, rng: random.Random) -> Action:
    """The AI's action for ``player``'s pending decision (a UNO call first when one counts).

    Raises:
        ValueError: ``player`` has nothing to decide.
    """
    actions = game.legal_actions(player)
    kinds = {a.kind for a in actions}
    pending = game.pending
    if pending.player != player:
        raise ValueError(f"{player} has nothing to decide")
    if ActionKind.UNO in kinds:
        return _UNO
    kind = pending.kind
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
    best = max(plays, key=lambda a: _score_play(game, player, a))
    return _with_choices(game, player, best)


def _with_choices(game: Game, player: str, action: Action, card: Card | None = None) -> Action:
    card = card or action.card
    color = action.color
    target = action.target
    if color is not None:
        color = _best_color(game, player, without=card)
    if target is not None:
        target = _pick_target(game, player, card)
    return Action(action.kind, card=action.card, color=color, target=target)


def catches(game: Game, player: str) -> list[Action]:
    """Catches ``player`` can make now (an AI makes every one of them at once)."""
    if player not in game.hands or game.round_over:
        return []
    return [Action(ActionKind.CATCH, target=t) for t in sorted(game.catch_targets(player))]


def play_round(
    game: Game,
    policies: Mapping[str, Policy],
    rng: random.Random,
    *,
    default: Policy = random_action,
    max_steps: int = 5000,
    after_step: Callable[[Game], None] | None = None,
) -> int:
    """Play the current round to its end: each pending decision goes to the player's policy
    (``default`` for players without one); players with a policy catch whenever they can.

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
            for catch in catches(game, watcher):
                game.apply(watcher, catch)
                if after_step is not None:
                    after_step(game)
    return steps
