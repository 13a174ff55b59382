"""Every edition a table can play: UNO's (``VARIANTS``, played by ``Game``) and DOS (``DosGame``,
docs/rules.md §14), behind one name list and one way to make, restore and act in either game.

The lobby, ``/uno settings`` and ``/uno rules`` offer :data:`EDITIONS`; everything that needs a
game of a table's edition asks :func:`new_game`, :func:`game_from_dict` or :func:`leave_action`.

>>> list(EDITIONS)[-1], EDITIONS["dos"]
('dos', 'DOS')
>>> type(new_game("dos", ["ana", "ben"], Options(), seed=1)).__name__
'DosGame'
>>> new_game("dos", ["ana", "ben"], Options(), seed=1).options.target_score
200
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.engine import ai
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Face
from bot.engine.dos import ai as dos_ai
from bot.engine.dos.actions import DosAction, DosActionKind
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DEFAULT_TARGET, VARIANT_ID, DosEvent, DosGame
from bot.engine.errors import BadOption, BadState
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.variants import VARIANTS

AnyGame = Game | DosGame
"""A table's game: UNO's aggregate or DOS's."""
AnyAction = Action | DosAction
"""An action of either."""
AnyEvent = Event | DosEvent
"""An event of either."""
AnyFace = Face | DosCard
"""A card face of either: what the card art draws and the card emojis name."""

EDITIONS: dict[str, str] = {**{v.id: v.name for v in VARIANTS.values()}, VARIANT_ID: "DOS"}
"""Every edition's id and name for players, in the order the commands offer them."""


def check_edition(edition: str) -> str:
    """``edition`` if it is one of :data:`EDITIONS`.

    Raises:
        BadOption: it isn't (a forged select value, a stale setting).
    """
    if edition not in EDITIONS:
        raise BadOption(f"Unknown edition {edition[:40]!r}.")
    return edition


def new_game(edition: str, players: Sequence[str], options: Options, seed: int | None = None) -> AnyGame:
    """Seat ``players`` at a new game of ``edition`` (no round dealt yet).

    Its options are :func:`game_options`'s.

    Raises:
        BadOption: an unknown edition, or options or seats the game refuses.
    """
    options = game_options(edition, options)
    if check_edition(edition) == VARIANT_ID:
        return DosGame(players, options=options, seed=seed)
    return Game(players, variant=edition, options=options, seed=seed)


def game_options(edition: str, options: Options) -> Options:
    """The options a game of ``edition`` plays with: DOS's target is 200 (docs/rules.md §14.3)
    where the host left UNO's default (500, which nobody chose for DOS); any other stands."""
    if edition == VARIANT_ID and options.target_score == Options().target_score:
        return dataclasses.replace(options, target_score=DEFAULT_TARGET)
    return options


def game_from_dict(data: Mapping[str, Any]) -> AnyGame:
    """Restore a game saved by its ``to_dict`` (either aggregate, by its ``variant``).

    Raises:
        BadState: a malformed or inconsistent save.
    """
    if data.get("variant") == VARIANT_ID:
        return DosGame.from_dict(data)
    return Game.from_dict(data)


def replay_game(data: Mapping[str, Any]) -> AnyGame:
    """A recorded game (``GameResult.replay``) played again by its journal (either aggregate).

    Raises:
        BadState: no journal, or a malformed replay. UnoError: a journal action was refused.
    """
    if data.get("variant") == VARIANT_ID:
        return DosGame.replay(data)
    return Game.replay(data)


def replay_moves(data: Mapping[str, Any]) -> tuple[AnyGame, Iterator[tuple[str | None, list[AnyEvent]]]]:
    """A recorded game (``GameResult.replay``) to play again move by move (either aggregate):
    the game as seated, before its first deal, and an iterator that applies each journal entry
    to it in turn and yields the entry's player (None for a deal) and the events it caused. At
    its end the game is :func:`replay_game`'s.

    Raises:
        BadState: no journal, or a malformed replay (at once). UnoError: a journal action was
            refused (from the iterator, at that action).
    """
    try:
        journal, players = data["journal"], list(data["players"])
        if journal is None:
            raise BadState("The saved game has no journal.")
        options, seed = Options.parse(data["options"]), int(data["seed"])
        game: AnyGame
        if data.get("variant") == VARIANT_ID:  # DOS journals name the player, UNO's the seat
            game = DosGame(players, options=options, seed=seed)
            entries = [(player, str(text)) for player, text in journal]
        else:
            game = Game(players, variant=data["variant"], options=options, seed=seed)
            entries = [(None if seat is None else players[seat], str(text)) for seat, text in journal]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise BadState(f"Saved game is malformed: {exc!r}.") from None

    def moves() -> Iterator[tuple[str | None, list[AnyEvent]]]:
        for player, text in entries:
            if player is None:
                yield None, list(game.start_round())
            elif isinstance(game, DosGame):
                yield player, list(game.apply(player, DosAction.parse(text)))
            else:
                yield player, list(game.apply(player, Action.parse(text)))

    return game, moves()


def leave_action(game: AnyGame) -> AnyAction:
    """The action of leaving ``game``."""
    return DosAction(DosActionKind.LEAVE) if isinstance(game, DosGame) else Action(ActionKind.LEAVE)


def timeout_action(game: AnyGame) -> AnyAction:
    """The action of running out of time in ``game``."""
    return DosAction(DosActionKind.TIMEOUT) if isinstance(game, DosGame) else Action(ActionKind.TIMEOUT)


def parse_action(game: AnyGame, text: str) -> AnyAction:
    """An action's text form (a component's) read as ``game``'s kind of action.

    Raises:
        BadAction: the text reads as no action.
    """
    return DosAction.parse(text) if isinstance(game, DosGame) else Action.parse(text)


def catches(game: AnyGame, player: str, level: ai.AiLevel | str = ai.AiLevel.NORMAL) -> list[AnyAction]:
    """The catches a computer player at ``level`` makes now (``ai.catches``; DOS's every one).

    Raises:
        ValueError: an unknown level.
    """
    if isinstance(game, DosGame):
        ai.AiLevel(level)
        return list(dos_ai.catches(game, player))
    return list(ai.catches(game, player, level))


def choose(
    game: AnyGame, player: str, rng: random.Random, level: ai.AiLevel | str = ai.AiLevel.NORMAL
) -> AnyAction:
    """The computer player's action at ``level`` for its pending decision (``ai.choose``, which
    sends a DOS game to DOS's own player; a hard bot searches here, on this thread: the bot
    searches in a worker instead, :func:`hard_move`).

    Raises:
        ValueError: ``player`` has nothing to decide, or an unknown level.
    """
    if isinstance(game, DosGame):
        return ai.choose(game, player, rng, level)
    return ai.choose(game, player, rng, level)


def hard_move(snapshot: dict[str, Any], player: str, seed: float, budget: float) -> str:
    """The hard AI's decision for ``player`` in the game saved as ``snapshot`` (either
    aggregate's ``to_dict``), as the action's text: what a worker process runs for the bot (a
    snapshot and a text cross processes cheaply).

    Args:
        seed: the search's random generator seed.
        budget: seconds of search (wall clock).

    Raises:
        ValueError: ``player`` has nothing to decide. BadState: a malformed snapshot.
    """
    game = game_from_dict(snapshot)
    return ai.choose(game, player, random.Random(seed), ai.AiLevel.HARD, budget=budget).text()
