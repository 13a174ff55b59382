"""Rendering stays inside Discord's limits in every state of every edition (bot/render.py)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import discord
import pytest

from bot import render
from bot.art import emoji_name
from bot.engine import ai
from bot.engine.actions import Action
from bot.engine.cards import Card, Color, Face, Side
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DosEvent, DosEventKind, DosGame, DosPending, DosPendingKind
from bot.engine.editions import AnyFace
from bot.engine.events import Event, EventKind
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options, Pending, PendingKind, Scoring
from bot.engine.variants import VARIANTS
from bot.i18n import LANGUAGES, translator
from bot.localdiscord.limits import FLAG_COMPONENTS_V2, check_message, walk_components
from bot.render.faces import face_order, face_short
from bot.render.log import LINES
from bot.render.table import LOG_ROOM, standings_text
from bot.render.thread import pointer_over
from bot.tables import Removal, Seat, Table, TableState

EN = translator("en")
FR = translator("fr")


def _parts(view: discord.ui.BaseView) -> list[dict[str, Any]]:
    """Every component of a view's message, nested ones too."""
    return list(walk_components(view.to_components()))


def _check_view(view: discord.ui.BaseView | None) -> None:
    """A message's components pass Discord's limits as the stand-in checks them (40 components,
    4,000 characters of text for Components V2), and each one its own."""
    if view is None:
        return
    flags = FLAG_COMPONENTS_V2 if isinstance(view, discord.ui.LayoutView) else 0
    check_message({"flags": flags, "components": view.to_components()})
    for c in _parts(view):
        if "custom_id" in c:
            assert len(c["custom_id"]) <= 100
        if c["type"] == 2:
            assert len(c.get("label", "")) <= 80
        if c["type"] == 3:
            assert 1 <= len(c["options"]) <= 25
            assert all(len(o["label"]) <= 100 and len(o["value"]) <= 100 for o in c["options"])


def _text(view: discord.ui.BaseView) -> str:
    """Every text display of a view, one after the other."""
    return "\n".join(c["content"] for c in _parts(view) if c["type"] == 10)


def _fields(view: discord.ui.BaseView) -> dict[str, str]:
    """The view's titled blocks of text (``"**Players**\n…"``), by title."""
    blocks = (c["content"] for c in _parts(view) if c["type"] == 10)
    return {
        title[2:-2]: value
        for title, _, value in (b.partition("\n") for b in blocks)
        if title.startswith("**") and title.endswith("**")
    }


def _table(variant: str, players: int, options: Options, seed: int) -> Table:
    seats = [Seat(str(10**17 + i), f"Player {i} with a rather long display name") for i in range(players)]
    table = Table.new(
        guild_id=1, channel_id=987654321098765432, host=seats[0], variant=variant, options=options
    )
    for s in seats[1:]:
        table.join(s)
    table.start(seed=seed)
    return table


@pytest.mark.slow
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
            _check_view(render.table(table, EN))
            for p in g.seated:
                _check_view(render.hand(table, p, EN))

        ai.play_round(game, {}, random.Random(seed), after_step=check)
        _check_view(render.lobby(table, EN))


def test_huge_hand_pages_its_select() -> None:
    """A hand with more playable cards than buttons fit gets a paged select, never too many items
    (Flip: every card differs by its back, so a whole deck's hand has more than 25 plays)."""
    table = _table("flip", 2, Options(), 1)
    game = table.game
    assert game is not None
    player = game.pending.player
    assert player is not None
    other = next(p for p in game.seated if p != player)
    game.hands[player].extend(game.draw_pile)
    game.draw_pile.clear()
    game.hands[player].extend(game.hands[other][:-1])
    del game.hands[other][:-1]
    view = render.hand(table, player, EN)
    _check_view(view)
    playable = {a.card for a in game.decisions(player) if a.card is not None}
    assert len(playable) > 25
    kinds = [c["type"] for c in _parts(view)]
    assert 3 in kinds
    page2 = render.hand(table, player, EN, page=1)
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
            line = render.describe(table, event, EN)
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
        lines += [
            render.describe(table, e, EN) for e in game.apply(player, ai.random_action(game, player, rng))
        ]
    assert lines[-1] == "🔄 The round went in circles and is void: nobody scores"
    summary = render.round_summary(table, game.round_winner, game.round_points, EN)
    assert "void" in summary and "went out" not in summary


def _lobby(options: Options, variant: str = "classic") -> Table:
    table = Table.new(guild_id=1, channel_id=2, host=Seat("1", "Ana"), variant=variant, options=options)
    table.join(Seat("2", "Ben"))
    return table


def _dealt(hands: dict[str, list[str]], options: Options | None = None, variant: str = "classic") -> Table:
    table = _lobby(options or Options(), variant)
    game, _ = Game.from_deal(
        ["1", "2"],
        variant=variant,
        options=options,
        dealer="2",
        hands={p: [Card.parse(c) for c in cs] for p, cs in hands.items()},
        draw_pile=[Card.parse("blue 1")] if variant == "classic" else [Card.parse("blue 1 / pink 2")],
        discard_pile=[Card.parse("red 9")] if variant == "classic" else [Card.parse("red 9 / teal 3")],
    )
    table.game, table.state = game, "playing"
    return table


def test_house_rules_show_their_names_everywhere() -> None:
    """Lobby text, its select and the settings text name house rules as players read them."""
    options = Options(house_rules=frozenset({HouseRule.DRAW_UNTIL_PLAYABLE, HouseRule.SEVEN_O}))
    view = render.lobby(_lobby(options), EN)
    assert "Seven-O, Draw until playable" in _text(view)
    assert "draw-until-playable" not in _text(view)
    select = next(c for c in _parts(view) if "rules" in c.get("custom_id", ""))
    assert {o["label"] for o in select["options"]} == set(render.HOUSE_RULE_NAMES.values())
    assert "draw-until-playable" in {o["value"] for o in select["options"]}
    assert "House rules: **Seven-O, Draw until playable**" in render.settings_text("classic", options, 0, EN)
    assert set(render.HOUSE_RULE_NAMES) == set(HouseRule) == set(render.HOUSE_RULE_HINTS)


@pytest.mark.parametrize(
    ("options", "shown", "hidden"),
    [
        (Options(scoring=Scoring.SINGLE_ROUND, target_score=500), "first player out wins", "500"),
        (Options(target_score=300), "first to 300 points", "single"),
        (Options(scoring=Scoring.RUNNING_TALLY, target_score=200), "lowest total wins", "first to"),
        (Options(elimination=True), "elimination: out at 500", "single"),  # never a single round
    ],
)
def test_scoring_mode_is_shown_without_a_target_where_none_applies(
    options: Options, shown: str, hidden: str
) -> None:
    """Lobby, table and settings say how the game is won; single round has no target score."""
    lobby = _text(render.lobby(_lobby(options), EN))
    assert shown in lobby and hidden not in lobby
    assert "target" not in lobby
    assert shown in render.settings_text("classic", options, 90, EN)
    text = _text(render.table(_dealt({"1": ["red 1"], "2": ["red 2"]}, options), EN))
    assert "target" not in text
    assert ("Scores" in text) == (options.scoring is not Scoring.SINGLE_ROUND or options.elimination)


def test_hand_is_sorted_by_color_then_rank_with_wilds_last() -> None:
    """The hand lists and buttons cards by color (fixed order), then rank, wilds last."""
    hand = ["wild", "blue 3", "red skip", "green 1", "red 2", "wild draw four", "yellow 9", "red 2", "blue 0"]
    table = _dealt({"1": hand, "2": ["green 5"]})
    view = render.hand(table, "1", EN)
    names = [line.strip("*").split(" ", 1)[1] for line in _fields(view)["Your cards"].split("\n")]
    order = [
        "red 2",
        "red 2",
        "red skip",
        "yellow 9",
        "green 1",
        "blue 0",
        "blue 3",
        "wild",
        "wild draw four",
    ]
    assert names == order
    assert table.game is not None
    assert [c.name for c in render.hand_cards(table.game, "1")] == order  # as Show as picture draws it
    buttons = _labels(view)
    assert buttons[:5] == ["🟥 red 2", "🟥 red skip", "🟨 yellow 9", "🌈 wild", "🌈 wild draw four"]
    assert render.hand(table, "1", EN).to_components() == view.to_components()  # deterministic


