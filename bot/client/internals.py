"""discord.py's internals, in one place: the only module of ``bot/`` and ``cogs/`` that touches a
name discord.py does not document (an underscore name, ``Client.http`` and its ``HTTPClient``,
``discord.http``'s and ``discord.webhook.async_``'s helpers, the class constants of its addresses).

Each function says which internal it uses, what that saves, and what discord.py's public API
does instead. With ``internals`` False (the ``discord.internals`` setting), every function takes
that public path: the players see the same messages, at the cost of more work per call (a
response turned into a `discord.Message` nobody reads; a click's whole message rebuilt as a
view) and discord.py's own bucket scan. `point_at_api` has no public equivalent and runs in both
modes. The figures are the 2026-12-02 load runs' (the bucket scan's in
docs/performance/discord-layer.md; the others in the dated log it replaced, ``git show
4927e53:docs/performance-load.md``, in the section each function names).

Checked against discord.py 2.7.1: ``tests/bot/client/test_internals.py`` fails, naming the
installed version, when a release moves one of them; set ``discord.internals = false`` until
this module is updated (docs/architecture.md, "discord.py internals").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
import discord.ui.view
import yarl
from discord.asset import Asset
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.client.components import release

log = logging.getLogger(__name__)
BUCKET_SCAN_FROM = 256  # discord.py's own threshold (`HTTPClient._try_clear_expired_ratelimits`)
NONE = discord.AllowedMentions.none()
AnyView = discord.ui.View | discord.ui.LayoutView


def point_at_api(api_base: str, gateway_url: str, cdn_base: str) -> None:
    """Send every REST call to ``api_base``, the gateway to ``gateway_url``, and build image
    addresses (an emoji's ``url``) on ``cdn_base``: a REST proxy, a Discord-compatible server,
    or the local stand-in.

    Uses the class constants ``discord.http.Route.BASE``, ``DiscordWebSocket.DEFAULT_GATEWAY``
    and ``discord.asset.Asset.BASE``. discord.py has no public setting for these addresses (only
    ``proxy``, an HTTP proxy in front of discord.com), so this runs whatever ``discord.internals``
    says: without it, the bot could not reach the stand-in at all.
    """
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    Asset.BASE = cdn_base


def quiet_voice_warnings(*, internals: bool) -> None:
    """Keep discord.py from warning at start that the voice libraries are missing: the bot never
    joins voice, and the warning only alarms whoever reads the log.

    Uses the undocumented class flags ``VoiceClient.warn_nacl`` and ``warn_dave``. Public path
    (``internals`` False): none; the two warnings are logged once at start.
    """
    if internals:
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


def pace_bucket_scan(client: discord.Client, *, internals: bool) -> None:
    """Let discord.py's scan of its rate-limit buckets run only when they have doubled since the
    last one: the same buckets go (those idle five minutes), at a cost per new bucket that does
    not grow with the number of tables.

    Uses ``Client.http`` (the ``HTTPClient``), its ``_buckets`` and its method
    ``_try_clear_expired_ratelimits``, replaced on that instance. discord.py keeps a bucket per
    route and channel and, from 256, looks at every one each time a new one appears: creating
    the buckets of 2,000 channels took 5,745 scans and 3.1 s of CPU, against 5 scans and 32 ms
    amortized (docs/performance/discord-layer.md, "2,000 tables in one process"); at 200 busy
    tables the stock scan ran 7 times a second, about 1 % of the bot's CPU ("discord.py's bucket
    scan"). Public path (``internals`` False): discord.py's own scan, unchanged.
    """
    if not internals:
        return
    http: HTTPClient = client.http
    scan = http._try_clear_expired_ratelimits
    next_scan = BUCKET_SCAN_FROM

    def clear_expired() -> None:
        nonlocal next_scan
        if len(http._buckets) >= next_scan:
            scan()
            next_scan = max(BUCKET_SCAN_FROM, 2 * len(http._buckets))

    http._try_clear_expired_ratelimits = clear_expired  # type: ignore[method-assign]


def install_lean_dispatch(client: discord.Client, *, internals: bool) -> None:
    """Dispatch a click on a dynamic item from the clicked component alone.

    discord.py (``ViewStore.schedule_dynamic_item_call``) rebuilds the whole clicked message as
    a view (``View``/``LayoutView.from_message``: an item for every container, section, text
    display, thumbnail, row and button) to find the one clicked, on the way to its
    acknowledgement: 144-194 µs for a Components V2 hand at the median (95 µs for a classic
    one), and garbage at once ("Components V2 messages"). Our items read only the clicked
    component (a select its options) and no view, so here only that component becomes an item;
    the rest of discord.py's steps (the item's state from the click, its interaction check, its
    callback, errors logged) are the same.

    Before that, discord.py parses the clicked message of every click into a `discord.Message`
    (``Interaction._from_data``), all its components included; of that message we read only
    its id and the clicked component, so the gateway event's message keeps only the clicked
    component (`keep_clicked`) and the parse is a few fields.

    Uses ``Client._connection`` (the ``ConnectionState``), its ``parsers`` dict (the gateway's
    ``INTERACTION_CREATE`` parser wrapped) and its ``_view_store``
    (``schedule_dynamic_item_call`` replaced on that instance), ``discord.ui.view._component_to_item``
    and ``Item._refresh_state``. Public path (``internals`` False): discord.py's own dispatch of
    dynamic items (``Client.add_dynamic_items``), the whole message parsed and rebuilt.
    """
    if not internals:
        return
    state = client._connection
    parsers = state.parsers  # the dict the gateway dispatches events through
    parse_interaction = parsers["INTERACTION_CREATE"]

    def parse_interaction_create(data: dict[str, Any]) -> None:
        keep_clicked(data)
        parse_interaction(data)

    parsers["INTERACTION_CREATE"] = parse_interaction_create

    async def call(
        component_type: int,
        factory: type[discord.ui.DynamicItem[discord.ui.Item[Any]]],
        interaction: discord.Interaction[Any],
        custom_id: str,
        match: re.Match[str],
    ) -> None:
        message = interaction.message
        if message is None or not message.components:  # not in its message: dropped, as discord.py does
            return
        clicked = message.components[0]  # the only one the message kept (`keep_clicked`)
        base_item = discord.ui.view._component_to_item(clicked)
        try:
            item = await factory.from_custom_id(interaction, base_item, match)
        except Exception:
            log.exception("Ignoring exception in dynamic item creation for %r", factory)
            return
        item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
        try:
            allow = await item.interaction_check(interaction)
        except Exception:
            allow = False
        if not allow:
            return
        try:
            await item.callback(interaction)
        except Exception:
            log.exception("Ignoring exception in dynamic item callback for %r", item)

    state._view_store.schedule_dynamic_item_call = call  # type: ignore[method-assign]


def keep_clicked(data: dict[str, Any]) -> None:
    """In a gateway ``INTERACTION_CREATE`` of a click (type 3), keep of the clicked message's
    components only the clicked one (none if it isn't there: the click is then dropped, as
    discord.py drops a click on a component it can't find); any other interaction unchanged."""
    message, click = data.get("message"), data.get("data")
    if data.get("type") != 3 or not isinstance(message, dict) or not isinstance(click, dict):
        return
    kind, wanted = click.get("component_type"), click.get("custom_id")
    stack = list(message.get("components") or ())
    kept: list[Any] = []
    while stack:
        component = stack.pop()
        if not isinstance(component, dict):
            continue
        if component.get("type") == kind and component.get("custom_id") == wanted:
            kept.append(component)
            break
        stack.extend(component.get("components") or ())
        accessory = component.get("accessory")
        if accessory is not None:
            stack.append(accessory)
    message["components"] = kept


async def respond_with_message(
    interaction: discord.Interaction[Any],
    view: discord.ui.LayoutView,
    *,
    new: bool = False,
    internals: bool,
) -> None:
    """Answer ``interaction`` with the Components V2 ``view``: the clicked message updated
    (Discord's callback type 7; any text or embed of a message drawn before Components V2 is
    taken away), or with ``new`` a new private message (type 4, ephemeral); then empty the view
    (`release`).

    Uses ``discord.webhook.async_``'s ``async_context`` and
    ``interaction_message_response_params``, ``Interaction._state.http`` and ``_session``, and
    sets ``InteractionResponse._response_type`` (so ``is_done()`` says it was answered). It
    makes `InteractionResponse.edit_message`'s and ``send_message``'s request minus asking
    Discord for the message back (``with_response``) and turning it into an
    ``InteractionCallbackResponse`` that nobody reads: that parse ran on the event loop after
    every move's answer (1 in 2 interactions of a profiled run; "The ratio on a quiet machine").
    Public path (``internals`` False): ``interaction.response.edit_message`` or
    ``send_message``.

    Raises:
        discord.HTTPException: Discord refused the answer (NotFound: the interaction expired).
        discord.InteractionResponded: it was answered already.
    """
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    if not internals:
        if new:
            await response.send_message(view=view, ephemeral=True, allowed_mentions=NONE)
        else:
            await response.edit_message(content=None, embed=None, view=view, allowed_mentions=NONE)
        release(view)
        return
    kind = (
        discord.InteractionResponseType.channel_message
        if new
        else discord.InteractionResponseType.message_update
    )
    params = interaction_message_response_params(
        type=kind.value,
        content=MISSING if new else None,  # an update takes an older text away
        embed=MISSING if new else None,
        view=view,
        flags=discord.MessageFlags(ephemeral=True) if new else MISSING,
        allowed_mentions=NONE,
    )
    release(view)  # in the payload now
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction._state.http
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=params.payload,
    )
    response._response_type = kind


