"""The Game aggregate beyond the rule scenarios: dealing, determinism, serialization, refusals,
views, options and legal actions (bot/engine/game.py)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from bot.engine import ai
from bot.engine.actions import ActionKind
from bot.engine.cards import Card, Color, Rank, Side
from bot.engine.errors import BadOption, BadState, NotInGame, UnoError
from bot.engine.events import Event
from bot.engine.game import Action, Game
from bot.engine.options import Options, PendingKind

PLAYERS = ["ana", "ben", "cy"]


# --------------------------------------------------------------------------- helpers


class NoShuffle(random.Random):
    """A generator whose shuffles keep the order, so a test can stack the deck.

    ``shuffle`` does nothing, and ``random()`` is just below 1, so that a Fisher-Yates shuffle
    driven by ``random()`` swaps every card with itself.
    """

    def shuffle(self, x: Any, *args: Any) -> None:
        return None

    def random(self) -> float:
        return 1 - 2**-50


def cards(names: Sequence[str]) -> list[Card]:
    """Cards from their names."""
    return [Card.parse(n) for n in names]


def deal(
    hands: dict[str, list[str]],
    *,
    players: Sequence[str] = PLAYERS,
    variant: str = "classic",
    discard: Sequence[str] = ("red 7",),
    draw: Sequence[str] = (),
    dealer: str | None = None,
    options: dict[str, Any] | None = None,
    **kwargs: Any,
) -> Game:
    """A game in a given position, like a scenario's [deal] (``draw`` top first)."""
    game, _ = Game.from_deal(
        list(players),
        variant=variant,
        options=Options.parse(options),
        dealer=dealer or players[-1],
        hands={p: cards(h) for p, h in hands.items()},
        draw_pile=list(reversed(cards(draw))),
        discard_pile=cards(discard),
        **kwargs,
    )
    return game


def census(game: Game) -> Counter[Card]:
    """Every card in the hands and piles."""
    count = Counter(c for h in game.hands.values() for c in h)
    count.update(game.draw_pile)
    count.update(game.discard_pile)
    return count


def drawn_by(events: Sequence[Event], player: str) -> int:
    """Cards ``player`` drew in ``events``."""
    return sum(e.data["count"] for e in events if e.kind == "cards-drawn" and e.player == player)


def card_strings(value: Any) -> Iterator[tuple[str, str]]:
    """Every (key path, text) in a view whose text names a card."""

    def walk(node: Any, path: str) -> Iterator[tuple[str, str]]:
        if isinstance(node, dict):
            for k, v in node.items():
                yield from walk(v, f"{path}.{k}")
        elif isinstance(node, list | tuple):
            for i, v in enumerate(node):
                yield from walk(v, f"{path}[{i}]")
        elif isinstance(node, str):
            try:
                Card.parse(node)
            except UnoError:
                return
            yield path, node

    return walk(value, "")


# Tables with many kinds of decisions: (variant, options).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("flip", {}),
    ("flip-marvel", {}),
    ("harry-potter", {}),
    ("cars2", {}),
    ("dc-super-hero-girls", {"customizable_rule": "swap-hands"}),
    ("dc-super-hero-girls", {"customizable_rule": "skip-two"}),
    ("classic", {"house_rules": ["stacking", "jump-in", "seven-o"]}),
    ("classic", {"house_rules": ["forced-play", "draw-until-playable", "no-bluffing"]}),
    ("flip", {"house_rules": ["stacking", "jump-in"]}),
    ("harry-potter", {"house_rules": ["stacking"], "partners": True}),
    ("classic", {"scoring": "running-tally", "elimination": True, "target_score": 50}),
]
CONFIG_IDS = [
    "classic",
    "flip",
    "flip-marvel",
    "harry-potter",
    "cars2",
    "dc-swap-hands",
    "dc-skip-two",
    "classic-stacking-jump-in-seven-o",
    "classic-forced-play-draw-until-playable-no-bluffing",
    "flip-stacking-jump-in",
    "harry-potter-stacking-partners",
    "classic-elimination",
]


def new_game(variant: str, options: dict[str, Any], seed: int, players: int = 4) -> Game:
    """A started game of ``players`` seats."""
    game = Game(
        [f"p{i}" for i in range(players)],
        variant=variant,
        options=Options.parse(options),
        seed=seed,
    )
    game.start_round()
    return game


def positions(variant: str, options: dict[str, Any], seeds: Sequence[int]) -> Iterator[Game]:
    """Snapshots (copies) of every position of AI-vs-random rounds."""
    for seed in seeds:
        game = new_game(variant, options, seed)
        seen = [Game.from_dict(game.to_dict())]

        def snapshot(g: Game, seen: list[Game] = seen) -> None:
            seen.append(Game.from_dict(g.to_dict()))

        ai.play_round(game, {"p0": ai.choose}, random.Random(seed), after_step=snapshot)
        yield from seen


# --------------------------------------------------------------------------- positions per
# pending kind (built like scenarios; each is a fresh game)


def at_turn() -> Game:
    """Ana's ordinary turn on a red 7."""
    return deal(
        {
            "ana": ["red 2", "blue 9", "wild", "wild draw four", "green 7"],
            "ben": ["yellow 5", "red 6", "blue 8"],
            "cy": ["green 8", "green 9", "blue 0"],
        },
        draw=["red 9", "blue 1", "blue 2", "blue 3", "blue 4", "yellow 1"],
    )


def at_draw_decision(**options: Any) -> Game:
    """Ana drew a playable red 9."""
    game = deal(
        {"ana": ["blue 9", "green 7"], "ben": ["yellow 5", "red 6"], "cy": ["green 8"]},
        draw=["red 9", "blue 1"],
        options=options,
    )
    game.draw("ana")
    assert game.pending.kind is PendingKind.DRAW_DECISION
    return game


def at_challenge() -> Game:
    """Ben may challenge ana's Wild Draw Four."""
    game = at_turn()
    game.play("ana", "wild draw four", color="blue")
    assert game.pending.kind is PendingKind.CHALLENGE
    return game


def at_penalty() -> Game:
    """Harry Potter: ben decides on ana's Draw Three (accept or Invisibility)."""
    game = deal(
        {
            "ana": ["red draw three", "green 4", "blue 5"],
            "ben": ["red 6", "blue 8"],
            "cy": ["green 8", "green 9"],
        },
        variant="harry-potter",
        draw=["blue 1", "blue 2", "blue 3", "yellow 4"],
    )
    game.play("ana", "red draw three")
    assert game.pending.kind is PendingKind.PENALTY
    return game


def at_color() -> Game:
    """A Wild start card: ana (left of the dealer) names the color."""
    game = deal(
        {
            "ana": ["blue 1", "blue 2", "green 3"],
            "ben": ["red 6", "yellow 8"],
            "cy": ["green 8", "green 9"],
        },
        discard=["wild"],
        draw=["red 1"],
        started=False,
    )
    assert game.pending.kind is PendingKind.COLOR
    return game


def at_discard() -> Game:
    """Flip Marvel: ben, holding most cards, may discard after ana's Wild Super Hero."""
    game = deal(
        {
            "ana": ["wild super hero / pink 3", "red 2 / teal 4", "blue 3 / orange 5"],
            "ben": ["green 1 / pink 1", "green 2 / pink 2", "yellow 3 / teal 3", "blue 4 / teal 4"],
            "cy": ["red 5 / orange 1", "red 6 / orange 2", "blue 6 / purple 1"],
        },
        variant="flip-marvel",
        discard=["red 7 / purple 7"],
        draw=["yellow 8 / purple 8", "yellow 9 / purple 9"],
    )
    game.play("ana", "wild super hero")
    assert game.pending.kind is PendingKind.DISCARD
    return game


