"""The store's boards: the leaderboards, a member's totals and the ratings, written once
for both backends on top of ``_read``/``_write`` (bot/store/front.py's StoreFront, which
every store is, inherits them; the programs are bot/store/results.py's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .models import (
    LeaderOrder,
    LeaderRow,
    LoggedMatch,
    MemberRating,
    MemberStats,
    RatingRow,
    RatingState,
    RatingUpdate,
)
from .program import Program
from .results import (
    clear_ratings,
    leaderboard,
    leaderboard_size,
    member_rating,
    member_stats,
    rating_board,
    rating_board_size,
    rating_logs,
    rating_state,
    rerate_due,
    write_ratings,
)
from .values import check_month, check_page

_T = TypeVar("_T")


class BoardsFront:
    """The boards' part of the store's public methods (bot/store/base.py's Store). A
    backend supplies ``_read(program, *args)`` and ``_write(program, *args)``: run
    ``program(dialect, *args)``, as a read or as one transaction (joining the task's
    ``transaction()`` block if it has one)."""

    async def _read(self, program: Callable[..., Program[_T]], *args: Any) -> _T:
        raise NotImplementedError

    async def _write(self, program: Callable[..., Program[_T]], *args: Any) -> _T:
        raise NotImplementedError

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
        return await self._read(leaderboard, guild_id, game, order, limit, offset)

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        """How many members of the guild have finished at least one game of the kind."""
        return await self._read(leaderboard_size, guild_id, game)

    async def member_stats(self, guild_id: int, game: str, user_id: int) -> MemberStats:
        """The member's totals in the guild for one game kind (zeros if none)."""
        return await self._read(member_stats, guild_id, game, user_id)

    # ------------------------------------------------------------------ ratings

    async def rating_state(self, game_id: int, guild_id: int, pool: str, month: str,
                           user_ids: Sequence[int]) -> RatingState:
        """What rating a game's next matches reads (see RatingState)."""
        return await self._read(rating_state, game_id, guild_id, pool, check_month(month),
                                list(user_ids))

    async def write_ratings(self, update: RatingUpdate) -> None:
        """Write a rating update: refused with ``StoreError`` if the guild's or a
        game's count of rated matches is not what the update was computed from."""
        await self._write(write_ratings, update)

    async def rating_board(self, guild_id: int, pool: str, month: str | None = None,
                           limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """A page of the guild's rating board of ``pool`` (all time, or ``month``'s
        season): every rated member, the settled (``ranked``) first, then the
        provisional, each by ordinal, ties to the lower user id."""
        check_page("wins", limit, offset)
        return await self._read(rating_board, guild_id, pool, check_month(month), limit,
                                offset)

    async def rating_board_size(self, guild_id: int, pool: str,
                                month: str | None = None) -> int:
        """How many members the rating board has."""
        return await self._read(rating_board_size, guild_id, pool, check_month(month))

    async def member_rating(self, guild_id: int, pool: str, user_id: int, month: str,
                            trend_day: str) -> MemberRating:
        """A member's rating (all time, ``month``'s season) and their rating at the end
        of the last day on or before ``trend_day`` they were rated on."""
        return await self._read(member_rating, guild_id, pool, user_id,
                                check_month(month), trend_day)

    async def rating_logs(self) -> dict[int, tuple[str, list[LoggedMatch]]]:
        """Every game's rating log: game id -> (pool, rated matches), for ``rerate``."""
        return await self._read(rating_logs)

    async def clear_ratings(self) -> None:
        """Delete every rating, season, day, log and count (``rerate`` rebuilds them),
        and the migrations' note that a rerate is due."""
        await self._write(clear_ratings)

    async def rerate_due(self) -> bool:
        """Whether a migration changed how ratings are made, so a rerate is due."""
        return await self._read(rerate_due)
