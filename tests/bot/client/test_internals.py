"""discord.py's internals the bot uses (`bot.client.internals`), each checked against the installed
discord.py: the private name is there with the shape the adapter expects, and the adapter's
function works on a real discord.py client (its requests seen by a small HTTP server). A failure
names the discord.py version and says to set ``discord.internals = false`` until the adapter is
updated."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import re
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import discord
import discord.ui.view
import orjson
import pytest
import yarl
from aiohttp import web
from discord.asset import Asset
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route, handle_message_parameters
from discord.state import ConnectionState
from discord.webhook.async_ import AsyncWebhookAdapter, interaction_message_response_params

from bot.client import internals
from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoButton, layout_of, view_of

from .helpers import serving

CHECKED_AGAINST = "2.7.1"


def moved(what: str) -> str:
    """The failure message for an internal a discord.py release moved."""
    return (
        f"discord.py {discord.__version__} (the adapter was checked against {CHECKED_AGAINST}) moved {what}: "
        "set discord.internals = false (UNO_DISCORD__INTERNALS=false) until bot/client/internals.py "
        "is updated (docs/architecture.md, 'discord.py internals')"
    )


@contextlib.contextmanager
def checked(what: str) -> Iterator[None]:
    """Within the block, an error (an attribute gone, an argument refused) fails as `moved`."""
    try:
        yield
    except AssertionError:
        raise
    except Exception as exc:
        pytest.fail(f"{moved(what)}\n{type(exc).__name__}: {exc}")


def parameters(function: Callable[..., Any]) -> set[str]:
    """The names of a function's parameters."""
    return set(inspect.signature(function).parameters)


SIGNATURES: list[tuple[str, Callable[[], Callable[..., Any]], set[str]]] = [
    (
        "ViewStore.schedule_dynamic_item_call",
        lambda: discord.ui.view.ViewStore.schedule_dynamic_item_call,
        {"component_type", "factory", "interaction", "custom_id", "match"},
    ),
    ("discord.ui.view._component_to_item", lambda: discord.ui.view._component_to_item, {"component"}),
    ("Item._refresh_state", lambda: discord.ui.Item._refresh_state, {"interaction", "data"}),
    ("ConnectionState.parse_interaction_create", lambda: ConnectionState.parse_interaction_create, {"data"}),
    (
        "discord.webhook.async_.interaction_message_response_params",
        lambda: interaction_message_response_params,
        {"type", "content", "embed", "view", "flags", "allowed_mentions"},
    ),
    (
        "AsyncWebhookAdapter.request",
        lambda: AsyncWebhookAdapter.request,
        {"route", "session", "payload", "proxy", "proxy_auth"},
    ),
    (
        "AsyncWebhookAdapter.edit_webhook_message",
        lambda: AsyncWebhookAdapter.edit_webhook_message,
        {
            "webhook_id",
            "token",
            "message_id",
            "session",
            "proxy",
            "proxy_auth",
            "payload",
            "multipart",
            "files",
        }
        | {"with_components"},
    ),
    (
        "discord.http.handle_message_parameters",
        lambda: handle_message_parameters,
        {"content", "embed", "view", "allowed_mentions"},
    ),
    ("HTTPClient.edit_message", lambda: HTTPClient.edit_message, {"channel_id", "message_id", "params"}),
    ("HTTPClient.send_message", lambda: HTTPClient.send_message, {"channel_id", "params"}),
    ("HTTPClient._try_clear_expired_ratelimits", lambda: HTTPClient._try_clear_expired_ratelimits, {"self"}),
]


@pytest.mark.parametrize(("what", "function", "expected"), SIGNATURES, ids=[s[0] for s in SIGNATURES])
def test_each_private_function_takes_what_the_adapter_passes(
    what: str, function: Callable[[], Callable[..., Any]], expected: set[str]
) -> None:
    """Each private function the adapter calls or replaces is there and takes the arguments it
    passes (or, replaced, is called with)."""
    with checked(what):
        found = parameters(function())
    assert expected <= found, f"{moved(what)}: parameters {sorted(found)}, expected {sorted(expected)}"


def test_the_addresses_are_class_constants_discord_py_reads() -> None:
    """`point_at_api` moves the REST base (a Route's URL), the gateway (read when a shard
    connects) and the CDN (an emoji's ``url``), and discord.py reads each where the bot expects."""
    previous = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE
    try:
        with checked("Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY or Asset.BASE"):
            internals.point_at_api("http://api.test/api/v10", "ws://gateway.test", "http://cdn.test")
            assert Route("GET", "/users/@me").url == "http://api.test/api/v10/users/@me", moved("Route.BASE")
            assert yarl.URL("ws://gateway.test") == DiscordWebSocket.DEFAULT_GATEWAY, moved("DEFAULT_GATEWAY")
            assert "cls.DEFAULT_GATEWAY" in inspect.getsource(DiscordWebSocket.from_client), moved(
                "DiscordWebSocket.DEFAULT_GATEWAY (no longer read by from_client)"
            )
            emoji = discord.PartialEmoji(name="red_5", id=7)
            assert emoji.url.startswith("http://cdn.test/emojis/7."), moved("Asset.BASE")
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE = previous


