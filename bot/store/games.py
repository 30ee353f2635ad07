"""The store's programs for a game's row and seats, and for its outbox (the posts a
change obliges the bot to make, committed with it). See :mod:`.program`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .models import (
    ChannelBusyError,
    GameNotActiveError,
    GameNotFoundError,
    GameRow,
    PostRow,
    SeatInfo,
    StoreError,
)
from .program import Conflict, Dialect, Program, stmt

# ------------------------------------------------------------------------ games

_GAME_COLUMNS = (
    "g.id, g.guild_id, g.game, g.channel_id, g.host_id, g.status, g.rules, "
    "g.first_dealer, g.meta, g.created_at, g.updated_at, g.finished_at, "
    "s.seat, s.user_id, s.is_ai, s.ai_level, s.display_name, g.turn_since"
)


def create_game(d: Dialect, row: tuple[Any, ...], seats: list[SeatInfo],
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
    yield from insert_seats(d, game_id, seats)
    return int(game_id)


def insert_seats(d: Dialect, game_id: int, seats: Sequence[SeatInfo]) -> Program[None]:
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


def lock_active(d: Dialect, game_id: int) -> Program[tuple[int, str]]:
    status, guild_id, game = yield from _lock_game(d, game_id)
    if status != "active":
        raise GameNotActiveError(f"game {game_id} is {status}")
    return guild_id, game


def update_seats(d: Dialect, game_id: int, seats: list[SeatInfo],
                  now: float) -> Program[None]:
    yield from lock_active(d, game_id)
    yield stmt("run", "DELETE FROM game_seats WHERE game_id = $1", (game_id,))
    yield from insert_seats(d, game_id, seats)
    yield stmt("run", TOUCH, (now, game_id))


def set_meta(d: Dialect, game_id: int, meta: str, now: float) -> Program[None]:
    changed = yield stmt("run", "UPDATE games SET meta = $1, updated_at = $2 WHERE id = $3",
                       (meta, now, game_id))
    if changed == 0:
        raise GameNotFoundError(f"no game {game_id}")


def set_rules(d: Dialect, game_id: int, rules: str, now: float) -> Program[None]:
    changed = yield stmt(
        "run",
        "UPDATE games SET rules = $1, updated_at = $2 WHERE id = $3 AND status = 'active' "
        "AND NOT EXISTS (SELECT 1 FROM game_hands WHERE game_id = $3)",
        (rules, now, game_id))
    if changed == 0:
        raise GameNotFoundError(f"no game {game_id} in a lobby")


TOUCH = "UPDATE games SET updated_at = $1 WHERE id = $2"  # a game changed (updated_at)


def games_where(d: Dialect, where: str, *params: Any) -> Program[list[GameRow]]:
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


def cancel_game(d: Dialect, game_id: int, now: float,
                 posts: Sequence[tuple[str, str]] = ()) -> Program[bool]:
    status, _, _ = yield from _lock_game(d, game_id)
    if status != "active":
        return False
    yield stmt("run", "UPDATE games SET status = 'cancelled', finished_at = $1, "
                    "updated_at = $1 WHERE id = $2", (now, game_id))
    yield from add_posts(d, game_id, posts, now)  # what the end obliges the bot to post
    return True



# ------------------------------------------------------------------------ outbox


def add_posts(d: Dialect, game_id: int, posts: Sequence[tuple[str, str]],
               now: float) -> Program[None]:
    if posts:
        yield stmt("many", "INSERT INTO outbox (game_id, channel_id, kind, params, "
                         "created_at) SELECT id, channel_id, $1, $2, "
                         "CAST($3 AS DOUBLE PRECISION) FROM games WHERE id = $4",
                 [(kind, params, now, game_id) for kind, params in posts])


def pending_posts(d: Dialect, game_id: int | None) -> Program[list[PostRow]]:
    where, params = ("AND game_id = $1", (game_id,)) if game_id is not None else ("", ())
    rows = yield stmt("all", "SELECT id, game_id, channel_id, kind, params, created_at "
                           f"FROM outbox{d.indexed('outbox_pending')} "
                           f"WHERE done_at IS NULL {where} ORDER BY game_id, id", params)
    return [PostRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]


def mark_posted(d: Dialect, post_id: int, message_id: int | None,
                 now: float) -> Program[None]:
    yield stmt("run", "UPDATE outbox SET message_id = $1, done_at = $2 WHERE id = $3",
             (message_id, now, post_id))

