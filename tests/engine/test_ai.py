"""The computer players (bot/engine/ai.py): strength, legality, UNO calls and catches."""

from __future__ import annotations

import random
import time
from collections import Counter
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import ai, search
from bot.engine.actions import ActionKind
from bot.engine.cards import Card, Color, Rank, Side
from bot.engine.game import Action, Game
from bot.engine.options import Options, PendingKind

WIN_RATE_ROUNDS = 10_000
MIN_WIN_RATE = 0.40

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("flip", {}),
    ("flip-marvel", {}),
    ("harry-potter", {}),
    ("cars2", {}),
    ("dc-super-hero-girls", {"customizable_rule": "swap-hands"}),
    ("dc-super-hero-girls", {"customizable_rule": "everyone-draws-one"}),
    ("classic", {"house_rules": ["stacking", "jump-in", "seven-o"]}),
    ("classic", {"house_rules": ["forced-play", "draw-until-playable", "no-bluffing"]}),
    ("flip-marvel", {"house_rules": ["stacking"]}),
    ("harry-potter", {"partners": True}),
]
CONFIG_IDS = [
    "classic",
    "flip",
    "flip-marvel",
    "harry-potter",
    "cars2",
    "dc-swap-hands",
    "dc-everyone-draws-one",
    "classic-stacking-jump-in-seven-o",
    "classic-forced-play-draw-until-playable-no-bluffing",
    "flip-marvel-stacking",
    "harry-potter-partners",
]


@pytest.mark.slow
def test_ai_win_rate() -> None:
    """One AI among three random players wins at least 40% of 10,000 4-player classic rounds."""
    players = ["p0", "p1", "p2", "p3"]
    wins = 0
    start = time.perf_counter()
    for i in range(WIN_RATE_ROUNDS):
        seat = players[i % 4]  # the AI's seat rotates
        game = Game(players, variant="classic", seed=i)
        game.start_round()
        ai.play_round(game, {seat: ai.choose}, random.Random(i))
        assert game.round_over
        wins += game.round_winner == seat
    rate = wins / WIN_RATE_ROUNDS
    elapsed = time.perf_counter() - start
    print(f"AI win rate {rate:.1%} over {WIN_RATE_ROUNDS} rounds in {elapsed:.1f} s")
    assert rate >= MIN_WIN_RATE, f"AI won only {rate:.1%} of {WIN_RATE_ROUNDS} rounds"


def checked_choose(game: Game, player: str, rng: random.Random) -> Action:
    """ai.choose, asserting the action it picks is one of the legal actions."""
    action = ai.choose(game, player, rng)
    assert action in game.legal_actions(player), (player, action, game.pending)
    return action


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=CONFIG_IDS)
def test_ai_actions_are_legal(variant: str, options: dict[str, Any]) -> None:
    """Every action (and catch) the AI picks is listed by legal_actions and accepted."""
    for seed in range(4):
        game = Game(["a", "b", "c", "d"], variant=variant, options=Options.parse(options), seed=seed)
        game.start_round()
        policies = dict.fromkeys(game.players, checked_choose)

        def catches_are_legal(g: Game) -> None:
            for player in g.seated:
                for catch in ai.catches(g, player):
                    assert catch in g.legal_actions(player)

        ai.play_round(game, policies, random.Random(seed), after_step=catches_are_legal)
        assert game.round_over


def test_ai_refuses_to_act_out_of_turn() -> None:
    """The AI has nothing to decide when another player must act."""
    game = Game(["a", "b", "c"], seed=1)
    game.start_round()
    waiting = next(p for p in game.players if p != game.pending.player)
    with pytest.raises(ValueError):
        ai.choose(game, waiting, random.Random(0))


def two_cards_on_turn(ben: tuple[str, ...] = ("blue 5", "green 6")) -> Game:
    """Ana's turn with two cards, both playable."""
    game, _ = Game.from_deal(
        ["ana", "ben", "cy"],
        variant="classic",
        dealer="cy",
        hands={
            "ana": [Card.parse("red 2"), Card.parse("red 3")],
            "ben": [Card.parse(c) for c in ben],
            "cy": [Card.parse("green 8"), Card.parse("yellow 1")],
        },
        draw_pile=[Card.parse("blue 1"), Card.parse("blue 2")],
        discard_pile=[Card.parse("red 7")],
    )
    return game


