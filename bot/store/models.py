"""Row types and errors of the game store."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Literal

GameStatus = Literal["active", "finished", "cancelled"]
LeaderOrder = Literal["wins", "points"]
# Who sat at a seat when a match was rated: a member's id, or an AI seat's level.
Seated = int | str


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat. ``user_id`` is None for an AI seat."""

    seat: int
    user_id: int | None
    display_name: str
    is_ai: bool = False
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game, without its hands and actions (see ``Store.load_record``)."""

    id: int
    guild_id: int
    game: str  # the game kind (its registry name): what the record is a record of
    channel_id: int
    host_id: int
    status: GameStatus
    rules: dict[str, Any] = field(hash=False)
    first_dealer: int
    meta: dict[str, Any] = field(hash=False)
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: tuple[SeatInfo, ...]
    # When the turn to play began (epoch seconds by the bot's clock, written with each
    # move); None for a game stored before the store kept it (then `updated_at`).
    turn_since: float | None = None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seated human's result in a finished game (AI seats have none): the place
    (1 is first; tied players share the better place), the points, whether they won,
    and the game's own statistics as counters (summed into the member's totals)."""

    user_id: int
    seat: int
    place: int
    points: int
    won: bool
    stats: dict[str, int] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class Post:
    """A message a state change obliges the bot to post (a hand summary, the final
    standings, a new table message, a timer notice), stored in the same commit as the
    change and posted after it: the outbox. ``kind`` and ``params`` say what to render;
    the words are rendered when it is posted."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class PostRow:
    """A stored post that is not yet marked as posted."""

    id: int
    game_id: int
    channel_id: int
    kind: str
    params: dict[str, Any] = field(hash=False)
    created_at: float


@dataclass(frozen=True, slots=True)
class PanelRow:
    """A hand panel the bot follows (edits for its player as the game moves): the
    interaction's webhook (application id and token, which Discord accepts for 15
    minutes from ``since``) and the language it is drawn in."""

    table_id: int
    user_id: int
    application_id: int
    token: str
    language: str
    since: float  # when Discord made the interaction (epoch seconds)


# Discord accepts an interaction's token for 15 minutes ("Interaction tokens are valid
# for 15 minutes"): https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction
PANEL_TOKEN_LIFE = 15 * 60


@dataclass(frozen=True, slots=True)
class LeaderRow:
    user_id: int
    games: int
    wins: int
    points: int


@dataclass(frozen=True, slots=True)
class MemberStats:
    """A member's totals in one guild and game kind; all zero (and no stats) for
    someone who never finished such a game there. ``stats`` sums the results' stats."""

    guild_id: int
    game: str
    user_id: int
    games: int = 0
    wins: int = 0
    points: int = 0
    stats: dict[str, int] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A member's rating in one (guild, pool): all time (``month`` None) or one
    month's season (``month`` 'YYYY-MM'). ``hands``: matches rated; ``ranked``: enough
    of them to be on a board; ``updated_at``: the bot's time of the last one."""

    pool: str
    user_id: int
    mu: float
    sigma: float
    ordinal: float
    hands: int
    ranked: bool
    updated_at: float
    month: str | None = None


@dataclass(frozen=True, slots=True)
class DayRow:
    """A member's rating at the end of a day ('YYYY-MM-DD') they were rated on."""

    pool: str
    user_id: int
    day: str
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class LoggedMatch:
    """One rated match as a game's rating log keeps it: its number in the guild (the
    order the updates happened in), the bot's time and who sat at each seat when the
    deal began; ``covered``: the seats the AI played for at any point of the deal (their
    member's rating may fall but not rise); ``forfeit``: the deal was abandoned unfinished
    (a cancel, or a table all its members left), a loss for every member at it but the
    ``absent`` ones; ``absent``: the seats whose member was away when the deal began, a
    deal they had no part in, and in a forfeit also those it spares, who did not cause
    the deal's end (bot/tables/rating_book.py, bot/tables/rater.py)."""

    number: int
    at: float
    seats: tuple[Seated, ...]
    covered: tuple[int, ...] = ()
    forfeit: bool = False
    absent: tuple[int, ...] = ()  # members away when the deal began: not theirs


@dataclass(frozen=True, slots=True)
class GameRating:
    """The matches of one game rated by an update, beyond the ``rated_before`` it had."""

    game_id: int
    pool: str
    rated_before: int
    logged: tuple[LoggedMatch, ...]


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """What rating some matches of a guild writes, in the commit of the move that
    finished them: the rows that changed (whole), the games' logs, and the guild's count
    of rated matches, checked against ``counted_before`` (what the update was computed
    from) so two writers cannot both take the same matches' numbers."""

    guild_id: int
    counted_before: int
    games: tuple[GameRating, ...]
    ratings: tuple[RatingRow, ...] = ()
    seasons: tuple[RatingRow, ...] = ()
    days: tuple[DayRow, ...] = ()

    @property
    def counted_after(self) -> int:
        return self.counted_before + sum(len(g.logged) for g in self.games)


@dataclass(frozen=True, slots=True)
class RatingState:
    """What a rating update of one game reads: how many of its matches are rated, the
    guild's count of rated matches, and the seated members' ratings in the pool, all
    time and in the month (members never rated there are absent)."""

    rated: int
    counted: int
    ratings: dict[int, RatingRow] = field(default_factory=dict, hash=False)
    seasons: dict[int, RatingRow] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class MemberRating:
    """A member's rating for `stats`: all time, this month's season, and the rating at
    the end of the last day they were rated on or before the trend's start (None: they
    were first rated after it)."""

    rating: RatingRow | None
    season: RatingRow | None
    before: DayRow | None


class StoreError(Exception):
    """Base class of the store's errors."""


class GameNotFoundError(StoreError):
    """No game with that id."""


class GameNotActiveError(StoreError):
    """The game is finished or cancelled; it takes no more hands, actions or results."""


class ChannelBusyError(StoreError):
    """The channel already has an active game."""


class DuplicateActionError(StoreError):
    """An action (or hand) with that index is already stored."""


class OutOfOrderError(StoreError):
    """A hand or action index is not the next one (it would leave a gap)."""


@dataclass(frozen=True, slots=True)
class DailyPlay:
    """A member's deal of the day (bot/tables/daily.py): the actions of its one deal so
    far, as the record stores them; once finished, its score (GameKind.deal_score) and
    the game record it was written as."""

    guild_id: int
    game: str
    day: str  # 'YYYY-MM-DD'
    user_id: int
    display_name: str
    actions: tuple[dict[str, Any], ...] = field(hash=False)
    started_at: float
    finished_at: float | None = None
    score: tuple[int, ...] | None = None
    game_id: int | None = None


def ladder_period(period: str, day: str) -> str:
    """The deal of the day's ladder of kind `period` ("week": the calendar week, Monday
    to Sunday; "month": the calendar month) that `day` ('YYYY-MM-DD') counts in, as the
    store keys its aggregate (migration 9): 'week:<its Monday>' or 'month:YYYY-MM'."""
    if period == "month":
        return f"month:{day[:7]}"
    date = dt.date.fromisoformat(day)
    return f"week:{(date - dt.timedelta(days=date.weekday())).isoformat()}"


@dataclass(frozen=True, slots=True)
class DailyDay:
    """A server's day of a game's daily: where its public message is, and what it last
    showed (a digest, so that an edit is made only when something changed)."""

    channel_id: int
    message_id: int | None
    shown: str
