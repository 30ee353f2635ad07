"""After and beside the games: a finished table's buttons (review, rematch, standings),
the leaderboards, stats, the help pages and the export of a record."""

from __future__ import annotations

import io
import json
import logging
import math
from typing import Any

import discord

from bot.discord import no_mentions
from bot.i18n import use_locale
from bot.render import (
    Panel,
    button_label,
    export_note,
    game_over_text,
    leaderboard_panel,
    page_footer,
    rating_board_panel,
    rating_lines,
    rematch_started_text,
    seat_names,
    stats_panel,
    table_closed_text,
)
from bot.render.guide import days_help_pages
from bot.tables.errors import TableError
from bot.tables.kind import default_rating_pool
from bot.tables.names import safe_markdown
from bot.tables.rating_book import month_of, trend_start
from bot.tables.ratings import MODEL, min_rated
from bot.tables.service import TableService
from bot.tables.table import FINISHED, PLAYING
from cogs.tables.common import PAGE_SIZE, Components, TableBot, mark_committed, reply, to_embed
from cogs.tables.components import HelpButton, LeaderboardButton
from cogs.tables.daily import DailyRoom
from cogs.tables.errors import users_language
from cogs.tables.settings import SettingsRoom
from cogs.tables.views import final_panel, final_view, rematch_line

log = logging.getLogger(__name__)

# The rating pool a game's boards and stats show.
board_pool = default_rating_pool