def test_flip_hand_is_sorted_by_the_active_side() -> None:
    """On the dark side, the dark colors order the hand."""
    hand = ["red 1 / purple 2", "blue 2 / pink 5", "green 3 / wild draw color", "yellow 4 / pink 1"]
    table = _dealt({"1": hand, "2": ["red 5 / teal 5"]}, variant="flip")
    game = table.game
    assert game is not None
    game.side = Side.DARK
    cards = _fields(render.hand(table, "1", EN))["Your cards"]
    lines = [line.strip("*").split(" (back")[0].split(" ", 1)[1] for line in cards.split("\n")]
    assert lines == ["pink 1", "pink 5", "purple 2", "wild draw color"]


@pytest.mark.parametrize(
    ("variant", "side", "wild", "expected"),
    [
        ("classic", Side.LIGHT, "wild", {"red": "danger", "yellow": "secondary", "green": "success", "blue": "primary"}),
        ("flip", Side.DARK, "red 1 / wild", dict.fromkeys(("pink", "teal", "orange", "purple"), "secondary")),
    ],
    ids=["light", "dark"],
)  # fmt: skip
def test_a_wild_s_color_buttons_look_their_color_or_are_all_grey(
    variant: str, side: Side, wild: str, expected: dict[str, str]
) -> None:
    """Naming a wild's color: a light color has the button style that looks it (yellow has none:
    grey); the dark side's four have none, so all four are grey alike, none looking recommended."""
    other = "green 5" if variant == "classic" else "green 5 / teal 5"
    table = _dealt({"1": [wild, other], "2": [other]}, variant=variant)
    assert table.game is not None
    table.game.side = side
    view = render.hand(table, "1", EN, pick=Action.parse(f"play {wild}"))
    buttons = [c for c in _parts(view) if c["type"] == 2 and c.get("label") in expected]
    assert {c["label"]: discord.ButtonStyle(c["style"]).name for c in buttons} == expected


def test_seven_o_target_pick_says_what_is_asked() -> None:
    """Playing a Seven-O 7 asks for the player to swap hands with (the color step names the color)."""
    options = Options(house_rules=frozenset({HouseRule.SEVEN_O}))
    table = _dealt({"1": ["red 7", "wild", "blue 2"], "2": ["green 5"]}, options)
    assert "🟢 Your move: play a card or draw." in _text(render.hand(table, "1", EN))
    shown = _text(render.hand(table, "1", EN, pick=Action.parse("play red 7")))
    assert "pick the player to swap hands with (Seven-O)" in shown
    assert "play a card or draw" not in shown
    shown = _text(render.hand(table, "1", EN, pick=Action.parse("play wild")))
    assert "🟢 Your move (🌈 wild): name the color." in shown


@pytest.mark.parametrize(("scoring", "shown"), [(Scoring.STANDARD, " (+12)"), (Scoring.RUNNING_TALLY, "")])
def test_round_points_are_shown_only_where_the_winner_scores(scoring: Scoring, shown: str) -> None:
    """A running tally's round winner scores nothing, so no "(+0)" is shown."""
    table = _dealt({"1": ["red 1"], "2": ["red 2"]}, Options(scoring=scoring))
    line = render.describe(table, Event("round-over", None, {"winner": "1", "points": 12}), EN)
    assert line == f"🏁 Ana wins the round{shown}"
    assert f"**Ana** went out{shown}. Scores" in render.round_summary(table, "1", 12, EN)


def test_wild_super_hero_discard_reaches_every_card_of_a_huge_hand() -> None:
    """The discard select offers each different card once, on pages of at most 25 options, so
    every card of a hand of any size can be discarded (Flip Marvel, Wild Super Hero)."""
    table = _table("flip-marvel", 2, Options(), 1)
    game = table.game
    assert game is not None
    player = game.seated[0]
    game.hands[player].extend(game.draw_pile)
    game.draw_pile.clear()
    game.pending = Pending(PendingKind.DISCARD, player)
    hand_cards = game.hands[player]
    offered: list[str] = []
    for page in range(10):
        view = render.hand(table, player, EN, page=page)
        _check_view(view)
        components = _parts(view)
        offered += [o["value"] for c in components if c["type"] == 3 for o in c["options"]]
        forward = next((c for c in components if c.get("label") == "▶"), None)
        if forward is None or forward.get("disabled"):
            break
    cards = [Action.parse(text).card for text in offered]
    assert len(cards) == len(set(cards)) and set(cards) == set(hand_cards)
    assert len(set(hand_cards)) > 25  # more than one select holds


def test_lobby_shows_the_partner_teams_the_game_will_have() -> None:
    """With partners, the lobby lists the teams as the engine will form them (seats across)."""
    table = _lobby(Options(partners=True))
    table.join(Seat("3", "Cy"))
    assert "Teams" not in _text(render.lobby(table, EN))  # three players: no teams yet
    table.join(Seat("4", "Di"))
    teams = next(v for name, v in _fields(render.lobby(table, EN)).items() if name.startswith("Teams"))
    assert teams.split("\n") == ["Ana + Cy", "Ben + Di"]
    table.start(seed=1)
    game = table.game
    assert game is not None and game.team_of("1") == game.team_of("3") != game.team_of("2")


def _four(variant: str, options: Options) -> Table:
    """A started table of Ana, Ben, Cy and Di in seat order."""
    table = _lobby(options, variant)
    table.join(Seat("3", "Cy"))
    table.join(Seat("4", "Di"))
    table.start(seed=1)
    return table


@pytest.mark.parametrize("variant", ["classic", "dos"])
def test_the_table_marks_each_partner_s_team_and_scores_the_teams(variant: str) -> None:
    """With partners, the table's Players list marks each player with their team's letter (A:
    seats 1 and 3, B: seats 2 and 4, as the lobby paired them, docs/rules.md §3.2) and says so in
    its title in every language; the scores, the round summary and the standings show each team's
    total with its letter. Without partners, no marks."""
    table = _four(variant, Options(partners=True))
    game = table.game
    assert game is not None
    for lang in LANGUAGES:
        tr = translator(lang)
        fields = _fields(render.table(table, tr))
        title = tr._("Players and teams (partners sit across)")
        rows = fields[title].splitlines()
        marks = [row.lstrip("▶ 　").split(" ", 1)[0] for row in rows]
        assert marks == ["`A`", "`B`", "`A`", "`B`"], rows
        assert [row.split("**")[1] for row in rows] == ["Ana", "Ben", "Cy", "Di"]
    game.scores[game.team_of("2")] = 40
    scores = next(v for k, v in _fields(render.table(table, EN)).items() if k.startswith("Scores"))
    assert scores == "`A` Ana & Cy 0 · `B` Ben & Di 40"
    assert render.round_summary(table, "4", 40, EN).endswith("Scores: `A` Ana & Cy 0 · `B` Ben & Di 40")
    game.leave("1")
    game.leave("3")  # team A has nobody left: the game is over, team B won (§3.2)
    assert game.game_over
    _, lines = standings_text(table, EN)
    assert lines == ["🥇 `B` **Ben & Di** — 40 points", "🥈 `A` **Ana & Cy** — 0 points"]
    assert "`A` ~~Ana~~ (left)" in _fields(render.table(table, EN))["Players and teams (partners sit across)"]
    alone = _four(variant, Options())
    shown = _text(render.table(alone, EN))
    assert "`" not in shown and "teams" not in shown and "**Players**" in shown
    assert "`" not in "".join(standings_text(alone, EN)[1])


