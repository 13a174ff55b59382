"""The lobby: opening it (``/uno new``), seats and options, and the start of the game; and the
channel's defaults for new lobbies (``/uno settings``).

Each body acknowledges its interaction first, changes the table through `Acting` (under its lock,
saved, or nothing at all), then answers and publishes once the lock is released.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import render
from bot.client.errors import reader
from bot.engine.editions import EDITIONS
from bot.engine.errors import BadOption
from bot.engine.options import HouseRule, Options, Scoring
from bot.i18n import LANGUAGES, N_, SERVER, channel_language, translator
from bot.render.thread import pointer_open, thread_name
from bot.service.acting import NotSaved
from bot.service.interactions import acknowledge, channel_of, from_message, thread_parent
from bot.settings import check_turn_seconds
from bot.storage import StorageError
from bot.tables import (
    BadClick,
    LobbyError,
    NoTable,
    Seat,
    StaleAction,
    Table,
    TableState,
    bot_seat,
    level_named,
    options_from,
)

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)
NONE = discord.AllowedMentions.none()
NO_THREAD = N_(
    "🃏 This channel opens each game in a thread, but I can't create threads here (I need "
    "Create Public Threads), so the game is in this channel."
)
Post = Callable[[discord.ui.LayoutView], Awaitable[discord.abc.Snowflake]]
"""Posts a lobby message (its layout view) somewhere other than the interaction's answer."""
LOBBY_OPEN = N_("A lobby is already open in this channel: press Join on its message to play.")
GAME_ON = N_(
    "A game is going on in this channel. Its host, or a member with Manage Messages, can end it "
    "with /uno end."
)


def open_already(table: Table | None) -> LobbyError:
    """The refusal of a lobby opened where ``table`` is open: join the lobby, or who can end the
    game (not /uno end alone: most members can't)."""
    return LobbyError(LOBBY_OPEN if table is not None and table.state is TableState.LOBBY else GAME_ON)


SERVED_ELSEWHERE = N_(
    "Another instance of the bot serves this channel's table just now; try again in a minute."
)


