"""A seat given up: the offer of a seat to a bot (docs/rules.md §5.3), said in the channel when a
player is one timeout away from being removed (§5.2), with a button for the host or a moderator;
and the confirmation ``/uno leave`` asks for during a game (§5.1, §5.3)."""

from __future__ import annotations

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoButton, view_of
from bot.i18n import Tr
from bot.render.names import plain, seat_name
from bot.tables import Table

LABEL_MAX = 80  # Discord's limit for a button's label


def seat_offer(table: Table, player: str, timeouts: int, tr: Tr) -> tuple[str, discord.ui.View]:
    """What is said when ``player`` has run out of time ``timeouts`` times in a row, one short of
    removal, in ``tr``'s language (the table's): the warning, and a button that gives their seat (hand, score and turn) to a bot. It
    carries the player's id; pressing it is refused to anyone but the host or a member with
    Manage Messages, and once the player is out of the game."""
    name = seat_name(table.name(player), tr)
    text = tr.ngettext(
        "⏰ {name} has run out of time {n} time in a row: once more and they leave the game. The host "
        "(or a member with Manage Messages) can give their seat, with its hand and score, to a bot now.",
        "⏰ {name} has run out of time {n} times in a row: once more and they leave the game. The host "
        "(or a member with Manage Messages) can give their seat, with its hand and score, to a bot now.",
        timeouts,
    ).format(name=plain(name), n=timeouts)
    label = tr._("Give {name}'s seat to a bot").format(name=name[:40])[:LABEL_MAX]
    button = UnoButton(
        Click(Scope.TABLE, table.channel_id, 0, Verb.GIVE_SEAT, player),
        label=label,
        emoji="🤖",
        style=discord.ButtonStyle.primary,
    )
    return text, view_of(button)


def leave_confirmation(table: Table, player: str, bot: bool, tr: Tr) -> tuple[str, discord.ui.View]:
    """What ``/uno leave`` asks ``player`` during a game, privately, in ``tr``'s language (theirs):
    what leaving does (their hand back to the draw pile, docs/rules.md §5.1; with ``bot``, a bot
    plays their seat on, §5.3), and the buttons "Leave the game" (danger; verb ``leave``, or
    ``leave-bot``) and "Stay" (verb ``stay``), both carrying ``<game id>.<player id>``: a press
    leaves only that player, only from that game (`TableService.leaving.confirm_leave`)."""
    question = (
        tr._("Leave this game? A bot takes your seat over, with your hand and your score.")
        if bot
        else tr._(
            "Leave this game? Your hand goes back into the draw pile and you can't win this game any more."
        )
    )
    arg = f"{table.game_id}.{player}"
    ch = table.channel_id
    leave = UnoButton(
        Click(Scope.LEAVE, ch, 0, Verb.LEAVE_FOR_BOT if bot else Verb.LEAVE, arg),
        label=tr._("Leave the game")[:LABEL_MAX],
        emoji="🚪",
        style=discord.ButtonStyle.danger,
    )
    stay = UnoButton(Click(Scope.LEAVE, ch, 0, Verb.STAY, arg), label=tr._("Stay")[:LABEL_MAX])
    return "⚠️ " + question, view_of(leave, stay)
