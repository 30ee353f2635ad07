"""The embedded store: SQLite, for a bot that runs as one process.

The methods are the front's (:mod:`bot.store.front`); this module runs its programs on
the database thread and supplies SQLite's dialect (index hints, id lists as JSON, the
JSON sums made in Python inside the one writer's transaction).

Durability
----------
Every write method runs as one SQLite transaction that is **committed before the
method returns**, so once ``await store.append_action(...)`` has returned, the action
survives the bot process being killed at any later moment (SIGKILL, OOM, crash).

The database runs in WAL mode with ``synchronous=NORMAL`` by default. With WAL, a
commit is written to the WAL file (in the OS page cache) before it returns, which is
safe against a *process* crash; it is not fsynced on every commit, so an *OS crash or
power loss* may lose the last few commits (never corrupt the file). Pass
``synchronous="FULL"`` to ``open_store`` to fsync every commit and be safe against
power loss as well, at some cost in write latency.

Concurrency
-----------
One ``SqliteStore`` holds one plain ``sqlite3`` connection, used only on its own
thread, which runs what it is handed one call at a time, in order (a queue and a
thread of the standard library: as cheap a hand-off as aiosqlite's, whose private
``_execute`` the store used before). An ``asyncio.Lock`` serialises transactions, so
any number of coroutines may call the store at once. Every store method runs its whole
statement list, checks included, in a single hand-off to that thread; the per-move
writes (``append_action(s)``, ``add_hand``, ``finish_game`` and ``record_action``,
which does all three as one commit) thus cost one hop each.
``async with store.transaction():`` groups several write calls into
one atomic commit (for example the last action of a hand and the next hand's deal);
store methods awaited inside the block, in the same task, join that transaction.
Keep such blocks short: other store calls wait for them.

A call handed off stays queued if its caller is cancelled: it (a write and its commit
or rollback) still runs to the end on the thread, before anything queued after it, so
a cancelled write is whole, never half, and the next call finds no transaction open.
"""

from __future__ import annotations

import asyncio
import json
import queue
import re
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, Self, TypeVar

from . import sqlite_db as sq
from .base import Opener, Store
from .models import ResultRow, StoreError
from .program import Conflict, Dialect, Program, stmt
from .results import sum_stats
from .settings import MEMBER_SETTINGS_SQL
from .sqlite_db import Synchronous
from .sqlite_db import split_sql as split_sql  # the statements of a script (tests use it)
from .values import dumps as _dumps

_T = TypeVar("_T")


class SqliteDialect(Dialect):
    """SQLite's side of the front's SQL: index hints, id lists as JSON, and the two
    upserts that sum JSON done in Python (the one writer thread makes the read and the
    write one step)."""

    def indexed(self, index: str) -> str:
        # The planner's statistics can mislead it on a big table: name the index the
        # statement was written for.
        return f" INDEXED BY {index}"

    def in_ids(self, mark: str) -> str:
        return f"user_id IN (SELECT value FROM json_each({mark}))"

    def ids(self, values: Sequence[int]) -> Any:
        return _dumps(list(values))

    def add_to_totals(self, guild_id: int, game: str, results: Sequence[ResultRow],
                      now: float) -> Program[None]:
        added: dict[int, tuple[int, int, int, dict[str, int]]] = {}
        for r in results:
            games, wins, points, stats = added.get(r.user_id, (0, 0, 0, {}))
            added[r.user_id] = (games + 1, wins + int(r.won), points + r.points,
                                sum_stats(stats, r.stats))
        if not added:
            return
        # The members as marks of their own (IN ($3, $4, ...)): json_each's list costs a
        # game's end about 1.5 us more. A table seats a handful: a few texts in all.
        marks = ", ".join(f"${n}" for n in range(3, 3 + len(added)))
        rows = yield stmt("all", "SELECT user_id, stats FROM player_totals WHERE guild_id = $1 "
                               f"AND game = $2 AND user_id IN ({marks})",
                        (guild_id, game, *added))
        stored = {r[0]: r[1] for r in rows}
        # games, wins and points are added by SQL; stats is the whole new sum.
        yield stmt("many",
                 "INSERT INTO player_totals (guild_id, game, user_id, games, wins, points, "
                 "stats, last_played_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                 "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
                 "games = games + excluded.games, wins = wins + excluded.wins, "
                 "points = points + excluded.points, stats = excluded.stats, "
                 "last_played_at = excluded.last_played_at",
                 [(guild_id, game, user_id, games, wins, points,
                   _dumps(sum_stats(json.loads(stored.get(user_id, "{}")), stats)), now)
                  for user_id, (games, wins, points, stats) in added.items()])

    def set_member_setting(self, guild_id: int, user_id: int, key: str,
                           value: str | None, now: float) -> Program[None]:
        # The store's one writer thread runs this whole in its transaction.
        text = yield stmt("val", MEMBER_SETTINGS_SQL, (guild_id, user_id))
        settings = json.loads(text) if text is not None else {}
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = json.loads(value)
        yield stmt("run", "INSERT INTO member_settings (guild_id, user_id, settings, "
                        "updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, user_id) "
                        "DO UPDATE SET settings = excluded.settings, "
                        "updated_at = excluded.updated_at",
                 (guild_id, user_id, _dumps(settings), now))


