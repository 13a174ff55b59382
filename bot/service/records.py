"""``/uno leaderboard`` and ``/uno stats``: the server's records of finished games, answered
publicly in the channel's language (its table's, else its setting's, else the server's).

``/uno stats`` answers at once with the record, then edits in its chart once drawn off the event
loop (matplotlib's first import takes a second or more).
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot import render
from bot.engine.editions import EDITIONS
from bot.engine.errors import BadOption
from bot.i18n import N_, Tr, channel_language, translator
from bot.render import stats as stats_render
from bot.render.layout import block, panel, small
from bot.service.interactions import acknowledge
from bot.service.registry import TableRegistry
from bot.storage import Storage

NONE = discord.AllowedMentions.none()
INDENT = "\u2003"  # an em space: Discord keeps it at the start of a line, where it drops spaces


class Records:
    """``/uno leaderboard`` and ``/uno stats`` (see the module's docstring).

    Args:
        tables: every table (a channel's table says the answer's language).
        storage: where the results are kept.
    """

    def __init__(self, tables: TableRegistry, storage: Storage) -> None:
        self.tables = tables
        self.storage = storage

    async def leaderboard(self, interaction: discord.Interaction[Any], variant: str | None) -> None:
        """``/uno leaderboard``: the server's ten best players (by games won), publicly; with
        ``variant``, in that edition's games only.

        Raises:
            BadOption: an unknown edition (refused privately, before the public answer).
        """
        if variant is not None and variant not in EDITIONS:
            raise BadOption.of(N_("Unknown edition {edition}."), edition=render.plain(variant))
        await acknowledge(interaction, public=True)
        tr = await self._public(interaction)
        rows = await self.storage.leaderboard(interaction.guild_id or 0, variant=variant, limit=10)
        title = render.leaderboard_title(variant, tr)
        # Two short lines per player, no columns: a phone shows each line whole. One ranked for
        # rounds won only in games with no winner has played no game: no rate of 0 of 0.
        first = tr._("**{rank}.** {who} · 🏆 {won} of {played} ({rate})")
        unplayed = tr._("**{rank}.** {who} · 🏆 no game won or lost")
        lines = [
            (first if r.games_played else unplayed).format(
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

    async def stats(self, interaction: discord.Interaction[Any], who: discord.User | discord.Member) -> None:
        """``/uno stats``: ``who``'s record in this server, in all and by edition, their recent
        games and a chart of them, publicly."""
        await acknowledge(interaction, public=True)
        tr = await self._public(interaction)
        s = await self.storage.stats(interaction.guild_id or 0, str(who.id))
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
        games = await self.storage.recent_games(interaction.guild_id or 0, str(who.id), limit=30)
        if games:
            texts.append(block(tr._("Recent games"), "\n".join(stats_render.recent_lines(games, tr))))
        # The record answers at once; the chart (a second or more the first time: matplotlib's
        # import) is edited in when drawn.
        answer = await interaction.followup.send(view=panel(title, texts), allowed_mentions=NONE, wait=True)
        if not games:
            return
        caption = stats_render.caption(who.display_name, games, tr)
        # Tens of milliseconds of drawing: off the event loop, which serves every table meanwhile.
        png = await asyncio.to_thread(stats_render.chart, games, caption, tr)
        # The chart is an attachment shown in a media gallery; V2 messages need no Embed Links.
        gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{stats_render.CHART_FILE}", description=caption[:1024])
        )
        note: discord.ui.TextDisplay[Any] = discord.ui.TextDisplay(
            small(
                tr._(
                    "Points over time: green dots are games won, red ones games lost, grey ones games with no winner."
                )
                if any(not g.decided for g in games)
                else tr._("Points over time: green dots are games won, red ones games lost.")
            )
        )
        chart = discord.File(io.BytesIO(png), filename=stats_render.CHART_FILE)
        await answer.edit(
            view=panel(title, texts, [gallery, note]), attachments=[chart], allowed_mentions=NONE
        )

    async def _public(self, interaction: discord.Interaction[Any]) -> Tr:
        """The language of a public answer in the channel: its table's, else its setting's, else
        the server's."""
        table = self.tables.get(interaction.channel_id or 0)
        if table is not None:
            return translator(table.language)
        saved = await self.storage.get_channel_settings(interaction.channel_id or 0) or {}
        return translator(channel_language(saved, interaction))


def _who(user_id: str, tr: Tr) -> str:
    """A leaderboard name: a mention, or a neutral label for a player who asked to be forgotten."""
    return tr._("a former player") if user_id.startswith("forgotten:") else f"<@{user_id}>"
