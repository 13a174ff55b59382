"""A DOS table (docs/rules.md §14): its public message, a player's private hand with every legal
match, placement and call as components, and its log lines.

Every component carries its action's text (``DosAction.text()``) like the UNO hand's: a button
its argument, a select its values. A match is chosen in one or two steps: the pile and its cards
(a select), then, when a Wild DOS is in it or under it, the colors (a second select).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.components import UnoButton, UnoSelect
from bot.engine.cards import Color
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import DosCard, DosKind, sort_key
from bot.engine.dos.game import DosEvent, DosEventKind, DosGame, DosPendingKind
from bot.engine.options import Scoring
from bot.render.layout import block, heading, message, rows, small
from bot.render.words import (
    BUTTON_STYLE,
    EMBED_COLOR,
    EMOJI,
    WILD_EMOJI,
    count,
    named,
    out_text,
    points_text,
    scoring_text,
    trim,
)
from bot.tables import Table, TableState

SELECT_PAGE = 25
PLACE_BUTTONS = 5
"""Cards to place shown as buttons (one row); more go in a select."""
PENDING = {
    DosPendingKind.TURN: "to match or draw",
    DosPendingKind.MATCH: "to make another match or end the turn",
    DosPendingKind.DRAW_DECISION: "to match or place a card in the row",
    DosPendingKind.PLACE: "to place a card in the row",
}
"""The decision a DOS game waits for (§14.13), as ``"to …"``."""
_DARK = 0x2B2D31


def card_text(card: DosCard | str) -> str:
    """A DOS card as players read it: ``"🟦 blue 5"``, ``"🟩 green Wild #"``, ``"🌈 Wild DOS"``."""
    c = card if isinstance(card, DosCard) else DosCard.parse(card)
    if c.kind is DosKind.WILD_DOS:
        return f"{WILD_EMOJI} Wild DOS"
    assert c.color is not None
    name = "Wild #" if c.kind is DosKind.WILD_NUMBER else str(c.number)
    return f"{EMOJI[c.color]} {c.color.value} {name}"


def _bare(card: DosCard) -> str:
    """A card's text without its color square (for labels that carry it as their emoji)."""
    return card_text(card).split(" ", 1)[1]


def _emoji(card: DosCard) -> str:
    return card_text(card).split(" ", 1)[0]


def _pile_color(game: DosGame, index: int) -> Color | None:
    """The color a pile shows (its bottom card's; a Wild DOS pile: the color named on it)."""
    bottom = game.row[index][0]
    return bottom.color


def row_lines(game: DosGame) -> list[str]:
    """The Center Row, one line a pile: ``"**1.** 🟦 blue 5 ← 🟥 red 3 + 🌈 Wild DOS"`` (the cards
    matched onto it this turn after the arrow)."""
    lines = []
    for i, pile in enumerate(game.row):
        line = f"**{i + 1}.** {card_text(pile[0])} (**{_pile_number(pile[0])}**)"
        if len(pile) > 1:
            line += " ← " + " + ".join(card_text(c) for c in pile[1:])
        lines.append(line)
    return lines or ["(no pile: the turn begins with a draw)"]


def _pile_number(card: DosCard) -> str:
    """The number a pile asks for: its card's, ``2`` for a Wild DOS, ``any`` for a Wild #."""
    return "any" if card.kind is DosKind.WILD_NUMBER else str(card.fixed)


def pending_text(tbl: Table, game: DosGame) -> str:
    """``"Waiting for **Ana** to match or draw."``, or why nothing is awaited."""
    p = game.pending
    if game.game_over:
        return "The game is over."
    if tbl.state is TableState.OVER:
        return "The game has ended."
    if game.round_over or p.player is None:
        return "The round is over."
    return f"Waiting for **{named(tbl, p.player)}** {_decision(game)}."


def _decision(game: DosGame) -> str:
    if game.pending.kind is DosPendingKind.PLACE and game.ended:
        return f"to place {count(game.bonus, 'bonus card')} in the row"
    return PENDING.get(game.pending.kind, "")


def _player_line(tbl: Table, game: DosGame, player: str) -> str:
    seat = tbl.seat(player)
    shown = ("🤖 " if seat and seat.is_ai else "") + named(tbl, player)
    state = out_text(tbl, player)
    if state:
        return f"　~~{shown}~~ ({state})"
    n = len(game.hands.get(player, ()))
    playing = tbl.state is TableState.PLAYING and not game.round_over
    marker = "▶ " if playing and game.pending.player == player else "　"
    line = f"{marker}**{shown}** — {count(n, 'card')}"
    if player in game.called and n:
        line += " · **DOS!**"
    if player in game.catchable:
        line += " · forgot DOS"
    return line


