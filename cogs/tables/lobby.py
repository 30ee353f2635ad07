"""The lobby and the shared commands of a table: new, join, start, leave, away, back,
replace, cancel, score, table, hand."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord import missing_table_permissions
from bot.render import (
    away_text,
    back_text,
    cancelled_text,
    game_started_text,
    joined_text,
    left_text,
    replaced_text,
    shorten,
    thread_name,
    thread_opened_text,
)
from bot.tables.errors import TableError
from bot.tables.names import safe_markdown, safe_plain
from bot.tables.service import TableService
from bot.tables.table import LOBBY, OFFER_MESSAGES, OFFERS, PAUSE_ABSENT, PLAYING, Table, abandon_at
from bot.tables.timer_settings import check_reminders, check_timeout_action
from cogs.tables.common import (
    LET_GO,
    TableBot,
    activity_on,
    launch_activity,
    mark_committed,
    reply,
    to_embed,
)
from cogs.tables.guards import check_bot_permissions, is_manager, table_here
from cogs.tables.offers import drop_stale_offers, offer_by_dm, tell_seat_given
from cogs.tables.panels import PanelsRoom
from cogs.tables.settings import SettingsRoom, reminder_points, table_switches
from cogs.tables.table_message import TableMessageRoom
from cogs.tables.views import lobby_view, offer_view, table_panel

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Wanted:
    """A new table as asked for, completed by the server's defaults (LobbyRoom._wanted)."""

    game: str
    preset: str | None
    players: int
    options: dict[str, object]
    timer: int  # minutes
    switches: dict[str, bool | None]
    reminders: Any
    timeout_action: Any


