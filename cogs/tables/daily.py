"""The deal of the day's room (bot/tables/daily.py): `/<game> daily`, its private panels,
its one public message per server and day (with its results: daily_shown.py), its boards
and settings.

A member's daily is a kind of table that exists only in their panels: a `Table` built
for the moment from their play (DailyService.table: the member in their seat, the AI in
the others, its `daily` the day's key) with an id that names the day
(bot/tables/daily_deal.py), so the game's own hand controls (GameUI) draw it and answer
its clicks as at any table; the platform routes by the table's kind (Tables.on_click,
GameCog.act_on_click), and the move takes the path of every table's (bot/tables/moves.py)
in the daily's service. Nothing of a play reaches the channel: the table message, the
deal's summary and the pings are never made for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord

from bot.discord.access import Blocked
from bot.render.daily import (
    abandoned_text,
    board_panel,
    days_text,
    dm_opened_text,
    dm_refused_text,
    dm_sent_text,
    done_text,
    opened_text,
    result_button_label,
    settings_text,
    stats_line,
)
from bot.render.guide import dm_link_label
from bot.tables.daily import DailyService
from bot.tables.daily_board import MIN_DAYS
from bot.tables.daily_deal import (
    DAILY,
    DAILY_DONE,
    DAILY_NOT_STARTED,
    DAILY_OVER,
    DAILY_SEALED,
    DAILY_STALE,
    SETTINGS_KEY,
    DailyState,
)
from bot.tables.errors import TableError
from bot.tables.names import safe_markdown
from bot.tables.service import TableService
from bot.tables.table import DailyKey, Table
from cogs.tables.common import (
    Components,
    GameUIs,
    TableBot,
    mark_committed,
    reply,
    to_embed,
)
from cogs.tables.components import TableButton
from cogs.tables.daily_shown import RESULT, DailyShown
from cogs.tables.guards import is_manager
from cogs.tables.settings import SettingsRoom
from cogs.tables.views import hand_panel

log = logging.getLogger(__name__)

# Discord drops an interaction not answered within 3 seconds ("you must send an initial
# response within 3 seconds of receiving the event":
# https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction;
# the fake refuses a late answer with 10062, Unknown interaction). A daily's step runs
# the AI players' answers before it is stored; one that takes longer than this defers
# the answer (Discord's "thinking", or a deferred update of the panel) and edits it after.
ANSWER_WITHIN = 2.0
_T = TypeVar("_T")


def dm_link_view(url: str) -> discord.ui.View:
    """The answer to `/<game> daily dm:True`: a link button to the panel sent by DM
    (issue 52: "in your direct messages", with no way there). A DM message's link is
    https://discord.com/channels/@me/<channel>/<message> (discord.py's
    Message.jump_url); a link button is style 5 with a url and no custom id
    (https://discord.com/developers/docs/components/reference#button)."""
    view = Components()
    view.add_item(discord.ui.Button(label=dm_link_label(), url=url, emoji="📨"))
    return view


class DailyRoom:
    """`/<game> daily` and what follows from it."""

    def __init__(self, bot: TableBot, tables: TableService, settings: SettingsRoom,
                 uis: GameUIs) -> None:
        self.bot = bot
        self.tables = tables
        # The daily's service, built with the table service (TableService.daily).
        self.daily_service: DailyService = tables.daily
        self.settings = settings
        # A change of the server's settings (its `players`) reaches the daily's next day.
        settings.before_change.append(
            lambda guild, game: self.daily_service.fix_today(guild, game))
        self.uis = uis  # a daily's hand panel holds its game's controls
        self.clock = bot.settings.clock  # Discord's time of day (message age)
        # Its results and its day's public message (cogs/tables/daily_shown.py).
        self.shown = DailyShown(self)

    def _daily_controls(self, table: Table, seat: int) -> discord.ui.View:
        return self.uis.of(table).hand_components(table, table.seat_view(seat))

    async def in_time(self, interaction: discord.Interaction[Any], work: Awaitable[_T], *,
                       command: bool = False) -> _T:
        """`work`'s result; if it is not ready within ANSWER_WITHIN seconds, the answer
        is deferred first (a command's: thinking, for the user alone; a click's: the
        panel's update), so Discord keeps the interaction."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        if not done and not interaction.response.is_done():
            if command:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        return await task

    async def _show_panel(self, interaction: discord.Interaction[Any], **fields: Any) -> None:
        """The clicked panel edited to `fields`: in the answer, or after a deferred one."""
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)

    # ----------------------------------------------------------------- playing

    async def daily(self, interaction: discord.Interaction[Any], game: str,
                    board: str | None = None, dm: bool = False) -> None:
        """`/<game> daily`: the member's deal of the day in their panel (begun, or
        taken up where it was), or, with `board`, a board of the daily. With `dm`, the
        panel goes to the member's direct messages and is played there (its buttons
        name the server, the game and the day: any process answers them)."""
        if board is not None:
            await self.daily_board(interaction, game, board)
            return
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        service = self.daily_service
        user = interaction.user
        try:
            state = await self.in_time(interaction, service.open(guild, game, user.id,
                                                                    user.display_name),
                                        command=True)
        except TableError as exc:
            if exc.params.get("reason") != DAILY_DONE:
                raise
            # One try a day; the result can be reopened all day (issue 52).
            done = await service.state(guild, game, user.id)
            if done is None or done.abandoned:
                raise
            await self.shown.finished(interaction, done, note=done_text(game))
            return
        # The day's public message is owed from the first play on: its place is stored
        # before the answer, posted after it.
        await self.owe_public(state, interaction.channel_id or 0)
        mark_committed(interaction, None, "opened")
        table = service.table(state)
        seat = state.deal.seat
        title = state.kind.words.title(state.deal.rules)
        content = opened_text(title, state.deal.day)
        panel = to_embed(hand_panel(table, seat))
        hand = self._daily_controls(table, seat)
        # The panel: here, or, sent by DM, only the line that says so.
        embed: discord.Embed | None = panel
        controls: discord.ui.View | None = hand
        if dm:
            server = safe_markdown(interaction.guild.name) if interaction.guild is not None \
                else str(guild)
            try:
                # discord.py keeps the DM channel once opened: one request a member.
                dm_channel = await self.bot.create_dm(user)
                sent = await dm_channel.send(dm_opened_text(server, title, state.deal.day),
                                             embed=panel, view=hand)
            except (discord.Forbidden, Blocked):
                # 403 50007, "Cannot send messages to this user": the member closed
                # their DMs from the server (https://discord.com/developers/docs/topics/
                # opcodes-and-status-codes#json), and Discord answers every message to
                # that DM channel so (the channel itself opens: the refusal is the
                # message's, as logged in https://github.com/Kord-Extensions/
                # kord-extensions/pull/215; the fake does the same). After the first
                # refusal the bot sends that channel nothing for 10 minutes
                # (bot/discord/access.py: each refusal counts toward Discord's
                # invalid-request limit) and raises Blocked before the request: the
                # same refusal, known ahead. Either way the panel is shown here.
                content = f"{dm_refused_text()}\n{content}"
                # A view lets go of its items once serialised (common.Components), and
                # the refused request serialised this one: the panel's are drawn anew.
                controls = self._daily_controls(table, seat)
            else:
                content, embed, controls = dm_sent_text(), None, dm_link_view(sent.jump_url)
        fields: dict[str, Any] = {"content": content, "embed": embed}
        if controls is not None:
            fields["view"] = controls
        if interaction.response.is_done():  # deferred: the AI took its time
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.send_message(**fields, ephemeral=True)
        await self.shown.public(guild, game, state.deal.day)

    async def owe_public(self, state: DailyState, channel_id: int) -> None:
        """A member began the day's deal (in a panel or in the Activity's page): the
        day's public message is owed from then on, in the daily's channel, else the
        member's (shown.public posts it)."""
        deal = state.deal
        if await self.bot.store.daily_day(deal.guild_id, deal.game, deal.day) is None:
            await self.bot.store.set_daily_day(deal.guild_id, deal.game, deal.day,
                                               deal.channel_id or channel_id, None, "")

    async def _daily_in_play(self, interaction: discord.Interaction[Any], key: DailyKey
                             ) -> Any:
        """The member's play of the daily `key`, or None once it is finished (the
        finished panel is then the answer); refused if never begun."""
        state = await self.daily_service.state(key.guild_id, key.game, interaction.user.id,
                                               key.day)
        if state is None:
            raise TableError(DAILY, reason=DAILY_NOT_STARTED)
        if state.abandoned:  # an old panel of a day whose end and grace are past
            raise TableError(DAILY, reason=DAILY_OVER, game=key.game)
        if state.finished:
            await self.shown.finished(interaction, state)
            return None
        return state

    async def daily_click(self, interaction: discord.Interaction[Any], key: DailyKey,
                          action: Any, values: list[str]) -> None:
        """A click on a daily panel's control (its id names the daily `key`): the
        game's own moves go to the game's controls, Refresh shows the panel anew (the
        result, once the play is finished), and a finished result's buttons its
        details."""
        if action.parts[0] == RESULT:
            await self.shown.detail(interaction, key, action.parts[1:])
            return
        state = await self._daily_in_play(interaction, key)
        if state is None:
            return
        table = self.daily_service.table(state)
        parts = action.parts
        if parts and parts[0].isdigit():
            await self.uis.of(table).on_action(interaction, table, int(parts[0]), parts[1:], values)
            return
        await self.daily_stale(interaction, table)

    async def daily_move(self, interaction: discord.Interaction[Any], table: Table,
                         version: int, make: Callable[[int], Any]) -> None:
        """The member's move in their daily (GameCog.act_on_click routes a daily's
        table here): stored with the AI players' answers, then the panel shows the play
        now, or the result once the deal is over."""
        key = _key(table)
        game, day, guild = key.game, key.day, key.guild_id
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise TableError(DAILY, reason=DAILY_NOT_STARTED)

        async def step() -> tuple[DailyState, Any]:
            state = await self.daily_service.act(guild, game, interaction.user.id, version,
                                                 day, make(seat),
                                                 channel_id=table.channel_id)
            mark_committed(interaction, None, "move")
            return state, await self.shown.result_panel(state) if state.finished else None

        try:
            state, result = await self.in_time(interaction, step())
        except TableError as exc:
            if exc.params.get("reason") != DAILY_STALE:
                raise
            # A click drawn for an earlier moment (a double click): the panel shows the
            # play as it is now, as a table's stale click does.
            await self.daily_stale(interaction, table)
            return
        if result is not None:
            await self._show_panel(interaction, embed=to_embed(result),
                                   view=self.shown.result_view(state), content=None)
            await self.shown.public(guild, game, day)
            return
        table = self.daily_service.table(state)
        await self._show_panel(interaction, embed=to_embed(hand_panel(table, seat)),
                               view=self._daily_controls(table, seat))

    async def daily_stale(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A daily panel drawn for another moment: it shows the play as it is now."""
        state = await self._daily_in_play(interaction, _key(table))
        if state is None:
            return
        fresh = self.daily_service.table(state)
        seat = state.deal.seat
        await self._show_panel(interaction, embed=to_embed(hand_panel(fresh, seat)),
                               view=self._daily_controls(fresh, seat))

    async def close_ended_days(self) -> None:
        await self.shown.close_ended_days()

    def close(self) -> None:
        self.shown.close()

    # ----------------------------------------------------------------- boards

    async def daily_board(self, interaction: discord.Interaction[Any], game: str,
                          period: str) -> None:
        """A board of the daily: "day", today's (for a member who has played today's
        deal: nobody sees another's result before finishing their own), "week" or
        "month", the ladders of the days that are over."""
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        service = self.daily_service
        kind = self.tables.registry.kind(game)
        period = period if period in ("day", "week", "month") else "day"
        if period == "day":
            today = await service.today(guild, game)
            if await service.sealed(guild, game, today, interaction.user.id):
                raise TableError(DAILY, reason=DAILY_SEALED)
            rows = [(r.rank, r.name, r.matchpoints,
                     abandoned_text() if r.score is None
                     else kind.words.deal_score_text(r.score))
                    for r in await service.board(guild, game, today)]
        else:
            rows = [(r.rank, r.name, r.matchpoints, days_text(r.days))
                    for r in await service.ladder(guild, game, period)]
        day, _ = await service.current_day(guild, game)
        deal = await service.deal(guild, game, day or await service.last_closed_day(
            guild, game))
        panel = board_panel(kind.words.title(deal.rules), period, rows, MIN_DAYS)
        view = None
        if period == "day":  # the member's own result, a tap away (a finished play's)
            view = Components()
            view.add_item(TableButton(service.table_id(deal.key), "hand",
                                      label=result_button_label("result")))
        # For the asker alone (issue 52): the channel keeps the day's one message.
        await reply(interaction, panel=panel, view=view)

    async def check_daily_record(self, interaction: discord.Interaction[Any],
                                 meta: dict[str, Any], game: str) -> None:
        """A stored game that is a member's daily shows its deal face up: refused to a
        member whose own play of that day is unfinished, and, while the day runs, to one
        who has not played it (DailyService.sealed); else a record like any other."""
        daily = meta.get("daily")
        if not isinstance(daily, dict):
            return
        guild, day = int(daily.get("guild", 0)), str(daily.get("day", ""))
        user = interaction.user.id
        if await self.daily_service.sealed(guild, game, day, user):
            mine = await self.bot.store.daily_play(guild, game, day, user)
            raise TableError(DAILY, reason="unfinished" if mine is not None
                             else DAILY_SEALED)

    async def daily_stats_line(self, guild_id: int, game: str, user_id: int) -> str:
        days, average = await self.daily_service.member_line(guild_id, game, user_id)
        return stats_line(days, average)

    # ----------------------------------------------------------------- settings

    async def daily_settings(self, interaction: discord.Interaction[Any], game: str, *,
                             enabled: bool | None, channel: int | None,
                             preset: str | None, house: str | None,
                             time_zone: str | None) -> None:
        """`/<game> daily_settings`: the server's daily, shown, or changed (Manage
        Server, as the server's other settings)."""
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        kind = self.tables.registry.kind(game)
        settings = await self.bot.store.get_guild_settings(guild, game)
        daily = dict(settings.get(SETTINGS_KEY) or {})
        changing = any(v is not None for v in (enabled, channel, preset, house, time_zone))
        if changing:
            if not is_manager(interaction):
                raise TableError("not_allowed")
            # Today's rules (and time zone) stay as they are: the change takes effect the
            # next day (bot/tables/daily.py, DailyService.fix_today).
            await self.daily_service.fix_today(guild, game)
            if enabled is not None:
                daily["enabled"] = enabled
            if channel is not None:
                daily["channel"] = channel
            if preset is not None:
                daily["preset"] = None if preset in ("", "default") else preset
            if house is not None:
                daily["house"] = [key.strip() for key in house.split(",") if key.strip()]
            if time_zone is not None:
                try:
                    ZoneInfo(time_zone)
                except (ZoneInfoNotFoundError, ValueError) as exc:
                    raise TableError("bad_option") from exc
                daily["time_zone"] = time_zone
            # The rules must be playable before they are kept (a refusal says why).
            players = int(daily.get("players") or settings.get("players")
                          or kind.default_players)
            rules = kind.make_rules(daily.get("preset"), players, {})
            if daily.get("house"):
                kind.with_house_rules(rules, daily["house"])
            await self.bot.store.set_guild_settings(guild, game,
                                                    {**settings, SETTINGS_KEY: daily})
            mark_committed(interaction, None)
        text = settings_text(bool(daily.get("enabled", True)), daily.get("channel"),
                             daily.get("preset"), daily.get("house") or (),
                             daily.get("time_zone"))
        await reply(interaction, text)


def _key(table: Table) -> DailyKey:
    """The day of a daily's table; refused (stale) for a table of another kind."""
    if table.daily is None:
        raise TableError(DAILY, reason=DAILY_STALE)
    return table.daily
