"""The editions as data: decks and card values against docs/rules.md §6-§11 and §2.5."""

from __future__ import annotations

import ast
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.engine import variants
from bot.engine.cards import Face, Side
from bot.engine.editions import EDITIONS
from bot.engine.errors import BadOption
from bot.engine.game import Game
from bot.engine.variants import VARIANTS, get_variant

LIGHT = ["red", "yellow", "green", "blue"]
DARK = ["pink", "teal", "orange", "purple"]
ONE_TO_NINE = [str(n) for n in range(1, 10)]


def _colored(colors: list[str], counts: dict[str, int]) -> Counter[str]:
    return Counter({f"{c} {rank}": n for c in colors for rank, n in counts.items()})


def _classic(draw: str = "draw two", **extra: int) -> Counter[str]:
    per_color = {"0": 1, **dict.fromkeys(ONE_TO_NINE, 2), "skip": 2, "reverse": 2, draw: 2}
    deck = _colored(LIGHT, per_color) + Counter({"wild": 4, "wild draw four": 4})
    deck.update({name.replace("_", " "): n for name, n in extra.items()})
    return deck


def _flip(light_wild: str, dark_wild: str) -> tuple[Counter[str], Counter[str]]:
    light = _colored(
        LIGHT, {**dict.fromkeys(ONE_TO_NINE, 2), "draw one": 2, "reverse": 2, "skip": 2, "flip": 2}
    ) + Counter({light_wild: 4, "wild draw two": 4})
    dark = _colored(
        DARK,
        {
            **dict.fromkeys(ONE_TO_NINE, 2),
            "draw five": 2,
            "reverse": 2,
            "skip everyone": 2,
            "flip": 2,
        },
    ) + Counter({dark_wild: 4, "wild draw color": 4})
    return light, dark


# Each edition's deck (docs/rules.md §6-§11), written out card by card: variant -> (light faces, dark faces).
EXPECTED_DECKS: dict[str, tuple[Counter[str], Counter[str]]] = {
    "classic": (_classic(), Counter()),
    "flip": _flip("wild", "wild"),
    "flip-marvel": _flip("wild super hero", "wild villain"),
    "harry-potter": (_classic("draw three", howler=1, invisibility=1), Counter()),
    "cars2": (_classic(special_agent_mater=4), Counter()),
    "dc-super-hero-girls": (_classic(wild_customizable=2, save_the_day=2), Counter()),
}

# Each edition's card count (its first line, docs/rules.md §6-§11): variant -> (light faces, dark faces).
DECK_SIZES = {
    "classic": (108, 0),
    "flip": (112, 112),
    "flip-marvel": (112, 112),
    "harry-potter": (110, 0),
    "cars2": (112, 0),
    "dc-super-hero-girls": (112, 0),
}

# docs/rules.md §2.5 (Card values; numbers score their face value).
CLASSIC_VALUES = {
    "draw two": 20,
    "draw three": 20,
    "skip": 20,
    "reverse": 20,
    "wild": 50,
    "wild draw four": 50,
    "special agent mater": 50,
    "wild customizable": 50,
    "save the day": 50,
    "howler": 50,
    "invisibility": 50,
}
FLIP_LIGHT_VALUES = {
    "draw one": 10,
    "skip": 20,
    "reverse": 20,
    "flip": 20,
    "wild": 40,
    "wild super hero": 40,
    "wild draw two": 50,
}
FLIP_DARK_VALUES = {
    "draw five": 20,
    "skip": 20,
    "reverse": 20,
    "flip": 20,
    "skip everyone": 30,
    "wild": 40,
    "wild villain": 40,
    "wild draw color": 60,
}
VALUE_TABLES = {
    ("classic", "light"): CLASSIC_VALUES,
    ("harry-potter", "light"): CLASSIC_VALUES,
    ("cars2", "light"): CLASSIC_VALUES,
    ("dc-super-hero-girls", "light"): CLASSIC_VALUES,
    ("flip", "light"): FLIP_LIGHT_VALUES,
    ("flip", "dark"): FLIP_DARK_VALUES,
    ("flip-marvel", "light"): FLIP_LIGHT_VALUES,
    ("flip-marvel", "dark"): FLIP_DARK_VALUES,
}


def _names(faces: tuple[Face, ...]) -> Counter[str]:
    return Counter(f.name for f in faces)


