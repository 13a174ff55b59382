"""The table service: every lobby and game action, with the Discord messages it implies.

One :class:`TableService` per bot. A handler takes the channel's lock, calls the engine once,
saves the table and answers the interaction; then, in the background, the table message and the
open hands are updated, the next player is pinged, and AI moves and the turn timer are scheduled.
Each message has at most one update in flight; changes made meanwhile are shown by one more
update (the latest state wins). The cog and the components only parse input and call in here;
rendering is in ``bot/render.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, NamedTuple, NoReturn

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot import render
from bot.components import release
from bot.engine import ai
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Color
from bot.engine.errors import BadOption, CatchRefused, NotInGame, NotYourTurn, UnoError
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.options import HouseRule, Options
from bot.engine.variants import VARIANTS
from bot.errors import reply_error
from bot.settings import GameDefaults
from bot.storage import GameResult, RoundResult, Storage, StorageError
from bot.tables import LobbyError, Seat, StaleAction, Table, TableRegistry, options_from

log = logging.getLogger(__name__)
HAND_TOKEN_SECONDS = 14 * 60  # interaction tokens last 15 minutes
NONE = discord.AllowedMentions.none()
TABLE, PING = "table", "ping"  # keys of a table's updates (with its channel; a hand's: the player)
# At most one update of a message per this many seconds; changes meanwhile collapse into the next.
# (Discord allows about five edits per channel every five seconds; AI seats move in quick turns.)
UPDATE_SPACING = 0.2
# The hand of a player with nothing to do waits this long for more changes before it is redrawn
# (AI seats' turns in a row make one edit, not one each); a hand whose owner can act goes at once.
HAND_SETTLE_SECONDS = 1.0
CLOSE_SECONDS = 5.0  # how long a shutdown waits for moves in progress and message updates


class OpenHand(NamedTuple):
    """The hand a player was answered with last: its interaction's webhook (whose token edits the
    message for 15 minutes), when it was answered, and the table's version it shows.

    Not the interaction itself: it holds the whole clicked message, which would outlive many
    collections for nothing and make the collector's full passes more frequent.
    """

    webhook: discord.Webhook
    since: float
    version: int

    @property
    def expired(self) -> bool:
        """Whether its token may no longer edit or delete the message."""
        return time.monotonic() - self.since > HAND_TOKEN_SECONDS


class NotSaved(UnoError):
    """The move could not be saved, so it was not made (the table is as before it)."""

    reason = "not-saved"
    default_message = "The game couldn't be saved just now, so your move was not made. Please try again."


class TableService:
    """Lobbies and games in every channel the bot serves.

    Args:
        client: the discord client (for channels and messages).
        storage: where tables, results and channel settings are kept.
        defaults: the settings' game defaults.
    """

    def __init__(self, client: discord.Client, storage: Storage, defaults: GameDefaults) -> None:
        self.client = client
        self.storage = storage
        self.defaults = defaults
        self.tables = TableRegistry()
        self._hands: dict[tuple[int, str], OpenHand] = {}
        self._tasks: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._updating: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._next_update: dict[tuple[int, str], Callable[[], Awaitable[None]]] = {}
        self._settling: dict[tuple[int, str], asyncio.Future[None]] = {}
        self._turnstile = asyncio.Lock()
        self._rng = random.Random(defaults.seed)
        # With a seed set, the n-th game started gets the same shuffles on every run.
        self._seeds = random.Random(defaults.seed)

    # ================================================================ commands

    async def channel_defaults(self, channel_id: int) -> dict[str, Any]:
        """The channel's saved settings over the bot's defaults."""
        base = self.defaults.model_dump()
        base.update(await self.storage.get_channel_settings(channel_id) or {})
        return base

    async def new(self, interaction: discord.Interaction[Any], **choices: Any) -> None:
        """``/uno new``: open a lobby with the channel's defaults and the host's choices."""
        channel_id = _channel_id(interaction)
        async with self.tables.lock(channel_id):
            existing = self.tables.get(channel_id)
            if (
                existing is not None
                and existing.state == "lobby"
                and existing.host.id == str(interaction.user.id)
            ):
                await self._reconfigure(interaction, existing, choices)
                return
            if existing is not None and existing.state != "over":
                raise LobbyError("A game is already open in this channel (/uno end closes it).")
            settings = await self.channel_defaults(channel_id)
            settings.update({k: v for k, v in choices.items() if v is not None})
            variant = settings.get("variant", "classic")
            if variant not in VARIANTS:
                raise BadOption(f"Unknown edition {variant!r}.")
            table = Table.new(
                guild_id=interaction.guild_id or 0,
                channel_id=channel_id,
                host=_seat(interaction.user),
                variant=variant,
                options=options_from(settings),
                turn_seconds=int(settings.get("turn_seconds", self.defaults.turn_seconds)),
            )
            embed, view = render.lobby(table)
            await self.storage.save_table(table.guild_id, channel_id, table.to_snapshot())
            self.tables.put(table)
            await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NONE)
            message = await interaction.original_response()
            table.message_id = message.id
            await self._save(table)
        self._schedule_lobby_expiry(table)

    async def _reconfigure(
        self, interaction: discord.Interaction[Any], table: Table, choices: dict[str, Any]
    ) -> None:
        """The host runs ``/uno new`` again in their open lobby: change its options."""
        given = {k: v for k, v in choices.items() if v is not None}
        variant = given.pop("variant", None)
        if variant is not None and variant not in VARIANTS:
            raise BadOption(f"Unknown edition {variant!r}.")
        merged = {**table.options.to_dict(), **given}
        # A mode asked for now replaces the other one the lobby had (they can't be combined);
        # asked for together, they are refused below.
        for mode, other in (("elimination", "partners"), ("partners", "elimination")):
            if given.get(mode) and other not in given:
                merged[other] = False
        options = Options.parse(merged)
        # The turn timer is no /uno new option: it follows the channel's settings until Start.
        defaults = await self.channel_defaults(table.channel_id)
        before = table.to_snapshot()
        table.configure(variant=variant, options=options)
        table.turn_seconds = int(defaults.get("turn_seconds", self.defaults.turn_seconds))
        try:
            await self._save(table)
        except StorageError as exc:
            self._not_saved(before, exc)
        embed, view = render.lobby(table)
        await interaction.response.send_message("The lobby's options were changed.", ephemeral=True)
        await self._edit_message(table, table.message_id, embed, view)

    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno join``."""
        await self._lobby_command(
            interaction, lambda t: t.join(_seat(interaction.user)), "You joined the table."
        )

    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno start`` (the host)."""
        await self._lobby_command(interaction, None, "", start=True)

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno leave``: stand up from the lobby, or leave the game in progress."""
        channel_id = _channel_id(interaction)
        player = str(interaction.user.id)
        table = self.tables.require(channel_id)
        if table.state == "lobby":
            await self._lobby_command(interaction, lambda t: t.leave_lobby(player), "You left the table.")
            return
        async with self.tables.lock(channel_id):
            table = self.tables.require(channel_id)
            before = table.to_snapshot()
            events = table.leave_game(player)
            try:
                await self._changed(table, events)
            except StorageError as exc:
                self._not_saved(before, exc)
            await interaction.response.send_message("You left the game.", ephemeral=True)
        self._publish(table)
        self._after(table)  # the next player may be an AI seat, or have a turn timer

    async def kick(self, interaction: discord.Interaction[Any], member: discord.abc.User) -> None:
        """``/uno kick``: the host or a member with Manage Messages removes a player.

        Raises:
            LobbyError: ``member`` is the one kicking (leaving is ``/uno leave``), or they are
                neither the host nor a member with Manage Messages.
            NotInGame: ``member`` isn't at the table, or is out of the game already.
            NoTable: there is no table in the channel.
        """
        channel_id = _channel_id(interaction)
        table = self.tables.require(channel_id)
        player = str(member.id)
        if player == str(interaction.user.id):  # a kick of oneself would act as a leave
            raise LobbyError("You can't kick yourself; /uno leave takes you away from the table.")
        self._check_moderator(interaction, table)
        if table.seat(player) is None:
            raise NotInGame(f"{member.display_name} isn't at this table.")
        if table.state == "lobby":
            await self._lobby_command(
                interaction, lambda t: t.leave_lobby(player), f"{member.display_name} was removed."
            )
            return
        async with self.tables.lock(channel_id):
            table = self.tables.require(channel_id)
            if table.seat(player) is None:  # left meanwhile
                raise NotInGame(f"{member.display_name} isn't at this table.")
            if table.game is not None and not table.in_game(player):
                raise NotInGame(f"{member.display_name} isn't in this game any more.")
            before = table.to_snapshot()
            events = table.leave_game(player)
            try:
                await self._changed(table, events)
            except StorageError as exc:
                self._not_saved(before, exc)
            await interaction.response.send_message(
                f"{member.display_name} was removed from the game.", ephemeral=True
            )
        self._publish(table)
        self._after(table)  # the next player may be an AI seat, or have a turn timer

    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno forget-me``: remove the member's name from every record (results stay counted).

        Raises:
            LobbyError: they sit at an open table (a lobby, or a game in progress even after
                leaving it), whose result would name them again when it is recorded.
        """
        user = str(interaction.user.id)
        seated = next((t for t in self.tables if t.state != "over" and t.seat(user) is not None), None)
        if seated is not None:
            raise LobbyError(
                f"You are at the UNO table in <#{seated.channel_id}>, and its result will name you. "
                "Run /uno forget-me again once that game is over (or you have left its lobby)."
            )
        changed = await self.storage.forget_user(user)
        await interaction.response.send_message(
            f"Done: your name was removed from {changed} record(s).", ephemeral=True
        )

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno end``: the host or a member with Manage Messages closes the table."""
        channel_id = _channel_id(interaction)
        async with self.tables.lock(channel_id):
            table = self.tables.require(channel_id)
            self._check_moderator(interaction, table)
            was_lobby = table.state == "lobby"
            before = table.to_snapshot()
            table.state = "over"
            table.log.append(f"The table was closed by {interaction.user.display_name}.")
            try:
                await self._close(table)
            except StorageError as exc:
                self._not_saved(before, exc)
            if was_lobby:
                embed, _ = render.lobby(table)
                embed.title = "UNO lobby (closed)"
                embed.set_footer(text=f"Closed by {interaction.user.display_name}.")
                await self._edit_message(table, table.message_id, embed, None)
            await interaction.response.send_message(
                f"The UNO table was closed by {interaction.user.mention}.", allowed_mentions=NONE
            )
        self._publish(table)

    async def show_hand(self, interaction: discord.Interaction[Any], notice: str = "") -> None:
        """``/uno hand`` or the table's My hand button: the player's private hand."""
        table = self.tables.require(_channel_id(interaction))
        player = str(interaction.user.id)
        if table.game is None:
            raise NotInGame("The game hasn't started yet.")
        if player not in table.game.hands:
            raise NotInGame()  # the same words as any other button of the game
        version = table.version
        content, embed, view = render.hand(table, player, notice=notice)
        previous = self._hands.get((table.channel_id, player))
        await interaction.response.send_message(content, embed=embed, view=view, ephemeral=True)
        release(view)
        self._opened(table, player, interaction, version)
        if previous is not None:  # one hand message at a time: the one this replaces goes
            self._spawn(_delete_hand(previous))

    async def repost_table(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno table``: post the table message again at the bottom of the channel."""
        channel_id = _channel_id(interaction)
        async with self.tables.lock(channel_id):
            table = self.tables.require(channel_id)
            await interaction.response.send_message("The table is below.", ephemeral=True)
            old, table.message_id = table.message_id, None
            self._publish(table)
        if old is not None:
            await self._updated((channel_id, TABLE))  # no edit is still on its way to the old one
            with contextlib.suppress(discord.HTTPException):
                await self._channel(table).get_partial_message(old).delete()

    # ================================================================ components

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        scope: str,
        channel_id: int,
        version: int,
        verb: str,
        args: list[str],
        values: list[str],
    ) -> None:
        """A click on a lobby, table or hand component (``bot/components.py``)."""
        try:
            table = self.tables.require(channel_id)
            if scope == "l":
                await self._on_lobby(interaction, table, version, verb, values)
            elif scope == "t":
                await self._on_table(interaction, table, verb)
            else:
                await self._on_hand(interaction, table, version, verb, args, values)
        except Exception as exc:  # the one funnel: UnoError to the player, the rest logged
            redraw = self._hand_redraw(interaction, channel_id) if scope == "h" else None
            await reply_error(interaction, exc, channel_id, redraw=redraw)

    def _hand_redraw(
        self, interaction: discord.Interaction[Any], channel_id: int
    ) -> Callable[[str], Awaitable[None]] | None:
        """How a refused click in a hand is answered: the player's hand redrawn through the
        interaction with a notice (None: they have no hand at the table any more)."""
        table = self.tables.get(channel_id)  # the table as it is now (a failed save replaces it)
        player = str(interaction.user.id)
        if table is None or _hand_closed(table, player):
            return None
        return lambda notice: self._respond_hand(interaction, table, player, notice=notice)

    async def _on_lobby(
        self, interaction: discord.Interaction[Any], table: Table, version: int, verb: str, values: list[str]
    ) -> None:
        user = _seat(interaction.user)
        host_only = verb in ("start", "variant", "rules", "bot", "unbot")  # the host sets the table up
        if host_only and user.id != table.host.id:
            raise LobbyError("Only the host can do that.")
        if verb == "start":
            await self._lobby_command(interaction, None, "", start=True, version=version)
            return
        changes: dict[str, Callable[[Table], Any]] = {
            "variant": lambda t: t.configure(variant=values[0]),
            "rules": lambda t: t.configure(
                options=Options.parse({**t.options.to_dict(), "house_rules": values})
            ),
            "join": lambda t: t.join(user),
            "leave": lambda t: t.leave_lobby(user.id),
            "bot": lambda t: t.add_ai(),
            "unbot": lambda t: t.remove_ai(),
        }
        if verb not in changes:
            raise LobbyError("Unknown lobby button.")
        change = changes[verb]
        await self._lobby_command(interaction, change, "", version=version)

    async def _lobby_command(
        self,
        interaction: discord.Interaction[Any],
        change: Callable[[Table], Any] | None,
        ack: str,
        *,
        start: bool = False,
        version: int | None = None,
    ) -> None:
        channel_id = _channel_id(interaction)
        from_lobby_message = interaction.type is discord.InteractionType.component
        async with self.tables.lock(channel_id):
            table = self.tables.require(channel_id)
            if version is not None and version != table.version and table.state == "lobby":
                raise StaleAction("The lobby changed; please try again.")
            before = table.to_snapshot()
            if start:
                if str(interaction.user.id) != table.host.id:
                    raise LobbyError("Only the host can start the game.")
                seed = None if self.defaults.seed is None else self._seeds.getrandbits(32)
                events = table.start(seed)
                table.log.extend(render.log_lines(table, events))
                # The table gets its own message below the lobby; forget the lobby's before
                # answering, so no one sees a started table pointing at its lobby message.
                lobby_id, table.message_id = table.message_id, None
                try:
                    await self._save(table)
                except StorageError as exc:
                    self._not_saved(before, exc)
                embed, _ = render.lobby(table)
                embed.title = "UNO: the game has started"
                embed.set_footer(text="The table is below; open your hand with its My hand button.")
                if from_lobby_message:
                    await interaction.response.edit_message(embed=embed, view=None)
                else:
                    await interaction.response.send_message("The game has started.", ephemeral=True)
                    await self._edit_message(table, lobby_id, embed, None)
            else:
                assert change is not None
                change(table)
                try:
                    if not table.seats:
                        table.state = "over"
                        await self._close(table)
                    else:
                        await self._save(table)
                except StorageError as exc:
                    self._not_saved(before, exc)
                embed, lobby_view = render.lobby(table)
                view = lobby_view if table.state == "lobby" else None
                if view is None:
                    embed.title = "UNO lobby (closed: everyone left)"
                    embed.set_footer(text="Start a new one with /uno new.")
                if from_lobby_message:
                    await interaction.response.edit_message(embed=embed, view=view)
                else:
                    await interaction.response.send_message(ack or "Done.", ephemeral=True)
                    await self._edit_message(table, table.message_id, embed, view)
            if start:
                self._publish(table)  # posts the table message and saves its id
        if start:
            self._after(table)

    async def _edit_message(
        self, table: Table, message_id: int | None, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        if message_id is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await self._edit(table, message_id, embed, view)

    async def _edit(
        self, table: Table, message_id: int, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        """Edit one of the bot's messages in the table's channel, straight through discord.py's
        HTTP client: `PartialMessage.edit` would also turn the response into a `discord.Message`
        that nobody reads (a fifth of the bot's CPU under load, docs/performance-load.md).

        Raises:
            discord.HTTPException: Discord refused the edit (NotFound: the message is gone).
        """
        with handle_message_parameters(embed=embed, view=view) as params:
            release(view)  # in the payload now
            await self.client.http.edit_message(table.channel_id, message_id, params=params)

    async def _on_table(self, interaction: discord.Interaction[Any], table: Table, verb: str) -> None:
        if verb == "hand":
            await self.show_hand(interaction)
        elif verb == "uno":
            await self._act(interaction, table, None, lambda g, p: g.call_uno(p), answer="You called UNO!")
        elif verb == "catch":
            await self._act(interaction, table, None, _catch_someone, answer="Caught!")
        else:
            raise LobbyError("Unknown table button.")

    async def _on_hand(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int,
        verb: str,
        args: list[str],
        values: list[str],
    ) -> None:
        player = str(interaction.user.id)
        game = table.game
        if game is None or player not in game.hands:
            raise NotInGame()
        if verb == "r":
            await self._respond_hand(interaction, table, player)
            return
        if version and version != table.version:
            await self._respond_hand(interaction, table, player, notice="⚠️ " + StaleAction.default_message)
            return
        if verb == "pg":
            await self._respond_hand(interaction, table, player, page=int(args[0]))
            return
        if verb == "bk":
            await self._respond_hand(interaction, table, player)
            return
        if verb == "sel":  # a card chosen from the select: "<verb>:<index>"
            verb, _, index = values[0].partition(":")
            args = [index]
        if verb == "tgt":  # a picked player for a play in progress: args = verb, index, color
            verb, args = args[0], [args[1], args[2], str(game.players[int(values[0])])]
        action = _hand_action(game, player, verb, args, values)
        if isinstance(action, tuple):  # a wild still needs a color or a player: second step
            await self._respond_hand(interaction, table, player, pick=action)
            return
        await self._act(interaction, table, version or None, action, answer=None)

    # ================================================================ acting

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        version: int | None,
        action: Callable[[Game, str], list[Event]],
        *,
        answer: str | None,
    ) -> None:
        """Run one engine action for the interacting player under the table's lock.

        ``answer`` None: the interaction was a hand component, answered with the refreshed hand;
        else the text of an ephemeral answer.

        The interaction is acknowledged first (a deferred update): the answer waits for the
        table's lock and for the move to be saved, and Discord wants an acknowledgement within
        3 seconds whatever the load.
        """
        player = str(interaction.user.id)
        await interaction.response.defer()
        async with self.tables.lock(table.channel_id):
            table = self.tables.require(table.channel_id)
            game = table.game
            if game is None:
                raise NotInGame("The game hasn't started yet.")
            if version is not None and version != table.version:
                await self._respond_hand(
                    interaction, table, player, notice="⚠️ " + StaleAction.default_message
                )
                return
            if player not in game.hands:
                raise NotInGame()
            before = table.to_snapshot()
            events = action(game, player)
            table.timeouts.pop(player, None)
            try:
                await self._changed(table, events)
            except StorageError as exc:
                # Nothing is lost: the table goes back to its last saved state, and the player
                # is told their move was not made.
                log.error("table %s: could not save a move: %s", table.channel_id, exc)
                self.tables.put(Table.from_snapshot(before))
                raise NotSaved() from None
            if answer is None:
                await self._respond_hand(interaction, table, player)
            else:
                await interaction.followup.send(answer, ephemeral=True)
            self._publish(table)
        self._after(table)

    def _not_saved(self, before: dict[str, Any], exc: StorageError) -> NoReturn:
        """A change could not be saved (lock held): the table goes back to ``before``, its last
        saved state, and the player is told (:class:`NotSaved`)."""
        log.error("table %s: could not save a change: %s", before.get("channel_id"), exc)
        table = Table.from_snapshot(before)
        self.tables.put(table)
        if table.state == "lobby":
            self._schedule_lobby_expiry(table)
        raise NotSaved() from None

    async def _changed(self, table: Table, events: list[Event], note: str = "") -> None:
        """After an accepted action (lock held): log (``note`` after the events' lines), score
        rounds, start the next, save. A finished round or game is recorded in the same
        transaction as the table's save (or its deletion), so a failed save records nothing."""
        game = table.game
        assert game is not None
        table.log.extend(render.log_lines(table, events))
        if note:
            table.log.append(note)
        results: list[RoundResult | GameResult] = []
        summary = None
        if game.round_over:
            if table.recorded_rounds < game.round_no:
                table.recorded_rounds = game.round_no
                results.append(self._round_result(table))
            if game.game_over:
                table.state = "over"
                await self._close(table, [*results, self._game_result(table)])
                with contextlib.suppress(discord.HTTPException):
                    await self._channel(table).send(embed=render.standings(table), allowed_mentions=NONE)
                return
            summary = render.round_summary(table, game.round_winner, game.round_points)
            new = game.start_round()
            table.log.extend(render.log_lines(table, new))
        if not any(not s.is_ai and table.in_game(s.id) for s in table.seats):
            # Everyone human left or was removed: bots don't play on for nobody (nor score).
            # The game still counts as played, and lost, by every human who sat in it.
            table.state = "over"
            table.log.append("Only bots were left, so the game has ended.")
            await self._close(table, [*results, self._game_result(table)])
            with contextlib.suppress(discord.HTTPException):
                await self._channel(table).send(
                    "Only bots were left at the UNO table, so the game has ended.", allowed_mentions=NONE
                )
            return
        if game.pending.player != table.pinged:
            table.pinged = ""  # their turn is over: the next one gets its own ping
        await self._save(table, results)
        if summary is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._channel(table).send(summary, allowed_mentions=NONE)

    @staticmethod
    def _round_result(table: Table) -> RoundResult:
        game = table.game
        assert game is not None
        return RoundResult(
            game_id=table.game_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            round_no=game.round_no,
            variant=game.variant.id,
            winner=game.round_winner,
            points=game.round_points,
            scores=dict(game.scores),
            players=list(game.players),
        )

    @staticmethod
    def _game_result(table: Table) -> GameResult:
        game = table.game
        assert game is not None
        return GameResult(
            game_id=table.game_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            variant=game.variant.id,
            winners=list(game.winners),
            scores=dict(game.scores),
            players=list(game.players),
            rounds=game.round_no,
        )

    async def _save(self, table: Table, results: Sequence[RoundResult | GameResult] = ()) -> None:
        """Save the table, unless it is over or no longer the channel's: a table replaced by its
        last saved state after a failed save may still hold the move that was not made, and a
        background job (a ping, a table message) holding it must not save that move."""
        if table.state != "over" and self.tables.get(table.channel_id) is table:
            await self.storage.save_table(table.guild_id, table.channel_id, table.to_snapshot(), results)

    async def _close(self, table: Table, results: Sequence[RoundResult | GameResult] = ()) -> None:
        """Forget a finished table (recording ``results`` with it): storage, registry, timers,
        the last turn ping; its open hands get a last update that says so."""
        await self.storage.delete_table(table.channel_id, results)
        self.tables.remove(table.channel_id)
        self._cancel(table.channel_id)
        self._refresh_hands(table)
        if table.ping_message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._channel(table).get_partial_message(table.ping_message_id).delete()
            table.ping_message_id = None

    async def _respond_hand(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        player: str,
        *,
        page: int = 0,
        pick: tuple[str, ...] = (),
        notice: str = "",
    ) -> None:
        version = table.version
        content, embed, view = render.hand(table, player, page=page, pick=pick, notice=notice)
        if interaction.response.is_done():
            await _edit_original(interaction.followup, content, embed, view)
        elif interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(content=content, embed=embed, view=view)
        else:
            await interaction.response.send_message(content, embed=embed, view=view, ephemeral=True)
        release(view)
        self._opened(table, player, interaction, version)

    def _opened(self, table: Table, player: str, interaction: discord.Interaction[Any], version: int) -> None:
        """Note the hand the player was just answered with (showing ``version``): later changes
        refresh it, and so does one made while it was on its way."""
        self._hands[(table.channel_id, player)] = OpenHand(interaction.followup, time.monotonic(), version)
        if table.version != version:
            self._refresh_hands(table)

    # ================================================================ publishing

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id or None)

    def _publish(self, table: Table) -> None:
        """Bring the table message up to date (post it if it has none), in the background."""
        self._update((table.channel_id, TABLE), lambda: self._show_table(table))

    def _update(
        self, key: tuple[int, str], show: Callable[[], Awaitable[None]], *, settle: float = 0.0
    ) -> None:
        """Run ``show`` (an update of one message, which renders the state when it runs) after
        ``settle`` seconds, or after the update of ``key`` in flight and ``UPDATE_SPACING``:
        updates asked for meanwhile collapse into one. An update without ``settle`` cuts short
        the wait of one settling."""
        if key in self._updating:
            self._next_update[key] = show
            if not settle:
                _wake(self._settling.pop(key, None))
        else:
            self._updating[key] = self._spawn(self._run_updates(key, show, settle))

    async def _run_updates(
        self, key: tuple[int, str], show: Callable[[], Awaitable[None]] | None, settle: float
    ) -> None:
        loop = asyncio.get_running_loop()
        try:
            if settle:
                woken = self._settling[key] = loop.create_future()
                timer = loop.call_later(settle, _wake, woken)
                await woken
                timer.cancel()
                show = self._next_update.pop(key, show)
            while show is not None:
                next_at = loop.time() + UPDATE_SPACING
                await self._take_turn()
                try:
                    await show()
                except discord.HTTPException as exc:  # e.g. an expired hand token
                    log.debug("update of %s failed: %r", key, exc)
                except Exception:
                    log.exception("update of %s failed", key)
                await asyncio.sleep(next_at - loop.time())
                show = self._next_update.pop(key, None)
        finally:
            self._updating.pop(key, None)
            self._next_update.pop(key, None)
            self._settling.pop(key, None)

    async def _take_turn(self) -> None:
        """Wait until no other background job (a message update, an AI move) has started in this
        pass of the event loop. The jobs a move sets off (table, hands, ping, the next AI move)
        then run one per pass, with the sockets polled between them, so an interaction that
        arrives meanwhile waits for one of them, not for all: a fifth off the acknowledgements'
        p99 under load (docs/performance-load.md)."""
        async with self._turnstile:
            await asyncio.sleep(0)

    async def _updated(self, key: tuple[int, str]) -> None:
        """Wait until no update of ``key`` is in flight or asked for."""
        while (task := self._updating.get(key)) is not None:
            await asyncio.wait({task})

    async def _show_table(self, table: Table, *, repost: bool = False) -> None:
        """Edit the table message, or post it if it has none (or, with ``repost``, if it is gone:
        after a restart). A table message deleted during play ends the game."""
        if table.game is None:
            return
        embed, view = render.table(table)
        channel = self._channel(table)
        try:
            if table.message_id is None:
                message = await channel.send(embed=embed, view=view, allowed_mentions=NONE)
                async with self.tables.lock(table.channel_id):  # not in the middle of a move
                    table.message_id = message.id
                    await self._save(table)
            else:
                await self._edit(table, table.message_id, embed, view)
        except discord.NotFound:
            if repost and table.message_id is not None:
                table.message_id = None
                await self._show_table(table)
                return
            await self._abandon(table, "The table message was deleted, so the game has ended.")
        except discord.Forbidden:
            await self._abandon(table, "I lost permission to post in this channel, so the game has ended.")

    async def _abandon(self, table: Table, why: str) -> None:
        async with self.tables.lock(table.channel_id):
            if table.state == "over":
                return
            log.warning("table %s ended: %s", table.channel_id, why)
            table.state = "over"
            await self._close(table)
        with contextlib.suppress(discord.HTTPException):
            await self._channel(table).send(why, allowed_mentions=NONE)

    def _after(self, table: Table) -> None:
        """After a change: refresh open hands, ping the player to act, schedule AI and timers."""
        if table.state != "playing" or table.game is None:
            return
        self._refresh_hands(table)
        if _to_ping(table) is not None or _stale_ping(table):
            self._update((table.channel_id, PING), lambda: self._ping(table))
        self._schedule(table)

    def _spawn(self, job: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(job)
        self._background.add(task)  # keep a reference until it is done
        task.add_done_callback(self._background_done)
        return task

    def _background_done(self, task: asyncio.Task[None]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.debug("background job failed: %r", task.exception())

    def _refresh_hands(self, table: Table) -> None:
        """Bring the open hands that show an older state up to date (in the background; those of
        players with nothing to do after ``HAND_SETTLE_SECONDS``); a closed table's hands, and
        those of players who left, get a last update without buttons."""
        for seat in table.seats:
            key = (table.channel_id, seat.id)
            hand = self._hands.get(key)
            if hand is not None and (hand.version != table.version or _hand_closed(table, seat.id)):
                settle = HAND_SETTLE_SECONDS if _only_watching(table, seat.id) else 0.0
                self._update(key, lambda player=seat.id: self._show_hand(table, player), settle=settle)

    async def _show_hand(self, table: Table, player: str) -> None:
        """Show the player's open hand as the table is now, unless it shows that already; a
        closed hand (see `_hand_closed`) is shown once more, then forgotten."""
        key = (table.channel_id, player)
        hand, game = self._hands.get(key), table.game
        closed = _hand_closed(table, player)
        if hand is None or game is None or (hand.version == table.version and not closed):
            return
        if closed or hand.expired:
            del self._hands[key]
        if hand.expired:
            return
        version = table.version
        content, embed, view = render.hand(table, player)
        await _edit_original(hand.webhook, content, embed, view)
        if self._hands.get(key) is hand:  # not answered meanwhile
            self._hands[key] = hand._replace(version=version)

    async def _ping(self, table: Table) -> None:
        """Mention the player who must act, once per turn (their mention only), and delete the
        previous ping; with no one to mention (an AI seat acts), only delete the previous one, so
        no ping names a player whose turn is over. One ping job per table at a time (``_update``),
        so none are crossed. A new ping is saved before the old one is deleted: after a restart,
        the table knows the ping still to delete. A ping deleted alone is forgotten with the
        next save (at the latest the AI's move), not saved for itself: after a restart in between,
        its second deletion finds it gone, which is harmless.
        """
        player = _to_ping(table)
        if player is None and not _stale_ping(table):
            return
        posted = None
        if player is not None:
            # Through the HTTP client, as `_edit`: a ping's `discord.Message` would go unread.
            mention = discord.AllowedMentions(
                users=[discord.Object(int(player))], everyone=False, roles=False
            )
            with handle_message_parameters(
                f"<@{player}>, it's your move at the UNO table.", allowed_mentions=mention
            ) as params:
                posted = int((await self.client.http.send_message(table.channel_id, params=params))["id"])
        async with self.tables.lock(table.channel_id):  # not in the middle of a move
            if table.state != "over":  # the table as saved, if a failed save replaced it since
                table = self.tables.get(table.channel_id) or table
            last, table.ping_message_id = table.ping_message_id, posted
            game = table.game
            table.pinged = player if player and game is not None and game.pending.player == player else ""
            if table.state == "over":  # closed meanwhile: this ping goes too
                last, table.ping_message_id = posted, None
            if posted is not None:
                await self._save(table)
        if last is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.client.http.delete_message(table.channel_id, last)

    # ================================================================ AI and timers

    def _cancel(self, channel_id: int) -> None:
        for key in [k for k in self._tasks if k[0] == channel_id]:
            task = self._tasks.pop(key)
            if task is not asyncio.current_task():  # an AI move may be closing its own table
                task.cancel()

    def _start_task(self, channel_id: int, name: str, coro: Any) -> None:
        old = self._tasks.pop((channel_id, name), None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        self._tasks[(channel_id, name)] = asyncio.get_running_loop().create_task(coro)

    def _schedule(self, table: Table) -> None:
        game = table.game
        if game is None or table.state != "playing" or game.round_over:
            return
        player = game.pending.player or ""
        seat = table.seat(player)
        ai_catch = any(s.is_ai and ai.catches(game, s.id) for s in table.seats)
        if (seat is not None and seat.is_ai) or ai_catch:
            self._start_task(table.channel_id, "ai", self._ai_later(table.channel_id, table.version))
        if seat is not None and not seat.is_ai and table.turn_seconds:
            self._start_task(
                table.channel_id,
                "timer",
                self._timeout_later(table.channel_id, table.version, player, table.turn_seconds),
            )

    async def _ai_later(self, channel_id: int, version: int) -> None:
        await asyncio.sleep(self.defaults.ai_delay_seconds)
        await self._take_turn()
        await self._machine_move(channel_id, version, None)

    async def _timeout_later(self, channel_id: int, version: int, player: str, seconds: int) -> None:
        await asyncio.sleep(seconds)
        await self._machine_move(channel_id, version, player)

    async def _machine_move(self, channel_id: int, version: int, timed_out: str | None) -> None:
        """An AI decision (or a human's timeout), if the table hasn't moved on since."""
        try:
            async with self.tables.lock(channel_id):
                table = self.tables.get(channel_id)
                if (
                    table is None
                    or table.game is None
                    or table.version != version
                    or table.state != "playing"
                ):
                    return
                game = table.game
                before = table.to_snapshot()
                events: list[Event] = []
                removed = ""
                for seat in table.seats:
                    if seat.is_ai and seat.id in game.hands:
                        for catch in ai.catches(game, seat.id):
                            events += game.apply(seat.id, catch)
                player = game.pending.player
                seat = table.seat(player or "")
                if timed_out is not None and player == timed_out and not game.round_over:
                    events += game.timeout(timed_out)
                    count = table.timeouts[timed_out] = table.timeouts.get(timed_out, 0) + 1
                    table.log.append(f"⏰ {table.name(timed_out)} ran out of time")
                    if count >= self.defaults.max_timeouts:
                        events += game.leave(timed_out)
                        removed = f"{table.name(timed_out)} was removed after {count} timeouts"
                elif seat is not None and seat.is_ai and not game.round_over and player is not None:
                    events += game.apply(player, ai.choose(game, player, self._rng))
                if not events:
                    return
                try:
                    await self._changed(table, events, removed)
                except StorageError as exc:  # back to the saved state; the move is tried again
                    log.error("table %s: could not save a move: %s", channel_id, exc)
                    restored = Table.from_snapshot(before)
                    self.tables.put(restored)
                    self._schedule(restored)
                    return
                self._publish(table)
            self._after(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("machine move failed at table %s", channel_id)

    def _schedule_lobby_expiry(self, table: Table) -> None:
        self._start_task(table.channel_id, "lobby", self._expire_lobby(table.channel_id))

    async def _expire_lobby(self, channel_id: int) -> None:
        while True:
            table = self.tables.get(channel_id)
            if table is None or table.state != "lobby":
                return
            wait = table.touched + self.defaults.lobby_idle_seconds - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            async with self.tables.lock(channel_id):
                if self.tables.get(channel_id) is not table or table.state != "lobby":
                    return
                table.state = "over"
                await self._close(table)
                embed, _ = render.lobby(table)
                embed.title = "UNO lobby (expired after 10 idle minutes)"
                await self._edit_message(table, table.message_id, embed, None)
            return

    # ================================================================ restore

    async def restore(self) -> int:
        """Reload every saved table after a restart; returns how many were restored."""
        count = 0
        for snapshot in await self.storage.load_tables():
            try:
                table = Table.from_snapshot(snapshot)
            except UnoError as exc:
                log.error("could not restore a table: %s", exc.message)
                continue
            self.tables.put(table)
            count += 1
            if table.state == "lobby":
                self._schedule_lobby_expiry(table)
                continue
            table.log.append("♻️ The bot restarted; the game goes on.")
            self._update((table.channel_id, TABLE), lambda t=table: self._show_table(t, repost=True))
            self._after(table)
        return count

    async def close(self) -> None:
        """Cancel every timer and AI move, then let moves in progress and message updates
        finish (at most `CLOSE_SECONDS`) before the client disconnects. Every accepted move is
        saved already; this keeps the channel showing it."""
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        for waiting in list(self._settling.values()):  # hands waiting to settle go now
            _wake(waiting)

        async def settle() -> None:
            for table in list(self.tables):
                async with self.tables.lock(table.channel_id):
                    pass
            while self._background:
                await asyncio.wait(set(self._background))

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(settle(), CLOSE_SECONDS)

    # ================================================================ helpers

    def _check_moderator(self, interaction: discord.Interaction[Any], table: Table) -> None:
        perms = getattr(interaction, "permissions", None)
        if str(interaction.user.id) != table.host_now.id and not (perms and perms.manage_messages):
            raise LobbyError("Only the host or a member with Manage Messages can do that.")


def _channel_id(interaction: discord.Interaction[Any]) -> int:
    if interaction.channel_id is None:
        raise LobbyError("UNO is played in a server's text channel.")
    return interaction.channel_id


def _hand_closed(table: Table, player: str) -> bool:
    """Whether the player's hand has nothing more to offer: the table is closed, or they left."""
    return table.state == "over" or table.game is None or player not in table.game.hands


def _only_watching(table: Table, player: str) -> bool:
    """Whether the player can do nothing now but watch: no decision of theirs pending, no UNO
    call or catch open to them, no jump-in possible (RULES.md sections 3, 7 and 10)."""
    game = table.game
    if _hand_closed(table, player) or game is None or game.round_over:
        return False
    return not (
        game.pending.player == player
        or game.catchable
        or game.can_call_uno(player)
        or HouseRule.JUMP_IN in game.options.house_rules
    )


async def _edit_original(
    webhook: discord.Webhook, content: str, embed: discord.Embed, view: discord.ui.View
) -> None:
    """Edit an interaction's own message (``@original``) through its token, as
    `Webhook.edit_message` does, minus turning the response into a `discord.Message` that
    nobody reads (one per hand refresh, the bot's most frequent request).

    Raises:
        discord.HTTPException: Discord refused the edit (NotFound: the token has expired or the
            message is gone).
    """
    with handle_message_parameters(content=content, embed=embed, view=view, allowed_mentions=NONE) as params:
        release(view)  # in the payload now
        await async_context.get().edit_webhook_message(
            webhook.id,
            webhook.token,  # type: ignore[arg-type]  # an interaction's webhook always has one
            "@original",  # type: ignore[arg-type]  # the interaction's own message (Discord API)
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            with_components=True,
        )


async def _delete_hand(hand: OpenHand) -> None:
    """Delete a hand message while its token lasts (after that it stays, and its buttons are
    refused as out of date)."""
    if hand.expired:
        return
    with contextlib.suppress(discord.HTTPException):
        await hand.webhook.delete_message("@original")  # type: ignore[arg-type]  # Discord API


def _wake(waiting: asyncio.Future[None] | None) -> None:
    if waiting is not None and not waiting.done():
        waiting.set_result(None)


def _to_ping(table: Table) -> str | None:
    """The human who must act, unless they were pinged for this turn already."""
    game = table.game
    if game is None or game.round_over or table.state != "playing":
        return None
    player = game.pending.player
    seat = table.seat(player or "")
    return player if seat is not None and not seat.is_ai and player != table.pinged else None


def _stale_ping(table: Table) -> bool:
    """Whether the ping shown names a player whose turn is over (`Table.pinged` is cleared
    when it ends)."""
    return table.ping_message_id is not None and not table.pinged


def _seat(user: discord.abc.User) -> Seat:
    return Seat(str(user.id), user.display_name)


def _catch_someone(game: Game, player: str) -> list[Event]:
    targets = game.catch_targets(player)
    if not targets:
        raise CatchRefused()
    return game.catch(player, targets[0])


def _hand_action(
    game: Game, player: str, verb: str, args: list[str], values: list[str]
) -> Callable[[Game, str], list[Event]] | tuple[str, ...]:
    """The engine call for a hand component, or the pick still needed ``(verb, index[, color])``.

    Raises:
        UnoError: a malformed or impossible choice (an index out of the hand, an unknown color).
    """
    simple: dict[str, Callable[[Game, str], list[Event]]] = {
        "d": lambda g, p: g.draw(p),
        "k": lambda g, p: g.keep(p),
        "u": lambda g, p: g.call_uno(p),
        "ch": lambda g, p: g.challenge(p),
        "a": lambda g, p: g.accept(p),
        "rv": lambda g, p: g.reveal(p),
        "dec": lambda g, p: g.discard(p, None),
    }
    if verb in simple:
        return simple[verb]
    if verb == "col":
        color = _color(args[0])
        return lambda g, p: g.choose_color(p, color)
    hand = game.hands[player]
    if verb == "dis":
        card = hand[_index(values[0] if values else args[0], hand)]
        return lambda g, p: g.discard(p, card)
    if verb not in ("p", "pd", "j"):
        raise NotYourTurn("That button isn't for you.")
    index = args[0] if args else "-"
    card = game.drawn if verb == "pd" else hand[_index(index, hand)]
    if card is None:
        raise NotYourTurn("There is no drawn card to play.")
    color = _color(args[1]) if len(args) > 1 and args[1] else None
    target = args[2] if len(args) > 2 else None
    action = Action(_HAND_KINDS[verb], card, color, target)
    completions = game.completions(player, action)
    if completions and action not in completions:  # a field is missing: ask for it
        if color is None and any(a.color is not None for a in completions):
            return (verb, index)
        if target is None and any(a.target is not None for a in completions):
            return (verb, index, color.value if color else "")
    return lambda g, p: g.apply(p, action)


_HAND_KINDS = {"p": ActionKind.PLAY, "pd": ActionKind.PLAY_DRAWN, "j": ActionKind.JUMP_IN}


def _index(text: str, hand: list[Any]) -> int:
    try:
        i = int(text)
    except ValueError:
        raise NotYourTurn("That button is broken; press Refresh.") from None
    if not 0 <= i < len(hand):
        raise StaleAction()
    return i


def _color(text: str) -> Color:
    try:
        return Color(text)
    except ValueError:
        raise BadOption(f"{text!r} isn't a color.") from None
