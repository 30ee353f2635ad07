"""The persistent components: every control is a DynamicItem, routed by its custom id,
so buttons on messages posted before a restart keep working."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any, Protocol, cast

import discord

from bot.tables.service import TableService
from cogs.tables.common import make_custom_id
from cogs.tables.errors import run_component
from cogs.tables.host import host_of

log = logging.getLogger(__name__)


class _BoardPages(Protocol):
    """The rooms of the table cog that turn pages (cogs/tables/boards.py,
    games_list.py), as far as these buttons reach them: the rooms themselves build
    these buttons, so this module knows them by these protocols alone."""

    async def show_leaderboard(self, interaction: discord.Interaction[Any], game: str,
                               order: str, page: int, *, edit: bool, period: str = ...,
                               ephemeral: bool = ...) -> None: ...

    async def show_help(self, interaction: discord.Interaction[Any], game: str, page: int,
                        *, edit: bool) -> None: ...


class _GamesPages(Protocol):
    async def show_games(self, interaction: discord.Interaction[Any], page: int, *,
                         edit: bool) -> None: ...


class PagesHost(Protocol):
    """What a page button reaches of the table cog (cogs/tables/cog.py)."""

    @property
    def tables(self) -> TableService: ...

    @property
    def boards(self) -> _BoardPages: ...

    @property
    def games_list(self) -> _GamesPages: ...


def _host(interaction: discord.Interaction[Any]) -> PagesHost:
    host: PagesHost = host_of(interaction.client)
    return host

class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"amk:(?P<table>[0-9]+):(?P<rest>[A-Za-z0-9:_\-]*)"):
    """Every button of a table: `amk:<table>:<version>:<op>[:<arg>...]` for a game's
    moves, `amk:<table>:<op>` for the rest. It builds the button; a click is answered by
    the action class whose template matches its id (cogs/tables/actions.py), so this
    class is never registered: two matching templates would both answer the click."""

    def __init__(self, table_id: int, rest: str, *, label: str = "\u200b",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled,
                                           emoji=emoji,
                                           custom_id=make_custom_id("amk", table_id, rest)))
        self.table_id = table_id
        self.rest = rest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any) -> TableButton:
        return cls(int(match["table"]), match["rest"])



class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"amks:(?P<table>[0-9]+):(?P<rest>[A-Za-z0-9:_\-]*)"):
    """The select menus of a table (the lobby's host menu and house rules, a game's
    discard, exchange, call): `amks:<table>:<op>`. Built here, answered as TableButton's
    clicks are (cogs/tables/actions.py)."""

    def __init__(self, table_id: int, rest: str, options: list[discord.SelectOption] | None
                 = None, *, placeholder: str | None = None, min_values: int = 1,
                 max_values: int = 1) -> None:
        super().__init__(discord.ui.Select(custom_id=make_custom_id("amks", table_id, rest),
                                           options=options or [], placeholder=placeholder,
                                           min_values=min_values, max_values=max_values))
        self.table_id = table_id
        self.rest = rest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any) -> TableSelect:
        # discord.py gives the item it rebuilt from the message: a select, for a
        # select's custom id (discord.py types the parameter as any item).
        select = cast(discord.ui.Select[Any], item)
        return cls(int(match["table"]), match["rest"], list(select.options),
                   min_values=select.min_values, max_values=select.max_values)



class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"amkl:(?:(?P<game>[a-z_]+):)?(?P<order>rating|wins|points):"
                                 r"(?:(?P<period>all|month):)?(?P<page>[0-9]+)"):
    """A page of a game's leaderboard: `amkl:<game>:<order>:<page>`, all time, or
    `amkl:<game>:<order>:month:<page>`, this month's. Buttons sent before there were
    several games have no game (`amkl:<order>:<page>`): the first game's."""

    def __init__(self, game: str | None, order: str, page: int, label: str = "\u200b",
                 disabled: bool = False, period: str = "all") -> None:
        key = f"{game}:{order}" if game else order
        if period != "all":
            key += f":{period}"
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=make_custom_id("amkl", key, str(page))))
        self.game = game
        self.order = order
        self.page = page
        self.period = period

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any) -> LeaderboardButton:
        return cls(match["game"], match["order"], int(match["page"]),
                   period=match["period"] or "all")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        def work() -> Awaitable[None]:
            host = _host(interaction)
            return host.boards.show_leaderboard(
                interaction, host.tables.registry.kind(self.game).name, self.order, self.page,
                edit=True, period=self.period)

        await run_component(self, interaction, work)


class HelpButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"amkh:(?P<game>[a-z_]+):(?P<page>[0-9]+)"):
    """A page of a game's guide: `amkh:<game>:<page>` (1 is the first)."""

    def __init__(self, game: str, page: int, label: str = "\u200b",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=make_custom_id("amkh", game, str(page))))
        self.game = game
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any) -> HelpButton:
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_component(self, interaction, lambda: _host(interaction).boards.show_help(
            interaction, self.game, self.page, edit=True))


class GamesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"amkg:(?P<page>[0-9]+)"):
    """A page of the member's games list (/games): `amkg:<page>`."""

    def __init__(self, page: int, label: str = "\u200b", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled, row=GAMES_PAGE,
                                           custom_id=f"amkg:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any) -> GamesButton:
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_component(self, interaction, lambda: _host(
            interaction).games_list.show_games(interaction, self.page, edit=True))


class _DailyStarter(Protocol):
    async def daily(self, interaction: discord.Interaction[Any], game: str,
                    board: str | None = ..., dm: bool = ...) -> None: ...


class DailyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"amkd:(?P<game>[a-z_]+)"):
    """"Play today's deal" under the day's public message: `amkd:<game>`. It starts the
    clicking member's deal of the day (or takes it up where it was) exactly as
    `/<game> daily` does, in a panel for them alone; a button of an earlier day's
    message opens today's, as the command would. Persistent (a DynamicItem), so the
    message's button works after a restart."""

    def __init__(self, game: str, label: str = "\u200b") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           emoji="🃏", custom_id=f"amkd:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any) -> DailyButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        def work() -> Awaitable[None]:
            daily: _DailyStarter = host_of(interaction.client).daily
            return daily.daily(interaction, self.game)

        await run_component(self, interaction, work)


# Tables a page of the games list: each takes a row of buttons (its hand, its link),
# and the pages' buttons the fifth (Discord: 5 rows of 5 components).
GAMES_PAGE = 4