def table(tbl: Table) -> discord.ui.LayoutView:
    """The public DOS table message (Components V2): the Center Row (every pile, its number and
    color, the cards matched onto it this turn), whose turn, hand sizes and DOS calls, scores,
    the log; My hand, DOS! and Catch buttons (verbs ``hand``, ``dos``, ``catch``)."""
    game = tbl.game
    assert isinstance(game, DosGame)
    lines = [f"### DOS · round {game.round_no}", "**Center Row**", *row_lines(game)]
    if game.bonus and game.pending.player:
        lines.append(f"Bonus cards to place: {game.bonus}")
    lines.append(pending_text(tbl, game))
    first = _pile_color(game, 0) if game.row else None
    accent = EMBED_COLOR.get(first, _DARK) if first else _DARK
    players = "\n".join(_player_line(tbl, game, p) for p in game.players)
    texts = [block("Players", trim(players))]
    if game.options.scoring is not Scoring.SINGLE_ROUND or game.options.elimination:
        scores = " · ".join(f"{named(tbl, k)} {v}" for k, v in game.scores.items())
        texts.append(block(f"Scores ({scoring_text(game.options)})", trim(scores)))
    if tbl.log:
        texts.append(block("Last moves", _fitted(tbl.log)))
    texts.append(small(f"Draw pile {len(game.draw_pile)} · discard pile {len(game.discard_pile)}"))
    top = heading("\n".join(lines))
    if tbl.state is not TableState.PLAYING:
        return message(accent, [top], texts, [])
    ch = tbl.channel_id
    buttons = rows(
        [
            UnoButton("t", ch, 0, "hand", label="My hand", emoji="🃏", style=discord.ButtonStyle.primary),
            UnoButton("t", ch, 0, "dos", label="DOS!", style=discord.ButtonStyle.danger),
            UnoButton("t", ch, 0, "catch", label="Catch", emoji="🚨", disabled=not game.catchable),
        ]
    )
    return message(accent, [top], texts, list(buttons))


