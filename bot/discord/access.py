"""Where the bot may write, and the invalid requests it makes (issue 37).

Discord restricts an IP that makes too many invalid requests: "Currently, this limit is
10,000 per 10 minutes. An invalid request is one that results in 401, 403, or 429
statuses" (429s of a shared rate limit, `X-RateLimit-Scope: shared`, are not counted):
https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans.
A channel that refused the bot (403: its rights taken away, the bot removed from the
server) refuses every request after it, and a deleted one answers 404 to every request;
a bot that kept writing there would reach the limit with a dozen busy tables, and then
every server goes dark.

So:
- a channel that answered 403 is *refused*: the bot sends it nothing until something
  changes (its permissions or the server's roles change, the server comes back, an
  interaction there shows the rights are back: `allow`), or, since the bot does not hear
  of every change (a member's roles), until REFUSED_RETRY seconds have passed: then one
  request tries again;
- a channel that is gone (deleted: CHANNEL_DELETE, or 404 10003 Unknown Channel) is
  *gone*, for good;
- every invalid answer is counted, process-wide; over INVALID_BUDGET in INVALID_WINDOW
  (a tenth of Discord's limit) the bot is *throttled*: it sends no request to a channel
  that is not known to take it until the count falls, and says so in the log once.

The HTTP session's hooks (bot/app.py) ask `refusal` before each request and tell
`answered` each answer. No discord import: pure, unit-tested alone.
"""

from __future__ import annotations

import logging
import re
import time
from collections import deque
from collections.abc import Callable

log = logging.getLogger(__name__)

# Discord's limit, and the bot's share of it (a tenth: room for what the count misses,
# and for other programs behind the same IP).
INVALID_LIMIT = 10_000
INVALID_WINDOW = 600.0
INVALID_BUDGET = INVALID_LIMIT // 10
INVALID_STATUSES = frozenset({401, 403, 429})
# A refused channel is tried again after this long without news (seconds): one invalid
# request per refused channel per 10 minutes at most.
REFUSED_RETRY = 600.0
# Discord's code for a channel that does not exist (deleted):
# https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
UNKNOWN_CHANNEL = 10003
# ...and for a change in an archived thread ("Thread is archived"; the same table).
THREAD_ARCHIVED = 50083

REFUSED = "refused"
GONE = "gone"

_CHANNEL = re.compile(r"^/channels/(\d+)(?:/|$)")


def channel_of(route: str) -> int | None:
    """The channel a route below the API root is about (`/channels/1/messages` -> 1)."""
    match = _CHANNEL.match(route)
    return int(match.group(1)) if match else None


class Blocked(Exception):  # noqa: N818 (a state, not an error of the caller's)
    """A request the bot does not send: its channel refused the bot or is gone, or the
    process made too many invalid requests of late. `reason`: REFUSED, GONE or
    "throttled"."""

    def __init__(self, channel_id: int | None, reason: str) -> None:
        super().__init__(f"channel {channel_id}: {reason}")
        self.channel_id = channel_id
        self.reason = reason


class ChannelAccess:
    """The channels the bot may not write to now, and the invalid requests it made."""

    def __init__(self, *, budget: int = INVALID_BUDGET, window: float = INVALID_WINDOW,
                 retry: float = REFUSED_RETRY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.window = window
        self.retry = retry
        self._clock = clock
        self._blocked: dict[int, tuple[str, float]] = {}  # channel -> (why, since)
        self._invalid: deque[float] = deque()
        self._working: set[int] = set()  # channels that took a request of late
        self.invalid = 0  # every invalid answer, for the benchmark and the log
        self.held = 0  # requests not sent because of a block or the throttle
        self._throttled = False

    # ------------------------------------------------------------- asked

    def blocked(self, channel_id: int) -> str | None:
        """Why the bot does not write to the channel now (REFUSED, GONE), or None."""
        entry = self._blocked.get(channel_id)
        if entry is None:
            return None
        why, since = entry
        if why == REFUSED and self._clock() - since >= self.retry:
            return None  # long enough without news: one request may try again
        return why

    def refusal(self, route: str) -> Blocked | None:
        """Why a request to `route` is not sent, or None to send it."""
        channel = channel_of(route)
        if channel is None:
            return None
        why = self.blocked(channel)
        if why is None and self.throttled() and channel not in self._working:
            why = "throttled"
        if why is None:
            return None
        self.held += 1
        return Blocked(channel, why)

    def throttled(self) -> bool:
        """Whether the process made INVALID_BUDGET invalid requests in the last window."""
        now = self._clock()
        while self._invalid and self._invalid[0] <= now - self.window:
            self._invalid.popleft()
        over = len(self._invalid) >= self.budget
        if over and not self._throttled:
            log.warning("%d invalid requests (401, 403, 429) in %.0f minutes: no request "
                        "to a channel not known to take it until they fall below %d "
                        "(Discord restricts the IP at %d)", len(self._invalid),
                        self.window / 60, self.budget, INVALID_LIMIT)
        self._throttled = over
        return over

    def recent_invalid(self) -> int:
        """Invalid answers in the last window."""
        self.throttled()
        return len(self._invalid)

    # ------------------------------------------------------------- told

    def answered(self, route: str, status: int, scope: str | None = None) -> None:
        """An answer of Discord's to a request to `route`: a 403 from a channel refuses
        it; an invalid answer counts."""
        channel = channel_of(route)
        if status in INVALID_STATUSES and not (status == 429 and scope == "shared"):
            self._invalid.append(self._clock())
            self.invalid += 1
        if channel is None:
            return
        if status == 403:
            self.refuse(channel)
        elif status < 400:
            self._working.add(channel)
            if len(self._working) > 10_000:
                self._working.clear()

    def refuse(self, channel_id: int) -> bool:
        """The channel refused the bot (403): True if that is news."""
        self._working.discard(channel_id)
        if self._blocked.get(channel_id, ("", 0.0))[0] == GONE:
            return False
        known = channel_id in self._blocked and self.blocked(channel_id) is not None
        self._blocked[channel_id] = (REFUSED, self._clock())
        return not known

    def gone(self, channel_id: int) -> bool:
        """The channel was deleted: True if that is news."""
        self._working.discard(channel_id)
        known = self._blocked.get(channel_id, ("", 0.0))[0] == GONE
        self._blocked[channel_id] = (GONE, self._clock())
        return not known

    def allow(self, channel_id: int) -> bool:
        """Something changed that may give the bot its rights back there (not for a
        channel that is gone): True if it was refused."""
        entry = self._blocked.get(channel_id)
        if entry is None or entry[0] == GONE:
            return False
        del self._blocked[channel_id]
        return True

    def summary(self) -> str:
        """A line for the log."""
        refused = sum(1 for why, _ in self._blocked.values() if why == REFUSED)
        gone = len(self._blocked) - refused
        return (f"invalid requests: {self.recent_invalid()} in {self.window / 60:.0f} min "
                f"({self.invalid} in all), {refused} channel(s) refused, {gone} gone, "
                f"{self.held} request(s) held")
