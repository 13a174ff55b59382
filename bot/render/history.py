"""Past games (``/uno history``): the channel's list, a game's rounds, and the whole game as text.

A stored game of any edition is played again through the engine from its replay
(``GameResult.replay``, by ``editions.replay_moves``), and each deal and action is written with the
table's own log lines (:func:`bot.render.log_lines`), so the file reads as the table's log did, with
every player's hand at each deal (and in DOS the Center Row after each deal and turn). Names are
the seats' names as shown when the game was played, in the reader's language (a bot's), each
:func:`~bot.render.names.plain` in a message and as typed in the file (a text file shows no
Markdown, and pings nobody); a seat a bot took over is named by who sat there at each move
(docs/rules.md §5.3).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.dos.game import DosEventKind
from bot.engine.editions import replay_moves
from bot.engine.events import EventKind
from bot.i18n import Tr
from bot.render import log_lines, renderer
from bot.render.layout import panel, rows, small
from bot.render.names import as_label, named, plain, scores_text, seat_name, sentence, trim
from bot.render.options import edition_name, scoring_text
from bot.render.table import round_summary, standings_text
from bot.render.words import count
from bot.storage import GameRecord, GameResult
from bot.tables import Handover, Seat, Table, TableState

__all__ = [
    "FILE_LIMIT",
    "Replayed",
    "game_file_name",
    "history_list",
    "history_options",
    "replayed",
    "summary",
]

FILE_LIMIT = 8 * 1024 * 1024
"""The most bytes a game's text file holds: under Discord's 10 MiB for a bot's upload."""
LISTED = 10
"""Games ``/uno history`` lists (a select holds 25 options)."""


@dataclass(frozen=True)
class Replayed:
    """A stored game played again.

    Attributes:
        table: the game at its end, seated with the names shown when it was played.
        rounds: one summary line per finished round (the table's own round summary).
        text: the whole game as text, UTF-8 at most :data:`FILE_LIMIT` bytes.
    """

    table: Table
    rounds: list[str]
    text: str


