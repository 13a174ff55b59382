"""The browser page for local mode: ``/`` serves ``static/index.html``; ``/ui/...`` are the JSON
endpoints it uses; ``/ui/ws`` tells open pages "something changed" so they refetch.

Endpoints (JSON bodies; errors answer 400 ``{"error": text}``):

- ``GET /ui/state?user=ID&channel=ID&guild=ID`` → the view of one user (see `UI.snapshot`)
- ``POST /ui/users {"name", "locale"?}`` → ``{"id", "name", "locale"}`` (refused if the name is
  taken, in any case, or over Discord's 32 characters, or the locale is none of Discord's)
- ``POST /ui/locale {"user", "locale"}``: the language of that user's Discord client (their
  interactions' ``locale``, and the commands' names and descriptions they see)
- ``POST /ui/command {"user", "channel", "text": "/uno new variant:flip"}``
- ``POST /ui/say {"user", "channel", "content"}``
- ``POST /ui/click {"user", "message", "custom_id"}``
- ``POST /ui/select {"user", "message", "custom_id", "values": [...]}``: a click or pick the
  stand-in refuses (the component is gone, say, after a double click) answers as Discord's client
  shows it, ``{"error": "This interaction failed", "detail": why}``
- ``POST /ui/modal {"user", "interaction", "values": {custom_id: text}}``
- ``POST /ui/archive {"channel"}``: archive a thread (as a member would)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .interactions import CommandUsageError, command_paths
from .limits import ACK_SECONDS, JSON, LOCALES, DiscordError, media_of, walk_components
from .records import Channel, InteractionRecord, Message, User

if TYPE_CHECKING:
    from .server import StandIn

STATIC = Path(__file__).parent / "static"
INTERACTION_FAILED = "This interaction failed"
"""What Discord's client says of a click or pick that Discord refused."""


class InteractionFailed(Exception):
    """A click or pick the stand-in refused; the message is why (for the answer's ``detail``)."""


