"""Players' private hands: Show as picture (bot/service/hands.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot import render
from bot.art.pictures import cards_picture, hand_picture
from bot.engine.cards import Card, Side
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DosGame
from bot.engine.game import Game
from bot.i18n import translator
from bot.service.hands import Hands
from bot.tables import Seat, Table, TableState

from .helpers import CHANNEL, GUILD, run

HANDS = {
    # The trial's hand, dealt out of order ("Show as picture" drew it as dealt).
    "classic": ["green 7", "blue 9", "blue 8", "yellow 2", "green 5", "red draw two"],
    "flip": ["green 7 / pink 1", "blue 9 / teal 2", "wild draw two / orange 3", "red 1 / purple 4"],
    "dos": ["blue wild number", "green 9", "blue 8", "red 4", "yellow 3", "wild dos"],
}


LISTED = {
    "classic": ["red draw two", "yellow 2", "green 5", "green 7", "blue 8", "blue 9"],
    "flip": ["red 1 / purple 4", "green 7 / pink 1", "blue 9 / teal 2", "wild draw two / orange 3"],
    "dos": ["red 4", "yellow 3", "green 9", "blue 8", "blue wild number", "wild dos"],
}
"""Each hand as its text lists it (tests/bot/test_render.py checks the text's order)."""


class Interaction:
    """The part of a "Show as picture" click the service reads: its reader's locale, a deferred
    answer, and the follow-up whose files it records."""

    def __init__(self) -> None:
        self.locale = "fr"
        self.files: dict[str, bytes] = {}

        async def defer(**_: Any) -> None:
            pass

        async def send(content: str, *, files: list[Any], **_: Any) -> None:
            self.files = {f.filename: f.fp.read() for f in files}

        self.response = SimpleNamespace(defer=defer)
        self.followup = SimpleNamespace(send=send)


def _dealt(variant: str) -> Table:
    """Ana, holding ``HANDS[variant]``, against Ben."""
    table = Table.new(guild_id=GUILD, channel_id=CHANNEL, host=Seat("1", "Ana"), variant=variant)
    table.join(Seat("2", "Ben"))
    if variant == "dos":
        table.game = DosGame.from_deal(
            ["1", "2"],
            dealer="2",
            hands={"1": [DosCard.parse(c) for c in HANDS[variant]], "2": [DosCard.parse("red 6")] * 3},
            row=[[DosCard.parse("blue 7")]],
            draw_pile=[DosCard.parse("green 1")] * 5,
            turn="1",
        )
    else:
        table.game, _ = Game.from_deal(
            ["1", "2"],
            variant=variant,
            dealer="2",
            hands={"1": [Card.parse(c) for c in HANDS[variant]], "2": [Card.parse(HANDS[variant][0])] * 3},
            draw_pile=[Card.parse(HANDS[variant][1])],
            discard_pile=[Card.parse(HANDS[variant][0])],
        )
    table.state = TableState.PLAYING
    return table


@pytest.mark.parametrize("variant", list(HANDS))
def test_the_hand_picture_shows_the_cards_in_the_order_the_hand_lists_them(variant: str) -> None:
    """Show as picture draws the hand in its text's order (by color, then rank or number, wilds
    last), not in the order the cards were dealt, in every edition (a Flip hand by its active
    side)."""
    table = _dealt(variant)
    game = table.game
    assert game is not None
    interaction = Interaction()
    run(lambda: Hands(SimpleNamespace()).picture(interaction, table, "1"))  # type: ignore[arg-type]
    listed = render.hand_cards(game, "1")
    parse = DosCard.parse if variant == "dos" else Card.parse
    assert listed == [parse(c) for c in LISTED[variant]]
    tr = translator("fr")  # the reader's language
    caption = render.count(len(listed), "card", tr)
    if isinstance(game, DosGame):
        expected = cards_picture([(c, Side.LIGHT) for c in listed], caption=caption)
        dealt = cards_picture([(c, Side.LIGHT) for c in game.hands["1"]], caption=caption)
    else:
        if game.variant.two_sided:
            caption += " · " + tr._("{side} side").format(side=tr._(game.variant.side_names[0]))
        expected = hand_picture([c for c in listed if isinstance(c, Card)], game.side, caption=caption)
        dealt = hand_picture(game.hands["1"], game.side, caption=caption)
    assert expected != dealt  # the test's hand is not dealt in order
    assert interaction.files["hand.png"] == expected
