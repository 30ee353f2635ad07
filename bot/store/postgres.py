"""The server store: PostgreSQL, for a bot whose processes share one database.

Chosen by ``DATABASE_URL=postgresql://...`` (``open_database``); it implements
:class:`bot.store.base.Store` with the guarantees of the SQLite store, on asyncpg and a
connection pool.

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
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import asyncpg

from . import migrations as _migrations
from .base import Store
from .models import (
    DEFAULT_GAME,
    PANEL_TOKEN_LIFE,
    RECORD_FORMAT,
    ChannelBusyError,
    DayRow,
    DuplicateActionError,
    GameNotActiveError,
    GameNotFoundError,
    GameRow,
    GameStatus,
    LeaderOrder,
    LeaderRow,
    LoggedMatch,
    MemberRating,
    MemberStats,
    OutOfOrderError,
    PanelRow,
    Post,
    PostRow,
    RatingRow,
    RatingState,
    RatingUpdate,
    ResultRow,
    SeatInfo,
    StoreError,
)
from .values import (
    actions_json,
    check_month,
    check_page,
    checked_results,
    deal_json,
    dumps,
    log_json,
    logged_matches,
    member_key,
)

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


class PostgresStore:
    """The bot's PostgreSQL database. Open with ``await PostgresStore.open(url)`` (or
    ``async with``); see the module doc. Implements :class:`bot.store.base.Store`."""

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
    ) -> _Opener:
        """Connect a pool of ``min_size`` to ``max_size`` connections to the server at
        ``url`` (``postgresql://user:password@host:port/database``) and migrate the
        database. ``store = await PostgresStore.open(url)`` or ``async with``."""
        if not is_postgres_url(url):
            raise ValueError("a PostgreSQL URL starts with postgresql://")
        import time

        return _Opener(cls._open(url, min_size, max_size, clock or time.time))

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

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def checkpoint(self) -> tuple[int, int]:
        """Nothing to do: the server checkpoints its own log."""
        self._check_open()
        return (0, 0)

    async def backup(self, dest: str | Path) -> None:
        """Write a consistent copy of the whole database to the SQLite file ``dest``
        (one snapshot; the store stays open). A server's own backups are pg_dump's and
        replicas' business; this one opens with the embedded store."""
        from .copy import copy_postgres_to_sqlite

        self._check_open()
        await copy_postgres_to_sqlite(self, dest)

    async def schema_version(self) -> int:
        return await self._read(_schema_version)

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

    async def _write(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """``await fn(connection, *args)`` as a transaction of its own, or as part of
        this task's ``transaction()`` block (in a savepoint). It runs to its end even
        if the caller is cancelled meanwhile."""
        tx = self._tx.get(asyncio.current_task())  # type: ignore[arg-type]
        if tx is not None:
            return await self._run_in_tx(tx, _in_savepoint(tx.conn, fn, *args))
        self._check_open()
        await self._settle_orphans()
        return await self._unless_dropped(self._alone(fn, *args))

    async def _read(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
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

    def _now(self) -> float:
        return float(self._clock())

    # ----------------------------------------------------------------------- games

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: dict[str, Any],
        first_dealer: int,
        seats: Sequence[SeatInfo],
        meta: dict[str, Any] | None = None,
        *,
        game: str = DEFAULT_GAME,
    ) -> int:
        """Create an active game of kind ``game`` and return its id. Raises
        ``ChannelBusyError`` if the channel already has an active game."""
        row = (guild_id, game, channel_id, host_id, dumps(rules), first_dealer,
               dumps(meta or {}))
        return await self._write(_create_game, row, list(seats), self._now())

    async def update_seats(self, game_id: int, seats: Sequence[SeatInfo]) -> None:
        await self._write(_update_seats, game_id, list(seats), self._now())

    async def set_meta(self, game_id: int, meta: dict[str, Any]) -> None:
        await self._write(_set_meta, game_id, dumps(meta), self._now())

    async def set_rules(self, game_id: int, rules: dict[str, Any]) -> None:
        await self._write(_set_rules, game_id, dumps(rules), self._now())

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._read(_games_where, "g.id = $1", game_id)
        return games[0] if games else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        games = await self._read(_games_where, "g.channel_id = $1 AND g.status = 'active'",
                                 channel_id)
        return games[0] if games else None

    async def unfinished_games(self) -> list[GameRow]:
        return await self._read(_games_where, "g.status = 'active'")

    async def active_games_of_user(self, user_id: int) -> list[GameRow]:
        return await self._read(
            _games_where,
            "g.status = 'active' AND g.id IN (SELECT game_id FROM game_seats "
            "WHERE user_id = $1)",
            user_id,
        )

    async def last_game_in_channel(self, channel_id: int, status: GameStatus
                                   ) -> GameRow | None:
        games = await self._read(
            _games_where,
            "g.id = (SELECT id FROM games WHERE channel_id = $1 AND status = $2 "
            "ORDER BY id DESC LIMIT 1)",
            channel_id, status,
        )
        return games[0] if games else None

    # --------------------------------------------------------------- hands/actions

    async def add_hand(self, game_id: int, hand_index: int, deal: dict[str, Any]) -> None:
        deal_text = deal_json(deal)
        await self._write(_add_hand, game_id, hand_index, deal_text, self._now())

    async def append_action(
        self, game_id: int, hand_index: int, seq: int, action: dict[str, Any]
    ) -> None:
        await self.append_actions(game_id, hand_index, seq, [action])

    async def append_actions(
        self, game_id: int, hand_index: int, first_seq: int, actions: Sequence[dict[str, Any]]
    ) -> None:
        texts = actions_json(actions)
        await self._write(_append_actions, game_id, hand_index, first_seq, texts, self._now())

    async def record_action(
        self,
        game_id: int,
        hand_index: int,
        seq: int,
        action: dict[str, Any],
        *,
        next_deal: dict[str, Any] | None = None,
        results: Sequence[ResultRow] | None = None,
        posts: Sequence[Post] = (),
        turn_since: float | None = None,
        ratings: RatingUpdate | None = None,
    ) -> None:
        """Everything one accepted move writes, as ONE transaction: the action, then
        the next hand's deal, then the results, then the posts, then when the next
        turn began, then the ratings (see the SQLite store's method for the details; the same checks
        and errors)."""
        texts = actions_json([action])
        deal_text = deal_json(next_deal) if next_deal is not None else None
        result_rows = checked_results(results) if results is not None else None
        post_rows = [(p.kind, dumps(p.params)) for p in posts]
        await self._write(_record_action, game_id, hand_index, seq, texts, deal_text,
                          result_rows, post_rows, turn_since, ratings, self._now())

    async def set_turn_since(self, game_id: int, since: float) -> None:
        await self._write(_set_turn_since, game_id, since)

    async def action_count(self, game_id: int, hand_index: int) -> int:
        return await self._read(_action_count, game_id, hand_index)

    async def load_record(self, game_id: int) -> dict[str, Any]:
        return await self._read(_load_record, game_id)

    # ---------------------------------------------------------------------- outbox

    async def add_posts(self, game_id: int, posts: Sequence[Post]) -> None:
        rows = [(p.kind, dumps(p.params)) for p in posts]
        await self._write(_add_posts, game_id, rows, self._now())

    async def pending_posts(self, game_id: int | None = None) -> list[PostRow]:
        return await self._read(_pending_posts, game_id)

    async def mark_posted(self, post_id: int, message_id: int | None) -> None:
        await self._write(_mark_posted, post_id, message_id, self._now())

    # -------------------------------------------------------------- end of a game

    async def finish_game(self, game_id: int, results: Sequence[ResultRow]) -> None:
        await self._write(_finish_game, game_id, checked_results(results), self._now())

    async def cancel_game(self, game_id: int) -> bool:
        return await self._write(_cancel_game, game_id, self._now())

    # ---------------------------------------------------------- leaderboard, stats

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        order: LeaderOrder = "wins",
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderRow]:
        order_by = check_page(order, limit, offset)
        return await self._read(_leaderboard, guild_id, game, order_by, limit, offset)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        return await self._read(_leaderboard_size, guild_id, game)

    async def member_stats(self, guild_id: int, game: str, user_id: int) -> MemberStats:
        return await self._read(_member_stats, guild_id, game, user_id)

    # ------------------------------------------------------------------ ratings

    async def rating_state(self, game_id: int, guild_id: int, pool: str, month: str,
                           user_ids: Sequence[int]) -> RatingState:
        return await self._read(_rating_state, game_id, guild_id, pool, check_month(month),
                                list(user_ids))

    async def write_ratings(self, update: RatingUpdate) -> None:
        await self._write(_write_ratings, update)

    async def rating_board(self, guild_id: int, pool: str, month: str | None = None,
                           limit: int = 10, offset: int = 0) -> list[RatingRow]:
        check_page("wins", limit, offset)
        return await self._read(_rating_board, guild_id, pool, check_month(month), limit,
                                offset)

    async def rating_board_size(self, guild_id: int, pool: str,
                                month: str | None = None) -> int:
        return await self._read(_rating_board_size, guild_id, pool, check_month(month))

    async def member_rating(self, guild_id: int, pool: str, user_id: int, month: str,
                            trend_day: str) -> MemberRating:
        return await self._read(_member_rating, guild_id, pool, user_id,
                                check_month(month), trend_day)

    async def rating_logs(self) -> dict[int, tuple[str, list[LoggedMatch]]]:
        return await self._read(_rating_logs)

    async def clear_ratings(self) -> None:
        await self._write(_clear_ratings)

    async def games_of_guild(self, guild_id: int) -> list[GameRow]:
        return await self._read(_games_where, "g.guild_id = $1", guild_id)

    async def guilds(self) -> list[int]:
        return await self._read(_guilds)

    # ------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int, game: str) -> dict[str, Any]:
        return await self._read(_guild_settings, guild_id, game)

    async def set_guild_settings(
        self, guild_id: int, game: str, settings: dict[str, Any]
    ) -> None:
        await self._write(_set_guild_settings, guild_id, game, dumps(settings), self._now())

    async def get_guild_language(self, guild_id: int) -> str | None:
        return await self._read(_guild_language, guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        await self._write(_set_guild_language, guild_id, language, self._now())

    # --------------------------------------------------------- member settings

    async def get_member_settings(self, guild_id: int, user_id: int) -> dict[str, Any]:
        return await self._read(_member_settings, guild_id, user_id)

    async def set_member_setting(self, guild_id: int, user_id: int, key: str,
                                 value: Any) -> None:
        await self._write(_set_member_setting, guild_id, user_id, member_key(key),
                          dumps(value) if value is not None else None, self._now())

    # ----------------------------------------------------------- followed panels

    async def save_panel(self, table_id: int, user_id: int, application_id: int,
                         token: str, language: str, since: float) -> None:
        await self._write(_save_panel,
                          (table_id, user_id, application_id, token, language, since))

    async def panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> list[PanelRow]:
        return await self._read(_panels, now - max_age)

    async def delete_panel(self, table_id: int, user_id: int) -> None:
        await self._write(_delete_panels, table_id, user_id)

    async def delete_panels(self, table_id: int) -> None:
        await self._write(_delete_panels, table_id, None)

    async def prune_panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> int:
        return await self._write(_prune_panels, now - max_age)


class _Opener:
    """What ``PostgresStore.open`` returns: await it for a store, or use it in
    ``async with`` to have the store closed at the end of the block."""

    def __init__(self, opening: Coroutine[Any, Any, PostgresStore]) -> None:
        self._opening = opening
        self._store: PostgresStore | None = None

    def __await__(self) -> Generator[Any, None, PostgresStore]:
        return self._opening.__await__()

    async def __aenter__(self) -> PostgresStore:
        self._store = await self._opening
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()


def _is_a_store(store: PostgresStore) -> Store:
    """Never called: a type checker proves here that PostgresStore is a Store."""
    return store


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


# ---------------------------------------------------------------------- games


def _rowcount(status: str) -> int:
    """The row count of a command's status ("UPDATE 1")."""
    return int(status.rsplit(" ", 1)[-1])


async def _create_game(conn: Connection, row: tuple[Any, ...], seats: list[SeatInfo],
                       now: float) -> int:
    try:
        game_id = await conn.fetchval(
            "INSERT INTO games (guild_id, game, channel_id, host_id, status, rules, "
            "first_dealer, meta, created_at, updated_at) "
            "VALUES ($1, $2, $3, $4, 'active', $5, $6, $7, $8, $8) RETURNING id",
            *row, now,
        )
    except asyncpg.UniqueViolationError as exc:
        if exc.constraint_name == "games_active_channel":
            raise ChannelBusyError(f"channel {row[2]} already has an active game") from exc
        raise
    await _insert_seats(conn, game_id, seats)
    return int(game_id)


async def _insert_seats(conn: Connection, game_id: int, seats: Sequence[SeatInfo]) -> None:
    if not seats:
        return
    try:
        await conn.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, is_ai, ai_level, display_name) "
            "VALUES ($1, $2, $3, $4, $5, $6)",
            [(game_id, s.seat, s.user_id, int(s.is_ai), s.ai_level, s.display_name)
             for s in seats],
        )
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise StoreError(f"invalid seats for game {game_id}: {exc}") from exc