def test_ai_calls_uno_before_its_next_to_last_card() -> None:
    """Holding two cards on its turn, the AI first calls UNO, then plays; it can't be caught."""
    game = two_cards_on_turn()
    rng = random.Random(0)
    assert ai.choose(game, "ana", rng) == Action("uno")
    game.apply("ana", ai.choose(game, "ana", rng))
    action = ai.choose(game, "ana", rng)
    assert action.kind == "play"
    game.apply("ana", action)
    assert len(game.hands["ana"]) == 1
    assert "ana" in game.called
    assert "ana" not in game.catchable
    assert ai.catches(game, "ben") == []


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("cars2", {}),
        ("flip", {}),
        ("harry-potter", {}),
        ("classic", {"house_rules": ["stacking", "seven-o", "jump-in"]}),
        ("dc-super-hero-girls", {"customizable_rule": "swap-hands"}),
    ],
    ids=["classic", "cars2", "flip", "harry-potter", "classic-stacking-seven-o-jump-in", "dc"],
)
def test_ai_never_left_catchable(variant: str, options: dict[str, Any]) -> None:
    """Over many rounds, an AI that plays (or answers) down to one card has called UNO."""
    players = ["p0", "p1", "p2", "p3"]
    one_card = 0
    for seed in range(40):
        seat = players[seed % 4]
        game = Game(players, variant=variant, options=Options.parse(options), seed=seed)
        game.start_round()

        def called(g: Game, seat: str = seat) -> None:
            nonlocal one_card
            if g.round_over or len(g.hands[seat]) != 1:
                return
            one_card += 1
            assert seat not in g.catchable, f"{seat} can be caught: it did not call UNO"

        ai.play_round(game, {seat: ai.choose}, random.Random(seed), after_step=called)
    assert one_card > 20


def test_ai_not_catchable_after_wild_super_hero_discard() -> None:
    """An AI with two cards picked by a Wild Super Hero is never left open to a catch."""
    game, _ = Game.from_deal(
        ["ana", "ben", "cy"],
        variant="flip-marvel",
        dealer="cy",
        hands={
            "ana": [Card.parse(c) for c in ("wild super hero / pink 5", "green 3 / orange 6")],
            "ben": [Card.parse(c) for c in ("blue 6 / pink 3", "red 9 / orange 2")],
            "cy": [Card.parse("blue 2 / pink 4")],
        },
        draw_pile=[Card.parse("yellow 1 / purple 9")],
        discard_pile=[Card.parse("red 4 / purple 4")],
    )
    game.play("ana", "wild super hero")
    assert (game.pending.kind, game.pending.player) == (PendingKind.DISCARD, "ben")
    game.apply("ben", ai.choose(game, "ben", random.Random(0)))
    assert "ben" not in game.catchable


def forgetful(game: Game, player: str, rng: random.Random) -> Action:
    """A player who never calls UNO (plays the first card it can, else the first choice)."""
    actions = [a for a in game.legal_actions(player) if a.kind not in ("uno", "catch", "jump-in")]
    plays = [a for a in actions if a.kind in ("play", "play-drawn")]
    return (plays or actions)[0]


def test_ai_catches_a_player_who_forgot_uno() -> None:
    """When a player goes down to one card without calling, the AI catches them at once."""
    game = two_cards_on_turn()
    game.play("ana", "red 2")
    assert game.catchable == {"ana"}
    assert ai.catches(game, "ben") == [Action("catch", target="ana")]
    assert ai.catches(game, "ana") == []
    game.apply("ben", ai.catches(game, "ben")[0])
    assert len(game.hands["ana"]) == 3
    assert ai.catches(game, "ben") == []


