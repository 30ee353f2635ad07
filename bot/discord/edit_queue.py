"""Which public table message to edit next, within the request budget.

Every change of a table asks for an edit of its public message (`request`). The queue
keeps, per table, only that there is something new to show and since when: an edit
renders the table as it is when its turn comes, so the states in between are never sent
(coalesced), and the table whose players have waited longest goes first (fair). An edit
is sent only once the budget grants it a slot (bot/discord/budget.py, after the posts players
need, sharing the rest with the deletes of stale messages: at least nineteen slots in
twenty while both wait), so edits take what the budget leaves, and never more.

An edit renders its table (and draws its picture) first, then waits for its slot
(`Turn`), and renders again only if the table changed meanwhile: a slot is held only
from its grant to the request, never while a picture is drawn (drawing in the slot
held it a quarter of a second at 1,000 tables, and the budget lost a fifth of its
requests to it). At most `concurrency` edits are under way at once, so the ones waiting
for a slot were picked in order of waiting, moments before.

A failed edit (a 5xx, a dropped connection, a timeout, a 429 discord.py gave up on) is
tried again with backoff until the message shows the current state; the editor decides
which failures are worth another try (`Retry`). No discord import (tests/discord/test_budget.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.discord.budget import PREPAID, Priority, RequestBudget, Reservation

log = logging.getLogger(__name__)

# Backoff of a failed edit: 0.5 s, doubled at each failure in a row, at most 30 s.
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
# How long one edit may take (discord.py itself retries a 500/502/504 for up to 25 s).
EDIT_TIMEOUT = 40.0


class Retry(Exception):  # noqa: N818 (an instruction, not an error)
    """Raised by an edit that did not land and is worth trying again later."""


@dataclass(slots=True)
class _Table:
    since: float | None = None  # when the oldest change not yet being shown was asked
    busy: bool = False  # an edit is under way
    not_before: float = 0.0  # the next edit's earliest start (interval, backoff)
    failures: int = 0  # in a row


# Waits for the edit's slot of the budget; True if the table changed since the edit
# began: it is rendered again before it is sent.
Turn = Callable[[], Awaitable[bool]]
# The edit of one table: render it as it is now, `await turn()`, send the edit. Raise
# Retry (or any exception: logged) to be tried again after a backoff.
Edit = Callable[[int, Turn], Awaitable[None]]


class EditQueue:
    """The coalesced, fair, budgeted edits of every table message of the process."""

    def __init__(self, budget: RequestBudget, edit: Edit, *, delay: float = 0.5,
                 interval: float = 1.0, concurrency: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self._edit = edit
        # A change waits `delay` before its edit, so that a burst of moves is one edit.
        self.delay = delay
        # A table's message is edited at most once per `interval` seconds: Discord's
        # per-channel bucket of message edits (5 in 5 s) never makes an edit wait with a
        # slot of the budget in hand.
        self.interval = interval
        self._clock = clock
        # Edits rendering or waiting for their slot: about a second of the budget's, so
        # the budget always has one ready and the order stays fair.
        self._room = asyncio.Semaphore(concurrency or max(2, budget.limit))
        self._tables: dict[int, _Table] = {}
        self._wake = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None
        self._edits: set[asyncio.Task[None]] = set()
        self.closed = False
        # For the benchmark: edits sent, failures, and how late each edit was (seconds
        # from the oldest change it showed to its landing).
        self.edits = 0
        self.failed = 0
        self.lags: list[float] = []

    # ------------------------------------------------------------- asking

    def request(self, key: int) -> None:
        """Table `key` changed: its message will show it."""
        if self.closed:
            return
        state = self._tables.setdefault(key, _Table())
        if state.since is None:
            state.since = self._clock()
        self._wake.set()
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._run())

    def forget(self, key: int) -> None:
        """The table is over: nothing more to show (an edit under way ends as it may)."""
        self._tables.pop(key, None)

    def pending(self, key: int) -> bool:
        """Whether table `key` has a change its message does not show yet."""
        state = self._tables.get(key)
        return state is not None and (state.since is not None or state.busy)

    def summary(self) -> str:
        """A line for the log: edits sent and failed so far, tables waiting, edits
        under way, and how late the recent edits were."""
        lags = sorted(self.lags[-2000:])
        late = (f"; lag p50 {lags[len(lags) // 2]:.1f} s, max {lags[-1]:.1f} s"
                if lags else "")
        busy = sum(1 for state in self._tables.values() if state.busy)
        return (f"table edits: {self.edits} sent, {self.failed} failed, {self.backlog()} "
                f"tables waiting, {busy} under way{late}")

    def behind(self) -> bool:
        """Whether more tables wait for their edit than the budget sends in a second."""
        return self.backlog() > self.budget.limit

    def backlog(self) -> int:
        """Tables with a change waiting for its edit."""
        return sum(1 for state in self._tables.values() if state.since is not None)

    async def idle(self) -> None:
        """Until no table has a change to show (tests, benchmark)."""
        while any(self.pending(key) for key in list(self._tables)):
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        self.closed = True
        tasks = [t for t in (self._pump, *self._edits) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------- the pump

    def _ready(self, now: float) -> tuple[int | None, float | None]:
        """The table to edit now (the one waiting longest), else when the next is due."""
        best: tuple[float, int] | None = None
        due: float | None = None
        for key, state in self._tables.items():
            if state.since is None or state.busy:
                continue
            start = max(state.since + self.delay, state.not_before)
            if start <= now:
                if best is None or state.since < best[0]:
                    best = (state.since, key)
            elif due is None or start < due:
                due = start
        return (best[1] if best else None), due

    async def _run(self) -> None:
        while not self.closed:
            key, due = self._ready(self._clock())
            if key is None:
                # Nothing due: wait for a change, an edit to end, or the next due time.
                self._wake.clear()
                timeout = None if due is None else max(0.0, due - self._clock())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout)
                continue
            await self._room.acquire()
            # The table waiting longest at this moment (others may be due by now).
            key, _ = self._ready(self._clock())
            if key is None:
                self._room.release()
                continue
            state = self._tables[key]
            state.busy = True
            task = asyncio.create_task(self._one(key, state))
            self._edits.add(task)
            task.add_done_callback(self._edits.discard)

    async def _one(self, key: int, state: _Table) -> None:
        since = state.since
        state.since = None
        started = self._clock()
        state.not_before = started + self.interval
        slot: Reservation | None = None
        prepaid: contextvars.Token[Reservation | None] | None = None
        room = True  # this edit holds a place among those rendering or waiting

        async def turn() -> bool:
            nonlocal slot, prepaid, room
            slot = await self.budget.reserve(Priority.EDIT)
            prepaid = PREPAID.set(slot)  # the edit's request spends it (this task)
            # Its place goes to the next table now: the time Discord takes to answer
            # must not hold back the edits behind it (at a second an answer, holding
            # it halved the edits a second).
            self._room.release()
            room = False
            changed = state.since is not None
            state.since = None  # the edit renders those changes too
            return changed

        try:
            async with asyncio.timeout(EDIT_TIMEOUT):
                await self._edit(key, turn)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._failed(key, state, since, exc)
        else:
            state.failures = 0
            self.edits += 1
            if since is not None:
                self.lags.append(self._clock() - since)
        finally:
            if prepaid is not None:
                PREPAID.reset(prepaid)
            if slot is not None:
                slot.release()  # not used: nothing was sent
            if room:
                self._room.release()
            state.busy = False
            self._wake.set()

    def _failed(self, key: int, state: _Table, since: float | None,
                exc: BaseException) -> None:
        """Try again after a backoff, showing whatever is current by then."""
        self.failed += 1
        state.failures += 1
        backoff = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (state.failures - 1))
        state.not_before = max(state.not_before, self._clock() + backoff)
        if since is not None:
            state.since = since if state.since is None else min(since, state.since)
        if state.failures == 1 or state.failures % 10 == 0:
            detail = exc if isinstance(exc, Retry) else repr(exc)
            log.warning("the table message of table %s was not edited (%s); trying again "
                        "in %.1f s", key, detail, backoff,
                        exc_info=not isinstance(exc, Retry | TimeoutError))
