"""The outbox's posts rendered and sent: a deal's summary, the final standings, a
fresh table message, a claim, a timeout."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import is_transient, one_line
from bot.discord.access import GONE, REFUSED, UNKNOWN_CHANNEL, Blocked
from bot.discord.mentions import no_mentions, pinging_user, pinging_users
from bot.render import (
    claim_text,
    gone_standings_text,
    seat_label,
    seat_names,
    timeout_text,
)
from bot.render.text import (
    abandoned_text,
    dm_timeout_text,
    game_over_players_text,
    timeout_seat_text,
)
from bot.store import PostRow
from bot.tables.errors import TableError
from bot.tables.names import safe_markdown
from bot.tables.outbox import Held, Transient, post_nonce
from bot.tables.service import TableService
from bot.tables.table import (
    ABANDON_AFTER,
    LOBBY,
    PAUSE_GUILD,
    PLAYING,
    POST_CLAIM,
    POST_FINAL,
    POST_HAND_SUMMARY,
    POST_TABLE_MESSAGE,
    POST_TIMEOUT,
    Table,
)
from cogs.tables.common import LET_GO, TableBot, given, to_embed
from cogs.tables.lifecycle import LifecycleRoom
from cogs.tables.pings import PingsRoom
from cogs.tables.settings import SettingsRoom
from cogs.tables.table_message import TableMessageRoom
from cogs.tables.views import (
    ended_standings_panel,
    final_panel,
    final_view,
    summary_view,
    table_panel,
    totals_chart,
    with_picture,
)

log = logging.getLogger(__name__)


class PostsRoom:
    """The outbox's posts, rendered and sent."""

    def __init__(self, bot: TableBot, tables: TableService, settings: SettingsRoom,
                 pings: PingsRoom, messages: TableMessageRoom, lifecycle: LifecycleRoom
                 ) -> None:
        self.bot = bot
        self.tables = tables
        self.settings = settings
        self.pings = pings
        self.messages = messages  # the table message a summary replaces
        self.lifecycle = lifecycle  # a channel lost; the posts held there

    # ------------------------------------------------------------- posts (the outbox)

    async def send_post(self, row: PostRow) -> int | None:
        """Render and send one post of the outbox (bot.tables.outbox): the id of the
        message, or None if it can never be posted. Sent with the post's nonce, so a
        post sent again after a crash is not posted twice."""
        table = await self.tables.keeper.load(row.game_id)
        if table is None:
            return None
        try:
            with await self.settings.public(table.guild_id):
                return await self._send_post_of(table, row)
        except Exception as exc:
            if is_transient(exc):  # a 503, a dropped connection: the outbox tries again
                raise Transient(one_line(exc)) from exc
            raise

    async def _send_post_of(self, table: Table, row: PostRow) -> int | None:
        if self.bot.access.blocked(row.channel_id) == GONE:
            return await self._post_elsewhere(table, row)
        if PAUSE_GUILD in table.paused:
            # The server removed the bot (or is away): nothing is sent there until it
            # is back (cogs/tables/lifecycle.py kicks the outbox then).
            raise Held("its server is away")
        try:
            return await self._send_to_channel(table, row)
        except Blocked as exc:
            # Not sent: the channel refused the bot before, or is gone (bot/discord/
            # access.py). A throttled request is tried again later (the outbox's retry).
            if exc.reason == GONE:
                return await self._post_elsewhere(table, row)
            if exc.reason != REFUSED:
                raise
            await self._post_refused(table, row, f"channel {exc.channel_id} refuses the bot")
        except (discord.Forbidden, discord.NotFound) as exc:
            gone = isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL
            if gone:
                await self._channel_lost(table, gone=True)
                return await self._post_elsewhere(table, row)
            await self._post_refused(table, row, f"{exc.status} {exc.code}")
        raise AssertionError("unreachable")

    async def _channel_lost(self, table: Table, *, gone: bool) -> None:
        if table.stage in (LOBBY, PLAYING):
            await self.lifecycle.lost_channel(table, gone=gone)
        elif gone:
            self.bot.access.gone(table.channel_id)
        else:
            self.bot.access.refuse(table.channel_id)

    async def _post_refused(self, table: Table, row: PostRow, why: str) -> None:
        """Discord refused the post (403: the bot's rights in the channel are gone):
        it is not dropped. It stays pending, with the game's later posts behind it,
        and goes out when the rights are back (cogs/tables/lifecycle.py kicks the
        outbox) or after a restart; the table waits meanwhile."""
        log.warning("table %s: its %s post is held: %s", table.id, row.kind, why)
        await self._channel_lost(table, gone=False)
        self.lifecycle.hold_post(row.channel_id, table.id)
        raise Held(why)

    async def _post_elsewhere(self, table: Table, row: PostRow) -> int | None:
        """A post for a channel that is gone for good: the final standings go to each
        seated member by DM (where their DMs are open); the rest is in the record
        (export), with nowhere to show it. None: done, no message in the channel."""
        if row.kind != POST_FINAL:
            log.info("table %s: its channel %s is gone: its %s post is not posted",
                     table.id, row.channel_id, row.kind)
            return None
        guild = self.bot.get_guild(table.guild_id)
        server = safe_markdown(guild.name) if guild is not None else str(table.guild_id)
        for user in sorted({s.user_id for s in table.seats if s.user_id is not None}):
            with await self.pings.dm_language(table.guild_id, user):
                text = gone_standings_text(server)
                panel = ended_standings_panel(table) if row.params.get("ended") \
                    else final_panel(table)
                embed = to_embed(panel)
            try:
                dm = await self.bot.create_dm(discord.Object(id=user))
                # A nonce of its own for each member (Discord checks them per sender).
                await dm.send(text, embed=embed, nonce=f"{row.id}.{user % 10**12}"[:25])
            except LET_GO as exc:
                log.info("table %s: its final standings could not reach %s by DM (%r)",
                         table.id, user, exc)
        return None

    async def _send_to_channel(self, table: Table, row: PostRow) -> int | None:
        channel = self.bot.get_partial_messageable(row.channel_id)
        nonce = post_nonce(row)
        if row.kind == POST_HAND_SUMMARY:
            return await self._post_summary(table, int(row.params["hand_index"]), nonce)
        elif row.kind == POST_FINAL:
            chart = await totals_chart(table)
            panel = table_panel(table) if row.params.get("ended") else final_panel(table)
            # Every member who was seated is named, and so told of the end with its
            # result, wherever they are (issue 35: away members were not).
            humans = list(dict.fromkeys(s.user_id for s in table.seats
                                        if s.user_id is not None))
            message = await channel.send(
                abandoned_text([f"<@{u}>" for u in humans],
                               round(ABANDON_AFTER / 86400))
                if row.params.get("abandoned") else
                game_over_players_text([f"<@{u}>" for u in humans]) if humans else None,
                allowed_mentions=pinging_users(humans),
                embed=with_picture(to_embed(panel), chart),
                view=final_view(table), nonce=nonce,
                **given(file=chart))
            # The last table message shows the last hand's summary (an edit, or,
            # where it could not be edited, it was deleted when the summary was
            # posted apart): it is left as it is, after a restart too.
            self.messages.edits.forget(table.id)
        elif row.kind == POST_TABLE_MESSAGE:
            if table.stage not in (LOBBY, PLAYING):
                # The game ended or was cancelled meanwhile: the old message keeps
                # the summary it shows (the next summary is posted apart).
                log.info("table %s ended before its new table message was posted: "
                         "none is", table.id)
                return None
            # Only a message too old to edit loses its buttons here: a deleted one
            # cannot, and the last hand's table message shows its summary (with
            # Review and My hand), or was retired when the summary was posted. The
            # old message is known to show a summary until the new one is posted
            # (TableMessageRoom.post_table_message): a post that fails leaves the summary be.
            message = await self.messages.post_table_message(
                table, nonce, retire=row.params.get("why") == "too_old")
        elif row.kind == POST_CLAIM:
            message = await channel.send(
                claim_text(seat_label(table.seats, int(row.params["seat"]))), nonce=nonce)
        elif row.kind == POST_TIMEOUT:
            seat = int(row.params["seat"])
            played = table.kind.words.describe_action(row.params["action"])
            user = table.seats[seat].user_id
            if row.params.get("away") and user is not None:
                # The AI keeps the seat: the member is told once, where they read
                # (issue 35): a mention here, or, for a member who reads by DM, the DM
                # of _tell_timeout below, and this post names them without a ping.
                by_dm = await self.pings.wants_dm(table.guild_id, user)
                message = await channel.send(
                    timeout_seat_text(seat_label(table.seats, seat) if by_dm
                                      else f"<@{user}>", played), nonce=nonce,
                    allowed_mentions=no_mentions() if by_dm else pinging_user(user))
            else:
                message = await channel.send(
                    timeout_text(seat_label(table.seats, seat), played), nonce=nonce)
            await self._tell_timeout(table, seat, row.params)
            if user is not None:  # deleted when spent, as their pings (issue 35)
                await self.pings.keep_notice(table, user, message)
        else:
            log.error("unknown post %r of table %s", row.kind, table.id)
            return None
        return message.id

    async def _post_summary(self, table: Table, index: int, nonce: str) -> int | None:
        """A hand's summary. Quiet channels: it takes the place of the hand's table
        message (an edit, with Review and My hand), and the next hand's table message is
        the one new message of the hand, so the table stays on a phone's screen.
        Posted as a message of its own where the table message cannot be edited (none,
        too old, deleted, refused); that one is then deleted (issue 35: over days the
        channel keeps no stale copy of the table)."""
        with await self.settings.public(table.guild_id):
            panel = table.kind.words.deal_summary(table.game, index, seat_names(table.seats))
            embed, view = to_embed(panel), summary_view(table, index)
        old = table.message_id
        # The mark is stored (Table.summary_shown): a process started after a crash
        # knows it too (issue 37: a fresh process, not knowing, edited the table over
        # the summary before the next table message was posted).
        mark = table.summary_shown
        if old is not None and mark == (old, index, True):
            return old  # shown before a restart: the post was not yet marked done
        # An earlier hand's summary took this message's place (the table messages in
        # between were never posted: the game ended first): it shows that summary and
        # stays as it is, or, the summary posted apart, it was deleted then (not again
        # at every later summary: a CI run saw four more deletes answered 10008).
        earlier = old is not None and mark is not None and mark[0] == old \
            and mark[1] != index
        apart = old is not None and mark == (old, index, False)  # posted, then a crash
        if old is not None and self.messages.replacing.get(table.id) != old \
                and not earlier and not apart and not self.messages.too_old(old):
            async with self.messages.message_lock(table.id):  # after an edit under way
                # The edit queue leaves this message be from now on (see
                # _edit_table_message): the next table message replaces it.
                self.messages.replacing[table.id] = old
                try:
                    await self.bot.get_partial_messageable(
                        table.channel_id).get_partial_message(old).edit(
                        embed=embed, view=view, attachments=[])
                except discord.HTTPException as exc:
                    self.messages.replacing.pop(table.id, None)
                    if exc.status >= 500 or exc.status == 429:
                        raise  # Discord's failure: the outbox tries again
                    log.info("table %s: the summary could not replace message %s (%s %s):"
                             " posted", table.id, old, exc.status, exc.code)
                else:
                    # Stored before the post is marked done, under the message's lock
                    # (no edit of the table slips in between).
                    await self._mark_summary(table, old, index, in_it=True)
                    return old
        # Sent with the post's nonce: sent again after a crash, it is not posted twice.
        message = await self.bot.get_partial_messageable(table.channel_id).send(
            embed=embed, view=view, nonce=nonce)
        if old is not None and not earlier:
            # The hand's table message could not show the summary: it is deleted (the
            # bot's own message, cogs/tables/pings.py delete_own), or, refused, loses
            # its buttons. Marked first, so that no edit of the table (a restart's
            # refresh) lands on it before the next table message is posted.
            self.messages.replacing[table.id] = old
            await self._mark_summary(table, old, index, in_it=False)
            await self.messages.drop_table_copy(table, old)
        return message.id

    async def _mark_summary(self, table: Table, message_id: int, index: int, *,
                            in_it: bool) -> None:
        try:
            await self.tables.restorer.set_summary_shown(table, message_id, index, in_it)
        except TableError as exc:  # the database: the summary is shown again
            self.messages.replacing.pop(table.id, None)
            raise Transient(f"the summary's mark was not stored: {exc.code}") from exc

    async def _tell_timeout(self, table: Table, seat: int, params: dict[str, Any]) -> None:
        """A member who reads by DM is told there that the AI played their turn (and,
        `away`, took their seat), in place of the turn's DM."""
        user = table.seats[seat].user_id
        if user is None:
            return
        title = table.kind.words.title(table.rules)

        def render(server: str) -> tuple[str, discord.Embed | None]:
            played = table.kind.words.describe_action(params["action"])
            return dm_timeout_text(server, table.channel_id, title, played,
                                   bool(params.get("away"))), None

        await self.pings.tell_by_dm(table, user, render)
