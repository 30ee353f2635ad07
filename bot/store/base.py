"""The ``Store`` protocol: what the bot asks of a database, whatever the backend.

The embedded SQLite store (:mod:`bot.store.sqlite`) is the default; a second backend
(PostgreSQL, for several processes on one database) implements the same methods with
the same guarantees: every write method is one transaction committed before it returns,
``transaction()`` groups the writes of one task into one commit, and a write whose
caller is cancelled still ends whole (committed or rolled back), never half.

The store keeps records, results and settings as data: it never imports a game. A game
kind is a name (its registry key); results carry a place, points, won and the game's
own counters (``stats``), summed per (guild, game kind, member).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

from .models import (
    PANEL_TOKEN_LIFE,
    DailyDay,
    DailyPlay,
    GameRow,
    GameStatus,
    LeaderOrder,
    LeaderRow,
    LoggedMatch,
    MemberRating,
    MemberStats,
    PanelRow,
    Post,
    PostRow,
    RatingRow,
    RatingState,
    RatingUpdate,
    ResultRow,
    SeatInfo,
)


class Store(Protocol):
    """The bot's database. See :mod:`bot.store.sqlite` for the guarantees in detail."""

    # ------------------------------------------------------------------ lifecycle

    async def close(self) -> None: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    async def checkpoint(self) -> tuple[int, int]:
        """Housekeeping the bot runs regularly, off the players' commits (SQLite folds
        its write-ahead log); returns (frames in the log, frames folded)."""
        ...

    async def backup(self, dest: str | Path) -> None: ...

    async def schema_version(self) -> int: ...

    def transaction(self) -> AbstractAsyncContextManager[Self]:
        """Group this task's store writes into one atomic commit."""
        ...

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
    ) -> int: ...

    async def update_seats(self, game_id: int, seats: Sequence[SeatInfo]) -> None: ...

    async def set_meta(self, game_id: int, meta: dict[str, Any]) -> None: ...

    async def set_rules(self, game_id: int, rules: dict[str, Any]) -> None: ...

    async def get_game(self, game_id: int) -> GameRow | None: ...

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None: ...

    async def unfinished_games(self) -> list[GameRow]: ...

    async def active_games_of_user(self, user_id: int) -> list[GameRow]: ...

    async def last_game_in_channel(self, channel_id: int, status: GameStatus
                                   ) -> GameRow | None: ...

    # --------------------------------------------------------------- hands/actions

    async def add_hand(self, game_id: int, hand_index: int, deal: dict[str, Any]) -> None: ...

    async def append_action(
        self, game_id: int, hand_index: int, seq: int, action: dict[str, Any]
    ) -> None: ...

    async def append_actions(
        self, game_id: int, hand_index: int, first_seq: int, actions: Sequence[dict[str, Any]]
    ) -> None: ...

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
        """Everything one accepted move writes, as one commit (with `turn_since`: when
        the next turn began, as `set_turn_since`; with `ratings`: the rating update of
        the matches the move finished, as `write_ratings`)."""
        ...

    async def set_turn_since(self, game_id: int, since: float) -> None:
        """When the game's turn to play began (epoch seconds by the bot's clock), read
        back as `GameRow.turn_since`: turn timers run from it across restarts."""
        ...

    async def action_count(self, game_id: int, hand_index: int) -> int: ...

    async def load_record(self, game_id: int, *, record_format: str) -> dict[str, Any]:
        """The game's record, stamped with the caller's ``record_format`` (the game's
        own, GameKind.record_format: the store knows no game's format)."""
        ...

    # -------------------------------------------------------------- end of a game

    async def finish_game(self, game_id: int, results: Sequence[ResultRow]) -> None: ...

    async def cancel_game(self, game_id: int, posts: Sequence[Post] = ()) -> bool: ...

    # ---------------------------------------------------------------------- outbox

    async def add_posts(self, game_id: int, posts: Sequence[Post]) -> None: ...

    async def pending_posts(self, game_id: int | None = None) -> list[PostRow]: ...

    async def mark_posted(self, post_id: int, message_id: int | None) -> None: ...

    # ---------------------------------------------------------- leaderboard, stats

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        order: LeaderOrder = "wins",
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderRow]: ...

    async def leaderboard_size(self, guild_id: int, game: str) -> int: ...

    async def member_stats(self, guild_id: int, game: str, user_id: int) -> MemberStats: ...

    # ---------------------------------------------------------------------- ratings
    # Derived from the records (bot.tables.rerate rebuilds them); see migration 5.

    async def rating_state(self, game_id: int, guild_id: int, pool: str, month: str,
                           user_ids: Sequence[int]) -> RatingState:
        """What rating a game's next matches reads (see RatingState)."""
        ...

    async def write_ratings(self, update: RatingUpdate) -> None:
        """Write a rating update; StoreError if the guild's or a game's count of rated
        matches is not the one the update was computed from."""
        ...

    async def rating_board(self, guild_id: int, pool: str, month: str | None = None,
                           limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """A page of a rating board (all time, or a month's season): the settled
        (ranked) members, then the provisional ones, each by ordinal, then user id. An
        index range scan."""
        ...

    async def rating_board_size(self, guild_id: int, pool: str,
                                month: str | None = None) -> int: ...

    async def member_rating(self, guild_id: int, pool: str, user_id: int, month: str,
                            trend_day: str) -> MemberRating: ...

    async def rating_logs(self) -> dict[int, tuple[str, list[LoggedMatch]]]: ...

    async def clear_ratings(self) -> None: ...

    async def rerate_due(self) -> bool:
        """Whether a migration changed how ratings are made (``rerate`` is due once)."""
        ...

    async def games_of_guild(self, guild_id: int) -> list[GameRow]: ...

    async def guilds(self) -> list[int]: ...

    # ---------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int, game: str) -> dict[str, Any]: ...

    async def set_guild_settings(
        self, guild_id: int, game: str, settings: dict[str, Any]
    ) -> None: ...

    async def get_guild_language(self, guild_id: int) -> str | None: ...

    async def set_guild_language(self, guild_id: int, language: str | None) -> None: ...

    # --------------------------------------------------------- member settings

    async def get_member_settings(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """A member's own settings in a server (``{}`` if none): e.g. "turn_pings"
        ("channel" or "dm"), "dm_failed_told" (bool)."""
        ...

    async def set_member_setting(self, guild_id: int, user_id: int, key: str,
                                 value: Any) -> None:
        """Set one setting (a JSON value; None removes it), the others kept. `key`: a
        short snake_case name (ValueError otherwise)."""
        ...

    # ----------------------------------------------------------- followed panels

    async def save_panel(self, table_id: int, user_id: int, application_id: int,
                         token: str, language: str, since: float) -> None:
        """Store (or replace) the hand panel `user_id` has open at `table_id`: the
        interaction's webhook token, when it was made (epoch seconds) and the language
        the panel is drawn in."""
        ...

    async def panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> list[PanelRow]:
        """The stored panels whose token is younger than `max_age` at `now` (epoch
        seconds by Discord's clock), oldest first."""
        ...

    async def delete_panel(self, table_id: int, user_id: int) -> None: ...

    async def delete_panels(self, table_id: int) -> None: ...

    async def prune_panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> int:
        """Delete the panels whose token has run out at `now`; returns how many."""
        ...

    # ---------------------------------------------------------- the deal of the day
    # bot/tables/daily.py; migrations 7 and 9. No results rows: not in totals nor ratings.

    async def daily_play(self, guild_id: int, game: str, day: str,
                         user_id: int) -> DailyPlay | None: ...

    async def daily_begin(self, guild_id: int, game: str, day: str, user_id: int,
                          name: str, actions: Sequence[dict[str, Any]]) -> DailyPlay:
        """Begin a member's play of the day, or return the one they have (one try)."""
        ...

    async def daily_save(self, guild_id: int, game: str, day: str, user_id: int,
                         before: int, actions: Sequence[dict[str, Any]]) -> None: ...

    async def daily_finish(self, guild_id: int, game: str, day: str, user_id: int,
                           before: int, actions: Sequence[dict[str, Any]], *,
                           channel_id: int, rules: dict[str, Any], first_dealer: int,
                           seats: Sequence[SeatInfo],
                           hands: Sequence[dict[str, Any]], meta: dict[str, Any],
                           score: Sequence[int]) -> int:
        """The play's result and its finished game record, in one commit."""
        ...

    async def daily_results(self, guild_id: int, game: str, first_day: str,
                            last_day: str) -> list[tuple[str, int, str, tuple[int, ...]]]:
        ...

    async def daily_scored(self, guild_id: int, game: str, first_day: str,
                           last_day: str) -> set[str]: ...

    async def daily_score_day(self, guild_id: int, game: str, day: str,
                              points: Sequence[tuple[int, str, float]]) -> None:
        """Store the matchpoints of a day that is over, once."""
        ...

    async def daily_ladder(self, guild_id: int, game: str, period: str, first_day: str,
                           last_day: str, min_days: int
                           ) -> tuple[set[str], list[tuple[int, str, float, int]]]: ...

    async def daily_started(self, guild_id: int, game: str, day: str) -> int: ...

    async def daily_day(self, guild_id: int, game: str, day: str) -> DailyDay | None: ...

    async def set_daily_day(self, guild_id: int, game: str, day: str, channel_id: int,
                            message_id: int | None, shown: str) -> None: ...

    async def bot_value(self, name: str, fresh: str) -> str:
        """The bot's own value `name`, set to `fresh` if it had none."""
        ...
