"""The stand-in on its own: routes without a bot, the harness's strictness, the command-line
parser and the browser page's endpoints."""

from __future__ import annotations

import asyncio
import io
from typing import Any, cast

import aiohttp
import discord
import pytest

from bot.localdiscord import CommandUsageError, parse_command_line, point_discord_py_at, start_stand_in
from bot.localdiscord.interactions import start
from bot.localdiscord.limits import ATTACHMENT_SIZE_LIMIT
from bot.localdiscord.records import WAIT_SECONDS
from bot.localdiscord.testing import LocalDiscord, png

from .demo_bot import DemoBot


def test_parse_command_line() -> None:
    """Command words come first, then name:value options; a value runs to the next option, as
    in Discord's client (quotes keep spaces too)."""
    assert parse_command_line('/uno new variant:flip "name:Big table"') == (
        ["uno", "new"],
        {"variant": "flip", "name": "Big table"},
    )
    assert parse_command_line("/uno rules card:wild draw four variant:classic") == (
        ["uno", "rules"],
        {"card": "wild draw four", "variant": "classic"},
    )
    with pytest.raises(CommandUsageError):
        parse_command_line('/uno new "variant:flip')


def test_repeated_option_is_refused() -> None:
    """An option typed twice is refused, naming it (not silently the last one)."""
    with pytest.raises(CommandUsageError, match=r"^option variant is given twice; give it once$"):
        parse_command_line("/uno new variant:flip variant:classic")


async def test_option_typed_and_given_by_keyword_is_refused(env: LocalDiscord) -> None:
    """`StandIn.slash` refuses an option both in the line and as a keyword argument."""
    with pytest.raises(CommandUsageError, match=r"given twice .*: count"):
        await env.stand_in.slash(env.user("alice"), env.channel("uno"), "demo echo text:x count:1", count=2)


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("true", True),
        ("FALSE", False),
        ("Yes", True),
        ("no", False),
        ("ON", True),
        ("off", False),
        ("1", True),
        ("0", False),
    ],
)
async def test_boolean_option_spellings(env: LocalDiscord, typed: str, value: bool) -> None:
    """A boolean option takes true/false, yes/no, on/off, 1/0 in any case; the bot gets a bool."""
    run = await env.stand_in.slash(
        env.user("alice"), env.channel("uno"), f"demo echo text:hi count:1 loud:{typed}"
    )
    answer = (await run.response()).message
    assert answer is not None and answer.content == ("HI" if value else "hi")
    assert cast(DemoBot, env.client).echoes[-1]["loud"] is value


@pytest.mark.parametrize("typed", ["ture", "maybe", "2", "", "y"])
async def test_boolean_option_refuses_other_values(env: LocalDiscord, typed: str) -> None:
    """Anything else is refused with the option's name and the accepted values, and no
    interaction starts."""
    line = f"demo echo text:hi count:1 loud:{typed}"
    expected = f"option loud: '{typed}' is not a boolean; use true or false (also yes/no, on/off, 1/0)"
    with pytest.raises(CommandUsageError) as raised:
        await env.stand_in.slash(env.user("alice"), env.channel("uno"), line)
    assert str(raised.value) == expected
    assert env.stand_in.interactions == []


async def test_usage_messages_list_names_readably(env: LocalDiscord) -> None:
    """A command without its subcommand, a missing option and a wrong choice name what is
    expected as a plain list, not a Python one."""
    stand_in, alice, uno = env.stand_in, env.user("alice"), env.channel("uno")
    with pytest.raises(CommandUsageError) as raised:
        await stand_in.slash(alice, uno, "/demo")
    subcommands = [o["name"] for o in stand_in.commands()[0]["options"]]
    assert str(raised.value) == "/demo needs a subcommand: " + ", ".join(subcommands)
    with pytest.raises(CommandUsageError) as raised:
        await stand_in.slash(alice, uno, "demo echo")
    assert str(raised.value) == "/demo echo is missing required options: text, count"
    with pytest.raises(CommandUsageError) as raised:
        await stand_in.slash(alice, uno, "demo echo text:x count:1 variant:other")
    assert str(raised.value) == "option variant: 'other' is not one of classic, flip"


