"""The request budget of a bot token: at most B requests in any second, shared out over
the shard processes, given first to what players need.

Discord gives one bot token 50 requests a second in all, every process of the bot
together; interaction endpoints (the answer to a click, `/interactions/{id}/{token}/
callback`, and the interaction's webhook, `/webhooks/{application_id}/{token}...`) are not
bound to it (https://docs.discord.com/developers/topics/rate-limits#global-rate-limit).
Over it, Discord answers 429s, discord.py learns of the limit only from them, and enough
invalid requests end in a temporary ban. So the bot keeps its own, lower budget
(REQUEST_BUDGET, 45 a second by default: a tenth left for what the count misses) and
never sends a counted request beyond it. Each process takes its shards' share,
REQUEST_BUDGET x its shards / SHARD_COUNT (`Settings.request_rate`: guilds are spread
over the shards by id, so each process's tables and requests are about that share), and
every counted request waits for a slot here first (bot/app.py hooks discord.py's HTTP
session; `spend`).

The slots go by priority, then first come first served: what players need (posts of the
outbox, turn mentions and reminders) before anything else, and edits of the public table
message last (they are coalesced: a later one shows everything an earlier one would
have, bot/discord/edit_queue.py).

No discord import: pure asyncio, unit-tested alone (tests/test_budget.py).
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import math
import re
import time
from collections import deque
from collections.abc import Callable
from enum import IntEnum


class Priority(IntEnum):
    """Who goes first when the budget is short (lower first)."""

    POST = 0  # what players need: posts of the outbox, turn mentions, reminders
    OTHER = 1  # everything else: command sync, threads, lobbies...
    EDIT = 2  # edits of a table message: coalesced, so the latest can wait its turn


# The requests each process may send in any second, of the token's 50 (Discord's
# global limit): the default of REQUEST_BUDGET.
DEFAULT_RATE = 45.0
# Slack added to the window: a slot is counted when its request is handed to the HTTP
# client, before Discord receives it, and Discord counts by arrival: a busy machine or
# network can hold one request back longer than the next. (50 ms was not enough for the
# strict fake at 1,000 tables on a loaded 2-core machine: its own stalls bunched the
# arrivals into a few 429s.)
WINDOW_SLACK = 0.1

# The routes that are not bound to the global limit (below /api/v*/).
_CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
_WEBHOOK = re.compile(r"^/webhooks/(\d+)/[^/]+(?:/.*)?$")
_API_PREFIX = re.compile(r"^/api(?:/v\d+)?(?=/)")
_CHANNEL_POST = re.compile(r"^/channels/\d+/messages$")
_CHANNEL_EDIT = re.compile(r"^/channels/\d+/messages/\d+$")


def api_route(path: str) -> str | None:
    """The route of a URL path below Discord's API root (`/api/v10/channels/1/messages`
    -> `/channels/1/messages`), or None for anything else (the gateway, attachments)."""
    match = _API_PREFIX.match(path)
    return path[match.end():] if match else None


def counted(route: str, application_id: int | None) -> bool:
    """Whether a request to `route` counts against the global limit: everything but the
    interaction endpoints (the callback, and the webhook of the application's
    interactions)."""
    if _CALLBACK.match(route):
        return False
    webhook = _WEBHOOK.match(route)
    return not (webhook and application_id is not None
                and int(webhook.group(1)) == application_id)


def route_priority(method: str, route: str) -> Priority:
    """A request's priority when its sender did not say: a channel post is for the
    players, an edit of a channel message is a table message's."""
    if method == "POST" and _CHANNEL_POST.match(route):
        return Priority.POST
    if method == "PATCH" and _CHANNEL_EDIT.match(route):
        return Priority.EDIT
    return Priority.OTHER


class Reservation:
    """A slot of the budget held for a request about to be sent: counted from the moment
    it is granted until it is used (then as sent at that moment) or given back."""

    __slots__ = ("_budget", "done")

    def __init__(self, budget: RequestBudget) -> None:
        self._budget = budget
        self.done = False

    def use(self) -> None:
        """The request is sent now."""
        if not self.done:
            self.done = True
            self._budget._settle(sent=True)

    def release(self) -> None:
        """No request was sent with it (nothing to send, or it failed before)."""
        if not self.done:
            self.done = True
            self._budget._settle(sent=False)


# A slot the sender took in advance (the table messages' editor takes one before it
# renders, so that it renders the state of the moment its turn comes): the next counted
# request of the task spends it instead of waiting again.
PREPAID: contextvars.ContextVar[Reservation | None] = contextvars.ContextVar(
    "budget_prepaid", default=None)
# The priority of the task's requests, when the route's default is not right.
PRIORITY: contextvars.ContextVar[Priority | None] = contextvars.ContextVar(
    "budget_priority", default=None)


