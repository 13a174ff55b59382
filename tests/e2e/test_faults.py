"""The table under faults: a slow database or a slow Discord never fails an interaction, and
what players are told is true."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.client.errors import WITHDRAWN
from bot.localdiscord.records import WAIT_SECONDS, InteractionRecord
from bot.localdiscord.testing import LocalDiscord
from bot.service import publishing
from tests.e2e.helpers import (
    LEAVE,
    bot_of,
    click,
    command,
    hand,
    labels,
    lobby_message,
    open_table,
    rig,
    storage_failing,
    table_of,
)

NOT_SAVED = "couldn't be saved"


def _acknowledged_in_time(run: InteractionRecord) -> bool:
    return run.acknowledged_at is not None and run.acknowledged_at - run.created_at < 3.0


async def test_a_locked_database_fails_no_interaction(uno: LocalDiscord, tmp_path: Path) -> None:
    """The database write-locked for 7 s by another program while three users run /uno new,
    /uno join and /uno leave: each is acknowledged within Discord's 3 s; each answer is true
    (not saved and nothing changed, or done); no half-made lobby is left."""
    ch, other = uno.channel("uno"), uno.channel("uno-2")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await command(uno, alice, ch, "uno new")
    await command(uno, carol, ch, "uno join")
    lock = sqlite3.connect(tmp_path / "uno.db", timeout=0, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    asyncio.get_running_loop().call_later(7.0, lock.rollback)
    try:
        runs = [
            await uno.stand_in.slash(alice, other, "uno new"),
            await uno.stand_in.slash(bob, ch, "uno join"),
            await uno.stand_in.slash(carol, ch, "uno leave"),
        ]
        answers = [(await run.answer()).message for run in runs]
        if answers[0] is not None and answers[0].content == WITHDRAWN:  # refused after its public placeholder
            answers[0] = await runs[0].followup(0)  # as `command` reads it
    finally:
        lock.close()
    assert all(_acknowledged_in_time(run) for run in runs), [
        (run.command, run.acknowledged_at and run.acknowledged_at - run.created_at) for run in runs
    ]
    texts = [a.text if a is not None else "" for a in answers]
    assert NOT_SAVED in "".join(texts)  # SQLite waits 5 s for its lock: some change was refused
    # Each answer is true: a lobby with its message, or none; a seat taken or left, or not.
    assert (bot_of(uno).service.tables.get(other.id) is None) == (NOT_SAVED in texts[0]), texts[0]
    seated = [s.name for s in table_of(uno, ch).seats]
    assert ("bob" in seated) == ("joined" in texts[1]), texts[1]
    assert ("carol" not in seated) == ("left" in texts[2]), texts[2]
    assert all(NOT_SAVED in t or "joined" in t or "left" in t for t in texts[1:]), texts
    if NOT_SAVED in texts[0]:
        await command(uno, alice, other, "uno new")  # the lock is gone: it works again
    assert lobby_message(uno, other) is not None


async def test_a_slow_round_summary_holds_no_other_command(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The post of a round's summary slowed by 5 s (as a rate limit would): a /uno leave of the
    same table meanwhile, and its confirmation, are acknowledged and answered at once."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await open_table(uno, ch, alice, [bob, carol], target_score=500)
    rig(
        uno, ch, variant="classic", dealer="carol",
        hands={"alice": ["red 2"], "bob": ["blue 5", "yellow 6"], "carol": ["green 8", "blue 0"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3", "green 1", "green 2"] * 6,
    )  # fmt: skip
    channel_send = bot_of(uno).get_partial_messageable(ch.id).__class__.send
    release = asyncio.Event()

    async def slow_send(self: object, content: str | None = None, **kwargs: object) -> object:
        if content and content.startswith("🏁 Round"):
            await asyncio.wait_for(release.wait(), WAIT_SECONDS)
        return await channel_send(self, content, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(publishing.discord.PartialMessageable, "send", slow_send)
    mine = await hand(uno, alice, ch)
    played = await uno.stand_in.click(alice, mine, mine.component(label="🟥 red 2")["custom_id"])
    await uno.stand_in.wait_until(lambda: table_of(uno, ch).game.round_no == 2)  # type: ignore[union-attr]
    asked = await uno.stand_in.slash(carol, ch, "uno leave")
    question = (await asked.answer()).message
    assert _acknowledged_in_time(asked) and question is not None and LEAVE in labels(question)
    leave = await uno.stand_in.click(carol, question, label=LEAVE)  # confirmed: the leave itself
    answer = (await leave.answer()).message
    assert _acknowledged_in_time(leave) and answer is not None and "left" in answer.text
    assert played.answered_at is None  # the mover's answer waits for the summary, said first
    release.set()
    assert (await played.answer()).message is not None


async def test_an_unreadable_saved_table_is_set_aside(uno: LocalDiscord, tmp_path: Path) -> None:
    """One unreadable table in the database stops nothing: the bot starts and restores the
    others; /uno end in its channel (a member with Manage Messages) clears it."""
    ch, other = uno.channel("uno"), uno.channel("uno-2")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    await command(uno, alice, other, "uno new")
    await uno.stop_client()
    with sqlite3.connect(tmp_path / "uno.db") as db:
        db.execute("UPDATE open_tables SET snapshot = '{not json' WHERE channel_id = ?", (other.id,))
    await uno.start_client()
    assert table_of(uno, ch).game is not None  # the game goes on
    assert bot_of(uno).service.tables.get(other.id) is None
    answer = await command(uno, bob, other, "uno end")
    assert answer is not None and answer.ephemeral and "Manage Messages" in answer.text
    uno.stand_in.grant(alice, "manage_messages")
    answer = await command(uno, alice, other, "uno end")
    assert answer is not None and "cleared" in answer.text
    with sqlite3.connect(tmp_path / "uno.db") as db:
        assert db.execute(
            "SELECT COUNT(*) FROM open_tables WHERE channel_id = ?", (other.id,)
        ).fetchone() == (0,)
    await command(uno, alice, other, "uno new")
    assert lobby_message(uno, other) is not None


async def test_what_users_type_is_echoed_as_typed(uno: LocalDiscord) -> None:
    """A card name or house rule the bot doesn't know is quoted back short and as typed (no
    formatting, no mention), never failing the answer."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    answer = await command(uno, alice, ch, "uno rules", card="**" + "x" * 98)
    assert answer is not None and answer.text.startswith("No card named") and len(answer.text) < 200
    assert "\\*\\*" in answer.text  # shown as typed, not as bold
    uno.stand_in.grant(alice, "manage_channels")
    answer = await command(
        uno, alice, ch, "uno settings", house_rules="Stacking, <@123456789012345678>, **Fast**"
    )
    assert answer is not None and "Unknown house rule(s):" in answer.text
    assert "<@123456789012345678>" not in answer.text and "\\*\\*Fast\\*\\*" in answer.text


