"""End to end through discord.py: log in, sync, slash commands, buttons, selects, ephemerals,
followups, DMs, modals, restarts and gateway resumes, checked by what each user sees."""

from __future__ import annotations

from typing import cast

import discord
import pytest

from bot.localdiscord import CommandUsageError
from bot.localdiscord.testing import LocalDiscord

from .demo_bot import DemoBot


def demo(env: LocalDiscord) -> DemoBot:
    """The running demo bot."""
    return cast(DemoBot, env.client)


async def test_login_sync_and_guild_cache(env: LocalDiscord) -> None:
    """The client logs in, syncs /demo to the guild and caches the guild from GUILD_CREATE."""
    stand_in, bot = env.stand_in, demo(env)
    assert bot.user is not None and bot.user.id == stand_in.bot.id
    assert bot.application_id == stand_in.application_id
    [command] = stand_in.commands()
    assert command["name"] == "demo" and command["guild_id"] == str(stand_in.guild_id)
    assert {o["name"] for o in command["options"]} >= {"start", "secret", "echo"}
    guild = bot.get_guild(stand_in.guild_id)
    assert guild is not None and guild.get_channel(env.channel("uno").id) is not None
    assert guild.me is not None and guild.me.guild_permissions.manage_messages
    paths = [r.path for r in stand_in.requests]
    assert paths[:2] == ["/users/@me", "/oauth2/applications/@me"]


async def test_public_panel_button_and_select(env: LocalDiscord) -> None:
    """A public panel: bob's Join gets an ephemeral only bob sees; a select edits in place."""
    stand_in, uno = env.stand_in, env.channel("uno")
    alice, bob = env.user("alice"), env.user("bob")
    response = await (await stand_in.slash(alice, uno, "demo start")).response()
    panel = response.message
    assert response.type == 4 and panel is not None and not panel.ephemeral
    assert panel.embeds[0]["title"] == "Demo table" and panel.embeds[0]["color"] == 0x5865F2
    assert [b["label"] for b in panel.buttons] == ["Join"]
    assert stand_in.visible_messages(alice, uno) == stand_in.visible_messages(bob, uno) == [panel]

    joined = await (await stand_in.click(bob, panel, label="Join")).response()
    assert joined.message is not None and joined.message.ephemeral
    assert joined.message.content == "You joined, bob."
    await stand_in.wait_until(lambda: panel.content == "Players: bob")
    assert stand_in.visible_messages(bob, uno) == [panel, joined.message]
    assert stand_in.visible_messages(alice, uno) == [panel]

    picked = await (await stand_in.select(alice, panel, "demo:color", ["green"])).response()
    assert picked.type == 7 and picked.message is panel
    assert panel.content == "alice picked green" and panel.buttons  # components kept


async def test_ephemeral_view_edit_message(env: LocalDiscord) -> None:
    """An ephemeral reply's button edits it (type 7); bob can neither see nor click it."""
    stand_in, uno = env.stand_in, env.channel("uno")
    alice, bob = env.user("alice"), env.user("bob")
    secret = (await (await stand_in.slash(alice, uno, "demo secret")).response()).message
    assert secret is not None and secret.ephemeral and secret.ephemeral_for is alice
    assert stand_in.visible_messages(bob) == []
    with pytest.raises(CommandUsageError):
        await stand_in.click(bob, secret, "demo:reveal")
    revealed = await (await stand_in.click(alice, secret, "demo:reveal")).response()
    assert revealed.type == 7 and secret.content == "The secret is 42." and secret.components == []
    assert stand_in.visible_messages(alice) == [secret] and stand_in.visible_messages(bob) == []


async def test_deferred_thinking_then_followups(env: LocalDiscord) -> None:
    """A thinking defer is replaced by the first followup; a later public followup is new."""
    stand_in, uno = env.stand_in, env.channel("uno")
    alice, bob = env.user("alice"), env.user("bob")
    run = await stand_in.slash(alice, uno, "demo later")
    deferred = await run.response()
    assert deferred.type == 5 and deferred.message is not None and deferred.message.ephemeral
    news = await run.followup(0)
    original = deferred.message
    assert original.content == "Done thinking." and not original.loading and original.ephemeral
    answer = await run.answer()  # the first followup, which replaced the thinking message
    assert answer.message is original and run.answered_at is not None
    assert run.acknowledged_at is not None and run.answered_at >= run.acknowledged_at
    # the frame reached the bot between the interaction's creation and the bot's callback
    assert run.delivered_at is not None and run.created_at <= run.delivered_at <= run.acknowledged_at
    assert news.content == "Public news." and not news.ephemeral
    assert stand_in.visible_messages(bob, uno) == [news]
    assert stand_in.visible_messages(alice, uno) == [original, news]


async def test_dm_is_private(env: LocalDiscord) -> None:
    """A DM (POST /users/@me/channels) is seen and clicked by its recipient only."""
    stand_in, uno = env.stand_in, env.channel("uno")
    alice, bob = env.user("alice"), env.user("bob")
    await (await stand_in.slash(alice, uno, "demo dm")).response()
    dm = await stand_in.wait_for_message(stand_in.dm_channel(alice), user=alice)
    assert dm.content == "Your hand: red 5, blue 7" and dm.channel.recipient is alice
    assert dm in stand_in.visible_messages(alice) and stand_in.visible_messages(bob) == []
    with pytest.raises(CommandUsageError):
        await stand_in.click(bob, dm, label="Reveal")
    run = await stand_in.click(alice, dm, label="Reveal")
    revealed = await run.response()
    assert revealed.type == 7 and dm.content == "The secret is 42." and dm.components == []
    assert run.answered_at == run.acknowledged_at  # an update answers with the callback itself


