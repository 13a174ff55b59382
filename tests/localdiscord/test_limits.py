"""One test per Discord limit the stand-in enforces: the bot gets the HTTPException (status
and code) Discord would answer, and nothing is stored."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord
import pytest
from discord.http import Route

from bot.localdiscord import Clock, InteractionRecord
from bot.localdiscord.state import PERMISSIONS
from bot.localdiscord.testing import LocalDiscord

from .demo_bot import DemoBot


def button(custom_id: str) -> dict[str, Any]:
    """A primary button payload."""
    return {"type": 2, "style": 1, "label": custom_id[:20], "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    """An action row payload."""
    return {"type": 1, "components": list(components)}


def select(options: int, **fields: Any) -> dict[str, Any]:
    """A string select payload with ``options`` options (and other ``fields``)."""
    values = [{"label": f"o{i}", "value": f"o{i}"} for i in range(options)]
    return {"type": 3, "custom_id": "pick", "options": values, **fields}


V2 = 1 << 15


def text(content: str) -> dict[str, Any]:
    """A text display (Components V2)."""
    return {"type": 10, "content": content}


def section(*texts: str, accessory: dict[str, Any] | None = None) -> dict[str, Any]:
    """A section of text displays with an accessory (a thumbnail of an https image by default)."""
    thumbnail = {"type": 11, "media": {"url": "https://example.com/card.png"}}
    return {"type": 9, "components": [text(t) for t in texts], "accessory": accessory or thumbnail}


def container(*components: dict[str, Any]) -> dict[str, Any]:
    """A container (Components V2)."""
    return {"type": 17, "components": list(components)}


def embed(**fields: Any) -> dict[str, Any]:
    """A message with one embed."""
    return {"embeds": [fields]}


def field(name: str = "n", value: str = "v") -> dict[str, str]:
    """An embed field."""
    return {"name": name, "value": value}


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
        {"components": [row({**button("b"), "label": "l" * 81})]},
        50035,
        "components.0.components.0.label",
        id="button label over 80",
    ),
    pytest.param(
        {"components": [row(select(2), button("b"))]},
        50035,
        "components.0.components",
        id="select sharing a row",
    ),
    pytest.param({"components": [row()]}, 50035, "components.0.components", id="empty row"),
    pytest.param({"components": [button("b")]}, 50035, "components.0.type", id="top level not a row"),
    pytest.param(
        {"components": [row(select(26))]}, 50035, "components.0.components.0.options", id="26 options"
    ),
    pytest.param(
        {"components": [row(select(0))]}, 50035, "components.0.components.0.options", id="0 options"
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
    pytest.param(
        {"components": [row({**button("b"), "custom_id": ""})]},
        50035,
        "components.0.components.0.custom_id",
        id="empty custom_id",
    ),
    pytest.param(
        {"flags": 1 << 15, "components": [{"type": 10, "content": f"t{i}"} for i in range(41)]},
        50035,
        "components",
        id="41 components v2",
    ),
    pytest.param(
        {"flags": V2, "components": [container(*(text(f"t{i}") for i in range(40)))]},
        50035,
        "components",
        id="41 components v2 nested",
    ),
    pytest.param(
        {"flags": V2, "content": "hi", "components": [text("t")]}, 50035, "content", id="content with v2"
    ),
    pytest.param(
        {"flags": V2, "embeds": [{"title": "t"}], "components": [text("t")]},
        50035,
        "embeds",
        id="embeds with v2",
    ),
    pytest.param(
        {"flags": V2, "components": [text("a" * 2000), container(text("b" * 2001))]},
        50035,
        "components",
        id="v2 text over 4000",
    ),
    pytest.param(
        {"flags": V2, "components": [section("a", "b", "c", "d")]},
        50035,
        "components.0.components",
        id="section with 4 texts",
    ),
    pytest.param(
        {"flags": V2, "components": [{"type": 9, "components": [text("a")]}]},
        50035,
        "components.0.accessory",
        id="section without accessory",
    ),
    pytest.param(
        {
            "flags": V2,
            "components": [section("a", accessory={"type": 11, "media": {"url": "ftp://x/y.png"}})],
        },
        50035,
        "components.0.accessory.media.url",
        id="thumbnail not http",
    ),
    pytest.param(
        {"flags": V2, "components": [{"type": 12, "items": [{"media": {"url": "javascript:alert(1)"}}]}]},
        50035,
        "components.0.items.0.media.url",
        id="gallery item not http",
    ),
    pytest.param(
        {"components": [container(text("t"))]}, 50035, "components.0.type", id="v2 types without flag"
    ),
    pytest.param(
        {"flags": V2, "components": [container(row(select(2), button("b")))]},
        50035,
        "components.0.components.0.components",
        id="select sharing a row in a container",
    ),
    pytest.param(
        {"components": [row({**button("b"), "emoji": {"id": "123456789012345678", "name": "gone"}})]},
        50035,
        "components.0.components.0.emoji.name",
        id="unknown custom emoji on a button",
    ),
    pytest.param(
        {
            "components": [
                row(
                    {
                        **select(1),
                        "options": [{"label": "l", "value": "v", "emoji": {"id": "1234", "name": "x"}}],
                    }
                )
            ]
        },
        50035,
        "components.0.components.0.options.0.emoji.name",
        id="unknown custom emoji on an option",
    ),
    pytest.param({"embeds": [{"title": str(i)} for i in range(11)]}, 50035, "embeds", id="11 embeds"),
    pytest.param(
        {"embeds": [{"description": "d" * 1600} for _ in range(4)]}, 50035, "embeds", id="embeds over 6000"
    ),
    pytest.param(embed(title="t" * 257), 50035, "embeds.0.title", id="embed title over 256"),
    pytest.param(embed(description="d" * 4097), 50035, "embeds.0.description", id="description over 4096"),
    pytest.param(embed(footer={"text": "f" * 2049}), 50035, "embeds.0.footer.text", id="footer over 2048"),
    pytest.param(embed(author={"name": "a" * 257}), 50035, "embeds.0.author.name", id="author over 256"),
    pytest.param(embed(fields=[field()] * 26), 50035, "embeds.0.fields", id="26 fields"),
    pytest.param(embed(fields=[field(name="n" * 257)]), 50035, "embeds.0.fields.0.name", id="field name"),
    pytest.param(embed(fields=[field(value="v" * 1025)]), 50035, "embeds.0.fields.0.value", id="field value"),
    pytest.param({"content": "", "components": []}, 50006, "", id="empty message"),
    # Checked against Discord's OpenAPI spec (bot/localdiscord/contract.py).
    pytest.param({"content": 5}, 50035, "content", id="content not a string"),
    pytest.param(
        {"components": [row({**select(1), "options": [{"label": "l" * 101, "value": "v"}]})]},
        50035,
        "components.0.components.0.options.0.label",
        id="option label over 100",
    ),
    pytest.param(
        {"components": [row({**select(1), "options": [{"label": "l", "value": "v" * 101}]})]},
        50035,
        "components.0.components.0.options.0.value",
        id="option value over 100",
    ),
    pytest.param(
        {"components": [row(select(2, placeholder="p" * 151))]},
        50035,
        "components.0.components.0.placeholder",
        id="placeholder over 150",
    ),
    pytest.param(
        {"components": [row(select(2, max_values=26))]},
        50035,
        "components.0.components.0.max_values",
        id="max_values over 25",
    ),
    pytest.param(
        {"components": [row({**button("b"), "emoji": {"name": "e" * 33}})]},
        50035,
        "components.0.components.0.emoji.name",
        id="emoji name over 32",
    ),
    pytest.param(
        {"components": [row({"type": 2, "label": "b", "custom_id": "b"})]},
        50035,
        "components.0.components.0.style",
        id="button without style",
    ),
    pytest.param(embed(color=16777216), 50035, "embeds.0.color", id="embed color over 16777215"),
    pytest.param(
        embed(url="https://example.com/" + "u" * 2029), 50035, "embeds.0.url", id="embed url over 2048"
    ),
    pytest.param(embed(fields=[{"name": "n"}]), 50035, "embeds.0.fields.0.value", id="field without value"),
    pytest.param(
        {"content": "hi", "allowed_mentions": {"users": [str(i) for i in range(1, 102)]}},
        50035,
        "allowed_mentions.users",
        id="101 mentioned users",
    ),
    pytest.param(
        {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        50035,
        "allowed_mentions",
        id="parse users with users",
    ),
]

Send = Callable[[dict[str, Any]], Awaitable[Any]]


async def pending_click(env: LocalDiscord) -> InteractionRecord:
    """alice clicks a button on a bot message that no view of the demo bot listens to, so the
    interaction waits for the test's own callback."""
    state = env.stand_in.state
    body = {"content": "raw", "components": [row(button("raw:press"))]}
    message = state.create_message(env.channel("uno"), state.bot, body)
    return await env.stand_in.click(env.user("alice"), message, "raw:press")


