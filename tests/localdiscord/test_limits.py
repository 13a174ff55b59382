"""One test per Discord limit the stand-in enforces: the bot gets the HTTPException (status
and code) Discord would answer, and nothing is stored."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest
from discord.http import Route

from bot.localdiscord.testing import LocalDiscord

from .demo_bot import DemoBot


def button(custom_id: str) -> dict[str, Any]:
    """A primary button payload."""
    return {"type": 2, "style": 1, "label": custom_id[:20], "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    """An action row payload."""
    return {"type": 1, "components": list(components)}


def select(options: int) -> dict[str, Any]:
    """A string select payload with ``options`` options."""
    values = [{"label": f"o{i}", "value": f"o{i}"} for i in range(options)]
    return {"type": 3, "custom_id": "pick", "options": values}


SHAPES = [
    pytest.param({"content": "x" * 2001}, 50035, "content", id="content over 2000"),
    pytest.param({"components": [row(button(f"b{i}")) for i in range(6)]}, 50035, "components", id="6 rows"),
    pytest.param(
        {"components": [row(*(button(f"b{i}") for i in range(6)))]},
        50035,
        "components.0.components",
        id="6 buttons in a row",
    ),
    pytest.param(
        {"components": [row(select(26))]}, 50035, "components.0.components.0.options", id="26 options"
    ),
    pytest.param(
        {"components": [row(button("same"), button("same"))]},
        50035,
        "components.0.components.1.custom_id",
        id="duplicate custom_id",
    ),
    pytest.param(
        {"components": [row(button("c" * 101))]},
        50035,
        "components.0.components.0.custom_id",
        id="custom_id over 100",
    ),
    pytest.param({"embeds": [{"title": str(i)} for i in range(11)]}, 50035, "embeds", id="11 embeds"),
    pytest.param(
        {"embeds": [{"description": "d" * 1600} for _ in range(4)]}, 50035, "embeds", id="embeds over 6000"
    ),
    pytest.param({"content": ""}, 50006, "", id="empty message"),
]


@pytest.mark.parametrize(("payload", "code", "where"), SHAPES)
async def test_message_shape_limit(env: LocalDiscord, payload: dict[str, Any], code: int, where: str) -> None:
    """POST /channels/{c}/messages over a limit raises Discord's code and stores nothing."""
    env.expect_error(code)
    uno = env.channel("uno")
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=uno.id)
    with pytest.raises(discord.HTTPException) as raised:
        await env.client.http.request(route, json=payload)
    assert raised.value.status == 400 and raised.value.code == code
    if where:
        assert f"In {where}" in raised.value.text
    assert env.stand_in.messages(uno) == []


async def test_embeds_over_6000_through_channel_send(env: LocalDiscord) -> None:
    """Embeds totalling over 6,000 characters fail through discord.py's own send()."""
    env.expect_error(50035)
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    embeds = [discord.Embed(title="t", description="d" * 2000) for _ in range(4)]
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send(embeds=embeds)
    assert raised.value.code == 50035 and "Embed size exceeds maximum size of 6000" in raised.value.text


async def test_ack_after_three_seconds_is_unknown_interaction(env: LocalDiscord) -> None:
    """A callback later than 3 s (stand-in clock) gets 404 10062 Unknown interaction."""
    env.expect_error(10062)
    stand_in, bot = env.stand_in, cast(DemoBot, env.client)
    run = await stand_in.slash(env.user("alice"), env.channel("uno"), "demo slow")
    await stand_in.wait_until(lambda: bot.holding)
    stand_in.clock.advance(3.5)
    bot.release()
    await stand_in.wait_until(lambda: bot.errors)
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062
    assert not run.acknowledged() and stand_in.messages(env.channel("uno")) == []


async def test_second_ack_is_refused(env: LocalDiscord) -> None:
    """A second callback for one interaction gets 400 40060."""
    env.expect_error(40060)
    stand_in = env.stand_in
    run = await stand_in.slash(env.user("alice"), env.channel("uno"), "demo secret")
    await run.response()
    route = Route("POST", "/interactions/{i}/{token}/callback", i=run.id, token=run.token)
    with pytest.raises(discord.HTTPException) as raised:
        await env.client.http.request(route, json={"type": 4, "data": {"content": "again"}})
    assert raised.value.status == 400 and raised.value.code == 40060


async def test_editing_ephemeral_through_channel_route(env: LocalDiscord) -> None:
    """PATCH /channels/{c}/messages/{id} on an ephemeral answers 404 10008 Unknown Message."""
    env.expect_error(10008)
    stand_in, bot = env.stand_in, cast(DemoBot, env.client)
    run = await stand_in.slash(env.user("alice"), env.channel("uno"), "demo hidden")
    hidden = (await run.response()).message
    await stand_in.wait_until(lambda: bot.errors)
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10008
    assert hidden is not None and hidden.content == "Only you."


async def test_expired_token(env: LocalDiscord) -> None:
    """A followup 15 minutes after the interaction gets 401 50027 Invalid Webhook Token."""
    env.expect_error(50027)
    stand_in, bot = env.stand_in, cast(DemoBot, env.client)
    run = await stand_in.slash(env.user("alice"), env.channel("uno"), "demo expire")
    await run.response()
    await stand_in.wait_until(lambda: bot.holding)
    stand_in.clock.advance(15 * 60 + 1)
    bot.release()
    await stand_in.wait_until(lambda: bot.errors)
    assert bot.errors[0].status == 401 and bot.errors[0].code == 50027
    assert run.followups == []
