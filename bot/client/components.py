"""Buttons and selects that survive restarts (``DynamicItem``, not a ``View`` that dies with the process).

Every component carries a `Click` (``bot/client/clicks.py``: its ``custom_id``, made and read
there). The callbacks only hand the click over to the service (``interaction.client.service``),
with what a select's click chose that it didn't offer (only a modified client sends that). A
``uno``/``unos`` component whose ``custom_id`` reads as no click (`Unreadable`) is handed over
too, to be refused.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord
import orjson

from bot.client.clicks import ADDRESS, BUTTON, SELECT, Click

if TYPE_CHECKING:
    from bot.client.bot import UnoBot
    from bot.service import TableService

_UNREADABLE = rf"(?!unos?:{re.sub(r'[?]P<[a-z]+>', '?:', ADDRESS)}\Z)unos?(?::(?s:.*))?"
"""Our prefix, without the rest of a click (the same template, its groups unnamed)."""


def _service(interaction: discord.Interaction[UnoBot]) -> TableService:
    """The table service of the bot the interaction came to (`UnoBot.service`)."""
    return interaction.client.service


class _Addressed:
    """What a button and a select share: the `Click` their ``custom_id`` carries, their
    rebuilding from a clicked component, and the hand-over of a click.

    A subclass keeps its click (``click``) in its ``__init__``, says which of its drawing's
    keywords survive in a clicked component (``_redrawn``), which values a click chose
    (``_chosen``), and which of them it didn't offer (``_unoffered``).
    """

    click: Click

    @classmethod
    def _redrawn(cls, item: discord.ui.Item[Any], click: Click) -> dict[str, Any]:
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
        """Rebuild the item a click came from, its `Click` read from the ``custom_id``'s ``match``
        of the class's template (discord.py calls this on every click)."""
        click = Click.of(match)
        return cls(click, **cls._redrawn(item, click))  # type: ignore[call-arg]

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click over to the service's dispatch, then let go of what discord.py built."""
        try:
            await _service(interaction).dispatch.on_component(
                interaction, self.click, self._chosen(), unoffered=self._unoffered()
            )
        finally:
            _handled(self, interaction)  # type: ignore[arg-type]


class UnoButton(_Addressed, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"{BUTTON}:{ADDRESS}"):
    """Any button of the lobby, the table or a hand."""

    def __init__(
        self,
        click: Click,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | discord.PartialEmoji | None = None,
        row: int | None = None,
    ) -> None:
        """Raises:
        ValueError: its ``custom_id`` would be longer than Discord's 100 characters."""
        self.click = click
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                disabled=disabled,
                emoji=emoji,
                custom_id=click.custom_id(),
                row=row,
            )
        )

    @classmethod
    def _redrawn(cls, item: discord.ui.Item[Any], click: Click) -> dict[str, Any]:
        """The clicked button's label (its verb when it has none)."""
        return {"label": getattr(item, "label", None) or click.verb.value}


class UnoSelect(_Addressed, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"{SELECT}:{ADDRESS}"):
    """Any select menu (cards to play or discard, a player to pick, house rules)."""

    def __init__(
        self,
        click: Click,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        """Raises:
        ValueError: its ``custom_id`` would be longer than Discord's 100 characters."""
        self.click = click
        opts = options or [discord.SelectOption(label="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=click.custom_id(select=True),
                options=opts,
                placeholder=placeholder,
                min_values=0 if max_values > 1 else 1,
                max_values=min(max_values, len(opts)),
                row=row,
            )
        )

    @classmethod
    def _redrawn(cls, item: discord.ui.Item[Any], click: Click) -> dict[str, Any]:
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
    """A ``uno``/``unos`` component whose ``custom_id`` reads as no `Click` (an older bot's, or a
    modified client's: a version too long, a verb it doesn't know, a truncated id): refused."""

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
