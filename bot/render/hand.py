"""A player's private hand: their cards and every decision open to them as components."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoButton, UnoSelect
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face, Rank, Side
from bot.engine.game import Game
from bot.engine.options import HouseRule, PendingKind
from bot.i18n import N_, Tr
from bot.render.faces import (
    BUTTON_STYLE,
    EMBED_COLOR,
    EMOJI,
    NEUTRAL,
    RANK_NAMES,
    TEXT_ONLY,
    Faces,
    button_style,
    cards_text,
    color_name,
    face_button,
    face_label,
    face_order,
    face_short,
    face_text,
    sorted_hand,
)
from bot.render.layout import (
    HAND_TEXT,
    MAX_COMPONENTS,
    ROW_WIDTH,
    back_button,
    block,
    cards_block,
    hand_buttons,
    hand_top,
    heading,
    message,
    paged,
    picture,
    rows,
    rows_size,
    size,
)
from bot.render.names import as_label, named, seat_name, trim
from bot.render.table import G, decision_text, pending_text, stake_text
from bot.render.words import WATCHING
from bot.tables import Reveal, Table, TableState

TARGET_PROMPTS = {
    Rank.SEVEN: N_("pick the player to swap hands with (Seven-O)"),
    Rank.HOWLER: N_("pick the player whose hand the Howler shows to the table"),
    Rank.SAVE_THE_DAY: N_("pick the player Save The Day protects"),
    Rank.WILD_CUSTOMIZABLE: N_("pick the player to swap hands with"),
}
"""What a player is asked when a card they play needs a picked player (``effects.target_ranks``)."""
CARD_ACTIONS = {
    ActionKind.PLAY: "{card}",
    ActionKind.PLAY_DRAWN: N_("Play {card}"),
    ActionKind.JUMP_IN: N_("Jump in: {card}"),
}
"""The actions shown as a card (button or select option), in this order, with their label's start."""
ACTION_BUTTONS = {
    ActionKind.DRAW: (N_("Draw"), discord.ButtonStyle.primary),
    ActionKind.KEEP: (N_("Keep it"), discord.ButtonStyle.secondary),
    ActionKind.ACCEPT: (N_("Accept"), discord.ButtonStyle.secondary),
    ActionKind.CHALLENGE: (N_("Challenge!"), discord.ButtonStyle.danger),
    ActionKind.REVEAL: (N_("Let them see"), discord.ButtonStyle.secondary),
}
"""The label and style of each decision shown as a button of its own."""


