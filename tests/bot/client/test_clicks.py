"""A component's `Click` and its ``custom_id`` (`bot.client.clicks`): what the renderers draw reads
back as drawn, and the ids on messages sent by earlier versions still read the same."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot import render
from bot.client.clicks import MAX_ID, Click, Scope, Verb
from bot.client.components import UnoButton, UnoSelect
from bot.engine import ai
from bot.engine.dos import ai as dos_ai
from bot.engine.dos.actions import DosActionKind
from bot.engine.dos.game import DosGame
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options
from bot.i18n import translator
from bot.render.seats import leave_confirmation, seat_offer
from bot.tables import Seat, Table

EN = translator("en")
CH = 987654321098765432


def _clicks(view: discord.ui.BaseView) -> list[UnoButton | UnoSelect]:
    """Every button and select of ``view`` (a Components V2 layout's nested ones too)."""
    items = view.walk_children() if isinstance(view, discord.ui.LayoutView) else view.children
    return [i for i in items if isinstance(i, UnoButton | UnoSelect)]


def _table(variant: str, seed: int) -> Table:
    seats = [Seat(str(10**17 + i), f"Player {i}") for i in range(3)]
    options = Options(house_rules=frozenset({HouseRule.SEVEN_O, HouseRule.JUMP_IN}))
    table = Table.new(
        guild_id=1,
        channel_id=CH,
        host=seats[0],
        variant=variant,
        options=Options() if variant == "dos" else options,
    )
    for s in seats[1:]:
        table.join(s)
    return table


def _views(variant: str) -> list[discord.ui.BaseView]:
    """What a table of ``variant`` draws through a round: the lobby, the table, every hand, the
    second step of each two-step choice, a seat's offer, leave's question, the standings."""
    table = _table(variant, 0)
    views: list[discord.ui.BaseView] = [render.lobby(table, EN)]
    table.start(seed=3)
    game = table.game
    assert game is not None

    def drawn(g: Any) -> None:
        if g.round_over:
            return
        views.append(render.table(table, EN))
        player = g.pending.player
        views.extend(render.hand(table, p, EN) for p in g.hands)
        if player is None:
            return
        if isinstance(g, DosGame):
            picks = [
                a._replace(color=None, pile_color=None)
                for a in g.decisions(player)
                if a.kind is DosActionKind.PLAY and a.cards[0].wild_dos
            ]
        else:
            picks = [
                a._replace(color=None, target=None)
                for a in g.decisions(player)
                if a.color is not None or a.target is not None
            ]
        views.extend(render.hand(table, player, EN, pick=pick) for pick in picks[:2])

    if isinstance(game, DosGame):
        dos_ai.play_round(game, {}, random.Random(1), after_step=drawn)
    else:
        assert isinstance(game, Game)
        ai.play_round(game, {}, random.Random(1), after_step=drawn)
    player = next(iter(game.hands))
    views += [seat_offer(table, player, 2, EN)[1], leave_confirmation(table, player, True, EN)[1]]
    views += [leave_confirmation(table, player, False, EN)[1], render.standings(table, EN)]
    return views


@pytest.mark.parametrize("variant", ["classic", "flip", "dos"])
def test_every_rendered_custom_id_reads_back_as_its_click(variant: str) -> None:
    """Every button's and select's ``custom_id`` drawn at a table (lobby, table, hands and their
    second steps, a seat's offer, leave's question, the standings) parses to the `Click` it was
    drawn with, and is made from it again, within Discord's 100 characters."""
    seen: set[tuple[Scope, Verb]] = set()
    for view in _views(variant):
        for item in _clicks(view):
            assert len(item.custom_id) <= MAX_ID
            assert Click.parse(item.custom_id) == item.click, item.custom_id
            assert item.click.custom_id(select=isinstance(item, UnoSelect)) == item.custom_id
            seen.add((item.click.scope, item.click.verb))
    table_verb = Verb.DOS if variant == "dos" else Verb.UNO
    expected = {
        (Scope.LOBBY, Verb.JOIN),
        (Scope.LOBBY, Verb.START),
        (Scope.TABLE, table_verb),
        (Scope.TABLE, Verb.CATCH),
        (Scope.TABLE, Verb.SHOW_HAND),
        (Scope.TABLE, Verb.GIVE_SEAT),
        (Scope.HAND, Verb.ACT),
        (Scope.HAND, Verb.REFRESH),
        (Scope.HAND, Verb.PICTURE),
        (Scope.HAND, Verb.BACK),
        (Scope.LEAVE, Verb.LEAVE),
        (Scope.LEAVE, Verb.LEAVE_FOR_BOT),
        (Scope.LEAVE, Verb.STAY),
        (Scope.REMATCH, Verb.REMATCH),
    }
    assert expected <= seen, expected - seen


OLD_IDS = [  # as earlier versions of the bot drew them, on messages that may still be clicked
    ("uno:l:42:7:join", Click(Scope.LOBBY, 42, 7, Verb.JOIN)),
    ("uno:l:42:7:leave", Click(Scope.LOBBY, 42, 7, Verb.LEAVE)),
    ("uno:l:42:7:bot", Click(Scope.LOBBY, 42, 7, Verb.ADD_BOT)),
    ("uno:l:42:7:unbot", Click(Scope.LOBBY, 42, 7, Verb.REMOVE_BOT)),
    ("uno:l:42:7:start", Click(Scope.LOBBY, 42, 7, Verb.START)),
    ("unos:l:42:7:variant", Click(Scope.LOBBY, 42, 7, Verb.EDITION)),
    ("unos:l:42:7:rules", Click(Scope.LOBBY, 42, 7, Verb.HOUSE_RULES)),
    ("unos:l:42:7:bot", Click(Scope.LOBBY, 42, 7, Verb.ADD_BOT)),
    ("uno:t:42:0:hand", Click(Scope.TABLE, 42, 0, Verb.SHOW_HAND)),
    ("uno:t:42:0:uno", Click(Scope.TABLE, 42, 0, Verb.UNO)),
    ("uno:t:42:0:dos", Click(Scope.TABLE, 42, 0, Verb.DOS)),
    ("uno:t:42:0:catch", Click(Scope.TABLE, 42, 0, Verb.CATCH)),
    ("uno:t:42:0:seat:123456789012345678", Click(Scope.TABLE, 42, 0, Verb.GIVE_SEAT, "123456789012345678")),
    ("uno:h:42:0:r", Click(Scope.HAND, 42, 0, Verb.REFRESH)),
    ("uno:h:42:0:pic", Click(Scope.HAND, 42, 0, Verb.PICTURE)),
    ("uno:h:42:7:pg:2", Click(Scope.HAND, 42, 7, Verb.PAGE, "2")),
    ("uno:h:42:7:bk", Click(Scope.HAND, 42, 7, Verb.BACK)),
    ("uno:h:42:7:a:play wild color=red", Click(Scope.HAND, 42, 7, Verb.ACT, "play wild color=red")),
    ("uno:h:42:7:a:play red 2 / pink 1", Click(Scope.HAND, 42, 7, Verb.ACT, "play red 2 / pink 1")),
    ("unos:h:42:7:a", Click(Scope.HAND, 42, 7, Verb.ACT)),
    ("unos:h:42:7:a:place", Click(Scope.HAND, 42, 7, Verb.ACT, "place")),
    ("unos:g:42:0:game", Click(Scope.HISTORY, 42, 0, Verb.GAME)),
    ("uno:r:42:0:rematch:abc123.456", Click(Scope.REMATCH, 42, 0, Verb.REMATCH, "abc123.456")),
    ("uno:q:42:0:leave:abc123.456", Click(Scope.LEAVE, 42, 0, Verb.LEAVE, "abc123.456")),
    ("uno:q:42:0:leave-bot:abc123.456", Click(Scope.LEAVE, 42, 0, Verb.LEAVE_FOR_BOT, "abc123.456")),
    ("uno:q:42:0:stay:abc123.456", Click(Scope.LEAVE, 42, 0, Verb.STAY, "abc123.456")),
]


@pytest.mark.parametrize(("text", "click"), OLD_IDS)
def test_an_earlier_version_s_custom_id_reads_as_it_did(text: str, click: Click) -> None:
    """Each id an earlier version drew reads as the same click, and is drawn the same today."""
    assert Click.parse(text) == click
    assert click.custom_id(select=text.startswith("unos:")) == text


def test_every_scope_and_verb_is_in_the_earlier_ids() -> None:
    """The list of earlier ids names every scope and verb (a new one is added to it)."""
    assert {c.scope for _, c in OLD_IDS} == set(Scope)
    assert {c.verb for _, c in OLD_IDS} == set(Verb)


@pytest.mark.parametrize(
    "text",
    [
        "uno:l:42:7:zap",  # a verb this bot doesn't know
        "uno:l:42:7:JOIN",
        "uno:x:42:7:join",  # a scope it doesn't know
        "uno:l:42:9999999999:join",  # a version too long
        "uno:l:-1:7:join",
        "uno:l:42",  # truncated
        "uno:l:42:7:join:",  # an empty argument
        "uno:h:42:7:a:play red 5\nplay red 6",  # a line break in the argument
        "dice:l:42:7:join",  # another bot's
        "uno:h:42:7:a:" + "x" * 90,  # longer than Discord allows
    ],
)
def test_a_forged_or_broken_id_reads_as_no_click(text: str) -> None:
    """An id no version of the bot drew is refused with a clear error."""
    with pytest.raises(ValueError, match="not a click"):
        Click.parse(text)


def test_a_click_too_long_for_discord_is_refused_when_drawn() -> None:
    """A click whose ``custom_id`` would pass 100 characters can't be drawn."""
    with pytest.raises(ValueError, match="too long"):
        Click(Scope.HAND, CH, 7, Verb.ACT, "x" * 80).custom_id()
