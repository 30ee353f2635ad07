"""The member's own lists: /games (their tables of every game here) and /notify."""

from __future__ import annotations

import logging
import math
from typing import Any

import discord

from bot.discord.access import GONE
from bot.i18n import language_of
from bot.render import (
    button_label,
)
from bot.render.guide import nothing_open_text
from bot.render.lost import channel_lost_row_text
from bot.render.text import (
    absent_paused_text,
    away_row_text,
    games_panel,
    lobby_turn_text,
    notify_text,
)
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import PAUSE_ABSENT, PAUSE_CHANNEL, PLAYING, Table, abandon_at
from cogs.tables.common import Components, mark_committed, reply, table_link, to_embed
from cogs.tables.components import GAMES_PAGE, GamesButton, TableButton
from cogs.tables.pings import PingsRoom
from cogs.tables.views import deadline_of, table_names

log = logging.getLogger(__name__)


def games_row(table: Table, user: int, gone: bool = False
              ) -> tuple[str, str, str, float | None, bool]:
    """One table of a member's games list: (game, where, whose turn, deadline, theirs).
    A table whose channel is lost says why instead of its channel and turn (issue 52:
    "#unknown · Your turn"; `gone`: the channel was deleted), its End and Leave below."""
    if PAUSE_CHANNEL in table.paused:
        return table.kind.words.title(table.rules), channel_lost_row_text(gone), "", None, \
            False
    where = f"<#{table.channel_id}>"
    own = table.seat_of(user)
    paused = PAUSE_ABSENT in table.paused  # nobody plays: the AI neither
    if own is not None and table.stage == PLAYING and table.seats[own].away:
        # its Back button is on the row (show_games)
        where += f" · {away_row_text(paused)}"
    if paused:
        where += f"\n{absent_paused_text(abandon_at(table))}"
    seat = table.to_act if table.stage == PLAYING else None
    if seat is None:
        return table.kind.words.title(table.rules), where, lobby_turn_text(), None, False
    mine = table.seats[seat].user_id == user and not table.seats[seat].played_by_ai
    return (table.kind.words.title(table.rules), where, table_names(table)[seat],
            deadline_of(table), mine)


class GamesListRoom:
    """/games and /notify."""

    def __init__(self, tables: TableService, pings: PingsRoom) -> None:
        self.tables = tables
        self.pings = pings  # a member's own settings

    async def notify(self, interaction: discord.Interaction[Any], where: str) -> None:
        """/notify: where this member's turn pings and reminders go in this server."""
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        where = "dm" if where == "dm" else "channel"
        await self.pings.set_member_setting(guild, interaction.user.id, "turn_pings", where)
        # A DM is read by them alone: in their Discord's language, not the server's
        # (the ping has no interaction to read it from). An interaction's `locale` is
        # "the selected language of the invoking user":
        # https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object
        await self.pings.set_member_setting(guild, interaction.user.id, "language",
                                      language_of(interaction.locale)
                                      if where == "dm" else None)
        await self.pings.set_member_setting(guild, interaction.user.id, "dm_failed_told", None)
        mark_committed(interaction, None)
        await reply(interaction, notify_text(where))

    # ------------------------------------------------------------- the games list

    async def show_games(self, interaction: discord.Interaction[Any], page: int,
                         edit: bool) -> None:
        """/games: every open table of this server where the member holds a seat, their
        turn first, with the time left, a link to each table and their hand's button
        there; for them alone, GAMES_PAGE tables a page (Discord's 5 rows of buttons)."""
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        user = interaction.user.id
        mine = self.tables.registry.tables_of(guild, user)
        pages = max(1, math.ceil(len(mine) / GAMES_PAGE))
        current = min(max(1, page), pages)
        first = (current - 1) * GAMES_PAGE
        shown = mine[first:first + GAMES_PAGE]
        access = self.pings.bot.access
        panel = games_panel([games_row(table, user, access.blocked(table.channel_id) == GONE)
                             for table in shown], current, pages,
                            first=first + 1,
                            begin=nothing_open_text(list(self.tables.registry.games)))
        view = Components()
        for row, table in enumerate(shown):
            number = first + row + 1
            if table.stage == PLAYING:
                hand = TableButton(table.id, "hand:list", style=discord.ButtonStyle.primary,
                                   emoji="🃏", label=f"{number}. {button_label('open_hand')}")
                hand.item.row = row
                view.add_item(hand)
            own = table.seat_of(user)
            if table.stage == PLAYING and own is not None and table.seats[own].away:
                # Back from anywhere (issue 35): the seat the AI covers is taken back
                # here, not only by /back in the table's channel.
                back = TableButton(table.id, "back:list", style=discord.ButtonStyle.success,
                                   emoji="↩️", label=f"{number}. {button_label('seat_back')}")
                back.item.row = row
                view.add_item(back)
            if access.blocked(table.channel_id) != GONE:  # no link into a deleted channel
                link = table_link(table)
                link.label = f"{number}. {button_label('to_table')}"
                link.row = row
                view.add_item(link)
            if PAUSE_CHANNEL in table.paused:
                # Its channel is gone or refuses the bot: nobody can end or leave the
                # table there (cogs/tables/lifecycle.py).
                for op, label in (("gone:end", "end_table"), ("gone:leave", "leave")):
                    button = TableButton(table.id, op, style=discord.ButtonStyle.secondary,
                                         label=f"{number}. {button_label(label)}")
                    button.item.row = row
                    view.add_item(button)
        if pages > 1:
            view.add_item(GamesButton(current - 1, button_label("previous"),
                                      disabled=current <= 1))
            view.add_item(GamesButton(current + 1, button_label("next"),
                                      disabled=current >= pages))
        if edit:
            await interaction.response.edit_message(embed=to_embed(panel), view=view)
        else:
            await reply(interaction, panel=panel, view=view)