async def test_unknown_route_and_bad_token() -> None:
    """Unknown routes answer Discord's 404 JSON and are recorded; a wrong token cannot log in."""
    stand_in = await start_stand_in(users=["alice"])
    restore = point_discord_py_at(stand_in.base_url)
    try:
        async with aiohttp.ClientSession() as session:
            headers = {"Authorization": f"Bot {stand_in.token}"}
            async with session.get(f"{stand_in.api_url}/nope/1", headers=headers) as response:
                assert response.status == 404 and response.content_type == "application/json"
                assert await response.json() == {"code": 0, "message": "404: Not Found"}
            async with session.get(f"{stand_in.api_url}/gateway") as response:
                assert (await response.json())["url"] == stand_in.gateway_url
        assert [r.path for r in stand_in.unknown_routes] == ["/nope/1"]
        client = discord.Client(intents=discord.Intents.default())
        with pytest.raises(discord.LoginFailure):
            await client.login("wrong")
        await client.close()
        assert stand_in.errors[-1].status == 401
    finally:
        restore()
        await stand_in.close()


async def test_harness_fails_on_unexpected_error() -> None:
    """An unexpected Discord error fails the test at the next wait, and again at exit."""
    env = LocalDiscord(DemoBot)
    with pytest.raises(AssertionError, match="50035"):
        async with env:
            channel = env.client.get_channel(env.channel("uno").id)
            assert isinstance(channel, discord.TextChannel)
            with pytest.raises(discord.HTTPException):
                await channel.send("x" * 2001)
            with pytest.raises(AssertionError, match="Discord error 50035"):
                await env.stand_in.wait_until(lambda: False)


async def test_harness_fails_on_error_log() -> None:
    """An ERROR record from a discord logger fails the test unless announced."""
    env = LocalDiscord(DemoBot)
    with pytest.raises(AssertionError, match=r"ERROR logged by discord\.app_commands\.tree"):
        async with env:
            await env.stand_in.slash(env.user("alice"), env.channel("uno"), "demo boom")
            await env.stand_in.wait_until(lambda: False)


async def test_announced_error_log_passes(env: LocalDiscord) -> None:
    """An announced ERROR record is allowed; the interaction stays unanswered."""
    env.expect_log("RuntimeError: boom")
    run = await env.stand_in.slash(env.user("alice"), env.channel("uno"), "demo boom")
    await env.stand_in.wait_until(lambda: not env.unmet_expectations())
    assert not run.acknowledged()


async def test_requests_counted_per_channel(env: LocalDiscord) -> None:
    """Channel and interaction requests are counted per channel."""
    stand_in, uno = env.stand_in, env.channel("uno")
    channel = env.client.get_channel(uno.id)
    assert isinstance(channel, discord.TextChannel)
    for n in range(3):
        await channel.send(f"message {n}")
    await (await stand_in.slash(env.user("alice"), uno, "demo secret")).response()
    assert stand_in.requests_per_channel[uno.id] == 4
    assert [m.content for m in stand_in.messages(uno)] == ["message 0", "message 1", "message 2"]


async def test_files_become_attachments(env: LocalDiscord) -> None:
    """A multipart upload (payload_json + file) is stored as an attachment with name and size."""
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("scores", file=discord.File(io.BytesIO(b"alice 3"), "scores.txt"))
    [stored] = env.stand_in.messages(env.channel("uno"))
    assert [(a["filename"], a["size"]) for a in stored.attachments] == [("scores.txt", 7)]
    assert [a.filename for a in sent.attachments] == ["scores.txt"]


async def test_uploads_are_served_and_shown_on_the_page(env: LocalDiscord) -> None:
    """An uploaded file is kept and served at its attachment's URL, as Discord's CDN serves it;
    a Components V2 gallery's ``attachment://`` picture becomes that URL; the page lists the
    files nothing shows (a picture to show inline). More than 10 files, or one over the upload
    limit, is refused as Discord refuses it, and nothing is posted."""
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    image = png(40, 30)
    gallery = discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://chart.png"))
    view = discord.ui.LayoutView().add_item(discord.ui.Container(gallery))
    files = [discord.File(io.BytesIO(image), "chart.png"), discord.File(io.BytesIO(b"alice 3"), "scores.txt")]
    sent = await channel.send(view=view, files=files)
    [stored] = env.stand_in.messages(env.channel("uno"))
    chart, scores = stored.attachments
    assert chart["content_type"] == "image/png" and chart["url"].startswith(
        env.stand_in.base_url + "/attachments/"
    )
    assert await sent.attachments[0].read() == image and await sent.attachments[1].read() == b"alice 3"
    shown = next(c for c in stored.all_components() if c["type"] == 12)["items"][0]["media"]["url"]
    assert shown == chart["url"]
    page = env.stand_in.ui.snapshot(env.user("alice"), env.channel("uno"))
    [message] = [m for m in page["messages"] if m["id"] == str(stored.id)]
    assert message["attachments"] == [{"url": scores["url"], "filename": "scores.txt", "image": False}]
    async with aiohttp.ClientSession() as session, session.get(chart["url"] + "x") as wrong:
        assert wrong.status == 404

    env.expect_error(50035)
    with pytest.raises(discord.HTTPException) as many:
        await channel.send("too many", files=[discord.File(io.BytesIO(b"x"), f"{n}.txt") for n in range(11)])
    assert many.value.code == 50035 and "Must be 10 or fewer in length" in many.value.text
    env.expect_error(40005)
    big = discord.File(io.BytesIO(b"x" * (ATTACHMENT_SIZE_LIMIT + 1)), "big.bin")
    with pytest.raises(discord.HTTPException) as large:
        await channel.send("too large", file=big)
    assert large.value.status == 413 and large.value.code == 40005
    assert env.stand_in.messages(env.channel("uno")) == [stored]


