"""One table per channel: the lobby, the game, its messages and its log (no Discord here).

A :class:`Table` is plain data plus the engine's :class:`Game`; the service
(``bot/service/``) does the Discord side. :class:`TableRegistry` holds every table and one
``asyncio.Lock`` per table, so two clicks on the same table never race.

>>> t = Table.new(guild_id=1, channel_id=2, host=Seat("10", "Ana"), variant="classic")
>>> t.join(Seat("11", "Ben")); _ = t.add_ai(); [s.name for s in t.seats]
['Ana', 'Ben', 'Bot 1']
>>> _ = t.start(seed=5); t.game is not None and t.state.value
'playing'
"""

from __future__ import annotations

import enum
import random
import secrets
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.engine.ai import AiLevel
from bot.engine.editions import (
    AnyGame,
    check_edition,
    edition_of,
    game_from_dict,
    new_game,
)
from bot.engine.errors import BadOption, NotInGame, UnoError
from bot.engine.events import Event, EventKind
from bot.engine.options import Options
from bot.i18n import N_

LOG_LINES = 8
MAX_SEATS = 10
SNAPSHOT_VERSION = 1


class TableState(enum.StrEnum):
    """Where a table is in its life (saved as its value)."""

    LOBBY = "lobby"
    """Players take seats; the host sets the game up."""
    PLAYING = "playing"
    """The game is dealt and in progress."""
    OVER = "over"
    """Closed, expired or ended: forgotten by the registry and storage."""


class Removal(enum.StrEnum):
    """Why a player was taken out of a game rather than leaving by themselves (saved as its
    value; the table shows it in their row)."""

    TIMEOUTS = "timeouts"
    """Removed by the bot after too many timeouts in a row (docs/rules.md §5.2)."""
    KICKED = "kicked"
    """Removed by the host or a moderator (``/uno kick``, docs/rules.md §5.1)."""


class LobbyError(UnoError):
    """A lobby action that cannot be done (full table, not the host, already seated, ...)."""

    reason = "lobby"
    default_message = "That can't be done in this lobby."


class StaleAction(UnoError):
    """A button from an older state of the table."""

    reason = "stale"
    default_message = "That button is from an earlier moment of the game; here is the table as it is now."


