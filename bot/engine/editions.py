"""Every edition a table can play: UNO's (``VARIANTS``, played by ``Game``) and DOS (``DosGame``,
docs/rules.md §14), behind one name list and one way to make, restore and act in either game.

Each edition is an :class:`Edition` of :data:`REGISTRY`: callers ask it (:func:`edition`,
:func:`edition_of`) what they would otherwise tell by the game's class or the edition's id. The
lobby, ``/uno settings`` and ``/uno rules`` offer :data:`EDITIONS` (ids and names); everything that
needs a game of a table's edition asks :func:`new_game` or :func:`game_from_dict`; an action
named by its text form ("leave", "timeout", a component's) is the game's own ``apply_text``.

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
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.engine import ai
from bot.engine.actions import Action
from bot.engine.cards import Face, Side
from bot.engine.dos import ai as dos_ai
from bot.engine.dos.actions import DosAction
from bot.engine.dos.cards import DECK as DOS_DECK
from bot.engine.dos.cards import DosCard
from bot.engine.dos.game import DEFAULT_TARGET, VARIANT_ID, DosGame
from bot.engine.dos.scenarios import DosScenario
from bot.engine.errors import BadOption
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.options import Options
from bot.engine.scenarios import Scenario
from bot.engine.variants import VARIANTS

AnyGame = Game | DosGame
"""A table's game: UNO's aggregate or DOS's."""
AnyAction = Action | DosAction
"""An action of either."""
AnyFace = Face | DosCard
"""A card face of either: what the card art draws and the card emojis name."""


@dataclasses.dataclass(frozen=True)
class Edition:
    """One edition a table can play, and what its callers ask of it instead of testing the
    game's class or the edition's id.

    Attributes:
        id: the edition's id (a ``variant`` of the saves, the scenarios and the settings).
        name: its name for players (the commands' choices).
        family: ``"uno"`` (any of UNO's editions, ``Game``) or ``"dos"`` (``DosGame``): the rules
            the edition plays, and what the render layer picks its renderer by.
        game_class: the aggregate that plays it (``Game`` or ``DosGame``).
        action: the aggregate's action type (``Action`` or ``DosAction``); ``action.parse``
            reads an action's text form.
        face: the type of its cards' faces (``Face`` or ``DosCard``), which the card art draws.
        choose: the computer player's decision (``ai.choose``'s signature: game, player, rng,
            level, budget=, playouts=).
        catches: the catches a computer player makes now (game, player, level).
        scenario: reads a rule scenario of the edition (path, data); ``.run()`` runs it.
        shows_hands: whether a card effect can show a hand to other players (UNO's Howlers,
            Sevens...; DOS shows none).
        house_rules: whether the host may pick house rules (DOS plays none: docs/rules.md §14.12).
        default_target: the target score a host who chose none plays to (UNO 500, DOS 200).
        faces: every distinct face of its deck with the side it is played on, in deck order (an
            UNO edition's light side first; DOS's cards are their own faces, on the light side).
    """

    id: str
    name: str
    family: str
    game_class: type[Game] | type[DosGame]
    action: type[Action] | type[DosAction]
    face: type[Face] | type[DosCard]
    choose: Callable[..., AnyAction]
    catches: Callable[[Any, str, str], Sequence[AnyAction]]
    scenario: Callable[[Path, dict[str, Any]], Scenario | DosScenario]
    shows_hands: bool
    house_rules: bool
    default_target: int
    faces: tuple[tuple[AnyFace, Side], ...]


def _dos_catches(game: DosGame, player: str, level: str) -> list[DosAction]:
    ai.AiLevel(level)  # DOS's bots make every catch at every level; an unknown level is refused
    return dos_ai.catches(game, player)


def _dos_choose(game: DosGame, player: str, rng: random.Random, level: str, **search: Any) -> DosAction:
    return dos_ai.choose(game, player, rng, ai.AiLevel(level).value, **search)


_UNO = {
    "family": "uno",
    "game_class": Game,
    "action": Action,
    "face": Face,
    "choose": ai.choose_uno,
    "catches": ai.catches,
    "scenario": Scenario.from_data,
    "shows_hands": True,
    "house_rules": True,
    "default_target": Options().target_score,
}

REGISTRY: dict[str, Edition] = {
    **{
        v.id: Edition(
            id=v.id,
            name=v.name,
            faces=tuple(
                dict.fromkeys([*((f, Side.LIGHT) for f in v.light), *((f, Side.DARK) for f in v.dark)])
            ),
            **_UNO,  # type: ignore[arg-type]
        )
        for v in VARIANTS.values()
    },
    VARIANT_ID: Edition(
        id=VARIANT_ID,
        name="DOS",
        family="dos",
        game_class=DosGame,
        action=DosAction,
        face=DosCard,
        choose=_dos_choose,
        catches=_dos_catches,
        scenario=DosScenario.from_data,
        shows_hands=False,
        house_rules=False,
        default_target=DEFAULT_TARGET,
        faces=tuple(dict.fromkeys((card, Side.LIGHT) for card in DOS_DECK)),
    ),
}
"""Every edition a table can play, by id, in the order the commands offer them."""

