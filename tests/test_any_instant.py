"""The date-sensitive tests, run again at the instants where calendars bite.

Every fake clock starts from a fixed instant (tests/fake_discord/clock.py), so the suite
passes on any date. That alone would hide a test, or a rule, that holds only in the
middle of a month: so the tests of rating seasons, the deal of the day's days and
ladders, turn timers, reminders and pauses run here once more at each instant below,
in a pytest process of their own whose machine zone (``TZ``) is far from UTC or is
Oslo's. To run the whole suite at one instant instead: ``AMERIKANER_TEST_START=2031-12-
31T23:57:00+00:00 TZ=Pacific/Kiritimati python -m pytest``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_discord.clock import START_VARIABLE

ROOT = Path(__file__).resolve().parent.parent

# What the clock reads and what the machine's zone is in each run.
INSTANTS = {
    # The last minutes of a month, on the other side of the date line (UTC+14).
    "month's end": ("2031-05-31T23:57:00+00:00", "Pacific/Kiritimati"),
    # The first minutes of a month, ten hours behind UTC: a test that moves "20 days
    # into the next month" from here does not leave the month.
    "month's start": ("2031-07-01T00:03:00+00:00", "Pacific/Honolulu"),
    # The last minutes of a year, eleven hours behind UTC.
    "year's end": ("2031-12-31T23:57:00+00:00", "Pacific/Pago_Pago"),
    # A leap day, in a zone half an hour off the hour (Iran, UTC+3:30).
    "leap day": ("2032-02-29T12:00:00+00:00", "Asia/Tehran"),
    # Two minutes before Oslo's clocks go forward (02:00 -> 03:00, 01:00 UTC).
    "Oslo's spring change": ("2032-03-28T00:58:00+00:00", "Europe/Oslo"),
    # Two minutes before Oslo's clocks go back (03:00 -> 02:00, 01:00 UTC).
    "Oslo's autumn change": ("2031-10-26T00:58:00+00:00", "Europe/Oslo"),
}

DATE_SENSITIVE = [
    "tests/tables/test_ratings_store.py",
    "tests/tables/test_ratings_model.py",
    "tests/tables/test_days.py",
    "tests/tables/test_daily.py",
    "tests/store/test_store_days.py",
    "tests/tables/test_absent_pause.py",
    "tests/tables/test_since.py",
    "tests/e2e/test_daily.py",
    "tests/e2e/test_days_clock.py",
    "tests/e2e/test_days_away.py",
    "tests/e2e/test_timeout_notice.py",
    "tests/e2e/test_playing_over_days.py",
]
# Left to the main run: the PostgreSQL half (the calendar is computed in Python, the same
# for both stores) and the longest plays, whose dates the shorter tests above already
# cross (about 90 s a run with them, 40 s without).
LEFT_TO_THE_MAIN_RUN = ("postgresql", "two_tables_of_one_guild", "three_members_play_the_same_deal",
                        "four_players_over_three_days", "american_members_meet")


@pytest.mark.parametrize("name", list(INSTANTS))
def test_the_date_sensitive_tests_pass_at(name: str) -> None:
    start, zone = INSTANTS[name]
    env = {**os.environ, START_VARIABLE: start, "TZ": zone}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-q", "-x", "-p", "no:cacheprovider",
         "-k", " and ".join(f"not {name}" for name in LEFT_TO_THE_MAIN_RUN), *DATE_SENSITIVE],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert run.returncode == 0, f"at {start} in {zone}:\n{run.stdout[-6000:]}{run.stderr[-2000:]}"
