"""Opening a lobby, the one way a lobby opens: ``/uno new`` (in the channel, or in a thread of
its own), and the Rematch of a finished game's standings; and ``/uno new`` again in an open
lobby, which changes its options. (The channel's defaults it opens with are in ``channels.py``;
the open lobby's seats and the start in ``lobby.py``.)

Each body acknowledges its interaction first, changes the table through `Acting` (under its lock,
saved, or nothing at all), then answers and publishes once the lock is released.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import render
from bot.client.errors import reader
from bot.engine.editions import EDITIONS
from bot.engine.errors import BadOption
from bot.engine.options import Options, Scoring
from bot.i18n import N_, channel_language, translator
from bot.render.thread import pointer_open, thread_name
from bot.service.acting import Acting, NotSaved
from bot.service.channels import Channels
from bot.service.interactions import acknowledge, channel_of, thread_parent
from bot.service.leases import Leases
from bot.service.publishing import Publisher
from bot.service.registry import TableRegistry
from bot.service.scheduling import Scheduler
from bot.storage import Storage, StorageError
from bot.tables import BadClick, LobbyError, Seat, Table, TableState, bot_seat, level_named, options_from

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


class Opening:
    """``/uno new`` and Rematch (see the module's docstring).

    Args:
        tables: every table, with its lock.
        storage: where a new lobby is saved and a rematch's game read back.
        acting: the changes of tables.
        publisher: the public messages (the lobby message, redrawn).
        scheduler: the timed work (a new lobby's expiry).
        leases: this process's table leases (a new lobby's is taken first).
        channels: the channels' defaults a lobby opens with (and the bot's, under them).
        set_aside: the channels whose saved table could not be read, and why (a new lobby
            replaces it).
    """

    def __init__(
        self,
        tables: TableRegistry,
        storage: Storage,
        acting: Acting,
        publisher: Publisher,
        scheduler: Scheduler,
        leases: Leases,
        channels: Channels,
        set_aside: dict[int, str],
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.acting = acting
        self.publisher = publisher
        self.scheduler = scheduler
        self.leases = leases
        self.channels = channels
        self.defaults = channels.defaults
        self.set_aside = set_aside

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
            defaults = await self.channels.channel_defaults(thread_parent(interaction) or channel_id)
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
        settings = await self.channels.channel_defaults(parent_id or channel_id)  # a thread's: its channel's
        settings.update(given)
        _one_mode(settings, given)
        _target_used(settings, given)  # the channel's scoring: refused privately, the placeholder taken back
        table = Table.new(
            guild_id=interaction.guild_id or 0,
            channel_id=channel_id,
            host=seat_of(interaction.user),
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
        try:
            thread = (
                await self.publisher.channel(table)
                .get_partial_message(pointer.id)
                .create_thread(name=thread_name(host, table.variant, tr), auto_archive_duration=1440)
            )
        except discord.HTTPException as exc:
            log.warning("no thread in channel %s (%s): the lobby opens in the channel", table.channel_id, exc)
            with contextlib.suppress(discord.HTTPException):
                await pointer.edit(content=tr._(NO_THREAD))
            await self._open(interaction, table)
            return
        table.parent_id, table.pointer_id = table.channel_id, pointer.id
        table.channel_id = thread.id
        room = self.publisher.channel(table)
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
        record = await self.storage.game(game_id)
        if record is None or record.result.channel_id != channel_id:
            raise LobbyError(
                N_("That game's record is gone, so it can't be played again: /uno new opens a lobby.")
            )
        result, replay = record.result, record.result.replay or {}
        names = dict(zip(result.players, replay.get("names", ()), strict=False))
        settings = await self.channels.channel_defaults(thread_parent(interaction) or channel_id)
        presser = seat_of(interaction.user)
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
                if channel_id not in await self.leases.take([channel_id]):
                    raise LobbyError(SERVED_ELSEWHERE)
                await self.storage.save_table(table.guild_id, channel_id, table.to_snapshot())
            except StorageError as exc:
                raise NotSaved.logged(channel_id, exc) from None
            self.tables.put(table)
            self.set_aside.pop(channel_id, None)  # an unreadable table saved here is replaced
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
            await self.acting.save(table)
        self.scheduler.schedule(table)

    async def _discard(self, table: Table) -> None:
        with contextlib.suppress(NotSaved):
            async with self.acting.change(table.channel_id) as change:
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
        async with self.acting.change(channel_of(interaction)) as change:
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
        self.publisher.publish(table)


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


def _variant(variant: str) -> str:
    if variant not in EDITIONS:
        raise BadOption.of(N_("Unknown edition {edition}."), edition=repr(variant))
    return variant


def seat_of(user: discord.abc.User) -> Seat:
    """The seat of the member ``user`` at a table (their id and display name)."""
    return Seat(str(user.id), user.display_name)
