"""A round's points, whether the game is over, and what follows a round: one rule for every
edition (UNO's ``Game`` and DOS's ``DosGame``), from docs/rules.md §1.1, §2, §3.2, §3.3 and
§14.10-14.11.

Teams are keys as the games use them (a player's id, or ``"a+b"`` for partners).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeVar

from bot.engine.options import Options, Scoring


class Scored(Protocol):
    """What :func:`close_round` needs of a game (UNO's ``Game``, DOS's ``DosGame``)."""

    options: Options
    scores: dict[str, int]
    out: dict[str, str]
    round_winner: str | None
    round_points: int

    @property
    def seated(self) -> list[str]: ...

    def team_of(self, player: str) -> str: ...

    def hand_value(self, player: str) -> int: ...

    def emit(self, kind: Any, player: str | None, **data: Any) -> Any: ...

    def _finish_game(self, winners: list[str]) -> None: ...


def close_round(game: Scored, winner: str, round_over: Any, eliminated: Any) -> None:
    """``winner``'s team won the round: score it (:func:`score_round`), emit ``round_over``
    (the game's event kind), take out the teams eliminated (each with an ``eliminated`` event)
    and finish the game if it is over (:func:`game_end`)."""
    key = game.team_of(winner)
    game.round_winner = key
    seated = game.seated
    scoring = game.options.effective_scoring
    points = score_round(game.scores, key, [(game.team_of(p), game.hand_value(p)) for p in seated], scoring)
    game.round_points = points
    game.emit(round_over, None, winner=key, points=points, scores=dict(game.scores))
    live = list(dict.fromkeys(game.team_of(p) for p in seated))
    out, winners = game_end(
        game.scores,
        key,
        live,
        scoring,
        elimination=game.options.elimination,
        target=game.options.target_score,
    )
    for k in out:
        game.out[k] = "eliminated"
        game.emit(eliminated, k, score=game.scores[k])
    if winners:
        game._finish_game(winners)


def score_round(
    scores: dict[str, int], winner: str, hands: Iterable[tuple[str, int]], scoring: Scoring
) -> int:
    """Add a round's points to ``scores`` (team key -> points) and return the winner's.

    ``hands`` holds each seated player's ``(team key, hand value)``. Standard scoring gives the
    winner the others' hand values; a running tally gives each team its own (lowest wins); a single
    round scores nothing.

    >>> scores = {"a": 0, "b": 0}
    >>> score_round(scores, "a", [("a", 0), ("b", 25)], Scoring.STANDARD), scores
    (25, {'a': 25, 'b': 0})
    >>> score_round(scores, "a", [("a", 0), ("b", 25)], Scoring.RUNNING_TALLY), scores
    (0, {'a': 25, 'b': 25})
    """
    points = 0
    if scoring is Scoring.STANDARD:
        points = sum(value for team, value in hands if team != winner)
        scores[winner] += points
    elif scoring is Scoring.RUNNING_TALLY:
        for team, value in hands:
            scores[team] += value
    return points


def game_end(
    scores: dict[str, int], winner: str, live: list[str], scoring: Scoring, *, elimination: bool, target: int
) -> tuple[list[str], list[str]]:
    """After a round is scored: ``(eliminated, winners)``, the teams of ``live`` (those still in
    the game, in seat order) that reach ``target`` under elimination, and the game's winners
    (empty while it goes on). Elimination is scored as a running tally (docs/rules.md §3.3).

    >>> game_end({"a": 510, "b": 90}, "a", ["a", "b"], Scoring.STANDARD, elimination=False, target=500)
    ([], ['a'])
    >>> game_end({"a": 510, "b": 90, "c": 200}, "b", ["a", "b", "c"], Scoring.RUNNING_TALLY,
    ...          elimination=True, target=500)
    (['a'], [])
    """
    if scoring is Scoring.SINGLE_ROUND:
        return [], [winner]
    if scoring is Scoring.STANDARD:
        return [], [winner] if scores[winner] >= target else []
    if elimination:
        reached = [k for k in live if scores[k] >= target]
        left = [k for k in live if k not in reached]
        if len(left) == 1:
            return reached, left
        if not left:  # everyone reached it at once: the lowest score wins
            low = min(scores[k] for k in reached)
            return reached, [k for k in reached if scores[k] == low]
        return reached, []
    if any(scores[k] >= target for k in live):
        low = min(scores[k] for k in live)
        return [], [k for k in live if scores[k] == low]
    return [], []


_Event = TypeVar("_Event", covariant=True)


class Dealt(Protocol[_Event]):
    """What :func:`next_round` needs of a game (UNO's ``Game``, DOS's ``DosGame``; ``_Event``: its
    event type)."""

    @property
    def round_over(self) -> bool: ...

    @property
    def game_over(self) -> bool: ...

    def start_round(self) -> Sequence[_Event]: ...


def next_round(game: Dealt[_Event]) -> Sequence[_Event]:
    """What follows a finished round (docs/rules.md §1.1, §14.10): the next round's deal
    (``game.start_round()``, the deal passing to the left), unless the game is over.

    Returns:
        The deal's events; [] while the round goes on, or once the game is over (nothing changed).
    """
    if not game.round_over or game.game_over:
        return []
    return game.start_round()
