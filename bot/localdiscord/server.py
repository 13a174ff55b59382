"""`StandIn`: the aiohttp app (REST, gateway, browser page) and the API tests drive it with.

stand_in = await start_stand_in(guild_name="UNO Club", users=["alice", "bob"])
point_discord_py_at(stand_in.base_url)      # or the bot's settings do the same
...                                          # log a discord.py client in with stand_in.token
run = await stand_in.slash(alice, stand_in.channel("uno"), "uno new", variant="flip")
response = await run.response()
await stand_in.close()
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar, cast, overload

import discord
import yarl
from aiohttp import web

from . import interactions, limits
from .gateway import Gateway
from .interactions import CommandUsageError
from .limits import JSON
from .ratelimits import RateLimiter, RateLimits
from .records import (
    WAIT_SECONDS,
    Channel,
    Clock,
    Guild,
    InteractionRecord,
    Message,
    RequestRecord,
    Role,
    User,
)
from .rest import Rest
from .state import State, permission_bits
from .ui import UI

T = TypeVar("T")
DEFAULT_TOKEN = "local.stand-in.token"


def point_discord_py_at(base_url: str) -> Callable[[], None]:
    """Send every discord.py REST call to ``{base_url}/api/v10``, open the gateway at
    ``ws://…/gateway`` and build CDN addresses (``Emoji.url``: ``{Asset.BASE}/emojis/{id}.png``)
    on ``base_url``; returns a function that restores the previous targets.

    Args:
        base_url: ``http://127.0.0.1:PORT`` (what `StandIn.base_url` gives).
    """
    url = yarl.URL(base_url)
    previous = (
        discord.http.Route.BASE,
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        discord.asset.Asset.BASE,
    )
    discord.http.Route.BASE = str(url / "api" / "v10")
    discord.asset.Asset.BASE = str(url).rstrip("/")
    scheme = "wss" if url.scheme == "https" else "ws"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = url.with_scheme(scheme) / "gateway"

    def restore() -> None:
        (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            discord.asset.Asset.BASE,
        ) = previous

    return restore


class _OfState(Generic[T]):
    """A read-only attribute of `StandIn` that is its `State`'s attribute of the same name.

    Args:
        doc: what the attribute holds (its docstring).
    """

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, stand_in: None, owner: type | None = None) -> _OfState[T]: ...

    @overload
    def __get__(self, stand_in: StandIn, owner: type | None = None) -> T: ...

    def __get__(self, stand_in: StandIn | None, owner: type | None = None) -> T | _OfState[T]:
        """The state's attribute (this descriptor itself when read from the class)."""
        return self if stand_in is None else cast(T, getattr(stand_in.state, self.name))

    def __set__(self, stand_in: StandIn, value: object) -> None:
        """Refuse, as a property without a setter does.

        Raises:
            AttributeError: always.
        """
        raise AttributeError(f"property {self.name!r} of 'StandIn' object has no setter")


