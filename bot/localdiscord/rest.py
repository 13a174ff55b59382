"""REST v10 under ``/api/v10``: the routes an UNO bot uses, each request recorded, refusals
answered with Discord's JSON errors, unknown routes answered 404 and flagged.

JSON answers carry ``Content-Type: application/json`` exactly (discord.py reads anything else,
even with ``; charset=utf-8``, as text).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import orjson
from aiohttp import BodyPartReader, web

from . import interactions, limits
from .contract import Contract
from .limits import JSON, DiscordError
from .ratelimits import RateLimiter
from .records import Channel, Emoji, InteractionRecord, RequestRecord
from .state import PERMISSIONS, State

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
RECORD = web.RequestKey("record", RequestRecord)
FILES = web.RequestKey("files", Sequence[tuple[str, bytes]])
_NO_AUTH = (f"{API}/webhooks/", f"{API}/interactions/", f"{API}/gateway")


def json_response(body: Any, status: int = 200) -> web.Response:
    """A JSON answer with the exact content type discord.py expects (204 when body is None)."""
    if body is None:
        return web.Response(status=204)
    return web.Response(body=orjson.dumps(body), status=status, headers={"Content-Type": "application/json"})


async def read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON body (``payload_json`` for multipart) and uploaded files as (name, bytes).

    Raises:
        DiscordError: more files than a message holds, or one too large (`limits.check_uploads`).
    """
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[tuple[str, bytes]] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read()
            if part.name == "payload_json":
                body = orjson.loads(data)
            elif part.filename:
                files.append((part.filename, bytes(data)))
        limits.check_uploads(files)
        return body, files
    text = await request.text()
    return (orjson.loads(text) if text else None), []


