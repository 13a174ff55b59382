"""Application emojis and Components V2 messages through a real discord.py client: the emoji
routes with Discord's limits and the CDN image route, and ``discord.ui.LayoutView`` messages
(containers, sections, thumbnails, galleries, action rows) sent, read back, and clicked."""

from __future__ import annotations

import base64
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.http import Route

from bot.localdiscord import StandIn
from bot.localdiscord.limits import FLAG_COMPONENTS_V2, MAX_APP_EMOJIS, MAX_EMOJI_BYTES
from bot.localdiscord.testing import LocalDiscord, png

from .demo_bot import DemoBot

RED = 0xE53935


class Card(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"v2:card:(?P<rank>\d+)"):
    """A card button whose rank lives in its custom id (found again after a restart)."""

    def __init__(self, rank: int, emoji: discord.Emoji | discord.PartialEmoji | None = None) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=f"Card {rank}", custom_id=f"v2:card:{rank}", emoji=emoji, style=discord.ButtonStyle.primary
        )
        super().__init__(button)
        self.rank = rank

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: Any
    ) -> Card:
        """The card of the clicked button."""
        return cls(int(match["rank"]))

    async def callback(self, interaction: discord.Interaction[V2Bot]) -> None:
        """Play the card: the table is redrawn in place (callback type 7)."""
        bot = interaction.client
        bot.played.append(self.rank)
        await interaction.response.edit_message(view=table(bot, f"played {self.rank}"))


class Moves(discord.ui.ActionRow[discord.ui.LayoutView]):
    """A row with a decorated button."""

    @discord.ui.button(label="Draw", custom_id="v2:draw")
    async def draw(self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]) -> None:
        """An ephemeral answer."""
        await interaction.response.send_message("You drew.", ephemeral=True)


def table(bot: V2Bot, note: str) -> discord.ui.LayoutView:
    """The table: a red container with a section (text and the card's thumbnail), a separator,
    a note, a gallery, and rows of buttons (one with the card emoji) and a select."""
    emoji = bot.card
    view = discord.ui.LayoutView(timeout=None)
    card_row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow(Card(5, emoji))
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="v2:pick", options=[discord.SelectOption(label="Red", value="red", emoji=emoji)]
    )
    view.add_item(
        discord.ui.Container(
            discord.ui.Section(
                discord.ui.TextDisplay(f"## Table\nTop card {emoji}"),
                accessory=discord.ui.Thumbnail(emoji.url),
            ),
            discord.ui.Separator(),
            discord.ui.TextDisplay(f"Last move: {note}"),
            discord.ui.MediaGallery(discord.MediaGalleryItem(emoji.url, description="the top card")),
            card_row,
            Moves(),
            discord.ui.ActionRow(select),
            accent_colour=RED,
        )
    )
    return view


class V2Bot(DemoBot):
    """The demo bot with ``/v2`` commands that answer with Components V2 messages."""

    def __init__(self, stand_in: StandIn) -> None:
        super().__init__(stand_in)
        self.played: list[int] = []
        self.card: discord.Emoji

    async def setup_hook(self) -> None:
        """Upload the card emoji, register the dynamic card button, sync /v2."""
        emojis = {e.name: e for e in await self.fetch_application_emojis()}
        self.card = emojis.get("red_5") or await self.create_application_emoji(name="red_5", image=png())
        self.add_dynamic_items(Card)
        group = app_commands.Group(name="v2", description="Components V2")

        @group.command(name="table", description="Show the table")
        async def show(interaction: discord.Interaction[V2Bot]) -> None:
            await interaction.response.send_message(view=table(self, "none"))

        @group.command(name="later", description="Think, then show the table")
        async def later(interaction: discord.Interaction[V2Bot]) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(view=table(self, "thought"))

        @group.command(name="post", description="Post the table through the channel")
        async def post(interaction: discord.Interaction[V2Bot]) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send(view=table(self, "posted"))
            await interaction.response.send_message("Posted.", ephemeral=True)

        self.tree.add_command(group, guild=self.guild)
        await self.tree.sync(guild=self.guild)


