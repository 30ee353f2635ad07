"""The calendar of the deal of the day (bot/tables/daily.py): days as 'YYYY-MM-DD' in a
server's time zone (UTC when it has none, or an unknown one), where they end, and the
days before one. Pure functions of epoch seconds: the clock is the caller's."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def zone_of(time_zone: str | None) -> dt.tzinfo:
    """The zone called `time_zone`; UTC for none, or for a name the machine does not
    know."""
    if time_zone:
        try:
            return ZoneInfo(time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return dt.UTC


def day_of(now: float, time_zone: str | None = None) -> str:
    """The day ('YYYY-MM-DD') at epoch second `now` in `time_zone` (UTC by default)."""
    return dt.datetime.fromtimestamp(now, zone_of(time_zone)).date().isoformat()


def day_end(day: str, time_zone: str | None = None) -> float:
    """The epoch second `day` ends in `time_zone` (UTC by default): the next midnight."""
    next_day = dt.date.fromisoformat(day) + dt.timedelta(days=1)
    return dt.datetime.combine(next_day, dt.time(), zone_of(time_zone)).timestamp()


def next_midnight(when: float, time_zone: str | None = None) -> float:
    """The first midnight in `time_zone` at or after epoch second `when`."""
    zone = zone_of(time_zone)
    moment = dt.datetime.fromtimestamp(when, zone)
    if moment.time() == dt.time():
        return when
    return dt.datetime.combine(moment.date() + dt.timedelta(days=1), dt.time(),
                               zone).timestamp()


def days_back(day: str, count: int) -> str:
    """The first day of the `count` days that end with `day` (included)."""
    return (dt.date.fromisoformat(day) - dt.timedelta(days=count - 1)).isoformat()


def days_from(first: str, last: str) -> list[str]:
    """The days from `first` to `last`, both included (none if `last` is before)."""
    days = []
    day = dt.date.fromisoformat(first)
    while (name := day.isoformat()) <= last:
        days.append(name)
        day += dt.timedelta(days=1)
    return days