class Rest:
    """The REST routes over one `State`.

    Args:
        state: the world.
        gateway_url: what ``GET /gateway`` answers.
        rate_limiter: Discord's rate limits, enforced when given (see `ratelimits`).

    Attributes:
        contract: checks every request body against Discord's OpenAPI spec (and counts them).
        check_responses: also check every response against it, failing the test on a mismatch
            (`State.fail`; the test harness turns it on).
    """

    def __init__(
        self, state: State, gateway_url: Callable[[], str], rate_limiter: RateLimiter | None = None
    ) -> None:
        self.state = state
        self._gateway_url = gateway_url
        self.rate_limiter = rate_limiter
        self.contract = Contract()
        self.check_responses = False

    # ------------------------------------------------------------------ wiring

    def routes(self) -> list[web.RouteDef]:
        """Every route, then a catch-all that answers 404 and flags the request."""
        get, post, put, patch, delete = web.get, web.post, web.put, web.patch, web.delete
        app = "/applications/{app_id}"
        webhook = "/webhooks/{app_id}/{token}"
        channel = "/channels/{channel_id}"
        guild = "/guilds/{guild_id}"
        table = [
            get("/gateway", self.gateway),
            get("/gateway/bot", self.gateway_bot),
            get("/users/@me", self.me),
            get("/users/{user_id}", self.user),
            post("/users/@me/channels", self.open_dm),
            get("/oauth2/applications/@me", self.application),
            get(app + "/commands", self.get_commands),
            put(app + "/commands", self.put_commands),
            get(app + "/guilds/{guild_id}/commands", self.get_commands),
            get(app + "/emojis", self.list_emojis),
            post(app + "/emojis", self.create_emoji),
            get(app + "/emojis/{emoji_id}", self.get_emoji),
            patch(app + "/emojis/{emoji_id}", self.edit_emoji),
            delete(app + "/emojis/{emoji_id}", self.delete_emoji),
            put(app + "/guilds/{guild_id}/commands", self.put_commands),
            post("/interactions/{interaction_id}/{token}/callback", self.callback),
            post(webhook, self.followup),
            get(webhook + "/messages/{message_id}", self.webhook_get),
            patch(webhook + "/messages/{message_id}", self.webhook_edit),
            delete(webhook + "/messages/{message_id}", self.webhook_delete),
            get(channel, self.channel),
            get(channel + "/messages", self.history),
            post(channel + "/messages", self.send),
            get(channel + "/messages/{message_id}", self.get_message),
            patch(channel + "/messages/{message_id}", self.edit),
            delete(channel + "/messages/{message_id}", self.delete),
            post(channel + "/typing", self.typing),
            post(channel + "/messages/{message_id}/threads", self.start_thread),
            get(guild, self.guild),
            get(guild + "/channels", self.guild_channels),
            get(guild + "/roles", self.roles),
            get(guild + "/members/{user_id}", self.member),
        ]
        defs = [web.route(r.method, API + r.path, r.handler) for r in table]
        return [*defs, web.route("*", API + "/{tail:.*}", self.unknown_route)]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Record every ``/api`` request; check the bot token and the rate limits; turn errors into
        Discord's JSON."""
        if not request.path.startswith("/api/"):
            return await handler(request)
        headers: dict[str, str] = {}
        state = self.state
        record = RequestRecord(
            state.clock.now(),
            request.method,
            request.path.removeprefix(API),
            dict(request.query),
            None,
        )
        state.requests.append(record)
        try:
            record.body, request[FILES] = await read_body(request)
            request[RECORD] = record
            if request.match_info.get("channel_id", "").isdigit():
                record.channel_id = int(request.match_info["channel_id"])
            authorized = request.headers.get("Authorization") == f"Bot {state.token}"
            if not authorized and not request.path.startswith(_NO_AUTH):
                raise limits.unauthorized()
            if self.rate_limiter is not None:
                route = request.match_info.route.resource
                pattern = route.canonical.removeprefix(API) if route is not None else record.path
                channel_id = request.match_info.get("channel_id")
                headers = self.rate_limiter.check(request.method, record.path, pattern, channel_id)
            if "tail" not in request.match_info:  # a route the stand-in serves
                self.contract.check_request(request.method, record.path, record.body)
            response = await handler(request)
        except DiscordError as error:  # a 429 too: recorded like any refusal
            record.error = error
            response = json_response(error.to_json(), error.status)
            headers = {**headers, **error.headers}
        except Exception as error:  # a stand-in bug: fail the test, answer without retries
            state.fail(f"stand-in crashed on {request.method} {request.path}: {error!r}")
            response = json_response({"code": 0, "message": f"stand-in error: {error!r}"}, 400)
        response.headers.update(headers)
        record.status = response.status
        if isinstance(response, web.Response) and response.body is not None:
            record.response = orjson.loads(response.body)  # type: ignore[arg-type]
        if self.check_responses and not record.unknown_route:
            found = self.contract.response_problems(
                request.method, record.path, record.status, record.response
            )
            if found:
                state.fail(f"{request.method} {record.path} answered what Discord does not: {found}")
        if record.channel_id is not None:
            state.requests_per_channel[record.channel_id] += 1
        state.changed()
        return response

    async def unknown_route(self, request: web.Request) -> web.Response:
        """Any other ``/api`` path: 404 like Discord, flagged for the test."""
        request[RECORD].unknown_route = True
        raise limits.route_not_found()

    # ------------------------------------------------------------------ helpers

    def _channel(self, request: web.Request) -> Channel:
        return self.state.get_channel(request.match_info["channel_id"])

    def _body(self, request: web.Request) -> JSON:
        body = request[RECORD].body
        if not isinstance(body, dict):
            raise limits.invalid_form([((), "DICT_TYPE_CONVERT", "Only dictionaries may be used.")])
        return body

    def _check_guild(self, request: web.Request) -> int:
        """The route's guild id.

        Raises:
            DiscordError: 10004 Unknown Guild.
        """
        return self.state.get_guild(request.match_info["guild_id"]).id

    # ------------------------------------------------------------------ start-up

    async def gateway(self, request: web.Request) -> web.Response:
        """``{"url"}``."""
        return json_response({"url": self._gateway_url()})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        """``{"url", "shards", "session_start_limit"}`` (AutoShardedClient): the shard count
        `State.recommended_shards`. The stand-in lets any number of sessions start at once, and
        says so as Discord does to the largest bots (``max_concurrency`` 16)."""
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 16}
        shards = self.state.recommended_shards
        return json_response({"url": self._gateway_url(), "shards": shards, "session_start_limit": limit})

    async def me(self, request: web.Request) -> web.Response:
        """The bot user."""
        return json_response(self.state.me_payload())

    async def user(self, request: web.Request) -> web.Response:
        """Any user by id."""
        return json_response(self.state.user_payload(self.state.get_user(request.match_info["user_id"])))

    async def application(self, request: web.Request) -> web.Response:
        """``discord.types.appinfo.AppInfo``."""
        state = self.state
        return json_response(
            {
                "id": str(state.application_id),
                "name": state.bot.name,
                "icon": None,
                "description": "Local stand-in application",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": state.user_payload(state.bot),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "rpc_origins": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": 1,
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["applications.commands", "bot"],
            }
        )

    def _scope(self, request: web.Request) -> int | None:
        if request.match_info["app_id"] != str(self.state.application_id):
            raise limits.unknown("Application")
        if "guild_id" in request.match_info:
            return self._check_guild(request)
        return None

    async def get_commands(self, request: web.Request) -> web.Response:
        """The synced commands of the scope."""
        return json_response(self.state.commands.get(self._scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        """Bulk overwrite: store the commands with ids and echo them back."""
        scope = self._scope(request)
        body = request[RECORD].body or []
        limits.check_commands(body)
        previous = {c["name"]: c["id"] for c in self.state.commands.get(scope, [])}
        stored = []
        for command in body:
            entry = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **command,
                # A command synced without any takes the application's installation types: both
                # (guild and user install) for an application made since mid-2024.
                "integration_types": command.get("integration_types") or [0, 1],
                "id": previous.get(command["name"]) or str(self.state.ids.next()),
                "application_id": str(self.state.application_id),
                "version": str(self.state.ids.next()),
            }
            if scope is not None:
                entry["guild_id"] = str(scope)
            stored.append(entry)
        self.state.commands[scope] = stored
        return json_response(stored)

    # ------------------------------------------------------------------ application emojis

    def _emoji(self, request: web.Request) -> Emoji:
        self._scope(request)
        return self.state.get_emoji(request.match_info["emoji_id"])

    async def list_emojis(self, request: web.Request) -> web.Response:
        """``{"items": [emoji, ...]}``, oldest first."""
        self._scope(request)
        return json_response({"items": [self.state.emoji_payload(e) for e in self.state.emojis.values()]})

    async def create_emoji(self, request: web.Request) -> web.Response:
        """``POST {"name", "image": data URI}``: 201 with the new emoji."""
        self._scope(request)
        body = self._body(request)
        emoji = self.state.create_emoji(body.get("name"), body.get("image"))
        return json_response(self.state.emoji_payload(emoji), 201)

    async def get_emoji(self, request: web.Request) -> web.Response:
        """One emoji (10014 Unknown Emoji)."""
        return json_response(self.state.emoji_payload(self._emoji(request)))

    async def edit_emoji(self, request: web.Request) -> web.Response:
        """``PATCH {"name"}``: rename."""
        emoji = self._emoji(request)
        name = self._body(request).get("name", emoji.name)
        return json_response(self.state.emoji_payload(self.state.rename_emoji(emoji, name)))

    async def delete_emoji(self, request: web.Request) -> web.Response:
        """204."""
        self.state.delete_emoji(self._emoji(request))
        return json_response(None)

    async def emoji_image(self, request: web.Request) -> web.Response:
        """``GET /emojis/{id}.{png|webp|gif|...}`` outside ``/api``, as Discord's CDN: the uploaded
        image (in its own format whatever the extension; Discord converts, browsers and discord.py
        read any), 404 for an unknown id."""
        emoji_id, _, _ = request.match_info["file"].partition(".")
        emoji = self.state.emojis.get(int(emoji_id)) if emoji_id.isdigit() else None
        if emoji is None:
            raise web.HTTPNotFound()
        return web.Response(body=emoji.image, content_type=emoji.content_type)

    async def attachment(self, request: web.Request) -> web.Response:
        """``GET /attachments/{channel_id}/{attachment_id}/{name}`` outside ``/api``, as Discord's
        CDN serves an uploaded file: its bytes (an image with its type), 404 for an unknown one."""
        attachment_id = request.match_info["attachment_id"]
        upload = self.state.files.get(int(attachment_id)) if attachment_id.isdigit() else None
        if upload is None or upload[0] != request.match_info["name"]:
            raise web.HTTPNotFound()
        data = upload[1]
        return web.Response(body=data, content_type=limits.image_type(data) or "application/octet-stream")

    # ------------------------------------------------------------------ interactions

    async def callback(self, request: web.Request) -> web.Response:
        """``POST /interactions/{id}/{token}/callback`` (``?with_response=1`` gets a body)."""
        token = request.match_info["token"]
        record = self.state.tokens.get(token)
        if record is not None:
            request[RECORD].channel_id = record.channel.id
        result = interactions.callback(
            self.state, request.match_info["interaction_id"], token, self._body(request), request[FILES]
        )
        with_response = request.query.get("with_response", "").lower() in ("1", "true")
        return json_response(result if with_response else None)

    def _interaction(self, request: web.Request) -> InteractionRecord:
        record = interactions.by_token(self.state, request.match_info["token"], request.match_info["app_id"])
        request[RECORD].channel_id = record.channel.id
        return record

    async def followup(self, request: web.Request) -> web.Response:
        """``POST /webhooks/{app}/{token}`` (``?wait=1`` returns the message)."""
        record = self._interaction(request)
        message = interactions.followup(self.state, record, self._body(request), request[FILES])
        wait = request.query.get("wait", "").lower() in ("1", "true")
        return json_response(self.state.message_payload(message) if wait else None)

    async def webhook_get(self, request: web.Request) -> web.Response:
        """``GET /webhooks/{app}/{token}/messages/{id|@original}``."""
        record = self._interaction(request)
        message = interactions.webhook_message(self.state, record, request.match_info["message_id"])
        return json_response(self.state.message_payload(message))

    async def webhook_edit(self, request: web.Request) -> web.Response:
        """``PATCH /webhooks/{app}/{token}/messages/{id|@original}`` (ephemerals included)."""
        record = self._interaction(request)
        message = interactions.webhook_message(self.state, record, request.match_info["message_id"])
        self.state.edit_message(message, self._body(request), files=request[FILES])
        interactions.answered(self.state, record, message)
        return json_response(self.state.message_payload(message))

    async def webhook_delete(self, request: web.Request) -> web.Response:
        """``DELETE /webhooks/{app}/{token}/messages/{id|@original}``."""
        record = self._interaction(request)
        message = interactions.webhook_message(self.state, record, request.match_info["message_id"])
        self.state.delete_message(message)
        return json_response(None)

    # ------------------------------------------------------------------ channels and messages

    async def channel(self, request: web.Request) -> web.Response:
        """A channel's payload."""
        return json_response(self.state.channel_payload(self._channel(request)))

    async def open_dm(self, request: web.Request) -> web.Response:
        """``POST /users/@me/channels {"recipient_id"}``: the DM channel with that user."""
        user = self.state.get_user(self._body(request).get("recipient_id", ""))
        if user.bot:
            raise DiscordError(400, 50007, "Cannot send messages to this user")
        return json_response(self.state.channel_payload(self.state.dm_channel(user)))

    async def history(self, request: web.Request) -> web.Response:
        """Newest first, at most ``limit`` (default 50), ``before``/``after`` ids; never
        ephemerals."""
        channel = self._channel(request)
        query = request.query
        limit = min(int(query.get("limit", 50)), 100)
        messages = [
            m
            for m in self.state.messages.values()
            if m.channel is channel and not m.deleted and not m.ephemeral
        ]
        if "before" in query:
            messages = [m for m in messages if m.id < int(query["before"])]
        if "after" in query:
            messages = [m for m in messages if m.id > int(query["after"])][:limit]
        messages = sorted(messages, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([self.state.message_payload(m) for m in messages])

    async def send(self, request: web.Request) -> web.Response:
        """``POST /channels/{c}/messages`` as the bot."""
        channel = self._channel(request)
        body = self._body(request)
        message = self.state.create_message(channel, self.state.bot, body, files=request[FILES])
        return json_response(self.state.message_payload(message))

    def _public_message(self, request: web.Request) -> Any:
        message = self.state.get_message(self._channel(request), request.match_info["message_id"])
        if message.ephemeral:  # ephemerals exist only behind their interaction's token
            raise limits.unknown("Message")
        return message

    async def get_message(self, request: web.Request) -> web.Response:
        """One message (404 10008 for ephemerals)."""
        return json_response(self.state.message_payload(self._public_message(request)))

    async def edit(self, request: web.Request) -> web.Response:
        """``PATCH /channels/{c}/messages/{id}``: the bot's own public messages only."""
        message = self._public_message(request)
        if message.author is not self.state.bot:
            raise limits.cannot_edit_others()
        self.state.edit_message(message, self._body(request))
        return json_response(self.state.message_payload(message))

    async def delete(self, request: web.Request) -> web.Response:
        """``DELETE /channels/{c}/messages/{id}``: others' messages need Manage Messages."""
        message = self._public_message(request)
        state = self.state
        if message.author is not state.bot and message.channel.is_dm:
            raise limits.missing_permissions()
        if message.author is not state.bot and not (
            state.permissions(state.bot, message.channel.guild_id) & PERMISSIONS["manage_messages"]
        ):
            raise limits.missing_permissions()
        state.delete_message(message)
        return json_response(None)

    async def start_thread(self, request: web.Request) -> web.Response:
        """``POST /channels/{c}/messages/{id}/threads {"name", "auto_archive_duration"?}``: a
        public thread from that message, as the bot (201; `State.create_thread`)."""
        message = self._public_message(request)
        thread = self.state.create_thread(message, self.state.bot, self._body(request))
        return json_response(self.state.channel_payload(thread), 201)

    async def typing(self, request: web.Request) -> web.Response:
        """Typing indicator: accepted, no effect."""
        self._channel(request)
        return json_response(None)

    # ------------------------------------------------------------------ guild

    async def guild(self, request: web.Request) -> web.Response:
        """``GET /guilds/{g}`` (no members or channels, as on Discord)."""
        return json_response(self.state.guild_payload(self._check_guild(request)))

    async def guild_channels(self, request: web.Request) -> web.Response:
        """The guild's text channels (no threads, as on Discord)."""
        guild_id = self._check_guild(request)
        channels = [
            c
            for c in self.state.channels.values()
            if c.guild_id == guild_id and c.type == 0 and not c.deleted
        ]
        return json_response([self.state.channel_payload(c) for c in channels])

    async def roles(self, request: web.Request) -> web.Response:
        """The guild's roles."""
        roles = self.state.guilds[self._check_guild(request)].roles
        return json_response([self.state.role_payload(r) for r in roles.values()])

    async def member(self, request: web.Request) -> web.Response:
        """``GET /guilds/{g}/members/{u}`` (10007 Unknown Member)."""
        guild_id = self._check_guild(request)
        user = self.state.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise limits.unknown("Member")
        return json_response(self.state.member_payload(user, guild_id))