def hand(
    tbl: Table,
    player: str,
    tr: Tr,
    *,
    page: int = 0,
    pick: Action | None = None,
    notice: str = "",
    faces: Faces = TEXT_ONLY,
) -> discord.ui.LayoutView:
    """A player's private hand (Components V2) in ``tr``'s language (the language of the user
    who opened it): every card, and their possible decisions as
    components, each carrying its action's text (``Action.text()``); a Show as picture button
    (verb ``pic``). The cards they can play are buttons as long as they fit in Discord's 40
    components with the rest, else a paged select.

    Args:
        page: page of the card select when more cards can be played than buttons fit.
        pick: a play in progress that still needs its color, then its player
            (`Game.completions` say which): the hand asks for it.
        notice: a line shown above the hand (e.g. why a click was refused).
        faces: the cards' emojis (`bot.client.emojis.CardEmojis`): the top card's picture beside the
            heading; on the card buttons and options, with the card's name but not its color
            square, and in the text before each card's name (as text where the list would pass
            `HAND_TEXT`); default: none, every card as text.

    While the player can only watch (:func:`watching`), the hand shows what changes for them
    alone: their cards (and a hand shown to them), "Not your turn", Refresh and Show as picture;
    not the top card, the color or whose turn it is, which the table message shows and which
    would go out of date, as the hand is redrawn only when it changes (docs/performance/discord-layer.md).

    Returns:
        The message's view: its first line names the channel (``"Your hand at <#…>"``).
    """
    game = tbl.game
    assert isinstance(game, Game)  # a DOS hand: bot/render/dos.py
    cards = game.hands.get(player, [])
    side = game.side
    decisions = game.decisions(player)
    playable = {a.card for a in decisions if a.card is not None and a.kind in CARD_ACTIONS}
    left = player not in game.hands  # left, removed or eliminated: nothing more to decide
    closed = left or tbl.state is TableState.OVER
    mine = not closed and game.pending.player == player and not game.round_over
    watch = watching(tbl, player)
    status = hand_status(tbl, game, player, tr, decision_text)
    live = not closed and not game.round_over
    completions = game.completions(player, pick) if live and pick is not None else []
    if completions:
        assert pick is not None
        status = _pick_status(game, pick, completions, tr)
    top = hand_top(tbl, game, player, tr, notice)
    if watch:
        heading_item = heading(top + tr._(WATCHING))
    else:
        top += (
            tr._("Top card: **{card}**").format(card=face_text(game.top, side, tr, faces))
            + (f" → **{color_name(game.color, tr)}**" if game.top.color is None and game.color else "")
            + f"\n{status}"
        )
        heading_item = heading(top, picture(game.top, side, faces), face_label(game.top, tr))
    texts = []
    if not left:
        listed = _cards_list(cards, side, playable if mine else set(), tr, faces)
        if len(listed) > HAND_TEXT:
            listed = _cards_list(cards, side, playable if mine else set(), tr)
        texts.append(cards_block(listed, tr))
    for other, seen in game.revealed.get(player, {}).items():
        reveal = tbl.reveals.get(other)
        if reveal is not None:  # else it has changed since: what was seen is no longer so
            texts.append(
                block(
                    trim(_when(reveal, tr).format(name=named(tbl, other, tr)), 256),
                    trim(cards_text(seen, side, tr, faces)),
                )
            )
    items: list[discord.ui.Item[Any]] = []
    entries: list[Entry] = []
    if completions:
        assert pick is not None
        items = _pick_items(tbl, pick, completions, tr)
    elif live:
        items = _decision_items(tbl, game, decisions, page, tr, faces)
        entries = _card_entries(game, player, decisions, tr, faces)
    items += hand_buttons(
        tbl, game, player, tr, Action(ActionKind.UNO).text() if game.can_call_uno(player) else None
    )
    # What is left of the 40 components for the cards: the container, its heading and texts,
    # and the other rows are counted first.
    room = MAX_COMPONENTS - 1 - size([heading_item]) - len(texts) - rows_size(items)
    items += _card_items(tbl, entries, page, room, tr)
    accent = EMBED_COLOR.get(game.color, NEUTRAL) if game.color and not watch else NEUTRAL
    # The decisions right under the heading, the whole hand below them: on a phone the buttons
    # stay in sight however long the hand is.
    return message(accent, [heading_item, *rows(items)], texts, [])


def hand_status(tbl: Table, game: G, player: str, tr: Tr, decision: Callable[[G, Tr], str]) -> str:
    """What a hand says is awaited, in every edition: the player's own move (``decision(game,
    tr)``: as ``"to …"``), that they are no longer in the game, or whose move it is
    (`pending_text`)."""
    left = player not in game.hands
    if (
        not left
        and tbl.state is not TableState.OVER
        and game.pending.player == player
        and not game.round_over
    ):
        return tr._("🟢 Your move: {decision}.").format(decision=decision(game, tr).removeprefix(tr._("to ")))
    if left and tbl.state is not TableState.OVER:
        return tr._("You are no longer in this game.")
    return pending_text(tbl, game, tr, decision)


def watching(tbl: Table, player: str) -> bool:
    """Whether the player can do nothing now but watch: the game goes on, they are in it, and
    nothing is open to them: no decision of theirs pending (docs/rules.md §1.5), no UNO call
    (§1.7), no jump-in (§4.2). Their hand then shows only what changes for them (:func:`hand`)."""
    game = tbl.game
    assert isinstance(game, Game)
    if tbl.state is not TableState.PLAYING or player not in game.hands or game.round_over:
        return False
    if game.pending.player == player or game.can_call_uno(player):
        return False
    return HouseRule.JUMP_IN not in game.options.house_rules or not any(
        a.kind is ActionKind.JUMP_IN for a in game.legal_actions(player)
    )


def _cards_list(cards: list[Card], side: Side, bold: set[Card], tr: Tr, faces: Faces = TEXT_ONLY) -> str:
    """The hand's cards one a line, sorted, ``bold`` ones in bold, a two-sided card with its back:
    ``"🟩 green 3 (back: 🌈 wild draw color)"`` (docs/rules.md §7), each with its emoji if any."""
    shown = []
    for card in sorted_hand(cards, side):
        label = face_text(card.face(side), side, tr, faces)
        if card.dark is not None:
            label += tr._(" (back: {card})").format(
                card=face_text(card.face(side.other), side.other, tr, faces)
            )
        shown.append(f"**{label}**" if card in bold else label)
    return "\n".join(shown)


