"""Playing as users through the stand-in: slash commands, lobby buttons, hands and their buttons."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Iterator
from typing import Any, TypeVar

import pytest

from bot.client.bot import UnoBot
from bot.client.errors import WITHDRAWN
from bot.engine.cards import Card, Color
from bot.engine.dos.game import DosGame
from bot.engine.game import Game
from bot.engine.options import Options
from bot.localdiscord.records import Channel, Message, User
from bot.localdiscord.testing import LocalDiscord
from bot.storage import StorageError
from bot.tables import Table

G = TypeVar("G", Game, DosGame)

CONTROL = {"Refresh", "Back", "◀", "▶", "Show as picture"}  # no move: they only redraw or show

both_apis = pytest.mark.parametrize(
    "internals", [True, False], ids=["internals", "public-api"], indirect=True
)
"""Run a test of `uno` twice: with discord.py's internals (`bot.client.internals`) and with its
public API only (``discord.internals = false``), which players must not tell apart."""


def hold_table_edits(
    env: LocalDiscord, table: Table, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[int], asyncio.Event]:
    """Hold the bot's edits of the table message until the returned event is set; the list
    grows by one entry per edit the bot starts."""
    http = bot_of(env).http
    edit, release, held = http.edit_message, asyncio.Event(), []

    async def held_edit(channel_id: int, message_id: int, **kwargs: Any) -> Any:
        if message_id == table.message_id:
            held.append(message_id)
            await release.wait()
        return await edit(channel_id, message_id, **kwargs)

    monkeypatch.setattr(http, "edit_message", held_edit)
    return held, release


def bot_of(env: LocalDiscord) -> UnoBot:
    """The running bot."""
    client = env.client
    assert isinstance(client, UnoBot)
    return client


@contextlib.contextmanager
def storage_failing(env: LocalDiscord, *methods: str) -> Iterator[None]:
    """Within the block, the bot's storage ``methods`` (default: ``save_table``) raise
    StorageError ("disk full")."""
    storage = bot_of(env).storage
    real = {name: getattr(storage, name) for name in methods or ("save_table",)}

    async def failing(*args: object) -> None:
        raise StorageError("disk full")

    for name in real:
        setattr(storage, name, failing)
    try:
        yield
    finally:
        for name, method in real.items():
            setattr(storage, name, method)


def table_of(env: LocalDiscord, channel: Channel) -> Table:
    """The bot's table for a channel."""
    table = bot_of(env).service.tables.get(channel.id)
    assert table is not None, "no table in that channel"
    return table


async def command(
    env: LocalDiscord, user: User, channel: Channel, name: str, **options: Any
) -> Message | None:
    """Run a slash command; returns the message it answered with (None for a modal): for a
    command refused after its public placeholder was taken back, the private refusal."""
    run = await env.stand_in.slash(user, channel, name, **options)
    response = await run.answer()
    if response.message is not None and response.message.content == WITHDRAWN:
        return await run.followup(0)
    return response.message


async def click(env: LocalDiscord, user: User, message: Message, label: str) -> Message | None:
    """Click the button labelled ``label`` on ``message``; returns the message the bot answered
    with (the edited message for an update, or a new one)."""
    button = message.component(label=label)
    run = await env.stand_in.click(user, message, button["custom_id"])
    response = await run.answer()
    return response.message


LEAVE = "Leave the game"
"""The button that confirms ``/uno leave`` during a game."""


async def leave(env: LocalDiscord, user: User, channel: Channel, **options: Any) -> Message | None:
    """``/uno leave`` (``bot=True``: a bot takes the seat over); during a game, its confirmation
    answered with Leave the game. Returns the last answer: the confirmation saying what was done,
    or a refusal."""
    answer = await command(env, user, channel, "uno leave", **options)
    if answer is None or LEAVE not in labels(answer):
        return answer
    return await click(env, user, answer, LEAVE)


