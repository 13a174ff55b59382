"""Interactions: what simulated users start (slash commands, clicks, selects, modal submits) and
what the bot answers (callbacks, followups, ``@original`` edits), with Discord's rules.

A user action builds an INTERACTION_CREATE payload (``discord.types.interactions``) from the
stored state: slash commands from the synced command tree (``data.guild_id`` set for guild
commands), components with the full stored message. The bot then has 3 seconds (stand-in
clock) for one callback and 15 minutes for webhook calls with the token.
"""

from __future__ import annotations

import secrets
import shlex
from collections.abc import Sequence
from typing import Any

from . import limits
from .limits import ACK_SECONDS, ATTACHMENT_SIZE_LIMIT, FLAG_EPHEMERAL, FLAG_LOADING, JSON, TOKEN_SECONDS
from .records import Channel, InteractionRecord, Message, Role, User
from .state import State

_OPTION_TYPES = {
    3: "a string",
    4: "an integer",
    5: "a boolean",
    6: "a user",
    7: "a channel",
    8: "a role",
    9: "a mentionable",
    10: "a number",
    11: "an attachment",
}


class CommandUsageError(ValueError):
    """A simulated user tried something a Discord client would not let them send (unknown
    command or option, missing required option, disabled button, value not offered...)."""


# ---------------------------------------------------------------------- command lines


def parse_command_line(text: str) -> tuple[list[str], dict[str, str]]:
    """Split ``/uno new variant:flip "name:Big table"`` into ``(["uno", "new"], {"variant":
    "flip", "name": "Big table"})``: words before the first ``name:value`` are the command path,
    and a bare word after an option continues its value, as in Discord's client
    (``/uno rules card:wild draw four``).

    Raises:
        CommandUsageError: unbalanced quotes, or an option given twice.
    """
    try:
        words = shlex.split(text.strip().removeprefix("/"))
    except ValueError as error:
        raise CommandUsageError(str(error)) from None
    path: list[str] = []
    options: dict[str, str] = {}
    for word in words:
        name, colon, value = word.partition(":")
        if colon and name:
            if name in options:
                raise CommandUsageError(f"option {name} is given twice; give it once")
            options[name] = value
        elif options:
            options[next(reversed(options))] += " " + word
        else:
            path.append(word)
    return path, options


def localized(node: JSON, key: str, locale: str) -> str:
    """A command's, option's or choice's ``key`` (``"name"``, ``"description"``) as a client in
    ``locale`` shows it: its ``<key>_localizations`` entry for the locale, else the default."""
    return str((node.get(f"{key}_localizations") or {}).get(locale) or node.get(key, ""))


def _named(node: JSON, word: str, locale: str) -> bool:
    """Whether ``word`` names ``node`` for a client in ``locale`` (its own or its default name)."""
    return word in (node["name"], localized(node, "name", locale))


def find_command(
    state: State, path: list[str], guild_id: int | None = None, locale: str = "en-US"
) -> tuple[JSON, int | None, list[JSON], JSON]:
    """Resolve a command path against the synced commands, the guild's (default: the first)
    first; each word may be the default name or the one a client in ``locale`` shows
    (``name_localizations``).

    Returns:
        ``(top-level command, its guild id or None, [group, subcommand] option dicts on the
        way, the leaf that carries the options)``.

    Raises:
        CommandUsageError: no such command, or the path stops at a group.
    """
    if not path:
        raise CommandUsageError("empty command")
    for scope in (guild_id or state.guild_id, None):
        top = next((c for c in state.commands.get(scope, []) if _named(c, path[0], locale)), None)
        if top is not None and top.get("type", 1) == 1:
            break
    else:
        raise CommandUsageError(f"no slash command /{path[0]} was synced")
    chain: list[JSON] = []
    leaf = top
    for word in path[1:]:
        sub = next(
            (o for o in leaf.get("options", []) if o["type"] in (1, 2) and _named(o, word, locale)), None
        )
        if sub is None:
            raise CommandUsageError(f"/{' '.join(path)}: no subcommand {word!r}")
        chain.append(sub)
        leaf = sub
    if any(o["type"] in (1, 2) for o in leaf.get("options", [])):
        names = ", ".join(o["name"] for o in leaf["options"])
        raise CommandUsageError(f"/{' '.join(path)} needs a subcommand: {names}")
    return top, scope, chain, leaf


