"""Rate limits: with the fake enforcing Discord-like limits (and forcing some 429s), a
fast burst of actions loses nothing, no 429 goes unhandled, every interaction is still
answered in time, table-message edits are coalesced, and the last one shows the state."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.tables.table import Table
from cogs.tables import table_panel
from tests.e2e.driver import (
    NAMES,
    ButtonDriver,
    LeakChecker,
    assert_interactions_answered,
    check_finished_game,
    choose_ai,
    make_fake,
    open_table,
)
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord


@pytest.fixture
async def limited() -> AsyncIterator[FakeDiscord]:
    """Discord's limits, as the fake gives them by default: 5 messages sent (and 5
    edits) per channel in 5 s, 50 requests a second per token."""
    fake = make_fake(rate_limit_scale=1.0)  # Discord's windows as observed: paced by them
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


def shown(fake: FakeDiscord, table: Table) -> tuple[str, list[tuple[str, str]]]:
    assert table.message_id is not None
    embed = fake.message(table.message_id).embeds[0]
    return embed.get("description", ""), [(f["name"], f["value"])
                                          for f in embed.get("fields", [])]


def expected(table: Table) -> tuple[str, list[tuple[str, str]]]:
    panel = table_panel(table)
    return panel.description, [(n, v[:1024] or "—") for n, v, _ in panel.fields]


async def settle(fake: FakeDiscord, table: Table, timeout: float = 10.0) -> None:
    """Until the table message shows the current state."""
    await fake.wait_until(lambda: shown(fake, table) == expected(table), timeout,
                          "the table message to show the current state")


def table_edits(fake: FakeDiscord) -> list[Any]:
    return [r for r in fake.requests_to("PATCH", r"^/channels/\d+/messages/\d+$")
            if r.status == 200]


def reached_limit(fake: FakeDiscord) -> bool:
    """Some bucket was used up: 5 sends (or 5 edits) to the channel within its 5 s.
    (discord.py reads the X-RateLimit headers and waits before it would get a 429.)"""
    for method, rx in (("POST", r"^/channels/\d+/messages$"),
                       ("PATCH", r"^/channels/\d+/messages/\d+$")):
        times = sorted(r.time for r in fake.requests_to(method, rx) if r.status == 200)
        if any(times[i + 4] - times[i] < 5.0 for i in range(len(times) - 4)):
            return True
    return False


async def test_burst_of_human_actions(limited: FakeDiscord, error_logs: Any,
                                      tmp_path: Path) -> None:
    fake = limited
    leaks = LeakChecker(fake).install()
    async with bot_running(fake, tmp_path / "db.sqlite3", edit_delay=0.3) as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(61)
        await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "target": 52})
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None
        # some 429s Discord may give at any time (sub-limits): on the answer to a click
        # and on an edit of the table message
        assert fake.rate_limiter is not None
        fake.rate_limiter.force("POST", r"^/interactions/\d+/[^/]+/callback$", count=2,
                                retry_after=0.3)
        fake.rate_limiter.force("PATCH", r"^/channels/\d+/messages/\d+$", count=2,
                                retry_after=0.3)
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=61)
        edits_before = len(table_edits(fake))
        for _ in range(60):  # as fast as the players can click
            await driver.step()
        await settle(fake, table)
        edits = len(table_edits(fake)) - edits_before
        assert fake.rate_limited or reached_limit(fake), "the burst never reached a limit"
        assert driver.stats.actions == 60 == table.version
        # Coalesced: not one edit a click (how many depends on the machine's pace, so
        # only that they were fewer; what they showed is checked by `settle`).
        assert edits < 60, f"{edits} edits of the table message for 60 actions"
        assert_interactions_answered(fake)
    leaks.assert_clean()


async def test_ai_burst_under_limits(limited: FakeDiscord, error_logs: Any,
                                     tmp_path: Path) -> None:
    """One human and three AIs playing without pause: every hand ends with a summary
    and a new table message, many more than the limits allow at once."""
    fake = limited
    leaks = LeakChecker(fake, check_ephemeral=False).install()
    async with bot_running(fake, tmp_path / "db.sqlite3", edit_delay=0.1) as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(62)
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 4, "target": 10})
        lobby = new.message
        assert lobby is not None
        for level in ("easy", "strong", "easy"):
            await choose_ai(fake, "alice", fake.message(lobby), level)
        await fake.click_label("alice", fake.message(lobby), "Start")
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None
        # AI seats are named when shown, by their place among the AI seats and level
        seats = fake.message(lobby).embeds[0]["fields"][0]["value"]
        for name in ("alice", "AI 1 (easy)", "AI 2 (strong)", "AI 3 (easy)"):
            assert f"**{name}**" in seats, seats
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=62)
        await driver.play_to_end()
        assert table.game is not None and table.game.finished
        await check_finished_game(fake, table)
        # The bot keeps within the limits by itself (its budget, one edit of a table
        # message a second): no 429, however fast the AI plays.
        assert not fake.rate_limited, [(r.method, r.path) for r in fake.rate_limited]
        assert_interactions_answered(fake)
    leaks.assert_clean()


async def test_a_slow_way_to_discord_bunches_no_429(error_logs: Any,
                                                   tmp_path: Path) -> None:
    """Issue 53: the set-up of 1,000 tables met the global limit (8 to 67 429s) though
    the bot sent at most its budget in any second: the fake, starved of CPU, read a
    backlog of requests at once, as Discord counts them, by arrival. The budget counts a
    request until a window after its answer, so a slow way bunches at most the budget:
    here the way holds every request for longer than a window, then lets them through
    together, and none is refused."""
    fake = make_fake(channel_names=[f"t{i}" for i in range(12)], rate_limit_scale=1.0)
    assert fake.global_limiter is not None
    fake.global_limiter.limit = 5  # Discord's 50 a second, scaled to the budget below
    await fake.start()
    try:
        async with bot_running(fake, tmp_path / "db.sqlite3", request_budget=5.0) as bot:
            before = len(fake.global_requests())
            fake.hold_arrivals()
            # One fetch a channel: discord.py sends them at once (a bucket each).
            fetches = [asyncio.create_task(bot.fetch_channel(channel.id))
                       for channel in fake.guild.text_channels]
            # The way stays slow for longer than a window: whatever the bot sends in it
            # arrives at once. (A pause of the test, not a measured time.)
            await asyncio.sleep(1.5)
            fake.release_arrivals()
            await asyncio.gather(*fetches)
        assert not fake.rate_limited, [(r.method, r.path) for r in fake.rate_limited]
        assert len(fake.global_requests()) - before == 12
    finally:
        await fake.stop()
