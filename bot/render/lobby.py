"""The lobby message: seats, options, and the host's components."""

from __future__ import annotations

from typing import Any

import discord

from bot.components import UnoButton, UnoSelect
from bot.engine.editions import EDITIONS, edition_name, game_options
from bot.engine.options import HouseRule
from bot.engine.variants import VARIANTS
from bot.render.layout import block, heading, message, rows, small
from bot.render.words import (
    HOUSE_RULE_HINTS,
    HOUSE_RULE_NAMES,
    customizable_text,
    house_rules_text,
    plain,
    scoring_text,
)
from bot.tables import Table


def options_text(table: Table) -> str:
    """One short paragraph of the table's options."""
    o = game_options(table.variant, table.options)
    parts = [f"**{edition_name(table.variant)}**", scoring_text(o)]
    if o.partners:
        parts.append("partners")
    if o.house_rules:
        parts.append("house rules: " + house_rules_text(o.house_rules))
    if table.variant in VARIANTS and VARIANTS[table.variant].customizable and o.customizable_rule:
        parts.append(f"Wild Customizable: {customizable_text(o.customizable_rule)}")
    parts.append(f"turn timer {table.turn_seconds}s" if table.turn_seconds else "no turn timer")
    return " · ".join(parts)


def lobby(table: Table) -> discord.ui.LayoutView:
    """The public lobby message (Components V2): seats, options; Join, Leave, Add bot, Start;
    host selects."""
    ch, v = table.channel_id, table.version
    variant_options = [
        discord.SelectOption(label=name, value=id_, default=id_ == table.variant)
        for id_, name in EDITIONS.items()
    ]
    rule_options = [
        discord.SelectOption(
            label=HOUSE_RULE_NAMES[r],
            value=r.value,
            description=HOUSE_RULE_HINTS[r],
            default=r in table.options.house_rules,
        )
        for r in HouseRule
    ]
    seat_buttons = [
        UnoButton("l", ch, v, "join", label="Join", style=discord.ButtonStyle.success, row=0),
        UnoButton("l", ch, v, "leave", label="Leave", row=0),
        UnoButton("l", ch, v, "bot", label="Add bot", emoji="🤖", row=0),
    ]
    if any(s.is_ai for s in table.seats):
        seat_buttons.append(UnoButton("l", ch, v, "unbot", label="Remove bot", row=0))
    items = rows(
        [
            *seat_buttons,
            UnoButton("l", ch, v, "start", label="Start", style=discord.ButtonStyle.primary, row=0),
            UnoSelect("l", ch, v, "variant", options=variant_options, placeholder="Edition", row=1),
            UnoSelect(
                "l", ch, v, "rules", options=rule_options, placeholder="House rules", max_values=6, row=2
            ),
        ]
    )
    return _lobby(table, "UNO lobby", _footer(table), list(items))


def _footer(table: Table) -> str:
    footer = (
        "The host picks the edition and house rules below (/uno new again changes scoring and teams), "
        "then presses Start."
    )
    if table.options.partners and len(table.seats) not in (4, 6, 8, 10):
        footer = f"Partners need 4, 6, 8 or 10 players to start ({len(table.seats)} seated). " + footer
    return footer


def _lobby(table: Table, title: str, footer: str, items: list[discord.ui.Item[Any]]) -> discord.ui.LayoutView:
    """The lobby's texts under ``title`` (its seats, options, teams), ``footer`` in small text,
    then ``items``."""
    seats = "\n".join(
        f"{i + 1}. {'🤖 ' if s.is_ai else ''}{plain(s.name)}{' (host)' if s.id == table.host.id else ''}"
        for i, s in enumerate(table.seats)
    )
    texts = [block(f"Seats ({len(table.seats)}/10)", seats or "empty")]
    # Partners sit across the table (docs/rules.md §3.2).
    if table.options.partners and len(table.seats) in (4, 6, 8, 10):
        half = len(table.seats) // 2
        pairs = zip(table.seats[:half], table.seats[half:], strict=True)
        teams = "\n".join(f"{plain(a.name)} + {plain(b.name)}" for a, b in pairs)
        texts.append(block("Teams (partners sit across)", teams))
    if footer:
        texts.append(small(footer))
    top = heading(f"### {title}\n{options_text(table)}")
    return message(0xD72600, [top], texts, items)


def lobby_over(table: Table, title: str, footer: str = "") -> discord.ui.LayoutView:
    """The lobby message once the lobby is over (closed, expired, or the game started): its seats
    and options, ``title`` and ``footer`` saying why, and no components."""
    return _lobby(table, title, footer or _footer(table), [])
