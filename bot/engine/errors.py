"""The engine's one error family.

Every refusal is an :class:`UnoError` subclass with a stable ``reason`` id (used by scenarios,
logs and the bot) and a ``message`` fit to show the player. An action that raises changes nothing.

>>> err = NotYourTurn()
>>> err.reason, str(err)
('not-your-turn', "It isn't your turn.")
"""

from __future__ import annotations

from typing import Self


class UnoError(Exception):
    """Base of every refusal the engine makes.

    Attributes:
        reason: stable id, e.g. ``"illegal-play"``.
        message: one sentence fit to show the player.
    """

    reason = "uno-error"
    default_message = "That can't be done now."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        self.template: str | None = None
        """With :meth:`of`: the message before its values were put in (English)."""
        self.params: dict[str, object] = {}
        """With :meth:`of`: the values :attr:`template` names."""
        super().__init__(self.message)

    @classmethod
    def of(cls, template: str, **params: object) -> Self:
        """A refusal whose message names values, kept apart from them so that the bot says it in
        each reader's language (``bot.client.errors.message_for``):
        ``raise NoSuchCard.of("There is no card called {card}.", card=text)``. A parameter whose
        name ends in ``_msg`` is itself a message, translated too.

        >>> NoSuchCard.of("There is no card called {card}.", card="blue 11").message
        'There is no card called blue 11.'
        """
        error = cls(template.format(**params))
        error.template, error.params = template, params
        return error


class NotInGame(UnoError):
    """The player is not seated in this game (never joined, left or eliminated)."""

    reason = "not-in-game"
    default_message = "You aren't playing in this game."


class NotYourTurn(UnoError):
    """Someone else must act now."""

    reason = "not-your-turn"
    default_message = "It isn't your turn."


class NotExpected(UnoError):
    """It is this player's decision, but the game waits for another kind of action."""

    reason = "not-expected"
    default_message = "The game is waiting for a different decision from you."


class RoundOver(UnoError):
    """The round (or the game) is over; nothing more can be played in it."""

    reason = "round-over"
    default_message = "This round is over."


class NoSuchCard(UnoError):
    """The player does not hold the card named."""

    reason = "no-such-card"
    default_message = "You don't hold that card."


class IllegalPlay(UnoError):
    """The card does not match the top card's color, number or symbol (docs/rules.md §1.5)."""

    reason = "illegal-play"
    default_message = "That card doesn't match the top card."


class ColorRequired(UnoError):
    """A wild was played without naming a color (docs/rules.md §1.5)."""

    reason = "color-required"
    default_message = "Name a color for your wild card."


class BadColor(UnoError):
    """The named color is not one of the active side's four colors."""

    reason = "bad-color"
    default_message = "That color isn't in play on this side."


class TargetRequired(UnoError):
    """The card needs a picked player (Howler, Save The Day, a Seven-O 7, a hand swap)."""

    reason = "target-required"
    default_message = "Pick a player for that card."


class BadTarget(UnoError):
    """The picked player is not another player still in the game."""

    reason = "bad-target"
    default_message = "You can't pick that player."


class NoBluffing(UnoError):
    """House rule no-bluffing: a restricted wild while holding the current color."""

    reason = "no-bluffing"
    default_message = "No bluffing at this table: you hold a card of the current color."


class MustPlayDrawn(UnoError):
    """House rule forced-play: a playable drawn card must be played."""

    reason = "must-play-drawn"
    default_message = "At this table a playable drawn card must be played."


class NotPlayable(UnoError):
    """There is no drawn card waiting to be played."""

    reason = "not-playable"
    default_message = "There is no drawn card you can play."


class UnoRefused(UnoError):
    """UNO can be called only with two cards on one's own turn, or with one card (docs/rules.md
    §1.7, ruling 10)."""

    reason = "uno-refused"
    default_message = "You can call UNO only as you play your next-to-last card, or holding one."


class CatchRefused(UnoError):
    """Nothing to catch: the player called UNO, holds more cards, or the window closed."""

    reason = "catch-refused"
    default_message = "There is nothing to catch."


class CannotJumpIn(UnoError):
    """Jump-in needs the house rule, an ordinary turn and a card identical to the top card."""

    reason = "cannot-jump-in"
    default_message = "You can jump in only with a card identical to the top card."


class CannotChallenge(UnoError):
    """Only the victim of a restricted wild may challenge it, before accepting."""

    reason = "cannot-challenge"
    default_message = "There is nothing for you to challenge."


class CannotDiscard(UnoError):
    """Only the player picked by a Wild Super Hero may discard, once."""

    reason = "cannot-discard"
    default_message = "You can't discard now."


class BadOption(UnoError):
    """The game's options, players or variant are not valid together."""

    reason = "bad-option"
    default_message = "Those game options don't work together."


class BadCard(UnoError):
    """A text that names no card."""

    reason = "bad-card"
    default_message = "That isn't a card."


class BadState(UnoError):
    """A saved game (``Game.from_dict``) that cannot be restored."""

    reason = "bad-state"
    default_message = "That saved game can't be restored."


class BadAction(UnoError):
    """A malformed action text (``Action.parse``): an unknown kind or field, no such card or color.

    The message is for the player (such text comes from a button or select made by the bot, so
    it is broken or out of date); :attr:`detail` says what was wrong, for the log.

    Attributes:
        detail: the text and what is wrong with it.
    """

    reason = "bad-action"
    default_message = "That button is broken; press Refresh."

    def __init__(self, text: str = "", why: str = "") -> None:
        super().__init__()
        self.detail = f"{text!r}: {why}" if why else repr(text)
