"""The DOS aggregate and its AI (bot/engine/dos; docs/rules.md §14, docs/engine-dos.md): what the
scenarios don't reach: the AI's choices, dealing and the deal passing on, saving, replaying, views
and the action text."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from bot.engine import ai
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import COLORS, DECK, DosCard
from bot.engine.dos.game import DosGame, adds_up
from bot.engine.errors import BadAction, BadCard, BadOption, BadState, NotInGame
from bot.engine.options import DosPendingKind, Pending


def cards(*names: str) -> list[DosCard]:
    """Cards by name."""
    return [DosCard.parse(n) for n in names]


def dealt(ana: list[str], row: list[str], draw: list[str] | None = None) -> DosGame:
    """ana to play against ben on ``row``; ``draw`` top first."""
    return DosGame.from_deal(
        ["ana", "ben", "cy"],
        dealer="cy",
        hands={
            "ana": cards(*ana),
            "ben": cards("green 6", "yellow 7", "blue 9"),
            "cy": cards("red 9", "red 10"),
        },
        row=[[c] for c in cards(*row)],
        draw_pile=list(reversed(cards(*(draw or ["green 1", "green 3", "yellow 4", "yellow 5"])))),
    )


def test_ai_prefers_a_double_color_match() -> None:
    """The normal AI takes red 3 + red 4 on red 7 (a bonus card, a card for everyone else) over the
    single number match blue 7 and the uncolored pair 3 + 4 on blue 7."""
    game = dealt(
        ["red 3", "red 4", "blue 7", "green 3", "yellow 4", "green 10", "blue 10"], ["red 7", "yellow 7"]
    )
    action = ai.choose(game, "ana", random.Random(1))
    assert action.kind is DosActionKind.PLAY and action.pile == 1
    assert sorted(c.name for c in action.cards) == ["red 3", "red 4"]


def test_ai_sheds_high_cards_and_keeps_wilds() -> None:
    """Placing a card (no-match or bonus), the AI gives up its highest number card, not a wild."""
    game = dealt(["red 3", "wild dos", "green 9", "yellow 4"], ["red 10", "yellow 10"], ["blue 3"])
    game.draw("ana")
    assert game.pending.kind is DosPendingKind.PLACE
    assert ai.choose(game, "ana", random.Random(1)) == DosAction(
        DosActionKind.PLACE, cards=(DosCard.parse("green 9"),)
    )


def test_ai_calls_dos_before_coming_down_to_two() -> None:
    """With three cards on its turn, the AI calls DOS first (the call covers the hand coming down
    to two), then matches; no catch window opens."""
    game = dealt(["red 7", "green 1", "blue 3"], ["red 7", "yellow 8"])
    rng = random.Random(1)
    assert ai.choose(game, "ana", rng) == DosAction(DosActionKind.DOS)
    game.apply("ana", DosAction(DosActionKind.DOS))
    action = ai.choose(game, "ana", rng)
    assert action.kind is DosActionKind.PLAY
    game.apply("ana", action)
    assert len(game.hands["ana"]) <= 2 and not game.catchable


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_ai_plays_whole_games_legally(level: str) -> None:
    """Every action ai.choose gives on a DOS game, at easy and normal, is a legal one (hard's
    rounds, with few playouts: tests/engine/test_dos_search.py)."""
    for seed in range(5):
        game = DosGame(["a", "b", "c", "d"], seed=seed)
        rng = random.Random(seed)
        while not game.game_over:
            game.start_round()
            while not game.round_over:
                player = game.pending.player
                assert player is not None
                action = ai.choose(game, player, rng, level)
                assert action in game.legal_actions(player)
                game.apply(player, action)


def test_deal() -> None:
    """Seven cards each, two piles, the rest in the draw pile; left of the dealer starts."""
    game = DosGame(["a", "b", "c"], seed=4)
    game.start_round()
    assert [len(h) for h in game.hands.values()] == [7, 7, 7]
    assert [len(p) for p in game.row] == [1, 1] and not game.discard_pile
    assert len(game.draw_pile) == 108 - 21 - 2
    assert game.dealer is not None and game.pending.player == game.next_seat(game.dealer)


def test_deal_passes_left_past_a_player_who_left() -> None:
    """docs/rules.md §14.15, item 5: the next deal goes to the next seated player to the left of
    a dealer who left."""
    game = DosGame(["a", "b", "c", "d"], seed=2)
    game.start_round()
    dealer = game.dealer
    assert dealer is not None
    after = game.next_seat(dealer)
    game.apply(dealer, DosAction(DosActionKind.LEAVE))
    while not game.round_over:
        player = game.pending.player
        assert player is not None
        game.apply(player, DosAction(DosActionKind.TIMEOUT))
    if not game.game_over:
        game.start_round()
        assert game.dealer == after


def test_completions_name_what_a_match_still_needs() -> None:
    """docs/rules.md §14.5-§14.6: a match given by its pile and cards completes to every color its
    Wild DOS cards and a Wild DOS pile may take; one set in full completes to itself; a pile
    alone to each of its matches; a match not legal, or off one's turn, to none."""
    game = DosGame.from_deal(
        ["ana", "ben"],
        dealer="ben",
        turn="ana",
        hands={"ana": cards("red 1", "blue 1", "wild dos"), "ben": cards("blue 1")},
        row=[cards("wild dos"), cards("green 7")],
        draw_pile=cards("green 1", "green 1", "green 1"),
    )
    pair = DosAction.parse("play pile=1 red 1 + blue 1")
    assert [a.pile_color for a in game.completions("ana", pair)] == list(COLORS)
    wild = DosAction.parse("play pile=1 wild dos")
    assert len(game.completions("ana", wild)) == 4 * 4  # its own color, and the pile's
    named = DosAction.parse("play pile=1 wild dos color=blue")
    assert {a.pile_color for a in game.completions("ana", named)} == set(COLORS)
    full = DosAction.parse("play pile=1 wild dos color=blue pile_color=red")
    assert game.completions("ana", full) == [full]
    assert len(game.completions("ana", DosAction(DosActionKind.PLAY, pile=1))) == 4 * 4 + 4
    assert game.completions("ana", DosAction.parse("play pile=2 red 1")) == []
    assert game.completions("ana", DosAction(DosActionKind.DRAW)) == [DosAction(DosActionKind.DRAW)]
    assert game.completions("ben", pair) == []