class BoardsRoom:
    """A finished table's buttons, the boards, stats, help and export."""

    def __init__(self, bot: TableBot, tables: TableService, settings: SettingsRoom,
                 daily: DailyRoom) -> None:
        self.bot = bot
        self.tables = tables
        self.settings = settings
        self.daily = daily  # a daily's record and its line in the stats

    async def closed_table(self, interaction: discord.Interaction[Any], table_id: int
                            ) -> None:
        """A button of a table that is no longer live. A finished game answers with its
        final standings (read from the store: it may have ended before a restart), in
        place of the clicked panel when that is the player's own."""
        table = await self.tables.keeper.load(table_id)
        if table is None or table.stage != FINISHED:
            await reply(interaction, table_closed_text())
            return
        embed = to_embed(final_panel(table))
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(content=game_over_text(), embed=embed,
                                                    view=final_view(table))
        else:
            await reply(interaction, game_over_text(), panel=final_panel(table))


    async def review(self, interaction: discord.Interaction[Any], table_id: int,
                      index: int) -> None:
        """Deal `index` face up, once it is over, for the one who asked (anyone)."""
        table = await self.tables.keeper.load(table_id)
        if table is None or table.game is None:
            await reply(interaction, table_closed_text())
            return
        panel = table.kind.words.deal_review(table.game, index, seat_names(table.seats))
        await reply(interaction, panel=panel)

    async def rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A click on Rematch under a finished game (its standings, or a closed panel):
        the click's message says who is in, and the new game starts once all are."""
        old, new = await self.tables.lobby.rematch(table_id, interaction.user.id)
        mark_committed(interaction, new or old, "start" if new is not None else "change")
        message = interaction.message
        private = message is not None and message.flags.ephemeral  # a closed panel
        with use_locale(await users_language(interaction) if private
                        else await self.settings.server_language(old.guild_id)):
            text = rematch_started_text() if new is not None else rematch_line(old)
            view = final_view(old)
        await interaction.response.edit_message(content=text, view=view)


    async def export(self, interaction: discord.Interaction[Any], game: str,
                     number: int | None) -> None:
        game_id, note = await self._export_target(interaction, number)
        row = await self.bot.store.get_game(game_id)
        if row is None or row.guild_id != interaction.guild_id:
            raise TableError("no_game")
        await self.daily.check_daily_record(interaction, row.meta, row.game)
        kind = self.tables.registry.kind(row.game)
        stored = await self.bot.store.load_record(game_id, record_format=kind.record_format)
        if row.status == "active":
            # The deal being played would show every hidden card: leave it out.
            stored["hands"] = stored["hands"][:-1]
        record = kind.record(stored)
        data = json.dumps(record, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"{row.game}-{game_id}.json")
        await reply(interaction, note, file=file)

    async def _export_target(self, interaction: discord.Interaction[Any], game: int | None
                             ) -> tuple[int, str]:
        if game is not None:
            return game, export_note(game)
        table = self.tables.registry.in_channel(interaction.channel_id or 0)
        if table is not None and table.stage == PLAYING:
            return table.id, export_note(table.id, partial=True)
        finished = await self.bot.store.last_game_in_channel(interaction.channel_id or 0,
                                                             "finished")
        if finished is not None:
            return finished.id, export_note(finished.id)
        raise TableError("no_game", reason="nothing_here")

    async def show_leaderboard(self, interaction: discord.Interaction[Any], game: str,
                               order: str, page: int, edit: bool, ephemeral: bool = False,
                               period: str = "all") -> None:
        """A page of the game's leaderboard in this server: by rating (all time, or this
        month's season: `period` "month"), by wins or by points (all time)."""
        guild = interaction.guild_id or 0
        month = month_of(self.tables.shared.clock.time()) if period == "month" else None
        pool = board_pool(self.tables.registry.kind(game))
        store = self.bot.store
        size = (await store.rating_board_size(guild, pool, month) if order == "rating"
                else await store.leaderboard_size(guild, game))
        pages = max(1, math.ceil(size / PAGE_SIZE))
        current = min(max(1, page), pages)
        offset = (current - 1) * PAGE_SIZE
        message = interaction.message
        public = not ephemeral and not (edit and message is not None
                                        and message.flags.ephemeral)
        if order == "rating":
            rated = await store.rating_board(guild, pool, month, PAGE_SIZE, offset)
            # Their games won beside the rating (the members of one page).
            wins = [(await store.member_stats(guild, game, r.user_id)).wins for r in rated]
            rows: list[Any] = [(f"<@{r.user_id}>", r.ordinal, r.hands, r.ranked, won)
                               for r, won in zip(rated, wins, strict=True)]
        else:
            totals = await store.leaderboard(guild, game, order,  # type: ignore[arg-type]
                                             PAGE_SIZE, offset)
            rows = [(f"<@{r.user_id}>", r.games, r.wins, r.points) for r in totals]
        with use_locale(await self.settings.server_language(guild) if public
                        else await users_language(interaction)):
            panel = (rating_board_panel(rows, current, pages, month, min_rated(pool))
                     if order == "rating" else
                     leaderboard_panel(rows, current, pages, order,
                                       month_asked=period == "month"))
            view = Components()
            view.add_item(LeaderboardButton(game, order, current - 1,
                                            button_label("previous"), disabled=current <= 1,
                                            period=period))
            view.add_item(LeaderboardButton(game, order, current + 1, button_label("next"),
                                            disabled=current >= pages, period=period))
        if edit:
            await interaction.response.edit_message(embed=to_embed(panel), view=view)
        else:
            await interaction.response.send_message(
                embed=to_embed(panel), view=view, ephemeral=ephemeral,
                allowed_mentions=no_mentions())

    async def stats(self, interaction: discord.Interaction[Any], game: str,
                    member: discord.Member | None) -> None:
        who = member or interaction.user
        guild = interaction.guild_id or 0
        s = await self.bot.store.member_stats(guild, game, who.id)
        now = self.tables.shared.clock.time()
        rated = await self.bot.store.member_rating(
            guild, board_pool(self.tables.registry.kind(game)), who.id, month_of(now),
            trend_start(now))
        rating = rated.rating
        # The rating's change over 30 days (the value the board shows): from the end
        # of the last day rated before them, or from a new member's start.
        trend = None if rating is None else rating.ordinal - (
            rated.before.ordinal if rated.before is not None else MODEL.initial().ordinal)
        # In the asker's words: the answer is theirs alone.
        with use_locale(await users_language(interaction)):
            daily = await self.daily.daily_stats_line(guild, game, who.id)
            lines = self.tables.registry.kind(game).words.stats_lines(s.stats)
            rating_text = rating_lines(
                None if rating is None else (rating.mu, rating.sigma, rating.ordinal,
                                             rating.hands),
                None if rated.season is None else (rated.season.mu, rated.season.sigma,
                                                   rated.season.ordinal, rated.season.hands),
                trend, min_rated(board_pool(self.tables.registry.kind(game))))
            panel = stats_panel(safe_markdown(who.display_name), s.games, s.wins, s.points,
                                lines, rating_text, [daily])
        # For the asker alone (issue 52): a channel is not the place of one member's
        # numbers; a member who wants to show them can say so.
        await reply(interaction, panel=panel, ephemeral=True)

    async def help(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self.show_help(interaction, game, 1, edit=False)

    async def show_help(self, interaction: discord.Interaction[Any], game: str, page: int,
                        edit: bool) -> None:
        """Page `page` of the game's guide, with the way to the others (for the reader
        alone; a click turns the page in place)."""
        pages = [*self.tables.registry.kind(game).words.help_pages(), *days_help_pages(game)]
        current = min(max(1, page), len(pages))
        shown = pages[current - 1]
        panel = Panel(title=shown.title, description=shown.description, fields=shown.fields,
                      colour=shown.colour, footer=page_footer(current, len(pages)))
        view = Components()
        view.add_item(HelpButton(game, current - 1, button_label("previous"),
                                 disabled=current <= 1))
        view.add_item(HelpButton(game, current + 1, button_label("next"),
                                 disabled=current >= len(pages)))
        if edit:
            await interaction.response.edit_message(embed=to_embed(panel), view=view)
        else:
            await reply(interaction, panel=panel, view=view)