async def choose(
    env: LocalDiscord, user: User, message: Message, value: str, custom_id: str | None = None
) -> Message | None:
    """Pick ``value`` in the (first, or given) select of ``message``."""
    select = message.component(custom_id) if custom_id else message.selects[0]
    run = await env.stand_in.select(user, message, select["custom_id"], [value])
    return (await run.answer()).message


async def choose_label(env: LocalDiscord, user: User, message: Message, label: str) -> Message | None:
    """Pick the option labelled ``label`` in the first select of ``message`` (a player, a card)."""
    select = message.selects[0]
    value = next(o["value"] for o in select["options"] if o["label"] == label)
    return await choose(env, user, message, value, select["custom_id"])


def lobby_message(env: LocalDiscord, channel: Channel) -> Message:
    """The lobby message (the first message with a Join button)."""
    return next(m for m in env.stand_in.messages(channel) if any(b.get("label") == "Join" for b in m.buttons))


def table_message(env: LocalDiscord, channel: Channel) -> Message:
    """The current table message."""
    message = published_table(env, channel)
    assert message is not None, "the table has no published message"
    return message


def published_table(env: LocalDiscord, channel: Channel) -> Message | None:
    """The table message if the channel shows it yet (for `wait_until`), else None."""
    table = table_of(env, channel)
    return next((m for m in env.stand_in.messages(channel) if m.id == table.message_id), None)


async def open_table(
    env: LocalDiscord,
    channel: Channel,
    host: User,
    others: list[User],
    *,
    bots: int = 0,
    variant: str = "classic",
    **options: Any,
) -> Table:
    """``/uno new`` by the host, the others join, bots are added, the host presses Start."""
    await command(env, host, channel, "uno new", variant=variant, **options)
    for user in others:
        await click(env, user, lobby_message(env, channel), "Join")
    for _ in range(bots):
        await click(env, host, lobby_message(env, channel), "Add bot")
    await click(env, host, lobby_message(env, channel), "Start")
    await env.stand_in.wait_until(lambda: published_table(env, channel))
    return table_of(env, channel)


def rig(
    env: LocalDiscord,
    channel: Channel,
    *,
    variant: str,
    hands: dict[str, list[str]],
    discard: list[str],
    draw: list[str],
    dealer: str,
    options: Options | None = None,
    color: str | None = None,
    protected: str | None = None,
) -> Game:
    """Replace the table's game by a known deal (players by user name or seat id)."""
    table = table_of(env, channel)
    ids = {s.name: s.id for s in table.seats}
    hand_cards = {ids.get(k, k): [Card.parse(c) for c in v] for k, v in hands.items()}
    game, _ = Game.from_deal(
        [s.id for s in table.seats],
        variant=variant,
        options=options or table.options,
        dealer=ids.get(dealer, dealer),
        hands=hand_cards,
        draw_pile=[Card.parse(c) for c in reversed(draw)],
        discard_pile=[Card.parse(c) for c in discard],
        color=None if color is None else Color(color),
        protected=ids.get(protected, protected) if protected else None,
    )
    table.variant = variant
    return replace_game(table, game)


def replace_game(table: Table, game: G) -> G:
    """Put ``game`` (a known deal) on ``table`` in place of its game."""
    game.version = (table.game.version if table.game else 0) + 1  # the old game's buttons go stale
    table.game = game
    # The replaced deal's turn is over: a ping for it (sent before the rig, or not, as the
    # machine's pace has it) must not count as this deal's, or its player is never pinged.
    table.pinged = ""
    return game


async def drawing_only(env: LocalDiscord) -> Game:
    """alice and bob at #uno, alice to act, where each draw passes the turn (no card is playable)."""
    ch = env.channel("uno")
    await open_table(env, ch, env.user("alice"), [env.user("bob")])
    return rig(
        env, ch, variant="classic", dealer="bob",
        hands={"alice": ["blue 1", "blue 2"], "bob": ["green 1", "green 2"]},
        discard=["red 7"], draw=["yellow 3", "yellow 4", "yellow 5", "yellow 6", "yellow 8"],
    )  # fmt: skip


