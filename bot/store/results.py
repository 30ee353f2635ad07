"""The store's programs for a game's end: results, the members' totals and
leaderboards, and the ratings (derived from the records; migration 5). See
:mod:`.program`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .games import lock_active
from .models import (
    DayRow,
    LeaderRow,
    LoggedMatch,
    MemberRating,
    MemberStats,
    RatingRow,
    RatingState,
    RatingUpdate,
    ResultRow,
    StoreError,
)
from .program import Conflict, Dialect, Program, stmt
from .values import (
    check_page,
    dumps,
    log_json,
    logged_matches,
)

# ------------------------------------------------------- results, leaderboards


def finish_game(d: Dialect, game_id: int, results: Sequence[ResultRow],
                 now: float) -> Program[None]:
    guild_id, game = yield from lock_active(d, game_id)
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


def leaderboard(d: Dialect, guild_id: int, game: str, order: str, limit: int,
                 offset: int) -> Program[list[LeaderRow]]:
    order_by = check_page(order, limit, offset)
    rows = yield stmt("all", "SELECT user_id, games, wins, points FROM player_totals"
                           f"{d.indexed(f'player_totals_{order}')} WHERE guild_id = $1 "
                           f"AND game = $2 ORDER BY {order_by} LIMIT $3 OFFSET $4",
                    (guild_id, game, limit, offset))
    return [LeaderRow(user_id=r[0], games=r[1], wins=r[2], points=r[3]) for r in rows]


def leaderboard_size(d: Dialect, guild_id: int, game: str) -> Program[int]:
    count = yield stmt("val", "SELECT COUNT(*) FROM player_totals WHERE guild_id = $1 "
                            "AND game = $2", (guild_id, game))
    return int(count)


def member_stats(d: Dialect, guild_id: int, game: str,
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


def rating_state(d: Dialect, game_id: int, guild_id: int, pool: str, month: str,
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


def write_ratings(d: Dialect, update: RatingUpdate) -> Program[None]:
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


def rating_board(d: Dialect, guild_id: int, pool: str, month: str | None, limit: int,
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


def rating_board_size(d: Dialect, guild_id: int, pool: str,
                       month: str | None) -> Program[int]:
    if month is None:
        count = yield stmt("val", "SELECT COUNT(*) FROM ratings WHERE guild_id = $1 "
                                "AND pool = $2", (guild_id, pool))
    else:
        count = yield stmt("val", "SELECT COUNT(*) FROM rating_seasons WHERE guild_id = $1 "
                                "AND pool = $2 AND month = $3",
                         (guild_id, pool, month))
    return int(count)


def member_rating(d: Dialect, guild_id: int, pool: str, user_id: int, month: str,
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


def rating_logs(d: Dialect) -> Program[dict[int, tuple[str, list[LoggedMatch]]]]:
    rows = yield stmt("all", "SELECT game_id, pool, log FROM rating_games ORDER BY game_id")
    return {r[0]: (r[1], logged_matches(r[2])) for r in rows}


def clear_ratings(d: Dialect) -> Program[None]:
    for table in ("ratings", "rating_seasons", "rating_days", "rating_games",
                  "rating_counts", "rerate_due"):
        yield stmt("run", f"DELETE FROM {table}")


def rerate_due(d: Dialect) -> Program[bool]:
    rows = yield stmt("all", "SELECT reason FROM rerate_due")
    return bool(rows)


def guilds(d: Dialect) -> Program[list[int]]:
    rows = yield stmt("all", "SELECT DISTINCT guild_id FROM games ORDER BY guild_id")
    return [r[0] for r in rows]