async def _lock_game(conn: Connection, game_id: int) -> tuple[str, int, str]:
    """Lock the game's row for this transaction: (status, guild_id, game kind)."""
    row = await conn.fetchrow(
        "SELECT status, guild_id, game FROM games WHERE id = $1 FOR UPDATE", game_id)
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    return row[0], row[1], row[2]


async def _lock_active(conn: Connection, game_id: int) -> tuple[int, str]:
    status, guild_id, game = await _lock_game(conn, game_id)
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    return guild_id, game


async def _update_seats(conn: Connection, game_id: int, seats: list[SeatInfo],
                        now: float) -> None:
    await _lock_active(conn, game_id)
    await conn.execute("DELETE FROM game_seats WHERE game_id = $1", game_id)
    await _insert_seats(conn, game_id, seats)
    await _touch(conn, game_id, now)


async def _set_meta(conn: Connection, game_id: int, meta: str, now: float) -> None:
    status = await conn.execute(
        "UPDATE games SET meta = $1, updated_at = $2 WHERE id = $3", meta, now, game_id)
    if _rowcount(status) == 0:
        raise GameNotFoundError(f"no game {game_id}")


async def _set_rules(conn: Connection, game_id: int, rules: str, now: float) -> None:
    status = await conn.execute(
        "UPDATE games SET rules = $1, updated_at = $2 WHERE id = $3 AND status = 'active' "
        "AND NOT EXISTS (SELECT 1 FROM game_hands WHERE game_id = $3)",
        rules, now, game_id)
    if _rowcount(status) == 0:
        raise GameNotFoundError(f"no game {game_id} in a lobby")


