"""The lobby message: seats, options, and the host's components."""

from __future__ import annotations

from typing import Any

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoButton, UnoSelect
from bot.engine.editions import EDITIONS, edition, game_options
from bot.engine.options import HouseRule
from bot.engine.variants import VARIANTS
from bot.i18n import N_, Tr
from bot.render.layout import ACCENT, block, heading, message, rows, small
from bot.render.names import plain, seat_name
from bot.render.options import (
    HOUSE_RULE_HINTS,
    HOUSE_RULE_NAMES,
    customizable_text,
    edition_name,
    house_rules_text,
    scoring_text,
)
from bot.tables import Table


def options_text(table: Table, tr: Tr) -> str:
    """One short paragraph of the table's options."""
    o = game_options(table.variant, table.options)
    parts = [f"**{edition_name(table.variant, tr)}**", scoring_text(o, tr)]
    if o.partners:
        parts.append(tr._("partners"))
    if o.house_rules and edition(table.variant).house_rules:  # DOS plays none (docs/rules.md §14.12)
        parts.append(tr._("house rules: {rules}").format(rules=house_rules_text(o.house_rules, tr)))
    if table.variant in VARIANTS and VARIANTS[table.variant].customizable and o.customizable_rule:
        parts.append(
            tr._("Wild Customizable: {rule}").format(rule=customizable_text(o.customizable_rule, tr))
        )
    parts.append(
        tr._("turn timer {seconds}s").format(seconds=table.turn_seconds)
        if table.turn_seconds
        else tr._("no turn timer")
    )
    return " · ".join(parts)


BOT_LEVEL_HINTS = {
    "easy": {
        "uno": N_("Plays any card it can, often forgets UNO"),
        "dos": N_("Plays any match it can, often forgets DOS"),
    },
    "normal": {
        "uno": N_("Plays sensibly, never forgets UNO"),
        "dos": N_("Picks good matches, never forgets DOS"),
    },
    "hard": {"uno": N_("Thinks ahead: the hardest to beat"), "dos": N_("Thinks ahead: the hardest to beat")},
}
"""What each level of bot does differently (docs/rules.md §5.4, §14.13), by the family of the
table's edition (``Edition.family``): one short line, read on a phone under the level's name."""
BOT_LEVEL_NAMES = {"easy": N_("Easy bot"), "normal": N_("Normal bot"), "hard": N_("Hard bot")}
"""Each level's name in the select (the Add bot button seats a normal one)."""


def bot_levels(tr: Tr, variant: str = "classic") -> list[discord.SelectOption]:
    """The lobby's Add-a-bot select in ``tr``'s language for a ``variant`` table: one option per
    ``ai.AiLevel``, its name and what it does differently (docs/rules.md §5.4; DOS's bots,
    §14.13)."""
    family = edition(variant).family
    return [
        discord.SelectOption(
            label=tr._(BOT_LEVEL_NAMES[level]), value=level, emoji="🤖", description=tr._(hints[family])
        )
        for level, hints in BOT_LEVEL_HINTS.items()
    ]


