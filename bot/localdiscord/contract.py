"""Discord's contract: every request body the stand-in receives is checked against the operation's
request schema in Discord's OpenAPI 3.1 spec (``spec/openapi.json``, discord/discord-api-spec, MIT;
``scripts/refresh-discord-openapi`` updates it), and a violation is refused as Discord refuses it::

    >>> contract = Contract()
    >>> contract.check_request("POST", "/channels/1/messages", {"content": 5})
    Traceback (most recent call last):
    ...
    bot.localdiscord.limits.DiscordError: 400 50035 Invalid Form Body
    >>> contract.requests_checked, contract.violations
    (1, 1)

Responses are checked the same way by `Contract.response_problems` (the test harness turns it on;
see docs/stand-in.md), against a closed copy of the response schemas: a key the spec does not
list for that response is reported too, since Discord does not send it.

The validator is jsonschema-rs (JSON Schema 2020-12, compiled once per operation and cached):
about 0.1 ms for a 25-button message, where the pure-Python ``jsonschema`` took 20-40 ms.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from typing import Any, NamedTuple
from urllib.parse import quote

import jsonschema_rs
import orjson

from . import limits
from .limits import JSON, Problems

BASE_URI = "urn:discord-openapi"

# Checks made in this process by every stand-in: "requests" (request bodies), "violations" (those
# refused), "responses" (REST responses) and "gateway events" (events whose objects were checked);
# the end-to-end suite prints them at its end.
TOTALS: Counter[str] = Counter()

# discord.py sends these snowflakes as JSON integers where the spec wants strings; Discord accepts
# them (it reads snowflakes from either). Paths in a request body, or in an interaction callback's
# ``data`` ("*": every item of a list; "**": every component of a tree, nested ones and select
# options included); such ints are read as strings before the check.
QUIRKS: dict[tuple[str, ...], str] = {
    ("allowed_mentions", "users", "*"): "AllowedMentions.to_dict() lists user ids as ints",
    ("allowed_mentions", "roles", "*"): "AllowedMentions.to_dict() lists role ids as ints",
    ("recipient_id",): "HTTPClient.start_private_message() sends the user id as an int",
    ("attachments", "*", "id"): "File.to_dict() numbers a message's uploads 0, 1, ... as ints",
    ("message_reference", "message_id"): "MessageReference.to_message_reference_dict() uses ints",
    ("message_reference", "channel_id"): "MessageReference.to_message_reference_dict() uses ints",
    ("message_reference", "guild_id"): "MessageReference.to_message_reference_dict() uses ints",
    ("components", "**", "emoji", "id"): "PartialEmoji.to_dict() sends a custom emoji's id as an int",
}
_TREE_KEYS = ("components", "accessory", "component", "options")

# Where the spec and Discord's documentation disagree, the stand-in follows the documentation; what
# a response check would report there is left out: (the responses' status class, path prefix in
# the response, error code or "*") -> why. (Requests: the spec allows 4,000 characters of content, the docs 2,000, which
# `limits.check_message` enforces.)
DIVERGENCES: dict[tuple[str, tuple[str, ...], str], str] = {
    ("4XX", ("errors",), "*"): "a 50035 body's field errors carry string codes such as BASE_TYPE_REQUIRED "
    "(docs: Reference, Error Messages); the spec types every Error.code as an integer",
    ("4XX", ("code",), "BASE_TYPE_REQUIRED"): "a 429 body is {message, retry_after, global} "
    "(docs: Topics, Rate Limits, Exceeding A Rate Limit); the spec's RatelimitedResponse adds code",
    ("2XX", ("resource", "type"), "BASE_TYPE_CHOICES"): "a deferral's callback resource (types 5, 6) "
    "carries its type, a message only for types 4 and 7 (docs: Interactions, Receiving and "
    "Responding, Interaction Callback Resource Object); the spec lists resources of types 4, 7, 12",
}

# Discord's error codes and texts for JSON Schema keywords (as its 50035 bodies show them).
_TYPE_CODES = {
    "object": ("DICT_TYPE_CONVERT", "Only dictionaries may be used."),
    "array": ("LIST_TYPE_CONVERT", "Only iterables may be used in a ListType."),
    "string": ("STRING_TYPE_CONVERT", "Could not interpret {value} as string."),
    "integer": ("NUMBER_TYPE_COERCE", "Value {value} is not int."),
    "number": ("NUMBER_TYPE_COERCE", "Value {value} is not a number."),
    "boolean": ("BOOLEAN_TYPE_CONVERT", "Value {value} is not a boolean."),
}


class Operation(NamedTuple):
    """One operation of the spec: ``method`` (lower case) and path ``template``
    (``/channels/{channel_id}/messages``)."""

    method: str
    template: str

    @property
    def spec(self) -> JSON:
        """The operation object of the spec."""
        return dict(_spec()["paths"][self.template][self.method])


@functools.cache
def _spec() -> JSON:
    data = resources.files(__package__).joinpath("spec", "openapi.json").read_bytes()
    return dict(orjson.loads(data))


@functools.cache
def _registry() -> jsonschema_rs.Registry:
    return jsonschema_rs.Registry([(BASE_URI, _spec())])


@functools.cache
def _templates() -> dict[int, list[tuple[tuple[str | None, ...], str]]]:
    """Spec path templates by segment count, those with more literal segments first (so
    ``/messages/@original`` wins over ``/messages/{message_id}``)."""
    by_length: dict[int, list[tuple[tuple[str | None, ...], str]]] = {}
    for template in _spec()["paths"]:
        segments = tuple(None if s.startswith("{") else s for s in template.strip("/").split("/"))
        by_length.setdefault(len(segments), []).append((segments, template))
    for entries in by_length.values():
        entries.sort(key=lambda entry: sum(s is None for s in entry[0]))
    return by_length


@functools.cache
def _literals() -> frozenset[str]:
    return frozenset(s for entries in _templates().values() for segments, _ in entries for s in segments if s)


def operation(method: str, path: str) -> Operation | None:
    """The spec's operation for a request, e.g. ``("POST", "/channels/1/messages")`` (the path
    below ``/api/v10``, without the query), or None if the spec has none."""
    literals = _literals()
    shape = tuple(p if p in literals else None for p in path.strip("/").split("/"))
    return _operation(method.lower(), shape)


@functools.cache
def _operation(method: str, shape: tuple[str | None, ...]) -> Operation | None:
    """`operation` for a path's shape: its literal segments, None for ids and tokens."""
    for segments, template in _templates().get(len(shape), []):
        fits = all(s is None or s == p for s, p in zip(segments, shape, strict=True))
        if fits and method in _spec()["paths"][template]:
            return Operation(method, template)
    return None