def at_howler() -> Game:
    """Harry Potter: ben answers ana's Howler (let the hand be shown, or Invisibility)."""
    game = deal(
        {
            "ana": ["howler", "red 2", "blue 3"],
            "ben": ["red 6", "blue 8", "green 1"],
            "cy": ["green 8", "green 9"],
        },
        variant="harry-potter",
        draw=["blue 1"],
    )
    game.play("ana", "howler", color="green", target="ben")
    assert game.pending.kind is PendingKind.HOWLER
    return game


def at_jump_in() -> Game:
    """Jump-in is on; ben holds the other red 7."""
    return deal(
        {
            "ana": ["red 2", "blue 9"],
            "ben": ["red 7", "blue 8", "wild", "yellow 1"],
            "cy": ["green 8", "green 9"],
        },
        draw=["blue 1"],
        options={"house_rules": ["jump-in"]},
    )


def at_uno_called() -> Game:
    """Ana called UNO on her turn, holding two cards."""
    game = deal({"ana": ["red 2", "red 3"], "ben": ["red 6", "blue 1"], "cy": ["green 8"]})
    game.call_uno("ana")
    return game


def played(game: Game, player: str, card: str) -> Game:
    """The game after ``player`` played ``card``."""
    game.play(player, card)
    return game


def at_round_over() -> Game:
    """Ana went out with her last card."""
    game = deal({"ana": ["red 2"], "ben": ["red 6", "blue 8"], "cy": ["green 8"]}, draw=["blue 1"])
    game.call_uno("ana")
    game.play("ana", "red 2")
    assert game.round_over
    return game


def at_game_over() -> Game:
    """Single-round scoring: ana went out and won the game."""
    game = deal(
        {"ana": ["red 2"], "ben": ["red 6", "blue 8"], "cy": ["green 8"]},
        draw=["blue 1"],
        options={"scoring": "single-round"},
    )
    game.play("ana", "red 2")
    assert game.game_over
    return game


PENDING_POSITIONS: dict[str, Callable[[], Game]] = {
    "turn": at_turn,
    "draw-decision": at_draw_decision,
    "challenge": at_challenge,
    "penalty": at_penalty,
    "color": at_color,
    "discard": at_discard,
    "howler-response": at_howler,
    "none": at_round_over,
}


# --------------------------------------------------------------------------- dealing


def stacked_game(players: Sequence[str], tail: Sequence[str], variant: str = "classic") -> Game:
    """A game whose first draws for the dealer are ``tail`` (light faces), in order."""
    game = Game(players, variant=variant, seed=0)
    game.rng = NoShuffle(0)
    deck = sorted(game.deck, key=lambda c: c.light.rank.number is not None)  # numbers last
    chosen = []
    for name in tail:
        card = next(c for c in deck if c.light.name == name)
        deck.remove(card)
        chosen.append(card)
    game.deck = deck + chosen[::-1]  # the draws pop from the end
    return game


@pytest.mark.parametrize(
    ("tail", "dealer", "drawn"),
    [
        (["red 3", "blue 9", "green 5"], "ben", ["red 3", "blue 9", "green 5"]),
        (["red 9", "blue 9", "green 5", "red 2", "yellow 4"], "ben",
         ["red 2", "yellow 4", "green 5"]),
        (["wild", "red skip", "red 1"], "cy", ["wild", "red skip", "red 1"]),
        (["red 0", "wild", "blue draw two", "red 1", "red 2", "red 3"], "cy",
         ["red 1", "red 2", "red 3"]),
        (["red 5", "yellow 5", "green 5", "blue 6", "blue 6", "blue 2", "green 8", "blue 7"],
         "ana", ["green 8", "blue 7", "blue 2"]),
    ],
    ids=["highest", "tie-redraw", "actions-zero", "all-zero-redraw", "double-tie"],
)  # fmt: skip
def test_dealer_chosen_by_draw(tail: list[str], dealer: str, drawn: list[str]) -> None:
    """Round 1: highest number deals; actions and wilds count zero; tied players draw again."""
    game = stacked_game(PLAYERS, tail)
    events = game.start_round()
    assert game.dealer == dealer
    started = [e for e in events if e.kind == "round-started"]
    assert [e.data for e in started] == [{"round": 1, "dealer": dealer}]
    dealer_drawn = next(e for e in events if e.kind == "dealer-drawn")
    assert dealer_drawn.data["cards"] == dict(zip(PLAYERS, drawn, strict=True))


def test_flip_dealer_compares_light_faces() -> None:
    """Flip: the draw for the dealer compares light faces only."""
    for seed in range(100):
        game = Game(PLAYERS, variant="flip", seed=seed)
        deck = list(game.deck)
        lows = [c for c in deck if c.light.rank.number == 1 and c.dark and c.dark.rank.number == 9]
        highs = [c for c in deck if c.light.rank.number == 8 and c.dark and c.dark.rank.is_wild]
        if lows and highs:
            break
    low, high = lows[0], highs[0]
    deck.remove(low)
    deck.remove(high)
    mid = next(c for c in deck if c.light.rank.number == 4)
    deck.remove(mid)
    game.rng = NoShuffle(0)
    game.deck = [*deck, mid, high, low]  # ana draws low, ben high, cy mid
    game.start_round()
    assert game.dealer == "ben"


def test_deal_one_at_a_time_from_left_of_dealer() -> None:
    """Cards are dealt one at a time from left of the dealer; that player also plays first."""
    players = ["ana", "ben", "cy", "dee"]
    game = stacked_game(players, ["red 1", "red 2", "red 9", "red 3"])
    game.start_round()
    assert game.dealer == "cy"
    stack = list(game.deck)  # the deal pops from the end, like the dealer draw
    order = ["dee", "ana", "ben", "cy"]
    for k, player in enumerate(order):
        expected = [stack[-1 - k - 4 * i] for i in range(7)]
        assert game.hands[player] == expected
    assert game.discard_pile == [stack[-29]]
    assert game.pending.kind is PendingKind.TURN
    assert game.pending.player == "dee"


@pytest.mark.parametrize("variant", ["classic", "flip", "harry-potter", "cars2"])
@pytest.mark.parametrize("n", [2, 3, 4, 7, 10])
def test_start_round_deals_seven_each(variant: str, n: int) -> None:
    """Every player gets seven cards (plus any start-card draw); no card is lost or added."""
    for seed in range(5):
        game = Game([f"p{i}" for i in range(n)], variant=variant, seed=seed)
        events = game.start_round()
        for player, hand in game.hands.items():
            assert len(hand) == 7 + drawn_by(events, player)
        assert len(game.discard_pile) == 1
        assert census(game) == Counter(game.deck)
        assert game.round_no == 1
        flipped = any(e.kind == "side-flipped" for e in events)
        assert game.side is (Side.DARK if flipped else Side.LIGHT)
        assert not game.round_over
        assert game.pending.kind in (PendingKind.TURN, PendingKind.COLOR)


def test_deal_passes_to_the_left() -> None:
    """Later rounds: the deal passes to the left (skipping a player who left)."""
    players = ["ana", "ben", "cy", "dee"]
    game = Game(players, seed=4, options=Options(target_score=100_000))
    game.start_round()
    assert game.dealer is not None
    dealers = [game.dealer]
    for round_no in (2, 3):
        ai.play_round(game, {}, random.Random(round_no))
        assert not game.game_over
        events = game.start_round()
        assert game.round_no == round_no
        assert [e.data["dealer"] for e in events if e.kind == "round-started"] == [game.dealer]
        assert not any(e.kind == "dealer-drawn" for e in events)
        dealers.append(game.dealer)
        for player, hand in game.hands.items():
            assert len(hand) == 7 + drawn_by(events, player)
        assert census(game) == Counter(game.deck)
    first = players.index(dealers[0])
    assert dealers == [players[(first + k) % 4] for k in range(3)]
    ai.play_round(game, {}, random.Random(9))
    skipped = players[(first + 3) % 4]
    game.leave(skipped)
    game.start_round()
    assert game.dealer == players[first]
    assert skipped not in game.hands


