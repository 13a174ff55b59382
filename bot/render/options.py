"""A game's options and editions in words: house rules (names and hints), scoring, the Wild
Customizable rule, a channel's settings, an edition's and a language's name, and the titles that
name an edition (``/uno leaderboard``, ``/uno stats``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.editions import EDITIONS
from bot.engine.effects import CUSTOMIZABLE_RULES
from bot.engine.options import HouseRule, Options, Scoring
from bot.i18n import LANGUAGES, N_, Tr
from bot.render.names import plain

HOUSE_RULE_NAMES = {
    HouseRule.STACKING: N_("Stacking"),
    HouseRule.JUMP_IN: N_("Jump-in"),
    HouseRule.SEVEN_O: N_("Seven-O"),
    HouseRule.DRAW_UNTIL_PLAYABLE: N_("Draw until playable"),
    HouseRule.FORCED_PLAY: N_("Forced play"),
    HouseRule.NO_BLUFFING: N_("No bluffing"),
}
"""The one place a house rule's id becomes the name players read (the headings of docs/rules.md §4,
without their numbers)."""
HOUSE_RULE_HINTS = {
    HouseRule.STACKING: N_("Answer a Draw card with the same Draw card, passing the total on"),
    HouseRule.JUMP_IN: N_("Play a card identical to the top card out of turn"),
    HouseRule.SEVEN_O: N_("A 7 swaps hands with a player you pick; a 0 passes every hand on"),
    HouseRule.DRAW_UNTIL_PLAYABLE: N_("Drawing goes on until a playable card comes"),
    HouseRule.FORCED_PLAY: N_("A playable drawn card must be played"),
    HouseRule.NO_BLUFFING: N_("A restricted wild is refused while you hold the current color"),
}


def edition_name(variant: str, tr: Tr) -> str:
    """An edition's name as sold in ``tr``'s language (``"UNO Carros 2"`` in Brazil): the same
    translation as the commands' edition choice. ``variant``: its id; an unknown id as it is."""
    known = EDITIONS.get(variant)
    return tr.pgettext("choice", known) if known else variant


def leaderboard_title(variant: str | None, tr: Tr) -> str:
    """``/uno leaderboard``'s title: named by its edition (``"DOS leaderboard"``: DOS is no UNO),
    or of every game the bot plays without one.

    >>> from bot.i18n import translator
    >>> leaderboard_title("dos", translator("en")), leaderboard_title(None, translator("fr"))
    ('DOS leaderboard', 'Classement · toutes les éditions')
    """
    if variant is None:
        return tr._("Leaderboard · all editions")
    return tr._("{edition} leaderboard").format(edition=edition_name(variant, tr))


def record_title(name: str, variants: Sequence[str], tr: Tr) -> str:
    """``/uno stats``' title: the player's record named by the edition they played, when only one
    (``"alice's DOS record"``), else without an edition's name.

    >>> from bot.i18n import translator
    >>> record_title("alice", ["dos"], translator("en")), record_title("alice", ["dos", "classic"], translator("en"))
    ("alice's DOS record", "alice's record")
    """
    if len(variants) == 1:
        return tr._("{name}'s {edition} record").format(name=name, edition=edition_name(variants[0], tr))
    return tr._("{name}'s record").format(name=name)


def language_name(lang: str) -> str:
    """A language's own name for itself (``"Français"``)."""
    return LANGUAGES.get(lang, lang)


def house_rules_text(rules: Iterable[HouseRule], tr: Tr) -> str:
    """``"Stacking, Seven-O"`` (in a fixed order), or ``"none"``."""
    chosen = set(rules)
    return ", ".join(tr._(name) for rule, name in HOUSE_RULE_NAMES.items() if rule in chosen) or tr._("none")


def scoring_text(options: Options, tr: Tr) -> str:
    """How the game is won, with the target score only where it applies."""
    target = options.target_score
    if options.elimination:
        return tr._("elimination: out at {target} points, the last one left wins").format(target=target)
    if options.scoring is Scoring.SINGLE_ROUND:
        return tr._("single round: the first player out wins")
    if options.scoring is Scoring.RUNNING_TALLY:
        return tr._("running tally: the game ends at {target} points, lowest total wins").format(
            target=target
        )
    return tr._("first to {target} points").format(target=target)


def customizable_text(rule: str, tr: Tr) -> str:
    r"""The Wild Customizable rule as the table reads it: a known rule's name, or the host's own
    text (at most 300 characters) as :func:`~bot.render.names.plain` text, so ``**``, ``#``, ``>`` or a mention show
    as typed.

    >>> from bot.i18n import translator
    >>> en = translator("en")
    >>> customizable_text("swap-hands", en), customizable_text("", en)
    ('Swap hands', 'plain wild')
    >>> customizable_text("**Sing**", en) == r"\*\*Sing\*\*"
    True
    """
    known = CUSTOMIZABLE_RULES.get(rule)
    if known:
        return tr._(known.name)
    return plain(rule, 300) if rule else tr._("plain wild")


def settings_text(variant: str, options: Options, turn_seconds: int, tr: Tr, language: str = "") -> str:
    """A channel's defaults for new games (``/uno settings``), in ``tr``'s language; ``language``:
    the channel's language as set (empty: the server's)."""
    timer = tr._("{seconds}s").format(seconds=turn_seconds) if turn_seconds else tr._("off")
    lines = [
        tr._("Edition: **{edition}**").format(edition=edition_name(variant, tr)),
        tr._("Scoring: **{scoring}**").format(scoring=scoring_text(options, tr)),
        tr._("House rules: **{rules}**").format(rules=house_rules_text(options.house_rules, tr)),
        tr._("Wild Customizable: **{rule}**").format(rule=customizable_text(options.customizable_rule, tr)),
        tr._("Turn timer: **{timer}**").format(timer=timer),
        tr._("Language: **{language}**").format(
            language=language_name(language) if language else tr._("the server's")
        ),
    ]
    return "\n".join(lines)
