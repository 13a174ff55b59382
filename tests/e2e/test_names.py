"""What users type, end to end: hostile display names and a host's own Wild Customizable text
are shown as plain text on the lobby, the table, its log, a round's summary and the standings
(Markdown and mentions escaped, nobody pinged, a right-to-left override dropped)."""

from __future__ import annotations

import re

from bot import render
from bot.localdiscord.records import Message
from bot.localdiscord.testing import LocalDiscord
from tests.e2e.helpers import click, command, hand, lobby_message, rig, table_message, table_of

RLO = "\u202e"


def shown_plain(typed: str, text: str) -> bool:
    """Whether ``text`` shows ``typed`` as plain text only: as `render.plain` renders it, never
    unescaped (not after a backslash), and never with a bidirectional override."""
    unescaped = re.search(r"(?<!\\)" + re.escape(typed), text)
    return render.plain(typed) in text and unescaped is None and RLO not in text


async def test_hostile_names_are_plain_text_everywhere(uno: LocalDiscord) -> None:
    """Names that are a mention of another player, a Markdown link, a spoiler, bold, code and a
    right-to-left override, and a Wild Customizable text with all of these: plain text on the
    lobby, the table, its log, a round's summary and the standings; no message pings anyone."""
    ch, alice = uno.channel("uno"), uno.user("alice")
    names = [
        f"<@{alice.id}>",
        "[Free Nitro](https://example.com)",
        "||spoiler||",
        "**bold**",
        "`code` __under__",
        RLO + "evil",
    ]
    players = [uno.stand_in.add_user(name) for name in names]
    custom = f"**Everyone** draws ||{RLO}7|| <@{alice.id}> [link](https://example.com)"
    uno.stand_in.grant(alice, "manage_channels")
    settings = await command(uno, alice, ch, "uno settings", customizable_rule=custom)
    assert settings is not None and render.plain(custom, 300) in settings.text and RLO not in settings.text
    await command(uno, alice, ch, "uno new", variant="dc-super-hero-girls", target_score=20)
    for user in players:
        await click(uno, user, lobby_message(uno, ch), "Join")
    lobby = lobby_message(uno, ch)
    assert render.plain(custom, 300) in lobby.text and "<@" + str(alice.id) not in lobby.text
    assert all(shown_plain(name, lobby.text) for name in names), lobby.text
    await click(uno, alice, lobby, "Start")
    await uno.stand_in.wait_until(lambda: table_of(uno, ch).message_id)

    # Round 1: the "mention" goes out; nobody else scores (blue 0s): a round's summary.
    others = {name: ["blue 0"] for name in ["alice", *names[1:]]}
    rig(uno, ch, variant="classic", dealer="alice", hands={names[0]: ["red 2"], **others},
        discard=["red 7"], draw=["green 1"] * 60)  # fmt: skip
    await click(uno, players[0], await hand(uno, players[0], ch), "🟥 red 2")
    summary = await uno.stand_in.wait_for_message(ch, lambda m: m.text.startswith("🏁 Round 1"))
    # Round 2: the override goes out and reaches the target: the standings.
    others = {name: ["wild draw four"] for name in ["alice", *names[:-1]]}
    rig(uno, ch, variant="classic", dealer=names[-2], hands={names[-1]: ["red 2"], **others},
        discard=["red 7"], draw=["green 1"] * 60)  # fmt: skip
    table = table_message(uno, ch)
    await click(uno, players[-1], await hand(uno, players[-1], ch), "🟥 red 2")
    standings = await uno.stand_in.wait_for_message(ch, lambda m: "won!" in m.text)
    await uno.stand_in.wait_until(lambda: "The game is over" in table.text)
    log = table.text.split("**Last moves**\n", 1)[1]  # the table log, and its footer line
    for shown in (lobby, table, summary, standings):
        assert all(shown_plain(name, shown.text) for name in names), shown.text
    assert all(shown_plain(name, log) for name in (names[0], names[-1])), log
    assert render.plain(names[-1]) in standings.text.split("\n", 1)[0]  # the standings' heading
    # Nobody is pinged but by the turn pings, each the one player to act.
    pinged: list[Message] = [m for m in uno.stand_in.messages(ch) if m.mentions]
    assert all("it's your move" in m.content and len(m.mentions) == 1 for m in pinged), pinged
    assert not (summary.mentions or standings.mentions or table.mentions or lobby.mentions)
