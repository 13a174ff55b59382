"""The lobby message: seats, options, and the host's components."""

from __future__ import annotations

import discord

from bot.components import UnoButton, UnoSelect, view_of
from bot.engine.editions import EDITIONS, edition_name, game_options
from bot.engine.options import HouseRule
from bot.engine.variants import VARIANTS
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


def lobby(table: Table) -> tuple[discord.Embed, discord.ui.View]:
    """The public lobby message: seats, options; Join, Leave, Add bot, Start; host selects."""
    embed = discord.Embed(title="UNO lobby", description=options_text(table), color=0xD72600)
    seats = "\n".join(
        f"{i + 1}. {'🤖 ' if s.is_ai else ''}{plain(s.name)}{' (host)' if s.id == table.host.id else ''}"
        for i, s in enumerate(table.seats)
    )
    embed.add_field(name=f"Seats ({len(table.seats)}/10)", value=seats or "empty", inline=False)
    # Partners sit across the table (docs/rules.md §3.2).
    if table.options.partners and len(table.seats) in (4, 6, 8, 10):
        half = len(table.seats) // 2
        pairs = zip(table.seats[:half], table.seats[half:], strict=True)
        teams = "\n".join(f"{plain(a.name)} + {plain(b.name)}" for a, b in pairs)
        embed.add_field(name="Teams (partners sit across)", value=teams, inline=False)
    footer = (
        "The host picks the edition and house rules below (/uno new again changes scoring and teams), "
        "then presses Start."
    )
    if table.options.partners and len(table.seats) not in (4, 6, 8, 10):
        footer = f"Partners need 4, 6, 8 or 10 players to start ({len(table.seats)} seated). " + footer
    embed.set_footer(text=footer)
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
    view = view_of(
        *seat_buttons,
        UnoButton("l", ch, v, "start", label="Start", style=discord.ButtonStyle.primary, row=0),
        UnoSelect("l", ch, v, "variant", options=variant_options, placeholder="Edition", row=1),
        UnoSelect("l", ch, v, "rules", options=rule_options, placeholder="House rules", max_values=6, row=2),
    )
    return embed, view


def lobby_over(table: Table, title: str, footer: str = "") -> discord.Embed:
    """The lobby message once the lobby is over (closed, expired, or the game started): its seats
    and options, ``title`` and ``footer`` saying why, and no components."""
    embed, _ = lobby(table)
    embed.title = title
    if footer:
        embed.set_footer(text=footer)
    return embed