def test_start_round_refused_mid_round_and_after_game() -> None:
    """A new round can't start while one is played, nor once the game is over."""
    game = at_turn()
    before = game.to_dict()
    with pytest.raises(UnoError) as exc:
        game.start_round()
    assert exc.value.reason == "not-expected"
    assert game.to_dict() == before
    over = at_game_over()
    before = over.to_dict()
    with pytest.raises(UnoError) as exc:
        over.start_round()
    assert exc.value.reason == "round-over"
    assert over.to_dict() == before


# --------------------------------------------------------------------------- determinism


def play_with_trace(game: Game, seed: int) -> list[dict[str, Any]]:
    """Play the round out with seeded random players; the state after every decision."""
    trace = [game.to_dict()]
    ai.play_round(
        game, {"p1": ai.choose}, random.Random(seed), after_step=lambda g: trace.append(g.to_dict())
    )
    return trace


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=CONFIG_IDS)
def test_same_seed_same_game(variant: str, options: dict[str, Any]) -> None:
    """The same seed and the same actions give the same game, step by step."""
    a = play_with_trace(new_game(variant, options, 21), 5)
    b = play_with_trace(new_game(variant, options, 21), 5)
    assert a == b
    c = play_with_trace(new_game(variant, options, 22), 5)
    assert a[0]["hands"] != c[0]["hands"]


def test_restored_game_continues_identically() -> None:
    """A game restored mid-round plays on exactly like the original (its generator included)."""
    for variant, options in CONFIGS:
        game = new_game(variant, options, 8)
        rng = random.Random(8)
        for _ in range(15):
            if game.round_over:
                break
            player = game.pending.player
            assert player is not None
            game.apply(player, ai.random_action(game, player, rng))
        saved, rng_state = json.loads(json.dumps(game.to_dict())), rng.getstate()
        ai.play_round(game, {}, rng)
        restored = Game.from_dict(saved)
        rng.setstate(rng_state)
        ai.play_round(restored, {}, rng)
        assert restored.to_dict() == game.to_dict()


# --------------------------------------------------------------------------- serialization


def check_round_trip(game: Game) -> None:
    """to_dict -> (JSON) -> from_dict gives back the same game and legal actions."""
    data = game.to_dict()
    text = json.dumps(data)
    restored = Game.from_dict(json.loads(text))
    assert restored.to_dict() == data
    for player in game.players:
        assert restored.legal_actions(player) == game.legal_actions(player)


@pytest.mark.parametrize("kind", list(PENDING_POSITIONS))
def test_round_trip_at_every_pending_kind(kind: str) -> None:
    """A game waiting on each kind of decision survives to_dict/from_dict exactly."""
    game = PENDING_POSITIONS[kind]()
    assert game.pending.kind.value == kind
    check_round_trip(game)


def test_round_trip_other_states() -> None:
    """Game over, a Save The Day protection, revealed hands and a flipped table round-trip."""
    check_round_trip(at_game_over())
    game = at_howler()
    game.reveal("ben")
    assert game.revealed
    check_round_trip(game)
    dc = deal(
        {"ana": ["save the day", "red 2"], "ben": ["red 6", "blue 8"], "cy": ["green 8"]},
        variant="dc-super-hero-girls",
    )
    dc.play("ana", "save the day", color="red", target="cy")
    assert dc.protected == "cy"
    check_round_trip(dc)
    flip = deal(
        {"ana": ["red flip / pink 1", "red 2 / pink 2"], "ben": ["blue 1 / teal 1"]},
        players=["ana", "ben"],
        variant="flip",
        discard=["red 7 / purple 7"],
        draw=["yellow 8 / purple 8"],
    )
    flip.play("ana", "red flip")
    assert flip.side is Side.DARK
    check_round_trip(flip)
    unstarted = Game(PLAYERS, variant="flip-marvel", seed=1)
    check_round_trip(unstarted)


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=CONFIG_IDS)
def test_round_trip_through_random_rounds(variant: str, options: dict[str, Any]) -> None:
    """Every position of a few rounds survives to_dict/JSON/from_dict exactly."""
    for n, game in enumerate(positions(variant, options, [1, 2])):
        data = game.to_dict()
        assert Game.from_dict(json.loads(json.dumps(data))).to_dict() == data
        if n % 10 == 0:
            check_round_trip(game)


def test_saved_generator_state_follows_the_generator() -> None:
    """to_dict keeps the generator's packed state only while nobody could have drawn from it."""
    game = Game(PLAYERS, seed=4)
    game.start_round()
    first = game.to_dict()
    assert game.to_dict()["rng"] == first["rng"]
    game.rng.random()  # anyone holding the generator may draw
    second = game.to_dict()
    assert second["rng"] != first["rng"]
    restored = Game.from_dict(second)
    assert restored.rng.getstate() == game.rng.getstate()
    assert restored.rng.random() == game.rng.random()
    assert restored.to_dict() == game.to_dict()
    game.rng = random.Random(9)  # a new generator is saved as well
    assert Game.from_dict(game.to_dict()).rng.getstate() == random.Random(9).getstate()


def test_random_rounds_reach_every_pending_kind() -> None:
    """The random positions used here do reach every kind of decision."""
    kinds = {
        game.pending.kind.value
        for variant, options in CONFIGS
        for game in positions(variant, options, [1, 2, 3])
    }
    assert kinds == {k.value for k in PendingKind}


def _good_state() -> dict[str, Any]:
    return at_challenge().to_dict()


def _with(**changes: Any) -> Callable[[], Any]:
    def make() -> dict[str, Any]:
        data = copy.deepcopy(_good_state())
        data.update(changes)
        return data

    return make


def _without(key: str) -> Callable[[], Any]:
    def make() -> dict[str, Any]:
        data = copy.deepcopy(_good_state())
        del data[key]
        return data

    return make


def _hand(player: str, names: Any) -> Callable[[], Any]:
    def make() -> dict[str, Any]:
        data = copy.deepcopy(_good_state())
        data["hands"][player] = names
        return data

    return make


def _moved_card(pile: str) -> Callable[[], Any]:
    """A saved game whose ``pile`` holds one of ana's cards in place of one of its own."""

    def make() -> dict[str, Any]:
        data = copy.deepcopy(_good_state())
        card = data["hands"]["ana"][0]
        other = next(c for c in data[pile] if c != card)
        data[pile][data[pile].index(other)] = card
        return data

    return make


