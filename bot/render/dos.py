"""A DOS table (docs/rules.md §14): its public message and a player's private hand with every
legal match, placement and call as components, on the UNO table's and hand's layout
(`bot.render.table.table_texts`, `table_message`; `bot.render.hand.hand_top`, `hand_buttons`):
what differs is the Center Row in place of the top card, and the matches. Its log lines are
`bot.render.log.dos_log_lines`.

Every component carries its action's text (``DosAction.text()``) like the UNO hand's: a button
its argument, a select its values. A match is chosen in one or two steps: the pile and its cards
(a select), then, when a Wild DOS is in it or under it, the colors (a second select).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import accumulate, takewhile
from typing import Any

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoButton, UnoSelect
from bot.engine.cards import Color
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import COLORS, COPIES, DosCard, DosKind
from bot.engine.dos.game import DosGame, DosPendingKind, color_bonus
from bot.i18n import N_, Tr
from bot.render.faces import (
    BUTTON_STYLE,
    EMBED_COLOR,
    EMOJI,
    TEXT_ONLY,
    WILD_EMOJI,
    Faces,
    as_text_to_fit,
    color_name,
    label_pattern,
    longest_first,
)
from bot.render.hand import hand_status
from bot.render.layout import (
    HAND_TEXT,
    MAX_TEXT,
    SELECT_PAGE,
    back_button,
    cards_block,
    hand_buttons,
    hand_top,
    heading,
    message,
    paged,
    rows,
)
from bot.render.names import trim
from bot.render.table import LOG_TEXT, pending_text, player_line, room_beside, table_message, table_texts
from bot.render.words import WATCHING
from bot.tables import Table, TableState

PLACE_BUTTONS = 5
"""Cards to place shown as buttons (one row); more go in a select."""
TURN_BUTTONS = {DosActionKind.DRAW: N_("Draw"), DosActionKind.END_TURN: N_("End the turn")}
"""The decisions of a turn shown as a button of their own, with their label."""
PENDING = {
    DosPendingKind.TURN: N_("to match or draw"),
    DosPendingKind.MATCH: N_("to make another match or end the turn"),
    DosPendingKind.DRAW_DECISION: N_("to match or place a card in the row"),
    DosPendingKind.PLACE: N_("to place a card in the row"),
}
"""The decision a DOS game waits for (§14.13), as ``"to …"``."""
ACCENT = EMBED_COLOR[Color.YELLOW]
"""A DOS table's container color where no pile shows a color (DOS's box is yellow)."""


def card_text(card: DosCard | str, tr: Tr, faces: Faces = TEXT_ONLY) -> str:
    """A DOS card as players read it in ``tr``'s language: ``"🟦 blue 5"``, ``"🟩 green Wild #"``,
    ``"🌈 Wild DOS"`` (French ``"🟦 5 bleu"``, ``"🌈 joker DOS"``); with its card emoji
    (``faces``) in place of the color square where it has one, ``"<:dos_blue_5:…> blue 5"``."""
    c = card if isinstance(card, DosCard) else DosCard.parse(card)
    if c.kind is DosKind.WILD_DOS:
        return f"{_emoji(c, faces)} " + tr._("Wild DOS")
    assert c.color is not None
    name = tr._("Wild #") if c.kind is DosKind.WILD_NUMBER else str(c.number)
    return f"{_emoji(c, faces)} " + tr._("{color} {rank}").format(color=color_name(c.color, tr), rank=name)


def _bare(card: DosCard, tr: Tr) -> str:
    """A card's text without its color square (for labels that carry it as their emoji)."""
    return card_text(card, tr).split(" ", 1)[1]


def _emoji(card: DosCard, faces: Faces = TEXT_ONLY) -> str | discord.PartialEmoji:
    """The card's emoji (``faces``), else its color square (a rainbow for a Wild DOS)."""
    return faces.for_face(card) or (EMOJI[card.color] if card.color else WILD_EMOJI)


def _texts(cards: Sequence[DosCard], sep: str, tr: Tr, faces: Faces, limit: int = 1024) -> str:
    """``cards`` as `card_text` joined by ``sep``, with their emojis while that fits in ``limit``
    characters, else as text (an emoji's ``<:name:id>`` costs 30-40 characters)."""
    shown = sep.join(card_text(c, tr, faces) for c in cards)
    return shown if len(shown) <= limit else sep.join(card_text(c, tr) for c in cards)