@pytest.mark.parametrize("variant", ["classic", "dos"])
def test_a_team_as_the_subject_takes_a_plural_verb(variant: str) -> None:
    """A round or a game won by partners (docs/rules.md §3.2) is said with the verb agreeing with
    the two of them in each language ("Ana & Cy gagnent la manche", "ganan", "vencem"), a player
    alone with the singular; French names the winners without "de" ("Victoire de Ana")."""
    table = _four(variant, Options(partners=True))
    game = table.game
    assert game is not None
    team = game.team_of("1")
    kinds = (
        (DosEventKind.ROUND_OVER, DosEventKind.GAME_OVER) if variant == "dos" else ("round-over", "game-over")
    )
    event = DosEvent if variant == "dos" else Event
    fr, es, pt = translator("fr"), translator("es"), translator("pt_BR")

    def said(kind: Any, tr: Any, **data: Any) -> str:
        line = render.log_lines(table, [event(kind, None, data)], tr)  # type: ignore[operator]
        assert len(line) == 1
        return str(line[0])

    assert said(kinds[0], fr, winner=team, points=40) == "🏁 Ana & Cy gagnent la manche (+40)"
    assert said(kinds[0], es, winner=team, points=40) == "🏁 Ana & Cy ganan la ronda (+40)"
    assert said(kinds[0], pt, winner=team, points=40) == "🏁 Ana & Cy vencem a rodada (+40)"
    assert said(kinds[0], EN, winner=team, points=40) == "🏁 Ana & Cy win the round (+40)"
    assert said(kinds[1], fr, winners=[team]) == "🏆 Ana & Cy gagnent la partie"
    assert "**Ana & Cy** gagnent la manche (+40)." in render.round_summary(table, team, 40, fr)
    game.leave("2")
    game.leave("4")  # team B has nobody left: team A won the game
    assert game.game_over and game.winners == [team]
    assert standings_text(table, fr)[0] == "🏆 Ana & Cy ont gagné !"
    assert standings_text(table, es)[0] == "🏆 ¡Ganaron Ana & Cy!"
    assert "🏆 **Ana & Cy** ont gagné en 1 manche" in pointer_over(table, fr)
    alone = _four(variant, Options())
    assert said(kinds[0], fr, winner="1", points=40) == "🏁 Ana gagne la manche (+40)"
    assert said(kinds[0], EN, winner="1", points=40) == "🏁 Ana wins the round (+40)"
    assert "**Ana** a fini (+40)." in render.round_summary(alone, "1", 40, fr)
    assert said(kinds[1], fr, winners=["1"]) == "🏆 Ana gagne la partie"


def test_a_dos_lobby_offers_every_bot_level_and_names_a_hard_bot() -> None:
    """A DOS host seats a bot of any level from the lobby's select, as in UNO (docs/rules.md
    §5.4; DOS's hard bot searches too), and a hard bot shows its level by its name."""
    table = _lobby(Options(), "dos")
    offered = {
        o["value"]: o.get("description")
        for c in _parts(render.lobby(table, EN)) if c.get("custom_id", "").endswith(":bot")
        for o in c.get("options", ())
    }  # fmt: skip
    assert list(offered) == ["easy", "normal", "hard"]
    assert offered["easy"] == "Plays any match it can, often forgets DOS"  # not UNO's calls
    table.options = dataclasses.replace(table.options, house_rules=frozenset({HouseRule.STACKING}))
    parts = _parts(render.lobby(table, EN))
    assert not any(c.get("custom_id", "").endswith(":rules") for c in parts)  # DOS plays none (§14.12)
    assert "house rules" not in _text(render.lobby(table, EN)).lower()
    table.add_ai("hard")
    assert "Bot 1 (hard)" in _text(render.lobby(table, EN))


def test_log_names_a_flip_by_the_face_it_was_played_on() -> None:
    """The log line of a card that flips the table shows the face it was played on (the light
    one), and the lines after the flip read the dark side."""
    table = _table("flip", 2, Options(), 1)
    a, b = (s.id for s in table.seats)
    hands = {
        a: ["yellow flip / pink draw five", "red 1 / teal 2"],
        b: ["blue 3 / orange 4", "green 5 / purple 6"],
    }
    table.game, _ = Game.from_deal(
        [a, b],
        variant="flip",
        options=table.options,
        dealer=b,
        hands={p: [Card.parse(x) for x in h] for p, h in hands.items()},
        draw_pile=[Card.parse("blue 7 / pink 8"), Card.parse("green 8 / teal 9")],
        discard_pile=[Card.parse("yellow 2 / orange 5")],
        color=Color.YELLOW,
    )
    game = table.game
    action = next(
        x for x in game.legal_actions(a) if x.kind == "play" and x.card is not None and "flip" in str(x.card)
    )
    lines = render.log_lines(table, game.apply(a, action), EN)
    assert game.side is Side.DARK
    assert "yellow flip" in lines[0].lower() and "draw five" not in lines[0].lower(), lines
    assert any("FLIP" in line for line in lines[1:]), lines


@pytest.mark.parametrize("partners", [False, True])
def test_single_round_standings_rank_by_cards_left(partners: bool) -> None:
    """Single-round scoring has no points (docs/rules.md §2.3): the standings show who went out,
    then the others (players, or partners together) by the cards they were left holding, fewest
    first."""
    table = _table("classic", 4, Options(scoring=Scoring.SINGLE_ROUND, partners=partners), 3)
    game = table.game
    assert game is not None
    rng = random.Random(3)
    while not game.game_over:
        player = game.pending.player
        assert player is not None
        game.apply(player, ai.random_action(game, player, rng))
    _, lines = standings_text(table, EN)
    (winner,) = game.winners
    # With partners a team is marked by its letter: A for seats 1 and 3, B for seats 2 and 4.
    tag = f"`{'AB'[game.players.index(winner.split('+')[0]) % 2]}` " if partners else ""
    assert lines[0] == f"🥇 {tag}**{table.name(winner)}** — went out"
    held = [int(line.rsplit("— ", 1)[1].split()[0]) for line in lines[1:]]
    losers = [k for k in game.scores if k != winner]
    assert held == sorted(sum(len(game.hands[m]) for m in k.split("+")) for k in losers)
    assert len(held) == (1 if partners else 3)


def test_a_color_named_for_a_leaver_says_so() -> None:
    """The default move of a player who left while naming a color (docs/rules.md ruling 47) is not
    told as if they chose it."""
    table = _table("classic", 3, Options(), 2)
    game = table.game
    assert game is not None
    a, b = game.players[:2]
    game.leave(b)
    assert render.describe(table, Event("color-named", a, {"color": "green"}), EN) == (
        f"{table.name(a)} names green"
    )
    assert render.describe(table, Event("color-named", b, {"color": "green"}), EN) == (
        f"green is named for {table.name(b)}, who left"
    )


@pytest.mark.parametrize(
    ("variant", "seed", "expected"),
    [
        (
            "classic",
            9,
            ["🌈 wild draw four turned up first and went back into the draw pile", "Start card: 🟩 green 6"],
        ),
        ("flip", 54, ["Start card: 🟦 blue flip", "🔄 FLIP! The table turns to the dark side"]),
    ],
)
def test_log_names_the_start_card(variant: str, seed: int, expected: list[str]) -> None:
    """A new round's log names its start card after any card put back (docs/rules.md ruling 4), on
    the side it turned up on, before its effect."""
    table = Table.new(guild_id=1, channel_id=2, host=Seat("1", "Ana"), variant=variant, options=Options())
    table.join(Seat("2", "Ben"))
    table.join(Seat("3", "Cy"))
    lines = render.log_lines(table, table.start(seed), EN)
    assert lines[0].startswith("Round 1: ") and lines[1:] == expected


def test_a_custom_wild_rule_shows_as_typed() -> None:
    """The host's own Wild Customizable text is shown with its Markdown escaped wherever it
    appears (settings, lobby, the log line of its play); a known rule shows by its name."""
    typed = "# **Sing** > _all_ `now`"
    shown = discord.utils.escape_markdown(typed)
    options = Options(customizable_rule=typed)
    table = _lobby(options, "dc-super-hero-girls")
    lobby = _text(render.lobby(table, EN))
    assert f"Wild Customizable: **{shown}**" in render.settings_text("dc-super-hero-girls", options, 0, EN)
    assert f"Wild Customizable: {shown}" in lobby
    played = Event("house-rule", "1", {"text": typed})
    assert render.describe(table, played, EN) == f"📜 House rule: {shown}"
    known = Event("house-rule", "1", {"text": "Swap hands", "rule": "swap-hands"})
    assert render.describe(table, known, EN) == "📜 House rule: Swap hands"


