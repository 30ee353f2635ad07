"""TableError: a refusal by the table platform itself, not by a game's rules."""

from __future__ import annotations

from bot.errors import GameError

__all__ = ["TableError"]


class TableError(GameError):
    """Something a user asked of the platform that cannot be done (a seat, the turn, the
    lobby, a stale button, ...): `TableError(code, **params)`. Its sentence is the
    platform's (bot.render, by code), never a game's; a game's refusal passes through the
    service as the game raised it and is worded by the game's text. Here, apart from the
    service, so that render can tell the two apart without importing the service."""
