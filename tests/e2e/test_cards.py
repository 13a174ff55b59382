"""Cards you can see (issue 17): the card emojis on the hand's buttons and in the table's text,
and a hand shown as pictures, through real discord.py and the stand-in (which fails a test whose
bot message names an emoji that does not exist)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.engine.dos.actions import DosAction
from bot.engine.dos.cards import DosCard
from bot.localdiscord.records import Emoji
from bot.localdiscord.testing import LocalDiscord
from bot.service import hands
from tests.e2e.conftest import USERS, with_emojis
from tests.e2e.helpers import bot_of, choose, click, hand, open_table, rig, table_message
from tests.e2e.test_dos import rig_dos


@pytest.fixture
def cards(tmp_path: Path) -> LocalDiscord:
    """The bot with every card face's emoji in its application."""
    return LocalDiscord(with_emojis(tmp_path / "uno.db"), users=USERS, channels=("uno",), rate_limits=False)


def emoji(env: LocalDiscord, name: str) -> Emoji:
    """The application's emoji named ``name``."""
    (found,) = [e for e in env.stand_in.state.emojis.values() if e.name == name]
    return found


async def test_hand_buttons_and_the_table_show_the_cards_emojis(cards: LocalDiscord) -> None:
    """Each card button carries its card's emoji and its name without the color square; once
    played, the table shows the top card and the log line with that emoji before the name."""
    s = cards.stand_in
    await s.wait_until(bot_of(cards).card_emojis.done.is_set)
    ch = cards.channel("uno")
    alice, bob = cards.user("alice"), cards.user("bob")
    await open_table(cards, ch, alice, [bob])
    rig(
        cards, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2", "wild draw four", "green 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    mine = await hand(cards, alice, ch)
    red_2, wild = emoji(cards, "uno_red_2"), emoji(cards, "uno_wild_draw_four")
    button = mine.component(label="red 2")
    assert (button["emoji"]["name"], button["emoji"]["id"]) == ("uno_red_2", str(red_2.id))
    assert mine.component(label="wild draw four")["emoji"]["id"] == str(wild.id)
    assert f"{emoji(cards, 'uno_red_7').mention} red 7" in mine.text  # the top card
    assert f"{red_2.mention} red 2" in mine.text  # the hand's list
    await click(cards, alice, mine, "red 2")
    shown = await s.wait_until(lambda: (m := table_message(cards, ch)) and "played" in m.text and m)
    assert f"Top card: **{red_2.mention} red 2**" in shown.text
    assert f"alice played {red_2.mention} red 2" in shown.text


async def test_show_as_picture_answers_privately_with_the_hand_and_the_top_card(cards: LocalDiscord) -> None:
    """Show as picture answers only its presser, with the hand and the top card as PNG files;
    the hand message stays as it was."""
    ch = cards.channel("uno")
    alice, bob = cards.user("alice"), cards.user("bob")
    await open_table(cards, ch, alice, [bob])
    mine = await hand(cards, alice, ch)
    run = await cards.stand_in.click(alice, mine, mine.component(label="Show as picture")["custom_id"])
    answer = (await run.answer()).message
    assert answer is not None and answer.ephemeral and answer.ephemeral_for == alice
    files = {a["filename"]: a for a in answer.attachments}
    assert sorted(files) == ["hand.png", "table.png"] and all(a["size"] > 1000 for a in files.values())
    assert answer.id != mine.id and "Show as picture" in [b.get("label") for b in mine.buttons]
    assert not any(m.attachments for m in cards.stand_in.visible_messages(bob, ch))


async def test_a_dos_hand_and_table_show_the_dos_cards_emojis(cards: LocalDiscord) -> None:
    """DOS's cards have emojis of their own: the hand's Center Row and card list, its match
    options and place buttons, and the table's Center Row show them (never an UNO card's)."""
    s = cards.stand_in
    await s.wait_until(bot_of(cards).card_emojis.done.is_set)
    ch = cards.channel("uno")
    alice, bob = cards.user("alice"), cards.user("bob")
    await open_table(cards, ch, alice, [bob], variant="dos")
    rig_dos(
        cards, ch,
        hands={"alice": ["blue 1", "blue 4", "yellow 10", "wild dos"], "bob": ["red 3", "red 4", "green 9"]},
        row=["blue 5", "red 7"], draw=["blue 9", "green 6"],
    )  # fmt: skip
    mine = await hand(cards, alice, ch)
    blue_1, blue_5, yellow_10 = (
        emoji(cards, "dos_blue_1"),
        emoji(cards, "dos_blue_5"),
        emoji(cards, "dos_yellow_10"),
    )
    assert f"**1.** {blue_5.mention} blue 5 (**5**)" in mine.text  # the Center Row
    assert (
        f"{yellow_10.mention} yellow 10" in mine.text
        and f"{emoji(cards, 'dos_wild_dos').mention} Wild DOS" in mine.text
    )
    assert "<:uno_" not in mine.text
    match = DosAction.parse("play pile=1 blue 1 + blue 4").text()
    (option,) = [o for o in mine.selects[0]["options"] if o["value"] == match]
    assert (option["emoji"]["name"], option["emoji"]["id"]) == ("dos_blue_1", str(blue_1.id))
    answer = await choose(cards, alice, mine, match)
    assert answer is not None
    place = next(b for b in answer.buttons if b["custom_id"].endswith(":a:place yellow 10"))
    assert (place["label"], place["emoji"]["id"]) == ("Place yellow 10", str(yellow_10.id))
    shown = await s.wait_until(lambda: (m := table_message(cards, ch)) and "matched" in m.text and m)
    assert f"{emoji(cards, 'dos_red_7').mention} red 7" in shown.text and "<:uno_" not in shown.text


async def test_show_as_picture_for_a_dos_hand_draws_the_hand_and_the_center_row(
    cards: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DOS hand's Show as picture answers its presser privately with the hand (its cards, most
    points first) and the Center Row (each pile as the table has it) as PNG files."""
    drawn: list[Sequence[Sequence[DosCard]]] = []
    real = hands.row_picture

    def row_picture(piles: Sequence[Sequence[DosCard]], **kwargs: str) -> bytes:
        drawn.append(piles)  # what it was asked to draw: then drawn as ever
        return real(piles, **kwargs)

    monkeypatch.setattr(hands, "row_picture", row_picture)
    ch = cards.channel("uno")
    alice, bob = cards.user("alice"), cards.user("bob")
    await open_table(cards, ch, alice, [bob], variant="dos")
    game = rig_dos(
        cards, ch, hands={"alice": ["blue 1", "wild dos"], "bob": ["red 3"]}, row=["blue 5", "red 7", "green 9"],
        draw=["blue 9"],
    )  # fmt: skip
    mine = await hand(cards, alice, ch)
    run = await cards.stand_in.click(alice, mine, mine.component(label="Show as picture")["custom_id"])
    answer = (await run.answer()).message
    assert answer is not None and answer.ephemeral and answer.ephemeral_for == alice
    assert sorted(a["filename"] for a in answer.attachments) == ["hand.png", "table.png"]
    assert all(a["size"] > 1000 for a in answer.attachments)
    assert drawn == [[list(pile) for pile in game.row]] and len(game.row) == 3
    assert not any(m.attachments for m in cards.stand_in.visible_messages(bob, ch))
