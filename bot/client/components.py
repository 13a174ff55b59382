"""Buttons and selects that survive restarts (``DynamicItem``, not a ``View`` that dies with the process).

Every component's ``custom_id`` is ``uno:<scope>:<channel>:<version>:<verb>[:<arg>]`` (buttons)
or ``unos:…`` (selects), at most 100 characters:

* scope ``l`` lobby, ``t`` table message, ``h`` a player's hand (ephemeral), ``g`` the games of
  ``/uno history`` (ephemeral; no table needed), ``r`` the Rematch button of a finished game's
  standings (its argument ``<game id>.<host id>``; no table needed), ``q`` the confirmation
  ``/uno leave`` asks for during a game (its argument ``<game id>.<player id>``; checked against
  that game, so no table is needed to refuse it);
* ``version`` is the table's state version when the component was drawn (0: not checked), so a
  click on an older state is refused politely;
* the verb and its argument say what to do (see ``bot/service/dispatch.py``): in a hand, verb
  ``a`` carries an engine action in its text form (``Action.text()``, e.g. ``play wild color=red``),
  in the argument of a button or as the values of a select.

The callbacks only parse and hand over to the service (``interaction.client.service``), with
what a select's click chose that it didn't offer (only a modified client sends that). A
``uno``/``unos`` component whose ``custom_id`` doesn't read so (`Unreadable`) is handed over
too, to be refused.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
import orjson

if TYPE_CHECKING:
    from bot.service import TableService

_ID = r"(?P<scope>[lthgrq]):(?P<channel>[0-9]{1,20}):(?P<version>[0-9]{1,9}):(?P<verb>[a-z-]{1,12})(?::(?P<arg>.+))?"
MAX_ID = 100
_UNREADABLE = r"(?!unos?:" + re.sub(r"\?P<\w+>", "?:", _ID) + r"\Z)unos?(?::(?s:.*))?"
"""Our prefix, without the rest of an address (the same template, its groups unnamed)."""


def custom_id(prefix: str, scope: str, channel: int, version: int, verb: str, arg: object = "") -> str:
    """Build a component ``custom_id``.

    Raises:
        ValueError: it would be longer than Discord's 100 characters.
    """
    text = ":".join([prefix, scope, str(channel), str(version), verb, *([str(arg)] if arg != "" else [])])
    if len(text) > MAX_ID:
        raise ValueError(f"custom_id too long: {text!r}")
    return text


def _service(interaction: discord.Interaction[Any]) -> TableService:
    service: TableService = interaction.client.service  # the bot's (bot/client.py)
    return service


def _parts(match: re.Match[str]) -> tuple[str, int, int, str, str]:
    return match["scope"], int(match["channel"]), int(match["version"]), match["verb"], match["arg"] or ""


class _Addressed:
    """What a button and a select share: the address their ``custom_id`` carries (the module's
    docstring), their rebuilding from a clicked component, and the hand-over of a click.

    A subclass names its ``custom_id`` prefix (``PREFIX``), calls ``_address`` in its ``__init__``,
    says which of its drawing's keywords survive in a clicked component (``_redrawn``), which
    values a click chose (``_chosen``), and which of them it didn't offer (``_unoffered``).
    """

    PREFIX: ClassVar[str]
    scope: str
    channel: int
    version: int
    verb: str
    arg: str

    def _address(self, scope: str, channel: int, version: int, verb: str, arg: object) -> str:
        """Keep the address on the item.

        Returns:
            The item's ``custom_id``.

        Raises:
            ValueError: it would be longer than Discord's 100 characters.
        """
        self.scope, self.channel, self.version, self.verb = scope, channel, version, verb
        self.arg = str(arg)
        return custom_id(self.PREFIX, scope, channel, version, verb, arg)

    @classmethod
    def _redrawn(cls, item: discord.ui.Item[Any], verb: str) -> dict[str, Any]:
        """The keyword arguments of ``__init__`` that rebuild a clicked component ``item``."""
        raise NotImplementedError

    def _chosen(self) -> list[str]:
        """The values a click chose (none for a button)."""
        return []

    def _unoffered(self) -> str:
        """What the click chose that the component didn't offer, for the log ("": nothing)."""
        return ""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the item a click came from, its address parsed from the ``custom_id``'s ``match``
        of the class's template (discord.py calls this on every click)."""
        scope, channel, version, verb, arg = _parts(match)
        return cls(scope, channel, version, verb, arg, **cls._redrawn(item, verb))  # type: ignore[call-arg]

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click over to the service's dispatch, then let go of what discord.py built."""
        try:
            await _service(interaction).dispatch.on_component(
                interaction,
                self.scope,
                self.channel,
                self.version,
                self.verb,
                self.arg,
                self._chosen(),
                unoffered=self._unoffered(),
            )
        finally:
            _handled(self, interaction)  # type: ignore[arg-type]