DIALECT = SqliteDialect()


def _sqlite_text(sql: str) -> str:
    """The front's text in SQLite's words, made once per text: the ``$1`` marks as
    SQLite's numbered ``?1``, and no ``FOR UPDATE`` (PostgreSQL's row lock: here the one
    writer thread and ``BEGIN IMMEDIATE`` already make writers take turns)."""
    text = _SQL.get(sql)
    if text is None:
        text = _SQL[sql] = _MARK.sub(r"?\1", sql.replace(" FOR UPDATE", ""))
    return text


_SQL: dict[str, str] = {}
_MARK = re.compile(r"\$(\d+)")


def _run_program(db: sq.Executor, program: Callable[..., Program[_T]],
                 args: tuple[Any, ...]) -> _T:
    """Drive ``program(DIALECT, *args)`` to its end here, on the database thread.

    Every store call runs this (a move's commit: three to six statements), so it is one
    frame: the statement kinds tested in order of frequency, the translated text looked
    up inline. What a program costs beyond its plain sqlite3 calls (about 1 us a commit)
    is this loop and the generator's own resuming."""
    steps = program(DIALECT, *args)
    send = steps.send
    texts = _SQL
    result: Any
    try:
        op = send(None)
        while True:
            kind, sql, params, conflict = op
            text = texts.get(sql) or _sqlite_text(sql)
            try:
                if kind == "one":
                    result = db.execute(text, params).fetchone()
                elif kind == "run":
                    result = db.execute(text, params).rowcount
                elif kind == "many":
                    if len(params) == 1:  # one row: execute is the cheaper call
                        db.execute(text, params[0])
                    else:
                        db.executemany(text, params)
                    result = None
                elif kind == "val":
                    row = db.execute(text, params).fetchone()
                    result = None if row is None else row[0]
                elif kind == "new_id":
                    result = db.execute(text, params).lastrowid
                else:  # "all"
                    result = db.execute(text, params).fetchall()
            except sqlite3.IntegrityError as exc:
                if not conflict:
                    raise
                # The program handles it; its next statement comes back from the throw.
                op = steps.throw(Conflict(str(exc), busy_channel=_busy_channel(exc)))
                continue
            op = send(result)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]


def _busy_channel(exc: BaseException) -> bool:
    return "games.channel_id" in str(exc)