def accent(game: DosGame) -> int:
    """The color of a DOS table's and hand's container, as UNO's shows the color in play: the
    leftmost pile's color (its bottom card's; a Wild DOS pile has none of its own), else
    :data:`ACCENT`."""
    first = next((c for pile in game.row if (c := pile[0].color) is not None), None)
    return ACCENT if first is None else EMBED_COLOR[first]


def row_lines(game: DosGame, tr: Tr, faces: Faces = TEXT_ONLY, limit: int = MAX_TEXT) -> list[str]:
    """The Center Row, one line a pile: ``"**1.** 🟦 blue 5 ← 🟥 red 3 + 🌈 Wild DOS"`` (the cards
    matched onto it this turn after the arrow), each card with its emoji (``faces``) while the
    row fits in ``limit`` characters (what its message leaves it: :func:`table`, :func:`hand`);
    where the emojis do not all fit, the longest lines are the first said as text (an emoji's
    ``<:name:id>`` costs 30-40 characters, a pile of three cards about 150)."""
    lines = _pile_lines(game, tr, faces)
    if faces is not TEXT_ONLY:
        lines = as_text_to_fit(lines, _pile_lines(game, tr, TEXT_ONLY), limit, longest_first(lines))
    return lines or [tr._("(no pile: the turn begins with a draw)")]


def _pile_lines(game: DosGame, tr: Tr, faces: Faces) -> list[str]:
    lines = []
    for i, pile in enumerate(game.row):
        line = f"**{i + 1}.** {card_text(pile[0], tr, faces)} (**{_pile_number(pile[0], tr)}**)"
        if len(pile) > 1:
            line += " ← " + " + ".join(card_text(c, tr, faces) for c in pile[1:])
        lines.append(line)
    return lines


def row_text(game: DosGame, tr: Tr) -> str:
    """The Center Row in one plain line (a text file's): ``"Center Row: 1. 🟦 blue 5 (5) · 2. …"``."""
    return tr._("Center Row") + ": " + " · ".join(line.replace("**", "") for line in row_lines(game, tr))


def card_order(card: DosCard) -> tuple[bool, int, int]:
    """Sort key of a DOS hand as shown, as an UNO hand's (`bot.render.faces.face_order`): by
    color (red, yellow, green, blue), then number; wilds last, each Wild # by its color, then
    the Wild DOS."""
    color = COLORS.index(card.color) if card.color else len(COLORS)
    return (card.kind is not DosKind.NUMBER, color, card.number)


def sorted_hand(cards: Iterable[DosCard]) -> list[DosCard]:
    """A DOS hand as its text, its buttons and its picture show it: sorted by :func:`card_order`.

    >>> [c.name for c in sorted_hand(DosCard.parse(c) for c in ("blue wild number", "wild dos",
    ...     "green 9", "blue 8", "red 4", "yellow 3", "red wild number"))]
    ['red 4', 'yellow 3', 'green 9', 'blue 8', 'red wild number', 'blue wild number', 'wild dos']
    """
    return sorted(cards, key=card_order)


def held_text(cards: Sequence[DosCard], tr: Tr) -> str:
    """Cards as a hand lists them (:func:`sorted_hand`): ``"🟦 blue 5, 🌈 Wild DOS"`` (``"none"``)."""
    return ", ".join(card_text(c, tr) for c in sorted_hand(cards)) or tr._("none")


def _center_row(tr: Tr) -> str:
    return "**" + tr._("Center Row") + "**"


def _pile_number(card: DosCard, tr: Tr) -> str:
    """The number a pile asks for: its card's, ``2`` for a Wild DOS, ``any`` for a Wild #."""
    return tr._("any") if card.kind is DosKind.WILD_NUMBER else str(card.fixed)


def decision_text(game: DosGame, tr: Tr) -> str:
    """The decision a DOS game awaits, as ``"to …"`` (each language's own; `pending_text`)."""
    if game.pending.kind is DosPendingKind.PLACE and game.ended:
        return tr.n("to place {n} bonus card in the row", "to place {n} bonus cards in the row", game.bonus)
    kind = PENDING.get(game.pending.kind)
    return tr._(kind) if kind else ""


