"""The games the table platform hosts: the only list of games.

GAMES maps a game's name to its GameKind (bot/games/base.py), COGS its name to its cog's
module: the bot loads those cogs (bot/app.py), the command translator and the CLI's
`replay` and `play --game` read both, and every test that iterates games does. A new
game is a package with a GameKind, a cog, and one line below; a test may add one for a
while with `registered(...)`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.tables.kind import default_rating_pool
from bot.tables.ratings import set_ai_ratings

from .american.kind import AMERICAN
from .amerikaner.kind import AMERIKANER
from .base import GameKindBase

# The first is the default game (of a table restored from before there were several).
GAMES: dict[str, GameKindBase] = {}
COGS: dict[str, str] = {}


def register(kind: GameKindBase, cog: str) -> None:
    """Add a game: its kind, and the module path of its cog (loaded as an extension)."""
    GAMES[kind.name] = kind
    COGS[kind.name] = cog
    # Its AI levels' fixed ratings, in the pool of its default rules (bot/tables/ratings).
    set_ai_ratings(default_rating_pool(kind), kind.ai_mu)


@contextmanager
def registered(kind: GameKindBase, cog: str) -> Iterator[GameKindBase]:
    """A game registered for a while (the tests' toy game), removed again after."""
    register(kind, cog)
    try:
        yield kind
    finally:
        del GAMES[kind.name], COGS[kind.name]


register(AMERIKANER, "cogs.amerikaner")
register(AMERICAN, "cogs.american")


def game_of_record(data: object) -> GameKindBase:
    """The game whose record `data` is, by its `format` (the default game's when none
    claims it: its refusal names the format it expected)."""
    return next((kind for kind in GAMES.values() if kind.is_record(data)),
                next(iter(GAMES.values())))


__all__ = ["COGS", "GAMES", "game_of_record", "register", "registered"]
