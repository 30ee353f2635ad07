"""The table service: lobbies, seats, acting under one lock per table, persistence.

It knows nothing of Discord, so the terminal, tests and the bot share it.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .service import ActResult, Seat, Table, TableError, TableService

__all__ = ["ActResult", "Seat", "Table", "TableError", "TableService"]


def __getattr__(name: str) -> object:
    # The service (and the store under it) loads when first asked for, not with
    # bot.tables.scene or .kind: the process that draws pictures needs only the scene.
    if name in __all__:
        from . import service

        return getattr(service, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