def table(tbl: Table, tr: Tr, faces: Faces = TEXT_ONLY) -> discord.ui.LayoutView:
    """The public DOS table message (Components V2) in ``tr``'s language (the table's): the Center Row (every pile, its number and
    color, the cards matched onto it this turn, each card with its emoji where ``faces`` has it),
    whose turn, hand sizes and DOS calls, scores, the log; My hand, DOS! and Catch buttons (verbs
    ``hand``, ``dos``, ``catch``). No top card's picture: DOS has no one top card."""
    game = tbl.game
    assert isinstance(game, DosGame)
    after = (
        [tr._("Bonus cards to place: {n}").format(n=game.bonus)] if game.bonus and game.pending.player else []
    )
    after.append(pending_text(tbl, game, tr, decision_text))
    forgot = tr._("forgot DOS")
    title, players, scores, footer, last = table_texts(
        tbl, game, tr, lambda p: player_line(tbl, game, p, tr, "**DOS!**", forgot)
    )
    texts = [players, scores] if scores else [players]
    # The row takes what the message leaves (4,000 characters) less the other texts and some room
    # for the last moves, as the UNO table's other side of every hand does; the moves, the rest.
    heading_lines = "\n".join([title, _center_row(tr), *after]) + "\n"  # the row's joins it
    room = room_beside(tbl.log, heading_lines, *texts, footer, last)
    lines = [title, _center_row(tr), *row_lines(game, tr, faces, room), *after]
    if tbl.log:
        room = MAX_TEXT - len("\n".join(lines)) - sum(map(len, [*texts, footer, last]))
        texts.append(last + _fitted(tbl.log, tr, faces, min(LOG_TEXT, room)))
    texts.append(footer)
    return table_message(
        tbl, tr, accent(game), heading("\n".join(lines)), texts, Verb.DOS, bool(game.catchable)
    )


def _fitted(lines: Sequence[str], tr: Tr, faces: Faces = TEXT_ONLY, limit: int = 1024) -> str:
    """The newest log lines that fit in ``limit`` characters, oldest first, with their cards'
    emojis (``faces``; the log is kept as text) where they still fit, the newest lines first."""
    sizes = accumulate(len(line) + 1 for line in reversed(lines))  # the newest lines', as text
    kept = list(lines)[len(lines) - sum(1 for _ in takewhile(lambda n: n <= limit, sizes)) :]
    if not kept:
        return trim(lines[-1], limit)
    if faces is TEXT_ONLY:
        return "\n".join(kept)
    pattern, by_label = _labels(tr)
    shown = [pattern.sub(lambda m: card_text(by_label[m.group(0)], tr, faces), line) for line in kept]
    return "\n".join(as_text_to_fit(shown, kept, limit, range(len(kept))))  # the oldest to text first


@cache
def _labels(tr: Tr) -> tuple[re.Pattern[str], dict[str, DosCard]]:
    """Every DOS card's `card_text` in ``tr``'s language, and a pattern finding them in a log
    line."""
    by_label = {card_text(card, tr): card for card in COPIES}
    return label_pattern(by_label), by_label


# ---------------------------------------------------------------------------- the hand


