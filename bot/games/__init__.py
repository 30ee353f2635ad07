"""The games the table platform hosts: GAMES, name -> GameKind (bot/tables/kind.py).

A new game is a package here that provides a GameKind, one line below, and its cog."""

from __future__ import annotations

from collections.abc import Mapping

from bot.tables.kind import GameKind

from .american.kind import AMERICAN
from .amerikaner.kind import AMERIKANER

# The first is the default game (of a table restored from before there were several).
GAMES: Mapping[str, GameKind] = {kind.name: kind for kind in (AMERIKANER, AMERICAN)}

__all__ = ["GAMES"]
