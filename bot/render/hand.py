"""A player's private hand: their cards and every decision open to them as components."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.components import UnoButton, UnoSelect, view_of
from bot.engine.cards import Card, Rank
from bot.engine.game import Action, Game
from bot.engine.options import PendingKind
from bot.render.table import pending_text
from bot.render.words import (
    BUTTON_STYLE,
    EMBED_COLOR,
    EMOJI,
    PENDING_TEXT,
    button_style,
    card_label,
    cards_text,
    count,
    face_label,
    face_order,
    sorted_hand,
    trim,
)
from bot.tables import Table, TableState

CARD_BUTTONS = 15  # up to three rows of card buttons; beyond that, a paged select
SELECT_PAGE = 25
TARGET_PROMPTS = {
    Rank.SEVEN: "pick the player to swap hands with (Seven-O)",
    Rank.HOWLER: "pick the player whose hand the Howler shows to the table",
    Rank.SAVE_THE_DAY: "pick the player Save The Day protects",
    Rank.WILD_CUSTOMIZABLE: "pick the player to swap hands with",
}
"""What a player is asked when a card they play needs a picked player (``effects.target_ranks``)."""


def hand(
    tbl: Table, player: str, *, page: int = 0, pick: Sequence[str] = (), notice: str = ""
) -> tuple[str, discord.Embed, discord.ui.View]:
    """A player's private hand: every card, and their possible decisions as components.

    Args:
        page: page of the card select when more cards can be played than buttons fit.
        pick: a play in progress needing a color or target: ``(verb, index)`` or
            ``(verb, index, color)``.
        notice: a line shown above the hand (e.g. why a click was refused).

    Returns:
        The message content (naming the channel), the embed and the view.
    """
    game = tbl.game
    assert game is not None
    ch, v = tbl.channel_id, tbl.version
    cards = game.hands.get(player, [])
    side = game.side
    decisions = game.decisions(player)
    playable = {a.card for a in decisions if a.card is not None and a.kind in ("play", "play-drawn")}
    content = f"Your hand at <#{ch}>" + (f"\n{notice}" if notice else "")
    left = player not in game.hands  # left, removed or eliminated: nothing more to decide
    closed = left or tbl.state is TableState.OVER
    mine = not closed and game.pending.player == player and not game.round_over
    status = (
        f"🟢 Your move: {PENDING_TEXT[game.pending.kind].removeprefix('to ')}."
        if mine
        else "You are no longer in this game."
        if left and tbl.state is not TableState.OVER
        else pending_text(tbl, game)
    )
    if pick:
        status = _pick_status(game, cards, list(pick)) or status
    embed = discord.Embed(
        title="Not in this game" if left else count(len(cards), "card"),
        description=f"Top card: **{face_label(game.top)}**"
        + (f" → **{game.color.value}**" if game.top.color is None and game.color else "")
        + f"\n{status}",
        color=EMBED_COLOR.get(game.color, 0x2B2D31) if game.color else 0x2B2D31,
    )
    shown = []
    for card in sorted_hand(cards, side):
        label = card_label(card, side)
        if card.dark is not None:
            label += f" (back: {face_label(card.face(side.other))})"
        shown.append(f"**{label}**" if card in playable and mine else label)
    if not left:
        embed.add_field(name="Your cards", value=trim("\n".join(shown) or "none"), inline=False)
    for other, seen in game.revealed.get(player, {}).items():
        embed.add_field(name=f"{tbl.name(other)}'s hand (shown to you)", value=trim(cards_text(seen, side)))
    items: list[discord.ui.Item[Any]] = []
    live = not closed and not game.round_over
    if live and pick:
        items = _pick_items(tbl, game, player, list(pick))
    elif live:
        items = _decision_items(tbl, game, player, decisions, page)
    if live:
        extra_row = 4
        if game.can_call_uno(player):
            items.append(
                UnoButton("h", ch, v, "u", label="UNO!", style=discord.ButtonStyle.danger, row=extra_row)
            )
        items.append(UnoButton("h", ch, 0, "r", label="Refresh", emoji="🔄", row=extra_row))
    return content, embed, view_of(*items)


def _pick_status(game: Game, cards: list[Card], pick: list[str]) -> str | None:
    """What the second step of a play asks (the color, or the player to pick), still "Your move"."""
    index = pick[1]
    if index == "-":
        card = game.drawn
    else:
        card = cards[int(index)] if index.isdigit() and int(index) < len(cards) else None
    if card is None:
        return None
    face = card.face(game.side)
    prompt = "name the color" if len(pick) == 2 else TARGET_PROMPTS.get(face.rank, "pick a player")
    return f"🟢 Your move ({face_label(face)}): {prompt}."


def _actions_by_card(actions: Iterable[Action]) -> dict[tuple[str, Card | None], list[Action]]:
    groups: dict[tuple[str, Card | None], list[Action]] = {}
    for a in actions:
        groups.setdefault((a.kind, a.card), []).append(a)
    return groups


_VERB = {"play": "p", "play-drawn": "pd", "jump-in": "j"}
_SIMPLE = {
    "draw": ("d", "Draw", discord.ButtonStyle.primary),
    "keep": ("k", "Keep it", discord.ButtonStyle.secondary),
    "accept": ("a", "Accept", discord.ButtonStyle.secondary),
    "challenge": ("ch", "Challenge!", discord.ButtonStyle.danger),
    "reveal": ("rv", "Let them see", discord.ButtonStyle.secondary),
}


def _decision_items(
    tbl: Table, game: Game, player: str, decisions: list[Action], page: int
) -> list[discord.ui.Item[Any]]:
    ch, v = tbl.channel_id, tbl.version
    hand_cards = game.hands[player]
    side = game.side
    items: list[discord.ui.Item[Any]] = []
    card_actions = [a for a in decisions if a.kind in _VERB]
    if game.pending.player != player and game.pending.kind is PendingKind.TURN:
        card_actions += [a for a in game.legal_actions(player) if a.kind == "jump-in"]
    groups = _actions_by_card(card_actions)
    entries = []
    for (kind, card), _ in groups.items():
        assert card is not None
        index = hand_cards.index(card) if kind != "play-drawn" else "-"
        prefix = {"play-drawn": "Play ", "jump-in": "Jump in: "}.get(kind, "")
        entries.append((_VERB[kind], index, prefix + card_label(card, side), card.face(side)))
    entries.sort(key=lambda e: (list(_VERB.values()).index(e[0]), face_order(e[3])))
    if len(entries) <= CARD_BUTTONS:
        for n, (verb, index, label, face) in enumerate(entries):
            items.append(
                UnoButton("h", ch, v, verb, index, label=label, style=button_style(face), row=n // 5)
            )
    else:
        pages = (len(entries) + SELECT_PAGE - 1) // SELECT_PAGE
        page = max(0, min(page, pages - 1))
        chunk = entries[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
        options = [
            discord.SelectOption(label=label[:100], value=f"{verb}:{index}")
            for verb, index, label, _ in chunk
        ]
        items.append(UnoSelect("h", ch, v, "sel", options=options, placeholder="Play a card…", row=0))
        items += _pager(tbl, page, pages)
    row = 3
    for action in decisions:
        if action.kind in _SIMPLE:
            verb, label, style = _SIMPLE[action.kind]
            items.append(UnoButton("h", ch, v, verb, label=label, style=style, row=row))
        elif action.kind == "choose-color":
            assert action.color is not None
            items.append(
                UnoButton(
                    "h",
                    ch,
                    v,
                    "col",
                    action.color.value,
                    label=action.color.value,
                    emoji=EMOJI[action.color],
                    style=BUTTON_STYLE.get(action.color, discord.ButtonStyle.secondary),
                    row=row,
                )
            )
    if game.pending.kind is PendingKind.DISCARD and game.pending.player == player:
        # One option per different card (copies discard alike), paged like the card select
        # (which is empty while a discard is pending).
        first = {card: i for i, card in reversed(list(enumerate(hand_cards)))}
        order = sorted(first.items(), key=lambda kv: face_order(kv[0].face(side)))
        pages = (len(order) + SELECT_PAGE - 1) // SELECT_PAGE
        page = max(0, min(page, pages - 1))
        options = [
            discord.SelectOption(label=card_label(card, side)[:100], value=str(i))
            for card, i in order[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
        ]
        if options:
            items.append(UnoSelect("h", ch, v, "dis", options=options, placeholder="Discard a card…", row=2))
        items += _pager(tbl, page, pages)
        items.append(UnoButton("h", ch, v, "dec", label="Keep all my cards", row=row))
    return items


def _pager(tbl: Table, page: int, pages: int) -> list[discord.ui.Item[Any]]:
    """◀ ▶ buttons between the pages of a select (none for a single page)."""
    if pages <= 1:
        return []
    ch, v = tbl.channel_id, tbl.version
    return [
        UnoButton("h", ch, v, "pg", page - 1, label="◀", disabled=page == 0, row=1),
        UnoButton("h", ch, v, "pg", page + 1, label="▶", disabled=page >= pages - 1, row=1),
    ]


def _pick_items(tbl: Table, game: Game, player: str, pick: list[str]) -> list[discord.ui.Item[Any]]:
    """Second step of a wild: name the color, then (Howler, Save The Day, …) pick a player."""
    ch, v = tbl.channel_id, tbl.version
    verb, index = pick[0], pick[1]
    if len(pick) == 2:
        items: list[discord.ui.Item[Any]] = [
            UnoButton(
                "h",
                ch,
                v,
                verb,
                index,
                c.value,
                label=c.value,
                emoji=EMOJI[c],
                style=BUTTON_STYLE.get(c, discord.ButtonStyle.secondary),
                row=0,
            )
            for c in game.colors
        ]
    else:
        options = [
            discord.SelectOption(label=tbl.name(p)[:100], value=str(i))
            for i, p in enumerate(game.players)
            if p != player and p in game.hands
        ]
        items = [
            UnoSelect(
                "h", ch, v, "tgt", verb, index, pick[2], options=options, placeholder="Pick a player…", row=0
            )
        ]
    items.append(UnoButton("h", ch, v, "bk", label="Back", row=1))
    return items
