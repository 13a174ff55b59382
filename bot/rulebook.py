"""``/uno rules``: sections of ``docs/rules.md`` by variant id or card name, in Discord-sized parts.

The page's headings are numbered (``## 7. UNO Flip``, ``### 7.8 Skip Everyone``); a card is looked
up by its name alone, and what players see keeps the number, as the page shows it. An edition's
section says its id for developers only, in a note under its heading (``<!-- edition id: `flip`
-->``): players never read it. Each language of
the bot may have its translation, ``docs/rules.<lang>.md`` with the same numbers (``rules.fr.md``,
``rules.es.md``, ``rules.pt-BR.md``); a language without one reads the English page.

A card named in the edition (``"wild draw four"``, ``"red 7"``, ``"7"``, DOS's ``"wild dos"`` or
``"#"``, in the reader's language or English) is answered about that card alone: what it does (its
subsection, or for a number card or a DOS card a sentence of the catalogs) and its points. The
page's HTML comments (``<!-- ... -->``: file paths, scenario ids, reason ids) are notes for
developers, never quoted to players.

>>> book = Rulebook.load()
>>> "Skip Everyone" in book.card("flip", "skip everyone")[0]
True
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.engine.cards import Side
from bot.engine.dos.cards import COPIES, DosKind
from bot.engine.editions import REGISTRY
from bot.engine.variants import VARIANTS
from bot.i18n import ENGLISH, ENGLISH_TR, LANGUAGES, N_, Tr, language_of, translator
from bot.render.dos import card_text as dos_card_text
from bot.render.faces import RANK_NAMES, face_name
from bot.render.names import plain
from bot.render.words import count

log = logging.getLogger(__name__)
RULES_FILE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def rules_file(lang: str) -> Path:
    """Where the rules page of ``lang`` (a key of ``bot.i18n.LANGUAGES`` or a Discord locale) is:
    ``docs/rules.pt-BR.md`` for ``pt_BR``, ``docs/rules.md`` for English (the file may not exist)."""
    lang = language_of(lang)
    return RULES_FILE if lang == ENGLISH else RULES_FILE.with_suffix(f".{lang.replace('_', '-')}.md")


LIMIT = 1900  # a Discord message holds 2,000 characters

_NUMBER = re.compile(r"§?(\d+(?:\.\d+)*)\.?(?:\s+|$)")  # "7.", "7.8", "§7.8" before a name
EDITION_ID = re.compile(r"<!--\s*edition id:\s*`([a-z0-9-]+)`\s*-->")
"""The note under an edition's heading that names its id (`bot.engine.editions.EDITIONS`)."""


def heading(title: str) -> tuple[str, str]:
    """A heading's number ("" when it has none) and its name.

    >>> heading("7.8 Skip Everyone"), heading("7. UNO Flip"), heading("§1.9"), heading("Reason ids")
    (('7.8', 'Skip Everyone'), ('7', 'UNO Flip'), ('1.9', ''), ('', 'Reason ids'))
    """
    title = title.strip()
    match = _NUMBER.match(title)
    return (match[1], title[match.end() :]) if match else ("", title)


@dataclass(frozen=True)
class Section:
    """A ``##`` section: its number, title (without the number), text (with its numbered heading),
    ``###`` subsections by lower-case title without the number, and the id of the edition it is
    about ("" for the others; :data:`EDITION_ID`)."""

    number: str
    title: str
    text: str
    subsections: dict[str, str]
    edition: str = ""


