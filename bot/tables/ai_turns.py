"""Who plays next: the AI for an AI seat (or an away member's), after a short pause; a
human's turn gets its clock (bot/tables/turn_clock.py). `AiTurns.schedule` is what every
room calls once it has changed a table (the registry's NextTurn)."""

from __future__ import annotations

import asyncio
import logging

from bot.tables.errors import TableError
from bot.tables.keeping import STORE_REFUSALS, Keeper
from bot.tables.listeners import Listeners
from bot.tables.play import Play
from bot.tables.registry import Registry
from bot.tables.table import PLAYING, ActResult, Table
from bot.tables.turn_clock import TurnClock

log = logging.getLogger(__name__)


class AiTurns:
    """One AI task a table (Registry.ai_tasks), playing the AI's turns in a row."""

    def __init__(self, registry: Registry, keeper: Keeper, play: Play,
                 turn_clock: TurnClock, listeners: Listeners, ai_delay: float,
                 trick_pause: float) -> None:
        self.registry = registry
        self.keeper = keeper
        self.play = play
        self.turn_clock = turn_clock
        self.listeners = listeners
        self.ai_delay = ai_delay  # seconds before an AI acts (a card every ~0.6 s)
        self.trick_pause = trick_pause  # and this much more after a completed trick

    def schedule(self, table: Table) -> None:
        """If the seat to act is an AI (or away), play its turn after a short pause; if it
        is a human and the table has a turn timer, start the clock."""
        self.turn_clock.arm(table)
        if self.registry.closed or table.stage != PLAYING or table.paused:
            return
        seat = table.to_act
        if seat is None or not table.seats[seat].played_by_ai:
            return
        running = self.registry.ai_tasks.get(table.id)
        if running is not None and not running.done():
            return
        self.registry.ai_tasks[table.id] = asyncio.create_task(self._loop(table))

    async def _loop(self, table: Table) -> None:
        failures = 0  # tries in a row the store refused: the next waits backoff(failures)
        try:
            while not self.registry.closed and table.stage == PLAYING and not table.paused:
                seat = table.to_act
                if seat is None or not table.seats[seat].played_by_ai:
                    self.turn_clock.arm(table)  # a human's turn: their clock starts now
                    return
                pause = self.trick_pause if table.pause_after else 0.0
                wait = self.keeper.retry_wait(failures) if failures \
                    else self.ai_delay + pause
                await asyncio.sleep(wait)
                async with table.lock:
                    if self.registry.closed:
                        return  # stopping: the turn is played after the next start
                    try:
                        result = await self._turn(table, seat)
                    except TableError as exc:
                        if exc.code not in STORE_REFUSALS:
                            raise
                        failures += 1  # the database: wait, then try again
                        self.keeper.retrying(table, "an AI turn", failures)
                        continue
                failures = 0
                if result is not None:
                    await self.listeners.result(table, result)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI turn failed at table %s", table.id)

    async def _turn(self, table: Table, seat: int) -> ActResult | None:
        """Under the table's lock: the AI's action for `seat`, applied, if it is still
        that seat's turn to be played by the AI (else None)."""
        await self.keeper.sync(table)
        if table.stage != PLAYING or table.to_act != seat or table.paused \
                or not table.seats[seat].played_by_ai:
            return None
        level = table.seats[seat].ai_level or table.kind.ai_levels[0]
        action = await self.play.choose(table, seat, level)
        return await self.play.apply(table, seat, action)
