"""The games the table platform hosts: the only list of games.

GAMES maps a game's name to its GameKind (bot/games/base.py), COGS its name to its cog's
module: the bot loads those cogs (bot/app.py), the command translator and the CLI's
`replay` and `play --game` read both, and every test that iterates games does. A new
game is a package in this folder whose `kind` module names its GameKind (`KIND`) and its
cog (`COG`): it is found here, and nothing else names it; a test may add one for a while
with `registered(...)`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from bot.tables.kind import default_rating_pool
from bot.tables.ratings import set_ai_ratings, set_min_rated

from .base import GameKindBase

# The bot's own game comes first in every list: the default of `play --game`, and the
# game whose format a record that claims none is refused against.
DEFAULT_GAME = "amerikaner"

GAMES: dict[str, GameKindBase] = {}
COGS: dict[str, str] = {}


def register(kind: GameKindBase, cog: str) -> None:
    """Add a game: its kind, and the module path of its cog (loaded as an extension)."""
    GAMES[kind.name] = kind
    COGS[kind.name] = cog
    # Its AI levels' fixed ratings, in the pool of its default rules (bot/tables/ratings).
    set_ai_ratings(default_rating_pool(kind), kind.ai_mu)
    if kind.min_rated is not None:
        set_min_rated(default_rating_pool(kind), kind.min_rated)


@contextmanager
def registered(kind: GameKindBase, cog: str) -> Iterator[GameKindBase]:
    """A game registered for a while (the tests' toy game), removed again after."""
    register(kind, cog)
    try:
        yield kind
    finally:
        del GAMES[kind.name], COGS[kind.name]


def discover(folders: Iterable[str] = __path__) -> list[str]:
    """Register every game package in `folders` (this package's folder: the games'),
    the default game first, then by name: a package whose `kind` module has `KIND`, its
    GameKind, and `COG`, its cog's module path. The names registered, in order."""
    packages = sorted((info.name for info in pkgutil.iter_modules(folders) if info.ispkg),
                      key=lambda name: (name != DEFAULT_GAME, name))
    found = []
    for package in packages:
        module = importlib.import_module(f"{__name__}.{package}.kind")
        register(module.KIND, module.COG)
        found.append(module.KIND.name)
    return found


discover()


def game_of_record(data: object) -> GameKindBase:
    """The game whose record `data` is, by its `format` (the default game's when none
    claims it: its refusal names the format it expected)."""
    return next((kind for kind in GAMES.values() if kind.is_record(data)),
                next(iter(GAMES.values())))


__all__ = ["COGS", "GAMES", "game_of_record", "register", "registered"]
