"""A tiny discord.py bot for the stand-in's tests: one ``/demo`` command group, a persistent
panel (button + select), an ephemeral reply with a view, deferred followups, a DM, a modal, and
commands that misbehave on purpose (late ack, expired token, editing an ephemeral)."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import discord
from discord import app_commands

from bot.localdiscord import StandIn


class Panel(discord.ui.View):
    """The public table panel; persistent (registered in setup_hook), so it survives restarts."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", style=discord.ButtonStyle.primary, custom_id="demo:join")
    async def join(self, interaction: discord.Interaction[DemoBot], _: discord.ui.Button[Any]) -> None:
        """Ephemeral welcome, then the public panel is edited through the channel route."""
        bot = interaction.client
        bot.players.append(interaction.user.name)
        await interaction.response.send_message(f"You joined, {interaction.user.name}.", ephemeral=True)
        assert interaction.message is not None
        await interaction.message.edit(content="Players: " + ", ".join(bot.players))

    @discord.ui.select(
        custom_id="demo:color",
        placeholder="Pick a color",
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
    )
    async def color(self, interaction: discord.Interaction[DemoBot], select: discord.ui.Select[Any]) -> None:
        """Update the panel in place (callback type 7)."""
        await interaction.response.edit_message(content=f"{interaction.user.name} picked {select.values[0]}")


class Secret(discord.ui.View):
    """A non-persistent view on an ephemeral message."""

    @discord.ui.button(label="Reveal", style=discord.ButtonStyle.success, custom_id="demo:reveal")
    async def reveal(self, interaction: discord.Interaction[DemoBot], _: discord.ui.Button[Any]) -> None:
        """Edit the ephemeral message the button sits on."""
        await interaction.response.edit_message(content="The secret is 42.", view=None)


class NameModal(discord.ui.Modal, title="Who are you?"):
    """One text input."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="demo:name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Greet publicly."""
        await interaction.response.send_message(f"Hello {self.name.value}!")


class Demo(app_commands.Group):
    """Demo commands."""

    def __init__(self, bot: DemoBot) -> None:
        super().__init__(name="demo", description="Demo commands")
        self.bot = bot

    @app_commands.command()
    async def start(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Post the public panel."""
        embed = discord.Embed(title="Demo table", description="Join us", color=0x5865F2)
        embed.add_field(name="Seats", value="4", inline=True)
        await interaction.response.send_message("Players: none", embed=embed, view=Panel())

    @app_commands.command()
    async def secret(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Ephemeral reply with a button."""
        await interaction.response.send_message("Psst.", view=Secret(timeout=60), ephemeral=True)

    @app_commands.command()
    async def later(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Think, then answer ephemerally, then post a public followup."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("Done thinking.", ephemeral=True)
        await interaction.followup.send("Public news.")

    @app_commands.command()
    async def dm(self, interaction: discord.Interaction[DemoBot]) -> None:
        """DM the user (with a button), acknowledge ephemerally."""
        await interaction.user.send("Your hand: red 5, blue 7", view=Secret(timeout=60))
        await interaction.response.send_message("Check your DMs.", ephemeral=True)

    @app_commands.command()
    async def ask(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Open a modal."""
        await interaction.response.send_modal(NameModal())

    @app_commands.command()
    @app_commands.describe(text="What to echo", count="How often", loud="In capitals")
    async def echo(
        self,
        interaction: discord.Interaction[DemoBot],
        text: str,
        count: app_commands.Range[int, 1, 3],
        variant: Literal["classic", "flip"] = "classic",
        who: discord.Member | None = None,
        loud: bool = False,
    ) -> None:
        """Echo typed options back."""
        self.bot.echoes.append({"text": text, "count": count, "variant": variant, "who": who, "loud": loud})
        await interaction.response.send_message(" ".join([text.upper() if loud else text] * count))

    @app_commands.command()
    async def perms(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Report the user's Manage Messages permission."""
        allowed = interaction.permissions.manage_messages
        await interaction.response.send_message(f"manage_messages={allowed}", ephemeral=True)

    @app_commands.command()
    async def boom(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Fail without an error handler (discord.py only logs it)."""
        raise RuntimeError("boom")

    @app_commands.command()
    async def slow(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Wait for the test's signal before answering (to miss the 3 s deadline)."""
        await self.bot.hold()
        try:
            await interaction.response.send_message("Too late?")
        except discord.HTTPException as error:
            self.bot.errors.append(error)

    @app_commands.command()
    async def expire(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Answer, wait for the test's signal, then send a followup (after token expiry)."""
        await interaction.response.send_message("Soon.", ephemeral=True)
        await self.bot.hold()
        try:
            await interaction.followup.send("Much later.")
        except discord.HTTPException as error:
            self.bot.errors.append(error)

    @app_commands.command()
    async def hidden(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Answer ephemerally, then (wrongly) edit that message through the channel route."""
        await interaction.response.send_message("Only you.", ephemeral=True)
        message = await interaction.original_response()
        assert interaction.channel is not None and isinstance(interaction.channel, discord.TextChannel)
        try:
            await interaction.channel.get_partial_message(message.id).edit(content="Edited?")
        except discord.HTTPException as error:
            self.bot.errors.append(error)


class DemoBot(discord.Client):
    """The test bot; what it observed is kept in lists for assertions."""

    def __init__(self, stand_in: StandIn, *, message_content: bool = False, members: bool = False) -> None:
        intents = discord.Intents.default()
        intents.message_content = message_content
        intents.members = members
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.guild = discord.Object(stand_in.guild_id)
        self.players: list[str] = []
        self.echoes: list[dict[str, Any]] = []
        self.errors: list[discord.HTTPException] = []
        self.seen: list[discord.Message] = []
        self.holding = False
        self.gate = asyncio.Event()

    async def setup_hook(self) -> None:
        """Register the persistent panel and sync /demo to the guild."""
        self.add_view(Panel())
        self.tree.add_command(Demo(self), guild=self.guild)
        await self.tree.sync(guild=self.guild)

    async def on_message(self, message: discord.Message) -> None:
        """Keep every message the gateway delivered."""
        self.seen.append(message)

    async def hold(self) -> None:
        """Block until the test calls `release`."""
        self.holding = True
        await self.gate.wait()

    def release(self) -> None:
        """Let a held command go on."""
        self.gate.set()