@pytest.fixture
def v2() -> LocalDiscord:
    """The V2 bot on a stand-in with alice and bob in #uno."""
    return LocalDiscord(V2Bot)


# ---------------------------------------------------------------------- application emojis


async def test_application_emojis_through_discord_py(env: LocalDiscord) -> None:
    """discord.py creates, lists, fetches, renames and deletes an application emoji; its ``url``
    points at the stand-in, whose CDN route serves the uploaded image."""
    client, image = env.client, png()
    emoji = await client.create_application_emoji(name="red_5", image=image)
    assert emoji.name == "red_5" and not emoji.animated
    assert [(e.id, e.name) for e in await client.fetch_application_emojis()] == [(emoji.id, "red_5")]
    assert emoji.url == f"{env.stand_in.base_url}/emojis/{emoji.id}.png"
    assert await emoji.read() == image
    assert str(emoji) == f"<:red_5:{emoji.id}>" == env.stand_in.state.emojis[emoji.id].mention

    renamed = await emoji.edit(name="red_five")
    assert (await client.fetch_application_emoji(emoji.id)).name == renamed.name == "red_five"
    await client.create_application_emoji(name="blue_5", image=image)
    env.expect_error(50035)
    with pytest.raises(discord.HTTPException) as taken:
        await renamed.edit(name="blue_5")
    assert taken.value.code == 50035 and "In name: Emoji name already taken" in taken.value.text
    assert "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in str(env.stand_in.errors[-1].response)

    await renamed.delete()
    assert [e.name for e in await client.fetch_application_emojis()] == ["blue_5"]
    env.expect_error(10014)
    with pytest.raises(discord.NotFound):
        await client.fetch_application_emoji(emoji.id)
    async with aiohttp.ClientSession() as session, session.get(emoji.url) as gone:
        assert gone.status == 404  # the CDN forgets a deleted emoji


EMOJI_LIMITS = [
    pytest.param({"name": "r"}, 50035, "In name: Must be 2 or more in length", id="name of 1"),
    pytest.param({"name": "r" * 33}, 50035, "In name: Must be 32 or fewer in length", id="name of 33"),
    pytest.param({"name": "red-5"}, 50035, "In name: String value did not match", id="name with a dash"),
    pytest.param({"name": "red 5"}, 50035, "In name: String value did not match", id="name with a space"),
    pytest.param({"name": "red_5"}, 50035, "In name: Emoji name already taken", id="name taken"),
    pytest.param(
        {"image": "data:image/png;base64,aGVsbG8="}, 50035, "In image: Invalid image", id="not a png"
    ),
    pytest.param(
        {"image": "data:image/png;base64,R0lGODlhAQABAA=="},
        50035,
        "In image: Invalid image",
        id="a gif as png",
    ),
    pytest.param({"image": "aGVsbG8="}, 50035, "In image: Invalid image", id="not a data uri"),
    pytest.param({"image": "data:image/jpeg;base64,"}, 50035, "In image: Invalid image", id="empty"),
    pytest.param(
        {"image": "too big"}, 50138, "Failed to resize asset below the maximum size", id="over 256 KiB"
    ),
]


@pytest.mark.parametrize(("change", "code", "says"), EMOJI_LIMITS)
async def test_application_emoji_limits(
    env: LocalDiscord, change: dict[str, str], code: int, says: str
) -> None:
    """A bad name, a taken one, an image that is not what its data URI says, or one over 256 KiB
    is refused with Discord's code, and no emoji is stored."""
    client = env.client
    await client.create_application_emoji(name="red_5", image=png())
    if change.get("image") == "too big":
        big = png(padding=MAX_EMOJI_BYTES)
        change = {"image": "data:image/png;base64," + base64.b64encode(big).decode()}
    body = {"name": "blue_5", "image": "data:image/png;base64," + base64.b64encode(png()).decode(), **change}
    route = Route("POST", "/applications/{a}/emojis", a=env.stand_in.application_id)
    env.expect_error(code)
    with pytest.raises(discord.HTTPException) as raised:
        await client.http.request(route, json=body)
    assert raised.value.status == 400 and raised.value.code == code and says in raised.value.text
    assert [e.name for e in env.stand_in.state.emojis.values()] == ["red_5"]


