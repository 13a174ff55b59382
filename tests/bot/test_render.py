"""Rendering stays inside Discord's limits in every state of every edition (bot/render.py)."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot import render
from bot.engine import ai
from bot.engine.cards import Card, Color
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options
from bot.engine.variants import VARIANTS
from bot.tables import Seat, Table


def _check_embed(embed: discord.Embed) -> None:
    data = embed.to_dict()
    assert len(embed) <= 6000
    assert len(data.get("title", "")) <= 256
    assert len(data.get("description", "")) <= 4096
    assert len(data.get("fields", [])) <= 25
    for f in data.get("fields", []):
        assert 0 < len(f["name"]) <= 256 and 0 < len(f["value"]) <= 1024


def _check_view(view: discord.ui.View | None) -> None:
    if view is None:
        return
    rows: list[dict[str, Any]] = view.to_components()
    assert len(rows) <= 5
    ids = []
    for row in rows:
        comps = row["components"]
        assert 1 <= len(comps) <= 5
        for c in comps:
            ids.append(c["custom_id"])
            assert len(c["custom_id"]) <= 100
            if c["type"] == 2:
                assert len(c.get("label", "")) <= 80
            if c["type"] == 3:
                assert len(comps) == 1 and 1 <= len(c["options"]) <= 25
                assert all(len(o["label"]) <= 100 and len(o["value"]) <= 100 for o in c["options"])
    assert len(ids) == len(set(ids)), "custom_ids must be unique in a message"


def _table(variant: str, players: int, options: Options, seed: int) -> Table:
    seats = [Seat(str(10**17 + i), f"Player {i} with a rather long display name") for i in range(players)]
    table = Table.new(
        guild_id=1, channel_id=987654321098765432, host=seats[0], variant=variant, options=options
    )
    for s in seats[1:]:
        table.join(s)
    table.start(seed=seed)
    return table


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 4, 10])
def test_every_state_renders_within_discord_limits(variant: str, players: int) -> None:
    """Table, lobby and every hand render within Discord's limits through whole rounds."""
    options = Options(
        house_rules=frozenset({HouseRule.SEVEN_O, HouseRule.JUMP_IN, HouseRule.STACKING}),
        customizable_rule="swap-hands",
    )
    for seed in range(3):
        table = _table(variant, players, options, seed)
        game = table.game
        assert game is not None

        def check(g: Game, table: Table = table) -> None:
            embed, view = render.table(table)
            _check_embed(embed)
            _check_view(view)
            for p in g.seated:
                content, hand_embed, hand_view = render.hand(table, p)
                assert len(content) <= 2000
                _check_embed(hand_embed)
                _check_view(hand_view)

        ai.play_round(game, {}, random.Random(seed), after_step=check)
        embed, view = render.lobby(table)
        _check_embed(embed)
        _check_view(view)


def test_huge_hand_pages_its_select() -> None:
    """A hand with more playable cards than buttons fit gets a paged select, never too many items."""
    table = _table("classic", 2, Options(), 1)
    game = table.game
    assert game is not None
    player = game.pending.player
    assert player is not None
    other = next(p for p in game.seated if p != player)
    game.hands[player].extend(game.draw_pile)
    game.draw_pile.clear()
    game.hands[player].extend(game.hands[other][:-1])
    del game.hands[other][:-1]
    _, embed, view = render.hand(table, player)
    _check_embed(embed)
    _check_view(view)
    playable = {a.card for a in game.decisions(player) if a.card is not None}
    assert len(playable) > render.CARD_BUTTONS
    kinds = [c["type"] for row in view.to_components() for c in row["components"]]
    assert 3 in kinds
    _, _, page2 = render.hand(table, player, page=1)
    _check_view(page2)


def test_describe_gives_a_line_for_every_public_event() -> None:
    """Every event of a few rounds gets a readable line or is deliberately silent."""
    table = _table("flip", 3, Options(), 4)
    game = table.game
    assert game is not None
    rng = random.Random(4)
    silent = {"penalty-pending", "dealer-drawn"}
    while not game.round_over:
        player = game.pending.player
        assert player is not None
        for event in game.apply(player, ai.random_action(game, player, rng)):
            line = render.describe(table, event)
            if event.kind in silent:
                assert line is None
            elif event.kind != "cards-drawn":  # draws for a catch are told by the catch line
                assert line, event


def test_void_round_is_told_without_a_winner() -> None:
    """A round that goes in circles (docs/rules.md ruling 46) is announced as void, naming nobody."""
    table = _table("classic", 3, Options(house_rules=frozenset({HouseRule.FORCED_PLAY})), 1)
    a, b, c = (s.id for s in table.seats)
    hands = {a: ["green 1", "green 2"], b: ["yellow 1", "yellow 2"], c: ["blue 3", "blue 4"]}
    table.game, _ = Game.from_deal(
        [a, b, c],
        variant="classic",
        options=table.options,
        dealer=c,
        hands={p: [Card.parse(x) for x in h] for p, h in hands.items()},
        draw_pile=[],
        discard_pile=[Card.parse("green reverse"), Card.parse("red reverse")],
        color=Color.RED,
    )
    game = table.game
    rng = random.Random(0)
    lines = []
    while not game.round_over:
        player = game.pending.player
        assert player is not None
        lines += [render.describe(table, e) for e in game.apply(player, ai.random_action(game, player, rng))]
    assert lines[-1] == "🔄 The round went in circles and is void: nobody scores"
    summary = render.round_summary(table, game.round_winner, game.round_points)
    assert "void" in summary and "went out" not in summary
