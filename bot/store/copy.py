"""Moving a whole database between the backends, row for row (``amerikaner db copy``).

Both stores are opened first, so both are migrated to the same schema version; then
every table is copied with its columns as they are, ids included (the identity
sequences of the PostgreSQL side are moved past them), in ONE transaction on the
receiving side: a copy is whole or absent. The receiving database must hold no game,
result or setting yet, so nothing is mixed or doubled.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg

from .models import StoreError
from .sqlite import SqliteStore

if TYPE_CHECKING:
    from .postgres import PostgresStore

# Parents before children (foreign keys); every table the migrations make.
TABLES = ("games", "game_seats", "game_hands", "game_actions", "results", "player_totals",
          "guild_settings", "guild_prefs", "outbox", "member_settings", "panels",
          "ratings", "rating_seasons", "rating_days", "rating_games", "rating_counts")
_IDENTITY = (("games", "id"), ("outbox", "id"))
BATCH = 10_000


async def copy_sqlite_to_postgres(sqlite_path: str | Path, url: str) -> dict[str, int]:
    """Copy the SQLite database at ``sqlite_path`` into the (empty) PostgreSQL database
    at ``url``; returns the rows copied per table."""
    from .postgres import PostgresStore

    path = Path(sqlite_path)
    if not path.is_file():
        raise StoreError(f"no SQLite database at {path}")
    async with SqliteStore.open(path) as source_store:
        version = await source_store.schema_version()
    async with PostgresStore.open(url) as dest_store:
        if await dest_store.schema_version() != version:
            raise StoreError("the two databases are at different schema versions")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    dest = await asyncpg.connect(url)
    try:
        source.execute("BEGIN")  # one snapshot of the source
        async with dest.transaction():
            await _refuse_if_not_empty(dest)
            return await copy_rows(source, dest)
    finally:
        source.close()
        await dest.close()


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


async def _refuse_if_not_empty(dest: Any) -> None:
    for table in ("games", "player_totals", "guild_settings", "guild_prefs",
                  "member_settings"):
        if await dest.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise StoreError(f"the PostgreSQL database is not empty (table {table} has "
                             "rows): copy into a new database")


async def _sqlite_table_to_postgres(source: sqlite3.Connection, dest: Any,
                                    table: str) -> int:
    columns = [r[1] for r in source.execute(f"PRAGMA table_info({table})")]
    cursor = source.execute(f"SELECT {', '.join(columns)} FROM {table}")
    copied = 0
    while rows := cursor.fetchmany(BATCH):
        await dest.copy_records_to_table(table, records=rows, columns=columns)
        copied += len(rows)
    return copied


async def copy_postgres_to_sqlite(store: PostgresStore, dest: str | Path) -> dict[str, int]:
    """Write the whole PostgreSQL database of ``store`` (one snapshot) into a new
    SQLite file at ``dest``; returns the rows copied per table."""
    path = Path(dest)
    if path.exists():
        raise StoreError(f"{path} already exists")
    async with SqliteStore.open(path):
        pass  # created and migrated
    target = sqlite3.connect(path, isolation_level=None)
    source = await asyncpg.connect(store.url)
    try:
        counts: dict[str, int] = {}
        target.execute("BEGIN IMMEDIATE")
        async with source.transaction(isolation="repeatable_read", readonly=True):
            for table in TABLES:
                counts[table] = await _postgres_table_to_sqlite(source, target, table)
        target.execute("COMMIT")
        return counts
    finally:
        target.close()
        await source.close()


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
