"""Clicks only a modified client sends: a custom_id naming another channel, one that reads as no
address, select values the select didn't offer, actions the game doesn't allow. Each is refused
privately, changes nothing (the table and its saved snapshot), and logs nothing at ERROR (one
INFO line for a forged one)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.engine.options import HouseRule, Options
from bot.localdiscord import interactions
from bot.localdiscord.records import WAIT_SECONDS, Message, User
from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import (
    bot_of,
    click,
    command,
    hand,
    lobby_message,
    open_table,
    rig,
    rig_many_plays,
    table_message,
    table_of,
)

REFUSED = "refused a click"


def forge(
    env: LocalDiscord, user: User, message: Message, custom_id: str, values: list[str] | None = None
) -> Any:
    """``user`` clicks ``custom_id`` on ``message`` with ``values`` (a select's), whatever the
    message offers: the interaction a modified client would make Discord send. A ``custom_id``
    the message lacks is put in its first row (discord.py dispatches only those of the message),
    a select offering ``values``."""
    kind = 2 if values is None else 3
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    try:
        message.component(custom_id)
    except KeyError:
        # Ids as Discord numbers a message's components (the first row's kept; the forged one's
        # past any real one).
        component: dict[str, Any] = {"type": kind, "custom_id": custom_id, "id": 1000}
        if values is None:
            component.update(style=2, label="forged")
        else:
            options = [{"label": v[:100] or "-", "value": v} for v in dict.fromkeys(values) if v]
            component.update(options=options or [{"label": "-", "value": "-"}], max_values=25, min_values=0)
        shown = message.components  # as the interaction carries it; the message stays as it is
        row = {"type": 1, "id": shown[0].get("id", 1) if shown else 1, "components": [component]}
        message.components = [row, *shown[1:]]
        try:
            return interactions.start(env.stand_in.state, user, message.channel, 3, data, message=message)
        finally:
            message.components = shown
    return interactions.start(env.stand_in.state, user, message.channel, 3, data, message=message)


class Unchanged:
    """What must not change: the table (with its version), its saved snapshot, the channel's
    public messages."""

    def __init__(self, env: LocalDiscord, channel: Any) -> None:
        self.env, self.channel = env, channel

    async def settled(self) -> tuple[Any, ...]:
        """:meth:`now`, once the bot is at rest: no background job left (a turn ping still
        being posted, a table message still being edited: each lands later and changes the
        table's saved ping or a message) and the table saved as it holds it. Taken earlier,
        what lands later looks like a change."""
        updates = bot_of(self.env).service.updates
        for _ in range(int(WAIT_SECONDS / 0.05)):
            await updates.drain()
            state = await self.now()
            if state[2] == [state[1]]:
                await updates.drain()  # a job asked meanwhile (a save's follow-up) lands too
                if await self.now() == state:
                    return state
            await asyncio.sleep(0.05)
        raise AssertionError("the bot never came to rest with its table saved as it holds it")

    async def now(self) -> tuple[Any, ...]:
        table = table_of(self.env, self.channel)
        saved = [
            s for s in await bot_of(self.env).storage.load_tables() if s["channel_id"] == self.channel.id
        ]
        public = [(m.id, m.revision) for m in self.env.stand_in.messages(self.channel)]
        return table.version, table.to_snapshot(), saved, public


async def refused(
    env: LocalDiscord,
    caplog: pytest.LogCaptureFixture,
    run: Any,
    channel: Any,
    before: tuple[Any, ...],
    *,
    says: str,
    logged: bool = True,
) -> None:
    """``run`` was answered privately with ``says``, changed nothing, logged no ERROR and (when
    ``logged``) one INFO line without a traceback."""
    answer = (await run.answer()).message
    assert answer is not None and answer.ephemeral and says in answer.text, answer
    assert await Unchanged(env, channel).now() == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    lines = [r for r in caplog.records if REFUSED in r.getMessage()]
    assert len(lines) == int(logged) and all(r.levelno == logging.INFO and not r.exc_info for r in lines), (
        lines
    )
    caplog.clear()


async def test_forged_lobby_clicks_are_refused(uno: LocalDiscord, caplog: pytest.LogCaptureFixture) -> None:
    """Another channel's custom_id, unreadable ones, and lobby select values the selects didn't
    offer (too many, repeated, unknown, another select's, none): refused, nothing changed."""
    caplog.set_level(logging.INFO, logger="bot")
    ch, other = uno.channel("uno"), uno.channel("uno-2")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await command(uno, alice, ch, "uno new")
    await click(uno, bob, lobby_message(uno, ch), "Join")
    lobby = lobby_message(uno, ch)
    state = Unchanged(uno, ch)
    before = await state.settled()
    v = table_of(uno, ch).version
    edition, rules, bots = (s["custom_id"] for s in lobby.selects)
    assert edition == f"unos:l:{ch.id}:{v}:variant" and rules == f"unos:l:{ch.id}:{v}:rules"
    assert bots == f"unos:l:{ch.id}:{v}:bot"

    # Join with a custom_id naming #uno-2: not a seat at #uno (nor at #uno-2).
    run = forge(uno, carol, lobby, f"uno:l:{other.id}:0:join")
    await refused(uno, caplog, run, ch, before, says="another channel")
    for broken in (f"uno:l:{ch.id}:9999999999:join", f"uno:l:{ch.id}:-1:join", f"uno:l:{ch.id}",
                   f"uno:l:{ch.id}:{v}:JOIN", f"uno:l:{ch.id}:{v}:zap"):  # fmt: skip
        await refused(uno, caplog, forge(uno, carol, lobby, broken), ch, before, says="broken")
    for values in (["flip", "classic"], [], ["nope"], ["stacking"], ["99"], ["flip", "flip"]):
        run = forge(uno, alice, lobby, edition, values)
        await refused(uno, caplog, run, ch, before, says="wasn't offered")
    everything = [r.value for r in HouseRule]
    for values in (["stacking", "stacking"], ["abc"], ["classic"], [*everything, "stacking"]):
        run = forge(uno, alice, lobby, rules, values)
        await refused(uno, caplog, run, ch, before, says="wasn't offered")
    for values in (["expert"], ["hard", "easy"], []):  # a bot of a level the select didn't offer
        await refused(uno, caplog, forge(uno, alice, lobby, bots, values), ch, before, says="wasn't offered")
    # The edition select of a lobby whose custom_id is true, holding a value the bot never drew.
    run = forge(uno, alice, lobby, edition + ":x", ["nope"])
    await refused(uno, caplog, run, ch, before, says="Unknown edition", logged=False)
    assert [s.name for s in table_of(uno, ch).seats] == ["alice", "bob"]


async def test_forged_game_clicks_are_refused(uno: LocalDiscord, caplog: pytest.LogCaptureFixture) -> None:
    """In a game: a table button of another channel or with an unknown verb, a hand's select
    sent values it didn't offer, a hand button carrying a card not held, an action that reads
    as none, a page that is no number: refused, nothing changed."""
    caplog.set_level(logging.INFO, logger="bot")
    ch, other = uno.channel("uno"), uno.channel("uno-2")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    game = rig_many_plays(uno, ch)
    mine = await hand(uno, alice, ch)
    assert mine.selects  # more playable cards than buttons: they are in a select
    cards = mine.selects[0]["custom_id"]
    table = table_message(uno, ch)
    before = await Unchanged(uno, ch).settled()
    v = table_of(uno, ch).version

    run = forge(uno, bob, table, f"uno:t:{other.id}:0:uno")
    await refused(uno, caplog, run, ch, before, says="another channel")
    await refused(uno, caplog, forge(uno, bob, table, f"uno:t:{ch.id}:0:win"), ch, before, says="broken")
    # The card select sent an action it didn't offer (Draw is a button), two cards, none, junk.
    for values in (["draw"], ["play red 2", "play red 3"], [], ["abc"], ["99"], ["play red 2", "play red 2"]):
        await refused(uno, caplog, forge(uno, alice, mine, cards, values), ch, before, says="wasn't offered")
    # Hand buttons as a modified client makes them: not in the hand, junk, no page.
    for custom_id, says, logged in (
        (f"uno:h:{ch.id}:{v}:a:play blue 9", "don't hold", False),
        (f"uno:h:{ch.id}:{v}:a:abc", "broken", True),
        (f"uno:h:{ch.id}:{v}:pg:abc", "broken", True),
        (f"uno:h:{ch.id}:{v}:zz", "broken", True),
    ):
        await refused(uno, caplog, forge(uno, alice, mine, custom_id), ch, before, says=says, logged=logged)
    assert game.pending.player == table_of(uno, ch).seats[0].id and len(game.hands[str(alice.id)]) == 28


async def test_forged_targets_are_refused(uno: LocalDiscord, caplog: pytest.LogCaptureFixture) -> None:
    """Seven-O's player select sent the player themselves, or someone not seated, whether or not
    the select offered them (a modified client): refused by the game, nothing changed."""
    caplog.set_level(logging.INFO, logger="bot")
    ch = uno.channel("uno")
    alice, bob, carol = uno.user("alice"), uno.user("bob"), uno.user("carol")
    await open_table(uno, ch, alice, [bob, carol])
    rig(
        uno, ch, variant="classic", dealer="carol",
        hands={"alice": ["red 7", "blue 1"], "bob": ["blue 5", "yellow 6"], "carol": ["green 1", "green 2"]},
        discard=["red 3"], draw=["blue 2", "blue 3"], options=Options(house_rules=frozenset({HouseRule.SEVEN_O})),
    )  # fmt: skip
    mine = await hand(uno, alice, ch)
    before = await Unchanged(uno, ch).settled()
    for target, says in (
        (str(alice.id), "can't pick"),
        ("123456789", "can't pick"),
        ("ai:1", "can't pick"),
        (f"{bob.id} target={carol.id}", "broken"),
    ):
        values = [f"play red 7 target={target}"]
        pick = await click(uno, alice, mine, "🟥 red 7")  # the hand asks for the player
        assert pick is not None and pick.selects
        players = pick.selects[0]["custom_id"]
        await refused(
            uno, caplog, forge(uno, alice, pick, players, values), ch, before, says="wasn't offered"
        )
        # The same value from a select that offers it (another custom_id of the hand's address).
        await click(uno, alice, mine, "🟥 red 7")
        run = forge(uno, alice, pick, players + ":x", values)
        await refused(uno, caplog, run, ch, before, says=says, logged=says == "broken")


async def test_a_hand_s_buttons_pressed_on_the_table_message_are_refused(
    uno: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """A hand's buttons (scope ``h``) sent on the public table message, as only a modified client
    can: Refresh, a page, Back, a move. The hand is never drawn over the table (its cards would
    show to everyone) and no move is made: refused privately, nothing changed."""
    caplog.set_level(logging.INFO, logger="bot")
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    rig_many_plays(uno, ch)
    await hand(uno, alice, ch)
    table = table_message(uno, ch)
    before = await Unchanged(uno, ch).settled()
    v = table_of(uno, ch).version
    for custom_id in (
        f"uno:h:{ch.id}:0:r",
        f"uno:h:{ch.id}:{v}:pg:1",
        f"uno:h:{ch.id}:{v}:bk",
        f"uno:h:{ch.id}:{v}:a:draw",
        f"uno:h:{ch.id}:{v}:a:play red 2 / pink 1",
    ):
        run = forge(uno, alice, table, custom_id)
        await refused(uno, caplog, run, ch, before, says="your hand")
    assert "Your hand" not in table_message(uno, ch).text
