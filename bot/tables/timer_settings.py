"""A table's clock of days, as its settings keep it: the turn timer, the reminder points
and what a timeout does, checked; and when a turn's reminders fall.

A table may have a turn timer (`turn_timer`, seconds, up to 7 days). Before the deadline
the player is reminded at the table's reminder points (`reminders`, default half time
and one hour left; each point once per turn, which is stored); at the deadline the
strongest AI of the game plays the turn (`timeout_action` "play") or takes the seat
until its player is back ("seat"). The clock that runs them is bot/tables/turn_clock.py.
Pure: no store, no asyncio.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bot.tables.errors import TableError

MAX_TURN_TIMER = 7 * 24 * 3600.0  # seconds: a turn lasts at most 7 days (10,080 minutes)
# What happens when a turn's time runs out (a table's meta "timeout_action"):
TIMEOUT_PLAY = "play"  # the AI plays that one turn (the default, as before)
TIMEOUT_SEAT = "seat"  # the seat goes to the AI until its player is back (as `set_away`)
TIMEOUT_ACTIONS = (TIMEOUT_PLAY, TIMEOUT_SEAT)
# Reminder points (a table's meta "reminders"): "<n>%": when n % of the turn's time is
# gone (1-99); "<n>m", "<n>h", "<n>d": when n minutes, hours or days are left.
DEFAULT_REMINDERS: tuple[str, ...] = ("50%", "1h")
MAX_REMINDERS = 4
_UNITS = {"m": 60.0, "h": 3600.0, "d": 86400.0}
# A reminder closer than this share of the turn's time to the turn's start (the player
# has just been told it is their turn) or to a reminder kept before it is left out: a
# 2-hour timer gets one reminder at its middle (half time and one hour left are one), a
# 61-minute one no "one hour left" a minute after the turn began.
REMINDER_GAP = 0.1


class Keep:
    """The type of KEEP: a setting left as it is."""


KEEP = Keep()  # Lobby.set_timer: leave that setting as it is


def check_turn_timer(seconds: float | None) -> float | None:
    """A table's turn timer as the service keeps it: None (0 or None: no timer) or
    seconds, at most MAX_TURN_TIMER (7 days). The commands offer whole minutes from 1.
    Refused: TableError("bad_input", reason="negative_timer" | "long_timer",
    minutes=10080)."""
    if seconds is None or seconds == 0:
        return None
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        raise TableError("bad_input", reason="negative_timer") from None
    if math.isnan(value) or value < 0:
        raise TableError("bad_input", reason="negative_timer")
    if value > MAX_TURN_TIMER:
        raise TableError("bad_input", reason="long_timer", minutes=int(MAX_TURN_TIMER // 60))
    return value


def reminder_offset(point: str, limit: float) -> float:
    """Seconds after a turn's start at which the reminder `point` falls, for a turn of
    `limit` seconds (negative or beyond `limit`: it does not fall in the turn).
    ValueError for a point that is not one."""
    if not isinstance(point, str) or len(point) < 2 or not point[:-1].isdigit() \
            or not point[:-1].isascii():
        raise ValueError(point)
    number, unit = int(point[:-1]), point[-1]
    if unit == "%" and 1 <= number <= 99:
        return limit * number / 100
    if unit in _UNITS and 1 <= number * _UNITS[unit] <= MAX_TURN_TIMER:
        return limit - number * _UNITS[unit]
    raise ValueError(point)


def check_reminders(points: Sequence[str] | None) -> tuple[str, ...]:
    """A table's reminder points, checked (None: the default, DEFAULT_REMINDERS; empty:
    none). Refused: TableError("bad_input", reason="reminder", point=..., most=4)."""
    if points is None:
        return DEFAULT_REMINDERS
    if isinstance(points, str):
        points = [part.strip() for part in points.split(",") if part.strip()]
    chosen: list[str] = []
    for point in points:
        try:
            reminder_offset(point, MAX_TURN_TIMER)
        except ValueError:
            raise TableError("bad_input", reason="reminder", point=str(point),
                             most=MAX_REMINDERS) from None
        if point not in chosen:
            chosen.append(point)
    if len(chosen) > MAX_REMINDERS:
        raise TableError("bad_input", reason="reminder", point=chosen[MAX_REMINDERS],
                         most=MAX_REMINDERS)
    return tuple(chosen)


def check_timeout_action(action: str | None) -> str:
    """What happens when a turn's time runs out: TIMEOUT_PLAY (also for None) or
    TIMEOUT_SEAT. Refused: TableError("bad_input", reason="timeout_action")."""
    if action is None:
        return TIMEOUT_PLAY
    if action not in TIMEOUT_ACTIONS:
        raise TableError("bad_input", reason="timeout_action", choices=TIMEOUT_ACTIONS)
    return action


def reminder_schedule(since: float, limit: float, points: Sequence[str]
                      ) -> list[tuple[float, str]]:
    """The reminders of a turn that began at `since` (epoch seconds) and lasts `limit`
    seconds: (when, point) in time order. A point is left out if it does not fall
    inside the turn (a 2-minute timer has no "one hour left"), or falls closer than
    REMINDER_GAP of the turn's time to its start or to a point listed before it."""
    gap = limit * REMINDER_GAP
    kept: list[tuple[float, str]] = []
    for point in points:
        try:
            offset = reminder_offset(point, limit)
        except ValueError:
            continue  # stored before a rule changed: ignored, never a crash
        if offset < gap or offset >= limit:
            continue
        if any(abs(offset - other) < gap for other, _ in kept):
            continue
        kept.append((offset, point))
    return sorted((since + offset, point) for offset, point in kept)



def timer_meta(turn_timer: float | None, reminders: Sequence[str] | None,
                timeout_action: str | None) -> dict[str, Any]:
    """A table's timer settings as its meta keeps them, checked (defaults left out)."""
    meta: dict[str, Any] = {}
    limit = check_turn_timer(turn_timer)
    if limit is not None:
        meta["turn_timer"] = limit
    if reminders is not None:
        meta["reminders"] = list(check_reminders(reminders))
    if timeout_action is not None:
        meta["timeout_action"] = check_timeout_action(timeout_action)
    return meta
