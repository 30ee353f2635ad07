"""Why a table waits (its meta "paused", a set of PAUSE_REASONS): while any reason
stands no turn timer runs, no AI moves and so nothing is rated. Each reason is set and
lifted on its own; the table plays on when the last one is lifted, the turn to play given
its whole time again (a member is never timed out for the time the table waited)."""

from __future__ import annotations

import time
from typing import Any

from bot.tables.keeping import Keeper
from bot.tables.registry import NextTurn, Registry
from bot.tables.shared import Shared
from bot.tables.table import (
    ABSENT_SINCE,
    LOBBY,
    PAUSE_ABSENT,
    PAUSE_REASONS,
    PLAYING,
    Table,
    all_absent,
)


class Pauses:
    """Holds and releases tables, stored first."""

    def __init__(self, shared: Shared, registry: Registry, keeper: Keeper,
                 next_turn: NextTurn) -> None:
        self.shared = shared  # the store, the clock
        self.registry = registry
        self.keeper = keeper
        self.next_turn = next_turn

    async def pause(self, table_id: int, reason: str) -> bool:
        """Hold the table for `reason` (PAUSE_REASONS): stored first, then no timer
        runs and no AI moves until every reason is lifted. False if it was held for
        that reason already (or is no longer live)."""
        table = self.registry.get(table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            return False
        async with table.lock:
            if reason not in PAUSE_REASONS:
                raise ValueError(f"unknown pause reason {reason!r}")
            if reason in table.paused:
                return False
            meta = {**table.meta, "paused": sorted(table.paused | {reason})}
            if reason == PAUSE_ABSENT:  # its members' absence ends it in time
                meta[ABSENT_SINCE] = self.shared.clock.time()
            await self.keeper.set_meta(table, meta)
        self.registry.stop_clocks(table)
        return True

    async def resume(self, table_id: int, reason: str) -> bool:
        """Lift `reason`; once no reason stands the table plays on, the turn to play
        starting afresh. False if the table was not held for `reason`."""
        table = self.registry.get(table_id)
        if table is None or reason not in table.paused:
            return False
        async with table.lock:
            if reason not in table.paused:
                return False
            left = sorted(table.paused - {reason})
            dropped = ("paused", ABSENT_SINCE) if reason == PAUSE_ABSENT else ("paused",)
            meta = {k: v for k, v in table.meta.items() if k not in dropped}
            if left:
                meta["paused"] = left
            now = self.shared.clock.time()
            await self.keeper.write(table, self._resume_writes(table, meta, now, not left))
            table.meta = meta
            if not left:
                table.turn_since = now
                table.last_activity = time.monotonic()
        self.next_turn(table)
        return True

    async def _resume_writes(self, table: Table, meta: dict[str, Any], now: float,
                             playing: bool) -> None:
        async with self.shared.store.transaction():
            await self.shared.store.set_meta(table.id, meta)
            if playing and table.stage == PLAYING:
                await self.shared.store.set_turn_since(table.id, now)

    async def follow_seats(self, table: Table) -> None:
        """PAUSE_ABSENT follows the seats: held while every human seated is away (gone
        away, left, or timed out with TIMEOUT_SEAT), so that the AIs never finish a
        game alone; lifted as soon as one is back (or a member takes a seat)."""
        if all_absent(table):
            await self.pause(table.id, PAUSE_ABSENT)
        elif PAUSE_ABSENT in table.paused:
            await self.resume(table.id, PAUSE_ABSENT)
