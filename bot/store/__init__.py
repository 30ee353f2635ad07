"""Durable storage for the bot: games as records, results, leaderboards, settings.

:class:`Store` (:mod:`bot.store.base`) is what the bot asks of a database;
:class:`SqliteStore` (:mod:`bot.store.sqlite`) is the embedded default, opened with
``open_store(path)``; :class:`PostgresStore` (:mod:`bot.store.postgres`, asyncpg) serves
several processes on one PostgreSQL server. ``open_database(target)`` opens either, by
the target: a ``postgresql://`` URL or a file path. The store keeps every game kind's
records, results and settings as data and never imports a game.

Both stores are one front (:mod:`bot.store.front`: every method, written once) whose
logic is programs of SQL statements (:mod:`bot.store.program`; the programs by section in
:mod:`.games`, :mod:`.moves`, :mod:`.results`, :mod:`.settings`, :mod:`.daily`), run by
two dialects: each backend supplies only its connections, transactions and the SQL that
differs. The schema is the numbered SQL files of :mod:`bot.store.migrations`, one folder
per dialect. pyproject.toml's layers contract orders these modules (no circle).
"""

from pathlib import Path
from typing import Any

from .base import Store
from .migrations import MIGRATIONS, latest_version
from .models import (
    PANEL_TOKEN_LIFE,
    ChannelBusyError,
    DailyDay,
    DailyPlay,
    DayRow,
    DuplicateActionError,
    GameNotActiveError,
    GameNotFoundError,
    GameRating,
    GameRow,
    GameStatus,
    LeaderOrder,
    LeaderRow,
    LoggedMatch,
    MemberRating,
    MemberStats,
    OutOfOrderError,
    PanelRow,
    Post,
    PostRow,
    RatingRow,
    RatingState,
    RatingUpdate,
    ResultRow,
    Seated,
    SeatInfo,
    StoreError,
    ladder_period,
)
from .sqlite import SqliteStore, open_store


def open_database(target: str | Path, **options: Any) -> Any:
    """Open the store ``target`` names: PostgreSQL for a ``postgresql://`` (or
    ``postgres://``) URL, else the SQLite file at that path. Await the result, or use it
    in ``async with``; ``options`` go to that backend's ``open``. asyncpg is imported
    only for a PostgreSQL target."""
    if isinstance(target, str) and target.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore

        return PostgresStore.open(target, **options)
    return SqliteStore.open(target, **options)

__all__ = [
    "ladder_period",
    "MIGRATIONS",
    "ChannelBusyError",
    "DailyDay",
    "DailyPlay",
    "DayRow",
    "DuplicateActionError",
    "GameRating",
    "GameNotActiveError",
    "GameNotFoundError",
    "GameRow",
    "GameStatus",
    "LeaderOrder",
    "LeaderRow",
    "LoggedMatch",
    "MemberRating",
    "MemberStats",
    "PANEL_TOKEN_LIFE",
    "OutOfOrderError",
    "PanelRow",
    "Post",
    "PostRow",
    "RatingRow",
    "RatingState",
    "RatingUpdate",
    "Seated",
    "ResultRow",
    "SeatInfo",
    "SqliteStore",
    "Store",
    "StoreError",
    "latest_version",
    "open_database",
    "open_store",
]
