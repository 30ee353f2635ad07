"""The public table message: edits within the request budget (coalesced), a fresh
post when it is too old or deleted, its picture, and what a change shows there."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

from bot.discord import (
    EditQueue,
    Retry,
    Turn,
    own_retries,
    repost_reason,
    too_old_for_edits,
    worth_another_try,
)
from bot.discord.access import GONE, REFUSED, THREAD_ARCHIVED, UNKNOWN_CHANNEL, Blocked
from bot.store import Post
from bot.tables.service import TableService
from bot.tables.table import LOBBY, PAUSE_GUILD, PLAYING, POST_TABLE_MESSAGE, Table
from cogs.tables.common import (
    LET_GO,
    PICTURE_EVERY,
    Components,
    TableBot,
    activity_on,
    given,
    to_embed,
)
from cogs.tables.lifecycle import LifecycleRoom
from cogs.tables.pings import PingsRoom
from cogs.tables.settings import SettingsRoom
from cogs.tables.views import (
    TABLE_PICTURE,
    lobby_view,
    no_picture,
    table_panel,
    table_picture,
    table_view,
    with_picture,
)

log = logging.getLogger(__name__)


class TableMessageRoom:
    """The public table message: edited, posted afresh, retired."""

    def __init__(self, bot: TableBot, tables: TableService, settings: SettingsRoom,
                 pings: PingsRoom, lifecycle: LifecycleRoom) -> None:
        self.bot = bot
        self.tables = tables
        self.settings = settings
        self.pings = pings  # deletes the bot's own messages
        self.lifecycle = lifecycle  # a channel lost, a thread archived
        self.clock = bot.settings.clock  # Discord's time of day (message age)
        # The public table messages: edited within the request budget, coalesced and
        # fairest first (bot/discord/edit_queue.py); the tables they show, by id.
        self.edits = EditQueue(bot.budget, self._edit_queued,
                               delay=bot.settings.edit_delay,
                               interval=bot.settings.edit_interval)
        self._shown_tables: dict[int, Table] = {}
        # table -> the id of its table message being replaced by a fresh post (too old
        # to edit, or deleted): edits wait for the fresh one (posts.py sets it too,
        # while a hand's summary takes the message's place).
        self.replacing: dict[int, int] = {}
        self._pictured: dict[int, float] = {}  # table -> when its picture was last drawn
        self._message_locks: dict[int, asyncio.Lock] = {}

    def request_refresh(self, table: Table) -> None:
        """Show the table's current state on its public message soon: edits wait their
        turn in the request budget and are coalesced (an edit shows the table as it is
        when its turn comes), the tables waiting longest first (bot/discord/edit_queue.py)."""
        self._shown_tables[table.id] = table
        self.edits.request(table.id)

    async def _edit_queued(self, table_id: int, turn: Turn) -> None:
        """The edit queue's turn for a table: its message shows the table as it is now
        (`turn`: its slot of the budget). Raises Retry to be tried again later."""
        table = self._shown_tables.get(table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            self._shown_tables.pop(table_id, None)
            return  # over: its last message is the final post's business
        if PAUSE_GUILD in table.paused:
            return  # its server removed the bot: shown afresh when it is back
        with await self.settings.public(table.guild_id):
            await self._edit_table_message(table, turn)

    @staticmethod
    def _shows_summary(table: Table, in_it: bool = False) -> bool:
        """Whether the table message's hand ended and its summary is shown (in it, or
        `in_it` False, apart): a stored mark, Table.summary_shown. The next table
        message is on its way; no edit of the table may touch this one."""
        mark = table.summary_shown
        return mark is not None and mark[0] == table.message_id and (mark[2] or not in_it)

    def too_old(self, message_id: int) -> bool:
        """Whether a message is too old for the edits a table needs, now
        (bot.discord.too_old_for_edits: its age from its id, by Discord's clock)."""
        return too_old_for_edits(message_id, self.clock.time())

    async def _edit_table_message(self, table: Table, turn: Turn) -> None:
        message_id = table.message_id
        if message_id is None:
            return
        if self.replacing.get(table.id) == message_id or self._shows_summary(table):
            # A fresh message is on its way through the outbox: it shows the table as
            # it is when it is sent (and is edited after, if the table moved meanwhile).
            # The old one shows a hand's summary (stored: after a restart too), which
            # no edit of the table may overwrite.
            self.bot.outbox.kick(table.id)
            return
        if self.too_old(message_id):
            await self._replace_table_message(table, message_id, "too_old")
            return
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
            message_id)
        # The text and the picture's scene are read together, before the drawing waits;
        # drawn before the budget's slot is taken, and again if the table moved meanwhile.
        draw = self._picture_due(table)
        embed, view, drawing = self._table_message_parts(table, draw)
        picture = await drawing
        if await turn():
            embed, view, drawing = self._table_message_parts(table, draw)
            picture = await drawing
        if self.too_old(message_id):
            # It aged while the picture was drawn and the edit waited for its slot (a
            # long wait, or a clock moved on): the edit would spend one of the few an old
            # message takes, and this edit has taken the changes made meanwhile.
            await self._replace_table_message(table, message_id, "too_old")
            return
        pictures: dict[str, Any] = {}
        if picture is not None:
            self._pictured[table.id] = time.monotonic()
            pictures["attachments"] = [picture]
        elif draw or table.stage != PLAYING or not table.switch("pictures"):
            pictures["attachments"] = []  # no picture (any more)
        else:  # the last picture stays: the message keeps its attachment
            embed.set_image(url=f"attachment://{TABLE_PICTURE}")
        try:
            async with self.message_lock(table.id):
                if self.replacing.get(table.id) == message_id \
                        or self._shows_summary(table) \
                        or table.message_id != message_id \
                        or table.stage not in (LOBBY, PLAYING):
                    return  # it became a hand's summary, was replaced, or the game ended
                with own_retries():  # a 5xx: tried again by the edit queue, not discord.py
                    await message.edit(embed=with_picture(embed, picture), view=view,
                                       **pictures)
        except discord.HTTPException as exc:
            await self._edit_refused(table, message_id, exc)
        except Blocked as exc:
            # Not sent: the channel refused the bot before (or is gone). The table
            # waits; its message is shown afresh when the rights are back.
            if exc.reason in (REFUSED, GONE):
                await self.lifecycle.lost_channel(table, gone=exc.reason == GONE)
                return
            raise Retry(f"held: {exc.reason}") from None
        except (aiohttp.ClientError, OSError) as exc:  # the connection, not Discord
            raise Retry(f"connection: {exc!r}") from None

    def _table_message_parts(self, table: Table, draw: bool = True
                             ) -> tuple[discord.Embed, Components, Awaitable[discord.File | None]]:
        """The table message as it is now: its embed, its buttons, and its picture (to
        draw, if `draw`: a coroutine, started from the state of this moment)."""
        embed = to_embed(table_panel(table))
        if table.stage == LOBBY:
            return embed, lobby_view(table), no_picture()
        return (embed, self.table_controls(table),
                table_picture(table) if draw else no_picture())

    def table_controls(self, table: Table) -> Components:
        """The table message's buttons in a game (Play in the Activity when it is on)."""
        return table_view(table, activity_on(self.bot))

    def _picture_due(self, table: Table) -> bool:
        """Whether this edit draws the table's picture anew: always while the edits
        keep up; while they queue, at the end of a trick or after PICTURE_EVERY."""
        if not self.edits.behind() or table.pause_after:
            return True
        last = self._pictured.get(table.id)
        return last is None or time.monotonic() - last >= PICTURE_EVERY

    async def _edit_refused(self, table: Table, message_id: int,
                            exc: discord.HTTPException) -> None:
        """Discord did not take an edit of the table message: a deleted or too old
        message is replaced by a fresh one; a failure of Discord's or a 429 is tried
        again (Retry); a refusal to the bot in the channel waits for the next change."""
        reason = repost_reason(exc.code)
        if reason is not None:
            await self._replace_table_message(table, message_id, reason)
            return
        if worth_another_try(exc.status):
            raise Retry(f"{exc.status} {exc.code}") from None
        if exc.code == THREAD_ARCHIVED:
            # The table's thread was archived (no new message for its auto-archive
            # duration): the bot unarchives it and edits again; refused, the table
            # waits (cogs/tables/lifecycle.py).
            if await self.lifecycle.unarchive(table):
                raise Retry("the thread was archived") from None
            return
        # 403 (the bot may no longer see or write in the channel), 404 (the channel is
        # gone): not worth another try (bot.discord.worth_another_try): the bot writes
        # there no more and the table waits until the rights are back.
        log.warning("the table message of table %s was refused: %s %s (%s)", table.id,
                    exc.status, exc.code, exc.text)
        if exc.status == 403 or exc.code == UNKNOWN_CHANNEL:
            await self.lifecycle.lost_channel(table, gone=exc.status == 404)

    async def _replace_table_message(self, table: Table, old: int, why: str) -> None:
        """Post a fresh table message at the bottom of the channel, through the outbox
        (committed first, so it survives a restart, and sent with a nonce, so it is not
        posted twice); the old one loses its buttons once the fresh one is there."""
        log.info("table %s: its message %s is %s: posting a fresh one", table.id, old, why)
        self.replacing[table.id] = old
        await self.bot.store.add_posts(table.id, [Post(POST_TABLE_MESSAGE,
                                                       {"replaces": old, "why": why})])
        self.bot.outbox.kick(table.id)


    def message_lock(self, table_id: int) -> asyncio.Lock:
        """Held around each edit of a table's message by the edit queue or the summary:
        a summary never lands under an edit of the table that was already on its way."""
        lock = self._message_locks.get(table_id)
        if lock is None:
            lock = self._message_locks[table_id] = asyncio.Lock()
        return lock


    async def post_table_message(self, table: Table, nonce: str, retire: bool = True
                                  ) -> discord.Message:
        """A new table message at the bottom of the channel (for the next hand, or in
        place of one too old to edit or deleted); the old one, `retire`, is deleted."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        old = table.message_id
        # A message that shows a hand's summary stays, with its buttons (Review).
        retire = retire and not self._shows_summary(table, in_it=True)
        embed, view, drawing = self._table_message_parts(table)
        shown = embed.to_dict()
        picture = await drawing
        message = await channel.send(
            embed=with_picture(embed, picture), view=view,
            nonce=nonce, **given(file=picture))
        if picture is not None:
            self._pictured[table.id] = time.monotonic()
        else:
            self._pictured.pop(table.id, None)  # a fresh message has no picture to keep
        await self.tables.restorer.set_message(table, message.id)
        # Only now is the old message no longer the live one (set_message drops its
        # summary mark): until the new one is posted, the old one may show the last
        # hand's summary, which no edit of the table may overwrite (issue 37: a failed
        # post had dropped this mark first).
        self.replacing.pop(table.id, None)
        if to_embed(table_panel(table)).to_dict() != shown:
            self.request_refresh(table)  # the table moved while the post was made
        if retire and old is not None and old != message.id:
            await self.drop_table_copy(table, old)
        return message

    async def drop_table_copy(self, table: Table, message_id: int | None) -> None:
        """An older copy of the table message (too old to edit: a fresh one is posted
        below) is deleted, so the channel holds one live table and nothing stale with
        buttons or a countdown: the bot's own message, which it may delete without
        Manage Messages (cogs/tables/pings.py, delete_own). Where Discord refuses it,
        it loses its buttons, as before."""
        if message_id is None:
            return
        if not await self.pings.delete_own(table.channel_id, message_id):
            await self._retire_table_message(table, message_id)

    async def retire_ended(self, table: Table) -> None:
        """A table the service ended by itself (its members all gone): its message
        shows the last state, without buttons."""
        await self._retire_table_message(table, table.message_id)
        self.forget(table.id)

    async def _retire_table_message(self, table: Table, message_id: int | None) -> None:
        """Take the buttons off a table message that no longer is the live one (at the
        end of a game, with the final state). Best effort: Discord may refuse it (a
        message too old to edit, or deleted)."""
        if message_id is None:
            return
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
            message_id)
        with contextlib.suppress(*LET_GO):
            if table.stage in (LOBBY, PLAYING):
                await message.edit(view=None)
            else:
                self.edits.forget(table.id)  # the game is over: no picture of it
                await message.edit(embed=to_embed(table_panel(table)), view=None, attachments=[])

    def forget(self, table_id: int) -> None:
        """A table has ended: drop what this room keeps for it."""
        self.edits.forget(table_id)
        self._shown_tables.pop(table_id, None)
        self._pictured.pop(table_id, None)
        self.replacing.pop(table_id, None)
        self._message_locks.pop(table_id, None)

    def after_change(self, table: Table, deal_finished: bool) -> None:
        """Public consequences of a change beyond its posts (which the outbox makes):
        the table message, edited soon, unless the hand ended (a new one is posted)."""
        if not deal_finished:
            self.request_refresh(table)

    async def show_public(self, interaction: discord.Interaction[Any], table: Table,
                           controls: Callable[[Table], Components]) -> None:
        """Answer a click on the public table message by editing it, in the server's
        words, with `controls` (the lobby's, or the game's). A table message too old to
        edit (a lobby that waited an hour) is answered without an edit, and the table is
        shown in a fresh message at the bottom of the channel."""
        clicked = interaction.message
        if clicked is not None and clicked.id == table.message_id \
                and self.too_old(clicked.id):
            await interaction.response.defer()
            await self._replace_table_message(table, clicked.id, "too_old")
            return
        with await self.settings.public(table.guild_id):
            embed, view = to_embed(table_panel(table)), controls(table)
        await interaction.response.edit_message(embed=embed, view=view)