def test_save_restore_and_replay() -> None:
    """to_dict/from_dict keep a game mid-round exactly; the journal replays it; a broken save is
    refused with BadState."""
    game = DosGame(["a", "b"], seed=9)
    game.start_round()
    rng = random.Random(9)
    for _ in range(15):
        player = game.pending.player
        assert player is not None
        game.apply(player, ai.choose(game, player, rng))
        if game.round_over:
            break
    saved = game.to_dict()
    assert DosGame.from_dict(saved).to_dict() == saved
    assert DosGame.replay(saved).to_dict() == saved
    assert game.copy().to_dict() == saved
    broken = dict(saved, hands={**saved["hands"], "a": []})
    with pytest.raises(BadState):
        DosGame.from_dict(broken)
    with pytest.raises(BadState):
        DosGame.from_dict(dict(saved, variant="classic"))


def test_a_seat_replaced_is_the_same_seat_under_another_name() -> None:
    """docs/rules.md §5.3 in DOS: ``replaced`` gives the seat's hand, score, turn and standing
    DOS call to the new id, names the old one nowhere (its journal's players and catch targets
    included), replays to itself, and leaves the game as it was; a player out of the game, a
    name already seated, or a game without journal is refused."""
    game, rng, old = DosGame(["ana", "ben", "cy"], seed=3), random.Random(3), "ben"
    game.start_round()
    caught = False
    for _ in range(2000):  # random matches, no calls: ben is caught, then calls on his turn
        player = game.pending.player or ""
        if game.round_over:
            game.start_round()
        elif old in game.catch_targets("ana"):
            game.apply("ana", DosAction(DosActionKind.CATCH, target=old))
            caught = True
        elif caught and player == old and game.can_call_dos(old):
            game.apply(old, DosAction(DosActionKind.DOS))
            break
        else:
            game.apply(player, rng.choice(game.decisions(player)))
    assert caught and old in game.called and game.pending.player == old
    saved = game.to_dict()
    new = game.replaced(old, "ai:1")
    assert game.to_dict() == saved  # unchanged
    text = json.dumps(new.to_dict())
    assert f'"{old}"' not in text and f"={old}" not in text and "target=ai:1" in text
    assert json.loads(text.replace("ai:1", old)) == saved
    assert DosGame.replay(new.to_dict()).to_dict() == new.to_dict()
    assert new.hands["ai:1"] == game.hands[old] and new.scores["ai:1"] == game.scores[old]
    assert new.pending.player == "ai:1" and "ai:1" in new.called
    new.apply("ai:1", ai.choose(new, "ai:1", random.Random(1)))  # it plays on
    with pytest.raises(BadOption):
        game.replaced(old, "ana")
    game.apply(old, DosAction(DosActionKind.LEAVE))
    with pytest.raises(NotInGame):
        game.replaced(old, "ai:1")
    with pytest.raises(BadState):
        dealt(["red 7"], ["red 7", "yellow 8"]).replaced("ana", "ai:1")