def request(env: LocalDiscord, method: str, path: str, **params: Any) -> Callable[..., Awaitable[Any]]:
    """Send the request ``method path`` (with ``params`` filled in) through discord.py's HTTP
    client; the returned function takes the ``json`` body and other ``request`` arguments."""
    route = Route(method, path, **params)
    return lambda payload=None, **kwargs: env.client.http.request(route, json=payload, **kwargs)


def webhook(
    env: LocalDiscord, run: InteractionRecord, method: str, tail: str = ""
) -> Callable[..., Awaitable[Any]]:
    """A request on the interaction's webhook (``/webhooks/{app}/{token}`` + ``tail``)."""
    path = "/webhooks/{app}/{token}" + tail
    return request(env, method, path, app=env.stand_in.application_id, token=run.token)


async def acknowledged(env: LocalDiscord) -> InteractionRecord:
    """A pending click answered by the test with a message (callback type 4)."""
    run = await pending_click(env)
    callback = request(env, "POST", "/interactions/{i}/{token}/callback", i=run.id, token=run.token)
    await callback({"type": 4, "data": {"content": "ok"}})
    return run


async def channel_send(env: LocalDiscord) -> tuple[Send, str]:
    """``POST /channels/{c}/messages``."""
    return request(env, "POST", "/channels/{channel_id}/messages", channel_id=env.channel("uno").id), ""


