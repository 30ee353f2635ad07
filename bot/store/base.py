"""The ``Store``: what the bot asks of a database, whatever the backend.

The embedded SQLite store (:mod:`bot.store.sqlite`) is the default; a second backend
(PostgreSQL, for several processes on one database) implements the same methods with
the same guarantees: every write method is one transaction committed before it returns,
``transaction()`` groups the writes of one task into one commit, and a write whose
caller is cancelled still ends whole (committed or rolled back), never half.

The store keeps records, results and settings as data: it never imports a game. A game
kind is a name (its registry key); results carry a place, points, won and the game's
own counters (``stats``), summed per (guild, game kind, member).

Its methods are written once, in :class:`bot.store.front.StoreFront` (each one's
signature and documentation there, not repeated here); a backend subclasses
:class:`Store` and supplies what only it can: ``_read``/``_write`` (run a program),
``close`` and the housekeeping below.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Self

from .front import StoreFront


class Store(StoreFront, ABC):
    """The bot's database. See :mod:`bot.store.sqlite` for the guarantees in detail."""

    @abstractmethod
    async def checkpoint(self) -> tuple[int, int]:
        """Housekeeping the bot runs regularly, off the players' commits (SQLite folds
        its write-ahead log); returns (frames in the log, frames folded)."""

    @abstractmethod
    async def backup(self, dest: str | Path) -> None:
        """A consistent copy of the database at `dest`."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Self]:
        """Group this task's store writes into one atomic commit."""