async def test_two_thousand_emojis_at_most(env: LocalDiscord) -> None:
    """The 2,001st application emoji is refused (30008); a deleted one makes room."""
    state = env.stand_in.state
    image = "data:image/png;base64," + base64.b64encode(png()).decode()
    for number in range(MAX_APP_EMOJIS):
        state.create_emoji(f"card_{number}", image)
    env.expect_error(30008)
    with pytest.raises(discord.HTTPException) as raised:
        await env.client.create_application_emoji(name="one_more", image=png())
    assert raised.value.code == 30008 and len(state.emojis) == MAX_APP_EMOJIS
    await (await env.client.fetch_application_emoji(next(iter(state.emojis)))).delete()
    assert (await env.client.create_application_emoji(name="one_more", image=png())).name == "one_more"


async def test_custom_emojis_in_components_must_exist(env: LocalDiscord) -> None:
    """A button and a select option may show an application emoji; an unknown id is refused with
    Discord's BUTTON_COMPONENT_INVALID_EMOJI at ``emoji.name``."""
    emoji = await env.client.create_application_emoji(name="red_5", image=png())
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Red 5", emoji=emoji, custom_id="c:red5"))
    view.add_item(
        discord.ui.Select(
            custom_id="c:pick", options=[discord.SelectOption(label="Red 5", value="r5", emoji=emoji)]
        )
    )
    sent = await channel.send("Your hand", view=view)
    stored = env.stand_in.state.messages[sent.id]
    assert stored.component("c:red5")["emoji"] == {"id": str(emoji.id), "name": "red_5", "animated": False}

    gone = discord.PartialEmoji(name="gone", id=emoji.id + 1)
    for item in (
        discord.ui.Button(label="Gone", emoji=gone, custom_id="c:gone"),
        discord.ui.Select(custom_id="c:gone", options=[discord.SelectOption(label="Gone", emoji=gone)]),
    ):
        bad = discord.ui.View()
        bad.add_item(item)
        env.expect_error(50035)
        with pytest.raises(discord.HTTPException) as raised:
            await channel.send("Your hand", view=bad)
        assert "emoji.name: Invalid emoji" in raised.value.text
        assert "BUTTON_COMPONENT_INVALID_EMOJI" in str(env.stand_in.errors[-1].response)


async def test_unknown_emoji_in_text_is_reported(env: LocalDiscord) -> None:
    """Discord shows ``<:name:id>`` of an emoji that does not exist as plain ``:name:``, without
    refusing the message; the harness reports it, since the bot meant a picture."""
    emoji = await env.client.create_application_emoji(name="red_5", image=png())
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send(f"Top card {emoji}")
    assert not env.stand_in.state.problems
    wrong = await channel.send(f"Top card <:red_5:{emoji.id + 1}>")
    problems = env.stand_in.state.problems
    assert problems == [f"message {wrong.id} shows custom emoji {emoji.id + 1}, which does not exist"]
    problems.clear()  # seen: the test passes


# ---------------------------------------------------------------------- Components V2