async def channel_edit(env: LocalDiscord) -> tuple[Send, str]:
    """``PATCH /channels/{c}/messages/{id}`` of a bot message."""
    state, uno = env.stand_in.state, env.channel("uno")
    message = state.create_message(uno, state.bot, {"content": "before"})
    path = "/channels/{channel_id}/messages/{message_id}"
    return request(env, "PATCH", path, channel_id=uno.id, message_id=message.id), ""


def callback_of(kind: int) -> Callable[[LocalDiscord], Awaitable[tuple[Send, str]]]:
    """The interaction callback of this type, its message in ``data``."""

    async def route(env: LocalDiscord) -> tuple[Send, str]:
        run = await pending_click(env)
        callback = request(env, "POST", "/interactions/{i}/{token}/callback", i=run.id, token=run.token)
        return (lambda payload: callback({"type": kind, "data": payload})), "data."

    return route


async def followup(env: LocalDiscord) -> tuple[Send, str]:
    """``POST /webhooks/{app}/{token}?wait=true``."""
    send = webhook(env, await acknowledged(env), "POST")
    return (lambda payload: send(payload, params={"wait": "true"})), ""


async def edit_original(env: LocalDiscord) -> tuple[Send, str]:
    """``PATCH /webhooks/{app}/{token}/messages/@original``."""
    return webhook(env, await acknowledged(env), "PATCH", "/messages/@original"), ""


async def edit_followup(env: LocalDiscord) -> tuple[Send, str]:
    """``PATCH /webhooks/{app}/{token}/messages/{id}`` of a followup."""
    run = await acknowledged(env)
    sent = await webhook(env, run, "POST")({"content": "later"}, params={"wait": "true"})
    return webhook(env, run, "PATCH", f"/messages/{sent['id']}"), ""


ROUTES = [
    pytest.param(channel_send, id="channel send"),
    pytest.param(channel_edit, id="channel edit"),
    pytest.param(callback_of(4), id="callback 4"),
    pytest.param(callback_of(7), id="callback 7"),
    pytest.param(followup, id="followup"),
    pytest.param(edit_original, id="edit original"),
    pytest.param(edit_followup, id="edit followup"),
]


@pytest.fixture
def frozen() -> LocalDiscord:
    """The demo bot on a stand-in whose clock stands still (no 3 s deadline passes while a slow
    machine runs the test)."""
    return LocalDiscord(DemoBot, clock=Clock(frozen=True))


def stored(env: LocalDiscord) -> list[tuple[int, int, bool]]:
    """Every message's id, revision and deleted flag."""
    return [(m.id, m.revision, m.deleted) for m in env.stand_in.state.messages.values()]


