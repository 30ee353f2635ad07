"""How the service keeps memory and the store one: the lock discipline, the writes, and
reading a table back.

Every change of a table is made under its lock (`Keeper.changing`, or `table.lock` for
work that finds its table otherwise): the table is read back first if a write of its
failed unanswered (`sync`), the change is written to the store (`write`), and only then
made in memory. A write the store refuses leaves memory as the store holds it, and the
player reads why; if the store cannot even be read back, the table is marked `unsynced`
and read back before its next change (the write may have been committed with its answer
lost). Work nobody waits on (AI turns, timeouts, reminders) tries a refused write again
after `retry_wait`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from bot.store import GameRow
from bot.store.health import backoff, is_outage
from bot.tables.errors import TableError
from bot.tables.listeners import Listeners
from bot.tables.registry import NextTurn, Registry
from bot.tables.shared import Shared
from bot.tables.table import CANCELLED, FINISHED, LOBBY, PLAYING, Seat, Table

log = logging.getLogger(__name__)

# The refusals that mean "the database did not take it": work nobody waits on (AI turns,
# timeouts) tries again later instead of giving up.
STORE_REFUSALS = ("database_down", "storage_failed")


def failure_code(exc: Exception) -> str:
    """The refusal a player reads for a write the store did not take: the database
    away or unable to write, or (a bug) a store refusal."""
    return "database_down" if is_outage(exc) else "storage_failed"


def _reason(landed: int | None) -> str | None:
    """A refused move (None: "your move was not played") or another change ("change":
    "nothing was changed")."""
    return None if landed is not None else "change"


class Keeper:
    """The store discipline every room changes tables by."""

    def __init__(self, shared: Shared, registry: Registry, listeners: Listeners,
                 next_turn: NextTurn, retry_first: float, retry_cap: float) -> None:
        self.shared = shared  # the store, the clock, the database's health, the outbox
        self.registry = registry
        self.listeners = listeners
        self.next_turn = next_turn
        # Work nobody waits on retries a refused write after backoff(n) seconds.
        self.retry_first = retry_first
        self.retry_cap = retry_cap
        self._background: set[asyncio.Task[None]] = set()
        # Told of each table after every change made under its lock, by a member or by
        # the service itself (`watch`: the Activity's pages follow them).
        self.watchers: list[Callable[[Table], None]] = []

    def watch(self, watcher: Callable[[Table], None]) -> Callable[[], None]:
        """`watcher(table)` is called (not awaited: it must not block) after every change
        made under a table's lock, a member's or the service's own; returns what undoes
        that. The Activity's pages follow their tables so (bot/web)."""
        self.watchers.append(watcher)
        return lambda: self.watchers.remove(watcher)

    @asynccontextmanager
    async def changing(self, table_id: int, reason: str | None = "change"
                       ) -> AsyncIterator[Table]:
        """The live table `table_id` under its lock, read back from the store first if
        it is unsynced (refused with "database_down" and `reason` if the store does
        not answer): where every change a player asks for is made."""
        table = self.registry.require(table_id)
        async with table.lock:
            await self.sync(table, reason)
            yield table
        self.tell_watchers(table)

    def tell_watchers(self, table: Table) -> None:
        """`table` changed (under its lock, now released): every watcher hears it."""
        for watcher in list(self.watchers):
            watcher(table)

    async def write(self, table: Table, write: Awaitable[Any]) -> Any:
        """Await a store write of `table`'s. Memory is changed by the caller only after
        it returns; if it fails, memory is brought back to what the store holds and the
        player reads why (TableError "database_down" or "storage_failed")."""
        try:
            result = await write
        except TableError:
            raise
        except Exception as exc:
            await self.recover(table, exc)
        self.shared.health.answered()
        return result

    async def set_meta(self, table: Table, meta: dict[str, Any]) -> None:
        """Store `meta` as the table's, then make it the table's."""
        await self.write(table, self.shared.store.set_meta(table.id, meta))
        table.meta = meta

    async def recover(self, table: Table, exc: Exception, landed: int | None = None
                      ) -> None:
        """After the failed write `exc` of `table`: read the table back from the store,
        so memory holds exactly what is stored, then refuse. `landed`: the version the
        table has if the write was committed after all (a commit whose answer was lost);
        then this returns instead of refusing. If the store cannot be read either, the
        table is marked unsynced (read back before its next change)."""
        self.write_failed(exc, f"could not store a change of table {table.id}")
        try:
            await self.resync(table)
        except Exception as again:
            table.unsynced = True
            if is_outage(again):
                self.shared.health.failed(again)
            raise TableError("database_down", reason=_reason(landed)) from None
        if landed is not None and table.game is not None and table.version == landed:
            log.warning("the change of table %s was stored after all", table.id)
            return
        raise TableError(failure_code(exc), reason=_reason(landed)) from None

    def write_failed(self, exc: Exception, what: str) -> None:
        if is_outage(exc):
            self.shared.health.failed(exc)
            log.warning("%s: %s: %s", what, type(exc).__name__, exc)
        else:  # the store refused it on its merits: memory and store disagreed (a bug)
            log.error("%s", what, exc_info=exc)

    async def sync(self, table: Table, reason: str | None = "change") -> None:
        """Before a change of an unsynced table: read it back from the store first
        (refused with "database_down" and `reason` if the store does not answer)."""
        if not table.unsynced:
            return
        version = table.version
        try:
            await self.resync(table)
        except Exception as exc:
            if is_outage(exc):
                self.shared.health.failed(exc)
            raise TableError("database_down", reason=reason) from None
        if table.version != version:
            # A change whose commit answer was lost is in the store: show it, post what
            # it obliges, and let the AI go on from there.
            if self.shared.outbox is not None:
                self.shared.outbox.kick(table.id)
            self._in_background(self._announce_resync(table))

    async def _announce_resync(self, table: Table) -> None:
        async with table.lock:  # after the change under way
            pass
        await self.listeners.notify(table, "changed", resynced=True)
        self.next_turn(table)

    def _in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def resync(self, table: Table) -> None:
        """Make `table` what the store holds: seats, rules, meta, stage and game."""
        row = await self.shared.store.get_game(table.id)
        if row is None:
            raise ValueError(f"table {table.id} is not in the store")
        stored = await self.table_from_row(row)
        table.seats, table.rules, table.meta = stored.seats, stored.rules, stored.meta
        table.stage, table.game = stored.stage, stored.game
        table.turn_since = stored.turn_since
        table.unsynced = False
        if table.stage in (FINISHED, CANCELLED):
            self.registry.unregister(table)

    async def load(self, table_id: int) -> Table | None:
        """A table as the store has it, whatever its stage: the live one if this
        process holds it, else rebuilt from the store (a finished game, for its posts
        and its answers), or None if there is no such game."""
        table = self.registry.get(table_id)
        if table is not None:
            return table
        row = await self.shared.store.get_game(table_id)
        if row is None:
            return None
        table = await self.table_from_row(row)
        if table.stage in (FINISHED, CANCELLED):
            # Kept, as a game that ends in this process is: its posts and old buttons
            # after a restart would otherwise replay it again each time.
            self.registry.tables[table.id] = table
        return table

    async def table_from_row(self, row: GameRow) -> Table:
        """The table the store's `row` holds, its game replayed from its record."""
        kind = self.registry.kind(row.game)
        rules = kind.rules_from_json(row.rules)
        seats = [Seat(s.user_id, s.display_name, s.ai_level, away=s.is_ai
                      and s.user_id is not None)
                 for s in sorted(row.seats, key=lambda s: s.seat)]
        table = Table(row.id, row.guild_id, row.channel_id, row.host_id, kind, rules,
                      row.first_dealer, seats, meta=dict(row.meta))
        table.stage = {"finished": FINISHED, "cancelled": CANCELLED}.get(
            row.status, row.meta.get("stage", LOBBY))
        # The turn began when it was stored to begin (a game stored before the store
        # kept that: at its last stored change): a timer keeps running across a
        # restart instead of starting afresh.
        table.turn_since = row.turn_since if row.turn_since is not None else row.updated_at
        table.last_activity = time.monotonic() - max(0.0, self.shared.clock.time()
                                                     - table.turn_since)
        if table.stage in (PLAYING, FINISHED):
            await self._reload(table)
            if table.game is None:
                raise ValueError("a started game without hands")
        return table

    async def _reload(self, table: Table) -> None:
        record = await self.shared.store.load_record(table.id,
                                             record_format=table.kind.record_format)
        table.game = table.kind.load(record) if record.get("hands") else None

    def retry_wait(self, failures: int) -> float:
        """Seconds before the next try of work the store refused `failures` times."""
        return backoff(failures - 1, self.retry_first, self.retry_cap)

    def retrying(self, table: Table, what: str, failures: int) -> None:
        """One line for the first refused try of `what` (the health line says the
        rest); the following tries at debug level, so an outage is no log storm."""
        level = logging.WARNING if failures == 1 else logging.DEBUG
        log.log(level, "%s at table %s waits for the database (try %d failed; next in "
                "%.1f s)", what, table.id, failures, self.retry_wait(failures))
