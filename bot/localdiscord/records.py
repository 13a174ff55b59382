"""The stand-in's records: users, roles, channels, messages, interactions and requests.

Records are plain mutable objects owned by `State`; a test may hold one and read it later (a
`Message` shows its latest edit). JSON payloads in Discord's shapes are built by `State`, which
knows the guild around them.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from .limits import FLAG_EPHEMERAL, FLAG_LOADING, walk_components

JSON = dict[str, Any]
DISCORD_EPOCH_MS = 1_420_070_400_000


class Clock:
    """Seconds since the Unix epoch: real time shifted by `advance`, so a test can let 3 seconds
    or 15 minutes pass without sleeping. Pass your own to `start_stand_in(clock=...)`.

    Args:
        frozen: stand still at the time of creation (only `advance` moves it), for a test that
            must not see a deadline or a rate limit window pass while the machine is slow.
    """

    def __init__(self, *, frozen: bool = False) -> None:
        self._offset = 0.0
        self._frozen_at = time.time() if frozen else None

    def now(self) -> float:
        """Current time in seconds since the epoch."""
        base = time.time() if self._frozen_at is None else self._frozen_at
        return base + self._offset

    def advance(self, seconds: float) -> None:
        """Move time forward (interaction deadlines and token expiry read this clock)."""
        self._offset += seconds


def iso(seconds: float) -> str:
    """An ISO 8601 timestamp as Discord writes them (``2025-01-01T12:00:00.000000+00:00``)."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="microseconds")