def test_the_voice_warnings_are_class_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    """`quiet_voice_warnings` sets ``VoiceClient.warn_nacl`` and ``warn_dave``, the flags
    discord.py reads before warning; without the internals it leaves them."""
    for flag in ("warn_nacl", "warn_dave"):
        assert isinstance(getattr(discord.VoiceClient, flag, None), bool), moved(f"VoiceClient.{flag}")
        monkeypatch.setattr(discord.VoiceClient, flag, True)
    internals.quiet_voice_warnings(internals=False)
    assert discord.VoiceClient.warn_nacl and discord.VoiceClient.warn_dave
    internals.quiet_voice_warnings(internals=True)
    assert not discord.VoiceClient.warn_nacl and not discord.VoiceClient.warn_dave


def test_the_bucket_scan_runs_when_the_buckets_have_doubled() -> None:
    """discord.py looks at every bucket on each new one past 256; installed, the scan runs only
    once their number has doubled since the last, and still drops the idle ones; without the
    internals, discord.py's own scan runs on every new bucket."""

    async def scans(*, internals_on: bool) -> list[int]:
        client = discord.Client(intents=discord.Intents.none())
        with checked("HTTPClient._buckets or HTTPClient._try_clear_expired_ratelimits"):
            http = client.http
            scanned: list[int] = []
            stock = http._try_clear_expired_ratelimits

            def counting() -> None:
                if len(http._buckets) >= internals.BUCKET_SCAN_FROM:
                    scanned.append(len(http._buckets))
                stock()

            http._try_clear_expired_ratelimits = counting  # type: ignore[method-assign]
            internals.pace_bucket_scan(client, internals=internals_on)
            for n in range(1100):
                http.get_ratelimit(f"route:{n}")
        return scanned

    assert asyncio.run(scans(internals_on=True)) == [256, 512, 1024], moved("HTTPClient.get_ratelimit's scan")
    assert len(asyncio.run(scans(internals_on=False))) == 1100 - 255


CUSTOM_ID = "uno:h:5:1:a:draw"
MESSAGE: dict[str, Any] = {
    "id": "20",
    "channel_id": "5",
    "type": 0,
    "content": "",
    "author": {"id": "1", "username": "bot", "discriminator": "0", "avatar": None},
    "attachments": [],
    "embeds": [],
    "mentions": [],
    "mention_roles": [],
    "pinned": False,
    "mention_everyone": False,
    "tts": False,
    "timestamp": "2026-12-07T00:00:00+00:00",
    "edited_timestamp": None,
    "flags": 32768,
    "components": [
        {
            "type": 17,
            "components": [
                {"type": 10, "content": "Your hand"},
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 2, "label": "Refresh", "custom_id": "uno:h:5:1:r"},
                        {"type": 2, "style": 2, "label": "Draw", "custom_id": CUSTOM_ID},
                    ],
                },
            ],
        }
    ],
}


def click_event() -> dict[str, Any]:
    """A gateway ``INTERACTION_CREATE`` of a click on Draw in a Components V2 hand."""
    return {
        "id": "10",
        "application_id": "1",
        "type": 3,
        "token": "tok",
        "version": 1,
        "channel_id": "5",
        "channel": {"id": "5", "type": 0},
        "user": {"id": "2", "username": "alice", "discriminator": "0", "avatar": None},
        "data": {"component_type": 2, "custom_id": CUSTOM_ID},
        "message": copy.deepcopy(MESSAGE),
        "locale": "en-US",
        "app_permissions": "0",
        "entitlements": [],
        "authorizing_integration_owners": {},
        "attachment_size_limit": 10485760,
    }