@pytest.mark.parametrize(("payload", "code", "where"), SHAPES)
@pytest.mark.parametrize("route", ROUTES)
async def test_message_shape_limit(
    frozen: LocalDiscord,
    route: Callable[[LocalDiscord], Awaitable[tuple[Send, str]]],
    payload: dict[str, Any],
    code: int,
    where: str,
) -> None:
    """Every route that creates or edits a message refuses a body over a limit with Discord's
    code and error path (``data.`` inside a callback), and stores and changes nothing."""
    env = frozen
    send, prefix = await route(env)
    before, interactions = stored(env), [i.response_type for i in env.stand_in.interactions]
    env.expect_error(code)
    with pytest.raises(discord.HTTPException) as raised:
        await send(payload)
    assert raised.value.status == 400 and raised.value.code == code
    if where:
        assert f"In {prefix}{where}:" in raised.value.text
    assert stored(env) == before
    assert [i.response_type for i in env.stand_in.interactions] == interactions  # no callback counted


MODALS = [
    pytest.param({"title": "t" * 46}, "title", id="title over 45"),
    pytest.param({"title": ""}, "title", id="empty title"),
    pytest.param({"custom_id": "m" * 101}, "custom_id", id="custom_id over 100"),
    pytest.param({"components": []}, "components", id="no rows"),
    pytest.param(
        {"components": [row({"type": 4, "custom_id": f"t{i}", "label": "L", "style": 1}) for i in range(6)]},
        "components",
        id="6 rows",
    ),
]


@pytest.mark.parametrize(("change", "where"), MODALS)
async def test_modal_limit(frozen: LocalDiscord, change: dict[str, Any], where: str) -> None:
    """A modal (callback type 9) with a bad title, custom_id or row count gets 50035, and the
    interaction stays unanswered; the same modal within limits is accepted."""
    env = frozen
    run = await pending_click(env)
    callback = request(env, "POST", "/interactions/{i}/{token}/callback", i=run.id, token=run.token)
    modal = {
        "custom_id": "modal",
        "title": "Name?",
        "components": [row({"type": 4, "custom_id": "name", "label": "Name", "style": 1})],
    }
    env.expect_error(50035)
    with pytest.raises(discord.HTTPException) as raised:
        await callback({"type": 9, "data": {**modal, **change}})
    assert raised.value.code == 50035 and f"In data.{where}:" in raised.value.text
    assert not run.acknowledged()
    await callback({"type": 9, "data": modal})
    assert run.response_type == 9 and run.modal == modal


async def test_embeds_over_6000_through_channel_send(env: LocalDiscord) -> None:
    """Embeds totalling over 6,000 characters fail through discord.py's own send()."""
    env.expect_error(50035)
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    embeds = [discord.Embed(title="t", description="d" * 2000) for _ in range(4)]
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send(embeds=embeds)
    assert raised.value.code == 50035 and "Embed size exceeds maximum size of 6000" in raised.value.text


@pytest.mark.parametrize(("kind", "has_message"), [(4, True), (5, False), (6, False), (7, True)])
async def test_callback_response_carries_a_message_only_when_one_is_shown(
    env: LocalDiscord, kind: int, has_message: bool
) -> None:
    """``with_response`` gets the message for types 4 and 7 only, as Discord's callback resource
    (a deferral has nothing to show yet), and the response's id names the message either way."""
    run = await pending_click(env)
    route = Route("POST", "/interactions/{i}/{token}/callback", i=run.id, token=run.token)
    data = {"content": "ok"} if kind in (4, 7) else {}
    body = await env.client.http.request(
        route, json={"type": kind, "data": data}, params={"with_response": 1}
    )
    assert body["resource"]["type"] == kind
    assert ("message" in body["resource"]) is has_message
    assert body["interaction"]["response_message_id"]


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


TOKEN_ROUTES = [
    pytest.param("POST", "", id="followup"),
    pytest.param("GET", "/messages/@original", id="get original"),
    pytest.param("PATCH", "/messages/@original", id="edit original"),
    pytest.param("DELETE", "/messages/@original", id="delete original"),
]