def test_a_departed_players_row_lines_up_with_the_others() -> None:
    """In the table's Players field a player who left is indented like the players waiting."""
    table = _table("classic", 3, Options(), 2)
    game = table.game
    assert game is not None
    game.leave(game.players[1])
    rows = _fields(render.table(table, EN))["Players"].splitlines()
    assert len(rows) == 3 and sum("(left)" in row for row in rows) == 1
    assert all(row.startswith(("▶ ", "　")) for row in rows), rows


def test_every_event_kind_is_logged_or_silent_by_choice() -> None:
    """Every kind of event has a log line, but for the ones the table shows otherwise: a first
    dealer's draw (the round's line names the dealer) and a pending penalty (the table says it)."""
    assert set(EventKind) - set(LINES) == {EventKind.DEALER_DRAWN, EventKind.PENALTY_PENDING}


HOSTILE = {
    "link": "[Free Nitro](https://x.example)",
    "mention": "<@123456789012345678>",
    "bold": "**boss**",
    "spoiler": "||hidden||",
    "code": "`tick`",
    "override": "\u202eevil",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_names_show_as_plain_text(kind: str) -> None:
    """A display name holding a link, a mention, Markdown or a right-to-left override is shown as
    typed on the lobby, the table, its log, the standings and a round's summary: no working
    link or mention, no formatting, nothing reversed."""
    hostile = HOSTILE[kind]
    table = Table.new(guild_id=1, channel_id=2, host=Seat("1", hostile), variant="classic")
    table.join(Seat("2", "Ben"))
    texts = [_text(render.lobby(table, EN))]
    game, _ = Game.from_deal(
        ["1", "2"], variant="classic", options=Options(), dealer="2",
        hands={"1": [Card.parse("red 1")], "2": [Card.parse("red 2"), Card.parse("blue 3")]},
        draw_pile=[Card.parse("blue 1")], discard_pile=[Card.parse("red 9")],
    )  # fmt: skip
    table.game, table.state = game, "playing"
    table.log.extend(render.log_lines(table, game.play("1", "red 1"), EN))
    texts += [
        _text(render.table(table, EN)),
        _text(render.standings(table, EN)),
        render.round_summary(table, "1", 3, EN),
    ]
    for text in texts:
        assert "\u202e" not in text
        assert not re.search(r"<@!?\d+>", text)
        assert not re.search(r"(?<!\\)\[[^\]]*\]\(https?://", text)
        assert not re.search(r"(?<!\\)\*\*boss(?<!\\)\*\*|(?<!\\)\|\|hidden|(?<!\\)`tick", text)


WORST_NAMES = [
    ("*_`|~\\>#" * 5)[:32],
    "\u202e" + "||" * 15 + "\u05d0",
    ("[Free Nitro](https://example.com)")[:32],
    ("<@123456789012345678>" + "**" * 6)[:32],
]


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize(
    ("lang", "partners"),
    [("en", True)] + [(lang, False) for lang in sorted(LANGUAGES)],  # teams change no label's words
)
def test_the_worst_names_and_rule_text_fit_discord_limits(variant: str, partners: bool, lang: str) -> None:
    """Ten players whose 32-character names escape to the most (every character escaped, an
    override, right-to-left letters, mentions), and a 300-character Wild Customizable text of
    the same: the lobby, table, every hand (with a player to pick), round summaries and the
    standings fit Discord's limits through a whole game, in every language (bot/i18n.py)."""
    tr = translator(lang)
    options = Options(
        house_rules=frozenset({HouseRule.SEVEN_O, HouseRule.JUMP_IN, HouseRule.STACKING}),
        customizable_rule=("<@123456789012345678>*_`|" * 15)[:300],
        partners=partners,
        target_score=1,
    )
    seats = [Seat(str(10**17 + i), WORST_NAMES[i % len(WORST_NAMES)]) for i in range(10)]
    table = Table.new(
        guild_id=1, channel_id=987654321098765432, host=seats[0], variant=variant, options=options
    )
    for s in seats[1:]:
        table.join(s)
    _check_view(render.lobby(table, tr))
    table.start(seed=3)
    game = table.game
    assert game is not None

    def check(g: Game) -> None:
        table.log.append(f"{render.named(table, g.players[0], tr)} " + "x" * 80)  # a long log
        _check_view(render.table(table, tr))
        for p in g.seated:
            _check_view(render.hand(table, p, tr))
            for pick in g.decisions(p):  # a play asking for its player: the player select
                if pick.target is not None:
                    picking = render.hand(table, p, tr, pick=pick._replace(target=None))
                    _check_view(picking)
                    break

    ai.play_round(game, {}, random.Random(3), after_step=check)
    assert len(render.round_summary(table, game.round_winner, game.round_points, tr)) <= 2000
    _check_view(render.standings(table, tr))
    shown = [
        render.table(table, tr).to_components(),
        render.standings(table, tr).to_components(),
        render.lobby(table, tr).to_components(),
    ]
    assert "\u202e" not in str(shown) and "<@123456789012345678>" not in str(shown)  # no override, no mention


def _labels(view: discord.ui.BaseView) -> list[str]:
    return [str(c.get("label")) for c in _parts(view) if c["type"] == 2]


def test_a_stacked_penalty_shows_its_total_and_who_takes_it() -> None:
    """After two stacked Draw Twos the table says who takes how many (or stacks), and the hand's
    Accept button says what it costs (docs/rules.md §4.1)."""
    options = Options(house_rules=frozenset({HouseRule.STACKING}))
    table = _dealt(
        {"1": ["red draw two", "green draw two", "red 4"], "2": ["blue draw two", "blue 5"]}, options
    )
    game = table.game
    assert game is not None
    game.play("1", "red draw two")
    game.play("2", "blue draw two")
    assert game.pending.kind is PendingKind.PENALTY and game.pending.total == 4
    assert "Waiting for **Ana** to take 4 cards or stack a Draw Two." in _text(render.table(table, EN))
    view = render.hand(table, "1", EN)
    assert "🟢 Your move: take 4 cards or stack a Draw Two." in _text(view)
    assert "Take 4 cards" in _labels(view) and "Accept" not in _labels(view)


def test_a_challenge_and_a_wild_draw_color_say_what_accepting_costs() -> None:
    """A Wild Draw Four's victim takes 4 or challenges; a Wild Draw Color's draws until its color."""
    table = _dealt({"1": ["wild draw four", "red 4"], "2": ["blue 5"]})
    game = table.game
    assert game is not None
    game.play("1", "wild draw four", color=Color.GREEN)
    assert "Waiting for **Ben** to take 4 cards or challenge." in _text(render.table(table, EN))
    assert "Take 4 cards" in _labels(render.hand(table, "2", EN))
    flip = _dealt(
        {"1": ["red 1 / wild draw color", "red 2 / pink 2"], "2": ["blue 5 / teal 5"]}, variant="flip"
    )
    game = flip.game
    assert game is not None
    game.side = Side.DARK
    game.play("1", "red 1 / wild draw color", color=Color.PINK)
    assert "to draw until pink comes or challenge" in _text(render.table(flip, EN))
    assert "Draw until pink comes" in _labels(render.hand(flip, "2", EN))


def test_a_player_removed_for_timeouts_is_labelled_so_not_as_left() -> None:
    """A player the bot removed for timeouts (or who was kicked) is labelled with why, unlike one
    who left by themselves; the reason survives a snapshot, and an older snapshot restores."""
    table = _table("classic", 4, Options(), 2)
    game = table.game
    assert game is not None
    timed_out, kicked, leaver = game.players[1:]
    table.leave_game(timed_out, Removal.TIMEOUTS)
    table.leave_game(kicked, Removal.KICKED)
    table.leave_game(leaver)
    again = Table.from_snapshot(table.to_snapshot())
    rows = _fields(render.table(again, EN))["Players"].splitlines()
    assert rows[1].endswith("(removed: timed out)") and rows[2].endswith("(removed: kicked)")
    assert rows[3].endswith("(left)")
    old = table.to_snapshot()
    del old["removed"]  # saved before removals were kept
    assert Table.from_snapshot(old).removed == {}


def test_flip_shows_every_hands_inactive_faces_in_full() -> None:
    """On a Flip table every hand's inactive faces show in full (a Wild and a Wild Draw Color
    differ, numbers show), the holder's too; the holder's hand pairs each card with its back
    (docs/rules.md §7)."""
    hand = ["red 1 / orange 6", "blue 2 / purple skip", "green 3 / wild draw color", "yellow 4 / wild"]
    table = _dealt({"1": hand, "2": ["red 5 / teal 5"]}, variant="flip")
    fields = _fields(render.table(table, EN))
    assert fields["The dark side of every hand"] == "Ana: 🟧6 🟪skip 🌈wild 🌈wild+color\nBen: 🩵5"
    assert "backs" not in fields["Players"]
    own = render.hand(table, "1", EN)
    assert "🟨 yellow 4 (back: 🌈 wild)" in _fields(own)["Your cards"]
    assert "🟩 green 3 (back: 🌈 wild draw color)" in _fields(own)["Your cards"]
    game = table.game
    assert game is not None
    game.side = Side.DARK
    assert _fields(render.table(table, EN))["The light side of every hand"].startswith("Ana: 🟥1 🟨4 🟩3 🟦2")


def _ten_flip_hands(card: str) -> tuple[Table, list[Seat]]:
    """A Flip table of ten players with the worst names, twenty ``card`` each."""
    table = _dealt({"1": ["red 1 / pink 1"], "2": ["red 2 / pink 2"]}, variant="flip")
    seats = [Seat(str(10**17 + i), WORST_NAMES[i % len(WORST_NAMES)]) for i in range(10)]
    table.seats = seats
    table.game, _ = Game.from_deal(
        [s.id for s in seats], variant="flip", options=Options(), dealer=seats[-1].id,
        hands={s.id: [Card.parse(card)] * 20 for s in seats},
        draw_pile=[Card.parse("blue 1 / pink 2")], discard_pile=[Card.parse("red 9 / teal 3")],
    )  # fmt: skip
    return table, seats


def test_ten_flip_hands_of_twenty_cards_fit_with_a_count_of_what_is_cut() -> None:
    """The worst case: ten players with the worst names, twenty of the longest faces each: the
    faces take one block, each line cut to its share with the count of faces left out, the last
    moves keep their room, and the table fits Discord's limits."""
    table, seats = _ten_flip_hands("red 1 / wild draw color")
    table.log.extend([f"{render.named(table, seats[0].id, EN)} " + "x" * 80] * 8)
    view = render.table(table, EN, Emojis())
    _check_view(view)
    faces = [v for name, v in _fields(view).items() if name.startswith("The dark side")]
    assert len(faces) == 1
    lines = faces[0].splitlines()
    assert len(lines) == 10
    for line in lines:
        shown = line.count("🌈wild+color")
        assert 5 <= shown < 20 and line.endswith(f"… +{20 - shown}"), line
    assert len(_fields(view)["Last moves"]) >= LOG_ROOM - 100


def _long_flip_hands(players: int, cards: int) -> Table:
    """A Flip table of ``players`` with long names, each holding ``cards`` cards of the deck, and
    a log of eight moves."""
    table = _table("flip", players, Options(), 2)
    game = table.game
    assert game is not None
    for p in game.players:
        while len(game.hands[p]) < cards:
            game.hands[p].append(game.draw_pile.pop())
    table.log.extend([f"{render.named(table, game.players[0], EN)} played a red 5"] * 8)
    return table


@pytest.mark.parametrize(("players", "cards"), [(4, 7), (4, 15), (6, 10)])
def test_the_other_side_of_every_hand_is_one_list_with_every_emoji_where_it_fits(
    players: int, cards: int
) -> None:
    """Four or six long hands' other sides fit the table message as one list, every face its
    emoji: not an embed field's 1,024 characters split in two ("… (continued)"); the last moves
    keep their room, and the message fits Discord's limits."""
    table = _long_flip_hands(players, cards)
    view = render.table(table, EN, Emojis())
    _check_view(view)
    fields = _fields(view)
    faces = [v for name, v in fields.items() if "side of every hand" in name]
    assert len(faces) == 1 and "continued" not in _text(view)
    lines = faces[0].splitlines()
    assert len(lines) == players
    assert all(line.count("<:uno_") == cards for line in lines), lines
    assert len(fields["Last moves"]) >= LOG_ROOM - 100


def test_hands_too_long_for_their_emojis_are_said_in_short_before_any_is_cut() -> None:
    """Where six hands of fifteen cards' emojis do not fit, the longest lines are said in short
    (every face still there, no "… +N"), the rest keep their emojis, in one list."""
    table = _long_flip_hands(6, 15)
    view = render.table(table, EN, Emojis())
    _check_view(view)
    faces = [v for name, v in _fields(view).items() if "side of every hand" in name]
    assert len(faces) == 1 and "… +" not in faces[0]
    lines = faces[0].splitlines()
    pictured = [line for line in lines if "<:uno_" in line]
    assert 0 < len(pictured) < 6 and all(line.count("<:uno_") == 15 for line in pictured)
    game = table.game
    assert game is not None
    for player, line in zip(game.players, lines, strict=True):
        backs = sorted((c.face(Side.DARK) for c in game.hands[player]), key=face_order)
        assert "<:uno_" in line or line.endswith(": " + " ".join(face_short(f, EN) for f in backs))


def test_a_howler_reveal_says_when_and_goes_once_the_hand_changes() -> None:
    """A hand the Howler showed is in the others' hands with when it was shown, survives a
    snapshot, and is gone from them once that hand changes (docs/rules.md §9.6)."""
    table = Table.new(guild_id=1, channel_id=2, host=Seat("1", "Ana"), variant="harry-potter")
    table.join(Seat("2", "Ben"))
    table.join(Seat("3", "Cy"))
    game, _ = Game.from_deal(
        ["1", "2", "3"], variant="harry-potter", options=Options(), dealer="3",
        hands={"1": [Card.parse("howler"), Card.parse("green 4")], "2": [Card.parse("red 5"), Card.parse("blue 6")],
               "3": [Card.parse("green 8"), Card.parse("blue 0")]},
        draw_pile=[Card.parse("blue 1"), Card.parse("blue 2")], discard_pile=[Card.parse("red 7")],
    )  # fmt: skip
    table.game, table.state = game, "playing"
    table.track_reveals(game.play("1", "howler", color=Color.RED, target="3"))
    table.track_reveals(game.apply("3", Action.parse("reveal")))
    table = Table.from_snapshot(table.to_snapshot())
    game = table.game
    assert game is not None
    shown = _fields(render.hand(table, "2", EN))
    assert shown["Cy's hand when the Howler was played"] == "🟩 green 8, 🟦 blue 0"
    table.track_reveals(game.play("2", "red 5"))  # another hand changes: still shown
    assert "Cy's hand when the Howler was played" in _fields(render.hand(table, "1", EN))
    table.track_reveals(game.draw("3"))  # Cy's hand changes: gone from the others' hands
    for viewer in ("1", "2"):
        assert not any("Cy's hand" in name for name in _fields(render.hand(table, viewer, EN)))


class Emojis:
    """A card emoji lookup (as `bot.client.emojis.CardEmojis`) with the longest ids Discord gives: every
    face's emoji, or only those named in ``only``."""

    def __init__(self, only: set[str] | None = None) -> None:
        self.only = only

    def for_face(self, face: AnyFace, side: Side = Side.LIGHT) -> discord.PartialEmoji | None:
        name = emoji_name(face, side)
        if self.only is not None and name not in self.only:
            return None
        return discord.PartialEmoji(name=name, id=9_000_000_000_000_000_000 + len(name))


def _mention(face: str, side: Side = Side.LIGHT) -> str:
    return str(Emojis().for_face(Face.parse(face), side))


def test_cards_show_their_emojis_on_buttons_options_and_in_the_text() -> None:
    """With card emojis, a card's button and option carry its emoji and its name without the color
    square, and the table's and the hand's text put the emoji before each card's name."""
    table = _dealt({"1": ["red 2", "red 3", "wild draw four"], "2": ["blue 5"]})
    table.log.append("Ana played 🟥 red 9 and 🌈 wild draw four → red")
    shown = render.table(table, EN, Emojis())
    assert f"Top card: **{_mention('red 9')} red 9**" in _text(shown)
    assert _fields(shown)["Last moves"] == (
        f"Ana played {_mention('red 9')} red 9 and {_mention('wild draw four')} wild draw four → red"
    )
    view = render.hand(table, "1", EN, faces=Emojis())
    assert f"{_mention('red 2')} red 2" in _fields(view)["Your cards"]
    parts = _parts(view)
    buttons = {c["label"]: c.get("emoji", {}).get("name") for c in parts if c["type"] == 2}
    assert buttons["red 2"] == "uno_red_2" and buttons["wild draw four"] == "uno_wild_draw_four"
    assert "🟥 red 2" not in buttons and buttons["Show as picture"] == "🖼️"
    # 27 plays (Flip: the backs differ): a select.
    many = _dealt(
        {"1": [f"red {n} / pink {m}" for n in range(9) for m in (1, 2, 3)], "2": ["blue 5 / teal 5"]},
        variant="flip",
    )
    view = render.hand(many, "1", EN, faces=Emojis())
    (select,) = [c for c in _parts(view) if c["type"] == 3]
    assert [(o["label"], o["emoji"]["name"]) for o in select["options"]][2:4] == [
        ("red 0", "uno_red_0"),
        ("red 1", "uno_red_1"),
    ]


def test_without_their_emojis_cards_are_shown_exactly_as_text() -> None:
    """Emojis off, or missing for the cards shown: the table and the hand are exactly the text
    ones; a card whose emoji exists is the only one that changes."""
    table = _dealt(
        {"1": ["red 2 / pink 2", "wild / wild draw color"], "2": ["blue 5 / teal 5"]}, variant="flip"
    )
    table.log.append("Ana played 🟥 red 9")
    none = Emojis(only=set())
    assert render.table(table, EN, none).to_components() == render.table(table, EN).to_components()
    text_hand = render.hand(table, "1", EN)
    emoji_hand = render.hand(table, "1", EN, faces=none)
    assert emoji_hand.to_components() == text_hand.to_components()
    some = json.dumps(
        render.table(table, EN, Emojis(only={"uno_pink_2"})).to_components(), ensure_ascii=False
    )
    text = json.dumps(render.table(table, EN).to_components(), ensure_ascii=False)
    pink = _mention("pink 2")
    assert f"Draw pile shows: {pink} pink 2" in some and f"Ana: {pink} 🌈wild+color" in some
    assert some.replace(f"{pink} pink 2", "🩷 pink 2").replace(pink, "🩷2") == text


def test_a_flip_table_shows_every_inactive_face_as_its_emoji() -> None:
    """Flip's inactive faces as emojis, each wild drawn for the side it is on: ``Ana: <e> <e>``."""
    table = _dealt({"1": ["red 1 / orange 6", "yellow 4 / wild"], "2": ["red 5 / teal 5"]}, variant="flip")
    fields = _fields(render.table(table, EN, Emojis()))
    assert fields["The dark side of every hand"] == (
        f"Ana: {_mention('orange 6')} {_mention('wild', Side.DARK)}\nBen: {_mention('teal 5')}"
    )
    assert "uno_dark_wild" in _mention("wild", Side.DARK)


def test_ten_flip_hands_of_twenty_cards_fit_with_emojis_too() -> None:
    """The worst case with the longest emojis: the table and every hand fit Discord's limits;
    where emojis would overflow a field, it falls back to the short text (each line cut with a
    count) and the hand's list to its text."""
    table, seats = _ten_flip_hands("red draw one / wild draw color")
    table.log.extend(
        [f"{render.named(table, seats[0].id, EN)} played 🟥 red draw one and 🌈 wild draw color"] * 8
    )
    view = render.table(table, EN, Emojis())
    _check_view(view)
    lines = "\n".join(v for name, v in _fields(view).items() if name.startswith("The dark side")).splitlines()
    assert len(lines) == 10 and all(line.endswith(f"… +{20 - line.count('🌈wild+color')}") for line in lines)
    assert "<:uno_" in _fields(view)["Last moves"]  # the newest lines keep their emojis
    for seat in seats:
        _check_view(render.hand(table, seat.id, EN, faces=Emojis()))
    few = _dealt({"1": ["red 1 / pink 1"] * 3, "2": ["red 2 / pink 2"] * 3}, variant="flip")
    assert _mention("pink 1") in _fields(render.table(few, EN, Emojis()))["The dark side of every hand"]


def _dos_dealt(hand: list[str], row: list[str]) -> Table:
    """A DOS table of Ana and Ben, Ana to move with ``hand`` against the Center Row ``row``."""
    table = _lobby(Options(), "dos")
    table.game = DosGame.from_deal(
        ["1", "2"],
        dealer="2",
        hands={"1": [DosCard.parse(c) for c in hand], "2": [DosCard.parse("yellow 6")] * 3},
        row=[[DosCard.parse(c)] for c in row],
        draw_pile=[DosCard.parse("green 1")] * 5,
        turn="1",
    )
    table.state = TableState.PLAYING
    return table


def test_a_dos_hand_offers_dos_ahead_only_where_this_turn_could_reach_two() -> None:
    """A DOS call ahead of coming down to two (docs/rules.md §14.8) is offered on one's own turn
    only while this turn could bring the hand to two; at two cards it is always offered."""
    stuck = ["red 1", "yellow 1", "red 10", "yellow 10", "green 10", "blue 10", "red 9"]
    close = ["blue 1", "blue 4", "green 7", "red 3", "red 6", "yellow 8", "yellow 9"]
    assert "DOS!" not in _labels(render.hand(_dos_dealt(stuck, ["blue 5", "green 7"]), "1", EN))
    assert "DOS!" in _labels(render.hand(_dos_dealt(close, ["blue 5", "green 7"]), "1", EN))
    assert "DOS!" in _labels(render.hand(_dos_dealt(["red 1", "red 10"], ["blue 5", "green 7"]), "1", EN))


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Ana matched pile 1 with 🌈 Wild DOS (red) + 🟨 yellow Wild #"),
        ("es", "Ana combinó 🌈 comodín DOS (rojo) + 🟨 comodín # amarillo en la pila 1"),
        ("fr", "Ana a associé 🌈 joker DOS (rouge) + 🟨 joker # jaune à la pile 1"),
    ],
)
def test_a_wild_dos_s_color_is_said_beside_it_in_the_log(lang: str, expected: str) -> None:
    """The color named for a match's Wild DOS (docs/rules.md §14.6) stands beside that card in the
    log line, not after the match's last card (a Wild # of its own color)."""
    table = _dos_dealt(["wild dos", "yellow wild number"], ["blue 5", "green 7"])
    data = {"pile": 1, "cards": ["wild dos", "yellow wild number"], "color": "red", "pile_color": "blue"}
    event = DosEvent(DosEventKind.MATCH_MADE, "1", {**data, "bonus": "none"})
    assert render.log_lines(table, [event], translator(lang)) == [expected]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Ana matched pile 1’s 🌈 Wild DOS (blue) with 🌈 Wild DOS (red)"),
        ("es", "Ana combinó 🌈 comodín DOS (rojo) en el 🌈 comodín DOS (azul) de la pila 1"),
        ("fr", "Ana a associé 🌈 joker DOS (rouge) au 🌈 joker DOS (bleu) de la pile 1"),
        ("pt_BR", "Ana combinou 🌈 curinga DOS (vermelho) no 🌈 curinga DOS (azul) da pilha 1"),
    ],
)
def test_a_wild_dos_pile_s_color_is_said_beside_it_in_the_log(lang: str, expected: str) -> None:
    """A match on a Wild DOS pile (docs/rules.md §14.6) says the pile's Wild DOS with the color
    named for it beside it, as the played Wild DOS's; a match on another pile says its number
    only, as before."""
    table = _dos_dealt(["wild dos", "blue 7", "red 3"], ["wild dos", "green 7"])
    assert isinstance(table.game, DosGame)
    events = table.game.play("1", 1, ["wild dos"], color="red", pile_color="blue")
    assert render.log_lines(table, events, translator(lang)) == [expected]
    events = table.game.play("1", 2, ["blue 7"])
    assert render.log_lines(table, events, EN)[0] == "Ana matched pile 2 with 🟦 blue 7"