class Rulebook:
    """The rules document, split into sections."""

    def __init__(self, text: str, lang: str = ENGLISH, english: Rulebook | None = None) -> None:
        self.lang = lang  # the language the text is in
        self.english = english  # the English page, whose card names a translation also knows
        self.sections: list[Section] = []
        self.numbered: dict[str, str] = {}  # "7" and "7.8" -> that section's or subsection's text
        editions = [EDITION_ID.search(chunk.split("\n### ")[0]) for chunk in re.split(r"(?m)^## ", text)[1:]]
        # Notes for developers: a line of its own goes with its line break, else only the note.
        text = re.sub(r"(?m)^[ \t]*<!--(?:(?!<!--).)*?-->[ \t]*\n", "", text, flags=re.S)
        text = re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]*<!--.*?-->", "", text, flags=re.S))
        for chunk, edition in zip(re.split(r"(?m)^## ", unwrap(text))[1:], editions, strict=True):
            head, _, body = chunk.partition("\n")
            number, title = heading(head)
            subs = {}
            for sub in re.split(r"(?m)^### ", body)[1:]:
                sub_head, _, sub_body = sub.partition("\n")
                sub_number, name = heading(sub_head)
                subs[name.lower()] = f"**{sub_head.strip()}**\n{sub_body.strip()}"
                if sub_number:
                    self.numbered[sub_number] = subs[name.lower()]
            section = Section(
                number, title, f"## {head.strip()}\n{body.strip()}", subs, edition[1] if edition else ""
            )
            self.sections.append(section)
            if number:
                self.numbered[number] = section.text

    @classmethod
    @cache
    def load(cls, lang: str = ENGLISH) -> Rulebook:
        """The rules document in ``lang`` (read once), the English one where it has no translation
        (then ``.lang`` is English)."""
        lang, path = language_of(lang), rules_file(lang)
        if lang != ENGLISH and not path.is_file() and lang in LANGUAGES:
            # A language the bot speaks whose page was not shipped (an install without docs/):
            # its players read English, which an operator should hear of once.
            log.warning("No rules page for %s at %s: /uno rules answers in English", lang, path)
        if lang == ENGLISH or not path.is_file():
            return cls(RULES_FILE.read_text(encoding="utf-8"))
        return cls(path.read_text(encoding="utf-8"), lang, cls.load())

    def edition(self, variant_id: str) -> Section | None:
        """The section of an edition: the one whose note names its id (:data:`EDITION_ID`)."""
        return next((section for section in self.sections if section.edition == variant_id), None)

    def variant(self, variant_id: str, tr: Tr = ENGLISH_TR) -> list[str]:
        """The edition's section, in message-sized parts (``tr``: the language of a refusal; the
        rules are in the book's own language)."""
        section = self.edition(variant_id)
        return (
            split(section.text)
            if section
            else [tr._("No rules found for {edition}.").format(edition=repr(variant_id))]
        )

    def card(self, variant_id: str, name: str, tr: Tr = ENGLISH_TR) -> list[str]:
        """One card's rules in the edition (or anywhere in the document), in parts. A card of the
        edition (:func:`card_named`) is answered about itself: what it does and its points. Else a
        number typed before the name is ignored; a section's number alone ("1.9", "§1.9", "§7";
        not "7", which could only be a card) finds that section. A translation also finds a card by its English name, and shows its own text of
        it."""
        known = card_named(variant_id, name, tr) or card_named(variant_id, name, translator(self.lang))
        if known is not None:
            return split(self._card_answer(variant_id, known, tr))
        number, rest = heading(name)
        if number and not rest and number in self.numbered and ("." in number or "§" in name):
            return split(self.numbered[number])
        found = self._found(variant_id, rest)
        if found is not None:
            return split(found)
        shown = plain(name.strip(), 60)
        # A card the edition has, in the reader's language: DOS has no Wild Draw Four.
        example = next(reversed(self.card_choices(variant_id, tr)), "")
        if not example:
            return [tr._("No card named “{name}” in the rules.").format(name=shown)]
        return [
            tr._("No card named “{name}” in the rules. Try a card name such as “{example}”.").format(
                name=shown, example=example
            )
        ]

    def _found(self, variant_id: str, name: str) -> str | None:
        """The subsection titled ``name`` (any case and spacing), in the book's language; by its
        English title too in a translation."""
        key = " ".join(name.lower().split())
        found = self._subsection(variant_id, key)
        if found is None and self.english is not None:
            english = self.english._subsection(variant_id, key)
            found = self.numbered.get(heading(english.split("\n")[0].strip("*"))[0]) if english else None
        return found

    def _card_answer(self, variant_id: str, card: NamedCard, tr: Tr) -> str:
        """A card's answer: its subsection where the page gives its card one (``"**6.5 Wild Draw
        Four**"``), else its name in bold with the section that tells what it does (``"**Wild
        DOS** (§14.6)"``: a number before a card's name would read as part of it, "1.5 7") and
        what it does; then its points."""
        found = self._found(variant_id, card.rank) if card.rank else None
        where = f" (§{card.section})" if card.section else ""
        said = found or f"**{card.title}**{where}\n{tr._(card.does).format(number=card.number)}"
        values = " / ".join(str(v) for v in card.points)
        return (
            said
            + "\n"
            + tr._("Left in a hand at the end of a round: **{points}**.").format(
                points=count(card.points[0], "point", tr) if len(card.points) == 1 else values
            )
        )

    def _subsection(self, variant_id: str, key: str) -> str | None:
        """The text of the subsection titled ``key`` (lower case, no number), the edition's first."""
        section = self.edition(variant_id)
        for sec in ([section] if section else []) + self.sections:
            if key in sec.subsections:
                return sec.subsections[key]
        return None

    def card_names(self, variant_id: str) -> list[str]:
        """Titles of the edition's card subsections, lower-case and without numbers (autocomplete)."""
        section = self.edition(variant_id)
        return list(section.subsections) if section else []

    def card_choices(self, variant_id: str, tr: Tr = ENGLISH_TR) -> list[str]:
        """What ``/uno rules card:`` offers to complete in the edition, lower-case: its action and
        wild cards by their titles on the page (:meth:`card_names`), DOS's two wilds by name."""
        if variant_id in REGISTRY and REGISTRY[variant_id].family == "dos":
            return [tr._("Wild DOS").lower(), tr._("Wild #").lower()]
        return self.card_names(variant_id)