def test_the_lean_dispatch_calls_the_item_from_the_clicked_component_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Installed on a real client, a click's gateway event reaches the dynamic item's callback
    with the clicked button (its label) and its message keeping that button alone, and
    discord.py does not rebuild the message as a view."""
    clicked: list[tuple[str, list[Any]]] = []

    async def callback(self: UnoButton, interaction: discord.Interaction[Any]) -> None:
        assert interaction.message is not None
        clicked.append((self.item.label or "", interaction.message.components))

    def rebuilt(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the clicked message was rebuilt as a view")

    monkeypatch.setattr(UnoButton, "callback", callback)
    monkeypatch.setattr(discord.ui.LayoutView, "from_message", rebuilt)

    async def scenario() -> None:
        client = discord.Client(intents=discord.Intents.none())
        client.add_dynamic_items(UnoButton)
        with checked("Client._connection.parsers or ConnectionState._view_store"):
            internals.install_lean_dispatch(client, internals=True)
            client._connection.parsers["INTERACTION_CREATE"](click_event())
            for _ in range(5):
                await asyncio.sleep(0)

    asyncio.run(scenario())
    assert len(clicked) == 1, moved("ViewStore.schedule_dynamic_item_call (the item was not called)")
    label, components = clicked[0]
    assert label == "Draw" and len(components) == 1 and components[0].custom_id == CUSTOM_ID


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": custom_id, "custom_id": custom_id}


SELECT = {"type": 3, "custom_id": "unos:h:1:2:a", "options": [{"label": "x", "value": "x"}]}
HAND = [  # a Components V2 hand: a container of text, a section with a button, rows
    {
        "type": 17,
        "components": [
            {"type": 10, "content": "Your hand"},
            {
                "type": 9,
                "components": [{"type": 10, "content": "Top card"}],
                "accessory": _button("uno:h:1:2:r"),
            },
            {"type": 1, "components": [_button("uno:h:1:2:a:draw"), _button("uno:h:1:2:pic")]},
            {"type": 1, "components": [SELECT]},
        ],
    },
    {"type": 1, "components": [_button("uno:h:1:2:a:play red 5")]},
]


def _click(component_type: int, custom_id: str, interaction_type: int = 3) -> dict[str, Any]:
    return {
        "type": interaction_type,
        "data": {"component_type": component_type, "custom_id": custom_id},
        "message": {"id": "9", "flags": 32768, "components": copy.deepcopy(HAND)},
    }


def test_only_the_clicked_component_is_kept_wherever_it_sits() -> None:
    """`keep_clicked` keeps the clicked component alone, in a section, a container's row, a
    top-level row or a select with its options; the message keeps its id."""
    for kind, custom_id, expected in [
        (2, "uno:h:1:2:r", _button("uno:h:1:2:r")),  # a section's accessory
        (2, "uno:h:1:2:pic", _button("uno:h:1:2:pic")),  # a row in a container
        (2, "uno:h:1:2:a:play red 5", _button("uno:h:1:2:a:play red 5")),  # a top-level row
        (3, "unos:h:1:2:a", SELECT),  # a select, with its options
    ]:
        data = _click(kind, custom_id)
        internals.keep_clicked(data)
        assert data["message"]["components"] == [expected]
        assert data["message"]["id"] == "9"


def test_a_component_not_in_the_message_leaves_none() -> None:
    """A click on a component the message lacks (or of another type) leaves no component."""
    for kind, custom_id in [(2, "uno:h:1:2:forged"), (3, "uno:h:1:2:r")]:  # unknown id; wrong type
        data = _click(kind, custom_id)
        internals.keep_clicked(data)
        assert data["message"]["components"] == []


def test_other_interactions_are_left_as_they_are() -> None:
    """A command, or a click event without its message, is not changed."""
    for data in [_click(2, "uno:h:1:2:r", interaction_type=2), {"type": 3, "data": {}}, {"type": 2}]:
        before = copy.deepcopy(data)
        internals.keep_clicked(data)
        assert data == before


Seen = list[tuple[str, str, dict[str, str], Any]]


@contextlib.asynccontextmanager
async def discord_api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[discord.Client, Seen]]:
    """A real discord.py client logged into a small HTTP server that records every request
    (method, path below /api/v10, query, JSON body) and answers with a message."""
    seen: Seen = []

    async def answer(request: web.Request) -> web.StreamResponse:
        body = await request.json() if request.can_read_body else None
        path = request.path.removeprefix("/api/v10")
        seen.append((request.method, path, dict(request.query), body))
        if path.endswith("/callback"):
            return web.Response(status=204)
        user = {"id": "1", "username": "bot", "discriminator": "0", "avatar": None}
        # Discord's exact content type: discord.py reads any other as text.
        json = orjson.dumps(user if path == "/users/@me" else MESSAGE)
        return web.Response(body=json, headers={"Content-Type": "application/json"})

    async with serving(answer, monkeypatch):
        client = discord.Client(intents=discord.Intents.none())
        try:
            await client.http.static_login("token")
            seen.clear()
            yield client, seen
        finally:
            await client.http.close()


def _hand_view() -> discord.ui.LayoutView:
    return layout_of(discord.ui.Container(discord.ui.TextDisplay("Your hand")))


@pytest.mark.parametrize("new", [False, True], ids=["update", "new"])
def test_a_click_is_answered_by_one_callback(monkeypatch: pytest.MonkeyPatch, new: bool) -> None:
    """`respond_with_message` sends the interaction's callback (type 7, the clicked message
    updated, its text taken away; or type 4, a private Components V2 message) without asking
    for the message back, and the interaction then reads as answered."""

    async def scenario() -> tuple[Seen, bool, int]:
        async with discord_api(monkeypatch) as (client, seen):
            interaction = discord.Interaction(data=click_event(), state=client._connection)  # type: ignore[arg-type]
            view = _hand_view()
            with checked("Interaction._state, Interaction._session or InteractionResponse._response_type"):
                await internals.respond_with_message(interaction, view, new=new, internals=True)
            return seen, interaction.response.is_done(), len(view.children)

    seen, done, left = asyncio.run(scenario())
    ((method, path, query, body),) = seen
    assert (method, path, query) == ("POST", "/interactions/10/tok/callback", {})
    assert body["type"] == (4 if new else 7), moved("interaction_message_response_params")
    assert body["data"]["components"][0]["type"] == 17
    flags = body["data"]["flags"]
    assert flags & 32768 and bool(flags & 64) is new  # Components V2; ephemeral when new
    assert new or body["data"]["content"] is None
    assert done, moved("InteractionResponse._response_type (is_done() no longer reads it)")
    assert left == 0  # the view emptied once sent


def test_hands_and_channel_messages_are_edited_and_posted_through_the_http_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`edit_original_messages` edits an interaction's own message through its webhook (the
    payload once for all), `edit_channel_message` a channel message (a layout takes its text
    and embed away; a text alone edits the text), and `post_message` posts and gives the id."""

    async def scenario() -> tuple[Seen, int]:
        async with discord_api(monkeypatch) as (client, seen):
            interaction = discord.Interaction(data=click_event(), state=client._connection)  # type: ignore[arg-type]
            with checked("discord.webhook.async_.async_context or discord.http's message calls"):
                await internals.edit_original_messages([interaction.followup], _hand_view(), internals=True)
                await internals.edit_channel_message(client, 5, 20, view=_hand_view(), internals=True)
                await internals.edit_channel_message(client, 5, 21, content="Game over", internals=True)
                ping = view_of(UnoButton(Click(Scope.TABLE, 5, 0, Verb.SHOW_HAND), label="My hand"))
                posted = await internals.post_message(
                    client, 5, "<@2>, your move", view=ping, allowed_mentions=internals.NONE, internals=True
                )
            return seen, posted

    seen, posted = asyncio.run(scenario())
    hand, table, pointer, ping = seen
    assert hand[:3] == ("PATCH", "/webhooks/1/tok/messages/@original", {"with_components": "1"})
    assert hand[3]["components"][0]["type"] == 17 and hand[3]["content"] is None
    assert table[:2] == ("PATCH", "/channels/5/messages/20") and table[3]["content"] is None
    assert table[3]["embeds"] == [] and table[3]["flags"] & 32768
    assert pointer[:2] == ("PATCH", "/channels/5/messages/21") and pointer[3]["content"] == "Game over"
    assert "components" not in pointer[3] and "embeds" not in pointer[3]
    assert ping[:2] == ("POST", "/channels/5/messages") and ping[3]["content"] == "<@2>, your move"
    assert ping[3]["components"][0]["components"][0]["label"] == "My hand"
    assert posted == 20