def _pointer(*keys: str) -> str:
    """A ``$ref`` to a place in the spec (RFC 6901 escapes, then percent-encoding)."""
    escaped = "/".join(key.replace("~", "~0").replace("/", "~1") for key in keys)
    return f"{BASE_URI}#/{quote(escaped, safe='/~@')}"


def _has_json(content: JSON | None) -> bool:
    return "application/json" in (content or {}).get("content", {})


@functools.cache
def _request_validator(op: Operation) -> jsonschema_rs.Validator | None:
    if not _has_json(op.spec.get("requestBody")):
        return None
    where = ("paths", op.template, op.method, "requestBody", "content", "application/json", "schema")
    return jsonschema_rs.Draft202012Validator({"$ref": _pointer(*where)}, registry=_registry())


def _closed(node: Any) -> Any:
    """A copy of a schema in which every object with ``properties`` takes no other keys
    (``unevaluatedProperties: false``), for checking that a response carries nothing the spec does
    not list."""
    if isinstance(node, list):
        return [_closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _closed(value) for key, value in node.items()}
    if "properties" in out and "additionalProperties" not in out:
        out["unevaluatedProperties"] = False
    return out


@functools.cache
def _closed_registry() -> jsonschema_rs.Registry:
    spec = _spec()
    return jsonschema_rs.Registry([(BASE_URI, _closed(spec))])


@functools.cache
def _response_validator(op: Operation, status: int) -> jsonschema_rs.Validator | None:
    responses = op.spec.get("responses", {})
    key = str(status) if str(status) in responses else f"{str(status)[0]}XX"
    where: tuple[str, ...] = ("paths", op.template, op.method, "responses", key)
    response = responses.get(key)
    if response is not None and "$ref" in response:
        where = ("components", "responses", response["$ref"].rsplit("/", 1)[1])
        response = _spec()["components"]["responses"][where[-1]]
    if not _has_json(response):
        return None
    schema = {"$ref": _pointer(*where, "content", "application/json", "schema")}
    # Error bodies are built with allOf, which a closed copy cannot check; and one function
    # writes them all (`DiscordError.to_json`).
    registry = _closed_registry() if status < 400 else _registry()
    return jsonschema_rs.Draft202012Validator(schema, registry=registry)