def rig_many_plays(env: LocalDiscord, channel: Channel) -> Game:
    """A Flip deal where alice (to play) holds 28 different playable cards, more than a hand's
    buttons: 27 reds (``"red 2 / pink 1"``: their backs differ) and ``"blue 7 / teal 1"``, on a
    red 7; bob holds two."""
    reds = [f"red {n} / pink {m}" for n in (0, 1, 2, 3, 4, 5, 6, 8, 9) for m in (1, 2, 3)]
    return rig(
        env, channel, variant="flip", dealer="bob",
        hands={"alice": [*reds, "blue 7 / teal 1"], "bob": ["blue 5 / teal 2", "yellow 6 / orange 2"]},
        discard=["red 7 / pink 4"], draw=["blue 1 / teal 3", "blue 2 / teal 4", "blue 3 / teal 5"],
    )  # fmt: skip


async def hand(env: LocalDiscord, user: User, channel: Channel) -> Message:
    """Open the user's hand from the table's My hand button."""
    # The table message is published after the action that changed it.
    await env.stand_in.wait_until(lambda: (m := published_table(env, channel)) and "My hand" in labels(m))
    message = await click(env, user, table_message(env, channel), "My hand")
    assert message is not None and message.ephemeral
    return message


def labels(message: Message) -> list[str]:
    """Every button label of a message."""
    return [str(b.get("label")) for b in message.buttons]


async def play_randomly(
    env: LocalDiscord, user: User, message: Message, rng: random.Random
) -> Message | None:
    """Make one random choice among the enabled components of a hand message (follows color
    and player pickers to the end); returns the last message the bot answered with."""
    for _ in range(4):
        buttons = [b for b in message.buttons if not b.get("disabled") and b.get("label") not in CONTROL]
        if "UNO!" in [b.get("label") for b in buttons]:
            choice = next(b for b in buttons if b.get("label") == "UNO!")
        elif message.selects and (not buttons or rng.random() < 0.5):
            select = message.selects[0]
            answer = await choose(
                env, user, message, rng.choice(select["options"])["value"], select["custom_id"]
            )
            if answer is None:
                return None
            message = answer
            if not _picking(message):
                return message
            continue
        elif buttons:
            choice = rng.choice(buttons)
        else:
            return message
        run = await env.stand_in.click(user, message, choice["custom_id"])
        answer = (await run.answer()).message
        if answer is None or not _picking(answer):
            return answer
        message = answer
    return message


async def play_out(
    env: LocalDiscord, channel: Channel, table: Table, users: dict[str, User], rng: random.Random
) -> None:
    """Play the table's game to its end: each user (by seat name) through their hand's
    components when the table message waits for them, the bots by themselves."""
    s, game = env.stand_in, table.game
    assert game is not None
    for _ in range(3000):
        if game.game_over:
            break
        name = table.name(game.pending.player)
        if name not in users:  # a bot's move: it plays by itself
            await s.wait_until(lambda: game.game_over or table.name(game.pending.player) in users)
            continue
        # The table message names the player the game waits for, once it is published.
        await s.wait_until(lambda name=name: waiting_for(table_message(env, channel)) == name)
        before = game.version
        await play_randomly(env, users[name], await hand(env, users[name], channel), rng)
        await s.wait_until(lambda before=before: game.version != before or game.game_over)
    assert game.game_over, "the game did not finish"


def _picking(message: Message) -> bool:
    """True while a hand shows a color or player picker (a play in progress)."""
    return any(b.get("label") == "Back" for b in message.buttons)


WAITING = re.compile(r"Waiting for \*\*(.+?)\*\*")


def waiting_for(message: Message) -> str | None:
    """The name the table message says the game waits for."""
    match = WAITING.search(message.text)
    return match.group(1) if match else None
