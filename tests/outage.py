"""A database outage for the tests, on either backend.

PostgreSQL: the real thing, the test server stopped (`PostgresServer.halt`: clients are
cut off, new connections refused) and started again on its data. SQLite is a file in
the bot's own process, which does not "go away" by itself: `FlakyStore` stands in front
of the store and fails every call while the outage lasts with the error SQLite gives
when its disk does (sqlite3.OperationalError "disk I/O error"), reads and writes alike,
as a lost disk or a file another process holds locked would.

`Outage.refused` counts the store calls that failed (on both backends: the store is
always behind a `FlakyStore`, which fails calls itself only for SQLite), so a test can
wait until the bot has met the outage, and tried again, without sleeping for a guessed
time.
"""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from tests.pg_server import PostgresServer


class FlakyStore:
    """A store that counts its failed calls, and (SQLite's outage) fails every call
    itself while the outage lasts."""

    def __init__(self, store: Any, outage: Outage) -> None:
        self._store = store
        self._outage = outage

    def _check(self) -> None:
        if self._outage.is_down and self._outage.backend == "sqlite":
            raise sqlite3.OperationalError("disk I/O error")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[FlakyStore]:
        try:
            self._check()
            async with self._store.transaction():
                yield self
                self._check()  # the commit at the block's end fails too
        except Exception:
            self._outage.refused += 1
            raise

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if not inspect.iscoroutinefunction(value):
            return value

        async def call(*args: Any, **kwargs: Any) -> Any:
            try:
                self._check()
                result = await value(*args, **kwargs)
            except Exception:
                self._outage.refused += 1
                raise
            outage = self._outage
            if name in outage.lose_answer:
                # Committed, but the answer is lost on its way back (the connection
                # drops): the caller cannot know the write happened.
                outage.lose_answer.discard(name)
                if outage.then_down:  # and the database goes away with it
                    outage.is_down = True
                    if outage.server is not None:
                        outage.server.halt()  # blocks the loop a moment: a test's price
                raise ConnectionResetError("the connection dropped during the commit")
            return result

        return call


class Outage:
    """Takes the database of a running bot (or table service) away and back."""

    def __init__(self, backend: str, server: PostgresServer | None = None) -> None:
        self.backend = backend
        self.server = server
        self.is_down = False
        self.refused = 0  # store calls that failed
        # Store methods whose next call commits and then fails as if the connection
        # dropped before the answer came (SQLite: also goes down then, if `then_down`).
        self.lose_answer: set[str] = set()
        self.then_down = False

    def wrap(self, store: Any) -> Any:
        """The store the bot should use: the real one behind a FlakyStore."""
        return FlakyStore(store, self)

    def install(self, holder: Any, *others: Any) -> None:
        """Put the wrapped store into `holder.store` and each of `others`' `store`."""
        store = self.wrap(holder.store)
        for obj in (holder, *others):
            obj.store = store

    async def down(self) -> None:
        self.is_down = True
        if self.server is not None:
            await asyncio.to_thread(self.server.halt)

    async def up(self) -> None:
        if self.server is not None:
            await asyncio.to_thread(self.server.resume)
        self.is_down = False

    @asynccontextmanager
    async def lasting(self) -> AsyncIterator[Outage]:
        """`async with outage.lasting():` the database is away inside; it comes back
        at the end even when the test fails."""
        await self.down()
        try:
            yield self
        finally:
            if self.is_down:
                await self.up()


async def wait_for(condition: Callable[[], bool], timeout: float = 30.0,
                   what: str = "the condition") -> None:
    """Wait (polling the event loop) until `condition()` holds; fail after `timeout`
    seconds, a bound for a hung test, not a measurement."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
