"""The store's logic, written once for both backends.

Every store method is a *program* here: a generator that yields the statements it
needs (:data:`Op`, made by :func:`stmt`: SQL with ``$1``-style marks and its
arguments) and receives each one's result. A backend only runs programs: SQLite
drives one to its end on its database thread (so a whole method still costs one
hand-off), PostgreSQL awaits each statement on its connection. What differs between
the two is the :class:`Dialect`: SQLite's ``INDEXED BY`` hints, how a list of ids is
passed, and the two upserts that sum JSON (a member's totals, a member's settings).
A statement that locks the rows it reads for its transaction ends ``FOR UPDATE``, in
PostgreSQL's words; SQLite's driver drops it as it translates the text.

The texts of the writes are constants, not built per call: the SQLite driver looks up
its translation of each (made once per text), and a text built anew is hashed anew.

:class:`StoreFront` is the public interface of :class:`bot.store.base.Store`, written
once on top of ``_read``/``_write`` (which each backend supplies with its connection
and transaction handling).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine, Generator, Sequence
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

from .models import (
    PANEL_TOKEN_LIFE,
    ChannelBusyError,
    DailyDay,
    DailyPlay,
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
    ladder_period,
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
_S = TypeVar("_S", bound="StoreFront")


Op = tuple[str, str, Any, bool]
"""One statement of a program: (kind, sql, args, conflict). ``kind``: "all" (the rows),
"one" (the first row or None), "val" (the first row's first value or None), "run" (the
rows changed), "many" (``args`` is a list of argument tuples; None), "new_id" (an
INSERT of one row into a table with an ``id`` column: that row's id; PostgreSQL's
driver asks for it with ``RETURNING id``, SQLite's reads the connection's last row id:
``RETURNING`` costs SQLite about 4 us). ``conflict``: a
constraint violation is thrown into the program as :class:`Conflict` instead of raised.
A plain tuple, made by :func:`stmt`: a move's commit makes a handful."""


def stmt(kind: str, sql: str, args: Any = (), conflict: bool = False) -> Op:
    """A statement of a program (see :data:`Op`)."""
    return (kind, sql, args, conflict)


class Conflict(Exception):
    """A statement broke a constraint (a backend's integrity error, made neutral);
    ``busy_channel``: it was the one active game a channel may have."""

    def __init__(self, message: str, *, busy_channel: bool = False) -> None:
        super().__init__(message)
        self.busy_channel = busy_channel


Program = Generator[Op, Any, _T]


class Dialect:
    """What the front asks of a backend's SQL. This base is the common SQL; the
    backends override the differences."""

    def indexed(self, index: str) -> str:
        """A hint that names the index a statement must use, where the dialect has one."""
        return ""

    def in_ids(self, mark: str) -> str:
        """The condition "is one of the ids passed at ``mark``" (``ids`` gives them)."""
        raise NotImplementedError

    def ids(self, values: Sequence[int]) -> Any:
        raise NotImplementedError

    def add_to_totals(self, guild_id: int, game: str, results: Sequence[ResultRow],
                      now: float) -> Program[None]:
        """Add the results to the members' running totals (the stats summed key by key)."""
        raise NotImplementedError

    def set_member_setting(self, guild_id: int, user_id: int, key: str,
                           value: str | None, now: float) -> Program[None]:
        """Set (value: JSON text) or remove (None) one key of a member's settings."""
        raise NotImplementedError


# ------------------------------------------------------------------------ games

_GAME_COLUMNS = (
    "g.id, g.guild_id, g.game, g.channel_id, g.host_id, g.status, g.rules, "
    "g.first_dealer, g.meta, g.created_at, g.updated_at, g.finished_at, "
    "s.seat, s.user_id, s.is_ai, s.ai_level, s.display_name, g.turn_since"
)


def _create_game(d: Dialect, row: tuple[Any, ...], seats: list[SeatInfo],
                 now: float) -> Program[int]:
    try:
        game_id = yield stmt(
            "new_id",
            "INSERT INTO games (guild_id, game, channel_id, host_id, status, rules, "
            "first_dealer, meta, created_at, updated_at) "
            "VALUES ($1, $2, $3, $4, 'active', $5, $6, $7, $8, $8)",
            (*row, now), conflict=True)
    except Conflict as exc:
        if exc.busy_channel:
            raise ChannelBusyError(f"channel {row[2]} already has an active game") from exc
        raise StoreError(f"invalid game: {exc}") from exc
    yield from _insert_seats(d, game_id, seats)
    return int(game_id)


def _insert_seats(d: Dialect, game_id: int, seats: Sequence[SeatInfo]) -> Program[None]:
    if not seats:
        return
    try:
        yield stmt("many",
                 "INSERT INTO game_seats (game_id, seat, user_id, is_ai, ai_level, "
                 "display_name) VALUES ($1, $2, $3, $4, $5, $6)",
                 [(game_id, s.seat, s.user_id, int(s.is_ai), s.ai_level, s.display_name)
                  for s in seats], conflict=True)
    except Conflict as exc:
        raise StoreError(f"invalid seats for game {game_id}: {exc}") from exc


def _lock_game(d: Dialect, game_id: int) -> Program[tuple[str, int, str]]:
    """The game's (status, guild_id, kind), its row locked for this transaction."""
    row = yield stmt("one", "SELECT status, guild_id, game FROM games WHERE id = $1 FOR UPDATE",
                   (game_id,))
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    return row[0], row[1], row[2]


def _lock_active(d: Dialect, game_id: int) -> Program[tuple[int, str]]:
    status, guild_id, game = yield from _lock_game(d, game_id)
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    return guild_id, game


def _update_seats(d: Dialect, game_id: int, seats: list[SeatInfo],
                  now: float) -> Program[None]:
    yield from _lock_active(d, game_id)
    yield stmt("run", "DELETE FROM game_seats WHERE game_id = $1", (game_id,))
    yield from _insert_seats(d, game_id, seats)
    yield stmt("run", _TOUCH, (now, game_id))


def _set_meta(d: Dialect, game_id: int, meta: str, now: float) -> Program[None]:
    changed = yield stmt("run", "UPDATE games SET meta = $1, updated_at = $2 WHERE id = $3",
                       (meta, now, game_id))
    if changed == 0:
        raise GameNotFoundError(f"no game {game_id}")


def _set_rules(d: Dialect, game_id: int, rules: str, now: float) -> Program[None]:
    changed = yield stmt(
        "run",
        "UPDATE games SET rules = $1, updated_at = $2 WHERE id = $3 AND status = 'active' "
        "AND NOT EXISTS (SELECT 1 FROM game_hands WHERE game_id = $3)",
        (rules, now, game_id))
    if changed == 0:
        raise GameNotFoundError(f"no game {game_id} in a lobby")


_TOUCH = "UPDATE games SET updated_at = $1 WHERE id = $2"  # a game changed (updated_at)


