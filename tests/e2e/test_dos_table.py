"""A DOS table's words and colors (docs/rules.md §14): the lobby, once started, and the ping name
the edition, not UNO; the table's and the hand's containers take a pile's color, as UNO's take
the color in play, in English and in French."""

from __future__ import annotations

import pytest

from bot.engine.cards import Color
from bot.localdiscord.records import Message
from bot.localdiscord.testing import LocalDiscord
from bot.render.dos import ACCENT
from bot.render.faces import EMBED_COLOR
from tests.e2e.helpers import (
    bot_of,
    choose,
    click,
    command,
    hand,
    lobby_message,
    open_table,
    table_message,
    table_of,
)
from tests.e2e.test_dos import rig_dos

WORDS = {
    "en": ("DOS: the game has started", "it's your move at the DOS table."),
    "fr": ("DOS : la partie a commencé", "c’est à toi de jouer à la table DOS."),
}


def accent(message: Message) -> int | None:
    """The accent color of a Components V2 message's container."""
    return next(c.get("accent_color") for c in message.all_components() if c["type"] == 17)


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_started_dos_lobby_and_its_ping_name_dos(uno: LocalDiscord, language: str) -> None:
    """The started lobby is headed with the edition's name, and the player to move is pinged at
    the DOS table, in the channel's language."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await command(uno, alice, channel, "uno new", variant="dos")
    await click(uno, bob, lobby_message(uno, channel), "Join")
    table_of(uno, channel).language = language  # as /uno settings language: would (the lobby as drawn)
    lobby = lobby_message(uno, channel)
    await click(uno, alice, lobby, "Start")
    started, ping = WORDS[language]

    def heading() -> str:
        return s.state.get_message(channel, lobby.id).text.splitlines()[0]

    await s.wait_until(lambda: started in heading())
    assert "UNO" not in heading()
    game = table_of(uno, channel).game
    assert game is not None
    mention = f"<@{game.pending.player}>, "
    await s.wait_until(lambda: any(m.text == mention + ping for m in s.messages(channel)))


async def test_dos_table_and_hand_take_a_pile_s_color(uno: LocalDiscord) -> None:
    """The table's and alice's hand's containers take the leftmost colored pile's color (a Wild
    DOS pile has none of its own); with no colored pile, DOS's own accent."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, channel, alice, [bob], variant="dos")
    hands = {"alice": ["blue 1", "green 9"], "bob": ["red 3", "yellow 10"]}
    rig_dos(uno, channel, hands=hands, row=["wild dos", "red 7"], draw=["blue 9"])
    bot_of(uno).service.publisher.publish(table)
    red = EMBED_COLOR[Color.RED]
    await s.wait_until(lambda: accent(table_message(uno, channel)) == red)
    assert accent(await hand(uno, alice, channel)) == red
    rig_dos(uno, channel, hands=hands, row=["wild dos"], draw=["blue 9"])
    bot_of(uno).service.publisher.publish(table)
    await s.wait_until(lambda: accent(table_message(uno, channel)) == ACCENT)
    assert accent(await hand(uno, alice, channel)) == ACCENT


async def test_a_dos_lobby_and_its_closing_name_dos(uno: LocalDiscord) -> None:
    """The lobby of a DOS table is headed "DOS lobby", and /uno end in it says the DOS table was
    closed and heads the lobby "DOS lobby (closed)"; a classic lobby still says UNO."""
    s, channel = uno.stand_in, uno.channel("uno")
    alice = uno.user("alice")
    await command(uno, alice, channel, "uno new", variant="dos")
    lobby = lobby_message(uno, channel)
    assert lobby.text.splitlines()[0] == "### DOS lobby"
    answer = await command(uno, alice, channel, "uno end")
    assert answer is not None and answer.text == f"The DOS table was closed by <@{alice.id}>."
    await s.wait_until(
        lambda: s.state.get_message(channel, lobby.id).text.startswith("### DOS lobby (closed)")
    )
    await command(uno, alice, channel, "uno new")
    assert lobby_message(uno, channel).text.splitlines()[0] == "### UNO lobby"


async def test_naming_a_wild_dos_s_color_says_what_the_color_earns(uno: LocalDiscord) -> None:
    """alice matches with a Wild DOS: asked its color, her hand says which color makes a color
    match (a bonus card) and each color says what it earns (docs/rules.md §14.6); where no color
    can earn one (her other card is not the pile's color), it says so."""
    channel = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, channel, alice, [bob], variant="dos")
    hands = {"alice": ["wild dos", "blue 3", "green 9"], "bob": ["red 3", "yellow 10"]}
    rig_dos(uno, channel, hands=hands, row=["red 5", "yellow wild number"], draw=["blue 9"])
    mine = await hand(uno, alice, channel)
    values = [o["value"] for o in mine.selects[0]["options"]]
    double = next(v for v in values if v.startswith("play pile=1 ") and "wild dos" in v)
    asked = await choose(uno, alice, mine, double)
    assert asked is not None and "name the color of the Wild DOS" in asked.text
    assert "No color earns a bonus here" in asked.text
    assert {o["description"] for o in asked.selects[0]["options"]} == {"no color bonus"}
    await click(uno, alice, asked, "Back")
    mine = await hand(uno, alice, channel)
    asked = await choose(uno, alice, mine, "play pile=2 wild dos")  # a Wild # counts 2 here
    assert asked is not None and "Name yellow for a color match: a bonus card" in asked.text
    described = {o["label"]: o["description"] for o in asked.selects[0]["options"]}
    assert described["Your Wild DOS: yellow"] == "color match: a bonus card"
    assert described["Your Wild DOS: blue"] == "no color bonus"
