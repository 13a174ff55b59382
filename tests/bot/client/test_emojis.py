"""The card emojis' mapping (`bot.client.emojis.CardEmojis`), the settings that switch them off and point
their pictures at a CDN; their sync with Discord is tested end to end (tests/e2e/test_emojis.py)."""

from __future__ import annotations

from dataclasses import dataclass

import discord
import pytest
import yarl

from bot.art import all_faces, emoji_name
from bot.client.bot import point_at
from bot.client.emojis import CardEmojis
from bot.engine.cards import Face, Side
from bot.engine.dos.cards import DosCard
from bot.local import local_settings
from bot.settings import load_settings

FACES = all_faces()


def emoji(name: str, emoji_id: int) -> discord.Emoji:
    """An application emoji as discord.py reads it from Discord."""
    return discord.Emoji(guild=discord.Object(0), state=None, data={"id": emoji_id, "name": name})  # type: ignore[arg-type,typeddict-item]


def client() -> discord.Client:
    return discord.Client(intents=discord.Intents.none())


def test_each_face_finds_the_emoji_named_after_it() -> None:
    """Before any emoji is known every face answers None; once the application's emojis are
    learnt, each face answers the one with its name (a colored face on either side, a wild per
    side, a DOS card its own, not the UNO card's of its color and number) and emojis not named
    as a face are not counted."""
    emojis = CardEmojis(client())
    assert len(emojis) == 0 and all(emojis.for_face(f, s) is None for f, s in FACES)
    ids = {emoji_name(f, s): 1_000_000_000_000_000 + i for i, (f, s) in enumerate(FACES)}
    emojis.learn([emoji("party_parrot", 42), *(emoji(name, i) for name, i in ids.items())])
    assert len(emojis) == len(FACES)
    for face, side in FACES:
        found = emojis.for_face(face, side)
        assert found is not None and (found.name, found.id) == (emoji_name(face, side), ids[found.name])
    red_7, wild = Face.parse("red 7"), Face.parse("wild")
    assert emojis.for_face(red_7, Side.DARK) == emojis.for_face(red_7, Side.LIGHT)
    assert emojis.for_face(wild, Side.DARK) != emojis.for_face(wild, Side.LIGHT)
    assert str(emojis.for_face(red_7)) == f"<:uno_red_7:{ids['uno_red_7']}>"  # as text shows it
    dos_red_7 = emojis.for_face(DosCard.parse("red 7"), Side.DARK)  # a DOS card has one look
    assert str(dos_red_7) == f"<:dos_red_7:{ids['dos_red_7']}>" != str(emojis.for_face(red_7))


def test_switched_off_by_the_setting() -> None:
    """``discord.card_emojis = false``: starting lists and makes nothing and is done at once."""
    settings = load_settings(None, environ={"UNO_DISCORD__CARD_EMOJIS": "false"}, require_token=False)
    assert settings.discord.card_emojis is False
    assert load_settings(None, environ={}, require_token=False).discord.card_emojis is True
    emojis = CardEmojis(client(), enabled=settings.discord.card_emojis)
    emojis.start()  # no event loop runs: it would fail if it started a task
    assert emojis.done.is_set() and emojis.for_face(Face.parse("red 7")) is None


@dataclass(frozen=True)
class Address:
    """A stand-in's addresses (`bot.local.StandInAddress`)."""

    token: str = "t"
    base_url: str = "http://127.0.0.1:9"
    api_url: str = "http://127.0.0.1:9/api/v10"
    gateway_url: str = "ws://127.0.0.1:9/gateway"
    guild_id: int = 1


def test_local_mode_points_image_addresses_at_the_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Local mode (`local_settings`, `point_at`) builds an emoji's ``url`` on the stand-in, which
    serves it; by default on Discord's CDN."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL("wss://x"))
    monkeypatch.setattr(discord.asset.Asset, "BASE", discord.asset.Asset.BASE)
    card = discord.PartialEmoji(name="uno_red_7", id=1_000_000_000_000_000)
    settings = load_settings(None, environ={}, require_token=False)
    point_at(settings)
    assert card.url == "https://cdn.discordapp.com/emojis/1000000000000000.png"
    point_at(local_settings(settings, Address()))
    assert card.url == "http://127.0.0.1:9/emojis/1000000000000000.png"
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