def _games_where(d: Dialect, where: str, *params: Any) -> Program[list[GameRow]]:
    """The games matching ``where`` with their seats, oldest first: one statement, so
    one snapshot."""
    rows = yield stmt("all", f"SELECT {_GAME_COLUMNS} FROM games g LEFT JOIN game_seats s "
                           f"ON s.game_id = g.id WHERE {where} ORDER BY g.id, s.seat",
                    params)
    games: dict[int, dict[str, Any]] = {}
    seats: dict[int, list[SeatInfo]] = {}
    for r in rows:
        if r[0] not in games:
            games[r[0]] = dict(
                id=r[0], guild_id=r[1], game=r[2], channel_id=r[3], host_id=r[4],
                status=r[5], rules=json.loads(r[6]), first_dealer=r[7],
                meta=json.loads(r[8]), created_at=r[9], updated_at=r[10],
                finished_at=r[11], turn_since=r[17])
            seats[r[0]] = []
        if r[12] is not None:
            seats[r[0]].append(SeatInfo(seat=r[12], user_id=r[13], display_name=r[16],
                                        is_ai=bool(r[14]), ai_level=r[15]))
    return [GameRow(**fields, seats=tuple(seats[game_id]))
            for game_id, fields in games.items()]


def _cancel_game(d: Dialect, game_id: int, now: float,
                 posts: Sequence[tuple[str, str]] = ()) -> Program[bool]:
    status, _, _ = yield from _lock_game(d, game_id)
    if status != "active":
        return False
    yield stmt("run", "UPDATE games SET status = 'cancelled', finished_at = $1, "
                    "updated_at = $1 WHERE id = $2", (now, game_id))
    yield from _add_posts(d, game_id, posts, now)  # what the end obliges the bot to post
    return True


# ---------------------------------------------------------------- hands, actions


def _append_actions(d: Dialect, game_id: int, hand_index: int, first_seq: int,
                    texts: Sequence[str], now: float) -> Program[None]:
    # One indexed lookup (the game's row locked) checks the game is active, the hand
    # exists and the order.
    row = yield stmt(
        "one",
        "SELECT status, "
        "EXISTS (SELECT 1 FROM game_hands WHERE game_id = $1 AND hand_index = $2), "
        "(SELECT MAX(seq) FROM game_actions WHERE game_id = $1 AND hand_index = $2) "
        "FROM games WHERE id = $1 FOR UPDATE",
        (game_id, hand_index))
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    status, has_hand, max_seq = row[0], row[1], row[2]
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    if not has_hand:
        raise OutOfOrderError(f"game {game_id} has no hand {hand_index}")
    expected = 0 if max_seq is None else max_seq + 1
    if first_seq < expected:
        raise DuplicateActionError(
            f"game {game_id} hand {hand_index} already has action {first_seq}")
    if first_seq != expected:
        raise OutOfOrderError(
            f"game {game_id} hand {hand_index}: next action is {expected}, not {first_seq}")
    try:
        if len(texts) == 1:  # a move's one action: its row alone, no list to build
            yield stmt("run", _INSERT_ACTION, (game_id, hand_index, first_seq, texts[0], now),
                       True)
        elif texts:
            yield stmt("many", _INSERT_ACTION, [(game_id, hand_index, first_seq + i, text, now)
                                                for i, text in enumerate(texts)], True)
    except Conflict as exc:  # pragma: no cover - checked above
        raise DuplicateActionError(str(exc)) from exc
    yield stmt("run", _TOUCH, (now, game_id))


_INSERT_ACTION = ("INSERT INTO game_actions (game_id, hand_index, seq, action, created_at) "
                  "VALUES ($1, $2, $3, $4, $5)")


def _add_hand(d: Dialect, game_id: int, hand_index: int, deal: str,
              now: float) -> Program[None]:
    row = yield stmt("one", "SELECT status, (SELECT COUNT(*) FROM game_hands "
                          "WHERE game_id = $1) FROM games WHERE id = $1 FOR UPDATE",
                   (game_id,))
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    status, count = row[0], row[1]
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    if hand_index < count:
        raise DuplicateActionError(f"game {game_id} already has hand {hand_index}")
    if hand_index != count:
        raise OutOfOrderError(f"game {game_id}: next hand is {count}, not {hand_index}")
    yield stmt("run", "INSERT INTO game_hands (game_id, hand_index, deal, created_at) "
                    "VALUES ($1, $2, $3, $4)", (game_id, hand_index, deal, now))
    yield stmt("run", _TOUCH, (now, game_id))


def _record_action(d: Dialect, game_id: int, hand_index: int, seq: int,
                   texts: Sequence[str], deal: str | None,
                   results: Sequence[ResultRow] | None, posts: Sequence[tuple[str, str]],
                   turn_since: float | None, ratings: RatingUpdate | None,
                   now: float) -> Program[None]:
    yield from _append_actions(d, game_id, hand_index, seq, texts, now)
    if deal is not None:
        yield from _add_hand(d, game_id, hand_index + 1, deal, now)
    if results is not None:
        yield from _finish_game(d, game_id, results, now)
    if posts:
        yield from _add_posts(d, game_id, posts, now)
    if turn_since is not None:
        yield from _set_turn_since(d, game_id, turn_since)
    if ratings is not None:
        yield from _write_ratings(d, ratings)


def _set_turn_since(d: Dialect, game_id: int, since: float) -> Program[None]:
    changed = yield stmt("run", "UPDATE games SET turn_since = $1 WHERE id = $2",
                       (since, game_id))
    if changed == 0:
        raise GameNotFoundError(f"no game {game_id}")


def _action_count(d: Dialect, game_id: int, hand_index: int) -> Program[int]:
    count = yield stmt("val", "SELECT COUNT(*) FROM game_actions WHERE game_id = $1 "
                            "AND hand_index = $2", (game_id, hand_index))
    return int(count)


def _load_record(d: Dialect, game_id: int, record_format: str) -> Program[dict[str, Any]]:
    """The record, read in ONE statement (one snapshot): the game's row, then its
    hands, then their actions in order."""
    rows = yield stmt(
        "all",
        "SELECT 0 AS part, CAST(NULL AS BIGINT) AS hand_index, CAST(NULL AS BIGINT) AS seq, "
        "rules AS body, first_dealer FROM games WHERE id = $1 "
        "UNION ALL SELECT 1, hand_index, NULL, deal, NULL FROM game_hands WHERE game_id = $1 "
        "UNION ALL SELECT 2, hand_index, seq, action, NULL FROM game_actions "
        "WHERE game_id = $1 ORDER BY part, hand_index, seq",
        (game_id,))
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
    return {"format": record_format, "rules": json.loads(rows[0][3]),
            "first_dealer": rows[0][4], "hands": hands}


# ------------------------------------------------------------------------ outbox


def _add_posts(d: Dialect, game_id: int, posts: Sequence[tuple[str, str]],
               now: float) -> Program[None]:
    if posts:
        yield stmt("many", "INSERT INTO outbox (game_id, channel_id, kind, params, "
                         "created_at) SELECT id, channel_id, $1, $2, "
                         "CAST($3 AS DOUBLE PRECISION) FROM games WHERE id = $4",
                 [(kind, params, now, game_id) for kind, params in posts])