class Snowflakes:
    """Strictly increasing Discord snowflakes whose timestamp part follows the clock."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._last = 0

    def next(self) -> int:
        """A new id."""
        stamp = (int(self._clock.now() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, stamp)
        return self._last

    def next_after(self, previous: int, period: int = 840) -> int:
        """A new id whose millisecond follows ``previous``'s modulo ``period`` (so it may lie up
        to ``period`` ms ahead of the clock): ids made one after another this way fall on
        successive shards, ``(id >> 22) % shard_count``, for every count dividing ``period``
        (840: every count from 1 to 8, and 10, 12, 14, 15, 20, ...)."""
        millisecond = self.next() >> 22
        millisecond += ((previous >> 22) + 1 - millisecond) % period
        self._last = max(self._last + 1, millisecond << 22)
        return self._last


@dataclass(eq=False)
class User:
    """A member of every guild of the stand-in (so user and member are one record; its roles
    are those of all guilds)."""

    id: int
    name: str
    bot: bool = False
    joined_at: str = ""
    role_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"
    """Their Discord client's language (one of `limits.LOCALES`): sent as ``locale`` in their
    interactions, and the language their client shows commands in."""

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"User({self.name!r}, id={self.id})"


@dataclass(eq=False)
class Role:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    color: int = 0
    bot_id: int | None = None


@dataclass(eq=False)
class Guild:
    """A guild: its name and roles (the @everyone role has the guild's id); an owner who is not
    a member, so nobody gets owner rights."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)

    def shard(self, shard_count: int) -> int:
        """The shard whose gateway connection gets this guild's events: ``(id >> 22) %
        shard_count`` (https://discord.com/developers/docs/events/gateway#sharding)."""
        return (self.id >> 22) % shard_count

    def __repr__(self) -> str:
        return f"Guild({self.name!r}, id={self.id})"


@dataclass(eq=False)
class Channel:
    """A guild text channel (type 0, ``guild_id`` set), a DM with one user (type 1,
    ``recipient`` set), or a public thread (type 11) of a text channel (``parent`` and
    ``guild_id`` set; its id is its starter message's, as on Discord for a thread started from a
    message)."""

    id: int
    name: str
    type: Literal[0, 1, 11] = 0
    position: int = 0
    topic: str | None = None
    recipient: User | None = None
    last_message_id: int | None = None  # the newest message's, deleted or not, as Discord's
    parent: Channel | None = None
    owner: User | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_minutes: int = 1440
    archive_timestamp: str | None = None
    created: str = ""
    message_count: int = 0
    deleted: bool = False
    guild_id: int | None = None

    @property
    def is_dm(self) -> bool:
        """Whether this is a DM channel."""
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        """Whether this is a thread (public, type 11)."""
        return self.type == 11

    def __repr__(self) -> str:
        return f"Channel({self.name!r}, id={self.id})"


@dataclass(eq=False)
class Emoji:
    """An application emoji: its name and image (``content_type`` is the uploaded format; the
    stand-in's CDN route serves these bytes)."""

    id: int
    name: str
    image: bytes
    content_type: str
    user: User

    @property
    def animated(self) -> bool:
        """Whether the image is a GIF (Discord marks animated uploads; the stand-in takes every
        GIF as one)."""
        return self.content_type == "image/gif"

    @property
    def mention(self) -> str:
        """``<:name:id>`` (``<a:name:id>`` if animated), as text shows it."""
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"

    def __repr__(self) -> str:
        return f"Emoji({self.name!r}, id={self.id})"


@dataclass(eq=False)
class Message:
    """A stored message, updated in place by edits.

    ``ephemeral_for`` is the only user who sees an ephemeral message; ``interaction`` is the
    interaction whose response or followup this is (None for plain channel messages).
    """

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[JSON] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = ""
    edited_timestamp: str | None = None
    mentions: list[User] = field(default_factory=list)
    ephemeral_for: User | None = None
    interaction: InteractionRecord | None = None
    webhook_id: int | None = None
    reference: JSON | None = None
    deleted: bool = False
    revision: int = 0
    thread: Channel | None = None  # the thread started from this message

    @property
    def ephemeral(self) -> bool:
        """Whether the message has flag 64 (only its interaction's user sees it)."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "thinking…" placeholder (flag 128)."""
        return bool(self.flags & FLAG_LOADING)

    def all_components(self) -> Iterator[JSON]:
        """Every component (rows and their children), depth first."""
        return walk_components(self.components)

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> JSON:
        """The component with this custom_id, or the first whose label is ``label``.

        Raises:
            KeyError: no such component.
        """
        for component in self.all_components():
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            if label is not None and component.get("label") == label:
                return component
        raise KeyError(custom_id if custom_id is not None else label)

    @property
    def buttons(self) -> list[JSON]:
        """Button components (type 2)."""
        return [c for c in self.all_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[JSON]:
        """Select components (types 3, 5-8)."""
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def text(self) -> str:
        """Content plus every embed's title, description, field names and values, footer: one
        string to search in assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        parts += [c.get("content") or "" for c in self.all_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def __repr__(self) -> str:
        kind = "ephemeral " if self.ephemeral else ""
        return f"Message({kind}id={self.id}, author={self.author.name!r}, text={self.text[:60]!r})"


@dataclass(frozen=True)
class InteractionResponse:
    """How the bot acknowledged an interaction.

    Attributes:
        type: callback type: 4 message, 5 deferred message ("thinking"), 6 deferred update,
            7 update message, 9 modal.
        message: the message created (4, 5) or the component's message (6, 7); None for 9.
        modal: the modal body ``{"custom_id", "title", "components"}`` for type 9.
    """

    type: int
    message: Message | None
    modal: JSON | None = None


Waiter = Callable[[Callable[[], Any], float], Awaitable[Any]]
WAIT_SECONDS = 30.0
"""How long the stand-in's waits (`State.wait_until` and every wait built on it) allow by default
for what must happen: a wait returns as soon as it does, so a long deadline costs a passing test
nothing, and a loaded machine (a busy CI host, other suites beside) fails none. A test that
asserts that something does *not* happen gives its own, short, timeout."""


@dataclass(eq=False)
class InteractionRecord:
    """One interaction a simulated user started, and everything the bot did with it.

    ``type`` is 2 (slash command), 3 (component) or 5 (modal submit). ``payload`` is the
    INTERACTION_CREATE data as dispatched. ``original`` is the ``@original`` message (the
    response for types 4/5, the component's message for 6/7); ``followups`` are later webhook
    messages. ``delivered_at`` is when INTERACTION_CREATE was written to the bot's gateway
    socket (its arrival at the bot; None while not yet sent). ``acknowledged_at`` is the
    callback's time (Discord's 3-second deadline counts from ``created_at``);
    ``answered_at`` when the user first saw the answer (the callback, or after a deferral the
    first followup or ``@original`` edit), and ``answer_message`` that message.
    """

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    created_at: float
    payload: JSON
    waiter: Waiter
    source_message: Message | None = None
    command: str | None = None
    response_type: int | None = None
    delivered_at: float | None = None
    acknowledged_at: float | None = None
    answered_at: float | None = None
    answer_message: Message | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: JSON | None = None
    modal_submitted: bool = False
    trigger: InteractionRecord | None = None

    def acknowledged(self) -> bool:
        """Whether the bot answered the callback in time."""
        return self.response_type is not None

    def current_response(self) -> InteractionResponse | None:
        """The response so far, or None before the callback."""
        if self.response_type is None:
            return None
        return InteractionResponse(self.response_type, self.original, self.modal)

    async def response(self, timeout: float = WAIT_SECONDS) -> InteractionResponse:
        """Wait for the bot's callback.

        Raises:
            TimeoutError: no callback within ``timeout`` seconds.
        """
        result: InteractionResponse = await self.waiter(self.current_response, timeout)
        return result

    def current_answer(self) -> InteractionResponse | None:
        """The response once the user sees the bot's answer (see `answer`), else None."""
        if self.answered_at is None or self.response_type is None:
            return None
        return InteractionResponse(self.response_type, self.answer_message, self.modal)

    async def answer(self, timeout: float = WAIT_SECONDS) -> InteractionResponse:
        """Wait for the bot's answer: a callback with content (4 message, 7 update, 9 modal), or
        after a deferral (5, 6) the first followup or ``@original`` edit. The response's message
        is the one that answered: the new or updated message, or the first followup.

        Raises:
            TimeoutError: no answer within ``timeout`` seconds.
        """
        result: InteractionResponse = await self.waiter(self.current_answer, timeout)
        return result

    async def followup(self, index: int = 0, timeout: float = WAIT_SECONDS) -> Message:
        """Wait for the ``index``-th followup message (a followup that replaced a deferred
        "thinking" response is the original, not a followup)."""

        def ready() -> Message | None:
            return self.followups[index] if len(self.followups) > index else None

        message: Message = await self.waiter(ready, timeout)
        return message

    def __repr__(self) -> str:
        what = self.command or self.payload.get("data", {}).get("custom_id")
        return f"Interaction(id={self.id}, type={self.type}, {what!r}, by={self.user.name!r})"


@dataclass
class RequestRecord:
    """One HTTP request the client made to ``/api/v10``.

    Attributes:
        at: clock time of arrival.
        method, path, query: the request line (path without the ``/api/v10`` prefix).
        body: the JSON body (``payload_json`` for multipart), or None.
        status: HTTP status answered.
        response: the JSON answered, or None (204).
        error: the Discord error answered, if any.
        channel_id: the channel the request concerns, if any.
    """

    at: float
    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int = 0
    response: Any = None
    error: Any = None
    channel_id: int | None = None
    unknown_route: bool = False

    def __repr__(self) -> str:
        code = f" code={self.error.code}" if self.error is not None else ""
        return f"<{self.method} {self.path} -> {self.status}{code}>"
