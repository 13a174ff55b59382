"""The card art (bot/art/): every face of every edition drawn, deterministic, named for Discord's
application emojis, told apart without color vision, and composed into pictures."""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.art import all_faces, art_side, card_image, card_png, card_size, edition_faces, emoji_name
from bot.art.__main__ import main
from bot.art.faces import BADGE
from bot.art.pictures import (
    CAPTION,
    GAP,
    LABEL,
    PAD,
    _font,
    cards_picture,
    hand_picture,
    row_picture,
    table_picture,
)
from bot.art.style import CHARACTERS, GLYPHS, MARK_SHAPES, MARKS, PAPER, dos_glyph
from bot.engine.cards import Card, Color, Face, Rank, Side
from bot.engine.dos.cards import DECK as DOS_DECK
from bot.engine.dos.cards import DosCard
from bot.engine.editions import EDITIONS
from bot.engine.variants import VARIANTS

EDITION_FACES = [(e, f, s) for e in EDITIONS for f, s in edition_faces(e)]
EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")


def decode(data: bytes) -> Image.Image:
    """The PNG bytes as an image (checking they are a PNG)."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image


@pytest.mark.parametrize("height", [40, 128])
@pytest.mark.parametrize(("edition", "face", "side"), EDITION_FACES, ids=lambda x: getattr(x, "name", str(x)))
def test_every_face_renders(edition: str, face: Face, side: Side, height: int) -> None:
    """Every face of every edition (both sides of Flip's) draws at 40 and 128 px, as a PNG of the
    card's size with transparent round corners and an opaque middle."""
    image = decode(card_png(face, side, height))
    assert image.size == card_size(height)
    assert image.mode == "RGBA"
    assert image.getpixel((0, 0))[3] == 0
    assert image.getpixel((image.width // 2, image.height // 2))[3] == 255


def test_emoji_pictures_are_square_cards_within_discords_limit() -> None:
    """Every face as an emoji (``square=True``, 128 px): a 128 x 128 PNG within Discord's 256 KiB,
    the card unchanged in the middle and transparent at its sides."""
    for face, side in all_faces():
        data = card_png(face, side, 128, square=True)
        assert len(data) <= 256 * 1024
        image = decode(data)
        assert (image.size, image.mode) == ((128, 128), "RGBA")
        card = card_image(face, side, 128)
        left = (128 - card.width) // 2
        assert image.crop((left, 0, left + card.width, 128)).tobytes() == card.tobytes()
        sides = [image.crop((0, 0, left, 128)), image.crop((left + card.width, 0, 128, 128))]
        assert all(part.getextrema()[3] == (0, 0) for part in sides)


def test_every_deck_face_has_art() -> None:
    """Each face of each deck, on its side, is among the faces drawn (and the command writes);
    DOS's 41 (numbers 1 and 3-10 and Wild # in four colors, Wild DOS) too."""
    drawn = {emoji_name(f, s) for f, s in all_faces()}
    for variant in VARIANTS.values():
        for side in Side:
            for face in variant.deck_faces(side):
                assert emoji_name(face, side) in drawn, (variant.id, face.name)
    dos = {emoji_name(card) for card in DOS_DECK}
    assert len(dos) == 41 and dos <= drawn and "dos_red_10" in dos and "dos_wild_dos" in dos


def test_same_face_same_bytes_across_processes() -> None:
    """Drawing is deterministic: drawn afresh, and in another process with another hash seed, a
    face gives the same PNG bytes."""
    sample = [
        (Face.parse("red 7"), Side.LIGHT),
        (Face.parse("wild"), Side.DARK),
        (Face.parse("howler"), Side.LIGHT),
    ]
    here = [hashlib.sha256(card_png(f, s, 64)).hexdigest() for f, s in sample]
    fresh = card_image.__wrapped__(*sample[0], 64)
    assert fresh is not card_image(*sample[0], 64)
    assert fresh.tobytes() == card_image(*sample[0], 64).tobytes()
    script = (
        "import hashlib; from bot.art import card_png; from bot.engine.cards import Face, Side\n"
        f"for text, side in {[(f.name, s.name) for f, s in sample]!r}:\n"
        "    print(hashlib.sha256(card_png(Face.parse(text), Side[side], 64)).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == here


def test_emoji_names_valid_and_unique() -> None:
    """Every face's emoji name is 2-32 characters of [A-Za-z0-9_], and no two faces share one
    (the light and the dark wild are different pictures, so different names)."""
    names = [emoji_name(f, s) for f, s in all_faces()]
    assert all(EMOJI_NAME.fullmatch(n) for n in names), [n for n in names if not EMOJI_NAME.fullmatch(n)]
    assert len(set(names)) == len(names)
    assert emoji_name(Face.parse("wild"), Side.LIGHT) != emoji_name(Face.parse("wild"), Side.DARK)
    pictures = {card_png(f, s, 40) for f, s in all_faces()}
    assert len(pictures) == len(names)


def test_colored_face_ignores_side() -> None:
    """A colored face takes its color's side whatever side it is asked for; a wild takes the side."""
    red7 = Face.parse("red 7")
    assert art_side(red7, Side.DARK) is Side.LIGHT
    assert emoji_name(red7, Side.DARK) == emoji_name(red7) == "uno_red_7"
    assert art_side(Face.parse("wild"), Side.DARK) is Side.DARK


@pytest.mark.parametrize("side", list(Side))
def test_colors_of_a_side_have_different_marks(side: Side) -> None:
    """Color-blind players tell the colors of a side apart by their marks: every pair of colors has
    two different marks, drawn from two different shapes."""
    for a, b in itertools.combinations(Color.of_side(side), 2):
        assert MARKS[a] is not MARKS[b]
        assert MARK_SHAPES[MARKS[a]] != MARK_SHAPES[MARKS[b]]


def _badge_ink(color: Color) -> Image.Image:
    """The inside of a 7's corner badge, black and white: the mark as drawn."""
    image = card_image(Face(color, Rank.SEVEN), color.side, 128).convert("L")
    w = image.width
    frame = w * (0.085 if color.side is Side.DARK else 0.04)
    r = w * BADGE
    c = frame + r * 1.1
    box = tuple(round(v) for v in (c - r * 0.7, c - r * 0.7, c + r * 0.7, c + r * 0.7))
    return image.crop(box).point(lambda v: 255 if v > 128 else 0)


@pytest.mark.parametrize("side", list(Side))
def test_marks_differ_in_grayscale(side: Side) -> None:
    """In grayscale, the corner badges of two colors' 7s differ in many pixels (the marks are drawn,
    and not the same)."""
    for a, b in itertools.combinations(Color.of_side(side), 2):
        one, two = _badge_ink(a), _badge_ink(b)
        differing = one.width * one.height - ImageChops.difference(one, two).histogram()[0]
        assert differing > one.width * one.height * 0.05, (a, b, differing)


def test_every_rank_has_a_glyph_we_can_draw() -> None:
    """Every rank has a glyph; text glyphs use only the characters drawn as strokes; within a
    side of an edition, no two ranks share a glyph on the same kind of field."""
    assert set(GLYPHS) == set(Rank)
    assert all(set(g) <= set(CHARACTERS) for g in GLYPHS.values() if isinstance(g, str))
    dos = set(DOS_DECK)
    assert all(set(dos_glyph(c)) <= set(CHARACTERS) for c in dos)
    assert len({(dos_glyph(c), c.color) for c in dos}) == len(dos)
    for variant in VARIANTS.values():
        for side in Side:
            ranks = {f.rank for f in variant.deck_faces(side)}
            looks = {(GLYPHS[r], r.is_wild) for r in ranks}
            assert len(looks) == len(ranks), (variant.id, side)


def test_hand_picture_of_25_cards() -> None:
    """25 cards at 96 px in rows of 10 make 3 rows: the picture has the layout's size, and a Flip
    hand adds each card's other face under it at half height."""
    w, h = card_size(96)
    assert (w, h) == (72, 96)
    classic = [Card(f) for f in VARIANTS["classic"].light[:25]]
    image = decode(hand_picture(classic, Side.LIGHT, caption="alice: 25 cards"))
    width = 2 * PAD + 10 * w + 9 * GAP
    assert image.size == (width, 2 * PAD + CAPTION + GAP + 3 * h + 2 * GAP) == (816, 354)
    flip = VARIANTS["flip"]
    two_sided = [Card(light, dark) for light, dark in zip(flip.light[:25], flip.dark[:25], strict=True)]
    image = decode(hand_picture(two_sided, Side.DARK))
    row = h + GAP // 2 + h // 2
    assert image.size == (width, 2 * PAD + 3 * row + 2 * GAP) == (816, 484)


def test_hand_picture_shows_the_side_asked() -> None:
    """A Flip hand shown on the dark side has the dark face big, the light one small under it."""
    card = Card(Face.parse("red 7"), Face.parse("purple draw five"))
    image = decode(hand_picture([card], Side.DARK)).convert("RGBA")
    big = image.crop((PAD, PAD, PAD + 72, PAD + 96))
    assert (
        big.tobytes() == _on_background(card_image(Face.parse("purple draw five"), Side.DARK, 96)).tobytes()
    )


def test_pictures_refuse_bad_layouts() -> None:
    """A layout without room, or backs that do not match the faces, is refused."""
    faces = list(all_faces()[:3])
    with pytest.raises(ValueError, match="per_row"):
        cards_picture(faces, per_row=0)
    with pytest.raises(ValueError, match="faces under 2 cards for 3 cards"):
        cards_picture(faces, under=[[], []])
    with pytest.raises(ValueError, match="2 labels for 3 cards"):
        cards_picture(faces, labels=["1", "2"])
    with pytest.raises(ValueError, match="an empty pile"):
        row_picture([[DosCard.parse("red 3")], []])


def _pixel(face: Face | DosCard, x: float, y: float) -> tuple[int, ...]:
    """The colour at (``x``, ``y``), as shares of the width and height, of the face at 128 px."""
    image = card_image(face, Side.LIGHT, 128)
    return tuple(image.getpixel((round(x * image.width), round(y * image.height))))[:3]


@pytest.mark.parametrize("number", [1, 3, 5, 9])
@pytest.mark.parametrize("color", list(Color.of_side(Side.LIGHT)))
def test_a_dos_card_is_not_taken_for_an_uno_card(color: Color, number: int) -> None:
    """A DOS card has a paper band inside its ink edge and DOS's mark (an ink badge) in its
    top-right corner, where the UNO card of the same color and number has its field: the two
    differ there at 128 px and at 40 px."""
    dos, uno = DosCard.parse(f"{color.value} {number}"), Face.parse(f"{color.value} {number}")
    assert _pixel(dos, 0.06, 0.5) == PAPER != _pixel(uno, 0.06, 0.5)  # the band, left edge
    assert max(_pixel(dos, 0.78, 0.2)) < 60 < max(_pixel(uno, 0.78, 0.2))  # the mark's ink
    for height in (40, 128):
        one, two = card_image(dos, Side.LIGHT, height), card_image(uno, Side.LIGHT, height)
        same = ImageChops.difference(one.convert("RGB"), two.convert("RGB")).convert("L").histogram()[0]
        differing = one.width * one.height - same
        assert differing > one.width * one.height * 0.15, (height, differing)


def test_row_picture_shows_each_pile_and_the_cards_matched_onto_it() -> None:
    """The Center Row picture: each pile's card left to right at 96 px, its number over it
    (centred, as the text names the piles: 1, 2, 3), and a pile's matched cards (one, or a pair
    side by side) half as tall under it."""
    w, h = card_size(96)
    piles = [
        [DosCard.parse("blue 5")],
        [DosCard.parse("red 7"), DosCard.parse("red 3"), DosCard.parse("wild dos")],
        [DosCard.parse("green wild number"), DosCard.parse("yellow 10")],
    ]
    image = decode(row_picture(piles, caption="Center Row")).convert("RGBA")
    label = 96 // LABEL + GAP // 2
    assert image.size == (2 * PAD + 3 * w + 2 * GAP, 2 * PAD + CAPTION + GAP + label + h + GAP // 2 + h // 2)
    top = PAD + CAPTION + GAP + label
    big = image.crop((PAD, top, PAD + w, top + h))
    assert big.tobytes() == _on_background(card_image(piles[0][0], Side.LIGHT, 96)).tobytes()
    small_w, small_h = card_size(48)
    x, y = PAD + w + GAP, top + h + GAP // 2  # the pair under pile 2 fills its width
    for n, card in enumerate(piles[1][1:]):
        shown = image.crop((x + n * small_w, y, x + (n + 1) * small_w, y + small_h))
        assert shown.tobytes() == _on_background(card_image(card, Side.LIGHT, 48)).tobytes()
    empty_under_pile_1 = image.crop((PAD, y, PAD + w, y + small_h)).getcolors()
    assert empty_under_pile_1 == [(w * small_h, (49, 51, 56, 255))]
    numbers = []
    for n in range(3):
        left = PAD + n * (w + GAP)
        band = image.crop((left, top - label, left + w, top)).convert("L")
        ink = band.point(lambda v: 255 if v > 128 else 0).getbbox()  # the number's light strokes
        assert ink is not None and ink[3] - ink[1] >= 96 // LABEL * 0.6, ink  # most of its size
        assert abs((ink[0] + ink[2]) / 2 - w / 2) <= 2, ink  # centred over the card
        numbers.append(band.tobytes())
    assert len(set(numbers)) == 3  # 1, 2 and 3 differ
    assert (
        numbers[0]
        == decode(row_picture(piles[:1]))
        .convert("RGBA")
        .crop((PAD, PAD, PAD + w, PAD + label))
        .convert("L")
        .tobytes()
    )  # pile 1 is "1" wherever it is drawn


def _on_background(card: Image.Image) -> Image.Image:
    return Image.alpha_composite(Image.new("RGBA", card.size, (49, 51, 56, 255)), card)


def test_table_picture() -> None:
    """The table picture holds the top card and, once a color is named, a chip of it beside."""
    top = Face.parse("wild draw four")
    plain = decode(table_picture(top, Side.LIGHT, None))
    named = decode(table_picture(top, Side.LIGHT, Color.BLUE, caption="Top card"))
    w, h = card_size(160)
    assert plain.size == (2 * PAD + w, 2 * PAD + h)
    assert named.size == (2 * PAD + w + 2 * GAP + h // 2, 2 * PAD + CAPTION + GAP + h)


def test_command_writes_each_face_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command writes every face as <emoji name>.png (the bytes of card_png), and a second run
    writes nothing: the folder is its cache."""
    assert main(["--out", str(tmp_path), "--height", "40"]) == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == sorted(f"{emoji_name(f, s)}.png" for f, s in all_faces())
    face, side = all_faces()[-1]
    assert (tmp_path / f"{emoji_name(face, side)}.png").read_bytes() == card_png(face, side, 40)
    assert f"{len(files)} files written" in capsys.readouterr().out
    assert main(["--out", str(tmp_path), "--height", "40"]) == 0
    assert "0 files written" in capsys.readouterr().out


def test_captions_draw_accented_letters() -> None:
    """A French, Spanish or Portuguese caption ("côté", "año", "não") draws its accented letters,
    not the font's missing-glyph box (Pillow's bundled font has none of them)."""
    font = _font(CAPTION)
    missing = bytes(font.getmask("\U000f0000"))  # a private-use character: no font draws it
    assert all(bytes(font.getmask(letter)) != missing for letter in "ôéçãñáêõ")