async def edit_original_messages(
    webhooks: Sequence[discord.Webhook], view: discord.ui.LayoutView, *, internals: bool
) -> None:
    """Edit interactions' own messages (``@original``) through their tokens to the same
    Components V2 ``view`` (any text or embed of a message drawn before is taken away: a message
    may become Components V2, never the reverse); then empty the view (`release`).

    Uses ``discord.webhook.async_.async_context`` (its ``edit_webhook_message``) and
    ``discord.http.handle_message_parameters``: `Webhook.edit_message`'s request, the payload
    built once for all the webhooks, minus turning each response into a `discord.Message` that
    nobody reads (one per hand refresh, the bot's most frequent request; turning REST responses
    into messages was 10.5 % of the bot's CPU in a profiled run, "Previous step").
    Public path (``internals`` False): ``Webhook.edit_message("@original", ...)`` for each.

    Raises:
        discord.HTTPException: Discord refused an edit (NotFound: the token has expired or the
            message is gone); the ones after it are not made.
    """
    if not internals:
        try:
            for webhook in webhooks:
                # "@original": the interaction's own message (Discord API); the text and embed of
                # a message drawn before Components V2 taken away, as the docs of
                # `InteractionResponse.edit_message` ask (its typing allows no content with a layout).
                await webhook.edit_message(  # type: ignore[call-overload]
                    "@original",
                    content=None,
                    embed=None,
                    view=view,
                    allowed_mentions=NONE,
                )
        finally:
            release(view)
        return
    with handle_message_parameters(content=None, embed=None, view=view, allowed_mentions=NONE) as params:
        release(view)  # in the payload now
        for webhook in webhooks:
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


