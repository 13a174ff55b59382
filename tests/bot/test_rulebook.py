"""``/uno rules`` on the numbered rules page (bot/rulebook.py, docs/rules.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import render
from bot.engine.variants import VARIANTS
from bot.i18n import LANGUAGES, translator
from bot.rulebook import RULES_FILE, Rulebook, heading, named_cards, rules_file

BOOK = Rulebook.load()
TRANSLATED = [lang for lang in LANGUAGES if rules_file(lang) != RULES_FILE and rules_file(lang).is_file()]
"""The languages whose translation of docs/rules.md is on this branch (each arrives on its own)."""

SMALL = """# Rules

## 1. How a game goes
### 1.1 Challenges
Ask to see their hand.

## 2. UNO Flip
<!-- edition id: `flip` -->
Two sides.

### 2.1 Skip
Light side. The next player loses their turn.

### 2.2 Skip Everyone
Dark side. Every other player loses their turn.

## 3. UNO
<!-- edition id: `classic` -->

### 3.1 Skip
The next player loses their turn.
"""


@pytest.mark.parametrize(
    ("variant", "name", "title"),
    [
        ("classic", "wild draw four", "Wild Draw Four"),
        ("flip", "skip everyone", "Skip Everyone"),
        ("flip", "Wild Draw Color", "Wild Draw Color"),
        ("flip-marvel", "wild super hero", "Wild Super Hero"),
        ("harry-potter", "howler", "Howler"),
        ("cars2", "special agent mater", "Special Agent Mater"),
        ("dc-super-hero-girls", "  save the  day ", "Save The Day"),
        ("classic", "challenges", "Challenges"),
    ],
)
def test_card_found_by_name_on_the_numbered_page(variant: str, name: str, title: str) -> None:
    """A card name without its number finds the card, shown under its numbered heading."""
    parts = BOOK.card(variant, name)
    assert re.fullmatch(rf"\*\*\d+\.\d+ {title}\*\*", parts[0].split("\n")[0]), parts[0][:80]


def test_house_rules_found_by_the_names_players_see() -> None:
    """Each house rule's name in the lobby finds its numbered subsection of House rules."""
    house_rules = next(s for s in BOOK.sections if s.title == "House rules")
    assert list(house_rules.subsections) == [n.lower() for n in render.HOUSE_RULE_NAMES.values()]
    for name in render.HOUSE_RULE_NAMES.values():
        assert BOOK.card("cars2", name)[0].startswith(f"**{house_rules.number}.")


def test_card_found_in_the_channels_edition_first() -> None:
    """The same name finds the edition's own card: Skip in UNO Flip is the light side's."""
    assert BOOK.card("flip", "skip")[0].split("\n")[1].startswith("Light side.")
    assert not BOOK.card("classic", "skip")[0].split("\n")[1].startswith("Light side.")


@pytest.mark.parametrize("name", ["2.2 Skip Everyone", "2.2 skip everyone", "2.2", "§2.2"])
def test_card_found_by_name_typed_with_its_number_or_by_number(name: str) -> None:
    """A number typed before the name is ignored, and a number alone finds that subsection."""
    assert Rulebook(SMALL).card("classic", name) == [
        "**2.2 Skip Everyone**\nDark side. Every other player loses their turn."
    ]


def test_section_found_by_its_number() -> None:
    """A section number alone finds the whole section, numbered heading first."""
    assert (
        Rulebook(SMALL).card("flip", "§1")[0]
        == "## 1. How a game goes\n### 1.1 Challenges\nAsk to see their hand."
    )


def test_unknown_card_refused_politely() -> None:
    """A name that is no card, or a number the page doesn't have, gets the hint, not a crash."""
    assert BOOK.card("classic", "purple seven")[0].startswith("No card named “purple seven”")
    assert Rulebook(SMALL).card("classic", "9.9")[0].startswith("No card named “9.9”")


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("variant", [*VARIANTS, "dos"])
def test_an_unknown_card_s_hint_names_a_card_of_the_edition(lang: str, variant: str) -> None:
    """The hint after an unknown name suggests a card the chosen edition has, in the reader's
    language (DOS has no Wild Draw Four: it suggested "joker +4" in French), and it is answered."""
    book, tr = Rulebook.load(lang), translator(lang)
    [hint] = book.card(variant, "banana", tr)
    suggested = re.findall(r"[“«\"] ?([^”»\"]+?) ?[”»\"]", hint)[-1]
    assert suggested in book.card_choices(variant, tr), hint
    assert book.card(variant, suggested, tr)[0].startswith("**"), suggested