def test_a_dos_call_ahead_says_it_comes_before_the_match() -> None:
    """Where a hand of more than two offers DOS!, a line says the call comes before the match that
    leaves two cards (docs/rules.md §14.8: called after it, the player can be caught at once), in
    the reader's language; not where DOS! is not offered, nor at two cards."""
    hint = "📣 Call DOS! before the match that leaves you two cards."
    close = ["blue 1", "blue 4", "green 7", "red 3", "red 6", "yellow 8", "yellow 9"]
    stuck = ["red 1", "yellow 1", "red 10", "yellow 10", "green 10", "blue 10", "red 9"]
    assert hint in _text(render.hand(_dos_dealt(close, ["blue 5", "green 7"]), "1", EN))
    assert hint not in _text(render.hand(_dos_dealt(stuck, ["blue 5", "green 7"]), "1", EN))
    assert hint not in _text(render.hand(_dos_dealt(["red 1", "red 10"], ["blue 5", "green 7"]), "1", EN))
    french = _text(render.hand(_dos_dealt(close, ["blue 5", "green 7"]), "1", translator("fr")))
    assert "📣 Annonce DOS ! avant l’association qui te laisse deux cartes." in french


def _dos_mention(card: str) -> str:
    return str(Emojis().for_face(DosCard.parse(card)))


