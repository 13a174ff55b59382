"""Card value types: canonical names, parsing, interning (bot/engine/cards.py)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import re

import pytest

from bot.engine.cards import Card, Color, Face, Rank, Side
from bot.engine.errors import BadCard, UnoError
from bot.engine.variants import VARIANTS

# docs/scenarios.md, "Cards": the spelling every card name must follow.
COLORS = "red|yellow|green|blue|pink|teal|orange|purple"
RANKS = "[0-9]|skip|reverse|draw one|draw two|draw three|draw five|skip everyone|flip"
WILDS = (
    "wild|wild draw four|wild draw two|wild draw color|wild super hero|wild villain|howler"
    "|invisibility|special agent mater|wild customizable|save the day"
)
FACE_NAME = re.compile(rf"(?:(?:{COLORS}) (?:{RANKS})|{WILDS})")

ALL_FACES = sorted({face for v in VARIANTS.values() for face in v.light + v.dark}, key=lambda f: f.name)


def deck_cards(variant_id: str) -> list[Card]:
    """Every distinct physical card of a variant's deck, over a few pairings."""
    variant = VARIANTS[variant_id]
    cards = {card for seed in range(3) for card in variant.build_deck(random.Random(seed))}
    return sorted(cards, key=lambda c: c.name)


@pytest.mark.parametrize("face", ALL_FACES, ids=lambda f: f.name)
def test_face_name_spelling(face: Face) -> None:
    """Every face of every deck is named as docs/scenarios.md spells cards."""
    assert FACE_NAME.fullmatch(face.name), face.name
    assert str(face) == face.name


@pytest.mark.parametrize("face", ALL_FACES, ids=lambda f: f.name)
def test_face_parse_round_trip(face: Face) -> None:
    """Face.parse(face.name) gives back the very same face."""
    assert Face.parse(face.name) is face
    assert (face.color is None) == face.rank.is_wild


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_card_parse_round_trip(variant_id: str) -> None:
    """Card.parse(card.name) gives back the very same card, for every card of every deck."""
    for card in deck_cards(variant_id):
        assert Card.parse(card.name) is card
        assert str(card) == card.name


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_card_names_have_one_or_two_faces(variant_id: str) -> None:
    """Flip cards are named "light / dark", every other card by its one face."""
    two_sided = VARIANTS[variant_id].two_sided
    for card in deck_cards(variant_id):
        if two_sided:
            assert card.dark is not None
            assert card.name == f"{card.light.name} / {card.dark.name}"
        else:
            assert card.dark is None
            assert card.name == card.light.name


def test_two_sided_card_faces() -> None:
    """A two-sided card shows its light face on the light side and its dark face on the dark."""
    card = Card.parse("red 7 / purple draw five")
    assert card.face(Side.LIGHT) is Face(Color.RED, Rank.SEVEN)
    assert card.face(Side.DARK) is Face(Color.PURPLE, Rank.DRAW_FIVE)
    assert card.face(Side.DARK).name == "purple draw five"


def test_one_sided_card_shows_its_face_on_both_sides() -> None:
    """A one-sided card has no dark face; face() gives the light face on either side."""
    card = Card.parse("wild draw four")
    assert card.dark is None
    assert card.face(Side.DARK) is card.light is Face(None, Rank.WILD_DRAW_FOUR)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("  Red   7 ", "red 7"),
        ("WILD Draw Four", "wild draw four"),
        ("blue\tskip", "blue skip"),
        ("red 7/purple draw five", "red 7 / purple draw five"),
        ("  Wild  /  Wild Draw Color ", "wild / wild draw color"),
    ],
)
def test_parse_forgives_case_and_spacing(text: str, name: str) -> None:
    """Parsing ignores case and extra white space; the name is always canonical."""
    assert Card.parse(text).name == name


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "red",
        "7",
        "skip",
        "draw two",
        "red 10",
        "red -1",
        "magenta 3",
        "red wild",
        "blue wild draw four",
        "wild draw five",
        "red draw",
        "red 7 red",
        "7 red",
        "red 7 /",
        "/ pink 3",
        "/",
        "red 7 / pink 3 / teal 4",
        "pink 3 / red 7",
        "red 7 / blue 3",
        "wild / red 7",
        "red_7",
    ],
)
def test_bad_text_raises_bad_card(text: str) -> None:
    """A text that names no card raises BadCard (an UnoError with reason "bad-card")."""
    with pytest.raises(BadCard) as exc:
        Card.parse(text)
    assert isinstance(exc.value, UnoError)
    assert exc.value.reason == "bad-card"
    assert exc.value.message


