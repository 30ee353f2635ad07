"""The table cog: the rooms (cogs/tables/*.py) joined into the one cog that answers every
table's commands, buttons and menus, with what it sets up at load and the few helpers
every room uses (the reply, the table here, my seat)."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

import discord
from discord.ext import commands

from bot.discord import EditQueue, no_mentions
from bot.render import CONTENT_LIMIT, Panel, shorten
from bot.tables import Table, TableError
from bot.tables.service import LOBBY, PLAYING
from cogs.tables.actions import ACTIONS, TableAction
from cogs.tables.boards import BoardsRoom
from cogs.tables.commands import member_commands
from cogs.tables.common import GameUI, OpenPanel, TableBot, to_embed
from cogs.tables.components import GamesButton, HelpButton, LeaderboardButton
from cogs.tables.daily import DailyRoom, is_daily_table
from cogs.tables.errors import answer_error, game_of, speak_the_users_language
from cogs.tables.games_list import GamesListRoom
from cogs.tables.guards import check_place
from cogs.tables.lifecycle import LifecycleRoom
from cogs.tables.lobby import LobbyRoom
from cogs.tables.panels import PanelsRoom
from cogs.tables.pings import PingsRoom
from cogs.tables.posts import PostsRoom
from cogs.tables.settings import SettingsRoom
from cogs.tables.table_message import TableMessageRoom
from cogs.tables.views import PAINTER

log = logging.getLogger(__name__)


class Tables(LobbyRoom, TableMessageRoom, PostsRoom, PanelsRoom, PingsRoom, GamesListRoom,
             BoardsRoom, SettingsRoom, LifecycleRoom, DailyRoom, commands.Cog):
    """The part of every table that no game owns: each room's methods, one cog."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        # The public table messages: edited within the request budget, coalesced and
        # fairest first (bot/discord/edit_queue.py); the tables they show, by id.
        self._edits = EditQueue(bot.budget, self._edit_queued,
                                delay=bot.settings.edit_delay,
                                interval=bot.settings.edit_interval)
        self._shown_tables: dict[int, Table] = {}
        # table -> the id of its table message being replaced by a fresh post (too old
        # to edit, or deleted): edits wait for the fresh one.
        self._replacing: dict[int, int] = {}
        self.clock = bot.settings.clock  # Discord's time of day (message age)
        self._reporter: asyncio.Task[None] | None = None
        self._pictured: dict[int, float] = {}  # table -> when its picture was last drawn
        self._uis: dict[str, GameUI] = {}
        # (table, user) -> the user's hand panel as the last click showed it: its
        # token edits that panel for 15 minutes (the panel follows the game).
        self._panels: dict[tuple[int, int], OpenPanel] = {}
        # table -> the state version whose turn was last followed (a panel edited or the
        # player mentioned): each turn once.
        self._followed: dict[int, int] = {}
        # (table, user) -> the state version of the hand panel the user last opened:
        # its "While you were away" lines are not told again (panels.py, _recap).
        self._seen: dict[tuple[int, int], int] = {}
        self._languages: dict[int, str] = {}  # guild -> the language of its public words
        self._message_locks: dict[int, asyncio.Lock] = {}
        # channel -> the games whose posts wait there for the bot's rights
        # (cogs/tables/posts.py): kicked when the rights are back (lifecycle.py).
        self._held_posts: dict[int, set[int]] = {}
        self._background: set[asyncio.Future[None]] = set()  # stores of panels
        # (guild, user) -> the member's own settings there (the store's), as read once.
        self._members: dict[tuple[int, int], dict[str, Any]] = {}
        self._deleting: set[int] = set()

    def register(self, game: str, ui: GameUI) -> None:
        """A game's cog gives its hand controls (at its own cog_load)."""
        self._uis[game] = ui

    def ui(self, table: Table) -> GameUI:
        ui = self._uis.get(table.kind.name)
        if ui is None:
            raise RuntimeError(f"no cog plays {table.kind.name!r}")
        return ui

    async def cog_load(self) -> None:
        PAINTER.start()  # while the bot connects, not at its first table change
        every = float(os.environ.get("AMERIKANER_REPORT_SECONDS", "60") or 60)
        self._reporter = asyncio.create_task(self._report(every))
        self.bot.add_dynamic_items(*ACTIONS, LeaderboardButton, HelpButton, GamesButton)
        for command in member_commands():
            self.bot.tree.add_command(command)
        self.tables.add_listener(self._on_table_event)
        self.bot.outbox.send = self._send_post
        # The slash commands raise; the tree hands every error to answer_error, also
        # those raised before a command runs (an option or check refused, an outdated
        # command), which a cog's own error handler would never see.
        self._tree_on_error = self.bot.tree.on_error
        self.bot.tree.error(answer_error)
        # Each command (and autocomplete) runs in a task of its own: it speaks the
        # user's language, and switches to the server's for what everyone reads.
        self._tree_check = self.bot.tree.interaction_check
        self.bot.tree.interaction_check = speak_the_users_language  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        for command in member_commands():
            self.bot.tree.remove_command(command.name)
        if self._reporter is not None:
            self._reporter.cancel()
        await self._edits.close()
        self.bot.tree.error(self._tree_on_error)
        self.bot.tree.interaction_check = self._tree_check  # type: ignore[method-assign]

    async def _report(self, every: float) -> None:
        """The budget and the table edits, in the log every `every` seconds (INFO):
        an operator sees the bot near its budget before the players do."""
        while True:
            await asyncio.sleep(every)
            log.info("%s; %s", self.bot.budget.summary(), self._edits.summary())

    # ------------------------------------------------------------- answering

    async def reply(self, interaction: discord.Interaction[Any], text: str | None = None, *,
                    panel: Panel | None = None, view: discord.ui.View | None = None,
                    ephemeral: bool = True, file: discord.File | None = None) -> None:
        """Answer `interaction` (or follow it up, if it is answered): `text`, `panel` as
        an embed, `view`'s controls, `file`; for the user alone unless `ephemeral` is
        False. It never mentions anyone."""
        # No mentions: a reply quotes names and what users typed, never to ping anyone.
        kwargs: dict[str, Any] = {"ephemeral": ephemeral,
                                  "allowed_mentions": no_mentions()}
        if text is not None:
            kwargs["content"] = shorten(text, CONTENT_LIMIT)
        if panel is not None:
            kwargs["embed"] = to_embed(panel)
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    _reply = reply  # the rooms' name for it

    def table_here(self, interaction: discord.Interaction[Any]) -> Table:
        """The live table of the interaction's channel; refused (no_table) if none."""
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None:
            kind = game_of(interaction)
            raise TableError("no_table", game=kind.name if kind else self.tables.kind(None).name)
        return table

    _table_here = table_here

    def my_seat(self, table: Table, user_id: int) -> int:
        """The seat of `user_id` at `table`; refused (not_seated) if they hold none."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", reason="not_playing")
        return seat

    _my_seat = my_seat

    def _in_background(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------- components

    async def relayed(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """Whether a click in a DM was handed to the process that runs its table's server
        (Discord sends every DM click to shard 0's process; bot/store/relay.py): that
        process checks and answers it, under the table's lock, as a click it had
        received. Refused (shard_unreachable), nothing done, if that process did not
        take it. The table's row tells its server: no game is rebuilt here."""
        relay = getattr(self.bot, "relay_interaction", None)
        if relay is None or interaction.guild_id is not None \
                or self.tables.get(table_id) is not None:
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
        if is_daily_table(action.table_id):  # a member's deal of the day (daily.py)
            await self.daily_click(interaction, action, values)
            return
        if await self.relayed(interaction, action.table_id):
            return
        owner = await self.tables.load(action.table_id)
        if owner is not None:
            check_place(interaction, owner, action.seat_op)
            if "daily" in owner.meta:  # a daily's record is no table: no review, no rematch
                raise TableError("elsewhere")
        if not action.live:
            await action.run(self, interaction, owner, values)
            return
        table = self.tables.get(action.table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            await self.closed_table(interaction, action.table_id)
            return
        await action.run(self, interaction, table, values)