def test_dos_cards_show_their_emojis_in_the_row_the_hand_and_its_options() -> None:
    """With card emojis a DOS table's Center Row and log and a DOS hand's cards show each card's
    own DOS emoji before its name; the match options carry their first card's emoji, and the hand
    has Show as picture. Without the emojis, the text ones exactly."""
    table = _dos_dealt(["red 3", "blue 4", "green wild number", "wild dos"], ["blue 7", "red 5"])
    table.log.append("Ana matched pile 1 with 🟥 red 1 + 🟦 blue 10 → blue, then 🌈 Wild DOS")
    shown = render.table(table, EN, Emojis())
    _check_view(shown)
    assert f"**1.** {_dos_mention('blue 7')} blue 7 (**7**)" in _text(shown)
    assert _fields(shown)["Last moves"] == (
        f"Ana matched pile 1 with {_dos_mention('red 1')} red 1 + {_dos_mention('blue 10')} blue 10 → blue,"
        f" then {_dos_mention('wild dos')} Wild DOS"
    )
    assert "<:uno_" not in _text(shown)
    view = render.hand(table, "1", EN, faces=Emojis())
    _check_view(view)
    assert f"{_dos_mention('wild dos')} Wild DOS" in _fields(view)["Your cards"]
    assert f"**2.** {_dos_mention('red 5')} red 5" in _text(view)
    (select,) = [c for c in _parts(view) if c["type"] == 3]
    options = {o["label"]: o["emoji"]["name"] for o in select["options"]}
    assert options["Pile 1 (blue 7): red 3 + blue 4"] == "dos_red_3"
    assert options["Pile 2 (red 5): green Wild #"] == "dos_green_wild_number"
    buttons = {c["label"]: c.get("emoji", {}).get("name") for c in _parts(view) if c["type"] == 2}
    assert buttons["Show as picture"] == "🖼️"
    none = Emojis(only=set())
    assert render.table(table, EN, none).to_components() == render.table(table, EN).to_components()
    assert (
        render.hand(table, "1", EN, faces=none).to_components() == render.hand(table, "1", EN).to_components()
    )
    assert "🟦 blue 7" in _text(render.table(table, EN))


