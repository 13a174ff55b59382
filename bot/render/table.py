"""The public table message, the standings and the summaries between rounds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

import discord

from bot.client.clicks import Click, Scope, Verb
from bot.client.components import UnoButton, view_of
from bot.engine import effects
from bot.engine.cards import Rank, Side
from bot.engine.dos.game import DosGame
from bot.engine.editions import AnyGame
from bot.engine.game import Game
from bot.engine.options import PendingKind, Scoring
from bot.i18n import Tr
from bot.render.faces import (
    EMBED_COLOR,
    EMOJI,
    NEUTRAL,
    RANK_NAMES,
    TEXT_ONLY,
    Faces,
    as_text_to_fit,
    color_name,
    face_label,
    face_order,
    face_short,
    face_text,
    fitted,
    longest_first,
    with_card_emojis,
)
from bot.render.layout import MAX_TEXT, Item, block, heading, message, my_hand, panel, picture, rows, small
from bot.render.names import headcount, named, out_text, players_title, scores_text, team_tag, trim
from bot.render.options import edition_name, scoring_text
from bot.render.words import PENDING_TEXT, count, points_text
from bot.tables import Table, TableState

G = TypeVar("G", Game, DosGame)
"""A game of either kind, where a renderer passes it on to its edition's own words."""


def player_line(table: Table, game: AnyGame, player: str, tr: Tr, call: str, forgot: str, *notes: str) -> str:
    """A player's row of the table message, in every edition: ▶ on the player to move, their
    team's letter, 🤖 for a bot, their cards, ``call`` (``"**UNO!**"``) while their call
    stands, ``forgot`` while a catch is open on them, then ``notes``; struck through, with why,
    once they are out."""
    seat = table.seat(player)
    team = team_tag(game, player)  # partners' team letter (docs/rules.md §3.2)
    shown = ("🤖 " if seat and seat.is_ai else "") + named(table, player, tr)
    state = out_text(table, player, tr)
    if state:
        return f"　{team}~~{shown}~~ ({state})"  # indented like the rows without the turn marker
    n = len(game.hands.get(player, ()))
    playing = table.state is TableState.PLAYING and not game.round_over
    marker = "▶ " if playing and game.pending.player == player else "　"
    line = f"{marker}{team}**{shown}** — {count(n, 'card', tr)}"
    if player in game.called and n:  # a call made before going out is spent
        line += " · " + call
    if player in game.catchable:
        line += " · " + forgot
    return "".join([line, *(" · " + note for note in notes)])


def _player_line(table: Table, game: Game, player: str, tr: Tr) -> str:
    protected = [tr._("🛡️ protected")] if game.protected == player else []
    return player_line(table, game, player, tr, "**UNO!**", tr._("forgot UNO"), *protected)


class Texts(NamedTuple):
    """The texts of a table message in every edition (`table_texts`)."""

    title: str
    """``"### Classic · round 2"``."""
    players: str
    """The players' block, a row each."""
    scores: str
    """The scores' block ("" in single-round scoring without elimination)."""
    footer: str
    """The draw and discard piles."""
    last: str
    """The last moves' title ("" without a log)."""


def table_texts(tbl: Table, game: AnyGame, tr: Tr, line: Callable[[str], str]) -> Texts:
    """The texts of a table message in every edition, its players' block of ``line(player)``
    (one's row)."""
    edition = edition_name(tbl.variant, tr)
    title = "### " + tr._("{edition} · round {round}").format(edition=edition, round=game.round_no)
    players = block(players_title(game, tr), trim("\n".join(line(p) for p in game.players)))
    scores = ""
    if game.options.scoring is not Scoring.SINGLE_ROUND or game.options.elimination:
        scoring = tr._("Scores ({scoring})").format(scoring=scoring_text(game.options, tr))
        scores = block(scoring, trim(scores_text(tbl, game, tr)))
    piles = tr._("Draw pile {draw} · discard pile {discard}")
    footer = small(piles.format(draw=len(game.draw_pile), discard=len(game.discard_pile)))
    return Texts(title, players, scores, footer, block(tr._("Last moves"), "") if tbl.log else "")