def _pending(**changes: Any) -> Callable[[], Any]:
    def make() -> dict[str, Any]:
        data = copy.deepcopy(_good_state())
        data["pending"].update(changes)
        return data

    return make


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: {}, id="empty"),
        pytest.param(_with(schema=2), id="schema-2"),
        pytest.param(_with(schema=0), id="schema-0"),
        pytest.param(_with(schema="1"), id="schema-text"),
        pytest.param(_without("schema"), id="schema-missing"),
        pytest.param(_without("hands"), id="hands-missing"),
        pytest.param(_without("pending"), id="pending-missing"),
        pytest.param(_with(variant="uno-deluxe"), id="unknown-variant"),
        pytest.param(_with(options={"target_score": -1}), id="bad-options"),
        pytest.param(_with(options=5), id="options-number"),
        pytest.param(_with(rng="garbage"), id="rng-text"),
        pytest.param(_with(rng=[3, [1, 2, 3], None]), id="rng-short"),
        pytest.param(_with(deck=["red 99"]), id="deck-bad-card"),
        pytest.param(_hand("ana", ["red 99"]), id="hand-bad-card"),
        pytest.param(_hand("ana", "red 7"), id="hand-text"),
        pytest.param(_with(side="sideways"), id="bad-side"),
        pytest.param(_with(color="mauve"), id="bad-color"),
        pytest.param(_with(direction="left"), id="direction-text"),
        pytest.param(_with(pending=None), id="pending-null"),
        pytest.param(_pending(kind="nap"), id="pending-kind"),
        pytest.param(_with(pending={"kind": "turn"}), id="pending-short"),
        pytest.param(_with(out=[1]), id="out-list"),
        pytest.param(_with(called=5), id="called-number"),
        pytest.param(_with(drawn="red 99"), id="drawn-bad-card"),
        pytest.param(_with(round="one"), id="round-text"),
        pytest.param(lambda: None, id="none"),
        pytest.param(lambda: "garbage", id="text"),
        pytest.param(lambda: [1, 2, 3], id="list"),
        pytest.param(_with(hands=[]), id="hands-list"),
        pytest.param(_with(scores=[]), id="scores-list"),
        pytest.param(_with(revealed={"ana": 5}), id="revealed-number"),
        pytest.param(_hand("zed", ["red 1"]), id="hand-of-stranger"),
        pytest.param(_pending(player="zed"), id="pending-stranger"),
        pytest.param(_hand("ana", ["red 1"] * 9), id="cards-not-in-deck"),
        pytest.param(_hand("ana", []), id="cards-missing"),
        pytest.param(_moved_card("draw_pile"), id="card-twice"),
        pytest.param(_moved_card("deck"), id="deck-changed"),
        pytest.param(_with(direction=5), id="direction-5"),
        pytest.param(_with(players="ana"), id="players-text"),
    ],
)
def test_from_dict_rejects_bad_state(make: Callable[[], Any]) -> None:
    """A wrong schema, garbage or an inconsistent saved game raises BadState."""
    with pytest.raises(BadState) as exc:
        Game.from_dict(make())
    assert exc.value.reason == "bad-state"


# --------------------------------------------------------------------------- the journal


def _played(seed: int = 3, rounds: int = 2, steps: int = 5) -> Game:
    """A game played by random legal actions through ``apply``: whole rounds, then ``steps``
    actions into round ``rounds`` (no target score is reached)."""
    game = Game(PLAYERS, options=Options(target_score=10_000), seed=seed)
    rng = random.Random(seed)
    while game.round_no < rounds:
        game.start_round()
        moves = 0
        while not game.round_over and (game.round_no < rounds or moves < steps):
            player = game.pending.player
            assert player is not None
            game.apply(player, ai.random_action(game, player, rng))
            moves += 1
    assert not game.round_over
    return game


def test_the_journal_replays_the_game() -> None:
    """Every deal and applied action is in the journal, one per version, and replaying it from the
    seed gives the game; a save without a journal (before journals) restores with none."""
    game = _played()
    journal = game.journal
    assert journal is not None and len(journal) == game.version
    assert journal[0] == (None, "deal") and journal.count((None, "deal")) == game.round_no
    saved = game.to_dict()
    assert Game.replay(json.loads(json.dumps(saved))).to_dict() == saved
    assert Game.from_dict(saved).journal == journal
    old = {k: v for k, v in saved.items() if k != "journal"}
    restored = Game.from_dict(old)
    assert restored.journal is None and restored.to_dict() == {**old, "journal": None}
    restored.apply(restored.pending.player or "", Action(ActionKind.TIMEOUT))  # it still plays
    assert restored.journal is None
    with pytest.raises(BadState):
        Game.replay(old | {"journal": None})


def test_a_seat_replaced_is_the_same_seat_under_another_name() -> None:
    """``replaced`` gives the seat's hand, score and turn to the new id, names the old one nowhere
    (its journal's targets included: catches here), replays to itself, and leaves the game as it
    was; a player out of the game, a name already seated, or a game without journal is refused."""
    game, rng, old = Game(PLAYERS, options=Options(target_score=10_000), seed=6), random.Random(6), "ben"
    game.start_round()
    while old not in game.catch_targets("ana"):  # ben forgets UNO (seed 6: on the 111th move)
        player = game.pending.player or ""
        game.apply(player, ai.random_action(game, player, rng))
    game.apply("ana", Action(ActionKind.CATCH, target=old))
    saved = json.dumps(game.to_dict())
    new = game.replaced(old, "ai:1")
    assert json.dumps(game.to_dict()) == saved  # unchanged
    data = new.to_dict()
    assert f'"{old}"' not in json.dumps(data) and f"={old}" not in json.dumps(data)
    assert json.loads(json.dumps(data).replace("ai:1", old)) == json.loads(saved)
    assert Game.replay(data).to_dict() == data
    assert new.hands["ai:1"] == game.hands[old] and new.scores["ai:1"] == game.scores[old]
    player = new.pending.player or ""
    new.apply(player, ai.random_action(new, player, random.Random(1)))  # it plays on
    with pytest.raises(BadOption):
        game.replaced(old, game.players[0])
    game.apply(old, Action(ActionKind.LEAVE))
    with pytest.raises(NotInGame):
        game.replaced(old, "ai:1")
    with pytest.raises(BadState):
        at_turn().replaced(at_turn().players[0], "ai:1")


def test_the_journal_is_unknown_when_an_action_bypasses_apply() -> None:
    """An action method called directly, or a game dealt by hand, leaves no replayable journal."""
    game = _played(rounds=1)
    game.timeout(game.pending.player or "")
    assert game.journal is None and game.to_dict()["journal"] is None
    assert at_turn().journal is None


@pytest.mark.parametrize(
    "journal",
    [
        pytest.param(lambda j: j[:-1], id="too-short"),
        pytest.param(lambda j: "deal", id="text"),
        pytest.param(lambda j: [*j[:-1], [9, "draw"]], id="seat-out-of-range"),
        pytest.param(lambda j: [*j[:-1], ["0", "draw"]], id="seat-text"),
        pytest.param(lambda j: [*j[:-1], [0, 5]], id="text-number"),
        pytest.param(lambda j: [*j[:-1], [0]], id="short-entry"),
    ],
)
def test_from_dict_rejects_a_bad_journal(journal: Callable[[list[Any]], Any]) -> None:
    """A journal that is not one ``[seat or null, text]`` per version raises BadState."""
    saved = _played(rounds=1).to_dict()
    with pytest.raises(BadState):
        Game.from_dict({**saved, "journal": journal(saved["journal"])})


# --------------------------------------------------------------------------- refusals

Step = Callable[[Game], object]

