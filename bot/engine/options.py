"""Game options chosen by the host (docs/rules.md §2-§4), and the decisions the engine waits on.

>>> opts = Options.parse({"target_score": 200, "house_rules": ["stacking"]})
>>> opts.target_score, sorted(r.value for r in opts.house_rules)
(200, ['stacking'])
>>> Options.parse(opts.to_dict()) == opts
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.engine.cards import Color, Rank
from bot.engine.errors import BadOption


class Scoring(enum.Enum):
    """How rounds are scored (docs/rules.md §2)."""

    __hash__ = object.__hash__  # identity hash: enum members are singletons (speed)

    STANDARD = "standard"
    """The player who went out scores every card left in the other hands."""
    RUNNING_TALLY = "running-tally"
    """Each player adds their own hand; at the target the lowest total wins."""
    SINGLE_ROUND = "single-round"
    """The first player out wins the game; no points."""


class HouseRule(enum.Enum):
    """Optional table rules, all off by default (docs/rules.md §4)."""

    __hash__ = object.__hash__  # identity hash: enum members are singletons (speed)

    STACKING = "stacking"
    """A Draw card may be answered with a Draw card of the same rank, passing the total on."""
    JUMP_IN = "jump-in"
    """A card identical to the top card may be played out of turn."""
    SEVEN_O = "seven-o"
    """A 7 swaps hands with a picked player; a 0 passes every hand on."""
    DRAW_UNTIL_PLAYABLE = "draw-until-playable"
    """Drawing for the turn goes on until a playable card comes."""
    FORCED_PLAY = "forced-play"
    """A playable drawn card must be played."""
    NO_BLUFFING = "no-bluffing"
    """A restricted wild is refused while its player holds the current color."""


class PendingKind(enum.Enum):
    """The one decision the engine waits for (``pending`` of the scenario format, docs/scenarios.md)."""

    __hash__ = object.__hash__  # identity hash: enum members are singletons (speed)

    TURN = "turn"
    """An ordinary turn: play a card or draw."""
    CHALLENGE = "challenge"
    """The victim of a restricted wild: challenge or accept (or Invisibility)."""
    PENALTY = "penalty"
    """A victim who may answer a penalty (stacking, Invisibility) or accept it."""
    COLOR = "color"
    """A player must name the color."""
    DISCARD = "discard"
    """Wild Super Hero: the picked player may discard one card."""
    HOWLER = "howler-response"
    """Howler: the picked player lets their hand be shown or answers with Invisibility."""
    DRAW_DECISION = "draw-decision"
    """The player drew a playable card: play it or keep it."""
    NONE = "none"
    """Nothing: the round (or the game) is over, or no round has been dealt."""


class DosPendingKind(enum.Enum):
    """The one decision a DOS game waits for (§14.13; docs/scenarios.md's DOS ``pending``)."""

    __hash__ = object.__hash__

    TURN = "turn"
    """A turn not yet begun: match or draw."""
    MATCH = "match"
    """After a match: another match or end the turn."""
    DRAW_DECISION = "draw-decision"
    """After a draw that made a match possible: match or place the no-match card."""
    PLACE = "place"
    """A card to add to the row: the no-match card, or a bonus card."""
    NONE = "none"
    """Nothing: the round (or the game) is over, or no round has been dealt."""


AnyPendingKind = PendingKind | DosPendingKind
"""A pending decision's kind in either edition (``Pending.kind``). Each enum hashes by identity,
so one table can hold both editions' kinds (``bot.render.words.PENDING_TEXT``)."""


@dataclass(frozen=True)
class Options:
    """The host's choices for a game.

    Attributes:
        target_score: points (>= 1) that end the game (docs/rules.md §1.1; default 500).
        scoring: standard, running tally or single round (§2).
        partners: teams of two seated across (4, 6, 8 or 10 players; §3.2).
        elimination: the Harry Potter "Challenge" game: always a running tally (§3.3).
        house_rules: the house rules turned on (§4).
        customizable_rule: DC Super Hero Girls' Wild Customizable: an effect id of
            ``CUSTOMIZABLE_RULES`` or free text the table follows by hand ("" = plain wild).
    """

    target_score: int = 500
    scoring: Scoring = Scoring.STANDARD
    partners: bool = False
    elimination: bool = False
    house_rules: frozenset[HouseRule] = field(default_factory=frozenset)
    customizable_rule: str = ""

    def has(self, rule: HouseRule) -> bool:
        """True if the house rule is on."""
        return rule in self.house_rules

    @property
    def effective_scoring(self) -> Scoring:
        """Elimination is always scored as a running tally (docs/rules.md §3.3)."""
        return Scoring.RUNNING_TALLY if self.elimination else self.scoring

    def validate(self, players: Sequence[str] | None = None) -> Options:
        """Refuse options that can't go together, or that don't fit the players; ``Game``
        checks its options with it, and a lobby can before anyone sits down.

        >>> Options(partners=True).validate(["a", "b", "c", "d"]).partners
        True
        >>> Options(partners=True, elimination=True).validate()
        Traceback (most recent call last):
        ...
        bot.engine.errors.BadOption: Partners and elimination can't be combined: choose one of them.

        Args:
            players: the seats in order; None to check the options alone.

        Returns:
            These options.

        Raises:
            BadOption: partners with elimination (docs/rules.md §3.3); elimination with
                single-round scoring (elimination plays rounds until one player is left, scored
                as a running tally); with ``players``: partners without 4, 6, 8 or 10 players,
                or a player id holding ``+`` (team keys are ``"a+b"``).
        """
        if self.partners and self.elimination:
            raise BadOption("Partners and elimination can't be combined: choose one of them.")
        if self.elimination and self.scoring is Scoring.SINGLE_ROUND:
            raise BadOption(
                "Elimination plays many rounds (scored as a running tally), so it can't be a single round."
            )
        if players is not None and self.partners:
            if any("+" in p for p in players):
                raise BadOption("With partners, player ids can't contain '+'.")
            if len(players) not in (4, 6, 8, 10):
                raise BadOption("Partners need 4, 6, 8 or 10 players.")
        return self

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form; :meth:`parse` reads it back."""
        return {
            "target_score": self.target_score,
            "scoring": self.scoring.value,
            "partners": self.partners,
            "elimination": self.elimination,
            "house_rules": sorted(r.value for r in self.house_rules),
            "customizable_rule": self.customizable_rule,
        }

    @classmethod
    def parse(cls, data: Mapping[str, Any] | None) -> Options:
        """Options from a mapping of the keys above (missing keys take their defaults).

        Raises:
            BadOption: an unknown key, a value of the wrong type or out of range.
        """
        if data is not None and not isinstance(data, Mapping):
            raise BadOption("Options must be a table of option names and values.")
        data = dict(data or {})
        unknown = data.keys() - _OPTION_NAMES
        if unknown:
            raise BadOption(f"Unknown option(s): {', '.join(sorted(unknown))}.")
        try:
            target = data.get("target_score", 500)
            if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= 100_000:
                raise BadOption("target_score must be a whole number from 1 to 100000.")
            rules = data.get("house_rules", [])
            if isinstance(rules, str) or not all(isinstance(r, (str, HouseRule)) for r in rules):
                raise BadOption("house_rules must be a list of house rule ids.")
            for key in ("partners", "elimination"):
                if not isinstance(data.get(key, False), bool):
                    raise BadOption(f"{key} must be true or false.")
            text = data.get("customizable_rule", "")
            if not isinstance(text, str) or len(text) > 300:
                raise BadOption("customizable_rule must be a text of at most 300 characters.")
            return cls(
                target_score=target,
                scoring=Scoring(data.get("scoring", "standard")),
                partners=data.get("partners", False),
                elimination=data.get("elimination", False),
                house_rules=frozenset(_HOUSE_RULES.get(r) or HouseRule(r) for r in rules),
                customizable_rule=text.strip(),
            )
        except (TypeError, ValueError) as exc:
            raise BadOption(f"Bad option value: {exc}.") from None


_OPTION_NAMES = frozenset(Options.__dataclass_fields__)
_HOUSE_RULES = {r.value: r for r in HouseRule}


class Pending(NamedTuple):
    """The one decision the engine waits for, in any edition (DOS's: a :class:`DosPendingKind`
    and its player only).

    Attributes:
        kind: what kind of decision (UNO's :class:`PendingKind`, DOS's :class:`DosPendingKind`).
        player: who must make it (None only for ``NONE``).
        source: who caused it (the restricted wild's, Howler's or Wild Super Hero's player).
        rank: the card rank that caused a penalty or challenge.
        total: cards at stake for a penalty (the stacked total) or a challenge.
        prev_color: for a challenge, the color in force before the wild.
        resume: after a color or discard decision, play continues after this player...
        resume_self: ...or with this player themself.
        guilty: for a challenge, whether the restricted wild's player held a card of
            ``prev_color`` when they played it (docs/rules.md §1.9; None: not known, in a game
            saved before this was kept, and then judged on the hand at the challenge).
    """

    kind: AnyPendingKind
    player: str | None = None
    source: str | None = None
    rank: Rank | None = None
    total: int = 0
    prev_color: Color | None = None
    resume: str | None = None
    resume_self: bool = False
    guilty: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "kind": self.kind.value,
            "player": self.player,
            "source": self.source,
            "rank": self.rank.value if self.rank else None,
            "total": self.total,
            "prev_color": self.prev_color.value if self.prev_color else None,
            "resume": self.resume,
            "resume_self": self.resume_self,
            "guilty": self.guilty,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Pending:
        """Inverse of :meth:`to_dict`."""
        return cls(
            kind=PendingKind(d["kind"]),
            player=d["player"],
            source=d["source"],
            rank=Rank(d["rank"]) if d["rank"] else None,
            total=int(d["total"]),
            prev_color=Color(d["prev_color"]) if d["prev_color"] else None,
            resume=d["resume"],
            resume_self=bool(d["resume_self"]),
            guilty=None if d.get("guilty") is None else bool(d["guilty"]),
        )


NOTHING = Pending(PendingKind.NONE)