def command_paths(state: State, locale: str = "en-US", guild_id: int | None = None) -> list[JSON]:
    """Every slash command invocable in the guild (default: the first) as ``{"path": "uno new",
    "description", "options": [{"name", "type", "description", "required", "choices"}]}`` (for
    autocomplete), as a client in ``locale`` shows them: names, descriptions and choices in its
    language where the command has them (``*_localizations``), as Discord's client does."""
    out: list[JSON] = []

    def visit(prefix: list[str], node: JSON) -> None:
        subs = [o for o in node.get("options", []) if o["type"] in (1, 2)]
        if not subs:
            options = [
                {
                    "name": localized(o, "name", locale),
                    "type": _OPTION_TYPES.get(o["type"], str(o["type"])),
                    "description": localized(o, "description", locale),
                    "required": o.get("required", False),
                    "choices": [{**c, "name": localized(c, "name", locale)} for c in o.get("choices", [])],
                }
                for o in node.get("options", [])
            ]
            out.append(
                {
                    "path": " ".join(prefix),
                    "description": localized(node, "description", locale),
                    "options": options,
                }
            )
        for sub in subs:
            visit([*prefix, localized(sub, "name", locale)], sub)

    seen: set[str] = set()
    for scope in (guild_id or state.guild_id, None):
        for command in state.commands.get(scope, []):
            if command.get("type", 1) == 1 and command["name"] not in seen:
                seen.add(command["name"])
                visit([localized(command, "name", locale)], command)
    return out


def _convert(
    state: State, definition: JSON, raw: Any, resolved: JSON, guild_id: int | None, locale: str = "en-US"
) -> Any:
    """One option value as Discord sends it in the guild, adding users/members/channels/roles
    to ``resolved`` (a choice by its value, or its name in ``locale`` or by default)."""
    kind = definition["type"]
    name = definition["name"]
    choices = definition.get("choices") or []
    if choices:
        for choice in choices:
            if raw == choice["value"] or str(raw).lower() in (
                str(choice["value"]).lower(),
                choice["name"].lower(),
                localized(choice, "name", locale).lower(),
            ):
                return choice["value"]
        offered = ", ".join(c["name"] for c in choices)
        raise CommandUsageError(f"option {name}: {raw!r} is not one of {offered}")
    try:
        if kind == 3:
            value: Any = str(raw)
            if not definition.get("min_length", 0) <= len(value) <= definition.get("max_length", 6000):
                raise CommandUsageError(f"option {name}: length out of range")
            return value
        if kind in (4, 10):
            value = int(raw) if kind == 4 else float(raw)
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise CommandUsageError(f"option {name}: {value} not in [{low}, {high}]")
            return value
        if kind == 5:
            return _boolean(name, raw)
    except CommandUsageError:
        raise
    except ValueError:
        raise CommandUsageError(f"option {name}: {raw!r} is not {_OPTION_TYPES[kind]}") from None
    if kind in (6, 9) and not isinstance(raw, (Channel, Role)):
        user = _lookup(state.users, raw, name)
        if user is not None or kind == 6:
            if user is None:
                raise CommandUsageError(f"option {name}: no user {raw!r}")
            resolved.setdefault("users", {})[str(user.id)] = state.user_payload(user)
            member = {
                **state.member_payload(user, guild_id, with_user=False),
                "permissions": str(state.permissions(user, guild_id)),
            }
            resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
    if kind == 7 or (kind == 9 and isinstance(raw, Channel)):
        channel = _lookup(state.channels, raw, name)
        if channel is None:
            raise CommandUsageError(f"option {name}: no channel {raw!r}")
        payload = {**state.channel_payload(channel), "permissions": str(2**51 - 1)}
        resolved.setdefault("channels", {})[str(channel.id)] = payload
        return str(channel.id)
    if kind in (8, 9):
        role = _lookup(state.guilds[guild_id or state.guild_id].roles, raw, name)
        if role is None:
            raise CommandUsageError(f"option {name}: no role {raw!r}")
        resolved.setdefault("roles", {})[str(role.id)] = state.role_payload(role)
        return str(role.id)
    raise CommandUsageError(f"option {name}: type {kind} is not supported by the stand-in")


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _boolean(name: str, raw: Any) -> bool:
    """A boolean option: a bool, or true/false (yes/no, on/off, 1/0) in any case.

    Raises:
        CommandUsageError: any other value.
    """
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    raise CommandUsageError(
        f"option {name}: {raw!r} is not a boolean; use true or false (also yes/no, on/off, 1/0)"
    )