REFUSALS: list[tuple[str, Callable[[], Game], Step, str]] = [
    # An ordinary turn (ana's, on a red 7).
    ("other-player-plays", at_turn, lambda g: g.play("ben", "red 6"), "not-your-turn"),
    ("other-player-draws", at_turn, lambda g: g.draw("ben"), "not-your-turn"),
    ("other-player-timeout", at_turn, lambda g: g.timeout("ben"), "not-your-turn"),
    ("no-match", at_turn, lambda g: g.play("ana", "blue 9"), "illegal-play"),
    ("not-held", at_turn, lambda g: g.play("ana", "yellow 3"), "no-such-card"),
    ("not-held-object", at_turn, lambda g: g.play("ana", Card.parse("red 6")), "no-such-card"),
    ("dark-card-in-classic", at_turn, lambda g: g.play("ana", "pink 3"), "no-such-card"),
    ("two-sided-in-classic", at_turn, lambda g: g.play("ana", "red 2 / pink 3"), "no-such-card"),
    ("not-a-card", at_turn, lambda g: g.play("ana", "the ace of spades"), "no-such-card"),
    ("wild-no-color", at_turn, lambda g: g.play("ana", "wild"), "color-required"),
    ("wild-dark-color", at_turn, lambda g: g.play("ana", "wild", color="pink"), "bad-color"),
    ("wild-no-such-color", at_turn, lambda g: g.play("ana", "wild", color="mauve"), "bad-color"),
    ("wd4-no-color", at_turn, lambda g: g.play("ana", "wild draw four"), "color-required"),
    ("play-drawn-undrawn", at_turn, lambda g: g.play_drawn("ana"), "not-playable"),
    ("keep-undrawn", at_turn, lambda g: g.keep("ana"), "not-expected"),
    ("accept-nothing", at_turn, lambda g: g.accept("ana"), "not-expected"),
    ("challenge-nothing", at_turn, lambda g: g.challenge("ana"), "cannot-challenge"),
    ("discard-on-turn", at_turn, lambda g: g.discard("ana", "red 2"), "cannot-discard"),
    ("color-on-turn", at_turn, lambda g: g.choose_color("ana", "red"), "not-expected"),
    ("reveal-on-turn", at_turn, lambda g: g.reveal("ana"), "not-expected"),
    ("jump-in-rule-off", at_turn, lambda g: g.jump_in("ben", "red 6"), "cannot-jump-in"),
    ("uno-five-cards", at_turn, lambda g: g.call_uno("ana"), "uno-refused"),
    ("uno-three-cards-off-turn", at_turn, lambda g: g.call_uno("ben"), "uno-refused"),
    ("catch-five-cards", at_turn, lambda g: g.catch("ben", "ana"), "catch-refused"),
    ("catch-self", at_turn, lambda g: g.catch("ana", "ana"), "catch-refused"),
    ("catch-stranger", at_turn, lambda g: g.catch("ana", "zed"), "catch-refused"),
    ("stranger-plays", at_turn, lambda g: g.play("zed", "red 2"), "not-in-game"),
    ("stranger-leaves", at_turn, lambda g: g.leave("zed"), "not-in-game"),
    ("stranger-uno", at_turn, lambda g: g.call_uno("zed"), "not-in-game"),
    ("unknown-action", at_turn, lambda g: g.apply("ana", Action("dance")), "not-expected"),
    ("play-without-card", at_turn, lambda g: g.apply("ana", Action("play")), "not-expected"),
    ("color-without-color", at_turn, lambda g: g.apply("ana", Action("choose-color")),
     "not-expected"),
    ("new-round-mid-round", at_turn, lambda g: g.start_round(), "not-expected"),
    # House rules that refuse plays.
    ("no-bluffing",
     lambda: deal({"ana": ["red 2", "wild draw four"], "ben": ["red 6"]},
                  options={"house_rules": ["no-bluffing"]}),
     lambda g: g.play("ana", "wild draw four", color="blue"), "no-bluffing"),
    ("forced-play-keep", lambda: at_draw_decision(house_rules=["forced-play"]),
     lambda g: g.keep("ana"), "must-play-drawn"),
    ("seven-no-target",
     lambda: deal({"ana": ["red 7", "red 2"], "ben": ["red 6"]},
                  discard=["red 3"], options={"house_rules": ["seven-o"]}),
     lambda g: g.play("ana", "red 7"), "target-required"),
    ("seven-self-target",
     lambda: deal({"ana": ["red 7", "red 2"], "ben": ["red 6"]},
                  discard=["red 3"], options={"house_rules": ["seven-o"]}),
     lambda g: g.play("ana", "red 7", target="ana"), "bad-target"),
    # A pending challenge (ben's).
    ("challenge-not-victim", at_challenge, lambda g: g.challenge("cy"), "cannot-challenge"),
    ("challenge-by-bluffer", at_challenge, lambda g: g.challenge("ana"), "cannot-challenge"),
    ("victim-plays", at_challenge, lambda g: g.play("ben", "blue 8"), "illegal-play"),
    ("victim-draws", at_challenge, lambda g: g.draw("ben"), "not-expected"),
    ("victim-keeps", at_challenge, lambda g: g.keep("ben"), "not-expected"),
    ("victim-names-color", at_challenge, lambda g: g.choose_color("ben", "red"), "not-expected"),
    ("accept-not-victim", at_challenge, lambda g: g.accept("cy"), "not-your-turn"),
    ("bluffer-plays-on", at_challenge, lambda g: g.play("ana", "red 2"), "not-your-turn"),
    # A pending Harry Potter penalty (ben's).
    ("penalty-other-card", at_penalty, lambda g: g.play("ben", "red 6"), "illegal-play"),
    ("penalty-challenge", at_penalty, lambda g: g.challenge("ben"), "cannot-challenge"),
    ("penalty-draw", at_penalty, lambda g: g.draw("ben"), "not-expected"),
    ("penalty-uno-bystander", at_penalty, lambda g: g.call_uno("cy"), "uno-refused"),
    # A pending draw decision (ana's).
    ("other-card-after-draw", at_draw_decision, lambda g: g.play("ana", "blue 9"), "not-expected"),
    ("draw-twice", at_draw_decision, lambda g: g.draw("ana"), "not-expected"),
    ("play-drawn-other", at_draw_decision, lambda g: g.play_drawn("ben"), "not-your-turn"),
    ("keep-other", at_draw_decision, lambda g: g.keep("ben"), "not-your-turn"),
    # A color to name (ana's, Wild start card).
    ("color-dark", at_color, lambda g: g.choose_color("ana", "purple"), "bad-color"),
    ("color-empty", at_color, lambda g: g.choose_color("ana", ""), "bad-color"),
    ("color-other-player", at_color, lambda g: g.choose_color("ben", "red"), "not-your-turn"),
    ("play-before-color", at_color, lambda g: g.play("ana", "blue 1"), "not-expected"),
    ("draw-before-color", at_color, lambda g: g.draw("ana"), "not-expected"),
    # Wild Super Hero discard (ben's), two-sided cards.
    ("discard-not-picked", at_discard, lambda g: g.discard("cy", "red 5"), "cannot-discard"),
    ("discard-not-held", at_discard, lambda g: g.discard("ben", "red 5"), "no-such-card"),
    ("discard-then-color", at_discard, lambda g: g.choose_color("ben", "red"), "not-expected"),
    ("play-instead-of-discard", at_discard, lambda g: g.play("ben", "green 1"), "not-expected"),
    ("flip-dark-face-on-light", at_discard, lambda g: g.discard("ben", "pink 1"), "no-such-card"),
    # Howler (HP).
    ("howler-no-target",
     lambda: deal({"ana": ["howler", "red 2"], "ben": ["red 6"]}, variant="harry-potter"),
     lambda g: g.play("ana", "howler", color="red"), "target-required"),
    ("howler-self",
     lambda: deal({"ana": ["howler", "red 2"], "ben": ["red 6"]}, variant="harry-potter"),
     lambda g: g.play("ana", "howler", color="red", target="ana"), "bad-target"),
    ("howler-stranger",
     lambda: deal({"ana": ["howler", "red 2"], "ben": ["red 6"]}, variant="harry-potter"),
     lambda g: g.play("ana", "howler", color="red", target="zed"), "bad-target"),
    ("howler-no-color",
     lambda: deal({"ana": ["howler", "red 2"], "ben": ["red 6"]}, variant="harry-potter"),
     lambda g: g.play("ana", "howler", target="ben"), "color-required"),
    ("howler-accept", at_howler, lambda g: g.accept("ben"), "not-expected"),
    ("howler-reveal-other", at_howler, lambda g: g.reveal("cy"), "not-your-turn"),
    ("howler-answer-number", at_howler, lambda g: g.play("ben", "green 1"), "illegal-play"),
    # Save The Day (DC).
    ("save-the-day-no-target",
     lambda: deal({"ana": ["save the day", "red 2"], "ben": ["red 6"]},
                  variant="dc-super-hero-girls"),
     lambda g: g.play("ana", "save the day", color="red"), "target-required"),
    # Jump-in.
    ("jump-in-not-identical", at_jump_in, lambda g: g.jump_in("ben", "blue 8"), "cannot-jump-in"),
    ("jump-in-wild", at_jump_in, lambda g: g.jump_in("ben", "wild", color="red"),
     "cannot-jump-in"),
    ("jump-in-not-held", at_jump_in, lambda g: g.jump_in("cy", "red 7"), "no-such-card"),
    # UNO and catching.
    ("uno-twice", at_uno_called, lambda g: g.call_uno("ana"), "uno-refused"),
    ("catch-after-call", lambda: played(at_uno_called(), "ana", "red 2"),
     lambda g: g.catch("ben", "ana"), "catch-refused"),
    ("catch-after-next-turn-began",
     lambda: played(played(deal({"ana": ["red 2", "red 3"], "ben": ["red 6", "blue 1"]}),
                           "ana", "red 2"), "ben", "red 6"),
     lambda g: g.catch("cy", "ana"), "catch-refused"),
    # The round or the game is over.
    ("play-after-round", at_round_over, lambda g: g.play("ben", "red 6"), "round-over"),
    ("draw-after-round", at_round_over, lambda g: g.draw("ben"), "round-over"),
    ("uno-after-round", at_round_over, lambda g: g.call_uno("cy"), "round-over"),
    ("catch-after-round", at_round_over, lambda g: g.catch("ben", "cy"), "round-over"),
    ("timeout-after-round", at_round_over, lambda g: g.timeout("ben"), "round-over"),
    ("play-after-game", at_game_over, lambda g: g.play("ben", "red 6"), "round-over"),
    ("new-round-after-game", at_game_over, lambda g: g.start_round(), "round-over"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("make", "step", "reason"),
    [pytest.param(m, s, r, id=name) for name, m, s, r in REFUSALS],
)
def test_refused_action_changes_nothing(make: Callable[[], Game], step: Step, reason: str) -> None:
    """A refused action raises its reason id and leaves the game exactly as it was."""
    game = make()
    before = game.to_dict()
    with pytest.raises(UnoError) as exc:
        step(game)
    assert exc.value.reason == reason, exc.value.message
    assert isinstance(exc.value.message, str) and exc.value.message
    assert game.to_dict() == before


def candidate_actions(game: Game, player: str) -> list[Action]:
    """Many actions, legal or not, for ``player``."""
    colors = [None, Color.of_side(game.side)[0], Color.of_side(game.side.other)[0]]
    out = [Action(k) for k in ("draw", "keep", "accept", "challenge", "reveal", "uno")]
    out += [Action("play-drawn", color=c) for c in colors]
    out += [Action("choose-color", color=c) for c in colors[1:]]
    out += [Action("discard", decline=True)]
    out += [Action("catch", target=t) for t in game.players]
    for card in dict.fromkeys(game.hands.get(player, [])):
        out.append(Action("discard", card=card))
        for kind in ("play", "jump-in"):
            out += [Action(kind, card=card, color=c) for c in colors]
            out += [Action(kind, card=card, color=colors[1], target=t) for t in (player, "zed")]
    return out


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=CONFIG_IDS)
def test_refusals_change_nothing_in_random_positions(variant: str, options: dict[str, Any]) -> None:
    """In random positions, whatever action is refused leaves the game exactly as it was."""
    refused = 0
    for n, game in enumerate(positions(variant, options, [3])):
        if n % 12:
            continue
        before = game.to_dict()
        trial = Game.from_dict(before)
        for player in game.players:
            for action in candidate_actions(game, player):
                try:
                    trial.apply(player, action)
                except UnoError:
                    refused += 1
                    assert trial.to_dict() == before, (player, action)
                else:
                    trial = Game.from_dict(before)
    assert refused > 100


