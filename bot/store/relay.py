"""Interactions handed between the shard processes of one bot, over their PostgreSQL
database: LISTEN/NOTIFY and one short-lived row each, no broker of our own.

Why: Discord sends every event without a guild to shard 0 only, direct messages
included, and so every click in a DM ("Gateway events that do not contain a guild_id
will only be sent to the first shard (shard_id: 0). This includes Direct Message (DM)
... events", https://discord.com/developers/docs/events/gateway#sharding; also
https://github.com/discord/discord-api-docs/issues/17: "DMs will only be sent to
shard_id 0"). A turn ping by DM carries the buttons of a table that lives in the
process of its server's shard; the process of shard 0 hands such a click to it.

How: the sender stores the interaction's gateway payload in ``relayed_interactions``
and, in the same transaction, NOTIFYs the owner's channel (``amk_relay_shard_<n>``)
with its id (a payload can be larger than NOTIFY's 8,000 bytes; the row has no
limit). The owner takes the row (``DELETE ... RETURNING``: one taker, whoever is
first), says so on ``amk_relay_taken`` and answers the interaction itself,
by its token, exactly as a click it had received: an interaction is answerable from
any process that holds its id and token (the callback and webhook routes need no
gateway session, https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction),
within Discord's 3 seconds for the first answer. If the owner has not taken it within
`wait` seconds (its process is down, or its database connection), the sender takes
the row back and answers it itself (the caller's business): a row taken once is never
answered twice, and a click is never both refused and played.

Why not let shard 0's process play the move on the store itself, under the table's
lock: the owner keeps the table in memory with its turn timer, its AI turns, its
followed panels and its table message's edits, which such a move would leave behind
(the owner would have to reload the table and catch up). Handed over, the click goes
through the one path every click takes, in the one process that runs the table.

The payload is a dict of JSON values; this module knows nothing of Discord or tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

log = logging.getLogger(__name__)


async def reconnect_until(connect: Callable[[], Awaitable[None]], closed: Callable[[], bool],
                          who: str) -> None:
    """Connect a listening connection again after it was lost, waiting 0.5 s, then twice
    as long each time up to 10 s, until it is back or its owner is closed (the relay's
    and the pages' bus, bot/store/page_bus.py)."""
    delay = 0.5
    while not closed():
        try:
            await connect()
            log.info("%s: the database connection is back", who)
            return
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.info("%s cannot reach the database yet: %r", who, exc)
        await asyncio.sleep(delay)
        delay = min(delay * 2, 10.0)

# How long the sender waits for the owner to take a click (seconds). Discord wants the
# first answer within 3 s of the click; a NOTIFY takes milliseconds. What is left of the
# 3 s after this is the sender's, to answer a click the owner did not take.
WAIT = 1.5
# Rows older than this (seconds) are an interaction nobody can answer any more (a sender
# killed between its insert and its take-back): swept when a process starts.
STALE = 60.0
TAKEN = "amk_relay_taken"


def shard_channel(shard: int) -> str:
    """The NOTIFY channel of the process that runs `shard`."""
    return f"amk_relay_shard_{shard}"


_SEND = """
WITH sent AS (
    INSERT INTO relayed_interactions (id, shard, payload, created_at)
    VALUES ($1, $2, $3, EXTRACT(EPOCH FROM clock_timestamp()))
    ON CONFLICT (id) DO NOTHING
    RETURNING id)
SELECT pg_notify($4, id::text) FROM sent
"""
# The owner's take: the row, gone for anyone else, and the sender told in one statement.
_TAKE = """
WITH taken AS (DELETE FROM relayed_interactions WHERE id = $1 AND shard = ANY($2::int[])
               RETURNING id, payload)
SELECT payload, pg_notify($3, id::text) FROM taken
"""
_TAKE_BACK = "DELETE FROM relayed_interactions WHERE id = $1 RETURNING id"
_SWEEP = ("DELETE FROM relayed_interactions "
          "WHERE created_at < EXTRACT(EPOCH FROM clock_timestamp()) - $1")


class InteractionRelay:
    """This process's end of the relay: it listens for the interactions of its shards
    (`deliver` gets each payload it takes) and forwards others' with `forward`. Open
    with ``await InteractionRelay.open(...)``; ``close()`` at the end."""

    def __init__(self, url: str, shard_count: int, shard_ids: tuple[int, ...],
                 deliver: Callable[[dict[str, Any]], None], wait: float = WAIT) -> None:
        self.url = url
        self.shard_count = shard_count
        self.shard_ids = tuple(shard_ids)
        self.deliver = deliver
        self.wait = wait
        self._conn: Any = None  # asyncpg.Connection while connected
        self._lock = asyncio.Lock()  # one statement at a time on the connection
        self._waiting: dict[int, asyncio.Future[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False
        self._reconnecting: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, shard_count: int, shard_ids: tuple[int, ...],
                   deliver: Callable[[dict[str, Any]], None], wait: float = WAIT
                   ) -> InteractionRelay:
        relay = cls(url, shard_count, shard_ids, deliver, wait)
        await relay._connect()
        async with relay._lock:
            await relay._conn.execute(_SWEEP, STALE)
        return relay

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.url)
        for shard in self.shard_ids:
            await conn.add_listener(shard_channel(shard), self._on_notify)
        await conn.add_listener(TAKEN, self._on_taken)
        conn.add_termination_listener(self._on_lost)
        self._conn = conn

    # ------------------------------------------------------------------ the owner

    def _on_notify(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        self._spawn(self._take(int(payload)))

    async def _take(self, interaction_id: int) -> None:
        try:
            async with self._lock:
                row = await self._conn.fetchrow(_TAKE, interaction_id, list(self.shard_ids),
                                                TAKEN)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("could not take relayed interaction %s: %r", interaction_id, exc)
            return
        if row is None:
            return  # taken back by its sender (too late), or by another process of ours
        self.deliver(json.loads(row["payload"]))

    # ------------------------------------------------------------------ the sender

    def owner(self, guild_id: int) -> int:
        """The shard whose process runs `guild_id` (Discord's formula, as bot.config)."""
        return (guild_id >> 22) % self.shard_count

    async def forward(self, guild_id: int, interaction_id: int, payload: dict[str, Any]
                      ) -> bool:
        """Hand the interaction to the process that runs `guild_id`'s shard; True once it
        has taken it (it answers), False if it did not within `wait` seconds or the
        database could not be reached: then nobody else will answer it (the caller
        must)."""
        shard = self.owner(guild_id)
        taken = asyncio.get_running_loop().create_future()
        self._waiting[interaction_id] = taken
        try:
            try:
                async with self._lock:
                    await self._conn.execute(_SEND, interaction_id, shard,
                                             json.dumps(payload), shard_channel(shard))
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError,
                    AttributeError) as exc:  # AttributeError: no connection yet
                log.warning("could not relay interaction %s to shard %s: %r",
                            interaction_id, shard, exc)
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(taken), self.wait)
                return True
            return not await self._take_back(interaction_id, shard)
        finally:
            self._waiting.pop(interaction_id, None)

    async def _take_back(self, interaction_id: int, shard: int) -> bool:
        """Whether the row was still there (the owner never took it): now it never will.
        A database that cannot be reached cannot tell: the owner, with the same
        database, cannot take it either, so it counts as not taken."""
        try:
            async with self._lock:
                back = await self._conn.fetchval(_TAKE_BACK, interaction_id)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("relayed interaction %s: no answer from shard %s, and the "
                        "database is unreachable: %r", interaction_id, shard, exc)
            return True
        if back is not None:
            log.warning("relayed interaction %s: the process of shard %s did not take it "
                        "within %.1f s", interaction_id, shard, self.wait)
        return back is not None

    def _on_taken(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        waiting = self._waiting.get(int(payload))
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    # ------------------------------------------------------------------ the connection

    def _on_lost(self, conn: Any) -> None:
        if self._closed or self._reconnecting is not None:
            return
        log.warning("the relay's database connection was lost: reconnecting")
        self._conn = None
        self._reconnecting = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        try:
            await reconnect_until(self._connect, lambda: self._closed, "the relay")
        finally:
            self._reconnecting = None

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=2.0)
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=2.0)
            self._conn = None