def test_ai_catches_during_play_round() -> None:
    """play_round lets the AI catch as soon as the window opens."""
    game = two_cards_on_turn(ben=("red 4",))
    trace: list[tuple[frozenset[str], int]] = []
    ai.play_round(
        game,
        {"ben": ai.choose},
        random.Random(1),
        default=forgetful,
        after_step=lambda g: trace.append((frozenset(g.catchable), len(g.hands["ana"]))),
    )
    assert trace[0] == (frozenset({"ana"}), 1)
    assert trace[1] == (frozenset(), 3)
    assert game.round_winner == "ben"


@pytest.mark.parametrize("seed", range(3))
def test_ai_catches_every_forgetful_player(seed: int) -> None:
    """With the AI at the table, no forgetful player stays catchable until the next decision."""
    players = ["p0", "p1", "p2", "p3"]
    opened = 0
    for round_seed in range(seed * 30, seed * 30 + 30):
        game = Game(players, variant="classic", seed=round_seed)
        game.start_round()

        def decide(g: Game, player: str, rng: random.Random) -> Action:
            assert not g.catchable - {"p0"}, f"{sorted(g.catchable)} left uncaught"
            return forgetful(g, player, rng)

        def count(g: Game) -> None:
            nonlocal opened
            opened += bool(g.catchable - {"p0"})

        ai.play_round(game, {"p0": ai.choose}, random.Random(round_seed), default=decide, after_step=count)
    assert opened > 5


def test_random_action_is_legal() -> None:
    """The random player only picks legal actions, and draws only when it can't play."""
    for seed in range(10):
        game = Game(["a", "b", "c"], variant="flip", seed=seed)
        game.start_round()
        rng = random.Random(seed)
        while not game.round_over:
            player = game.pending.player
            assert player is not None
            legal = game.legal_actions(player)
            action = ai.random_action(game, player, rng)
            assert action in legal
            plays = [a for a in legal if a.kind == "play"]
            if game.pending.kind is PendingKind.TURN and plays:
                assert action.kind != "draw"
            game.apply(player, action)


# ---------------------------------------------------------------------------- levels

HARD_PLAYOUTS = 12
"""Playouts per hard decision in tests: deterministic (no time budget) and fast."""


def position(variant: str, options: dict[str, Any], seed: int, steps: int) -> Game:
    """A 4-player round of ``variant`` after ``steps`` random decisions (fewer if it ends)."""
    game = Game(["a", "b", "c", "d"], variant=variant, options=Options.parse(options), seed=seed)
    game.start_round()
    rng = random.Random(seed)
    for _ in range(steps):
        player = game.pending.player
        if game.round_over or player is None:
            break
        game.apply(player, ai.random_action(game, player, rng))
    return game


def choose_hard(game: Game, player: str, seed: int) -> Action:
    return ai.choose(game, player, random.Random(seed), "hard", budget=None, playouts=HARD_PLAYOUTS)


@settings(deadline=None, derandomize=True, database=None, max_examples=40)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    level=st.sampled_from(list(ai.AiLevel)),
)
def test_every_level_acts_legally(
    config: tuple[str, dict[str, Any]], seed: int, steps: int, level: str
) -> None:
    """At any position of any edition, each level's action is legal, and the game accepts it."""
    variant, options = config
    game = position(variant, options, seed, steps)
    if game.round_over:
        return
    player = game.pending.player
    assert player is not None
    action = ai.choose(game, player, random.Random(seed), level, budget=None, playouts=HARD_PLAYOUTS)
    assert action in game.legal_actions(player), (level, action, game.pending)
    game.apply(player, action)


def test_every_level_plays_whole_rounds_of_every_edition() -> None:
    """One round per edition with easy, normal and hard at the table: every action is legal."""
    for i, (variant, options) in enumerate(CONFIGS):
        game = position(variant, options, i, 0)
        levels = {"a": "easy", "b": "normal", "c": "hard", "d": "normal"}
        policies = {
            p: partial(ai.choose, level=level, budget=None, playouts=HARD_PLAYOUTS)
            for p, level in levels.items()
        }
        checked = {p: legal_only(policy) for p, policy in policies.items()}
        ai.play_round(game, checked, random.Random(i), levels=levels)
        assert game.round_over