# --------------------------------------------------------------------------- legal actions


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=CONFIG_IDS)
def test_every_legal_action_is_accepted(variant: str, options: dict[str, Any]) -> None:
    """Every action legal_actions lists is accepted by apply; the game never stalls."""
    checked = 0
    for game in positions(variant, options, [1, 2, 3]):
        if game.round_over:
            assert game.pending.kind is PendingKind.NONE
            assert all(game.legal_actions(p) == [] for p in game.players)
            continue
        assert game.pending.player in game.seated
        assert game.legal_actions(game.pending.player), "the pending player has no legal action"
        data = game.to_dict()
        for player in game.seated:
            for action in game.legal_actions(player):
                trial = Game.from_dict(data)
                try:
                    trial.apply(player, action)
                except UnoError as exc:
                    pytest.fail(f"{player} {action} listed but refused: {exc.reason}: {exc}")
                checked += 1
    assert checked > 200


def test_legal_actions_only_for_the_decider() -> None:
    """Only the player who must decide gets decisions; others only get UNO, catch, jump-in."""
    for make in PENDING_POSITIONS.values():
        game = make()
        for player in game.players:
            kinds = {a.kind for a in game.legal_actions(player)}
            if player != game.pending.player:
                assert kinds <= {"uno", "catch", "jump-in"}, (player, kinds)


def test_legal_wilds_listed_per_color_and_target() -> None:
    """A wild is listed once per active color (and per target it needs)."""
    game = deal(
        {"ana": ["wild", "howler", "red 2"], "ben": ["red 6"], "cy": ["blue 1"]},
        variant="harry-potter",
    )
    actions = game.legal_actions("ana")
    wild = {a.color for a in actions if a.card is Card.parse("wild")}
    assert wild == set(Color.of_side(Side.LIGHT))
    howler = {(a.color, a.target) for a in actions if a.card is Card.parse("howler")}
    assert howler == {(c, t) for c in Color.of_side(Side.LIGHT) for t in ("ben", "cy")}
    assert Action("play", card=Card.parse("red 2")) in actions
    assert Action("draw") in actions


def check_invariants(game: Game) -> None:
    """Cards are conserved; the engine waits on exactly one seated player, or none."""
    assert census(game) == Counter(game.deck)
    assert (game.pending.kind is PendingKind.NONE) == game.round_over
    if not game.round_over:
        assert game.pending.player in game.seated
        assert game.legal_actions(game.pending.player), "the game stalls"
        if game.pending.kind not in (PendingKind.COLOR, PendingKind.DISCARD):
            assert game.color in game.colors


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=CONFIG_IDS)
def test_leave_or_timeout_in_random_positions(variant: str, options: dict[str, Any]) -> None:
    """Anyone may leave and the decider may time out anywhere; no card is lost, nothing stalls."""
    for n, game in enumerate(positions(variant, options, [5, 6])):
        check_invariants(game)
        if game.round_over or n % 2:
            continue
        data = game.to_dict()
        for player in game.seated:
            trial = Game.from_dict(data)
            trial.leave(player)
            check_invariants(trial)
            assert player not in trial.seated
        trial = Game.from_dict(data)
        assert trial.pending.player is not None
        trial.timeout(trial.pending.player)
        check_invariants(trial)


