"""Moving a whole database between the backends, row for row (``amerikaner db copy``).

Both stores are opened first, so both are migrated to the same schema version; then
every table is copied with its columns as they are, ids included (the identity
sequences of the PostgreSQL side are moved past them), in ONE transaction on the
receiving side: a copy is whole or absent. The receiving database must hold no game,
result or setting yet, so nothing is mixed or doubled.

Above both backends (it opens both); the rows themselves move in bot.store.transfer.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from .models import StoreError
from .postgres import PostgresStore
from .sqlite import SqliteStore
from .transfer import BATCH, TABLES, copy_rows, postgres_to_sqlite

__all__ = ["BATCH", "TABLES", "copy_postgres_to_sqlite", "copy_rows",
           "copy_sqlite_to_postgres"]


async def copy_sqlite_to_postgres(sqlite_path: str | Path, url: str) -> dict[str, int]:
    """Copy the SQLite database at ``sqlite_path`` into the (empty) PostgreSQL database
    at ``url``; returns the rows copied per table."""
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


async def _refuse_if_not_empty(dest: Any) -> None:
    for table in ("games", "player_totals", "guild_settings", "guild_prefs",
                  "member_settings", "member_languages"):
        if await dest.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise StoreError(f"the PostgreSQL database is not empty (table {table} has "
                             "rows): copy into a new database")


async def copy_postgres_to_sqlite(store: PostgresStore, dest: str | Path) -> dict[str, int]:
    """Write the whole PostgreSQL database of ``store`` (one snapshot) into a new
    SQLite file at ``dest``; returns the rows copied per table."""
    return await postgres_to_sqlite(store.url, dest)