def table_message(
    tbl: Table, tr: Tr, accent: int, top: Item, texts: list[str], call: Verb, catchable: bool
) -> discord.ui.LayoutView:
    """A table message in every edition: ``top`` (its heading) and ``texts`` in a container of
    ``accent``, and while the game is played My hand, the edition's call (``call``: UNO!, DOS!)
    and Catch (enabled while ``catchable``)."""
    if tbl.state is not TableState.PLAYING:
        return message(accent, [top], texts, [])
    ch = tbl.channel_id
    buttons = rows(
        [
            my_hand(ch, tr),
            UnoButton(
                Click(Scope.TABLE, ch, 0, call),
                label=f"{call.value.upper()}!",
                style=discord.ButtonStyle.danger,
            ),
            UnoButton(
                Click(Scope.TABLE, ch, 0, Verb.CATCH), label=tr._("Catch"), emoji="🚨", disabled=not catchable
            ),
        ]
    )
    return message(accent, [top], texts, list(buttons))


LOG_TEXT = 1024
"""Characters the last moves take at most: the newest few moves, their cards' emojis kept."""
LOG_ROOM = 500
"""Characters of the table message kept for the last moves before the other side of every hand
(`inactive_faces`) takes what the rest leaves of `MAX_TEXT`: about four moves with emojis."""


def inactive_faces(table: Table, game: Game, tr: Tr, faces: Faces = TEXT_ONLY, limit: int = MAX_TEXT) -> str:
    """Every hand's inactive faces, which everyone sees in a two-sided edition (docs/rules.md §7,
    ruling 49), as one titled block (`block`) of at most ``limit`` characters: one line a player,
    each face its emoji (``faces``) or in short (``"alice: 🟧6 🟪skip 🌈wild+color"``), each sorted
    as a hand is. Where the emojis do not all fit, the longest lines are the first said in short;
    where even that does not fit, each line is cut to its share of ``limit`` (a short line lends
    what it does not use) with a count of the faces left out (``"… +7"``), so ten hands of any
    size fit. Empty for one-sided editions and when no hand is left."""
    if not game.variant.two_sided:
        return ""
    other = game.side.other
    rows = [
        (
            tr._("{name}:").format(name=named(table, p, tr)),
            sorted((c.face(other) for c in game.hands[p]), key=face_order),
        )
        for p in game.players
        if game.hands.get(p) and p not in game.out
    ]
    if not rows:
        return ""
    side_name = tr._(game.variant.side_names[0 if other is Side.LIGHT else 1])
    title = tr._("The {side} side of every hand").format(side=side_name)
    room = limit - len(block(title, ""))
    shorts = [(who, [face_short(f, tr) for f in hand]) for who, hand in rows]
    lines = [
        " ".join([who, *(str(e) if (e := faces.for_face(f, other)) else face_short(f, tr) for f in hand)])
        for who, hand in rows
    ]
    lines = as_text_to_fit(
        lines, [" ".join([who, *short]) for who, short in shorts], room, longest_first(lines)
    )
    if len("\n".join(lines)) > room:
        shares = _shares([len(line) for line in lines], room - (len(lines) - 1))
        lines = [
            line if len(line) <= share else _cut(who, short, share)
            for line, share, (who, short) in zip(lines, shares, shorts, strict=True)
        ]
    return block(title, "\n".join(lines))


def room_beside(log: Sequence[str], *taken: str) -> int:
    """The characters a table message (`MAX_TEXT`) leaves beside its texts ``taken`` once
    `LOG_ROOM` of it is kept for the last moves (no more than the ``log`` takes as text, where a
    move is at its shortest): the room of the other side of every hand (UNO) or of the Center
    Row (DOS), which the last moves then follow in what is left."""
    return MAX_TEXT - sum(map(len, taken)) - min(LOG_ROOM, len("\n".join(log)))