def legal_only(policy: ai.Policy) -> ai.Policy:
    def checked(game: Game, player: str, rng: random.Random) -> Action:
        action = policy(game, player, rng)
        assert action in game.legal_actions(player), (player, action, game.pending)
        return action

    return checked


def test_unknown_level_is_refused() -> None:
    game = two_cards_on_turn()
    with pytest.raises(ValueError):
        ai.choose(game, "ana", random.Random(0), "grandmaster")


def test_hard_is_deterministic_with_a_playout_count() -> None:
    """With a playout count and no time budget, the same position and seed give the same action;
    over many positions, hard sometimes departs from normal (it does search)."""
    departs = 0
    for seed in range(30):
        game = position("classic", {}, seed, 6 + seed % 5)
        player = game.pending.player
        if game.round_over or player is None:
            continue
        first = choose_hard(game, player, seed)
        assert choose_hard(game.copy(), player, seed) == first
        departs += first != ai.choose(game, player, random.Random(seed))
    assert departs > 0


def hidden_replaced(game: Game, player: str, seed: int) -> Game:
    """A copy of ``game`` whose cards hidden from ``player`` are dealt again, consistently with
    what ``player`` sees: the other hands keep their sizes (in Flip each slot keeps its inactive
    face, and the draw pile's top card too), the draw pile its size; the seed, the generator,
    the challenge's verdict and what others were shown change. In Flip the hidden cards are also
    paired again (docs/rules.md ruling 1: the pairing is secret): their faces of the side in play
    are shuffled among them, and so are the inactive faces no one sees (deep in the draw pile)."""
    rng = random.Random(seed)
    copy = game.copy(rng=random.Random(seed + 1))
    copy.seed = seed + 1
    hidden = game.side.other
    two_sided = game.deck[0].dark is not None
    others = [p for p in game.seated if p != player]
    slots = [(p, i) for p in others for i in range(len(game.hands[p]))]
    slots += [("draw", i) for i in range(len(game.draw_pile))]

    def card_at(slot: tuple[str, int]) -> Card:
        owner, i = slot
        return game.draw_pile[i] if owner == "draw" else game.hands[owner][i]

    def key(slot: tuple[str, int]) -> object:
        owner, i = slot
        free = owner == "draw" and i != len(game.draw_pile) - 1
        return None if not two_sided or free else card_at(slot).face(hidden)

    # Shuffle the cards among slots of the same public key (unconstrained slots together).
    by_key: dict[object, list[tuple[str, int]]] = {}
    for slot in slots:
        by_key.setdefault(key(slot), []).append(slot)
    for group in by_key.values():
        cards = [card_at(s) for s in group]
        rng.shuffle(cards)
        for (owner, i), card in zip(group, cards, strict=True):
            (copy.draw_pile if owner == "draw" else copy.hands[owner])[i] = card
    if two_sided:
        repair(copy, slots, rng)
    if copy.pending.guilty is not None:
        copy.pending = copy.pending._replace(guilty=not copy.pending.guilty)
    copy.revealed = {v: r for v, r in copy.revealed.items() if v == player}
    copy.repeats = {"0123456789abcdef": 2}
    return copy


def repair(game: Game, slots: list[tuple[str, int]], rng: random.Random) -> None:
    """Pair the hidden cards at ``slots`` (of a Flip ``game``, changed in place) again: their
    active faces shuffled among all of them, their inactive faces among the draw pile's slots
    below the top card; ``game.deck`` follows."""
    side, hidden = game.side, game.side.other

    def pile(owner: str) -> list[Card]:
        return game.draw_pile if owner == "draw" else game.hands[owner]

    actives = [pile(o)[i].face(side) for o, i in slots]
    rng.shuffle(actives)
    deep = [(o, i) for o, i in slots if o == "draw" and i != len(game.draw_pile) - 1]
    backs = {slot: pile(slot[0])[slot[1]].face(hidden) for slot in slots}
    shuffled = [backs[slot] for slot in deep]
    rng.shuffle(shuffled)
    backs.update(zip(deep, shuffled, strict=True))
    for (owner, i), active in zip(slots, actives, strict=True):
        back = backs[(owner, i)]
        pile(owner)[i] = Card.of(active, back) if side is Side.LIGHT else Card.of(back, active)
    game.deck = [*game.draw_pile, *game.discard_pile, *(c for hand in game.hands.values() for c in hand)]