async def test_browser_page_endpoints(env: LocalDiscord) -> None:
    """The page is served; /ui endpoints run commands and clicks (a refused click reads as
    Discord's client shows it); /ui/ws announces changes, and once as it opens."""
    stand_in, uno = env.stand_in, env.channel("uno")
    alice, bob = env.user("alice"), env.user("bob")
    base = stand_in.base_url
    async with aiohttp.ClientSession() as session:
        async with session.get(base + "/") as page:
            assert page.status == 200 and "<title>Local Discord</title>" in await page.text()
        async with session.get(base + "/ui/words") as words:  # the page's own words, by language
            by_language = await words.json()
        assert sorted(by_language) == ["es", "fr", "pt"]
        assert all(set(w) == set(by_language["fr"]) for w in by_language.values())
        async with session.ws_connect(base + "/ui/ws") as ws:
            # At once: what changed since the page read the state and before it listened.
            assert (await ws.receive_json(timeout=WAIT_SECONDS)) == {"type": "changed"}
            body = {"user": str(alice.id), "channel": str(uno.id), "text": "/demo start"}
            async with session.post(base + "/ui/command", json=body) as response:
                assert "interaction" in await response.json()
            assert (await ws.receive_json(timeout=WAIT_SECONDS)) == {"type": "changed"}
        panel = await stand_in.wait_for_message(uno, lambda m: bool(m.buttons))
        click = {"user": str(bob.id), "message": str(panel.id), "custom_id": "demo:join"}
        async with session.post(base + "/ui/click", json=click) as response:
            assert response.status == 200
        await stand_in.wait_until(lambda: panel.content == "Players: bob")
        gone = {**click, "custom_id": "demo:gone"}  # a button the message no longer has
        async with session.post(base + "/ui/click", json=gone) as response:
            answer = await response.json()
        assert response.status == 400 and answer["error"] == "This interaction failed"
        assert "has no component 'demo:gone'" in answer["detail"]
        query = {"user": str(bob.id), "channel": str(uno.id)}
        async with session.get(base + "/ui/state", params=query) as response:
            view = await response.json()
        assert [m["id"] for m in view["messages"]] == [str(panel.id)]
        assert [m["content"] for m in view["side"]] == ["You joined, bob."]
        assert any(c["path"] == "demo echo" for c in view["commands"])
        bad = {"user": str(bob.id), "channel": str(uno.id), "text": "/demo nothing"}
        async with session.post(base + "/ui/command", json=bad) as response:
            assert response.status == 400 and "nothing" in (await response.json())["error"]
        async with session.post(base + "/ui/users", json={"name": "carol"}) as response:
            assert (await response.json())["name"] == "carol"
        bad["text"] = "/demo echo text:x count:1 loud:ture"
        async with session.post(base + "/ui/command", json=bad) as response:
            error = (await response.json())["error"]
            assert response.status == 400 and error.startswith("option loud: 'ture' is not a boolean")
    assert stand_in.user("carol") in stand_in.users


async def test_a_page_closing_while_notified_is_dropped_quietly(env: LocalDiscord) -> None:
    """A page whose connection resets as the stand-in announces a change (a tab closed at that
    moment) is skipped: the announcement ends without an error left in a task."""

    class Closing:
        closed = False

        async def send_str(self, text: str) -> None:
            raise ConnectionResetError("Cannot write to closing transport")

        async def close(self) -> None:
            self.closed = True

    ui = env.stand_in.ui
    ui.sockets.add(cast(Any, Closing()))
    ui._push()
    sends = list(ui._sends)
    assert sends
    await asyncio.gather(*sends)  # raises if a send's error escaped


