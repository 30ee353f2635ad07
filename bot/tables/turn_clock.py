"""The clock of a human's turn: its reminders, then its timeout.

Each turn's time is measured on the service's clock (`clock`: Settings.clock, the
machine's by default, the fake Discord's in tests) from the moment the turn began, which
is stored with each move (`Table.turn_since`): a restart changes nothing of a deadline.
Every wait for a moment of that clock is `clock.sleep_until`, so a test that moves the
fake clock wakes it. The settings it runs by are bot/tables/timer_settings.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.tables.errors import TableError
from bot.tables.keeping import STORE_REFUSALS, Keeper
from bot.tables.listeners import Listeners
from bot.tables.pauses import Pauses
from bot.tables.play import Play
from bot.tables.registry import NextTurn, Registry
from bot.tables.shared import Shared
from bot.tables.table import (
    PLAYING,
    POST_TIMEOUT,
    ActResult,
    Table,
    abandon_at,
    copied,
    cover_level,
)
from bot.tables.timer_settings import TIMEOUT_SEAT

log = logging.getLogger(__name__)


class TurnClock:
    """One clock task a table (Registry.timers), for the human whose turn it is."""

    def __init__(self, shared: Shared, registry: Registry, keeper: Keeper, play: Play,
                 pauses: Pauses, listeners: Listeners, next_turn: NextTurn) -> None:
        self.shared = shared  # the clock
        self.registry = registry
        self.keeper = keeper
        self.play = play
        self.pauses = pauses
        self.listeners = listeners
        self.next_turn = next_turn
        # Ends a table its members all left (Lobby.abandon; set by the service, which
        # builds the lobby after this clock): None, or the table ended.
        self.abandon: Callable[[int], Awaitable[Table | None]] | None = None

    def arm(self, table: Table) -> None:
        """(Re)start the clock task of the current turn, if a human with a timer is to
        act: it sends the turn's reminders, then plays the turn out at its deadline."""
        timers = self.registry.timers
        old = timers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        seat = table.to_act
        ends = abandon_at(table)
        if ends is not None and not self.registry.closed and self.abandon is not None:
            timers[table.id] = asyncio.create_task(self._abandon(table, ends))
            return
        if self.registry.closed or table.stage != PLAYING or seat is None or table.paused \
                or table.turn_deadline is None:
            return
        timers[table.id] = asyncio.create_task(self._timer(table, seat, table.version))

    async def _abandon(self, table: Table, ends: float) -> None:
        """A table its members all left: at `ends` (unless one is back by then) it ends,
        the deal under way a forfeit for those who left (Lobby.abandon)."""
        assert self.abandon is not None
        try:
            await self.shared.clock.sleep_until(ends)
            failures = 0
            while not self.registry.closed and abandon_at(table) is not None:
                try:
                    ended = await self.abandon(table.id)
                except TableError as exc:
                    if exc.code not in STORE_REFUSALS:
                        raise
                    failures += 1
                    self.keeper.retrying(table, "the end of an abandoned table", failures)
                    await asyncio.sleep(self.keeper.retry_wait(failures))
                    continue
                if ended is not None:
                    await self.listeners.notify(table, "abandoned")
                return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the end of abandoned table %s failed", table.id)

    def _turn_moved(self, table: Table, seat: int, version: int) -> bool:
        """Whether the turn the timer was armed for is over (or the service stops)."""
        return (self.registry.closed or table.stage != PLAYING or table.version != version
                or bool(table.paused) or table.to_act != seat
                or table.seats[seat].played_by_ai)

    async def _timer(self, table: Table, seat: int, version: int) -> None:
        try:
            deadline = table.turn_deadline
            if deadline is None or self._turn_moved(table, seat, version):
                return
            schedule = table.reminder_times()
            for index, (when, point) in enumerate(schedule):
                if point in table.reminded():
                    continue  # sent before (before a restart, too)
                await self.shared.clock.sleep_until(when)
                if self._turn_moved(table, seat, version):
                    return
                now = self.shared.clock.time()
                if now >= deadline:
                    break
                if any(later <= now for later, _ in schedule[index + 1:]):
                    continue  # a later point is due too (the bot was away): that one
                due = [p for w, p in schedule if w <= now]
                await self._remind(table, seat, version, point, due, deadline)
            await self.shared.clock.sleep_until(deadline)
            if self._turn_moved(table, seat, version):
                return
            failures = 0
            while True:
                async with table.lock:
                    try:
                        result = await self._timeout(table, seat, version)
                    except TableError as exc:
                        if exc.code not in STORE_REFUSALS:
                            raise
                        result = None
                        failures += 1
                        self.keeper.retrying(table, "a turn timeout", failures)
                    else:
                        if result is None:
                            return
                if result is not None:
                    break
                await asyncio.sleep(self.keeper.retry_wait(failures))
            # Timed out for good (TIMEOUT_SEAT) and no human left present: the table
            # waits for one, not an AI-only finish; its post tells them so.
            await self.pauses.follow_seats(table)
            await self.listeners.result(table, result)
            if table.timeout_action == TIMEOUT_SEAT and table.seats[seat].away:
                # For the listeners: the member was told in the channel (the timeout
                # post); a listener may tell them where else they read (a DM).
                await self.listeners.notify(table, "timed_out", seat=seat,
                                            user_id=table.seats[seat].user_id)
            self.next_turn(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timer failed at table %s", table.id)

    async def _timeout(self, table: Table, seat: int, version: int) -> ActResult | None:
        """Under the table's lock: the game's strongest AI plays `seat`'s turn whose
        time ran out, if the game still stands where the timer started (else None);
        with TIMEOUT_SEAT the seat goes to that AI until its player is back (marked
        away, in the same commit)."""
        await self.keeper.sync(table)
        if self._turn_moved(table, seat, version):
            return None
        level = cover_level(table.kind)
        action = await self.play.choose(table, seat, level)
        if table.timeout_action != TIMEOUT_SEAT:
            return await self.play.apply(table, seat, action, notice=POST_TIMEOUT)
        seats = copied(table.seats)
        seats[seat].away = True
        seats[seat].ai_level = level
        return await self.play.apply(table, seat, action, notice=POST_TIMEOUT,
                                     notice_params={"away": True}, seats=seats)

    async def _remind(self, table: Table, seat: int, version: int, point: str,
                      due: Sequence[str], deadline: float) -> None:
        """The reminder `point` of the turn: stored as sent first (with the points
        `due` passed over), so that no restart sends it again (at most once: a crash
        between the two loses it), then told to the listeners. Both are tried again
        while the database does not answer, until the turn moves on or ends."""
        failures = 0
        while True:
            try:
                async with table.lock:
                    if self._turn_moved(table, seat, version):
                        return
                    await self._mark_reminded(table, version, due)
                break
            except TableError as exc:
                if exc.code not in STORE_REFUSALS:
                    raise
                failures += 1
                self.keeper.retrying(table, "a reminder", failures)
                if not await self._retry_before(deadline, failures):
                    return
        while not await self.listeners.notify(table, "reminder", seat=seat,
                                              deadline=deadline, point=point):
            failures += 1
            if not await self._retry_before(deadline, failures) \
                    or self._turn_moved(table, seat, version):
                return

    async def _retry_before(self, deadline: float, failures: int) -> bool:
        """Wait before the next try, unless that would reach `deadline` (False)."""
        wait = self.keeper.retry_wait(failures)
        if self.shared.clock.time() + wait >= deadline:
            return False
        await asyncio.sleep(wait)
        return True

    async def _mark_reminded(self, table: Table, version: int, points: Sequence[str]
                             ) -> None:
        """Store that the turn's `points` are sent (meta "reminded")."""
        sent = sorted({*table.reminded(), *points})
        await self.keeper.set_meta(table, {**table.meta,
                                           "reminded": {"turn": version, "points": sent}})