class LobbyRoom:
    """A table's lobby and the commands every game's group shares at a table."""

    def __init__(self, bot: TableBot, tables: TableService, settings: SettingsRoom,
                 messages: TableMessageRoom, panels: PanelsRoom) -> None:
        self.bot = bot
        self.tables = tables
        self.settings = settings
        self.messages = messages
        self.panels = panels
        self._offering: dict[int, asyncio.Lock] = {}  # table -> its offers, in turn

    async def hand(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self.panels.show_hand(interaction, table_here(self.tables, interaction))

    async def join(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = table_here(self.tables, interaction)
        await self.tables.lobby.join(table.id, interaction.user.id, interaction.user.display_name)
        mark_committed(interaction, table)
        await reply(interaction, joined_text(len(table.seats)))
        self.messages.request_refresh(table)

    async def start(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = table_here(self.tables, interaction)
        check_bot_permissions(interaction)
        await self.tables.lobby.start(table.id, interaction.user.id)
        mark_committed(interaction, table, "start")
        with await self.settings.public(table.guild_id):
            text = game_started_text()
        await reply(interaction, text, ephemeral=False)
        self.messages.request_refresh(table)
        await self.panels.follow_turn(table, None)  # the first player is pinged, host too

    async def new_table(self, interaction: discord.Interaction[Any], game: str, *,
                        preset: str | None, players: int | None, target: int | None,
                        turn_timer: int | None, options: Mapping[str, bool | None],
                        switches: Mapping[str, bool | None], reminders: str | None = None,
                        on_timeout: str | None = None) -> None:
        """A game's `new`: a lobby with what the host asked for, else the server's
        defaults for the game (its `settings`; a preset's options and counts only for
        that preset), else the game's own."""
        wanted = await self._wanted(interaction.guild_id or 0, game, preset=preset,
                                    players=players, target=target, turn_timer=turn_timer,
                                    options=options, switches=switches,
                                    reminders=reminders, on_timeout=on_timeout)
        channel = interaction.channel_id or 0
        new_thread = bool(wanted.switches.get("thread")) \
            and isinstance(interaction.channel, discord.TextChannel)
        check_bot_permissions(interaction, new_thread=new_thread)
        if new_thread:
            # The rules are judged before a thread is started for them.
            rules = self.tables.registry.kind(game).make_rules(wanted.preset,
                                                               wanted.players,
                                                               wanted.options)
            # Starting the thread and posting its lobby are two requests: the interaction
            # is answered first ("thinking"), so Discord's 3 seconds are never at risk.
            # https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction
            await interaction.response.defer(thinking=True)
            channel = await self.table_channel(interaction,
                                               self.tables.registry.kind(game).words.title(
                                                   rules))
        table = await self._create(wanted, interaction.guild_id or 0, channel,
                                   interaction.user.id, interaction.user.display_name)
        mark_committed(interaction, table, "opened")
        await self.open_lobby(interaction, table)

    async def new_from_page(self, guild_id: int, channel_id: int, user_id: int, name: str,
                            game: str, *, app_permissions: discord.Permissions,
                            in_thread: bool) -> Table:
        """The Activity's home page's "New table" (bot/web/server.py, through
        cogs/tables/entry_point.py): what `/<game> new` with no option does, in the
        page's channel: the server's defaults, the same checks (the bot's permissions
        where the table plays, as Discord gave them with the launch), the same service
        call, and the lobby posted as the channel's table message. The table plays in
        the page's channel (a thread of its own would take it away from the page)."""
        wanted = await self._wanted(guild_id, game)
        missing = missing_table_permissions(app_permissions, in_thread=in_thread)
        if missing:
            raise TableError("bot_missing", permissions=missing)
        table = await self._create(wanted, guild_id, channel_id, user_id, name)
        await self.post_lobby(table)
        return table

    async def _wanted(self, guild: int, game: str, *, preset: str | None = None,
                      players: int | None = None, target: int | None = None,
                      turn_timer: int | None = None,
                      options: Mapping[str, bool | None] | None = None,
                      switches: Mapping[str, bool | None] | None = None,
                      reminders: str | None = None, on_timeout: str | None = None
                      ) -> Wanted:
        """The table asked for, completed by the server's defaults for the game, else
        the game's own; bad values refused before anything is opened."""
        defaults = await self.bot.store.get_guild_settings(guild, game)
        chosen = preset or defaults.get("preset")
        same = chosen == defaults.get("preset")
        merged: dict[str, object] = dict(defaults.get("options", {})) if same else {}
        merged.update({name: on for name, on in (options or {}).items() if on is not None})
        kind = self.tables.registry.kind(game)
        count = players or (defaults.get("players") if same else None) or kind.default_players
        merged["target"] = target or (defaults.get("target") if same else None)
        timer = turn_timer if turn_timer is not None else int(defaults.get("turn_timer") or 0)
        # Checked before a thread is started for the table (a bad value: the service's
        # sentence); blank reminders are the default ones.
        points = check_reminders(reminder_points(reminders)
                                 or defaults.get("reminders"))
        action = check_timeout_action(on_timeout or defaults.get("timeout_action"))
        chosen_switches = table_switches(defaults, **(switches or {}))
        return Wanted(game, chosen, int(count), merged, timer, chosen_switches, points,
                      action)

    async def _create(self, wanted: Wanted, guild: int, channel: int, user_id: int,
                      name: str) -> Table:
        """The one call that opens a lobby, the command's and the page's."""
        return await self.tables.lobby.create(
            guild, channel, user_id, name, wanted.preset, wanted.players,
            wanted.options, wanted.timer * 60 or None, game=wanted.game,
            switches=wanted.switches, reminders=wanted.reminders,
            timeout_action=wanted.timeout_action)

    async def table_channel(self, interaction: discord.Interaction[Any], title: str) -> int:
        """Where a new table that asks for a thread plays: a thread of its own started
        in the channel (in a text channel where the bot may start one), else the
        channel."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            return interaction.channel_id or 0
        # The bot's permissions for threads were checked (check_bot_permissions).
        with await self.settings.public(channel.guild.id):
            # A thread's name renders no Markdown: the name without escapes.
            name = shorten(thread_name(title, safe_plain(interaction.user.display_name)), 100)
        try:
            opened = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread, auto_archive_duration=1440)
        except discord.HTTPException:
            log.info("could not start a thread in channel %s: playing there", channel.id)
            return channel.id
        return opened.id

    async def open_lobby(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The lobby of a table a game's `new` command has just created: the answer
        itself, or, for a table in a thread of its own, a message in the thread and an
        answer in the channel that links to it."""
        with await self.settings.public(table.guild_id):
            embed, view = to_embed(table_panel(table)), lobby_view(table)
            link = thread_opened_text(table.channel_id, table.kind.words.title(table.rules))
        deferred = interaction.response.is_done()  # a thread was asked for (new_table)
        if table.channel_id == interaction.channel_id:
            if deferred:  # the thread could not be started: the lobby plays here
                answer = await interaction.followup.send(embed=embed, view=view, wait=True)
                await self.tables.restorer.set_message(table, answer.id)
                return
            response = await interaction.response.send_message(embed=embed, view=view)
            if response.message_id is not None:
                await self.tables.restorer.set_message(table, response.message_id)
            return
        await self.post_lobby(table)
        if deferred:
            await interaction.followup.send(link)
        else:
            await interaction.response.send_message(link)

    async def post_lobby(self, table: Table) -> None:
        """The lobby as a message of the table's channel (or thread) of its own: its
        table message."""
        with await self.settings.public(table.guild_id):
            embed, view = to_embed(table_panel(table)), lobby_view(table)
        lobby = await self.bot.get_partial_messageable(table.channel_id).send(embed=embed,
                                                                             view=view)
        await self.tables.restorer.set_message(table, lobby.id)

    async def act(self, interaction: discord.Interaction[Any], table: Table,
                  make: Callable[[int], Any]) -> None:
        """The action `make(seat)` by the user's seat, from a slash command. `make`
        reads what they typed: it runs once the service has checked that they play at
        this table."""
        result = await self.tables.play.act(table.id, interaction.user.id, None, make)
        await self.panels.confirm(interaction, table, result, edit=False)

    async def score(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = table_here(self.tables, interaction)
        await reply(interaction, panel=table_panel(table))

    async def table(self, interaction: discord.Interaction[Any], game: str) -> None:
        """`/<game> table`: with the Activity on, Discord opens it on this channel's table
        (LAUNCH_ACTIVITY); without it, the table as its message shows it, as `score`."""
        table = table_here(self.tables, interaction)
        if activity_on(self.bot):
            await launch_activity(interaction)
            return
        await reply(interaction, panel=table_panel(table))

    async def leave(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = table_here(self.tables, interaction)
        await self.tables.seats.leave(table.id, interaction.user.id)
        mark_committed(interaction, table)
        await reply(interaction, left_text(game, table.stage == LOBBY, abandon_at(table)))
        self.messages.request_refresh(table)

    async def away(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = table_here(self.tables, interaction)
        await self.tables.seats.set_away(table.id, interaction.user.id, True)
        mark_committed(interaction, table)
        # Nobody left present: the table waits (issue 52), nobody plays for them.
        await reply(interaction, away_text(game, abandon_at(table)))
        self.messages.request_refresh(table)

    async def back(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = self.tables.registry.in_channel(interaction.channel_id or 0) \
            or self._covered_seat(interaction, game) or table_here(self.tables, interaction)
        await self.tables.seats.set_away(table.id, interaction.user.id, False)
        mark_committed(interaction, table)
        await reply(interaction, back_text())
        self.messages.request_refresh(table)

    def _covered_seat(self, interaction: discord.Interaction[Any], game: str
                      ) -> Table | None:
        """`/back` away from any table (issue 35): the one table of `game` in this server
        where the AI covers the member's seat (none, or several: None, and the command
        answers as in a channel without a table; /games lists each with its button)."""
        user = interaction.user.id
        covered = [t for t in self.tables.registry.tables_of(interaction.guild_id or 0, user)
                   if t.kind.name == game and t.stage == PLAYING
                   and (seat := t.seat_of(user)) is not None and t.seats[seat].away]
        return covered[0] if len(covered) == 1 else None

    async def replace(self, interaction: discord.Interaction[Any], game: str,
                      seat: int | None, member: discord.Member | None,
                      player: discord.Member | None = None) -> None:
        """The host hands a seat over: named by its number, or by its away `player`
        (issue 52: the table message shows no seat numbers)."""
        table = table_here(self.tables, interaction)
        if seat is None:
            if player is None:
                raise TableError("bad_input", reason="which_seat")
            found = table.seat_of(player.id)
            if found is None:
                raise TableError("bad_input", reason="no_player",
                                 name=safe_markdown(player.display_name))
            seat = found + 1
        # One at a time a table: an offer's message is kept with it once posted, and
        # the next offer reads which messages it makes stale only after that.
        async with self._offering.setdefault(table.id, asyncio.Lock()):
            await self._replace(interaction, table, seat, member)

    async def _replace(self, interaction: discord.Interaction[Any], table: Table, seat: int,
                       member: discord.Member | None) -> None:
        newcomer = (member.id, member.display_name) if member is not None else None
        # What the table held before: the live offers' messages (one per member and
        # table, issue 50), and the member of the seat (told if it is given away).
        offered_before = [int(o[0]) for o in table.meta.get(OFFERS, {}).values()]
        messages_before = dict(table.meta.get(OFFER_MESSAGES, {}))
        holder = table.seats[seat - 1].user_id if 0 < seat <= len(table.seats) else None
        await self.tables.seats.replace(table.id, interaction.user.id, seat - 1, newcomer)
        mark_committed(interaction, table)
        pings = self.panels.pings
        if member is None:
            with await self.settings.public(table.guild_id):
                text = replaced_text(seat, None)
            await reply(interaction, text, ephemeral=False)
            self.messages.request_refresh(table)
            await drop_stale_offers(pings, table, messages_before)
            await tell_seat_given(self.bot, pings, table, holder, seat, None,
                                  await self.settings.public(table.guild_id))
            return
        # The invitee is mentioned once, and pinged by their first offer alone; they
        # are seated only by their own click on the offer's button (OfferButton).
        again = member.id in offered_before
        with await self.settings.public(table.guild_id):
            text = replaced_text(seat, f"<@{member.id}>", PAUSE_ABSENT in table.paused)
            view = offer_view(table.id, seat - 1)
        await reply(interaction, text, view=view, ephemeral=False,
                    ping=None if again else member.id)
        try:
            posted = await interaction.original_response()
        except LET_GO as exc:  # the offer stands; its message is not kept
            log.info("table %s: the offer's message was not read back (%r)", table.id, exc)
        else:
            await self.tables.seats.set_offer_message(table.id, seat - 1, member.id, posted.id)
        await drop_stale_offers(pings, table, messages_before)
        if not again:
            await offer_by_dm(self.bot, pings, table, member.id, seat)

    async def cancel(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = table_here(self.tables, interaction)
        await self.tables.lobby.cancel(table.id, interaction.user.id, is_manager(interaction))
        mark_committed(interaction, table, "cancel")
        self.panels.forget_table(table)
        with await self.settings.public(table.guild_id):
            text = cancelled_text(safe_markdown(interaction.user.display_name))
        await reply(interaction, text, ephemeral=False)
        if table.message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(table.channel_id).get_partial_message(
                    table.message_id).edit(view=None)


