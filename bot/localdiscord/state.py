"""The stand-in's world: its guilds (one unless more are added) with their roles, channels,
members and messages, DMs, the synced commands, the interactions, the request log, and a change
signal to wait on.

Everything runs on one event loop, so no locks: every mutation ends in `State.changed()`, which
wakes `wait_until` and the browser page.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from . import limits
from .limits import FLAG_EPHEMERAL, JSON, LOCALES, DiscordError
from .records import (
    WAIT_SECONDS,
    Channel,
    Clock,
    Emoji,
    Guild,
    InteractionRecord,
    Message,
    RequestRecord,
    Role,
    Snowflakes,
    User,
    iso,
)

T = TypeVar("T")
POLL_SECONDS = 0.01

# Permission bits (https://discord.com/developers/docs/topics/permissions).
PERMISSIONS = {
    "create_instant_invite": 1 << 0,
    "manage_channels": 1 << 4,
    "administrator": 1 << 3,
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "change_nickname": 1 << 26,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "send_messages_in_threads": 1 << 38,
}
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = sum(
    PERMISSIONS[name]
    for name in (
        "create_instant_invite",
        "add_reactions",
        "view_channel",
        "send_messages",
        "embed_links",
        "attach_files",
        "read_message_history",
        "use_external_emojis",
        "change_nickname",
        "use_application_commands",
        "create_public_threads",
        "send_messages_in_threads",
    )
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | PERMISSIONS["manage_messages"] | PERMISSIONS["manage_threads"]
_MENTION = re.compile(r"<@!?(\d+)>")
FLAG_HAS_THREAD = 1 << 5  # a message that started a thread


def permission_bits(names: Iterable[str]) -> int:
    """OR of named permissions (``"manage_messages"``, ...).

    Raises:
        KeyError: an unknown name.
    """
    return sum(PERMISSIONS[name] for name in set(names))


def _by_id(table: Mapping[int, T], key: int | str, what: str) -> T:
    """``table``'s entry for the id ``key`` (an int, or its decimal text as in a route).

    Raises:
        DiscordError: 404 Unknown ``what`` (`limits.unknown`) when ``key`` is not an id there.
    """
    try:
        return table[int(key)]
    except (KeyError, ValueError):
        raise limits.unknown(what) from None


class State:
    """The guilds, the DMs, commands, interactions and the request log.

    Every user is a member of every guild. ``guild_id``, ``guild_name``, ``owner_id`` and
    ``roles`` are the first guild's, which every method uses when not given another.

    Args:
        guild_name: the first guild's name.
        clock: time source for deadlines, token expiry, ids and timestamps.
        bot_name: the bot user's name.
        token: the bot token REST and IDENTIFY must present.
    """

    def __init__(self, *, guild_name: str, clock: Clock, bot_name: str, token: str) -> None:
        self.clock = clock
        self.ids = Snowflakes(clock)
        self.token = token
        first = self.ids.next()
        self.application_id = self.ids.next()
        self.bot = User(self.application_id, bot_name, bot=True, joined_at=iso(clock.now()))
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        guild = self._new_guild(first, guild_name)
        self.guild_id, self.guild_name, self.owner_id = guild.id, guild.name, guild.owner_id
        self.guild_locale = "en-US"  # every guild's language ("Community" settings): guild_locale
        self.roles: dict[int, Role] = guild.roles
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.emojis: dict[int, Emoji] = {}
        self.files: dict[int, tuple[str, bytes]] = {}  # attachment id -> uploaded (file name, bytes)
        self.cdn_base = "http://127.0.0.1"  # where attachments are served (`StandIn.start` sets its own)
        # Report (`fail`) text or media naming a custom emoji that does not exist: Discord shows
        # such text as ":name:" and such an image as broken, without refusing (tests turn it on).
        self.check_emojis = False
        self.interactions: dict[int, InteractionRecord] = {}
        self.tokens: dict[str, InteractionRecord] = {}
        self.requests: list[RequestRecord] = []
        self.requests_per_channel: Counter[int] = Counter()
        self.problems: list[str] = []
        self.dispatch: Callable[[str, JSON], None] = lambda event, data: None
        self._listeners: list[Callable[[], None]] = []
        self._changed: asyncio.Event | None = None
        self._recommended_shards: int | None = None

    # ------------------------------------------------------------------ change signal

    def changed(self) -> None:
        """Signal a state change: wakes every `wait_until` and calls the listeners."""
        if self._changed is not None:
            self._changed.set()
            self._changed = None
        for listener in list(self._listeners):
            listener()

    def add_listener(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` after every change; returns a function that removes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def wait_until(self, predicate: Callable[[], T | None], timeout: float = WAIT_SECONDS) -> T:
        """Wait until ``predicate()`` is truthy; return it. It is checked now, after every
        change, and every `POLL_SECONDS` (for conditions on the bot's side, which the stand-in
        does not see change).

        Raises:
            TimeoutError: still falsy after ``timeout`` seconds.
            AssertionError: a problem was reported (`fail`) meanwhile.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if self.problems:
                raise AssertionError("stand-in problems: " + "; ".join(self.problems))
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s: {predicate}")
            if self._changed is None:
                self._changed = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, POLL_SECONDS))

    def fail(self, problem: str) -> None:
        """Record a problem that should fail the running test, and wake the waiters."""
        self.problems.append(problem)
        self.changed()

    @property
    def recommended_shards(self) -> int:
        """The shard count ``GET /gateway/bot`` recommends: one per 1,000 guilds as Discord
        does, unless set (a test sets it to see a bot follow it)."""
        if self._recommended_shards is not None:
            return self._recommended_shards
        return max(1, -(-len(self.guilds) // 1000))

    @recommended_shards.setter
    def recommended_shards(self, value: int | None) -> None:
        self._recommended_shards = value

    # ------------------------------------------------------------------ guild contents

    def _new_guild(self, guild_id: int, name: str) -> Guild:
        """A guild with its @everyone role and the bot's role, which the bot holds."""
        guild = Guild(guild_id, name, owner_id=self.ids.next())
        guild.roles[guild.id] = Role(guild.id, "@everyone", EVERYONE_PERMISSIONS)
        bot_role = Role(self.ids.next(), self.bot.name, BOT_PERMISSIONS, 1, bot_id=self.application_id)
        guild.roles[bot_role.id] = bot_role
        self.bot.role_ids.append(bot_role.id)
        self.guilds[guild.id] = guild
        return guild

    def add_guild(self, name: str) -> Guild:
        """A new guild with every user as a member (dispatches GUILD_CREATE, as when the bot
        joins one). Guilds fall on successive shards in the order they are made, the first on
        shard ``(guild_id >> 22) % count``, the next on the next shard, and so on, for any count
        from 1 to 8 (`Snowflakes.next_after`)."""
        guild = self._new_guild(self.ids.next_after(max(self.guilds)), name)
        self.dispatch("GUILD_CREATE", self.guild_create_payload(guild.id, members=False))
        self.changed()
        return guild

    def get_guild(self, guild_id: int | str) -> Guild:
        """A guild by id.

        Raises:
            DiscordError: 10004 Unknown Guild.
        """
        return _by_id(self.guilds, guild_id, "Guild")

    def add_user(self, name: str, *, bot: bool = False, locale: str = "en-US") -> User:
        """A new member of every guild (dispatches GUILD_MEMBER_ADD in each) whose client speaks
        ``locale``.

        Raises:
            ValueError: ``locale`` is none of Discord's.
        """
        if locale not in LOCALES:
            raise ValueError(f"{locale!r} is none of Discord's locales ({', '.join(sorted(LOCALES))})")
        user = User(self.ids.next(), name, bot=bot, joined_at=iso(self.clock.now()), locale=locale)
        self.users[user.id] = user
        for guild_id in self.guilds:
            self.dispatch("GUILD_MEMBER_ADD", {**self.member_payload(user), "guild_id": str(guild_id)})
        self.changed()
        return user

    def add_channel(self, name: str, topic: str | None = None, *, guild_id: int | None = None) -> Channel:
        """A new text channel in the guild (default: the first; dispatches CHANNEL_CREATE)."""
        guild = self.guilds[guild_id or self.guild_id]
        position = sum(1 for c in self.channels.values() if c.guild_id == guild.id and c.type == 0)
        channel = Channel(self.ids.next(), name, 0, position, topic, guild_id=guild.id)
        self.channels[channel.id] = channel
        self.dispatch("CHANNEL_CREATE", self.channel_payload(channel))
        self.changed()
        return channel

    def add_role(self, name: str, permissions: int, *, guild_id: int | None = None) -> Role:
        """A new role in the guild (default: the first; dispatches GUILD_ROLE_CREATE)."""
        guild = self.guilds[guild_id or self.guild_id]
        role = Role(self.ids.next(), name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": self.role_payload(role)})
        self.changed()
        return role

    def _guild_of_role(self, role: Role) -> Guild:
        return next(g for g in self.guilds.values() if role.id in g.roles)

    def assign_role(self, user: User, role: Role) -> None:
        """Give ``user`` the role (dispatches GUILD_MEMBER_UPDATE in the role's guild)."""
        if role.id not in user.role_ids:
            user.role_ids.append(role.id)
        guild = self._guild_of_role(role)
        self.dispatch(
            "GUILD_MEMBER_UPDATE", {**self.member_payload(user, guild.id), "guild_id": str(guild.id)}
        )
        self.changed()

    def permissions(self, user: User, guild_id: int | None = None) -> int:
        """Guild-level permissions in the guild (default: the first): @everyone OR the user's
        roles there; administrator means all."""
        roles = self.guilds[guild_id or self.guild_id].roles
        bits = roles[guild_id or self.guild_id].permissions
        for role_id in user.role_ids:
            if role_id in roles:
                bits |= roles[role_id].permissions
        return ALL_PERMISSIONS if bits & PERMISSIONS["administrator"] else bits

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user``, created on first use."""
        for channel in self.channels.values():
            if channel.recipient is user:
                return channel
        channel = Channel(self.ids.next(), f"dm-{user.name}", 1, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def get_channel(self, channel_id: int | str) -> Channel:
        """Channel by id.

        Raises:
            DiscordError: 10003 Unknown Channel.
        """
        channel = _by_id(self.channels, channel_id, "Channel")
        if channel.deleted:
            raise limits.unknown("Channel")
        return channel

    # ------------------------------------------------------------------ threads

    def create_thread(self, message: Message, author: User, body: JSON) -> Channel:
        """Start a public thread (type 11) from ``message`` of a text channel, as ``author``
        (``POST /channels/{id}/messages/{id}/threads``): its id is the message's, its creator
        its member; dispatches THREAD_CREATE (``newly_created``) and MESSAGE_UPDATE of the
        starter, which now names its thread
        (https://discord.com/developers/docs/resources/channel#start-thread-from-message).

        Raises:
            DiscordError: 50024 not a text channel's message (a DM, a thread); 160004 the
                message has a thread already; 50013 ``author`` lacks Create Public Threads.
        """
        parent = message.channel
        if parent.type != 0:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if message.thread is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        if not self.permissions(author, parent.guild_id) & PERMISSIONS["create_public_threads"]:
            raise limits.missing_permissions()
        now = iso(self.clock.now())
        thread = Channel(
            message.id,
            str(body["name"]),
            11,
            parent=parent,
            owner=author,
            auto_archive_minutes=int(body.get("auto_archive_duration") or 4320),
            archive_timestamp=now,
            created=now,
            guild_id=parent.guild_id,
        )
        self.channels[thread.id] = thread
        message.thread = thread
        message.flags |= FLAG_HAS_THREAD
        self.dispatch("THREAD_CREATE", {**self.channel_payload(thread), "newly_created": True})
        self.dispatch("MESSAGE_UPDATE", self.message_payload(message, gateway=True))
        self.changed()
        return thread

    def set_archived(self, thread: Channel, archived: bool = True, *, locked: bool | None = None) -> None:
        """Archive (or unarchive) ``thread``, as a member or Discord's inactivity timer does;
        dispatches THREAD_UPDATE."""
        thread.archived = archived
        if locked is not None:
            thread.locked = locked
        thread.archive_timestamp = iso(self.clock.now())
        self.dispatch("THREAD_UPDATE", self.channel_payload(thread))
        self.changed()

    def delete_channel(self, channel: Channel) -> None:
        """Delete a text channel (CHANNEL_DELETE; its threads go with it) or a thread
        (THREAD_DELETE, with only its ids and type, as Discord sends it)."""
        channel.deleted = True
        if channel.is_thread:
            assert channel.parent is not None
            self.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent.id),
                    "type": 11,
                },
            )
        else:
            self.dispatch("CHANNEL_DELETE", self.channel_payload(channel))
            for thread in self.threads(channel):
                thread.deleted = True
        self.changed()

    def _reopen(self, channel: Channel) -> None:
        """A message sent in an archived thread unarchives it, unless it is locked
        (https://discord.com/developers/docs/topics/threads#archiving-and-unarchiving).

        Raises:
            DiscordError: 50083 the thread is archived and locked.
        """
        if channel.archived:
            if channel.locked:
                raise limits.thread_archived()
            self.set_archived(channel, False)

    def threads(self, parent: Channel | None = None, *, archived: bool = True) -> list[Channel]:
        """The live threads (of ``parent``, or of every channel), oldest first; without
        ``archived``, only the active ones."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread
            and not c.deleted
            and (parent is None or c.parent is parent)
            and (archived or not c.archived)
        ]

    def get_user(self, user_id: int | str) -> User:
        """User by id.

        Raises:
            DiscordError: 10013 Unknown User.
        """
        return _by_id(self.users, user_id, "User")

    def get_message(self, channel: Channel, message_id: int | str) -> Message:
        """A live message of ``channel``.

        Raises:
            DiscordError: 10008 Unknown Message (also for deleted ones).
        """
        message = _by_id(self.messages, message_id, "Message")
        if message.deleted or message.channel is not channel:
            raise limits.unknown("Message")
        return message

    # ------------------------------------------------------------------ messages

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: JSON,
        *,
        base: tuple[str, ...] = (),
        ephemeral_for: User | None = None,
        interaction: InteractionRecord | None = None,
        type: int = 0,
        validate: bool = True,
        files: Sequence[tuple[str, bytes]] = (),
    ) -> Message:
        """Store a new message from a create body (and uploaded ``files`` as (name, bytes)) and
        dispatch MESSAGE_CREATE (not for ephemerals). Flag 64 makes it ephemeral for
        ``ephemeral_for``.

        Raises:
            DiscordError: the body breaks a limit (see `limits.check_message`).
        """
        if validate:
            limits.check_message(body, base=base, emoji_ids=self.emojis)
        self._reopen(channel)
        flags = int(body.get("flags") or 0)
        if not flags & FLAG_EPHEMERAL:
            ephemeral_for = None
        message = Message(
            id=self.ids.next(),
            channel=channel,
            author=author,
            type=type,
            flags=flags,
            timestamp=iso(self.clock.now()),
            ephemeral_for=ephemeral_for,
            interaction=interaction,
            webhook_id=self.application_id if interaction is not None else None,
            reference=body.get("message_reference"),
        )
        self._apply(message, body)
        self._add_files(message, files)
        self.messages[message.id] = message
        channel.last_message_id = message.id
        channel.message_count += channel.is_thread and not message.ephemeral
        if not message.ephemeral:
            self.dispatch("MESSAGE_CREATE", self.message_payload(message, gateway=True))
        self.changed()
        return message

    def edit_message(
        self,
        message: Message,
        body: JSON,
        *,
        base: tuple[str, ...] = (),
        files: Sequence[tuple[str, bytes]] = (),
    ) -> Message:
        """Apply an edit body (present keys replace; ``null`` clears) and dispatch MESSAGE_UPDATE
        (not for ephemerals).

        Raises:
            DiscordError: the body breaks a limit or would leave the message empty.
        """
        current = {
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "attachments": message.attachments,
            "flags": message.flags,
        }
        limits.check_message(body, base=base, current=current, emoji_ids=self.emojis)
        if message.channel.archived and not message.ephemeral:
            raise limits.thread_archived()
        self._apply(message, body, editing=True)
        self._add_files(message, files)
        message.flags &= ~limits.FLAG_LOADING
        message.edited_timestamp = iso(self.clock.now())
        message.revision += 1
        if not message.ephemeral:
            self.dispatch("MESSAGE_UPDATE", self.message_payload(message, gateway=True))
        self.changed()
        return message

    def delete_message(self, message: Message) -> None:
        """Mark deleted and dispatch MESSAGE_DELETE (not for ephemerals)."""
        message.deleted = True
        if not message.ephemeral:
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild_id is not None:
                data["guild_id"] = str(message.channel.guild_id)
            self.dispatch("MESSAGE_DELETE", data)
        self.changed()

    def _apply(self, message: Message, body: JSON, *, editing: bool = False) -> None:
        if "content" in body:
            message.content = body["content"] or ""
            message.mentions = [
                self.users[int(i)] for i in _MENTION.findall(message.content) if int(i) in self.users
            ]
        if "embeds" in body:
            message.embeds = [{"type": "rich", **embed} for embed in body["embeds"] or []]
        if "components" in body:
            message.components = _number_components(body["components"] or [], self.ids.next)
        if "attachments" in body:
            kept = {str(a.get("id")) for a in body["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a["id"]) in kept]
        if editing and body.get("flags") is not None:
            # Only SUPPRESS_EMBEDS can change after creation, and IS_COMPONENTS_V2 be set
            # (`limits.check_message` refuses its removal).
            flags = int(body["flags"])
            suppress = limits.FLAG_SUPPRESS_EMBEDS
            message.flags = (
                (message.flags & ~suppress) | (flags & suppress) | (flags & limits.FLAG_COMPONENTS_V2)
            )
        if self.check_emojis and message.author is self.bot:
            for problem in self._missing_emojis(message):
                self.fail(problem)

    def _missing_emojis(self, message: Message) -> list[str]:
        """Custom emojis ``message`` shows in its text (``<:name:id>`` in content, embeds and text
        displays) or as media (an emoji image URL) that do not exist."""
        found = [int(i) for _, i in limits.CUSTOM_EMOJI.findall(message.text)]
        for component in message.all_components():
            for media in [component.get("media"), *[i.get("media") for i in component.get("items") or []]]:
                url = (media or {}).get("url") if isinstance(media, dict) else None
                found += [int(i) for i in limits.EMOJI_URL.findall(str(url or ""))]
        return [
            f"message {message.id} shows custom emoji {emoji_id}, which does not exist"
            for emoji_id in dict.fromkeys(found)
            if emoji_id not in self.emojis
        ]

    # ------------------------------------------------------------------ application emojis

    def create_emoji(self, name: Any, image: Any) -> Emoji:
        """A new application emoji from a create body's ``name`` and ``image`` (a data URI).

        Raises:
            DiscordError: a bad or taken name, bad image data, too large, 2,000 emojis already
                (`limits.check_emoji_name`, `limits.emoji_image`).
        """
        limits.check_emoji_name(name, self._emoji_named(name) is not None)
        content_type, data = limits.emoji_image(image, len(self.emojis))
        emoji = Emoji(self.ids.next(), name, data, content_type, self.bot)
        self.emojis[emoji.id] = emoji
        self.changed()
        return emoji

    def rename_emoji(self, emoji: Emoji, name: Any) -> Emoji:
        """Give ``emoji`` a new name.

        Raises:
            DiscordError: a bad name, or another emoji's.
        """
        other = self._emoji_named(name)
        limits.check_emoji_name(name, other is not None and other is not emoji)
        emoji.name = name
        self.changed()
        return emoji

    def delete_emoji(self, emoji: Emoji) -> None:
        """Remove an application emoji (messages that show it keep its id, as on Discord)."""
        del self.emojis[emoji.id]
        self.changed()

    def get_emoji(self, emoji_id: int | str) -> Emoji:
        """An application emoji by id.

        Raises:
            DiscordError: 10014 Unknown Emoji.
        """
        return _by_id(self.emojis, emoji_id, "Emoji")

    def _emoji_named(self, name: Any) -> Emoji | None:
        return next((e for e in self.emojis.values() if e.name == name), None)

    def emoji_payload(self, emoji: Emoji) -> JSON:
        """The emoji object (the spec's ``EmojiResponse``); an application's emojis name the bot
        as their ``user`` when uploaded through the API."""
        return {
            "id": str(emoji.id),
            "name": emoji.name,
            "roles": [],
            "user": self.user_payload(emoji.user),
            "require_colons": True,
            "managed": False,
            "animated": emoji.animated,
            "available": True,
        }

    def _add_files(self, message: Message, files: Sequence[tuple[str, bytes]]) -> None:
        """Keep uploaded files (name, bytes) as attachments of ``message``, served at their
        ``url`` (`Rest.attachment`), replacing the upload descriptions (``{"id": 0, "filename"}``)
        the body carried; an ``attachment://name`` in its components' media or its embeds'
        images becomes that address, as Discord answers it."""
        if not files:
            return
        message.attachments = [a for a in message.attachments if "url" in a]
        urls: dict[str, str] = {}
        for name, data in files:
            attachment_id = self.ids.next()
            url = urls[f"attachment://{name}"] = (
                f"{self.cdn_base}/attachments/{message.channel.id}/{attachment_id}/{name}"
            )
            self.files[attachment_id] = (name, data)
            entry: JSON = {
                "id": str(attachment_id),
                "filename": name,
                "size": len(data),
                "url": url,
                "proxy_url": url,
            }
            if (mime := limits.image_type(data)) is not None:
                entry["content_type"] = mime
            message.attachments.append(entry)
        for media in limits.media_of(message.components, message.embeds):
            if media.get("url") in urls:
                media["url"] = media["proxy_url"] = urls[media["url"]]

    # ------------------------------------------------------------------ visibility

    def can_see(self, user: User, message: Message) -> bool:
        """Whether ``user`` sees ``message``: public guild messages, their own ephemerals, their
        DMs. The bot sees everything that is not ephemeral."""
        if message.deleted or message.channel.deleted:
            return False
        if message.ephemeral:
            return message.ephemeral_for is user
        if message.channel.is_dm:
            return user.bot or message.channel.recipient is user
        return True

    def visible_messages(self, user: User, channel: Channel | None = None) -> list[Message]:
        """What ``user`` sees, oldest first: in ``channel``, or everywhere (guild channels, own
        ephemerals and own DMs) when ``channel`` is None."""
        return [
            m
            for m in self.messages.values()
            if (channel is None or m.channel is channel) and self.can_see(user, m)
        ]

    # ------------------------------------------------------------------ payloads

    def user_payload(self, user: User) -> JSON:
        """``discord.types.user.User`` (the spec's ``UserResponse``)."""
        return {
            "id": str(user.id),
            "username": user.name,
            "discriminator": "0",
            "global_name": None if user.bot else user.name,
            "avatar": None,
            "bot": user.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def me_payload(self) -> JSON:
        """The bot's own user with its private fields (``GET /users/@me``, READY's ``user``: the
        spec's ``UserPIIResponse``)."""
        return {**self.user_payload(self.bot), "verified": True, "mfa_enabled": False, "locale": "en-US"}

    def member_payload(self, user: User, guild_id: int | None = None, *, with_user: bool = True) -> JSON:
        """``discord.types.member.MemberWithUser`` in the guild (default: the first; ``user``
        omitted if ``with_user`` is False)."""
        roles = self.guilds[guild_id or self.guild_id].roles
        data: JSON = {
            "roles": [str(r) for r in user.role_ids if r in roles],
            "joined_at": user.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user_payload(user)
        return data

    def role_payload(self, role: Role) -> JSON:
        """``discord.types.role.Role``."""
        data: JSON = {
            "id": str(role.id),
            "name": role.name,
            "color": role.color,
            "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "position": role.position,
            "permissions": str(role.permissions),
            "managed": role.bot_id is not None,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }
        if role.bot_id is not None:
            data["tags"] = {"bot_id": str(role.bot_id)}
        return data

    def channel_payload(self, channel: Channel) -> JSON:
        """``discord.types.channel.TextChannel`` or ``DMChannel``."""
        last = channel.last_message_id
        if channel.is_dm:
            assert channel.recipient is not None
            return {
                "id": str(channel.id),
                "type": 1,
                "recipients": [self.user_payload(channel.recipient)],
                "last_message_id": str(last) if last else None,
                "flags": 0,
            }
        if channel.is_thread:
            return self._thread_payload(channel)
        return {
            "id": str(channel.id),
            "type": 0,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": channel.topic,
            "last_message_id": str(last) if last else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def _thread_payload(self, thread: Channel) -> JSON:
        """A thread (the spec's ``ThreadResponse``)."""
        assert thread.parent is not None and thread.owner is not None
        last = thread.last_message_id
        return {
            "id": str(thread.id),
            "type": 11,
            "guild_id": str(thread.guild_id),
            "name": thread.name,
            "parent_id": str(thread.parent.id),
            "owner_id": str(thread.owner.id),
            "last_message_id": str(last) if last else None,
            "rate_limit_per_user": 0,
            "flags": 0,
            "message_count": thread.message_count,
            "member_count": 1,
            "total_message_sent": thread.message_count,
            "thread_metadata": {
                "archived": thread.archived,
                "archive_timestamp": thread.archive_timestamp,
                "auto_archive_duration": thread.auto_archive_minutes,
                "locked": thread.locked,
                "create_timestamp": thread.created,
            },
        }

    def guild_payload(self, guild_id: int | None = None) -> JSON:
        """``GET /guilds/{id}`` (the spec's ``GuildWithCountsResponse``, counts asked or not) of
        the guild (default: the first)."""
        guild = self.guilds[guild_id or self.guild_id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "description": None,
            "home_header": None,
            "splash": None,
            "discovery_splash": None,
            "features": [],
            "banner": None,
            "owner_id": str(guild.owner_id),
            "application_id": None,
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "widget_enabled": False,
            "widget_channel_id": None,
            "verification_level": 0,
            "roles": [self.role_payload(r) for r in guild.roles.values()],
            "default_message_notifications": 1,
            "mfa_level": 0,
            "explicit_content_filter": 0,
            "max_presences": None,
            "max_members": 500_000,
            "max_stage_video_channel_users": 50,
            "max_video_channel_users": 25,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.guild_locale,
            "rules_channel_id": None,
            "safety_alerts_channel_id": None,
            "public_updates_channel_id": None,
            "premium_progress_bar_enabled": False,
            "nsfw": False,
            "nsfw_level": 0,
            "emojis": [],
            "stickers": [],
            "incidents_data": None,
        }

    def guild_create_payload(self, guild_id: int | None = None, *, members: bool = True) -> JSON:
        """GUILD_CREATE's guild (``discord.types.gateway.GuildCreateEvent``; default: the first):
        the REST guild and the gateway-only keys (members, channels, ...); ``members`` False
        lists only the bot."""
        guild_id = guild_id or self.guild_id
        listed = [u for u in self.users.values() if members or u is self.bot]
        return {
            **self.guild_payload(guild_id),
            "joined_at": self.bot.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.users),
            "members": [self.member_payload(u, guild_id) for u in listed],
            "channels": [
                self.channel_payload(c)
                for c in self.channels.values()
                if c.guild_id == guild_id and c.type == 0 and not c.deleted
            ],
            "threads": [
                self.channel_payload(t) for t in self.threads(archived=False) if t.guild_id == guild_id
            ],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def message_payload(self, message: Message, *, gateway: bool = False) -> JSON:
        """``discord.types.message.Message`` (the spec's ``MessageResponse``); for a gateway event
        (``gateway``) with ``guild_id`` and the author's ``member`` in the guild, which REST
        answers do not carry."""
        data: JSON = {
            "id": str(message.id),
            "channel_id": str(message.channel.id),
            "type": message.type,
            "author": self.user_payload(message.author),
            "content": message.content,
            "timestamp": message.timestamp,
            "edited_timestamp": message.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [self.user_payload(u) for u in message.mentions],
            "mention_roles": [],
            "attachments": message.attachments,
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "flags": message.flags,
        }
        guild_id = message.channel.guild_id
        if gateway and guild_id is not None:
            data["guild_id"] = str(guild_id)
            if message.webhook_id is None:
                data["member"] = self.member_payload(message.author, guild_id, with_user=False)
        if message.webhook_id is not None:
            data["webhook_id"] = str(message.webhook_id)
            data["application_id"] = str(self.application_id)
        if message.reference:
            data["message_reference"] = message.reference
        if message.thread is not None and not message.thread.deleted:
            data["thread"] = self.channel_payload(message.thread)
        interaction = message.interaction
        if interaction is not None:
            data["interaction_metadata"] = self._interaction_metadata(interaction, message)
        return data

    def _interaction_metadata(self, interaction: InteractionRecord, message: Message | None) -> JSON:
        """A message's ``interaction_metadata`` (a modal submit's names the interaction that
        showed the modal, ``triggering_interaction_metadata``)."""
        metadata: JSON = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": self.user_payload(interaction.user),
            "authorizing_integration_owners": {"0": str(interaction.channel.guild_id or self.guild_id)},
        }
        if interaction.source_message is not None and interaction.type == 3:
            metadata["interacted_message_id"] = str(interaction.source_message.id)
        if message is not interaction.original and interaction.original is not None:
            metadata["original_response_message_id"] = str(interaction.original.id)
        if interaction.trigger is not None:
            metadata["triggering_interaction_metadata"] = self._interaction_metadata(
                interaction.trigger, None
            )
        return metadata


def _number_components(components: list[JSON], next_id: Callable[[], int]) -> list[JSON]:
    """Copy a component tree as Discord answers it: every component without one gets an ``id``
    (1, 2, ... in tree order), Components V2 ones the fields Discord fills in (a container's
    ``accent_color`` and ``spoiler``, a separator's ``divider`` and ``spacing``, a media item's
    ``description``, ``spoiler`` and unfurled ``media`` with an id from ``next_id``)."""
    counter = iter(range(1, 10_000))

    def media(item: JSON) -> JSON:
        url = str(item.get("url") or "")
        return {
            "id": str(next_id()),
            "url": url,
            "proxy_url": url,
            **{k: v for k, v in item.items() if k != "url"},
        }

    def copy(component: JSON) -> JSON:
        out: dict[str, Any] = {**component}
        if out.get("id") is None:
            out["id"] = next(counter)
        kind = out.get("type")
        if kind in (3, 5, 6, 7, 8):
            out.pop("required", None)  # a select's ``required`` counts in modals only: not kept
        if isinstance(out.get("emoji"), dict):
            out["emoji"] = _emoji(out["emoji"])
        if isinstance(out.get("options"), list):
            out["options"] = [
                {**o, "emoji": _emoji(o["emoji"])} if o.get("emoji") else o for o in out["options"]
            ]
        if isinstance(out.get("components"), list):
            out["components"] = [copy(c) for c in out["components"]]
        for key in ("accessory", "component"):
            if isinstance(out.get(key), dict):
                out[key] = copy(out[key])
        for key, default in _V2_DEFAULTS.get(kind, {}).items():
            if out.get(key) is None:
                out[key] = default
        if kind in (11, 13) and isinstance(out.get(_MEDIA_KEY[kind]), dict):
            out[_MEDIA_KEY[kind]] = media(out[_MEDIA_KEY[kind]])
        if kind == 12:
            items = [{"description": None, "spoiler": False, **i} for i in out.get("items") or []]
            out["items"] = [{**i, "spoiler": bool(i["spoiler"]), "media": media(i["media"])} for i in items]
        if kind == 13:
            out.setdefault("name", out["file"]["url"].rsplit("/", 1)[-1])
            out.setdefault("size", None)
        return out

    return [copy(c) for c in components]


# What Discord fills in for a Components V2 component sent without it (the spec's
# ``*ComponentResponse`` schemas require these).
_V2_DEFAULTS: dict[Any, dict[str, Any]] = {
    17: {"accent_color": None, "spoiler": False},
    14: {"divider": True, "spacing": 1},
    11: {"description": None, "spoiler": False},
    13: {"spoiler": False},
}
_MEDIA_KEY = {11: "media", 13: "file"}


def _emoji(emoji: JSON) -> JSON:
    """A component's emoji as Discord answers it: a Unicode emoji (``"id": null`` in the request,
    as discord.py sends it) has no ``id``; a custom one has its id as a string (discord.py sends
    an int) and ``animated``."""
    out = {k: v for k, v in emoji.items() if v is not None}
    if "id" in out:
        out["id"] = str(out["id"])
        out.setdefault("animated", False)
    return out


__all__ = ["PERMISSIONS", "State", "permission_bits"]
