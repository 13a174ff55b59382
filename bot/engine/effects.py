"""Card effects as small named functions, one per rank (RULES.md section 4), and the catalogue of
Wild Customizable rules (DC Super Hero Girls).

Each effect runs after its card reached the discard pile with cards left in its player's hand,
and must leave the game waiting on exactly one decision. Ranks without an entry in
:data:`EFFECTS` (numbers, plain wilds, Invisibility) simply pass the turn on.

>>> sorted(CUSTOMIZABLE_RULES)[:3]
['everyone-draws-one', 'next-draws-two', 'pass-hands']
"""

from __future__ import annotations

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

# Wilds whose color is named later by the player they pick (RULES.md section 3.1).
VICTIM_NAMES_COLOR = frozenset({Rank.WILD_SUPER_HERO, Rank.WILD_VILLAIN})
# Cards an Invisibility answers on a penalty (RULES.md section 4, Harry Potter).
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


def invisibility_answers(game: Game, pending: Pending) -> bool:
    """True if the pending decision may be answered with Invisibility."""
    if not has_invisibility(game):
        return False
    if pending.kind is PendingKind.HOWLER:
        return True
    return pending.kind in (PendingKind.PENALTY, PendingKind.CHALLENGE) and (
        pending.rank in INVISIBILITY_ANSWERS
    )


def victim_decides(game: Game, rank: Rank) -> bool:
    """True if the victim of ``rank`` gets a decision before the penalty applies: a challenge,
    stacking (house rule) or an Invisibility answer (Harry Potter; asked of every victim)."""
    if rank.is_restricted:
        return True
    if game.options.has(HouseRule.STACKING) and rank.draw_count:
        return True
    return has_invisibility(game) and rank in INVISIBILITY_ANSWERS


def last_card(game: Game, player: str, face: Face) -> None:
    """A player's last card: only a draw for the next player and a flip are carried out
    (RULES.md section 7); Save The Day still blocks the draw."""
    rank = face.rank
    if rank.draw_count or rank is Rank.WILD_DRAW_COLOR:
        victim = game._next_seat(player)
        if victim == game.protected:
            game._emit(EventKind.PENALTY_BLOCKED, victim, card=rank.value)
        else:
            game._take_penalty(victim, rank, rank.draw_count, "penalty")
    elif rank is Rank.FLIP:
        game._flip()


def seven_o(game: Game, play: Play) -> None:
    """House rule Seven-O: a 7 swaps hands with the picked player, a 0 passes every hand on."""
    if game.options.has(HouseRule.SEVEN_O):
        if play.face.rank is Rank.SEVEN:
            assert play.target is not None
            game.swap_hands(play.player, play.target)
            game._emit(EventKind.HANDS_SWAPPED, play.player, with_=play.target)
        else:
            game.pass_hands()
            game._emit(EventKind.HANDS_PASSED, play.player, direction=_direction(game))
    game._pass_turn(play.player)


def _direction(game: Game) -> str:
    return "left" if game.direction == 1 else "right"


def skip(game: Game, play: Play) -> None:
    """Skip: the next player loses their turn."""
    game._hit(game._next_seat(play.player), Rank.SKIP, 0, source=play.player)


def reverse(game: Game, play: Play) -> None:
    """Reverse: direction reverses; with two players it also acts as a Skip."""
    game.direction = -game.direction
    game._emit(EventKind.DIRECTION_REVERSED, play.player, direction=_direction(game))
    if len(game.seated) == 2:
        game._hit(game._next_seat(play.player), Rank.REVERSE, 0, source=play.player)
    else:
        game._pass_turn(play.player)


def draw_card(game: Game, play: Play) -> None:
    """Draw One / Two / Three / Five: the next player draws that many and loses their turn."""
    rank = play.face.rank
    game._hit(game._next_seat(play.player), rank, rank.draw_count, source=play.player)


def skip_everyone(game: Game, play: Play) -> None:
    """Skip Everyone: every other player loses their turn; its player plays again."""
    for other in game.seated:
        if other != play.player:
            game._emit(EventKind.TURN_SKIPPED, other)
    game._set_turn(play.player)


def flip(game: Game, play: Play) -> None:
    """Flip: the table turns over; the new top card's action is not carried out (section 5)."""
    game._flip()
    top = game.top
    if top.rank.is_wild:
        game.color = None
        game.pending = Pending(PendingKind.COLOR, play.player, resume=play.player)
    else:
        game.color = top.color
        game._pass_turn(play.player)


