"""The table in detail through real discord.py: challenges, catches, flips, Howler, Save The Day,
privacy, open hands kept up to date, stale and out-of-turn clicks, simultaneous clicks, errors and
lobbies."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.cards import Color
from bot.engine.options import HouseRule, Options, PendingKind
from bot.localdiscord.limits import FLAG_COMPONENTS_V2
from bot.localdiscord.testing import LocalDiscord
from bot.service import hands as open_hands
from tests.e2e.helpers import (
    bot_of,
    both_apis,
    choose,
    choose_label,
    click,
    command,
    hand,
    labels,
    lobby_message,
    open_table,
    rig,
    rig_many_plays,
    table_message,
    table_of,
)


async def test_challenge_and_its_reveal(uno: LocalDiscord) -> None:
    """A bluffed Wild Draw Four is challenged from the victim's hand; the result is on the table."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    game = rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["wild draw four", "red 2", "green 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3", "blue 4", "blue 6", "blue 7"],
    )  # fmt: skip
    message = await hand(uno, alice, ch)
    message = await click(uno, alice, message, "🌈 wild draw four")
    assert message is not None and "green" in labels(message)  # the color picker
    await click(uno, alice, message, "green")
    assert game.pending.kind is PendingKind.CHALLENGE
    bob_hand = await hand(uno, bob, ch)
    assert "Challenge!" in labels(bob_hand) and "Take 4 cards" in labels(bob_hand)
    answer = await click(uno, bob, bob_hand, "Challenge!")
    assert answer is not None and "alice's hand at the challenge of the Wild Draw Four" in answer.text
    assert len(game.hands[table_of(uno, ch).seats[0].id]) == 6  # guilty: alice drew four
    await uno.stand_in.wait_until(lambda: "guilty" in table_message(uno, ch).text)
    # Only bob saw alice's hand.
    assert not any("alice's hand at the" in m.text for m in uno.stand_in.visible_messages(alice, ch))


async def test_catch_from_the_table(uno: LocalDiscord) -> None:
    """A player who forgets UNO is caught with the table's Catch button and draws two."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2", "green 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    message = await hand(uno, alice, ch)
    assert "UNO!" in labels(message)
    await click(uno, alice, message, "🟥 red 2")
    table = await uno.stand_in.wait_until(
        lambda: (m := table_message(uno, ch)) and not m.component(label="Catch").get("disabled") and m
    )
    private = len(uno.stand_in.visible_messages(bob, ch))
    answer = await click(uno, bob, table, "Catch")
    game = table_of(uno, ch).game
    assert game is not None and len(game.hands[table_of(uno, ch).seats[0].id]) == 3
    # Answered in place: the table message itself, its log saying it; no private message.
    assert answer is not None and answer.id == table.id and not answer.ephemeral
    assert "bob caught alice without UNO: +2 cards" in answer.text
    assert len(uno.stand_in.visible_messages(bob, ch)) == private


@both_apis
async def test_uno_from_the_table_is_answered_in_place(uno: LocalDiscord) -> None:
    """UNO! pressed on the table message is answered with that message (its log line), and the
    caller's open hand is redrawn in place: no new private message buries the hand."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    game = rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2", "green 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    mine = await hand(uno, alice, ch)
    assert "UNO!" in labels(mine)
    seen = [m.id for m in uno.stand_in.visible_messages(alice, ch)]
    answer = await click(uno, alice, table_message(uno, ch), "UNO!")
    assert answer is not None and answer.id == table_message(uno, ch).id and not answer.ephemeral
    assert "📣 alice: UNO!" in answer.text and table_of(uno, ch).seats[0].id in game.called
    await uno.stand_in.wait_until(
        lambda: (
            "UNO!" not in labels(next(m for m in uno.stand_in.visible_messages(alice, ch) if m.id == mine.id))
        )
    )
    assert [m.id for m in uno.stand_in.visible_messages(alice, ch)] == seen  # nothing new


