"""DOS at the Discord table (docs/rules.md §14): a game played by users through the table message
and their hands, from a known deal to its final standings, with a double color match, a DOS call
and a catch."""

from __future__ import annotations

import random
from collections import Counter

from bot.engine.dos.actions import DosAction
from bot.engine.dos.cards import DECK, DosCard
from bot.engine.dos.game import DosGame
from bot.localdiscord.records import Channel, Message
from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import (
    choose,
    click,
    command,
    hand,
    labels,
    open_table,
    play_out,
    replace_game,
    table_message,
    table_of,
)


def rig_dos(
    env: LocalDiscord, channel: Channel, *, hands: dict[str, list[str]], row: list[str], draw: list[str]
) -> DosGame:
    """Replace the table's DOS game by a known deal (players by user name), the first hand's
    player to move; ``draw``'s last card is the draw pile's top, the rest of the deck under it."""
    table = table_of(env, channel)
    ids = {s.name: s.id for s in table.seats}
    dealt = Counter(DosCard.parse(c) for c in [*(c for h in hands.values() for c in h), *row, *draw])
    rest = list((Counter(DECK) - dealt).elements())
    random.Random(7).shuffle(rest)
    first = ids[next(iter(hands))]
    game = DosGame.from_deal(
        [s.id for s in table.seats],
        options=table.game.options if table.game else None,
        dealer=next(p for p in ids.values() if p != first),
        hands={ids[k]: [DosCard.parse(c) for c in v] for k, v in hands.items()},
        row=[[DosCard.parse(c)] for c in row],
        draw_pile=rest + [DosCard.parse(c) for c in draw],
        turn=first,
    )
    return replace_game(table, game)


def action_button(message: Message, text: str) -> str:
    """The label of the hand's button carrying the DOS action ``text``."""
    return next(str(b["label"]) for b in message.buttons if b["custom_id"].endswith(":a:" + text))


async def test_dos_game_through_the_table(uno: LocalDiscord) -> None:
    """Alice and Bob play DOS through the UI: the lobby offers DOS; Alice makes a double color
    match from the match select and places her bonus card, then calls DOS from her hand; Bob
    comes down to two cards without calling and Alice catches him from the table message; they
    play on to the final standings."""
    s = uno.stand_in
    channel = uno.channel("uno")
    alice, bob = uno.user("alice"), uno.user("bob")
    lobby = await command(uno, alice, channel, "uno new", variant="dos", target_score=30)
    assert lobby is not None and "DOS" in lobby.text
    await command(uno, alice, channel, "uno end")
    table = await open_table(uno, channel, alice, [bob], variant="dos", target_score=30)
    assert "Center Row" in table_message(uno, channel).text
    game = rig_dos(
        uno,
        channel,
        hands={
            "alice": ["blue 1", "blue 4", "red 3", "green 9", "yellow 10"],
            "bob": ["red 3", "red 4", "yellow 10"],
        },
        row=["blue 5", "red 7"],
        draw=["blue 9", "green 6"],  # green 6 refills the row, then Bob draws blue 9
    )
    a, b = (table.seats[0].id, table.seats[1].id)

    # Alice: a double color match (blue 1 + blue 4 on the blue 5), chosen in the match select.
    mine = await hand(uno, alice, channel)
    match = DosAction.parse("play pile=1 blue 1 + blue 4").text()
    assert match in [o["value"] for o in mine.selects[0]["options"]]
    answer = await choose(uno, alice, mine, match)
    assert answer is not None and game.pending.kind.value == "place" and game.bonus == 1
    # Nothing else matches: the turn ends and her bonus card is placed from the hand's buttons.
    answer = await click(uno, alice, answer, action_button(answer, "place yellow 10"))
    assert answer is not None and len(game.hands[a]) == 2 and game.pending.player == b
    assert len(game.hands[b]) == 4  # her double color match made Bob draw one
    assert a in game.catchable
    # She calls DOS from her hand before anyone catches her.
    answer = await click(uno, alice, answer, "DOS!")
    assert a in game.called and a not in game.catchable

    # Bob: red 3 + red 4 on the red 7, a double color match that leaves him two cards, no call.
    theirs = await hand(uno, bob, channel)
    answer = await choose(uno, bob, theirs, DosAction.parse("play pile=1 red 3 + red 4").text())
    assert answer is not None and len(game.hands[b]) == 2 and b in game.catchable
    # Alice catches him from the table message once it shows the open window.
    await s.wait_until(lambda: not table_message(uno, channel).component(label="Catch").get("disabled"))
    await click(uno, alice, table_message(uno, channel), "Catch")
    assert b in game.caught and game.due == 2  # drawn at the end of his own turn
    await s.wait_until(lambda: "without DOS" in table_message(uno, channel).text)
    text = table_message(uno, channel).text
    assert (
        "double color match" in text
        and "alice: DOS!" in text
        and "DOS!" in labels(table_message(uno, channel))
    )

    await play_out(uno, channel, table, {"alice": alice, "bob": bob}, random.Random(5))
    final = await s.wait_for_message(channel, lambda m: "won!" in m.text)
    assert "DOS" in final.text and ("alice" in final.text or "bob" in final.text)
    # Its records are titled by the game: DOS is not UNO.
    board = await command(uno, bob, channel, "uno leaderboard", variant="dos")
    assert board is not None and board.text.split("\n")[0] == "### DOS leaderboard"
    board = await command(uno, bob, channel, "uno leaderboard")
    assert board is not None and board.text.split("\n")[0] == "### Leaderboard · all editions"
    stats = await command(uno, bob, channel, "uno stats", member=alice)
    assert stats is not None and stats.text.split("\n")[0] == "### alice's DOS record"
    assert "UNO" not in stats.text
