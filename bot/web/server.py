"""The Activity's backend: the page, the code exchange, and one websocket per member.

Discord shows the page at `https://<app id>.discordsays.com/` and carries the page's
requests to the backend through its proxy: relative paths under `/.proxy/` (websockets
too: "we currently only support websockets",
https://discord.com/developers/docs/activities/development-guides/networking). The URL
mapping of `/` points at this server; each route is served with and without the
`/.proxy` prefix, so that the page also works served straight from here (the tests).

A websocket's first frame is `hello` with the member's access token and the instance id
the SDK gives; the member is who Discord says the token belongs to (`/users/@me`), and
the instance must hold the member and run in a channel that has a table (checked with
the bot token) before any hand is sent. Then the page gets its member's view after every
change of the table, and sends `act` frames: one of the legal actions listed in its last
view, at that view's version, played through the table service like a click.

With the bot split by shard over processes on PostgreSQL, a page may reach any process
(the URL mapping is one address) while its table lives in its server's shard's process.
The process that holds the socket (the host) checks who and where as above, then hands
the page to the table's process (the owner) over the database (bot/store/page_bus.py):
the owner keeps it among its table's pages like one of its own, plays its frames and
sends its views back, which the host passes on. The rate limit and the slow-socket
queue stay with the socket, at the host.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import aiohttp
from aiohttp import WSMsgType, web

from bot.errors import GameError
from bot.i18n import language_of, use_locale
from bot.render import error_text
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import LOBBY, PLAYING, Table
from bot.web.discord_api import DiscordApi, DiscordRefused, Instance, Member
from bot.web.frames import MANY, action_key, view_frame
from bot.web.home import home_frame
from bot.web.outgoing import Outgoing
from bot.web.words import refusal_text

if TYPE_CHECKING:  # asyncpg is imported only with PostgreSQL
    from bot.store.page_bus import PageBus

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
PREFIXES = ("", "/.proxy")
# Frames a connection may send: a burst, then this many a second (a token bucket).
BURST = 20
RATE = 5.0
MAX_FRAME = 4096  # bytes: a move is a few dozen
HELLO_WITHIN = 20.0  # seconds a new socket has to say who it is
LIVE = (LOBBY, PLAYING)  # a table's stages while it is its channel's
INSTANCE_FRESH = 10.0  # seconds an instance's answer serves the members it lists
OPEN_WITHIN = 5.0  # seconds the table's process has to take a page handed to it
HOSTS_CHECK = 10.0  # seconds between two checks that the hosts of handed pages live
HOME_FRESH = 60.0  # seconds an Entry Point launch waits for its member's page


class Refusal(Exception):
    """A frame the backend refuses by its own code (bot/web/words.py)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass
class Bucket:
    """A page's rate limit: BURST frames, then RATE a second (a token bucket)."""

    tokens: float = BURST
    refilled: float = 0.0

    def allowed(self, now: float) -> bool:
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Sender(Protocol):
    """Where a page's frames go: its socket's queue (Outgoing), or its host (Handed)."""

    def put(self, text: str) -> bool: ...

    def stop(self) -> None: ...

    async def close(self, code: int, message: bytes) -> None: ...


@dataclass(eq=False)  # each page is itself: kept in sets by identity
class Connection:
    """One page of a table of this process: its member, its table, and where its frames
    go (its socket here, or the process that holds its socket)."""

    member: Member
    table_id: int
    language: str
    outgoing: Sender
    bucket: Bucket = field(default_factory=Bucket)
    last_view: str = ""
    host: tuple[str, str] | None = None  # a handed page's (host process, page id)
    home: tuple[int, int] | None = None  # on the home page: (guild, channel); table_id 0


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