@pytest.mark.parametrize("text", ["", "red", "red 7 / pink 3", "wild / wild", "red wild"])
def test_bad_face_text_raises_bad_card(text: str) -> None:
    """Face.parse refuses texts that are not one face, including two-sided names."""
    with pytest.raises(BadCard):
        Face.parse(text)


def test_faces_are_interned() -> None:
    """Equal faces are the same object, however they are made."""
    a = Face(Color.RED, Rank.SEVEN)
    assert a is Face(Color.RED, Rank.SEVEN) is Face.parse("red 7") is Face.parse(" RED 7")
    assert Face(None, Rank.WILD) is Face.parse("wild")
    assert Face(Color.RED, Rank.SEVEN) is not Face(Color.RED, Rank.EIGHT)


def test_cards_are_interned() -> None:
    """Equal cards are the same object, however they are made."""
    assert Card(Face.parse("red 7")) is Card.parse("red 7")
    two = Card(Face.parse("red 7"), Face.parse("purple draw five"))
    assert two is Card.parse("red 7 / purple draw five")
    assert two is not Card.parse("red 7")
    assert len({Card.parse("blue 3"), Card.parse("blue 3"), Card(Face.parse("blue 3"))}) == 1


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_decks_built_twice_share_card_objects(variant_id: str) -> None:
    """Two decks built from the same seed hold the very same card objects, position by position."""
    variant = VARIANTS[variant_id]
    a = variant.build_deck(random.Random(11))
    b = variant.build_deck(random.Random(11))
    assert all(x is y for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("text", ["red 7", "wild draw four", "red 7 / purple draw five"])
def test_interning_survives_copy_and_pickle(text: str) -> None:
    """copy, deepcopy and pickle give back the interned card and faces."""
    card = Card.parse(text)
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert pickle.loads(pickle.dumps(card.light)) is card.light


def test_cards_are_frozen() -> None:
    """Faces and cards cannot be changed."""
    card = Card.parse("red 7")
    with pytest.raises(AttributeError):
        card.light = Face.parse("red 8")  # type: ignore[misc]
    with pytest.raises((AttributeError, dataclasses.FrozenInstanceError)):
        card.light.rank = Rank.EIGHT  # type: ignore[misc]


@pytest.mark.parametrize("rank", list(Rank), ids=lambda r: r.value)
def test_rank_flags(rank: Rank) -> None:
    """Wild and restricted flags follow docs/rules.md §1.5 and §6-§11, on ranks and on faces."""
    wild = rank.value in WILDS.split("|")
    restricted = rank in (Rank.WILD_DRAW_FOUR, Rank.WILD_DRAW_TWO, Rank.WILD_DRAW_COLOR)
    assert rank.is_wild is wild
    assert rank.is_restricted is restricted
    face = Face(None, rank) if wild else Face(Color.RED, rank)
    assert face.wild is wild
    assert face.restricted is restricted
    assert rank.number == (int(rank.value) if rank.value.isdigit() else None)


@pytest.mark.parametrize(
    ("rank", "count"),
    [
        (Rank.DRAW_ONE, 1),
        (Rank.DRAW_TWO, 2),
        (Rank.DRAW_THREE, 3),
        (Rank.DRAW_FIVE, 5),
        (Rank.WILD_DRAW_FOUR, 4),
        (Rank.WILD_DRAW_TWO, 2),
        (Rank.SKIP, 0),
        (Rank.SEVEN, 0),
        (Rank.WILD, 0),
    ],
)
def test_draw_counts(rank: Rank, count: int) -> None:
    """Draw cards make the victim draw the number in their name (docs/rules.md §6-§11)."""
    assert rank.draw_count == count


def test_color_order_and_sides() -> None:
    """Colors come in docs/rules.md's color order (§1), four per side; a flip turns each side over."""
    assert [c.value for c in Color.of_side(Side.LIGHT)] == ["red", "yellow", "green", "blue"]
    assert [c.value for c in Color.of_side(Side.DARK)] == ["pink", "teal", "orange", "purple"]
    assert all(c.side is Side.LIGHT for c in Color.of_side(Side.LIGHT))
    assert all(c.side is Side.DARK for c in Color.of_side(Side.DARK))
    assert Side.LIGHT.other is Side.DARK
    assert Side.DARK.other is Side.LIGHT