@dataclass(frozen=True)
class NamedCard:
    """A card ``/uno rules card:`` names (:func:`card_named`).

    Attributes:
        title: its name as the reader reads it (``"red 7"``, ``"7"``, ``"Wild DOS"``).
        rank: the English title of its subsection on the page (``"wild draw four"``), or "" when
            ``does`` says what it does.
        does: an English sentence of the catalogs (``{number}``: the card's number), or "".
        number: a number card's number (0 for the others).
        points: what it scores left in a hand (docs/rules.md §2.5, §14.14), one value per side
            where they differ.
        section: with ``does``, the number of the page's section that tells what the card does
            (``"14.6"``), shown beside its name as a subsection's number is.
    """

    title: str
    rank: str
    does: str
    number: int
    points: tuple[int, ...]
    section: str = ""


UNO_NUMBER = N_("A number card: it plays on a card of its color or on any {number}.")
DOS_CARD_DOES = {
    DosKind.NUMBER: N_(
        "A number card. Alone, it matches a pile showing {number}; with a second card, a pile showing "
        "the sum of their numbers. A match in the pile's color earns a bonus card (§14.5, §14.6)."
    ),
    DosKind.WILD_NUMBER: N_(
        "Counts as any number from 1 to 10, whatever makes the match add up, alone or with a second "
        "card; it keeps its printed color. In the row, one card or two totalling 10 or less cover it "
        "(§14.5)."
    ),
    DosKind.WILD_DOS: N_(
        "Counts as 2. Matching with it, you name its color: the pile's color makes a color match, "
        "worth a bonus card (§14.6). Covering a Wild DOS in the row, you name that pile's color for "
        "your match."
    ),
}
"""What each kind of DOS card does, for ``/uno rules card:`` (docs/rules.md §14.5, §14.6)."""
UNO_NUMBER_SECTION = "1.5"
"""Where the page tells what a number card does (docs/rules.md §1.5, Your turn)."""
DOS_CARD_SECTION = {DosKind.NUMBER: "14.5", DosKind.WILD_NUMBER: "14.5", DosKind.WILD_DOS: "14.6"}
"""Where the page tells what each kind of DOS card does (docs/rules.md §14.5, §14.6)."""


