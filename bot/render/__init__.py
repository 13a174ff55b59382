"""Pure rendering: lobbies, tables, hands and events to Discord messages (the lobby, the table and
the hands as Components V2 layouts; standings as embeds), text and components.

Nothing here changes a game; every function takes the table (and a player) and returns what to
show. Card names are the engine's (``"red draw two"``), with a color emoji before them.

============  ==================================================================================
module        what it draws
============  ==================================================================================
``words``     what every message shares: card labels, colors, counts, options, house rules
``layout``    what the Components V2 messages are built of, within Discord's limits
``lobby``     the lobby message
``table``     the public table message, standings, round summaries
``hand``      a player's private hand and their decisions as components
``log``       the table's log lines, one per event
============  ==================================================================================
"""

from bot.render.hand import hand
from bot.render.lobby import lobby, lobby_over
from bot.render.log import describe, log_lines
from bot.render.table import rematch, round_summary, standings, table
from bot.render.words import (
    HOUSE_RULE_HINTS,
    HOUSE_RULE_NAMES,
    as_label,
    count,
    named,
    plain,
    record_text,
    settings_text,
)

__all__ = [
    "HOUSE_RULE_HINTS",
    "HOUSE_RULE_NAMES",
    "as_label",
    "count",
    "describe",
    "hand",
    "lobby",
    "lobby_over",
    "log_lines",
    "named",
    "plain",
    "record_text",
    "rematch",
    "round_summary",
    "settings_text",
    "standings",
    "table",
]
