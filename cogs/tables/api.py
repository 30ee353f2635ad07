"""The public API of the table platform for a game's cog: everything a game's cog
(cogs/amerikaner.py, cogs/american.py, a new game's) needs from cogs.tables, and
nothing private. A game's cog subclasses GameCog, declares its command group and its
hand controls (GameUI: `hand_components` and `on_action`), and uses these:

- `self.table_here(interaction)`, `self.my_seat(table, user_id)`: where and who;
- `self.act(...)` (a slash command's move), `self.act_on_click(...)` (a control's),
  `self.confirm(...)`, `self.answer_stale(...)`: a move stored and shown;
- `self.reply(...)`: an answer, for the user alone by default;
- `self.new_table(...)`, `self.save_settings(...)`: the game's `new` and `settings`;
- `to_embed`, `choices`, `select_options`, `Components`, `TableButton`, `TableSelect`,
  `HINT_STYLE`/`HINT_EMOJI`: the pieces of its controls and autocomplete, within
  Discord's limits;
- the words of the options every game's `new` and `settings` share
  (LANGUAGE_CHOICES, TIMER_DESCRIPTIONS, ON_TIMEOUT_CHOICES, SWITCH_DESCRIPTIONS, ...).

The commands every game shares (join, hand, leave, ..., help) are added to the cog's
group by GameCog itself (cogs/tables/commands.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import Panel
from bot.tables import ActResult, Table
from cogs.tables.cog import Tables
from cogs.tables.commands import add_shared_commands
from cogs.tables.common import (
    HINT_EMOJI,
    HINT_STYLE,
    Components,
    GameUI,
    TableBot,
    choices,
    option_words,
    select_options,
    to_embed,
)
from cogs.tables.components import TableButton, TableSelect
from cogs.tables.daily import is_daily_table
from cogs.tables.host import host_of
from cogs.tables.settings import (
    LANGUAGE_CHOICES,
    LANGUAGE_DESCRIPTION,
    ON_TIMEOUT_CHOICES,
    SWITCH_DESCRIPTIONS,
    TIMER_DESCRIPTIONS,
    timer_choices,
    timer_minutes,
)

__all__ = [
    "HINT_EMOJI", "HINT_STYLE", "LANGUAGE_CHOICES", "LANGUAGE_DESCRIPTION",
    "ON_TIMEOUT_CHOICES", "SWITCH_DESCRIPTIONS", "TIMER_DESCRIPTIONS", "Components",
    "GameCog", "GameUI", "TableBot", "TableButton", "TableSelect", "choices",
    "select_options", "timer_choices", "to_embed",
]

_T = TypeVar("_T")


class GameCog(commands.Cog):
    """What every game's cog shares: its command group (`group`, declared by the game's
    cog) gets the commands every game has, the cog gives the table cog its hand controls
    (the GameUI: `hand_components`, `on_action`), and the methods below answer its
    commands and clicks through the table cog (`host`)."""

    game: str  # the game's registry name, also its command group's
    group: app_commands.Group

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        add_shared_commands(self.group, self.game)
        for command in self.group.walk_commands():  # every option named as words
            if isinstance(command, app_commands.Command):
                option_words(command)

    async def cog_load(self) -> None:
        self.host.register(self.game, self)  # type: ignore[arg-type]

    @property
    def host(self) -> Tables:
        """The shared table cog (loaded first, bot/app.py)."""
        cog = host_of(self.bot)
        if not isinstance(cog, Tables):
            raise RuntimeError("the Tables cog is not loaded")
        return cog

    # ------------------------------------------------------------- where and who

    def table_here(self, interaction: discord.Interaction[Any]) -> Table:
        """The live table of the interaction's channel; refused (no_table) if none."""
        return self.host.table_here(interaction)

    def my_seat(self, table: Table, user_id: int) -> int:
        """`user_id`'s seat at `table`; refused (not_seated) if they hold none."""
        return self.host.my_seat(table, user_id)

    # ------------------------------------------------------------- answering

    async def reply(self, interaction: discord.Interaction[Any], text: str | None = None, *,
                    panel: Panel | None = None, view: discord.ui.View | None = None,
                    ephemeral: bool = True) -> None:
        """Answer (or follow up) with `text`, `panel` and `view`, for the user alone
        unless `ephemeral` is False; it never mentions anyone."""
        await self.host.reply(interaction, text, panel=panel, view=view, ephemeral=ephemeral)

    # ------------------------------------------------------------- moves

    async def act(self, interaction: discord.Interaction[Any], table: Table,
                  make: Callable[[int], Any]) -> None:
        """A slash command's move: `make(seat)` (it reads what the user typed, once the
        service has checked they play here) stored, and their hand shown."""
        await self.host.act(interaction, table, make)

    async def act_on_click(self, interaction: discord.Interaction[Any], table: Table,
                           version: int, make: Callable[[int], Any]) -> None:
        """The action `make(seat)` of a click drawn at state `version`: confirmed in the
        clicked panel, or, drawn for an earlier state, the panel shows the state now."""
        if is_daily_table(table.id):  # a member's deal of the day (cogs/tables/daily.py)
            await self.host.daily_move(interaction, table, version, make)
            return
        result = await self.host.unless_stale(
            interaction, table, self.tables.act(table.id, interaction.user.id, version, make))
        if result is not None:
            await self.host.confirm(interaction, table, result, edit=True)

    async def unless_stale(self, interaction: discord.Interaction[Any], table: Table,
                           work: Awaitable[_T]) -> _T | None:
        """`work`'s result; None when it was drawn for an earlier state, which the
        clicked panel is then edited to show as it is now."""
        return await self.host.unless_stale(interaction, table, work)

    async def confirm(self, interaction: discord.Interaction[Any], table: Table,
                      result: ActResult, edit: bool) -> None:
        """A stored action (`result`) shown: the player's hand in the clicked panel
        (`edit`) or a new one, then the table message and the next player's turn."""
        await self.host.confirm(interaction, table, result, edit)

    async def answer_stale(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click drawn for an earlier state: the clicked panel shows the hand now."""
        if is_daily_table(table.id):
            await self.host.daily_stale(interaction, table)
            return
        await self.host.answer_stale(interaction, table)

    # ------------------------------------------------------------- new and settings

    async def new_table(self, interaction: discord.Interaction[Any], *,
                        preset: str | None, players: int | None, target: int | None,
                        turn_timer: str | None, options: Mapping[str, bool | None],
                        switches: Mapping[str, bool | None], reminders: str | None = None,
                        on_timeout: str | None = None) -> None:
        """The game's `new`: a lobby with what the host asked for, else the server's
        defaults for the game, else the game's own."""
        await self.host.new_table(interaction, self.game, preset=preset, players=players,
                                  target=target, turn_timer=timer_minutes(turn_timer),
                                  options=options,
                                  switches=switches, reminders=reminders,
                                  on_timeout=on_timeout)

    async def save_settings(self, interaction: discord.Interaction[Any], *,
                            preset: str | None, players: int | None, target: int | None,
                            options: str | None, turn_timer: str | None,
                            switches: Mapping[str, bool | None],
                            language: str | None = None, reminders: str | None = None,
                            on_timeout: str | None = None) -> None:
        """The game's `settings`: the server's defaults for its new tables, shown, or
        changed (Manage Server)."""
        await self.host.save_settings(interaction, self.game, preset=preset, players=players,
                                      target=target, options=options,
                                      turn_timer=timer_minutes(turn_timer),
                                      switches=switches, language=language,
                                      reminders=reminders, on_timeout=on_timeout)
