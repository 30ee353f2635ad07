"""Rows from one backend's database to the other's, on plain connections.

What ``amerikaner db copy`` (bot.store.copy) and a PostgreSQL store's ``backup`` share:
every table copied with its columns as they are, ids included. Below both backends, so
neither imports the other.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from . import sqlite_db
from .models import StoreError

# Parents before children (foreign keys); every table the migrations make.
TABLES = ("games", "game_seats", "game_hands", "game_actions", "results", "player_totals",
          "guild_settings", "guild_prefs", "outbox", "member_settings", "panels",
          "ratings", "rating_seasons", "rating_days", "rating_games", "rating_counts",
          "rerate_due", "daily_plays", "daily_days", "bot_values", "daily_points",
          "daily_scored", "daily_ladders", "daily_rules", "member_languages")
_IDENTITY = (("games", "id"), ("outbox", "id"))
BATCH = 10_000


async def copy_rows(source: sqlite3.Connection, dest: Any) -> dict[str, int]:
    """Copy every table of the SQLite connection ``source`` into the asyncpg connection
    ``dest``, whose database is at the same schema version (whichever it is), and move
    the identity sequences past the ids copied; returns the rows per table."""
    present = {r[0] for r in source.execute("SELECT name FROM sqlite_master "
                                            "WHERE type = 'table'")}
    counts = {table: await _sqlite_table_to_postgres(source, dest, table)
              for table in TABLES if table in present}
    for table, column in _IDENTITY:
        if table in present:
            await dest.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")
    return counts


async def _sqlite_table_to_postgres(source: sqlite3.Connection, dest: Any,
                                    table: str) -> int:
    columns = [r[1] for r in source.execute(f"PRAGMA table_info({table})")]
    cursor = source.execute(f"SELECT {', '.join(columns)} FROM {table}")
    copied = 0
    while rows := cursor.fetchmany(BATCH):
        await dest.copy_records_to_table(table, records=rows, columns=columns)
        copied += len(rows)
    return copied


async def postgres_to_sqlite(url: str, dest: str | Path) -> dict[str, int]:
    """Write the whole PostgreSQL database at ``url`` (one snapshot, already migrated)
    into a new SQLite file at ``dest``; returns the rows copied per table."""
    path = Path(dest)
    if path.exists():
        raise StoreError(f"{path} already exists")
    path.parent.mkdir(parents=True, exist_ok=True)
    target = sqlite3.connect(path, isolation_level=None)
    try:
        sqlite_db.migrate_sync(target)
        source = await asyncpg.connect(url)
        try:
            counts: dict[str, int] = {}
            target.execute("BEGIN IMMEDIATE")
            async with source.transaction(isolation="repeatable_read", readonly=True):
                for table in TABLES:
                    counts[table] = await _postgres_table_to_sqlite(source, target, table)
            target.execute("COMMIT")
            return counts
        finally:
            await source.close()
    finally:
        target.close()


async def _postgres_table_to_sqlite(source: Any, target: sqlite3.Connection,
                                    table: str) -> int:
    columns = [r[1] for r in target.execute(f"PRAGMA table_info({table})")]
    names = ", ".join(columns)
    marks = ", ".join("?" * len(columns))
    insert = f"INSERT INTO {table} ({names}) VALUES ({marks})"
    batch: list[tuple[Any, ...]] = []
    copied = 0
    async for record in source.cursor(f"SELECT {names} FROM {table}", prefetch=BATCH):
        batch.append(tuple(record))
        if len(batch) == BATCH:
            target.executemany(insert, batch)
            copied, batch = copied + len(batch), []
    target.executemany(insert, batch)
    return copied + len(batch)
