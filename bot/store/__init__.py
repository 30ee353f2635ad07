"""Durable storage for the bot: games as records, results, leaderboards, settings.

:class:`Store` (:mod:`bot.store.base`) is what the bot asks of a database;
:class:`SqliteStore` (:mod:`bot.store.sqlite`) is the embedded default, opened with
``open_store(path)``. The store keeps every game kind's records, results and settings
as data and never imports a game.
"""

from .base import Store
from .migrations import MIGRATIONS, latest_version
from .models import (
    DEFAULT_GAME,
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
from .sqlite import SqliteStore, open_store

__all__ = [
    "DEFAULT_GAME",
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
    "SqliteStore",
    "Store",
    "StoreError",
    "latest_version",
    "open_store",
]
