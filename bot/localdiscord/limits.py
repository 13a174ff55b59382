"""Discord's refusals: the JSON error type, and the limits the stand-in enforces by hand because
Discord's OpenAPI spec cannot express them (each field's own type, length and count limits are the
spec's, checked for every request by `contract`; see docs/stand-in.md).

An error body is what Discord sends::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                         "message": "Must be 2000 or fewer in length."}]}}}

discord.py turns it into ``discord.HTTPException`` with ``.status``, ``.code`` and a text that
flattens ``errors`` ("In content: Must be 2000 or fewer in length.").
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Container, Iterator, Sequence
from typing import Any

JSON = dict[str, Any]

MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_CUSTOM_ID = 100
MAX_EMBED_TOTAL = 6000
MAX_V2_COMPONENTS = 40
ACK_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15
FLAG_SUPPRESS_EMBEDS = 1 << 2

# Components V2 (https://discord.com/developers/docs/components/reference): the text of all text
# displays of a message together, and the fields a message with IS_COMPONENTS_V2 cannot use.
MAX_V2_TEXT = 4000
V2_LEGACY_FIELDS = ("content", "embeds", "poll", "sticker_ids")
MEDIA_SCHEMES = ("http", "https", "attachment")
# Uploads (https://discord.com/developers/docs/reference#uploading-files): up to 10 files a
# message, each within the guild's upload limit (the stand-in's guild: 25 MiB, as its
# interactions' ``attachment_size_limit`` says).
MAX_ATTACHMENTS = 10
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024

# Application emojis (https://discord.com/developers/docs/resources/emoji, "Application-Owned
# Emoji", "Create Application Emoji", "Emoji Formats"): 2,000 per application, a 256 KiB image
# in one of five formats; a name of 2-32 letters, digits and underscores (the spec gives only the
# length).
MAX_APP_EMOJIS = 2000
MAX_EMOJI_BYTES = 256 * 1024
EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
_IMAGE_MAGIC: dict[str, Callable[[bytes], bool]] = {
    "image/png": lambda b: b.startswith(b"\x89PNG\r\n\x1a\n"),
    "image/jpeg": lambda b: b.startswith(b"\xff\xd8\xff"),
    "image/gif": lambda b: b.startswith((b"GIF87a", b"GIF89a")),
    "image/webp": lambda b: b.startswith(b"RIFF") and b[8:12] == b"WEBP",
    "image/avif": lambda b: b[4:12] == b"ftypavif",
}
_DATA_URI = re.compile(r"data:(?P<mime>[\w/+.-]+);base64,(?P<data>.*)", re.DOTALL)
# A custom emoji in text (``<:name:id>``, animated ``<a:name:id>``), and an emoji's image on the
# CDN (``{Asset.BASE}/emojis/{id}.png``).
CUSTOM_EMOJI = re.compile(r"<a?:(\w{2,32}):(\d{15,21})>")
EMOJI_URL = re.compile(r"/emojis/(\d{15,21})\.(?:png|webp|gif|jpg|jpeg|avif)(?:\?|$)")


class DiscordError(Exception):
    """A refusal the stand-in answers with Discord's status and JSON body.

    Attributes:
        status: HTTP status (400, 401, 403, 404, 429).
        code: Discord's JSON error code (0 for plain HTTP errors).
        message: Discord's message text.
        errors: the nested ``{"field": {"_errors": [{"code", "message"}]}}`` tree, or None.
        headers: extra response headers (a 429's rate limit headers).
    """

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers: dict[str, str] = {}

    def to_json(self) -> JSON:
        """The response body: ``{"code", "message", "errors"?}``."""
        body: JSON = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


def check_uploads(files: Sequence[tuple[str, bytes]]) -> None:
    """Refuse more files than a message holds, or one over the upload limit, as Discord does.

    Raises:
        DiscordError: 400 (50035) for more than `MAX_ATTACHMENTS` files; 413 (40005) for a
            file over `ATTACHMENT_SIZE_LIMIT` bytes.
    """
    if len(files) > MAX_ATTACHMENTS:
        raise invalid_form(
            [(("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ATTACHMENTS} or fewer in length.")]
        )
    if any(len(data) > ATTACHMENT_SIZE_LIMIT for _, data in files):
        raise DiscordError(413, 40005, "Request entity too large")


def media_of(components: list[JSON], embeds: list[JSON]) -> list[JSON]:
    """Every media object a message shows, each ``{"url", ...}``: its thumbnails' and files'
    (a component's ``media`` or ``file``), its galleries' items', its embeds' images and
    thumbnails."""
    parts = list(walk_components(components))
    items = [*parts, *(i for c in parts for i in c.get("items") or [])]
    found = [c.get("media") or c.get("file") for c in items]
    found += [e.get(key) for e in embeds for key in ("image", "thumbnail")]
    return [m for m in found if isinstance(m, dict)]


def image_type(data: bytes) -> str | None:
    """The image format of ``data`` by its first bytes (``"image/png"``), or None."""
    return next((mime for mime, magic in _IMAGE_MAGIC.items() if magic(data)), None)


def unauthorized() -> DiscordError:
    """401 for a missing or wrong bot token."""
    return DiscordError(401, 0, "401: Unauthorized")


def route_not_found() -> DiscordError:
    """404 for a route the stand-in (or Discord) does not have."""
    return DiscordError(404, 0, "404: Not Found")


def unknown(what: str) -> DiscordError:
    """404 Unknown <what>: Channel 10003, Guild 10004, Member 10007, Message 10008, User 10013,
    Webhook 10015, interaction 10062."""
    codes = {
        "Channel": 10003,
        "Guild": 10004,
        "Member": 10007,
        "Message": 10008,
        "User": 10013,
        "Webhook": 10015,
        "interaction": 10062,
        "Application": 10002,
        "Emoji": 10014,
    }
    return DiscordError(404, codes[what], f"Unknown {what}")


def already_acknowledged() -> DiscordError:
    """400 40060: a second callback for one interaction."""
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def invalid_webhook_token() -> DiscordError:
    """401 50027: an interaction token past its 15 minutes (or never issued)."""
    return DiscordError(401, 50027, "Invalid Webhook Token")


def empty_message() -> DiscordError:
    """400 50006: no content, embeds, components, attachments, stickers or poll."""
    return DiscordError(400, 50006, "Cannot send an empty message")


def cannot_edit_others() -> DiscordError:
    """403 50005: editing a message another user wrote."""
    return DiscordError(403, 50005, "Cannot edit a message authored by another user")


def thread_archived() -> DiscordError:
    """400 50083: a message sent or edited in an archived thread that can't be reopened."""
    return DiscordError(400, 50083, "Thread is archived")


def missing_permissions() -> DiscordError:
    """403 50013."""
    return DiscordError(403, 50013, "Missing Permissions")


def invalid_form(problems: list[tuple[tuple[str, ...], str, str]]) -> DiscordError:
    """400 50035 Invalid Form Body from ``(path, error code, message)`` triples."""
    tree: JSON = {}
    for path, code, message in problems:
        node = tree
        for part in path:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return DiscordError(400, 50035, "Invalid Form Body", tree)


Problems = list[tuple[tuple[str, ...], str, str]]


def _too_long(path: tuple[str, ...], limit: int) -> tuple[tuple[str, ...], str, str]:
    return path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def walk_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component in a tree, depth first (rows, containers, sections, accessories)."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def _walk_with_paths(components: list[JSON], path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], JSON]]:
    """Like `walk_components`, with each component's error path (``components.0.components.1``)."""
    for index, component in enumerate(components):
        here = (*path, str(index))
        yield here, component
        yield from _walk_with_paths(component.get("components") or [], (*here, "components"))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield (*here, key), child
                yield from _walk_with_paths(child.get("components") or [], (*here, key, "components"))


def _check_components(
    components: list[JSON], flags: int, base: tuple[str, ...], emoji_ids: Container[int] | None
) -> Problems:
    """What the spec cannot say of a message's components
    (https://discord.com/developers/docs/components/reference): at most 5 action rows at the top
    (40 components in all, 4,000 characters of text displays, media from http(s) or an
    attachment with IS_COMPONENTS_V2), a select alone in its row, custom ids unique in the
    message, and a custom emoji (``emoji.id``) on a button or select option one that exists
    (``emoji_ids``; None: not checked)."""
    problems: Problems = []
    path = (*base, "components")
    if flags & FLAG_COMPONENTS_V2:
        problems += _check_v2(components, path)
    else:
        if len(components) > MAX_ROWS:
            problems.append(_too_long(path, MAX_ROWS))
        for r, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(((*path, str(r), "type"), "BASE_TYPE_CHOICES", "Value must be one of {1}."))
    seen: set[str] = set()
    for where, component in _walk_with_paths(components, path):
        children = component.get("components") or []
        if (
            component.get("type") == 1
            and len(children) > 1
            and any(c.get("type") in _SELECTS for c in children)
        ):
            problems.append(
                (
                    (*where, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            )
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                problems.append(
                    (
                        (*where, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id was already specified",
                    )
                )
            seen.add(custom_id)
        if emoji_ids is not None:
            problems += _check_emojis(component, where, emoji_ids)
    return problems


_SELECTS = (3, 5, 6, 7, 8)


def _check_emojis(component: JSON, where: tuple[str, ...], emoji_ids: Container[int]) -> Problems:
    """A button's or select option's custom emoji that does not exist: Discord answers
    ``BUTTON_COMPONENT_INVALID_EMOJI`` at ``emoji.name``, for select options too (as reported in
    discord/discord-api-docs#8071)."""
    problems: Problems = []
    places = [((*where, "emoji"), component.get("emoji"))]
    for index, option in enumerate(component.get("options") or []):
        if isinstance(option, dict):
            places.append(((*where, "options", str(index), "emoji"), option.get("emoji")))
    for path, emoji in places:
        emoji_id = emoji.get("id") if isinstance(emoji, dict) else None
        if emoji_id is not None and (not str(emoji_id).isdigit() or int(emoji_id) not in emoji_ids):
            problems.append(((*path, "name"), "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"))
    return problems


def _check_v2(components: list[JSON], path: tuple[str, ...]) -> Problems:
    """A Components V2 message's limits the spec cannot say
    (https://discord.com/developers/docs/components/reference): 40 components counting nested
    ones, 4,000 characters across its text displays, a thumbnail's or gallery item's media an
    http(s) URL or an ``attachment://`` reference."""
    problems: Problems = []
    if sum(1 for _ in walk_components(components)) > MAX_V2_COMPONENTS:
        problems.append(_too_long(path, MAX_V2_COMPONENTS))
    text = sum(len(str(c.get("content") or "")) for c in walk_components(components) if c.get("type") == 10)
    if text > MAX_V2_TEXT:
        problems.append(_too_long(path, MAX_V2_TEXT))
    for where, component in _walk_with_paths(components, path):
        media: list[tuple[str, ...]] = [("media",)] if component.get("type") == 11 else []
        if component.get("type") == 12:
            media = [("items", str(i), "media") for i in range(len(component.get("items") or []))]
        for keys in media:
            node: Any = component
            for key in keys:
                node = node[int(key)] if isinstance(node, list) else (node or {}).get(key)
            url = str((node or {}).get("url") or "")
            scheme = url.split(":", 1)[0] if ":" in url else ""
            if scheme not in MEDIA_SCHEMES:
                problems.append(
                    (
                        (*where, *keys, "url"),
                        "URL_TYPE_INVALID_SCHEME",
                        f'Scheme "{scheme}" is not supported. Scheme must be one of {MEDIA_SCHEMES}.',
                    )
                )
    return problems


def _check_v2_fields(merged: JSON, body: JSON, current: JSON | None, base: tuple[str, ...]) -> Problems:
    """A message with IS_COMPONENTS_V2 (after this request) carries no content, embeds, poll or
    stickers (Discord: ``MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2``), and the flag,
    once set, stays ("it can't be removed from that message",
    https://discord.com/developers/docs/resources/message#message-object-message-flags)."""
    problems: Problems = []
    before = int((current or {}).get("flags") or 0)
    flags = body.get("flags")
    if before & FLAG_COMPONENTS_V2 and flags is not None and not int(flags) & FLAG_COMPONENTS_V2:
        problems.append(
            (
                (*base, "flags"),
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",  # the stand-in's name: see docs/stand-in.md
                "The IS_COMPONENTS_V2 flag cannot be removed from a message",
            )
        )
        return problems
    if not (before | int(flags or 0)) & FLAG_COMPONENTS_V2:
        return problems
    for key in V2_LEGACY_FIELDS:
        if merged.get(key):
            problems.append(
                (
                    (*base, key),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
            )
    return problems


def embed_length(embed: JSON) -> int:
    """Characters Discord counts towards the 6,000 total: title, description, field names and
    values, footer text, author name."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def _check_embeds(embeds: list[JSON], base: tuple[str, ...]) -> Problems:
    """The 6,000 characters all embeds of a message may hold together
    (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)."""
    problems: Problems = []
    path = (*base, "embeds")
    if sum(embed_length(embed) for embed in embeds) > MAX_EMBED_TOTAL:
        problems.append(
            (path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")
        )
    return problems


def check_message(
    body: JSON,
    *,
    base: tuple[str, ...] = (),
    current: JSON | None = None,
    emoji_ids: Container[int] | None = None,
) -> None:
    """Validate a message create (``current`` None) or edit body the way Discord does.

    Args:
        body: the JSON body (``content``, ``embeds``, ``components``, ``flags``, ...).
        base: where the message sits in the request (``("data",)`` for interaction callbacks),
            prefixed to every error path.
        current: for an edit, the message's fields before it (to decide emptiness after it, and
            whether it has IS_COMPONENTS_V2).
        emoji_ids: the custom emojis that exist (a component's ``emoji.id`` must be one); None
            skips that check.

    Raises:
        DiscordError: 50035 for shape errors, 50006 when the resulting message is empty.
    """
    problems: Problems = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(_too_long((*base, "content"), MAX_CONTENT))
    flags = int(body.get("flags") or 0) | int((current or {}).get("flags") or 0)
    if body.get("components"):
        problems += _check_components(body["components"], flags, base, emoji_ids)
    if body.get("embeds"):
        problems += _check_embeds(body["embeds"], base)
    problems += _check_allowed_mentions(body.get("allowed_mentions") or {}, base)
    merged = {**(current or {}), **{k: v for k, v in body.items() if k in _PAYLOAD_KEYS}}
    problems += _check_v2_fields(merged, body, current, base)
    if problems:
        raise invalid_form(problems)
    if not any(merged.get(key) for key in _PAYLOAD_KEYS):
        raise empty_message()


_PAYLOAD_KEYS = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")


def _check_allowed_mentions(mentions: JSON, base: tuple[str, ...]) -> Problems:
    """``parse`` naming users (roles) with a ``users`` (``roles``) list: "mutually exclusive"
    (https://discord.com/developers/docs/resources/message#allowed-mentions-object); the spec has
    no way to say it."""
    problems: Problems = []
    for kind in ("users", "roles"):
        if kind in (mentions.get("parse") or []) and mentions.get(kind):
            problems.append(
                (
                    (*base, "allowed_mentions"),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                )
            )
    return problems


LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
"""Discord's locales (https://discord.com/developers/docs/reference#locales)."""


_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$


def _check_localizations(node: JSON, where: tuple[str, ...], problems: Problems, *, named: bool) -> None:
    """A command's, option's or choice's ``name_localizations`` and ``description_localizations``
    (and its options' and choices', recursively): each key one of Discord's locales; a command or
    option name 1-32 letters, digits, ``-`` or ``_`` in lower case (``named``; a choice's name is
    any 1-100 characters); a description 1-100 characters."""
    for key in ("name_localizations", "description_localizations"):
        for locale, text in (node.get(key) or {}).items():
            at = (*where, key, locale)
            if locale not in LOCALES:
                problems.append((at, "LOCALE_INVALID", f"{locale!r} is not a valid locale"))
            elif key == "description_localizations" and not 1 <= len(text) <= 100:
                problems.append((at, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
            elif (
                key == "name_localizations"
                and named
                and not (_COMMAND_NAME.match(text) and text == text.lower())
            ):
                problems.append((at, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
            elif key == "name_localizations" and not 1 <= len(text) <= 100:
                problems.append((at, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    for index, option in enumerate(node.get("options") or []):
        _check_localizations(option, (*where, "options", str(index)), problems, named=True)
    for index, choice in enumerate(node.get("choices") or []):
        _check_localizations(choice, (*where, "choices", str(index)), problems, named=False)


def check_commands(commands: list[JSON]) -> None:
    """Validate a bulk overwrite of application commands where the spec cannot: a slash
    (CHAT_INPUT, type 1) command needs a 1-100 character description and a lower-case name, a
    user or message command an empty description; every localized name and description follows
    the same rules, for one of Discord's locales
    (https://discord.com/developers/docs/interactions/application-commands#application-command-object,
    "Localization").

    Raises:
        DiscordError: 50035 naming each command's field.
    """
    problems: Problems = []
    for index, command in enumerate(commands):
        where = (str(index),)
        description = command.get("description") or ""
        if command.get("type") in (None, 1):
            if not 1 <= len(description) <= 100:
                problems.append(
                    ((*where, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
                )
            name = str(command.get("name", ""))
            if name != name.lower():
                problems.append(
                    ((*where, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
                )
        elif description:
            problems.append(
                ((*where, "description"), "BASE_TYPE_MAX_LENGTH", "Must be 0 or fewer in length.")
            )
        _check_localizations(command, where, problems, named=command.get("type") in (None, 1))
    if problems:
        raise invalid_form(problems)


def check_modal(body: JSON, *, base: tuple[str, ...] = ("data",)) -> None:
    """Validate a modal (callback type 9): title, custom_id and 1-5 components.

    Raises:
        DiscordError: 50035 for shape errors.
    """
    problems: Problems = []
    if not 1 <= len(body.get("custom_id") or "") <= MAX_CUSTOM_ID:
        problems.append(_too_long((*base, "custom_id"), MAX_CUSTOM_ID))
    if not 1 <= len(body.get("title") or "") <= 45:
        problems.append(_too_long((*base, "title"), 45))
    if not 1 <= len(body.get("components") or []) <= MAX_ROWS:
        problems.append(((*base, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
    if problems:
        raise invalid_form(problems)


def check_emoji_name(name: Any, taken: bool) -> None:
    """An application emoji's name: 2-32 letters, digits or underscores, unique in the application.

    Raises:
        DiscordError: 50035 at ``name``: ``STRING_TYPE_REGEX``, or
            ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN`` (the code Discord answers a duplicate with).
    """
    if not isinstance(name, str) or EMOJI_NAME.fullmatch(name) is None:
        raise invalid_form(
            [
                (
                    ("name",),
                    "STRING_TYPE_REGEX",
                    f"String value did not match validation regex: {EMOJI_NAME.pattern}",
                )
            ]
        )
    if taken:
        raise invalid_form([(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken")])


def emoji_image(image: Any, count: int) -> tuple[str, bytes]:
    """The ``(content type, bytes)`` of a new application emoji's image data
    (``data:image/png;base64,...``, https://discord.com/developers/docs/reference#image-data),
    the application holding ``count`` emojis already.

    Raises:
        DiscordError: 30008 at 2,000 emojis; 50035 at ``image`` for data that is not a PNG,
            JPEG, GIF, WebP or AVIF image as its data URI says; 50138 for an image over 256 KiB
            (Discord tries to shrink it first and says so).
    """
    if count >= MAX_APP_EMOJIS:
        raise DiscordError(400, 30008, "Maximum number of emojis reached")
    match = _DATA_URI.fullmatch(image) if isinstance(image, str) else None
    data = b""
    if match is not None:
        try:
            data = base64.b64decode(match["data"], validate=True)
        except binascii.Error:
            data = b""
    mime = match["mime"] if match is not None else ""
    if not data or image_type(data) != mime:
        raise invalid_form([(("image",), "IMAGE_INVALID", "Invalid image data")])
    if len(data) > MAX_EMOJI_BYTES:
        raise DiscordError(400, 50138, f"Failed to resize asset below the maximum size: {MAX_EMOJI_BYTES}")
    return mime, data
