"""Card effects as small named functions, one per rank (docs/rules.md §6-§11), and the catalogue of
Wild Customizable rules (DC Super Hero Girls).

Each effect runs after its card reached the discard pile with cards left in its player's hand,
and must leave the game waiting on exactly one decision. Ranks without an entry in
:data:`EFFECTS` (numbers, plain wilds, Invisibility) simply pass the turn on. Effects use only
the game's public surface (listed in ``Game``'s docstring), never its private methods.

Which card may answer a pending penalty, challenge or Howler (stacking, Invisibility) is decided
here too, by :func:`answer`; Save The Day's protection by ``Game.shielded`` / ``Game.block``.

>>> sorted(CUSTOMIZABLE_RULES)[:3]
['everyone-draws-one', 'next-draws-two', 'pass-hands']
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from bot.engine.cards import Card, Color, Face, Rank
from bot.engine.events import EventKind
from bot.engine.options import HouseRule, Pending, PendingKind

if TYPE_CHECKING:
    from bot.engine.game import Game


class Play(NamedTuple):
    """A card just played: who, which card and face, the picked player, the color before it."""

    player: str
    card: Card
    face: Face
    target: str | None
    prev_color: Color | None


Effect = Callable[["Game", Play], None]

# Wilds whose color is named later by the player they pick (docs/rules.md §1.5).
VICTIM_NAMES_COLOR = frozenset({Rank.WILD_SUPER_HERO, Rank.WILD_VILLAIN})
# Cards an Invisibility answers on a penalty (docs/rules.md §9.7, ruling 17).
INVISIBILITY_ANSWERS = frozenset({Rank.SKIP, Rank.DRAW_THREE, Rank.REVERSE, Rank.WILD_DRAW_FOUR})


def target_ranks(game: Game) -> frozenset[Rank]:
    """The ranks whose plays need a picked player in this game (variant and options)."""
    ranks = {Rank.HOWLER, Rank.SAVE_THE_DAY}
    if game.options.has(HouseRule.SEVEN_O):
        ranks.add(Rank.SEVEN)
    rule = CUSTOMIZABLE_RULES.get(game.options.customizable_rule)
    if rule is not None and rule.needs_target:
        ranks.add(Rank.WILD_CUSTOMIZABLE)
    return frozenset(ranks)


def has_invisibility(game: Game) -> bool:
    """True for the editions with Invisibility (Harry Potter)."""
    return Rank.INVISIBILITY in game.variant.ranks


class Answer(enum.Enum):
    """How a card answers a pending penalty, challenge or Howler (see :func:`answer`)."""

    __hash__ = object.__hash__  # identity hash: enum members are singletons (speed)

    STACK = "stack"
    """House rule stacking: a Draw card of the penalty's rank passes the grown total on."""
    INVISIBILITY = "invisibility"
    """Harry Potter: Invisibility cancels the card played on its player."""


def stackable(game: Game, rank: Rank) -> bool:
    """True if a penalty of ``rank`` may be stacked on: house rule stacking, and a Draw card
    (Draw One, Two, Three, Five; never a restricted wild: docs/rules.md §4.1)."""
    return bool(rank.draw_count) and not rank.is_wild and game.options.has(HouseRule.STACKING)


def cancellable(game: Game, rank: Rank) -> bool:
    """True if Invisibility cancels a penalty of ``rank`` (Harry Potter: a Skip, Draw Three,
    Wild Draw Four or two-player Reverse played on its player; docs/rules.md §9.7, ruling 17)."""
    return rank in INVISIBILITY_ANSWERS and has_invisibility(game)


def victim_decides(game: Game, rank: Rank) -> bool:
    """True if the victim of ``rank`` gets a decision before the penalty applies: a challenge
    (a restricted wild), or an answer (:func:`stackable`, :func:`cancellable`), which is asked
    whatever the victim holds."""
    return rank.is_restricted or stackable(game, rank) or cancellable(game, rank)


def answer(game: Game, face: Face) -> Answer | None:
    """How ``face`` may answer the decision the game waits on, or None: the one rule for both
    stacking and Invisibility.

    A penalty (``pending`` kind ``penalty``) may be stacked on with the same Draw rank
    (:func:`stackable`); a penalty or challenge that Invisibility cancels (:func:`cancellable`),
    and any Howler, may be answered with Invisibility.
    """
    pending = game.pending
    kind = pending.kind
    if face.rank is Rank.INVISIBILITY:
        if kind is PendingKind.HOWLER and has_invisibility(game):
            return Answer.INVISIBILITY
        if kind in _PENALTIES and pending.rank is not None and cancellable(game, pending.rank):
            return Answer.INVISIBILITY
        return None
    if kind is PendingKind.PENALTY and face.rank is pending.rank and stackable(game, face.rank):
        return Answer.STACK
    return None