def _lookup(table: dict[int, Any], raw: Any, option: str) -> Any:
    """A record given as itself, an id, a mention (``<@id>``, ``<#id>``) or a name."""
    if hasattr(raw, "id") and raw.id in table:
        return table[raw.id]
    text = str(raw).strip("<@!#&>")
    if text.isdigit() and int(text) in table:
        return table[int(text)]
    return next((r for r in table.values() if getattr(r, "name", None) == str(raw)), None)


def command_data(
    state: State, path: list[str], options: dict[str, Any], guild_id: int | None = None, locale: str = "en-US"
) -> JSON:
    """The ``data`` of a CHAT_INPUT interaction for ``/path options`` in the guild (default: the
    first), typed by a client in ``locale`` (commands and options by their default names or that
    locale's; the data, as Discord sends it, names them by their default names).

    Raises:
        CommandUsageError: unknown command/option, missing required option, bad value.
    """
    top, scope, chain, leaf = find_command(state, path, guild_id, locale)
    definitions = {o["name"]: o for o in leaf.get("options", [])}
    by_word = {**{localized(o, "name", locale): o for o in definitions.values()}, **definitions}
    resolved: JSON = {}
    values: list[JSON] = []
    given: set[str] = set()
    for word, raw in options.items():
        if word not in by_word:
            raise CommandUsageError(f"/{' '.join(path)} has no option {word!r}")
        definition = by_word[word]
        name = definition["name"]
        if name in given:
            raise CommandUsageError(f"option {name} is given twice; give it once")
        given.add(name)
        value = _convert(state, definition, raw, resolved, guild_id, locale)
        values.append({"name": name, "type": definition["type"], "value": value})
    missing = ", ".join(n for n, d in definitions.items() if d.get("required") and n not in given)
    if missing:
        raise CommandUsageError(f"/{' '.join(path)} is missing required options: {missing}")
    nested: list[JSON] = values
    for sub in reversed(chain):
        nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
    data: JSON = {"id": top["id"], "name": top["name"], "type": 1, "options": nested}
    if scope is not None:
        data["guild_id"] = str(scope)
    if resolved:
        data["resolved"] = resolved
    return data


# ---------------------------------------------------------------------- starting interactions


def start(
    state: State,
    user: User,
    channel: Channel,
    type: int,
    data: JSON,
    *,
    message: Message | None = None,
    command: str | None = None,
    trigger: InteractionRecord | None = None,
) -> InteractionRecord:
    """Create an interaction, dispatch INTERACTION_CREATE and return its record (``trigger``: for
    a modal submit, the interaction that showed the modal)."""
    if message is not None and not state.can_see(user, message):
        raise CommandUsageError(f"{user.name} cannot see message {message.id}")
    interaction_id = state.ids.next()
    guild_id = channel.guild_id
    permissions = str(state.permissions(user, guild_id))
    token = f"aW50ZXJhY3Rpb24{interaction_id}{secrets.token_urlsafe(24)}"
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(state.application_id),
        "type": type,
        "token": token,
        "version": 1,
        "data": data,
        "channel_id": str(channel.id),
        "channel": {**state.channel_payload(channel), "permissions": permissions},
        "app_permissions": str(state.permissions(state.bot, guild_id)),
        "locale": user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(guild_id or state.guild_id)},
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if channel.is_dm:
        payload.update(user=state.user_payload(user), context=1)
    else:
        payload.update(
            guild_id=str(guild_id),
            guild={"id": str(guild_id), "locale": state.guild_locale, "features": []},
            guild_locale=state.guild_locale,
            member={**state.member_payload(user, guild_id), "permissions": permissions},
            context=0,
        )
    if message is not None:
        payload["message"] = state.message_payload(message)
    record = InteractionRecord(
        id=interaction_id,
        token=token,
        type=type,
        user=user,
        channel=channel,
        created_at=state.clock.now(),
        payload=payload,
        waiter=state.wait_until,
        source_message=message,
        command=command,
        trigger=trigger,
    )
    state.interactions[record.id] = record
    state.tokens[token] = record
    state.dispatch("INTERACTION_CREATE", payload)
    state.changed()
    return record