@functools.cache
def schema_validator(name: str) -> jsonschema_rs.Validator:
    """A (closed, see `Contract.response_problems`) validator for ``#/components/schemas/<name>``,
    for payloads outside REST (the objects inside gateway events)."""
    schema = {"$ref": _pointer("components", "schemas", name)}
    return jsonschema_rs.Draft202012Validator(schema, registry=_closed_registry())


# ---------------------------------------------------------------------- errors as Discord's


def _mismatch(branch: Sequence[jsonschema_rs.ValidationError], here: Sequence[str | int]) -> bool:
    """Whether a ``oneOf``/``anyOf`` branch is another kind of thing altogether: a JSON type
    mismatch at the instance itself, or a different discriminator (its ``type`` key)."""
    for error in branch:
        path = list(error.instance_path)
        if error.kind.name == "type" and path == list(here):
            return True
        if error.kind.name in ("enum", "const") and path == [*here, "type"]:
            return True
    return False


def _explain(error: jsonschema_rs.ValidationError) -> Iterator[tuple[tuple[str, ...], str, str]]:
    """What is wrong, as Discord's ``(path, code, message)``: inside a failed ``oneOf``/``anyOf``,
    the errors of the branch the instance was meant to be (same JSON type and discriminator; the
    fewest errors)."""
    kind = error.kind
    if kind.name not in ("oneOf", "anyOf"):
        yield _problem(error)
        return
    branches: list[list[jsonschema_rs.ValidationError]] = list(getattr(kind, "context", []))
    here = list(error.instance_path)
    meant = [b for b in branches if not _mismatch(b, here)]
    if meant:
        for inner in min(meant, key=len):
            yield from _explain(inner)
        return
    # None fits: say what it should have been (a type, or one of the discriminator's values).
    for branch in branches:
        for inner in branch:
            if inner.kind.name == "type" and getattr(inner.kind, "types", None) != ["null"]:
                yield _problem(inner)
                return
    choices = [e for b in branches for e in b if e.kind.name in ("enum", "const")]
    if not choices:
        yield _problem(error)
        return
    values = sorted({_text(v) for e in choices for v in _options(e.kind.value)})
    yield (*_problem(choices[0])[0:1], "BASE_TYPE_CHOICES", f"Value must be one of {{{', '.join(values)}}}.")


def _options(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _text(value: Any) -> str:
    return orjson.dumps(value).decode()[:100] if not isinstance(value, str) else f'"{value[:100]}"'


def _problem(error: jsonschema_rs.ValidationError) -> tuple[tuple[str, ...], str, str]:
    """``(path, code, message)`` as Discord words it."""
    kind = error.kind
    name = kind.name
    path = tuple(str(p) for p in error.instance_path)
    value = getattr(kind, "value", None)
    if name == "required":
        return (*path, str(value)), "BASE_TYPE_REQUIRED", "This field is required"
    if name in ("maxLength", "maxItems", "maxProperties"):
        return path, "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length."
    if name in ("minLength", "minItems", "minProperties"):
        return path, "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length."
    if name in ("maximum", "exclusiveMaximum"):
        return path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}."
    if name in ("minimum", "exclusiveMinimum"):
        return path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {value}."
    if name in ("enum", "const"):
        shown = ", ".join(_text(o) for o in _options(value))
        return path, "BASE_TYPE_CHOICES", f"Value must be one of {{{shown}}}."
    if name == "type":
        types = [t for t in getattr(kind, "types", []) if t != "null"] or ["null"]
        code, message = _TYPE_CODES.get(types[0], ("BASE_TYPE_INVALID", "Invalid value {value}."))
        return path, code, message.format(value=_text(error.instance))
    if name == "pattern":
        return path, "STRING_TYPE_REGEX", f"String value did not match validation regex: {value}"
    if name == "uniqueItems":
        return path, "BASE_TYPE_UNIQUE", "Values must be unique."
    if name == "unevaluatedProperties":
        return path, "UNKNOWN_FIELD", f"Not a field Discord sends here: {value}"
    return path, "BASE_TYPE_INVALID", error.message[:200]


