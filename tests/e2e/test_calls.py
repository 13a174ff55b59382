"""How often the bot calls Discord for a table (docs/performance/discord-layer.md), through real
discord.py: a move in a hand costs its player one call (the interaction's own response, the
hand redrawn), or two when the save is slower than `ANSWER_DEADLINE` (and a move whose answer
Discord refuses still goes on); the table message is
edited at most once per `TABLE_SPACING` and ends on the latest state within it, the computer
seats' quick moves go in the edit of the move before them, a player who plays on is not pinged
(nor one who thinks for less than the default 10 s), and a watching player's hand, which shows
their cards and not the table, is redrawn only when their cards change or their turn comes."""

from __future__ import annotations

import asyncio
import itertools
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine.game import Game
from bot.engine.options import HouseRule, Options
from bot.localdiscord.limits import TOKEN_SECONDS
from bot.localdiscord.records import InteractionRecord, Message, RequestRecord
from bot.localdiscord.testing import LocalDiscord
from bot.service import TABLE
from bot.service.moves import ANSWER_BY_AGE, ANSWER_DEADLINE
from bot.service.publishing import TABLE_SPACING
from bot.settings import GameDefaults
from bot.tables import Table
from tests.e2e.conftest import USERS, make_bot
from tests.e2e.helpers import (
    bot_of,
    choose_label,
    click,
    command,
    drawing_only,
    hand,
    open_table,
    rig,
    table_message,
    table_of,
    waiting_for,
)

pytestmark = pytest.mark.usefixtures("production_spacing")
SLACK = 0.5  # seconds a loaded machine may add to a timer and an edit's trip


def _edits(uno: LocalDiscord, table: Table, since: float) -> list[RequestRecord]:
    """The bot's edits of the table message that reached the stand-in after ``since``."""
    path = f"/channels/{table.channel_id}/messages/{table.message_id}"
    return [r for r in uno.stand_in.state.requests if r.method == "PATCH" and r.path == path and r.at > since]


def _answer_calls(uno: LocalDiscord, run: InteractionRecord) -> list[str]:
    """The bot's requests made with the interaction's token (its callback, ``@original`` edits,
    followups), as ``"METHOD path"``."""
    return [f"{r.method} {r.path}" for r in uno.stand_in.state.requests if run.token in r.path]


