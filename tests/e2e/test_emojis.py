"""Card emojis through real discord.py and the stand-in: every card face becomes an application
emoji once, a restart uploads nothing, an emoji made before is reused, and a bot that cannot make
them still plays."""

from __future__ import annotations

import base64
import logging
import random
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from bot.art import all_faces, card_png, emoji_name
from bot.client.emojis import CONCURRENCY, EMOJI_PIXELS, MAX_EMOJIS_REACHED
from bot.engine.cards import Face, Side
from bot.engine.dos.cards import DECK as DOS_DECK
from bot.engine.dos.cards import DosCard
from bot.localdiscord import limits
from bot.localdiscord.server import StandIn
from bot.localdiscord.testing import LocalDiscord, png
from tests.e2e.conftest import USERS, make_bot
from tests.e2e.helpers import bot_of, hand, open_table, play_randomly, table_of

FACES = all_faces()
NAMES = {emoji_name(f, s) for f, s in FACES}
RED_7 = Face.parse("red 7")


def emoji_requests(stand_in: StandIn, method: str) -> int:
    """How many ``method`` requests the bot sent to its application's emoji list route."""
    route = f"/applications/{stand_in.application_id}/emojis"
    return sum(1 for r in stand_in.requests if r.method == method and r.path == route)


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The WARNING records of the card emoji sync."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.client.emojis" and r.levelno == logging.WARNING
    ]


def seeded(tmp_path: Path, names: list[str]) -> LocalDiscord:
    """The bot's environment, with emojis named ``names`` (a small red square each) made in its
    application before the bot first starts."""
    seeds = list(names)

    def factory(stand_in: StandIn) -> object:
        while seeds:
            data = base64.b64encode(png(8, 8)).decode()
            stand_in.state.create_emoji(seeds.pop(0), f"data:image/png;base64,{data}")
        return make_bot(stand_in, tmp_path / "uno.db", card_emojis=True)

    return LocalDiscord(factory, users=USERS, channels=("uno",), rate_limits=False)  # type: ignore[arg-type]


def environment(tmp_path: Path, *, card_emojis: bool) -> LocalDiscord:
    """The bot (``card_emojis``: the setting), in a guild with alice, bob and carol and #uno."""
    return LocalDiscord(
        lambda s: make_bot(s, tmp_path / "uno.db", card_emojis=card_emojis),
        users=USERS,
        channels=("uno",),
        rate_limits=False,
    )


@pytest.fixture
def uno(tmp_path: Path) -> LocalDiscord:
    """The bot with card emojis on (as in production), its first start."""
    return environment(tmp_path, card_emojis=True)


async def plays(env: LocalDiscord) -> None:
    """A table opens and alice makes a move through her hand."""
    ch = env.channel("uno")
    table = await open_table(env, ch, env.user("alice"), [env.user("bob")])
    game = table.game
    assert game is not None
    player = table.name(game.pending.player)
    before = game.version
    await play_randomly(env, env.user(player), await hand(env, env.user(player), ch), random.Random(1))
    await env.stand_in.wait_until(lambda: game.version != before)
    assert table_of(env, ch).state == "playing"


async def test_every_card_face_becomes_an_emoji_and_a_restart_uploads_nothing(uno: LocalDiscord) -> None:
    """After start every face of every edition (DOS's 41 cards too: 169 in all, far below
    Discord's 2,000 per application) is an application emoji with its name and its picture
    (served where its ``url`` says); a restarted bot lists them once and uploads none."""
    s = uno.stand_in
    emojis = bot_of(uno).card_emojis
    await s.wait_until(emojis.done.is_set, timeout=60)
    assert sorted(e.name for e in s.state.emojis.values()) == sorted(NAMES)
    assert emojis.created == len(NAMES) == len(emojis) == 169 and emoji_requests(s, "POST") == len(NAMES)
    assert all(emojis.for_face(card) is not None for card in DOS_DECK)
    async with aiohttp.ClientSession() as http:
        for face, side in [
            (RED_7, Side.LIGHT),
            (Face.parse("wild"), Side.DARK),
            (Face.parse("howler"), Side.LIGHT),
            (DosCard.parse("green wild number"), Side.LIGHT),
            (DosCard.parse("wild dos"), Side.LIGHT),
        ]:
            emoji = emojis.for_face(face, side)
            assert emoji is not None and emoji.name == emoji_name(face, side) and emoji.id in s.state.emojis
            assert emoji.url.startswith(s.base_url)
            async with http.get(emoji.url) as response:
                assert await response.read() == card_png(face, side, EMOJI_PIXELS, square=True)

    lists = emoji_requests(s, "GET")
    await uno.restart_client()
    again = bot_of(uno).card_emojis
    await s.wait_until(again.done.is_set)
    assert again is not emojis and again.created == 0
    assert emoji_requests(s, "GET") == lists + 1 and emoji_requests(s, "POST") == len(NAMES)
    assert len(s.state.emojis) == len(NAMES)
    assert all(again.for_face(f, side) == emojis.for_face(f, side) for f, side in FACES)