def _fitted(lines: Sequence[str], limit: int = 1024) -> str:
    """The newest log lines that fit in ``limit`` characters, oldest first."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > limit:
            break
        kept.append(line)
    return "\n".join(reversed(kept)) or trim(lines[-1], limit)


# ---------------------------------------------------------------------------- the hand


def completions(game: DosGame, player: str, pick: DosAction) -> list[DosAction]:
    """The legal matches ``pick`` (a match with its colors perhaps left out) may become: the ones
    on its pile with its cards, and its colors where it names them."""
    if pick.kind is not DosActionKind.PLAY:
        return []
    return [
        a
        for a in game.matches(player)
        if a.pile == pick.pile
        and a.cards == pick.cards
        and pick.color in (None, a.color)
        and pick.pile_color in (None, a.pile_color)
    ]


def hand(
    tbl: Table, player: str, *, page: int = 0, pick: DosAction | None = None, notice: str = ""
) -> discord.ui.LayoutView:
    """A player's private DOS hand: the Center Row, their cards, and their decisions as components
    (the matches, in a select paged by 25; a Wild DOS's colors, asked next; Draw, End the turn,
    the cards to place; DOS!; Refresh).

    Args:
        page: page of the match select.
        pick: a match chosen without the colors it needs (:func:`completions`): the hand asks for them.
        notice: a line shown above the hand (e.g. why a click was refused).

    Returns:
        The message's view: its first line names the channel (``"Your hand at <#…>"``).
    """
    game = tbl.game
    assert isinstance(game, DosGame)
    ch = tbl.channel_id
    cards = sorted(game.hands.get(player, []), key=sort_key)
    left = player not in game.hands
    closed = left or tbl.state is TableState.OVER
    live = not closed and not game.round_over
    mine = live and game.pending.player == player
    status = (
        f"🟢 Your move: {_decision(game).removeprefix('to ')}."
        if mine
        else "You are no longer in this game."
        if left and tbl.state is not TableState.OVER
        else pending_text(tbl, game)
    )
    picks = completions(game, player, pick) if mine and pick is not None else []
    if picks:
        status = "🟢 Your move: name the color of the Wild DOS."
    top = (
        f"Your hand at <#{ch}>"
        + (f"\n{notice}" if notice else "")
        + f"\n### {'Not in this game' if left else count(len(cards), 'card')}\n"
        + "\n".join(["**Center Row**", *row_lines(game), status])
    )
    texts = [] if left else [block("Your cards", trim(", ".join(map(card_text, cards)) or "none"))]
    items: list[discord.ui.Item[Any]] = []
    if picks:
        items = _pick_items(tbl, picks)
    elif mine:
        items = _decision_items(tbl, game, player, page)
    if live:
        if game.can_call_dos(player):
            dos = DosAction(DosActionKind.DOS).text()
            items.append(
                UnoButton(
                    "h", ch, tbl.version, "a", dos, label="DOS!", style=discord.ButtonStyle.danger, row=4
                )
            )
        items.append(UnoButton("h", ch, 0, "r", label="Refresh", emoji="🔄", row=4))
    return message(_DARK, [heading(top), *rows(items)], texts, [])


def _match_label(game: DosGame, action: DosAction) -> str:
    """``"Pile 2 (blue 5): red 3 + Wild DOS"``."""
    assert action.pile is not None
    top = game.row[action.pile - 1][0]
    return f"Pile {action.pile} ({_bare(top)}): " + " + ".join(_bare(c) for c in action.cards)


def _bonus_hint(game: DosGame, action: DosAction) -> str | None:
    """What a match earns by color when its colors are fixed by the cards (§14.6), else None."""
    assert action.pile is not None
    pile = game.row[action.pile - 1][0].color
    if pile is None or any(c.wild_dos for c in action.cards):
        return None
    if all(c.color is pile for c in action.cards):
        return (
            "double color match: a bonus card, everyone else draws"
            if len(action.cards) == 2
            else "color match: a bonus card"
        )
    return None


def _decision_items(tbl: Table, game: DosGame, player: str, page: int) -> list[discord.ui.Item[Any]]:
    ch, v = tbl.channel_id, tbl.version
    items: list[discord.ui.Item[Any]] = []
    decisions = game.decisions(player)
    # One option per pile and cards; a Wild DOS's colors are asked next.
    matches = list(
        dict.fromkeys(
            a._replace(color=None, pile_color=None) for a in decisions if a.kind is DosActionKind.PLAY
        )
    )
    if matches:
        pages = (len(matches) + SELECT_PAGE - 1) // SELECT_PAGE
        page = max(0, min(page, pages - 1))
        options = [
            discord.SelectOption(
                label=_match_label(game, a)[:100],
                value=a.text(),
                emoji=_emoji(a.cards[0]),
                description=_bonus_hint(game, a),
            )
            for a in matches[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
        ]
        items.append(UnoSelect("h", ch, v, "a", options=options, placeholder="Make a match…", row=0))
        if pages > 1:
            items += [
                UnoButton("h", ch, v, "pg", page - 1, label="◀", disabled=page == 0, row=1),
                UnoButton("h", ch, v, "pg", page + 1, label="▶", disabled=page >= pages - 1, row=1),
            ]
    places = [a for a in decisions if a.kind is DosActionKind.PLACE]
    places.sort(key=lambda a: sort_key(a.cards[0]))
    bonus = game.ended
    if len(places) <= PLACE_BUTTONS:
        for a in places:
            card = a.cards[0]
            items.append(
                UnoButton(
                    "h",
                    ch,
                    v,
                    "a",
                    a.text(),
                    label=f"Place {_bare(card)}",
                    emoji=_emoji(card),
                    style=BUTTON_STYLE.get(card.color, discord.ButtonStyle.secondary)
                    if card.color
                    else discord.ButtonStyle.secondary,
                    row=2,
                )
            )
    else:
        options = [
            discord.SelectOption(label=f"Place {_bare(a.cards[0])}", value=a.text(), emoji=_emoji(a.cards[0]))
            for a in places[:SELECT_PAGE]
        ]
        what = "a bonus card" if bonus else "a card"
        # Its own custom_id beside the match select's (a select's value is its action).
        placeholder = f"Place {what} in the row…"
        items.append(UnoSelect("h", ch, v, "a", "place", options=options, placeholder=placeholder, row=2))
    for a in decisions:
        if a.kind is DosActionKind.DRAW:
            items.append(
                UnoButton("h", ch, v, "a", a.text(), label="Draw", style=discord.ButtonStyle.primary, row=3)
            )
        elif a.kind is DosActionKind.END_TURN:
            items.append(
                UnoButton(
                    "h", ch, v, "a", a.text(), label="End the turn", style=discord.ButtonStyle.primary, row=3
                )
            )
    return items


def _pick_items(tbl: Table, picks: list[DosAction]) -> list[discord.ui.Item[Any]]:
    """Second step of a match with a Wild DOS: the colors to name (a select of the complete
    matches), and Back."""
    options = []
    for a in picks:
        parts = []
        if a.color is not None:
            parts.append(f"Wild DOS {a.color.value}")
        if a.pile_color is not None:
            parts.append(f"the Wild DOS pile {a.pile_color.value}")
        color = a.color or a.pile_color
        emoji = EMOJI[color] if color else None
        options.append(discord.SelectOption(label=", ".join(parts)[:100], value=a.text(), emoji=emoji))
    ch, v = tbl.channel_id, tbl.version
    return [
        UnoSelect("h", ch, v, "a", options=options[:SELECT_PAGE], placeholder="Name the color…", row=0),
        UnoButton("h", ch, v, "bk", label="Back", row=1),
    ]


# ---------------------------------------------------------------------------- the log


def _match(tbl: Table, e: DosEvent) -> str:
    d = e.data
    cards = " + ".join(card_text(c) for c in d["cards"])
    if d.get("color"):
        cards += f" → {d['color']}"
    line = f"{named(tbl, e.player)} matched pile {d['pile']} with {cards}"
    if d["bonus"] == "double-color":
        return f"✨ {line}: double color match! A bonus card, and everyone else draws one"
    if d["bonus"] == "single-color":
        return f"{line}: color match, a bonus card"
    return line


def _drawn(tbl: Table, e: DosEvent) -> str | None:
    reason = e.data["reason"]
    if reason == "catch":  # the catch's own line says it
        return None
    n = e.data["count"]
    if reason == "double-color-match":
        return f"{named(tbl, e.player)} drew {count(n, 'card')} (double color match)"
    return (
        f"{named(tbl, e.player)} drew {count(n, 'card')}"
        if n
        else f"{named(tbl, e.player)} had nothing to draw"
    )


def _caught(tbl: Table, e: DosEvent) -> str:
    when = " at the end of their turn" if e.data.get("delayed") else ""
    return f"🚨 {named(tbl, e.data['by'])} caught {named(tbl, e.player)} without DOS: +2 cards{when}"


def _round_over(tbl: Table, e: DosEvent) -> str:
    return f"🏁 {named(tbl, e.data['winner'])} wins the round{points_text(tbl, e.data.get('points', 0))}"


def _game_over(tbl: Table, e: DosEvent) -> str:
    winners = e.data["winners"]
    return f"🏆 {' & '.join(named(tbl, w) for w in winners)} win{'s' if len(winners) == 1 else ''} the game"


_LINES = {
    DosEventKind.ROUND_STARTED: lambda t, e: f"Round {e.data['round']}: {named(t, e.data['dealer'])} deals",
    DosEventKind.MATCH_MADE: _match,
    DosEventKind.CARDS_DRAWN: _drawn,
    DosEventKind.CARD_PLACED: lambda t, e: (
        f"{named(t, e.player)} placed {card_text(e.data['card'])}"
        + (" (bonus card)" if e.data["reason"] == "bonus" else " (no match)")
    ),
    DosEventKind.ROW_REFILLED: lambda t, e: (
        "Row refilled: " + ", ".join(card_text(c) for c in e.data["cards"])
    ),
    DosEventKind.DECK_RESHUFFLED: lambda t, e: "The discard pile is shuffled into a new draw pile",
    DosEventKind.BONUS_LOST: lambda t, e: (
        f"{named(t, e.player)} loses {count(e.data['count'], 'bonus card')}"
    ),
    DosEventKind.DOS_CALLED: lambda t, e: f"📣 {named(t, e.player)}: DOS!",
    DosEventKind.PLAYER_CAUGHT: _caught,
    DosEventKind.PLAYER_LEFT: lambda t, e: f"{named(t, e.player)} left the game",
    DosEventKind.PLAYER_ELIMINATED: lambda t, e: (
        f"❌ {named(t, e.player)} reached {e.data.get('score', '')} and is out"
    ),
    DosEventKind.ROUND_OVER: _round_over,
    DosEventKind.GAME_OVER: _game_over,
}
"""The log line of each kind of DOS event worth one (piles discarded and turn ends have none)."""


def log_lines(tbl: Table, events: Sequence[DosEvent]) -> list[str]:
    """The public log lines of one move's DOS ``events``, in order."""
    return [line for e in events if (say := _LINES.get(e.kind)) and (line := say(tbl, e))]