def _when(shown: Reveal, tr: Tr) -> str:
    """Whose hand was shown to the player, and when, ``{name}`` to fill: ``"{name}'s hand when the
    Howler was played"``, ``"{name}'s hand at the challenge of the Wild Draw Four"`` (shown only
    while it is unchanged since)."""
    rank = Rank(shown.by)
    card = tr._(RANK_NAMES[rank]).title() if rank in RANK_NAMES else rank.value
    if rank.is_restricted:
        return tr._("{{name}}'s hand at the challenge of the {card}").format(card=card)
    return tr._("{{name}}'s hand when the {card} was played").format(card=card)


def _asks_color(pick: Action, completions: list[Action]) -> bool:
    """Whether the play in progress still needs its color (else it needs its player)."""
    return pick.color is None and any(a.color is not None for a in completions)


def _pick_status(game: Game, pick: Action, completions: list[Action], tr: Tr) -> str:
    """What the second step of a play asks (the color, or the player to pick), still "Your move"."""
    card = pick.card or completions[0].card or game.drawn
    assert card is not None
    face = card.face(game.side)
    prompt = (
        tr._("name the color")
        if _asks_color(pick, completions)
        else tr._(TARGET_PROMPTS.get(face.rank, N_("pick a player")))
    )
    return tr._("🟢 Your move ({card}): {prompt}.").format(card=face_label(face, tr), prompt=prompt)


Entry = tuple[Action, str, Face, discord.PartialEmoji | None]
"""A card a player can act with: the action its component carries, its label, its face, its emoji."""


def _card_entries(game: Game, player: str, decisions: list[Action], tr: Tr, faces: Faces) -> list[Entry]:
    """The plays, drawn-card plays and jump-ins open to the player, one per card: the action as a
    button carries it (without its color and player, asked next; a drawn card's play without its
    card, which is implied and would make the text too long), its label (``face_button``), the
    card's face and its emoji."""
    side = game.side
    actions = [a for a in decisions if a.kind in CARD_ACTIONS]
    if game.pending.player != player and game.pending.kind is PendingKind.TURN:
        actions += [a for a in game.legal_actions(player) if a.kind is ActionKind.JUMP_IN]
    entries: dict[tuple[ActionKind, Card | None], Entry] = {}
    for a in actions:
        assert a.card is not None
        if (a.kind, a.card) not in entries:
            carried = Action(a.kind, None if a.kind is ActionKind.PLAY_DRAWN else a.card)
            face = a.card.face(side)
            label, emoji = face_button(face, side, tr, faces)
            entries[(a.kind, a.card)] = (carried, tr._(CARD_ACTIONS[a.kind]).format(card=label), face, emoji)
    kinds = list(CARD_ACTIONS)
    return sorted(entries.values(), key=lambda e: (kinds.index(e[0].kind), face_order(e[2])))


def _back(card: Card, game: Game, tr: Tr) -> str:
    """A two-sided card's back in short, public (docs/rules.md §7): ``"(back: 🩷1)"``."""
    return tr._(" (back: {card})").format(card=face_short(card.face(game.side.other), tr)).strip()


def _description(card: Card | None, game: Game, tr: Tr) -> str | None:
    """A select option's description: the back of a two-sided card, else none."""
    return _back(card, game, tr) if card is not None and game.variant.two_sided else None