@pytest.mark.parametrize(
    "variant", ["classic", "flip", "flip-marvel", "harry-potter", "cars2", "dc-super-hero-girls"]
)
@pytest.mark.parametrize(
    "options",
    [
        {"target_score": 200},
        {"scoring": "running-tally", "target_score": 150},
        {"elimination": True, "target_score": 100},
        {"partners": True, "target_score": 200},
        {"scoring": "single-round"},
    ],
    ids=["standard", "running-tally", "elimination", "partners", "single-round"],
)  # fmt: skip
def test_whole_game_reaches_its_end(variant: str, options: dict[str, Any]) -> None:
    """Rounds follow one another until the game is over, with the deck whole at every deal."""
    game = Game(["a", "b", "c", "d"], variant=variant, options=Options.parse(options), seed=2)
    for round_no in range(1, 100):
        game.start_round()
        assert census(game) == Counter(game.deck)
        ai.play_round(game, {"a": ai.choose, "c": ai.choose}, random.Random(round_no))
        if game.game_over:
            break
    assert game.game_over and game.round_over
    assert game.winners and set(game.winners) <= set(game.scores)
    if options.get("scoring") == "single-round":
        assert round_no == 1
    with pytest.raises(UnoError):
        game.start_round()


def test_uno_counts_before_an_invisibility_answer() -> None:
    """A victim holding Invisibility and one other card may call UNO as they answer."""
    game = deal(
        {"ana": ["red draw three", "green 4"], "ben": ["invisibility", "blue 8"], "cy": ["red 1"]},
        variant="harry-potter",
        draw=["blue 1", "blue 2", "blue 3"],
    )
    game.play("ana", "red draw three")
    assert game.pending.kind is PendingKind.PENALTY
    game.call_uno("ben")
    game.play("ben", "invisibility", color="blue")
    assert "ben" not in game.catchable


# --------------------------------------------------------------------------- timeouts


@pytest.mark.parametrize("kind", [k for k in PENDING_POSITIONS if k != "none"])
def test_timeout_accepted_on_every_pending_kind(kind: str) -> None:
    """A timeout is always accepted from the player who must act, and moves the game on."""
    game = PENDING_POSITIONS[kind]()
    player = game.pending.player
    assert player is not None
    others = [p for p in game.seated if p != player]
    before = game.to_dict()
    with pytest.raises(UnoError) as exc:
        game.timeout(others[0])
    assert exc.value.reason == "not-your-turn"
    assert game.to_dict() == before
    game.timeout(player)
    assert game.to_dict() != before
    assert game.pending != Game.from_dict(before).pending


def test_timeout_turn_draws_and_keeps() -> None:
    """Turn: the player draws one and keeps it, even when it could be played."""
    game = at_turn()
    events = game.timeout("ana")
    assert drawn_by(events, "ana") == 1
    assert Card.parse("red 9") in game.hands["ana"]
    assert game.top.name == "red 7"
    assert (game.pending.kind, game.pending.player) == (PendingKind.TURN, "ben")


def test_timeout_draw_decision_keeps() -> None:
    """Draw decision: the drawn card is kept and the turn passes."""
    game = at_draw_decision()
    game.timeout("ana")
    assert Card.parse("red 9") in game.hands["ana"]
    assert (game.pending.kind, game.pending.player) == (PendingKind.TURN, "ben")


def test_timeout_challenge_accepts() -> None:
    """Challenge: the victim accepts: draws four and loses the turn; the named color stands."""
    game = at_challenge()
    events = game.timeout("ben")
    assert drawn_by(events, "ben") == 4
    assert not any(e.kind == "challenge" for e in events)
    assert game.color is Color.BLUE
    assert (game.pending.kind, game.pending.player) == (PendingKind.TURN, "cy")


def test_timeout_penalty_takes_it() -> None:
    """Penalty: the victim takes it (draws three) and loses the turn."""
    game = at_penalty()
    events = game.timeout("ben")
    assert drawn_by(events, "ben") == 3
    assert (game.pending.kind, game.pending.player) == (PendingKind.TURN, "cy")


def test_timeout_color_most_held() -> None:
    """Color: the color the player holds most of is named; then they play."""
    game = at_color()
    game.timeout("ana")
    assert game.color is Color.BLUE
    assert (game.pending.kind, game.pending.player) == (PendingKind.TURN, "ana")


def test_timeout_discard_declines() -> None:
    """Wild Super Hero discard: declined; the picked player then names the color."""
    game = at_discard()
    hand = list(game.hands["ben"])
    events = game.timeout("ben")
    assert [e.data for e in events if e.kind == "card-discarded"] == [{"declined": True}]
    assert game.hands["ben"] == hand
    assert (game.pending.kind, game.pending.player) == (PendingKind.COLOR, "ben")
    game.timeout("ben")
    assert game.color is Color.GREEN
    assert (game.pending.kind, game.pending.player) == (PendingKind.TURN, "ben")


def test_timeout_howler_reveals() -> None:
    """Howler: the hand is shown to the table; play goes on after the Howler's player."""
    game = at_howler()
    game.timeout("ben")
    assert sorted(game.revealed) == ["ana", "cy"]
    assert all("ben" in shown for shown in game.revealed.values())
    assert (game.pending.kind, game.pending.player) == (PendingKind.TURN, "ben")


# --------------------------------------------------------------------------- events and shown hands


def test_events_public_form_hides_drawn_cards() -> None:
    """Events keep drawn cards private to the drawer: public() drops them."""
    game = at_challenge()
    events = game.accept("ben")
    drawn = [e for e in events if e.kind == "cards-drawn"]
    assert drawn and all(e.data["cards"] for e in drawn)
    for event in events:
        public = event.public()
        assert "cards" not in public
        json.dumps(public)


def test_revealed_hands_are_kept_for_their_viewer_only() -> None:
    """Special Agent Mater: the other hands are kept as shown to its player, to nobody else."""
    game = deal(
        {"ana": ["special agent mater", "red 2"], "ben": ["red 6", "blue 8"], "cy": ["green 8"]},
        variant="cars2",
    )
    game.play("ana", "special agent mater", color="green")
    assert game.revealed == {"ana": {"ben": ["red 6", "blue 8"], "cy": ["green 8"]}}


def test_revealed_hands_lose_the_cards_played_since() -> None:
    """A shown card its holder plays leaves what the viewer knows; a card drawn since and played
    takes nothing away (the shown one is still held)."""
    game = deal(
        {"ana": ["special agent mater", "red 2"], "ben": ["green 6", "blue 8"], "cy": ["green 3", "green 9"]},
        variant="cars2",
        draw=["green 6"],
    )
    game.play("ana", "special agent mater", color="green")
    game.play("ben", "green 6")
    assert game.revealed == {"ana": {"ben": ["blue 8"], "cy": ["green 3", "green 9"]}}
    game.draw("cy")
    game.play_drawn("cy")
    assert game.hands["cy"] == cards(["green 3", "green 9"])
    assert game.revealed == {"ana": {"ben": ["blue 8"], "cy": ["green 3", "green 9"]}}


def test_revealed_hands_follow_a_swap() -> None:
    """Seven-O: what a viewer saw of a hand goes with it; its new holder needs no note of it."""
    game = deal(
        {"ana": ["red 2", "red 3"], "ben": ["red 7", "blue 8"], "cy": ["green 8", "red 1"]},
        options={"house_rules": ["seven-o"]},
    )
    game.revealed = {"ana": {"ben": ["red 7", "blue 8"]}, "cy": {"ben": ["red 7", "blue 8"]}}
    game.play("ana", "red 2")
    game.play("ben", "red 7", target="cy")
    assert game.hands["cy"] == cards(["blue 8"])
    assert game.revealed == {"ana": {"cy": ["blue 8"]}, "cy": {}}


# --------------------------------------------------------------------------- options and seats


