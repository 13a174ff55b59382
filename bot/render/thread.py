"""A game in a thread of its own: the thread's name, and the one-line pointer left in the parent
channel (the thread's starter message), edited with the result when the game ends."""

from __future__ import annotations

from bot.engine.options import Scoring
from bot.i18n import Tr
from bot.render.names import headcount, named, plain
from bot.render.options import edition_name
from bot.render.words import count
from bot.tables import Table

THREAD_NAME_MAX = 100  # Discord's limit for a thread's name


def thread_name(host: str, variant: str, tr: Tr) -> str:
    """The thread's name in ``tr``'s language: ``"UNO · alice's game"`` (the edition's name
    unless classic), at most 100 characters. ``host`` is the host's display name as typed (Markdown means nothing in a
    thread's name)."""
    edition = "" if variant == "classic" else f" ({edition_name(variant, tr)})"
    return ("UNO · " + tr._("{host}'s game").format(host=host[:60]) + edition)[:THREAD_NAME_MAX]


def pointer_open(host: str, variant: str, tr: Tr) -> str:
    """The pointer while the lobby or game is open, in ``tr``'s language: who opened it and where
    to join (the thread Discord shows under this message)."""
    return "🧵 " + tr._("**{host}** opened a game of {edition}: join in the thread below.").format(
        host=plain(host), edition=edition_name(variant, tr)
    )


def pointer_over(table: Table, tr: Tr, why: str = "") -> str:
    """The pointer once the table is over, one line in ``tr``'s language (the table's): the
    winners and the scores, best first; a game that ended with no winner (``why``, English marked
    ``N_``, e.g. its thread was archived); a lobby closed before it started."""
    edition = "🧵 " + tr._("{name}:").format(name=edition_name(table.variant, tr)) + " "
    game = table.game
    if game is None:
        return edition + tr._("the lobby closed before the game started.")
    if not game.winners:
        if why:
            return edition + tr._("the game ended with no winner ({why}).").format(why=tr._(why).rstrip("."))
        return edition + tr._("the game ended with no winner.")
    winners = " & ".join(named(table, w, tr) for w in game.winners)
    rounds = count(game.round_no, "round", tr)
    n = headcount(table, game.winners)  # the verb agrees with them all (a team: two)
    if game.options.effective_scoring is Scoring.SINGLE_ROUND:  # no points (docs/rules.md §2.3)
        said = tr.ngettext("🏆 **{winners}** won, {rounds}.", "🏆 **{winners}** won, {rounds}.", n)
        return edition + said.format(winners=winners, rounds=rounds)
    scores = sorted(game.scores.items(), key=lambda kv: kv[0] not in game.winners)
    shown = " · ".join(f"{named(table, k, tr)} {v}" for k, v in scores[:6])
    said = tr.ngettext(
        "🏆 **{winners}** won, {rounds} ({scores}).", "🏆 **{winners}** won, {rounds} ({scores}).", n
    )
    return edition + said.format(winners=winners, rounds=rounds, scores=shown)
