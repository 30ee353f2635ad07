"""Fixtures of the end-to-end suite: a fake Discord with six users, a leak checker."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from tests.e2e.driver import LeakChecker, assert_interactions_answered, make_fake
from tests.e2e.harness import bot_running
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


@pytest.fixture
def bot_seed() -> int:
    """The seed of the `bot` fixture's deals; a test module may override it."""
    return 41


@pytest.fixture
async def bot(fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
              tmp_path: Path, bot_seed: int) -> AsyncIterator[AmerikanerBot]:
    """The real bot against the fake Discord, its deals seeded, checked for leaks, error
    logs and unanswered interactions."""
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(bot_seed)
        yield bot