def _shares(lengths: list[int], room: int) -> list[int]:
    """Each of ``lengths``' share of ``room`` characters: an equal share, and what a shorter one
    leaves of its share split among the longer (max-min fair)."""
    shares = list(lengths)
    left = room
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    for k, n in enumerate(order):
        shares[n] = min(lengths[n], left // (len(order) - k))
        left -= shares[n]
    return shares


def _cut(who: str, faces: list[str], limit: int) -> str:
    """``who`` and as many ``faces`` as fit in ``limit`` characters, with "… +N" for the rest."""
    line = " ".join([who, *faces])
    if len(line) <= limit:
        return line
    shown = who
    for n, face in enumerate(faces):
        more = f" … +{len(faces) - n}"
        if len(shown) + 1 + len(face) + len(f" … +{len(faces) - n - 1}") > limit:
            return trim(shown + more, max(limit, 1))
        shown += " " + face
    return shown  # not reached: the whole line would have fit


def pending_text(table: Table, game: G, tr: Tr, decision: Callable[[G, Tr], str]) -> str:
    """ "Waiting for Ana to name the color" (``decision(game, tr)``: the decision awaited, as
    ``"to …"``; UNO's `decision_text`), or why nothing is awaited, in every edition."""
    p = game.pending
    if game.game_over:
        return tr._("The game is over.")
    if table.state is TableState.OVER:  # closed by /uno end, or ended for want of players
        return tr._("The game has ended.")
    if game.round_over or p.player is None:
        return tr._("The round is over.")
    return tr._("Waiting for **{name}** {decision}.").format(
        name=named(table, p.player, tr), decision=decision(game, tr)
    )


def stake_text(game: Game, tr: Tr) -> str:
    """What accepting the pending penalty or challenge costs its player: ``"take 4 cards"`` (the
    stacked total, docs/rules.md §4.1), ``"draw until pink comes"`` (Wild Draw Color, §7.9), or
    ``"lose the turn"`` (a Skip or Reverse, answerable in Harry Potter, §9)."""
    p = game.pending
    if p.rank is Rank.WILD_DRAW_COLOR and game.color is not None:
        return tr._("draw until {color} comes").format(color=color_name(game.color, tr))
    if p.total:
        return tr.n("take {n} card", "take {n} cards", p.total)
    return tr._("lose the turn")


def decision_text(game: Game, tr: Tr) -> str:
    """The decision the game waits for, as ``"to …"`` (each language's ``tr._("to ")`` first, which
    a hand's "Your move" drops): a penalty's or challenge's cost and the
    answers open to it (``"to take 4 cards or stack a Draw Two"``), else ``PENDING_TEXT``."""
    p = game.pending
    if p.kind not in (PendingKind.PENALTY, PendingKind.CHALLENGE) or p.rank is None:
        return tr._(PENDING_TEXT[p.kind])
    answers = [tr._("challenge")] if p.kind is PendingKind.CHALLENGE else []
    if p.kind is PendingKind.PENALTY and effects.stackable(game, p.rank):
        answers.append(tr._("stack a {card}").format(card=tr._(RANK_NAMES[p.rank]).title()))
    if effects.cancellable(game, p.rank):
        answers.append(tr._("answer with Invisibility"))
    return (
        tr._("to ") + stake_text(game, tr) + "".join(tr._(" or {answer}").format(answer=a) for a in answers)
    )


def table(tbl: Table, tr: Tr, faces: Faces = TEXT_ONLY) -> discord.ui.LayoutView:
    """The one public table message (Components V2) in ``tr``'s language (the table's,
    ``Table.language``): top card (its picture beside it where ``faces`` has its emoji,
    `bot.client.emojis.CardEmojis`), color, side, direction, turn, players, scores, log, each card with
    its emoji where ``faces`` has it, else as text; My hand, UNO! and Catch while the game is
    played."""
    game = tbl.game
    assert isinstance(game, Game)  # a DOS table: bot/render/dos.py
    variant = game.variant
    top = game.top
    color = game.color
    title, players, scores, footer, last = table_texts(
        tbl, game, tr, lambda p: _player_line(tbl, game, p, tr)
    )
    lines = [title, tr._("Top card: **{card}**").format(card=face_text(top, game.side, tr, faces))]
    if top.color is None and color is not None:
        lines[1] += tr._(" → color **{color}**").format(color=f"{EMOJI[color]} {color_name(color, tr)}")
    if variant.two_sided:
        side_name = tr._(variant.side_names[0 if game.side is Side.LIGHT else 1])
        lines.append(tr._("Side: **{side}**").format(side=side_name))
        if game.draw_pile:
            shows = face_text(game.draw_pile[-1].face(game.side.other), game.side.other, tr, faces)
            lines.append(tr._("Draw pile shows: {card}").format(card=shows))
    lines.append(tr._("Direction: ⟳ left") if game.direction == 1 else tr._("Direction: ⟲ right"))
    lines.append(pending_text(tbl, game, tr, decision_text))
    accent = EMBED_COLOR.get(color, NEUTRAL) if color else NEUTRAL
    room = room_beside(tbl.log, "\n".join(lines), players, scores, footer, last)
    texts = [players, inactive_faces(tbl, game, tr, faces, room), scores]
    if tbl.log:  # the newest moves, in what room is left (the oldest go first)
        room = MAX_TEXT - len("\n".join(lines)) - sum(map(len, texts)) - len(footer) - len(last)
        texts.append(last + _last_moves(tbl.log, game.side, tr, faces, min(LOG_TEXT, room)))
    texts.append(footer)
    top_item = heading("\n".join(lines), picture(top, game.side, faces), face_label(top, tr))
    return table_message(tbl, tr, accent, top_item, texts, Verb.UNO, bool(game.catchable))


def _last_moves(log: Sequence[str], side: Side, tr: Tr, faces: Faces, limit: int) -> str:
    """The log's newest lines in ``limit`` characters (`fitted`: the oldest shown as text first),
    the oldest left out first: as many as fit with the newest one's emojis, else as text."""
    lines = list(log)
    newest = with_card_emojis(lines[-1], side, tr, faces) if lines else ""
    start = 0  # as text, a line is at its shortest
    while start < len(lines) - 1 and len("\n".join(lines[start:])) > limit:
        start += 1
    for first in range(start, len(lines)):
        shown = fitted(lines[first:], side, tr, faces, max(limit, 1))
        if shown.endswith(newest):
            return shown
    return fitted(lines[start:], side, tr, faces, max(limit, 1))


MEDALS = ("🥇", "🥈", "🥉")
"""The first three places' marks in the standings (a number from the fourth)."""


def standings_text(tbl: Table, tr: Tr) -> tuple[str, list[str]]:
    """The finished game's title (``"🏆 alice won!"``) and one line a player or partnership, best
    first (``"🥇 **alice** — 512 points"``; in single-round scoring, docs/rules.md §2.3, the
    cards each was left holding; players tied share a place, a bot is marked 🤖), in ``tr``'s
    language: short lines, no columns, so that a phone 390 px wide shows each one whole."""
    game = tbl.game
    assert game is not None
    if game.options.effective_scoring is Scoring.SINGLE_ROUND:
        # No points (docs/rules.md §2.3): the others rank by the cards they were left holding
        # (a score key is a player, or partners "a+b" holding their hands together).
        def left(key: str) -> tuple[int, str]:
            hands = [game.hands[m] for m in key.split("+") if m in game.hands]
            if key in game.winners:  # the verb agrees with a team (French "ont fini")
                n = headcount(tbl, [key])
                if any(not h for h in hands):
                    return 0, tr.ngettext("went out", "went out", n)
                return 0, tr.ngettext("won", "won", n)
            if not hands:
                return 10_000, tr._("left the game")
            n = sum(map(len, hands))
            return n, tr.n("{n} card left", "{n} cards left", n)

        rank = {p: (p not in game.winners, left(p)[0]) for p in game.scores}
        results = {p: left(p)[1] for p in game.scores}
    else:
        low_wins = game.options.effective_scoring is Scoring.RUNNING_TALLY
        rank = {k: (k not in game.winners, v if low_wins else -v) for k, v in game.scores.items()}
        results = {k: count(v, "point", tr) for k, v in game.scores.items()}
    lines = []
    for key in sorted(rank, key=rank.__getitem__):
        place = sum(other < rank[key] for other in rank.values())  # tied players share a place
        seat = tbl.seat(key)
        who = ("🤖 " if seat and seat.is_ai else "") + named(tbl, key, tr)
        medal = MEDALS[place] if place < len(MEDALS) else f"{place + 1}."
        who = f"**{who}**" if tbl.markdown else who  # a text file shows no Markdown
        lines.append(f"{medal} {team_tag(game, key, markdown=tbl.markdown)}{who} — {results[key]}")
    if not game.winners:
        said = tr._("the game ended with no winner.")
        return said[:1].upper() + said[1:], lines
    winners = " & ".join(named(tbl, w, tr) for w in game.winners)
    title = tr.ngettext("🏆 {winners} won!", "🏆 {winners} won!", headcount(tbl, game.winners))
    return title.format(winners=winners), lines


def standings(tbl: Table, tr: Tr) -> discord.ui.LayoutView:
    """The finished game's standings (Components V2, in ``tr``'s language): in the edition's
    accent (the lobby's), the winners as the heading, one line a player best first
    (`standings_text`), the edition and rounds in small text, and the Rematch button."""
    game = tbl.game
    assert game is not None
    title, lines = standings_text(tbl, tr)
    rounds = count(game.round_no, "round", tr)
    texts = ["\n".join(lines), small(f"{edition_name(tbl.variant, tr)} · {rounds}")]
    return panel(title, texts, rows([_rematch_button(tbl, tr)]))


def _rematch_button(tbl: Table, tr: Tr) -> UnoButton:
    return UnoButton(
        Click(Scope.REMATCH, tbl.channel_id, 0, Verb.REMATCH, f"{tbl.game_id}.{tbl.host.id}"),
        label=tr._("Rematch"),
        emoji="🔁",
        style=discord.ButtonStyle.primary,
    )


def rematch(tbl: Table, tr: Tr) -> discord.ui.View:
    """The finished game's Rematch button alone (under the notice of a game that ended for want
    of players; the standings carry their own): it carries the game's id (its edition, options
    and seats are read back from its record) and its host's, so it works days later and after
    restarts."""
    return view_of(_rematch_button(tbl, tr))


def round_summary(tbl: Table, winner: str | None, points: int, tr: Tr) -> str:
    """A short public line between rounds, in ``tr``'s language."""
    game = tbl.game
    assert game is not None
    scores = scores_text(tbl, game, tr)
    if winner is None:  # docs/rules.md ruling 46
        return tr._("🔄 Round {round} went in circles and is void: nobody scores. Scores: {scores}").format(
            round=game.round_no, scores=scores
        )
    said = tr.ngettext(  # a team wins the round (one of them went out), the verb agreeing
        "🏁 Round {round}: **{winner}** went out{points}. Scores: {scores}",
        "🏁 Round {round}: **{winner}** win the round{points}. Scores: {scores}",
        headcount(tbl, [winner]),
    )
    return said.format(
        round=game.round_no, winner=named(tbl, winner, tr), points=points_text(tbl, points), scores=scores
    )