def _card_items(tbl: Table, entries: list[Entry], page: int, room: int, tr: Tr) -> list[discord.ui.Item[Any]]:
    """The cards the player can act with: buttons (row 0, five a row) if they fit in ``room``
    components, else a select a page at a time (row 0, `paged`: its pager in row 1). A
    two-sided card's back is public (docs/rules.md §7): each option says it, and a button says it
    where another button shows the same face."""
    game = tbl.game
    assert isinstance(game, Game)
    ch, v = tbl.channel_id, tbl.version
    if len(entries) + -(-len(entries) // ROW_WIDTH) <= room:
        alike = Counter(label for _, label, _, _ in entries) if game.variant.two_sided else Counter[str]()
        shown = [
            label if alike[label] < 2 or action.card is None else f"{label} {_back(action.card, game, tr)}"
            for action, label, _, _ in entries
        ]
        return [
            UnoButton(
                Click(Scope.HAND, ch, v, Verb.ACT, action.text()),
                label=label,
                style=button_style(face),
                emoji=emoji,
                row=0,
            )
            for (action, _, face, emoji), label in zip(entries, shown, strict=True)
        ]
    chunk, pager = paged(tbl, entries, page, tr)
    options = [
        discord.SelectOption(
            label=label[:100],
            value=action.text(),
            emoji=emoji,
            description=_description(action.card, game, tr),
        )
        for action, label, _, emoji in chunk
    ]
    return [
        UnoSelect(
            Click(Scope.HAND, ch, v, Verb.ACT), options=options, placeholder=tr._("Play a card…"), row=0
        ),
        *pager,
    ]


def _decision_items(
    tbl: Table, game: Game, decisions: list[Action], page: int, tr: Tr, faces: Faces
) -> list[discord.ui.Item[Any]]:
    """The decisions other than a card to act with: Draw, Accept, Challenge, …, a color, a
    card to discard."""
    ch, v = tbl.channel_id, tbl.version
    side = game.side
    items: list[discord.ui.Item[Any]] = []
    row = 3
    for action in decisions:
        if action.kind in ACTION_BUTTONS:
            label, style = ACTION_BUTTONS[action.kind]
            label = tr._(label)
            if action.kind is ActionKind.ACCEPT:  # what accepting costs: "Take 4 cards"
                label = stake_text(game, tr).capitalize()
            items.append(
                UnoButton(
                    Click(Scope.HAND, ch, v, Verb.ACT, action.text()), label=label, style=style, row=row
                )
            )
        elif action.kind is ActionKind.CHOOSE_COLOR:
            items.append(_color_button(tbl, action, tr))
    discards = [a for a in decisions if a.kind is ActionKind.DISCARD and a.card is not None]
    if discards:
        # One option per different card (copies discard alike), paged like the card select
        # (which is empty while a discard is pending).
        order = sorted(discards, key=lambda a: face_order(a.card.face(side)) if a.card else (0, 0, 0))
        chunk, pager = paged(tbl, order, page, tr)
        options = [
            discord.SelectOption(
                label=label[:100], value=a.text(), emoji=emoji, description=_description(a.card, game, tr)
            )
            for a in chunk
            if a.card is not None
            for label, emoji in [face_button(a.card.face(side), side, tr, faces)]
        ]
        items.append(
            UnoSelect(
                Click(Scope.HAND, ch, v, Verb.ACT),
                options=options,
                placeholder=tr._("Discard a card…"),
                row=2,
            )
        )
        items += pager
    if any(a.kind is ActionKind.DISCARD and a.decline for a in decisions):
        keep = Action(ActionKind.DISCARD, decline=True).text()
        items.append(
            UnoButton(Click(Scope.HAND, ch, v, Verb.ACT, keep), label=tr._("Keep all my cards"), row=row)
        )
    return items


def _color_button(tbl: Table, action: Action, tr: Tr, row: int = 3) -> UnoButton:
    """A button naming ``action``'s color (choosing it, or playing a wild with it)."""
    color = action.color
    assert color is not None
    return UnoButton(
        Click(Scope.HAND, tbl.channel_id, tbl.version, Verb.ACT, action.text()),
        label=color_name(color, tr),
        emoji=EMOJI[color],
        style=BUTTON_STYLE.get(color, discord.ButtonStyle.secondary),
        row=row,
    )


def _pick_items(tbl: Table, pick: Action, completions: list[Action], tr: Tr) -> list[discord.ui.Item[Any]]:
    """Second step of a play: name the color (buttons), then (Howler, Save The Day, …) pick a
    player (a select whose values are the complete actions)."""
    items: list[discord.ui.Item[Any]]
    if _asks_color(pick, completions):
        colors = dict.fromkeys(a.color for a in completions if a.color is not None)
        items = [_color_button(tbl, pick._replace(color=c), tr, row=0) for c in colors]
    else:
        targets = {a.target: a for a in completions if a.target is not None}
        options = [
            discord.SelectOption(label=as_label(seat_name(tbl.name(t), tr), 100), value=a.text())
            for t, a in targets.items()
        ]
        items = [
            UnoSelect(
                Click(Scope.HAND, tbl.channel_id, tbl.version, Verb.ACT),
                options=options,
                placeholder=tr._("Pick a player…"),
                row=0,
            )
        ]
    items.append(back_button(tbl, tr))
    return items
