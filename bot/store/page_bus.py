"""Messages between the shard processes of one bot for the Activity's pages (bot/web),
over their PostgreSQL database: LISTEN/NOTIFY, no broker of our own.

Why: Discord shows an Activity at one address (the app's URL mapping), so a page's
websocket reaches whichever process serves that address, while its table lives in the
process of its server's shard (as a DM click reaches shard 0's process,
bot/store/relay.py). The process that holds the page's socket (its host) sends the
page's frames to the table's process (its owner), which plays them as its own pages'
and sends the page its views back: the table is played in the one process that runs it.

How: every process LISTENs on a channel of its own (``amk_pages_<backend pid>``: its
address, `name`) and on one for each of its shards (``amk_pages_shard_<n>``). A message
is a dict of JSON values; the messages of one turn of the event loop are sent in one
statement, packed into as few NOTIFY payloads as fit under PostgreSQL's 8,000 bytes
("the payload string ... must be shorter than 8000 bytes",
https://www.postgresql.org/docs/current/sql-notify.html), a longer message in parts.
"The notifications from one transaction are delivered in the order they were sent, and
notifications from different transactions are delivered in the order in which the
transactions committed" (same page): a process receives another's messages in the order
they were sent ("If the same channel name is signaled multiple times with identical
payload strings within the same transaction, only one instance of the notification
event is delivered": every payload here is numbered by its sender, `n`, so none is
like another). A process that connects (first, or again after losing the connection)
says so on ``amk_pages_up`` with its shards: the hosts drop the pages of those shards,
which reconnect and are shown their table as its owner has it now. `alive` tells which
processes still listen (their backend is still in pg_stat_activity), so an owner forgets
the pages of a host that died.

This module knows nothing of pages or tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable, Collection
from typing import Any

import asyncpg

from bot.store.relay import reconnect_until

log = logging.getLogger(__name__)

UP = "amk_pages_up"
# Bytes of one NOTIFY payload: PostgreSQL's limit is 8,000; the JSON here is ASCII.
PAYLOAD = 7900
# unnest yields the arrays' elements in order: the notifications are queued in that order
_SEND = "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS t(c, p)"
_ALIVE = "SELECT pid FROM pg_stat_activity WHERE pid = ANY($1::int[])"


def shard_channel(shard: int) -> str:
    return f"amk_pages_shard_{shard}"


def process_channel(name: str) -> str:
    return f"amk_pages_{name}"


class PageBus:
    """This process's end: `deliver(message)` gets each message sent to it or to one of
    its shards, in order; `lost()` is called when the connection is lost (the messages
    of that time are lost too). Open with ``await bus.start(deliver, lost)``."""

    def __init__(self, url: str, shard_count: int, shard_ids: tuple[int, ...]) -> None:
        self.url = url
        self.shard_count = shard_count
        self.shard_ids = tuple(shard_ids)
        self.name = ""  # this process's address while connected: its backend's pid
        self._deliver: Callable[[dict[str, Any]], None] = lambda message: None
        self._lost: Callable[[], None] = lambda: None
        self._conn: Any = None
        self._pending: list[tuple[str, str]] = []  # (channel, message) to send
        self._flushing: asyncio.Task[None] | None = None
        self._parts: dict[str, list[str]] = {}  # a long message's parts so far, by id
        self._ids = itertools.count()
        self._closed = False
        self._reconnecting: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()  # one statement at a time on the connection

    async def start(self, deliver: Callable[[dict[str, Any]], None],
                    lost: Callable[[], None]) -> None:
        self._deliver, self._lost = deliver, lost
        await self._connect()

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.url)
        self.name = str(conn.get_server_pid())
        for channel in (process_channel(self.name), UP,
                        *(shard_channel(s) for s in self.shard_ids)):
            await conn.add_listener(channel, self._on_notify)
        conn.add_termination_listener(self._on_lost)
        self._conn = conn
        self.send(UP, {"k": "up", "s": list(self.shard_ids), "from": self.name})

    def owner(self, guild_id: int) -> int:
        """The shard whose process runs `guild_id` (Discord's formula, as bot.config)."""
        return (guild_id >> 22) % self.shard_count

    def owns(self, guild_id: int) -> bool:
        return self.owner(guild_id) in self.shard_ids

    # ------------------------------------------------------------------ sending
    def to_shard(self, shard: int, message: dict[str, Any]) -> None:
        self.send(shard_channel(shard), message)

    def to_process(self, name: str, message: dict[str, Any]) -> None:
        self.send(process_channel(name), message)

    def send(self, channel: str, message: dict[str, Any]) -> None:
        """Queue a message; the queue is sent once this turn of the event loop is done
        (one statement for all), in order. Dropped while there is no connection."""
        if self._conn is None or self._closed:
            return
        self._pending.append((channel, json.dumps(message)))
        if self._flushing is None:
            self._flushing = asyncio.create_task(self._flush())

    async def _flush(self) -> None:
        try:
            while self._pending and self._conn is not None:
                await asyncio.sleep(0)  # the rest of this turn's messages
                pending, self._pending = self._pending, []
                channels, payloads = self._pack(pending)
                try:
                    async with self._lock:
                        await self._conn.execute(_SEND, channels, payloads)
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError,
                        AttributeError) as exc:  # AttributeError: the connection is lost
                    log.warning("could not send %d page message(s): %r", len(pending), exc)
        finally:
            self._flushing = None

    def _pack(self, pending: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
        """The messages as numbered JSON lists under PAYLOAD bytes each, in order (one
        list: consecutive messages to one channel); a message longer than that in
        parts (`part`), which the receiver puts together."""
        channels: list[str] = []
        payloads: list[str] = []
        batch: list[str] = []
        size = 0

        def close() -> None:
            if batch:
                payloads.append(f'{{"n":{next(self._ids)},"m":[' + ",".join(batch) + "]}")
                batch.clear()

        for channel, text in pending:
            pieces = [text]
            if len(text) > PAYLOAD - 100:
                # a part's text is JSON put in JSON: its quotes and backslashes doubled
                pid, step = f"{self.name}.{next(self._ids)}", (PAYLOAD - 200) // 2
                chunks = [text[i:i + step] for i in range(0, len(text), step)]
                pieces = [json.dumps({"k": "part", "id": pid, "last": i == len(chunks) - 1,
                                      "d": chunk}) for i, chunk in enumerate(chunks)]
            for piece in pieces:
                if batch and (channels[-1] != channel or size + len(piece) + 40 > PAYLOAD):
                    close()
                if not batch:
                    channels.append(channel)
                    size = 0
                batch.append(piece)
                size += len(piece) + 1
        close()
        return channels, payloads

    # ------------------------------------------------------------------ receiving
    def _on_notify(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        for message in json.loads(payload)["m"]:
            if message.get("k") == "part":
                parts = self._parts.setdefault(message["id"], [])
                parts.append(message["d"])
                if not message["last"]:
                    continue
                message = json.loads("".join(self._parts.pop(message["id"])))
            if channel == UP and message.get("from") == self.name:
                continue  # our own
            try:
                self._deliver(message)
            except Exception:
                log.exception("a page message could not be handled: %.200r", message)

    async def alive(self, names: Collection[str]) -> set[str]:
        """Which of these processes still listen (all of them if it cannot be told)."""
        pids = [int(n) for n in names]
        if self._conn is None:
            return set(names)
        try:
            async with self._lock:
                rows = await self._conn.fetch(_ALIVE, pids)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, AttributeError):
            return set(names)
        return {str(row["pid"]) for row in rows}

    # ------------------------------------------------------------------ the connection
    def _on_lost(self, conn: Any) -> None:
        if self._closed or self._reconnecting is not None:
            return
        log.warning("the pages' database connection was lost: reconnecting")
        self._conn = None
        self._pending.clear()
        self._parts.clear()
        self._lost()
        self._reconnecting = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        try:
            await reconnect_until(self._connect, lambda: self._closed, "the pages' bus")
        finally:
            self._reconnecting = None

    async def close(self) -> None:
        """Send what is queued, then close."""
        if self._flushing is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._flushing), 2.0)
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=2.0)
            self._conn = None