def component_data(message: Message, custom_id: str, values: list[str] | None) -> JSON:
    """The ``data`` of a button (``values`` None) or select interaction on ``message``.

    Raises:
        CommandUsageError: no such component, it is disabled, or the values are not offered.
    """
    try:
        component = message.component(custom_id)
    except KeyError:
        raise CommandUsageError(f"message {message.id} has no component {custom_id!r}") from None
    if component.get("disabled"):
        raise CommandUsageError(f"component {custom_id!r} is disabled")
    kind = component["type"]
    if values is None:
        if kind != 2:
            raise CommandUsageError(f"{custom_id!r} is not a button; use select()")
        return {"custom_id": custom_id, "component_type": 2}
    if kind == 2:
        raise CommandUsageError(f"{custom_id!r} is a button; use click()")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise CommandUsageError(f"select {custom_id!r} takes {low}..{high} values")
    if kind == 3:
        offered = {o["value"] for o in component.get("options", [])}
        unknown = [v for v in values if v not in offered]
        if unknown:
            raise CommandUsageError(f"select {custom_id!r} does not offer {unknown}")
    return {"custom_id": custom_id, "component_type": kind, "values": list(values)}


def modal_data(modal: JSON, values: dict[str, str]) -> JSON:
    """The ``data`` of a modal submit, mirroring the modal's layout (action rows of text inputs
    or labels around inputs).

    Raises:
        CommandUsageError: a value for an input the modal does not have, or a required one
            missing.
    """
    given = dict(values)

    def answer(component: JSON) -> JSON:
        custom_id = component["custom_id"]
        if component["type"] == 4:
            if component.get("required", True) and not given.get(custom_id):
                raise CommandUsageError(f"modal input {custom_id!r} is required")
            return {"type": 4, "custom_id": custom_id, "value": given.pop(custom_id, "")}
        chosen: str | list[str] = given.pop(custom_id, [])
        return {
            "type": component["type"],
            "custom_id": custom_id,
            "values": [chosen] if isinstance(chosen, str) else list(chosen),
        }

    rows: list[JSON] = []
    for row in modal.get("components", []):
        if row["type"] == 1:
            rows.append({"type": 1, "components": [answer(c) for c in row["components"]]})
        elif row["type"] == 18:
            rows.append({"type": 18, "id": row.get("id"), "component": answer(row["component"])})
        elif row["type"] == 10:
            rows.append({"type": 10, "id": row.get("id"), "content": row.get("content", "")})
    if given:
        raise CommandUsageError(f"modal has no inputs {sorted(given)}")
    return {"custom_id": modal["custom_id"], "components": rows}


# ---------------------------------------------------------------------- the bot's side


def by_token(state: State, token: str, application_id: str | None = None) -> InteractionRecord:
    """The interaction a webhook token belongs to, if still valid.

    Raises:
        DiscordError: 50027 Invalid Webhook Token (unknown, or older than 15 minutes),
            10015 Unknown Webhook (wrong application id).
    """
    record = state.tokens.get(token)
    if record is None or state.clock.now() > record.created_at + TOKEN_SECONDS:
        raise limits.invalid_webhook_token()
    if application_id is not None and application_id != str(state.application_id):
        raise limits.unknown("Webhook")
    return record