async def test_a_move_costs_its_player_one_call(uno: LocalDiscord) -> None:
    """alice draws from her open hand: the click is answered by its own response (an "update
    message" with her hand redrawn, after the move was saved), and her hand costs no other call."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    game = await drawing_only(uno)
    message = await command(uno, alice, ch, "uno hand")
    assert message is not None
    run = await uno.stand_in.click(alice, message, label="Draw")
    answer = await run.answer()
    assert str(game.pending.player) == str(uno.user("bob").id)
    assert answer.type == 7  # the update message itself, not a deferral
    assert answer.message is not None and answer.message.id == message.id
    assert "yellow 3" in answer.message.text and "Not your turn" in answer.message.text
    await bot_of(uno).service.updates.done((ch.id, str(alice.id)))
    assert _answer_calls(uno, run) == [f"POST /interactions/{run.id}/{run.token}/callback"]


def _slow_saves(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], None] = lambda: None
) -> list[float]:
    """Make the bot's table saves take `ANSWER_DEADLINE` + 0.75 s (``meanwhile`` is called in
    that time, once the move is acknowledged); returns when each save ended (the stand-in's
    clock)."""
    storage = bot_of(uno).storage
    save, saved = storage.save_table, []

    async def slow_save(*args: Any) -> None:
        await asyncio.sleep(ANSWER_DEADLINE + 0.75)
        meanwhile()
        await save(*args)
        saved.append(uno.stand_in.clock.now())

    monkeypatch.setattr(storage, "save_table", slow_save)
    return saved


async def test_a_move_whose_answer_fails_still_goes_on(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move saved after its interaction's token expired (Discord refuses the answer) is still
    made and shown: the table message names the next player."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    game = await drawing_only(uno)
    message = await command(uno, alice, ch, "uno hand")
    assert message is not None
    await bot_of(uno).service.updates.done((ch.id, TABLE))
    assert waiting_for(table_message(uno, ch)) == "alice"
    _slow_saves(uno, monkeypatch, meanwhile=lambda: uno.stand_in.clock.advance(TOKEN_SECONDS + 1))
    # The move's answer, the apology's followup, and the refresh of alice's hand (opened by
    # /uno hand, whose token expired too).
    uno.expect_error(50027, times=3)
    run = await uno.stand_in.click(alice, message, label="Draw")
    assert (await run.response()).type == 6
    await uno.stand_in.wait_until(lambda: waiting_for(table_message(uno, ch)) == "bob")
    assert str(game.pending.player) == str(uno.user("bob").id)


async def test_a_slow_save_is_acknowledged_in_time_and_answered_after(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a save slower than `ANSWER_DEADLINE`, the click is acknowledged by a deferred update
    soon after the deadline (not after the save), and the hand is redrawn by an ``@original``
    edit once the move is saved."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    game = await drawing_only(uno)
    message = await command(uno, alice, ch, "uno hand")
    assert message is not None
    saved = _slow_saves(uno, monkeypatch)
    run = await uno.stand_in.click(alice, message, label="Draw")
    answer = await run.answer()
    assert run.delivered_at is not None and run.acknowledged_at is not None and run.answered_at is not None
    assert answer.type == 6  # deferred: the save took too long
    assert run.acknowledged_at - run.delivered_at < ANSWER_DEADLINE + SLACK
    assert saved and run.answered_at >= saved[0]  # the move shown only once saved
    assert answer.message is not None and answer.message.id == message.id
    assert "yellow 3" in answer.message.text and "Not your turn" in answer.message.text
    assert str(game.pending.player) == str(uno.user("bob").id)
    calls = _answer_calls(uno, run)
    assert calls[0] == f"POST /interactions/{run.id}/{run.token}/callback"
    assert any(c.startswith("PATCH") and c.endswith("/messages/@original") for c in calls[1:]), calls


async def test_a_click_that_comes_late_is_acknowledged_at_once(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click that reaches its move `ANSWER_BY_AGE` old (a busy bot) does not wait for the
    move at all, even one quicker than `ANSWER_DEADLINE`: it is acknowledged by a deferred
    update at once, and its hand redrawn once the move is saved."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    await drawing_only(uno)
    message = await command(uno, alice, ch, "uno hand")
    assert message is not None
    bot = bot_of(uno)
    dispatch, storage = bot.service.dispatch, bot.storage
    on_component, save = dispatch.on_component, storage.save_table

    async def late(*args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(ANSWER_BY_AGE)  # as if the event loop had been busy
        await on_component(*args, **kwargs)

    async def quick_save(*args: Any) -> None:
        await asyncio.sleep(ANSWER_DEADLINE / 2)
        await save(*args)

    monkeypatch.setattr(dispatch, "on_component", late)
    monkeypatch.setattr(storage, "save_table", quick_save)
    run = await uno.stand_in.click(alice, message, label="Draw")
    answer = await run.answer()
    assert answer.type == 6
    assert run.acknowledged_at is not None and run.answered_at is not None
    assert run.answered_at - run.acknowledged_at >= ANSWER_DEADLINE / 2 - 0.05  # not after the save
    assert answer.message is not None and "Not your turn" in answer.message.text


async def _draws(uno: LocalDiscord, game: Game, moves: int) -> list[float]:
    """The player to act draws (a draw passes the turn here) ``moves`` times, each from a hand
    opened with /uno hand; returns when each draw was answered (the stand-in's clock)."""
    ch = uno.channel("uno")
    users = {str(u.id): u for u in (uno.user("alice"), uno.user("bob"))}
    answered = []
    for _ in range(moves):
        user = users[str(game.pending.player)]
        message = await command(uno, user, ch, "uno hand")
        assert message is not None
        await click(uno, user, message, "Draw")
        answered.append(uno.stand_in.clock.now())
    return answered


async def test_quick_moves_edit_the_table_once_per_window_ending_on_the_latest(uno: LocalDiscord) -> None:
    """Three quick moves: the first is shown at once, the others together in one more edit,
    `TABLE_SPACING` after the first, which shows the table as it is after the last move."""
    ch = uno.channel("uno")
    game = await drawing_only(uno)
    table = table_of(uno, ch)
    updates = bot_of(uno).service.updates
    await updates.done((ch.id, TABLE))
    start = uno.stand_in.clock.now()
    answered = await _draws(uno, game, 3)
    latest = f"Draw pile {len(game.draw_pile)} "
    await uno.stand_in.wait_until(lambda: latest in table_message(uno, ch).text)
    await updates.done((ch.id, TABLE))
    edits = _edits(uno, table, start)
    span = answered[-1] - answered[0]
    assert 1 <= len(edits) <= 1 + math.ceil(span / TABLE_SPACING), (len(edits), span)
    gaps = [later.at - earlier.at for earlier, later in itertools.pairwise(edits)]
    assert all(gap > TABLE_SPACING - 0.1 for gap in gaps), gaps  # at most one edit per window
    assert edits[-1].at - answered[-1] < TABLE_SPACING + SLACK  # the last move shown within it
    assert latest in table_message(uno, ch).text


async def test_the_table_message_is_not_edited_to_what_it_shows(uno: LocalDiscord) -> None:
    """An update of the table message asked for when it shows the table as it is already (as
    when the update of an earlier change drew this one too) makes no call; a move does."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    await drawing_only(uno)
    table, updates, publisher = table_of(uno, ch), bot_of(uno).service.updates, bot_of(uno).service.publisher
    publisher.publish(table)  # the rigged deal shown
    await updates.done((ch.id, TABLE))
    start = uno.stand_in.clock.now()
    publisher.publish(table)
    await updates.done((ch.id, TABLE))
    assert not _edits(uno, table, start)
    await click(uno, alice, await hand(uno, alice, ch), "Draw")
    await uno.stand_in.wait_until(lambda: waiting_for(table_message(uno, ch)) == "bob")
    assert len(_edits(uno, table, start)) == 1


async def test_computer_moves_go_in_the_edit_of_the_move_before_them(tmp_path: Path) -> None:
    """alice draws (her turn passes), then two computer seats that move faster than
    `TABLE_SPACING` draw too: one edit shows all three, alice to act again."""
    env = LocalDiscord(
        lambda s: make_bot(s, tmp_path / "uno.db", ai_delay_seconds=0.05), users=USERS, channels=("uno",)
    )
    async with env:
        ch, alice = env.channel("uno"), env.user("alice")
        table = await open_table(env, ch, alice, [], bots=2)
        _, first, second = (s.id for s in table.seats)
        game = rig(
            env, ch, variant="classic", dealer=second,
            hands={"alice": ["blue 1", "blue 2"], first: ["green 1", "green 2"], second: ["green 3", "green 4"]},
            discard=["red 7"], draw=["yellow 3", "yellow 4", "yellow 5", "yellow 6"],
        )  # fmt: skip
        updates = bot_of(env).service.updates
        await updates.done((ch.id, TABLE))
        start = env.stand_in.clock.now()
        message = await hand(env, alice, ch)
        await click(env, alice, message, "Draw")
        await env.stand_in.wait_until(
            lambda: game.pending.player == table.seats[0].id and len(game.draw_pile) == 1
        )
        await updates.done((ch.id, TABLE))
        edits = _edits(env, table, start)
        assert len(edits) == 1, [e.at - start for e in edits]
        assert "Draw pile 1 " in table_message(env, ch).text


async def test_a_player_who_plays_on_is_not_pinged(tmp_path: Path) -> None:
    """With ``ping_after_seconds``, a human who acts sooner gets no ping; one who doesn't is
    pinged once, and that ping goes when their turn is over."""
    env = LocalDiscord(
        lambda s: make_bot(s, tmp_path / "uno.db", ping_after_seconds=0.5),
        users=USERS,
        channels=("uno",),
    )
    async with env:
        ch, alice, bob = env.channel("uno"), env.user("alice"), env.user("bob")
        game = await drawing_only(env)
        bot_of(env).service.publisher.ping(table_of(env, ch))  # alice's turn starts now

        def pings() -> list[str]:
            return [m.text for m in env.stand_in.messages(ch) if "it's your move" in m.text]

        message = await command(env, alice, ch, "uno hand")  # alice acts at once
        assert message is not None
        await click(env, alice, message, "Draw")
        assert str(game.pending.player) == str(bob.id)
        await env.stand_in.wait_until(lambda: pings() == [f"<@{bob.id}>, it's your move at the UNO table."])
        message = await command(env, bob, ch, "uno hand")
        assert message is not None
        await click(env, bob, message, "Draw")
        await env.stand_in.wait_until(lambda: not pings())  # bob's ping goes with his turn
        alice_pings = [
            r for r in env.stand_in.state.requests
            if r.method == "POST" and r.path.endswith("/messages") and f"<@{alice.id}>" in str(r.body)
        ]  # fmt: skip
        assert not alice_pings


async def test_a_watching_hand_waits_for_its_turn(tmp_path: Path) -> None:
    """alice's open hand is not redrawn while the others move (bob, then a computer seat that
    takes longer than a second), and is redrawn once, at once, when her turn comes."""
    env = LocalDiscord(
        lambda s: make_bot(s, tmp_path / "uno.db", ai_delay_seconds=1.5), users=USERS, channels=("uno",)
    )
    async with env:
        ch, alice, bob = env.channel("uno"), env.user("alice"), env.user("bob")
        table = await open_table(env, ch, alice, [bob], bots=1)
        computer = table.seats[2].id
        game = rig(
            env, ch, variant="classic", dealer=computer,
            hands={"alice": ["blue 1", "blue 2"], "bob": ["green 1", "green 2"], computer: ["green 3", "green 4"]},
            discard=["red 7"], draw=["yellow 3", "yellow 4", "yellow 5", "yellow 6"],
        )  # fmt: skip
        mine = await command(env, alice, ch, "uno hand")
        assert mine is not None
        shown = await click(env, alice, mine, "Draw")  # her hand, redrawn by the answer
        assert shown is not None and str(game.pending.player) == str(bob.id)
        theirs = await command(env, bob, ch, "uno hand")
        assert theirs is not None
        revision = shown.revision
        await click(env, bob, theirs, "Draw")  # the computer seat's turn: it thinks 1.5 s
        await env.stand_in.wait_until(lambda: game.pending.player == str(alice.id))
        await env.stand_in.wait_until(lambda: shown.revision > revision)
        await bot_of(env).service.updates.done((ch.id, str(alice.id)))
        assert shown.revision == revision + 1  # only her turn redrew it
        assert bot_of(env).service.hands.open[(ch.id, str(alice.id))].version == table.version


async def test_the_default_ping_waits_ten_seconds(tmp_path: Path) -> None:
    """With the default ``ping_after_seconds`` (10 s: a player thinking for a few seconds is not
    away), a human whose turn begins is not pinged at once: their ping is due 10 s after the
    table last changed."""
    default = GameDefaults.model_fields["ping_after_seconds"].default
    assert default == 10
    env = LocalDiscord(
        lambda s: make_bot(s, tmp_path / "uno.db", ping_after_seconds=default), users=USERS, channels=("uno",)
    )
    async with env:
        ch, alice, bob = env.channel("uno"), env.user("alice"), env.user("bob")
        game = await drawing_only(env)
        publisher = bot_of(env).service.publisher
        await click(env, alice, await hand(env, alice, ch), "Draw")  # bob's turn begins
        assert str(game.pending.player) == str(bob.id)
        timer = await env.stand_in.wait_until(lambda: publisher._ping_timers.get(ch.id))
        assert default - 1 < timer.when() - asyncio.get_running_loop().time() <= default
        assert not [m for m in env.stand_in.messages(ch) if "it's your move" in m.text]


async def _alice_watches(env: LocalDiscord, **deal: Any) -> tuple[Table, Message]:
    """alice, bob and carol at #uno, the game rigged with ``deal`` (carol deals, alice acts
    first); alice draws from her open hand, which her answer shows watching (bob's turn): her
    cards and "Not your turn", not the table. Returns the table and alice's hand message."""
    ch, alice = env.channel("uno"), env.user("alice")
    await open_table(env, ch, alice, [env.user("bob"), env.user("carol")], variant=deal["variant"])
    rig(env, ch, dealer="carol", **deal)
    mine = await command(env, alice, ch, "uno hand")
    assert mine is not None
    shown = await click(env, alice, mine, "Draw")
    assert shown is not None and "Not your turn" in shown.text and "Top card" not in shown.text
    return table_of(env, ch), shown


async def test_a_watching_hand_is_not_edited_while_others_play(uno: LocalDiscord) -> None:
    """While bob and carol draw in turn, alice's open hand costs no call, even once their moves
    have settled (it shows her cards, which they did not change); her turn redraws it at once."""
    ch, alice, bob, carol = (uno.channel("uno"), *(uno.user(n) for n in USERS))
    table, shown = await _alice_watches(
        uno, variant="classic",
        hands={"alice": ["blue 1", "blue 2"], "bob": ["green 1", "green 2"], "carol": ["green 3", "green 4"]},
        discard=["red 7"], draw=["yellow 3", "yellow 4", "yellow 5", "yellow 6"],
    )  # fmt: skip
    revision, updates = shown.revision, bot_of(uno).service.updates
    await click(uno, bob, await hand(uno, bob, ch), "Draw")  # carol's turn
    await updates.drain()  # alice's hand looked at now, not `HAND_SETTLE_SECONDS` later
    assert shown.revision == revision
    assert bot_of(uno).service.hands.open[(ch.id, str(alice.id))].version == table.version
    await click(uno, carol, await hand(uno, carol, ch), "Draw")  # alice's turn
    await uno.stand_in.wait_until(lambda: shown.revision > revision)
    await updates.done((ch.id, str(alice.id)))
    assert shown.revision == revision + 1 and "🟢 Your move" in shown.text and "Top card" in shown.text


@pytest.mark.parametrize("change", ["seven-o swap", "flip"])
async def test_a_watching_hand_is_redrawn_when_its_cards_change(uno: LocalDiscord, change: str) -> None:
    """While alice watches, bob's play changes her cards (Seven-O: he swaps hands with her,
    docs/rules.md §4.3) or the faces they show (a Flip, §7.1: her hand lists the dark faces now):
    her hand is redrawn once, still saying it is not her turn."""
    ch, bob = uno.channel("uno"), uno.user("bob")
    if change == "flip":
        table, shown = await _alice_watches(
            uno, variant="flip",
            hands={"alice": ["blue 1 / teal 3", "blue 2 / teal 4"],
                   "bob": ["red flip / pink skip everyone", "green 6 / teal 5", "green 8 / orange 1"],
                   "carol": ["green 3 / pink 6", "green 4 / pink 7"]},
            discard=["blue 3 / teal 1", "red 5 / orange 2"], draw=["yellow 3 / pink 2", "yellow 4 / orange 3"],
        )  # fmt: skip
        await click(uno, bob, await hand(uno, bob, ch), "🟥 red flip")
        now = "(back: 🟦 blue 1)"  # the dark face first, the light one its back
    else:
        table, shown = await _alice_watches(
            uno, variant="classic", options=Options(house_rules=frozenset({HouseRule.SEVEN_O})),
            hands={"alice": ["blue 1", "blue 2"], "bob": ["red 7", "green 1", "green 2"],
                   "carol": ["green 3", "green 4"]},
            discard=["red 5"], draw=["yellow 3", "yellow 4", "yellow 5"],
        )  # fmt: skip
        picking = await click(uno, bob, await hand(uno, bob, ch), "🟥 red 7")
        assert picking is not None
        await choose_label(uno, bob, picking, "alice")
        now = "🟩 green 1"  # bob's cards, hers now
    revision, game = shown.revision, table.game
    assert game is not None
    await uno.stand_in.wait_until(lambda: game.pending.player == table.seats[2].id)  # carol's turn
    await bot_of(uno).service.updates.drain()
    assert shown.revision == revision + 1
    assert now in shown.text and "Not your turn" in shown.text
