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
outbox, turn mentions and reminders) before anything else; then the edits of the public
table message (coalesced: a later one shows everything an earlier one would have,
bot/discord/edit_queue.py) and the deletes of the bot's own stale messages (spent turn
pings, old copies of a table message) share what is left: the deletes take the slots
the edits leave (a delete goes while a fifth of the window is free, TIDY_ROOM), and,
once one has waited TIDY_PATIENCE, one slot in TIDY_EVERY while edits wait, so that a
burst of them never holds the tables back (issue 53: 1,000 spent pings deleted ahead of
every edit left the table messages 10-14 s behind at 1,000 tables) and a busy bot
still tidies.

A request counts from the moment it is sent until a window after its answer came back
(`Flight`): Discord counts it when it arrives, at any moment before its answer leaves,
so a machine or network slow to deliver it can never bunch more than the budget into
one of Discord's seconds (issue 53: 8 to 67 global 429s in the set-up when the send
alone was counted).

No discord import: pure asyncio, unit-tested alone (tests/discord/test_budget.py).
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
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
    TIDY = 3  # deletes of the bot's own stale messages: cosmetic, shared with the edits


# A delete takes a slot the edits leave: while at least TIDY_ROOM (a fifth) of the
# window is free, since the edits come one after another, and one that finds the window
# full waits for a slot (a delete taking every slot free at its moment took 6 a second
# from 1,000 tables that needed them). Once the oldest delete has waited TIDY_PATIENCE
# seconds, every TIDY_EVERY-th slot goes to a delete while edits wait: at 45 a second,
# 2.25 deletes a second at least, 42.75 edits for 1,000 tables' 37 moves a second. (A
# tenth at once took 4 edits a second from the tables on a loaded machine: the first
# moves of 1,000 tables, and their 1,000 spent pings, come within half a minute.)
TIDY_ROOM = 0.2
TIDY_EVERY = 20
TIDY_PATIENCE = 60.0


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
_CHANNEL_MESSAGE = re.compile(r"^/channels/\d+/messages/\d+$")


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
    players, an edit of a channel message is a table message's, a delete of one is the
    bot tidying its own (a spent ping, a stale copy of a table message)."""
    if method == "POST" and _CHANNEL_POST.match(route):
        return Priority.POST
    if method == "PATCH" and _CHANNEL_MESSAGE.match(route):
        return Priority.EDIT
    if method == "DELETE" and _CHANNEL_MESSAGE.match(route):
        return Priority.TIDY
    return Priority.OTHER


class Reservation:
    """A slot of the budget held for a request about to be sent: counted from the moment
    it is granted until it is used (then as sent at that moment) or given back."""

    __slots__ = ("_budget", "done")

    def __init__(self, budget: RequestBudget) -> None:
        self._budget = budget
        self.done = False

    def use(self) -> None:
        """The request is sent now (counted a window from now)."""
        if not self.done:
            self.done = True
            self._budget._settle(sent=True)

    def fly(self) -> Flight:
        """The request is sent now, and its answer will be told (`Flight.answered`): it
        counts until a window after it."""
        flight = Flight(self._budget)
        if not self.done:
            self.done = True
            self._budget._settle(sent=True, flying=True)
        else:
            flight.landed = True  # spent before: nothing more to count
        return flight

    def release(self) -> None:
        """No request was sent with it (nothing to send, or it failed before)."""
        if not self.done:
            self.done = True
            self._budget._settle(sent=False)


class Flight:
    """A counted request on its way: it holds its slot until its answer has come back
    (or it failed), then for a window from that moment."""

    __slots__ = ("_budget", "_sent_at", "landed")

    def __init__(self, budget: RequestBudget) -> None:
        self._budget = budget
        self._sent_at = budget._clock()
        self.landed = False

    def answered(self) -> None:
        """The answer came (or the request failed): once, however often it is told."""
        if not self.landed:
            self.landed = True
            self._budget._landed(self._sent_at)


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
    priority, then in order of asking (the edits and the deletes sharing theirs)."""

    def __init__(self, rate: float = DEFAULT_RATE, *, slack: float = WINDOW_SLACK,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0:
            raise ValueError("a request budget needs a positive rate")
        self.rate = rate
        # Whole requests in a window of at least a second: 15/s (45 over 3 processes)
        # is 13 a second; 0.5/s is 1 in 2 s.
        self.limit = max(1, math.floor(rate))
        self.window = self.limit / rate + slack
        # A request whose answer is told counts a window after that answer: it reached
        # Discord before, so no slack is needed for the way there.
        self.answered_window = self.limit / rate
        # ...and paced within it: at most half of them in half the window, so that a
        # budget free at once does not send a whole second's worth in one moment. (A
        # request whose answer is told cannot bunch more than the budget into one of
        # Discord's seconds whatever its delay: it holds its slot until a window after
        # its answer. Steps of a fifth of a window, with a fifth of the slack, lost a
        # loaded event loop's lag at every step: 9 requests every 0.22 s and more, short
        # of the 37 edits a second that 1,000 tables ask, issue 53.)
        self.burst = max(1, math.ceil(self.limit / 2))
        self.burst_window = self.burst / rate
        self._clock = clock
        # When each counted request leaves the window (a heap: a window runs from the
        # send, or from the answer of a request in flight, so they do not come in order).
        self._expiries: list[float] = []
        self._sends: deque[float] = deque(maxlen=self.burst)  # the newest sends (pacing)
        self._flying = 0  # sent, the answer not yet told
        self._held = 0  # reservations granted, not yet used or given back
        # The waiters of each priority, in order of asking.
        self._waiting: list[deque[tuple[float, asyncio.Future[None]]]] = [
            deque() for _ in Priority]  # (when it asked, its future)
        self._edits_before_tidy = 0  # edits granted while deletes waited (TIDY_EVERY)
        self._timer: asyncio.TimerHandle | None = None
        # What was spent, for the benchmark and the logs.
        self.sent = 0
        self.sent_by_priority = [0] * len(Priority)
        self.waited = 0.0  # seconds spent waiting for a slot, in all
        # How long the recent answers took (seconds): a slow way to Discord and back
        # holds each slot that much longer, and so lowers the requests a second.
        self.flight_times: deque[float] = deque(maxlen=2000)

    # ------------------------------------------------------------- asking

    def room(self) -> int:
        """Slots free now."""
        now = self._clock()
        # (The same sums as `_next_room`'s, so that the two never disagree by a
        # rounding: a slot both taken and free would leave the waiters asleep.)
        while self._expiries and self._expiries[0] <= now:
            heapq.heappop(self._expiries)
        recent = sum(1 for sent in self._sends if sent + self.burst_window > now)
        counted = len(self._expiries) + self._flying
        return min(self.limit - counted, self.burst - recent) - self._held

    def _next_room(self, free: int = 1) -> float:
        """When `free` slots are next free, as counted requests leave the window
        (seconds from now; 0 if they are, or if only answers or held slots can free
        them)."""
        now = self._clock()
        while self._expiries and self._expiries[0] <= now:
            heapq.heappop(self._expiries)
        waits = [0.0]  # (a window cut short by held reservations frees none here)
        excess = len(self._expiries) + self._flying + self._held - (self.limit - free)
        if excess > 0 and self._expiries:
            k = min(excess, len(self._expiries))
            waits.append(heapq.nsmallest(k, self._expiries)[-1] - now)
        allowed = self.burst - free  # recent sends that leave `free` slots of the burst
        if len(self._sends) > allowed:
            waits.append(self._sends[-allowed - 1] + self.burst_window - now)
        return max(waits)

    def summary(self) -> str:
        """A line for the log: what was sent, by priority, and what waits."""
        posts, other, edits, tidy = self.sent_by_priority
        times = sorted(self.flight_times)
        answers = (f"; answers in p50 {1000 * times[len(times) // 2]:.0f} ms, p99 "
                   f"{1000 * times[len(times) * 99 // 100]:.0f} ms" if times else "")
        return (f"requests: {self.sent} sent ({posts} posts, {other} other, {edits} "
                f"edits, {tidy} deletes), {self.waiting()} waiting, {self._held} held, "
                f"{self._flying} unanswered, {self.waited:.0f} s waited in all{answers}")

    def waiting(self, priority: Priority | None = None) -> int:
        """Requests waiting for a slot (of `priority`, or all)."""
        return sum(1 for p, queue in enumerate(self._waiting)
                   if priority is None or p == priority
                   for _, future in queue if not future.done())

    async def reserve(self, priority: Priority = Priority.OTHER) -> Reservation:
        """A slot, once every request of a higher priority and those of the same that
        asked before have theirs (the edits and the deletes by their share)."""
        needs = self._tidy_room() if priority == Priority.TIDY else 1
        if not any(self._waiting) and self.room() >= needs:
            self._held += 1
            return Reservation(self)
        started = self._clock()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[int(priority)].append((started, future))
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
        """Wait for a slot and spend it now (the request is sent at once, counted a
        window from now)."""
        (await self.reserve(priority)).use()
        self.sent_by_priority[int(priority)] += 1

    async def spend(self, method: str, route: str) -> Flight:
        """Before a counted request to `route` is sent: the task's prepaid slot, else
        one of the task's priority, else of the route's. The request counts until a
        window after its answer: tell it (`Flight.answered`) when the answer comes, or
        the request fails."""
        prepaid = PREPAID.get()
        if prepaid is not None and not prepaid.done:
            self.sent_by_priority[int(Priority.EDIT)] += 1
            return prepaid.fly()
        priority = PRIORITY.get() or route_priority(method, route)
        flight = (await self.reserve(priority)).fly()
        self.sent_by_priority[int(priority)] += 1
        return flight

    # ------------------------------------------------------------- granting

    def _settle(self, sent: bool, flying: bool = False) -> None:
        self._held -= 1
        if sent:
            now = self._clock()
            self._sends.append(now)
            if flying:
                self._flying += 1
            else:
                heapq.heappush(self._expiries, now + self.window)
            self.sent += 1
        self._dispatch()

    def _landed(self, sent_at: float) -> None:
        now = self._clock()
        self._flying -= 1
        self.flight_times.append(now - sent_at)
        heapq.heappush(self._expiries, now + self.answered_window)
        self._dispatch()

    def _next_waiter(self) -> asyncio.Future[None] | None:
        """The waiter whose turn it is (not yet taken off its queue): by priority, the
        edits and the deletes sharing theirs."""
        for queue in self._waiting:
            while queue and queue[0][1].done():  # its asker was cancelled
                queue.popleft()
        posts, other, edits, tidy = self._waiting
        if posts or other:
            return (posts or other)[0][1]
        if edits and not self._tidy_turn():
            return edits[0][1]
        if tidy and (self._tidy_turn() or self.room() >= self._tidy_room()):
            return tidy[0][1]
        return None

    def _tidy_room(self) -> int:
        """The slots free that a delete needs when it is not its turn (TIDY_ROOM)."""
        return max(1, math.ceil(TIDY_ROOM * self.limit))

    def _only_deletes_wait(self) -> bool:
        """Whether the only waiters are deletes that need TIDY_ROOM free slots."""
        posts, other, edits, tidy = self._waiting
        return bool(tidy) and not (posts or other or edits) and not self._tidy_turn()

    def _tidy_turn(self) -> bool:
        """Whether a delete goes before the edits waiting: the oldest has waited its
        patience out, and the edits had their TIDY_EVERY - 1 slots since the last."""
        tidy = self._waiting[Priority.TIDY]
        return bool(tidy) and self._edits_before_tidy >= TIDY_EVERY - 1 \
            and self._clock() - tidy[0][0] >= TIDY_PATIENCE

    def _grant(self, future: asyncio.Future[None]) -> None:
        edits, tidy = self._waiting[Priority.EDIT], self._waiting[Priority.TIDY]
        if edits and future is edits[0][1]:
            edits.popleft()
            self._edits_before_tidy += 1 if tidy else 0
        elif tidy and future is tidy[0][1]:
            tidy.popleft()
            self._edits_before_tidy = 0
        else:
            (self._waiting[Priority.POST] or self._waiting[Priority.OTHER]).popleft()
        self._held += 1
        future.set_result(None)

    def _dispatch(self) -> None:
        """Grant free slots to the first waiters; wake again when the oldest slot of the
        window frees one."""
        while (future := self._next_waiter()) is not None and self.room() > 0:
            self._grant(future)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if any(self._waiting) and (self._expiries or self._sends):
            # A counted request frees its slot here, as it leaves a window; a held
            # reservation, or an answer, wakes the waiters when it comes. With neither
            # to come, a timer always: nothing else would wake them.
            delay = self._next_room(self._tidy_room() if self._only_deletes_wait() else 1)
            if delay > 0 or (self._held == 0 and self._flying == 0):
                self._timer = asyncio.get_running_loop().call_later(
                    max(delay, 0.001), self._dispatch)