EDITIONS: dict[str, str] = {e.id: e.name for e in REGISTRY.values()}
"""Every edition's id and name for players, in the order the commands offer them."""


def edition(edition_id: str) -> Edition:
    """The edition of id ``edition_id``.

    Raises:
        BadOption: there is none (a forged select value, a stale setting).
    """
    try:
        return REGISTRY[edition_id]
    except (KeyError, TypeError):
        raise BadOption(f"Unknown edition {str(edition_id)[:40]!r}.") from None


def edition_of(game: AnyGame) -> Edition:
    """The edition ``game`` plays."""
    return REGISTRY[game.variant_id]


def check_edition(edition_id: str) -> str:
    """``edition_id`` if it is one of :data:`EDITIONS`.

    Raises:
        BadOption: it isn't (a forged select value, a stale setting).
    """
    return edition(edition_id).id


def new_game(edition_id: str, players: Sequence[str], options: Options, seed: int | None = None) -> AnyGame:
    """Seat ``players`` at a new game of ``edition_id`` (no round dealt yet).

    Its options are :func:`game_options`'s.

    Raises:
        BadOption: an unknown edition, or options or seats the game refuses.
    """
    e = edition(edition_id)
    return e.game_class(players, variant=e.id, options=game_options(e.id, options), seed=seed)


def game_options(edition_id: str, options: Options) -> Options:
    """The options a game of ``edition_id`` plays with: the edition's default target (DOS's is
    200, docs/rules.md §14.3) where the host left UNO's default (500, which nobody chose for
    DOS); any other stands."""
    target = REGISTRY[edition_id].default_target if edition_id in REGISTRY else options.target_score
    if options.target_score == Options().target_score != target:
        return dataclasses.replace(options, target_score=target)
    return options


def _saved_class(data: Mapping[str, Any]) -> type[Game] | type[DosGame]:
    """The aggregate that restores the save ``data`` (UNO's for an unknown variant, which it
    refuses)."""
    saved = REGISTRY.get(str(data.get("variant")))
    return Game if saved is None else saved.game_class


def game_from_dict(data: Mapping[str, Any]) -> AnyGame:
    """Restore a game saved by its ``to_dict`` (either aggregate, by its ``variant``).

    Raises:
        BadState: a malformed or inconsistent save.
    """
    return _saved_class(data).from_dict(data)


def replay_game(data: Mapping[str, Any]) -> AnyGame:
    """A recorded game (``GameResult.replay``) played again by its journal (either aggregate).

    Raises:
        BadState: no journal, or a malformed replay. UnoError: a journal action was refused.
    """
    return _saved_class(data).replay(data)


def replay_moves(data: Mapping[str, Any]) -> tuple[AnyGame, Iterator[tuple[str | None, list[Event]]]]:
    """A recorded game (``GameResult.replay``) to play again move by move (either aggregate):
    the game as seated, before its first deal, and an iterator that applies each journal entry
    to it in turn and yields the entry's player (None for a deal) and the events it caused. At
    its end the game is :func:`replay_game`'s.

    Raises:
        BadState: no journal, or a malformed replay (at once). UnoError: a journal action was
            refused (from the iterator, at that action).
    """
    game, entries = _saved_class(data).unplayed(data)

    def moves() -> Iterator[tuple[str | None, list[Event]]]:
        for player, text in entries:
            if player is None:
                yield None, list(game.start_round())
            else:
                yield player, list(game.apply_text(player, text))

    return game, moves()


def parse_action(game: AnyGame, text: str) -> AnyAction:
    """An action's text form (a component's) read as ``game``'s kind of action.

    Raises:
        BadAction: the text reads as no action.
    """
    return edition_of(game).action.parse(text)


def catches(game: AnyGame, player: str, level: ai.AiLevel | str = ai.AiLevel.NORMAL) -> list[AnyAction]:
    """The catches a computer player at ``level`` makes now (``ai.catches``; DOS's every one).

    Raises:
        ValueError: an unknown level.
    """
    return list(edition_of(game).catches(game, player, level))


def choose(
    game: AnyGame,
    player: str,
    rng: random.Random,
    level: ai.AiLevel | str = ai.AiLevel.NORMAL,
    *,
    budget: float | None = ai.HARD_BUDGET,
    playouts: int | None = None,
) -> AnyAction:
    """The computer player's action at ``level`` for its pending decision, by the game's
    edition's player (``ai.choose``'s arguments; a hard bot searches here, on this thread: the
    bot searches in a worker instead, :func:`hard_move`).

    Raises:
        ValueError: ``player`` has nothing to decide, or an unknown level.
    """
    return edition_of(game).choose(game, player, rng, level, budget=budget, playouts=playouts)


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
    return choose(game, player, random.Random(seed), ai.AiLevel.HARD, budget=budget).text()