def lobby(table: Table, tr: Tr) -> discord.ui.LayoutView:
    """The public lobby message (Components V2) in ``tr``'s language (the table's): seats,
    options; Join, Leave, Add bot, Start; host selects."""
    ch, v = table.channel_id, table.version
    variant_options = [
        discord.SelectOption(label=edition_name(id_, tr), value=id_, default=id_ == table.variant)
        for id_ in EDITIONS
    ]
    rule_options = [
        discord.SelectOption(
            label=tr._(HOUSE_RULE_NAMES[r]),
            value=r.value,
            description=tr._(HOUSE_RULE_HINTS[r]),
            default=r in table.options.house_rules,
        )
        for r in HouseRule
    ]
    seat_buttons = [
        UnoButton(
            Click(Scope.LOBBY, ch, v, Verb.JOIN), label=tr._("Join"), style=discord.ButtonStyle.success, row=0
        ),
        UnoButton(Click(Scope.LOBBY, ch, v, Verb.LEAVE), label=tr._("Leave"), row=0),
        UnoButton(Click(Scope.LOBBY, ch, v, Verb.ADD_BOT), label=tr._("Add bot"), emoji="🤖", row=0),
    ]
    if any(s.is_ai for s in table.seats):
        seat_buttons.append(
            UnoButton(Click(Scope.LOBBY, ch, v, Verb.REMOVE_BOT), label=tr._("Remove bot"), row=0)
        )
    items = rows(
        [
            *seat_buttons,
            UnoButton(
                Click(Scope.LOBBY, ch, v, Verb.START),
                label=tr._("Start"),
                style=discord.ButtonStyle.primary,
                row=0,
            ),
            UnoSelect(
                Click(Scope.LOBBY, ch, v, Verb.EDITION),
                options=variant_options,
                placeholder=tr._("Edition"),
                row=1,
            ),
            *(
                []
                if not edition(table.variant).house_rules  # DOS plays none (docs/rules.md §14.12)
                else [
                    UnoSelect(
                        Click(Scope.LOBBY, ch, v, Verb.HOUSE_RULES),
                        options=rule_options,
                        placeholder=tr._("House rules"),
                        max_values=6,
                        row=2,
                    )
                ]
            ),
            UnoSelect(
                Click(Scope.LOBBY, ch, v, Verb.ADD_BOT),
                options=bot_levels(tr, table.variant),
                placeholder=tr._("Add a bot of a level…"),
                row=3,
            ),
        ]
    )
    return _lobby(
        table,
        tr._("{edition} lobby").format(edition=edition_name(table.variant, tr)),
        tr,
        _footer(table, tr),
        list(items),
    )


def _footer(table: Table, tr: Tr) -> str:
    footer = (
        tr._(
            "The host picks the edition below (/uno new again changes scoring and teams), then presses Start."
        )
        if not edition(table.variant).house_rules
        else tr._(
            "The host picks the edition and house rules below (/uno new again changes scoring and teams), "
            "then presses Start."
        )
    )
    if table.options.partners and len(table.seats) not in (4, 6, 8, 10):
        footer = (
            tr._("Partners need 4, 6, 8 or 10 players to start ({seated} seated).").format(
                seated=len(table.seats)
            )
            + " "
            + footer
        )
    return footer


def _lobby(
    table: Table, title: str, tr: Tr, footer: str, items: list[discord.ui.Item[Any]]
) -> discord.ui.LayoutView:
    """The lobby's texts under ``title`` (its seats, options, teams) in ``tr``'s language,
    ``footer`` in small text, then ``items``."""
    host = tr._(" (host)")
    seats = "\n".join(
        f"{i + 1}. {'🤖 ' if s.is_ai else ''}{plain(seat_name(s.name, tr))}{host if s.id == table.host.id else ''}"
        for i, s in enumerate(table.seats)
    )
    texts = [block(tr._("Seats ({seated}/10)").format(seated=len(table.seats)), seats or tr._("empty"))]
    # Partners sit across the table (docs/rules.md §3.2).
    if table.options.partners and len(table.seats) in (4, 6, 8, 10):
        half = len(table.seats) // 2
        pairs = zip(table.seats[:half], table.seats[half:], strict=True)
        teams = "\n".join(
            f"{plain(seat_name(a.name, tr))} + {plain(seat_name(b.name, tr))}" for a, b in pairs
        )
        texts.append(block(tr._("Teams (partners sit across)"), teams))
    if footer:
        texts.append(small(footer))
    top = heading(f"### {title}\n{options_text(table, tr)}")
    return message(ACCENT, [top], texts, items)


def lobby_over(table: Table, title: str, tr: Tr, footer: str = "") -> discord.ui.LayoutView:
    """The lobby message once the lobby is over (closed, expired, or the game started): its seats
    and options, ``title`` and ``footer`` saying why (in ``tr``'s language already), and no
    components."""
    return _lobby(table, title, tr, footer or _footer(table, tr), [])