def callback(
    state: State, interaction_id: str, token: str, body: JSON, files: Sequence[tuple[str, bytes]] = ()
) -> JSON:
    """Handle ``POST /interactions/{id}/{token}/callback`` and return the ``with_response``
    body ``{"interaction": {...}, "resource": {"type", "message"?}}`` (the message only for
    types 4 and 7, as Discord).

    Raises:
        DiscordError: 10062 (unknown, or later than 3 s), 40060 (already acknowledged), 50035
            (bad type for this interaction, bad shape), 50006 (empty message).
    """
    record = state.tokens.get(token)
    if record is None or str(record.id) != interaction_id:
        raise limits.unknown("interaction")
    if record.response_type is not None:
        raise limits.already_acknowledged()
    if state.clock.now() > record.created_at + ACK_SECONDS:
        raise limits.unknown("interaction")
    kind = body.get("type")
    data: JSON = body.get("data") or {}
    allowed = {2: (4, 5, 9), 3: (4, 5, 6, 7, 9), 5: (4, 5, 6, 7)}[record.type]
    if record.type == 5 and record.source_message is None:
        allowed = (4, 5)
    if kind not in allowed:
        raise limits.invalid_form([(("type",), "BASE_TYPE_CHOICES", f"Value must be one of {set(allowed)}.")])
    message: Message | None = None
    ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
    if kind == 4:
        message = state.create_message(
            record.channel,
            state.bot,
            data,
            base=("data",),
            ephemeral_for=record.user,
            interaction=record,
            type=20 if record.type == 2 else 0,
            files=files,
        )
    elif kind == 5:
        flags = FLAG_LOADING | (FLAG_EPHEMERAL if ephemeral else 0)
        message = state.create_message(
            record.channel,
            state.bot,
            {"content": "", "flags": flags},
            ephemeral_for=record.user,
            interaction=record,
            type=20 if record.type == 2 else 0,
            validate=False,
        )
    elif kind in (6, 7):
        message = record.source_message
        assert message is not None
        if message.deleted:
            raise limits.unknown("Message")
        if kind == 7:
            state.edit_message(message, data, base=("data",), files=files)
    else:
        limits.check_modal(data)
        record.modal = data
    record.response_type = kind
    record.acknowledged_at = state.clock.now()
    if kind not in (5, 6):
        answered(state, record, message, record.acknowledged_at)
    record.original = message
    state.changed()
    response: JSON = {
        "id": str(record.id),
        "type": record.type,
        "response_message_loading": kind == 5,
        "response_message_ephemeral": bool(message and message.ephemeral),
    }
    resource: JSON = {"type": kind}
    if message is not None:
        response["response_message_id"] = str(message.id)
    if message is not None and kind in (4, 7):  # Discord sends no message with a deferral
        resource["message"] = state.message_payload(message)
    return {"interaction": response, "resource": resource}


def followup(
    state: State, record: InteractionRecord, body: JSON, files: Sequence[tuple[str, bytes]] = ()
) -> Message:
    """Handle ``POST /webhooks/{app}/{token}``: a new message, or, after a deferred "thinking"
    response that is still loading, the edit that replaces it (keeping its ephemerality).

    Raises:
        DiscordError: 10015 before the interaction was acknowledged; limits as for messages.
    """
    if record.response_type is None:
        raise limits.unknown("Webhook")
    original = record.original
    if record.response_type == 5 and original is not None and original.loading:
        # The placeholder keeps its ephemerality; IS_COMPONENTS_V2 comes with the new body.
        body = {**body, "flags": int(body.get("flags") or 0) & limits.FLAG_COMPONENTS_V2}
        edited = state.edit_message(original, body, files=files)
        answered(state, record, edited)
        return edited
    message = state.create_message(
        record.channel, state.bot, body, ephemeral_for=record.user, interaction=record, files=files
    )
    record.followups.append(message)
    answered(state, record, message)
    state.changed()
    return message


def answered(
    state: State, record: InteractionRecord, message: Message | None, at: float | None = None
) -> None:
    """Note the bot's answer (`InteractionRecord.answer`) at ``at`` (default: now), if it is the
    first."""
    if record.answered_at is None:
        record.answered_at = state.clock.now() if at is None else at
        record.answer_message = message


def webhook_message(state: State, record: InteractionRecord, message_id: str) -> Message:
    """The message ``@original`` or ``{id}`` names for this interaction's token.

    Raises:
        DiscordError: 10008 Unknown Message (not this interaction's, deleted, or no original).
    """
    if message_id == "@original":
        message = record.original
    else:
        message = next(
            (m for m in [record.original, *record.followups] if m and str(m.id) == message_id),
            None,
        )
    if message is None or message.deleted:
        raise limits.unknown("Message")
    return message


__all__ = [
    "CommandUsageError",
    "callback",
    "command_data",
    "command_paths",
    "component_data",
    "followup",
    "modal_data",
    "parse_command_line",
    "start",
]