_PENALTIES = frozenset({PendingKind.PENALTY, PendingKind.CHALLENGE})


def last_card(game: Game, player: str, face: Face) -> None:
    """A player's last card: only a draw for the next player and a flip are carried out
    (docs/rules.md §1.8); Save The Day still blocks the draw."""
    rank = face.rank
    if rank.draw_count or rank is Rank.WILD_DRAW_COLOR:
        victim = game.next_seat(player)
        if game.shielded(victim):
            game.block(victim, rank)
        else:
            game.take_penalty(victim, rank, rank.draw_count, "penalty")
    elif rank is Rank.FLIP:
        game.flip()


def seven_o(game: Game, play: Play) -> None:
    """House rule Seven-O: a 7 swaps hands with the picked player, a 0 passes every hand on."""
    if game.options.has(HouseRule.SEVEN_O):
        if play.face.rank is Rank.SEVEN:
            assert play.target is not None
            game.swap_hands(play.player, play.target)
            game.emit(EventKind.HANDS_SWAPPED, play.player, with_=play.target)
        else:
            game.pass_hands()
            game.emit(EventKind.HANDS_PASSED, play.player, direction=_direction(game))
    game.pass_turn(play.player)


def _direction(game: Game) -> str:
    return "left" if game.direction == 1 else "right"


def skip(game: Game, play: Play) -> None:
    """Skip: the next player loses their turn."""
    game.hit(game.next_seat(play.player), Rank.SKIP, 0, source=play.player)


def reverse(game: Game, play: Play) -> None:
    """Reverse: direction reverses; with two players it also acts as a Skip."""
    game.direction = -game.direction
    game.emit(EventKind.DIRECTION_REVERSED, play.player, direction=_direction(game))
    if len(game.seated) == 2:
        game.hit(game.next_seat(play.player), Rank.REVERSE, 0, source=play.player)
    else:
        game.pass_turn(play.player)


def draw_card(game: Game, play: Play) -> None:
    """Draw One / Two / Three / Five: the next player draws that many and loses their turn."""
    rank = play.face.rank
    game.hit(game.next_seat(play.player), rank, rank.draw_count, source=play.player)


def skip_everyone(game: Game, play: Play) -> None:
    """Skip Everyone: every other player loses their turn; its player plays again."""
    for other in game.seated:
        if other != play.player:
            game.emit(EventKind.TURN_SKIPPED, other)
    game.set_turn(play.player)


def flip(game: Game, play: Play) -> None:
    """Flip: the table turns over; the new top card's action is not carried out (docs/rules.md
    §7.1, ruling 12)."""
    game.flip()
    top = game.top
    if top.rank.is_wild:
        game.color = None
        game.pending = Pending(PendingKind.COLOR, play.player, resume=play.player)
    else:
        game.color = top.color
        game.pass_turn(play.player)


def restricted_wild(game: Game, play: Play) -> None:
    """Wild Draw Four / Two / Color: the next player may challenge or accept (docs/rules.md §1.9)."""
    rank = play.face.rank
    game.hit(
        game.next_seat(play.player),
        rank,
        rank.draw_count,
        source=play.player,
        prev_color=play.prev_color,
    )


def _pick_by_size(game: Game, player: str, most: bool) -> str:
    """Wild Super Hero / Villain: the player with most (fewest) cards; ties go to the first in
    turn order from the next player, the card's player counting last (docs/rules.md §8.6, ruling 13)."""
    n = len(game.seated)
    order = [game.next_seat(player, steps=k) for k in range(1, n)] + [player]
    sizes = {p: len(game.hands[p]) for p in order}
    best = max(sizes.values()) if most else min(sizes.values())
    return next(p for p in order if sizes[p] == best)


def wild_super_hero(game: Game, play: Play) -> None:
    """Wild Super Hero: the player with most cards may discard one, then names the color."""
    picked = _pick_by_size(game, play.player, most=True)
    game.color = None
    game.pending = Pending(PendingKind.DISCARD, picked, source=play.player, resume=play.player)


def wild_villain(game: Game, play: Play) -> None:
    """Wild Villain: the player with fewest cards draws three, then names the color."""
    picked = _pick_by_size(game, play.player, most=False)
    game.draw_cards(picked, 3, "wild villain")
    game.color = None
    game.pending = Pending(PendingKind.COLOR, picked, source=play.player, resume=play.player)


def howler(game: Game, play: Play) -> None:
    """Howler: the picked player answers (let the hand be shown, or Invisibility)."""
    assert play.target is not None
    game.pending = Pending(PendingKind.HOWLER, play.target, source=play.player)


def special_agent_mater(game: Game, play: Play) -> None:
    """Special Agent Mater: its player privately sees every other hand."""
    for other in game.seated:
        if other != play.player:
            game.show_hand_to(other, [play.player], Rank.SPECIAL_AGENT_MATER)
    game.pass_turn(play.player)


