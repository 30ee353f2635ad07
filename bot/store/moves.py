"""The store's programs for a game's hands and actions: a move's one commit
(``record_action``), and the record read back. See :mod:`.program`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .games import TOUCH, add_posts
from .models import (
    DuplicateActionError,
    GameNotActiveError,
    GameNotFoundError,
    OutOfOrderError,
    RatingUpdate,
    ResultRow,
)
from .program import Conflict, Dialect, Program, stmt
from .results import finish_game, write_ratings

# ---------------------------------------------------------------- hands, actions


def append_actions(d: Dialect, game_id: int, hand_index: int, first_seq: int,
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
    yield stmt("run", TOUCH, (now, game_id))


_INSERT_ACTION = ("INSERT INTO game_actions (game_id, hand_index, seq, action, created_at) "
                  "VALUES ($1, $2, $3, $4, $5)")


def add_hand(d: Dialect, game_id: int, hand_index: int, deal: str,
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
    yield stmt("run", TOUCH, (now, game_id))


def record_action(d: Dialect, game_id: int, hand_index: int, seq: int,
                   texts: Sequence[str], deal: str | None,
                   results: Sequence[ResultRow] | None, posts: Sequence[tuple[str, str]],
                   turn_since: float | None, ratings: RatingUpdate | None,
                   now: float) -> Program[None]:
    yield from append_actions(d, game_id, hand_index, seq, texts, now)
    if deal is not None:
        yield from add_hand(d, game_id, hand_index + 1, deal, now)
    if results is not None:
        yield from finish_game(d, game_id, results, now)
    if posts:
        yield from add_posts(d, game_id, posts, now)
    if turn_since is not None:
        yield from set_turn_since(d, game_id, turn_since)
    if ratings is not None:
        yield from write_ratings(d, ratings)


def set_turn_since(d: Dialect, game_id: int, since: float) -> Program[None]:
    changed = yield stmt("run", "UPDATE games SET turn_since = $1 WHERE id = $2",
                       (since, game_id))
    if changed == 0:
        raise GameNotFoundError(f"no game {game_id}")


def action_count(d: Dialect, game_id: int, hand_index: int) -> Program[int]:
    count = yield stmt("val", "SELECT COUNT(*) FROM game_actions WHERE game_id = $1 "
                            "AND hand_index = $2", (game_id, hand_index))
    return int(count)


def load_record(d: Dialect, game_id: int, record_format: str) -> Program[dict[str, Any]]:
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