async def edit_channel_message(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    *,
    content: str | None = MISSING,
    view: AnyView | None = MISSING,
    internals: bool,
) -> None:
    """Edit one of the bot's messages in a channel: its ``content`` and/or its ``view`` (a
    Components V2 view takes the message's text and embed away in the same edit, so a message
    posted before Components V2 becomes one); then empty the view (`release`).

    Uses ``Client.http`` (its ``edit_message``) and ``discord.http.handle_message_parameters``:
    `PartialMessage.edit`'s request minus turning the response into a `discord.Message` that
    nobody reads (a table message's edit, after nearly every move; that parse was 10.5 % of the
    bot's CPU in a profiled run, "Previous step"). Public path (``internals`` False):
    ``PartialMessage.edit``.

    Raises:
        discord.HTTPException: Discord refused the edit (NotFound: the message is gone).
    """
    v2 = isinstance(view, discord.ui.LayoutView)
    embed = None if v2 else MISSING
    if v2:
        content = None
    if not internals:
        message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(content=content, embed=embed, view=view)
        finally:
            if isinstance(view, AnyView):
                release(view)
        return
    with handle_message_parameters(content=content, embed=embed, view=view) as params:
        if isinstance(view, AnyView):
            release(view)  # in the payload now
        await client.http.edit_message(channel_id, message_id, params=params)


async def post_message(
    client: discord.Client,
    channel_id: int,
    content: str,
    *,
    view: discord.ui.View,
    allowed_mentions: discord.AllowedMentions,
    internals: bool,
) -> int:
    """Post ``content`` with ``view`` (a classic view: buttons under the text) in a channel;
    then empty the view (`release`). Returns the message's id.

    Uses ``Client.http`` (its ``send_message``) and ``discord.http.handle_message_parameters``:
    `abc.Messageable.send`'s request minus turning the response into a `discord.Message` that
    nobody reads (a turn's ping, posted for most human turns). Public path (``internals``
    False): ``PartialMessageable.send``, the view stopped first (a running view would be kept
    by discord.py, which would then dispatch its dynamic items' clicks twice).

    Raises:
        discord.HTTPException: Discord refused the post.
    """
    if not internals:
        view.stop()
        try:
            channel = client.get_partial_messageable(channel_id)
            posted = await channel.send(content, view=view, allowed_mentions=allowed_mentions)
        finally:
            release(view)
        return posted.id
    with handle_message_parameters(content, allowed_mentions=allowed_mentions, view=view) as params:
        release(view)  # in the payload now
        return int((await client.http.send_message(channel_id, params=params))["id"])
