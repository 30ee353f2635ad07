"""Discord's per-route limits with one-second windows, for the tests that pass days of
moves in seconds of real time."""

from __future__ import annotations

from tests.fake_discord import FakeDiscord
from tests.fake_discord.ratelimit import default_rules


def days_paced(fake: FakeDiscord) -> None:
    """Discord's per-route limits with one-second windows (its counts: five a window).
    Days of moves pass here in seconds of real time, and each move re-posts, deletes and
    pings: with five-second windows discord.py spends minutes of such a test sleeping on
    exhausted buckets (it waits out every Reset-After it is told; a profile of
    test_no_exit's host-away case: 73 of its 80 s in the event loop's idle poll).
    Discord publishes no window ("should not be hard coded",
    https://discord.com/developers/docs/topics/rate-limits), the bot reads the headers,
    and every request over a window's count is still refused: only the waits are
    shorter."""
    fake.rate_limiter.rules = default_rules(0.2)