async def test_typed_options_and_refusals(env: LocalDiscord) -> None:
    """Options arrive typed (int, choice, member); what a client would refuse raises early."""
    stand_in, uno = env.stand_in, env.channel("uno")
    alice, bob = env.user("alice"), env.user("bob")
    run = await stand_in.slash(alice, uno, "demo echo text:hi count:2", variant="Flip", who=bob)
    assert (await run.response()).message.content == "hi hi"  # type: ignore[union-attr]
    [echo] = demo(env).echoes
    assert echo["count"] == 2 and echo["variant"] == "flip"
    assert isinstance(echo["who"], discord.Member) and echo["who"].id == bob.id
    for line, options in [
        ("demo echo", {"count": 1}),  # required text missing
        ("demo echo text:x", {"count": 4}),  # Range[1, 3]
        ("demo echo text:x count:1", {"variant": "other"}),  # not a choice
        ("demo echo text:x count:1", {"colour": "red"}),  # no such option
        ("demo nothing", {}),
    ]:
        with pytest.raises(CommandUsageError):
            await stand_in.slash(alice, uno, line, timeout=0.1, **options)
    with pytest.raises(CommandUsageError, match=r"count: 4 not in \[1, 3\]"):  # the range, not the type
        await stand_in.slash(alice, uno, "demo echo text:x count:4", timeout=0.1)
    with pytest.raises(CommandUsageError, match="'many' is not an integer"):
        await stand_in.slash(alice, uno, "demo echo text:x count:many", timeout=0.1)


async def test_modal_submit(env: LocalDiscord) -> None:
    """A modal (type 9) is submitted with values and answered."""
    stand_in, uno, alice = env.stand_in, env.channel("uno"), env.user("alice")
    asked = await stand_in.slash(alice, uno, "demo ask")
    assert (await asked.response()).type == 9
    submitted = await stand_in.submit_modal(alice, asked, {"demo:name": "Zed"})
    answer = await submitted.response()
    assert answer.message is not None and answer.message.content == "Hello Zed!"


async def test_permissions_reach_interactions(env: LocalDiscord) -> None:
    """A role granted with Manage Messages shows in the interaction member's permissions."""
    stand_in, uno, bob = env.stand_in, env.channel("uno"), env.user("bob")
    before = (await (await stand_in.slash(bob, uno, "demo perms")).response()).message
    stand_in.grant(bob, "manage_messages", "manage_channels")
    after = (await (await stand_in.slash(bob, uno, "demo perms")).response()).message
    assert before is not None and before.content == "manage_messages=False"
    assert after is not None and after.content == "manage_messages=True"


async def test_persistent_view_survives_restart(env: LocalDiscord) -> None:
    """After a bot restart, the old panel's button still reaches the persistent view."""
    stand_in, uno, alice = env.stand_in, env.channel("uno"), env.user("alice")
    panel = (await (await stand_in.slash(alice, uno, "demo start")).response()).message
    assert panel is not None
    await env.restart_client()
    joined = await (await stand_in.click(alice, panel, label="Join")).response()
    assert joined.message is not None and joined.message.content == "You joined, alice."
    await stand_in.wait_until(lambda: panel.content == "Players: alice")  # the view's last step
    assert stand_in.gateway.identifies == 2


async def test_gateway_resume_replays(env: LocalDiscord) -> None:
    """On op 7 the client resumes its session and interactions keep working."""
    stand_in, uno, alice = env.stand_in, env.channel("uno"), env.user("alice")
    stand_in.request_gateway_reconnect()
    await stand_in.wait_until(lambda: stand_in.gateway.resumes == 1)
    response = await (await stand_in.slash(alice, uno, "demo secret")).response()
    assert response.type == 4 and stand_in.gateway.identifies == 1


async def test_message_content_intent(env: LocalDiscord) -> None:
    """Without the message content intent, others' messages arrive blank unless they mention
    the bot."""
    stand_in, uno, alice = env.stand_in, env.channel("uno"), env.user("alice")
    await stand_in.say(alice, uno, "hello table")
    await stand_in.say(alice, uno, f"hey {stand_in.bot.mention}")
    bot = demo(env)
    await stand_in.wait_until(lambda: len(bot.seen) == 2)
    assert [m.content for m in bot.seen] == ["", f"hey {stand_in.bot.mention}"]
    assert bot.seen[0].author.id == alice.id


async def test_members_intent_chunks_guild() -> None:
    """GUILD_CREATE lists only the bot; with the members intent the client chunks the rest."""
    async with LocalDiscord(lambda stand_in: DemoBot(stand_in, members=True), wait_ready=True) as env:
        guild = env.client.get_guild(env.stand_in.guild_id)
        assert guild is not None and guild.chunked
        assert {m.name for m in guild.members} == {"alice", "bob", "UNO Bot"}
        assert any(op == 8 for op, _ in env.stand_in.gateway.frames_received)
        carol = env.stand_in.add_user("carol")
        await env.stand_in.wait_until(lambda: guild.get_member(carol.id))
