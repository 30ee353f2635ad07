"""The deal of the day's scoring (bot/tables/daily.py): duplicate matchpoints, a day's
board and the ladders' averages. Pure: the results come from the store, as
`store.daily_results` gives them."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

MIN_DAYS = 3  # the days a member must have played to be on a weekly or monthly ladder

Result = tuple[str, int, str, tuple[int, ...] | None]  # (day, member, name, score)


def matchpoints(scores: Sequence[Sequence[int] | None]) -> list[float]:
    """Each result's matchpoints against the others of the same deal: the share of the
    other results it beat, a tie counting half (duplicate scoring); a result alone on its
    deal has beaten nobody and lost to nobody: half. None: an abandoned play, below
    every finished result (and tied with the other abandoned ones)."""
    keys = [(0,) if s is None else (1, *s) for s in scores]
    others = len(keys) - 1
    if others <= 0:
        return [0.5] * len(keys)
    ordered = sorted(keys)
    points = []
    for key in keys:
        below = bisect.bisect_left(ordered, key)
        equal = bisect.bisect_right(ordered, key) - below - 1  # the others with the same
        points.append((below + equal / 2) / others)
    return points


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A result on the day's board (or a ladder's average): best first."""

    rank: int
    user_id: int
    name: str
    matchpoints: float  # 0..1 (a ladder: the average over the member's days)
    score: tuple[int, ...] | None  # the day's score (None on a ladder)
    days: int = 1


def ranked(rows: list[tuple[float, int, str, tuple[int, ...] | None, int]]
           ) -> list[BoardRow]:
    """(matchpoints, member, name, score, days) as a board: best first, equal
    matchpoints sharing a rank."""
    rows.sort(key=lambda r: (-r[0], r[1]))
    board: list[BoardRow] = []
    for index, (points, user_id, name, score, days) in enumerate(rows):
        rank = board[-1].rank if board and abs(board[-1].matchpoints - points) < 1e-9 \
            else index + 1
        board.append(BoardRow(rank, user_id, name, points, score, days))
    return board


def day_board(results: Sequence[Result]) -> list[BoardRow]:
    """One day's results (store.daily_results of that day) as its board."""
    points = matchpoints([r[3] for r in results])
    return ranked([(mp, r[1], r[2], r[3], 1) for mp, r in zip(points, results, strict=True)])


def day_points(results: Sequence[Result]) -> list[tuple[int, str, float]]:
    """One day's results as the store keeps a day scored: (member, name, matchpoints)."""
    return [(r[1], r[2], mp) for mp, r in zip(matchpoints([r[3] for r in results]), results,
                                              strict=True)]


def ladder(results: Sequence[Result], min_days: int = MIN_DAYS) -> list[BoardRow]:
    """Average matchpoints per member over the days of `results` (each day scored
    against that day's results), members with at least `min_days` days."""
    by_day: dict[str, list[Result]] = {}
    for row in results:
        by_day.setdefault(row[0], []).append(row)
    totals: dict[int, list[Any]] = {}
    for rows in by_day.values():
        for mp, row in zip(matchpoints([r[3] for r in rows]), rows, strict=True):
            entry = totals.setdefault(row[1], [0.0, 0, row[2]])
            entry[0] += mp
            entry[1] += 1
            entry[2] = row[2]  # the latest name
    return ranked([(total / days, user_id, name, None, days)
                   for user_id, (total, days, name) in totals.items() if days >= min_days])