def _when(finished_at: float) -> str:
    """``"2026-12-01 18:40 UTC"``: a date a select label or a file can show."""
    return datetime.datetime.fromtimestamp(finished_at, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _edition(variant: str, tr: Tr) -> str:
    return edition_name(variant, tr)


def _names(result: GameResult, tr: Tr, *, mention: bool) -> dict[str, str]:
    """Each player's name: as shown then where the replay kept it, a bot's in ``tr``'s language
    (:func:`seat_name`; :func:`plain` in a message, ``mention``; :func:`as_label` in a select's
    option); else a bot's label, a forgotten player's, or a mention (in a message: Discord shows
    the member's name) or "a player"."""
    if result.replay is not None:
        shown = plain if mention else as_label
        replay = result.replay
        return {p: shown(seat_name(n, tr)) for p, n in zip(replay["players"], replay["names"], strict=True)}
    return {p: _unnamed(p, tr, mention=mention) for p in result.players}


def _unnamed(player: str, tr: Tr, *, mention: bool) -> str:
    """A player of a game recorded without names (before replays were kept)."""
    if player.startswith("ai:"):
        return f"Bot {player[3:]}"
    if player.startswith("forgotten:"):
        return tr._("a former player")
    return f"<@{player}>" if mention else tr._("a player")


def _key_name(names: dict[str, str], key: str, tr: Tr) -> str:
    return " & ".join(names.get(m, tr._("someone")) for m in key.split("+"))


def _line(record: GameRecord, tr: Tr, *, mention: bool) -> tuple[str, list[str], str]:
    """A listed game's edition, players' names and outcome (winner and rounds)."""
    result = record.result
    names = _names(result, tr, mention=mention)
    won = " & ".join(_key_name(names, w, tr) for w in result.winners)
    outcome = tr._("won by {winners}").format(winners=won) if won else tr._("no winner")
    return (
        _edition(result.variant, tr),
        [names[p] for p in result.players],
        f"{outcome}, {count(result.rounds, 'round', tr)}",
    )


def _listed(names: list[str], room: int) -> str:
    """``names`` joined by commas in at most ``room`` characters: those that fit whole, then
    "…" (a name is never cut in the middle, so a bot's stays closed).

    >>> _listed(["Ana", "Bot 2 (for Maximilian-Alex…)"], 20), _listed(["Ana", "Ben"], 20)
    ('Ana, …', 'Ana, Ben')
    """
    text = ", ".join(names)
    if len(text) <= room:
        return text
    shown: list[str] = []
    for name in names:
        if len(", ".join([*shown, name, "…"])) > room:
            break
        shown.append(name)
    return ", ".join([*shown, "…"])


def history_list(
    records: Sequence[GameRecord],
    tr: Tr,
    select: discord.ui.Item[Any] | None = None,
    *,
    here: int | None = None,
) -> discord.ui.LayoutView:
    """The channel's last games, newest first: edition, date, the thread it was played in (a
    game recorded elsewhere than ``here``, the channel asked about), players, winner and rounds
    (Components V2), with ``select`` (a game to choose) below them."""
    lines = []
    for i, record in enumerate(records, 1):
        edition, players, outcome = _line(record, tr, mention=True)
        when = discord.utils.format_dt(datetime.datetime.fromtimestamp(record.finished_at, datetime.UTC), "f")
        channel = record.result.channel_id
        where = f" · <#{channel}>" if here is not None and channel != here else ""
        lines.append(trim(f"**{i}.** {edition} · {when}{where}\n{', '.join(players)} · {outcome}", 400))
    texts = ["\n".join(lines) or tr._("No game has been recorded in this channel yet.")]
    if records:
        texts.append(
            small(tr._("Choose one below: its rounds, and for its players the whole game as a file."))
        )
    return panel(tr._("Last games in this channel"), texts, rows([select] if select is not None else []))


def history_options(
    records: Sequence[GameRecord], tr: Tr, *, here: int | None = None
) -> list[discord.SelectOption]:
    """One select option per listed game, its value the game's id; a game recorded elsewhere
    than ``here`` (in a thread of its own) is marked so, as the list names its thread."""
    options = []
    for i, record in enumerate(records, 1):
        edition, players, outcome = _line(record, tr, mention=False)
        where = (
            " · 🧵 " + tr._("in a thread") if here is not None and record.result.channel_id != here else ""
        )
        options.append(
            discord.SelectOption(
                label=as_label(f"{i}. {edition} · {_when(record.finished_at)}{where}", 100),
                value=record.result.game_id,
                description=as_label(f"{outcome} · {_listed(players, 97 - len(outcome))}", 100),
            )
        )
    return options


def replayed(record: GameRecord, tr: Tr) -> Replayed:
    """Play a stored game again, writing each deal (every hand dealt) and each action's log lines
    in ``tr``'s language (the reader's).

    Raises:
        ValueError: the game has no replay.
        BadState, BadOption: its replay is malformed.
        UnoError: the engine refused one of its actions (the replay is not consistent).
    """
    result, replay = record.result, record.result.replay
    if replay is None:
        raise ValueError(f"game {result.game_id} has no replay")
    players = list(replay["players"])
    final = {p: str(n) for p, n in zip(players, replay["names"], strict=True)}
    handovers = [
        Handover(str(h["seat"]), str(h["player"]), str(h["name"]), int(h["at"]))
        for h in replay.get("handovers", ())  # none in games recorded before they were kept
    ]
    first: dict[str, str] = {}  # a seat a bot took over is named by its player until then
    for handover in handovers:
        first.setdefault(handover.seat, handover.name)
    seats = [Seat(p, first.get(p, final[p])) for p in players]
    pending = sorted(handovers, key=lambda h: h.at)
    game, moves = replay_moves(replay)
    draw = renderer(game)
    table = Table(
        result.guild_id,
        result.channel_id,
        seats[0],
        variant=str(replay["variant"]),
        options=game.options,
        state=TableState.PLAYING,
        seats=seats,
        game=game,
        game_id=result.game_id,
        markdown=False,  # the file's text: names as typed
    )
    lines = [
        tr._("Game {id}: {edition}, ended {when}").format(
            id=result.game_id, edition=edition_name(table.variant, tr), when=_when(record.finished_at)
        ),
        tr._("Scoring: {scoring}").format(scoring=scoring_text(game.options, tr)),
        tr._("Seats: {seats}").format(
            seats=", ".join(f"{i}. {named(table, p, tr)}" for i, p in enumerate(players, 1))
        ),
    ]
    rounds: list[str] = []
    holds = tr._("  {name} holds {cards}")
    for at, (player, events) in enumerate(moves):
        lines += _taken_over(table, pending, at, final, tr)
        if player is None:
            lines.append("")
            lines += log_lines(table, events, tr)
            lines += draw.row(game, tr)
            lines += [
                holds.format(name=named(table, p, tr), cards=draw.held(game, p, tr)) for p in game.seated
            ]
            continue
        lines += log_lines(table, events, tr)
        turn_ended = any(e.kind is DosEventKind.TURN_ENDED for e in events)
        if turn_ended and not game.round_over:
            lines += draw.row(game, tr)  # the row after the turn's discards, refill and bonus cards
        if any(e.kind in (EventKind.ROUND_OVER, DosEventKind.ROUND_OVER) for e in events):
            table.markdown = True  # the summary is a Discord message
            rounds.append(round_summary(table, game.round_winner, game.round_points, tr))
            table.markdown = False
    lines += _taken_over(table, pending, None, final, tr)
    lines.append("")
    lines += _final(table, tr)
    table.markdown = True  # the table is then shown in Discord messages (:func:`summary`)
    return Replayed(table, rounds, _fitted(lines, tr))


def _taken_over(
    table: Table, pending: list[Handover], at: int | None, final: dict[str, str], tr: Tr
) -> list[str]:
    """The seats bots took over before the journal's entry ``at`` (None: any still ``pending``,
    after the last), taken from ``pending`` (in order): each seat renamed to who sits there from
    then on (the next player who handed it over, or the seat's name at the end, ``final``), and
    the lines that say so."""
    lines = []
    while pending and (at is None or pending[0].at <= at):
        handover = pending.pop(0)
        seat = table.seat(handover.seat)
        if seat is None:  # a replay that names no such seat: nothing to rename
            continue
        name = named(table, seat.id, tr)
        seat.name = next((h.name for h in pending if h.seat == seat.id), final[seat.id])
        said = tr._("{bot} takes over {name}'s seat.").format(bot=named(table, seat.id, tr), name=name)
        lines.append("🤖 " + sentence(said))
    return lines


def _final(table: Table, tr: Tr) -> list[str]:
    """The game's end: its standings, or the scores where it ended before a winner."""
    game = table.game
    assert game is not None
    if not game.game_over:
        scores = scores_text(table, game, tr)
        return [tr._("The game ended before anyone won. Scores: {scores}").format(scores=scores)]
    title, lines = standings_text(table, tr)
    return [title, *lines]


def _fitted(lines: list[str], tr: Tr) -> str:
    """The lines as one text of at most :data:`FILE_LIMIT` bytes (a longer game is cut, saying so)."""
    text = "\n".join(lines) + "\n"
    if len(text.encode()) <= FILE_LIMIT:
        return text
    note = "\n" + tr._("… the rest of this game is too long for one file.") + "\n"
    cut = text.encode()[: FILE_LIMIT - len(note.encode())].decode(errors="ignore")
    return cut[: cut.rfind("\n")] + note


def summary(record: GameRecord, game: Replayed | None, tr: Tr, note: str = "") -> discord.ui.LayoutView:
    """A game's private summary (Components V2): each round's winner and points, and how it
    ended (``game``: its replay; None for a game recorded without one, summed up from its result
    alone), then ``note`` (why no file comes with it) in small text."""
    result = record.result
    title = f"{_edition(result.variant, tr)} · {_when(record.finished_at)}"
    if game is None:
        _, players, outcome = _line(record, tr, mention=True)
        text = f"{', '.join(players)}\n{outcome.capitalize()}.\n" + tr._(
            "This game was recorded before replays were kept."
        )
    else:
        text = "\n".join([*game.rounds, "", *_final(game.table, tr)])
    return panel(title, [text], [discord.ui.TextDisplay(small(note))] if note else [])


def game_file_name(record: GameRecord) -> str:
    """The text file's name: ``uno-<date>-<game id>.txt``."""
    day = datetime.datetime.fromtimestamp(record.finished_at, datetime.UTC).strftime("%Y%m%d")
    return f"uno-{day}-{record.result.game_id}.txt"
