"""The ``/uno`` slash commands: one guild-only ``GroupCog``, each command a thin call into the
table service (``bot/service/``). Errors go to the bot's one error funnel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.errors import reader
from bot.engine.editions import EDITIONS as EDITION_NAMES
from bot.engine.options import Scoring
from bot.i18n import LANGUAGES, SERVER
from bot.rulebook import Rulebook
from bot.service.interactions import acknowledge

if TYPE_CHECKING:
    from bot.client.bot import UnoBot

# Every choice list comes from the engine's one list, so a new edition is offered everywhere.
EDITIONS = [app_commands.Choice(name=name, value=id_) for id_, name in EDITION_NAMES.items()]
SCORING = [app_commands.Choice(name=s.value, value=s.value) for s in Scoring]
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=lang) for lang, name in LANGUAGES.items()),
    app_commands.Choice(name="The server's language", value=SERVER),
]


@app_commands.guild_only()
# Declared, not left to the application's defaults: an application made since mid-2024 allows user
# installs by default, where /uno would show in servers the bot is not in and fail there.
@app_commands.allowed_installs(guilds=True, users=False)
class Uno(commands.GroupCog, group_name="uno", group_description="Play UNO in this channel"):
    """UNO tables: lobby, game, rules, leaderboards."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot
        self.service = bot.service

    @app_commands.command(name="new")
    @app_commands.choices(variant=EDITIONS, scoring=SCORING)
    @app_commands.describe(
        variant="Which edition to play (default: the channel's setting)",
        target_score="Points that end the game (default 500; unused with single-round scoring)",
        scoring="How rounds are scored",
        partners="Play in teams of two seated across (4, 6, 8 or 10 players; not with elimination)",
        elimination="Players reaching the target are out; the last one left wins (not with partners)",
    )
    async def new(
        self,
        interaction: discord.Interaction[UnoBot],
        variant: str | None = None,
        target_score: app_commands.Range[int, 1, 100_000] | None = None,
        scoring: str | None = None,
        partners: bool | None = None,
        elimination: bool | None = None,
    ) -> None:
        """Open a new UNO lobby in this channel."""
        await self.service.opening.new(
            interaction,
            variant=variant,
            target_score=target_score,
            scoring=scoring,
            partners=partners,
            elimination=elimination,
        )

    @app_commands.command(name="join")
    async def join(self, interaction: discord.Interaction[UnoBot]) -> None:
        """Take a seat at this channel's lobby."""
        await self.service.lobby.join(interaction)

    @app_commands.command(name="leave")
    @app_commands.describe(bot="In a game: a bot takes over your seat, with your hand and score")
    async def leave(self, interaction: discord.Interaction[UnoBot], bot: bool = False) -> None:
        """Leave the lobby or the game in progress."""
        await self.service.leaving.leave(interaction, bot=bot)

    @app_commands.command(name="start")
    async def start(self, interaction: discord.Interaction[UnoBot]) -> None:
        """Deal the first round (host only)."""
        await self.service.lobby.start(interaction)

    @app_commands.command(name="hand")
    async def hand(self, interaction: discord.Interaction[UnoBot]) -> None:
        """Show your cards and your choices (only you see them)."""
        await self.service.commands.show_hand(interaction)

    @app_commands.command(name="table")
    async def table(self, interaction: discord.Interaction[UnoBot]) -> None:
        """Post the table again at the bottom of the channel."""
        await self.service.commands.repost_table(interaction)

    @app_commands.command(name="kick")
    @app_commands.describe(
        member="The player to remove",
        bot="In a game: a bot takes over their seat, with their hand and score",
    )
    async def kick(
        self, interaction: discord.Interaction[UnoBot], member: discord.Member, bot: bool = False
    ) -> None:
        """Remove a player (host, or members with Manage Messages)."""
        await self.service.leaving.kick(interaction, member, bot=bot)

    @app_commands.command(name="end")
    async def end(self, interaction: discord.Interaction[UnoBot]) -> None:
        """Close this channel's lobby or game (host, or members with Manage Messages)."""
        await self.service.commands.end(interaction)

    @app_commands.command(name="settings")
    @app_commands.default_permissions(manage_channels=True)
    @app_commands.choices(variant=EDITIONS, scoring=SCORING)
    @app_commands.describe(
        variant="Default edition for new games here",
        target_score="Default target score",
        scoring="Default scoring mode",
        house_rules="Comma-separated house rules: stacking, jump-in, seven-o, draw-until-playable, forced-play, no-bluffing (or 'none')",
        customizable_rule="DC Super Hero Girls Wild Customizable: a rule id (see /uno rules) or your own text",
        turn_seconds="Seconds per turn before the default move (0 = no timer)",
        language="Language of the lobby, table and summaries here (default: the server's)",
        threads="Open each new game in a public thread of its own (the bot needs Create Public Threads)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[UnoBot],
        variant: str | None = None,
        target_score: app_commands.Range[int, 1, 100_000] | None = None,
        scoring: str | None = None,
        house_rules: str | None = None,
        customizable_rule: app_commands.Range[str, 0, 300] | None = None,
        turn_seconds: app_commands.Range[int, 0, 3600] | None = None,
        language: str | None = None,
        threads: bool | None = None,
    ) -> None:
        """See or change this channel's defaults for new games (Manage Channels)."""
        await self.service.channels.settings(
            interaction,
            variant=variant,
            target_score=target_score,
            scoring=scoring,
            house_rules=house_rules,
            customizable_rule=customizable_rule,
            turn_seconds=turn_seconds,
            language=language,
            threads=threads,
        )

    @app_commands.command(name="rules")
    @app_commands.choices(variant=EDITIONS)
    @app_commands.describe(
        card="A card to explain (default: the whole edition)", variant="The edition (default: this channel's)"
    )
    async def rules(
        self,
        interaction: discord.Interaction[UnoBot],
        card: app_commands.Range[str, 1, 100] | None = None,
        variant: str | None = None,
    ) -> None:
        """The rules of this channel's edition, or of one card."""
        await acknowledge(interaction)
        chosen = variant or await self._channel_variant(interaction)
        tr = reader(interaction)
        book = Rulebook.load(tr.lang)
        parts = book.card(chosen, card, tr) if card else book.variant(chosen, tr)
        if tr.lang != book.lang:  # no translation of docs/rules.md in this language yet
            parts[0] = tr._("(The rules are in English for now.)") + "\n" + parts[0]
        for part in parts:
            await interaction.followup.send(part, ephemeral=True)

    @rules.autocomplete("card")
    async def _card_names(
        self, interaction: discord.Interaction[UnoBot], current: str
    ) -> list[app_commands.Choice[str]]:
        tr = reader(interaction)
        chosen = getattr(interaction.namespace, "variant", None) or await self._channel_variant(interaction)
        names = Rulebook.load(tr.lang).card_choices(chosen, tr)
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]

    async def _channel_variant(self, interaction: discord.Interaction[UnoBot]) -> str:
        table = self.service.tables.get(interaction.channel_id or 0)
        if table is not None:
            return table.variant
        return str((await self.service.channels.channel_defaults(interaction.channel_id or 0))["variant"])

    @app_commands.command(name="leaderboard")
    @app_commands.choices(variant=EDITIONS)
    @app_commands.describe(variant="Only games of this edition")
    async def leaderboard(self, interaction: discord.Interaction[UnoBot], variant: str | None = None) -> None:
        """This server's best UNO players."""
        await self.service.records.leaderboard(interaction, variant)

    @app_commands.command(name="stats")
    @app_commands.describe(member="Whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[UnoBot], member: discord.Member | None = None
    ) -> None:
        """A player's UNO record in this server."""
        await self.service.records.stats(interaction, member or interaction.user)

    @app_commands.command(name="history")
    async def history(self, interaction: discord.Interaction[UnoBot]) -> None:
        """This channel's last UNO games: each one's rounds, and for its players the whole game."""
        await self.service.history.show(interaction)

    @app_commands.command(name="forget-me")
    async def forget_me(self, interaction: discord.Interaction[UnoBot]) -> None:
        """Remove your name from every UNO record (results stay counted, anonymously)."""
        await self.service.commands.forget_me(interaction)


async def setup(bot: UnoBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Uno(bot))