def _as_strings(node: Any, pattern: tuple[str, ...]) -> Any:
    """``node`` with the non-negative ints at ``pattern`` (below it) turned into strings."""
    if not pattern:
        is_id = isinstance(node, int) and not isinstance(node, bool) and node >= 0
        return str(node) if is_id else node
    key, rest = pattern[0], pattern[1:]
    if key == "**":
        return _in_tree(node, pattern)
    if isinstance(node, dict) and key in node:
        child = _as_strings(node[key], rest)
        return node if child is node[key] else {**node, key: child}
    if isinstance(node, list) and key == "*":
        items = [_as_strings(item, rest) for item in node]
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    return node


def _in_tree(node: Any, pattern: tuple[str, ...]) -> Any:
    """`_as_strings` of ``pattern[1:]`` at every component of the tree ``node`` (a component, or
    a list of them) and its select options."""
    if isinstance(node, list):
        items = [_in_tree(item, pattern) for item in node]
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if not isinstance(node, dict):
        return node
    out = _as_strings(node, pattern[1:])
    for key in _TREE_KEYS:
        if key in out:
            child = _in_tree(out[key], pattern)
            if child is not out[key]:
                out = {**out, key: child}
    return out


def _without_quirks(body: Any) -> Any:
    """``body`` as the spec wants it where `QUIRKS` allow otherwise (the body itself, or a copy;
    an interaction callback's ``data`` too)."""
    if not isinstance(body, dict):
        return body
    data = body.get("data")
    for pattern in QUIRKS:
        body = _as_strings(body, pattern)
        if isinstance(data, dict):
            data = _as_strings(data, pattern)
    return body if data is body.get("data") else {**body, "data": data}


def problems(validator: jsonschema_rs.Validator, instance: Any) -> Problems:
    """Every violation of ``instance`` as Discord's ``(path, code, message)`` triples (empty when
    valid)."""
    if validator.is_valid(instance):  # the fast path: no error objects built
        return []
    found: Problems = []
    for error in validator.iter_errors(instance):
        found += _explain(error)
    return found


class Contract:
    """The spec's checks for one stand-in, with counts.

    Attributes:
        requests_checked: request bodies checked against a request schema.
        violations: those refused for breaking it.
        responses_checked: responses checked (`response_problems`).
    """

    def __init__(self) -> None:
        self.requests_checked = 0
        self.violations = 0
        self.responses_checked = 0

    def check_request(self, method: str, path: str, body: Any) -> None:
        """Check a request body (JSON, or a multipart request's ``payload_json``) against its
        operation's request schema; nothing to check for an operation without one.

        Args:
            method: ``"POST"``...; path: below ``/api/v10`` (``/channels/1/messages``).

        Raises:
            DiscordError: 400 50035 Invalid Form Body with an ``errors`` tree naming each field.
        """
        op = operation(method, path)
        validator = _request_validator(op) if op is not None else None
        if validator is None:
            return
        self.requests_checked += 1
        TOTALS["requests"] += 1
        found = problems(validator, _without_quirks(body))
        if found:
            self.violations += 1
            TOTALS["violations"] += 1
            raise limits.invalid_form(found)

    def response_problems(self, method: str, path: str, status: int, body: Any) -> list[str]:
        """What a response (``body`` None for 204) has that the spec's response schema for that
        operation and status does not allow, keys it does not list included, each as
        ``"<path>: <message>"``; empty when fine or when the spec has no schema for it."""
        op = operation(method, path)
        validator = _response_validator(op, status) if op is not None else None
        if validator is None or body is None:
            return []
        self.responses_checked += 1
        TOTALS["responses"] += 1
        status_class = f"{str(status)[0]}XX"
        return _described(p for p in problems(validator, body) if not _divergence(status_class, p))


def payload_problems(schema: str, payload: Any) -> list[str]:
    """What a payload has that ``#/components/schemas/<schema>`` (closed) does not allow, as
    ``"<path>: <message>"`` (empty when it fits): gateway events' objects, which the spec does not
    cover as events."""
    return _described(problems(schema_validator(schema), payload))


