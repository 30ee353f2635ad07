"""The plain sqlite3 side of the SQLite store: connecting, transactions, migrating.

Functions of a ``sqlite3.Connection``, no event loop: the store runs them on its
database thread (bot.store.sqlite), and a PostgreSQL backup makes its SQLite file with
them (bot.store.transfer), so neither backend imports the other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Literal, TypeVar

from . import migrations as _migrations
from .models import StoreError

Synchronous = Literal["NORMAL", "FULL", "EXTRA"]
Executor = sqlite3.Connection | sqlite3.Cursor
"""What runs statements: the connection (a new cursor per statement), or a cursor kept
for many (the store's writes)."""
_T = TypeVar("_T")


def split_sql(script: str) -> list[str]:
    """Split an SQL script into complete statements (semicolons in comments or
    strings are handled by SQLite's own tokenizer)."""
    statements: list[str] = []
    start = 0
    for pos, char in enumerate(script):
        if char == ";":
            candidate = script[start : pos + 1]
            if sqlite3.complete_statement(candidate):
                statements.append(candidate.strip())
                start = pos + 1
    if script[start:].strip() and not _only_comments(script[start:]):
        raise ValueError(f"incomplete SQL statement at the end: {script[start:]!r}")
    return statements


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())


# ----------------------------------------------------- run on the database thread
#
# Each takes the plain sqlite3 connection and runs only on the store's one worker
# thread (through SqliteStore._call), so a whole call costs one hand-off.


def connect(path: str, synchronous: Synchronous, busy_timeout_ms: int,
             autocheckpoint_pages: int) -> sqlite3.Connection:
    # isolation_level=None: the store issues BEGIN/COMMIT itself. The connection is
    # made here but used only on this same worker thread afterwards.
    db = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000,
                         check_same_thread=False)
    try:
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA synchronous = {synchronous}")
        db.execute(f"PRAGMA wal_autocheckpoint = {int(autocheckpoint_pages)}")
        db.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        db.close()
        raise
    return db


def close_sync(db: sqlite3.Connection) -> None:
    db.close()


def checkpoint_sync(path: str) -> tuple[int, int]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        _busy, log_frames, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        conn.close()
    return (int(log_frames), int(done))


def backup_sync(db: sqlite3.Connection, dest: str) -> None:
    target = sqlite3.connect(dest)
    try:
        db.backup(target)
    finally:
        target.close()


def user_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate_sync(db: sqlite3.Connection) -> None:
    latest = _migrations.latest_version()
    if user_version(db) == latest:
        return  # up to date: no write transaction needed
    for version, script in _migrations.MIGRATIONS:
        sql = _migrations.script_for(script, "sqlite")
        # Re-read the version inside the write transaction so two processes opening
        # the same new file cannot both apply a migration.
        begin(db)
        try:
            current = user_version(db)
            if current > latest:
                raise StoreError(
                    f"database schema version {current} is newer than this code ({latest})"
                )
            if current < version:
                for statement in split_sql(sql):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {int(version)}")
            db.execute("COMMIT")
        except BaseException:
            rollback(db)
            raise


def begin(db: Executor) -> None:
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "within a transaction" not in str(exc):
            raise
        # Left open by a rollback that was itself interrupted: nothing in it was
        # ever reported as committed, so drop it and start afresh.
        db.execute("ROLLBACK")
        db.execute("BEGIN IMMEDIATE")


def commit(db: sqlite3.Connection) -> None:
    db.execute("COMMIT")


def rollback(db: Executor) -> None:
    with suppress(sqlite3.OperationalError):  # no transaction left to roll back
        db.execute("ROLLBACK")


def in_transaction(db: Executor, fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(db, *args)`` as one transaction: committed if it returns, rolled back if
    it raises."""
    begin(db)
    try:
        result = fn(db, *args)
        db.execute("COMMIT")
    except BaseException:
        rollback(db)
        raise
    return result


def in_savepoint(db: Executor, fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(db, *args)`` inside the open transaction, all or nothing."""
    db.execute("SAVEPOINT store_write")
    try:
        result = fn(db, *args)
    except BaseException:
        with suppress(sqlite3.OperationalError):
            db.execute("ROLLBACK TO store_write")
            db.execute("RELEASE store_write")
        raise
    db.execute("RELEASE store_write")
    return result
