"""A game in a thread of its own: the thread's name, and the one-line pointer left in the parent
channel (the thread's starter message), edited with the result when the game ends."""

from __future__ import annotations

from bot.engine.options import Scoring
from bot.engine.variants import VARIANTS
from bot.render.words import named, plain
from bot.tables import Table

THREAD_NAME_MAX = 100  # Discord's limit for a thread's name


def thread_name(host: str, variant: str) -> str:
    """The thread's name: ``"UNO · alice's game"`` (the edition's name unless classic), at most
    100 characters. ``host`` is the host's display name as typed (Markdown means nothing in a
    thread's name)."""
    edition = "" if variant == "classic" else f" ({VARIANTS[variant].name})"
    return f"UNO · {host[:60]}'s game{edition}"[:THREAD_NAME_MAX]


def pointer_open(host: str, variant: str) -> str:
    """The pointer while the lobby or game is open: who opened it and where to join (the thread
    Discord shows under this message)."""
    return f"🧵 **{plain(host)}** opened a game of {VARIANTS[variant].name}: join in the thread below."


def pointer_over(table: Table, why: str = "") -> str:
    """The pointer once the table is over, one line: the winners and the scores, best first; a
    game that ended with no winner (``why``, e.g. its thread was archived); a lobby closed before
    it started."""
    edition = VARIANTS[table.variant].name
    game = table.game
    if game is None:
        return f"🧵 {edition}: the lobby closed before the game started."
    if not game.winners:
        reason = f" ({why.rstrip('.')})" if why else ""
        return f"🧵 {edition}: the game ended with no winner{reason}."
    winners = " & ".join(named(table, w) for w in game.winners)
    rounds = f", {game.round_no} round{'s' if game.round_no != 1 else ''}"
    if game.options.effective_scoring is Scoring.SINGLE_ROUND:  # no points (docs/rules.md §2.3)
        return f"🧵 {edition}: 🏆 **{winners}** won{rounds}."
    scores = sorted(game.scores.items(), key=lambda kv: kv[0] not in game.winners)
    shown = " · ".join(f"{named(table, k)} {v}" for k, v in scores[:6])
    return f"🧵 {edition}: 🏆 **{winners}** won{rounds} ({shown})."
