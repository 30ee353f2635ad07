"""A first end-to-end look: a lobby, a start, a hand opened and a bid made by button."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.harness import bot_running
from tests.fake_discord.fixtures import error_logs_fixture, fake_discord_fixture  # noqa: F401


async def test_lobby_start_and_a_bid(fake_discord, error_logs, tmp_path: Path) -> None:
    fake = fake_discord
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        new = await fake.slash("alice", None, "amerikaner new", {"players": 3})
        lobby = new.message
        assert "Waiting for 2 more players" in lobby.text()
        await fake.click_label("bob", lobby, "Join")
        await fake.click_label("carol", lobby, "Join")
        start = await fake.click_label("alice", fake.message(lobby), "Start")
        assert start.response_type == 7
        table = bot.tables.registry.in_channel(fake.channel.id)
        seat = table.to_act
        user = table.seats[seat].name
        hand = await fake.click_label(user, fake.message(lobby), "My hand")
        assert hand.callback.ephemeral
        msg = hand.message
        bid = await fake.click_label(user, msg, "Pass")
        assert bid.response_type == 7
        assert table.version == 1


async def test_discord_py_keeps_no_view_of_ours(fake_discord, error_logs, tmp_path: Path) -> None:
    """Every button is routed by its custom_id, so nothing need stay in discord.py's view
    store: no view kept per message, and no 15-minute timer per ephemeral hand (which at
    a busy bot would hold thousands of views alive)."""
    fake = fake_discord
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        new = await fake.slash("alice", None, "amerikaner new", {"players": 3})
        for user in ("bob", "carol"):
            await fake.click_label(user, fake.message(new.message), "Join")
        await fake.click_label("alice", fake.message(new.message), "Start")
        for user in ("alice", "bob", "carol"):  # ephemeral hands, sent as new messages
            hand = await fake.slash(user, None, "amerikaner hand")
            assert hand.callback.ephemeral and hand.message.buttons()
        table = bot.tables.registry.in_channel(fake.channel.id)
        user = table.seats[table.to_act].name
        await fake.click_label(user, fake.message(new.message), "My hand")
        store = bot._connection._view_store
        assert not store._views and not store._synced_message_views
        timers = [t for t in asyncio.all_tasks()
                  if "timeout_task_impl" in getattr(t.get_coro(), "__qualname__", "")]
        assert timers == []