def test_card_names_have_no_numbers() -> None:
    """Autocomplete offers the edition's card names, lower-case, without numbers, in page order."""
    assert Rulebook(SMALL).card_names("flip") == ["skip", "skip everyone"]
    assert BOOK.card_names("classic") == ["skip", "reverse", "draw two", "wild", "wild draw four"]
    for variant in VARIANTS:
        names = BOOK.card_names(variant)
        assert names and all(n == n.lower() and not re.search(r"\d", n) for n in names), names


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_edition_found_on_the_numbered_page(variant: str) -> None:
    """Each variant id finds its edition's section, titled with the edition's name and numbered."""
    section = BOOK.edition(variant)
    assert section is not None and section.title == VARIANTS[variant].name and section.number
    parts = BOOK.variant(variant)
    assert parts[0].startswith(f"## {section.number}. {section.title}\n")
    assert all(len(p) <= 2000 for p in parts)


def test_unknown_edition_has_no_section() -> None:
    """A variant id the page doesn't name finds nothing, and says so."""
    assert BOOK.edition("uno-attack") is None and Rulebook(SMALL).card_names("cars2") == []
    assert BOOK.variant("uno-attack") == ["No rules found for 'uno-attack'."]


def test_page_numbered_in_order() -> None:
    """Sections run 1, 2, 3 ... and each one's subsections N.1, N.2 ..., so citations stay true."""
    section, sub = 0, 0
    for marks, title in re.findall(r"(?m)^(###?) (.*)$", RULES_FILE.read_text(encoding="utf-8")):
        if marks == "##":
            section, sub = section + 1, 0
            assert title.startswith(f"{section}. "), title
        else:
            sub += 1
            assert title.startswith(f"{section}.{sub} "), title
    assert section == len(BOOK.sections) and all(s.number == str(i + 1) for i, s in enumerate(BOOK.sections))


