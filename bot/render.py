"""Pure rendering: tables, lobbies, hands and events to Discord embeds and components.

Nothing here changes a game; every function takes the table (and a player) and returns what to
show. Card names are RULES.md's (``"red draw two"``), with a color emoji before them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.components import UnoButton, UnoSelect, view_of
from bot.engine.cards import Card, Color, Face, Rank, Side
from bot.engine.effects import CUSTOMIZABLE_RULES
from bot.engine.events import Event
from bot.engine.game import Action, Game
from bot.engine.options import HouseRule, Options, PendingKind, Scoring
from bot.engine.variants import VARIANTS
from bot.tables import Table

EMOJI = {
    Color.RED: "🟥", Color.YELLOW: "🟨", Color.GREEN: "🟩", Color.BLUE: "🟦",
    Color.PINK: "🩷", Color.TEAL: "🩵", Color.ORANGE: "🟧", Color.PURPLE: "🟪",
}  # fmt: skip
WILD_EMOJI = "🌈"
EMBED_COLOR = {
    Color.RED: 0xD72600, Color.YELLOW: 0xECD407, Color.GREEN: 0x379711, Color.BLUE: 0x0956BF,
    Color.PINK: 0xE52C8B, Color.TEAL: 0x0FA3A3, Color.ORANGE: 0xF27A1A, Color.PURPLE: 0x7A3FB0,
}  # fmt: skip
BUTTON_STYLE = {
    Color.RED: discord.ButtonStyle.danger, Color.GREEN: discord.ButtonStyle.success,
    Color.BLUE: discord.ButtonStyle.primary, Color.TEAL: discord.ButtonStyle.primary,
}  # fmt: skip
CARD_BUTTONS = 15  # up to three rows of card buttons; beyond that, a paged select
SELECT_PAGE = 25
PENDING_TEXT = {
    PendingKind.TURN: "to play a card or draw",
    PendingKind.CHALLENGE: "to challenge or accept",
    PendingKind.PENALTY: "to take the penalty or answer it",
    PendingKind.COLOR: "to name the color",
    PendingKind.DISCARD: "to discard a card (Wild Super Hero)",
    PendingKind.HOWLER: "to answer the Howler",
    PendingKind.DRAW_DECISION: "to play the drawn card or keep it",
}
HOUSE_RULE_NAMES = {
    HouseRule.STACKING: "Stacking",
    HouseRule.JUMP_IN: "Jump-in",
    HouseRule.SEVEN_O: "Seven-O",
    HouseRule.DRAW_UNTIL_PLAYABLE: "Draw until playable",
    HouseRule.FORCED_PLAY: "Forced play",
    HouseRule.NO_BLUFFING: "No bluffing",
}
"""The one place a house rule's id becomes the name players read (docs/rules.md's headings)."""
HOUSE_RULE_HINTS = {
    HouseRule.STACKING: "Answer a Draw card with the same Draw card, passing the total on",
    HouseRule.JUMP_IN: "Play a card identical to the top card out of turn",
    HouseRule.SEVEN_O: "A 7 swaps hands with a player you pick; a 0 passes every hand on",
    HouseRule.DRAW_UNTIL_PLAYABLE: "Drawing goes on until a playable card comes",
    HouseRule.FORCED_PLAY: "A playable drawn card must be played",
    HouseRule.NO_BLUFFING: "A restricted wild is refused while you hold the current color",
}
TARGET_PROMPTS = {
    Rank.SEVEN: "pick the player to swap hands with (Seven-O)",
    Rank.HOWLER: "pick the player whose hand the Howler shows to the table",
    Rank.SAVE_THE_DAY: "pick the player Save The Day protects",
    Rank.WILD_CUSTOMIZABLE: "pick the player to swap hands with",
}
"""What a player is asked when a card they play needs a picked player (``effects.target_ranks``)."""
_COLOR_ORDER = {c: i for i, c in enumerate(Color)}
_RANK_ORDER = {r: i for i, r in enumerate(Rank)}


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1.

    >>> count(1, "round"), count(0, "point"), count(7, "card")
    ('1 round', '0 points', '7 cards')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def record_text(*, games_played: int, games_won: int, rounds_won: int, points: int) -> str:
    """A player's record (``/uno stats``), one count a line; the keywords are the storage's counts.

    >>> print(record_text(games_played=4, games_won=1, rounds_won=6, points=230))
    Games played: **4** · won: **1** (25%)
    Rounds won: **6**
    Points scored: **230**
    """
    rate = f" ({games_won / games_played:.0%})" if games_played else ""
    return (
        f"Games played: **{games_played}** · won: **{games_won}**{rate}\n"
        f"Rounds won: **{rounds_won}**\nPoints scored: **{points}**"
    )


def face_label(face: Face) -> str:
    """``"🟥 red 7"``, ``"🌈 wild draw four"``."""
    return f"{EMOJI[face.color] if face.color else WILD_EMOJI} {face.name}"


def card_label(card: Card, side: Side) -> str:
    """The card as its holder sees it (active face)."""
    return face_label(card.face(side))


def _cards_text(cards: Iterable[str], side: Side) -> str:
    faces = sorted((Card.parse(c).face(side) for c in cards), key=face_order)
    return ", ".join(face_label(f) for f in faces) or "none"


def face_order(face: Face) -> tuple[int, int, int]:
    """Sort key of a hand: by color (the colors' fixed order), then rank; wilds last."""
    color = -1 if face.color is None else _COLOR_ORDER[face.color]
    return (face.color is None, color, _RANK_ORDER[face.rank])


def house_rules_text(rules: Iterable[HouseRule]) -> str:
    """``"Stacking, Seven-O"`` (in a fixed order), or ``"none"``."""
    chosen = set(rules)
    return ", ".join(name for rule, name in HOUSE_RULE_NAMES.items() if rule in chosen) or "none"


def scoring_text(options: Options) -> str:
    """How the game is won, with the target score only where it applies."""
    target = options.target_score
    if options.elimination:
        return f"elimination: out at {target} points, the last one left wins"
    if options.scoring is Scoring.SINGLE_ROUND:
        return "single round: the first player out wins"
    if options.scoring is Scoring.RUNNING_TALLY:
        return f"running tally: the game ends at {target} points, lowest total wins"
    return f"first to {target} points"


def customizable_text(rule: str) -> str:
    r"""The Wild Customizable rule as the table reads it: a known rule's name, or the host's own
    text (at most 300 characters) with its Markdown escaped, so ``**``, ``#`` or ``>`` show as typed.

    >>> customizable_text("swap-hands"), customizable_text("")
    ('Swap hands', 'plain wild')
    >>> customizable_text("**Sing**") == r"\*\*Sing\*\*"
    True
    """
    known = CUSTOMIZABLE_RULES.get(rule)
    if known:
        return known.name
    return discord.utils.escape_markdown(_trim(rule, 300)) if rule else "plain wild"


def settings_text(variant: str, options: Options, turn_seconds: int) -> str:
    """A channel's defaults for new games (``/uno settings``)."""
    return "\n".join(
        [
            f"Edition: **{VARIANTS[variant].name}**",
            f"Scoring: **{scoring_text(options)}**",
            f"House rules: **{house_rules_text(options.house_rules)}**",
            f"Wild Customizable: **{customizable_text(options.customizable_rule)}**",
            f"Turn timer: **{f'{turn_seconds}s' if turn_seconds else 'off'}**",
        ]
    )


def _trim(text: str, limit: int = 1024) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ------------------------------------------------------------------------ lobby


def options_text(table: Table) -> str:
    """One short paragraph of the table's options."""
    o = table.options
    parts = [f"**{VARIANTS[table.variant].name}**", scoring_text(o)]
    if o.partners:
        parts.append("partners")
    if o.house_rules:
        parts.append("house rules: " + house_rules_text(o.house_rules))
    if VARIANTS[table.variant].customizable and o.customizable_rule:
        parts.append(f"Wild Customizable: {customizable_text(o.customizable_rule)}")
    parts.append(f"turn timer {table.turn_seconds}s" if table.turn_seconds else "no turn timer")
    return " · ".join(parts)


def lobby(table: Table) -> tuple[discord.Embed, discord.ui.View]:
    """The public lobby message: seats, options; Join, Leave, Add bot, Start; host selects."""
    embed = discord.Embed(title="UNO lobby", description=options_text(table), color=0xD72600)
    seats = "\n".join(
        f"{i + 1}. {'🤖 ' if s.is_ai else ''}{s.name}{' (host)' if s.id == table.host.id else ''}"
        for i, s in enumerate(table.seats)
    )
    embed.add_field(name=f"Seats ({len(table.seats)}/10)", value=seats or "empty", inline=False)
    if table.options.partners and len(table.seats) in (4, 6, 8, 10):  # partners sit across (RULES.md 9)
        half = len(table.seats) // 2
        pairs = zip(table.seats[:half], table.seats[half:], strict=True)
        teams = "\n".join(f"{a.name} + {b.name}" for a, b in pairs)
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
        discord.SelectOption(label=var.name, value=var.id, default=var.id == table.variant)
        for var in VARIANTS.values()
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


# ------------------------------------------------------------------------ table


def _player_line(table: Table, game: Game, player: str) -> str:
    seat = table.seat(player)
    name = ("🤖 " if seat and seat.is_ai else "") + table.name(player)
    state = game.out.get(player)
    if state:
        return f"　~~{name}~~ ({state})"  # indented like the rows without the turn marker
    n = len(game.hands.get(player, ()))
    playing = table.state == "playing" and not game.round_over
    marker = "▶ " if playing and game.pending.player == player else "　"
    line = f"{marker}**{name}** — {count(n, 'card')}"
    if player in game.called and n:  # a call made before going out is spent
        line += " · **UNO!**"
    if player in game.catchable:
        line += " · forgot UNO"
    if game.protected == player:
        line += " · 🛡️ protected"
    if game.variant.two_sided and n:
        other = game.side.other
        backs = " ".join(face_label(c.face(other)).split(" ", 1)[0] for c in game.hands[player])
        line += f"\n　　backs: {backs}"
    return line


def pending_text(table: Table, game: Game) -> str:
    """ "Waiting for Ana to name the color"."""
    p = game.pending
    if game.game_over:
        return "The game is over."
    if table.state == "over":  # closed by /uno end, or ended for want of players
        return "The game has ended."
    if game.round_over or p.player is None:
        return "The round is over."
    return f"Waiting for **{table.name(p.player)}** {PENDING_TEXT[p.kind]}."


def table(tbl: Table) -> tuple[discord.Embed, discord.ui.View | None]:
    """The one public table message: top card, color, side, direction, turn, players, scores, log."""
    game = tbl.game
    assert game is not None
    variant = game.variant
    top = game.top
    color = game.color
    lines = [f"Top card: **{face_label(top)}**"]
    if top.color is None and color is not None:
        lines[0] += f" → color **{EMOJI[color]} {color.value}**"
    if variant.two_sided:
        side_name = variant.side_names[0 if game.side is Side.LIGHT else 1]
        lines.append(f"Side: **{side_name}**")
        if game.draw_pile:
            lines.append(f"Draw pile shows: {face_label(game.draw_pile[-1].face(game.side.other))}")
    lines.append(f"Direction: {'⟳ left' if game.direction == 1 else '⟲ right'}")
    lines.append(pending_text(tbl, game))
    embed = discord.Embed(
        title=f"{variant.name} · round {game.round_no}",
        description="\n".join(lines),
        color=EMBED_COLOR.get(color, 0x2B2D31) if color else 0x2B2D31,
    )
    players = "\n".join(_player_line(tbl, game, p) for p in game.players)
    embed.add_field(name="Players", value=_trim(players), inline=False)
    if game.options.scoring is not Scoring.SINGLE_ROUND or game.options.elimination:
        scores = " · ".join(f"{tbl.name(k)} {v}" for k, v in game.scores.items())
        embed.add_field(name=f"Scores ({scoring_text(game.options)})", value=_trim(scores), inline=False)
    if tbl.log:
        embed.add_field(name="Last moves", value=_trim("\n".join(tbl.log)), inline=False)
    embed.set_footer(text=f"Draw pile {len(game.draw_pile)} · discard pile {len(game.discard_pile)}")
    if tbl.state != "playing":
        return embed, None
    ch = tbl.channel_id
    view = view_of(
        UnoButton("t", ch, 0, "hand", label="My hand", emoji="🃏", style=discord.ButtonStyle.primary),
        UnoButton("t", ch, 0, "uno", label="UNO!", style=discord.ButtonStyle.danger),
        UnoButton("t", ch, 0, "catch", label="Catch", emoji="🚨", disabled=not game.catchable),
    )
    return embed, view


# ------------------------------------------------------------------------ hands


def _button_style(face: Face) -> discord.ButtonStyle:
    return (
        BUTTON_STYLE.get(face.color, discord.ButtonStyle.secondary)
        if face.color
        else discord.ButtonStyle.secondary
    )


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
    closed = left or tbl.state == "over"
    mine = not closed and game.pending.player == player and not game.round_over
    status = (
        f"🟢 Your move: {PENDING_TEXT[game.pending.kind].removeprefix('to ')}."
        if mine
        else "You are no longer in this game."
        if left and tbl.state != "over"
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
        embed.add_field(name="Your cards", value=_trim("\n".join(shown) or "none"), inline=False)
    for other, seen in game.revealed.get(player, {}).items():
        embed.add_field(name=f"{tbl.name(other)}'s hand (shown to you)", value=_trim(_cards_text(seen, side)))
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


def sorted_hand(cards: Iterable[Card], side: Side) -> list[Card]:
    """A hand as shown: sorted by :func:`face_order` of the active side (stable)."""
    return sorted(cards, key=lambda c: face_order(c.face(side)))


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
                UnoButton("h", ch, v, verb, index, label=label, style=_button_style(face), row=n // 5)
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


# ------------------------------------------------------------------------ events


def log_lines(tbl: Table, events: Sequence[Event]) -> list[str]:
    """The public log lines of one move's ``events`` (in order), each card named by its face on the
    side in play when that event happened: a Flip among ``events`` turns the ones after it."""
    side = tbl.game.side if tbl.game else Side.LIGHT
    sides = []
    for event in reversed(events):  # the game is on its side after the last event
        sides.append(side)
        if event.kind == "side-flipped":
            side = side.other
    sides.reverse()
    lines = []
    dealt: Side | None = None  # after a round-started event, until the start card is in play
    for event, side in zip(events, sides, strict=True):
        if dealt is not None and event.kind not in _DEALING:
            lines.append(_start_card(tbl, dealt))  # on the side it turned up on
        dealt = (
            side if (dealt is not None or event.kind == "round-started") and event.kind in _DEALING else None
        )
        if line := describe(tbl, event, side):
            lines.append(line)
    if dealt is not None:
        lines.append(_start_card(tbl, dealt))
    return lines


_DEALING = frozenset({"round-started", "dealer-drawn", "start-card-returned"})


def _start_card(tbl: Table, side: Side) -> str:
    """The card that starts the round (the bottom of the discard pile as the round starts)."""
    assert tbl.game is not None
    return f"Start card: {card_label(tbl.game.discard_pile[0], side)}"


def describe(tbl: Table, event: Event, side: Side | None = None) -> str | None:
    """One short public log line for an event, or None for events not worth a line.

    Args:
        side: the side in play when the event happened (default: the game's side now).
    """
    name = tbl.name(event.player) if event.player else ""
    d = event.data
    k = event.kind
    if side is None:
        side = tbl.game.side if tbl.game else Side.LIGHT
    if k == "card-played":
        card = Card.parse(d["card"])
        text = f"{name} {'jumped in with' if d.get('jump_in') else 'played'} {card_label(card, side)}"
        if card.face(side).color is None and d.get("color"):
            text += f" → {d['color']}"
        return text
    if k == "cards-drawn":
        if d["reason"] in ("catch",):
            return None
        n = d["count"]
        return f"{name} drew {count(n, 'card')}" if n else f"{name} had nothing to draw"
    simple = {
        "turn-skipped": f"{name} loses a turn",
        "drawn-card-kept": f"{name} keeps the drawn card",
        "uno-called": f"📣 {name}: UNO!",
        "player-left": f"{name} left the game",
        "protection-ended": "🛡️ Save The Day's protection ends",
    }
    if k in simple:
        return simple[k]
    if k == "direction-reversed":
        return f"Direction reversed: now {d['direction']}"
    if k == "side-flipped":
        return f"🔄 FLIP! The table turns to the {d['side']} side"
    if k == "color-named":
        if tbl.game is not None and event.player not in tbl.game.hands:  # named for a leaver
            return f"{d['color']} is named for {name}, who left"
        return f"{name} names {d['color']}"
    if k == "player-caught":
        return f"🚨 {tbl.name(d['by'])} caught {name} without UNO: +2 cards"
    if k == "challenge":
        verdict = "guilty: they draw the penalty" if d["guilty"] else "innocent: the challenger draws"
        return f"⚖️ {tbl.name(d['by'])} challenged {name}: {verdict}"
    if k == "hand-revealed":
        viewers = d["to"]
        who = "the table" if len(viewers) > 1 else tbl.name(viewers[0]) if viewers else "nobody"
        return f"👀 {name}'s hand is shown to {who}"
    if k == "penalty-blocked":
        return f"🛡️ {name} is protected: {d['card']} has no effect"
    if k == "protected":
        return f"🛡️ {name} is protected by {tbl.name(d['by'])}"
    if k == "card-discarded":
        return (
            f"{name} keeps all cards"
            if d.get("declined")
            else f"{name} discards {card_label(Card.parse(d['card']), side)}"
        )
    if k == "hands-swapped":
        return f"🔁 {name} swaps hands with {tbl.name(d['with_'])}"
    if k == "hands-passed":
        return f"🔁 Every hand passes {d['direction']}"
    if k == "deck-reshuffled":
        return "The discard pile is shuffled into a new draw pile"
    if k == "house-rule":  # a known rule by its id, the host's own text as written
        return f"📜 House rule: {customizable_text(d.get('rule', d['text']))}"
    if k == "player-eliminated":
        return f"❌ {name} reached {d['score']} and is out"
    if k == "round-over":
        if d["winner"] is None:
            return "🔄 The round went in circles and is void: nobody scores"
        return f"🏁 {tbl.name(d['winner'])} wins the round{_points(tbl, d['points'])}"
    if k == "game-over":
        return f"🏆 {' & '.join(tbl.name(w) for w in d['winners'])} win{'s' if len(d['winners']) == 1 else ''} the game"
    if k == "round-started":
        return f"Round {d['round']}: {tbl.name(d['dealer'])} deals"
    if k == "start-card-returned":
        return f"{card_label(Card.parse(d['card']), side)} turned up first and went back into the draw pile"
    return None


def standings(tbl: Table) -> discord.Embed:
    """Final (or current) standings, best first."""
    game = tbl.game
    assert game is not None
    if game.options.effective_scoring is Scoring.SINGLE_ROUND:
        # No points (RULES.md section 8): the others rank by the cards they were left holding
        # (a score key is a player, or partners "a+b" holding their hands together).
        def left(key: str) -> tuple[int, str]:
            hands = [game.hands[m] for m in key.split("+") if m in game.hands]
            if key in game.winners:
                return 0, "went out" if any(not h for h in hands) else "won"
            if not hands:
                return 10_000, "left the game"
            n = sum(map(len, hands))
            return n, f"{count(n, 'card')} left"

        ranked = sorted(game.scores, key=lambda p: (p not in game.winners, left(p)[0]))
        lines = [f"{i + 1}. {tbl.name(p)} — {left(p)[1]}" for i, p in enumerate(ranked)]
    else:
        low_wins = game.options.effective_scoring is Scoring.RUNNING_TALLY
        order = sorted(
            game.scores.items(), key=lambda kv: (kv[0] not in game.winners, kv[1] if low_wins else -kv[1])
        )
        lines = [f"{i + 1}. {tbl.name(k)} — {v}" for i, (k, v) in enumerate(order)]
    winners = " & ".join(tbl.name(w) for w in game.winners) or "nobody"
    embed = discord.Embed(title=f"🏆 {winners} won!", description="\n".join(lines), color=0xECD407)
    rounds = count(game.round_no, "round")
    embed.set_footer(text=f"{game.variant.name} · {rounds}")
    return embed


def round_summary(tbl: Table, winner: str | None, points: int) -> str:
    """A short public line between rounds."""
    game = tbl.game
    assert game is not None
    scores = " · ".join(f"{tbl.name(k)} {v}" for k, v in game.scores.items())
    if winner is None:  # docs/rules.md, "A round that goes in circles"
        return f"🔄 Round {game.round_no} went in circles and is void: nobody scores. Scores: {scores}"
    return (
        f"🏁 Round {game.round_no}: **{tbl.name(winner)}** went out{_points(tbl, points)}. Scores: {scores}"
    )


def _points(tbl: Table, points: int) -> str:
    """``" (+42)"`` for the round's winner, only where they score (standard scoring)."""
    standard = tbl.game is not None and tbl.game.options.effective_scoring is Scoring.STANDARD
    return f" (+{points})" if standard else ""