@pytest.mark.parametrize(("method", "tail"), TOKEN_ROUTES)
async def test_token_expires_after_15_minutes(frozen: LocalDiscord, method: str, tail: str) -> None:
    """The interaction's webhook routes work until 15 minutes after the interaction, then answer
    401 50027 Invalid Webhook Token."""
    env = frozen
    run = await acknowledged(env)
    send = webhook(env, run, method, tail)
    body = {"content": "edited"} if method in ("POST", "PATCH") else None
    env.stand_in.clock.advance(15 * 60 - 1)
    await webhook(env, run, "GET", "/messages/@original")()  # still valid
    env.stand_in.clock.advance(2)
    env.expect_error(50027)
    with pytest.raises(discord.HTTPException) as raised:
        await send(body)
    assert raised.value.status == 401 and raised.value.code == 50027
    assert run.original is not None and run.original.content == "ok" and not run.original.deleted
    assert run.followups == []


async def test_editing_another_users_message(env: LocalDiscord) -> None:
    """PATCH /channels/{c}/messages/{id} of a user's message answers 403 50005."""
    uno = env.channel("uno")
    said = await env.stand_in.say(env.user("alice"), uno, "mine")
    env.expect_error(50005)
    channel = env.client.get_channel(uno.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as raised:
        await channel.get_partial_message(said.id).edit(content="yours")
    assert (
        raised.value.code == 50005 and "Cannot edit a message authored by another user" in raised.value.text
    )
    assert said.content == "mine"


@pytest.mark.parametrize("where", ["dm", "guild without manage messages"])
async def test_deleting_another_users_message(env: LocalDiscord, where: str) -> None:
    """DELETE of a user's message without Manage Messages (always so in a DM) answers 403 50013."""
    stand_in, alice = env.stand_in, env.user("alice")
    if where == "dm":
        channel = stand_in.dm_channel(alice)
    else:
        channel = env.channel("uno")
        for role in stand_in.state.roles.values():
            role.permissions &= ~PERMISSIONS["manage_messages"]
    said = await stand_in.say(alice, channel, "mine")
    env.expect_error(50013)
    path = "/channels/{channel_id}/messages/{message_id}"
    with pytest.raises(discord.Forbidden) as raised:
        await request(env, "DELETE", path, channel_id=channel.id, message_id=said.id)()
    assert raised.value.code == 50013 and "Missing Permissions" in raised.value.text
    assert not said.deleted


def slash(name: str = "demo", **fields: Any) -> dict[str, Any]:
    """A slash command payload."""
    return {"name": name, "type": 1, "description": "A command", **fields}


COMMANDS = [
    pytest.param([slash("c" * 33)], "0.name", id="name over 32"),
    pytest.param([slash(description="d" * 101)], "0.description", id="description over 100"),
    pytest.param([{"name": "demo", "type": 1}], "0.description", id="slash without description"),
    pytest.param([slash(), slash("Upper")], "1.name", id="upper-case slash name"),
    pytest.param(
        [slash(options=[{"type": 3, "name": "o" * 33, "description": "d"}])],
        "0.options.0.name",
        id="option name over 32",
    ),
    pytest.param(
        [slash(name_localizations={"fr": "Nouvelle"})],
        "0.name_localizations.fr",
        id="upper-case localized name",
    ),
    pytest.param(
        [slash(name_localizations={"fr": "une partie"})],
        "0.name_localizations.fr",
        id="localized name with a space",
    ),
    pytest.param([slash(name_localizations={"xx": "demo"})], "0.name_localizations.xx", id="unknown locale"),
    pytest.param(
        [slash(description_localizations={"pt-BR": "d" * 101})],
        "0.description_localizations.pt-BR",
        id="localized description over 100",
    ),
    pytest.param(
        [
            slash(
                options=[
                    {"type": 3, "name": "o", "description": "d", "name_localizations": {"es-ES": "ó" * 33}}
                ]
            )
        ],
        "0.options.0.name_localizations.es-ES",
        id="localized option name over 32",
    ),
]


@pytest.mark.parametrize(("commands", "where"), COMMANDS)
async def test_command_limit(env: LocalDiscord, commands: list[dict[str, Any]], where: str) -> None:
    """A bulk overwrite of guild commands breaking a limit gets 50035 naming the field, and the
    stored commands do not change."""
    before = env.stand_in.commands()
    path = "/applications/{app}/guilds/{guild}/commands"
    put = request(env, "PUT", path, app=env.stand_in.application_id, guild=env.stand_in.guild_id)
    env.expect_error(50035)
    with pytest.raises(discord.HTTPException) as raised:
        await put(commands)
    assert raised.value.status == 400 and raised.value.code == 50035
    assert f"In {where}:" in raised.value.text
    assert env.stand_in.commands() == before
