"""Runs the real bot (bot.app.AmerikanerBot) against the fake Discord for e2e tests."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.app import AmerikanerBot
from bot.config import Settings
from tests.fake_discord.fixtures import running_bot
from tests.fake_discord.server import FakeDiscord


def make_bot(fake: FakeDiscord, db: Path, **overrides: object) -> AmerikanerBot:
    # The bot reads Discord's time of day from the fake's clock, which tests can move.
    settings = Settings(token=fake.token, database_path=str(db), ai_delay=0.0,
                        trick_pause=0.0, edit_delay=0.02, clock=fake.clock)
    for key, value in overrides.items():
        object.__setattr__(settings, key, value)
    return AmerikanerBot(settings)


@contextlib.asynccontextmanager
async def bot_running(fake: FakeDiscord, db: Path, **overrides: object
                      ) -> AsyncIterator[AmerikanerBot]:
    async with running_bot(fake, make_bot(fake, db, **overrides)) as bot:
        yield bot


async def wait_answering(fake: FakeDiscord, user: Any, channel: Any = None,
                         timeout: float = 25.0) -> None:
    """Until a bot answers a command in `channel` (None: the fake's default channel), so
    its command tree and cogs are loaded: for a bot that runs as a process of its own.
    Raises AssertionError if it has not answered within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    guild_id = getattr(channel, "guild_id", None)
    while time.monotonic() < deadline:
        if guild_id is None or fake.connected_for(guild_id):
            it = await fake.slash(user, channel, "amerikaner help", wait=False)
            with contextlib.suppress(AssertionError):
                await it.wait_callback(0.5)
                return
        else:
            await asyncio.sleep(0.2)
    raise AssertionError(f"the bot did not answer within {timeout:.0f} s")
