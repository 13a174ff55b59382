"""The card faces as application emojis (docs/card-art.md, "Emojis").

At start the bot lists its application's emojis once, and makes each card face of every edition
(`bot.art.all_faces`) that is not among them, in the background: found by name afterwards, never
uploaded again. Until a face's emoji exists (or if it never can), `CardEmojis.for_face` answers
None and the bot shows that card as text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable

import discord

from bot.art import all_faces, card_png, emoji_name
from bot.engine.cards import Side
from bot.engine.editions import AnyFace

log = logging.getLogger(__name__)

EMOJI_PIXELS = 128
"""An emoji's picture is this many pixels each way (the size Discord asks for)."""
CONCURRENCY = 2
"""Uploads in flight at once."""
UPLOADS_PER_SECOND = 25
"""At most this many uploads start per second: half of Discord's global rate limit (50 requests
per second per bot), which the sync shares with the tables; a 429 on the global limit would hold
every table's requests too."""
MAX_EMOJIS_REACHED = 30008
"""Discord's error code for an application (or guild) at its emoji limit."""


class CardEmojis:
    """Card faces as application emojis of the bot's application, by face.

    Args:
        client: the bot; its application id is known once it has logged in (before
            ``setup_hook``), which `start` and `sync` need.
        enabled: False (``discord.card_emojis``): nothing is listed or made, `for_face` is
            always None.
        faces: the (face, side) pairs to have as emojis (default: every face of every edition).

    Attributes:
        done: set once the sync has finished, whatever its outcome (or at once when disabled).
        created: emojis this sync uploaded.
        seconds: how long the sync took (wall clock), once done.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        enabled: bool = True,
        faces: Iterable[tuple[AnyFace, Side]] | None = None,
    ) -> None:
        self._client = client
        self.enabled = enabled
        self._faces = {emoji_name(f, s): (f, s) for f, s in (all_faces() if faces is None else faces)}
        self._emojis: dict[str, discord.PartialEmoji] = {}
        self._task: asyncio.Task[None] | None = None
        self.done = asyncio.Event()
        self.created = 0
        self.seconds = 0.0

    def for_face(self, face: AnyFace, side: Side = Side.LIGHT) -> discord.PartialEmoji | None:
        """The emoji of ``face`` (an UNO face or a DOS card) as drawn for ``side`` (a colored
        face's own side whatever ``side`` says; `bot.art.emoji_name`), or None while it does not
        exist (not made yet, making it failed, or card emojis are off)."""
        return self._emojis.get(emoji_name(face, side))

    def __len__(self) -> int:
        """How many card faces have their emoji."""
        return len(self._emojis)

    def start(self) -> None:
        """Sync in the background (once; later calls do nothing). Needs a running event loop."""
        if not self.enabled:
            self.done.set()
        elif self._task is None:
            self._task = asyncio.create_task(self._run(), name="card emojis")

    async def close(self) -> None:
        """Stop a sync in progress (the emojis made so far stay; the next start makes the rest)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        started = time.perf_counter()
        try:
            await self.sync()
        except Exception:
            # Not a Discord refusal (those are warned about in sync): a bug. Cards show as text.
            log.exception("card emojis: the sync failed; cards are shown as text")
        finally:
            self.seconds = time.perf_counter() - started
            self.done.set()
        log.info(
            "card emojis: %d of %d ready (%d uploaded) in %.2f s",
            len(self._emojis),
            len(self._faces),
            self.created,
            self.seconds,
        )

    async def sync(self) -> None:
        """List the application's emojis once and upload the card faces missing from them,
        `CONCURRENCY` at a time and at most `UPLOADS_PER_SECOND`, each drawn off the event loop; an emoji named as a face is that
        face's, whoever made it. A face that cannot be made (Discord refuses it, the application
        is at its emoji limit) stays without an emoji: one WARNING says how many and why.
        Raises nothing for Discord's refusals."""
        try:
            self.learn(await self._client.fetch_application_emojis())
        except discord.HTTPException as exc:
            log.warning(
                "card emojis: cannot list the application's emojis (%s); cards are shown as text", exc
            )
            return
        missing = [name for name in self._faces if name not in self._emojis]
        if not missing:
            return
        errors: list[discord.HTTPException] = []
        gate = asyncio.Semaphore(CONCURRENCY)
        loop = asyncio.get_running_loop()
        next_upload = loop.time()

        async def make(name: str) -> None:
            nonlocal next_upload
            async with gate:
                if any(e.code == MAX_EMOJIS_REACHED for e in errors):
                    return  # the others would be refused too
                face, side = self._faces[name]
                image = await asyncio.to_thread(card_png, face, side, EMOJI_PIXELS, square=True)
                wait = next_upload - loop.time()
                next_upload = max(next_upload, loop.time()) + 1 / UPLOADS_PER_SECOND
                if wait > 0:
                    await asyncio.sleep(wait)
                try:
                    emoji = await self._client.create_application_emoji(name=name, image=image)
                except discord.HTTPException as exc:
                    errors.append(exc)
                    return
                self.created += 1
                self.learn([emoji])

        async with asyncio.TaskGroup() as group:
            for name in missing:
                group.create_task(make(name))
        if errors:
            # Another process of this bot may have made some of them meanwhile (the name was taken).
            with contextlib.suppress(discord.HTTPException):  # the warning below says what is missing
                self.learn(await self._client.fetch_application_emojis())
            without = len(self._faces) - len(self._emojis)
            if without:
                full = any(e.code == MAX_EMOJIS_REACHED for e in errors)
                why = (
                    "the application has reached its emoji limit" if full else f"Discord answered {errors[0]}"
                )
                log.warning(
                    "card emojis: %d of %d card faces have no emoji (%s); those cards are shown as text",
                    without,
                    len(self._faces),
                    why,
                )

    def learn(self, emojis: Iterable[discord.Emoji]) -> None:
        """Use ``emojis`` (of the application) for the card faces they are named as; the others
        are not ours and are ignored."""
        for emoji in emojis:
            if emoji.name in self._faces:
                self._emojis[emoji.name] = discord.PartialEmoji(
                    name=emoji.name, id=emoji.id, animated=emoji.animated
                )