@pytest.mark.parametrize("name", ["carol", "Alice", " BOB ", "uno bot"])
async def test_page_refuses_a_taken_name(env: LocalDiscord, name: str) -> None:
    """The page's Add user refuses a name already in use (any case, the bot's too)."""
    stand_in = env.stand_in
    stand_in.add_user("carol")
    before = len(stand_in.users)
    async with (
        aiohttp.ClientSession() as session,
        session.post(stand_in.base_url + "/ui/users", json={"name": name}) as response,
    ):
        assert response.status == 400
        error = (await response.json())["error"]
    assert error.startswith(f"the name {name.strip()!r} is taken") and "pick another" in error
    assert len(stand_in.users) == before


async def test_page_refuses_a_name_longer_than_discord_allows(env: LocalDiscord) -> None:
    """Add user takes a 32-character name (Discord's limit for a display name), not 33."""
    stand_in = env.stand_in
    before = len(stand_in.users)
    async with aiohttp.ClientSession() as session:
        async with session.post(stand_in.base_url + "/ui/users", json={"name": "x" * 33}) as response:
            assert response.status == 400
            assert "at most 32 characters" in (await response.json())["error"]
        assert len(stand_in.users) == before
        async with session.post(stand_in.base_url + "/ui/users", json={"name": "y" * 32}) as response:
            assert response.status == 200
    assert len(stand_in.users) == before + 1


async def test_each_user_has_a_locale_their_interactions_carry(env: LocalDiscord) -> None:
    """Add user takes a Discord locale (refusing any other), the picker changes it, and it is
    each interaction's ``locale``; the server's is ``guild_locale``."""
    stand_in = env.stand_in
    stand_in.state.guild_locale = "es-ES"
    async with aiohttp.ClientSession() as session:
        async with session.post(
            stand_in.base_url + "/ui/users", json={"name": "zoé", "locale": "fr"}
        ) as response:
            assert (await response.json())["locale"] == "fr"
        async with session.post(
            stand_in.base_url + "/ui/users", json={"name": "iker", "locale": "xx"}
        ) as response:
            assert response.status == 400 and "none of Discord's locales" in (await response.json())["error"]
        zoe = stand_in.user("zoé")
        view = await (await session.get(stand_in.base_url + "/ui/state", params={"user": str(zoe.id)})).json()
        assert {"id": str(zoe.id), "name": "zoé", "bot": False, "locale": "fr"} in view["users"]
        assert "pt-BR" in view["locales"]
        async with session.post(
            stand_in.base_url + "/ui/locale", json={"user": str(zoe.id), "locale": "pt-BR"}
        ):
            pass
    assert zoe.locale == "pt-BR"
    channel = stand_in.channels[0]
    record = start(stand_in.state, zoe, channel, 3, {"custom_id": "x", "component_type": 2})
    assert (record.payload["locale"], record.payload["guild_locale"]) == ("pt-BR", "es-ES")


async def test_the_page_chooses_among_several_guilds(env: LocalDiscord) -> None:
    """With several guilds (a bot's shards), the page lists them all; a guild's view has its own
    channels and the commands usable there (/demo is synced to the first guild only); ``?guild=``
    opens its first channel, and a channel brings its guild with it."""
    stand_in = env.stand_in
    second = stand_in.add_guild("Second", channels=("lounge", "games"))
    lounge = stand_in.channel("lounge")
    url = stand_in.base_url + "/ui/state"
    async with aiohttp.ClientSession() as session:
        first = await (await session.get(url)).json()
        chosen = await (await session.get(url, params={"guild": str(second.id)})).json()
        by_channel = await (await session.get(url, params={"channel": str(lounge.id)})).json()
    guilds = [{"id": str(g.id), "name": g.name} for g in stand_in.guilds]
    assert len(guilds) == 2 and first["guilds"] == chosen["guilds"] == guilds
    assert (first["guild_id"], [c["name"] for c in first["channels"]]) == (guilds[0]["id"], ["uno"])
    assert any(c["path"].startswith("demo ") for c in first["commands"])
    assert (chosen["guild"], chosen["guild_id"], chosen["channel"]) == (
        "Second",
        str(second.id),
        str(lounge.id),
    )
    assert [c["name"] for c in chosen["channels"]] == ["lounge", "games"]
    assert chosen["commands"] == []
    assert (by_channel["guild_id"], by_channel["channel"]) == (str(second.id), str(lounge.id))
