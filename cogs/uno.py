"""The ``/uno`` slash commands: one guild-only ``GroupCog``, each command a thin call into the
table service's commands (``bot/service/commands.py``). Errors go to the bot's one error funnel."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.engine.editions import EDITIONS as EDITION_NAMES
from bot.engine.errors import BadOption
from bot.engine.options import Scoring
from bot.errors import reader
from bot.i18n import LANGUAGES, N_, SERVER, Tr, channel_language, translator
from bot.render import stats as stats_render
from bot.render.layout import block, panel, small
from bot.rulebook import Rulebook
from bot.service.interactions import acknowledge

if TYPE_CHECKING:
    from bot.client import UnoBot

# Every choice list comes from the engine's one list, so a new edition is offered everywhere.
EDITIONS = [app_commands.Choice(name=name, value=id_) for id_, name in EDITION_NAMES.items()]
SCORING = [app_commands.Choice(name=s.value, value=s.value) for s in Scoring]
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=lang) for lang, name in LANGUAGES.items()),
    app_commands.Choice(name="The server's language", value=SERVER),
]
NONE = discord.AllowedMentions.none()
INDENT = "\u2003"  # an em space: Discord keeps it at the start of a line, where it drops spaces


@app_commands.guild_only()
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
        await self.service.lobby.new(
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
        await self.service.commands.leave(interaction, bot=bot)

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
        await self.service.commands.kick(interaction, member, bot=bot)

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
        await self.service.lobby.settings(
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

    async def _public(self, interaction: discord.Interaction[UnoBot]) -> Tr:
        """The language of a public answer in the channel: its table's, else its setting's, else
        the server's."""
        table = self.service.tables.get(interaction.channel_id or 0)
        if table is not None:
            return translator(table.language)
        saved = await self.bot.storage.get_channel_settings(interaction.channel_id or 0) or {}
        return translator(channel_language(saved, interaction))

    async def _channel_variant(self, interaction: discord.Interaction[UnoBot]) -> str:
        table = self.service.tables.get(interaction.channel_id or 0)
        if table is not None:
            return table.variant
        return str((await self.service.lobby.channel_defaults(interaction.channel_id or 0))["variant"])

    @app_commands.command(name="leaderboard")
    @app_commands.choices(variant=EDITIONS)
    @app_commands.describe(variant="Only games of this edition")
    async def leaderboard(self, interaction: discord.Interaction[UnoBot], variant: str | None = None) -> None:
        """This server's best UNO players."""
        if (
            variant is not None and variant not in EDITION_NAMES
        ):  # refused privately, before the public answer
            raise BadOption.of(N_("Unknown edition {edition}."), edition=render.plain(variant))
        await acknowledge(interaction, public=True)
        tr = await self._public(interaction)
        rows = await self.bot.storage.leaderboard(interaction.guild_id or 0, variant=variant, limit=10)
        title = render.leaderboard_title(variant, tr)
        # Two short lines per player, no columns: a phone shows each line whole.
        first = tr._("**{rank}.** {who} · 🏆 {won} of {played} ({rate})")
        lines = [
            first.format(
                rank=i + 1,
                who=_who(r.user_id, tr),
                won=r.games_won,
                played=r.games_played,
                rate=f"{r.win_rate:.0%}",
            )
            + f"\n{INDENT}{render.count(r.points, 'point', tr)} · "
            + tr.n("{n} round won", "{n} rounds won", r.rounds_won)
            for i, r in enumerate(rows)
        ]
        view = panel(title, ["\n".join(lines) or tr._("No games finished yet.")])
        await interaction.followup.send(view=view, allowed_mentions=NONE)

    @app_commands.command(name="stats")
    @app_commands.describe(member="Whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[UnoBot], member: discord.Member | None = None
    ) -> None:
        """A player's UNO record in this server."""
        who = member or interaction.user
        await acknowledge(interaction, public=True)
        tr = await self._public(interaction)
        s = await self.bot.storage.stats(interaction.guild_id or 0, str(who.id))
        total = render.record_text(
            tr, games_played=s.games_played, games_won=s.games_won, rounds_won=s.rounds_won, points=s.points
        )
        title = render.record_title(render.plain(who.display_name), list(s.by_variant), tr)
        texts = [total]
        if len(s.by_variant) > 1:  # one edition's record would repeat the total
            texts += [
                block(render.edition_name(variant, tr), render.record_text(tr, **counts))
                for variant, counts in sorted(s.by_variant.items())
            ]
        games = await self.bot.storage.recent_games(interaction.guild_id or 0, str(who.id), limit=30)
        if games:
            texts.append(block(tr._("Recent games"), "\n".join(stats_render.recent_lines(games, tr))))
        # The record answers at once; the chart (a second or more the first time: matplotlib's
        # import) is edited in when drawn.
        answer = await interaction.followup.send(view=panel(title, texts), allowed_mentions=NONE, wait=True)
        if not games:
            return
        won = sum(g.won for g in games)
        caption = tr._("{name} · last {games}: {won} won").format(
            name=who.display_name[:40], games=render.count(len(games), "game", tr), won=won
        )
        # Tens of milliseconds of drawing: off the event loop, which serves every table meanwhile.
        png = await asyncio.to_thread(stats_render.chart, games, caption, tr)
        # The chart is an attachment shown in a media gallery; V2 messages need no Embed Links.
        gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{stats_render.CHART_FILE}", description=caption[:1024])
        )
        note: discord.ui.TextDisplay[Any] = discord.ui.TextDisplay(
            small(tr._("Points over time: green dots are games won, red ones games lost."))
        )
        chart = discord.File(io.BytesIO(png), filename=stats_render.CHART_FILE)
        await answer.edit(
            view=panel(title, texts, [gallery, note]), attachments=[chart], allowed_mentions=NONE
        )

    @app_commands.command(name="history")
    async def history(self, interaction: discord.Interaction[UnoBot]) -> None:
        """This channel's last UNO games: each one's rounds, and for its players the whole game."""
        await self.service.history.show(interaction)

    @app_commands.command(name="forget-me")
    async def forget_me(self, interaction: discord.Interaction[UnoBot]) -> None:
        """Remove your name from every UNO record (results stay counted, anonymously)."""
        await self.service.commands.forget_me(interaction)


def _who(user_id: str, tr: Tr) -> str:
    """A leaderboard name: a mention, or a neutral label for a player who asked to be forgotten."""
    return tr._("a former player") if user_id.startswith("forgotten:") else f"<@{user_id}>"


async def setup(bot: UnoBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Uno(bot))
