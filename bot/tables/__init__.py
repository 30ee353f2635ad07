"""The table service: lobbies, seats, acting under one lock per table, persistence.

It knows nothing of Discord, so the terminal, tests and the bot share it.
"""

from .service import (
    ActResult,
    Seat,
    Table,
    TableError,
    TableService,
)

__all__ = ["ActResult", "Seat", "Table", "TableError", "TableService"]
