"""The table cog: the rooms (cogs/tables/*.py), each an object with its own state and
the few rooms it needs, built and wired here; the cog itself only routes. Discord's
slash commands, listeners and components reach the rooms through it: discord.py wants
listeners on the cog class, and the components and commands find the cog by reference
(cogs/tables/host.py), each through a small protocol of what it needs."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

import discord
from discord.ext import commands

from bot.i18n import set_locale
from bot.tables.errors import TableError
from bot.tables.table import LOBBY, PLAYING, Table
from cogs.tables.actions import ACTIONS, ActionHost, TableAction
from cogs.tables.boards import BoardsRoom
from cogs.tables.commands import CommandHost, member_commands
from cogs.tables.common import Background, GameUIs, TableBot
from cogs.tables.components import (
    DailyButton,
    GamesButton,
    HelpButton,
    LeaderboardButton,
    PagesHost,
)
from cogs.tables.daily import DailyRoom
from cogs.tables.entry_point import is_entry_point, open_home
from cogs.tables.errors import ShowsChanges, answer_error, speak_the_users_language
from cogs.tables.games_list import GamesListRoom
from cogs.tables.guards import check_place
from cogs.tables.host import attach, detach
from cogs.tables.lifecycle import LifecycleRoom
from cogs.tables.lobby import LobbyRoom
from cogs.tables.panels import PanelsRoom
from cogs.tables.pings import PingsRoom
from cogs.tables.posts import PostsRoom
from cogs.tables.settings import SettingsRoom
from cogs.tables.table_message import TableMessageRoom
from cogs.tables.views import PAINTER, deadline_of

log = logging.getLogger(__name__)



async def _tree_check(interaction: discord.Interaction[Any]) -> bool:
    """Before each command: the user's language; and the app's Entry Point command,
    which discord.py does not know (type 4), is left to the cog's listener
    (on_interaction, cogs/tables/entry_point.py)."""
    await speak_the_users_language(interaction)
    return not is_entry_point(interaction)

class Tables(commands.Cog):
    """The part of every table that no game owns: its rooms, wired, and the routes to
    them."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.uis = GameUIs()
        self.background = Background()
        # Each room is given the rooms it calls; those built before it, or, for the two
        # calls back up from lifecycle (a table refreshed, a table forgotten), a callable.
        self.settings = SettingsRoom(bot, self.tables)
        self.pings = PingsRoom(bot, self.settings)
        self.lifecycle = LifecycleRoom(bot, self.tables, refresh=self._refresh,
                                       forget=self._forget,
                                       tell_gone=self.pings.tell_channel_gone)
        self.messages = TableMessageRoom(bot, self.tables, self.settings, self.pings,
                                         self.lifecycle)
        self.panels = PanelsRoom(bot, self.tables, self.uis, self.background,
                                 self.messages, self.pings)
        self.posts = PostsRoom(bot, self.tables, self.settings, self.pings, self.messages,
                               self.lifecycle)
        self.lobby = LobbyRoom(bot, self.tables, self.settings, self.messages, self.panels)
        self.daily = DailyRoom(bot, self.tables, self.settings, self.uis)
        self.boards = BoardsRoom(bot, self.tables, self.settings, self.daily)
        self.games_list = GamesListRoom(self.tables, self.pings)
        self._reporter: asyncio.Task[None] | None = None

    def _refresh(self, table: Table) -> None:
        self.messages.request_refresh(table)

    def _forget(self, table: Table) -> None:
        self.panels.forget_table(table)

    async def cog_load(self) -> None:
        PAINTER.start()  # while the bot connects, not at its first table change
        every = float(os.environ.get("AMERIKANER_REPORT_SECONDS", "60") or 60)
        self._reporter = asyncio.create_task(self._report(every))
        attach(self.bot, self)  # the components and commands find the cog by it
        self.bot.add_dynamic_items(*ACTIONS, LeaderboardButton, HelpButton, GamesButton,
                                   DailyButton)
        for command in member_commands():
            self.bot.tree.add_command(command)
        self.tables.listeners.add(self._on_table_event)
        # The hand panels followed before a restart, once the tables are back.
        self._unwatch_restore = self.tables.when_restored(self.panels.restore_panels)
        self.bot.outbox.send = self.posts.send_post
        # The slash commands raise; the tree hands every error to answer_error, also
        # those raised before a command runs (an option or check refused, an outdated
        # command), which a cog's own error handler would never see.
        self._tree_on_error = self.bot.tree.on_error
        self.bot.tree.error(answer_error)
        # Each command (and autocomplete) runs in a task of its own: it speaks the
        # user's language, and switches to the server's for what everyone reads.
        self._tree_check = self.bot.tree.interaction_check
        self.bot.tree.interaction_check = _tree_check  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self._unwatch_restore()
        for command in member_commands():
            self.bot.tree.remove_command(command.name)
        if self._reporter is not None:
            self._reporter.cancel()
        await self.messages.edits.close()
        self.pings.close()
        self.daily.close()
        self.bot.tree.error(self._tree_on_error)
        self.bot.tree.interaction_check = self._tree_check  # type: ignore[method-assign]
        detach(self.bot, self)

    async def _report(self, every: float) -> None:
        """The budget and the table edits, in the log every `every` seconds (INFO):
        an operator sees the bot near its budget before the players do."""
        while True:
            await asyncio.sleep(every)
            log.info("%s; %s", self.bot.budget.summary(), self.messages.edits.summary())

    # ------------------------------------------------------------- the service's changes

    async def _on_table_event(self, table: Table, event: str, detail: dict[str, Any]
                              ) -> None:
        """Changes the service made by itself (AI turns, turn timers)."""
        set_locale(await self.settings.server_language(table.guild_id))  # the listener's task
        if event == "reminder":
            seat: int | None = detail.get("seat", table.to_act)
            held = table.seats[seat] if seat is not None and seat == table.to_act else None
            if held is not None and held.user_id is not None and not held.played_by_ai:
                await self.pings.ping(table, held.user_id, reminder=True,
                                      version=table.version,
                                      deadline=detail.get("deadline", deadline_of(table)))
            return
        if event == "timed_out":  # told by its timeout post (a DM is another listener's)
            return
        if event == "abandoned":  # ended (Lobby.abandon): its final post says why
            self.panels.forget_table(table)
            await self.messages.retire_ended(table)
            return
        if "action" in detail:  # a move the service made by itself: named in a recap
            await self.panels.recaps.note_played_for(table, detail.get("seat"))
        self.messages.after_change(table, event in ("deal_finished", "game_finished"))
        await self.panels.follow_turn(table, None)

    async def show_committed(self, table_id: int, user_id: int) -> None:
        """The public side of a stored change whose answer failed (errors.py): the table
        message (which the answer may have been) edited soon, or posted if the answer
        was to be the lobby, and the next player's panel followed."""
        table = self.tables.registry.get(table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            return
        if table.stage == LOBBY and table.message_id is None:
            await self.lobby.post_lobby(table)
            return
        self.messages.request_refresh(table)
        await self.panels.follow_turn(table, user_id)

    # ------------------------------------------------------------- Discord's events
    # discord.py finds listeners on the cog's class: each hands its event to lifecycle.py
    # (https://discord.com/developers/docs/topics/gateway-events, as lifecycle.py cites).

    @commands.Cog.listener("on_interaction")
    async def on_entry_point(self, interaction: discord.Interaction[Any]) -> None:
        """The app's Entry Point command (cogs/tables/entry_point.py): discord.py's tree
        leaves it to this listener (_tree_check)."""
        if not is_entry_point(interaction):
            return
        await speak_the_users_language(interaction)
        try:
            await open_home(self.bot, interaction, self)
        except Exception as exc:  # answered, as a command's error is
            await answer_error(interaction, exc)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.lifecycle.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.lifecycle.thread_deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        await self.lifecycle.channel_updated(after.id, after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self.lifecycle.roles_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        # Without the members intent Discord still tells the bot of its own member
        # (tests/fake_discord/lifecycle.py set_member_roles cites it): its roles given
        # or taken are its rights changing in every channel of the server.
        if after.id == after.guild.me.id and before.roles != after.roles:
            await self.lifecycle.roles_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        await self.lifecycle.thread_updated(payload)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.lifecycle.guild_away(guild.id, "removed the bot")

    @commands.Cog.listener()
    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        await self.lifecycle.guild_away(guild.id, "is unavailable (an outage)")

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.lifecycle.guild_back(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.lifecycle.guild_back(guild.id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await self.lifecycle.access_seen(interaction)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.lifecycle.restore_access()
        # (Once the servers are known: a DM ping names its server.)
        await self.panels.catch_up_turns()
        await self.daily.close_ended_days()  # the day messages of days ended meanwhile

    # ------------------------------------------------------------- components

    async def relayed(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """Whether a click in a DM was handed to the process that runs its table's server
        (Discord sends every DM click to shard 0's process; bot/store/relay.py): that
        process checks and answers it, under the table's lock, as a click it had
        received. Refused (shard_unreachable), nothing done, if that process did not
        take it. The table's row tells its server: no game is rebuilt here."""
        relay = getattr(self.bot, "relay_interaction", None)
        if relay is None or interaction.guild_id is not None \
                or self.tables.registry.get(table_id) is not None:
            return False
        row = await self.bot.store.get_game(table_id)
        taken = await relay(interaction, row.guild_id) if row is not None else None
        if taken is None:
            return False  # this process's own click
        if not taken:
            raise TableError("shard_unreachable")
        return True

    async def on_click(self, interaction: discord.Interaction[Any], action: TableAction,
                       values: list[str]) -> None:
        """A table's button or menu (its action class, cogs/tables/actions.py): the id
        must name a table of this channel before anything is read or changed; an action
        on a live table meets a closed one with that table's end. A click in a DM for a
        table of another process's server goes to that process, which checks it there
        (a deal of the day is served by any process: it lives in the store).
        Errors are answered by the caller (run_component)."""
        # The kind of table the id names: a member's deal of the day (daily.py), drawn
        # from their play, or a table of a channel.
        daily = self.daily.daily_service.key_of(action.table_id)
        if daily is not None:
            await self.daily.daily_click(interaction, daily, action, values)
            return
        if await self.relayed(interaction, action.table_id):
            return
        owner = await self.tables.keeper.load(action.table_id)
        if owner is not None:
            check_place(interaction, owner, action.seat_op)
            if "daily" in owner.meta:  # a daily's record is no table: no review, no rematch
                raise TableError("elsewhere")
        if not action.live:
            await action.run(self, interaction, owner, values)
            return
        table = self.tables.registry.get(action.table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            await self.boards.closed_table(interaction, action.table_id)
            return
        await action.run(self, interaction, table, values)


def _serves(cog: Tables) -> tuple[ActionHost, PagesHost, CommandHost, ShowsChanges]:
    """The cog is each protocol its components, commands and error handler see it by
    (cogs/tables/host.py hands it to them untyped): checked here, by the type checker."""
    return cog, cog, cog, cog