async def test_a_restart_in_the_middle_of_the_first_sync_makes_only_the_rest(uno: LocalDiscord) -> None:
    """Stopped while uploading, the bot's next start uploads only the faces still missing: each
    face is uploaded once in all, and no name is taken twice (Discord would refuse it: 50035)."""
    s = uno.stand_in
    await s.wait_until(lambda: len(s.state.emojis) >= 30)
    await uno.restart_client()
    emojis = bot_of(uno).card_emojis
    await s.wait_until(emojis.done.is_set, timeout=60)
    assert 0 < emojis.created <= len(NAMES) - 30
    assert sorted(e.name for e in s.state.emojis.values()) == sorted(NAMES) and len(emojis) == len(NAMES)
    route = f"/applications/{s.application_id}/emojis"
    assert sum(r.method == "POST" and r.path == route and r.status == 201 for r in s.requests) == len(NAMES)


@pytest.fixture
def one_made_before(tmp_path: Path) -> LocalDiscord:
    """The bot's application already has an emoji named as the red 7, and one of its own."""
    return seeded(tmp_path, ["uno_red_7", "party_parrot"])


async def test_an_emoji_made_before_is_reused(one_made_before: LocalDiscord) -> None:
    """An emoji named as a face is that face's: not uploaded again, not duplicated; the
    application's other emojis are left alone."""
    s = one_made_before.stand_in
    (seeded_red_7,) = [e for e in s.state.emojis.values() if e.name == "uno_red_7"]
    emojis = bot_of(one_made_before).card_emojis
    await s.wait_until(emojis.done.is_set, timeout=60)
    names = [e.name for e in s.state.emojis.values()]
    assert sorted(names) == sorted([*NAMES, "party_parrot"])
    assert emojis.created == len(NAMES) - 1 == emoji_requests(s, "POST")
    red_7 = emojis.for_face(RED_7)
    assert red_7 is not None and red_7.id == seeded_red_7.id


@pytest.fixture
def full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LocalDiscord:
    """The bot's application at its emoji limit (made 3 here, to keep the test short): the red 7's
    emoji and two others."""
    monkeypatch.setattr(limits, "MAX_APP_EMOJIS", 3)
    env = seeded(tmp_path, ["uno_red_7", "party_parrot", "blobwave"])
    env.expect_error(MAX_EMOJIS_REACHED, times=CONCURRENCY)  # the uploads in flight when it says so
    return env


async def test_a_bot_at_its_emoji_limit_starts_and_plays(
    full: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """At the limit the bot stops uploading at the first refusals, says so in one WARNING, keeps
    the emoji it has, and plays with text for the others."""
    caplog.set_level(logging.INFO, "bot.client.emojis")
    s = full.stand_in
    emojis = bot_of(full).card_emojis
    await s.wait_until(emojis.done.is_set, timeout=60)
    assert emoji_requests(s, "POST") == CONCURRENCY and emojis.created == 0
    assert emojis.for_face(RED_7) is not None and emojis.for_face(Face.parse("blue 7")) is None
    (warning,) = warnings(caplog)
    assert "emoji limit" in warning and f"{len(NAMES) - 1} of {len(NAMES)}" in warning
    await plays(full)


@pytest.fixture
def refusing(uno: LocalDiscord, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalDiscord]:
    """The stand-in refuses every emoji upload (as Discord does an image it cannot shrink)."""

    def refuse(image: object, count: int) -> tuple[str, bytes]:
        raise limits.DiscordError(400, 50138, "Failed to resize asset below the maximum size: 262144")

    monkeypatch.setattr(limits, "emoji_image", refuse)
    uno.expect_error(50138, times=len(NAMES))
    yield uno


async def test_a_bot_whose_uploads_fail_starts_and_plays(
    refusing: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """Every upload refused: one WARNING (not one per face), no emoji, and the bot plays."""
    caplog.set_level(logging.INFO, "bot.client.emojis")
    s = refusing.stand_in
    emojis = bot_of(refusing).card_emojis
    await s.wait_until(emojis.done.is_set, timeout=60)
    assert emoji_requests(s, "POST") == len(NAMES) and len(emojis) == 0 and not s.state.emojis
    assert all(emojis.for_face(f, side) is None for f, side in FACES)
    (warning,) = warnings(caplog)
    assert f"{len(NAMES)} of {len(NAMES)}" in warning and "50138" in warning
    await plays(refusing)


@pytest.fixture
def switched_off(tmp_path: Path) -> LocalDiscord:
    """The bot with ``discord.card_emojis = false``."""
    return environment(tmp_path, card_emojis=False)


async def test_a_bot_without_card_emojis_asks_nothing_and_plays(switched_off: LocalDiscord) -> None:
    """Card emojis switched off: no request to the emoji routes, and the bot plays."""
    await plays(switched_off)
    assert bot_of(switched_off).card_emojis.done.is_set()
    assert not [r for r in switched_off.stand_in.requests if "/emojis" in r.path]