class UnoButton(_Addressed, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"uno:" + _ID):
    """Any button of the lobby, the table or a hand."""

    PREFIX = "uno"

    def __init__(
        self,
        scope: str,
        channel: int,
        version: int,
        verb: str,
        arg: object = "",
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | discord.PartialEmoji | None = None,
        row: int | None = None,
    ) -> None:
        address = self._address(scope, channel, version, verb, arg)
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, disabled=disabled, emoji=emoji, custom_id=address, row=row
            )
        )

    @classmethod
    def _redrawn(cls, item: discord.ui.Item[Any], verb: str) -> dict[str, Any]:
        """The clicked button's label (its verb when it has none)."""
        return {"label": getattr(item, "label", None) or verb}


class UnoSelect(_Addressed, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"unos:" + _ID):
    """Any select menu (cards to play or discard, a player to pick, house rules)."""

    PREFIX = "unos"

    def __init__(
        self,
        scope: str,
        channel: int,
        version: int,
        verb: str,
        arg: object = "",
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        address = self._address(scope, channel, version, verb, arg)
        opts = options or [discord.SelectOption(label="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=address,
                options=opts,
                placeholder=placeholder,
                min_values=0 if max_values > 1 else 1,
                max_values=min(max_values, len(opts)),
                row=row,
            )
        )

    @classmethod
    def _redrawn(cls, item: discord.ui.Item[Any], verb: str) -> dict[str, Any]:
        """The clicked select's options, and how many of them it let choose."""
        return {
            "options": list(getattr(item, "options", []) or []),
            "max_values": getattr(item, "max_values", 1),
        }

    def _chosen(self) -> list[str]:
        """The options the click chose."""
        return list(self.item.values)

    def _unoffered(self) -> str:
        """Values not among the options (or repeated), or too few or too many of them."""
        values, select = self._chosen(), self.item
        offered = {o.value for o in select.options}
        if not select.min_values <= len(values) <= select.max_values or len(set(values)) < len(values):
            return f"{len(values)} value(s), {len(set(values))} different, for {select.min_values}..{select.max_values}"
        unknown = [v for v in values if v not in offered]
        return f"values not offered: {[v[:40] for v in unknown[:5]]}" if unknown else ""


class Unreadable(discord.ui.DynamicItem[discord.ui.Item[Any]], template=_UNREADABLE):
    """A ``uno``/``unos`` component whose ``custom_id`` reads as no address (an older bot's, or a
    modified client's: a version too long, a verb in capitals, a truncated id): refused."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """The clicked component as it is (discord.py calls this on every click)."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click over to the service's dispatch, to be refused."""
        try:
            await _service(interaction).dispatch.on_unreadable(interaction, self.custom_id)
        finally:
            _handled(self, interaction)


def _handled(item: discord.ui.Item[Any], interaction: discord.Interaction[Any]) -> None:
    """Let go of what discord.py built to dispatch a click: the clicked message and the view it
    rebuilt from that message's components. Both sit in reference cycles (the interaction and its
    response, the view and its items), which only a collector pass would free."""
    release(item.view)
    interaction.message = None


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view holding ``items``, stopped before it is sent.

    Every item is dynamic (dispatched by ``UnoBot.add_dynamic_items``), so discord.py needn't
    keep the view. A running view would be stored, and one sent with an ephemeral message gets a
    15-minute timeout task that keeps it and its buttons alive: garbage that every full
    collection walks again (docs/performance/discord-layer.md).
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # discord.py stores no finished view
    return view


def layout_of(*items: discord.ui.Item[Any]) -> discord.ui.LayoutView:
    """A Components V2 view (`discord.ui.LayoutView`: containers, sections, text displays,
    action rows) holding ``items``, stopped before it is sent, for the reasons of `view_of`.

    Raises:
        ValueError: more than Discord's 40 components, nested ones counted.
    """
    view = discord.ui.LayoutView(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def digest(view: discord.ui.View | discord.ui.LayoutView) -> int:
    """What a message shows, in short: the hash of its components as sent (their text, custom
    ids and colors), equal for two drawings that look and act the same, so an edit to what a
    message shows already is not made. Call it before `release`."""
    return hash(orjson.dumps(view.to_components()))


def release(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """Empty a view once it is sent: its items and it refer to each other, so without this only
    a collector pass frees them, and those passes were the tail of the bot's acknowledgements
    (docs/performance/discord-layer.md). A layout's containers, sections and rows are emptied too."""
    if view is None:
        return
    for item in list(view.walk_children()) if isinstance(view, discord.ui.LayoutView) else ():
        clear = getattr(item, "clear_items", None)
        if clear is not None:
            clear()
    view.clear_items()