@pytest.mark.parametrize(("variant", "options"), CONFIGS[:5], ids=CONFIG_IDS[:5])
def test_hard_never_reads_a_hidden_card(variant: str, options: dict[str, Any]) -> None:
    """The hard AI's decision depends only on what is public and its own hand: with the hidden
    cards dealt again (consistently with what it sees; in Flip also paired again), the same seed
    gives the same samples and the same decision."""
    changed = repaired = 0
    for seed in range(12):
        game = position(variant, options, seed, 5 + seed)
        player = game.pending.player
        if game.round_over or player is None:
            continue
        other = hidden_replaced(game, player, seed)
        changed += other.to_dict()["hands"] != game.to_dict()["hands"]
        repaired += Counter(other.deck) != Counter(game.deck)
        samples = [search.determinize(g, player, random.Random(seed)) for g in (game, other)]
        assert samples[0].to_dict()["hands"] == samples[1].to_dict()["hands"], seed
        assert samples[0].draw_pile == samples[1].draw_pile, seed
        assert choose_hard(other, player, seed) == choose_hard(game, player, seed), seed
    assert changed > 5
    assert repaired > 5 if game.deck[0].dark is not None else repaired == 0


def test_determinize_keeps_what_is_public() -> None:
    """A sample keeps the player's hand, the discard pile, every hand size and the draw pile's size,
    and in Flip every inactive face of the other hands and of the draw pile's top card."""
    for seed in range(10):
        game = position("flip", {}, seed, 10 + seed)
        player = game.pending.player
        if game.round_over or player is None:
            continue
        world = search.determinize(game, player, random.Random(seed))
        hidden = game.side.other
        assert world.hands[player] == game.hands[player]
        assert world.discard_pile == game.discard_pile
        for p in game.seated:
            assert [c.face(hidden) for c in world.hands[p]] == [c.face(hidden) for c in game.hands[p]]
        assert world.draw_pile[-1].face(hidden) is game.draw_pile[-1].face(hidden)
        assert len(world.draw_pile) == len(game.draw_pile)
        assert sorted(c.name for c in world.deck) == sorted(
            c.name for cards in [*world.hands.values(), world.draw_pile, world.discard_pile] for c in cards
        )
        assert world.journal is None


def test_easy_sometimes_forgets_uno_and_catches() -> None:
    """Easy calls UNO on some seeds and plays without calling on others; it makes some catches
    and misses others; normal always calls and catches."""
    uno = [
        ai.choose(two_cards_on_turn(), "ana", random.Random(s), "easy") == Action("uno") for s in range(40)
    ]
    assert 0 < sum(uno) < 40
    assert all(ai.choose(two_cards_on_turn(), "ana", random.Random(s)) == Action("uno") for s in range(5))
    game = two_cards_on_turn()
    game.play("ana", "red 2")
    made = [bool(ai.catches(game, "ben", "easy", random.Random(s))) for s in range(40)]
    assert 0 < sum(made) < 40
    assert ai.catches(game, "ben", "easy") == ai.catches(game, "ben", "easy")  # no rng: stable
    assert all(
        ai.catches(game, "ben", level) == [Action("catch", target="ana")] for level in ("normal", "hard")
    )