def restricted_wild(game: Game, play: Play) -> None:
    """Wild Draw Four / Two / Color: the next player may challenge or accept (section 6)."""
    rank = play.face.rank
    game._hit(
        game._next_seat(play.player),
        rank,
        rank.draw_count,
        source=play.player,
        prev_color=play.prev_color,
    )


def _pick_by_size(game: Game, player: str, most: bool) -> str:
    """Wild Super Hero / Villain: the player with most (fewest) cards; ties go to the first in
    turn order from the next player, the card's player counting last (RULES.md section 4)."""
    n = len(game.seated)
    order = [game._next_seat(player, steps=k) for k in range(1, n)] + [player]
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
    game._draw(picked, 3, "wild villain")
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
            game._reveal(other, [play.player])
    game._pass_turn(play.player)


def save_the_day(game: Game, play: Play) -> None:
    """Save The Day: the picked player is protected from penalty cards until another wild."""
    assert play.target is not None
    game.protected = play.target
    game._emit(EventKind.PROTECTED, play.target, by=play.player)
    game._pass_turn(play.player)


def wild_customizable(game: Game, play: Play) -> None:
    """Wild Customizable: the host's rule from :data:`CUSTOMIZABLE_RULES`, or announced text."""
    text = game.options.customizable_rule
    rule = CUSTOMIZABLE_RULES.get(text)
    if rule is None:
        if text:
            game._emit(EventKind.HOUSE_RULE, play.player, text=text)
        game._pass_turn(play.player)
        return
    game._emit(EventKind.HOUSE_RULE, play.player, text=rule.name, rule=rule.id)
    rule.apply(game, play)


# ----------------------------------------------------------------- Wild Customizable catalogue


def _everyone_draws_one(game: Game, play: Play) -> None:
    for other in game.seated:
        if other == play.player:
            continue
        if other == game.protected:
            game._emit(EventKind.PENALTY_BLOCKED, other, card=Rank.WILD_CUSTOMIZABLE.value)
        else:
            game._draw(other, 1, "house-rule")
    game._pass_turn(play.player)


def _swap_hands(game: Game, play: Play) -> None:
    assert play.target is not None
    game.swap_hands(play.player, play.target)
    game._emit(EventKind.HANDS_SWAPPED, play.player, with_=play.target)
    game._pass_turn(play.player)


def _pass_hands(game: Game, play: Play) -> None:
    game.pass_hands()
    game._emit(EventKind.HANDS_PASSED, play.player, direction=_direction(game))
    game._pass_turn(play.player)


def _skip_two(game: Game, play: Play) -> None:
    victims = [game._next_seat(play.player, steps=k) for k in (1, 2)]
    last = play.player
    for victim in dict.fromkeys(v for v in victims if v != play.player):
        if victim == game.protected:
            game._emit(EventKind.PENALTY_BLOCKED, victim, card=Rank.WILD_CUSTOMIZABLE.value)
            game._set_turn(victim)
            return
        game._emit(EventKind.TURN_SKIPPED, victim)
        last = victim
    game._pass_turn(last)


def _play_again(game: Game, play: Play) -> None:
    game._set_turn(play.player)


def _next_draws_two(game: Game, play: Play) -> None:
    game._hit(game._next_seat(play.player), Rank.WILD_CUSTOMIZABLE, 2, answerable=False)


@dataclass(frozen=True)
class CustomRule:
    """One Wild Customizable rule the engine carries out.

    Attributes:
        id: stable id (``options.customizable_rule``).
        name: short name for the table.
        description: one line for the host's list.
        apply: the effect.
        needs_target: the card's player picks a player.
    """

    id: str
    name: str
    description: str
    apply: Effect
    needs_target: bool = False


CUSTOMIZABLE_RULES: dict[str, CustomRule] = {
    r.id: r
    for r in (
        CustomRule(
            "everyone-draws-one",
            "Everyone draws one",
            "Every other player draws one card.",
            _everyone_draws_one,
        ),
        CustomRule(
            "swap-hands",
            "Swap hands",
            "The card's player swaps hands with a player they pick.",
            _swap_hands,
            needs_target=True,
        ),
        CustomRule(
            "pass-hands",
            "Pass your hands",
            "Every hand passes one seat in the direction of play.",
            _pass_hands,
        ),
        CustomRule("skip-two", "Double skip", "The next two players lose their turn.", _skip_two),
        CustomRule("play-again", "Play again", "The card's player takes another turn.", _play_again),
        CustomRule(
            "next-draws-two",
            "Draw two",
            "The next player draws two cards and loses their turn.",
            _next_draws_two,
        ),
    )
}

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