async def _touch(conn: Connection, game_id: int, now: float) -> None:
    await conn.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now, game_id)


async def _games_where(conn: Connection, where: str, *params: Any) -> list[GameRow]:
    """The games matching ``where`` with their seats, oldest first: one statement, so
    one snapshot."""
    rows = await conn.fetch(
        "SELECT g.id, g.guild_id, g.game, g.channel_id, g.host_id, g.status, g.rules, "
        "g.first_dealer, g.meta, g.created_at, g.updated_at, g.finished_at, "
        "s.seat, s.user_id, s.is_ai, s.ai_level, s.display_name, g.turn_since "
        f"FROM games g LEFT JOIN game_seats s ON s.game_id = g.id WHERE {where} "
        "ORDER BY g.id, s.seat",
        *params,
    )
    games: dict[int, GameRow] = {}
    seats: dict[int, list[SeatInfo]] = {}
    for r in rows:
        if r[0] not in games:
            games[r[0]] = GameRow(
                id=r[0], guild_id=r[1], game=r[2], channel_id=r[3], host_id=r[4],
                status=r[5], rules=json.loads(r[6]), first_dealer=r[7],
                meta=json.loads(r[8]), created_at=r[9], updated_at=r[10],
                finished_at=r[11], seats=(), turn_since=r[17],
            )
            seats[r[0]] = []
        if r[12] is not None:
            seats[r[0]].append(SeatInfo(seat=r[12], user_id=r[13], display_name=r[16],
                                        is_ai=bool(r[14]), ai_level=r[15]))
    return [replace(game, seats=tuple(seats[game_id])) for game_id, game in games.items()]


