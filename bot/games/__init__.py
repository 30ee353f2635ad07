"""The games the table platform hosts: GAMES, name -> GameKind (bot/tables/kind.py).

A new game is a package here that provides a GameKind, one line below, and its cog."""

from __future__ import annotations

from collections.abc import Mapping

from bot.tables.kind import GameKind

from .amerikaner.kind import AMERIKANER

GAMES: Mapping[str, GameKind] = {kind.name: kind for kind in (AMERIKANER,)}

__all__ = ["GAMES"]