def test_views() -> None:
    """The public view shows hand sizes, not cards; the private view adds the player's hand and
    legal actions as text."""
    game = dealt(["red 7", "green 1", "blue 3"], ["red 7", "yellow 8"])
    public = game.public_view()
    assert public["hand_sizes"]["ana"] == 3 and "hand" not in public
    assert public["row"] == [["red 7"], ["yellow 8"]]
    mine = game.private_view("ana")
    assert mine["hand"] == ["red 7", "green 1", "blue 3"]
    assert "play pile=1 red 7" in mine["actions"] and "draw" in mine["actions"]
    assert game.private_view("ben")["actions"] == []


def test_action_text() -> None:
    """Action text reads back exactly; broken text is BadAction."""
    action = DosAction(DosActionKind.PLAY, 3, tuple(cards("wild dos", "green 3")), None, None)
    assert DosAction.parse(action.text()) == action
    for bad in ("", "jump pile=1", "play pile=x red 3", "play red 2", "play color=pink wild dos"):
        with pytest.raises(BadAction):
            DosAction.parse(bad)


def test_adds_up_is_the_definition() -> None:
    """adds_up (with its shortcuts for Wild #) agrees with docs/rules.md §14.5 taken literally:
    some choice of numbers 1-10 for the Wild # cards makes the cards add up to the pile, for every
    pile and every one or two cards of the deck."""
    kinds = list(dict.fromkeys(DECK))

    def literal(group: list[DosCard], pile: DosCard) -> bool:
        totals = {sum(pick) for pick in itertools.product(*(c.numbers for c in group))}
        return not totals.isdisjoint(pile.numbers)

    for pile in kinds:
        for a in kinds:
            assert adds_up([a], pile) == literal([a], pile), (a.name, pile.name)
            for b in kinds:
                assert adds_up([a, b], pile) == literal([a, b], pile), (a.name, b.name, pile.name)


def test_deck_and_cards() -> None:
    """108 cards: 22 numbers and two Wild # per color, twelve Wild DOS; no 0 and no 2."""
    assert len(DECK) == 108
    assert sum(c.wild_dos for c in DECK) == 12
    assert sum(c.name == "red wild number" for c in DECK) == 2
    for bad in ("red 2", "red 0", "pink 3", "wild", "red 11"):
        with pytest.raises(BadCard):
            DosCard.parse(bad)


def test_pending_is_one_shape_for_every_edition() -> None:
    """A DOS game waits on a ``Pending`` as UNO's does (of a DOS kind, UNO's other fields unset),
    and its save keeps DOS's ``[kind, player]`` form, read back to the same decision."""
    game = DosGame(["ana", "ben"], seed=1)
    game.start_round()
    assert type(game.pending) is Pending
    assert game.pending.kind is DosPendingKind.TURN and game.pending.player in game.players
    assert game.pending._replace(kind=DosPendingKind.TURN, player=None) == Pending(DosPendingKind.TURN)
    saved = game.to_dict()
    assert saved["pending"] == ["turn", game.pending.player]
    assert DosGame.from_dict(saved).pending == game.pending
