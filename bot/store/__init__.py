"""Durable storage for the bot: games as records, results, leaderboards, settings.

See :mod:`bot.store.store` for the durability and concurrency guarantees.
"""

from .migrations import MIGRATIONS, latest_version
from .models import (
    RECORD_FORMAT,
    ChannelBusyError,
    DuplicateActionError,
    GameNotActiveError,
    GameNotFoundError,
    GameRow,
    GameStatus,
    LeaderOrder,
    LeaderRow,
    MemberStats,
    OutOfOrderError,
    Post,
    PostRow,
    ResultRow,
    SeatInfo,
    StoreError,
)
from .store import Store

__all__ = [
    "MIGRATIONS",
    "RECORD_FORMAT",
    "ChannelBusyError",
    "DuplicateActionError",
    "GameNotActiveError",
    "GameNotFoundError",
    "GameRow",
    "GameStatus",
    "LeaderOrder",
    "LeaderRow",
    "MemberStats",
    "OutOfOrderError",
    "Post",
    "PostRow",
    "ResultRow",
    "SeatInfo",
    "Store",
    "StoreError",
    "latest_version",
]
