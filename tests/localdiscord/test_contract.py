"""The stand-in against Discord's OpenAPI spec: its responses and gateway objects in Discord's
shapes (the harness checks every one, `LocalDiscord`; these tests pin the shapes that were wrong),
and the checker itself (that it reports what breaks the spec, and refuses requests as Discord)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import Route

from bot.localdiscord import DiscordError
from bot.localdiscord.contract import Contract, gateway_problems, operation
from bot.localdiscord.testing import LocalDiscord


async def get(env: LocalDiscord, path: str, **params: Any) -> Any:
    """``GET path`` through discord.py's HTTP client."""
    return await env.client.http.request(Route("GET", path, **params))


async def test_users_carry_primary_guild_and_no_private_fields(env: LocalDiscord) -> None:
    """A user has ``primary_guild``; only the bot's own (``/users/@me``) has ``locale``,
    ``verified`` and ``mfa_enabled``, as Discord's ``UserPIIResponse``."""
    alice = await get(env, "/users/{user_id}", user_id=env.user("alice").id)
    me = await get(env, "/users/@me")
    assert "primary_guild" in alice and "mfa_enabled" not in alice and "verified" not in alice
    assert me["locale"] == "en-US" and me["mfa_enabled"] is False and "primary_guild" in me
    assert env.client.user is not None and env.client.user.mfa_enabled is False  # READY's user


async def test_rest_guild_has_no_gateway_keys(env: LocalDiscord) -> None:
    """``GET /guilds/{id}`` answers the REST guild: the spec's required fields, none of
    GUILD_CREATE's own (members, channels, unavailable, ...)."""
    guild = await get(env, "/guilds/{guild_id}", guild_id=env.stand_in.guild_id)
    for key in ("members", "channels", "unavailable", "stage_instances", "soundboard_sounds", "joined_at"):
        assert key not in guild
    assert guild["region"] and guild["max_members"] and "incidents_data" in guild
    assert Contract().response_problems("GET", f"/guilds/{guild['id']}", 200, guild) == []


async def test_rest_messages_have_no_member_or_guild_id(env: LocalDiscord) -> None:
    """A message from REST carries neither ``guild_id`` nor ``member``; MESSAGE_CREATE does."""
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("hello")
    body = await get(env, "/channels/{c}/messages/{m}", c=channel.id, m=sent.id)
    assert "guild_id" not in body and "member" not in body
    stored = env.stand_in.state.messages[sent.id]
    event = env.stand_in.state.message_payload(stored, gateway=True)
    assert event["guild_id"] == str(env.stand_in.guild_id) and "member" in event


async def test_synced_commands_list_integration_types(env: LocalDiscord) -> None:
    """Synced commands come back with ``integration_types`` a list, so discord.py's
    ``allowed_installs`` is set: the demo bot's, synced without any, with the application's
    defaults (guild and user install, [0, 1]), as Discord answers for an application made since
    mid-2024."""
    commands = await env.client.tree.fetch_commands(guild=discord.Object(env.stand_in.guild_id))  # type: ignore[attr-defined]
    assert commands and all(c.allowed_installs is not None for c in commands)
    assert all(c["integration_types"] == [0, 1] for c in env.stand_in.commands())


async def test_button_emoji_echoed_without_null_id(env: LocalDiscord) -> None:
    """A Unicode emoji on a button (sent by discord.py as ``{"id": null, "name"}``) is answered as
    Discord does, without ``id``; a select's ``required`` (modals only) is not kept."""
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Go", emoji="🃏", custom_id="go"))
    view.add_item(discord.ui.Select(custom_id="pick", options=[discord.SelectOption(label="a", emoji="🟥")]))
    sent = await channel.send("emoji", view=view)
    body = await get(env, "/channels/{c}/messages/{m}", c=channel.id, m=sent.id)
    button, select = body["components"][0]["components"][0], body["components"][1]["components"][0]
    assert button["emoji"] == {"name": "🃏"} and select["options"][0]["emoji"] == {"name": "🟥"}
    assert "required" not in select


async def test_modal_submit_metadata_names_its_trigger(env: LocalDiscord) -> None:
    """The message answering a modal submit names the interaction that showed the modal
    (``triggering_interaction_metadata``, required by the spec)."""
    stand_in = env.stand_in
    shown = await stand_in.slash(env.user("alice"), env.channel("uno"), "demo ask")
    await shown.response()
    submitted = await stand_in.submit_modal(env.user("alice"), shown, {"demo:name": "Al"})
    message = (await submitted.response()).message
    assert message is not None
    metadata = stand_in.state.message_payload(message)["interaction_metadata"]
    assert metadata["type"] == 5 and metadata["triggering_interaction_metadata"]["id"] == str(shown.id)


def _components(tree: list[Any]) -> list[dict[str, Any]]:
    """Every component of a message's tree, nested ones (rows' items, accessories) included."""
    found = []
    for component in tree:
        found.append(component)
        found += _components(component.get("components") or [])
        found += _components([component["accessory"]] if component.get("accessory") else [])
    return found