class SqliteStore(Store):
    """The bot's SQLite database. Open with ``await open_store(path)``; see the module
    doc. A :class:`bot.store.base.Store`."""

    def __init__(
        self,
        db: sqlite3.Connection,
        thread: _DatabaseThread,
        path: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._db = db
        self._thread = thread  # the only thread that touches _db
        # Every write's statements, its BEGIN and COMMIT too, go through this one cursor:
        # db.execute makes a cursor per statement (about 0.2 us each, five a move). Made
        # here while the thread is idle; used only there. Its COMMIT (or RELEASE) is its
        # last statement, so no statement of it stays open after a write.
        self._writes = db.cursor()
        self.path = path
        self._clock = clock
        self._write_lock = asyncio.Lock()
        # The task running the open transaction(): its store calls join it.
        self._tx_task: asyncio.Task[Any] | None = None
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
        clock: Callable[[], float] = time.time,
        autocheckpoint_pages: int = 1000,
    ) -> Opener[SqliteStore]:
        """Open (creating it and its parent directory if needed) and migrate the
        database at ``path``; ``":memory:"`` gives a private in-memory database.

        Either ``store = await SqliteStore.open(path)`` (then ``await store.close()``)
        or ``async with SqliteStore.open(path) as store:``.

        SQLite folds the write-ahead log into the database by itself once it holds
        ``autocheckpoint_pages`` pages, inside the commit that crosses the mark. A
        caller that runs ``checkpoint()`` regularly (the bot does) sets it high, so
        that this work stays off the commits.
        """
        if synchronous not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        return Opener(cls._open(str(path), synchronous, busy_timeout_ms, clock,
                                 autocheckpoint_pages))

    @classmethod
    async def _open(
        cls,
        path: str,
        synchronous: Synchronous,
        busy_timeout_ms: int,
        clock: Callable[[], float],
        autocheckpoint_pages: int,
    ) -> SqliteStore:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        thread = _DatabaseThread()
        try:
            db = await thread.submit(sq.connect, path, synchronous, busy_timeout_ms,
                                     autocheckpoint_pages)
        except BaseException:
            thread.stop()
            raise
        store = cls(db, thread, path, clock)
        try:
            await store._call(sq.migrate_sync)
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (waits for a running transaction to finish)."""
        if self._closed:
            return
        async with self._write_lock:
            if self._closed:
                return
            self._closed = True
            try:
                await self._call(sq.close_sync)
            finally:
                self._thread.stop()

    async def checkpoint(self) -> tuple[int, int]:
        """Copy the write-ahead log into the main file now. It runs on a connection
        (and thread) of its own, in PASSIVE mode, which blocks neither readers nor
        writers: the players' commits queued on the store's connection go on
        meanwhile instead of waiting behind the copy and its fsync. Returns the frames
        in the log and how many of them are now in the main file."""
        self._check_open()
        if self.path == ":memory:":
            return (0, 0)  # a private in-memory database has no log to fold
        return await asyncio.to_thread(sq.checkpoint_sync, self.path)

    async def backup(self, dest: str | Path) -> None:
        """Write a consistent copy of the whole database to the file ``dest`` while
        the store stays open (store calls wait until the copy is done)."""
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        await self._read_raw(sq.backup_sync, str(dest))

    async def schema_version(self) -> int:
        return await self._read_raw(sq.user_version)

    # --------------------------------------------------------------- transactions

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Self]:
        """Group store writes into one atomic commit::

            async with store.transaction():
                await store.append_action(game_id, 3, 51, last_play)
                await store.add_hand(game_id, 4, next_deal)

        Everything is committed when the block exits normally and rolled back if it
        raises. Nested blocks join the outer one.
        """
        if self._in_this_tx():
            yield self
            return
        self._check_open()
        async with self._write_lock:
            self._check_open()
            self._tx_task = asyncio.current_task()
            try:
                await self._call(sq.begin)
                try:
                    yield self
                    # Once asked for, the commit happens even if the caller is
                    # cancelled meanwhile (a call handed off is never dropped).
                    await self._call(sq.commit)
                except BaseException:
                    await self._call(sq.rollback)
                    raise
            finally:
                self._tx_task = None

    def _call(self, fn: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        """``fn(connection, *args)`` on the database thread: one hop."""
        return self._thread.submit(fn, self._db, *args)

    async def _write(self, program: Callable[..., Program[_T]], *args: Any) -> _T:
        """Run ``program(DIALECT, *args)`` on the database thread in ONE hop, as its
        own transaction (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if it raises), or,
        inside this task's ``transaction()`` block, as part of that one (in a
        savepoint: if it raises, none of its own writes stay in the block). If the
        caller is cancelled meanwhile, the program and its commit or rollback still
        run to the end on the database thread, before anything else queued there.

        Every write comes here, a move's commit too: the hop is made from this frame
        (no coroutine of its own in between)."""
        if self._in_this_tx():
            return await self._thread.submit(sq.in_savepoint, self._writes, _run_program,
                                             program, args)
        self._check_open()
        async with self._write_lock:
            self._check_open()
            return await self._thread.submit(sq.in_transaction, self._writes, _run_program,
                                             program, args)

    async def _read(self, program: Callable[..., Program[_T]], *args: Any) -> _T:
        return await self._read_raw(_run_program, program, args)

    async def _read_raw(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(connection, *args)`` in one hop, serialised with transactions so a
        read never sees another task's uncommitted writes (inside a transaction, it
        sees its own)."""
        if self._in_this_tx():
            return await self._call(fn, *args)
        self._check_open()
        async with self._write_lock:
            self._check_open()
            return await self._call(fn, *args)

    def _in_this_tx(self) -> bool:
        return self._tx_task is not None and self._tx_task is asyncio.current_task()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

class _DatabaseThread:
    """A thread that runs the calls handed to it one at a time, in order, and hands
    each result back to the event loop of its caller. A call is run even if its caller
    stopped waiting (was cancelled): a write handed off always ends whole. Not a daemon
    thread, so the interpreter waits for the call running when it exits."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[
            tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]] | None
        ] = queue.SimpleQueue()
        self._worker = threading.Thread(target=self._run, name="store", daemon=False)
        self._worker.start()

    def submit(self, fn: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._calls.put((future, fn, args))
        return future

    def stop(self) -> None:
        """End the thread once the calls already queued have run."""
        self._calls.put(None)

    def _run(self) -> None:
        while (call := self._calls.get()) is not None:
            future, fn, args = call
            try:
                result = fn(*args)
            except BaseException as exc:  # handed to the caller, whatever it is
                _hand_back(future, None, exc)
            else:
                _hand_back(future, result, None)


def _hand_back(future: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    # If the caller's event loop is closed (RuntimeError), nobody is left to tell.
    with suppress(RuntimeError):
        future.get_loop().call_soon_threadsafe(_settle, future, result, exc)


def _settle(future: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    if future.done():
        return  # the caller was cancelled; the call ran all the same
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


# Open the store at a path: ``await open_store(p)`` or ``async with open_store(p) as s:``
# (the one backend there is; see ``SqliteStore.open`` for the options).
open_store = SqliteStore.open
