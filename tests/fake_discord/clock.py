"""The fake Discord's clock: wall-clock seconds that a test can move forward.

Discord dates messages (their snowflake ids and timestamps) and interactions by its own
clock; the rules that depend on age (edits of messages older than an hour, interaction
tokens that live 15 minutes) read this clock, so a test can make an hour pass at once
with ``fake.clock.advance(3601)``. The bot takes a clock with the same ``time()`` and
``sleep_until()`` methods (bot.config.Clock), so a test can give both the same one
(``make_bot(fake, db, clock=fake.clock)``): the bot's turn timers and reminders wait
with ``sleep_until``, and ``advance`` wakes every sleeper at once to look at the clock
again, so a test makes two days pass in no time.

Rate limits and the 3-second deadline of an interaction's first answer stay on real
time: discord.py sleeps real seconds on them.

The clock starts from a fixed instant, not from today's date (``START``, or the instant
named by ``AMERIKANER_TEST_START``), so that no test depends on the day it runs: the
suite runs the date-sensitive tests again at the awkward instants of
``tests/test_any_instant.py`` (a month's and a year's last minutes, a leap day, Oslo's
summer-time changes), each in a process of its own with ``TZ`` set far from UTC. Real
time still moves on underneath. Only a test about the machine's clock itself (the bot
processes of the multi-process tests run on it) asks for ``FakeClock(real=True)``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import time

# A sleeper re-reads the clock at least this often even if nobody moves it (the real
# time under the offset moves on by itself).
SLEEP_CHUNK = 60.0

# Where every test's clock starts: a Wednesday morning in the middle of a month, in the
# future of every date the suite runs on. In the future on purpose: discord.py dates a
# message it deletes by the machine's clock against the message's snowflake
# (HTTPClient.delete_message picks the 'older-than-two-weeks' bucket for a message that
# looks two weeks old), and a fake clock ahead of the machine's keeps that as it always
# was in these tests.
DEFAULT_START = "2031-05-14T09:30:00+00:00"
START_VARIABLE = "AMERIKANER_TEST_START"


def start_instant() -> float:
    """The instant (epoch seconds) test clocks start from: ``AMERIKANER_TEST_START`` (ISO
    8601 with an offset) when set, else ``DEFAULT_START``."""
    text = os.environ.get(START_VARIABLE) or DEFAULT_START
    when = dt.datetime.fromisoformat(text)
    if when.tzinfo is None:
        raise ValueError(f"{START_VARIABLE} needs an offset (for example +00:00): {text!r}")
    return when.timestamp()


# How far the start instant is from the machine's clock: every FakeClock made until the
# next `restart()` copies it, so that they all read the same time (as they did when they
# read the machine's), however far apart they were made. tests/conftest.py restarts it
# before each test, so each test begins at the start instant itself: a test run late in
# a long session must not drift past the month's end that the instant stands before.
_from_real = start_instant() - time.time()


def restart() -> None:
    """Make the clocks made from now on start at the start instant again."""
    global _from_real
    _from_real = start_instant() - time.time()


class FakeClock:
    """The start instant (``start_instant()``) plus the real seconds since, plus what
    ``advance`` added; ``real=True``: the machine's ``time.time()`` plus what was added."""

    def __init__(self, offset: float = 0.0, *, real: bool = False) -> None:
        self.offset = offset + (0.0 if real else _from_real)
        # Who sleeps in `sleep_until`: each its loop and the future `advance` settles.
        self._sleepers: set[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = set()
        # How many times a sleeper has (re)started waiting: a test that moved the clock
        # waits for this to grow to know the sleepers have looked at the clock again.
        self.naps = 0

    def time(self) -> float:
        """Seconds since the Unix epoch, as Discord's clock reads them."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock forward (never back: snowflake ids must keep growing)."""
        if seconds < 0:
            raise ValueError("the fake's clock only moves forward")
        self.offset += seconds
        for loop, future in list(self._sleepers):
            loop.call_soon_threadsafe(_wake, future)

    async def sleep_until(self, when: float) -> None:
        """Return once ``time()`` has reached ``when``: woken by every ``advance`` (and
        at least once a minute) to read the clock again."""
        loop = asyncio.get_running_loop()
        while (left := when - self.time()) > 0:
            sleeper = (loop, loop.create_future())
            self._sleepers.add(sleeper)
            self.naps += 1
            try:
                await asyncio.wait([sleeper[1]], timeout=min(left, SLEEP_CHUNK))
            finally:
                self._sleepers.discard(sleeper)
                sleeper[1].cancel()

    @property
    def sleepers(self) -> int:
        """How many tasks are waiting in ``sleep_until`` now (for tests that wait until
        the bot sleeps on a deadline before they move the clock)."""
        return len(self._sleepers)

    def iso(self, when: float | None = None) -> str:
        """An ISO 8601 timestamp, as Discord writes them (now, or at ``when``)."""
        return dt.datetime.fromtimestamp(self.time() if when is None else when, dt.UTC).isoformat()


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
