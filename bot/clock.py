"""The time of day, as Discord tells it: a protocol and the machine's clock.

Settings.clock (bot/config.py) is the bot's; tests give it the fake Discord's clock
(tests/fake_discord/clock.py), which they move forward. Here apart from the settings so
that the table service takes a clock without reading the environment.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """The time of day as Discord tells it (seconds since the Unix epoch): the age of
    messages, and the turn timers and reminders of the tables (bot/tables/turn_clock.py),
    which are measured from stored epoch times so that they survive restarts. Tests give
    the bot the fake Discord's clock, which they can move: whoever waits for a moment
    of this clock waits with `sleep_until`, so a test that moves the clock wakes it."""

    def time(self) -> float: ...

    async def sleep_until(self, when: float) -> None:
        """Return once `time()` has reached `when` (at once if it has already)."""
        ...


# The system clock sleeps at most this long at a time and then reads the time again: a
# machine whose clock is set (NTP, a suspended laptop) still wakes within a minute of
# the moment, and a timer of 7 days is not one sleep of 7 days.
SLEEP_CHUNK = 60.0


class SystemClock:
    """The machine's clock: Discord's, as far as the bot can tell."""

    def time(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while (left := when - self.time()) > 0:
            await asyncio.sleep(min(left, SLEEP_CHUNK))


SYSTEM_CLOCK = SystemClock()
