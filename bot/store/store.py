"""Durable storage of games (as game records), results, leaderboards and guild settings.

Durability
----------
Every write method runs as one SQLite transaction that is **committed before the
method returns**, so once ``await store.append_action(...)`` has returned, the action
survives the bot process being killed at any later moment (SIGKILL, OOM, crash).

The database runs in WAL mode with ``synchronous=NORMAL`` by default. With WAL, a
commit is written to the WAL file (in the OS page cache) before it returns, which is
safe against a *process* crash; it is not fsynced on every commit, so an *OS crash or
power loss* may lose the last few commits (never corrupt the file). Pass
``synchronous="FULL"`` to ``Store.open`` to fsync every commit and be safe against
power loss as well, at some cost in write latency.

Concurrency
-----------
One ``Store`` holds one connection (aiosqlite runs it on its own thread). An
``asyncio.Lock`` serialises transactions, so any number of coroutines may call the
store at once. The per-move writes (``append_action(s)``, ``add_hand``,
``finish_game`` and ``record_action``, which does all three as one commit) run their
whole transaction, checks included, in a single hand-off to that thread.
``async with store.transaction():`` groups several write calls into
one atomic commit (for example the last action of a hand and the next hand's deal);
store methods awaited inside the block, in the same task, join that transaction.
Keep such blocks short: other store calls wait for them.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Generator,
    Iterable,
    Sequence,
)
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import aiosqlite

from . import migrations as _migrations
from .models import (
    RECORD_FORMAT,
    ChannelBusyError,
    DuplicateActionError,
    GameNotActiveError,
    GameNotFoundError,
    GameRow,
    GameStatus,
    LeaderOrder,
    LeaderRow,
    MemberStats,
    OutOfOrderError,
    Post,
    PostRow,
    ResultRow,
    SeatInfo,
    StoreError,
)

Synchronous = Literal["NORMAL", "FULL", "EXTRA"]
_T = TypeVar("_T")

_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, rules, first_dealer, meta, "
    "created_at, updated_at, finished_at"
)
_SEAT_COLUMNS = "game_id, seat, user_id, is_ai, ai_level, display_name"
_HAND_EXTRA_KEYS = ("kitty", "blind", "removed")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def split_sql(script: str) -> list[str]:
    """Split an SQL script into complete statements (semicolons in comments or
    strings are handled by SQLite's own tokenizer)."""
    statements: list[str] = []
    start = 0
    for pos, char in enumerate(script):
        if char == ";":
            candidate = script[start : pos + 1]
            if sqlite3.complete_statement(candidate):
                statements.append(candidate.strip())
                start = pos + 1
    if script[start:].strip() and not _only_comments(script[start:]):
        raise ValueError(f"incomplete SQL statement at the end: {script[start:]!r}")
    return statements


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())


