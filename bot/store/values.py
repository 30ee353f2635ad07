"""What both backends write, checked and encoded the same way before any SQL runs:
JSON text, a hand's deal, actions, results, leaderboard orders."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .models import ResultRow

LEADER_ORDER_BY: dict[str, str] = {
    # order -> ORDER BY; each matches an index of player_totals (player_totals_<order>)
    "wins": "wins DESC, points DESC, user_id",
    "points": "points DESC, wins DESC, user_id",
}


def dumps(value: Any) -> str:
    """Compact JSON text, non-ASCII kept as it is."""
    return _ENCODER.encode(value)


# json.dumps with options builds an encoder per call (about 0.8 us; a move's commit
# encodes its action, a hand's end its deal too): the store keeps one.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def deal_json(deal: dict[str, Any]) -> str:
    """A hand's deal (the record's hand object without "actions") as JSON. The deal is
    the game's own object (Amerikaner's has "deal", American's "down", "up", "hand" and
    "deck"): the store only keeps it."""
    if not isinstance(deal, dict) or not deal:
        raise ValueError("a hand needs its deal, an object")
    if "actions" in deal:
        raise ValueError('add_hand takes the deal only; append "actions" separately')
    return dumps(deal)


def actions_json(actions: Sequence[dict[str, Any]]) -> list[str]:
    """The actions as JSON, refused whole if one is not a dict or not JSON."""
    for action in actions:
        if not isinstance(action, dict):
            raise ValueError(f"an action must be a dict, not {type(action).__name__}")
    return [dumps(action) for action in actions]


def checked_results(results: Sequence[ResultRow]) -> list[ResultRow]:
    """The results, refused before any write if a stat is not a whole number (they
    are counters, summed into the totals)."""
    rows = list(results)
    for r in rows:
        for name, value in r.stats.items():
            if not isinstance(name, str) or type(value) is not int:
                raise ValueError(f"stats are {{name: int}}; got {name!r}: {value!r}")
    return rows


def check_page(order: str, limit: int, offset: int) -> str:
    """The ORDER BY of a leaderboard page, once its arguments are checked."""
    if order not in LEADER_ORDER_BY:
        raise ValueError(f"unknown leaderboard order {order!r}")
    if limit < 0 or offset < 0:
        raise ValueError("limit and offset must not be negative")
    return LEADER_ORDER_BY[order]


def member_key(key: str) -> str:
    """A member setting's key: a short name of lowercase letters, digits and "_" (it is
    a JSON key on both backends, and PostgreSQL's update names it in SQL text)."""
    if not (isinstance(key, str) and 0 < len(key) <= 40 and key.isascii()
            and all(c.islower() or c.isdigit() or c == "_" for c in key)):
        raise ValueError(f"a member setting's key is a short snake_case name, not {key!r}")
    return key


def check_month(month: str | None) -> str | None:
    """A season's month, 'YYYY-MM' (None: all time)."""
    if month is not None and not (len(month) == 7 and month[4] == "-"
                                  and month[:4].isdigit() and month[5:].isdigit()):
        raise ValueError(f"a month is 'YYYY-MM', not {month!r}")
    return month


def log_json(log: list[Any], logged: Sequence[Any]) -> str:
    """A game's rating log with the matches of an update appended: JSON
    [[number, time, [seat, ...]], ...] (a seat: a member's id or an AI's level), with
    more items when the match had covered seats, was a forfeit or had absent members:
    [number, time, seats, [covered seat, ...], forfeit, [absent seat, ...]]."""
    return dumps([*log, *(_log_entry(m) for m in logged)])


def _log_entry(m: Any) -> list[Any]:
    if m.absent:
        return [m.number, m.at, list(m.seats), list(m.covered), bool(m.forfeit),
                list(m.absent)]
    if m.covered or m.forfeit:
        return [m.number, m.at, list(m.seats), list(m.covered), bool(m.forfeit)]
    return [m.number, m.at, list(m.seats)]


def logged_matches(text: str) -> list[Any]:
    """A stored rating log as LoggedMatch values."""
    from .models import LoggedMatch

    return [LoggedMatch(int(entry[0]), float(entry[1]), tuple(entry[2]),
                        tuple(int(seat) for seat in entry[3]) if len(entry) > 3 else (),
                        bool(entry[4]) if len(entry) > 4 else False,
                        tuple(int(seat) for seat in entry[5]) if len(entry) > 5 else ())
            for entry in json.loads(text)]
