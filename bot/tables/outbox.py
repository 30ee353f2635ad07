"""The outbox: what committed changes oblige the bot to post, posted exactly once.

A change and the posts it calls for (hand summaries, final standings, the next hand's
table message, timer notices) are committed together (`Store.record_action(posts=...)`).
Afterwards `Outbox.kick(game_id)` posts that game's pending posts in order, one worker a
game, and marks each done; after a restart `drain_all` posts whatever was left. A post
that reached Discord but was not marked before a crash is sent again with the same
nonce, which Discord answers with the message it already has instead of a second one
(`enforce_nonce`), so nothing is posted twice.

This module knows nothing of Discord: the `send` function it is given renders a post and
sends it, returning the message id, or None if it can never be posted (the channel is
gone, or the bot may not write there); any exception means "try again later".

When the database does not answer (reading the pending posts, or marking one posted),
the worker waits and tries again, doubling its wait up to `retry_cap`, until it answers:
a post that reached Discord is marked once the database is back, not sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.store import PostRow, Store, StoreError
from bot.store.health import FIRST_RETRY, LAST_RETRY, Health, backoff

log = logging.getLogger(__name__)

Send = Callable[[PostRow], Awaitable[int | None]]
_T = TypeVar("_T")

RETRIES = 5  # tries of one post in a row before it waits for the next kick or restart


class Transient(Exception):  # noqa: N818 (a kind of failure, not an error of ours)
    """Raised by a sender for a failure expected from time to time and worth another
    try (a failure of Discord's, a rate limit, a dropped connection): logged in one
    line. Any other exception is unexpected, and logged with its traceback."""


def post_nonce(row: PostRow) -> str:
    """The nonce a post is sent with, the same every time it is sent: its row id and
    the moment it was committed (so a database started afresh does not reuse one
    within Discord's nonce window). At most 25 characters, as Discord asks."""
    return f"{row.id}.{int(row.created_at * 1000) % 10**12}"[:25]


class Outbox:
    """Posts the store's pending posts, in order per game, each exactly once."""

    def __init__(self, store: Store, send: Send | None = None, *,
                 retry_delay: float = 1.0,
                 owns_guild: Callable[[int], bool] | None = None,
                 health: Health | None = None, retry_first: float = FIRST_RETRY,
                 retry_cap: float = LAST_RETRY) -> None:
        self.store = store
        # Whose posts `drain_all` takes: those of the guilds this process owns (several
        # processes share one database; each posts for its own shards' games).
        self.owns_guild = owns_guild
        self.send = send  # set by whoever renders and sends the posts (the cog)
        self.retry_delay = retry_delay  # Discord refusing a post: the first wait
        # The database not answering: shared with the table service (one health line).
        self.health = health or Health()
        self.retry_first = retry_first
        self.retry_cap = retry_cap
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self.closed = False

    def kick(self, game_id: int) -> None:
        """Post the game's pending posts soon (a worker already at it looks again)."""
        if self.closed or self.send is None:
            return
        worker = self._workers.get(game_id)
        if worker is not None and not worker.done():
            self._again.add(game_id)
            return
        self._workers[game_id] = asyncio.create_task(self._work(game_id))

    async def drain_all(self) -> None:
        """After a restart: post everything that was committed but not posted, of the
        games of this process's guilds."""
        for game_id in sorted({row.game_id for row in await self.store.pending_posts()}):
            if await self._owns_game(game_id):
                self.kick(game_id)

    async def _owns_game(self, game_id: int) -> bool:
        if self.owns_guild is None:
            return True
        game = await self.store.get_game(game_id)
        return game is not None and self.owns_guild(game.guild_id)

    async def idle(self) -> None:
        """Wait until every worker is done (tests, shutdown)."""
        while True:
            workers = [w for w in self._workers.values() if not w.done()]
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

    async def close(self, timeout: float) -> None:
        """Stop taking kicks; give the posts under way `timeout` seconds, then stop
        them (what is left is posted after the next start)."""
        self.closed = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), timeout)
        for worker in self._workers.values():
            worker.cancel()
        for worker in self._workers.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await worker
        self._workers.clear()

    async def _work(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                done, rows = await self._from_store(
                    functools.partial(self.store.pending_posts, game_id), game_id)
                if not done:
                    return
                for row in rows or ():
                    if not await self._post(row):
                        return
                if game_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the outbox of game %s failed", game_id)
        finally:
            if self._workers.get(game_id) is asyncio.current_task():
                del self._workers[game_id]

    async def _post(self, row: PostRow) -> bool:
        """Send one post and mark it done; False if it is still pending after every
        try (the rest of the game's posts wait behind it, to keep their order)."""
        for attempt in range(RETRIES):
            try:
                assert self.send is not None
                message_id = await self.send(row)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("could not post %s of game %s (try %d): %s", row.kind,
                            row.game_id, attempt + 1, exc,
                            exc_info=not isinstance(exc, Transient))
                if self.closed:
                    return False
                await asyncio.sleep(self.retry_delay * 2 ** attempt)
                continue
            if message_id is None:
                # The sender said why (the channel refuses it, or the post is no
                # longer wanted: the game ended meanwhile).
                log.info("not posting %s of game %s: it cannot or need not be posted",
                         row.kind, row.game_id)
            # Sent: only the mark is retried, never the post.
            done, _ = await self._from_store(
                functools.partial(self.store.mark_posted, row.id, message_id), row.game_id)
            return done
        return False

    async def _from_store(self, call: Callable[[], Awaitable[_T]], game_id: int
                          ) -> tuple[bool, _T | None]:
        """(True, `call()`'s result), tried again with backoff while the database does
        not answer; (False, None) once the outbox closes meanwhile (what is left is
        posted after the next start). A refusal of the store's own (a bug) passes on."""
        failures = 0
        while True:
            try:
                result = await call()
            except (asyncio.CancelledError, StoreError):
                raise
            except Exception as exc:
                self.health.failed(exc)
                failures += 1
                level = logging.WARNING if failures == 1 else logging.DEBUG
                log.log(level, "the outbox of game %s waits for the database (%s: %s)",
                        game_id, type(exc).__name__, exc)
                if self.closed:
                    return False, None
                await asyncio.sleep(backoff(failures - 1, self.retry_first, self.retry_cap))
                continue
            self.health.answered()
            return True, result
