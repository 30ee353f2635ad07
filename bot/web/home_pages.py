"""The Activity's home pages (issue 54): a page its member opened with the app's Entry
Point command, before it follows a table: the member's tables, a new table in the
page's channel, the deal of the day played in the page (bot/web/daily_page.py). What
only the bot's cogs do (post the lobby, the daily's public message and result) the page
asks of the launch's `Front`."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from bot.i18n import use_locale
from bot.tables.service import TableService
from bot.tables.table import Table
from bot.web.connection import Connection, Refusal
from bot.web.daily_page import Front, act_daily, open_daily
from bot.web.home import daily_offers, home_frame

log = logging.getLogger(__name__)

HOME_FRESH = 60.0  # seconds an Entry Point launch waits for its member's page


class HomePages:
    """The pages on their home page, and the launches waiting for their page."""

    def __init__(self, tables: TableService, *,
                 send: Callable[[Connection, dict[str, Any]], None],
                 follow: Callable[[Connection, Table], Connection]) -> None:
        self.tables = tables
        self._send = send
        self._follow = follow
        # Entry Point launches not yet met by their page: (member, channel) -> when, and
        # the launch's front (bot/web/daily_page.py)
        self._launches: dict[tuple[int, int], tuple[float, Front | None]] = {}
        self._fronts: dict[Connection, Front | None] = {}  # home pages' fronts
        self.pages: set[Connection] = set()  # pages on the home page (no table)

    def want(self, user_id: int, channel_id: int, front: Front | None = None) -> None:
        """The member launched the Activity with the app's Entry Point command in this
        channel (cogs/tables/entry_point.py): their page opens on the home page; `front`:
        what the page asks of the messages' side (a new table, the daily's result)."""
        now = time.monotonic()
        for key in [k for k, (when, _) in self._launches.items() if now - when > HOME_FRESH]:
            del self._launches[key]
        self._launches[(user_id, channel_id)] = (now, front)

    def opened(self, conn: Connection, channel_id: int, guild_id: int | None) -> bool:
        """Whether a new page is its member's launch from the Entry Point in this channel
        (`want`): then it is on the home page, shown once the deals of the day are read."""
        launched = self._launches.pop((conn.member.id, channel_id), None)
        if guild_id is None or launched is None \
                or time.monotonic() - launched[0] > HOME_FRESH:
            return False
        conn.home = (guild_id, channel_id)
        self.pages.add(conn)
        self._fronts[conn] = launched[1]
        return True

    def forget(self, conn: Connection) -> None:
        self.pages.discard(conn)
        self._fronts.pop(conn, None)

    async def show(self, conn: Connection) -> None:
        """The home page, with the deals of the day the member may play here."""
        assert conn.home is not None
        guild_id, channel_id = conn.home
        try:
            dailies = await daily_offers(self.tables, guild_id, conn.member.id)
        except Exception:  # the store: the home page without the deals of the day
            log.warning("no deals of the day for %s's home page", conn.member.id,
                        exc_info=True)
            dailies = []
        conn.daily = None
        self._send(conn, home_frame(self.tables, guild_id, channel_id, conn.member.id,
                                    conn.language, dailies))

    async def play(self, conn: Connection, kind: str, frame: dict[str, Any]) -> None:
        """The home page's own frames: a new table in the page's channel, today's deal
        of a game, back home; and the moves of a daily played in the page."""
        if conn.home is None:
            raise Refusal("bad_frame")
        guild_id, channel_id = conn.home
        front = self._fronts.get(conn)
        game = frame.get("game")
        if kind == "home":
            await self.show(conn)
        elif kind == "table":
            self.to_table(conn)
        elif kind == "new":
            if front is None or not isinstance(game, str) \
                    or game not in self.tables.registry.games:
                raise Refusal("bad_frame")
            # the lobby, as `/<game> new` opens it, hosted by the member who pressed
            with use_locale(conn.language):
                await front.new_table(guild_id, channel_id, conn.member.id,
                                      conn.member.name, game)
            self.to_table(conn)
        elif kind == "daily":
            if not isinstance(game, str):
                raise Refusal("bad_frame")
            day, view = await open_daily(self.tables.daily, front, guild_id, channel_id,
                                         conn.member.id, conn.member.name, game,
                                         conn.language)
            conn.daily = (game, day)
            self._send(conn, view)
        elif kind == "act" and conn.daily is not None:
            game, day = conn.daily
            self._send(conn, await act_daily(self.tables.daily, front, guild_id, channel_id,
                                             conn.member.id, game, day, conn.language,
                                             frame))
        else:  # a daily offers no claim nor hint in its panel either
            raise Refusal("bad_frame")

    def to_table(self, conn: Connection) -> None:
        """From the home page to the table of the page's channel."""
        if conn.home is None:
            raise Refusal("bad_frame")
        guild_id, channel_id = conn.home
        table = self.tables.registry.in_channel(channel_id)
        if table is None or table.guild_id != guild_id:
            raise Refusal("no_table")
        conn.home = None
        conn.daily = None
        self.forget(conn)
        self._follow(conn, table)
