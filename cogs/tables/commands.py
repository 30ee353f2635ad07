"""The slash commands every game's group gets (`add_shared_commands`), and the
member's own top-level commands (/games, /notify)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import discord
from discord import app_commands

from cogs.tables.boards import BoardsRoom
from cogs.tables.daily import DailyRoom
from cogs.tables.games_list import GamesListRoom
from cogs.tables.host import host_of
from cogs.tables.lobby import LobbyRoom
from cogs.tables.settings import MEMBER_LANGUAGE_CHOICES, SettingsRoom

log = logging.getLogger(__name__)


class CommandHost(Protocol):
    """What the shared commands reach of the table cog (cogs/tables/cog.py)."""

    lobby: LobbyRoom
    boards: BoardsRoom
    daily: DailyRoom
    games_list: GamesListRoom
    settings: SettingsRoom


def table_cog(interaction: discord.Interaction[Any]) -> CommandHost:
    """The table cog of the interaction's bot (cogs/tables/host.py)."""
    host: CommandHost = host_of(interaction.client)
    return host

def add_shared_commands(group: app_commands.Group, game: str) -> None:
    """Give a game's command group the commands every game shares, each answered by the
    table cog's lobby, boards, daily and games list for `game`."""

    host = table_cog

    async def hand(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.hand(interaction, game)

    async def join(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.join(interaction, game)

    async def start(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.start(interaction, game)

    async def score(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.score(interaction, game)

    async def table(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.table(interaction, game)

    async def leave(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.leave(interaction, game)

    async def away(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.away(interaction, game)

    async def back(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.back(interaction, game)

    @app_commands.describe(seat="The seat number (1 is the first seat)",
                           member="Who takes the seat (leave empty: the AI keeps it)",
                           player="Or the away player whose seat it is (instead of its "
                                  "number)")
    async def replace(interaction: discord.Interaction[Any],
                      seat: app_commands.Range[int, 1, 6] | None = None,
                      member: discord.Member | None = None,
                      player: discord.Member | None = None) -> None:
        await host(interaction).lobby.replace(interaction, game, seat, member, player)

    async def cancel(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).lobby.cancel(interaction, game)

    @app_commands.describe(game="A finished game's number (default: this channel's)")
    async def export(interaction: discord.Interaction[Any], game: int | None = None) -> None:
        await host(interaction).boards.export(interaction, group_game, game)

    @app_commands.describe(order="Rank by rating (the default), wins or points",
                           period="The rating board of all time (the default) or of this "
                                  "month")
    @app_commands.choices(order=[app_commands.Choice(name="rating", value="rating"),
                                 app_commands.Choice(name="wins", value="wins"),
                                 app_commands.Choice(name="points", value="points")],
                          period=[app_commands.Choice(name="all time", value="all"),
                                  app_commands.Choice(name="this month", value="month")],
                          kind=[app_commands.Choice(name="games", value="games"),
                                app_commands.Choice(name="daily", value="daily")])
    @app_commands.describe(kind="The games' boards (the default) or the deal of the day's "
                                "ladder (weekly; this month's with period)")
    async def leaderboard(interaction: discord.Interaction[Any], order: str = "rating",
                          period: str = "all",
                          page: app_commands.Range[int, 1, 10000] = 1,
                          kind: str = "games") -> None:
        if kind == "daily":
            await host(interaction).daily.daily_board(interaction, group_game,
                                                "month" if period == "month" else "week")
            return
        await host(interaction).boards.show_leaderboard(interaction, group_game, order, page,
                                                 edit=False, period=period)

    async def stats(interaction: discord.Interaction[Any],
                    member: discord.Member | None = None) -> None:
        await host(interaction).boards.stats(interaction, game, member)

    async def help(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).boards.help(interaction, game)

    @app_commands.describe(board="A board instead: today's (once you have played), this "
                                 "week's or this month's ladder",
                           dm="Play it in your direct messages")
    @app_commands.choices(board=DAILY_BOARDS)
    async def daily(interaction: discord.Interaction[Any], board: str | None = None,
                    dm: bool = False) -> None:
        await host(interaction).daily.daily(interaction, game, board, dm)

    @app_commands.describe(enabled="Offer the deal of the day on this server",
                           channel="Where the day's message goes (default: where the first "
                                   "member plays it)",
                           preset="The daily's preset (\"default\": the game's)",
                           house="The daily's house rules, keys separated by commas",
                           time_zone="When the day turns, e.g. Europe/Oslo (default UTC)")
    async def daily_settings(interaction: discord.Interaction[Any], enabled: bool | None = None,
                             channel: discord.TextChannel | None = None,
                             preset: str | None = None, house: str | None = None,
                             time_zone: str | None = None) -> None:
        await host(interaction).daily.daily_settings(
            interaction, game, enabled=enabled,
            channel=channel.id if channel is not None else None, preset=preset, house=house,
            time_zone=time_zone)

    group_game = game  # `export` and `leaderboard` have an option called `game`/`order`
    described: list[tuple[Callable[..., Coroutine[Any, Any, None]], str, str]] = [
        (hand, "hand", "See your cards and act (only you see it)"),
        (join, "join", "Take a seat at the table in this channel"),
        (start, "start", "Start the game (host)"),
        (score, "score", "The running totals of this table"),
        (table, "table", "This channel's table (in the Activity, where it is on)"),
        (leave, "leave", "Leave the table (the AI takes over in a game)"),
        (away, "away", "Let the AI play your seat until you are back"),
        (back, "back", "Take your seat back from the AI"),
        (replace, "replace", "Host: hand an away player's seat to someone else, or to the "
         "AI for good"),
        (cancel, "cancel", "Cancel the table (host or Manage Server)"),
        (export, "export", "The game record as a JSON file"),
        (leaderboard, "leaderboard", "This server's top players"),
        (stats, "stats", "A member's results on this server"),
        (help, "help", "How to play with this bot"),
        (daily, "daily", "The deal of the day: the same cards for everyone here, played "
         "privately, one try"),
        (daily_settings, "daily-settings", "The server's deal of the day (Manage Server to "
         "change it)"),
    ]
    for callback, name, description in described:
        group.add_command(app_commands.Command(name=name, description=description,
                                               callback=callback))


DAILY_BOARDS = [app_commands.Choice(name="today", value="day"),
                app_commands.Choice(name="this week", value="week"),
                app_commands.Choice(name="this month", value="month")]

NOTIFY_CHOICES = [app_commands.Choice(name="By direct message", value="dm"),
                  app_commands.Choice(name="In the table's channel", value="channel")]


def member_commands() -> list[app_commands.Command[Any, Any, None]]:
    """The member's own commands, one for every game (top level, not in a game's group):
    `/games`, their open tables of every game in this server, `/notify`, where
    their turn pings go, and `/language`, the language of what they alone read (issue
    55: Discord never sends Persian, so a Persian reader says so here). A member at
    tables of two games wants them in one list, and one setting for every game; Discord
    lists a bot's commands together under the bot, so a top-level command is as easy to
    find as a game's. Built afresh for each bot."""

    host = table_cog

    @app_commands.guild_only()
    async def games(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).games_list.show_games(interaction, 1, edit=False)

    @app_commands.guild_only()
    @app_commands.describe(where="Where your turn pings and reminders go")
    @app_commands.choices(where=NOTIFY_CHOICES)
    async def notify(interaction: discord.Interaction[Any], where: str) -> None:
        await host(interaction).games_list.notify(interaction, where)

    @app_commands.describe(language="English, Norwegian, Persian (فارسی), or your "
                                    "Discord's")
    @app_commands.choices(language=MEMBER_LANGUAGE_CHOICES)
    async def language(interaction: discord.Interaction[Any], language: str) -> None:
        await host(interaction).settings.set_member_language(interaction, language)

    return [
        app_commands.Command(name="games", callback=games,
                             description="Your tables in this server, your turn first "
                                         "(only you see it)"),
        app_commands.Command(name="notify", callback=notify,
                             description="Get your turn pings by direct message or in "
                                         "the channel (this server)"),
        app_commands.Command(name="language", callback=language,
                             description="The language of what only you read, in every "
                                         "server (e.g. Persian)"),
    ]




