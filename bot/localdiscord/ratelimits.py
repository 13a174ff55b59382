"""Discord's rate limits as a busy table meets them: at most 5 ``POST /channels/{id}/messages`` per
5 s per channel (a per-route bucket), and 50 requests per second per bot token (the global limit),
which interaction callbacks and interaction webhooks (``/interactions/...``,
``/webhooks/{app}/{token}...``) do not count towards.

As on Discord, a route with a bucket answers ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``
(epoch seconds), ``-Reset-After`` (seconds) and ``-Bucket``; a refused request gets 429 with
``{"message": "You are being rate limited.", "retry_after": <seconds>, "global": <bool>}``,
``Retry-After``, ``X-RateLimit-Scope`` (``user`` or ``global``), ``X-RateLimit-Global`` on a global
one, and ``Via`` (discord.py takes a 429 without ``Via`` for a Cloudflare ban and gives up). A
refused request does not count. Windows are fixed: they start with their first request and read
the stand-in's clock, so a test can let them pass with `Clock.advance`.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from .limits import JSON, DiscordError
from .records import Clock

# Paths (below /api/v10) that Discord leaves out of the global limit.
GLOBAL_EXEMPT = ("/interactions/", "/webhooks/")
# The one route with a bucket (per channel): method and route pattern below /api/v10.
CHANNEL_MESSAGES = ("POST", "/channels/{channel_id}/messages")


@dataclass(frozen=True)
class RateLimits:
    """How many requests a window allows: ``channel_messages`` per ``channel_seconds`` for
    ``POST /channels/{id}/messages`` in one channel, ``global_requests`` per ``global_seconds``
    for the whole bot. The defaults are Discord's."""

    channel_messages: int = 5
    channel_seconds: float = 5.0
    global_requests: int = 50
    global_seconds: float = 1.0


class RateLimited(DiscordError):
    """A 429: Discord's body (no ``code``) and headers.

    Attributes:
        retry_after: seconds until the window resets.
        is_global: whether the global limit refused it.
        headers: the response headers to send.
    """

    def __init__(self, retry_after: float, *, is_global: bool, headers: dict[str, str]) -> None:
        super().__init__(429, 0, "You are being rate limited.")
        self.retry_after = retry_after
        self.is_global = is_global
        self.headers = headers

    def to_json(self) -> JSON:
        """``{"message", "retry_after", "global"}``."""
        return {"message": self.message, "retry_after": self.retry_after, "global": self.is_global}


class _Window:
    """A fixed window: at most ``limit`` requests until ``reset_at``."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.count = 0
        self.reset_at = 0.0

    def retry_after(self, now: float) -> float:
        """Seconds to wait before a request fits (0: it fits now); starts a new window if the old
        one is over."""
        if now >= self.reset_at:
            self.count, self.reset_at = 0, now + self.seconds
        if self.count < self.limit:
            return 0.0
        return _ceil_ms(self.reset_at - now)

    def headers(self, now: float, bucket: str) -> dict[str, str]:
        """The ``X-RateLimit-*`` headers of a route with this bucket."""
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(self.limit - self.count, 0)),
            "X-RateLimit-Reset": f"{self.reset_at:.3f}",
            "X-RateLimit-Reset-After": f"{_ceil_ms(self.reset_at - now):.3f}",
            "X-RateLimit-Bucket": bucket,
        }


def _ceil_ms(seconds: float) -> float:
    """Seconds rounded up to the millisecond, at least one (a client that sleeps that long finds
    the window over)."""
    return max(math.ceil(seconds * 1000) / 1000, 0.001)


def _rate_limited(retry_after: float, *, is_global: bool, headers: dict[str, str]) -> RateLimited:
    scope = {
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": "global" if is_global else "user",
        "Via": "1.1 google",
    }
    if is_global:
        scope["X-RateLimit-Global"] = "true"
    return RateLimited(retry_after, is_global=is_global, headers={**headers, **scope})


class RateLimiter:
    """The stand-in's rate limits over its clock.

    Args:
        clock: the stand-in's clock.
        limits: the windows (Discord's by default).
    """

    def __init__(self, clock: Clock, limits: RateLimits | None = None) -> None:
        self.clock = clock
        self.limits = limits or RateLimits()
        self._global = _Window(self.limits.global_requests, self.limits.global_seconds)
        self._channels: dict[str, _Window] = {}
        self._bucket = hashlib.md5(" ".join(CHANNEL_MESSAGES).encode()).hexdigest()

    def check(self, method: str, path: str, route: str, channel_id: str | None) -> dict[str, str]:
        """Count one request, or refuse it.

        Args:
            method: the HTTP method.
            path: the path below ``/api/v10`` (``/channels/1/messages``).
            route: the matched route pattern below ``/api/v10`` (``/channels/{channel_id}/messages``).
            channel_id: the path's channel id, if any.

        Returns:
            The headers to answer with (the bucket's, for a route with one).

        Raises:
            RateLimited: a window is full (the global one is checked first).
        """
        now = self.clock.now()
        counted = not path.startswith(GLOBAL_EXEMPT)
        if counted and (wait := self._global.retry_after(now)):
            raise _rate_limited(wait, is_global=True, headers={})
        window = None
        if (method, route) == CHANNEL_MESSAGES and channel_id is not None:
            window = self._channels.get(channel_id)
            if window is None:
                window = self._channels[channel_id] = _Window(
                    self.limits.channel_messages, self.limits.channel_seconds
                )
            if wait := window.retry_after(now):
                raise _rate_limited(wait, is_global=False, headers=window.headers(now, self._bucket))
        if counted:
            self._global.count += 1
        if window is None:
            return {}
        window.count += 1
        return window.headers(now, self._bucket)


__all__ = ["RateLimited", "RateLimiter", "RateLimits"]