class Store:
    """The bot's database. Open with ``await Store.open(path)``; see the module doc."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._conn = conn
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
    ) -> _Opener:
        """Open (creating it and its parent directory if needed) and migrate the
        database at ``path``; ``":memory:"`` gives a private in-memory database.

        Either ``store = await Store.open(path)`` (then ``await store.close()``) or
        ``async with Store.open(path) as store:``.

        SQLite folds the write-ahead log into the database by itself once it holds
        ``autocheckpoint_pages`` pages, inside the commit that crosses the mark. A
        caller that runs ``checkpoint()`` regularly (the bot does) sets it high, so
        that this work stays off the commits.
        """
        if synchronous not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        return _Opener(cls._open(str(path), synchronous, busy_timeout_ms, clock,
                                 autocheckpoint_pages))

    @classmethod
    async def _open(
        cls,
        path: str,
        synchronous: Synchronous,
        busy_timeout_ms: int,
        clock: Callable[[], float],
        autocheckpoint_pages: int,
    ) -> Store:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute(f"PRAGMA wal_autocheckpoint = {int(autocheckpoint_pages)}")
            await conn.execute("PRAGMA foreign_keys = ON")
            store = cls(conn, path, clock)
            await store._migrate()
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (waits for a running transaction to finish)."""
        if self._closed:
            return
        async with self._write_lock:
            self._closed = True
            await self._conn.close()

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
        """Copy the write-ahead log into the main file now. It runs on a connection
        (and thread) of its own, in PASSIVE mode, which blocks neither readers nor
        writers: the players' commits queued on the store's connection go on
        meanwhile instead of waiting behind the copy and its fsync. Returns the frames
        in the log and how many of them are now in the main file."""
        self._check_open()
        if self.path == ":memory:":
            return (0, 0)  # a private in-memory database has no log to fold
        async with aiosqlite.connect(self.path, isolation_level=None) as conn:
            rows = await _fetchall(conn, "PRAGMA wal_checkpoint(PASSIVE)")
        _busy, log_frames, done = rows[0]
        return (int(log_frames), int(done))

    async def backup(self, dest: str | Path) -> None:
        """Write a consistent copy of the whole database to the file ``dest`` while
        the store stays open (store calls wait until the copy is done)."""
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        async with self._read() as conn:
            target = await aiosqlite.connect(str(dest))
            try:
                await conn.backup(target)
            finally:
                await target.close()

    async def schema_version(self) -> int:
        async with self._read() as conn:
            return await _user_version(conn)

    async def _migrate(self) -> None:
        if await _user_version(self._conn) == _migrations.latest_version():
            return  # up to date: no write transaction needed
        for version, script in _migrations.MIGRATIONS:
            # Re-read the version inside the write transaction so two processes
            # opening the same new file cannot both apply a migration.
            await self._begin()
            try:
                current = await _user_version(self._conn)
                if current > _migrations.latest_version():
                    raise StoreError(
                        f"database schema version {current} is newer than this code "
                        f"({_migrations.latest_version()})"
                    )
                if current < version:
                    for statement in split_sql(script):
                        await self._conn.execute(statement)
                    await self._conn.execute(f"PRAGMA user_version = {int(version)}")
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

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
                await self._begin()
                try:
                    yield self
                    # Shielded: once asked for, the commit happens even if the
                    # caller is cancelled meanwhile.
                    await asyncio.shield(self._conn.execute("COMMIT"))
                except BaseException:
                    await self._rollback()
                    raise
            finally:
                self._tx_task = None

    async def _begin(self) -> None:
        try:
            await self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "within a transaction" not in str(exc):
                raise
            # Left open by a rollback that was itself interrupted: nothing in it
            # was ever reported as committed, so drop it and start afresh.
            await self._conn.execute("ROLLBACK")
            await self._conn.execute("BEGIN IMMEDIATE")

    async def _rollback(self) -> None:
        with suppress(sqlite3.OperationalError):  # no transaction left to roll back
            await asyncio.shield(self._conn.execute("ROLLBACK"))

    async def _write(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(sqlite3_connection, *args)`` on the database thread in ONE hop, as
        its own transaction (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if it raises),
        or, inside this task's ``transaction()`` block, as part of that one (in a
        savepoint: if ``fn`` raises, none of its own writes stay in the block).

        ``fn`` must only run SQL on the connection it is given (no awaiting, no event
        loop objects). If the caller is cancelled meanwhile, ``fn`` and its commit or
        rollback still run to the end on the database thread, before anything else
        queued there (as a shielded COMMIT would)."""
        if self._in_this_tx():
            return await self._run_sync(_in_savepoint, fn, *args)
        self._check_open()
        async with self._write_lock:
            self._check_open()
            return await self._run_sync(_in_transaction, fn, *args)

    def _run_sync(self, fn: Callable[..., _T], *args: Any) -> Awaitable[_T]:
        # aiosqlite runs every call of a connection on its one worker thread, in
        # order; _execute(fn, *args) queues fn(*args) there and awaits its result.
        conn = self._conn
        return conn._execute(_with_raw_connection, conn, fn, *args)  # type: ignore[no-any-return]

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """Serialise reads with transactions so a read never sees another task's
        uncommitted writes (inside a transaction, it sees its own)."""
        if self._in_this_tx():
            yield self._conn
            return
        self._check_open()
        async with self._write_lock:
            self._check_open()
            yield self._conn

    def _in_this_tx(self) -> bool:
        return self._tx_task is not None and self._tx_task is asyncio.current_task()

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
    ) -> int:
        """Create an active game and return its id. Raises ``ChannelBusyError`` if
        the channel already has an active game."""
        now = self._now()
        async with self.transaction():
            try:
                cursor = await self._conn.execute(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, rules, "
                    "first_dealer, meta, created_at, updated_at) "
                    "VALUES (?, ?, ?, 'active', ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        _dumps(rules),
                        first_dealer,
                        _dumps(meta or {}),
                        now,
                        now,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                if "games.channel_id" in str(exc):
                    raise ChannelBusyError(
                        f"channel {channel_id} already has an active game"
                    ) from exc
                raise
            game_id = cursor.lastrowid
            assert game_id is not None
            await self._insert_seats(game_id, seats)
        return game_id

    async def _insert_seats(self, game_id: int, seats: Iterable[SeatInfo]) -> None:
        rows = [
            (game_id, s.seat, s.user_id, int(s.is_ai), s.ai_level, s.display_name) for s in seats
        ]
        try:
            await self._conn.executemany(
                f"INSERT INTO game_seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", rows
            )
        except sqlite3.IntegrityError as exc:
            raise StoreError(f"invalid seats for game {game_id}: {exc}") from exc

    async def update_seats(self, game_id: int, seats: Sequence[SeatInfo]) -> None:
        """Replace the game's seats (e.g. a player replaced by an AI)."""
        async with self.transaction():
            await self._require_active(game_id)
            await self._conn.execute("DELETE FROM game_seats WHERE game_id = ?", (game_id,))
            await self._insert_seats(game_id, seats)
            await self._touch(game_id)

    async def set_meta(self, game_id: int, meta: dict[str, Any]) -> None:
        """Replace the game's ``meta`` JSON (lobby info, message ids, timers)."""
        async with self.transaction():
            cursor = await self._conn.execute(
                "UPDATE games SET meta = ?, updated_at = ? WHERE id = ?",
                (_dumps(meta), self._now(), game_id),
            )
            if cursor.rowcount == 0:
                raise GameNotFoundError(f"no game {game_id}")

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._read() as conn:
            games = await self._games_where(conn, "id = ?", (game_id,))
        return games[0] if games else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        async with self._read() as conn:
            games = await self._games_where(
                conn, "channel_id = ? AND status = 'active'", (channel_id,)
            )
        return games[0] if games else None

    async def unfinished_games(self) -> list[GameRow]:
        """Every active game, oldest first: what to reload after a restart."""
        async with self._read() as conn:
            return await self._games_where(conn, "status = 'active'", ())

    async def active_games_of_user(self, user_id: int) -> list[GameRow]:
        """The active games in which ``user_id`` holds a seat."""
        async with self._read() as conn:
            return await self._games_where(
                conn,
                "status = 'active' AND id IN (SELECT game_id FROM game_seats WHERE user_id = ?)",
                (user_id,),
            )

    async def _games_where(
        self, conn: aiosqlite.Connection, where: str, params: tuple[Any, ...]
    ) -> list[GameRow]:
        rows = await _fetchall(
            conn, f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY id", params
        )
        if not rows:
            return []
        seat_rows = await _fetchall(
            conn,
            f"SELECT {_SEAT_COLUMNS} FROM game_seats WHERE game_id IN "
            f"(SELECT id FROM games WHERE {where}) ORDER BY game_id, seat",
            params,
        )
        seats: dict[int, list[SeatInfo]] = {}
        for game_id, seat, user_id, is_ai, ai_level, name in seat_rows:
            seats.setdefault(game_id, []).append(
                SeatInfo(
                    seat=seat,
                    user_id=user_id,
                    display_name=name,
                    is_ai=bool(is_ai),
                    ai_level=ai_level,
                )
            )
        return [
            GameRow(
                id=r[0],
                guild_id=r[1],
                channel_id=r[2],
                host_id=r[3],
                status=r[4],
                rules=json.loads(r[5]),
                first_dealer=r[6],
                meta=json.loads(r[7]),
                created_at=r[8],
                updated_at=r[9],
                finished_at=r[10],
                seats=tuple(seats.get(r[0], ())),
            )
            for r in rows
        ]

    async def _require_active(self, game_id: int) -> None:
        rows = await _fetchall(self._conn, "SELECT status FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFoundError(f"no game {game_id}")
        status: GameStatus = rows[0][0]
        if status != "active":
            raise GameNotActiveError(f"game {game_id} is {status}")

    async def _touch(self, game_id: int) -> None:
        await self._conn.execute(
            "UPDATE games SET updated_at = ? WHERE id = ?", (self._now(), game_id)
        )

    # --------------------------------------------------------------- hands/actions

    async def add_hand(self, game_id: int, hand_index: int, deal: dict[str, Any]) -> None:
        """Store hand ``hand_index``'s deal: the record's hand object without
        ``actions`` (``{"deal": [...], "kitty": [...]}``, or ``blind``/``removed``).
        Hands must be added in order 0, 1, 2...; the game must be active."""
        deal_json = _deal_json(deal)
        await self._write(_add_hand_sync, game_id, hand_index, deal_json, self._now())

    async def append_action(
        self, game_id: int, hand_index: int, seq: int, action: dict[str, Any]
    ) -> None:
        """Append one action (exactly the record's action object) as number ``seq``
        of hand ``hand_index``. ``seq`` must be the next one (0, 1, 2...); a repeated
        ``seq`` raises ``DuplicateActionError``. Committed when this returns."""
        await self.append_actions(game_id, hand_index, seq, [action])

    async def append_actions(
        self,
        game_id: int,
        hand_index: int,
        first_seq: int,
        actions: Sequence[dict[str, Any]],
    ) -> None:
        """Append ``actions`` as numbers ``first_seq, first_seq + 1, ...`` of hand
        ``hand_index`` in one transaction (all or none)."""
        actions_json = _actions_json(actions)
        await self._write(
            _append_actions_sync, game_id, hand_index, first_seq, actions_json, self._now()
        )

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
    ) -> None:
        """Everything one accepted move writes, as ONE atomic commit done in a single
        trip to the database thread: ``append_action(game_id, hand_index, seq,
        action)``, then, if given, ``add_hand(game_id, hand_index + 1, next_deal)``
        (the next hand's deal), then, if ``results`` is not None,
        ``finish_game(game_id, results)``, then the ``posts`` the move obliges the bot
        to make, into the outbox (``pending_posts``). Same checks and errors as those
        methods; all or nothing; committed when this returns."""
        actions_json = _actions_json([action])
        deal_json = _deal_json(next_deal) if next_deal is not None else None
        result_rows = list(results) if results is not None else None
        post_rows = [(p.kind, _dumps(p.params)) for p in posts]
        await self._write(
            _record_action_sync,
            game_id,
            hand_index,
            seq,
            actions_json,
            deal_json,
            result_rows,
            post_rows,
            self._now(),
        )

    # ---------------------------------------------------------------------- outbox

    async def pending_posts(self, game_id: int | None = None) -> list[PostRow]:
        """Posts not yet marked as posted, oldest first: of one game, or of all
        (after a restart)."""
        where, params = ("WHERE done_at IS NULL AND game_id = ?", (game_id,)) \
            if game_id is not None else ("WHERE done_at IS NULL", ())
        async with self._read() as conn:
            rows = await _fetchall(
                conn,
                "SELECT id, game_id, channel_id, kind, params, created_at FROM outbox "
                f"INDEXED BY outbox_pending {where} ORDER BY game_id, id",
                params,
            )
        return [PostRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    async def mark_posted(self, post_id: int, message_id: int | None) -> None:
        """The post is done: ``message_id`` is the message posted, or None if it could
        not be posted (the channel is gone, the bot may not write there)."""
        async with self.transaction():
            await self._conn.execute(
                "UPDATE outbox SET message_id = ?, done_at = ? WHERE id = ?",
                (message_id, self._now(), post_id),
            )

    async def last_game_in_channel(self, channel_id: int, status: GameStatus
                                   ) -> GameRow | None:
        """The channel's newest game with that status (e.g. its last finished one)."""
        async with self._read() as conn:
            rows = await _fetchall(
                conn,
                "SELECT id FROM games WHERE channel_id = ? AND status = ? "
                "ORDER BY id DESC LIMIT 1",
                (channel_id, status),
            )
            if not rows:
                return None
            games = await self._games_where(conn, "id = ?", (rows[0][0],))
        return games[0] if games else None

    async def load_record(self, game_id: int) -> dict[str, Any]:
        """The game's record in RECORD_FORMAT.md shape: ``format``, ``rules``,
        ``first_dealer`` and ``hands`` (deal, kitty/blind/removed, ordered actions)."""
        async with self._read() as conn:
            game = await _fetchall(
                conn, "SELECT rules, first_dealer FROM games WHERE id = ?", (game_id,)
            )
            if not game:
                raise GameNotFoundError(f"no game {game_id}")
            hand_rows = await _fetchall(
                conn,
                "SELECT hand_index, deal FROM game_hands WHERE game_id = ? ORDER BY hand_index",
                (game_id,),
            )
            action_rows = await _fetchall(
                conn,
                "SELECT hand_index, action FROM game_actions WHERE game_id = ? "
                "ORDER BY hand_index, seq",
                (game_id,),
            )
        rules_json, first_dealer = game[0]
        hands: list[dict[str, Any]] = []
        by_index: dict[int, list[dict[str, Any]]] = {}
        for hand_index, deal_json in hand_rows:
            hand: dict[str, Any] = json.loads(deal_json)
            actions: list[dict[str, Any]] = []
            hand["actions"] = actions
            by_index[hand_index] = actions
            hands.append(hand)
        for hand_index, action_json in action_rows:
            by_index[hand_index].append(json.loads(action_json))
        return {
            "format": RECORD_FORMAT,
            "rules": json.loads(rules_json),
            "first_dealer": first_dealer,
            "hands": hands,
        }

    async def action_count(self, game_id: int, hand_index: int) -> int:
        """How many actions hand ``hand_index`` has (the next ``seq``)."""
        async with self._read() as conn:
            rows = await _fetchall(
                conn,
                "SELECT COUNT(*) FROM game_actions WHERE game_id = ? AND hand_index = ?",
                (game_id, hand_index),
            )
        return int(rows[0][0])

    # -------------------------------------------------------------- end of a game

    async def finish_game(self, game_id: int, results: Sequence[ResultRow]) -> None:
        """Mark the game finished and record one result per seated human, updating
        the guild's ``player_totals`` in the same transaction. Raises
        ``GameNotActiveError`` if the game was already finished or cancelled, so a
        game is never counted twice."""
        await self._write(_finish_game_sync, game_id, list(results), self._now())

    async def cancel_game(self, game_id: int) -> bool:
        """Cancel an active game (its record is kept, no results). Returns False if
        it was already finished or cancelled."""
        async with self.transaction():
            now = self._now()
            cursor = await self._conn.execute(
                "UPDATE games SET status = 'cancelled', finished_at = ?, updated_at = ? "
                "WHERE id = ? AND status = 'active'",
                (now, now, game_id),
            )
            if cursor.rowcount:
                return True
            exists = await _fetchall(self._conn, "SELECT 1 FROM games WHERE id = ?", (game_id,))
            if not exists:
                raise GameNotFoundError(f"no game {game_id}")
            return False

    # ---------------------------------------------------------- leaderboard, stats

    async def leaderboard(
        self,
        guild_id: int,
        order: LeaderOrder = "wins",
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderRow]:
        """A page of the guild's leaderboard: by wins (then points), or by points
        (then wins); ties go to the lower user id."""
        if order == "wins":
            order_by = "wins DESC, points DESC, user_id"
            index = "player_totals_wins"
        elif order == "points":
            order_by = "points DESC, wins DESC, user_id"
            index = "player_totals_points"
        else:
            raise ValueError(f"unknown leaderboard order {order!r}")
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must not be negative")
        async with self._read() as conn:
            rows = await _fetchall(
                conn,
                f"SELECT user_id, games, wins, points FROM player_totals "
                f"INDEXED BY {index} WHERE guild_id = ? "
                f"ORDER BY {order_by} LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
        return [LeaderRow(user_id=r[0], games=r[1], wins=r[2], points=r[3]) for r in rows]

    async def leaderboard_size(self, guild_id: int) -> int:
        """How many members of the guild have finished at least one game."""
        async with self._read() as conn:
            rows = await _fetchall(
                conn, "SELECT COUNT(*) FROM player_totals WHERE guild_id = ?", (guild_id,)
            )
        return int(rows[0][0])

    async def member_stats(self, guild_id: int, user_id: int) -> MemberStats:
        async with self._read() as conn:
            rows = await _fetchall(
                conn,
                "SELECT games, wins, points, contracts_made, contracts_failed, "
                "top_bids_made, hands_played FROM player_totals "
                "WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
        if not rows:
            return MemberStats(guild_id=guild_id, user_id=user_id)
        r = rows[0]
        return MemberStats(
            guild_id=guild_id,
            user_id=user_id,
            games=r[0],
            wins=r[1],
            points=r[2],
            contracts_made=r[3],
            contracts_failed=r[4],
            top_bids_made=r[5],
            hands_played=r[6],
        )

    # ------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The guild's settings dict; ``{}`` if never set."""
        async with self._read() as conn:
            rows = await _fetchall(
                conn, "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        return json.loads(rows[0][0]) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """Replace the guild's settings dict."""
        async with self.transaction():
            await self._conn.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) "
                "VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, _dumps(settings), self._now()),
            )


# ------------------------------------------------- writes run on the database thread
#
# Each takes the plain sqlite3 connection and runs only on aiosqlite's worker thread
# (through Store._write), so a whole write costs one hand-off between threads.


def _with_raw_connection(conn: aiosqlite.Connection, fn: Callable[..., _T], *args: Any) -> _T:
    return fn(conn._conn, *args)


def _in_transaction(db: sqlite3.Connection, fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(db, *args)`` as one transaction: committed if it returns, rolled back if
    it raises."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "within a transaction" not in str(exc):
            raise
        # Left open by a rollback that was itself interrupted: nothing in it was
        # ever reported as committed, so drop it and start afresh.
        db.execute("ROLLBACK")
        db.execute("BEGIN IMMEDIATE")
    try:
        result = fn(db, *args)
        db.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.OperationalError):  # no transaction left to roll back
            db.execute("ROLLBACK")
        raise
    return result


def _in_savepoint(db: sqlite3.Connection, fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(db, *args)`` inside the open transaction, all or nothing."""
    db.execute("SAVEPOINT store_write")
    try:
        result = fn(db, *args)
    except BaseException:
        with suppress(sqlite3.OperationalError):
            db.execute("ROLLBACK TO store_write")
            db.execute("RELEASE store_write")
        raise
    db.execute("RELEASE store_write")
    return result


def _deal_json(deal: dict[str, Any]) -> str:
    if not isinstance(deal, dict) or "deal" not in deal:
        raise ValueError('a hand needs a "deal"')
    if "actions" in deal:
        raise ValueError('add_hand takes the deal only; append "actions" separately')
    return _dumps(deal)


def _actions_json(actions: Sequence[dict[str, Any]]) -> list[str]:
    for action in actions:
        if not isinstance(action, dict):
            raise ValueError(f"an action must be a dict, not {type(action).__name__}")
    return [_dumps(action) for action in actions]


def _append_actions_sync(
    db: sqlite3.Connection,
    game_id: int,
    hand_index: int,
    first_seq: int,
    actions_json: Sequence[str],
    now: float,
) -> None:
    # One indexed lookup checks the game is active, the hand exists and the order.
    row = db.execute(
        "SELECT status, "
        "       (SELECT COUNT(*) FROM game_hands WHERE game_id = ?1 AND hand_index = ?2), "
        "       (SELECT MAX(seq) FROM game_actions WHERE game_id = ?1 AND hand_index = ?2) "
        "FROM games WHERE id = ?1",
        (game_id, hand_index),
    ).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    status, has_hand, max_seq = row
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    if not has_hand:
        raise OutOfOrderError(f"game {game_id} has no hand {hand_index}")
    expected = 0 if max_seq is None else max_seq + 1
    if first_seq < expected:
        raise DuplicateActionError(
            f"game {game_id} hand {hand_index} already has action {first_seq}"
        )
    if first_seq != expected:
        raise OutOfOrderError(
            f"game {game_id} hand {hand_index}: next action is {expected}, not {first_seq}"
        )
    insert = (
        "INSERT INTO game_actions (game_id, hand_index, seq, action, created_at)"
        " VALUES (?, ?, ?, ?, ?)"
    )
    try:
        if len(actions_json) == 1:
            db.execute(insert, (game_id, hand_index, first_seq, actions_json[0], now))
        else:
            db.executemany(
                insert,
                [
                    (game_id, hand_index, first_seq + i, action, now)
                    for i, action in enumerate(actions_json)
                ],
            )
    except sqlite3.IntegrityError as exc:  # pragma: no cover - checked above
        raise DuplicateActionError(str(exc)) from exc
    _touch_sync(db, game_id, now)


def _add_hand_sync(
    db: sqlite3.Connection, game_id: int, hand_index: int, deal_json: str, now: float
) -> None:
    row = db.execute(
        "SELECT status, (SELECT COUNT(*) FROM game_hands WHERE game_id = ?1) "
        "FROM games WHERE id = ?1",
        (game_id,),
    ).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    status, count = row
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    if hand_index < count:
        raise DuplicateActionError(f"game {game_id} already has hand {hand_index}")
    if hand_index != count:
        raise OutOfOrderError(f"game {game_id}: next hand is {count}, not {hand_index}")
    db.execute(
        "INSERT INTO game_hands (game_id, hand_index, deal, created_at) VALUES (?, ?, ?, ?)",
        (game_id, hand_index, deal_json, now),
    )
    _touch_sync(db, game_id, now)


def _touch_sync(db: sqlite3.Connection, game_id: int, now: float) -> None:
    db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))


def _finish_game_sync(
    db: sqlite3.Connection, game_id: int, results: Sequence[ResultRow], now: float
) -> None:
    row = db.execute("SELECT status, guild_id FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    status, guild_id = row
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    db.execute(
        "UPDATE games SET status = 'finished', finished_at = ?, updated_at = ? WHERE id = ?",
        (now, now, game_id),
    )
    try:
        db.executemany(
            "INSERT INTO results (game_id, guild_id, user_id, seat, points, won, "
            "contracts_made, contracts_failed, top_bids_made, hands_played) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    guild_id,
                    r.user_id,
                    r.seat,
                    r.points,
                    int(r.won),
                    r.contracts_made,
                    r.contracts_failed,
                    r.top_bids_made,
                    r.hands_played,
                )
                for r in results
            ],
        )
    except sqlite3.IntegrityError as exc:
        raise StoreError(f"invalid results for game {game_id}: {exc}") from exc
    db.executemany(
        "INSERT INTO player_totals (guild_id, user_id, games, wins, points, "
        "contracts_made, contracts_failed, top_bids_made, hands_played, "
        "last_played_at) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET "
        "games = games + 1, wins = wins + excluded.wins, "
        "points = points + excluded.points, "
        "contracts_made = contracts_made + excluded.contracts_made, "
        "contracts_failed = contracts_failed + excluded.contracts_failed, "
        "top_bids_made = top_bids_made + excluded.top_bids_made, "
        "hands_played = hands_played + excluded.hands_played, "
        "last_played_at = excluded.last_played_at",
        [
            (
                guild_id,
                r.user_id,
                int(r.won),
                r.points,
                r.contracts_made,
                r.contracts_failed,
                r.top_bids_made,
                r.hands_played,
                now,
            )
            for r in results
        ],
    )


def _record_action_sync(
    db: sqlite3.Connection,
    game_id: int,
    hand_index: int,
    seq: int,
    actions_json: Sequence[str],
    deal_json: str | None,
    results: Sequence[ResultRow] | None,
    posts: Sequence[tuple[str, str]],
    now: float,
) -> None:
    _append_actions_sync(db, game_id, hand_index, seq, actions_json, now)
    if deal_json is not None:
        _add_hand_sync(db, game_id, hand_index + 1, deal_json, now)
    if results is not None:
        _finish_game_sync(db, game_id, results, now)
    if posts:
        db.executemany(
            "INSERT INTO outbox (game_id, channel_id, kind, params, created_at) "
            "SELECT id, channel_id, ?, ?, ? FROM games WHERE id = ?",
            [(kind, params, now, game_id) for kind, params in posts],
        )


async def _fetchall(conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    return list(await conn.execute_fetchall(sql, params))


async def _user_version(conn: aiosqlite.Connection) -> int:
    rows = await _fetchall(conn, "PRAGMA user_version")
    return int(rows[0][0])


class _Opener:
    """What ``Store.open`` returns: await it for a Store, or use it in ``async with``
    to have the Store closed at the end of the block."""

    def __init__(self, opening: Coroutine[Any, Any, Store]) -> None:
        self._opening = opening
        self._store: Store | None = None

    def __await__(self) -> Generator[Any, None, Store]:
        return self._opening.__await__()

    async def __aenter__(self) -> Store:
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
