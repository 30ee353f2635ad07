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
from collections.abc import Coroutine, Generator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

from .front import StoreFront

_S = TypeVar("_S", bound="Store")


class Store(StoreFront, ABC):
    """The bot's database. See :mod:`bot.store.sqlite` for the guarantees in detail."""

    @abstractmethod
    async def checkpoint(self) -> tuple[int, int]:
        """Housekeeping the bot runs regularly, off the players' commits (SQLite folds
        its write-ahead log); returns (frames in the log, frames folded)."""

    @abstractmethod
    async def backup(self, dest: str | Path) -> None:
        """A consistent copy of the whole database, as a SQLite file at `dest`, while
        the store stays open."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied to the database."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Self]:
        """Group this task's store writes into one atomic commit."""


class Opener(Generic[_S]):
    """What a backend's ``open`` returns: await it for a store, or use it in
    ``async with`` to have the store closed at the end of the block."""

    def __init__(self, opening: Coroutine[Any, Any, _S]) -> None:
        self._opening = opening
        self._store: _S | None = None

    def __await__(self) -> Generator[Any, None, _S]:
        return self._opening.__await__()

    async def __aenter__(self) -> _S:
        self._store = await self._opening
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()