class RequestBudget:
    """At most `limit` requests in any `window` seconds (`rate` a second), granted by
    priority, then in order of asking."""

    def __init__(self, rate: float = DEFAULT_RATE, *, slack: float = WINDOW_SLACK,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0:
            raise ValueError("a request budget needs a positive rate")
        self.rate = rate
        # Whole requests in a window of at least a second: 15/s (45 over 3 processes)
        # is 13 a second; 0.5/s is 1 in 2 s.
        self.limit = max(1, math.floor(rate))
        self.window = self.limit / rate + slack
        # ...and paced within it: at most a fifth of them in a fifth of the window. A
        # second's worth sent at once would reach Discord at once; if the way there
        # holds some back (a busy event loop, the network), they arrive with the next
        # second's and count twice as many in one second. Paced, a delay of d seconds
        # adds at most d x rate to any second.
        self.burst = max(1, math.ceil(self.limit / 5))
        self.burst_window = self.burst / rate + slack / 5
        self._clock = clock
        self._sent: deque[float] = deque()
        self._held = 0  # reservations granted, not yet used or given back
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        # What was spent, for the benchmark and the logs.
        self.sent = 0
        self.sent_by_priority = [0, 0, 0]
        self.waited = 0.0  # seconds spent waiting for a slot, in all

    # ------------------------------------------------------------- asking

    def room(self) -> int:
        """Slots free now."""
        now = self._clock()
        # (The same sums as `_next_room`'s, so that the two never disagree by a
        # rounding: a slot both taken and free would leave the waiters asleep.)
        while self._sent and self._sent[0] + self.window <= now:
            self._sent.popleft()
        recent = 0  # sent within the short window (the newest are at the end)
        for sent in reversed(self._sent):
            if sent + self.burst_window <= now or recent >= self.burst:
                break
            recent += 1
        return min(self.limit - len(self._sent), self.burst - recent) - self._held

    def _next_room(self) -> float:
        """When a slot is next freed by a sent request leaving a window (seconds from
        now; 0 if one is free)."""
        now = self._clock()
        waits = [0.0]  # (a window cut short by held reservations frees none here)
        if len(self._sent) + self._held >= self.limit and self._sent:
            waits.append(self._sent[0] + self.window - now)
        if len(self._sent) >= self.burst:
            waits.append(self._sent[-self.burst] + self.burst_window - now)
        return max(waits)

    def summary(self) -> str:
        """A line for the log: what was sent, by priority, and what waits."""
        posts, other, edits = self.sent_by_priority
        return (f"requests: {self.sent} sent ({posts} posts, {other} other, {edits} "
                f"edits), {self.waiting()} waiting, {self._held} held, "
                f"{self.waited:.0f} s waited in all")

    def waiting(self, priority: Priority | None = None) -> int:
        """Requests waiting for a slot (of `priority`, or all)."""
        return sum(1 for p, _, f in self._waiting if not f.done()
                   and (priority is None or p == priority))

    async def reserve(self, priority: Priority = Priority.OTHER) -> Reservation:
        """A slot, once every request of a higher priority and those of the same that
        asked before have theirs."""
        if not self._waiting and self.room() > 0:
            self._held += 1
            return Reservation(self)
        started = self._clock()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (int(priority), next(self._order), future))
        self._dispatch()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._settle(sent=False)  # granted as it was cancelled: give it back
            raise
        self.waited += self._clock() - started
        return Reservation(self)

    async def acquire(self, priority: Priority = Priority.OTHER) -> None:
        """Wait for a slot and spend it now (the request is sent at once)."""
        (await self.reserve(priority)).use()
        self.sent_by_priority[int(priority)] += 1

    async def spend(self, method: str, route: str) -> None:
        """Before a counted request to `route` is sent: the task's prepaid slot, else
        one of the task's priority, else of the route's."""
        prepaid = PREPAID.get()
        if prepaid is not None and not prepaid.done:
            prepaid.use()
            self.sent_by_priority[int(Priority.EDIT)] += 1
            return
        await self.acquire(PRIORITY.get() or route_priority(method, route))

    # ------------------------------------------------------------- granting

    def _settle(self, sent: bool) -> None:
        self._held -= 1
        if sent:
            self._sent.append(self._clock())
            self.sent += 1
        self._dispatch()

    def _dispatch(self) -> None:
        """Grant free slots to the first waiters; wake again when the oldest slot of the
        window frees one."""
        while self._waiting:
            _, _, future = self._waiting[0]
            if future.done():  # its asker was cancelled
                heapq.heappop(self._waiting)
                continue
            if self.room() <= 0:
                break
            heapq.heappop(self._waiting)
            self._held += 1
            future.set_result(None)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._waiting and self._sent:
            # A sent request frees its slot here, as it leaves a window; a held
            # reservation wakes the waiters when it settles. With none held, a timer
            # always: nothing else would wake them.
            delay = self._next_room()
            if delay > 0 or self._held == 0:
                self._timer = asyncio.get_running_loop().call_later(
                    max(delay, 0.001), self._dispatch)
