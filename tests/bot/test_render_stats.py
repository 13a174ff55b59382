"""``/uno stats``' recent results and chart (bot/render/stats.py)."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from bot.i18n import ENGLISH_TR as EN
from bot.i18n import translator
from bot.render.stats import caption, chart, recent_lines
from bot.storage import PlayerGame

GAMES = [
    PlayerGame(1_700_000_000.0 + i * 3600, "flip" if i % 2 else "classic", i % 3 == 0, 40 * i)
    for i in range(8)
]


def test_recent_lines_newest_first_and_short() -> None:
    """The last five games, newest first, one short line each with a Discord relative time."""
    lines = recent_lines(GAMES, EN)
    assert len(lines) == 5
    assert lines[0] == "▫️ Lost · UNO Flip · +280 · <t:1700025200:R>"
    assert lines[1] == "✅ Won · UNO · +240 · <t:1700021600:R>"
    assert all(len(line) <= 48 for line in lines)


@pytest.mark.slow
def test_chart_is_a_small_png_and_threads_draw_apart() -> None:
    """A 600 x 260 PNG whose dots are green for wins and red for losses; drawn in several
    threads at once, each picture is the same as drawn alone (no shared pyplot state)."""
    alone = chart(GAMES, "alice · last 8 games: 3 won", EN)
    picture = Image.open(io.BytesIO(alone)).convert("RGB")
    assert picture.size == (600, 260)
    colors = {picture.getpixel((x, y)) for x in range(600) for y in range(260)}
    assert (0x23, 0xA5, 0x5A) in colors and (0xF2, 0x3F, 0x43) in colors  # won and lost dots
    with ThreadPoolExecutor(4) as pool:
        drawn = list(pool.map(lambda _: chart(GAMES, "alice · last 8 games: 3 won", EN), range(8)))
    assert all(d == alone for d in drawn)


def test_chart_needs_games() -> None:
    """No game: nothing to draw."""
    with pytest.raises(ValueError):
        chart([], "nobody", EN)


def test_a_game_with_no_winner_is_neither_won_nor_lost() -> None:
    """A game ended with no winner reads "No winner" and is a grey dot, not a red one."""
    ended = [PlayerGame(1_700_000_000.0, "classic", False, 30, decided=False)]
    assert recent_lines(ended, EN) == ["⏹️ No winner · UNO · +30 · <t:1700000000:R>"]
    picture = Image.open(io.BytesIO(chart(ended, "alice", EN))).convert("RGB")
    colors = {picture.getpixel((x, y)) for x in range(600) for y in range(260)}
    assert (0x80, 0x84, 0x8E) in colors and (0xF2, 0x3F, 0x43) not in colors


def test_the_chart_s_title_counts_games_as_the_record_does() -> None:
    """A game with no winner counts in no one's games played: the chart's title counts it
    apart, not among the games won or lost (a won game and an ended one: 1 won of 1, not of 2)."""
    games = [
        PlayerGame(1_700_000_000.0, "classic", True, 40),
        PlayerGame(1_700_003_600.0, "classic", False, 0, decided=False),
    ]
    assert caption("alice", games, EN) == "alice · last 1 game: 1 won · 1 game with no winner"
    assert (
        caption("alice", games, translator("fr"))
        == "alice · victoires : 1 sur 1 partie · 1 partie sans gagnant"
    )
    assert caption("alice", games[1:], EN) == "alice · 1 game with no winner"
    assert caption("alice", GAMES, EN) == "alice · last 8 games: 3 won"
