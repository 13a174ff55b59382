"""A DOS table (docs/rules.md §14): its public message, a player's private hand with every legal
match, placement and call as components, and its log lines.

Every component carries its action's text (``DosAction.text()``) like the UNO hand's: a button
its argument, a select its values. A match is chosen in one or two steps: the pile and its cards
(a select), then, when a Wild DOS is in it or under it, the colors (a second select).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, NamedTuple

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoButton, UnoSelect
from bot.engine.cards import Color
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import COLORS, COPIES, DosCard, DosKind
from bot.engine.dos.game import DosEvent, DosEventKind, DosGame, DosPendingKind, color_bonus
from bot.engine.options import Scoring
from bot.i18n import N_, Tr
from bot.render.layout import (
    HAND_TEXT,
    MAX_TEXT,
    SELECT_PAGE,
    block,
    heading,
    message,
    my_hand,
    paged,
    rows,
    small,
)
from bot.render.log import game_won, round_won
from bot.render.table import LOG_TEXT, room_beside
from bot.render.words import (
    BUTTON_STYLE,
    EMBED_COLOR,
    EMOJI,
    TEXT_ONLY,
    WATCHING,
    WILD_EMOJI,
    Faces,
    as_text_to_fit,
    color_name,
    count,
    edition_name,
    label_pattern,
    longest_first,
    named,
    out_text,
    players_title,
    scores_text,
    scoring_text,
    team_tag,
    trim,
)
from bot.tables import Table, TableState

PLACE_BUTTONS = 5
"""Cards to place shown as buttons (one row); more go in a select."""
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


def _pile_color(game: DosGame, index: int) -> Color | None:
    """The color a pile shows (its bottom card's; a Wild DOS pile: the color named on it)."""
    bottom = game.row[index][0]
    return bottom.color


def accent(game: DosGame) -> int:
    """The color of a DOS table's and hand's container, as UNO's shows the color in play: the
    leftmost pile's color (a Wild DOS pile has none of its own), else :data:`ACCENT`."""
    colors = (c for i in range(len(game.row)) if (c := _pile_color(game, i)) is not None)
    first = next(colors, None)
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
    """Sort key of a DOS hand as shown, as an UNO hand's (`bot.render.words.face_order`): by
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


def pending_text(tbl: Table, game: DosGame, tr: Tr) -> str:
    """``"Waiting for **Ana** to match or draw."``, or why nothing is awaited, in ``tr``'s language."""
    p = game.pending
    if game.game_over:
        return tr._("The game is over.")
    if tbl.state is TableState.OVER:
        return tr._("The game has ended.")
    if game.round_over or p.player is None:
        return tr._("The round is over.")
    return tr._("Waiting for **{name}** {decision}.").format(
        name=named(tbl, p.player, tr), decision=_decision(game, tr)
    )


def _decision(game: DosGame, tr: Tr) -> str:
    """The decision awaited, as ``"to …"`` (each language's own)."""
    if game.pending.kind is DosPendingKind.PLACE and game.ended:
        return tr.n("to place {n} bonus card in the row", "to place {n} bonus cards in the row", game.bonus)
    kind = PENDING.get(game.pending.kind)
    return tr._(kind) if kind else ""


def _player_line(tbl: Table, game: DosGame, player: str, tr: Tr) -> str:
    seat = tbl.seat(player)
    team = team_tag(game, player)  # partners' team letter (docs/rules.md §3.2)
    shown = ("🤖 " if seat and seat.is_ai else "") + named(tbl, player, tr)
    state = out_text(tbl, player, tr)
    if state:
        return f"　{team}~~{shown}~~ ({state})"
    n = len(game.hands.get(player, ()))
    playing = tbl.state is TableState.PLAYING and not game.round_over
    marker = "▶ " if playing and game.pending.player == player else "　"
    line = f"{marker}{team}**{shown}** — {count(n, 'card', tr)}"
    if player in game.called and n:
        line += " · **DOS!**"
    if player in game.catchable:
        line += " · " + tr._("forgot DOS")
    return line


def table(tbl: Table, tr: Tr, faces: Faces = TEXT_ONLY) -> discord.ui.LayoutView:
    """The public DOS table message (Components V2) in ``tr``'s language (the table's): the Center Row (every pile, its number and
    color, the cards matched onto it this turn, each card with its emoji where ``faces`` has it),
    whose turn, hand sizes and DOS calls, scores, the log; My hand, DOS! and Catch buttons (verbs
    ``hand``, ``dos``, ``catch``). No top card's picture: DOS has no one top card."""
    game = tbl.game
    assert isinstance(game, DosGame)
    title = tr._("{edition} · round {round}").format(
        edition=edition_name(tbl.variant, tr), round=game.round_no
    )
    after = (
        [tr._("Bonus cards to place: {n}").format(n=game.bonus)] if game.bonus and game.pending.player else []
    )
    after.append(pending_text(tbl, game, tr))
    players = "\n".join(_player_line(tbl, game, p, tr) for p in game.players)
    texts = [block(players_title(game, tr), trim(players))]
    if game.options.scoring is not Scoring.SINGLE_ROUND or game.options.elimination:
        scores = scores_text(tbl, game, tr)
        texts.append(
            block(tr._("Scores ({scoring})").format(scoring=scoring_text(game.options, tr)), trim(scores))
        )
    piles = tr._("Draw pile {draw} · discard pile {discard}")
    footer = small(piles.format(draw=len(game.draw_pile), discard=len(game.discard_pile)))
    last = block(tr._("Last moves"), "") if tbl.log else ""
    # The row takes what the message leaves (4,000 characters) less the other texts and some room
    # for the last moves, as the UNO table's other side of every hand does; the moves, the rest.
    heading_lines = "\n".join([f"### {title}", _center_row(tr), *after]) + "\n"  # the row's joins it
    room = room_beside(tbl.log, heading_lines, *texts, footer, last)
    lines = [f"### {title}", _center_row(tr), *row_lines(game, tr, faces, room), *after]
    if tbl.log:
        room = MAX_TEXT - len("\n".join(lines)) - sum(map(len, [*texts, footer, last]))
        texts.append(last + _fitted(tbl.log, tr, faces, min(LOG_TEXT, room)))
    texts.append(footer)
    top = heading("\n".join(lines))
    if tbl.state is not TableState.PLAYING:
        return message(accent(game), [top], texts, [])
    ch = tbl.channel_id
    buttons = rows(
        [
            my_hand(ch, tr),
            UnoButton(Click(Scope.TABLE, ch, 0, Verb.DOS), label="DOS!", style=discord.ButtonStyle.danger),
            UnoButton(
                Click(Scope.TABLE, ch, 0, Verb.CATCH),
                label=tr._("Catch"),
                emoji="🚨",
                disabled=not game.catchable,
            ),
        ]
    )
    return message(accent(game), [top], texts, list(buttons))


def _fitted(lines: Sequence[str], tr: Tr, faces: Faces = TEXT_ONLY, limit: int = 1024) -> str:
    """The newest log lines that fit in ``limit`` characters, oldest first, with their cards'
    emojis (``faces``; the log is kept as text) where they still fit, the newest lines first."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > limit:
            break
        kept.append(line)
    kept.reverse()
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
    ch = tbl.channel_id
    cards = sorted_hand(game.hands.get(player, []))
    left = player not in game.hands
    closed = left or tbl.state is TableState.OVER
    live = not closed and not game.round_over
    mine = live and game.pending.player == player
    watch = watching(tbl, player)
    status = (
        tr._("🟢 Your move: {decision}.").format(decision=_decision(game, tr).removeprefix(tr._("to ")))
        if mine
        else tr._("You are no longer in this game.")
        if left and tbl.state is not TableState.OVER
        else pending_text(tbl, game, tr)
    )
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
    top = (
        tr._("Your hand at {channel}").format(channel=f"<#{ch}>")
        + (f"\n{notice}" if notice else "")
        + f"\n### {tr._('Not in this game') if left else count(len(cards), 'card', tr)}\n"
    )
    listed = _texts(cards, ", ", tr, faces, HAND_TEXT)
    texts = [] if left else [block(tr._("Your cards"), trim(listed or tr._("none"), HAND_TEXT))]
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
    if live:
        if offer_dos:
            dos = DosAction(DosActionKind.DOS).text()
            items.append(
                UnoButton(
                    Click(Scope.HAND, ch, tbl.version, Verb.ACT, dos),
                    label="DOS!",
                    style=discord.ButtonStyle.danger,
                    row=4,
                )
            )
        items.append(
            UnoButton(Click(Scope.HAND, ch, 0, Verb.REFRESH), label=tr._("Refresh"), emoji="🔄", row=4)
        )
    if not closed:  # the picture shows the table as it is when pressed: no version to refuse
        items.append(
            UnoButton(Click(Scope.HAND, ch, 0, Verb.PICTURE), label=tr._("Show as picture"), emoji="🖼️", row=4)
        )
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
        items.append(
            UnoSelect(
                Click(Scope.HAND, ch, v, Verb.ACT), options=options, placeholder=tr._("Make a match…"), row=0
            )
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
        items.append(
            UnoSelect(
                Click(Scope.HAND, ch, v, Verb.ACT, "place"), options=options, placeholder=placeholder, row=2
            )
        )
    for a in decisions:
        if a.kind is DosActionKind.DRAW:
            items.append(
                UnoButton(
                    Click(Scope.HAND, ch, v, Verb.ACT, a.text()),
                    label=tr._("Draw"),
                    style=discord.ButtonStyle.primary,
                    row=3,
                )
            )
        elif a.kind is DosActionKind.END_TURN:
            items.append(
                UnoButton(
                    Click(Scope.HAND, ch, v, Verb.ACT, a.text()),
                    label=tr._("End the turn"),
                    style=discord.ButtonStyle.primary,
                    row=3,
                )
            )
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
    ch, v = tbl.channel_id, tbl.version
    return [
        UnoSelect(
            Click(Scope.HAND, ch, v, Verb.ACT),
            options=options[:SELECT_PAGE],
            placeholder=tr._("Name the color…"),
            row=0,
        ),
        UnoButton(Click(Scope.HAND, ch, v, Verb.BACK), label=tr._("Back"), row=1),
    ]


# ---------------------------------------------------------------------------- the log


def _match(s: _Said) -> str:
    d, tr = s.event.data, s.tr
    # The color named for the match's Wild DOS cards goes beside each one (§14.6), not after the
    # last card, which may be another card of its own color: "🌈 Wild DOS (red) + 🟨 yellow Wild #".
    named = f" ({color_name(d['color'], tr)})" if d.get("color") else ""
    cards = " + ".join(card_text(c, tr) + (named if DosCard.parse(c).wild_dos else "") for c in d["cards"])
    pile_card = d.get("pile_card")
    if pile_card is not None and d.get("pile_color") and DosCard.parse(pile_card).wild_dos:
        # A Wild DOS pile's color is the one named for this match: beside it, as the played ones'.
        pile = card_text(pile_card, tr) + f" ({color_name(d['pile_color'], tr)})"
        line = tr._("{name} matched pile {pile}’s {pile_card} with {cards}").format(
            name=s.name(), pile=d["pile"], pile_card=pile, cards=cards
        )
    else:
        line = tr._("{name} matched pile {pile} with {cards}").format(
            name=s.name(), pile=d["pile"], cards=cards
        )
    if d["bonus"] == "double-color":
        return tr._("✨ {line}: double color match! A bonus card, and everyone else draws one").format(
            line=line
        )
    if d["bonus"] == "single-color":
        return tr._("{line}: color match, a bonus card").format(line=line)
    return line


def _drawn(s: _Said) -> str | None:
    reason, tr = s.event.data["reason"], s.tr
    if reason == "catch":  # the catch's own line says it
        return None
    n = s.event.data["count"]
    if reason == "double-color-match":
        return tr.ngettext(
            "{name} drew {n} card (double color match)", "{name} drew {n} cards (double color match)", n
        ).format(name=s.name(), n=n)
    if n:
        return tr.ngettext("{name} drew {n} card", "{name} drew {n} cards", n).format(name=s.name(), n=n)
    return tr._("{name} had nothing to draw").format(name=s.name())


def _caught(s: _Said) -> str:
    tr = s.tr
    by, name = s.name(s.event.data["by"]), s.name()
    if s.event.data.get("delayed"):
        return tr._("🚨 {by} caught {name} without DOS: +2 cards at the end of their turn").format(
            by=by, name=name
        )
    return tr._("🚨 {by} caught {name} without DOS: +2 cards").format(by=by, name=name)


def _placed(s: _Said) -> str:
    card = card_text(s.event.data["card"], s.tr)
    if s.event.data["reason"] == "bonus":
        return s.tr._("{name} placed {card} (bonus card)").format(name=s.name(), card=card)
    return s.tr._("{name} placed {card} (no match)").format(name=s.name(), card=card)


def _round_over(s: _Said) -> str:
    return round_won(s.tbl, s.event.data["winner"], s.event.data.get("points", 0), s.tr)


def _game_over(s: _Said) -> str:
    return game_won(s.tbl, s.event.data["winners"], s.tr)


class _Said(NamedTuple):
    """One DOS event to say, at its table, in ``tr``'s language."""

    tbl: Table
    event: DosEvent
    tr: Tr

    def name(self, key: str | None = None) -> str:
        """The event's player (or ``key``) as the table names them."""
        return named(self.tbl, self.event.player if key is None else key, self.tr)


_LINES: dict[DosEventKind, Callable[[_Said], str | None]] = {
    DosEventKind.ROUND_STARTED: lambda s: s.tr._("Round {round}: {name} deals").format(
        round=s.event.data["round"], name=s.name(s.event.data["dealer"])
    ),
    DosEventKind.MATCH_MADE: _match,
    DosEventKind.CARDS_DRAWN: _drawn,
    DosEventKind.CARD_PLACED: _placed,
    DosEventKind.ROW_REFILLED: lambda s: s.tr._("Row refilled: {cards}").format(
        cards=", ".join(card_text(c, s.tr) for c in s.event.data["cards"])
    ),
    DosEventKind.DECK_RESHUFFLED: lambda s: s.tr._("The discard pile is shuffled into a new draw pile"),
    DosEventKind.BONUS_LOST: lambda s: s.tr.ngettext(
        "{name} loses {n} bonus card", "{name} loses {n} bonus cards", s.event.data["count"]
    ).format(name=s.name(), n=s.event.data["count"]),
    DosEventKind.DOS_CALLED: lambda s: s.tr._("📣 {name}: DOS!").format(name=s.name()),
    DosEventKind.PLAYER_CAUGHT: _caught,
    DosEventKind.PLAYER_LEFT: lambda s: s.tr._("{name} left the game").format(name=s.name()),
    DosEventKind.PLAYER_ELIMINATED: lambda s: s.tr._("❌ {name} reached {score} and is out").format(
        name=s.name(), score=s.event.data.get("score", "")
    ),
    DosEventKind.ROUND_OVER: _round_over,
    DosEventKind.GAME_OVER: _game_over,
}
"""The log line of each kind of DOS event worth one (piles discarded and turn ends have none)."""


def log_lines(tbl: Table, events: Sequence[DosEvent], tr: Tr) -> list[str]:
    """The public log lines of one move's DOS ``events``, in order, in ``tr``'s language (the
    table's)."""
    return [line for e in events if (say := _LINES.get(e.kind)) and (line := say(_Said(tbl, e, tr)))]