def _pending_posts(d: Dialect, game_id: int | None) -> Program[list[PostRow]]:
    where, params = ("AND game_id = $1", (game_id,)) if game_id is not None else ("", ())
    rows = yield stmt("all", "SELECT id, game_id, channel_id, kind, params, created_at "
                           f"FROM outbox{d.indexed('outbox_pending')} "
                           f"WHERE done_at IS NULL {where} ORDER BY game_id, id", params)
    return [PostRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]


def _mark_posted(d: Dialect, post_id: int, message_id: int | None,
                 now: float) -> Program[None]:
    yield stmt("run", "UPDATE outbox SET message_id = $1, done_at = $2 WHERE id = $3",
             (message_id, now, post_id))


# ------------------------------------------------------- results, leaderboards


def _finish_game(d: Dialect, game_id: int, results: Sequence[ResultRow],
                 now: float) -> Program[None]:
    guild_id, game = yield from _lock_active(d, game_id)
    yield stmt("run", "UPDATE games SET status = 'finished', finished_at = $1, "
                    "updated_at = $1 WHERE id = $2", (now, game_id))
    if results:
        try:
            yield stmt("many", "INSERT INTO results (game_id, guild_id, game, user_id, seat, "
                             "place, points, won, stats) "
                             "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                     [(game_id, guild_id, game, r.user_id, r.seat, r.place, r.points,
                       int(r.won), dumps(r.stats)) for r in results], conflict=True)
        except Conflict as exc:
            raise StoreError(f"invalid results for game {game_id}: {exc}") from exc
    yield from d.add_to_totals(guild_id, game, results, now)