def save_the_day(game: Game, play: Play) -> None:
    """Save The Day: the picked player is protected from penalty cards until another wild."""
    assert play.target is not None
    game.protected = play.target
    game.emit(EventKind.PROTECTED, play.target, by=play.player)
    game.pass_turn(play.player)


def wild_customizable(game: Game, play: Play) -> None:
    """Wild Customizable: the host's rule from :data:`CUSTOMIZABLE_RULES`, or announced text."""
    text = game.options.customizable_rule
    rule = CUSTOMIZABLE_RULES.get(text)
    if rule is None:
        if text:
            game.emit(EventKind.HOUSE_RULE, play.player, text=text)
        game.pass_turn(play.player)
        return
    game.emit(EventKind.HOUSE_RULE, play.player, text=rule.name, rule=rule.id)
    rule.apply(game, play)


# ----------------------------------------------------------------- Wild Customizable catalogue


def _everyone_draws_one(game: Game, play: Play) -> None:
    """Every other player draws one card (Save The Day blocks it)."""
    for other in game.seated:
        if other == play.player:
            continue
        if game.shielded(other):
            game.block(other, Rank.WILD_CUSTOMIZABLE)
        else:
            game.draw_cards(other, 1, "house-rule")
    game.pass_turn(play.player)


def _swap_hands(game: Game, play: Play) -> None:
    """The card's player swaps hands with a player they pick."""
    assert play.target is not None
    game.swap_hands(play.player, play.target)
    game.emit(EventKind.HANDS_SWAPPED, play.player, with_=play.target)
    game.pass_turn(play.player)


def _pass_hands(game: Game, play: Play) -> None:
    """Every hand passes one seat in the direction of play."""
    game.pass_hands()
    game.emit(EventKind.HANDS_PASSED, play.player, direction=_direction(game))
    game.pass_turn(play.player)


def _skip_two(game: Game, play: Play) -> None:
    """The next two players lose their turn (a protected one plays instead)."""
    victims = [game.next_seat(play.player, steps=k) for k in (1, 2)]
    last = play.player
    for victim in dict.fromkeys(v for v in victims if v != play.player):
        if game.shielded(victim):
            game.block(victim, Rank.WILD_CUSTOMIZABLE)
            game.set_turn(victim)
            return
        game.emit(EventKind.TURN_SKIPPED, victim)
        last = victim
    game.pass_turn(last)


def _play_again(game: Game, play: Play) -> None:
    """The card's player takes another turn."""
    game.set_turn(play.player)


def _next_draws_two(game: Game, play: Play) -> None:
    """The next player draws two cards and loses their turn (not answerable)."""
    game.hit(game.next_seat(play.player), Rank.WILD_CUSTOMIZABLE, 2, answerable=False)


@dataclass(frozen=True)
class CustomRule:
    """One Wild Customizable rule the engine carries out.

    Attributes:
        id: stable id (``options.customizable_rule``).
        name: short name for the table.
        apply: the effect.
        needs_target: the card's player picks a player.
    """

    id: str
    name: str
    apply: Effect
    needs_target: bool = False


CUSTOMIZABLE_RULES: dict[str, CustomRule] = {
    r.id: r
    for r in (
        CustomRule("everyone-draws-one", "Everyone draws one", _everyone_draws_one),
        CustomRule("swap-hands", "Swap hands", _swap_hands, needs_target=True),
        CustomRule("pass-hands", "Pass your hands", _pass_hands),
        CustomRule("skip-two", "Double skip", _skip_two),
        CustomRule("play-again", "Play again", _play_again),
        CustomRule("next-draws-two", "Draw two", _next_draws_two),
    )
}
"""The Wild Customizable rules the engine carries out, by id (docs/rules.md §11.6 describes them)."""

EFFECTS: dict[Rank, Effect] = {
    Rank.SEVEN: seven_o,
    Rank.ZERO: seven_o,
    Rank.SKIP: skip,
    Rank.REVERSE: reverse,
    Rank.DRAW_ONE: draw_card,
    Rank.DRAW_TWO: draw_card,
    Rank.DRAW_THREE: draw_card,
    Rank.DRAW_FIVE: draw_card,
    Rank.SKIP_EVERYONE: skip_everyone,
    Rank.FLIP: flip,
    Rank.WILD_DRAW_FOUR: restricted_wild,
    Rank.WILD_DRAW_TWO: restricted_wild,
    Rank.WILD_DRAW_COLOR: restricted_wild,
    Rank.WILD_SUPER_HERO: wild_super_hero,
    Rank.WILD_VILLAIN: wild_villain,
    Rank.HOWLER: howler,
    Rank.SPECIAL_AGENT_MATER: special_agent_mater,
    Rank.SAVE_THE_DAY: save_the_day,
    Rank.WILD_CUSTOMIZABLE: wild_customizable,
}