class BadClick(UnoError):
    """A click on a component the bot didn't draw so: a ``custom_id`` it can't read, one naming
    another channel or an unknown verb, or a select's values that aren't among its options (a
    modified client, or a component of an older bot). Nothing is changed.

    Attributes:
        detail: what was wrong, for the log.
    """

    reason = "bad-click"
    default_message = "That button is broken; press Refresh."

    def __init__(self, detail: str, message: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail


class NoTable(UnoError):
    """No lobby or game in this channel."""

    reason = "no-table"
    default_message = "There is no UNO table in this channel. Start one with /uno new."


class Reveal(NamedTuple):
    """A hand shown to other players (a Howler, a challenge, Special Agent Mater), for as long
    as it is unchanged.

    Attributes:
        round_no: the round it was shown in.
        by: the rank of the card that showed it (``Rank`` value: ``"howler"``, ``"wild draw four"``
            for a challenge of it, ``"special agent mater"``).
        hand: the hand's cards (names, sorted) once the move that showed it was made.
    """

    round_no: int
    by: str
    hand: tuple[str, ...]


class Handover(NamedTuple):
    """A seat a computer player took over in the game (docs/rules.md §5.3), so that what was
    done before it is said as done by the player who sat there then (``/uno history``) and the
    player's record counts the game (played, not won).

    Attributes:
        seat: the bot's id, the seat's id in the game from the start (``Game.replaced``).
        player: the id of the player who sat there until then.
        name: that player's name as shown at the table.
        at: how many entries of the game's journal were made before it (their moves).
    """

    seat: str
    player: str
    name: str
    at: int


@dataclass
class Seat:
    """A player at the table.

    Attributes:
        id: the engine's player id: a Discord user id as text, or ``ai:<n>`` for a computer seat.
        name: display name at the time they sat down (a computer seat's names its level unless
            normal: ``"Bot 2 (hard)"``).
        level: a computer seat's level (``ai.AiLevel`` value: ``"easy"``, ``"normal"``,
            ``"hard"``), chosen by the host; ``"normal"`` for people.
    """

    id: str
    name: str
    level: str = "normal"

    @property
    def is_ai(self) -> bool:
        """True for computer seats."""
        return self.id.startswith("ai:")


def level_named(name: str) -> str:
    """The level a bot's name shows (``"Bot 2 (hard)"``: ``"hard"``; :meth:`Table.add_ai`), for a
    bot read back from a game's record (Rematch); ``"normal"`` when it shows none."""
    shown = next((level for level in AiLevel if name.endswith(f" ({level.value})")), AiLevel.NORMAL)
    return shown.value


def bot_seat(n: int, level: str = AiLevel.NORMAL) -> Seat:
    """The computer seat ``ai:<n>`` playing at ``level``, named by its number and any level but
    normal (``"Bot 2 (hard)"``; docs/rules.md §5.4)."""
    shown = "" if level == AiLevel.NORMAL else f" ({level})"
    return Seat(f"ai:{n}", f"Bot {n}{shown}", str(AiLevel(level)))


@dataclass
class Table:
    """A lobby or game in one channel.

    Attributes:
        guild_id, channel_id: where it is.
        host: the player who opened it (may change options, kick, end).
        state: lobby, playing or over.
        variant: the edition's variant id.
        options: the engine options the game will use.
        turn_seconds: the turn timer (0 = off), in seconds.
        seats: players in seat order.
        game: the engine game once started.
        game_id: unique id of this game (results are recorded under it).
        message_id: the public lobby/table message.
        log: the last events as short lines for the table message.
        timeouts: consecutive timeouts per player (3 remove them; docs/rules.md §5.2).
        removed: why each player taken out of the game was (a player who left by themselves
            has no entry).
        reveals: the hands shown to others still as they were shown, by player
            (:meth:`track_reveals`).
        lobby_version: bumped by every lobby change (stale-button checks before the game).
        base_version: this table's own start for the versions its buttons carry, drawn at random,
            so a button from an earlier table in the channel is stale here too.
        recorded_rounds: rounds already recorded in storage (never twice).
        pinged, ping_message_id: the player mentioned for the turn in progress ("" once it is over),
            and the last ping message.
        touched: time of the last change (seconds, ``time.time()``), for lobby expiry.
        rematch_host: in a rematch's lobby opened by another player, the previous game's host,
            who becomes the host again on joining ("" otherwise).
        language: the language of the table's public messages and log (a key of
            ``bot.i18n.LANGUAGES``): the channel's setting, else the server's, when it opened.
        parent_id, pointer_id: a table in a thread of its own: the channel the thread belongs to,
            and the one-line message there that points to it (edited with the result).
        handovers: the seats computer players took over in the game, in order
            (:meth:`hand_to_bot`).
        markdown: whether names are said for Discord's Markdown (escaped, a message) or as typed
            (a text file: ``/uno history``'s); not saved.
    """

    guild_id: int
    channel_id: int
    host: Seat
    variant: str = "classic"
    options: Options = field(default_factory=Options)
    turn_seconds: int = 90
    state: TableState = TableState.LOBBY
    seats: list[Seat] = field(default_factory=list)
    game: AnyGame | None = None
    game_id: str = field(default_factory=lambda: secrets.token_hex(8))
    message_id: int | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    timeouts: dict[str, int] = field(default_factory=dict)
    removed: dict[str, Removal] = field(default_factory=dict)
    reveals: dict[str, Reveal] = field(default_factory=dict)
    lobby_version: int = 0
    # Buttons carry at most 9 digits (`clicks.ADDRESS`): room for 2**29 + a long game's moves.
    base_version: int = field(default_factory=lambda: random.randrange(1, 1 << 29))
    touched: float = field(default_factory=time.time)
    recorded_rounds: int = 0
    pinged: str = ""
    ping_message_id: int | None = None
    rematch_host: str = ""
    language: str = "en"
    parent_id: int | None = None
    pointer_id: int | None = None
    handovers: list[Handover] = field(default_factory=list)
    markdown: bool = field(default=True, compare=False)

    @classmethod
    def new(
        cls,
        *,
        guild_id: int,
        channel_id: int,
        host: Seat,
        variant: str = "classic",
        options: Options | None = None,
        turn_seconds: int = 90,
    ) -> Table:
        """A new lobby with the host seated."""
        table = cls(guild_id, channel_id, host, variant, options or Options(), turn_seconds)
        table.seats.append(host)
        return table

    # ---------------------------------------------------------------- lobby

    @property
    def version(self) -> int:
        """The state version carried by buttons: the game's (or the lobby's before it) after
        ``base_version``."""
        return self.base_version + (self.game.version if self.game else self.lobby_version)

    @property
    def host_now(self) -> Seat:
        """Who may kick and end: the host, or once the host has left the game (or is out of it),
        the first human still playing, so a game never lacks one."""
        if self.game is None or self.in_game(self.host.id):
            return self.host
        playing = [s for s in self.seats if not s.is_ai and self.in_game(s.id)]
        return playing[0] if playing else self.host

    def in_game(self, player_id: str) -> bool:
        """Whether the player is still playing the game: dealt in, and neither left nor out."""
        game = self.game
        return game is not None and player_id in game.hands and player_id not in game.out

    @property
    def left(self) -> list[str]:
        """The players who left the game in progress, by themselves or removed, in seat order,
        then those whose seats bots took over, in order (docs/rules.md §5.1, §5.3): each played
        it, and wins none of it from then on, whoever plays on for their team."""
        game = self.game
        if game is None:
            return []
        gone = [p for p in game.players if game.out.get(p) == "left"]
        return gone + [h.player for h in self.handovers]

    def seat(self, player_id: str) -> Seat | None:
        """The seat of a player id, if seated."""
        return next((s for s in self.seats if s.id == player_id), None)

    def name(self, player_id: str | None) -> str:
        """Display name of a player id or team key (``"a+b"``)."""
        if player_id is None:
            return "nobody"
        if "+" in player_id and self.seat(player_id) is None:
            return " & ".join(self.name(p) for p in player_id.split("+"))
        seat = self.seat(player_id)
        return seat.name if seat else "someone who left"

    def _changed(self) -> None:
        self.lobby_version += 1
        self.touched = time.time()

    def _need_lobby(self) -> None:
        if self.state is not TableState.LOBBY:
            raise LobbyError("The game has already started.")

    def join(self, seat: Seat) -> None:
        """Sit down. Raises LobbyError: started, already seated, or full."""
        self._need_lobby()
        if self.seat(seat.id):
            raise LobbyError("You are already at this table.")
        if len(self.seats) >= MAX_SEATS:
            raise LobbyError.of(N_("The table is full ({seats} players)."), seats=MAX_SEATS)
        self.seats.append(seat)
        if seat.id == self.rematch_host:  # the previous game's host hosts its rematch again
            self.host, self.rematch_host = seat, ""
        self._changed()

    def add_ai(self, level: str = AiLevel.NORMAL) -> Seat:
        """Add a computer seat playing at ``level`` (``ai.AiLevel``; docs/rules.md §5.4).

        Raises:
            LobbyError: started, full, or an unknown level.
        """
        self._need_lobby()
        if len(self.seats) >= MAX_SEATS:
            raise LobbyError.of(N_("The table is full ({seats} players)."), seats=MAX_SEATS)
        if level not in AiLevel.__members__.values():
            raise LobbyError.of(N_("Bots play at easy, normal or hard."))
        seat = bot_seat(self._next_bot(), level)
        self.seats.append(seat)
        self._changed()
        return seat

    def _next_bot(self) -> int:
        """The number of the next computer seat: one more than any seated."""
        return 1 + max((int(s.id[3:]) for s in self.seats if s.is_ai), default=0)

    def remove_ai(self) -> Seat:
        """Remove the last-added computer seat. Raises LobbyError: started, or no computer seat."""
        self._need_lobby()
        seat = next((s for s in reversed(self.seats) if s.is_ai), None)
        if seat is None:
            raise LobbyError("There is no bot at this table to remove.")
        self.seats.remove(seat)
        self._changed()
        return seat

    def leave_lobby(self, player_id: str) -> None:
        """Stand up before the start; the host's leaving hands the lobby to the next human.

        Raises:
            LobbyError: not seated, or the game has started (use :meth:`leave_game`).
        """
        self._need_lobby()
        seat = self.seat(player_id)
        if seat is None:
            raise LobbyError("You aren't at this table.")
        self.seats.remove(seat)
        if seat.id == self.host.id:
            humans = [s for s in self.seats if not s.is_ai]
            if humans:
                self.host = humans[0]
        self._changed()

    def configure(
        self,
        *,
        variant: str | None = None,
        options: Options | None = None,
        turn_seconds: int | None = None,
    ) -> None:
        """Change the lobby's options (host only; checked by the caller); nothing changes on error.

        Raises:
            LobbyError: the game has started.
            BadOption: an edition that isn't one of ``VARIANTS``; options that can't go together
                (see :func:`check_options`).
        """
        self._need_lobby()
        if options is not None:
            check_options(options)
        if variant is not None:
            check_edition(variant)  # a forged select value must not break the lobby
            self.variant = variant
        if options is not None:
            self.options = options
        if turn_seconds is not None:
            self.turn_seconds = turn_seconds
        self._changed()

    def humans(self) -> list[Seat]:
        """Human seats still in the game (or lobby)."""
        out = self.game.out if self.game else {}
        return [s for s in self.seats if not s.is_ai and s.id not in out]

    def start(self, seed: int | None = None) -> list[Event]:
        """Deal the first round.

        Raises:
            LobbyError: started already, or fewer than two seats.
            BadOption: options that don't fit the seats (e.g. partners with 3 players).
        """
        self._need_lobby()
        if len(self.seats) < 2:
            raise LobbyError("At least two players are needed: invite someone or add a bot.")
        game = new_game(self.variant, [s.id for s in self.seats], self.options, seed)
        events: list[Event] = list(game.start_round())
        self.game = game
        self.state = TableState.PLAYING
        self.touched = time.time()
        return events

    def leave_game(self, player_id: str, removal: Removal | None = None) -> list[Event]:
        """A player leaves a game in progress (docs/rules.md §5.1), by themselves or, with
        ``removal``, taken out for that reason (kept in :attr:`removed`). Raises NotInGame."""
        if self.game is None:
            raise NotInGame()
        events = self.game.apply_text(player_id, "leave")
        if removal is not None:
            self.removed[player_id] = removal
        return events

    def hand_to_bot(self, player_id: str) -> Seat:
        """A computer player takes over a player's seat in the game in progress, with its hand,
        score and turn (docs/rules.md §5.3, in DOS §14.13 too): the seat is renamed for the whole
        game (``Game.replaced``, ``DosGame.replaced``), its journal included, so the game's record
        replays, and the handover is noted (:attr:`handovers`: who sat there until which journal
        entry). Returns the bot's seat, which takes the player's place in :attr:`seats`.

        Raises:
            NotInGame: no game, or the player isn't in it (any more: a player who left or was
                removed gave their hand back to the draw pile, docs/rules.md §5.1).
            BadState: the game has no journal (saved before journals were kept).
        """
        old = self.seat(player_id)
        if self.game is None or old is None or not self.in_game(player_id):
            raise NotInGame()
        n = self._next_bot()
        bot = Seat(f"ai:{n}", f"Bot {n} (for {old.name})")
        moves = len(self.game.journal or ())
        self.game = self.game.replaced(player_id, bot.id)
        self.handovers.append(Handover(bot.id, player_id, old.name, moves))
        self.seats[self.seats.index(old)] = bot
        self.timeouts.pop(player_id, None)
        if player_id in self.reveals:
            self.reveals[bot.id] = self.reveals.pop(player_id)
        if self.pinged == player_id:
            self.pinged = ""  # the bot needs no ping
        return bot

    def track_reveals(self, events: Sequence[Event]) -> None:
        """Keep :attr:`reveals` after a move and its ``events``: a hand shown by them is noted as
        it is now; one that changed since it was shown (or in an earlier round) is dropped, so
        other players see a shown hand only while it still is what they were shown."""
        game = self.game
        if game is None or not edition_of(game).shows_hands:  # DOS shows none
            return
        for event in events:
            shown_player = event.player
            if (
                event.kind is EventKind.HAND_REVEALED
                and shown_player is not None
                and shown_player in game.hands
            ):
                self.reveals[shown_player] = Reveal(
                    game.round_no, event.data["by"], _held(game, shown_player)
                )
        for player, shown in list(self.reveals.items()):
            if shown.round_no != game.round_no or shown.hand != _held(game, player):
                del self.reveals[player]

    # ---------------------------------------------------------------- snapshot

    def to_snapshot(self) -> dict[str, Any]:
        """JSON-safe form of the whole table (storage); :meth:`from_snapshot` restores it."""
        return {
            "snapshot": SNAPSHOT_VERSION,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host": [self.host.id, self.host.name],
            "variant": self.variant,
            "options": self.options.to_dict(),
            "turn_seconds": self.turn_seconds,
            "state": self.state,
            "seats": [
                [s.id, s.name] if s.level == AiLevel.NORMAL else [s.id, s.name, s.level] for s in self.seats
            ],
            "game": self.game.to_dict() if self.game else None,
            "game_id": self.game_id,
            "message_id": self.message_id,
            "log": list(self.log),
            "timeouts": dict(self.timeouts),
            "removed": dict(self.removed),
            "reveals": {p: [r.round_no, r.by, list(r.hand)] for p, r in self.reveals.items()},
            "lobby_version": self.lobby_version,
            "base_version": self.base_version,
            "touched": self.touched,
            "recorded_rounds": self.recorded_rounds,
            "pinged": self.pinged,
            "ping_message_id": self.ping_message_id,
            "rematch_host": self.rematch_host,
            "language": self.language,
            "parent_id": self.parent_id,
            "pointer_id": self.pointer_id,
            "handovers": [list(h) for h in self.handovers],
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Table:
        """Restore a table saved by :meth:`to_snapshot`.

        Raises:
            BadOption: a snapshot of an unknown version or shape.
        """
        try:
            if data.get("snapshot") != SNAPSHOT_VERSION:
                raise BadOption(f"unknown table snapshot version {data.get('snapshot')!r}")
            table = cls(
                guild_id=int(data["guild_id"]),
                channel_id=int(data["channel_id"]),
                host=Seat(*data["host"]),
                variant=data["variant"],
                options=Options.parse(data["options"]),
                turn_seconds=int(data["turn_seconds"]),
                state=TableState(data["state"]),
                seats=[Seat(s[0], s[1], *(AiLevel(v).value for v in s[2:3])) for s in data["seats"]],
                game=game_from_dict(data["game"]) if data["game"] else None,
                game_id=data["game_id"],
                message_id=data["message_id"],
                lobby_version=int(data["lobby_version"]),
                base_version=int(data.get("base_version", 0)),
                touched=float(data["touched"]),
                recorded_rounds=int(data.get("recorded_rounds", 0)),
                pinged=str(data.get("pinged", "")),
                ping_message_id=data.get("ping_message_id"),
                rematch_host=str(data.get("rematch_host", "")),
                language=str(data.get("language", "en")),  # English before there were others
                parent_id=data.get("parent_id"),
                pointer_id=data.get("pointer_id"),
                removed={k: Removal(v) for k, v in data.get("removed", {}).items()},  # none before
                reveals={
                    p: Reveal(int(n), str(by), tuple(hand))
                    for p, (n, by, hand) in data.get("reveals", {}).items()
                },
                handovers=[  # none before handovers were kept
                    Handover(str(seat), str(player), str(name), int(at))
                    for seat, player, name, at in data.get("handovers", [])
                ],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise BadOption(f"table snapshot is malformed: {exc!r}") from None
        table.log.extend(data.get("log", []))
        table.timeouts = {k: int(v) for k, v in data.get("timeouts", {}).items()}
        return table


def _held(game: AnyGame, player: str) -> tuple[str, ...]:
    """A player's hand as card names, sorted (what :class:`Reveal` compares)."""
    return tuple(sorted(card.name for card in game.hands.get(player, ())))


def check_options(options: Options) -> Options:
    """Refuse options no table could start with, whoever sits down (the engine refuses them at the
    start: ``Options.validate``); the player count partners need is checked at the start.
    Returns ``options``.

    Raises:
        BadOption: partners with elimination; single-round scoring with elimination (which plays
            rounds until one player is left, scored as a running tally: docs/rules.md §3.3, ruling 40).
    """
    try:
        return options.validate()
    except BadOption as exc:
        raise BadOption.of(N_("{why_msg} Nothing was changed."), why_msg=exc.message) from None


def options_from(defaults: dict[str, Any]) -> Options:
    """Engine options from a channel-settings dict (keys of ``Options``; extra keys ignored).

    Raises:
        BadOption: a bad value, or options that can't go together (:func:`check_options`).
    """
    keys = {"target_score", "scoring", "partners", "elimination", "house_rules", "customizable_rule"}
    return check_options(Options.parse({k: v for k, v in defaults.items() if k in keys}))


__all__ = [
    "BadClick",
    "Handover",
    "LobbyError",
    "NoTable",
    "Removal",
    "Reveal",
    "Seat",
    "StaleAction",
    "Table",
    "TableState",
    "check_options",
    "options_from",
]