class Lobby:
    """Lobby commands and buttons (see the module's docstring)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.tables = service.tables
        self.defaults = service.defaults
        # With a seed set, the n-th game started gets the same shuffles on every run.
        self._seeds = random.Random(service.defaults.seed)

    async def channel_defaults(self, channel_id: int) -> dict[str, Any]:
        """The channel's saved settings over the bot's defaults."""
        base = self.defaults.model_dump()
        base.update(await self.service.storage.get_channel_settings(channel_id) or {})
        return base

    async def new(self, interaction: discord.Interaction[Any], **choices: Any) -> None:
        """``/uno new``: open a lobby with the channel's defaults and the host's choices; the
        host running it again in their open lobby changes its options.

        Raises:
            LobbyError: a lobby or game is open in the channel already.
            BadOption: an unknown edition, or options that can't go together.
            NotSaved: the lobby could not be saved (none was opened).
        """
        channel_id = channel_of(interaction)
        open_ = self.tables.get(channel_id)
        if (
            open_ is not None
            and open_.state is TableState.LOBBY
            and open_.host.id == str(interaction.user.id)
        ):
            await acknowledge(interaction)
            defaults = await self.channel_defaults(thread_parent(interaction) or channel_id)
            await self._reconfigure(interaction, choices, defaults)
            return
        if open_ is not None:  # refused privately, before the public answer is begun
            raise open_already(open_)
        given = {k: v for k, v in choices.items() if v is not None}
        _variant(given.get("variant", "classic"))
        options_from(given)  # what the host asked for, refused privately before the public answer
        _target_used(given, given)
        await acknowledge(interaction, public=True)
        parent_id = thread_parent(interaction)
        settings = await self.channel_defaults(parent_id or channel_id)  # a thread's: its channel's
        settings.update(given)
        _one_mode(settings, given)
        _target_used(settings, given)  # the channel's scoring: refused privately, the placeholder taken back
        table = Table.new(
            guild_id=interaction.guild_id or 0,
            channel_id=channel_id,
            host=_seat(interaction.user),
            variant=_variant(settings.get("variant", "classic")),
            options=options_from(settings),
            turn_seconds=int(settings.get("turn_seconds", self.defaults.turn_seconds)),
        )
        table.language = channel_language(settings, interaction)
        if settings.get("threads") and parent_id is None:
            await self._open_in_thread(interaction, table)
            return
        await self._open(interaction, table)

    async def _open_in_thread(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Open the lobby ``table`` in a public thread of its own (the channel setting
        ``threads``): the command's public answer is the one-line pointer that starts the thread,
        and the lobby message is the thread's first message; the table's channel is the thread.
        Where the bot can't create a thread (Create Public Threads missing), the pointer says so
        and the lobby opens in the channel itself.

        Raises:
            NotSaved: the lobby could not be saved (none was opened).
        """
        host = interaction.user.display_name
        tr = translator(table.language)
        pointer = await interaction.followup.send(
            pointer_open(host, table.variant, tr), allowed_mentions=NONE, wait=True
        )
        client = self.service.client
        channel = client.get_partial_messageable(table.channel_id, guild_id=table.guild_id or None)
        try:
            thread = await channel.get_partial_message(pointer.id).create_thread(
                name=thread_name(host, table.variant, tr), auto_archive_duration=1440
            )
        except discord.HTTPException as exc:
            log.warning("no thread in channel %s (%s): the lobby opens in the channel", table.channel_id, exc)
            with contextlib.suppress(discord.HTTPException):
                await pointer.edit(content=tr._(NO_THREAD))
            await self._open(interaction, table)
            return
        table.parent_id, table.pointer_id = table.channel_id, pointer.id
        table.channel_id = thread.id
        room = client.get_partial_messageable(table.channel_id, guild_id=table.guild_id or None)
        await self._open(
            interaction,
            table,
            post=lambda view: room.send(view=view, allowed_mentions=NONE),
        )

    async def rematch(self, interaction: discord.Interaction[Any], arg: str) -> None:
        """The Rematch button of a finished game's standings (its ``arg``: ``<game id>.<host
        id>``): a lobby in the same channel with the game's edition and options (read back from
        its record, so the button works days later and after restarts) and the channel's turn
        timer. The presser is seated and hosts, the game's bots are seated again, and its other
        players press Join; the game's host hosts again when they join (or press it themselves).

        Raises:
            BadClick: ``arg`` reads as no game.
            LobbyError: a lobby or game is open in the channel; the game's record is gone
                (``/uno forget-me`` does not remove it; a deleted database does).
            NotSaved: the lobby could not be saved (none was opened).
        """
        game_id, _, host_id = arg.partition(".")
        if not game_id or not host_id:
            raise BadClick(f"rematch {arg[:40]!r}")
        channel_id = channel_of(interaction)
        if (open_ := self.tables.get(channel_id)) is not None:
            raise open_already(open_)
        await acknowledge(interaction)
        record = await self.service.storage.game(game_id)
        if record is None or record.result.channel_id != channel_id:
            raise LobbyError(
                N_("That game's record is gone, so it can't be played again: /uno new opens a lobby.")
            )
        result, replay = record.result, record.result.replay or {}
        names = dict(zip(result.players, replay.get("names", ()), strict=False))
        settings = await self.channel_defaults(thread_parent(interaction) or channel_id)
        presser = _seat(interaction.user)
        table = Table.new(
            guild_id=interaction.guild_id or 0,
            channel_id=channel_id,
            host=presser,
            variant=_variant(result.variant),
            options=options_from(replay.get("options", settings)),
            turn_seconds=int(settings.get("turn_seconds", self.defaults.turn_seconds)),
        )
        table.language = channel_language(settings, interaction)
        # The game's bots at the levels their names showed; one that took over a player's seat
        # is a bot of its own now ("Bot 3", not "Bot 3 (for Zoë)": Zoë isn't at this table).
        bots = [int(p[3:]) for p in result.players if Seat(p, "").is_ai]
        table.seats.extend(bot_seat(n, level_named(names.get(f"ai:{n}", ""))) for n in bots)
        table.rematch_host = "" if host_id == presser.id else host_id
        await self._open(interaction, table)

    async def _open(
        self, interaction: discord.Interaction[Any], table: Table, post: Post | None = None
    ) -> None:
        """Open the lobby ``table`` in its channel (the one way a lobby opens: ``/uno new`` and
        Rematch): saved, then its message posted as the interaction's answer (acknowledged), or
        by ``post`` (the first message of the table's own thread).

        Raises:
            LobbyError: a lobby or game was opened in the channel meanwhile.
            NotSaved: the lobby could not be saved (none was opened).
        """
        channel_id = table.channel_id
        async with self.tables.lock(channel_id):
            existing = self.tables.get(channel_id)
            if existing is not None and existing.state is not TableState.OVER:
                raise open_already(existing)
            try:
                if channel_id not in await self.service.leases.take([channel_id]):
                    raise LobbyError(SERVED_ELSEWHERE)
                await self.service.storage.save_table(table.guild_id, channel_id, table.to_snapshot())
            except StorageError as exc:
                raise NotSaved.logged(channel_id, exc) from None
            self.tables.put(table)
            self.service.set_aside.pop(channel_id, None)  # an unreadable table saved here is replaced
        try:  # the answer "thinking" so far (or a new message, for a click) becomes the lobby message
            view = render.lobby(table, translator(table.language))
            if post is not None:
                message: discord.abc.Snowflake = await post(view)
            else:
                message = await interaction.followup.send(view=view, allowed_mentions=NONE, wait=True)
        except discord.HTTPException:
            await self._discard(table)  # never a lobby without its message
            raise
        async with self.tables.lock(channel_id):
            table.message_id = message.id
            await self.service.acting.save(table)
        self.service.scheduler.schedule(table)

    async def _discard(self, table: Table) -> None:
        with contextlib.suppress(NotSaved):
            async with self.service.acting.change(table.channel_id) as change:
                if change.table is table:
                    table.state = TableState.OVER
                else:
                    change.nothing()

    async def _reconfigure(
        self, interaction: discord.Interaction[Any], choices: dict[str, Any], defaults: dict[str, Any]
    ) -> None:
        """The host runs ``/uno new`` again in their open lobby: change its options."""
        given = {k: v for k, v in choices.items() if v is not None}
        variant = given.pop("variant", None)
        if variant is not None:
            _variant(variant)
        async with self.service.acting.change(channel_of(interaction)) as change:
            table = change.table
            if table.state is not TableState.LOBBY or table.host.id != str(interaction.user.id):
                raise open_already(table)
            merged = {**table.options.to_dict(), **given}
            _one_mode(merged, given)
            _target_used(merged, given)
            table.configure(variant=variant, options=Options.parse(merged))
            # The turn timer is no /uno new option: it follows the channel's settings until Start.
            table.turn_seconds = int(defaults.get("turn_seconds", self.defaults.turn_seconds))
        await interaction.followup.send(
            reader(interaction)._("The lobby's options were changed."), ephemeral=True
        )
        self.service.publisher.publish(table)

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
            saved = dict(await self.service.storage.get_channel_settings(interaction.channel_id or 0) or {})
            saved.update(changes)
            if language is not None:
                saved.pop("language", None)
                if language != SERVER:
                    saved["language"] = language
            merged = {**current, **saved}
            if "language" not in saved:  # back to the server's
                merged.pop("language", None)
            options_from(merged)  # refuses a combination the engine would refuse
            await self.service.storage.set_channel_settings(
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
            async with self.service.acting.change(channel_id) as change:
                change.table.language = language
        except NoTable:
            return
        self.service.publisher.publish(change.table)

    async def join(self, interaction: discord.Interaction[Any], *, version: int | None = None) -> None:
        """``/uno join``, or the lobby's Join."""
        seat = _seat(interaction.user)
        await self.change(interaction, lambda t: t.join(seat), N_("You joined the table."), version=version)

    async def change(
        self,
        interaction: discord.Interaction[Any],
        act: Callable[[Table], object],
        ack: str = N_("Done."),
        *,
        version: int | None = None,
    ) -> None:
        """Change the lobby with ``act`` (a `Table` method that raises `LobbyError` when it can't);
        a lobby everyone left closes. A click on the lobby message is answered with the lobby
        redrawn, a command with ``ack`` (English, said in the user's language).

        Raises:
            StaleAction: ``version`` (the clicked lobby's) is not the lobby's now.
            LobbyError, BadOption: as raised by ``act``.
            NotSaved: the change could not be saved; the lobby is as before.
        """
        await acknowledge(interaction)
        async with self.service.acting.change(channel_of(interaction)) as change:
            table = change.table
            _check_version(table, version)
            act(table)
            if not table.seats:
                table.state = TableState.OVER
        if table.state is TableState.LOBBY:
            if from_message(interaction):
                shown = table.version
                await interaction.edit_original_response(
                    content=None, embed=None, view=render.lobby(table, translator(table.language))
                )
                if table.version != shown:  # changed again while the answer was on its way
                    self.service.publisher.publish(table)
            else:
                await interaction.followup.send(reader(interaction)._(ack), ephemeral=True)
                self.service.publisher.publish(table)
            return
        footer = N_("Start a new one with /uno new.")
        await self._lobby_over(
            interaction, table, table.message_id, N_("{edition} lobby (closed: everyone left)"), footer, ack
        )
        self.service.after(change)

    async def _lobby_over(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        message_id: int | None,
        title: str,
        footer: str,
        ack: str,
    ) -> None:
        """Answer a change that ended the lobby (it closed, or the game started): a click on the
        lobby message redraws it without its components; a command is answered with ``ack``,
        and the lobby message is redrawn so in the background. The texts are English: ``title``
        (its ``{edition}``: the table's edition) and ``footer`` are said in the table's language,
        ``ack`` in the user's."""
        tr = translator(table.language)
        title, footer = tr._(title).format(edition=render.edition_name(table.variant, tr)), tr._(footer)
        if from_message(interaction):
            view = render.lobby_over(table, title, tr, footer)
            await interaction.edit_original_response(content=None, embed=None, view=view)
        else:
            await interaction.followup.send(reader(interaction)._(ack), ephemeral=True)
            self.service.publisher.show_lobby_over(table, message_id, title, footer)

    async def start(self, interaction: discord.Interaction[Any], *, version: int | None = None) -> None:
        """``/uno start``, or the lobby's Start (the host): deal the first round.

        Raises:
            StaleAction: ``version`` (the clicked lobby's) is not the lobby's now.
            LobbyError: not the host; too few players; started already.
            BadOption: options that don't fit the seats (partners with 3 players).
            NotSaved: the start could not be saved; the lobby is as before.
        """
        await acknowledge(interaction)
        async with self.service.acting.change(channel_of(interaction)) as change:
            table = change.table
            _check_version(table, version)
            if str(interaction.user.id) != table.host.id:
                raise LobbyError(N_("Only the host can start the game."))
            seed = None if self.defaults.seed is None else self._seeds.getrandbits(32)
            table.log.extend(render.log_lines(table, table.start(seed), change.tr))
            # The table gets its own message below the lobby; forget the lobby's before
            # answering, so no one sees a started table pointing at its lobby message.
            lobby_id, table.message_id = table.message_id, None
        footer = N_("The table is below; open your hand with its My hand button.")
        title = N_("{edition}: the game has started")
        await self._lobby_over(interaction, table, lobby_id, title, footer, N_("The game has started."))
        self.service.after(change)  # posts the table message and saves its id


def _one_mode(options: dict[str, Any], given: dict[str, Any]) -> None:
    """A mode the host asks for (partners, elimination) replaces the other one that ``options``
    had from before (the lobby's, or the channel's defaults): they can't be combined. Asked for
    together, they are refused when the options are read."""
    for mode, other in (("elimination", "partners"), ("partners", "elimination")):
        if given.get(mode) and other not in given:
            options[other] = False


def _target_used(options: dict[str, Any], given: dict[str, Any]) -> None:
    """Refuse a target score the host gives where ``options`` score single rounds: it would be
    ignored without a word (docs/rules.md §2.3).

    Raises:
        BadOption: ``given`` has a target score and ``options`` single-round scoring.
    """
    if "target_score" in given and options.get("scoring") == Scoring.SINGLE_ROUND.value:
        raise BadOption(
            N_(
                "A target score has no use with single-round scoring: leave it out, or choose another scoring."
            )
        )


def _check_version(table: Table, version: int | None) -> None:
    """Refuse a click on a lobby message that shows an older state of the lobby.

    Raises:
        StaleAction: ``version`` (the clicked message's; None for a command) is not the lobby's.
    """
    if version is not None and version != table.version and table.state is TableState.LOBBY:
        raise StaleAction(N_("The lobby changed; please try again."))


def _variant(variant: str) -> str:
    if variant not in EDITIONS:
        raise BadOption.of(N_("Unknown edition {edition}."), edition=repr(variant))
    return variant


def _seat(user: discord.abc.User) -> Seat:
    return Seat(str(user.id), user.display_name)
