"""Whether the database answers, and how long to wait before asking it again.

When the database goes away (a PostgreSQL server stopped or out of reach, a SQLite file
that refuses writes), the table service refuses moves with a sentence that says so, and
the work nobody is waiting on (AI turns, turn timers, outbox posts) waits and tries
again, with `backoff`, until the database answers. `Health` is what they share: the
first failure logs one line that the database went away, the first success after it one
line that it is back (with how long it was gone), and nothing in between, however many
tasks are retrying.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable

from .models import StoreError

log = logging.getLogger(__name__)

FIRST_RETRY = 1.0  # seconds before the first try again
LAST_RETRY = 30.0  # the longest wait between two tries


def backoff(attempt: int, first: float = FIRST_RETRY, cap: float = LAST_RETRY) -> float:
    """Seconds to wait before try `attempt + 1` (0: after the first failure): doubling
    from `first`, capped at `cap`."""
    return min(cap, first * 2 ** min(attempt, 30))


def is_outage(exc: BaseException) -> bool:
    """Whether a store call's failure means the database did not do the work (it is
    away, full, read-only, locked), rather than that it refused the request on its
    merits (a StoreError: a duplicate action, a busy channel, a finished game)."""
    return isinstance(exc, Exception) and not isinstance(exc, StoreError)


def is_database_error(exc: BaseException) -> bool:
    """Whether an exception from code that reads the store (a listener, say) is the
    database not answering: SQLite's errors, asyncpg's, or a connection refused."""
    if isinstance(exc, sqlite3.Error | OSError):
        return True
    return any(cls.__module__.split(".")[0] == "asyncpg" for cls in type(exc).__mro__)


class Health:
    """The database's state as the last store calls found it: `failed(exc)` after a
    call that did not reach it, `answered()` after one that did. Logs only changes."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.down_since: float | None = None

    @property
    def up(self) -> bool:
        return self.down_since is None

    def failed(self, exc: BaseException) -> None:
        if self.down_since is not None:
            return
        self.down_since = self._clock()
        log.error("database unavailable (%s: %s): moves are refused; AI turns, turn "
                  "timers and posts wait and retry until it answers",
                  type(exc).__name__, exc)

    def answered(self) -> None:
        if self.down_since is None:
            return
        gone = self._clock() - self.down_since
        self.down_since = None
        log.warning("database available again after %.1f s: waiting work resumes", gone)