def test_variant_ids() -> None:
    """The variants are exactly docs/rules.md's editions (§6-§11), in its order."""
    assert list(VARIANTS) == list(DECK_SIZES)
    for variant_id, variant in VARIANTS.items():
        assert variant.id == variant_id
        assert get_variant(variant_id) is variant


def test_variant_ids_are_the_documented_list() -> None:
    """VARIANTS holds exactly the ids of the variants.py doctest, and the editions (UNO's variants,
    then DOS) those of docs/rules.md, in order."""
    doc = variants.__doc__ or ""
    listed = ast.literal_eval(doc.split("for v in VARIANTS.values()]\n", 1)[1].splitlines()[0])
    assert list(VARIANTS) == listed
    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    documented = re.findall(r"^<!-- edition id: `([a-z0-9-]+)` -->", rules, flags=re.MULTILINE)
    assert list(EDITIONS) == [*VARIANTS, "dos"] == documented


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_customizable(variant_id: str) -> None:
    """Only DC Super Hero Girls has Wild Customizable (the host's rule)."""
    assert VARIANTS[variant_id].customizable is (variant_id == "dc-super-hero-girls")


@pytest.mark.parametrize("variant_id", ["", "uno", "Classic", "flip marvel"])
def test_unknown_variant(variant_id: str) -> None:
    """An unknown variant id raises BadOption."""
    with pytest.raises(BadOption):
        get_variant(variant_id)


@pytest.mark.parametrize(("variant_id", "sizes"), list(DECK_SIZES.items()))
def test_deck_sizes(variant_id: str, sizes: tuple[int, int]) -> None:
    """Each deck holds docs/rules.md's number of light and dark faces (§6-§11)."""
    variant = VARIANTS[variant_id]
    assert len(variant.deck_faces(Side.LIGHT)) == sizes[0]
    assert len(variant.dark) == sizes[1]
    assert variant.two_sided is bool(sizes[1])
    if variant.two_sided:
        assert len(variant.deck_faces(Side.DARK)) == sizes[1]


@pytest.mark.parametrize("variant_id", list(EXPECTED_DECKS))
def test_deck_card_by_card(variant_id: str) -> None:
    """Every face of every deck, with its number of copies, is as docs/rules.md §6-§11 list."""
    variant = VARIANTS[variant_id]
    light, dark = EXPECTED_DECKS[variant_id]
    assert _names(variant.light) == light
    assert _names(variant.dark) == dark
    assert sum(light.values()) + sum(dark.values()) == sum(DECK_SIZES[variant_id])


@pytest.mark.parametrize(
    ("variant_id", "side", "per_color", "wilds"),
    [
        ("classic", Side.LIGHT, 25, 8),
        ("harry-potter", Side.LIGHT, 25, 10),
        ("cars2", Side.LIGHT, 25, 12),
        ("dc-super-hero-girls", Side.LIGHT, 25, 12),
        ("flip", Side.LIGHT, 26, 8),
        ("flip", Side.DARK, 26, 8),
        ("flip-marvel", Side.LIGHT, 26, 8),
        ("flip-marvel", Side.DARK, 26, 8),
    ],
)
def test_cards_per_color(variant_id: str, side: Side, per_color: int, wilds: int) -> None:
    """Each color of a side holds the same number of cards; the rest are wilds."""
    faces = VARIANTS[variant_id].deck_faces(side)
    colors = Counter(f.color.value if f.color else "wild" for f in faces)
    expected = dict.fromkeys(LIGHT if side is Side.LIGHT else DARK, per_color)
    assert colors == Counter({**expected, "wild": wilds})


@pytest.mark.parametrize("variant_id", ["flip", "flip-marvel"])
def test_flip_decks_have_no_zero(variant_id: str) -> None:
    """Flip decks have no 0 on either side (1-9 twice per color)."""
    variant = VARIANTS[variant_id]
    assert all(f.rank.value != "0" for f in variant.light + variant.dark)


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_copies_count_both_sides(variant_id: str) -> None:
    """copies() counts every face of the deck, both sides of a Flip deck together."""
    variant = VARIANTS[variant_id]
    light, dark = EXPECTED_DECKS[variant_id]
    assert Counter({f.name: n for f, n in variant.copies().items()}) == light + dark