def sum_stats(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    total = dict(a)
    for name, value in b.items():
        total[name] = total.get(name, 0) + value
    return total


def _leaderboard(d: Dialect, guild_id: int, game: str, order: str, limit: int,
                 offset: int) -> Program[list[LeaderRow]]:
    order_by = check_page(order, limit, offset)
    rows = yield stmt("all", "SELECT user_id, games, wins, points FROM player_totals"
                           f"{d.indexed(f'player_totals_{order}')} WHERE guild_id = $1 "
                           f"AND game = $2 ORDER BY {order_by} LIMIT $3 OFFSET $4",
                    (guild_id, game, limit, offset))
    return [LeaderRow(user_id=r[0], games=r[1], wins=r[2], points=r[3]) for r in rows]


def _leaderboard_size(d: Dialect, guild_id: int, game: str) -> Program[int]:
    count = yield stmt("val", "SELECT COUNT(*) FROM player_totals WHERE guild_id = $1 "
                            "AND game = $2", (guild_id, game))
    return int(count)


def _member_stats(d: Dialect, guild_id: int, game: str,
                  user_id: int) -> Program[MemberStats]:
    row = yield stmt("one", "SELECT games, wins, points, stats FROM player_totals "
                          "WHERE guild_id = $1 AND game = $2 AND user_id = $3",
                   (guild_id, game, user_id))
    if row is None:
        return MemberStats(guild_id=guild_id, game=game, user_id=user_id)
    return MemberStats(guild_id=guild_id, game=game, user_id=user_id, games=row[0],
                       wins=row[1], points=row[2], stats=json.loads(row[3]))


# ------------------------------------------------------------------------ ratings

_RATING_COLUMNS = "pool, user_id, mu, sigma, ordinal, hands, ranked, updated_at"


def _rating_row(r: Sequence[Any], month: str | None = None) -> RatingRow:
    return RatingRow(pool=r[0], user_id=r[1], mu=r[2], sigma=r[3], ordinal=r[4],
                     hands=r[5], ranked=bool(r[6]), updated_at=r[7], month=month)


def _rating_state(d: Dialect, game_id: int, guild_id: int, pool: str, month: str,
                  user_ids: list[int]) -> Program[RatingState]:
    # One statement, one snapshot: the members' rows, then the two counts.
    rows = yield stmt(
        "all",
        f"SELECT 0 AS part, {_RATING_COLUMNS} FROM ratings "
        f"WHERE guild_id = $1 AND pool = $2 AND {d.in_ids('$3')} "
        f"UNION ALL SELECT 1, {_RATING_COLUMNS} FROM rating_seasons "
        f"WHERE guild_id = $1 AND pool = $2 AND month = $4 AND {d.in_ids('$3')} "
        "UNION ALL SELECT 2, '', 0, 0, 0, 0, "
        "COALESCE((SELECT rated FROM rating_games WHERE game_id = $5), 0), 0, 0 "
        "UNION ALL SELECT 3, '', 0, 0, 0, 0, "
        "COALESCE((SELECT matches FROM rating_counts WHERE guild_id = $1), 0), 0, 0",
        (guild_id, pool, d.ids(user_ids), month, game_id))
    parts: dict[int, list[Any]] = {0: [], 1: [], 2: [], 3: []}
    for r in rows:
        parts[r[0]].append(tuple(r)[1:])
    return RatingState(rated=int(parts[2][0][5]), counted=int(parts[3][0][5]),
                       ratings={r[1]: _rating_row(r) for r in parts[0]},
                       seasons={r[1]: _rating_row(r, month) for r in parts[1]})


_RATING_SETS = ("mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
                "hands = excluded.hands, ranked = excluded.ranked, "
                "updated_at = excluded.updated_at")


def _write_ratings(d: Dialect, update: RatingUpdate) -> Program[None]:
    # The guild's count, locked for the rest of the transaction: a second writer waits,
    # then finds the count moved and is refused.
    counted = yield stmt("val", "SELECT matches FROM rating_counts WHERE guild_id = $1 "
                              "FOR UPDATE", (update.guild_id,))
    if (counted or 0) != update.counted_before:
        raise StoreError(f"the ratings of guild {update.guild_id} changed meanwhile")
    changed = yield stmt(
        "run",
        "INSERT INTO rating_counts (guild_id, matches) VALUES ($1, $2) "
        "ON CONFLICT (guild_id) DO UPDATE SET matches = excluded.matches "
        "WHERE rating_counts.matches = $3",
        (update.guild_id, update.counted_after, update.counted_before))
    if changed == 0:
        raise StoreError(f"the ratings of guild {update.guild_id} changed meanwhile")
    for game in update.games:
        row = yield stmt("one", "SELECT rated, log FROM rating_games WHERE game_id = $1 "
                              "FOR UPDATE", (game.game_id,))
        if (row[0] if row else 0) != game.rated_before:
            raise StoreError(f"the ratings of game {game.game_id} changed meanwhile")
        log = json.loads(row[1]) if row else []
        yield stmt("run",
                 "INSERT INTO rating_games (game_id, guild_id, pool, rated, log) "
                 "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO UPDATE SET "
                 "pool = excluded.pool, rated = excluded.rated, log = excluded.log",
                 (game.game_id, update.guild_id, game.pool,
                  game.rated_before + len(game.logged), log_json(log, game.logged)))
    if update.ratings:
        yield stmt("many",
                 f"INSERT INTO ratings (guild_id, {_RATING_COLUMNS}) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                 f"ON CONFLICT (guild_id, pool, user_id) DO UPDATE SET {_RATING_SETS}",
                 [(update.guild_id, r.pool, r.user_id, r.mu, r.sigma, r.ordinal, r.hands,
                   int(r.ranked), r.updated_at) for r in update.ratings])
    if update.seasons:
        yield stmt("many",
                 f"INSERT INTO rating_seasons (guild_id, month, {_RATING_COLUMNS}) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
                 f"ON CONFLICT (guild_id, pool, month, user_id) DO UPDATE SET {_RATING_SETS}",
                 [(update.guild_id, r.month, r.pool, r.user_id, r.mu, r.sigma, r.ordinal,
                   r.hands, int(r.ranked), r.updated_at) for r in update.seasons])
    if update.days:
        yield stmt("many",
                 "INSERT INTO rating_days (guild_id, pool, user_id, day, mu, sigma, ordinal) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7) "
                 "ON CONFLICT (guild_id, pool, user_id, day) DO UPDATE SET "
                 "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal",
                 [(update.guild_id, day.pool, day.user_id, day.day, day.mu, day.sigma, day.ordinal)
                  for day in update.days])


def _rating_board(d: Dialect, guild_id: int, pool: str, month: str | None, limit: int,
                  offset: int) -> Program[list[RatingRow]]:
    if month is None:
        rows = yield stmt("all", f"SELECT {_RATING_COLUMNS} FROM ratings"
                               f"{d.indexed('ratings_board')} "
                               "WHERE guild_id = $1 AND pool = $2 "
                               "ORDER BY ranked DESC, ordinal DESC, user_id "
                               "LIMIT $3 OFFSET $4",
                        (guild_id, pool, limit, offset))
    else:
        rows = yield stmt("all", f"SELECT {_RATING_COLUMNS} FROM rating_seasons"
                               f"{d.indexed('rating_seasons_board')} "
                               "WHERE guild_id = $1 AND pool = $2 AND month = $3 "
                               "ORDER BY ranked DESC, ordinal DESC, user_id "
                               "LIMIT $4 OFFSET $5",
                        (guild_id, pool, month, limit, offset))
    return [_rating_row(r, month) for r in rows]


def _rating_board_size(d: Dialect, guild_id: int, pool: str,
                       month: str | None) -> Program[int]:
    if month is None:
        count = yield stmt("val", "SELECT COUNT(*) FROM ratings WHERE guild_id = $1 "
                                "AND pool = $2", (guild_id, pool))
    else:
        count = yield stmt("val", "SELECT COUNT(*) FROM rating_seasons WHERE guild_id = $1 "
                                "AND pool = $2 AND month = $3",
                         (guild_id, pool, month))
    return int(count)


def _member_rating(d: Dialect, guild_id: int, pool: str, user_id: int, month: str,
                   trend_day: str) -> Program[MemberRating]:
    rows = yield stmt(
        "all",
        f"SELECT 0 AS part, {_RATING_COLUMNS}, NULL AS day FROM ratings "
        "WHERE guild_id = $1 AND pool = $2 AND user_id = $3 "
        f"UNION ALL SELECT 1, {_RATING_COLUMNS}, NULL FROM rating_seasons "
        "WHERE guild_id = $1 AND pool = $2 AND month = $4 AND user_id = $3 "
        "UNION ALL SELECT * FROM (SELECT 2, pool, user_id, mu, sigma, ordinal, 0, 0, 0, "
        "day FROM rating_days WHERE guild_id = $1 AND pool = $2 AND user_id = $3 "
        "AND day <= $5 ORDER BY day DESC LIMIT 1) AS last_day",
        (guild_id, pool, user_id, month, trend_day))
    found = {r[0]: tuple(r)[1:] for r in rows}
    before = found.get(2)
    return MemberRating(
        rating=_rating_row(found[0]) if 0 in found else None,
        season=_rating_row(found[1], month) if 1 in found else None,
        before=DayRow(before[0], before[1], before[8], before[2], before[3], before[4])
        if before else None)


def _rating_logs(d: Dialect) -> Program[dict[int, tuple[str, list[LoggedMatch]]]]:
    rows = yield stmt("all", "SELECT game_id, pool, log FROM rating_games ORDER BY game_id")
    return {r[0]: (r[1], logged_matches(r[2])) for r in rows}


def _clear_ratings(d: Dialect) -> Program[None]:
    for table in ("ratings", "rating_seasons", "rating_days", "rating_games",
                  "rating_counts", "rerate_due"):
        yield stmt("run", f"DELETE FROM {table}")


def _rerate_due(d: Dialect) -> Program[bool]:
    rows = yield stmt("all", "SELECT reason FROM rerate_due")
    return bool(rows)


def _guilds(d: Dialect) -> Program[list[int]]:
    rows = yield stmt("all", "SELECT DISTINCT guild_id FROM games ORDER BY guild_id")
    return [r[0] for r in rows]


# ---------------------------------------------------------------- settings


def _json_value(d: Dialect, sql: str, *params: Any) -> Program[dict[str, Any]]:
    text = yield stmt("val", sql, params)
    return json.loads(text) if text is not None else {}


def _set_guild_settings(d: Dialect, guild_id: int, game: str, settings: str,
                        now: float) -> Program[None]:
    yield stmt("run", "INSERT INTO guild_settings (guild_id, game, settings, updated_at) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, game) DO UPDATE SET "
                    "settings = excluded.settings, updated_at = excluded.updated_at",
             (guild_id, game, settings, now))


def _guild_language(d: Dialect, guild_id: int) -> Program[str | None]:
    language = yield stmt("val", "SELECT language FROM guild_prefs WHERE guild_id = $1",
                        (guild_id,))
    return language  # type: ignore[no-any-return]


def _set_guild_language(d: Dialect, guild_id: int, language: str | None,
                        now: float) -> Program[None]:
    yield stmt("run", "INSERT INTO guild_prefs (guild_id, language, updated_at) "
                    "VALUES ($1, $2, $3) ON CONFLICT (guild_id) DO UPDATE SET "
                    "language = excluded.language, updated_at = excluded.updated_at",
             (guild_id, language, now))


def _set_member_setting(d: Dialect, guild_id: int, user_id: int, key: str,
                        value: str | None, now: float) -> Program[None]:
    yield from d.set_member_setting(guild_id, user_id, key, value, now)


_MEMBER_SETTINGS = "SELECT settings FROM member_settings WHERE guild_id = $1 AND user_id = $2"


# ------------------------------------------------------------------- panels

_PANEL_COLUMNS = "game_id, user_id, application_id, token, language, since"


def _save_panel(d: Dialect, row: tuple[Any, ...]) -> Program[None]:
    yield stmt("run", f"INSERT INTO panels ({_PANEL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) "
                    "ON CONFLICT (game_id, user_id) DO UPDATE SET "
                    "application_id = excluded.application_id, token = excluded.token, "
                    "language = excluded.language, since = excluded.since", row)


def _panels(d: Dialect, after: float) -> Program[list[PanelRow]]:
    rows = yield stmt("all", f"SELECT {_PANEL_COLUMNS} FROM panels WHERE since > $1 "
                           "ORDER BY since, game_id, user_id", (after,))
    return [PanelRow(*r) for r in rows]


def _delete_panels(d: Dialect, table_id: int, user_id: int | None) -> Program[None]:
    if user_id is None:
        yield stmt("run", "DELETE FROM panels WHERE game_id = $1", (table_id,))
    else:
        yield stmt("run", "DELETE FROM panels WHERE game_id = $1 AND user_id = $2",
                 (table_id, user_id))


def _prune_panels(d: Dialect, before: float) -> Program[int]:
    deleted = yield stmt("run", "DELETE FROM panels WHERE since <= $1", (before,))
    return int(deleted)


# ------------------------------------------------------------- the deal of the day
# (bot/tables/daily.py; migration 6.) A member's play is a row of `daily_plays` while it
# runs (its actions so far, written whole at each step: one deal is at most a few hundred
# actions) and, once finished, also a normal finished game record (`games`, its seats,
# hands and actions) whose meta names its day, written in the same transaction as the
# play's result, so that a result never exists without its record nor a record twice. It
# writes no `results` row: the daily is scored against the day's other results, not in
# the members' game totals or ratings.

_PLAY_COLUMNS = ("guild_id, game, day, user_id, display_name, actions, started_at, "
                 "finished_at, score, game_id")
_KEY = "guild_id = $1 AND game = $2 AND day = $3"


def _play(r: Sequence[Any]) -> DailyPlay:
    return DailyPlay(guild_id=r[0], game=r[1], day=r[2], user_id=r[3], display_name=r[4],
                     actions=tuple(json.loads(r[5])), started_at=r[6], finished_at=r[7],
                     score=tuple(json.loads(r[8])) if r[8] is not None else None,
                     game_id=r[9])


def _daily_play(d: Dialect, guild_id: int, game: str, day: str,
               user_id: int) -> Program[DailyPlay | None]:
    row = yield stmt("one", f"SELECT {_PLAY_COLUMNS} FROM daily_plays WHERE {_KEY} "
                          "AND user_id = $4", (guild_id, game, day, user_id))
    return _play(row) if row is not None else None


def _daily_begin(d: Dialect, guild_id: int, game: str, day: str, user_id: int, name: str,
                actions: str, now: float) -> Program[DailyPlay]:
    """The member's play of the day: begun now with `actions` (the AI players' before
    the member's first turn), or the one they already have (one try per day)."""
    yield stmt("run", "INSERT INTO daily_plays (guild_id, game, day, user_id, display_name, "
                    "actions, started_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) "
                    "ON CONFLICT (guild_id, game, day, user_id) DO NOTHING",
             (guild_id, game, day, user_id, name, actions, now))
    play = yield from _daily_play(d, guild_id, game, day, user_id)
    assert play is not None
    return play


def _daily_save(d: Dialect, guild_id: int, game: str, day: str, user_id: int, before: int,
               actions: str, now: float) -> Program[None]:
    """The play's actions, now: refused (StoreError) unless the play is unfinished and
    still has the `before` actions it was read with (two clicks at once: one wins)."""
    row = yield stmt("one", f"SELECT actions, finished_at FROM daily_plays WHERE {_KEY} "
                          "AND user_id = $4 FOR UPDATE", (guild_id, game, day, user_id))
    if row is None or row[1] is not None or len(json.loads(row[0])) != before:
        raise StoreError("the daily play moved on meanwhile")
    yield stmt("run", f"UPDATE daily_plays SET actions = $5, updated_at = $6 WHERE {_KEY} "
                    "AND user_id = $4", (guild_id, game, day, user_id, actions, now))


def _daily_finish(d: Dialect, guild_id: int, game: str, day: str, user_id: int, before: int,
                 channel_id: int, rules: str, first_dealer: int, seats: list[SeatInfo],
                 hands: list[tuple[str, list[str]]], meta: str, actions: str, score: str,
                 now: float) -> Program[int]:
    """The play finished: its game record written (finished) and the result stored, in
    one transaction; returns the record's game id."""
    yield from _daily_save(d, guild_id, game, day, user_id, before, actions, now)
    try:
        game_id = yield stmt(
            "new_id",
            "INSERT INTO games (guild_id, game, channel_id, host_id, status, rules, "
            "first_dealer, meta, created_at, updated_at, finished_at) "
            "VALUES ($1, $2, $3, $4, 'finished', $5, $6, $7, $8, $8, $8)",
            (guild_id, game, channel_id, user_id, rules, first_dealer, meta, now),
            conflict=True)
    except Conflict as exc:
        raise StoreError(f"invalid daily record: {exc}") from exc
    yield from _insert_seats(d, game_id, seats)
    for index, (deal, texts) in enumerate(hands):
        yield stmt("run", "INSERT INTO game_hands (game_id, hand_index, deal, created_at) "
                        "VALUES ($1, $2, $3, $4)", (game_id, index, deal, now))
        if texts:
            yield stmt("many", "INSERT INTO game_actions (game_id, hand_index, seq, action, "
                             "created_at) VALUES ($1, $2, $3, $4, $5)",
                     [(game_id, index, seq, text, now) for seq, text in enumerate(texts)])
    yield stmt("run", f"UPDATE daily_plays SET finished_at = $5, score = $6, game_id = $7 "
                    f"WHERE {_KEY} AND user_id = $4",
             (guild_id, game, day, user_id, now, score, game_id))
    # A day already scored for the ladders (a play begun before the day turned, finished
    # after): its matchpoints leave the ladders, to be computed again when next read.
    yield from _daily_unscore(d, guild_id, game, day)
    return int(game_id)


_LADDER_KEY = "guild_id = $1 AND game = $2 AND period = $3"


def _daily_unscore(d: Dialect, guild_id: int, game: str, day: str) -> Program[None]:
    """A scored day's matchpoints taken back out of its week's and month's ladders."""
    key = (guild_id, game, day)
    if not (yield stmt("run", f"DELETE FROM daily_scored WHERE {_KEY}", key)):
        return
    rows = yield stmt("all", f"SELECT user_id, matchpoints FROM daily_points WHERE {_KEY}",
                    key)
    for kind in ("week", "month"):
        period = ladder_period(kind, day)
        if rows:
            yield stmt("many", "UPDATE daily_ladders SET total = total - $5, days = days - 1 "
                             f"WHERE {_LADDER_KEY} AND user_id = $4",
                     [(guild_id, game, period, r[0], r[1]) for r in rows])
        yield stmt("run", f"DELETE FROM daily_ladders WHERE {_LADDER_KEY} AND days <= 0",
                 (guild_id, game, period))
    yield stmt("run", f"DELETE FROM daily_points WHERE {_KEY}", key)


def _daily_results(d: Dialect, guild_id: int, game: str, first_day: str,
                  last_day: str) -> Program[list[tuple[str, int, str, tuple[int, ...]]]]:
    """The finished plays of the days from `first_day` to `last_day` (both included):
    (day, member, name, score), by day then member: a range scan of `daily_board`."""
    rows = yield stmt("all", "SELECT day, user_id, display_name, score "
                           f"FROM daily_plays{d.indexed('daily_board')} "
                           "WHERE guild_id = $1 AND game = $2 AND day >= $3 AND day <= $4 "
                           "AND finished_at IS NOT NULL ORDER BY day, user_id",
                    (guild_id, game, first_day, last_day))
    return [(r[0], r[1], r[2], tuple(json.loads(r[3]))) for r in rows]


def _daily_scored(d: Dialect, guild_id: int, game: str, first_day: str,
                  last_day: str) -> Program[set[str]]:
    rows = yield stmt("all", "SELECT day FROM daily_scored WHERE guild_id = $1 AND game = $2 "
                           "AND day >= $3 AND day <= $4", (guild_id, game, first_day, last_day))
    return {r[0] for r in rows}


def _daily_score_day(d: Dialect, guild_id: int, game: str, day: str,
                     points: list[tuple[int, str, float]]) -> Program[None]:
    """A day that is over scored once: its matchpoints stored, and added to its week's
    and month's ladders (one row per member and period), in one transaction."""
    added = yield stmt("run", "INSERT INTO daily_scored (guild_id, game, day) "
                            "VALUES ($1, $2, $3) ON CONFLICT (guild_id, game, day) DO NOTHING",
                     (guild_id, game, day))
    if not added or not points:
        return  # another process scored it meanwhile (or nobody finished it)
    yield stmt("many", "INSERT INTO daily_points (guild_id, game, day, user_id, "
                     "display_name, matchpoints) VALUES ($1, $2, $3, $4, $5, $6)",
             [(guild_id, game, day, u, name, mp) for u, name, mp in points])
    for kind in ("week", "month"):
        period = ladder_period(kind, day)
        yield stmt("many", "INSERT INTO daily_ladders (guild_id, game, period, user_id, "
                         "display_name, total, days) VALUES ($1, $2, $3, $4, $5, $6, 1) "
                         "ON CONFLICT (guild_id, game, period, user_id) DO UPDATE SET "
                         "total = daily_ladders.total + excluded.total, "
                         "days = daily_ladders.days + 1, "
                         "display_name = excluded.display_name",
                 [(guild_id, game, period, u, name, mp) for u, name, mp in points])


def _daily_ladder(d: Dialect, guild_id: int, game: str, period: str, first_day: str,
                  last_day: str, min_days: int
                  ) -> Program[tuple[set[str], list[tuple[int, str, float, int]]]]:
    """A ladder's members with at least `min_days` days (one primary-key range), and
    which of its days from `first_day` to `last_day` are scored, in one read."""
    days = yield from _daily_scored(d, guild_id, game, first_day, last_day)
    rows = yield stmt("all", "SELECT user_id, display_name, total, days FROM daily_ladders "
                           f"WHERE {_LADDER_KEY} AND days >= $4",
                    (guild_id, game, period, min_days))
    return days, [(r[0], r[1], float(r[2]), int(r[3])) for r in rows]


def _daily_started(d: Dialect, guild_id: int, game: str, day: str) -> Program[int]:
    """How many members began the day's deal (finished or not)."""
    count = yield stmt("val", f"SELECT COUNT(*) FROM daily_plays WHERE {_KEY}",
                     (guild_id, game, day))
    return int(count)


def _daily_day(d: Dialect, guild_id: int, game: str, day: str) -> Program[DailyDay | None]:
    row = yield stmt("one", f"SELECT channel_id, message_id, shown FROM daily_days "
                          f"WHERE {_KEY}", (guild_id, game, day))
    return DailyDay(row[0], row[1], row[2]) if row is not None else None


def _set_daily_day(d: Dialect, guild_id: int, game: str, day: str, channel_id: int,
                  message_id: int | None, shown: str) -> Program[None]:
    yield stmt("run", "INSERT INTO daily_days (guild_id, game, day, channel_id, message_id, "
                    "shown) VALUES ($1, $2, $3, $4, $5, $6) "
                    "ON CONFLICT (guild_id, game, day) DO UPDATE SET "
                    "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                    "shown = excluded.shown",
             (guild_id, game, day, channel_id, message_id, shown))


def _bot_value(d: Dialect, name: str, fresh: str) -> Program[str]:
    """The bot's value `name`, set to `fresh` if it has none yet (the first writer's
    stays: several processes on one database agree on it)."""
    yield stmt("run", "INSERT INTO bot_values (name, value) VALUES ($1, $2) "
                    "ON CONFLICT (name) DO NOTHING", (name, fresh))
    value = yield stmt("val", "SELECT value FROM bot_values WHERE name = $1", (name,))
    return str(value)


# ------------------------------------------------------------------ the front


class StoreFront:
    """The store's public methods (:class:`bot.store.base.Store`), written once. A
    backend subclasses it and supplies ``_read(program, *args)`` and
    ``_write(program, *args)``: run ``program(dialect, *args)``, as a read or as one
    transaction (joining the task's ``transaction()`` block if it has one)."""

    _clock: Callable[[], float]

    async def _read(self, program: Callable[..., Program[_T]], *args: Any) -> _T:
        raise NotImplementedError

    async def _write(self, program: Callable[..., Program[_T]], *args: Any) -> _T:
        raise NotImplementedError

    def _now(self) -> float:
        return float(self._clock())

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

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
        game: str,
    ) -> int:
        """Create an active game of kind ``game`` and return its id. Raises
        ``ChannelBusyError`` if the channel already has an active game."""
        row = (guild_id, game, channel_id, host_id, dumps(rules), first_dealer,
               dumps(meta or {}))
        return await self._write(_create_game, row, list(seats), self._now())

    async def update_seats(self, game_id: int, seats: Sequence[SeatInfo]) -> None:
        """Replace the game's seats (e.g. a player replaced by an AI)."""
        await self._write(_update_seats, game_id, list(seats), self._now())

    async def set_meta(self, game_id: int, meta: dict[str, Any]) -> None:
        """Replace the game's ``meta`` JSON (lobby info, message ids, timers)."""
        await self._write(_set_meta, game_id, dumps(meta), self._now())

    async def set_rules(self, game_id: int, rules: dict[str, Any]) -> None:
        """Replace the rules of a game that has not started (its lobby changed them)."""
        await self._write(_set_rules, game_id, dumps(rules), self._now())

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._read(_games_where, "g.id = $1", game_id)
        return games[0] if games else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        games = await self._read(_games_where, "g.channel_id = $1 AND g.status = 'active'",
                                 channel_id)
        return games[0] if games else None

    async def unfinished_games(self) -> list[GameRow]:
        """Every active game, oldest first: what to reload after a restart."""
        return await self._read(_games_where, "g.status = 'active'")

    async def active_games_of_user(self, user_id: int) -> list[GameRow]:
        """The active games in which ``user_id`` holds a seat."""
        return await self._read(
            _games_where,
            "g.status = 'active' AND g.id IN (SELECT game_id FROM game_seats "
            "WHERE user_id = $1)",
            user_id)

    async def last_game_in_channel(self, channel_id: int, status: GameStatus
                                   ) -> GameRow | None:
        """The channel's newest game with that status (e.g. its last finished one)."""
        games = await self._read(
            _games_where,
            "g.id = (SELECT id FROM games WHERE channel_id = $1 AND status = $2 "
            "ORDER BY id DESC LIMIT 1)",
            channel_id, status)
        return games[0] if games else None

    # --------------------------------------------------------------- hands/actions

    async def add_hand(self, game_id: int, hand_index: int, deal: dict[str, Any]) -> None:
        """Store hand ``hand_index``'s deal: the record's hand object without
        ``actions``. Hands must be added in order 0, 1, 2...; the game must be active."""
        await self._write(_add_hand, game_id, hand_index, deal_json(deal), self._now())

    async def append_action(
        self, game_id: int, hand_index: int, seq: int, action: dict[str, Any]
    ) -> None:
        """Append one action (exactly the record's action object) as number ``seq``
        of hand ``hand_index``. ``seq`` must be the next one (0, 1, 2...); a repeated
        ``seq`` raises ``DuplicateActionError``. Committed when this returns."""
        await self.append_actions(game_id, hand_index, seq, [action])

    async def append_actions(
        self, game_id: int, hand_index: int, first_seq: int, actions: Sequence[dict[str, Any]]
    ) -> None:
        """Append ``actions`` as numbers ``first_seq, first_seq + 1, ...`` of hand
        ``hand_index`` in one transaction (all or none)."""
        texts = actions_json(actions)
        await self._write(_append_actions, game_id, hand_index, first_seq, texts,
                          self._now())

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
        """Everything one accepted move writes, as ONE atomic commit:
        ``append_action(game_id, hand_index, seq, action)``, then, if given,
        ``add_hand(game_id, hand_index + 1, next_deal)``, then, if ``results`` is not
        None, ``finish_game(game_id, results)``, then the ``posts`` into the outbox,
        then ``turn_since`` (``set_turn_since``), then the ``ratings`` of the matches
        the move finished (``write_ratings``). Same checks and errors as those methods;
        all or nothing; committed when this returns."""
        texts = actions_json([action])
        deal_text = deal_json(next_deal) if next_deal is not None else None
        result_rows = checked_results(results) if results is not None else None
        post_rows = [(p.kind, dumps(p.params)) for p in posts]
        await self._write(_record_action, game_id, hand_index, seq, texts, deal_text,
                          result_rows, post_rows, turn_since, ratings, self._now())

    async def set_turn_since(self, game_id: int, since: float) -> None:
        """When the turn to play began (epoch seconds by the bot's clock): a turn
        timer runs from it, across restarts (``GameRow.turn_since``)."""
        await self._write(_set_turn_since, game_id, since)

    async def action_count(self, game_id: int, hand_index: int) -> int:
        """How many actions hand ``hand_index`` has (the next ``seq``)."""
        return await self._read(_action_count, game_id, hand_index)

    async def load_record(self, game_id: int, *, record_format: str) -> dict[str, Any]:
        """The game's record: ``format`` (the caller's: the game's own record format),
        ``rules``, ``first_dealer`` and ``hands`` (each deal with its ordered actions)."""
        return await self._read(_load_record, game_id, record_format)

    # ---------------------------------------------------------------------- outbox

    async def add_posts(self, game_id: int, posts: Sequence[Post]) -> None:
        """Put posts in the outbox of a game, outside a move."""
        rows = [(p.kind, dumps(p.params)) for p in posts]
        await self._write(_add_posts, game_id, rows, self._now())

    async def pending_posts(self, game_id: int | None = None) -> list[PostRow]:
        """Posts not yet marked as posted, oldest first: of one game, or of all."""
        return await self._read(_pending_posts, game_id)

    async def mark_posted(self, post_id: int, message_id: int | None) -> None:
        """The post is done: ``message_id`` is the message posted, or None if it could
        not be posted."""
        await self._write(_mark_posted, post_id, message_id, self._now())

    # -------------------------------------------------------------- end of a game

    async def finish_game(self, game_id: int, results: Sequence[ResultRow]) -> None:
        """Mark the game finished and record one result per seated human, adding them
        to the members' totals in the same transaction. ``GameNotActiveError`` if the
        game was already finished or cancelled, so a game is never counted twice."""
        await self._write(_finish_game, game_id, checked_results(results), self._now())

    async def cancel_game(self, game_id: int, posts: Sequence[Post] = ()) -> bool:
        """Cancel an active game (its record is kept, no results), with the `posts` it
        obliges the bot to make, in one transaction. Returns False if it was already
        finished or cancelled."""
        rows = [(p.kind, dumps(p.params)) for p in posts]
        return await self._write(_cancel_game, game_id, self._now(), rows)

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
        return await self._read(_leaderboard, guild_id, game, order, limit, offset)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        """How many members of the guild have finished at least one game of the kind."""
        return await self._read(_leaderboard_size, guild_id, game)

    async def member_stats(self, guild_id: int, game: str, user_id: int) -> MemberStats:
        """The member's totals in the guild for one game kind (zeros if none)."""
        return await self._read(_member_stats, guild_id, game, user_id)

    # ------------------------------------------------------------------ ratings

    async def rating_state(self, game_id: int, guild_id: int, pool: str, month: str,
                           user_ids: Sequence[int]) -> RatingState:
        """What rating a game's next matches reads (see RatingState)."""
        return await self._read(_rating_state, game_id, guild_id, pool, check_month(month),
                                list(user_ids))

    async def write_ratings(self, update: RatingUpdate) -> None:
        """Write a rating update: refused with ``StoreError`` if the guild's or a
        game's count of rated matches is not what the update was computed from."""
        await self._write(_write_ratings, update)

    async def rating_board(self, guild_id: int, pool: str, month: str | None = None,
                           limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """A page of the guild's rating board of ``pool`` (all time, or ``month``'s
        season): every rated member, the settled (``ranked``) first, then the
        provisional, each by ordinal, ties to the lower user id."""
        check_page("wins", limit, offset)
        return await self._read(_rating_board, guild_id, pool, check_month(month), limit,
                                offset)

    async def rating_board_size(self, guild_id: int, pool: str,
                                month: str | None = None) -> int:
        """How many members the rating board has."""
        return await self._read(_rating_board_size, guild_id, pool, check_month(month))

    async def member_rating(self, guild_id: int, pool: str, user_id: int, month: str,
                            trend_day: str) -> MemberRating:
        """A member's rating (all time, ``month``'s season) and their rating at the end
        of the last day on or before ``trend_day`` they were rated on."""
        return await self._read(_member_rating, guild_id, pool, user_id,
                                check_month(month), trend_day)

    async def rating_logs(self) -> dict[int, tuple[str, list[LoggedMatch]]]:
        """Every game's rating log: game id -> (pool, rated matches), for ``rerate``."""
        return await self._read(_rating_logs)

    async def clear_ratings(self) -> None:
        """Delete every rating, season, day, log and count (``rerate`` rebuilds them),
        and the migrations' note that a rerate is due."""
        await self._write(_clear_ratings)

    async def rerate_due(self) -> bool:
        """Whether a migration changed how ratings are made, so a rerate is due."""
        return await self._read(_rerate_due)

    async def games_of_guild(self, guild_id: int) -> list[GameRow]:
        """Every game of a guild, whatever its status, oldest first."""
        return await self._read(_games_where, "g.guild_id = $1", guild_id)

    async def guilds(self) -> list[int]:
        """The guilds that have games."""
        return await self._read(_guilds)

    # ------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int, game: str) -> dict[str, Any]:
        """The guild's settings dict for one game kind; ``{}`` if never set."""
        return await self._read(_json_value, "SELECT settings FROM guild_settings "
                                "WHERE guild_id = $1 AND game = $2", guild_id, game)

    async def set_guild_settings(
        self, guild_id: int, game: str, settings: dict[str, Any]
    ) -> None:
        """Replace the guild's settings dict for one game kind."""
        await self._write(_set_guild_settings, guild_id, game, dumps(settings), self._now())

    async def get_guild_language(self, guild_id: int) -> str | None:
        """The language the guild chose (a code such as ``"nb"``), or None."""
        return await self._read(_guild_language, guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose the guild's language; None forgets the choice."""
        await self._write(_set_guild_language, guild_id, language, self._now())

    # --------------------------------------------------------- member settings

    async def get_member_settings(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """What a member chose for themselves in a server (``{}`` if nothing yet)."""
        return await self._read(_json_value, _MEMBER_SETTINGS, guild_id, user_id)

    async def set_member_setting(self, guild_id: int, user_id: int, key: str,
                                 value: Any) -> None:
        """Set one of a member's settings in a server (a JSON value); None removes it.
        The member's other settings stay as they are (one atomic update)."""
        await self._write(_set_member_setting, guild_id, user_id, member_key(key),
                          dumps(value) if value is not None else None, self._now())

    # ----------------------------------------------------------- followed panels

    async def save_panel(self, table_id: int, user_id: int, application_id: int,
                         token: str, language: str, since: float) -> None:
        """The hand panel ``user_id`` has open at ``table_id`` is the answer to the
        interaction of ``token`` (made at ``since``), drawn in ``language``."""
        await self._write(_save_panel,
                          (table_id, user_id, application_id, token, language, since))

    async def panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> list[PanelRow]:
        """The stored panels whose token is younger than ``max_age`` seconds at ``now``,
        oldest first."""
        return await self._read(_panels, now - max_age)

    async def delete_panel(self, table_id: int, user_id: int) -> None:
        """``user_id``'s panel at ``table_id`` is no longer followed."""
        await self._write(_delete_panels, table_id, user_id)

    async def delete_panels(self, table_id: int) -> None:
        """No panel of ``table_id`` is followed any more (its game is over)."""
        await self._write(_delete_panels, table_id, None)

    async def prune_panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> int:
        """Forget the panels whose token has run out at ``now``; returns how many."""
        return await self._write(_prune_panels, now - max_age)


    # ------------------------------------------------------- the deal of the day

    async def daily_play(self, guild_id: int, game: str, day: str,
                         user_id: int) -> DailyPlay | None:
        """A member's play of a day's deal, or None if they have not begun it."""
        return await self._read(_daily_play, guild_id, game, day, user_id)

    async def daily_begin(self, guild_id: int, game: str, day: str, user_id: int,
                          name: str, actions: Sequence[dict[str, Any]]) -> DailyPlay:
        """Begin a member's play of the day with `actions` (the AI players' before the
        member's first turn), or return the one they have: one try per member per day."""
        return await self._write(_daily_begin, guild_id, game, day, user_id, name,
                                 dumps(list(actions)), self._now())

    async def daily_save(self, guild_id: int, game: str, day: str, user_id: int,
                         before: int, actions: Sequence[dict[str, Any]]) -> None:
        """Store the play's actions now; StoreError unless it is unfinished and still
        had `before` actions (a second click at once is refused, not applied twice)."""
        await self._write(_daily_save, guild_id, game, day, user_id, before,
                          dumps(list(actions)), self._now())

    async def daily_finish(self, guild_id: int, game: str, day: str, user_id: int,
                           before: int, actions: Sequence[dict[str, Any]], *,
                           channel_id: int, rules: dict[str, Any], first_dealer: int,
                           seats: Sequence[SeatInfo],
                           hands: Sequence[dict[str, Any]], meta: dict[str, Any],
                           score: Sequence[int]) -> int:
        """The play's last actions, its result and its game record (`hands`: each deal
        as the record keeps it, with its actions; the game finished), in one commit;
        returns the record's game id. The same checks as `daily_save`."""
        hand_rows = [(deal_json({k: v for k, v in hand.items() if k != "actions"}),
                      actions_json(hand.get("actions", ()))) for hand in hands]
        return await self._write(_daily_finish, guild_id, game, day, user_id, before,
                                 channel_id, dumps(rules), first_dealer, list(seats),
                                 hand_rows, dumps(meta), dumps(list(actions)),
                                 dumps(list(score)), self._now())

    async def daily_results(self, guild_id: int, game: str, first_day: str,
                            last_day: str) -> list[tuple[str, int, str, tuple[int, ...]]]:
        """The finished plays from `first_day` to `last_day` ('YYYY-MM-DD', included):
        (day, member, name, score), by day then member."""
        return await self._read(_daily_results, guild_id, game, first_day, last_day)

    async def daily_scored(self, guild_id: int, game: str, first_day: str,
                           last_day: str) -> set[str]:
        """The days of the range whose matchpoints are stored (`daily_score_day`)."""
        return await self._read(_daily_scored, guild_id, game, first_day, last_day)

    async def daily_score_day(self, guild_id: int, game: str, day: str,
                              points: Sequence[tuple[int, str, float]]) -> None:
        """Store a day that is over's matchpoints, (member, name, matchpoints) each, once
        (a day scored already is left as it is)."""
        await self._write(_daily_score_day, guild_id, game, day, list(points))

    async def daily_ladder(self, guild_id: int, game: str, period: str, first_day: str,
                           last_day: str, min_days: int
                           ) -> tuple[set[str], list[tuple[int, str, float, int]]]:
        """The days from `first_day` to `last_day` that are scored, and (member, name,
        summed matchpoints, days) of a ladder's `period` (`ladder_period`), members with
        at least `min_days` days scored: one read."""
        return await self._read(_daily_ladder, guild_id, game, period, first_day,
                                last_day, min_days)

    async def daily_started(self, guild_id: int, game: str, day: str) -> int:
        """How many members began the day's deal."""
        return await self._read(_daily_started, guild_id, game, day)

    async def daily_day(self, guild_id: int, game: str, day: str) -> DailyDay | None:
        """Where the day's public message is, and what it last showed."""
        return await self._read(_daily_day, guild_id, game, day)

    async def set_daily_day(self, guild_id: int, game: str, day: str, channel_id: int,
                            message_id: int | None, shown: str) -> None:
        await self._write(_set_daily_day, guild_id, game, day, channel_id, message_id,
                          shown)

    async def bot_value(self, name: str, fresh: str) -> str:
        """The bot's own value `name` (e.g. the daily's secret), `fresh` if it had none."""
        return await self._write(_bot_value, name, fresh)


MEMBER_SETTINGS_SQL = _MEMBER_SETTINGS


class Opener(Generic[_S]):
    """What a backend's ``open`` returns: await it for a store, or use it in
    ``async with`` to have the store closed at the end of the block."""

    def __init__(self, opening: Coroutine[Any, Any, _S]) -> None:
        self._opening = opening
        self._store: _S | None = None

    def __await__(self) -> Generator[Any, None, _S]:
        return self._opening.__await__()

    async def __aenter__(self) -> _S:
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
