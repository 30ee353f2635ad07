"""Who hears of what the service does by itself (AI turns, timeouts, reminders, a change
found in the store): the bot's cog posts and edits from these events."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.store.health import is_database_error
from bot.tables.shared import Shared
from bot.tables.table import ActResult, Table

log = logging.getLogger(__name__)

Listener = Callable[[Table, str, dict[str, Any]], Awaitable[None]]


class Listeners:
    """The listeners, told in the order they were added."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared  # the database's health
        self._listeners: list[Listener] = []

    def add(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def result(self, table: Table, result: ActResult) -> None:
        """Tell of an action the service played by itself."""
        event = ("game_finished" if result.game_finished else "deal_finished"
                 if result.deal_finished else "changed")
        await self.notify(table, event, seat=result.seat, action=result.action,
                          deal_index=result.deal_index)

    async def notify(self, table: Table, event: str, **detail: Any) -> bool:
        """Tell every listener; False if one failed on the database (worth another
        try: nothing of its was done, it could not read what it needed)."""
        retry = False
        for listener in self._listeners:
            try:
                await listener(table, event, detail)
            except Exception as exc:
                if event == "reminder" and is_database_error(exc):
                    self.shared.health.failed(exc)
                    retry = True
                    continue
                log.exception("table listener failed")
        return not retry