async def _cancel_game(conn: Connection, game_id: int, now: float) -> bool:
    status, _, _ = await _lock_game(conn, game_id)
    if status != "active":
        return False
    await conn.execute(
        "UPDATE games SET status = 'cancelled', finished_at = $1, updated_at = $1 "
        "WHERE id = $2", now, game_id)
    return True


# -------------------------------------------------------------- hands, actions


async def _append_actions(conn: Connection, game_id: int, hand_index: int, first_seq: int,
                          texts: Sequence[str], now: float) -> None:
    await _lock_active(conn, game_id)
    row = await conn.fetchrow(
        "SELECT EXISTS (SELECT 1 FROM game_hands WHERE game_id = $1 AND hand_index = $2), "
        "(SELECT MAX(seq) FROM game_actions WHERE game_id = $1 AND hand_index = $2)",
        game_id, hand_index)
    has_hand, max_seq = row[0], row[1]
    if not has_hand:
        raise OutOfOrderError(f"game {game_id} has no hand {hand_index}")
    expected = 0 if max_seq is None else max_seq + 1
    if first_seq < expected:
        raise DuplicateActionError(
            f"game {game_id} hand {hand_index} already has action {first_seq}")
    if first_seq != expected:
        raise OutOfOrderError(
            f"game {game_id} hand {hand_index}: next action is {expected}, not {first_seq}")
    if texts:
        await conn.execute(
            "INSERT INTO game_actions (game_id, hand_index, seq, action, created_at) "
            "SELECT $1, $2, $3 + n - 1, a, $5 FROM unnest($4::text[]) WITH ORDINALITY "
            "AS t(a, n)",
            game_id, hand_index, first_seq, list(texts), now)
    await _touch(conn, game_id, now)


async def _add_hand(conn: Connection, game_id: int, hand_index: int, deal: str,
                    now: float) -> None:
    await _lock_active(conn, game_id)
    count = await conn.fetchval("SELECT COUNT(*) FROM game_hands WHERE game_id = $1", game_id)
    if hand_index < count:
        raise DuplicateActionError(f"game {game_id} already has hand {hand_index}")
    if hand_index != count:
        raise OutOfOrderError(f"game {game_id}: next hand is {count}, not {hand_index}")
    await conn.execute(
        "INSERT INTO game_hands (game_id, hand_index, deal, created_at) "
        "VALUES ($1, $2, $3, $4)", game_id, hand_index, deal, now)
    await _touch(conn, game_id, now)


