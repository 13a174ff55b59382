"""``/uno rules``: sections of ``docs/rules.md`` by variant id or card name, in Discord-sized parts.

The page's headings are numbered (``## 7. UNO Flip``, ``### 7.8 Skip Everyone``); a card is looked
up by its name alone, and what players see keeps the number, as the page shows it. Each language of
the bot may have its translation, ``docs/rules.<lang>.md`` with the same numbers (``rules.fr.md``,
``rules.es.md``, ``rules.pt-BR.md``); a language without one reads the English page.

>>> book = Rulebook.load()
>>> "Skip Everyone" in book.card("flip", "skip everyone")[0]
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.i18n import ENGLISH, ENGLISH_TR, Tr, language_of
from bot.render.words import plain

RULES_FILE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def rules_file(lang: str) -> Path:
    """Where the rules page of ``lang`` (a key of ``bot.i18n.LANGUAGES`` or a Discord locale) is:
    ``docs/rules.pt-BR.md`` for ``pt_BR``, ``docs/rules.md`` for English (the file may not exist)."""
    lang = language_of(lang)
    return RULES_FILE if lang == ENGLISH else RULES_FILE.with_suffix(f".{lang.replace('_', '-')}.md")


LIMIT = 1900  # a Discord message holds 2,000 characters

_NUMBER = re.compile(r"§?(\d+(?:\.\d+)*)\.?(?:\s+|$)")  # "7.", "7.8", "§7.8" before a name


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
    and ``###`` subsections by lower-case title without the number."""

    number: str
    title: str
    text: str
    subsections: dict[str, str]


class Rulebook:
    """The rules document, split into sections."""

    def __init__(self, text: str, lang: str = ENGLISH, english: Rulebook | None = None) -> None:
        self.lang = lang  # the language the text is in
        self.english = english  # the English page, whose card names a translation also knows
        self.sections: list[Section] = []
        self.numbered: dict[str, str] = {}  # "7" and "7.8" -> that section's or subsection's text
        for chunk in re.split(r"(?m)^## ", unwrap(text))[1:]:
            head, _, body = chunk.partition("\n")
            number, title = heading(head)
            subs = {}
            for sub in re.split(r"(?m)^### ", body)[1:]:
                sub_head, _, sub_body = sub.partition("\n")
                sub_number, name = heading(sub_head)
                subs[name.lower()] = f"**{sub_head.strip()}**\n{sub_body.strip()}"
                if sub_number:
                    self.numbered[sub_number] = subs[name.lower()]
            section = Section(number, title, f"## {head.strip()}\n{body.strip()}", subs)
            self.sections.append(section)
            if number:
                self.numbered[number] = section.text

    @classmethod
    @cache
    def load(cls, lang: str = ENGLISH) -> Rulebook:
        """The rules document in ``lang`` (read once), the English one where it has no translation
        (then ``.lang`` is English)."""
        lang, path = language_of(lang), rules_file(lang)
        if lang == ENGLISH or not path.is_file():
            return cls(RULES_FILE.read_text(encoding="utf-8"))
        return cls(path.read_text(encoding="utf-8"), lang, cls.load())

    def edition(self, variant_id: str) -> Section | None:
        """The section of an edition: the one naming the variant id in backticks."""
        for section in self.sections:
            first = next((line for line in section.text.split("\n")[1:] if line.strip()), "")
            if f"`{variant_id}`" in first:
                return section
        return None

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
        """One card's rules in the edition (or anywhere in the document), in parts. A number
        typed before the name is ignored; a number alone ("1.9", "§1.9") finds that section. A
        translation also finds a card by its English name, and shows its own text of it."""
        number, rest = heading(name)
        if number and not rest and number in self.numbered:
            return split(self.numbered[number])
        found = self._subsection(variant_id, " ".join(rest.lower().split()))
        if found is None and self.english is not None:
            english = self.english._subsection(variant_id, " ".join(rest.lower().split()))
            found = self.numbered.get(heading(english.split("\n")[0].strip("*"))[0]) if english else None
        if found is not None:
            return split(found)
        shown = plain(name.strip(), 60)
        return [
            tr._("No card named “{name}” in the rules. Try a card name such as 'wild draw four'.").format(
                name=shown
            )
        ]

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