class ActivityServer:
    """The backend, in the bot's process, on `host:port` (port 0: any free one)."""

    def __init__(self, tables: TableService, api: DiscordApi, *, host: str, port: int,
                 clock: Callable[[], float], static: Path = STATIC,
                 bus: PageBus | None = None) -> None:
        self.tables = tables
        self.api = api
        self.host = host
        self.port = port
        self.clock = clock  # the rate limit's time
        self.static = static
        self._by_table: dict[int, set[Connection]] = {}
        self._dirty: set[int] = set()
        self._instances: dict[str, tuple[float, Instance]] = {}
        self._telling: set[asyncio.Task[None]] = set()
        self._channel_of: dict[int, int] = {}  # a followed table -> its channel
        self._flush_scheduled = False
        self._runner: web.AppRunner | None = None
        self._unwatch: Callable[[], None] | None = None
        # Across shard processes (bot/store/page_bus.py): the pages this process holds
        # for others (by page id), and those others hold for this one's tables.
        self.bus = bus
        self._remote: dict[str, Remote] = {}
        self._handed: dict[tuple[str, str], Connection] = {}
        self._checking: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        # Entry Point launches not yet met by their page: (member, channel) -> when
        self._homes: dict[tuple[int, int], float] = {}
        self._at_home: set[Connection] = set()  # pages on the home page (no table)

    # ------------------------------------------------------------ start and stop
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024)
        for prefix in PREFIXES:
            app.router.add_post(f"{prefix}/api/token", self._token)
            app.router.add_get(f"{prefix}/api/config", self._config)
            app.router.add_get(f"{prefix}/ws", self._socket)
        app.router.add_get("/", self._index)
        app.router.add_get("/{name}", self._file)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._unwatch = self.tables.keeper.watch(self.changed)
        self.tables.listeners.add(self._heard)
        if self.bus is not None:
            await self.bus.start(self._bus_message, self._bus_lost)
        log.info("the Activity's page is served on %s:%d", self.host, self.port)

    async def stop(self) -> None:
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None
        if self._checking is not None:
            self._checking.cancel()
        for connections in list(self._by_table.values()):
            for conn in list(connections):
                await conn.outgoing.close(1001, b"the bot is restarting")
        for conn in list(self._at_home):
            await conn.outgoing.close(1001, b"the bot is restarting")
        for remote in list(self._remote.values()):
            await remote.outgoing.close(1001, b"the bot is restarting")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.bus is not None:
            await self.bus.close()
        await self.api.close()

    async def disconnect(self, table_id: int) -> None:
        """Close every page of a table (each reconnects and is shown the table as it is
        then): what a restart does to them, for one table."""
        for conn in list(self._by_table.get(table_id, ())):
            self._forget(conn)
            await conn.outgoing.close(1012, b"reconnect")

    def want_home(self, user_id: int, channel_id: int) -> None:
        """The member launched the Activity with the app's Entry Point command in this
        channel (cogs/tables/entry_point.py): their page opens on the home page."""
        now = time.monotonic()
        for key in [k for k, when in self._homes.items() if now - when > HOME_FRESH]:
            del self._homes[key]
        self._homes[(user_id, channel_id)] = now

    def connections(self, table_id: int) -> int:
        """How many pages follow a table (for tests and the bench)."""
        return len(self._by_table.get(table_id, ()))

    # ------------------------------------------------------------ the page
    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._serve(self.static / "index.html")

    async def _file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if "/" in name or name.startswith("."):
            raise web.HTTPNotFound()
        return self._serve(self.static / name)

    def _serve(self, path: Path) -> web.StreamResponse:
        if not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={"Cache-Control": "no-cache"})

    async def _config(self, request: web.Request) -> web.Response:
        """What the page needs before the SDK starts: the app's client id (public)."""
        return web.json_response({"client_id": str(self.api.app_id)})

    async def _token(self, request: web.Request) -> web.Response:
        """The SDK's one-time code for the member's access token, exchanged here with the
        app's client secret (which never reaches the page)."""
        try:
            body = await request.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not code or len(code) > 200:
            return web.json_response({"error": "bad_frame"}, status=400)
        try:
            token = await self.api.exchange(code)
        except DiscordRefused:
            return web.json_response({"error": "unauthorized"}, status=401)
        return web.json_response({"access_token": token})

    # ------------------------------------------------------------ a member's socket
    async def _socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_FRAME)
        await ws.prepare(request)
        conn = await self._welcome(ws)
        if conn is None:
            await ws.close()
            return ws
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                if isinstance(conn, Remote):
                    self._pass_on(conn, message.data)
                else:
                    await self._frame(conn, message.data)
        finally:
            if isinstance(conn, Remote):
                self._drop_remote(conn)
            else:
                self._forget(conn)
            conn.outgoing.stop()
        return ws

    async def _language_of(self, user_id: int, discord_language: str) -> str:
        """The member's own choice (`/language`: Persian is never a Discord locale), else
        their Discord's as the SDK gave it; the store away leaves their Discord's."""
        try:
            chosen = await self.tables.shared.store.get_member_language(user_id)
        except Exception:  # a page opens even when the database does not answer
            log.warning("could not read %s's language; their Discord's is used", user_id,
                        exc_info=True)
            return discord_language
        return chosen or discord_language

    async def _welcome(self, ws: web.WebSocketResponse) -> Connection | Remote | None:
        """The hello frame: who, where, in which words; None (refused) if any check fails."""
        try:
            message = await ws.receive(timeout=HELLO_WITHIN)
        except TimeoutError:
            return None  # a socket that never says who it is
        hello = _parse(message.data) if message.type == WSMsgType.TEXT else None
        language = language_of(hello.get("locale")) if hello else "en"
        try:
            if hello is None or hello.get("type") != "hello":
                raise Refusal("bad_frame")
            token, instance_id = hello.get("access_token"), hello.get("instance_id")
            if not isinstance(token, str) or not isinstance(instance_id, str):
                raise Refusal("bad_frame")
            member, instance = await self._member_in(token, instance_id)
            language = await self._language_of(member.id, language)
            if self._elsewhere(instance.guild_id):
                return await self._hand_over(ws, member, instance, language)
            conn = Connection(member, 0, language, Outgoing(ws))
            if not self._open(conn, instance.channel_id, instance.guild_id):
                conn.outgoing.stop()
                raise Refusal("no_table")
        except Refusal as exc:
            await ws.send_str(json.dumps(_refused(exc.code, language)))
            return None
        return conn

    def _open(self, conn: Connection, channel_id: int, guild_id: int | None) -> bool:
        """A new page of this process's server: the home page if its member launched the
        Activity with the Entry Point command (want_home), else the channel's table;
        False if neither (no table here)."""
        table = self.tables.registry.in_channel(channel_id)
        if table is not None and table.guild_id != guild_id:
            table = None
        launched = self._homes.pop((conn.member.id, channel_id), None)
        if guild_id is not None and launched is not None \
                and time.monotonic() - launched <= HOME_FRESH:
            conn.home = (guild_id, channel_id)
            self._at_home.add(conn)
            self._send(conn, home_frame(self.tables, guild_id, channel_id, conn.member.id,
                                        conn.language))
            return True
        if table is None:
            return False
        self._follow(conn, table)
        return True

    def _follow(self, conn: Connection, table: Table) -> Connection:
        """A page of one of this process's tables, shown the table now and after every
        change."""
        conn.table_id = table.id
        self._by_table.setdefault(table.id, set()).add(conn)
        self._channel_of[table.id] = table.channel_id
        self.tables.set_watching(table.id, conn.member.id, True)
        self._push(conn, table)
        return conn

    async def _member_in(self, token: str, instance_id: str) -> tuple[Member, Instance]:
        """The member and the table of the instance's channel, once Discord has said who
        the member is and that they are in the instance (both Discord's own answers)."""
        try:
            member = await self.api.member(token)
            instance = await self._instance(instance_id, member.id)
        except DiscordRefused as exc:
            raise Refusal("unauthorized" if exc.status == 401 else "not_in_instance") \
                from None
        except (aiohttp.ClientError, TimeoutError):
            # Discord did not answer (the page tries again by itself)
            raise Refusal("discord_unreachable") from None
        if member.id not in instance.users:
            raise Refusal("not_in_instance")
        return member, instance

    async def _instance(self, instance_id: str, member_id: int) -> Instance:
        """The instance as Discord says, asked once for the members who open it together
        (a table's four pages: one request, not four): an answer a few seconds old
        serves a member it lists; anyone else makes it asked again."""
        now = time.monotonic()
        known = self._instances.get(instance_id)
        if known is not None and now - known[0] < INSTANCE_FRESH \
                and member_id in known[1].users:
            return known[1]
        instance = await self.api.instance(instance_id)
        self._instances[instance_id] = (now, instance)
        for old in [k for k, (when, _) in self._instances.items()
                    if now - when >= INSTANCE_FRESH]:
            del self._instances[old]
        return instance

    def _forget(self, conn: Connection) -> None:
        self._at_home.discard(conn)
        if conn.host is not None:
            self._handed.pop(conn.host, None)
        followers = self._by_table.get(conn.table_id)
        if followers is not None and conn in followers:
            self.tables.set_watching(conn.table_id, conn.member.id, False)
            followers.discard(conn)
            if not followers:
                del self._by_table[conn.table_id]

    # ------------------------------------------------------------ across shard processes
    def _elsewhere(self, guild_id: int | None) -> bool:
        """Whether a server's tables live in another process (bot/store/page_bus.py)."""
        return self.bus is not None and guild_id is not None and not self.bus.owns(guild_id)

    async def _hand_over(self, ws: web.WebSocketResponse, member: Member, instance: Instance,
                         language: str) -> Remote | None:
        """A page of a table of another process: handed to it, once Discord has said who
        and where (here); None (refused) if that process does not take it in time."""
        assert self.bus is not None and instance.guild_id is not None
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
            await ws.send_str(json.dumps(_refused("shard_unreachable", language)))
            return None
        return remote

    def _pass_on(self, remote: Remote, data: str) -> None:
        """A frame of a handed page, to its table's process (within its rate limit)."""
        if not remote.bucket.allowed(self.clock()):
            remote.outgoing.put(json.dumps(_refused("rate_limited", remote.language)))
            return
        assert self.bus is not None
        self.bus.to_shard(remote.shard, {"k": "frame", "h": self.bus.name, "c": remote.id,
                                         "d": data})

    def _drop_remote(self, remote: Remote) -> None:
        if self._remote.pop(remote.id, None) is not None and self.bus is not None:
            self.bus.to_shard(remote.shard, {"k": "close", "h": self.bus.name, "c": remote.id})

    def _bus_message(self, message: dict[str, Any]) -> None:
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
                    self._drop_remote(remote)  # too slow: closed, it reconnects
            else:
                self._drop_remote(remote)
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
                    assert self.bus is not None
                    self.bus.to_process(message["h"], {"k": "end", "c": message["c"],
                                                       "code": 1012})
            elif kind == "frame":
                self._spawn(self._play(conn, message["d"]))
            else:
                self._forget(conn)

    def _take_page(self, message: dict[str, Any]) -> None:
        """A page another process holds, of a table of this one: followed as our own."""
        assert self.bus is not None
        host, page = str(message["h"]), str(message["c"])
        sender = Handed(self.bus, host, page)
        language = language_of(message.get("l"))
        conn = Connection(Member(int(message["m"]), str(message["n"])), 0, language,
                          sender, host=(host, page))
        if not self._open(conn, int(message["ch"]), message.get("g")):
            sender.put(json.dumps(_refused("no_table", language)))
            self._spawn(sender.close(1000, b"no table"))
            return
        self._handed[(host, page)] = conn
        if self._checking is None:
            self._checking = asyncio.create_task(self._check_hosts())

    async def _check_hosts(self) -> None:
        """Forget the handed pages of a process that died (its pages reconnect to
        another), so that their members are pinged again when it is their turn."""
        assert self.bus is not None
        try:
            while self._handed:
                await asyncio.sleep(HOSTS_CHECK)
                hosts = {host for host, _ in self._handed}
                alive = await self.bus.alive(hosts)
                for key, conn in list(self._handed.items()):
                    if key[0] not in alive:
                        self._forget(conn)
        finally:
            self._checking = None

    def _bus_lost(self) -> None:
        """The database connection is lost: every page across processes reconnects."""
        for remote in list(self._remote.values()):
            self._spawn(remote.outgoing.close(1012, b"reconnect"))
        self._remote.clear()
        for conn in list(self._handed.values()):
            self._forget(conn)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ frames from the page
    async def _frame(self, conn: Connection, data: str) -> None:
        if not conn.bucket.allowed(self.clock()):
            self._send(conn, _refused("rate_limited", conn.language))
            return
        await self._play(conn, data)

    async def _play(self, conn: Connection, data: str) -> None:
        """A frame of a page within its rate limit (checked where its socket is)."""
        frame = _parse(data)
        try:
            kind = frame.get("type") if frame is not None else None
            if frame is None or kind not in ("act", "claim", "hint", "table"):
                raise Refusal("bad_frame")
            if kind == "table":
                self._to_table(conn)
            elif kind == "act":
                await self._act(conn, frame)
            elif kind == "claim":
                await self._claim(conn, frame)
            else:
                await self._hint(conn, frame)
        except Refusal as exc:
            self._send(conn, _refused(exc.code, conn.language))
        except GameError as error:
            self._send(conn, self._game_refusal(conn, error))

    def _to_table(self, conn: Connection) -> None:
        """From the home page to the table of the page's channel."""
        if conn.home is None:
            raise Refusal("bad_frame")
        guild_id, channel_id = conn.home
        table = self.tables.registry.in_channel(channel_id)
        if table is None or table.guild_id != guild_id:
            raise Refusal("no_table")
        conn.home = None
        self._at_home.discard(conn)
        self._follow(conn, table)

    async def _act(self, conn: Connection, frame: dict[str, Any]) -> None:
        """One of the member's legal actions, at the version its view was drawn for,
        through the table service as a click is (the service checks the seat, the
        version and the turn; the game checks the move)."""
        version, wanted = frame.get("version"), frame.get("action")
        if not isinstance(version, int) or not isinstance(wanted, dict):
            raise Refusal("bad_frame")
        key = canonical(wanted)
        table = self.tables.registry.require(conn.table_id)

        def make(seat: int) -> Any:
            kind = table.kind
            for action in kind.legal_actions(table.game, seat):
                if canonical(kind.action_to_json(action)) == key:
                    return action
            if table.to_act is not None and table.to_act != seat:
                return None  # not this seat's turn: the service refuses that first
            raise Refusal("unknown_action")

        result = await self.tables.play.act(conn.table_id, conn.member.id, version, make)
        self._tell(result)

    async def _claim(self, conn: Connection, frame: dict[str, Any]) -> None:
        """Claim the rest of the deal, as the panel's Claim does (the game decides)."""
        version = frame.get("version")
        if not isinstance(version, int):
            raise Refusal("bad_frame")
        result = await self.tables.play.claim(conn.table_id, conn.member.id, version)
        self._tell(result)

    async def _hint(self, conn: Connection, frame: dict[str, Any]) -> None:
        """The strong AI's move and why, for this member alone, as the panel's Hint."""
        version = frame.get("version")
        if not isinstance(version, int):
            raise Refusal("bad_frame")
        table = self.tables.registry.require(conn.table_id)
        if not table.switch("hints"):
            raise TableError("hints_off")
        with use_locale(conn.language):  # the game words the reason (in a thread: kept)
            hint = await self.tables.play.hint(conn.table_id, conn.member.id, version)
        self._send(conn, {"type": "hint", "text": hint.sentence})

    def _tell(self, result: Any) -> None:
        """The channel's side of a page's move, as after a click: the table message, the
        next player's panel or ping (the table cog hears it as it hears an AI's move). In
        a task of its own: a post waits for the bot's request budget, the page not."""
        told = asyncio.create_task(self.tables.listeners.result(result.table, result))
        self._telling.add(told)
        told.add_done_callback(self._telling.discard)

    def _game_refusal(self, conn: Connection, error: GameError) -> dict[str, Any]:
        table = self.tables.registry.get(conn.table_id)
        with use_locale(conn.language):
            text = error_text(error, table.kind if table is not None else None)
        return {"type": "refused", "code": error.code, "text": text}

    # ------------------------------------------------------------ views to the pages
    def changed(self, table: Table) -> None:
        """A table changed: its pages get their new views once the change is done (one
        flush for every change of this turn of the event loop)."""
        if table.id not in self._by_table and not self._follow_new(table):
            return
        self._dirty.add(table.id)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _follow_new(self, table: Table) -> bool:
        """A new table in a channel whose pages followed one that is over (a rematch, a
        new game): they follow the new one, as the channel does."""
        old_id = next((tid for tid in self._by_table
                       if tid != table.id and self._channel_of.get(tid) == table.channel_id),
                      None)
        if old_id is None:
            return False
        old = self.tables.registry.get(old_id)
        if old is not None and old.stage in LIVE:
            return False  # the channel's table is still that one
        moved = self._by_table.pop(old_id)
        for conn in moved:
            self.tables.set_watching(old_id, conn.member.id, False)
            self.tables.set_watching(table.id, conn.member.id, True)
            conn.table_id = table.id
        self._by_table[table.id] = moved
        self._channel_of[table.id] = table.channel_id
        return True

    async def _heard(self, table: Table, event: str, detail: dict[str, Any]) -> None:
        """The service's own moves (AI turns, timeouts) are changes too."""
        self.changed(table)

    def _flush(self) -> None:
        self._flush_scheduled = False
        dirty, self._dirty = self._dirty, set()
        for table_id in dirty:
            table = self.tables.registry.get(table_id)
            if table is None:
                continue
            for conn in list(self._by_table.get(table_id, ())):
                self._push(conn, table)

    def _push(self, conn: Connection, table: Table) -> None:
        frame = view_frame(table, conn.member.id, conn.language)
        text = json.dumps(frame)
        if text != conn.last_view:
            conn.last_view = text
            self._send_text(conn, text)

    def _send(self, conn: Connection, frame: dict[str, Any]) -> None:
        self._send_text(conn, json.dumps(frame))

    def _send_text(self, conn: Connection, text: str) -> None:
        """Queue a frame (bot/web/outgoing.py): a page too slow to take its frames is
        dropped, and reconnects to the table as it is then."""
        if not conn.outgoing.put(text):
            self._forget(conn)


def canonical(action_json: Any) -> str:
    """An action's record form without the seat, its lists of cards in one order."""
    if not isinstance(action_json, dict):
        return ""
    out = dict(action_json)
    for key in MANY:
        if isinstance(out.get(key), list):
            out[key] = sorted(str(card) for card in out[key])
    return action_key(out)


def _parse(data: Any) -> dict[str, Any] | None:
    try:
        frame = json.loads(data)
    except (TypeError, ValueError):
        return None
    return frame if isinstance(frame, dict) else None


def _refused(code: str, language: str) -> dict[str, Any]:
    with use_locale(language):
        return {"type": "refused", "code": code, "text": refusal_text(code)}