# The gateway is not in the spec (it describes HTTP only); the objects inside its events are its
# REST objects plus the keys Discord's gateway documentation adds to them (docs: Topics, Gateway
# Events): event -> (where in the event, "*" for every item of a list; the spec's schema, "channel"
# for a guild or DM channel by its type; the keys the event adds).
GATEWAY_OBJECTS: dict[str, list[tuple[tuple[str, ...], str, tuple[str, ...]]]] = {
    "READY": [(("user",), "UserPIIResponse", ())],
    "GUILD_CREATE": [
        (
            (),
            "GuildResponse",
            (
                "joined_at",
                "large",
                "unavailable",
                "member_count",
                "members",
                "channels",
                "threads",
                "presences",
                "voice_states",
                "stage_instances",
                "guild_scheduled_events",
                "soundboard_sounds",
            ),
        ),
        (("members", "*"), "GuildMemberResponse", ()),
        (("channels", "*"), "channel", ()),
        (("threads", "*"), "channel", ()),
    ],
    "GUILD_MEMBER_ADD": [((), "GuildMemberResponse", ("guild_id",))],
    "GUILD_MEMBER_UPDATE": [((), "GuildMemberResponse", ("guild_id",))],
    "GUILD_MEMBERS_CHUNK": [(("members", "*"), "GuildMemberResponse", ())],
    "GUILD_ROLE_CREATE": [(("role",), "GuildRoleResponse", ())],
    "CHANNEL_CREATE": [((), "channel", ())],
    "CHANNEL_DELETE": [((), "channel", ())],
    "THREAD_CREATE": [((), "channel", ("newly_created",))],
    "THREAD_UPDATE": [((), "channel", ())],
    "MESSAGE_CREATE": [((), "MessageResponse", ("guild_id", "member"))],
    "MESSAGE_UPDATE": [((), "MessageResponse", ("guild_id", "member"))],
    "INTERACTION_CREATE": [
        (("user",), "UserResponse", ()),
        (("member",), "GuildMemberResponse", ("permissions",)),
        (("channel",), "channel", ("permissions",)),
        (("message",), "MessageResponse", ()),
        (("data", "resolved", "users", "*"), "UserResponse", ()),
    ],
}


# A channel object's schema by its type: a DM (1), a thread (10-12), else a guild channel.
_CHANNEL_SCHEMAS: dict[Any, str] = {
    1: "PrivateChannelResponse",
    10: "ThreadResponse",
    11: "ThreadResponse",
    12: "ThreadResponse",
}


def _at(node: Any, where: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    """The values at ``where`` in ``node`` with their paths (``"*"``: each item or value)."""
    if not where:
        yield (), node
        return
    key, rest = where[0], where[1:]
    if key == "*":
        items = node.items() if isinstance(node, dict) else enumerate(node if isinstance(node, list) else [])
        for name, child in items:
            yield from (((str(name), *p), v) for p, v in _at(child, rest))
    elif isinstance(node, dict) and key in node:
        yield from (((key, *p), v) for p, v in _at(node[key], rest))


def gateway_problems(event: str, data: Any) -> list[str]:
    """What the objects inside a gateway event (`GATEWAY_OBJECTS`) have that the spec's schema
    for them does not allow, as ``"<path>: <message>"`` (empty when they fit)."""
    found: list[str] = []
    TOTALS["gateway events"] += event in GATEWAY_OBJECTS
    for where, schema, extra in GATEWAY_OBJECTS.get(event, []):
        for path, value in _at(data, where):
            if not isinstance(value, dict):
                continue
            named = schema
            if schema == "channel":  # each item by its own type
                named = _CHANNEL_SCHEMAS.get(value.get("type"), "GuildChannelResponse")
            plain = {k: v for k, v in value.items() if k not in extra}
            prefix = ".".join(path)
            found += [prefix + (p if p.startswith(":") else f".{p}") for p in payload_problems(named, plain)]
    return found


def _divergence(status_class: str, problem: tuple[tuple[str, ...], str, str]) -> bool:
    path, code, _ = problem
    return any(
        status_class == statuses and path[: len(where)] == where and kind in ("*", code)
        for statuses, where, kind in DIVERGENCES
    )


def _described(found: Iterable[tuple[tuple[str, ...], str, str]]) -> list[str]:
    return [".".join(path) + f": {message} ({code})" for path, code, message in found]


__all__ = [
    "DIVERGENCES",
    "GATEWAY_OBJECTS",
    "QUIRKS",
    "TOTALS",
    "Contract",
    "Operation",
    "gateway_problems",
    "operation",
    "payload_problems",
]
