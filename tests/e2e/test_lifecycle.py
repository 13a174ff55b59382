"""Tables over time through real discord.py: restarts, turn timers, lost messages, moderation,
channel settings, rules and records."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from bot.client.bot import UnoBot
from bot.engine.options import PendingKind
from bot.i18n import language_of, translator
from bot.localdiscord.limits import FLAG_COMPONENTS_V2
from bot.localdiscord.records import Channel, User
from bot.localdiscord.server import StandIn
from bot.localdiscord.testing import LocalDiscord
from bot.rulebook import Rulebook
from bot.service import PING
from bot.service import hands as open_hands
from bot.storage import GameResult, RoundResult
from tests.e2e.conftest import USERS, make_bot
from tests.e2e.helpers import (
    LEAVE,
    bot_of,
    click,
    command,
    hand,
    hold_table_edits,
    labels,
    leave,
    lobby_message,
    open_table,
    published_table,
    rig,
    storage_failing,
    table_message,
    table_of,
)


async def test_game_survives_a_restart(uno: LocalDiscord) -> None:
    """After a restart the game is restored, the table says so, and old buttons still work."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2", "red 3", "green 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    old_hand = await hand(uno, alice, ch)
    before = table_of(uno, ch)
    await uno.client.service.acting.save(before)  # type: ignore[attr-defined]
    await uno.restart_client()
    restored = table_of(uno, ch)
    assert restored is not before and restored.to_snapshot()["game"] == before.to_snapshot()["game"]
    await uno.stand_in.wait_until(lambda: "restarted" in table_message(uno, ch).text)
    await click(uno, alice, old_hand, "🟥 red 2")  # a button from before the restart
    game = restored.game
    assert game is not None and game.top.name == "red 2"


async def test_restart_reposts_a_table_message_deleted_meanwhile(uno: LocalDiscord) -> None:
    """A table message deleted while the bot was down is posted again after the restart (during
    play, a deleted table message ends the game: see below)."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    old = table_message(uno, ch)
    await uno.stop_client()
    uno.stand_in.state.delete_message(old)
    uno.expect_error(10008)  # the restored bot's first edit finds it gone
    await uno.start_client()
    await uno.stand_in.wait_until(
        lambda: (t := bot_of(uno).service.tables.get(ch.id)) and t.message_id not in (None, old.id)
    )
    new = table_message(uno, ch)
    await uno.stand_in.wait_until(lambda: "restarted" in new.text)
    assert table_of(uno, ch).state == "playing"


async def test_restart_posts_the_message_of_a_lobby_saved_without_one(uno: LocalDiscord) -> None:
    """A lobby saved before its message was posted (the bot stopped in between) gets its lobby
    message after the restart, and its buttons work."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await command(uno, alice, ch, "uno new")
    lobby = table_of(uno, ch)
    # The bot saves the message's id once it is posted (the test sees the message a moment before).
    await uno.stand_in.wait_until(lambda: lobby.message_id is not None)
    lobby.message_id = None  # as saved by /uno new before it posts the lobby message
    await uno.client.service.acting.save(lobby)  # type: ignore[attr-defined]
    before = len(uno.stand_in.messages(ch))
    await uno.restart_client()
    await uno.stand_in.wait_until(lambda: table_of(uno, ch).message_id is not None)
    message = next(m for m in uno.stand_in.messages(ch) if m.id == table_of(uno, ch).message_id)
    assert len(uno.stand_in.messages(ch)) == before + 1 and "Join" in labels(message)
    await click(uno, bob, message, "Join")
    assert [s.name for s in table_of(uno, ch).seats] == ["alice", "bob"]


async def test_turn_timer_default_moves_and_removal(tmp_path: Path) -> None:
    """A player who runs out of time gets the default move; three in a row remove them."""
    env = LocalDiscord(
        lambda s: make_bot(s, tmp_path / "t.db", turn_seconds=1), users=USERS, channels=("uno",)
    )
    async with env:
        ch = env.channel("uno")
        alice = env.user("alice")
        table = await open_table(env, ch, alice, [], bots=2)
        game = table.game
        assert game is not None
        alice_id = table.seats[0].id
        await env.stand_in.wait_until(lambda: alice_id in game.out)
        assert "⏰ alice ran out of time" in table.log or any("ran out of time" in line for line in table.log)
        removal = next(i for i, line in enumerate(table.log) if "removed after 3 timeouts" in line)
        # After the move made for her, and before what it leads to (she leaves the game).
        assert (
            "ran out of time" not in table.log[removal - 1]
            and table.log[removal + 1] == "alice left the game"
        )
        # alice was the only human: the bots don't play on for nobody.
        ended = await env.stand_in.wait_for_message(ch, lambda m: "Only bots were left" in m.text)
        assert bot_of(env).service.tables.get(ch.id) is None
        # alice can play again with the same bots: the message offers a rematch.
        await click(env, alice, ended, "Rematch")
        await env.stand_in.wait_until(lambda: bot_of(env).service.tables.get(ch.id) is not None)
        assert [x.name for x in table_of(env, ch).seats] == ["alice", "Bot 1", "Bot 2"]
        # Ended with no winner (only bots left): neither won nor lost, but in her recent games.
        stats = await bot_of(env).storage.stats(table.guild_id, alice_id)
        assert (stats.games_played, stats.games_won) == (0, 0)
        (recent,) = await bot_of(env).storage.recent_games(table.guild_id, alice_id)
        assert not recent.decided