@pytest.mark.parametrize(
    ("players", "options"),
    [
        ([], {}),
        (["ana"], {}),
        ([f"p{i}" for i in range(11)], {}),
        (["ana", "ana"], {}),
        (["ana", ""], {}),
        (["ana", 7], {}),
        (["a", "b", "c"], {"partners": True}),
        (["a", "b", "c", "d", "e"], {"partners": True}),
        (["a", "b"], {"partners": True}),
        (["a+b", "c", "d", "e"], {"partners": True}),
        (["a", "b", "c", "d"], {"partners": True, "elimination": True}),
    ],
    ids=repr,
)
def test_bad_seating_raises_bad_option(players: list[Any], options: dict[str, Any]) -> None:
    """Wrong player counts, ids or partner seatings raise BadOption."""
    with pytest.raises(BadOption):
        Game(players, options=Options.parse(options))


@pytest.mark.parametrize("n", range(2, 11))
def test_two_to_ten_players(n: int) -> None:
    """Every variant seats 2 to 10 players."""
    for variant in ("classic", "flip", "harry-potter"):
        Game([f"p{i}" for i in range(n)], variant=variant).start_round()


@pytest.mark.parametrize("n", [4, 6, 8, 10])
def test_partners_sit_across(n: int) -> None:
    """Partners: seat i plays with seat i + n/2; scores are kept per team."""
    players = [f"p{i}" for i in range(n)]
    game = Game(players, options=Options(partners=True))
    half = n // 2
    for i in range(half):
        team = f"p{i}+p{i + half}"
        assert game.team_of(players[i]) == game.team_of(players[i + half]) == team
    assert sorted(game.scores) == sorted(f"p{i}+p{i + half}" for i in range(half))


def test_unknown_variant_raises_bad_option() -> None:
    """An unknown variant id raises BadOption."""
    with pytest.raises(BadOption):
        Game(PLAYERS, variant="uno-attack")


def test_seed_is_kept() -> None:
    """A game remembers its seed; without one it picks a seed of its own."""
    assert Game(PLAYERS, seed=42).seed == 42
    assert isinstance(Game(PLAYERS).seed, int)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("flip-marvel", {"house_rules": ["stacking"]}),
        ("harry-potter", {}),
        ("classic", {"house_rules": ["stacking", "seven-o", "jump-in"]}),
        ("dc-super-hero-girls", {"customizable_rule": "swap-hands"}),
    ],
)
def test_copy_and_apply_listed_match_apply(variant: str, options: dict[str, object]) -> None:
    """A copy equals its game (journal included) and is independent of it; applying each listed
    action through ``apply_listed`` leaves the same game, journal included, as ``apply``."""
    for seed in range(6):
        game = Game(["a", "b", "c", "d"], variant=variant, options=Options.parse(options), seed=seed)
        game.start_round()
        fast = game.copy()
        assert fast.to_dict() == game.to_dict()
        rng = random.Random(seed)
        while not game.round_over:
            player = game.pending.player
            assert player is not None
            action = ai.random_action(game, player, rng)
            game.apply(player, action)
            fast.apply_listed(player, action)
            assert fast.to_dict() == game.to_dict()
        bare = game.copy(journal=False)
        assert bare.journal is None and game.journal is not None
        bare.hands["a"].clear()
        assert game.to_dict() == fast.to_dict()


def test_unfollowed_turns_are_noted() -> None:
    """A draw on one's turn notes the color and rank not followed and the hand's size then, with
    the card drawn when the turn passes at once (it could not be played either); each card played
    since lowers that size; a swap of hands forgets it; it survives to_dict."""
    game = deal({"ana": ["blue 1", "blue 2", "yellow 3"], "ben": ["green 4", "green 5"], "cy": ["red 1", "yellow 9"],
                 "dee": ["red 2", "yellow 8"]}, players=["ana", "ben", "cy", "dee"], discard=["red 7"], draw=["green 6", "blue 8"],
                turn="ana")  # fmt: skip
    game.apply("ana", Action(ActionKind.DRAW))
    assert [tuple(n) for n in game.unfollowed["ana"]] == [(Side.LIGHT, Color.RED, Rank.SEVEN, 4, None)]
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).unfollowed == game.unfollowed
    game.apply_listed("ben", Action(ActionKind.DRAW))  # the fast path notes it too
    assert [n.held for n in game.unfollowed["ben"]] == [3]
    game.apply("cy", Action(ActionKind.PLAY, Card.parse("red 1")))
    game.apply("dee", Action(ActionKind.PLAY, Card.parse("red 2")))
    game.apply("ana", Action(ActionKind.DRAW))
    assert [n.held for n in game.unfollowed["ana"]] == [4, 4]  # the card drawn now can be played
    game.swap_hands("ana", "cy")
    assert "ana" not in game.unfollowed and "ben" in game.unfollowed


def test_a_copy_keeps_its_own_unfollowed_notes() -> None:
    """Cards a copy's player sheds lower that copy's notes only (the notes count sheds lazily),
    and the original's notes stay as they were."""
    game = deal({"ana": ["blue 1", "blue 2", "yellow 3"], "ben": ["green 4", "green 5"], "cy": ["red 1", "yellow 9"],
                 "dee": ["red 2", "yellow 8"]}, players=["ana", "ben", "cy", "dee"], discard=["red 7"], draw=["green 6", "blue 8"],
                turn="ana")  # fmt: skip
    game.apply("ana", Action(ActionKind.DRAW))
    assert [n.held for n in game.unfollowed["ana"]] == [4]
    other = game.copy(journal=False)
    other.apply("ben", Action(ActionKind.DRAW))
    other.apply("cy", Action(ActionKind.PLAY, Card.parse("red 1")))
    other.apply("dee", Action(ActionKind.PLAY, Card.parse("red 2")))
    other.apply("ana", Action(ActionKind.PLAY, Card.parse("blue 2")))
    assert [n.held for n in other.unfollowed["ana"]] == [3]
    assert [n.held for n in game.unfollowed["ana"]] == [4]
    assert "ben" not in game.unfollowed and [n.held for n in other.unfollowed["ben"]] == [3]


def test_a_wild_from_the_hand_is_noted_as_not_following() -> None:
    """A wild played from the hand on one's turn notes the color and rank it did not follow and
    the cards left beside it (a drawn wild played is noted once, by the draw, less the card played)."""
    game = deal({"ana": ["wild", "blue 1", "blue 2"], "ben": ["wild draw four", "green 5", "green 6"]},
                players=["ana", "ben"], discard=["red 7"], draw=["wild", "blue 8"], turn="ana")  # fmt: skip
    game.apply("ana", Action(ActionKind.PLAY, Card.parse("wild"), color=Color.BLUE))
    assert [tuple(n)[:4] for n in game.unfollowed["ana"]] == [(Side.LIGHT, Color.RED, Rank.SEVEN, 2)]
    game.apply("ben", Action(ActionKind.DRAW))
    game.apply("ben", Action(ActionKind.PLAY_DRAWN, color=Color.GREEN))
    assert [tuple(n) for n in game.unfollowed["ben"]] == [(Side.LIGHT, Color.BLUE, Rank.WILD, 2, None)]


def test_a_wild_notes_the_color_named() -> None:
    """A wild played from the hand notes the color named with it; the note survives to_dict."""
    game = deal({"ana": ["wild", "blue 1", "blue 2", "green 3"], "ben": ["blue 5", "blue 6", "yellow 1"]},
                players=["ana", "ben"], discard=["red 7"], draw=["red 8"], turn="ana")  # fmt: skip
    game.apply("ana", Action(ActionKind.PLAY, Card.parse("wild"), color=Color.BLUE))
    assert [(n.named, n.held) for n in game.unfollowed["ana"]] == [(Color.BLUE, 3)]
    game.apply("ben", Action(ActionKind.PLAY, Card.parse("blue 5")))
    game.apply("ana", Action(ActionKind.PLAY, Card.parse("blue 1")))
    assert [(n.named, n.held) for n in game.unfollowed["ana"]] == [(Color.BLUE, 2)]
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).unfollowed == game.unfollowed