async def test_a_clicked_message_carries_every_component_id(env: LocalDiscord) -> None:
    """The message an INTERACTION_CREATE carries has an ``id`` on every component, as Discord
    numbers them (the spec requires it), a Components V2 message's nested ones included, after
    an edit too; and the event's objects fit the spec."""
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)

    async def answer(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()

    def layout(label: str) -> discord.ui.LayoutView:
        button = discord.ui.Button[Any](label=label, custom_id="go")
        button.callback = answer  # type: ignore[method-assign]
        view = discord.ui.LayoutView()
        section = discord.ui.Section[Any](discord.ui.TextDisplay[Any]("a table"), accessory=button)
        view.add_item(
            discord.ui.Container[Any](section, discord.ui.ActionRow[Any](discord.ui.Button(label="x")))
        )
        return view

    sent = await channel.send(view=layout("Go"))
    await sent.edit(view=layout("Again"))
    stored = env.stand_in.state.messages[sent.id]
    record = await env.stand_in.click(env.user("alice"), stored, label="Again")
    await record.response()
    carried = _components(record.payload["message"]["components"])
    assert len(carried) >= 5 and all(isinstance(c.get("id"), int) for c in carried), carried
    assert gateway_problems("INTERACTION_CREATE", record.payload) == []


# ---------------------------------------------------------------------- the checker itself

USER = {
    "id": "1",
    "username": "a",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "public_flags": 0,
    "flags": 0,
    "primary_guild": None,
}


def test_operations_map_to_the_spec() -> None:
    """Request paths find the spec's operation, literal segments first."""
    assert operation("PATCH", "/webhooks/1/t/messages/@original") == (
        "patch",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    )
    assert operation("POST", "/channels/1/messages") == ("post", "/channels/{channel_id}/messages")
    assert operation("POST", "/no/such/route") is None


def test_response_check_reports_missing_and_unknown_fields() -> None:
    """A response without a required field, or with a key the spec does not list for it, is
    reported; a 404 error body is fine."""
    user = {k: v for k, v in USER.items() if k != "primary_guild"}
    found = Contract().response_problems("GET", "/users/1", 200, {**user, "mfa_enabled": False})
    assert any("primary_guild" in p and "BASE_TYPE_REQUIRED" in p for p in found)
    assert any("mfa_enabled" in p and "UNKNOWN_FIELD" in p for p in found)
    error = {"code": 10013, "message": "Unknown User"}
    assert Contract().response_problems("GET", "/users/1", 404, error) == []


def test_gateway_check_allows_event_keys_only() -> None:
    """MESSAGE_CREATE may add ``guild_id`` and ``member`` to a message, nothing else."""
    message = {
        "id": "2",
        "channel_id": "3",
        "type": 0,
        "author": USER,
        "content": "x",
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "components": [],
        "pinned": False,
        "flags": 0,
    }
    assert gateway_problems("MESSAGE_CREATE", {**message, "guild_id": "4", "member": {}}) == []
    assert gateway_problems("MESSAGE_CREATE", {**message, "nick": "x"}) != []


@pytest.mark.parametrize(
    ("body", "tree"),
    [
        ({"content": 5}, {"content": {"_errors": [{"code": "STRING_TYPE_CONVERT"}]}}),
        ({"type": 99}, {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES"}]}}),
    ],
    ids=["content not a string", "unknown callback type"],
)
def test_request_refused_as_discord(body: dict[str, Any], tree: dict[str, Any]) -> None:
    """A request breaking the spec raises 50035 with the ``errors`` tree naming the field, and
    is counted."""
    contract = Contract()
    path = "/interactions/1/t/callback" if "type" in body else "/channels/1/messages"
    with pytest.raises(DiscordError) as raised:
        contract.check_request("POST", path, body)
    assert raised.value.code == 50035 and raised.value.message == "Invalid Form Body"
    errors = raised.value.errors
    assert errors is not None
    (field,) = tree
    assert errors[field]["_errors"][0]["code"] == tree[field]["_errors"][0]["code"]
    assert (contract.requests_checked, contract.violations) == (1, 1)


def test_discord_py_integer_snowflakes_allowed() -> None:
    """discord.py's integer ids (allowed mentions, a DM's recipient, upload ids) pass: the one
    allow-list, `contract.QUIRKS`."""
    contract = Contract()
    contract.check_request(
        "POST", "/channels/1/messages", {"content": "x", "allowed_mentions": {"users": [5]}}
    )
    contract.check_request("POST", "/users/@me/channels", {"recipient_id": 5})
    callback = {"type": 4, "data": {"content": "x", "allowed_mentions": {"users": [5]}}}
    contract.check_request("POST", "/interactions/1/t/callback", callback)
    contract.check_request("POST", "/channels/1/messages", {"attachments": [{"id": 0, "filename": "a.png"}]})
    assert (contract.requests_checked, contract.violations) == (4, 0)


async def test_content_of_wrong_type_is_refused_not_crashing(env: LocalDiscord) -> None:
    """``"content": 5`` gets Discord's 50035 naming ``content`` (it crashed the stand-in)."""
    env.expect_error(50035)
    route = Route("POST", "/channels/{c}/messages", c=env.channel("uno").id)
    with pytest.raises(discord.HTTPException) as raised:
        await env.client.http.request(route, json={"content": 5})
    assert raised.value.code == 50035 and "In content:" in raised.value.text
    assert env.stand_in.state.problems == []