def hand(
    tbl: Table,
    player: str,
    tr: Tr,
    *,
    page: int = 0,
    pick: DosAction | None = None,
    notice: str = "",
    faces: Faces = TEXT_ONLY,
) -> discord.ui.LayoutView:
    """A player's private DOS hand in ``tr``'s language (the reader's): the Center Row, their cards, and their decisions as components
    (the matches, in a select paged by 25; a Wild DOS's colors, asked next; Draw, End the turn,
    the cards to place; DOS!; Refresh; Show as picture, verb ``pic``).

    Args:
        page: page of the match select.
        pick: a match chosen without the colors it needs (`DosGame.completions`): the hand asks for them.
        notice: a line shown above the hand (e.g. why a click was refused).
        faces: the cards' emojis (`bot.client.emojis.CardEmojis`): in the Center Row, the card list, and
            on the match options and place buttons; a card without one is shown as text.

    While the player can only watch (:func:`watching`), the hand shows their cards and "Not your
    turn" without the Center Row and whose turn it is, as the UNO hand does
    (`bot.render.hand.hand`).

    Returns:
        The message's view: its first line names the channel (``"Your hand at <#…>"``).
    """
    game = tbl.game
    assert isinstance(game, DosGame)
    cards = sorted_hand(game.hands.get(player, []))
    left = player not in game.hands
    live = not left and tbl.state is not TableState.OVER and not game.round_over
    mine = live and game.pending.player == player
    watch = watching(tbl, player)
    status = hand_status(tbl, game, player, tr, decision_text)
    picks = game.completions(player, pick) if mine and pick is not None else []
    if picks:
        status = tr._("🟢 Your move: name the color of the Wild DOS.") + "\n" + _pick_hint(game, picks, tr)
    # Ahead of coming down to two (§14.8) only where this turn could get there: a DOS! button
    # on a hand of seven that cannot reads as a mistake.
    offer_dos = (
        live
        and game.can_call_dos(player)
        and (len(game.hands[player]) <= 2 or game.could_come_down_to_two(player))
    )
    if offer_dos and len(game.hands[player]) > 2:  # a call made after the match can be caught at once
        status += "\n" + tr._("📣 Call DOS! before the match that leaves you two cards.")
    top = hand_top(tbl, game, player, tr, notice)
    texts = [] if left else [cards_block(_texts(cards, ", ", tr, faces, HAND_TEXT), tr)]
    if watch:
        top += tr._(WATCHING)
    else:  # the row takes what the message leaves (4,000 characters) beside the player's cards
        room = MAX_TEXT - len(top + _center_row(tr) + status) - 2 - sum(map(len, texts))
        top += "\n".join([_center_row(tr), *row_lines(game, tr, faces, room), status])
    items: list[discord.ui.Item[Any]] = []
    if picks:
        items = _pick_items(tbl, game, picks, tr)
    elif mine:
        items = _decision_items(tbl, game, player, page, tr, faces)
    items += hand_buttons(tbl, game, player, tr, DosAction(DosActionKind.DOS).text() if offer_dos else None)
    return message(ACCENT if watch else accent(game), [heading(top), *rows(items)], texts, [])


def watching(tbl: Table, player: str) -> bool:
    """Whether the player can do nothing now but watch (as `bot.render.hand.watching`): the game
    goes on, they are in it, no decision of theirs is pending and no DOS call is open to them
    (docs/rules.md §14.8). Their hand then shows only what changes for them (:func:`hand`)."""
    game = tbl.game
    assert isinstance(game, DosGame)
    if tbl.state is not TableState.PLAYING or player not in game.hands or game.round_over:
        return False
    return game.pending.player != player and not game.can_call_dos(player)


def _match_label(game: DosGame, action: DosAction, tr: Tr) -> str:
    """``"Pile 2 (blue 5): red 3 + Wild DOS"``."""
    assert action.pile is not None
    top = game.row[action.pile - 1][0]
    cards = " + ".join(_bare(c, tr) for c in action.cards)
    return tr._("Pile {pile} ({card}): {cards}").format(pile=action.pile, card=_bare(top, tr), cards=cards)


def _color_bonus(game: DosGame, action: DosAction) -> str:
    """What the complete match ``action`` earns by color (``bot.engine.dos.game.color_bonus``)."""
    assert action.pile is not None
    top = game.row[action.pile - 1][0]
    return color_bonus(action.cards, action.color, action.pile_color if top.wild_dos else top.color)


BONUS_TEXT = {
    "single-color": N_("color match: a bonus card"),
    "double-color": N_("double color match: a bonus card, everyone else draws"),
    "none": N_("no color bonus"),
}
"""What a match earns by color (docs/rules.md §14.6), under a match or a color to name."""


def _bonus_hint(game: DosGame, action: DosAction, tr: Tr) -> str | None:
    """What a match earns by color when its colors are fixed by the cards (§14.6), else None."""
    assert action.pile is not None
    if any(c.wild_dos for c in action.cards) or game.row[action.pile - 1][0].wild_dos:
        return None
    bonus = _color_bonus(game, action)
    return tr._(BONUS_TEXT[bonus]) if bonus != "none" else None


def _pick_hint(game: DosGame, picks: Sequence[DosAction], tr: Tr) -> str:
    """The line above a Wild DOS's colors: which color earns the bonus, or that none does, so the
    choice is never a blind one (docs/rules.md §14.6)."""
    earning = [a for a in picks if _color_bonus(game, a) != "none"]
    if not earning:
        return tr._(
            "No color earns a bonus here (a color match needs every card in the pile's color): any will do."
        )
    colors = {a.color or a.pile_color for a in earning} - {None}
    if len(colors) == 1:
        return tr._("Name {color} for a color match: a bonus card to place in the row.").format(
            color=color_name(next(iter(colors)), tr)  # type: ignore[arg-type]
        )
    return tr._("The pile's color makes a color match: a bonus card to place in the row.")


