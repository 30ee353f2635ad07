"""One database of either backend for a test, opened as often as the test likes (a
restart is a close and an open of the same database), and read raw for checks."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Literal

import asyncpg

from bot.games import GAMES
from bot.store import open_database

# The game the store's tests store their games under, and the format its records carry:
# the store itself names no game, so its callers (these tests too) always say which.
GAME = GAMES["amerikaner"].name
GAME_FORMAT = GAMES[GAME].record_format

Backend = Literal["sqlite", "postgresql"]
BACKENDS: tuple[Backend, ...] = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Database:
    """A test's database: a SQLite file or a PostgreSQL database of its own."""

    backend: Backend
    target: str  # the file's path or the server's URL

    def open(self, **options: Any) -> Any:
        """The store on it (await it, or ``async with``), migrated."""
        return open_database(self.target, **options)

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows of a raw query (the SQL must suit the backend)."""
        if self.backend == "sqlite":
            conn = sqlite3.connect(self.target)
            try:
                return [tuple(r) for r in conn.execute(sql).fetchall()]
            finally:
                conn.close()
        pg = await asyncpg.connect(self.target)
        try:
            return [tuple(r) for r in await pg.fetch(sql)]
        finally:
            await pg.close()

    async def execute(self, sql: str) -> None:
        if self.backend == "sqlite":
            conn = sqlite3.connect(self.target)
            try:
                conn.executescript(sql)
            finally:
                conn.close()
            return
        pg = await asyncpg.connect(self.target)
        try:
            await pg.execute(sql)
        finally:
            await pg.close()

    async def tables(self) -> set[str]:
        if self.backend == "sqlite":
            rows = await self.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            rows = await self.rows("SELECT tablename FROM pg_tables "
                                   "WHERE schemaname = 'public'")
        return {r[0] for r in rows}

    async def columns(self, table: str) -> set[str]:
        if self.backend == "sqlite":
            return {r[1] for r in await self.rows(f"PRAGMA table_info({table})")}
        rows = await self.rows("SELECT column_name FROM information_schema.columns "
                               f"WHERE table_name = '{table}'")
        return {r[0] for r in rows}
