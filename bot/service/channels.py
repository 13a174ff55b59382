"""The channel's defaults for new lobbies: ``/uno settings``, saved per channel over the bot's
settings, and the language an open table of the channel takes from them."""

from __future__ import annotations

from typing import Any

import discord

from bot import render
from bot.client.errors import reader
from bot.engine.errors import BadOption
from bot.engine.options import HouseRule
from bot.i18n import LANGUAGES, N_, SERVER, channel_language
from bot.service.acting import Acting
from bot.service.interactions import acknowledge
from bot.service.publishing import Publisher
from bot.settings import GameDefaults, check_turn_seconds
from bot.storage import Storage
from bot.tables import NoTable, options_from


class Channels:
    """The channels' defaults for new games (see the module's docstring).

    Args:
        storage: where each channel's settings are kept.
        defaults: the settings' game defaults, under every channel's own.
        acting: the changes of tables (an open table's new language).
        publisher: the public messages (redrawn in that language).
    """

    def __init__(
        self, storage: Storage, defaults: GameDefaults, acting: Acting, publisher: Publisher
    ) -> None:
        self.storage = storage
        self.defaults = defaults
        self.acting = acting
        self.publisher = publisher

    async def channel_defaults(self, channel_id: int) -> dict[str, Any]:
        """The channel's saved settings over the bot's defaults."""
        base = self.defaults.model_dump()
        base.update(await self.storage.get_channel_settings(channel_id) or {})
        return base

    async def settings(
        self,
        interaction: discord.Interaction[Any],
        *,
        variant: str | None,
        target_score: int | None,
        scoring: str | None,
        house_rules: str | None,
        customizable_rule: str | None,
        turn_seconds: int | None,
        language: str | None,
        threads: bool | None,
    ) -> None:
        """``/uno settings``: show the channel's defaults for new games, privately; with any
        value given, change them first (Manage Channels), the channel's open lobby or game
        taking a new language at once.

        Args:
            house_rules: comma-separated ids or names players read ("Draw until playable");
                "none" for none.
            language: a key of :data:`bot.i18n.LANGUAGES`, or :data:`bot.i18n.SERVER` (the
                server's).

        Raises:
            BadOption: a change without Manage Channels; an unknown language, house rule or
                edition; a turn time out of range; options that can't go together.
            StorageError: the settings could not be saved (nothing changed).
        """
        asked = (
            variant,
            target_score,
            scoring,
            house_rules,
            customizable_rule,
            turn_seconds,
            language,
            threads,
        )
        if any(v is not None for v in asked) and not interaction.permissions.manage_channels:
            raise BadOption("Changing the channel's UNO settings needs Manage Channels.")
        if turn_seconds is not None:
            try:
                check_turn_seconds(turn_seconds)
            except ValueError as exc:
                raise BadOption.of(N_("Not saved: {why}."), why=str(exc)) from None
        if language is not None and language != SERVER and language not in LANGUAGES:
            raise BadOption.of(
                N_("Unknown language {language}. Known: {known}."),
                language=render.plain(language, 40),
                known=", ".join(LANGUAGES),
            )
        changes: dict[str, object] = {
            k: v
            for k, v in {
                "variant": variant,
                "target_score": target_score,
                "scoring": scoring,
                "customizable_rule": customizable_rule,
                "turn_seconds": turn_seconds,
                "threads": threads,
            }.items()
            if v is not None
        }
        if house_rules is not None:  # ids, or the names players read ("Draw until playable")
            typed = [r.strip() for r in house_rules.split(",")]
            typed = [r for r in typed if r and r.lower() != "none"]
            rules = [r.lower().replace(" ", "-") for r in typed]
            known = {r.value for r in HouseRule}
            bad = [render.plain(t, 40) for t, r in zip(typed, rules, strict=True) if r not in known]
            if bad:
                raise BadOption.of(
                    N_("Unknown house rule(s): {rules}. Known: {known}."),
                    rules=", ".join(bad[:5]),
                    known=", ".join(sorted(known)),
                )
            changes["house_rules"] = rules
        await acknowledge(interaction)
        current = await self.channel_defaults(interaction.channel_id or 0)
        if changes or language is not None:
            saved = dict(await self.storage.get_channel_settings(interaction.channel_id or 0) or {})
            saved.update(changes)
            if language is not None:
                saved.pop("language", None)
                if language != SERVER:
                    saved["language"] = language
            merged = {**current, **saved}
            if "language" not in saved:  # back to the server's
                merged.pop("language", None)
            options_from(merged)  # refuses a combination the engine would refuse
            await self.storage.set_channel_settings(
                interaction.guild_id or 0, interaction.channel_id or 0, saved
            )
            current = merged
            if language is not None:
                await self.set_language(interaction.channel_id or 0, channel_language(saved, interaction))
        tr = reader(interaction)
        text = render.settings_text(
            current["variant"],
            options_from(current),
            int(current["turn_seconds"]),
            tr,
            str(current.get("language") or ""),
        )
        on = tr._("on") if current.get("threads") else tr._("off")
        text += "\n" + tr._("A thread per game: **{on}**").format(on=on)
        title = (
            tr._("Channel settings saved") if changes or language is not None else tr._("Channel settings")
        )
        await interaction.followup.send(f"**{title}**\n{text}", ephemeral=True)

    async def set_language(self, channel_id: int, language: str) -> None:
        """The channel's language changed (``/uno settings language``): its open lobby or game
        speaks ``language`` from its next message on (its log so far stays as written).

        Raises:
            NotSaved: the change could not be saved (the table keeps its language).
        """
        try:
            async with self.acting.change(channel_id) as change:
                change.table.language = language
        except NoTable:
            return
        self.publisher.publish(change.table)
