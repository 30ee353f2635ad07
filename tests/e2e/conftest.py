"""Fixtures of the end-to-end suite: a fake Discord with six users, a leak checker."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.driver import LeakChecker, assert_interactions_answered, make_fake
from tests.fake_discord import FakeDiscord
from tests.fake_discord.fixtures import error_logs_fixture  # noqa: F401 - "error_logs"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord with one guild, two channels and six users."""
    fake = make_fake()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
def leaks(fake: FakeDiscord) -> LeakChecker:
    """Checks every message the bot writes against the true game state; set
    `leaks.bot` to the running bot. Fails the test at teardown on any leak."""
    checker = LeakChecker(fake).install()
    yield checker
    checker.assert_clean()


@pytest.fixture
def answered(fake: FakeDiscord):
    """At teardown: every interaction was answered within 3 s, nothing refused."""
    yield
    assert_interactions_answered(fake)