async def test_flip_turns_the_table(uno: LocalDiscord) -> None:
    """A Flip card turns the table to the dark side, shown on the table with the inactive faces."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob], variant="flip")
    rig(
        uno, ch, variant="flip", dealer="bob",
        hands={"alice": ["red flip / pink skip everyone", "green 2 / teal 4"], "bob": ["blue 6 / pink 3"]},
        discard=["blue 3 / teal 1", "red 5 / orange 2"], draw=["green 4 / pink 6"],
    )  # fmt: skip
    await click(uno, alice, await hand(uno, alice, ch), "🟥 red flip")
    text = await uno.stand_in.wait_until(lambda: "alice played" in (t := table_message(uno, ch).text) and t)
    assert "Side: **dark**" in text
    assert "teal 1" in text and "FLIP!" in text
    # Every hand's light faces, in full: alice's two cards, bob's one.
    assert "The light side of every hand" in text and "alice: 🟩2" in text and "bob: 🟦6" in text
    bob_hand = await hand(uno, bob, ch)
    assert "🩷 pink 3" in bob_hand.text and "(back: 🟦 blue 6)" in bob_hand.text


async def test_howler_shows_the_hand_to_the_table(uno: LocalDiscord) -> None:
    """A Howler picks a player (color, then player); the picked one lets the hand be shown."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await open_table(uno, ch, alice, [bob, carol], variant="harry-potter")
    rig(
        uno, ch, variant="harry-potter", dealer="carol",
        hands={"alice": ["howler", "green 4"], "bob": ["yellow 5", "red 6"], "carol": ["green 8", "blue 0"]},
        discard=["red 7"], draw=["blue 1", "blue 2"],
    )  # fmt: skip
    message = await click(uno, alice, await hand(uno, alice, ch), "🌈 howler")
    assert message is not None
    assert message is not None and "Your move (🌈 howler): name the color." in message.text
    message = await click(uno, alice, message, "blue")
    assert message is not None and message.selects  # the player picker
    assert "pick the player whose hand the Howler shows to the table" in message.text
    await choose_label(uno, alice, message, "carol")
    carol_hand = await hand(uno, carol, ch)
    assert "Let them see" in labels(carol_hand)
    await click(uno, carol, carol_hand, "Let them see")
    bob_hand = await hand(uno, bob, ch)
    assert "carol's hand when the Howler was played" in bob_hand.text and "green 8" in bob_hand.text


