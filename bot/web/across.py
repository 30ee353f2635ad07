"""A page of a table of another process: with the bot split by shard over processes on
PostgreSQL, a page may reach any process (the URL mapping is one address) while its
table lives in its server's shard's process. The process that holds the socket (the
host) checks who and where, then hands the page to the table's process (the owner)
over the database (bot/store/page_bus.py): the owner keeps it among its table's pages
like one of its own, plays its frames and sends its views back, which the host passes
on. The rate limit and the slow-socket queue stay with the socket, at the host."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.i18n import language_of
from bot.web.connection import Bucket, Connection, refused
from bot.web.discord_api import Instance, Member
from bot.web.outgoing import Outgoing

if TYPE_CHECKING:  # asyncpg is imported only with PostgreSQL
    from bot.store.page_bus import PageBus

OPEN_WITHIN = 5.0  # seconds the table's process has to take a page handed to it
HOSTS_CHECK = 10.0  # seconds between two checks that the hosts of handed pages live


class Handed:
    """The sender of a page whose socket another process holds: its frames go there."""

    def __init__(self, bus: PageBus, host: str, page: str) -> None:
        self.bus, self.host, self.page = bus, host, page

    def put(self, text: str) -> bool:
        self.bus.to_process(self.host, {"k": "text", "c": self.page, "d": text})
        return True

    def stop(self) -> None:
        pass

    async def close(self, code: int, message: bytes) -> None:
        self.bus.to_process(self.host, {"k": "end", "c": self.page, "code": code})


@dataclass(eq=False)
class Remote:
    """A page whose socket this process holds, of a table of another process (its
    owner shard's), by the page's id there."""

    id: str
    shard: int
    language: str
    outgoing: Outgoing
    bucket: Bucket = field(default_factory=Bucket)
    opened: asyncio.Event = field(default_factory=asyncio.Event)


class Across:
    """This process's side of the pages that cross processes: those it holds for
    others' tables (Remote), and those others hold for its own (Handed). What a page is
    shown and how its frames are played is the server's (`open_page`, `forget_page`,
    `play_frame`)."""

    def __init__(self, bus: PageBus, clock: Callable[[], float], *,
                 open_page: Callable[[Connection, int, int | None], bool],
                 forget_page: Callable[[Connection], None],
                 play_frame: Callable[[Connection, str], Awaitable[None]]) -> None:
        self.bus = bus
        self.clock = clock
        self._open_page = open_page
        self._forget_page = forget_page
        self._play_frame = play_frame
        self._remote: dict[str, Remote] = {}
        self._handed: dict[tuple[str, str], Connection] = {}
        self._checking: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        await self.bus.start(self._message, self._lost)

    async def close(self) -> None:
        if self._checking is not None:
            self._checking.cancel()
        for remote in list(self._remote.values()):
            await remote.outgoing.close(1001, b"the bot is restarting")
        await self.bus.close()

    def forgotten(self, conn: Connection) -> None:
        """A handed page the server forgot (closed, too slow): no longer ours to keep."""
        if conn.host is not None:
            self._handed.pop(conn.host, None)

    def elsewhere(self, guild_id: int | None) -> bool:
        """Whether a server's tables live in another process (bot/store/page_bus.py)."""
        return guild_id is not None and not self.bus.owns(guild_id)

    async def hand_over(self, ws: web.WebSocketResponse, member: Member, instance: Instance,
                         language: str) -> Remote | None:
        """A page of a table of another process: handed to it, once Discord has said who
        and where (here); None (refused) if that process does not take it in time."""
        assert instance.guild_id is not None
        remote = Remote(uuid.uuid4().hex, self.bus.owner(instance.guild_id), language,
                        Outgoing(ws))
        self._remote[remote.id] = remote
        self.bus.to_shard(remote.shard, {
            "k": "open", "h": self.bus.name, "c": remote.id, "m": member.id,
            "n": member.name, "ch": instance.channel_id, "g": instance.guild_id,
            "l": language})
        try:
            await asyncio.wait_for(remote.opened.wait(), OPEN_WITHIN)
        except TimeoutError:
            self._remote.pop(remote.id, None)
            remote.outgoing.stop()
            await ws.send_str(json.dumps(refused("shard_unreachable", language)))
            return None
        return remote

    def pass_on(self, remote: Remote, data: str) -> None:
        """A frame of a handed page, to its table's process (within its rate limit)."""
        if not remote.bucket.allowed(self.clock()):
            remote.outgoing.put(json.dumps(refused("rate_limited", remote.language)))
            return
        self.bus.to_shard(remote.shard, {"k": "frame", "h": self.bus.name, "c": remote.id,
                                         "d": data})

    def drop_remote(self, remote: Remote) -> None:
        if self._remote.pop(remote.id, None) is not None:
            self.bus.to_shard(remote.shard, {"k": "close", "h": self.bus.name, "c": remote.id})

    def _message(self, message: dict[str, Any]) -> None:
        """A message from another process: for a page this process holds (its frames,
        its end, its owner back up), or for a page of one of its tables held there."""
        kind = message.get("k")
        if kind in ("text", "end"):
            remote = self._remote.get(message["c"])
            if remote is None:
                return
            remote.opened.set()
            if kind == "text":
                if not remote.outgoing.put(message["d"]):
                    self.drop_remote(remote)  # too slow: closed, it reconnects
            else:
                self.drop_remote(remote)
                self._spawn(remote.outgoing.close(int(message["code"]), b"reconnect"))
        elif kind == "up":
            # A process (re)started: the pages it had been handed are gone with it; they
            # reconnect and are shown their table as it is now.
            shards = set(message["s"])
            for remote in [r for r in self._remote.values() if r.shard in shards]:
                self._remote.pop(remote.id, None)
                self._spawn(remote.outgoing.close(1012, b"reconnect"))
        elif kind == "open":
            self._take_page(message)
        elif kind in ("frame", "close"):
            conn = self._handed.get((message["h"], message["c"]))
            if conn is None:
                if kind == "frame":  # a page this process no longer has: it reconnects
                                self.bus.to_process(message["h"], {"k": "end", "c": message["c"],
                                                       "code": 1012})
            elif kind == "frame":
                self._spawn(self._play_frame(conn, message["d"]))
            else:
                self._forget_page(conn)

    def _take_page(self, message: dict[str, Any]) -> None:
        """A page another process holds, of a table of this one: followed as our own."""
        host, page = str(message["h"]), str(message["c"])
        sender = Handed(self.bus, host, page)
        language = language_of(message.get("l"))
        conn = Connection(Member(int(message["m"]), str(message["n"])), 0, language,
                          sender, host=(host, page))
        if not self._open_page(conn, int(message["ch"]), message.get("g")):
            sender.put(json.dumps(refused("no_table", language)))
            self._spawn(sender.close(1000, b"no table"))
            return
        self._handed[(host, page)] = conn
        if self._checking is None:
            self._checking = asyncio.create_task(self._check_hosts())

    async def _check_hosts(self) -> None:
        """Forget the handed pages of a process that died (its pages reconnect to
        another), so that their members are pinged again when it is their turn."""
        try:
            while self._handed:
                await asyncio.sleep(HOSTS_CHECK)
                hosts = {host for host, _ in self._handed}
                alive = await self.bus.alive(hosts)
                for key, conn in list(self._handed.items()):
                    if key[0] not in alive:
                        self._forget_page(conn)
        finally:
            self._checking = None

    def _lost(self) -> None:
        """The database connection is lost: every page across processes reconnects."""
        for remote in list(self._remote.values()):
            self._spawn(remote.outgoing.close(1012, b"reconnect"))
        self._remote.clear()
        for conn in list(self._handed.values()):
            self._forget_page(conn)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
