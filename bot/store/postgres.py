"""The server store: PostgreSQL, for a bot whose processes share one database.

Chosen by ``DATABASE_URL=postgresql://...`` (``open_database``); it implements
:class:`bot.store.base.Store` with the guarantees of the SQLite store, on asyncpg and a
connection pool. The methods are the front's (:mod:`bot.store.front`); this module awaits
their statements on its connections and supplies PostgreSQL's dialect (``FOR UPDATE``,
id arrays, the JSON sums made in SQL under the row's lock).

Durability
----------
Every write method is one PostgreSQL transaction, committed before it returns (the
server's own ``synchronous_commit`` decides whether that commit is on disk or only in
the server's memory; the default is on disk).

Concurrency
-----------
Calls run on connections of the pool, so any number of coroutines (and processes) may
call the store at once; each sees only committed data. Several processes may share the
database: every write that checks before it writes (the next action, the next hand,
a game still active) first locks the game's row (``SELECT ... FOR UPDATE``), so two
writers of one game take turns; the partial unique index ``games_active_channel``
keeps one active game per channel; a member's totals are summed inside one upsert,
under that row's lock. Every read of several tables is ONE statement, so it sees one
snapshot.

``async with store.transaction():`` holds one connection for the task's block: the
store calls the task makes inside it join that transaction (each in a savepoint, so a
refused call leaves nothing of its own behind). Other tasks' reads do not wait for it:
they see the data as it was before the block (SQLite's store makes them wait instead).

A write whose caller is cancelled runs to its end all the same (committed or rolled
back, never half): it runs in a task of its own, and the store's next call waits for it,
as the SQLite store's next call waits behind it on its thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self, TypeVar

import asyncpg

from . import migrations as _migrations
from .base import Opener, Store
from .models import ResultRow, StoreError
from .program import Conflict, Dialect, Op, Program, stmt
from .transfer import postgres_to_sqlite
from .values import dumps

_T = TypeVar("_T")
Connection = Any  # asyncpg.Connection, or the pool's proxy of one
URL_SCHEMES = ("postgresql://", "postgres://")

# Any number: the key of the advisory lock that makes processes migrate one at a time.
_MIGRATION_LOCK = 7_215_020
_SCHEMA_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    one     BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
    version INTEGER NOT NULL
)"""


