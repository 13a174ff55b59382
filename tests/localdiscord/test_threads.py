"""Threads in the stand-in, through discord.py: a public thread started from a message, messages
and interactions in it, archiving and deletion, each event checked against Discord's spec (the
harness fails the test on a shape Discord does not send)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.localdiscord.testing import LocalDiscord


async def _thread_from(env: LocalDiscord, name: str = "UNO game") -> tuple[discord.Message, discord.Thread]:
    """The bot posts in #uno and starts a thread from that message."""
    channel = env.client.get_channel(env.channel("uno").id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("A game is open")
    thread = await message.create_thread(name=name, auto_archive_duration=1440)
    return message, thread


async def test_thread_from_a_message(env: LocalDiscord) -> None:
    """The thread has the starter message's id, its parent and type 11; the starter names it; the
    client caches it from THREAD_CREATE; messages sent in it are the thread's."""
    stand_in = env.stand_in
    message, thread = await _thread_from(env)
    assert thread.id == message.id and thread.parent_id == env.channel("uno").id
    assert thread.type is discord.ChannelType.public_thread and thread.name == "UNO game"
    [stored] = stand_in.threads(env.channel("uno"))
    assert stored.id == thread.id and stored.parent is env.channel("uno")
    await stand_in.wait_until(lambda: env.client.get_channel(thread.id) is not None)
    sent = await thread.send("In the thread")
    [inside] = stand_in.messages(stored)
    assert inside.id == sent.id and sent.channel.id == thread.id
    starter = next(m for m in stand_in.messages(env.channel("uno")) if m.id == message.id)
    assert starter.thread is stored and starter.flags & 32  # HAS_THREAD
    # A second thread from the same message is refused, as on Discord.
    env.expect_error(160004)
    with pytest.raises(discord.HTTPException):
        await message.create_thread(name="again")
    # Threads are no guild channels in GET /guilds/{id}/channels.
    channels = await env.client.http.get_all_guild_channels(stand_in.guild_id)
    assert [c["id"] for c in channels] == [str(env.channel("uno").id)]


async def test_thread_needs_create_public_threads(env: LocalDiscord) -> None:
    """Without Create Public Threads the bot's request is refused with 50013."""
    stand_in = env.stand_in
    everyone = stand_in.state.roles[stand_in.guild_id]
    for role in stand_in.state.roles.values():
        role.permissions &= ~(1 << 35)
    assert everyone.permissions & (1 << 35) == 0
    env.expect_error(50013)
    with pytest.raises(discord.Forbidden):
        await _thread_from(env)
    assert stand_in.threads() == []


async def test_archive_and_delete_events(env: LocalDiscord) -> None:
    """Archiving dispatches THREAD_UPDATE (archived), a message sent there reopens it, editing in
    it while archived is refused (50083), and deleting dispatches THREAD_DELETE; a deleted
    thread is an unknown channel."""
    stand_in = env.stand_in
    updates: list[dict[str, Any]] = []
    deletes: list[int] = []

    async def on_raw_thread_update(payload: discord.RawThreadUpdateEvent) -> None:
        updates.append(payload.data["thread_metadata"])

    async def on_raw_thread_delete(payload: discord.RawThreadDeleteEvent) -> None:
        deletes.append(payload.thread_id)

    env.client.event(on_raw_thread_update)
    env.client.event(on_raw_thread_delete)
    _, thread = await _thread_from(env)
    sent = await thread.send("first")
    stored = stand_in.threads()[0]
    stand_in.archive(stored)
    await stand_in.wait_until(lambda: updates and updates[-1]["archived"])
    env.expect_error(50083)
    with pytest.raises(discord.HTTPException):
        await sent.edit(content="edited")
    await thread.send("reopens it")
    assert not stored.archived
    await stand_in.wait_until(lambda: not updates[-1]["archived"])
    stand_in.archive(stored, locked=True)
    env.expect_error(50083)
    with pytest.raises(discord.HTTPException):
        await thread.send("locked")
    stand_in.delete_channel(stored)
    await stand_in.wait_until(lambda: deletes == [thread.id])
    env.expect_error(10003)
    with pytest.raises(discord.NotFound):
        await env.client.http.get_channel(thread.id)
    await asyncio.sleep(0)


async def test_command_in_a_thread(env: LocalDiscord) -> None:
    """A slash command in a thread reaches the bot with the thread as its channel; its answer is
    in the thread."""
    stand_in = env.stand_in
    await _thread_from(env)
    stored = stand_in.threads()[0]
    record = await stand_in.slash(env.user("alice"), stored, "demo start")
    response = await record.response()
    assert response.message is not None and response.message.channel is stored
    assert record.payload["channel"]["type"] == 11
    assert record.payload["channel"]["parent_id"] == str(env.channel("uno").id)
