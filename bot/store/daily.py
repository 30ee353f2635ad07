"""The store's programs for the deal of the day. See :mod:`.program`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .games import insert_seats
from .models import (
    DailyDay,
    DailyPlay,
    SeatInfo,
    StoreError,
    ladder_period,
)
from .program import Conflict, Dialect, Program, stmt

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


def daily_play(d: Dialect, guild_id: int, game: str, day: str,
               user_id: int) -> Program[DailyPlay | None]:
    row = yield stmt("one", f"SELECT {_PLAY_COLUMNS} FROM daily_plays WHERE {_KEY} "
                          "AND user_id = $4", (guild_id, game, day, user_id))
    return _play(row) if row is not None else None


def daily_begin(d: Dialect, guild_id: int, game: str, day: str, user_id: int, name: str,
                actions: str, now: float) -> Program[DailyPlay]:
    """The member's play of the day: begun now with `actions` (the AI players' before
    the member's first turn), or the one they already have (one try per day)."""
    yield stmt("run", "INSERT INTO daily_plays (guild_id, game, day, user_id, display_name, "
                    "actions, started_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) "
                    "ON CONFLICT (guild_id, game, day, user_id) DO NOTHING",
             (guild_id, game, day, user_id, name, actions, now))
    play = yield from daily_play(d, guild_id, game, day, user_id)
    assert play is not None
    return play


def daily_save(d: Dialect, guild_id: int, game: str, day: str, user_id: int, before: int,
               actions: str, now: float) -> Program[None]:
    """The play's actions, now: refused (StoreError) unless the play is unfinished and
    still has the `before` actions it was read with (two clicks at once: one wins)."""
    row = yield stmt("one", f"SELECT actions, finished_at FROM daily_plays WHERE {_KEY} "
                          "AND user_id = $4 FOR UPDATE", (guild_id, game, day, user_id))
    if row is None or row[1] is not None or len(json.loads(row[0])) != before:
        raise StoreError("the daily play moved on meanwhile")
    yield stmt("run", f"UPDATE daily_plays SET actions = $5, updated_at = $6 WHERE {_KEY} "
                    "AND user_id = $4", (guild_id, game, day, user_id, actions, now))


def daily_finish(d: Dialect, guild_id: int, game: str, day: str, user_id: int, before: int,
                 channel_id: int, rules: str, first_dealer: int, seats: list[SeatInfo],
                 hands: list[tuple[str, list[str]]], meta: str, actions: str, score: str,
                 now: float) -> Program[int]:
    """The play finished: its game record written (finished) and the result stored, in
    one transaction; returns the record's game id."""
    yield from daily_save(d, guild_id, game, day, user_id, before, actions, now)
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
    yield from insert_seats(d, game_id, seats)
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


def daily_results(d: Dialect, guild_id: int, game: str, first_day: str, last_day: str
                   ) -> Program[list[tuple[str, int, str, tuple[int, ...] | None]]]:
    """The finished plays of the days from `first_day` to `last_day` (both included):
    (day, member, name, score), by day then member: a range scan of `daily_board`. An
    abandoned play (`daily_abandon`) is finished with no score: None."""
    rows = yield stmt("all", "SELECT day, user_id, display_name, score "
                           f"FROM daily_plays{d.indexed('daily_board')} "
                           "WHERE guild_id = $1 AND game = $2 AND day >= $3 AND day <= $4 "
                           "AND finished_at IS NOT NULL ORDER BY day, user_id",
                    (guild_id, game, first_day, last_day))
    return [(r[0], r[1], r[2], None if r[3] is None else tuple(json.loads(r[3])))
            for r in rows]


def daily_scored(d: Dialect, guild_id: int, game: str, first_day: str,
                  last_day: str) -> Program[set[str]]:
    rows = yield stmt("all", "SELECT day FROM daily_scored WHERE guild_id = $1 AND game = $2 "
                           "AND day >= $3 AND day <= $4", (guild_id, game, first_day, last_day))
    return {r[0] for r in rows}