async def _record_action(conn: Connection, game_id: int, hand_index: int, seq: int,
                         texts: Sequence[str], deal: str | None,
                         results: Sequence[ResultRow] | None,
                         posts: Sequence[tuple[str, str]], turn_since: float | None,
                         ratings: RatingUpdate | None, now: float) -> None:
    await _append_actions(conn, game_id, hand_index, seq, texts, now)
    if deal is not None:
        await _add_hand(conn, game_id, hand_index + 1, deal, now)
    if results is not None:
        await _finish_game(conn, game_id, results, now)
    await _add_posts(conn, game_id, posts, now)
    if turn_since is not None:
        await _set_turn_since(conn, game_id, turn_since)
    if ratings is not None:
        await _write_ratings(conn, ratings)


async def _set_turn_since(conn: Connection, game_id: int, since: float) -> None:
    status = await conn.execute("UPDATE games SET turn_since = $1 WHERE id = $2",
                                since, game_id)
    if _rowcount(status) == 0:
        raise GameNotFoundError(f"no game {game_id}")


async def _action_count(conn: Connection, game_id: int, hand_index: int) -> int:
    return int(await conn.fetchval(
        "SELECT COUNT(*) FROM game_actions WHERE game_id = $1 AND hand_index = $2",
        game_id, hand_index))


async def _load_record(conn: Connection, game_id: int) -> dict[str, Any]:
    """The record, read in ONE statement (one snapshot): the game's row, then its
    hands, then their actions in order."""
    rows = await conn.fetch(
        "SELECT 0 AS part, NULL::bigint AS hand_index, NULL::bigint AS seq, rules AS body, "
        "first_dealer FROM games WHERE id = $1 "
        "UNION ALL SELECT 1, hand_index, NULL, deal, NULL FROM game_hands WHERE game_id = $1 "
        "UNION ALL SELECT 2, hand_index, seq, action, NULL FROM game_actions "
        "WHERE game_id = $1 ORDER BY part, hand_index, seq",
        game_id)
    if not rows or rows[0][0] != 0:
        raise GameNotFoundError(f"no game {game_id}")
    hands: list[dict[str, Any]] = []
    by_index: dict[int, list[dict[str, Any]]] = {}
    for part, hand_index, _seq, body, _dealer in rows[1:]:
        if part == 1:
            hand: dict[str, Any] = json.loads(body)
            hand["actions"] = by_index[hand_index] = []
            hands.append(hand)
        else:
            by_index[hand_index].append(json.loads(body))
    return {"format": RECORD_FORMAT, "rules": json.loads(rows[0][3]),
            "first_dealer": rows[0][4], "hands": hands}


# ---------------------------------------------------------------------- outbox


async def _add_posts(conn: Connection, game_id: int, posts: Sequence[tuple[str, str]],
                     now: float) -> None:
    if posts:
        await conn.execute(
            "INSERT INTO outbox (game_id, channel_id, kind, params, created_at) "
            "SELECT g.id, g.channel_id, p.kind, p.params, $2 FROM games g, "
            "unnest($3::text[], $4::text[]) WITH ORDINALITY AS p(kind, params, n) "
            "WHERE g.id = $1 ORDER BY p.n",
            game_id, now, [k for k, _ in posts], [p for _, p in posts])


async def _pending_posts(conn: Connection, game_id: int | None) -> list[PostRow]:
    rows = await conn.fetch(
        "SELECT id, game_id, channel_id, kind, params, created_at FROM outbox "
        "WHERE done_at IS NULL AND ($1::bigint IS NULL OR game_id = $1) "
        "ORDER BY game_id, id", game_id)
    return [PostRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]


async def _mark_posted(conn: Connection, post_id: int, message_id: int | None,
                       now: float) -> None:
    await conn.execute("UPDATE outbox SET message_id = $1, done_at = $2 WHERE id = $3",
                       message_id, now, post_id)


# ------------------------------------------------------ results, leaderboards


async def _finish_game(conn: Connection, game_id: int, results: Sequence[ResultRow],
                       now: float) -> None:
    guild_id, game = await _lock_active(conn, game_id)
    await conn.execute(
        "UPDATE games SET status = 'finished', finished_at = $1, updated_at = $1 "
        "WHERE id = $2", now, game_id)
    try:
        await conn.executemany(
            "INSERT INTO results (game_id, guild_id, game, user_id, seat, place, points, "
            "won, stats) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)",
            [(game_id, guild_id, game, r.user_id, r.seat, r.place, r.points, int(r.won),
              dumps(r.stats)) for r in results],
        )
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise StoreError(f"invalid results for game {game_id}: {exc}") from exc
    await _add_to_totals(conn, guild_id, game, results, now)


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


