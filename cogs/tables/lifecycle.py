"""A table's channel and server coming and going (issue 37): a channel deleted, the bot's
rights there taken away and given back, a thread archived, locked or deleted, the bot
removed from a server and added back, a server away in an outage.

While its channel is gone or refuses the bot, a table waits (PAUSE_CHANNEL): no turn
timer, no AI move, nothing rated; its posts stay pending in the outbox. While its server
has removed the bot or is away, every table there waits (PAUSE_GUILD). Each resumes
when the bot hears that access is back: an event of Discord's (a channel's or a role's
permissions changed, the server back), or the next interaction in the channel, whose
`app_permissions` show the bot's rights there
(https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object).
A table whose channel is gone for good is ended or left from /games
(cogs/tables/actions.py's GoneEndButton, GoneLeaveButton); its final standings reach the
seated members by DM (cogs/tables/posts.py).

The events, as discord.py gives them (https://discord.com/developers/docs/topics/gateway-events):
The cog's listeners (cogs/tables/cog.py) hand these here: CHANNEL_DELETE
(on_guild_channel_delete), CHANNEL_UPDATE (on_guild_channel_update),
GUILD_ROLE_UPDATE (on_guild_role_update), GUILD_MEMBER_UPDATE of the bot's own member
(on_member_update: its roles), THREAD_UPDATE (on_raw_thread_update),
THREAD_DELETE (on_raw_thread_delete), GUILD_DELETE without `unavailable` (the bot
removed: on_guild_remove) or with it (an outage: on_guild_unavailable), GUILD_CREATE
(on_guild_join, on_guild_available).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord import is_thread, missing_table_permissions
from bot.discord.access import GONE
from bot.render import cancelled_text, left_text
from bot.render.lost import (
    end_confirm_text,
    leave_confirm_text,
    lost_confirm_labels,
    lost_kept_text,
)
from bot.tables.errors import TableError
from bot.tables.names import safe_markdown
from bot.tables.service import TableService
from bot.tables.table import LOBBY, PAUSE_CHANNEL, PAUSE_GUILD, PLAYING, Table
from cogs.tables.common import LET_GO, Components, TableBot, mark_committed, reply
from cogs.tables.components import TableButton

log = logging.getLogger(__name__)


class LifecycleRoom:
    """Tables paused and resumed as their channel and server come and go. What it
    obliges the table message and the panels to do, it is given as two callables
    (the cog wires them; those rooms are built on this one): `refresh` shows a table
    afresh on its message, `forget` drops what the cog keeps of an ended table."""

    def __init__(self, bot: TableBot, tables: TableService, *,
                 refresh: Callable[[Table], None], forget: Callable[[Table], object],
                 tell_gone: Callable[[Table], Awaitable[None]] | None = None) -> None:
        self.bot = bot
        self.tables = tables
        self._refresh = refresh
        self._forget = forget
        self._tell_gone = tell_gone  # the members of a table whose channel was deleted
        # channel -> the games whose posts wait there for the bot's rights
        # (cogs/tables/posts.py): kicked when the rights are back.
        self._held_posts: dict[int, set[int]] = {}

    def hold_post(self, channel_id: int, game_id: int) -> None:
        """A post of `game_id` waits in `channel_id` for the bot's rights there."""
        self._held_posts.setdefault(channel_id, set()).add(game_id)

    # ------------------------------------------------------------- the tables

    def _live_tables(self, guild_id: int | None = None) -> list[Table]:
        return [t for t in list(self.tables.registry.tables.values()) if t.stage in (LOBBY, PLAYING)
                and (guild_id is None or t.guild_id == guild_id)]

    def _tables_under(self, channel_id: int) -> list[Table]:
        """The live tables in a channel or in its threads."""
        found = []
        for table in self._live_tables():
            if table.channel_id == channel_id:
                found.append(table)
                continue
            guild = self.bot.get_guild(table.guild_id)
            thread = guild.get_thread(table.channel_id) if guild is not None else None
            if thread is not None and thread.parent_id == channel_id:
                found.append(table)
        return found

    async def lost_channel(self, table: Table, *, gone: bool) -> None:
        """The table's channel refuses the bot (403), or is gone (deleted): the bot
        sends it nothing more until that changes (bot/discord/access.py), and the table
        waits. Gone, its members are told once, by DM where Discord lets the bot reach
        them (issue 52: nobody was): when the bot first learns it (the deletion's event,
        or a 404 before it), or when the table begins to wait for it (a pause is
        stored: a restart tells nobody again)."""
        access = self.bot.access
        news = access.gone(table.channel_id) if gone else access.refuse(table.channel_id)
        paused = await self.tables.pauses.pause(table.id, PAUSE_CHANNEL)
        if paused or news:
            log.warning("table %s: its channel %s %s: the table waits", table.id,
                        table.channel_id, "is gone" if gone else "refuses the bot")
            if gone and self._tell_gone is not None:
                await self._tell_gone(table)

    async def channel_back(self, channel_id: int) -> None:
        """Something says the bot may write in the channel again: its table plays on,
        and what waited to be posted goes out, in order."""
        self.bot.access.allow(channel_id)
        for game_id in self._held_posts.pop(channel_id, set()):
            self.bot.outbox.kick(game_id)  # (a finished game's final standings, too)
        table = self.tables.registry.in_channel(channel_id)
        if table is None or self.bot.access.blocked(channel_id) == GONE:
            return
        if PAUSE_CHANNEL in table.paused:
            await self.tables.pauses.resume(table.id, PAUSE_CHANNEL)
            log.info("table %s: its channel %s takes the bot again: it plays on",
                     table.id, channel_id)
        self.bot.outbox.kick(table.id)
        self._refresh(table)

    def _rights_in(self, table: Table) -> bool | None:
        """Whether the bot has what a table needs in its channel, as the cache says
        (None: the cache does not know the channel)."""
        return self._rights_there(table.guild_id, table.channel_id)

    def _rights_there(self, guild_id: int, channel_id: int) -> bool | None:
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return None
        channel = guild.get_channel_or_thread(channel_id)
        if channel is None:
            return None
        have = channel.permissions_for(guild.me)
        return not missing_table_permissions(have, in_thread=is_thread(channel.type))

    async def _check_rights(self, tables: list[Table], guild_id: int | None = None) -> None:
        """After a change of permissions: each table plays or waits as its channel's
        rights say now; the posts of ended games held in a channel of `guild_id` go
        out if the rights there are back."""
        if guild_id is not None:
            for channel_id in list(self._held_posts):
                if self._rights_there(guild_id, channel_id):
                    await self.channel_back(channel_id)
        for table in tables:
            rights = self._rights_in(table)
            if rights is True:
                await self.channel_back(table.channel_id)
            elif rights is False:
                await self.lost_channel(table, gone=False)

    async def access_seen(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction in a table's channel: its `app_permissions` are the bot's
        there now, so a table waiting for its rights plays on when they are back."""
        channel_id = interaction.channel_id
        if channel_id is None or self.bot.access.blocked(channel_id) == GONE:
            return
        table = self.tables.registry.in_channel(channel_id)
        waiting = table is not None and PAUSE_CHANNEL in table.paused
        refused = self.bot.access.blocked(channel_id) is not None
        if not waiting and not refused and channel_id not in self._held_posts:
            return  # (held posts: an ended game's)
        in_thread = is_thread(getattr(interaction.channel, "type", None))
        if not missing_table_permissions(interaction.app_permissions, in_thread=in_thread):
            await self.channel_back(channel_id)  # (a new table there may post again)

    async def restore_access(self) -> None:
        """At the start: tables that waited for their channel or server before the
        restart play on if the cache says access is back."""
        for table in self._live_tables():
            if PAUSE_GUILD in table.paused and self.bot.get_guild(table.guild_id):
                await self.guild_back(table.guild_id)
            if PAUSE_CHANNEL in table.paused and self._rights_in(table):
                await self.channel_back(table.channel_id)

    # ------------------------------------------------------------- from /games

    async def ask_unreachable(self, interaction: discord.Interaction[Any], table: Table,
                              *, end: bool) -> None:
        """/games' End or Leave of a table whose channel is lost: first what it does,
        for the member alone, with Yes and No (issue 52: each acted at one tap, and End
        of a deal begun cancels it unsaid). Nothing changes until Yes."""
        if PAUSE_CHANNEL not in table.paused:
            raise TableError("not_host", action="cancel")
        if table.seat_of(interaction.user.id) is None:
            raise TableError("not_seated")
        title = table.kind.words.title(table.rules)
        playing = table.stage == PLAYING
        text = end_confirm_text(title, playing) if end else leave_confirm_text(title, playing)
        yes, no = lost_confirm_labels(end)
        op = "end" if end else "leave"
        view = Components()
        view.add_item(TableButton(table.id, f"gone:{op}:yes", label=yes,
                                  style=discord.ButtonStyle.danger))
        view.add_item(TableButton(table.id, f"gone:{op}:no", label=no))
        await reply(interaction, text, view=view)

    async def confirm_unreachable(self, interaction: discord.Interaction[Any],
                                  table: Table, *, end: bool, yes: bool) -> None:
        """The confirmation's answer: End or Leave done (the confirmation then says
        what was done), or nothing changed."""
        if not yes:
            await interaction.response.edit_message(content=lost_kept_text(), view=None)
            return
        if end:
            await self.end_unreachable(interaction, table, edit=True)
        else:
            await self.leave_unreachable(interaction, table, edit=True)

    async def end_unreachable(self, interaction: discord.Interaction[Any], table: Table,
                              *, edit: bool = False) -> None:
        """/games' End, confirmed: a member seated at a table whose channel is gone (or
        refuses the bot) ends it; the standings reach the members by DM
        (cogs/tables/posts.py). `edit`: the answer takes the clicked confirmation's
        place."""
        await self.tables.lobby.end_unreachable(table.id, interaction.user.id)
        mark_committed(interaction, table, "cancel")
        self._forget(table)
        text = cancelled_text(safe_markdown(interaction.user.display_name))
        if edit:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await reply(interaction, text)

    async def leave_unreachable(self, interaction: discord.Interaction[Any], table: Table,
                                *, edit: bool = False) -> None:
        """/games' Leave, confirmed: the member's seat goes to the AI (it plays once the
        table plays on), as /leave in the channel would."""
        if PAUSE_CHANNEL not in table.paused:
            raise TableError("not_host", action="cancel")
        await self.tables.seats.leave(table.id, interaction.user.id)
        mark_committed(interaction, table)
        text = left_text(table.kind.name, table.stage == LOBBY)
        if edit:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await reply(interaction, text)

    # ------------------------------------------------------------- channels

    # (The cog's listeners, cogs/tables/cog.py, hand Discord's events to these.)

    async def channel_deleted(self, channel_id: int) -> None:
        for table in self._tables_under(channel_id):
            await self.lost_channel(table, gone=True)

    async def thread_deleted(self, thread_id: int) -> None:
        table = self.tables.registry.in_channel(thread_id)
        if table is not None:
            await self.lost_channel(table, gone=True)

    async def channel_updated(self, channel_id: int, guild_id: int) -> None:
        await self._check_rights(self._tables_under(channel_id), guild_id)

    async def roles_changed(self, guild_id: int) -> None:
        await self._check_rights(self._live_tables(guild_id), guild_id)

    async def thread_updated(self, payload: discord.RawThreadUpdateEvent) -> None:
        table = self.tables.registry.in_channel(payload.thread_id)
        if table is None:
            return
        meta = payload.data.get("thread_metadata") or {}
        if meta.get("archived"):
            await self.unarchive(table, locked=bool(meta.get("locked")))
        else:
            await self.channel_back(table.channel_id)

    async def unarchive(self, table: Table, *, locked: bool = False) -> bool:
        """The table's thread was archived (after its auto-archive duration without a
        new message, or by a moderator): the bot unarchives it, which Discord allows
        with Send Messages (in threads) unless it is locked, then with Manage Threads
        (https://discord.com/developers/docs/resources/channel#modify-channel-json-params-thread:
        "When setting archived to false, when locked is also false, only the
        SEND_MESSAGES permission is required"). Refused, the table waits. True if the
        thread is open again."""
        try:
            await self.bot.http.edit_channel(
                table.channel_id, archived=False)
        except discord.NotFound:
            await self.lost_channel(table, gone=True)
            return False
        except discord.Forbidden:
            log.info("table %s: its thread %s is archived%s and the bot may not open it",
                     table.id, table.channel_id, " and locked" if locked else "")
            await self.lost_channel(table, gone=False)
            return False
        except LET_GO as exc:
            log.info("table %s: its thread %s could not be unarchived now (%r)",
                     table.id, table.channel_id, exc)
            return False
        log.info("table %s: its thread %s was archived: unarchived", table.id,
                 table.channel_id)
        if PAUSE_CHANNEL in table.paused:
            await self.channel_back(table.channel_id)
        return True

    # ------------------------------------------------------------- servers

    async def guild_away(self, guild_id: int, why: str) -> None:
        tables = self._live_tables(guild_id)
        for table in tables:
            await self.tables.pauses.pause(table.id, PAUSE_GUILD)
        if tables:
            log.warning("server %s %s: its %d table(s) wait", guild_id, why, len(tables))

    async def guild_back(self, guild_id: int) -> None:
        """The server is the bot's again: its tables play on where they were (those
        whose channel refuses the bot or is gone wait on for that)."""
        for table in self._live_tables(guild_id):
            self.bot.access.allow(table.channel_id)
            if PAUSE_GUILD in table.paused:
                await self.tables.pauses.resume(table.id, PAUSE_GUILD)
                log.info("table %s: its server %s is back: it plays on", table.id, guild_id)
            await self._check_rights([table])
            self.bot.outbox.kick(table.id)
            self._refresh(table)

