"""The bot on PostgreSQL (DATABASE_URL) through the fake Discord: a whole game from the
lobby to the leaderboard, stopped and restarted mid-game on the same database, with
the same checks as on SQLite (no leaks, every interaction answered, the record replays
to the standings and the leaderboard the bot showed)."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from bot.store.postgres import PostgresStore
from tests.e2e.driver import NAMES, ButtonDriver, LeakChecker, check_finished_game, open_table
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord


async def test_a_whole_game_on_postgresql_with_a_restart(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Path, pg_url: str) -> None:
    unused = tmp_path / "not-used.sqlite3"  # DATABASE_URL wins over DATABASE_PATH
    current: dict[str, Any] = {}
    driver = ButtonDriver(fake, lambda: current["bot"], fake.channel, seed=5)
    async with AsyncExitStack() as first:
        bot = await first.enter_async_context(bot_running(fake, unused, database_url=pg_url))
        assert isinstance(bot.store, PostgresStore)
        current["bot"] = leaks.bot = bot
        bot.tables.shared.rng = random.Random(5)
        await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "target": 12,
                                                 "free_trump": True})
        for _ in range(25):
            assert await driver.step()
        version = driver.table.version
    # A restart: the new bot takes the game up from the database where it stood.
    async with bot_running(fake, unused, database_url=pg_url) as bot:
        current["bot"] = leaks.bot = bot
        table = driver.table
        assert table.version == version and table.game is not None
        await driver.play_to_end()
        assert table.game.finished and bot.tables.registry.in_channel(fake.channel.id) is None
        out = await check_finished_game(fake, table)
        assert max(out["totals"]) >= 12
        assert driver.stats.actions == table.version
        board = await bot.store.leaderboard(fake.guild.id, "amerikaner", "points", 10)
        assert len(board) == 4
    assert not unused.exists()
    leaks.assert_saw_all()