def test_a_dos_hand_is_sorted_by_color_then_number_with_wilds_last() -> None:
    """A DOS hand lists its cards as an UNO hand does (docs/playing.md: by color, then number, wilds
    last), not by points with the wilds first; its match options come pile by pile in that
    order, and so do its cards to place."""
    hand = ["blue wild number", "green 9", "wild dos", "blue 8", "red 4", "yellow 3", "red wild number"]
    table = _dos_dealt(hand, ["blue 7", "red 9"])
    view = render.hand(table, "1", EN)
    assert _fields(view)["Your cards"] == (
        "🟥 red 4, 🟨 yellow 3, 🟩 green 9, 🟦 blue 8, 🟥 red Wild #, 🟦 blue Wild #, 🌈 Wild DOS"
    )
    (select,) = [c for c in _parts(view) if c["type"] == 3]
    singles = [o["label"] for o in select["options"] if "+" not in o["label"]]
    assert singles == [
        "Pile 1 (blue 7): red Wild #",
        "Pile 1 (blue 7): blue Wild #",
        "Pile 2 (red 9): green 9",
        "Pile 2 (red 9): red Wild #",
        "Pile 2 (red 9): blue Wild #",
    ]
    assert table.game is not None
    assert render.hand_cards(table.game, "1") == [
        DosCard.parse(c)
        for c in ["red 4", "yellow 3", "green 9", "blue 8", "red wild number", "blue wild number", "wild dos"]
    ]
    table = _dos_dealt(["blue wild number", "green 9", "blue 8", "red 4", "yellow 3"], ["blue 7"])
    game = table.game
    assert isinstance(game, DosGame)
    game.pending = DosPending(DosPendingKind.PLACE, "1")
    places = [label for label in _labels(render.hand(table, "1", EN)) if label.startswith("Place")]
    assert places == ["Place red 4", "Place yellow 3", "Place green 9", "Place blue 8", "Place blue Wild #"]


def test_a_hand_s_select_comes_in_the_row_it_asks_for() -> None:
    """A DOS hand's match select is its first action row, before Draw, DOS! and Refresh, as an UNO
    hand's card select is (a select's row was dropped: every select came after every button)."""
    table = _dos_dealt(["red 3", "blue 4", "green wild number", "wild dos"], ["blue 7", "red 5"])
    rows = [
        [c["type"] for c in r["components"]] for r in _parts(render.hand(table, "1", EN)) if r["type"] == 1
    ]
    assert rows[0] == [3] and rows.index([3]) < next(i for i, r in enumerate(rows) if 2 in r)


def test_a_long_flip_hand_keeps_its_cards_emojis() -> None:
    """A Flip hand of 24 two-sided cards lists each card and its back with their emojis (a trial
    found 17 falling back to text under the 1,024 characters of an embed field), within Discord's
    limits."""
    lights = [f"{c} {n}" for c in ("red", "blue", "green", "yellow") for n in (1, 2, 3, 4, 5, 6)]
    darks = [f"{c} {n}" for c in ("pink", "teal", "orange", "purple") for n in (1, 2, 3, 4, 5, 6)]
    table = _dealt(
        {"1": [f"{a} / {b}" for a, b in zip(lights, darks, strict=True)], "2": ["red 1 / pink 1"]},
        variant="flip",
    )
    view = render.hand(table, "1", EN, faces=Emojis())
    _check_view(view)
    listed = _fields(view)["Your cards"]
    assert listed.count("<:uno_") == 48 and _mention("pink 6", Side.DARK) in listed


def test_a_dos_hand_of_forty_cards_fits_with_emojis() -> None:
    """A long DOS hand and row with the longest emojis stay within Discord's limits: a hand of
    forty keeps its cards' emojis; one of eighty falls back to text where its emojis would pass
    `HAND_TEXT` characters."""
    cards = [f"{c} {n}" for c in ("red", "blue", "green", "yellow") for n in (1, 3, 4, 5, 6, 7, 8, 9, 10)]
    table = _dos_dealt([*cards, "wild dos", "red wild number", "blue wild number", "wild dos"], cards[:12])
    view = render.hand(table, "1", EN, faces=Emojis())
    _check_view(view)
    assert _dos_mention("red 10") in _fields(view)["Your cards"]
    longer = _dos_dealt([*cards, *cards, "wild dos", "red wild number"], cards[:12])
    view = render.hand(longer, "1", EN, faces=Emojis())
    _check_view(view)
    assert "<:dos_" not in _fields(view)["Your cards"] and "🟥 red 10" in _fields(view)["Your cards"]
    assert f"**1.** {_dos_mention('red 1')} red 1" in _text(view)  # the row of 12 keeps them
    table.log.extend([f"Ana matched pile {n} with 🟥 red 10 + 🟦 blue 10 + 🟩 green 10" for n in range(20)])
    shown = render.table(table, EN, Emojis())
    _check_view(shown)
    log = _fields(shown)["Last moves"].splitlines()
    assert len(log) <= 20 and "<:dos_" not in log[0] and "<:dos_" in log[-1]  # the oldest as text