async def test_layout_view_message_and_its_record(v2: LocalDiscord) -> None:
    """A LayoutView answer is stored with IS_COMPONENTS_V2 and its tree as sent (Discord's
    defaults filled in); the record's helpers see the text, buttons and selects inside the
    container; discord.py reads the message back into V2 components."""
    alice, uno = v2.user("alice"), v2.channel("uno")
    run = await v2.stand_in.slash(alice, uno, "v2 table")
    message = (await run.answer()).message
    assert message is not None and message.flags & FLAG_COMPONENTS_V2 and message.content == ""
    bot = v2.client
    assert isinstance(bot, V2Bot)
    card = bot.card
    assert "Top card " + str(card) in message.text and "Last move: none" in message.text
    assert [b.get("label") for b in message.buttons] == ["Card 5", "Draw"]
    assert message.component(label="Draw")["custom_id"] == "v2:draw"
    assert [s["custom_id"] for s in message.selects] == ["v2:pick"]
    container = message.components[0]
    assert container["type"] == 17 and container["accent_color"] == RED and container["spoiler"] is False
    section, separator = container["components"][0], container["components"][1]
    assert section["accessory"]["type"] == 11 and section["accessory"]["media"]["url"] == card.url
    assert (separator["divider"], separator["spacing"]) == (True, 1)

    channel = bot.get_channel(uno.id)
    assert isinstance(channel, discord.TextChannel)
    read = await channel.fetch_message(message.id)
    assert read.flags.components_v2
    assert isinstance(read.components[0], discord.Container)
    assert read.components[0].accent_colour == discord.Colour(RED)


async def test_clicks_inside_a_container(v2: LocalDiscord) -> None:
    """A decorated button in a row of a container and a DynamicItem beside it get their
    interactions: the first answers privately, the second redraws the table in place."""
    alice, uno = v2.user("alice"), v2.channel("uno")
    message = (await (await v2.stand_in.slash(alice, uno, "v2 table")).answer()).message
    assert message is not None

    draw = await v2.stand_in.click(alice, message, label="Draw")
    assert draw.payload["data"]["custom_id"] == "v2:draw"
    answer = (await draw.answer()).message
    assert answer is not None and answer.ephemeral and answer.text == "You drew."

    play = await v2.stand_in.click(alice, message, label="Card 5")
    assert play.payload["data"]["custom_id"] == "v2:card:5"
    assert (await play.answer()).type == 7
    bot = v2.client
    assert isinstance(bot, V2Bot) and bot.played == [5]
    assert "Last move: played 5" in message.text and message.flags & FLAG_COMPONENTS_V2


async def test_v2_through_followups_and_channel_sends(v2: LocalDiscord) -> None:
    """A deferred answer replaced by a V2 followup, and a V2 message sent through the channel
    route, keep IS_COMPONENTS_V2."""
    alice, uno = v2.user("alice"), v2.channel("uno")
    later = await v2.stand_in.slash(alice, uno, "v2 later")
    replaced = (await later.answer()).message
    assert replaced is not None and replaced.flags & FLAG_COMPONENTS_V2 and not replaced.loading
    assert "Last move: thought" in replaced.text

    await (await v2.stand_in.slash(alice, uno, "v2 post")).answer()
    posted = await v2.stand_in.wait_for_message(uno, lambda m: "Last move: posted" in m.text)
    assert posted.flags & FLAG_COMPONENTS_V2 and posted.interaction is None


async def test_v2_flag_stays_and_conversion_clears_legacy_fields(env: LocalDiscord) -> None:
    """A message turned into Components V2 must drop its content in the same edit, and once V2 it
    cannot lose the flag."""
    uno = env.channel("uno")
    path = "/channels/{c}/messages/{m}"
    sent = await env.client.http.request(
        Route("POST", "/channels/{c}/messages", c=uno.id), json={"content": "old"}
    )
    edit = Route("PATCH", path, c=uno.id, m=sent["id"])
    v2_body = {"flags": FLAG_COMPONENTS_V2, "components": [{"type": 10, "content": "new"}]}

    env.expect_error(50035)
    with pytest.raises(discord.HTTPException) as kept:
        await env.client.http.request(edit, json=v2_body)
    assert "In content: The 'content' field cannot be used" in kept.value.text

    await env.client.http.request(edit, json={**v2_body, "content": ""})
    message = env.stand_in.state.messages[int(sent["id"])]
    assert message.flags & FLAG_COMPONENTS_V2 and message.text == "new"

    env.expect_error(50035, times=2)
    for body in ({"flags": 0}, {"content": "plain again"}):
        with pytest.raises(discord.HTTPException):
            await env.client.http.request(edit, json=body)
    assert message.flags & FLAG_COMPONENTS_V2 and message.text == "new"
