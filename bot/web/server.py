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

With the bot split by shard over processes on PostgreSQL, a page of a table of another
process is handed to it (bot/web/across.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from bot.errors import GameError
from bot.i18n import language_of, use_locale
from bot.render import error_text
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import LOBBY, PLAYING, Table
from bot.web.across import Across, Remote
from bot.web.connection import Connection, Refusal, parse, refused
from bot.web.daily_page import Front
from bot.web.discord_api import DiscordApi
from bot.web.doorway import PREFIXES, STATIC, Doorway
from bot.web.frames import Views, review_frame
from bot.web.home import page_recap
from bot.web.home_pages import HomePages
from bot.web.outgoing import Outgoing

if TYPE_CHECKING:  # asyncpg is imported only with PostgreSQL
    from bot.store.page_bus import PageBus

log = logging.getLogger(__name__)

MAX_FRAME = 4096  # bytes: a move is a few dozen
HELLO_WITHIN = 20.0  # seconds a new socket has to say who it is
LIVE = (LOBBY, PLAYING)  # a table's stages while it is its channel's


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
        self.door = Doorway(api, static)
        self._by_table: dict[int, set[Connection]] = {}
        self._dirty: set[int] = set()
        self._telling: set[asyncio.Task[None]] = set()
        self._channel_of: dict[int, int] = {}  # a followed table -> its channel
        self._flush_scheduled = False
        self._runner: web.AppRunner | None = None
        self._unwatch: Callable[[], None] | None = None
        # Across shard processes (bot/web/across.py): the pages this process holds for
        # others' tables, and those others hold for this one's.
        self._across = None if bus is None else Across(
            bus, clock, open_page=self._open, forget_page=self._forget,
            play_frame=self._play)
        # Entry Point launches not yet met by their page: (member, channel) -> when, and
        # the launch's front (bot/web/daily_page.py)
        # What a member's page last showed of a table (its version): a recap tells
        # only what came after (in memory: after a restart it may be told once more)
        self._seen: dict[tuple[int, int], int] = {}
        self.homes = HomePages(self.tables, send=self._send, follow=self._follow)

    # ------------------------------------------------------------ start and stop
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024)
        self.door.add_routes(app)
        for prefix in PREFIXES:
            app.router.add_get(f"{prefix}/ws", self._socket)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._unwatch = self.tables.keeper.watch(self.changed)
        self.tables.listeners.add(self._heard)
        if self._across is not None:
            await self._across.start()
        log.info("the Activity's page is served on %s:%d", self.host, self.port)

    async def stop(self) -> None:
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None
        for connections in list(self._by_table.values()):
            for conn in list(connections):
                await conn.outgoing.close(1001, b"the bot is restarting")
        for conn in list(self.homes.pages):
            await conn.outgoing.close(1001, b"the bot is restarting")
        if self._across is not None:
            await self._across.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.api.close()

    async def disconnect(self, table_id: int) -> None:
        """Close every page of a table (each reconnects and is shown the table as it is
        then): what a restart does to them, for one table."""
        for conn in list(self._by_table.get(table_id, ())):
            self._forget(conn)
            await conn.outgoing.close(1012, b"reconnect")

    def want_home(self, user_id: int, channel_id: int, front: Front | None = None) -> None:
        """The member launched the Activity with the app's Entry Point command in this
        channel (cogs/tables/entry_point.py): their page opens on the home page."""
        self.homes.want(user_id, channel_id, front)

    def connections(self, table_id: int) -> int:
        """How many pages follow a table (for tests and the bench)."""
        return len(self._by_table.get(table_id, ()))

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
                    assert self._across is not None
                    self._across.pass_on(conn, message.data)
                else:
                    await self._frame(conn, message.data)
        finally:
            if isinstance(conn, Remote):
                assert self._across is not None
                self._across.drop_remote(conn)
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
        hello = parse(message.data) if message.type == WSMsgType.TEXT else None
        language = language_of(hello.get("locale")) if hello else "en"
        try:
            if hello is None or hello.get("type") != "hello":
                raise Refusal("bad_frame")
            token, instance_id = hello.get("access_token"), hello.get("instance_id")
            if not isinstance(token, str) or not isinstance(instance_id, str):
                raise Refusal("bad_frame")
            member, instance = await self.door.member_in(token, instance_id)
            if member.avatar is not None:
                self.door.avatars[member.id] = member.avatar
            language = await self._language_of(member.id, language)
            if self._across is not None and self._across.elsewhere(instance.guild_id):
                return await self._across.hand_over(ws, member, instance, language)
            conn = Connection(member, 0, language, Outgoing(ws))
            if not self._open(conn, instance.channel_id, instance.guild_id):
                conn.outgoing.stop()
                raise Refusal("no_table")
        except Refusal as exc:
            await ws.send_str(json.dumps(refused(exc.code, language)))
            return None
        return conn

    def _open(self, conn: Connection, channel_id: int, guild_id: int | None) -> bool:
        """A new page of this process's server: the home page if its member launched the
        Activity with the Entry Point command (want_home), else the channel's table;
        False if neither (no table here)."""
        table = self.tables.registry.in_channel(channel_id)
        if table is not None and table.guild_id != guild_id:
            table = None
        if self.homes.opened(conn, channel_id, guild_id):
            self._spawn(self.homes.show(conn))
            return True
        if table is None:
            return False
        self._follow(conn, table)
        return True

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    def _follow(self, conn: Connection, table: Table) -> Connection:
        """A page of one of this process's tables, shown the table now and after every
        change."""
        conn.table_id = table.id
        self._by_table.setdefault(table.id, set()).add(conn)
        self._channel_of[table.id] = table.channel_id
        self.tables.set_watching(table.id, conn.member.id, True)
        seen = self._seen.get((table.id, conn.member.id), 0)
        if table.game is None or table.version <= seen or table.seat_of(conn.member.id) is None:
            self._push(conn, table)
        else:  # others may have acted since the member's last move or look
            self._spawn(self._first_view(conn, table.id, seen))
        return conn

    async def _first_view(self, conn: Connection, table_id: int, seen: int) -> None:
        """A page opening a table where others acted since the member's last move there
        or their last look at it (a page's, kept while the bot runs): its first view
        carries "While you were away" (bot/render/recap.py, as the hand panel's)."""
        table = self.tables.registry.get(table_id)
        if table is None or conn.table_id != table_id:
            return
        with use_locale(conn.language):
            recap = await page_recap(self.tables, table, conn.member.id, seen)
        table = self.tables.registry.get(table_id)  # as it is now
        if table is None or conn.table_id != table_id:
            return
        views = Views(table, avatars=self.door.avatars, now=self.clock())
        frame = views.frame(conn.member.id, conn.language)  # as _push's, with the recap
        if recap is not None:
            frame["recap"] = recap
        conn.last_view = json.dumps(frame)
        self._send_text(conn, conn.last_view)

    def _forget(self, conn: Connection) -> None:
        self.homes.forget(conn)
        if self._across is not None:
            self._across.forgotten(conn)
        followers = self._by_table.get(conn.table_id)
        table = self.tables.registry.get(conn.table_id)
        if table is not None and conn.last_view:  # what the page showed is seen
            self._seen[(table.id, conn.member.id)] = table.version
        if followers is not None and conn in followers:
            self.tables.set_watching(conn.table_id, conn.member.id, False)
            followers.discard(conn)
            if not followers:
                del self._by_table[conn.table_id]

    # ------------------------------------------------------------ frames from the page
    async def _frame(self, conn: Connection, data: str) -> None:
        if not conn.bucket.allowed(self.clock()):
            self._send(conn, refused("rate_limited", conn.language))
            return
        await self._play(conn, data)

    async def _play(self, conn: Connection, data: str) -> None:
        """A frame of a page within its rate limit (checked where its socket is)."""
        frame = parse(data)
        try:
            kind = frame.get("type") if frame is not None else None
            if frame is None or kind not in ("act", "claim", "hint", "table", "review",
                                             "rematch", "new", "daily", "home", "back"):
                raise Refusal("bad_frame")
            if kind in ("new", "daily", "home") or conn.daily is not None:
                await self.homes.play(conn, kind, frame)
            elif kind == "table":
                self.homes.to_table(conn)
            elif kind == "review":
                self._review(conn)
            elif kind == "rematch":
                await self._rematch(conn)
            elif kind == "back":
                await self._back(conn)
            elif kind == "act":
                await self._act(conn, frame)
            elif kind == "claim":
                await self._claim(conn, frame)
            else:
                await self._hint(conn, frame)
        except Refusal as exc:
            self._send(conn, refused(exc.code, conn.language))
        except GameError as error:
            self._send(conn, self._game_refusal(conn, error))

    async def _act(self, conn: Connection, frame: dict[str, Any]) -> None:
        """One of the member's legal actions, at the version its view was drawn for,
        through the table service as a click is (the service checks the seat, the
        version and the turn; the game checks the move)."""
        version, wanted = frame.get("version"), frame.get("action")
        if not isinstance(version, int) or not isinstance(wanted, dict):
            raise Refusal("bad_frame")
        table = self.tables.registry.require(conn.table_id)

        def make(seat: int) -> Any:
            # the game finds it among the few it can be, not among every legal action
            action = table.kind.legal_action(table.game, seat, wanted)
            if action is not None:
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

    def _review(self, conn: Connection) -> None:
        """The deal last finished, face up, for this member alone (as the channel's
        Review button shows it to whoever asks)."""
        table = self.tables.registry.get(conn.table_id)
        frame = review_frame(table, conn.language) if table is not None else None
        if frame is None:
            raise Refusal("unknown_action")
        self._send(conn, frame)

    async def _rematch(self, conn: Connection) -> None:
        """A player of the finished game asks for (or accepts) its rematch: the lobby's
        `rematch`, as the Rematch button under the standings calls it; once everyone is
        in, the new table is the channel's and its pages follow it (`_follow_new`); the
        lobby tells the watchers of both tables (`changed`)."""
        await self.tables.lobby.rematch(conn.table_id, conn.member.id)

    async def _back(self, conn: Connection) -> None:
        """The member takes their seat back from the AI, as the panel's I'm back and
        `/back` do (the seats' `set_away`, whose change the channel's table message
        follows as it follows theirs)."""
        await self.tables.seats.set_away(conn.table_id, conn.member.id, False)

    def _tell(self, result: Any) -> None:
        """The channel's side of a page's move, as after a click: the table message, the
        next player's panel or ping (the table cog hears it as it hears an AI's move). In
        a task of its own: a post waits for the bot's request budget, the page not."""
        self._spawn(self.tables.listeners.result(result.table, result))

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
            # the public table built once for its pages
            views = Views(table, avatars=self.door.avatars, now=self.clock())
            for conn in list(self._by_table.get(table_id, ())):
                self._push(conn, table, views)

    def _push(self, conn: Connection, table: Table, views: Views | None = None) -> None:
        views = views or Views(table, avatars=self.door.avatars, now=self.clock())
        frame = views.frame(conn.member.id, conn.language)
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