def daily_score_day(d: Dialect, guild_id: int, game: str, day: str,
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


def daily_ladder(d: Dialect, guild_id: int, game: str, period: str, first_day: str,
                  last_day: str, min_days: int
                  ) -> Program[tuple[set[str], list[tuple[int, str, float, int]]]]:
    """A ladder's members with at least `min_days` days (one primary-key range), and
    which of its days from `first_day` to `last_day` are scored, in one read."""
    days = yield from daily_scored(d, guild_id, game, first_day, last_day)
    rows = yield stmt("all", "SELECT user_id, display_name, total, days FROM daily_ladders "
                           f"WHERE {_LADDER_KEY} AND days >= $4",
                    (guild_id, game, period, min_days))
    return days, [(r[0], r[1], float(r[2]), int(r[3])) for r in rows]


def daily_started(d: Dialect, guild_id: int, game: str, day: str) -> Program[int]:
    """How many members began the day's deal (finished or not)."""
    count = yield stmt("val", f"SELECT COUNT(*) FROM daily_plays WHERE {_KEY}",
                     (guild_id, game, day))
    return int(count)


def daily_day(d: Dialect, guild_id: int, game: str, day: str) -> Program[DailyDay | None]:
    row = yield stmt("one", f"SELECT channel_id, message_id, shown FROM daily_days "
                          f"WHERE {_KEY}", (guild_id, game, day))
    return DailyDay(row[0], row[1], row[2]) if row is not None else None


def set_daily_day(d: Dialect, guild_id: int, game: str, day: str, channel_id: int,
                  message_id: int | None, shown: str) -> Program[None]:
    yield stmt("run", "INSERT INTO daily_days (guild_id, game, day, channel_id, message_id, "
                    "shown) VALUES ($1, $2, $3, $4, $5, $6) "
                    "ON CONFLICT (guild_id, game, day) DO UPDATE SET "
                    "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                    "shown = excluded.shown",
             (guild_id, game, day, channel_id, message_id, shown))



# ------------------------------------------------- a day's rules, its end, abandoned plays
# (migration 10.)

def daily_fix_day(d: Dialect, guild_id: int, game: str, day: str, settings: str,
                   ends_at: float) -> Program[tuple[dict[str, Any], float]]:
    """The day's rules and end: those stored already (the first to fix the day wins),
    else `settings` and `ends_at`, stored now."""
    yield stmt("run", "INSERT INTO daily_rules (guild_id, game, day, settings, ends_at) "
                    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id, game, day) DO NOTHING",
             (guild_id, game, day, settings, ends_at))
    fixed = yield from daily_day_rules(d, guild_id, game, day)
    assert fixed is not None
    return fixed


def daily_day_rules(d: Dialect, guild_id: int, game: str, day: str
                     ) -> Program[tuple[dict[str, Any], float] | None]:
    row = yield stmt("one", f"SELECT settings, ends_at FROM daily_rules WHERE {_KEY}",
                   (guild_id, game, day))
    return (json.loads(row[0]), float(row[1])) if row is not None else None


def daily_last_day(d: Dialect, guild_id: int, game: str
                    ) -> Program[tuple[str, float] | None]:
    """The latest day whose rules are fixed, and its end (a primary-key range's last)."""
    row = yield stmt("one", "SELECT day, ends_at FROM daily_rules WHERE guild_id = $1 "
                          "AND game = $2 ORDER BY day DESC LIMIT 1", (guild_id, game))
    return (row[0], float(row[1])) if row is not None else None


def daily_abandon(d: Dialect, guild_id: int, game: str, day: str,
                   at: float) -> Program[int]:
    """Every play of the day still unfinished, finished `at` with no score (abandoned:
    below every finished result of the day); if any, the day leaves the ladders, to be
    scored again with them. Returns how many."""
    changed = yield stmt("run", f"UPDATE daily_plays SET finished_at = $4, updated_at = $4 "
                              f"WHERE {_KEY} AND finished_at IS NULL",
                       (guild_id, game, day, at))
    if changed:
        yield from _daily_unscore(d, guild_id, game, day)
    return int(changed or 0)


def daily_open_days(d: Dialect) -> Program[list[tuple[int, str, str]]]:
    """The days whose public message is posted and does not say yet that its day is
    over (`shown` starts "closed:" once it does: cogs/tables/daily.py)."""
    rows = yield stmt("all", "SELECT guild_id, game, day FROM daily_days "
                           "WHERE message_id IS NOT NULL AND shown NOT LIKE 'closed:%' "
                           "ORDER BY guild_id, game, day", ())
    return [(r[0], r[1], r[2]) for r in rows]