async def test_seven_o_asks_whom_to_swap_hands_with(uno: LocalDiscord) -> None:
    """Seven-O: a 7's hand message asks for the player to swap with; the swap is on the table."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await open_table(uno, ch, alice, [bob, carol])
    game = rig(
        uno, ch, variant="classic", dealer="carol",
        hands={"alice": ["red 7", "green 4", "blue 1"], "bob": ["yellow 5"], "carol": ["green 8", "blue 0"]},
        discard=["red 3"], draw=["blue 2", "blue 3"], options=Options(house_rules=frozenset({HouseRule.SEVEN_O})),
    )  # fmt: skip
    message = await click(uno, alice, await hand(uno, alice, ch), "🟥 red 7")
    assert message is not None and message.selects
    assert "🟢 Your move (🟥 red 7): pick the player to swap hands with (Seven-O)." in message.text
    assert "play a card or draw" not in message.text
    carol_id = table_of(uno, ch).seats[2].id
    await choose_label(uno, alice, message, "carol")
    assert [c.name for c in game.hands[carol_id]] == ["green 4", "blue 1"]
    await uno.stand_in.wait_until(lambda: "swaps hands with carol" in table_message(uno, ch).text)


async def test_save_the_day_protects(uno: LocalDiscord) -> None:
    """Save The Day protects the picked player: a Draw Two on them has no effect."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob], variant="dc-super-hero-girls")
    game = rig(
        uno, ch, variant="dc-super-hero-girls", dealer="bob",
        hands={"alice": ["save the day", "red draw two", "green 4"], "bob": ["yellow 5", "red 6", "red draw two"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    message = await click(uno, alice, await hand(uno, alice, ch), "🌈 save the day")
    assert message is not None
    message = await click(uno, alice, message, "red")
    assert message is not None
    bob_id = table_of(uno, ch).seats[1].id
    await choose_label(uno, alice, message, "bob")
    assert game.protected == bob_id
    await uno.stand_in.wait_until(lambda: "protected" in table_message(uno, ch).text)


async def test_hands_stay_private(uno: LocalDiscord) -> None:
    """No user ever receives another user's hand: ephemerals go to their owner only."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    table = await open_table(uno, ch, alice, [bob])
    await hand(uno, alice, ch)
    await hand(uno, bob, ch)
    game = table.game
    assert game is not None
    for user, seat in ((alice, table.seats[0]), (bob, table.seats[1])):
        mine = [m for m in uno.stand_in.visible_messages(user, ch) if m.ephemeral]
        assert len(mine) == 1 and f"<#{ch.id}>" in mine[0].text
        assert f"{len(game.hands[seat.id])} cards" in mine[0].text
        shown = mine[0].text.split("**Your cards**", 1)[1]
        assert sorted(line.strip("*").split(" ", 1)[1] for line in shown.strip().splitlines()) == sorted(
            c.name for c in game.hands[seat.id]
        )
    assert not any(m.ephemeral for m in uno.stand_in.visible_messages(carol, ch))


@both_apis
async def test_open_hands_follow_the_game(uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """An open hand is redrawn as the game changes for its owner: at once when they are to act;
    while they only watch, not for the others' turns, which leave their cards alone."""
    # A watching hand's settle longer than any wait here: a redraw seen came from the turn's
    # beginning, at once, not from the settle (no deadline for a loaded machine to miss).
    monkeypatch.setattr(open_hands, "HAND_SETTLE_SECONDS", 120.0)
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, ch, alice, [bob], bots=2)
    ai1, ai2 = table.seats[2].id, table.seats[3].id
    game = rig(
        uno, ch, variant="classic", dealer=ai2,
        hands={"alice": ["red 2", "red 3", "blue 4"], "bob": ["red 5", "red 6", "blue 6"],
               ai1: ["red 8", "green 8", "blue 8"], ai2: ["red 9", "green 9", "blue 9"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    mine = await hand(uno, alice, ch)
    await click(uno, alice, mine, "🟥 red 2")
    shown = mine.revision
    # bob plays, then both AI seats: alice only watches until her turn comes back.
    await click(uno, bob, await hand(uno, bob, ch), "🟥 red 5")
    await uno.stand_in.wait_until(lambda: "Your move" in mine.text)
    assert mine.revision == shown + 1  # one edit for the three turns in between
    assert game.pending.player == table.seats[0].id and "🟥 red 3" in labels(mine)
    # bob's hand, watching since his move (the AI seats' turns left his cards alone), is redrawn
    # when his turn comes.
    theirs = next(m for m in uno.stand_in.visible_messages(bob, ch) if m.ephemeral)
    before = theirs.revision
    assert "Not your turn" in theirs.text
    await click(uno, alice, mine, "Draw")
    await uno.stand_in.wait_until(lambda: theirs.revision > before)
    assert theirs.revision == before + 1 and "Your move" in theirs.text
    assert f"{len(game.hands[table.seats[1].id])} cards" in theirs.text


async def test_stale_and_out_of_turn_clicks_are_refused(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A button from an older state, and a click out of turn, change nothing and say why."""
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await open_table(uno, ch, alice, [bob, carol])
    game = rig(
        uno, ch, variant="classic", dealer="carol",
        hands={"alice": ["red 2", "red 3", "green 4"], "bob": ["red 5", "yellow 6", "blue 6"],
               "carol": ["red 8", "green 8", "blue 8"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    bob_hand = await hand(uno, bob, ch)
    assert "Draw" not in labels(bob_hand)  # not bob's turn: no play buttons
    mine = await hand(uno, alice, ch)

    async def not_redrawn(self: object, table: object, player: str) -> None:
        return None  # the click below races the redraw of alice's hand, and wins

    monkeypatch.setattr(open_hands.Hands, "_show", not_redrawn)
    await command(uno, alice, ch, "uno kick", member=carol)  # still alice's turn, a new state
    version = game.version
    answer = await click(uno, alice, mine, "🟥 red 2")  # a button of the older state
    assert answer is not None and "earlier moment" in answer.text
    assert game.version == version and "🟥 red 2" in labels(answer)  # and the hand is redrawn
    # Out of turn with three cards, bob's UNO call doesn't count: refused privately.
    answer = await click(uno, bob, table_message(uno, ch), "UNO!")
    assert answer is not None and answer.ephemeral and "UNO" in answer.text
    assert game.version == version


async def test_a_refused_choice_redraws_the_hand_with_the_reason(uno: LocalDiscord) -> None:
    """A card the engine refuses from a hand's select is answered by redrawing that hand, the
    reason above it: no separate answer, and the select no longer offers the refused card."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    game = rig_many_plays(uno, ch)
    message = await hand(uno, alice, ch)
    assert message.selects  # more playable cards than buttons: they are in a select
    red_2 = next(o["value"] for o in message.selects[0]["options"] if o["label"] == "🟥 red 2")
    game.color = Color.BLUE  # the engine now refuses red 2, which this hand (still current) offers
    version, revision = game.version, message.revision
    private = [m for m in uno.stand_in.visible_messages(alice, ch) if m.ephemeral]
    answer = await choose(uno, alice, message, red_2)
    assert answer is message and message.revision == revision + 1
    assert "⚠️ That card doesn't match the top card." in message.text
    assert "🟥 red 2" not in str([*message.selects, *message.buttons])
    assert [m for m in uno.stand_in.visible_messages(alice, ch) if m.ephemeral] == private
    assert game.version == version and len(game.hands[table_of(uno, ch).seats[0].id]) == 28


async def test_flip_cards_alike_say_their_backs(uno: LocalDiscord) -> None:
    """Two Flip cards with the same face up and different backs read apart (the backs are
    public, docs/rules.md §7): in the hand's select each option's description is its back; as
    buttons, the two say their backs and a card with no twin stays short."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    rig_many_plays(uno, ch)
    message = await hand(uno, alice, ch)
    red_2s = [o.get("description") for o in message.selects[0]["options"] if o["label"] == "🟥 red 2"]
    assert sorted(red_2s) == ["(back: 🩷1)", "(back: 🩷2)", "(back: 🩷3)"]

    game = rig(
        uno, ch, variant="flip", dealer="bob",
        hands={"alice": ["red 5 / pink 1", "red 5 / teal 2", "blue 7 / teal 1"], "bob": ["blue 5 / teal 2"]},
        discard=["red 7 / pink 4"], draw=["blue 1 / teal 3", "blue 2 / teal 4"],
    )  # fmt: skip
    message = await hand(uno, alice, ch)
    assert {"🟥 red 5 (back: 🩷1)", "🟥 red 5 (back: 🩵2)", "🟦 blue 7"} <= set(labels(message))
    await click(uno, alice, message, "🟥 red 5 (back: 🩵2)")
    assert [c.name for c in game.hands[table_of(uno, ch).seats[0].id]] == [
        "red 5 / pink 1",
        "blue 7 / teal 1",
    ]


@both_apis
async def test_a_new_hand_message_replaces_the_last(uno: LocalDiscord) -> None:
    """Opening the hand again deletes the hand message it replaces: one hand at a time."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    first = await hand(uno, alice, ch)
    second = await command(uno, alice, ch, "uno hand")
    assert second is not None and second is not first
    await uno.stand_in.wait_until(lambda: first.deleted)
    hands = [m for m in uno.stand_in.visible_messages(alice, ch) if m.ephemeral]
    assert hands == [second]


async def test_two_clicks_at_once_are_serialized(uno: LocalDiscord) -> None:
    """Two simultaneous clicks on the same decision: one wins, the other is refused politely."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    game = rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["red 2", "red 3", "green 4"], "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    message = await hand(uno, alice, ch)
    version = game.version
    runs = await asyncio.gather(
        uno.stand_in.click(alice, message, message.component(label="🟥 red 2")["custom_id"]),
        uno.stand_in.click(alice, message, message.component(label="🟥 red 3")["custom_id"]),
    )
    answers = [await run.answer() for run in runs]
    assert game.version == version + 1  # exactly one of the two plays happened
    assert len(game.hands[table_of(uno, ch).seats[0].id]) == 2
    assert [a.message for a in answers] == [message, message]  # both answered with the fresh hand
    assert "🟥 red 2" not in labels(message) or "🟥 red 3" not in labels(message)


async def test_errors_are_private_and_lobby_rules_hold(uno: LocalDiscord) -> None:
    """A second /uno new, a non-host Start and a join twice get private reasons, never a change:
    /uno new where a lobby is open says to join it, where a game is on who can end it."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await command(uno, alice, ch, "uno new")
    answer = await command(uno, bob, ch, "uno new")
    assert answer is not None and answer.ephemeral and "press Join" in answer.text
    answer = await click(uno, bob, lobby_message(uno, ch), "Start")
    assert answer is not None and answer.ephemeral and "host" in answer.text
    await click(uno, bob, lobby_message(uno, ch), "Join")
    answer = await click(uno, bob, lobby_message(uno, ch), "Join")
    assert answer is not None and answer.ephemeral and "already" in answer.text
    assert len(table_of(uno, ch).seats) == 2
    await click(uno, alice, lobby_message(uno, ch), "Start")
    answer = await command(uno, bob, ch, "uno new")
    assert (
        answer is not None
        and answer.ephemeral
        and "Its host, or a member with Manage Messages" in answer.text
    )


async def test_a_target_score_with_single_round_scoring_is_refused(uno: LocalDiscord) -> None:
    """A target score given with single-round scoring would be ignored without a word: /uno new
    refuses it privately and opens nothing; in an open single-round lobby too, which stays as it
    was."""
    ch = uno.channel("uno")
    alice = uno.user("alice")
    answer = await command(uno, alice, ch, "uno new", target_score=200, scoring="single-round")
    assert answer is not None and answer.ephemeral and "no use with single-round scoring" in answer.text
    assert uno.client.service.tables.get(ch.id) is None  # type: ignore[attr-defined]
    await command(uno, alice, ch, "uno new", scoring="single-round")
    answer = await command(uno, alice, ch, "uno new", target_score=300)
    assert answer is not None and answer.ephemeral and "no use with single-round scoring" in answer.text
    options = table_of(uno, ch).options
    assert options.scoring.value == "single-round" and options.target_score != 300


async def test_tables_in_two_channels_are_independent(uno: LocalDiscord) -> None:
    """One game per channel; two channels hold two games at once."""
    a, b = uno.channel("uno"), uno.channel("uno-2")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    t1 = await open_table(uno, a, alice, [bob])
    t2 = await open_table(uno, b, carol, [], bots=2)
    assert t1 is not t2 and t1.game is not None and t2.game is not None
    assert table_of(uno, a).channel_id != table_of(uno, b).channel_id


@both_apis
async def test_a_drawn_card_is_played_from_the_hand(uno: LocalDiscord) -> None:
    """After drawing a playable card, Play plays it at once; a drawn wild asks for its color."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    game = rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": ["blue 2", "green 4"], "bob": ["blue 5", "yellow 6", "green 6"]},
        discard=["red 7"], draw=["red 8", "wild"],
    )  # fmt: skip
    message = await click(uno, alice, await hand(uno, alice, ch), "Draw")
    assert message is not None and "Play 🟥 red 8" in labels(message) and "Keep it" in labels(message)
    message = await click(uno, alice, message, "Play 🟥 red 8")
    assert message is not None and game.top.name == "red 8" and "Back" not in labels(message)
    await click(uno, bob, await hand(uno, bob, ch), "Draw")  # bob draws the wild and keeps it
    bob_id = table_of(uno, ch).seats[1].id
    assert [c.name for c in game.hands[bob_id]][-1] == "wild"
    message = await click(uno, bob, await hand(uno, bob, ch), "Play 🌈 wild")
    assert message is not None and "name the color" in message.text and "Back" in labels(message)
    await click(uno, bob, message, "green")
    assert game.top.name == "wild" and game.color is Color.GREEN


async def test_a_hand_shows_its_eighteen_playable_cards_as_buttons(uno: LocalDiscord) -> None:
    """Components V2 leaves room for more card buttons: eighteen different playable cards are
    all buttons, with no select to page through."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    reds = [f"red {n}" for n in range(10)] + ["red skip", "red reverse", "red draw two"]
    rig(
        uno, ch, variant="classic", dealer="bob",
        hands={"alice": [*reds, "wild", "wild draw four", "blue 7", "green 7", "yellow 7"],
               "bob": ["blue 5", "yellow 6"]},
        discard=["red 7"], draw=["blue 1", "blue 2", "blue 3"],
    )  # fmt: skip
    message = await hand(uno, alice, ch)
    assert message.flags & FLAG_COMPONENTS_V2 and not message.selects
    shown = labels(message)
    assert all(f"🟥 {card}" in shown for card in reds) and "🌈 wild draw four" in shown, shown


async def test_a_table_message_posted_before_components_v2_becomes_one(uno: LocalDiscord) -> None:
    """A game restored with a table message drawn as an embed (before Components V2): its next
    update turns that message into a Components V2 one (the embed goes; Discord refuses both)."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    table = await open_table(uno, ch, alice, [bob])
    state = uno.stand_in.state
    old = state.create_message(ch, state.bot, {"content": "", "embeds": [{"title": "UNO · round 1"}]})
    table.message_id = old.id
    bot_of(uno).service.publisher.publish(table)
    await uno.stand_in.wait_until(lambda: old.flags & FLAG_COMPONENTS_V2)
    assert not old.embeds and "Waiting for" in old.text and "My hand" in labels(old)
