"""Row types and errors of the game store."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

GameStatus = Literal["active", "finished", "cancelled"]
LeaderOrder = Literal["wins", "points"]

RECORD_FORMAT = "amerikaner-record/1"


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


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seated human's result in a finished game (AI seats have none)."""

    user_id: int
    seat: int
    points: int
    won: bool
    contracts_made: int = 0
    contracts_failed: int = 0
    top_bids_made: int = 0
    hands_played: int = 0


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
class LeaderRow:
    user_id: int
    games: int
    wins: int
    points: int


@dataclass(frozen=True, slots=True)
class MemberStats:
    """A member's totals in one guild; all zero for someone who never finished a game."""

    guild_id: int
    user_id: int
    games: int = 0
    wins: int = 0
    points: int = 0
    contracts_made: int = 0
    contracts_failed: int = 0
    top_bids_made: int = 0
    hands_played: int = 0


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