class UI:
    """Routes and live updates for the page of one `StandIn`."""

    def __init__(self, stand_in: StandIn) -> None:
        self.stand_in = stand_in
        self.sockets: set[web.WebSocketResponse] = set()
        self._push_pending = False
        self._sends: set[asyncio.Future[None]] = set()
        stand_in.state.add_listener(self._on_change)

    def routes(self) -> list[web.RouteDef]:
        """The page, its WebSocket and its JSON endpoints."""
        act = self._action
        return [
            web.get("/", self.index),
            web.get("/ui/state", self.state),
            web.get("/ui/words", self.words),
            web.get("/ui/ws", self.socket),
            web.post("/ui/users", act(self._add_user)),
            web.post("/ui/locale", act(self._set_locale)),
            web.post("/ui/command", act(self._command)),
            web.post("/ui/say", act(self._say)),
            web.post("/ui/click", act(self._click)),
            web.post("/ui/select", act(self._select)),
            web.post("/ui/modal", act(self._modal)),
            web.post("/ui/archive", act(self._archive)),
        ]

    async def index(self, request: web.Request) -> web.FileResponse:
        """The single-page UI."""
        return web.FileResponse(STATIC / "index.html")

    async def words(self, request: web.Request) -> web.FileResponse:
        """The page's own words in French, Spanish and Portuguese (``static/words.json``)."""
        return web.FileResponse(STATIC / "words.json")

    # ------------------------------------------------------------------ live updates

    def _on_change(self) -> None:
        if self._push_pending or not self.sockets:
            return
        self._push_pending = True
        asyncio.get_running_loop().call_later(0.05, self._push)

    def _push(self) -> None:
        self._push_pending = False
        for ws in list(self.sockets):
            if not ws.closed:
                task = asyncio.ensure_future(_notify(ws))
                self._sends.add(task)
                task.add_done_callback(self._sends.discard)

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        """``/ui/ws``: receives ``{"type": "changed"}`` once it is open, then after state changes."""
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        self.sockets.add(ws)
        # Told once at once: the page read the state before its socket was open, and what
        # changed in between (or while it reconnected) was announced to no socket of its own.
        await _notify(ws)
        try:
            async for _ in ws:
                pass
        finally:
            self.sockets.discard(ws)
        return ws

    async def close(self) -> None:
        """Close open pages' sockets."""
        for ws in list(self.sockets):
            await ws.close()

    # ------------------------------------------------------------------ reading

    async def state(self, request: web.Request) -> web.Response:
        """``GET /ui/state``: the snapshot for ``?user=`` (default: first human) in
        ``?channel=`` (a channel or thread, of any guild; default: the first channel of
        ``?guild=``, itself by default the first guild)."""
        users, channels = self.stand_in.users, self.stand_in.channels
        user = self._pick(users, request.query.get("user")) or (users[0] if users else None)
        guild = self._pick(self.stand_in.guilds, request.query.get("guild"))
        channel = (
            self._pick([*channels, *self.stand_in.threads()], request.query.get("channel"))
            or next((c for c in channels if guild is not None and c.guild_id == guild.id), None)
            or channels[0]
        )
        if user is None:
            user = self.stand_in.add_user("player")
        return web.json_response(self.snapshot(user, channel))

    @staticmethod
    def _pick(records: list[Any], wanted: str | None) -> Any:
        return next((r for r in records if str(r.id) == wanted), None)

    def snapshot(self, user: User, channel: Channel) -> JSON:
        """What ``user`` sees with ``channel`` open::

            {"guild", "guild_id", "guilds": [{"id", "name"}], "me", "channel", "users": [{"id",
             "name", "bot", "locale"}], "locales": [Discord's locales], "channels": [{"id",
             "name"}], "commands": [command paths, as ``user``'s client shows them in its
             language], "messages": [view] (channel, public),
             "side": [view] (own ephemerals anywhere, DMs), "modal": {...} | null,
             "notices": [text], "emojis": {id: name} (the application's, whose images
             ``/emojis/{id}.png`` serves)}

        A view is ``{"id", "channel", "dm", "author", "bot", "content", "embeds", "components",
        "attachments", "ephemeral", "loading", "edited", "revision", "time", "command", "thread"}``
        (``channel``: ``"#name"`` or ``"🧵 name"``, null for a DM, whose ``dm`` is its recipient's
        name, for the page to say in its reader's language; ``attachments``: ``{"url",
        "filename", "image"}`` of the files that no component or embed shows, `_loose_files`;
        ``revision``: how many edits the message has had; ``thread``:
        ``{"id", "name", "messages", "archived"}`` of the thread started from it, or null). ``channels``
        lists each text channel of ``channel``'s guild (``guild``, ``guild_id``; ``guilds`` are
        all of them, for the page to choose) followed by its threads (``{"id", "name", "parent",
        "archived"}``); ``commands`` are that guild's and the global ones.
        """
        stand_in = self.stand_in
        guild = stand_in.state.guilds.get(channel.guild_id or 0) or stand_in.guilds[0]
        seen = stand_in.visible_messages(user)
        public = [m for m in seen if m.channel is channel and not m.ephemeral]
        private = [m for m in seen if m.ephemeral or m.channel.is_dm]
        mine = [i for i in stand_in.interactions if i.user is user]
        now = stand_in.clock.now()
        notices = [
            f"/{i.command or 'component'}: The application did not respond"
            for i in mine[-5:]
            if not i.acknowledged() and now > i.created_at + ACK_SECONDS
        ]
        every = [*stand_in.users, stand_in.bot]
        return {
            "guild": guild.name,
            "guild_id": str(guild.id),
            "guilds": [{"id": str(g.id), "name": g.name} for g in stand_in.guilds],
            "me": str(user.id),
            "channel": str(channel.id),
            "users": [{"id": str(u.id), "name": u.name, "bot": u.bot, "locale": u.locale} for u in every],
            "locales": sorted(LOCALES),
            "channels": _channel_list(
                [c for c in stand_in.channels if c.guild_id == guild.id], stand_in.threads()
            ),
            "commands": command_paths(stand_in.state, user.locale, guild.id),
            "messages": [self._view(m) for m in public],
            "side": [self._view(m) for m in private],
            "modal": next(
                (self._modal_view(i) for i in reversed(mine) if i.modal and not i.modal_submitted), None
            ),
            "notices": notices,
            "emojis": {str(e.id): e.name for e in stand_in.state.emojis.values()},
        }

    @staticmethod
    def _view(message: Message) -> JSON:
        # A DM is said by the page in its reader's language ("DM with alice"): its recipient only.
        recipient = message.channel.recipient
        where = (
            None
            if recipient
            else (
                f"#{message.channel.name}" if not message.channel.is_thread else f"🧵 {message.channel.name}"
            )
        )
        command = None  # who used which command: the page says it in its reader's language
        if message.interaction is not None and message.interaction.command:
            command = {"user": message.interaction.user.name, "name": message.interaction.command}
        return {
            "id": str(message.id),
            "channel": where,
            "dm": recipient.name if recipient else None,
            "author": message.author.name,
            "bot": message.author.bot,
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "attachments": _loose_files(message),
            "ephemeral": message.ephemeral,
            "loading": message.loading,
            "edited": message.edited_timestamp is not None,
            "revision": message.revision,
            "time": message.timestamp[11:19],
            "command": command,
            "thread": _thread_view(message.thread),
        }

    @staticmethod
    def _modal_view(record: InteractionRecord) -> JSON:
        assert record.modal is not None
        inputs = []
        for component in walk_components(record.modal.get("components", [])):
            if component.get("type") == 4:
                inputs.append(
                    {
                        "custom_id": component["custom_id"],
                        "label": component.get("label") or component["custom_id"],
                        "style": component.get("style", 1),
                        "placeholder": component.get("placeholder", ""),
                        "value": component.get("value", ""),
                        "required": component.get("required", True),
                    }
                )
        for component in record.modal.get("components", []):
            if component.get("type") == 18 and component["component"].get("type") == 4:
                for entry in inputs:
                    if entry["custom_id"] == component["component"]["custom_id"]:
                        entry["label"] = component.get("label", entry["label"])
        return {"interaction": str(record.id), "title": record.modal.get("title", ""), "inputs": inputs}

    # ------------------------------------------------------------------ acting

    def _action(
        self, act: Callable[[JSON], Awaitable[JSON]]
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handler(request: web.Request) -> web.Response:
            try:
                body = await request.json()
                return web.json_response(await act(body))
            except InteractionFailed as failed:
                return web.json_response({"error": INTERACTION_FAILED, "detail": str(failed)}, status=400)
            except (CommandUsageError, DiscordError, KeyError, ValueError) as error:
                return web.json_response({"error": str(error) or repr(error)}, status=400)

        return handler

    def _user(self, body: JSON) -> User:
        return self.stand_in.state.get_user(body["user"])

    def _message(self, body: JSON) -> Message:
        message = self.stand_in.state.messages[int(body["message"])]
        return message

    def _expect_answer(self, record: InteractionRecord) -> JSON:
        # Wake the page when the 3 seconds run out, so "did not respond" shows up.
        asyncio.get_running_loop().call_later(ACK_SECONDS + 0.1, self.stand_in.state.changed)
        return {"interaction": str(record.id)}

    async def _add_user(self, body: JSON) -> JSON:
        name = str(body.get("name", "")).strip()
        if not name:
            raise ValueError("a user needs a name")
        if len(name) > 32:  # Discord's limit for a display name
            raise ValueError(f"a name has at most 32 characters ({len(name)} given)")
        taken = next((u for u in self.stand_in.state.users.values() if u.name.lower() == name.lower()), None)
        if taken is not None:
            raise ValueError(f"the name {name!r} is taken (by {taken.name}); pick another")
        user = self.stand_in.add_user(name, locale=str(body.get("locale") or "en-US"))
        return {"id": str(user.id), "name": user.name, "locale": user.locale}

    async def _set_locale(self, body: JSON) -> JSON:
        locale = str(body.get("locale", ""))
        if locale not in LOCALES:
            raise ValueError(f"{locale!r} is none of Discord's locales")
        user = self._user(body)
        user.locale = locale
        self.stand_in.state.changed()
        return {"id": str(user.id), "locale": user.locale}

    async def _command(self, body: JSON) -> JSON:
        channel = self.stand_in.state.get_channel(body["channel"])
        record = await self.stand_in.slash(self._user(body), channel, body["text"], timeout=0.5)
        return self._expect_answer(record)

    async def _say(self, body: JSON) -> JSON:
        channel = self.stand_in.state.get_channel(body["channel"])
        message = await self.stand_in.say(self._user(body), channel, str(body["content"]))
        return {"message": str(message.id)}

    async def _click(self, body: JSON) -> JSON:
        return await self._use_component(body, None)

    async def _select(self, body: JSON) -> JSON:
        return await self._use_component(body, [str(v) for v in body["values"]])

    async def _use_component(self, body: JSON, values: list[str] | None) -> JSON:
        """Click (``values`` None) or pick in a component of the page's message.

        Raises:
            InteractionFailed: the stand-in refused the component (no longer on the message,
                disabled, or not offering ``values``).
        """
        user, message, custom_id = self._user(body), self._message(body), body["custom_id"]
        try:
            if values is None:
                record = await self.stand_in.click(user, message, custom_id)
            else:
                record = await self.stand_in.select(user, message, custom_id, values)
        except CommandUsageError as error:
            raise InteractionFailed(str(error)) from None
        return self._expect_answer(record)

    async def _archive(self, body: JSON) -> JSON:
        """``{"channel"}``: archive that thread, as a member would."""
        thread = self.stand_in.state.get_channel(body["channel"])
        if not thread.is_thread:
            raise ValueError("only a thread can be archived")
        self.stand_in.archive(thread)
        return {"archived": str(thread.id)}

    async def _modal(self, body: JSON) -> JSON:
        shown = self.stand_in.state.interactions[int(body["interaction"])]
        values = {str(k): str(v) for k, v in dict(body.get("values", {})).items()}
        record = await self.stand_in.submit_modal(self._user(body), shown, values)
        return self._expect_answer(record)


__all__ = ["UI"]


def _channel_list(channels: list[Channel], threads: list[Channel]) -> list[JSON]:
    """Each text channel, then its threads (the page lists them under it)."""
    listed: list[JSON] = []
    for channel in channels:
        listed.append({"id": str(channel.id), "name": channel.name, "parent": None, "archived": False})
        listed += [
            {"id": str(t.id), "name": t.name, "parent": str(channel.id), "archived": t.archived}
            for t in threads
            if t.parent is channel
        ]
    return listed


def _thread_view(thread: Channel | None) -> JSON | None:
    if thread is None or thread.deleted:
        return None
    return {
        "id": str(thread.id),
        "name": thread.name,
        "messages": thread.message_count,
        "archived": thread.archived,
    }


async def _notify(ws: web.WebSocketResponse) -> None:
    """Tell one page that the state changed; a page closing meanwhile is simply gone."""
    with contextlib.suppress(ConnectionError):
        await ws.send_str('{"type": "changed"}')


def _loose_files(message: Message) -> list[JSON]:
    """The message's attachments that none of its components or embeds shows (Discord lists
    those under the message): ``{"url", "filename", "image"}``, ``image`` for a picture."""
    shown = {m.get("url") for m in media_of(message.components, message.embeds)}
    return [
        {
            "url": a["url"],
            "filename": a["filename"],
            "image": str(a.get("content_type", "")).startswith("image/"),
        }
        for a in message.attachments
        if a.get("url") not in shown
    ]