@pytest.mark.parametrize("piles", [14, 40])
def test_a_long_center_row_keeps_its_emojis_where_the_message_has_room(piles: int) -> None:
    """A Center Row of 14 piles with two cards matched on each (about 2,400 characters with the
    longest emojis, past an embed field's old 1,024) keeps every card's emoji on the table beside
    its players, scores and last moves, and in a hand of seven: the message holds 4,000. A row too
    long even so says its longest lines as text first, and both messages stay within Discord's
    limits."""
    hand = ["red 1", "blue 3", "green 4", "yellow 5", "red 6", "blue 7", "wild dos"]
    table = _dos_dealt(hand, ["red 10"])
    game = table.game
    assert isinstance(game, DosGame)
    game.row = [
        [DosCard.parse(f"{c} {n}"), DosCard.parse(f"blue {n - 5}"), DosCard.parse("red 5")]
        for n, c in zip([10, 9, 8, 6, 10] * 8, ["red", "yellow", "green", "blue"] * 10, strict=False)
    ][:piles]
    table.log.extend([f"Ana matched pile {n} with 🟥 red 10 + 🟦 blue 10" for n in range(1, 4)])
    for view in (render.table(table, EN, Emojis()), render.hand(table, "1", EN, faces=Emojis())):
        _check_view(view)
        row = [line for line in _text(view).splitlines() if re.match(r"\*\*\d+\.\*\* ", line)]
        assert len(row) == piles
        emojis = sum(line.count("<:dos_") for line in row)
        if piles == 14:
            assert emojis == 3 * piles, row
        else:
            assert 0 < emojis < 3 * piles  # the longest lines as text first, the others kept
    last = _fields(render.table(table, EN, Emojis()))["Last moves"]
    assert last.count("\n") == 2 and (last.count("<:dos_") == 6 or piles > 14)  # three moves kept


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_a_watching_hand_shows_only_what_changes_for_its_owner(variant: str) -> None:
    """A player who can only watch sees their cards and "Not your turn": no top card, whose turn
    it is or the color, and no component carrying the table's version, so through whole rounds
    the same cards on the same side draw the same message whatever the others played, and their
    turn brings the table back (their hand is redrawn only when it changes)."""
    options = Options(house_rules=frozenset({HouseRule.SEVEN_O}))
    for seed in range(3):
        table = _table(variant, 4, options, seed)
        game = table.game
        assert game is not None
        seen: dict[tuple[str, Side, tuple[Card, ...]], list[dict[str, Any]]] = {}
        watched = acted = 0

        def check(g: Game, table: Table = table, seen: dict[Any, Any] = seen) -> None:
            nonlocal watched, acted
            for p in g.seated:
                view = render.hand(table, p, EN)
                text = _text(view)
                if not render.watching(table, p):
                    acted += p == g.pending.player and not g.round_over
                    assert "Not your turn" not in text
                    continue
                watched += 1
                assert "Not your turn" in text and "Top card" not in text and "Waiting for" not in text
                assert all(c["custom_id"].split(":")[3] == "0" for c in _parts(view) if "custom_id" in c)
                components = view.to_components()
                assert (
                    seen.setdefault((p, g.side, tuple(sorted(g.hands[p], key=str))), components) == components
                )

        ai.play_round(game, {}, random.Random(seed), after_step=check)
        assert watched > acted > 0  # both were drawn, many times


def test_a_watching_dos_hand_shows_its_cards_without_the_center_row() -> None:
    """A DOS player who can only watch sees their cards and "Not your turn", not the Center Row
    or whose turn it is; the player to act sees both."""
    table = _dos_dealt(["red 3", "blue 4"], ["blue 7", "red 5"])
    assert render.watching(table, "2") and not render.watching(table, "1")
    watching, acting = _text(render.hand(table, "2", EN)), _text(render.hand(table, "1", EN))
    assert "Not your turn" in watching and "Center Row" not in watching and "yellow 6" in watching
    assert "Not your turn" not in acting and "Center Row" in acting and "blue 7" in acting


def _paged_hands() -> dict[str, tuple[Table, str]]:
    """A Flip hand with more plays than a select holds (every card differs by its back), and a DOS
    hand with more matches than a select holds: each table with the player to move."""
    flip = _table("flip", 2, Options(), 1)
    game = flip.game
    assert isinstance(game, Game) and game.pending.player is not None
    player = game.pending.player
    other = next(p for p in game.seated if p != player)
    game.hands[player] += game.draw_pile + game.hands[other][:-1]
    game.draw_pile.clear()
    del game.hands[other][:-1]
    numbers = [f"{c} {n}" for c in ("red", "blue", "green", "yellow") for n in (1, 3, 4, 5, 6)]
    dos = _dos_dealt(numbers, ["red 6", "blue 7", "green 8", "yellow 9"])
    return {"flip": (flip, player), "dos": (dos, "1")}


@pytest.mark.parametrize("edition", ["flip", "dos"])
@pytest.mark.parametrize(("lang", "where"), [("en", "Page {} of {}"), ("fr", "Page {} sur {}")])
def test_a_hands_select_pager_says_which_page_it_is_on(edition: str, lang: str, where: str) -> None:
    """An UNO hand's card select and a DOS hand's match select page alike: ◀, the page the player
    is on ("Page 1 of 2", disabled: it only says so) and ▶, in the reader's language; an arrow's
    press asks for its page, none goes past either end."""
    table, player = _paged_hands()[edition]
    tr = translator(lang)
    first = render.hand(table, player, tr)
    _check_view(first)
    pager = [c for c in _parts(first) if c["type"] == 2 and ":pg:" in c["custom_id"]]
    pages = int(pager[1]["label"].split()[-1])
    assert pages >= 2
    assert [(c["label"], c.get("disabled", False)) for c in pager] == [
        ("◀", True), (where.format(1, pages), True), ("▶", False)
    ]  # fmt: skip
    assert pager[2]["custom_id"].endswith(":pg:1")
    last = render.hand(table, player, tr, page=pages + 3)  # past the end: the last page
    _check_view(last)
    pager = [c for c in _parts(last) if c["type"] == 2 and ":pg:" in c["custom_id"]]
    assert [(c["label"], c.get("disabled", False)) for c in pager] == [
        ("◀", False), (where.format(pages, pages), True), ("▶", True)
    ]  # fmt: skip
    assert pager[0]["custom_id"].endswith(f":pg:{pages - 2}")


def test_a_wild_dos_on_a_wild_dos_pile_names_whose_color_each_option_is() -> None:
    """Matching a Wild DOS pile with a Wild DOS asks for two colors (RULES.md 12.6): each option
    says which is the player's card's and which the pile's, in the reader's language."""
    table = _dos_dealt(["wild dos", "red 3", "green 9"], ["wild dos", "yellow 10"])
    game = table.game
    assert isinstance(game, DosGame)
    (pick,) = {
        a._replace(color=None, pile_color=None)
        for a in game.matches("1")
        if a.pile == 1 and a.cards == (DosCard.parse("wild dos"),)
    }
    labels = [
        o["label"]
        for c in _parts(render.hand(table, "1", EN, pick=pick))
        if c["type"] == 3
        for o in c["options"]
    ]
    assert len(labels) == 16
    assert "Your Wild DOS: red · the pile’s Wild DOS: blue" in labels
    french = [
        o["label"]
        for c in _parts(render.hand(table, "1", FR, pick=pick))
        if c["type"] == 3
        for o in c["options"]
    ]
    assert "Ton joker DOS : rouge · le joker DOS de la pile : bleu" in french
