"""Rate limits that answer like Discord's (headers + 429 JSON): per-route buckets and
the global limit of a bot token.

https://discord.com/developers/docs/topics/rate-limits : per-route limits per top-level
resource (channel, guild, webhook), told in the X-RateLimit-* headers; a 429 carries
``retry_after`` and ``global``. Discord does not publish the per-route numbers ("should
not be hard coded"); :func:`default_rules` uses the figures commonly observed
(5 messages per 5 s per channel).
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class RateLimitRule:
    """``limit`` requests per ``window`` seconds for requests matching ``method`` + ``pattern``.

    ``pattern`` is a regex matched (fullmatch) against the path below ``/api/v10``; its first
    group, if any, is the "major parameter" (channel id, webhook id/token...) so each channel
    gets its own bucket, like Discord.
    """

    name: str
    method: str
    pattern: str
    limit: int
    window: float
    _regex: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._regex = re.compile(self.pattern)

    @property
    def bucket_hash(self) -> str:
        return hashlib.sha1(self.name.encode()).hexdigest()[:16]

    def match(self, method: str, path: str) -> str | None:
        """The major parameter ('' if none) when this rule applies, else None."""
        if self.method not in ("*", method):
            return None
        m = self._regex.fullmatch(path)
        if m is None:
            return None
        return "/".join(g for g in m.groups() if g) if m.groups() else ""


def default_rules(scale: float = 1.0) -> list[RateLimitRule]:
    """Discord-like limits. ``scale`` multiplies the windows (use < 1 for fast tests)."""
    msg = r"/channels/(\d+)/messages"
    hook = r"/webhooks/(\d+)/([^/]+)"
    return [
        RateLimitRule("message-create", "POST", msg, 5, 5.0 * scale),
        RateLimitRule("message-edit", "PATCH", msg + r"/\d+", 5, 5.0 * scale),
        RateLimitRule("message-delete", "DELETE", msg + r"/\d+", 5, 5.0 * scale),
        RateLimitRule("webhook-execute", "POST", hook, 5, 5.0 * scale),
        RateLimitRule("webhook-message", "*", hook + r"/messages/[^/]+", 5, 5.0 * scale),
        RateLimitRule(
            "commands", "*", r"/applications/\d+/(?:guilds/(\d+)/)?commands.*", 10, 5 * scale
        ),
    ]


@dataclass
class _Bucket:
    remaining: int
    reset_at: float


@dataclass
class Decision:
    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    rule: str = ""


@dataclass
class _Forced:
    method: str
    path_re: re.Pattern[str]
    count: int
    retry_after: float


class RateLimiter:
    def __init__(self, rules: list[RateLimitRule]) -> None:
        self.rules = rules
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._forced: list[_Forced] = []

    def force(
        self, method: str, path_regex: str, *, count: int = 1, retry_after: float = 0.2
    ) -> None:
        """Answer the next ``count`` matching requests with 429 (like a sub-ratelimit)."""
        self._forced.append(_Forced(method, re.compile(path_regex), count, retry_after))

    def check(self, method: str, path: str) -> Decision | None:
        """None when no rule applies. Otherwise whether to serve it, and the headers."""
        for forced in self._forced:
            if forced.count > 0 and forced.method in ("*", method) and forced.path_re.search(path):
                forced.count -= 1
                return Decision(
                    False,
                    {
                        "X-RateLimit-Scope": "user",
                        "Retry-After": str(math.ceil(forced.retry_after)),
                    },
                    forced.retry_after,
                    "forced",
                )
        for rule in self.rules:
            major = rule.match(method, path)
            if major is None:
                continue
            now = time.monotonic()
            key = (rule.name, major)
            bucket = self._buckets.get(key)
            if bucket is None or now >= bucket.reset_at:
                bucket = self._buckets[key] = _Bucket(rule.limit, now + rule.window)
            reset_after = max(bucket.reset_at - now, 0.0)
            headers = {
                "X-RateLimit-Limit": str(rule.limit),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": rule.bucket_hash,
            }
            if bucket.remaining <= 0:
                headers["X-RateLimit-Remaining"] = "0"
                headers["X-RateLimit-Scope"] = "user"
                headers["Retry-After"] = str(math.ceil(reset_after))
                return Decision(False, headers, reset_after, rule.name)
            bucket.remaining -= 1
            headers["X-RateLimit-Remaining"] = str(bucket.remaining)
            return Decision(True, headers, 0.0, rule.name)
        return None


#: https://discord.com/developers/docs/topics/rate-limits#global-rate-limit : "All bots
#: can make up to 50 requests per second to our API" (per bot token, so every process
#: and shard of the bot together), and "Interaction endpoints are not bound to the
#: bot's Global Rate Limit" (the callback and the interaction-webhook routes, which the
#: fake serves without the bot token). Our assumption: a sliding window (no more than
#: 50 in any second), the strictest reading of "per second".
GLOBAL_LIMIT = 50
GLOBAL_WINDOW = 1.0


@dataclass
class GlobalRequest:
    """A request counted against the global limit (``time``: time.monotonic())."""

    time: float
    method: str
    path: str
    refused: bool = False


class GlobalLimiter:
    """The bot token's global limit: ``limit`` requests in any ``window`` seconds."""

    def __init__(self, limit: int = GLOBAL_LIMIT, window: float = GLOBAL_WINDOW) -> None:
        self.limit = limit
        self.window = window
        self.requests: list[GlobalRequest] = []
        self._recent: deque[float] = deque()
        #: its clock (real time, as discord.py waits real time; a test may stop it)
        self.now: Callable[[], float] = time.monotonic

    def check(self, method: str, path: str) -> Decision | None:
        """None when the request may go (it is counted); else the global 429."""
        now = self.now()
        while self._recent and now - self._recent[0] >= self.window:
            self._recent.popleft()
        if len(self._recent) >= self.limit:
            retry_after = max(self._recent[0] + self.window - now, 0.001)
            self.requests.append(GlobalRequest(now, method, path, refused=True))
            headers = {
                "X-RateLimit-Global": "true",
                "X-RateLimit-Scope": "global",
                "Retry-After": str(math.ceil(retry_after)),
            }
            return Decision(False, headers, retry_after, "global")
        self._recent.append(now)
        self.requests.append(GlobalRequest(now, method, path))
        return None