def is_postgres_url(target: str | Path) -> bool:
    """Whether a database setting names a PostgreSQL server rather than a file."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


@dataclass(eq=False)
class _Tx:
    """One task's open ``transaction()`` block: its connection, and the store call
    running on it (a cancelled caller's call is waited for before the rollback)."""

    conn: Connection
    outer: Any  # the asyncpg Transaction of the block (the calls' are savepoints in it)
    running: asyncio.Future[Any] | None = field(default=None)
    finishing: asyncio.Future[None] | None = field(default=None)  # its commit or rollback


class PostgresStore(Store):
    """The bot's PostgreSQL database. Open with ``await PostgresStore.open(url)`` (or
    ``async with``); see the module doc. A :class:`bot.store.base.Store`."""

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Callable[[], float]) -> None:
        self._pool = pool
        self.url = url
        self._clock = clock
        self._tx: dict[asyncio.Task[Any], _Tx] = {}
        # Writes whose callers were cancelled, still running to their end.
        self._orphans: set[asyncio.Future[Any]] = set()
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def open(
        cls,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        clock: Callable[[], float] | None = None,
    ) -> Opener[PostgresStore]:
        """Connect a pool of ``min_size`` to ``max_size`` connections to the server at
        ``url`` (``postgresql://user:password@host:port/database``) and migrate the
        database. ``store = await PostgresStore.open(url)`` or ``async with``."""
        if not is_postgres_url(url):
            raise ValueError("a PostgreSQL URL starts with postgresql://")
        import time

        return Opener(cls._open(url, min_size, max_size, clock or time.time))

    @classmethod
    async def _open(cls, url: str, min_size: int, max_size: int,
                    clock: Callable[[], float]) -> PostgresStore:
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        store = cls(pool, url, clock)
        try:
            async with pool.acquire() as conn:
                await _migrate(conn)
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        """Close the pool, once the writes under way have ended."""
        if self._closed:
            return
        self._closed = True
        await self._settle_orphans()
        await self._pool.close()

    async def checkpoint(self) -> tuple[int, int]:
        """Nothing to do: the server checkpoints its own log."""
        self._check_open()
        return (0, 0)

    async def backup(self, dest: str | Path) -> None:
        """Write a consistent copy of the whole database to the SQLite file ``dest``
        (one snapshot; the store stays open). A server's own backups are pg_dump's and
        replicas' business; this one opens with the embedded store."""
        self._check_open()
        await postgres_to_sqlite(self.url, dest)

    async def schema_version(self) -> int:
        return await self._read_raw(_schema_version)

    # --------------------------------------------------------------- transactions

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Self]:
        """Group this task's store calls into one atomic commit; a nested block joins
        the outer one. Committed when the block exits normally (even if the task is
        cancelled during the commit), rolled back if it raises."""
        task = asyncio.current_task()
        assert task is not None
        if task in self._tx:
            yield self
            return
        self._check_open()
        await self._settle_orphans()
        conn = await self._pool.acquire()
        tx = _Tx(conn, conn.transaction())
        try:
            await tx.outer.start()
            self._tx[task] = tx
            try:
                yield self
            except BaseException:
                await _finish_tx(tx, commit=False)
                raise
            await _finish_tx(tx, commit=True)
        finally:
            self._tx.pop(task, None)
            await asyncio.shield(self._release(tx))

    async def _release(self, tx: _Tx) -> None:
        """Give the block's connection back once nothing runs on it any more."""
        pending = [f for f in (tx.running, tx.finishing) if f is not None and not f.done()]
        if pending:
            await asyncio.wait(pending)
        await self._pool.release(tx.conn)

    async def _write(self, program: Callable[..., Program[_T]], *args: Any) -> _T:
        return await self._write_raw(_run_program, program, args)

    async def _read(self, program: Callable[..., Program[_T]], *args: Any) -> _T:
        return await self._read_raw(_run_program, program, args)

    async def _write_raw(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """``await fn(connection, *args)`` as a transaction of its own, or as part of
        this task's ``transaction()`` block (in a savepoint). It runs to its end even
        if the caller is cancelled meanwhile."""
        tx = self._tx.get(asyncio.current_task())  # type: ignore[arg-type]
        if tx is not None:
            return await self._run_in_tx(tx, _in_savepoint(tx.conn, fn, *args))
        self._check_open()
        await self._settle_orphans()
        return await self._unless_dropped(self._alone(fn, *args))

    async def _read_raw(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """``await fn(connection, *args)``: on this task's transaction if it has one,
        otherwise on any connection of the pool (committed data only)."""
        tx = self._tx.get(asyncio.current_task())  # type: ignore[arg-type]
        if tx is not None:
            return await self._run_in_tx(tx, fn(tx.conn, *args))
        self._check_open()
        await self._settle_orphans()
        async with self._pool.acquire() as conn:
            return await fn(conn, *args)

    async def _alone(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        async with self._pool.acquire() as conn, conn.transaction():
            return await fn(conn, *args)

    async def _run_in_tx(self, tx: _Tx, call: Awaitable[_T]) -> _T:
        running = asyncio.ensure_future(call)
        tx.running = running
        return await asyncio.shield(running)

    async def _unless_dropped(self, call: Coroutine[Any, Any, _T]) -> _T:
        """Run ``call`` in a task of its own; if the caller is cancelled, the call goes
        on and the store's next call waits for it."""
        running = asyncio.ensure_future(call)
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            if not running.done():
                self._orphans.add(running)
                running.add_done_callback(self._orphans.discard)
            raise

    async def _settle_orphans(self) -> None:
        while self._orphans:
            await asyncio.wait(list(self._orphans))

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")


# ------------------------------------------------------------- transactions


async def _finish_tx(tx: _Tx, *, commit: bool) -> None:
    """Commit or roll back a block, after the call still running on its connection (a
    cancelled caller's); it runs to its end even if the task is cancelled now."""
    async def finish() -> None:
        if tx.running is not None and not tx.running.done():
            await asyncio.wait([tx.running])
        await (tx.outer.commit() if commit else tx.outer.rollback())

    tx.finishing = asyncio.ensure_future(finish())
    await asyncio.shield(tx.finishing)


async def _in_savepoint(conn: Connection, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
    async with conn.transaction():  # nested in the block: a savepoint
        return await fn(conn, *args)


# ----------------------------------------------------------------- migrations


async def _schema_version(conn: Connection) -> int:
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def _migrate(conn: Connection) -> None:
    """Apply the migrations above the database's version, each in a transaction of its
    own with the version bump; processes that start together take turns (a lock)."""
    latest = _migrations.latest_version()
    if await _schema_version(conn) == latest:
        return
    for version, script in _migrations.MIGRATIONS:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute(_SCHEMA_TABLE)
            current = await _schema_version(conn)
            if current > latest:
                raise StoreError(
                    f"database schema version {current} is newer than this code ({latest})")
            if current < version:
                await conn.execute(_migrations.script_for(script, "postgresql"))
                await conn.execute(
                    "INSERT INTO schema_version (one, version) VALUES (TRUE, $1) "
                    "ON CONFLICT (one) DO UPDATE SET version = excluded.version", version)



def _rowcount(status: str) -> int:
    """The row count of a command's status ("UPDATE 1")."""
    return int(status.rsplit(" ", 1)[-1])



# ------------------------------------------------------------------- the dialect

# The members' totals, added in one upsert: the stats are summed counter by counter in
# SQL, under the row's lock, so two processes finishing games of one member at once
# both count.
_ADD_TO_TOTALS = """
INSERT INTO player_totals AS t (guild_id, game, user_id, games, wins, points, stats,
                                last_played_at)
SELECT $1, $2, u, 1, w, p, s::jsonb, $3
FROM unnest($4::bigint[], $5::bigint[], $6::bigint[], $7::text[]) AS r(u, w, p, s)
ORDER BY u
ON CONFLICT (guild_id, game, user_id) DO UPDATE SET
    games = t.games + excluded.games,
    wins = t.wins + excluded.wins,
    points = t.points + excluded.points,
    stats = (SELECT COALESCE(jsonb_object_agg(key, total), '{}'::jsonb)
             FROM (SELECT key, SUM(value::bigint) AS total
                   FROM (SELECT * FROM jsonb_each_text(t.stats)
                         UNION ALL SELECT * FROM jsonb_each_text(excluded.stats)) AS both_
                   GROUP BY key) AS sums),
    last_played_at = excluded.last_played_at
"""


class PostgresDialect(Dialect):
    """PostgreSQL's side of the front's SQL (whose row locks, ``FOR UPDATE``, are
    already PostgreSQL's words): id lists as arrays, and the two JSON upserts done in
    SQL, under the row's lock."""

    def in_ids(self, mark: str) -> str:
        return f"user_id = ANY({mark}::bigint[])"

    def ids(self, values: Sequence[int]) -> Any:
        return list(values)

    def add_to_totals(self, guild_id: int, game: str, results: Sequence[ResultRow],
                      now: float) -> Program[None]:
        # One row per member per upsert (a member twice in one game is summed first).
        added: dict[int, list[ResultRow]] = {}
        for r in results:
            added.setdefault(r.user_id, []).append(r)
        while added:
            batch = {user: rows.pop() for user, rows in added.items()}
            added = {user: rows for user, rows in added.items() if rows}
            yield stmt("run", _ADD_TO_TOTALS,
                     (guild_id, game, now, list(batch), [int(r.won) for r in batch.values()],
                      [r.points for r in batch.values()],
                      [dumps(r.stats) for r in batch.values()]))

    def set_member_setting(self, guild_id: int, user_id: int, key: str,
                           value: str | None, now: float) -> Program[None]:
        # One upsert, the key set (or removed) inside it under the row's lock: two
        # processes setting two keys of one member at once both keep theirs.
        if value is None:
            change = "(member_settings.settings::jsonb - $3::text)::text"
            fresh = "'{}'"
        else:
            change = ("(member_settings.settings::jsonb || jsonb_build_object($3::text, "
                      "$4::jsonb))::text")
            fresh = "jsonb_build_object($3::text, $4::jsonb)::text"
        params = (guild_id, user_id, key) if value is None else (guild_id, user_id, key, value)
        now_mark = f"${len(params) + 1}"
        yield stmt("run",
                 "INSERT INTO member_settings (guild_id, user_id, settings, updated_at) "
                 f"VALUES ($1, $2, {fresh}, {now_mark}) ON CONFLICT (guild_id, user_id) "
                 f"DO UPDATE SET settings = {change}, updated_at = excluded.updated_at",
                 (*params, now))


DIALECT = PostgresDialect()


async def _step(conn: Connection, op: Op) -> Any:
    kind, sql, args, _ = op
    if kind == "many":
        if len(args) == 1:  # a move's one action: one round trip, no batch
            await conn.execute(sql, *args[0])
        else:
            await conn.executemany(sql, args)
        return None
    if kind == "all":
        return await conn.fetch(sql, *args)
    if kind == "one":
        return await conn.fetchrow(sql, *args)
    if kind == "val":
        return await conn.fetchval(sql, *args)
    if kind == "new_id":
        return await conn.fetchval(sql + " RETURNING id", *args)
    return _rowcount(await conn.execute(sql, *args))


async def _run_program(conn: Connection, program: Callable[..., Program[_T]],
                       args: tuple[Any, ...]) -> _T:
    """Drive ``program`` to its end, each statement awaited on ``conn``."""
    steps = program(DIALECT, *args)
    try:
        op = next(steps)
        while True:
            try:
                result = await _step(conn, op)
            except asyncpg.IntegrityConstraintViolationError as exc:
                if not op[3]:
                    raise
                busy = getattr(exc, "constraint_name", None) == "games_active_channel"
                op = steps.throw(Conflict(str(exc), busy_channel=busy))
                continue
            op = steps.send(result)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