async def _add_to_totals(conn: Connection, guild_id: int, game: str,
                         results: Sequence[ResultRow], now: float) -> None:
    # One row per member per upsert (a member twice in one game is summed first).
    added: dict[int, list[ResultRow]] = {}
    for r in results:
        added.setdefault(r.user_id, []).append(r)
    while added:
        batch = {user: rows.pop() for user, rows in added.items()}
        added = {user: rows for user, rows in added.items() if rows}
        await conn.execute(
            _ADD_TO_TOTALS, guild_id, game, now,
            list(batch), [int(r.won) for r in batch.values()],
            [r.points for r in batch.values()], [dumps(r.stats) for r in batch.values()])


async def _leaderboard(conn: Connection, guild_id: int, game: str, order_by: str,
                       limit: int, offset: int) -> list[LeaderRow]:
    rows = await conn.fetch(
        "SELECT user_id, games, wins, points FROM player_totals "
        f"WHERE guild_id = $1 AND game = $2 ORDER BY {order_by} LIMIT $3 OFFSET $4",
        guild_id, game, limit, offset)
    return [LeaderRow(user_id=r[0], games=r[1], wins=r[2], points=r[3]) for r in rows]


async def _leaderboard_size(conn: Connection, guild_id: int, game: str) -> int:
    return int(await conn.fetchval(
        "SELECT COUNT(*) FROM player_totals WHERE guild_id = $1 AND game = $2",
        guild_id, game))


async def _member_stats(conn: Connection, guild_id: int, game: str,
                        user_id: int) -> MemberStats:
    row = await conn.fetchrow(
        "SELECT games, wins, points, stats FROM player_totals "
        "WHERE guild_id = $1 AND game = $2 AND user_id = $3", guild_id, game, user_id)
    if row is None:
        return MemberStats(guild_id=guild_id, game=game, user_id=user_id)
    return MemberStats(guild_id=guild_id, game=game, user_id=user_id, games=row[0],
                       wins=row[1], points=row[2], stats=json.loads(row[3]))


# ---------------------------------------------------------------------- ratings

_RATING_COLUMNS = "pool, user_id, mu, sigma, ordinal, hands, ranked, updated_at"


def _rating_row(r: Sequence[Any], month: str | None = None) -> RatingRow:
    return RatingRow(pool=r[0], user_id=r[1], mu=r[2], sigma=r[3], ordinal=r[4],
                     hands=r[5], ranked=bool(r[6]), updated_at=r[7], month=month)


async def _rating_state(conn: Connection, game_id: int, guild_id: int, pool: str,
                        month: str, user_ids: list[int]) -> RatingState:
    # One statement, one snapshot: the counts, then the members' rows.
    rows = await conn.fetch(
        f"SELECT 0 AS part, {_RATING_COLUMNS} FROM ratings "
        "WHERE guild_id = $1 AND pool = $2 AND user_id = ANY($3::bigint[]) "
        f"UNION ALL SELECT 1, {_RATING_COLUMNS} FROM rating_seasons "
        "WHERE guild_id = $1 AND pool = $2 AND month = $4 AND user_id = ANY($3::bigint[]) "
        "UNION ALL SELECT 2, '', 0, 0, 0, 0, "
        "COALESCE((SELECT rated FROM rating_games WHERE game_id = $5), 0), 0, 0 "
        "UNION ALL SELECT 3, '', 0, 0, 0, 0, "
        "COALESCE((SELECT matches FROM rating_counts WHERE guild_id = $1), 0), 0, 0",
        guild_id, pool, user_ids, month, game_id)
    parts: dict[int, list[Any]] = {0: [], 1: [], 2: [], 3: []}
    for r in rows:
        parts[r[0]].append(tuple(r)[1:])
    return RatingState(rated=int(parts[2][0][5]), counted=int(parts[3][0][5]),
                       ratings={r[1]: _rating_row(r) for r in parts[0]},
                       seasons={r[1]: _rating_row(r, month) for r in parts[1]})