def test_easy_never_challenges() -> None:
    """Facing a Wild Draw Four, easy accepts (normal challenges a two-card bluffer)."""
    game, _ = Game.from_deal(
        ["ana", "ben"],
        variant="classic",
        dealer="ben",
        hands={
            "ana": [Card.parse(c) for c in ("wild draw four", "red 2", "blue 3")],
            "ben": [Card.parse(c) for c in ("green 5", "yellow 6", "green 9")],
        },
        draw_pile=[Card.parse(c) for c in ("blue 1", "blue 2", "green 1", "green 2")],
        discard_pile=[Card.parse("red 7")],
    )
    game.play("ana", "wild draw four", color="blue")
    assert game.pending.kind is PendingKind.CHALLENGE
    assert ai.choose(game, "ben", random.Random(0)) == Action("challenge")
    assert all(ai.choose(game, "ben", random.Random(s), "easy") == Action("accept") for s in range(10))


def last_two(hand: list[str], top: str = "green 3") -> Game:
    """Two-player classic: ``ana`` to play holding ``hand`` (UNO already called), ``ben`` one
    hidden card from the end of the round (UNO called if ``ana`` holds two)."""
    game, _ = Game.from_deal(
        ["ana", "ben"], variant="classic", dealer="ben", turn="ana",
        hands={"ana": [Card.parse(c) for c in hand], "ben": [Card.parse("yellow 7")]},
        draw_pile=[Card.parse(c) for c in ["red 1", "blue 2", "yellow 4", "red 8", "blue 9", "green 6"]],
        discard_pile=[Card.parse(top)],
    )  # fmt: skip
    if game.can_call_uno("ana"):
        game.apply("ana", Action(ActionKind.UNO))
    return game


def test_hard_finds_the_win_normal_misses() -> None:
    """Two cards left, the opponent on one: the normal AI sheds its green 5 and leaves the
    opponent a chance to go out; the hard AI plays the Wild Draw Four first (the opponent must
    draw four and lose their turn, and accepts: a challenge rarely pays against one card left),
    then goes out on its green 5."""
    game = last_two(["wild draw four", "green 5"])
    assert ai.choose(game, "ana", random.Random(1)).card == Card.parse("green 5")
    for seed in range(3):
        hard = ai.choose(game, "ana", random.Random(seed), "hard", budget=None, playouts=200)
        assert (hard.card, hard.color) == (Card.parse("wild draw four"), Color.GREEN), seed


def test_hard_names_only_colors_it_holds() -> None:
    """A wild played with other cards in hand names one of their colors: the search does not
    spend playouts on colors the player does not hold."""
    game = last_two(["wild", "red 5", "blue 7"], top="yellow 3")
    candidates = ai._candidates(game, "ana", game.decisions("ana"))
    wild = Card.parse("wild")
    assert {a.color for a in candidates if a.card is wild} == {Color.RED, Color.BLUE}
    for seed in range(3):
        assert choose_hard(game, "ana", seed).color in (None, Color.RED, Color.BLUE)


