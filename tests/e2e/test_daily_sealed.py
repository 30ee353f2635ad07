"""The deal of the day, sealed and fair (issue 50 items 3 and 4, issue 52 items 4 and 6),
through the strict fake: a day's records stay closed to a member whose play of it is
unfinished, a play cannot go on past its day's end and is then scored, an abandoned
play counts in the ladders, a day's rules stay those of its first play, a time-zone
change opens no second day, a member whose DMs are closed gets the panel every time,
the result can be reopened all day, and a day's message closes when its day ends."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord

# The daily's AI on 4 worlds, not 24 (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("few_daily_worlds")

GAME = "amerikaner"


async def commands_done(fake: FakeDiscord) -> None:
    """Until every slash command the bot took has run to its end (what it does after
    its answer too): discord.py runs each in a task named "CommandTree-invoker"
    (discord/app_commands/tree.py), so the bot is not stopped under one."""
    await fake.wait_until(lambda: not any(
        t.get_name() == "CommandTree-invoker" and not t.done()
        for t in asyncio.all_tasks()), 30, "the commands to end")


async def test_a_member_with_closed_dms_gets_the_panel_here_every_time(
        fake: FakeDiscord, error_logs: Any, tmp_path: Path) -> None:
    """Discord answers every message to a member who closed their DMs from the server
    403 50007 "Cannot send messages to this user" (the fake does:
    tests/fake_discord/server.py, close_dms); after the first, the bot sends no more
    requests to that DM channel for a while (bot/discord/access.py: each would be an
    invalid request), and the daily shows its panel in the channel then too."""
    fake.close_dms("alice")
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e"):
        for _ in range(2):  # noqa: B007
            it = await fake.slash("alice", None, f"{GAME} daily", {"dm": True})
            assert it.callback.ephemeral and it.message is not None
            shown = it.message.id
            # The AI's first answers may take their time (a deferred answer, then edited).
            panel = await fake.wait_until(
                lambda s=shown: (m := fake.message(s)).components and m, 30, "the panel")
            assert "would not let me send you a direct message" in panel.text()
            assert panel.embeds and panel.visible_to == fake.user("alice").id
        await commands_done(fake)
        assert fake.dm_messages("alice") == []
        # One refused request: the first; the second was not sent.
        assert [e[1]["code"] for e in fake.client_errors] == [50007]
