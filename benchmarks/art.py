"""Card art benchmark (docs/card-art.md): drawing each face, and composing hand and table pictures.

Run: ``python -m benchmarks.art``. Prints milliseconds: per face drawn afresh (128 and 40 px), per
20-card hand picture with its faces already drawn (classic, and a Flip hand with its other faces),
per table picture, a DOS hand of 20 and a Center Row of 6 piles, and the whole ``python -m bot.art``
set.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from bot.art import all_faces, card_image, card_png
from bot.art.pictures import ArtFace, cards_picture, hand_picture, row_picture, table_picture
from bot.engine.cards import Color, Side
from bot.engine.dos.cards import DECK as DOS_DECK
from bot.engine.variants import VARIANTS


def per_call_ms(fn: Callable[[], object], repeat: int) -> float:
    """The median milliseconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    """Print the figures."""
    faces = all_faces()
    for height in (128, 40):
        card_image.cache_clear()
        start = time.perf_counter()
        for face, side in faces:
            card_image(face, side, height)
        print(f"draw a face afresh, {height} px: {(time.perf_counter() - start) * 1000 / len(faces):.2f} ms")
    for face, side in faces:
        card_image(face, side, 128)
    card_png.cache_clear()
    start = time.perf_counter()
    for face, side in faces:
        card_png(face, side, 128)
    print(
        f"all {len(faces)} faces encoded as 128 px PNG (faces drawn): {(time.perf_counter() - start) * 1000:.0f} ms"
    )
    rng = random.Random(1)
    classic = VARIANTS["classic"].build_deck(rng)
    flip = VARIANTS["flip"].build_deck(rng)
    rng.shuffle(classic)
    rng.shuffle(flip)
    hands = {"classic": (classic[:20], Side.LIGHT), "flip": (flip[:20], Side.DARK)}
    for name, (cards, side) in hands.items():
        card_image.cache_clear()
        start = time.perf_counter()
        hand_picture(cards, side, caption="Your hand")
        cold = (time.perf_counter() - start) * 1000
        warm = per_call_ms(lambda cards=cards, side=side: hand_picture(cards, side, caption="Your hand"), 50)
        print(f"{name} hand of 20 at 96 px: {warm:.1f} ms (faces drawn), {cold:.0f} ms (first, drawing them)")
    top = classic[0].light
    warm = per_call_ms(lambda: table_picture(top, Side.LIGHT, Color.RED, caption="Top card"), 50)
    print(f"table picture at 160 px: {warm:.1f} ms (face drawn)")
    dos = list(DOS_DECK)
    rng.shuffle(dos)
    dos_hand: list[ArtFace] = [(card, Side.LIGHT) for card in dos[:20]]
    piles = [dos[20:21], dos[21:23], dos[23:24], dos[24:27], dos[27:28], dos[28:29]]
    card_image.cache_clear()
    start = time.perf_counter()
    cards_picture(dos_hand, caption="Your hand")
    row_picture(piles, caption="Center Row")
    cold = (time.perf_counter() - start) * 1000
    warm = per_call_ms(lambda: cards_picture(dos_hand, caption="Your hand"), 50)
    row = per_call_ms(lambda: row_picture(piles, caption="Center Row"), 50)
    print(f"DOS hand of 20 at 96 px: {warm:.1f} ms, Center Row of 6 piles: {row:.1f} ms (faces drawn)")
    print(f"DOS hand and Center Row the first time (drawing their faces): {cold:.0f} ms")


if __name__ == "__main__":
    main()