async def _write_ratings(conn: Connection, update: RatingUpdate) -> None:
    # The guild's count, locked for the rest of the transaction: a second writer waits,
    # then finds the count moved and is refused.
    counted = await conn.fetchval(
        "SELECT matches FROM rating_counts WHERE guild_id = $1 FOR UPDATE", update.guild_id)
    if (counted or 0) != update.counted_before:
        raise StoreError(f"the ratings of guild {update.guild_id} changed meanwhile")
    status = await conn.execute(
        "INSERT INTO rating_counts (guild_id, matches) VALUES ($1, $2) "
        "ON CONFLICT (guild_id) DO UPDATE SET matches = excluded.matches "
        "WHERE rating_counts.matches = $3",
        update.guild_id, update.counted_after, update.counted_before)
    if _rowcount(status) == 0:
        raise StoreError(f"the ratings of guild {update.guild_id} changed meanwhile")
    for game in update.games:
        row = await conn.fetchrow(
            "SELECT rated, log FROM rating_games WHERE game_id = $1 FOR UPDATE",
            game.game_id)
        if (row[0] if row else 0) != game.rated_before:
            raise StoreError(f"the ratings of game {game.game_id} changed meanwhile")
        log = json.loads(row[1]) if row else []
        await conn.execute(
            "INSERT INTO rating_games (game_id, guild_id, pool, rated, log) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO UPDATE SET "
            "pool = excluded.pool, rated = excluded.rated, log = excluded.log",
            game.game_id, update.guild_id, game.pool,
            game.rated_before + len(game.logged), log_json(log, game.logged))
    sets = ("mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
            "hands = excluded.hands, ranked = excluded.ranked, "
            "updated_at = excluded.updated_at")
    if update.ratings:
        await conn.executemany(
            f"INSERT INTO ratings (guild_id, {_RATING_COLUMNS}) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
            f"ON CONFLICT (guild_id, pool, user_id) DO UPDATE SET {sets}",
            [(update.guild_id, r.pool, r.user_id, r.mu, r.sigma, r.ordinal, r.hands,
              int(r.ranked), r.updated_at) for r in update.ratings])
    if update.seasons:
        await conn.executemany(
            f"INSERT INTO rating_seasons (guild_id, month, {_RATING_COLUMNS}) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
            f"ON CONFLICT (guild_id, pool, month, user_id) DO UPDATE SET {sets}",
            [(update.guild_id, r.month, r.pool, r.user_id, r.mu, r.sigma, r.ordinal,
              r.hands, int(r.ranked), r.updated_at) for r in update.seasons])
    if update.days:
        await conn.executemany(
            "INSERT INTO rating_days (guild_id, pool, user_id, day, mu, sigma, ordinal) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7) "
            "ON CONFLICT (guild_id, pool, user_id, day) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, ordinal = excluded.ordinal",
            [(update.guild_id, d.pool, d.user_id, d.day, d.mu, d.sigma, d.ordinal)
             for d in update.days])


async def _rating_board(conn: Connection, guild_id: int, pool: str, month: str | None,
                        limit: int, offset: int) -> list[RatingRow]:
    if month is None:
        rows = await conn.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings "
            "WHERE guild_id = $1 AND pool = $2 AND ranked = 1 "
            "ORDER BY ordinal DESC, user_id LIMIT $3 OFFSET $4",
            guild_id, pool, limit, offset)
    else:
        rows = await conn.fetch(
            f"SELECT {_RATING_COLUMNS} FROM rating_seasons "
            "WHERE guild_id = $1 AND pool = $2 AND month = $5 AND ranked = 1 "
            "ORDER BY ordinal DESC, user_id LIMIT $3 OFFSET $4",
            guild_id, pool, limit, offset, month)
    return [_rating_row(r, month) for r in rows]


async def _rating_board_size(conn: Connection, guild_id: int, pool: str,
                             month: str | None) -> int:
    if month is None:
        return int(await conn.fetchval(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND pool = $2 AND ranked = 1",
            guild_id, pool))
    return int(await conn.fetchval(
        "SELECT COUNT(*) FROM rating_seasons WHERE guild_id = $1 AND pool = $2 "
        "AND month = $3 AND ranked = 1", guild_id, pool, month))


async def _member_rating(conn: Connection, guild_id: int, pool: str, user_id: int,
                         month: str, trend_day: str) -> MemberRating:
    rows = await conn.fetch(
        f"(SELECT 0 AS part, {_RATING_COLUMNS}, NULL AS day FROM ratings "
        "WHERE guild_id = $1 AND pool = $2 AND user_id = $3) "
        f"UNION ALL (SELECT 1, {_RATING_COLUMNS}, NULL FROM rating_seasons "
        "WHERE guild_id = $1 AND pool = $2 AND month = $4 AND user_id = $3) "
        "UNION ALL (SELECT 2, pool, user_id, mu, sigma, ordinal, 0, 0, 0, day "
        "FROM rating_days WHERE guild_id = $1 AND pool = $2 AND user_id = $3 "
        "AND day <= $5 ORDER BY day DESC LIMIT 1)",
        guild_id, pool, user_id, month, trend_day)
    found = {r[0]: tuple(r)[1:] for r in rows}
    before = found.get(2)
    return MemberRating(
        rating=_rating_row(found[0]) if 0 in found else None,
        season=_rating_row(found[1], month) if 1 in found else None,
        before=DayRow(before[0], before[1], before[8], before[2], before[3], before[4])
        if before else None)


