"""The app's Entry Point command: the App Launcher's entry that opens the Activity on its
home page (bot/web/home.py: the member's tables in this server, a new table, the deal of
the day).

https://discord.com/developers/docs/interactions/application-commands, "Entry Point
Commands": a command of type PRIMARY_ENTRY_POINT (4), "the primary way for users to open
an app's Activity from the App Launcher"; with the handler APP_HANDLER (1) "the app is
responsible for responding to the interaction. It can respond by launching the app's
associated Activity using the LAUNCH_ACTIVITY (type 12) interaction callback type" (with
DISCORD_LAUNCH_ACTIVITY (2), the default Entry Point's, Discord launches it without
telling the app, which could not tell a launch from the App Launcher from any other).
It "can only be global", option-less, one per app
(https://discord.com/developers/docs/activities/development-guides/user-actions,
"Setting Up an Entry Point Command"), and a bulk overwrite of the global commands
"will overwrite all types of application commands" ("Bulk Overwrite Global Application
Commands"): so the bot's own sync (bot/app.py) includes it. discord.py 2.7 knows no
command of type 4: its tree is told to leave such an interaction to this module
(bot/app.py, EntryPointTree), which the table cog's listener calls. The strict fake holds
these rules (tests/fake_discord/commands.py)."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord import is_thread
from bot.i18n import use_locale
from bot.render.guide import entry_point_description
from bot.tables.daily_deal import DailyState
from bot.tables.errors import TableError
from bot.tables.panel import Panel
from bot.tables.table import Table
from cogs.tables.common import TableBot, activity_on, launch_activity
from cogs.tables.daily import DailyRoom
from cogs.tables.lobby import LobbyRoom

PRIMARY_ENTRY_POINT = 4
APP_HANDLER = 1
NAME = "launch"  # as Discord's default Entry Point command's, lowercase (a CHAT_INPUT name)
# Discord's locale codes for the languages the bot speaks beside English
LOCALES = {"nb": "no"}


def is_entry_point(interaction: discord.Interaction[Any]) -> bool:
    data: dict[str, Any] = dict(interaction.data or {})
    return interaction.type is discord.InteractionType.application_command \
        and data.get("type") == PRIMARY_ENTRY_POINT


def entry_point_command() -> dict[str, Any]:
    """The command's payload, for the bulk overwrite of the global commands."""
    localized = {}
    for language, locale in LOCALES.items():
        with use_locale(language):
            localized[locale] = entry_point_description()
    return {"name": NAME, "type": PRIMARY_ENTRY_POINT, "handler": APP_HANDLER,
            "description": entry_point_description(), "description_localizations": localized,
            "integration_types": [0], "contexts": [0]}


class Rooms(Protocol):
    """The table cog's rooms the home page's front stands on."""

    lobby: LobbyRoom
    daily: DailyRoom


class PageFront:
    """What the home page of one launch asks of the messages' side (bot/web/daily_page.py,
    Front): a new table opened and posted as `/<game> new` opens one, with the bot's
    permissions in the channel as Discord gave them with the launch; the day's public
    message and the result of a daily played in the page, as the panel's."""

    def __init__(self, rooms: Rooms, app_permissions: discord.Permissions,
                 in_thread: bool) -> None:
        self.rooms = rooms
        self.app_permissions = app_permissions
        self.in_thread = in_thread

    async def new_table(self, guild_id: int, channel_id: int, user_id: int, name: str,
                        game: str) -> Table:
        return await self.rooms.lobby.new_from_page(
            guild_id, channel_id, user_id, name, game,
            app_permissions=self.app_permissions, in_thread=self.in_thread)

    async def daily_played(self, state: DailyState, channel_id: int) -> None:
        daily = self.rooms.daily
        await daily.owe_public(state, channel_id)
        deal = state.deal
        await daily.shown.public(deal.guild_id, deal.game, deal.day)

    async def daily_result(self, state: DailyState) -> Panel:
        panel: Panel = await self.rooms.daily.shown.result_panel(state)
        return panel


async def open_home(bot: TableBot, interaction: discord.Interaction[Any],
                    rooms: Rooms) -> None:
    """The member launched the app from the App Launcher: the Activity opens in this
    channel, on its home page (the Activity's backend is told to expect their page, and
    handed what it asks of the messages' side)."""
    if not activity_on(bot) or interaction.guild_id is None:
        raise TableError("activity_off" if interaction.guild_id is not None
                         else "guild_only")
    server = getattr(bot, "activity_server", None)
    if server is not None and interaction.channel_id is not None:
        in_thread = is_thread(getattr(interaction.channel, "type", None))
        server.want_home(interaction.user.id, interaction.channel_id,
                         PageFront(rooms, interaction.app_permissions, in_thread))
    await launch_activity(interaction)