def test_search_keeps_to_its_playout_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Successive halving spends at most the playout count, and most of it."""
    game = position("classic", {}, 5, 8)
    player = game.pending.player
    assert player is not None
    candidates = game.decisions(player)
    assert len(candidates) >= 3
    calls: list[int] = []
    real = search.playout

    def counted(g: Game, p: str, policy: ai.Policy, rng: random.Random) -> float:
        calls.append(1)
        return real(g, p, policy, rng)

    monkeypatch.setattr(search, "playout", counted)
    search.best_action(game, player, candidates, random.Random(1), ai.choose, budget=None, playouts=200)
    assert 100 < len(calls) <= 200


@pytest.mark.slow
def test_mean_values_rank_candidates_as_the_search_does() -> None:
    """With two candidates and no default, the search plays each once per sample for as many
    samples as its playout count allows and keeps the better mean: the candidate with the best
    ``search.mean_values`` from the same generator (the search-quality benchmark's reference)."""
    checked = 0
    for seed in range(40):
        game = position("classic", {}, seed, 10)
        player = game.pending.player
        if player is None or game.can_call_uno(player):
            continue
        candidates = ai.hard_candidates(game, player)[0][:2]
        if len(candidates) < 2:
            continue
        values = search.mean_values(game, player, candidates, random.Random(seed), ai._normal, 30)
        chosen = search.best_action(
            game, player, candidates, random.Random(seed), ai._normal, budget=None, playouts=60
        )
        if values[0] != values[1]:
            assert chosen == candidates[values.index(max(values))], seed
            checked += 1
    assert checked >= 5


@pytest.mark.slow
def test_regret_benchmark_is_the_same_in_two_processes() -> None:
    """``benchmarks.regret`` gives the same figures in one process and two (every generator is
    seeded per position), and its regrets are not negative."""
    from benchmarks import regret

    one, two = (regret.measure("classic", 4, 6, 20, [10, 30], 2, 3, jobs=j) for j in (1, 2))
    for figures in (*one, *two):
        del figures["seconds"]
    assert one == two
    assert [f["playouts"] for f in one] == [10, 30]
    for figures in one:
        assert figures["positions"] >= 2
        assert min(figures["regret_normal"], figures["regret_hard"], figures["regret_floor"]) >= 0
        assert 0 <= figures["departures"] <= 1


def test_samples_follow_what_a_player_could_not_play() -> None:
    """A player who drew on red 7 holding three cards is dealt, in most samples, three cards
    that are neither red, nor a 7, nor a wild; in a few (drawing at will is allowed) any cards."""
    game, _ = Game.from_deal(
        ["ana", "ben"], variant="classic", dealer="ben", turn="ben",
        hands={"ana": [Card.parse(c) for c in ["blue 1", "blue 2"]],
               "ben": [Card.parse(c) for c in ["green 4", "green 5", "yellow 6"]]},
        draw_pile=[Card.parse(c) for c in ["red 1", "wild", "blue 2", "yellow 4", "red 8"]],
        discard_pile=[Card.parse("red 7")],
    )  # fmt: skip
    game.apply("ben", Action(ActionKind.DRAW))  # draws the red 8: keeps it
    game.apply("ben", Action(ActionKind.KEEP))

    def could_not_play(card: Card) -> bool:
        return not card.light.wild and card.light.color is not Color.RED and card.light.rank is not Rank.SEVEN

    kept = [
        sum(could_not_play(c) for c in search.determinize(game, "ana", random.Random(s)).hands["ben"]) >= 3
        for s in range(200)
    ]
    assert 0.8 * 200 <= sum(kept) < 200


def test_strength_benchmark_splits_rounds_across_processes() -> None:
    """``--jobs 2`` plays the same seat-rotated rounds as one process: the same wins, voids and
    decisions (easy and normal read no clock)."""
    from benchmarks import strength

    one, two = (
        strength.run(["easy", "normal"], "classic", 10, 5, Options(), None, None, jobs=j) for j in (1, 2)
    )
    assert one["rounds"] == two["rounds"] == 10
    assert (one["wins"], one["voids"], one["decisions"]) == (two["wins"], two["voids"], two["decisions"])
    assert one["decisions"] > 0


def test_samples_follow_the_color_a_wild_named() -> None:
    """A player who named blue with a wild is dealt, in most samples, blue as the color they hold
    most of (the normal AI names its most held color); in a few (a person need not) any cards."""
    game, _ = Game.from_deal(
        ["ana", "ben", "cy"], variant="classic", dealer="cy", turn="ben",
        hands={"ana": [Card.parse(c) for c in ["blue 1", "blue 2"]],
               "ben": [Card.parse(c) for c in ["wild", "blue 3", "green 5", "yellow 6", "blue 8", "green 9"]],
               "cy": [Card.parse(c) for c in ["red 1", "red 2", "red 3"]]},
        draw_pile=[Card.parse(c) for c in ["red 4", "blue 9", "green 2", "yellow 2", "yellow 4"]],
        discard_pile=[Card.parse("red 7")],
    )  # fmt: skip
    game.apply("ben", Action(ActionKind.PLAY, Card.parse("wild"), color=Color.BLUE))

    def blue_most(hand: list[Card]) -> bool:
        colors = Counter(c.light.color for c in hand if not c.light.wild)
        return colors[Color.BLUE] >= max(colors.values(), default=0)

    leaned = [blue_most(search.determinize(game, "ana", random.Random(s)).hands["ben"]) for s in range(200)]
    assert 0.85 * 200 <= sum(leaned) < 200