@pytest.mark.parametrize(("variant_id", "side"), [(v, s) for v, s in VALUE_TABLES])
def test_card_values(variant_id: str, side: str) -> None:
    """Every face of a side scores as docs/rules.md §2.5's table says (numbers: face value)."""
    variant = VARIANTS[variant_id]
    table = VALUE_TABLES[(variant_id, side)]
    s = Side(side)
    for face in set(variant.deck_faces(s)):
        number = face.rank.number
        expected = number if number is not None else table[face.rank.value]
        assert variant.value(face, s) == expected, face.name


@pytest.mark.parametrize(
    ("variant_id", "side", "face", "points"),
    [
        ("classic", "light", "red 0", 0),
        ("classic", "light", "blue 9", 9),
        ("classic", "light", "green draw two", 20),
        ("classic", "light", "wild draw four", 50),
        ("harry-potter", "light", "yellow draw three", 20),
        ("harry-potter", "light", "howler", 50),
        ("harry-potter", "light", "invisibility", 50),
        ("cars2", "light", "special agent mater", 50),
        ("dc-super-hero-girls", "light", "save the day", 50),
        ("dc-super-hero-girls", "light", "wild customizable", 50),
        ("flip", "light", "red draw one", 10),
        ("flip", "light", "blue flip", 20),
        ("flip", "light", "wild", 40),
        ("flip", "light", "wild draw two", 50),
        ("flip", "dark", "pink draw five", 20),
        ("flip", "dark", "teal skip everyone", 30),
        ("flip", "dark", "orange flip", 20),
        ("flip", "dark", "wild", 40),
        ("flip", "dark", "wild draw color", 60),
        ("flip", "dark", "purple 7", 7),
        ("flip-marvel", "light", "wild super hero", 40),
        ("flip-marvel", "dark", "wild villain", 40),
    ],
)
def test_card_value_examples(variant_id: str, side: str, face: str, points: int) -> None:
    """Spot checks of the card values table, row by row."""
    assert VARIANTS[variant_id].value(Face.parse(face), Side(side)) == points


@pytest.mark.parametrize("variant_id", list(VARIANTS))
@pytest.mark.parametrize("seed", [0, 1, 99])
def test_build_deck_holds_every_face_once(variant_id: str, seed: int) -> None:
    """build_deck makes one physical card per light face, pairing every dark face exactly once."""
    variant = VARIANTS[variant_id]
    deck = variant.build_deck(random.Random(seed))
    assert len(deck) == DECK_SIZES[variant_id][0]
    assert Counter(c.light for c in deck) == Counter(variant.light)
    if variant.two_sided:
        assert Counter(c.dark for c in deck) == Counter(variant.dark)
        for card in deck:
            assert card.dark is not None
            assert card.dark.color is None or card.dark.color.side is Side.DARK
    else:
        assert all(c.dark is None for c in deck)


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_build_deck_deterministic_per_seed(variant_id: str) -> None:
    """The same seed builds the same deck."""
    variant = VARIANTS[variant_id]
    for seed in (0, 7, 2**40):
        a = [c.name for c in variant.build_deck(random.Random(seed))]
        b = [c.name for c in variant.build_deck(random.Random(seed))]
        assert a == b


@pytest.mark.parametrize("variant_id", ["flip", "flip-marvel"])
def test_build_deck_pairing_differs_between_seeds(variant_id: str) -> None:
    """Different seeds pair light and dark faces differently."""
    variant = VARIANTS[variant_id]
    pairings = {tuple(c.name for c in variant.build_deck(random.Random(s))) for s in range(6)}
    assert len(pairings) == 6


@pytest.mark.parametrize("variant_id", ["flip", "flip-marvel"])
def test_game_pairing_fixed_by_its_seed(variant_id: str) -> None:
    """A game's pairing comes from its seed and is kept for the whole game."""
    players = ["ana", "ben", "cy"]
    a = Game(players, variant=variant_id, seed=5)
    b = Game(players, variant=variant_id, seed=5)
    c = Game(players, variant=variant_id, seed=6)
    assert a.deck == b.deck
    assert Counter(a.deck) != Counter(c.deck)
    pairing = Counter(a.deck)
    a.start_round()
    in_play = [*a.draw_pile, *a.discard_pile, *(card for h in a.hands.values() for card in h)]
    assert Counter(in_play) == pairing
