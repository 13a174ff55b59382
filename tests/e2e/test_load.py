"""What keeps the bot light under many tables (docs/performance/discord-layer.md), through real discord.py:
no view outlives its message, and the table message ends on the latest state however its edits
were coalesced."""

from __future__ import annotations

import gc

import discord
import pytest

from bot.engine.game import Game
from bot.localdiscord.testing import LocalDiscord
from bot.service import TABLE
from tests.e2e.helpers import (
    bot_of,
    both_apis,
    click,
    command,
    drawing_only,
    hand,
    hold_table_edits,
    open_table,
    table_message,
    table_of,
)


@both_apis
async def test_no_view_or_interaction_outlives_its_answer(uno: LocalDiscord) -> None:
    """Every component is dynamic, so discord.py keeps no view of a sent hand or table (a running
    view sent with an ephemeral hand would get a 15-minute timeout that keeps it alive); and the
    open hand is kept by its webhook, not by its interaction (which holds the whole message); nor
    does it keep a message cache, which the bot never reads."""
    ch = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    await open_table(uno, ch, alice, [bob])
    message = await hand(uno, alice, ch)
    await click(uno, alice, message, "Refresh")

    def none_alive() -> bool:
        gc.unfreeze()  # `bot.ops.heap` freezes what outlives a full pass: walk everything
        gc.collect()
        gc.unfreeze()  # ... and list it all
        alive = gc.get_objects()
        gc.freeze()
        return not any(isinstance(o, discord.ui.View | discord.Interaction) for o in alive)

    await uno.stand_in.wait_until(none_alive)
    store = bot_of(uno)._connection._view_store
    assert not store._views and not store._synced_message_views
    assert bot_of(uno)._connection._messages is None  # no message cache (it reads none)


async def test_a_click_does_not_rebuild_its_whole_message(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click on a hand's button (Draw) is dispatched from the clicked component alone:
    discord.py's rebuilding of the whole clicked Components V2 message as a view (every
    container, text, thumbnail, row and button, on the way to the acknowledgement) does not run,
    and the move is made as before."""
    rebuilt: list[int] = []
    from_message = discord.ui.LayoutView.from_message.__func__  # type: ignore[attr-defined]

    def counted(cls: type[discord.ui.LayoutView], message: discord.Message, **kwargs: object) -> object:
        rebuilt.append(message.id)
        return from_message(cls, message, **kwargs)

    monkeypatch.setattr(discord.ui.LayoutView, "from_message", classmethod(counted))
    game = await drawing_only(uno)
    alice = uno.user("alice")
    message = await hand(uno, alice, uno.channel("uno"))
    await click(uno, alice, message, "Draw")
    assert game.pending.player == table_of(uno, uno.channel("uno")).seats[1].id  # alice's draw passed
    assert rebuilt == []


async def test_table_edits_collapse_into_one_showing_the_latest_state(
    uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While an edit of the table message is on its way, later moves don't each send one: one
    more edit follows it, showing the table as it is by then."""
    ch = uno.channel("uno")
    game = await drawing_only(uno)
    table = table_of(uno, ch)
    edits, slow = hold_table_edits(uno, table, monkeypatch)
    await _draw(uno, game, 1)
    await uno.stand_in.wait_until(lambda: edits)  # the first move's edit, held
    await _draw(uno, game, 2)
    assert len(edits) == 1  # the first move's edit is held; the others wait for it
    slow.set()
    latest = f"Draw pile {len(game.draw_pile)} "
    await uno.stand_in.wait_until(lambda: latest in table_message(uno, ch).text)
    await bot_of(uno).service.updates.done((ch.id, TABLE))
    assert len(edits) == 2


async def test_one_ping_at_a_time_for_the_player_to_act(uno: LocalDiscord) -> None:
    """Each turn mentions the player to act, and only them; the previous ping is deleted."""
    ch = uno.channel("uno")
    game = await drawing_only(uno)
    await _draw(uno, game, 3)
    player = str(game.pending.player)

    def pinged() -> list[str]:
        pings = [m for m in uno.stand_in.messages(ch) if "it's your move" in m.text]
        return [str(u.id) for m in pings for u in m.mentions]

    await uno.stand_in.wait_until(lambda: pinged() == [player])


async def _draw(uno: LocalDiscord, game: Game, moves: int) -> None:
    """The player to act draws (from a hand opened with /uno hand), ``moves`` times."""
    ch = uno.channel("uno")
    users = {str(u.id): u for u in (uno.user("alice"), uno.user("bob"))}
    for _ in range(moves):
        user = users[str(game.pending.player)]
        message = await command(uno, user, ch, "uno hand")
        assert message is not None
        await click(uno, user, message, "Draw")
