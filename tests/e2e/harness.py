"""Runs the real bot (bot.app.AmerikanerBot) against the fake Discord for e2e tests."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot.app import AmerikanerBot
from bot.config import Settings
from tests.fake_discord.fixtures import running_bot
from tests.fake_discord.server import FakeDiscord


def make_bot(fake: FakeDiscord, db: Path, **overrides: object) -> AmerikanerBot:
    settings = Settings(token=fake.token, database_path=str(db), ai_delay=0.0,
                        trick_pause=0.0, edit_delay=0.02)
    for key, value in overrides.items():
        object.__setattr__(settings, key, value)
    return AmerikanerBot(settings)


@contextlib.asynccontextmanager
async def bot_running(fake: FakeDiscord, db: Path, **overrides: object
                      ) -> AsyncIterator[AmerikanerBot]:
    async with running_bot(fake, make_bot(fake, db, **overrides)) as bot:
        yield bot
