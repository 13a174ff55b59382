"""The standings at a game's end: a Components V2 message (no embed) with the winner, every
player's points best first and the Rematch button, in the channel's language."""

from __future__ import annotations

from bot.localdiscord.limits import FLAG_COMPONENTS_V2
from bot.localdiscord.records import Message
from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import bot_of, click, hand, labels, open_table, rig


async def _won_by_alice(uno: LocalDiscord, language: str | None, won: str) -> Message:
    """alice and bob play to 50 points at a table in ``language`` (None: English); alice goes out with her last card while bob holds a
    Wild Draw Four and a blue 7 (57 points: docs/rules.md §2.2): the standings message, found
    by ``won`` (its heading in the channel's language)."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, ch, alice, [bob], target_score=50)
    if language is not None:  # as `/uno settings language:` sets it for the channel's next table
        table.language = language
    rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2"], "bob": ["wild draw four", "blue 7"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    mine = await hand(uno, alice, ch)
    await click(uno, alice, mine, "🟥 red 2")
    return await uno.stand_in.wait_for_message(ch, lambda m: won in m.text)


async def test_the_standings_are_a_components_v2_message_with_scores_and_rematch(uno: LocalDiscord) -> None:
    """The winner as the heading, each player's points best first, the edition and rounds, and
    Rematch: all in one Components V2 message, with no content and no embed."""
    standings = await _won_by_alice(uno, None, "won!")
    assert standings.flags & FLAG_COMPONENTS_V2 and not standings.embeds and not standings.content
    text = standings.text
    assert text.startswith("### 🏆 alice won!\n")
    assert "🥇 **alice** — 57 points\n🥈 **bob** — 0 points" in text
    assert "UNO · 1 round" in text
    assert labels(standings) == ["Rematch"]


async def test_a_finished_table_leaves_nothing_in_the_publisher(uno: LocalDiscord) -> None:
    """Once the finished table's message shows its end, the publisher forgets what that
    message showed (kept per channel for the life of the process otherwise)."""
    await _won_by_alice(uno, None, "won!")
    ch = uno.channel("uno")
    publisher = bot_of(uno).service.publisher
    await uno.stand_in.wait_until(lambda: ch.id not in publisher._shown)
    assert ch.id not in publisher._shown_turn


async def test_the_standings_in_french(uno: LocalDiscord) -> None:
    """In a channel set to French the standings are in French, Rematch too."""
    standings = await _won_by_alice(uno, "fr", "alice a gagné !")
    assert standings.flags & FLAG_COMPONENTS_V2 and not standings.embeds
    text = standings.text
    assert "🥇 **alice** — 57 points" in text and "🥈 **bob** — 0 point" in text
    assert "1 manche" in text
    assert labels(standings) == ["Revanche"]
