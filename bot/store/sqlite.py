"""The embedded store: SQLite, for a bot that runs as one process.

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
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Generator, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

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
from .values import actions_json as _actions_json
from .values import check_month, check_page, log_json, logged_matches, member_key
from .values import checked_results as _checked_results
from .values import deal_json as _deal_json
from .values import dumps as _dumps

Synchronous = Literal["NORMAL", "FULL", "EXTRA"]
_T = TypeVar("_T")

_GAME_COLUMNS = (
    "id, guild_id, game, channel_id, host_id, status, rules, first_dealer, meta, "
    "created_at, updated_at, finished_at, turn_since"
)
_SEAT_COLUMNS = "game_id, seat, user_id, is_ai, ai_level, display_name"


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


class SqliteStore:
    """The bot's SQLite database. Open with ``await open_store(path)``; see the module
    doc. Implements :class:`bot.store.base.Store`."""

    def __init__(
        self,
        db: sqlite3.Connection,
        thread: _DatabaseThread,
        path: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._db = db
        self._thread = thread  # the only thread that touches _db
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

        Either ``store = await SqliteStore.open(path)`` (then ``await store.close()``)
        or ``async with SqliteStore.open(path) as store:``.

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
    ) -> SqliteStore:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        thread = _DatabaseThread()
        try:
            db = await thread.submit(_connect, path, synchronous, busy_timeout_ms,
                                     autocheckpoint_pages)
        except BaseException:
            thread.stop()
            raise
        store = cls(db, thread, path, clock)
        try:
            await store._call(_migrate_sync)
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
                await self._call(_close_sync)
            finally:
                self._thread.stop()

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
        return await asyncio.to_thread(_checkpoint_sync, self.path)

    async def backup(self, dest: str | Path) -> None:
        """Write a consistent copy of the whole database to the file ``dest`` while
        the store stays open (store calls wait until the copy is done)."""
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        await self._read(_backup_sync, str(dest))

    async def schema_version(self) -> int:
        return await self._read(_user_version)

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
                await self._call(_begin)
                try:
                    yield self
                    # Once asked for, the commit happens even if the caller is
                    # cancelled meanwhile (a call handed off is never dropped).
                    await self._call(_commit)
                except BaseException:
                    await self._call(_rollback)
                    raise
            finally:
                self._tx_task = None

    def _call(self, fn: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        """``fn(connection, *args)`` on the database thread: one hop."""
        return self._thread.submit(fn, self._db, *args)

    async def _write(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(sqlite3_connection, *args)`` on the database thread in ONE hop, as
        its own transaction (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if it raises),
        or, inside this task's ``transaction()`` block, as part of that one (in a
        savepoint: if ``fn`` raises, none of its own writes stay in the block).

        ``fn`` must only run SQL on the connection it is given (no awaiting, no event
        loop objects). If the caller is cancelled meanwhile, ``fn`` and its commit or
        rollback still run to the end on the database thread, before anything else
        queued there."""
        if self._in_this_tx():
            return await self._call(_in_savepoint, fn, *args)
        self._check_open()
        async with self._write_lock:
            self._check_open()
            return await self._call(_in_transaction, fn, *args)

    async def _read(self, fn: Callable[..., _T], *args: Any) -> _T:
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
        row = (guild_id, game, channel_id, host_id, _dumps(rules), first_dealer,
               _dumps(meta or {}))
        return await self._write(_create_game_sync, row, list(seats), self._now())

    async def update_seats(self, game_id: int, seats: Sequence[SeatInfo]) -> None:
        """Replace the game's seats (e.g. a player replaced by an AI)."""
        await self._write(_update_seats_sync, game_id, list(seats), self._now())

    async def set_meta(self, game_id: int, meta: dict[str, Any]) -> None:
        """Replace the game's ``meta`` JSON (lobby info, message ids, timers)."""
        await self._write(_set_meta_sync, game_id, _dumps(meta), self._now())

    async def set_rules(self, game_id: int, rules: dict[str, Any]) -> None:
        """Replace the rules of a game that has not started (its lobby changed them)."""
        await self._write(_set_rules_sync, game_id, _dumps(rules), self._now())

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._read(_games_where, "id = ?", (game_id,))
        return games[0] if games else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        games = await self._read(
            _games_where, "channel_id = ? AND status = 'active'", (channel_id,)
        )
        return games[0] if games else None

    async def unfinished_games(self) -> list[GameRow]:
        """Every active game, oldest first: what to reload after a restart."""
        return await self._read(_games_where, "status = 'active'", ())

    async def active_games_of_user(self, user_id: int) -> list[GameRow]:
        """The active games in which ``user_id`` holds a seat."""
        return await self._read(
            _games_where,
            "status = 'active' AND id IN (SELECT game_id FROM game_seats WHERE user_id = ?)",
            (user_id,),
        )

    async def last_game_in_channel(self, channel_id: int, status: GameStatus
                                   ) -> GameRow | None:
        """The channel's newest game with that status (e.g. its last finished one)."""
        games = await self._read(
            _games_where,
            "id = (SELECT id FROM games WHERE channel_id = ? AND status = ? "
            "ORDER BY id DESC LIMIT 1)",
            (channel_id, status),
        )
        return games[0] if games else None

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
        turn_since: float | None = None,
        ratings: RatingUpdate | None = None,
    ) -> None:
        """Everything one accepted move writes, as ONE atomic commit done in a single
        trip to the database thread: ``append_action(game_id, hand_index, seq,
        action)``, then, if given, ``add_hand(game_id, hand_index + 1, next_deal)``
        (the next hand's deal), then, if ``results`` is not None,
        ``finish_game(game_id, results)``, then the ``posts`` the move obliges the bot
        to make, into the outbox (``pending_posts``), and, if given, ``turn_since``:
        when the next turn began (``set_turn_since``), and, if given, the ``ratings``
        of the matches the move finished (``write_ratings``). Same checks and errors as
        those methods; all or nothing; committed when this returns."""
        actions_json = _actions_json([action])
        deal_json = _deal_json(next_deal) if next_deal is not None else None
        result_rows = _checked_results(results) if results is not None else None
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
            turn_since,
            ratings,
            self._now(),
        )

    async def set_turn_since(self, game_id: int, since: float) -> None:
        """When the turn to play began (epoch seconds by the bot's clock): a turn
        timer runs from it, across restarts (``GameRow.turn_since``)."""
        await self._write(_set_turn_since_sync, game_id, since)

    async def action_count(self, game_id: int, hand_index: int) -> int:
        """How many actions hand ``hand_index`` has (the next ``seq``)."""
        return await self._read(_action_count_sync, game_id, hand_index)

    async def load_record(self, game_id: int) -> dict[str, Any]:
        """The game's record in RECORD_FORMAT.md shape: ``format``, ``rules``,
        ``first_dealer`` and ``hands`` (deal, kitty/blind/removed, ordered actions)."""
        return await self._read(_load_record_sync, game_id)

    # ---------------------------------------------------------------------- outbox

    async def add_posts(self, game_id: int, posts: Sequence[Post]) -> None:
        """Put posts in the outbox of a game, outside a move (in a transaction with the
        change that calls for them)."""
        rows = [(p.kind, _dumps(p.params)) for p in posts]
        await self._write(_add_posts_sync, game_id, rows, self._now())

    async def pending_posts(self, game_id: int | None = None) -> list[PostRow]:
        """Posts not yet marked as posted, oldest first: of one game, or of all
        (after a restart)."""
        return await self._read(_pending_posts_sync, game_id)

    async def mark_posted(self, post_id: int, message_id: int | None) -> None:
        """The post is done: ``message_id`` is the message posted, or None if it could
        not be posted (the channel is gone, the bot may not write there)."""
        await self._write(_mark_posted_sync, post_id, message_id, self._now())

    # -------------------------------------------------------------- end of a game

    async def finish_game(self, game_id: int, results: Sequence[ResultRow]) -> None:
        """Mark the game finished and record one result per seated human, adding them
        (games, wins, points and the stats, counter by counter) to the members'
        totals of the game's guild and kind in the same transaction. Raises
        ``GameNotActiveError`` if the game was already finished or cancelled, so a
        game is never counted twice."""
        await self._write(_finish_game_sync, game_id, _checked_results(results), self._now())

    async def cancel_game(self, game_id: int) -> bool:
        """Cancel an active game (its record is kept, no results). Returns False if
        it was already finished or cancelled."""
        return await self._write(_cancel_game_sync, game_id, self._now())

    # ---------------------------------------------------------- leaderboard, stats

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        order: LeaderOrder = "wins",
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderRow]:
        """A page of the guild's leaderboard of one game kind: by wins (then points),
        or by points (then wins); ties go to the lower user id."""
        check_page(order, limit, offset)
        return await self._read(_leaderboard_sync, guild_id, game, order, limit, offset)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        """How many members of the guild have finished at least one game of the kind."""
        return await self._read(_leaderboard_size_sync, guild_id, game)

    async def member_stats(self, guild_id: int, game: str, user_id: int) -> MemberStats:
        """The member's totals in the guild for one game kind (zeros if none)."""
        return await self._read(_member_stats_sync, guild_id, game, user_id)

    # ------------------------------------------------------------------ ratings

    async def rating_state(self, game_id: int, guild_id: int, pool: str, month: str,
                           user_ids: Sequence[int]) -> RatingState:
        """What rating a game's next matches reads: how many of them are rated, the
        guild's count of rated matches, and the members' ratings in the pool (all time
        and in ``month``)."""
        return await self._read(_rating_state_sync, game_id, guild_id, pool,
                                check_month(month), list(user_ids))

    async def write_ratings(self, update: RatingUpdate) -> None:
        """Write a rating update (``record_action`` writes one with its move): refused
        with ``StoreError`` if the guild's count of rated matches or a game's count is
        not what the update was computed from (another writer came first)."""
        await self._write(_write_ratings_sync, update)

    async def rating_board(self, guild_id: int, pool: str, month: str | None = None,
                           limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """A page of the guild's rating board of ``pool``: all time, or ``month``'s
        season; only members with enough rated matches (``ranked``), by ordinal, ties
        to the lower user id."""
        check_page("wins", limit, offset)
        return await self._read(_rating_board_sync, guild_id, pool, check_month(month),
                                limit, offset)

    async def rating_board_size(self, guild_id: int, pool: str,
                                month: str | None = None) -> int:
        """How many members the rating board has."""
        return await self._read(_rating_board_size_sync, guild_id, pool, check_month(month))

    async def member_rating(self, guild_id: int, pool: str, user_id: int, month: str,
                            trend_day: str) -> MemberRating:
        """A member's rating (all time, ``month``'s season) and their rating at the end
        of the last day on or before ``trend_day`` they were rated on."""
        return await self._read(_member_rating_sync, guild_id, pool, user_id,
                                check_month(month), trend_day)

    async def rating_logs(self) -> dict[int, tuple[str, list[LoggedMatch]]]:
        """Every game's rating log: game id -> (pool, rated matches), for ``rerate``."""
        return await self._read(_rating_logs_sync)

    async def clear_ratings(self) -> None:
        """Delete every rating, season, day, log and count (``rerate`` rebuilds them)."""
        await self._write(_clear_ratings_sync)

    async def games_of_guild(self, guild_id: int) -> list[GameRow]:
        """Every game of a guild, whatever its status, oldest first."""
        return await self._read(_games_where, "guild_id = ?", (guild_id,))

    async def guilds(self) -> list[int]:
        """The guilds that have games."""
        return await self._read(_guilds_sync)

    # ------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int, game: str) -> dict[str, Any]:
        """The guild's settings dict for one game kind; ``{}`` if never set."""
        return await self._read(_guild_settings_sync, guild_id, game)

    async def set_guild_settings(
        self, guild_id: int, game: str, settings: dict[str, Any]
    ) -> None:
        """Replace the guild's settings dict for one game kind."""
        await self._write(_set_guild_settings_sync, guild_id, game, _dumps(settings),
                          self._now())

    async def get_guild_language(self, guild_id: int) -> str | None:
        """The language the guild chose (a code such as ``"nb"``), or None."""
        return await self._read(_guild_language_sync, guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose the guild's language; None forgets the choice."""
        await self._write(_set_guild_language_sync, guild_id, language, self._now())

    # --------------------------------------------------------- member settings

    async def get_member_settings(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """What a member chose for themselves in a server (``{}`` if nothing yet):
        e.g. ``{"turn_pings": "dm"}``."""
        return await self._read(_member_settings_sync, guild_id, user_id)

    async def set_member_setting(self, guild_id: int, user_id: int, key: str,
                                 value: Any) -> None:
        """Set one of a member's settings in a server (a JSON value); None removes it.
        The member's other settings stay as they are (one atomic update)."""
        await self._write(_set_member_setting_sync, guild_id, user_id, member_key(key),
                          _dumps(value) if value is not None else None, self._now())

    # ----------------------------------------------------------- followed panels

    async def save_panel(self, table_id: int, user_id: int, application_id: int,
                         token: str, language: str, since: float) -> None:
        """The hand panel ``user_id`` has open at ``table_id`` is the answer to the
        interaction of ``token`` (made at ``since``, epoch seconds by Discord's
        clock), drawn in ``language``: it replaces the member's previous one there."""
        await self._write(_save_panel_sync,
                          (table_id, user_id, application_id, token, language, since))

    async def panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> list[PanelRow]:
        """The stored panels whose token is younger than ``max_age`` seconds at ``now``
        (epoch seconds by the caller's clock: Discord's), oldest first."""
        return await self._read(_panels_sync, now - max_age)

    async def delete_panel(self, table_id: int, user_id: int) -> None:
        """``user_id``'s panel at ``table_id`` is no longer followed."""
        await self._write(_delete_panels_sync, table_id, user_id)

    async def delete_panels(self, table_id: int) -> None:
        """No panel of ``table_id`` is followed any more (its game is over)."""
        await self._write(_delete_panels_sync, table_id, None)

    async def prune_panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> int:
        """Forget the panels whose token has run out at ``now``; returns how many."""
        return await self._write(_prune_panels_sync, now - max_age)


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


# ----------------------------------------------------- run on the database thread
#
# Each takes the plain sqlite3 connection and runs only on the store's one worker
# thread (through SqliteStore._call), so a whole call costs one hand-off.


def _connect(path: str, synchronous: Synchronous, busy_timeout_ms: int,
             autocheckpoint_pages: int) -> sqlite3.Connection:
    # isolation_level=None: the store issues BEGIN/COMMIT itself. The connection is
    # made here but used only on this same worker thread afterwards.
    db = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000,
                         check_same_thread=False)
    try:
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA synchronous = {synchronous}")
        db.execute(f"PRAGMA wal_autocheckpoint = {int(autocheckpoint_pages)}")
        db.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        db.close()
        raise
    return db


def _close_sync(db: sqlite3.Connection) -> None:
    db.close()


def _checkpoint_sync(path: str) -> tuple[int, int]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        _busy, log_frames, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        conn.close()
    return (int(log_frames), int(done))


def _backup_sync(db: sqlite3.Connection, dest: str) -> None:
    target = sqlite3.connect(dest)
    try:
        db.backup(target)
    finally:
        target.close()


def _user_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _migrate_sync(db: sqlite3.Connection) -> None:
    latest = _migrations.latest_version()
    if _user_version(db) == latest:
        return  # up to date: no write transaction needed
    for version, script in _migrations.MIGRATIONS:
        sql = _migrations.script_for(script, "sqlite")
        # Re-read the version inside the write transaction so two processes opening
        # the same new file cannot both apply a migration.
        _begin(db)
        try:
            current = _user_version(db)
            if current > latest:
                raise StoreError(
                    f"database schema version {current} is newer than this code ({latest})"
                )
            if current < version:
                for statement in split_sql(sql):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {int(version)}")
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise


def _begin(db: sqlite3.Connection) -> None:
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "within a transaction" not in str(exc):
            raise
        # Left open by a rollback that was itself interrupted: nothing in it was
        # ever reported as committed, so drop it and start afresh.
        db.execute("ROLLBACK")
        db.execute("BEGIN IMMEDIATE")


def _commit(db: sqlite3.Connection) -> None:
    db.execute("COMMIT")


def _rollback(db: sqlite3.Connection) -> None:
    with suppress(sqlite3.OperationalError):  # no transaction left to roll back
        db.execute("ROLLBACK")


def _in_transaction(db: sqlite3.Connection, fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(db, *args)`` as one transaction: committed if it returns, rolled back if
    it raises."""
    _begin(db)
    try:
        result = fn(db, *args)
        db.execute("COMMIT")
    except BaseException:
        _rollback(db)
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


# ------------------------------------------------------------------------ games


def _create_game_sync(
    db: sqlite3.Connection, row: tuple[Any, ...], seats: list[SeatInfo], now: float
) -> int:
    try:
        cursor = db.execute(
            "INSERT INTO games (guild_id, game, channel_id, host_id, status, rules, "
            "first_dealer, meta, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)",
            (*row, now, now),
        )
    except sqlite3.IntegrityError as exc:
        if "games.channel_id" in str(exc):
            raise ChannelBusyError(f"channel {row[2]} already has an active game") from exc
        raise
    game_id = cursor.lastrowid
    assert game_id is not None
    _insert_seats(db, game_id, seats)
    return game_id


def _insert_seats(db: sqlite3.Connection, game_id: int, seats: Iterable[SeatInfo]) -> None:
    rows = [(game_id, s.seat, s.user_id, int(s.is_ai), s.ai_level, s.display_name)
            for s in seats]
    try:
        db.executemany(
            f"INSERT INTO game_seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", rows
        )
    except sqlite3.IntegrityError as exc:
        raise StoreError(f"invalid seats for game {game_id}: {exc}") from exc


def _update_seats_sync(
    db: sqlite3.Connection, game_id: int, seats: list[SeatInfo], now: float
) -> None:
    _require_active(db, game_id)
    db.execute("DELETE FROM game_seats WHERE game_id = ?", (game_id,))
    _insert_seats(db, game_id, seats)
    _touch_sync(db, game_id, now)


def _set_meta_sync(db: sqlite3.Connection, game_id: int, meta_json: str, now: float) -> None:
    cursor = db.execute(
        "UPDATE games SET meta = ?, updated_at = ? WHERE id = ?", (meta_json, now, game_id)
    )
    if cursor.rowcount == 0:
        raise GameNotFoundError(f"no game {game_id}")


def _set_rules_sync(db: sqlite3.Connection, game_id: int, rules_json: str, now: float) -> None:
    cursor = db.execute(
        "UPDATE games SET rules = ?, updated_at = ? WHERE id = ? AND status = 'active' "
        "AND NOT EXISTS (SELECT 1 FROM game_hands WHERE game_id = ?)",
        (rules_json, now, game_id, game_id),
    )
    if cursor.rowcount == 0:
        raise GameNotFoundError(f"no game {game_id} in a lobby")


def _require_active(db: sqlite3.Connection, game_id: int) -> None:
    row = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    if row[0] != "active":
        raise GameNotActiveError(f"game {game_id} is {row[0]}")


def _touch_sync(db: sqlite3.Connection, game_id: int, now: float) -> None:
    db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))


def _games_where(db: sqlite3.Connection, where: str, params: tuple[Any, ...]) -> list[GameRow]:
    rows = db.execute(
        f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY id", params
    ).fetchall()
    if not rows:
        return []
    seat_rows = db.execute(
        f"SELECT {_SEAT_COLUMNS} FROM game_seats WHERE game_id IN "
        f"(SELECT id FROM games WHERE {where}) ORDER BY game_id, seat",
        params,
    ).fetchall()
    seats: dict[int, list[SeatInfo]] = {}
    for game_id, seat, user_id, is_ai, ai_level, name in seat_rows:
        seats.setdefault(game_id, []).append(
            SeatInfo(seat=seat, user_id=user_id, display_name=name, is_ai=bool(is_ai),
                     ai_level=ai_level)
        )
    return [
        GameRow(
            id=r[0],
            guild_id=r[1],
            game=r[2],
            channel_id=r[3],
            host_id=r[4],
            status=r[5],
            rules=json.loads(r[6]),
            first_dealer=r[7],
            meta=json.loads(r[8]),
            created_at=r[9],
            updated_at=r[10],
            finished_at=r[11],
            seats=tuple(seats.get(r[0], ())),
            turn_since=r[12],
        )
        for r in rows
    ]


def _cancel_game_sync(db: sqlite3.Connection, game_id: int, now: float) -> bool:
    cursor = db.execute(
        "UPDATE games SET status = 'cancelled', finished_at = ?, updated_at = ? "
        "WHERE id = ? AND status = 'active'",
        (now, now, game_id),
    )
    if cursor.rowcount:
        return True
    if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
        raise GameNotFoundError(f"no game {game_id}")
    return False


# ---------------------------------------------------------------- hands, actions


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


def _record_action_sync(
    db: sqlite3.Connection,
    game_id: int,
    hand_index: int,
    seq: int,
    actions_json: Sequence[str],
    deal_json: str | None,
    results: Sequence[ResultRow] | None,
    posts: Sequence[tuple[str, str]],
    turn_since: float | None,
    ratings: RatingUpdate | None,
    now: float,
) -> None:
    _append_actions_sync(db, game_id, hand_index, seq, actions_json, now)
    if deal_json is not None:
        _add_hand_sync(db, game_id, hand_index + 1, deal_json, now)
    if results is not None:
        _finish_game_sync(db, game_id, results, now)
    _add_posts_sync(db, game_id, posts, now)
    if turn_since is not None:
        _set_turn_since_sync(db, game_id, turn_since)
    if ratings is not None:
        _write_ratings_sync(db, ratings)


def _set_turn_since_sync(db: sqlite3.Connection, game_id: int, since: float) -> None:
    cursor = db.execute("UPDATE games SET turn_since = ? WHERE id = ?", (since, game_id))
    if cursor.rowcount == 0:
        raise GameNotFoundError(f"no game {game_id}")


def _add_posts_sync(
    db: sqlite3.Connection, game_id: int, posts: Sequence[tuple[str, str]], now: float
) -> None:
    if posts:
        db.executemany(
            "INSERT INTO outbox (game_id, channel_id, kind, params, created_at) "
            "SELECT id, channel_id, ?, ?, ? FROM games WHERE id = ?",
            [(kind, params, now, game_id) for kind, params in posts],
        )


def _action_count_sync(db: sqlite3.Connection, game_id: int, hand_index: int) -> int:
    row = db.execute(
        "SELECT COUNT(*) FROM game_actions WHERE game_id = ? AND hand_index = ?",
        (game_id, hand_index),
    ).fetchone()
    return int(row[0])


def _load_record_sync(db: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    game = db.execute(
        "SELECT rules, first_dealer FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if game is None:
        raise GameNotFoundError(f"no game {game_id}")
    hand_rows = db.execute(
        "SELECT hand_index, deal FROM game_hands WHERE game_id = ? ORDER BY hand_index",
        (game_id,),
    ).fetchall()
    action_rows = db.execute(
        "SELECT hand_index, action FROM game_actions WHERE game_id = ? "
        "ORDER BY hand_index, seq",
        (game_id,),
    ).fetchall()
    rules_json, first_dealer = game
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


# ------------------------------------------------------------------------ outbox


def _pending_posts_sync(db: sqlite3.Connection, game_id: int | None) -> list[PostRow]:
    where, params = ("WHERE done_at IS NULL AND game_id = ?", (game_id,)) \
        if game_id is not None else ("WHERE done_at IS NULL", ())
    rows = db.execute(
        "SELECT id, game_id, channel_id, kind, params, created_at FROM outbox "
        f"INDEXED BY outbox_pending {where} ORDER BY game_id, id",
        params,
    ).fetchall()
    return [PostRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]


def _mark_posted_sync(
    db: sqlite3.Connection, post_id: int, message_id: int | None, now: float
) -> None:
    db.execute(
        "UPDATE outbox SET message_id = ?, done_at = ? WHERE id = ?",
        (message_id, now, post_id),
    )


# ------------------------------------------------------- results, leaderboards


def _finish_game_sync(
    db: sqlite3.Connection, game_id: int, results: Sequence[ResultRow], now: float
) -> None:
    row = db.execute(
        "SELECT status, guild_id, game FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    status, guild_id, game = row
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    db.execute(
        "UPDATE games SET status = 'finished', finished_at = ?, updated_at = ? WHERE id = ?",
        (now, now, game_id),
    )
    try:
        db.executemany(
            "INSERT INTO results (game_id, guild_id, game, user_id, seat, place, points, "
            "won, stats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, guild_id, game, r.user_id, r.seat, r.place, r.points, int(r.won),
              _dumps(r.stats)) for r in results],
        )
    except sqlite3.IntegrityError as exc:
        raise StoreError(f"invalid results for game {game_id}: {exc}") from exc
    _add_to_totals(db, guild_id, game, results, now)


def _add_to_totals(
    db: sqlite3.Connection, guild_id: int, game: str, results: Sequence[ResultRow],
    now: float,
) -> None:
    """Add the results to the members' running totals. The stats are JSON, so their
    sum is made here, from the stored totals read in this same transaction."""
    added: dict[int, tuple[int, int, int, dict[str, int]]] = {}
    for r in results:
        games, wins, points, stats = added.get(r.user_id, (0, 0, 0, {}))
        added[r.user_id] = (games + 1, wins + int(r.won), points + r.points,
                            _sum_stats(stats, r.stats))
    if not added:
        return
    marks = ", ".join("?" * len(added))
    stored = dict(db.execute(
        "SELECT user_id, stats FROM player_totals WHERE guild_id = ? AND game = ? "
        f"AND user_id IN ({marks})",
        (guild_id, game, *added),
    ).fetchall())
    # games, wins and points are added by SQL; stats is the whole new sum.
    db.executemany(
        "INSERT INTO player_totals (guild_id, game, user_id, games, wins, points, stats, "
        "last_played_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
        "games = games + excluded.games, wins = wins + excluded.wins, "
        "points = points + excluded.points, stats = excluded.stats, "
        "last_played_at = excluded.last_played_at",
        [(guild_id, game, user_id, games, wins, points,
          _dumps(_sum_stats(json.loads(stored.get(user_id, "{}")), stats)), now)
         for user_id, (games, wins, points, stats) in added.items()],
    )


def _sum_stats(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    total = dict(a)
    for name, value in b.items():
        total[name] = total.get(name, 0) + value
    return total


def _leaderboard_sync(
    db: sqlite3.Connection, guild_id: int, game: str, order: str, limit: int, offset: int
) -> list[LeaderRow]:
    order_by, index = check_page(order, limit, offset), f"player_totals_{order}"
    rows = db.execute(
        f"SELECT user_id, games, wins, points FROM player_totals INDEXED BY {index} "
        f"WHERE guild_id = ? AND game = ? ORDER BY {order_by} LIMIT ? OFFSET ?",
        (guild_id, game, limit, offset),
    ).fetchall()
    return [LeaderRow(user_id=r[0], games=r[1], wins=r[2], points=r[3]) for r in rows]


def _leaderboard_size_sync(db: sqlite3.Connection, guild_id: int, game: str) -> int:
    row = db.execute(
        "SELECT COUNT(*) FROM player_totals WHERE guild_id = ? AND game = ?", (guild_id, game)
    ).fetchone()
    return int(row[0])


def _member_stats_sync(
    db: sqlite3.Connection, guild_id: int, game: str, user_id: int
) -> MemberStats:
    row = db.execute(
        "SELECT games, wins, points, stats FROM player_totals "
        "WHERE guild_id = ? AND game = ? AND user_id = ?",
        (guild_id, game, user_id),
    ).fetchone()
    if row is None:
        return MemberStats(guild_id=guild_id, game=game, user_id=user_id)
    return MemberStats(guild_id=guild_id, game=game, user_id=user_id, games=row[0],
                       wins=row[1], points=row[2], stats=json.loads(row[3]))


# ------------------------------------------------------------------------ ratings

_RATING_COLUMNS = "pool, user_id, mu, sigma, ordinal, hands, ranked, updated_at"


def _rating_row(r: Sequence[Any], month: str | None = None) -> RatingRow:
    return RatingRow(pool=r[0], user_id=r[1], mu=r[2], sigma=r[3], ordinal=r[4],
                     hands=r[5], ranked=bool(r[6]), updated_at=r[7], month=month)


def _rating_state_sync(db: sqlite3.Connection, game_id: int, guild_id: int, pool: str,
                       month: str, user_ids: list[int]) -> RatingState:
    rated = db.execute("SELECT rated FROM rating_games WHERE game_id = ?",
                       (game_id,)).fetchone()
    counted = db.execute("SELECT matches FROM rating_counts WHERE guild_id = ?",
                         (guild_id,)).fetchone()
    marks = ", ".join("?" * len(user_ids))
    ratings = db.execute(
        f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND pool = ? "
        f"AND user_id IN ({marks})", (guild_id, pool, *user_ids)).fetchall()
    seasons = db.execute(
        f"SELECT {_RATING_COLUMNS} FROM rating_seasons WHERE guild_id = ? AND pool = ? "
        f"AND month = ? AND user_id IN ({marks})",
        (guild_id, pool, month, *user_ids)).fetchall()
    return RatingState(rated=rated[0] if rated else 0, counted=counted[0] if counted else 0,
                       ratings={r[1]: _rating_row(r) for r in ratings},
                       seasons={r[1]: _rating_row(r, month) for r in seasons})


def _write_ratings_sync(db: sqlite3.Connection, update: RatingUpdate) -> None:
    row = db.execute("SELECT matches FROM rating_counts WHERE guild_id = ?",
                     (update.guild_id,)).fetchone()
    if (row[0] if row else 0) != update.counted_before:
        raise StoreError(f"the ratings of guild {update.guild_id} changed meanwhile")
    db.execute("INSERT INTO rating_counts (guild_id, matches) VALUES (?, ?) "
               "ON CONFLICT (guild_id) DO UPDATE SET matches = excluded.matches",
               (update.guild_id, update.counted_after))
    for game in update.games:
        row = db.execute("SELECT rated, log FROM rating_games WHERE game_id = ?",
                         (game.game_id,)).fetchone()
        if (row[0] if row else 0) != game.rated_before:
            raise StoreError(f"the ratings of game {game.game_id} changed meanwhile")
        log = json.loads(row[1]) if row else []
        db.execute(
            "INSERT INTO rating_games (game_id, guild_id, pool, rated, log) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "pool = excluded.pool, rated = excluded.rated, log = excluded.log",
            (game.game_id, update.guild_id, game.pool,
             game.rated_before + len(game.logged), log_json(log, game.logged)))
    values = "?, ?, ?, ?, ?, ?, ?, ?, ?"
    db.executemany(
        f"INSERT OR REPLACE INTO ratings (guild_id, {_RATING_COLUMNS}) VALUES ({values})",
        [(update.guild_id, r.pool, r.user_id, r.mu, r.sigma, r.ordinal, r.hands,
          int(r.ranked), r.updated_at) for r in update.ratings])
    db.executemany(
        f"INSERT OR REPLACE INTO rating_seasons (guild_id, month, {_RATING_COLUMNS}) "
        f"VALUES (?, {values})",
        [(update.guild_id, r.month, r.pool, r.user_id, r.mu, r.sigma, r.ordinal, r.hands,
          int(r.ranked), r.updated_at) for r in update.seasons])
    db.executemany(
        "INSERT OR REPLACE INTO rating_days (guild_id, pool, user_id, day, mu, sigma, "
        "ordinal) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(update.guild_id, d.pool, d.user_id, d.day, d.mu, d.sigma, d.ordinal)
         for d in update.days])


def _rating_board_sync(db: sqlite3.Connection, guild_id: int, pool: str,
                       month: str | None, limit: int, offset: int) -> list[RatingRow]:
    if month is None:
        rows = db.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings INDEXED BY ratings_board "
            "WHERE guild_id = ? AND pool = ? AND ranked = 1 "
            "ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, pool, limit, offset)).fetchall()
    else:
        rows = db.execute(
            f"SELECT {_RATING_COLUMNS} FROM rating_seasons INDEXED BY rating_seasons_board "
            "WHERE guild_id = ? AND pool = ? AND month = ? AND ranked = 1 "
            "ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, pool, month, limit, offset)).fetchall()
    return [_rating_row(r, month) for r in rows]


def _rating_board_size_sync(db: sqlite3.Connection, guild_id: int, pool: str,
                            month: str | None) -> int:
    if month is None:
        row = db.execute("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND pool = ? "
                         "AND ranked = 1", (guild_id, pool)).fetchone()
    else:
        row = db.execute("SELECT COUNT(*) FROM rating_seasons WHERE guild_id = ? "
                         "AND pool = ? AND month = ? AND ranked = 1",
                         (guild_id, pool, month)).fetchone()
    return int(row[0])


def _member_rating_sync(db: sqlite3.Connection, guild_id: int, pool: str, user_id: int,
                        month: str, trend_day: str) -> MemberRating:
    rating = db.execute(
        f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND pool = ? "
        "AND user_id = ?", (guild_id, pool, user_id)).fetchone()
    season = db.execute(
        f"SELECT {_RATING_COLUMNS} FROM rating_seasons WHERE guild_id = ? AND pool = ? "
        "AND month = ? AND user_id = ?", (guild_id, pool, month, user_id)).fetchone()
    before = db.execute(
        "SELECT pool, user_id, day, mu, sigma, ordinal FROM rating_days "
        "WHERE guild_id = ? AND pool = ? AND user_id = ? AND day <= ? "
        "ORDER BY day DESC LIMIT 1", (guild_id, pool, user_id, trend_day)).fetchone()
    return MemberRating(rating=_rating_row(rating) if rating else None,
                        season=_rating_row(season, month) if season else None,
                        before=DayRow(*before) if before else None)


def _rating_logs_sync(db: sqlite3.Connection) -> dict[int, tuple[str, list[LoggedMatch]]]:
    rows = db.execute("SELECT game_id, pool, log FROM rating_games ORDER BY game_id")
    return {r[0]: (r[1], logged_matches(r[2])) for r in rows}


def _clear_ratings_sync(db: sqlite3.Connection) -> None:
    for table in ("ratings", "rating_seasons", "rating_days", "rating_games",
                  "rating_counts"):
        db.execute(f"DELETE FROM {table}")


def _guilds_sync(db: sqlite3.Connection) -> list[int]:
    return [r[0] for r in db.execute("SELECT DISTINCT guild_id FROM games ORDER BY guild_id")]


# ---------------------------------------------------------------- guild settings


def _guild_settings_sync(db: sqlite3.Connection, guild_id: int, game: str) -> dict[str, Any]:
    row = db.execute(
        "SELECT settings FROM guild_settings WHERE guild_id = ? AND game = ?", (guild_id, game)
    ).fetchone()
    return json.loads(row[0]) if row else {}


def _set_guild_settings_sync(
    db: sqlite3.Connection, guild_id: int, game: str, settings_json: str, now: float
) -> None:
    db.execute(
        "INSERT INTO guild_settings (guild_id, game, settings, updated_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, game) DO UPDATE SET "
        "settings = excluded.settings, updated_at = excluded.updated_at",
        (guild_id, game, settings_json, now),
    )


def _guild_language_sync(db: sqlite3.Connection, guild_id: int) -> str | None:
    row = db.execute(
        "SELECT language FROM guild_prefs WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    return row[0] if row else None


def _set_guild_language_sync(
    db: sqlite3.Connection, guild_id: int, language: str | None, now: float
) -> None:
    db.execute(
        "INSERT INTO guild_prefs (guild_id, language, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET "
        "language = excluded.language, updated_at = excluded.updated_at",
        (guild_id, language, now),
    )


# --------------------------------------------------------------- member settings


def _member_settings_sync(db: sqlite3.Connection, guild_id: int, user_id: int
                          ) -> dict[str, Any]:
    row = db.execute(
        "SELECT settings FROM member_settings WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    ).fetchone()
    return json.loads(row[0]) if row else {}


def _set_member_setting_sync(db: sqlite3.Connection, guild_id: int, user_id: int,
                             key: str, value_json: str | None, now: float) -> None:
    # The store's one writer thread runs this whole in its transaction.
    settings = _member_settings_sync(db, guild_id, user_id)
    if value_json is None:
        settings.pop(key, None)
    else:
        settings[key] = json.loads(value_json)
    db.execute(
        "INSERT INTO member_settings (guild_id, user_id, settings, updated_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
        "settings = excluded.settings, updated_at = excluded.updated_at",
        (guild_id, user_id, _dumps(settings), now),
    )


# --------------------------------------------------------------- followed panels

_PANEL_COLUMNS = "game_id, user_id, application_id, token, language, since"


def _save_panel_sync(db: sqlite3.Connection, row: tuple[Any, ...]) -> None:
    db.execute(
        f"INSERT INTO panels ({_PANEL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (game_id, user_id) DO UPDATE SET application_id = "
        "excluded.application_id, token = excluded.token, language = excluded.language, "
        "since = excluded.since",
        row,
    )


def _panels_sync(db: sqlite3.Connection, after: float) -> list[PanelRow]:
    rows = db.execute(
        f"SELECT {_PANEL_COLUMNS} FROM panels WHERE since > ? ORDER BY since, game_id, "
        "user_id", (after,),
    ).fetchall()
    return [PanelRow(*r) for r in rows]


def _delete_panels_sync(db: sqlite3.Connection, table_id: int, user_id: int | None
                        ) -> None:
    if user_id is None:
        db.execute("DELETE FROM panels WHERE game_id = ?", (table_id,))
    else:
        db.execute("DELETE FROM panels WHERE game_id = ? AND user_id = ?",
                   (table_id, user_id))


def _prune_panels_sync(db: sqlite3.Connection, before: float) -> int:
    return db.execute("DELETE FROM panels WHERE since <= ?", (before,)).rowcount


class _Opener:
    """What ``open_store`` returns: await it for a store, or use it in ``async with``
    to have the store closed at the end of the block."""

    def __init__(self, opening: Coroutine[Any, Any, SqliteStore]) -> None:
        self._opening = opening
        self._store: SqliteStore | None = None

    def __await__(self) -> Generator[Any, None, SqliteStore]:
        return self._opening.__await__()

    async def __aenter__(self) -> SqliteStore:
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


def _is_a_store(store: SqliteStore) -> Store:
    """Never called: a type checker (mypy) proves here that SqliteStore implements the
    Store protocol, method by method."""
    return store


# Open the store at a path: ``await open_store(p)`` or ``async with open_store(p) as s:``
# (the one backend there is; see ``SqliteStore.open`` for the options).
open_store = SqliteStore.open