async def _rating_logs(conn: Connection) -> dict[int, tuple[str, list[LoggedMatch]]]:
    rows = await conn.fetch("SELECT game_id, pool, log FROM rating_games ORDER BY game_id")
    return {r[0]: (r[1], logged_matches(r[2])) for r in rows}


async def _clear_ratings(conn: Connection) -> None:
    await conn.execute("DELETE FROM ratings; DELETE FROM rating_seasons; "
                       "DELETE FROM rating_days; DELETE FROM rating_games; "
                       "DELETE FROM rating_counts")


async def _guilds(conn: Connection) -> list[int]:
    return [r[0] for r in await conn.fetch(
        "SELECT DISTINCT guild_id FROM games ORDER BY guild_id")]


# -------------------------------------------------------------- guild settings


async def _guild_settings(conn: Connection, guild_id: int, game: str) -> dict[str, Any]:
    text = await conn.fetchval(
        "SELECT settings FROM guild_settings WHERE guild_id = $1 AND game = $2",
        guild_id, game)
    return json.loads(text) if text is not None else {}


async def _set_guild_settings(conn: Connection, guild_id: int, game: str, settings: str,
                              now: float) -> None:
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, game, settings, updated_at) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, game) DO UPDATE SET "
        "settings = excluded.settings, updated_at = excluded.updated_at",
        guild_id, game, settings, now)


async def _guild_language(conn: Connection, guild_id: int) -> str | None:
    return await conn.fetchval(
        "SELECT language FROM guild_prefs WHERE guild_id = $1", guild_id)


async def _set_guild_language(conn: Connection, guild_id: int, language: str | None,
                              now: float) -> None:
    await conn.execute(
        "INSERT INTO guild_prefs (guild_id, language, updated_at) VALUES ($1, $2, $3) "
        "ON CONFLICT (guild_id) DO UPDATE SET "
        "language = excluded.language, updated_at = excluded.updated_at",
        guild_id, language, now)


# ------------------------------------------------------------- member settings


async def _member_settings(conn: Connection, guild_id: int, user_id: int) -> dict[str, Any]:
    text = await conn.fetchval(
        "SELECT settings FROM member_settings WHERE guild_id = $1 AND user_id = $2",
        guild_id, user_id)
    return json.loads(text) if text is not None else {}


async def _set_member_setting(conn: Connection, guild_id: int, user_id: int, key: str,
                              value: str | None, now: float) -> None:
    # One upsert, the key set (or removed) inside it under the row's lock: two processes
    # setting two keys of one member at once both keep theirs.
    if value is None:
        change = "(member_settings.settings::jsonb - $3::text)::text"
        fresh = "'{}'"
    else:
        change = "(member_settings.settings::jsonb || jsonb_build_object($3::text, " \
                 "$4::jsonb))::text"
        fresh = "jsonb_build_object($3::text, $4::jsonb)::text"
    params = (guild_id, user_id, key) if value is None else (guild_id, user_id, key, value)
    now_mark = f"${len(params) + 1}"
    await conn.execute(
        "INSERT INTO member_settings (guild_id, user_id, settings, updated_at) "
        f"VALUES ($1, $2, {fresh}, {now_mark}) ON CONFLICT (guild_id, user_id) DO UPDATE "
        f"SET settings = {change}, updated_at = excluded.updated_at",
        *params, now)


# ------------------------------------------------------------- followed panels


async def _save_panel(conn: Connection, row: tuple[Any, ...]) -> None:
    await conn.execute(
        "INSERT INTO panels (game_id, user_id, application_id, token, language, since) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id, user_id) DO UPDATE SET "
        "application_id = excluded.application_id, token = excluded.token, "
        "language = excluded.language, since = excluded.since", *row)


async def _panels(conn: Connection, after: float) -> list[PanelRow]:
    rows = await conn.fetch(
        "SELECT game_id, user_id, application_id, token, language, since FROM panels "
        "WHERE since > $1 ORDER BY since, game_id, user_id", after)
    return [PanelRow(*r) for r in rows]


async def _delete_panels(conn: Connection, table_id: int, user_id: int | None) -> None:
    if user_id is None:
        await conn.execute("DELETE FROM panels WHERE game_id = $1", table_id)
    else:
        await conn.execute("DELETE FROM panels WHERE game_id = $1 AND user_id = $2",
                           table_id, user_id)


async def _prune_panels(conn: Connection, before: float) -> int:
    return _rowcount(await conn.execute("DELETE FROM panels WHERE since <= $1", before))
