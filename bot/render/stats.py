"""``/uno stats`` beyond the counts: a player's recent results as short lines, and their points
over time as a small chart (a PNG drawn with matplotlib's Agg backend, no display needed).

`chart` is slow (tens of milliseconds, and matplotlib's import on the first call): the bot calls
it off the event loop (``asyncio.to_thread``). It builds its own `Figure` (no pyplot and its
global state), so calls in several threads at once don't share anything.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from itertools import accumulate

from bot.i18n import Tr
from bot.render.options import edition_name
from bot.render.words import count
from bot.storage import PlayerGame

CHART_FILE = "uno-stats.png"
RECENT_LINES = 5  # results listed in the text; the chart shows every game it was given
_BACKGROUND, _TEXT, _GRID = "#2b2d31", "#dbdee1", "#3f4147"
_WON, _LOST, _UNDECIDED, _LINE = "#23a55a", "#f23f43", "#80848e", "#5865f2"


def recent_lines(games: Sequence[PlayerGame], tr: Tr, limit: int = RECENT_LINES) -> list[str]:
    """The last ``limit`` results, newest first, one short line each (readable on a phone) in
    ``tr``'s language:
    ``"✅ Won · UNO Flip · +120 · <t:1700000000:R>"`` (Discord shows the time as "2 days ago")."""
    lines = []
    for game in reversed(games[-limit:]):
        if not game.decided:
            mark = "⏹️ " + tr._("No winner")
        else:
            mark = "✅ " + tr._("Won") if game.won else "▫️ " + tr._("Lost")
        edition = edition_name(game.variant, tr)
        lines.append(f"{mark} · {edition} · +{game.points} · <t:{int(game.finished_at)}:R>")
    return lines


def caption(name: str, games: Sequence[PlayerGame], tr: Tr) -> str:
    """The chart's title in ``tr``'s language: the games won of those decided, as the record
    above it counts them (a game with no winner is neither won nor lost, and counted apart):
    ``"alice · last 1 game: 1 won · 1 game with no winner"`` for a game won and one ended with
    no winner. ``name`` is cut to 40 characters.
    """
    decided = [g for g in games if g.decided]
    undecided = len(games) - len(decided)
    parts = [name[:40]]
    if decided:
        won = sum(g.won for g in decided)
        parts[0] = tr._("{name} · last {games}: {won} won").format(
            name=name[:40], games=count(len(decided), "game", tr), won=won
        )
    if undecided:
        parts.append(tr.n("{n} game with no winner", "{n} games with no winner", undecided))
    return " · ".join(parts)


def chart(games: Sequence[PlayerGame], title: str, tr: Tr) -> bytes:
    """A PNG (600 x 260 pixels) of the points scored over ``games`` (oldest first): the running
    total as a line, each game a dot (green: won, red: lost, grey: no winner), ``title`` above, the axes named in
    ``tr``'s language. Draws nothing shared: safe to call from several threads.

    Raises:
        ValueError: no games (there is nothing to draw).
    """
    if not games:
        raise ValueError("no games to chart")
    # Imported here, in the worker thread of its first call: matplotlib takes a second or more
    # to import, which the bot's start (and every /uno command until then) need not wait for.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(6, 2.6), dpi=100, facecolor=_BACKGROUND)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(facecolor=_BACKGROUND)
    xs = list(range(1, len(games) + 1))
    total = list(accumulate(g.points for g in games))
    axes.plot(xs, total, color=_LINE, linewidth=2, zorder=1)
    axes.scatter(xs, total, c=[_dot(g) for g in games], s=36, zorder=2, edgecolors=_BACKGROUND)
    axes.set_title(title, color=_TEXT, fontsize=11, loc="left")
    axes.set_xlabel(tr._("games, oldest to newest"), color=_TEXT, fontsize=9)
    axes.set_ylabel(tr._("points, running total"), color=_TEXT, fontsize=9)
    axes.tick_params(colors=_TEXT, labelsize=8)
    axes.grid(color=_GRID, linewidth=0.6)
    axes.set_xlim(0.5, len(games) + 0.5)
    axes.set_ylim(bottom=0, top=max(1, total[-1]) * 1.12)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))  # whole games only
    for side in axes.spines.values():
        side.set_color(_GRID)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", facecolor=_BACKGROUND)
    return out.getvalue()


__all__ = ["CHART_FILE", "caption", "chart", "recent_lines"]


def _dot(game: PlayerGame) -> str:
    """A game's dot color in the chart."""
    if not game.decided:
        return _UNDECIDED
    return _WON if game.won else _LOST