def test_no_module_but_the_adapter_touches_discord_py_internals() -> None:
    """In ``bot/`` and ``cogs/`` (the stand-in excepted: its job is to be Discord), only
    `bot.client.internals` imports or names discord.py's undocumented modules, or reads
    ``.http`` or an underscore name of a discord.py object (one of the names discord.py's own
    classes set)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    source = Path(discord.__file__).parent
    private = {m for f in source.rglob("*.py") for m in re.findall(r"self\.(_[a-z]\w*)", f.read_text())}
    private |= {"_component_to_item", "http"}
    internal_modules = (
        "discord.http",
        "discord.webhook",
        "discord.gateway",
        "discord.state",
        "discord.asset",
    )
    found = []
    for path in [*root.joinpath("bot").rglob("*.py"), *root.joinpath("cogs").rglob("*.py")]:
        relative = path.relative_to(root).as_posix()
        if relative.startswith("bot/localdiscord/") or relative == "bot/client/internals.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(internal_modules):
                found.append(f"{relative}:{node.lineno}: from {node.module} import")
            elif isinstance(node, ast.Import) and any(
                a.name.startswith(internal_modules) for a in node.names
            ):
                found.append(f"{relative}:{node.lineno}: import")
            elif isinstance(node, ast.Attribute) and (
                ast.unparse(node) in internal_modules  # discord.http.Route, ...
                or (
                    node.attr in private
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                )
            ):
                found.append(f"{relative}:{node.lineno}: {ast.unparse(node)}")
    assert found == [], "discord.py internals outside bot/client/internals.py"