async def test_a_refusal_after_a_public_acknowledgement_is_private(
    uno: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """/uno new and /uno end are acknowledged publicly (their answer is for the channel); refused
    after that (the table couldn't be saved), the refusal is private, and nothing public is left
    of the command; the failed save is logged for the operator."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    with storage_failing(uno), caplog.at_level(logging.ERROR):
        run = await uno.stand_in.slash(alice, ch, "uno new")
        refusal = await run.followup(0)
    assert [r.getMessage() for r in caplog.records if "could not save" in r.getMessage()] == [
        f"table {ch.id}: could not save a change: disk full"
    ]
    assert refusal.ephemeral and NOT_SAVED in refusal.text
    assert uno.stand_in.messages(ch) == [] and bot_of(uno).service.tables.get(ch.id) is None
    await command(uno, alice, ch, "uno new")
    with storage_failing(uno, "delete_table"):
        run = await uno.stand_in.slash(alice, ch, "uno end")
        refusal = await run.followup(0)
    assert refusal.ephemeral and NOT_SAVED in refusal.text
    assert [m for m in uno.stand_in.messages(ch) if m.interaction is run] == []
    assert lobby_message(uno, ch) is not None and table_of(uno, ch).state.value == "lobby"


async def test_a_database_deleted_mid_game_saves_no_move(
    uno: LocalDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The database file deleted while a game is on: the next move is answered with the
    not-saved refusal and not made (SQLite alone would write it to the deleted file, and the next
    start would find no game), and the bot logs one ERROR naming the file and what to do."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2", "red 3", "green 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    mine = await hand(uno, alice, ch)
    before = table_of(uno, ch).to_snapshot()
    (tmp_path / "uno.db").unlink()
    with caplog.at_level(logging.ERROR):
        answer = await click(uno, alice, mine, "🟥 red 2")
    assert answer is not None and NOT_SAVED in answer.text and "nothing was changed" in answer.text
    assert table_of(uno, ch).to_snapshot()["game"] == before["game"]
    assert not (tmp_path / "uno.db").exists()  # no new, empty database in its place
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert f"{tmp_path / 'uno.db'}: the database file was deleted" in errors[0]
    assert "Stop the bot, put the file back" in errors[0]
