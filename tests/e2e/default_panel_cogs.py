"""A game's cog that declares no controls of its own: the platform's default hand panel
(cogs/tables/default_panel.py) serves it, as it serves a new game's. The end-to-end
tests of the default panel load this module in place of a game's cog
(`default_panel_for`), so that a real game's legal actions and words go through it."""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator
from typing import Any

from discord import app_commands

from bot.games import COGS, GAMES
from bot.tables.kind import GameKind
from cogs.tables.api import GameCog, TableBot


def default_cog(kind: GameKind) -> type[GameCog]:
    """A cog of `kind` with the platform's commands and panel only."""
    group = app_commands.Group(name=kind.name, description=f"Play {kind.name}",
                               guild_only=True)

    def body(namespace: dict[str, Any]) -> None:
        namespace.update(kind=kind, group=group, __module__=__name__)
    return types.new_class(f"Default{kind.name.title()}", (GameCog,), exec_body=body)


@contextlib.contextmanager
def default_panel_for(game: str) -> Iterator[None]:
    """While inside: a bot started loads this module as `game`'s cog."""
    saved = COGS[game]
    COGS[game] = __name__
    try:
        yield
    finally:
        COGS[game] = saved


async def setup(bot: TableBot) -> None:
    for name, module in COGS.items():
        if module == __name__:
            await bot.add_cog(default_cog(GAMES[name])(bot))