async def test_a_bot_that_syncs_no_commands_says_so(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Without a command guild (and without --sync-global) the bot syncs nothing, which on a new
    application means no /uno command at all: the log says so and how to fix it."""

    def factory(stand_in: StandIn) -> UnoBot:
        bot = make_bot(stand_in, tmp_path / "u.db")
        bot.settings.discord.dev_guild_id = None
        return bot

    with caplog.at_level(logging.INFO, logger="bot.client.bot"):
        async with LocalDiscord(factory, users=USERS, channels=("uno",)):
            pass
    notes = [r.getMessage() for r in caplog.records if r.name == "bot.client.bot"]
    assert any("not synced" in n and "dev_guild_id" in n and "--sync-global" in n for n in notes)


def _alice_to_draw(uno: LocalDiscord, ch: Channel) -> None:
    """A two-player deal where alice, to act, has no card to play."""
    rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["blue 1", "blue 2"], "bob": ["green 1", "green 2"]},
        discard=["red 7"], draw=["yellow 3", "yellow 4"],
    )  # fmt: skip


async def test_a_hand_from_an_ended_game_is_stale_in_the_next(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand message left from a game that ended (its token expired, so it was neither deleted
    nor closed) moves nothing in the next game at the table, even at the same move count."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    _alice_to_draw(uno, ch)
    old = await command(uno, alice, ch, "uno hand")
    assert old is not None and "Draw" in labels(old)
    monkeypatch.setattr(open_hands, "HAND_TOKEN_SECONDS", -1)  # as if 15 minutes went by
    await command(uno, alice, ch, "uno end")
    assert "Draw" in labels(old)
    await open_table(uno, ch, alice, [bob])
    _alice_to_draw(uno, ch)
    game = table_of(uno, ch).game
    assert game is not None
    version, cards = game.version, len(game.hands[str(alice.id)])
    answer = await click(uno, alice, old, "Draw")
    assert answer is not None and "earlier moment" in answer.text
    assert (game.version, len(game.hands[str(alice.id)])) == (version, cards)


async def test_when_the_host_leaves_the_next_player_may_end(uno: LocalDiscord) -> None:
    """Once the host has left a game in progress, the first human still playing may kick and
    end (before, only a member with Manage Messages could); kicking a player who is out already
    says so."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    table = await open_table(uno, ch, alice, [bob, carol], bots=1)
    answer = await command(uno, bob, ch, "uno end")
    assert answer is not None and "host" in answer.text  # alice is still playing
    await leave(uno, alice, ch)
    for press in ("My hand", "UNO!"):  # alice is out: both buttons say so alike
        answer = await click(uno, alice, table_message(uno, ch), press)
        assert (
            answer is not None
            and answer.ephemeral
            and answer.text.endswith("You aren't playing in this game.")
        )
    await command(uno, bob, ch, "uno kick", member=carol)
    game = table.game
    assert game is not None and str(carol.id) in game.out
    # The table tells a kicked player from one who left by herself.
    await uno.stand_in.wait_until(
        lambda: (
            "carol~~ (removed: kicked)" in table_message(uno, ch).text
            and "alice~~ (left)" in table_message(uno, ch).text
        )
    )
    answer = await command(uno, bob, ch, "uno kick", member=carol)  # again: about carol, not bob
    assert answer is not None and answer.text.endswith("carol isn't in this game any more.")
    assert uno.client.service.tables.get(ch.id) is table  # type: ignore[attr-defined]  # bob and the bot play on
    await command(uno, bob, ch, "uno end")
    assert uno.client.service.tables.get(ch.id) is None  # type: ignore[attr-defined]
    await uno.stand_in.wait_for_message(ch, lambda m: "closed by" in m.text)
    (record,) = await bot_of(uno).storage.history(ch.id)  # the game closed is in the history
    assert record.result.winners == [] and str(bob.id) in record.result.players


async def test_deleted_table_message_ends_the_game(uno: LocalDiscord) -> None:
    """If the table message is deleted, the game ends cleanly and says why."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    _alice_to_draw(uno, ch)
    message = table_message(uno, ch)
    uno.stand_in.state.delete_message(message)  # as a moderator deleting it
    uno.expect_error(10008)
    message = await command(uno, alice, ch, "uno hand")
    assert message is not None
    await click(uno, alice, message, "Draw")
    await uno.stand_in.wait_for_message(ch, lambda m: "table message was deleted" in m.text)
    assert uno.client.service.tables.get(ch.id) is None  # type: ignore[attr-defined]


async def test_kick_and_end_need_the_host_or_manage_messages(uno: LocalDiscord) -> None:
    """Only the host or a member with Manage Messages may kick or end."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await command(uno, alice, ch, "uno new")
    answer = await command(uno, alice, ch, "uno kick", member=carol)  # not seated: named, not "you"
    assert answer is not None and answer.ephemeral and answer.text.endswith("carol isn't at this table.")
    await command(uno, alice, ch, "uno end")
    await open_table(uno, ch, alice, [bob, carol])
    answer = await command(uno, bob, ch, "uno kick", member=carol)
    assert answer is not None and answer.ephemeral and "host" in answer.text
    uno.stand_in.grant(bob, "manage_messages")
    await command(uno, bob, ch, "uno kick", member=carol)
    game = table_of(uno, ch).game
    assert game is not None and str(carol.id) in game.out
    await command(uno, alice, ch, "uno end")
    assert uno.client.service.tables.get(ch.id) is None  # type: ignore[attr-defined]
    await uno.stand_in.wait_for_message(ch, lambda m: "closed by" in m.text)


async def test_kicking_oneself_is_refused_with_the_way_to_leave(uno: LocalDiscord) -> None:
    """The host, or a member with Manage Messages, kicking themself is told of /uno leave; nothing
    changes (a kick of oneself would have acted as a leave)."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await command(uno, alice, ch, "uno new")
    answer = await command(uno, alice, ch, "uno kick", member=alice)
    assert answer is not None and answer.ephemeral and "/uno leave" in answer.text
    assert [s.name for s in table_of(uno, ch).seats] == ["alice"]
    await command(uno, alice, ch, "uno end")
    table = await open_table(uno, ch, alice, [bob])
    uno.stand_in.grant(bob, "manage_messages")
    game = table.game
    assert game is not None
    version = game.version
    for user in (alice, bob):
        answer = await command(uno, user, ch, "uno kick", member=user)
        assert answer is not None and answer.ephemeral
        assert answer.text == "You can't kick yourself; /uno leave takes you away from the table."
    assert game.version == version and not game.out and table_of(uno, ch) is table


async def test_channel_settings_are_the_new_games_defaults(uno: LocalDiscord) -> None:
    """/uno settings (Manage Channels) saves defaults that /uno new then uses."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    answer = await command(uno, bob, ch, "uno settings", variant="flip")
    assert answer is not None and "Manage Channels" in answer.text
    uno.stand_in.grant(alice, "manage_channels")
    answer = await command(
        uno, alice, ch, "uno settings", variant="flip", target_score=200, house_rules="stacking, Jump-in"
    )
    assert answer is not None and "saved" in answer.text
    assert "House rules: **Stacking, Jump-in**" in answer.text and "first to 200 points" in answer.text
    answer = await command(uno, alice, ch, "uno settings", house_rules="bluffing")
    assert answer is not None and "Unknown house rule" in answer.text
    answer = await command(uno, alice, ch, "uno settings", turn_seconds=3)
    assert answer is not None and "at least 10 seconds" in answer.text
    answer = await command(uno, alice, ch, "uno settings", customizable_rule="**Sing** first")
    assert answer is not None and r"Wild Customizable: **\*\*Sing\*\* first**" in answer.text
    await command(uno, bob, ch, "uno new")
    table = table_of(uno, ch)
    assert table.variant == "flip" and table.options.target_score == 200
    assert {r.value for r in table.options.house_rules} == {"stacking", "jump-in"}
    assert "UNO Flip" in lobby_message(uno, ch).text
    await command(uno, alice, ch, "uno settings", turn_seconds=45)
    await command(uno, bob, ch, "uno new")  # the host re-runs it: the lobby follows the settings
    assert table_of(uno, ch).turn_seconds == 45


async def test_rules_command_quotes_the_rules(uno: LocalDiscord) -> None:
    """/uno rules answers with the edition's rules, or one card's, privately."""
    ch = uno.channel("uno")
    alice = uno.user("alice")
    answer = await command(uno, alice, ch, "uno rules", variant="harry-potter", card="howler")
    assert answer is not None and answer.ephemeral and "Howler" in answer.text
    answer = await command(uno, alice, ch, "uno rules", variant="flip")
    assert answer is not None and "UNO Flip" in answer.text and len(answer.content) <= 2000


DEVELOPER_NOTES = re.compile(r"\.py\b|\.md\b|tests/|bot/|\(d\d+|<!--|dos-refused|`draw-decision`")
"""What only developers read on docs/rules.md: file paths, scenario ids, reason and decision ids."""


async def _parts(uno: LocalDiscord, user: User, ch: Channel, name: str, **options: Any) -> list[str]:
    """Every private message a slash command answered with, in order: as many as the rule book
    (in the user's language) has parts for the edition in ``options``."""
    run = await uno.stand_in.slash(user, ch, name, **options)
    first = (await run.answer()).message  # the deferred answer's first part
    assert first is not None
    (variant,) = options.values()
    lang = language_of(user.locale)
    parts = len(Rulebook.load(lang).variant(variant, translator(lang)))
    # The others are followups sent one after another.
    await uno.stand_in.wait_until(lambda: len([m for m in run.followups if m.id != first.id]) >= parts - 1)
    return [first.content] + [m.content for m in run.followups if m.id != first.id]


async def test_rules_of_dos_for_players(uno: LocalDiscord) -> None:
    """/uno rules for DOS quotes the rules without the page's notes for developers, in English and
    in French; a card lookup answers about the card alone, DOS's wilds included: what it does
    and its points, not a whole section (``card:7`` was all of §7, UNO Flip)."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    bob.locale = "fr"
    english = await _parts(uno, alice, ch, "uno rules", variant="dos")
    assert english[0].startswith("## 14. DOS\nDOS, UNO's sequel")
    assert "`dos`" not in "".join(english)  # the edition's id is a note for developers
    french = await _parts(uno, bob, ch, "uno règles", édition="dos")
    assert french[0].startswith("## 14. DOS\n") and "`dos`" not in "".join(french)
    for text in english + french:
        assert not DEVELOPER_NOTES.search(text), DEVELOPER_NOTES.search(text)
    answer = await command(uno, alice, ch, "uno rules", variant="dos", card="Wild DOS")
    assert answer is not None and answer.text.startswith("**Wild DOS** (§14.6)\nCounts as 2.")
    assert "color match" in answer.text and "**20 points**" in answer.text and len(answer.text) < 500
    answer = await command(uno, alice, ch, "uno rules", variant="dos", card="#")
    assert answer is not None and answer.text.startswith("**Wild #**") and "**40 points**" in answer.text
    answer = await command(uno, bob, ch, "uno règles", édition="dos", carte="joker DOS")
    assert answer is not None and answer.text.startswith("**joker DOS** (§14.6)\nCompte pour 2.")
    assert "**20 points**" in answer.text
    answer = await command(uno, alice, ch, "uno rules", variant="flip", card="7")
    assert answer is not None and answer.text.startswith("**7** (§1.5)\nA number card")
    assert "UNO Flip" not in answer.text and "**7 points**" in answer.text
    answer = await command(uno, alice, ch, "uno rules", variant="classic", card="wild draw four")
    assert answer is not None and answer.text.startswith("**6.5 Wild Draw Four**\n")
    assert answer.text.endswith("Left in a hand at the end of a round: **50 points**.")


async def test_records_after_a_finished_game(uno: LocalDiscord) -> None:
    """A finished game lands in the leaderboard and the players' stats; forget-me anonymises."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob], scoring="single-round")
    rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2", "red 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    # Not while seated: the game's result, recorded at its end, would name them again.
    answer = await command(uno, alice, ch, "uno forget-me")
    assert answer is not None and answer.ephemeral and "once that game is over" in answer.text
    message = await hand(uno, alice, ch)
    message = await click(uno, alice, message, "UNO!")
    assert message is not None
    await click(uno, alice, message, "🟥 red 2")
    game = table_of(uno, ch).game
    assert game is not None and game.pending.kind is PendingKind.TURN
    await click(uno, bob, await hand(uno, bob, ch), "Draw")  # blue 1: no match, bob keeps it
    message = await hand(uno, alice, ch)
    assert "🟥 red 4" in labels(message)
    await click(uno, alice, message, "🟥 red 4")
    await uno.stand_in.wait_for_message(ch, lambda m: "won!" in m.text)
    board = await command(uno, bob, ch, "uno leaderboard")
    assert board is not None and f"<@{alice.id}>" in board.text
    # Components V2 (no Embed Links needed); readable on a phone: two short lines per player.
    assert board.flags & FLAG_COMPONENTS_V2 and not board.embeds
    heading, *lines = board.text.split("\n")
    assert heading == "### Leaderboard · all editions"
    assert lines[0] == f"**1.** <@{alice.id}> · 🏆 1 of 1 (100%)" and len(lines) == 4
    assert all(len(line) <= 48 for line in lines)
    stats = await command(uno, bob, ch, "uno stats", member=alice)
    assert stats is not None and stats.flags & FLAG_COMPONENTS_V2 and not stats.embeds
    record = "Games played: **1** · won: **1** (100%)\nRounds won: **1**\nPoints scored: **0**"
    texts = [c["content"] for c in stats.all_components() if c["type"] == 10]
    # One edition played: its record would repeat the total, so it is not shown twice.
    assert texts[:2] == ["### alice's UNO record", record]
    assert texts[2].startswith("**Recent games**\n✅ Won · UNO · +0 · <t:")
    # Points over time, as a chart edited into the answer once drawn, shown in its media gallery.
    await uno.stand_in.wait_until(lambda: stats.attachments)
    [chart] = stats.attachments
    assert chart["filename"] == "uno-stats.png" and chart["size"] > 5000
    [gallery] = [c for c in stats.all_components() if c["type"] == 12]
    assert gallery["items"][0]["media"]["url"] == chart["url"]
    answer = await command(uno, alice, ch, "uno forget-me")
    assert answer is not None and answer.ephemeral
    board = await command(uno, bob, ch, "uno leaderboard")
    assert board is not None and f"<@{alice.id}>" not in board.text


async def test_the_leaderboard_ranks_rounds_won_in_games_with_no_winner(uno: LocalDiscord) -> None:
    """A player who won a round only in a game ended with no winner is on the leaderboard, with
    no games played: its first line says no game was won or lost (no "0 of 0 (0%)"), in every
    language, and its second line counts the round and its points."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    uno.stand_in.grant(alice, "manage_channels")
    players, guild = [str(alice.id), str(bob.id)], uno.stand_in.guild_id
    ended = [
        RoundResult("g1", guild, ch.id, 1, "classic", str(alice.id), 40, {p: 0 for p in players}, players),
        GameResult("g1", guild, ch.id, "classic", [], {p: 0 for p in players}, players, rounds=1),
    ]
    await bot_of(uno).storage.delete_table(ch.id, ended)
    firsts = {
        "en": "no game won or lost",
        "fr": "aucune partie gagnée ni perdue",
        "es": "ninguna partida ganada ni perdida",
        "pt_BR": "nenhuma partida ganha nem perdida",
    }
    for language, first in firsts.items():
        await command(uno, alice, ch, "uno settings", language=language)
        board = await command(uno, bob, ch, "uno leaderboard")
        assert board is not None
        _, *lines = board.text.split("\n")
        assert lines[0] == f"**1.** <@{alice.id}> · 🏆 {first}" and len(lines) == 2  # bob won nothing
        tr = translator(language)
        assert lines[1].endswith(tr.n("{n} round won", "{n} rounds won", 1)) and "40" in lines[1]


async def test_lobby_bot_seats_and_edition_select(uno: LocalDiscord) -> None:
    """The lobby's buttons and the host's edition select change the lobby message."""
    ch = uno.channel("uno")
    alice = uno.user("alice")
    await command(uno, alice, ch, "uno new")
    await click(uno, alice, lobby_message(uno, ch), "Add bot")
    message = lobby_message(uno, ch)
    run = await uno.stand_in.select(alice, message, message.selects[0]["custom_id"], ["harry-potter"])
    await run.answer()
    assert "Harry Potter UNO" in lobby_message(uno, ch).text and "Bot 1" in lobby_message(uno, ch).text


async def test_host_changes_options_before_start(uno: LocalDiscord) -> None:
    """The host runs /uno new again in the open lobby to change its options; others can't."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await command(uno, alice, ch, "uno new")
    await click(uno, bob, lobby_message(uno, ch), "Join")
    answer = await command(uno, alice, ch, "uno new", target_score=100, scoring="running-tally")
    assert answer is not None and answer.ephemeral and "changed" in answer.text
    table = table_of(uno, ch)
    assert table.options.target_score == 100 and table.options.scoring.value == "running-tally"
    await uno.stand_in.wait_until(lambda: "game ends at 100 points" in lobby_message(uno, ch).text)
    assert len(table.seats) == 2
    answer = await command(uno, bob, ch, "uno new", target_score=5)
    assert answer is not None and "already open" in answer.text and table.options.target_score == 100


async def test_failed_save_leaves_the_game_as_it_was(uno: LocalDiscord) -> None:
    """If saving a move fails, the move is not made, the player is told, and play goes on."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2", "red 3", "green 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    before = table_of(uno, ch).to_snapshot()
    with storage_failing(uno):
        answer = await click(uno, alice, await hand(uno, alice, ch), "🟥 red 2")
    assert answer is not None and "couldn't be saved" in answer.text
    assert table_of(uno, ch).to_snapshot()["game"] == before["game"]
    await click(uno, alice, await hand(uno, alice, ch), "🟥 red 2")
    game = table_of(uno, ch).game
    assert game is not None and game.top.name == "red 2"


async def test_a_bot_winning_closes_the_table(uno: LocalDiscord) -> None:
    """When a bot wins, the table message says the game is over and loses its buttons."""
    ch = uno.channel("uno")
    alice = uno.user("alice")
    await open_table(uno, ch, alice, [], bots=1, scoring="single-round")
    rig(
        uno, ch, variant="classic", dealer="Bot 1",
        hands={"alice": ["red 2", "red 3"], "Bot 1": ["red 5"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    table = table_of(uno, ch)
    message = table_message(uno, ch)
    answer = await click(uno, alice, await hand(uno, alice, ch), "UNO!")
    assert answer is not None
    await click(uno, alice, answer, "🟥 red 2")
    await uno.stand_in.wait_for_message(ch, lambda m: "Bot 1 won!" in m.text)
    await uno.stand_in.wait_until(lambda: "The game is over." in message.text and not message.buttons)
    assert table.game is not None and table.game.winners == ["ai:1"]
    assert not any("it's your move" in m.text for m in uno.stand_in.messages(ch))


async def test_host_adds_and_removes_bots_in_the_lobby(uno: LocalDiscord) -> None:
    """Add bot and Remove bot (shown while a bot is seated) are the host's; Remove bot takes the
    last bot added."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await command(uno, alice, ch, "uno new")
    assert "Remove bot" not in labels(lobby_message(uno, ch))
    await click(uno, alice, lobby_message(uno, ch), "Add bot")
    await click(uno, bob, lobby_message(uno, ch), "Join")
    answer = await click(uno, bob, lobby_message(uno, ch), "Add bot")
    assert answer is not None and answer.ephemeral and "host" in answer.text
    await click(uno, alice, lobby_message(uno, ch), "Add bot")
    answer = await click(uno, bob, lobby_message(uno, ch), "Remove bot")
    assert answer is not None and answer.ephemeral and "host" in answer.text
    await click(uno, alice, lobby_message(uno, ch), "Remove bot")
    assert [s.name for s in table_of(uno, ch).seats] == ["alice", "Bot 1", "bob"]
    await click(uno, alice, lobby_message(uno, ch), "Remove bot")
    message = lobby_message(uno, ch)
    assert "Bot 1" not in message.text and "Remove bot" not in labels(message)


async def test_impossible_options_are_refused_when_chosen(uno: LocalDiscord) -> None:
    """Partners with elimination is refused privately by /uno new and by the host's reconfiguring,
    changing nothing; a player count partners can't use is shown in the lobby before Start; asking
    for one of the two in a lobby that has the other swaps them."""
    ch = uno.channel("uno")
    alice = uno.user("alice")
    answer = await command(uno, alice, ch, "uno new", partners=True, elimination=True)
    assert answer is not None and answer.ephemeral and "can't be combined" in answer.text
    assert uno.client.service.tables.get(ch.id) is None  # type: ignore[attr-defined]
    await command(uno, alice, ch, "uno new", partners=True)
    assert "Partners need 4, 6, 8 or 10 players to start (1 seated)" in lobby_message(uno, ch).text
    version = table_of(uno, ch).version
    answer = await command(uno, alice, ch, "uno new", partners=True, elimination=True, target_score=100)
    assert answer is not None and answer.ephemeral and "can't be combined" in answer.text
    table = table_of(uno, ch)
    assert table.options.partners and not table.options.elimination and table.options.target_score == 500
    assert table.version == version
    await command(uno, alice, ch, "uno new", elimination=True)  # partners was the lobby's: swapped
    assert table.options.elimination and not table.options.partners
    await command(uno, alice, ch, "uno new", partners=True)
    assert table.options.partners and not table.options.elimination


async def test_shutdown_lets_a_table_edit_on_its_way_finish(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closing the bot waits for the table message's edit on its way (the move is saved already),
    so the channel shows the last move; nothing fails on a closed connection."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    _alice_to_draw(uno, ch)
    table = table_of(uno, ch)
    message = await hand(uno, alice, ch)
    held, release = hold_table_edits(uno, table, monkeypatch)
    await click(uno, alice, message, "Draw")
    await uno.stand_in.wait_until(lambda: held)
    closing = asyncio.create_task(bot_of(uno).close())
    await asyncio.sleep(0.3)
    assert not closing.done()  # waiting for the edit
    release.set()
    await closing
    assert "alice drew 1 card" in table_message(uno, ch).text


async def test_leaving_on_ones_turn_hands_it_to_the_next_seat_an_ai(uno: LocalDiscord) -> None:
    """A player who leaves on their turn passes it on; an AI seat next in line moves by itself."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, ch, alice, [bob], bots=1)
    ai_seat = table.seats[2].id
    game = rig(
        uno, ch, variant="classic", dealer="alice",
        hands={"alice": ["red 2", "red 3"], "bob": ["blue 5", "yellow 6"], ai_seat: ["red 9", "green 9"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    assert game.pending.player == table.seats[1].id  # bob's turn
    await leave(uno, bob, ch)
    await uno.stand_in.wait_until(lambda: game.pending.player == table.seats[0].id)
    assert game.top.name == "red 9" and game.hands[ai_seat] == [game.hands[ai_seat][0]]


async def test_a_lone_human_among_bots_is_pinged_every_turn(uno: LocalDiscord) -> None:
    """Each of the human's turns gets its own ping, even when only AI seats played in between;
    the previous ping is deleted, so one is shown at a time."""
    ch = uno.channel("uno")
    alice = uno.user("alice")
    table = await open_table(uno, ch, alice, [], bots=2)
    bot1, bot2 = table.seats[1].id, table.seats[2].id
    game = rig(
        uno, ch, variant="classic", dealer=bot2,
        hands={"alice": ["blue 1", "blue 2"], bot1: ["green 1", "green 2"], bot2: ["green 3", "green 4"]},
        discard=["red 7"], draw=["yellow 3", "yellow 4", "yellow 5", "yellow 6", "yellow 8", "yellow 9"],
    )  # fmt: skip

    def pings() -> list[int]:
        return [m.id for m in uno.stand_in.messages(ch) if "it's your move" in m.text]

    # The rigged deal replaced the game: nothing changed the table yet, so draw to start pinging.
    for _ in range(2):
        await uno.stand_in.wait_until(lambda: game.pending.player == table.seats[0].id)
        message = await command(uno, alice, ch, "uno hand")
        assert message is not None
        await click(uno, alice, message, "Draw")
    await uno.stand_in.wait_until(lambda: game.pending.player == table.seats[0].id and pings())
    first = pings()
    message = await command(uno, alice, ch, "uno hand")
    assert message is not None
    await click(uno, alice, message, "Draw")
    # A new ping for this turn, and the previous one deleted.
    await uno.stand_in.wait_until(lambda: len(now := pings()) == 1 and now != first)
    assert game.pending.player == table.seats[0].id


async def test_a_ping_goes_when_the_turn_passes_to_an_ai(uno: LocalDiscord) -> None:
    """Once the pinged player's turn is over and an AI seat is to act, their ping is deleted: the
    channel never shows a ping naming someone whose turn it isn't."""
    ch = uno.channel("uno")
    alice = uno.user("alice")
    table = await open_table(uno, ch, alice, [], bots=1)
    bot1 = table.seats[1].id
    game = rig(
        uno, ch, variant="classic", dealer=bot1,
        hands={"alice": ["blue 1", "blue 2"], bot1: ["green 1", "green 2"]},
        discard=["red 7"], draw=["yellow 3", "yellow 4", "yellow 5", "yellow 6"],
    )  # fmt: skip

    def pings() -> list[str]:
        return [m.text for m in uno.stand_in.messages(ch) if "it's your move" in m.text]

    # alice draws, the AI draws at once, and alice is pinged for her next turn.
    await click(uno, alice, await hand(uno, alice, ch), "Draw")
    await uno.stand_in.wait_until(lambda: game.pending.player == table.seats[0].id and len(pings()) == 1)
    bot_of(uno).service.defaults.ai_delay_seconds = 30  # the AI's turn lasts while we look
    await click(uno, alice, await hand(uno, alice, ch), "Draw")
    assert game.pending.player == bot1
    await bot_of(uno).service.updates.done((ch.id, PING))
    assert pings() == [] and table_of(uno, ch).ping_message_id is None


async def test_closing_leaves_no_live_looking_buttons(uno: LocalDiscord) -> None:
    """A player who leaves sees their open hand say so, without buttons; after /uno end every
    open hand and the table message say the game has ended, without buttons."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await open_table(uno, ch, alice, [bob, carol])
    alice_hand, bob_hand = await hand(uno, alice, ch), await hand(uno, bob, ch)
    assert alice_hand.buttons and bob_hand.buttons
    await leave(uno, bob, ch)
    await uno.stand_in.wait_until(lambda: "no longer in this game" in bob_hand.text and not bob_hand.buttons)
    table = table_message(uno, ch)
    await command(uno, alice, ch, "uno end")
    await uno.stand_in.wait_until(
        lambda: "The game has ended" in alice_hand.text and not alice_hand.buttons and not alice_hand.selects
    )
    await uno.stand_in.wait_until(lambda: "The game has ended" in table.text)
    assert not table.buttons and "▶" not in table.text  # nobody's turn any more
    assert "Not in this game" in bob_hand.text and "Your cards" not in bob_hand.text
    assert not bot_of(uno).service.hands.open  # forgotten once shown closed


async def test_failed_save_of_a_command_changes_nothing(uno: LocalDiscord) -> None:
    """Leaving, kicking, ending, joining and starting: if the save fails, the table stays as it
    was saved, the player is told so, and the same command then works."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")

    async def refused(user: object, name: str, **options: object) -> None:
        with storage_failing(uno, "save_table", "delete_table"):
            answer = await command(uno, user, ch, name, **options)  # type: ignore[arg-type]
        assert answer is not None and "couldn't be saved" in answer.text, answer and answer.text

    await command(uno, alice, ch, "uno new")
    await uno.stand_in.wait_until(lambda: table_of(uno, ch).message_id)
    lobby = table_of(uno, ch).to_snapshot()
    await refused(bob, "uno join")
    assert table_of(uno, ch).to_snapshot() == lobby
    await command(uno, bob, ch, "uno join")
    await command(uno, carol, ch, "uno join")
    lobby = table_of(uno, ch).to_snapshot()
    await refused(alice, "uno start")
    assert table_of(uno, ch).to_snapshot() == lobby
    await command(uno, alice, ch, "uno start")
    await uno.stand_in.wait_until(lambda: published_table(uno, ch))
    playing = table_of(uno, ch).to_snapshot()
    question = await command(uno, carol, ch, "uno leave")  # nothing is saved until it is confirmed
    assert question is not None and LEAVE in labels(question)
    with storage_failing(uno, "save_table", "delete_table"):
        answer = await click(uno, carol, question, LEAVE)
    assert answer is not None and "couldn't be saved" in answer.text, answer and answer.text
    assert table_of(uno, ch).to_snapshot()["game"] == playing["game"]
    uno.stand_in.grant(alice, "manage_messages")
    await refused(alice, "uno kick", member=carol)
    assert table_of(uno, ch).to_snapshot()["game"] == playing["game"]
    await refused(alice, "uno end")
    restored = table_of(uno, ch)
    assert restored.state == "playing" and restored.to_snapshot()["game"] == playing["game"]
    await leave(uno, carol, ch)
    game = table_of(uno, ch).game
    assert game is not None and str(carol.id) in game.out
    await command(uno, alice, ch, "uno end")
    assert uno.client.service.tables.get(ch.id) is None  # type: ignore[attr-defined]


async def test_a_ping_never_saves_a_move_that_was_not_made(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ping on its way while a move fails to save must not save the table that move was made
    on: the saved game stays as it was, and the ping lands on the table as saved."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    rig(
        uno, ch, variant="classic", dealer="alice",
        hands={"alice": ["red 2", "red 3", "green 4"], "bob": ["red 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    http = bot_of(uno).http
    send, release, held = http.send_message, asyncio.Event(), []

    async def held_send(channel_id: int, **kwargs: Any) -> Any:
        params = kwargs.get("params")
        if params is not None and "it's your move" in str(getattr(params, "payload", "") or ""):
            held.append(True)
            await release.wait()
        return await send(channel_id, **kwargs)

    monkeypatch.setattr(http, "send_message", held_send)
    await click(uno, bob, await hand(uno, bob, ch), "🟥 red 5")  # alice is pinged: held
    await uno.stand_in.wait_until(lambda: held)
    storage = uno.client.storage  # type: ignore[attr-defined]
    saved = (await storage.load_tables())[0]["game"]
    with storage_failing(uno):
        answer = await click(uno, alice, await hand(uno, alice, ch), "🟥 red 2")
    assert answer is not None and "couldn't be saved" in answer.text
    earlier = {m.id for m in uno.stand_in.messages(ch)}
    release.set()
    ping = await uno.stand_in.wait_for_message(
        ch, lambda m: "it's your move" in m.text and m.id not in earlier
    )
    await bot_of(uno).service.updates.done((ch.id, PING))  # the ping job is done
    assert (await storage.load_tables())[0]["game"] == saved, "a move that was not made was saved"
    assert table_of(uno, ch).ping_message_id == ping.id
