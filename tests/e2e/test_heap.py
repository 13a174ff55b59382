"""The collector's policy (`bot.ops.heap`) through real discord.py: a table that outlived a full
pass is frozen (later full passes don't walk it), plays on, and is freed once it is over."""

from __future__ import annotations

import gc
import weakref

from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import click, command, drawing_only, hand, table_of


def walked(obj: object) -> bool:
    """Whether the collector's full passes walk ``obj`` (frozen objects are in no generation)."""
    return any(o is obj for o in gc.get_objects())


async def test_a_frozen_table_plays_on_and_is_freed_when_over(uno: LocalDiscord) -> None:
    """A table opened after start-up and frozen by a full pass takes moves as before; ended,
    nothing keeps it (frozen objects are still freed by their reference counts: a table is in
    no reference cycle, or it would stay until the policy's next thorough pass)."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    game = await drawing_only(uno)  # alice to act: each draw passes the turn
    message = await hand(uno, alice, ch)
    table = table_of(uno, ch)
    gc.collect()  # a full pass: what outlives it is frozen
    assert not walked(table) and not walked(game)
    await click(uno, alice, message, "Draw")
    assert table.game is game and len(game.hands[str(alice.id)]) == 3  # drew, and the turn passed
    gone = weakref.ref(table)
    del table, game
    await command(uno, alice, ch, "uno end")
    await uno.stand_in.wait_until(lambda: gone() is None)
