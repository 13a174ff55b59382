"""The event loop while hand pictures are drawn (docs/card-art.md, "Show as picture").

Run: ``python -m benchmarks.pictures``. Ten Show as picture presses at once, drawn as the bot draws
them (``bot.service.hands._pictures``: a 20-card Flip hand with its other faces, and the top card)
off the event loop (``asyncio.to_thread``), while a ticker task asks to wake every millisecond and
records how late it wakes: the loop's longest stall. For comparison, the same ten drawn on the loop
itself. Each runs with the faces' cache cold (the first pictures after a start) and warm.
``--dos``: DOS's pictures instead (``_dos_pictures``: a 20-card DOS hand and a Center Row of 6
piles, 3 cards matched onto them).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable

from bot.art.faces import card_image
from bot.engine.cards import Color, Side
from bot.engine.dos.cards import DECK as DOS_DECK
from bot.engine.variants import VARIANTS
from bot.run import new_event_loop
from bot.service.hands import _dos_pictures, _pictures

PRESSES = 10
TICK = 0.001


async def stall(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """The loop's longest stall (ms: a 1 ms timer's greatest lateness) while ``work`` runs, and
    how long ``work`` took (ms)."""
    worst, done = 0.0, False

    async def ticker() -> None:
        nonlocal worst
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            worst = max(worst, time.perf_counter() - before - TICK)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    start = time.perf_counter()
    await work()
    took = time.perf_counter() - start
    done = True
    await task
    return worst * 1000, took * 1000


async def main(dos: bool = False) -> None:
    rng = random.Random(1)
    draws: list[Callable[[], dict[str, bytes]]] = []
    if dos:
        cards = list(DOS_DECK)
        for _ in range(PRESSES):
            rng.shuffle(cards)
            piles = [cards[20:21], cards[21:23], cards[23:24], cards[24:26], cards[26:27], cards[27:28]]
            draws.append(lambda h=cards[:20], p=piles: _dos_pictures(h, p, "20 cards", "Center Row"))
    else:
        deck = VARIANTS["flip"].build_deck(rng)
        top = deck[0].face(Side.LIGHT)
        for _ in range(PRESSES):
            hand = rng.sample(deck, 20)
            draws.append(
                lambda h=hand: _pictures(h, Side.LIGHT, top, Color.RED, "20 cards · light side", "Top card")
            )

    async def off_loop() -> None:
        await asyncio.gather(*(asyncio.to_thread(draw) for draw in draws))

    async def on_loop() -> None:
        for draw in draws:
            draw()

    print(f"{'':32} {'longest stall ms':>16} {'all ten ms':>10}")
    idle, _ = await stall(lambda: asyncio.sleep(0.3))
    print(f"{'idle loop, 0.3 s':32} {idle:16.1f}")
    for name, work in (("off the loop (to_thread)", off_loop), ("on the loop", on_loop)):
        for cache in ("cold", "warm"):
            if cache == "cold":
                card_image.cache_clear()
            worst, took = await stall(work)
            print(f"{name + ', cache ' + cache:32} {worst:16.1f} {took:10.0f}")


if __name__ == "__main__":
    loop = new_event_loop()
    loop.run_until_complete(main(dos="--dos" in sys.argv[1:]))
