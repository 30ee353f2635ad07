"""What several rooms of the table service read and a running bot or a test may change:
the store every change is committed to, the random source of the deals and the AI, the
clock, the database's health and the outbox. One object, held by each room that reads
it (bot/tables/service.py builds it), so a change made to it reaches every room at once:
`service.shared.store = flaky` (tests/outage.py), `service.shared.rng = Random(7)`."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.clock import Clock
from bot.store import Store
from bot.store.health import Health
from bot.tables.outbox import Outbox


@dataclass(eq=False)
class Shared:
    """The settings the rooms share."""

    store: Store
    rng: random.Random  # the deals, the first dealer and the AI's choices
    clock: Clock  # turn timers, reminders, pauses: epoch seconds of this clock
    health: Health  # whether the database answers, shared with the outbox
    outbox: Outbox | None  # posts what a change obliges the bot to post
    # Rooms that keep a copy of a setting as their own attribute: the deal of the day's
    # (bot/tables/daily.py's DailyService, which tests and bench/daily.py also build
    # alone, on a store of their own): a setting changed here is set on them too.
    copies: list[Any] = field(default_factory=list)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name not in ("store", "rng"):  # the two a running bot or a test changes
            return
        for room in self.__dict__.get("copies", ()):
            if hasattr(room, name):
                setattr(room, name, value)