class StandIn:
    """A local Discord: a guild (more with `add_guild`), its users and channels, REST + gateway
    (with shards) + a browser page.

    Args:
        guild_name: the guild's name.
        users: names of the human members to create; ``"name:locale"`` gives one a client
            language other than ``en-US`` (``"chloé:fr"``).
        channels: names of the text channels to create.
        bot_name: the bot user's name.
        token: the bot token the client must log in with.
        clock: time source (deadlines, token expiry, rate limit windows); `Clock.advance` lets
            time pass.
        rate_limits: enforce Discord's rate limits (429 with ``retry_after``, see `ratelimits`):
            True for Discord's, a `RateLimits` for other windows, False (default) for none.
    """

    def __init__(
        self,
        *,
        guild_name: str = "Local Guild",
        users: Iterable[str] = ("alice", "bob"),
        channels: Iterable[str] = ("general",),
        bot_name: str = "UNO Bot",
        token: str = DEFAULT_TOKEN,
        clock: Clock | None = None,
        rate_limits: bool | RateLimits = False,
    ) -> None:
        self.clock = clock or Clock()
        self.state = State(guild_name=guild_name, clock=self.clock, bot_name=bot_name, token=token)
        for name in channels:
            self.state.add_channel(name)
        for entry in users:  # "alice", or "alice:fr" for a user whose client speaks French
            name, _, locale = entry.partition(":")
            self.state.add_user(name, locale=locale or "en-US")
        self.gateway = Gateway(self.state, lambda: self.gateway_url)
        self.rest = Rest(self.state, lambda: self.gateway_url)
        self.rate_limits = rate_limits
        self.ui = UI(self)
        # A request may carry a message's every upload (aiohttp's default refuses over 1 MiB):
        # Discord's own limits then answer as Discord does (`limits.check_uploads`).
        most = limits.MAX_ATTACHMENTS * (limits.ATTACHMENT_SIZE_LIMIT + 1) + 1024 * 1024
        self.app = web.Application(middlewares=[self.rest.middleware], client_max_size=most)
        self.app.add_routes(self.rest.routes())
        self.app.add_routes(
            [
                web.get("/gateway", self.gateway.handle),
                web.get("/emojis/{file}", self.rest.emoji_image),
                web.get("/attachments/{channel_id}/{attachment_id}/{name}", self.rest.attachment),
                *self.ui.routes(),
            ]
        )
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0

    # ------------------------------------------------------------------ lifecycle

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> StandIn:
        """Listen on ``host:port`` (0 picks a free port, see `port`)."""
        self._runner = web.AppRunner(self.app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.host, self.port = host, server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.state.cdn_base = self.base_url  # uploads are served here, as Discord's CDN serves them
        return self

    async def close(self) -> None:
        """Close client sockets and stop listening."""
        await self.ui.close()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT`` (the browser page is at ``/``)."""
        return f"http://{self.host}:{self.port}"

    @property
    def api_url(self) -> str:
        """``http://HOST:PORT/api/v10`` (for ``discord.http.Route.BASE``)."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """``ws://HOST:PORT/gateway``."""
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def rate_limits(self) -> RateLimits | None:
        """The rate limits enforced, None when off. Settable at any time: True for Discord's, a
        `RateLimits`, or False; a change starts from empty windows."""
        limiter = self.rest.rate_limiter
        return limiter.limits if limiter is not None else None

    @rate_limits.setter
    def rate_limits(self, value: bool | RateLimits) -> None:
        limits = value if isinstance(value, RateLimits) else None
        self.rest.rate_limiter = RateLimiter(self.clock, limits) if value else None

    # ------------------------------------------------------------------ the world

    token = _OfState[str]("The bot token to log in with.")
    guild_id = _OfState[int]("The first guild's id.")
    application_id = _OfState[int]("The application id (also the bot user's id).")
    bot = _OfState[User]("The bot's own user.")

    @property
    def users(self) -> list[User]:
        """The human members."""
        return [u for u in self.state.users.values() if not u.bot]

    @property
    def channels(self) -> list[Channel]:
        """Every guild's text channels (no threads)."""
        return [c for c in self.state.channels.values() if c.type == 0 and not c.deleted]

    def threads(self, parent: Channel | None = None) -> list[Channel]:
        """The live threads (of ``parent``, or of every channel), archived ones included."""
        return self.state.threads(parent)

    def archive(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive ``thread`` as a member would (THREAD_UPDATE is dispatched)."""
        self.state.set_archived(thread, True, locked=locked)

    def delete_channel(self, channel: Channel) -> None:
        """Delete a text channel or thread (CHANNEL_DELETE or THREAD_DELETE is dispatched)."""
        self.state.delete_channel(channel)

    @property
    def guilds(self) -> list[Guild]:
        """The guilds, the first one first."""
        return list(self.state.guilds.values())

    def add_guild(self, name: str, channels: Iterable[str] = ("uno",)) -> Guild:
        """A new guild with these text channels and every user as a member (GUILD_CREATE goes
        to the sessions of its shard). Guilds fall on successive shards in the order they are
        made (`State.add_guild`)."""
        guild = self.state.add_guild(name)
        for channel in channels:
            self.state.add_channel(channel, guild_id=guild.id)
        return guild

    def guild_channels(self, guild: Guild) -> list[Channel]:
        """The text channels of ``guild``."""
        return [c for c in self.channels if c.guild_id == guild.id]

    def user(self, name: str) -> User:
        """A member by name.

        Raises:
            KeyError: no such member.
        """
        for user in self.state.users.values():
            if user.name == name:
                return user
        raise KeyError(name)

    def channel(self, name: str) -> Channel:
        """A text channel by name.

        Raises:
            KeyError: no such channel.
        """
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(name)

    def add_user(self, name: str, *, permissions: Sequence[str] = (), locale: str = "en-US") -> User:
        """A new member (GUILD_MEMBER_ADD is dispatched to clients with the members intent),
        optionally with extra permissions (see `grant`), whose client speaks ``locale`` (one of
        Discord's, ``"fr"``, ``"pt-BR"``: their interactions' ``locale``).

        Raises:
            ValueError: ``locale`` is none of Discord's.
        """
        user = self.state.add_user(name, locale=locale)
        if permissions:
            self.grant(user, *permissions)
        return user

    def add_channel(self, name: str, topic: str | None = None) -> Channel:
        """A new text channel in the first guild (CHANNEL_CREATE is dispatched)."""
        return self.state.add_channel(name, topic)

    def grant(self, user: User, *permissions: str) -> Role:
        """Give ``user`` a new role with these permissions (``"manage_messages"``,
        ``"manage_channels"``, any key of `state.PERMISSIONS`)."""
        role = self.state.add_role("+".join(permissions) or "role", permission_bits(permissions))
        self.state.assign_role(user, role)
        return role

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user``."""
        return self.state.dm_channel(user)

    def commands(self, *, guild: bool = True) -> list[JSON]:
        """The commands the bot synced, guild-scoped (default) or global, as stored."""
        return self.state.commands.get(self.guild_id if guild else None, [])

    # ------------------------------------------------------------------ users acting

    async def _connected(self, timeout: float) -> None:
        def connected() -> bool:
            return any(s.connection is not None for s in self.gateway.sessions.values())

        try:
            await self.state.wait_until(connected, timeout)
        except TimeoutError:
            raise CommandUsageError("no bot is connected to the gateway") from None

    async def slash(
        self, user: User, channel: Channel, command: str, *, timeout: float = WAIT_SECONDS, **options: Any
    ) -> InteractionRecord:
        """``user`` runs ``/command`` in ``channel`` (waits until the command is synced).

        Args:
            command: the path, ``"uno new"`` (group and subcommand words), or a whole line
                ``"uno new variant:flip"`` as typed.
            timeout: how long to wait for a gateway session and a first command sync.
            options: option values by name: str/int/float/bool, or a `User`, `Channel` or
                `Role` (also an id or name) for those option types; a choice by value or name.

        Raises:
            CommandUsageError: what the Discord client would refuse (unknown command or option,
                missing required option, an option given twice, value out of range, a boolean
                that is not true/false).
        """
        path, typed = interactions.parse_command_line(command)
        twice = ", ".join(name for name in options if name in typed)
        if twice:
            raise CommandUsageError(f"options given twice (typed and by keyword): {twice}")
        given: dict[str, Any] = {**typed, **options}

        await self._connected(timeout)
        with contextlib.suppress(TimeoutError):  # then find_command says what is missing
            await self.state.wait_until(lambda: any(self.state.commands.values()), timeout)
        data = interactions.command_data(self.state, path, given, channel.guild_id, user.locale)
        name = " ".join(path)
        return interactions.start(self.state, user, channel, 2, data, command=name)

    async def click(
        self, user: User, message: Message, custom_id: str | None = None, *, label: str | None = None
    ) -> InteractionRecord:
        """``user`` clicks a button of ``message``, named by custom_id or label.

        Raises:
            CommandUsageError: no such button, it is disabled, or ``user`` cannot see the message.
        """
        if custom_id is None:
            try:
                custom_id = message.component(label=label)["custom_id"]
            except KeyError:
                raise CommandUsageError(f"message {message.id} has no button {label!r}") from None
        assert custom_id is not None
        await self._connected(WAIT_SECONDS)
        data = interactions.component_data(message, custom_id, None)
        return interactions.start(self.state, user, message.channel, 3, data, message=message)

    async def select(
        self, user: User, message: Message, custom_id: str, values: Sequence[str]
    ) -> InteractionRecord:
        """``user`` picks ``values`` in a select of ``message``.

        Raises:
            CommandUsageError: no such select, disabled, or values it does not offer.
        """
        await self._connected(WAIT_SECONDS)
        data = interactions.component_data(message, custom_id, list(values))
        return interactions.start(self.state, user, message.channel, 3, data, message=message)

    async def submit_modal(
        self, user: User, shown: InteractionRecord, values: dict[str, str]
    ) -> InteractionRecord:
        """``user`` submits the modal the bot answered ``shown`` with (callback type 9).

        Args:
            values: text input values (or select values) by custom_id.

        Raises:
            CommandUsageError: ``shown`` got no modal, was submitted already, or other inputs.
        """
        if shown.modal is None or shown.user is not user or shown.modal_submitted:
            raise CommandUsageError(f"{user.name} has no open modal from {shown!r}")
        await self._connected(WAIT_SECONDS)
        data = interactions.modal_data(shown.modal, values)
        shown.modal_submitted = True
        return interactions.start(
            self.state, user, shown.channel, 5, data, message=shown.source_message, trigger=shown
        )

    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` posts a plain message (MESSAGE_CREATE is dispatched)."""
        return self.state.create_message(channel, user, {"content": content})

    def request_gateway_reconnect(self) -> None:
        """Ask connected clients to reconnect (op 7); discord.py resumes the session."""
        self.gateway.request_reconnect()

    # ------------------------------------------------------------------ observing

    def visible_messages(self, user: User, channel: Channel | None = None) -> list[Message]:
        """What ``user`` sees, oldest first: public messages, their own ephemerals, their DMs;
        only ``channel``'s when given."""
        return self.state.visible_messages(user, channel)

    def messages(self, channel: Channel) -> list[Message]:
        """The channel's live public (non-ephemeral) messages, oldest first."""
        return [m for m in self.state.visible_messages(self.bot, channel)]

    @property
    def interactions(self) -> list[InteractionRecord]:
        """Every interaction started, oldest first."""
        return list(self.state.interactions.values())

    requests = _OfState[list[RequestRecord]]("Every ``/api`` request, in arrival order.")

    @property
    def errors(self) -> list[RequestRecord]:
        """Requests answered with a Discord error (status >= 400, 429s included)."""
        return [r for r in self.state.requests if r.status >= 400]

    @property
    def rate_limited(self) -> list[RequestRecord]:
        """Requests answered 429 (a client such as discord.py waits and sends them again)."""
        return [r for r in self.state.requests if r.status == 429]

    @property
    def unknown_routes(self) -> list[RequestRecord]:
        """Requests to routes the stand-in does not have (answered 404)."""
        return [r for r in self.state.requests if r.unknown_route]

    @property
    def requests_per_channel(self) -> dict[int, int]:
        """Request count per channel id (channel routes and interaction/webhook calls)."""
        return dict(self.state.requests_per_channel)

    async def wait_until(self, predicate: Callable[[], T | None], timeout: float = WAIT_SECONDS) -> T:
        """Wait until ``predicate()`` is truthy, re-checked on every state change; returns it.

        Raises:
            TimeoutError: not within ``timeout`` seconds.
            AssertionError: a problem was reported meanwhile (see `testing`).
        """
        return await self.state.wait_until(predicate, timeout)

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] = lambda m: True,
        *,
        user: User | None = None,
        timeout: float = WAIT_SECONDS,
    ) -> Message:
        """The newest message in ``channel`` (visible to ``user``, default: public ones) that
        satisfies ``predicate``, waiting for it if needed."""
        viewer = user or self.bot

        def find() -> Message | None:
            matching = [m for m in self.visible_messages(viewer, channel) if predicate(m)]
            return matching[-1] if matching else None

        return await self.wait_until(find, timeout)

    async def wait_for_gateway(self, timeout: float = WAIT_SECONDS) -> None:
        """Wait until a client has IDENTIFYed (READY and GUILD_CREATE sent)."""
        await self.wait_until(lambda: self.gateway.identifies > 0, timeout)

    async def __aenter__(self) -> StandIn:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


async def start_stand_in(
    host: str = "127.0.0.1",
    port: int = 0,
    guild_name: str = "Local Guild",
    users: Iterable[str] = ("alice", "bob"),
    **options: Any,
) -> StandIn:
    """Create and start a `StandIn` (``port`` 0 picks a free one); ``await it.close()`` ends it.

    Args:
        host, port: where it listens (`StandIn.start`).
        guild_name, users: as for `StandIn` (here they may be given by position).
        options: `StandIn`'s other keywords: ``channels``, ``bot_name``, ``token``, ``clock``,
            ``rate_limits``.

    Raises:
        TypeError: a keyword `StandIn` does not take.
    """
    return await StandIn(guild_name=guild_name, users=users, **options).start(host, port)


__all__ = [
    "DEFAULT_TOKEN",
    "StandIn",
    "point_discord_py_at",
    "start_stand_in",
]