def _numbers(path: Path) -> list[str]:
    return [heading(title)[0] for title in re.findall(r"(?m)^###? (.*)$", path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translation_has_the_english_section_numbers(lang: str) -> None:
    """A translated page numbers its headings as the English one does, so every §N the code cites
    and every card number means the same place in each language; its editions are found too."""
    assert _numbers(rules_file(lang)) == _numbers(RULES_FILE)
    book = Rulebook.load(lang)
    assert book.lang == lang and book.english is BOOK
    for variant in VARIANTS:
        section = book.edition(variant)
        assert section is not None and section.number == BOOK.edition(variant).number  # type: ignore[union-attr]
        assert len(book.card_names(variant)) == len(BOOK.card_names(variant))


def test_french_rules_in_french() -> None:
    """The French page answers in French, and finds a card by its French or its English name."""
    assert "fr" in TRANSLATED
    book = Rulebook.load("fr")
    assert book.variant("flip")[0].startswith("## 7. UNO Flip\n112 cartes à deux faces, 2 à 10 joueurs.")
    skip_everyone = ["**7.8 Passe tous**\nFace sombre. Tous les autres joueurs passent leur tour, et tu rejoues. "
                     "Se joue sur sa couleur ou sur n’importe quel Passe tous.\n"
                     "Left in a hand at the end of a round: **30 points**."]  # fmt: skip
    assert book.card("flip", "passe tous") == skip_everyone
    assert book.card("flip", "Skip Everyone") == skip_everyone  # the English name, French text
    assert book.card("classic", "joker +4")[0].startswith("**6.5 Joker +4**\nChoisis une couleur")
    assert "joker +4" in book.card_names("classic")
    assert book.card("classic", "7.8")[0].startswith("**7.8 Passe tous**")
    assert book.card("classic", "purple seven", translator("fr"))[0].startswith("Aucune carte")
    assert book.card("dos", "joker #", translator("fr"))[0].startswith(
        "**joker #** (§14.5)\nCompte pour n’importe"
    )


def test_language_without_a_translation_reads_english() -> None:
    """A language with no page of its own reads the English one (and says it is English)."""
    assert Rulebook.load("de").lang == "en" and Rulebook.load("de").sections == BOOK.sections
    assert rules_file("pt-BR").name == "rules.pt-BR.md" and rules_file("es-419").name == "rules.es.md"


DEVELOPER_NOTES = re.compile(r"\.py\b|\.md\b|tests/|bot/|\(d\d+\b|<!--|-->|dos-refused|`draw-decision`")
"""What only developers read on the page: file paths, scenario ids, reason and decision ids."""


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("variant", [*VARIANTS, "dos"])
def test_players_never_read_the_notes_for_developers(lang: str, variant: str) -> None:
    """An edition's rules and each card offered to complete, in every language, quote the page
    without its HTML comments (file paths, scenario and reason ids, the edition's id): DOS's
    section had them, and each edition's began with its id."""
    book, tr = Rulebook.load(lang), translator(lang)
    texts = book.variant(variant, tr) + [
        p for n in book.card_choices(variant, tr) for p in book.card(variant, n, tr)
    ]
    for text in texts:
        assert not DEVELOPER_NOTES.search(text), (DEVELOPER_NOTES.search(text), text[:200])
    assert f"`{variant}`" not in "".join(texts)  # the edition's id ("Variant id: `classic`")


@pytest.mark.parametrize(
    ("variant", "name", "first", "points"),
    [
        ("dos", "wild dos", "**Wild DOS** (§14.6)\nCounts as 2.", "20 points"),
        ("dos", "Wild #", "**Wild #** (§14.5)\nCounts as any number", "40 points"),
        ("dos", "#", "**Wild #** (§14.5)\n", "40 points"),
        (
            "dos",
            "blue 7",
            "**blue 7** (§14.5)\nA number card. Alone, it matches a pile showing 7;",
            "7 points",
        ),
        ("dos", "10", "**10** (§14.5)\nA number card. Alone, it matches a pile showing 10;", "10 points"),
        (
            "classic",
            "7",
            "**7** (§1.5)\nA number card: it plays on a card of its color or on any 7.",
            "7 points",
        ),
        ("flip", "7", "**7** (§1.5)\nA number card", "7 points"),
        ("flip", "wild draw color", "**7.9 Wild Draw Color**\nDark side.", "60 points"),
        ("harry-potter", "red draw three", "**9.3 Draw Three**\n", "20 points"),
    ],
)
def test_a_card_is_answered_about_itself(variant: str, name: str, first: str, points: str) -> None:
    """A card of the edition, DOS's included, gets a short answer: what it does, with the number of
    the section that says it (a subsection's heading, or beside a card that has none), then its
    points (``card:7`` was all of section 7, and DOS's cards were unknown)."""
    [answer] = BOOK.card(variant, name)
    assert answer.startswith(first) and answer.endswith(
        f"Left in a hand at the end of a round: **{points}**."
    )
    assert len(answer) < 700 and "\n## " not in answer


def test_a_number_not_a_card_of_the_edition_is_no_section() -> None:
    """A bare number is a card or nothing (DOS has no 2); a section takes its § or its dot."""
    assert BOOK.card("dos", "2")[0].startswith("No card named “2”")
    assert BOOK.card("classic", "§7")[0].startswith("## 7. UNO Flip")


def test_dos_cards_offered_to_complete() -> None:
    """``card:`` completes DOS's two wilds by name in the reader's language, not its subsections."""
    assert BOOK.card_choices("dos") == ["wild dos", "wild #"]
    assert Rulebook.load("fr").card_choices("dos", translator("fr")) == ["joker dos", "joker #"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_card_of_every_edition_is_answered(lang: str) -> None:
    """Each name of each edition's cards in each language (``card_named``) gets one short answer,
    its subsection or its sentence, ending with its points in the reader's language."""
    book, tr = Rulebook.load(lang), translator(lang)
    points = tr._("Left in a hand at the end of a round: **{points}**.").split("{points}")[0]
    for variant in [*VARIANTS, "dos"]:
        for name in named_cards(variant, tr):
            [answer] = book.card(variant, name, tr)
            assert answer.startswith("**") and points in answer.split("\n")[-1], (variant, name, answer[:120])