def _decision_items(
    tbl: Table, game: DosGame, player: str, page: int, tr: Tr, faces: Faces
) -> list[discord.ui.Item[Any]]:
    ch, v = tbl.channel_id, tbl.version
    items: list[discord.ui.Item[Any]] = []
    decisions = game.decisions(player)
    # One option per pile and cards; a Wild DOS's colors are asked next. Each pile's in the
    # hand's order (its single cards first), as the hand lists the cards.
    matches = sorted(
        dict.fromkeys(
            a._replace(color=None, pile_color=None) for a in decisions if a.kind is DosActionKind.PLAY
        ),
        key=lambda a: (a.pile or 0, len(a.cards), [card_order(c) for c in a.cards]),
    )
    if matches:
        chunk, pager = paged(tbl, matches, page, tr)
        options = [
            discord.SelectOption(
                label=_match_label(game, a, tr)[:100],
                value=a.text(),
                emoji=_emoji(a.cards[0], faces),
                description=_bonus_hint(game, a, tr),
            )
            for a in chunk
        ]
        placeholder = tr._("Make a match…")
        items.append(
            UnoSelect(Click(Scope.HAND, ch, v, Verb.ACT), options=options, placeholder=placeholder, row=0)
        )
        items += pager
    places = [a for a in decisions if a.kind is DosActionKind.PLACE]
    places.sort(key=lambda a: card_order(a.cards[0]))
    bonus = game.ended
    if len(places) <= PLACE_BUTTONS:
        for a in places:
            card = a.cards[0]
            items.append(
                UnoButton(
                    Click(Scope.HAND, ch, v, Verb.ACT, a.text()),
                    label=tr._("Place {card}").format(card=_bare(card, tr)),
                    emoji=_emoji(card, faces),
                    style=BUTTON_STYLE.get(card.color, discord.ButtonStyle.secondary)
                    if card.color
                    else discord.ButtonStyle.secondary,
                    row=2,
                )
            )
    else:
        options = [
            discord.SelectOption(
                label=tr._("Place {card}").format(card=_bare(a.cards[0], tr)),
                value=a.text(),
                emoji=_emoji(a.cards[0], faces),
            )
            for a in places[:SELECT_PAGE]
        ]
        # Its own custom_id beside the match select's (a select's value is its action).
        placeholder = tr._("Place a bonus card in the row…") if bonus else tr._("Place a card in the row…")
        click = Click(Scope.HAND, ch, v, Verb.ACT, "place")
        items.append(UnoSelect(click, options=options, placeholder=placeholder, row=2))
    for a in decisions:
        if a.kind in TURN_BUTTONS:
            label, click = tr._(TURN_BUTTONS[a.kind]), Click(Scope.HAND, ch, v, Verb.ACT, a.text())
            items.append(UnoButton(click, label=label, style=discord.ButtonStyle.primary, row=3))
    return items


def _pick_items(tbl: Table, game: DosGame, picks: list[DosAction], tr: Tr) -> list[discord.ui.Item[Any]]:
    """Second step of a match with a Wild DOS: the colors to name (a select of the complete
    matches, each saying what it earns by color), and Back."""
    options = []
    for a in picks:
        parts = []
        # Both named in one option, each said to be whose: "red, the Wild DOS pile red" read as one card.
        if a.color is not None:
            parts.append(tr._("your Wild DOS: {color}").format(color=color_name(a.color, tr)))
        if a.pile_color is not None:
            parts.append(tr._("the pile’s Wild DOS: {color}").format(color=color_name(a.pile_color, tr)))
        color = a.color or a.pile_color
        emoji = EMOJI[color] if color else None
        options.append(
            discord.SelectOption(
                label=(label := " · ".join(parts))[:1].upper() + label[1:100],
                value=a.text(),
                emoji=emoji,
                description=tr._(BONUS_TEXT[_color_bonus(game, a)]),
            )
        )
    click = Click(Scope.HAND, tbl.channel_id, tbl.version, Verb.ACT)
    colors = UnoSelect(click, options=options[:SELECT_PAGE], placeholder=tr._("Name the color…"), row=0)
    return [colors, back_button(tbl, tr)]
