"""``/uno leave`` through real discord.py against the stand-in: in a lobby it leaves at once;
during a game it asks first (docs/rules.md §5.1), and only its Leave the game button, pressed
by the player it asked, in the game it asked about, leaves."""

from __future__ import annotations

import logging

import pytest

from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import LEAVE, click, command, labels, open_table, table_message, table_of
from tests.e2e.test_forged import Unchanged, forge, refused

DANGER = 4  # a button's style: red


async def test_leaving_a_lobby_needs_no_confirmation(uno: LocalDiscord) -> None:
    """Before the start, /uno leave stands the player up at once: no question, no buttons."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await command(uno, alice, ch, "uno new")
    await command(uno, bob, ch, "uno join")
    answer = await command(uno, bob, ch, "uno leave")
    assert answer is not None and answer.ephemeral and answer.text == "You left the table."
    assert not answer.buttons and [s.name for s in table_of(uno, ch).seats] == ["alice"]


async def test_leaving_a_game_asks_first_and_only_leave_the_game_leaves(
    uno: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """During a game /uno leave changes nothing but asks, privately, with Leave the game (red)
    and Stay. Stay says nothing changed and takes the buttons away; Leave the game leaves and
    says so in their place. A second question's Leave the game, pressed once the player has
    left, changes nothing and says why."""
    caplog.set_level(logging.INFO, logger="bot")
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    table = await open_table(uno, ch, alice, [bob, carol])
    before = await Unchanged(uno, ch).settled()

    question = await command(uno, bob, ch, "uno leave")
    assert question is not None and question.ephemeral
    assert question.text.startswith("⚠️ Leave this game? Your hand goes back into the draw pile")
    assert labels(question) == [LEAVE, "Stay"]
    assert question.component(label=LEAVE)["style"] == DANGER
    assert await Unchanged(uno, ch).now() == before  # a question changes nothing

    stayed = await click(uno, bob, question, "Stay")
    assert stayed is question and question.text == "Cancelled: nothing changed." and not question.buttons
    assert await Unchanged(uno, ch).now() == before and table.in_game(str(bob.id))

    first = await command(uno, bob, ch, "uno leave")
    second = await command(uno, bob, ch, "uno leave")
    assert first is not None and second is not None and first is not second
    left = await click(uno, bob, first, LEAVE)
    assert left is first and first.text == "You left the game." and not first.buttons
    game = table_of(uno, ch).game
    assert game is not None and str(bob.id) in game.out and table.in_game(str(alice.id))

    after = await Unchanged(uno, ch).settled()
    run = await uno.stand_in.click(bob, second, label=LEAVE)  # the other question, now stale
    await refused(
        uno, caplog, run, ch, after, says="You're no longer in this game: nothing changed.", logged=False
    )
    assert second.buttons  # the refusal is a message of its own; the question stays as it was


async def test_a_forged_or_stale_leave_button_changes_nothing(
    uno: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """A modified client's leave buttons are refused and logged: another player's (the button
    names bob), or one sent on the public table message; the true one pressed once its game is
    over, and another table opened in the channel, says that game is over. Nothing changes."""
    caplog.set_level(logging.INFO, logger="bot")
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await open_table(uno, ch, alice, [bob, carol])
    question = await command(uno, bob, ch, "uno leave")
    assert question is not None and LEAVE in labels(question)
    leave_id = question.component(label=LEAVE)["custom_id"]
    game_id = table_of(uno, ch).game_id
    assert leave_id == f"uno:q:{ch.id}:0:leave:{game_id}.{bob.id}"
    before = await Unchanged(uno, ch).settled()

    run = forge(uno, bob, question, f"uno:q:{ch.id}:0:leave:{game_id}.{carol.id}")  # bob sends carol's
    await refused(uno, caplog, run, ch, before, says="That button isn't yours: nothing changed.")
    run = forge(uno, bob, question, f"uno:q:{ch.id}:0:stay:{game_id}.{carol.id}")
    await refused(uno, caplog, run, ch, before, says="That button isn't yours: nothing changed.")
    # On the public table message (answered by editing the message clicked): neither carol with
    # bob's button, nor bob with his own.
    for user in (carol, bob):
        for verb in ("leave", "stay"):
            forged = leave_id.replace(":leave:", f":{verb}:")
            await refused(
                uno, caplog, forge(uno, user, table_message(uno, ch), forged), ch, before, says="broken"
            )
    run = forge(uno, bob, question, f"uno:q:{ch.id}:0:go:{game_id}.{bob.id}")  # no such verb
    await refused(uno, caplog, run, ch, before, says="broken")

    await command(uno, alice, ch, "uno end")
    await command(uno, alice, ch, "uno new")  # another table in the channel: a lobby
    lobby = await Unchanged(uno, ch).settled()
    run = await uno.stand_in.click(bob, question, label=LEAVE)
    await refused(uno, caplog, run, ch, lobby, says="That game is over: nothing changed.", logged=False)
    await command(uno, bob, ch, "uno join")
    await command(uno, alice, ch, "uno start")
    playing = await Unchanged(uno, ch).settled()
    run = await uno.stand_in.click(bob, question, label=LEAVE)  # a new game: still not that one
    await refused(uno, caplog, run, ch, playing, says="That game is over: nothing changed.", logged=False)
    assert table_of(uno, ch).in_game(str(bob.id))