def card_named(variant_id: str, name: str, tr: Tr = ENGLISH_TR) -> NamedCard | None:
    """The card of the edition ``name`` means, in ``tr``'s language or English, any case and
    spacing: a face (``"red 7"``, ``"7 rouge"``), a rank (``"7"``, ``"skip"``, ``"joker +4"``), a DOS
    card (``"wild dos"``, ``"Wild #"``, ``"#"``, ``"blue 5"``); None if it names no card there.

    >>> card_named("classic", " Wild  draw FOUR").points, card_named("dos", "#").points
    ((50,), (40,))
    >>> card_named("dos", "7").does == DOS_CARD_DOES[DosKind.NUMBER], card_named("dos", "2")
    (True, None)
    """
    key = " ".join(name.lower().split())
    return named_cards(variant_id, tr).get(key) or named_cards(variant_id, ENGLISH_TR).get(key)


@cache
def named_cards(variant_id: str, tr: Tr) -> dict[str, NamedCard]:
    """Every name of the edition's cards in ``tr``'s language, lower-case (none for an unknown
    edition)."""
    edition = REGISTRY.get(variant_id)
    return {} if edition is None else _NAMED_CARDS[edition.family](variant_id, tr)


def _dos_named_cards(variant_id: str, tr: Tr) -> dict[str, NamedCard]:
    named: dict[str, NamedCard] = {}
    for card in COPIES:
        does, title = DOS_CARD_DOES[card.kind], dos_card_text(card, tr).split(" ", 1)[1]
        bare = (
            tr._("Wild #")
            if card.kind is DosKind.WILD_NUMBER
            else title
            if card.wild_dos
            else str(card.number)
        )
        for shown in (title, bare):
            named[shown.lower()] = NamedCard(
                shown, "", does, card.number, (card.value,), DOS_CARD_SECTION[card.kind]
            )
    wild_number = named[tr._("Wild #").lower()]
    for alias in ("#", "wild number", "# card"):
        named.setdefault(alias, wild_number)
    return named


def _uno_named_cards(variant_id: str, tr: Tr) -> dict[str, NamedCard]:
    named: dict[str, NamedCard] = {}
    variant = VARIANTS[variant_id]
    sides = ((Side.LIGHT, variant.light), (Side.DARK, variant.dark))
    for face in {f for _, faces in sides for f in faces}:
        rank = face.rank
        points = tuple(
            sorted({variant.value(f, side) for side, faces in sides for f in faces if f.rank is rank})
        )
        bare = tr._(RANK_NAMES[rank]) if rank in RANK_NAMES else rank.value
        number = rank.number
        for shown in (face_name(face, tr), bare):
            named[shown.lower()] = NamedCard(
                shown,
                "" if number is not None else rank.value,
                UNO_NUMBER if number is not None else "",
                number or 0,
                points,
                UNO_NUMBER_SECTION if number is not None else "",
            )
    return named


_NAMED_CARDS = {"uno": _uno_named_cards, "dos": _dos_named_cards}
"""How each family of editions (``Edition.family``) names its cards."""


_BLOCK = re.compile(r"(#|\||[-*] |\d+\. )")  # lines that start a heading, table row or list item


def unwrap(text: str) -> str:
    r"""Join the hard-wrapped lines of each paragraph and list item (the document is wrapped at
    100 columns; Discord would show every one of those breaks).

    >>> unwrap("A card\nthat wraps.\n\n- an item\n  that wraps\n- next\n| a | b |\n| c | d |")
    'A card that wraps.\n\n- an item that wraps\n- next\n| a | b |\n| c | d |'
    """
    lines: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        previous = lines[-1].lstrip() if lines else ""
        if stripped and previous and not previous.startswith(("#", "|")) and not _BLOCK.match(stripped):
            lines[-1] += " " + stripped
        else:
            lines.append(line)
    return "\n".join(lines)


def split(text: str, limit: int = LIMIT) -> list[str]:
    """Split text at paragraph (then line) boundaries into parts of at most ``limit`` characters."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            parts.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) + 1 > limit:
            parts.append(current.rstrip())
            current = ""
        current += line + "\n"
    if current.strip():
        parts.append(current.rstrip())
    return parts
