"""The fake Discord's clock: wall-clock seconds that a test can move forward.

Discord dates messages (their snowflake ids and timestamps) and interactions by its own
clock; the rules that depend on age (edits of messages older than an hour, interaction
tokens that live 15 minutes) read this clock, so a test can make an hour pass at once
with ``fake.clock.advance(3601)``. The bot takes a clock with the same ``time()``
method, so a test can give both the same one (``make_bot(fake, db, clock=fake.clock)``).

Rate limits and the 3-second deadline of an interaction's first answer stay on real
time: discord.py sleeps real seconds on them.
"""

from __future__ import annotations

import datetime as dt
import time


class FakeClock:
    """Real ``time.time()`` plus an offset that only grows."""

    def __init__(self, offset: float = 0.0) -> None:
        self.offset = offset

    def time(self) -> float:
        """Seconds since the Unix epoch, as Discord's clock reads them."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock forward (never back: snowflake ids must keep growing)."""
        if seconds < 0:
            raise ValueError("the fake's clock only moves forward")
        self.offset += seconds

    def iso(self, when: float | None = None) -> str:
        """An ISO 8601 timestamp, as Discord writes them (now, or at ``when``)."""
        return dt.datetime.fromtimestamp(self.time() if when is None else when, dt.UTC).isoformat()
