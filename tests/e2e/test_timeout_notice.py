"""Issue 35 part 5 (its last session's "Missing" 8): a member whose turn ran out and
whose seat the AI took is told once, where they read: by DM for a member who chose DMs
(`/notify where:dm`), the channel's post naming them without a mention; by a mention in
the channel for one who reads there. Through the strict fake, on its clock."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.render.text import dm_timeout_text, timeout_seat_text
from tests.e2e.driver import ButtonDriver, choose_ai
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord


@pytest.mark.parametrize("reads", ["dm", "channel"])
async def test_a_timed_out_member_is_told_once_where_they_read(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any, reads: str) -> None:
    """alice (by DM, or in the channel) lets her turn run out at a table whose timer
    gives the seat to the AI: exactly one notice reaches her of it, a DM or a mention;
    the channel is told either way."""
    alice = fake.user("alice").id
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        bot.tables.shared.rng = random.Random(7)
        if reads == "dm":
            it = await fake.slash("alice", None, "notify", {"where": "dm"})
            assert it.callback.ephemeral, it.callback.data
        new = await fake.slash("bob", None, "amerikaner new",
                               {"players": 3, "preset": "amerikaner", "turn_timer": "1d",
                                "on_timeout": "seat"})
        assert new.message is not None, new.callback.data
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None
        await fake.click("alice", new.message, f"amk:{table.id}:join")
        await choose_ai(fake, "bob", fake.message(new.message), "fill")
        await fake.click("bob", new.message, f"amk:{table.id}:start")
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=3)
        while (turn := await driver.next_turn()) is not None and turn[1] != "alice":
            await driver.step()
        assert turn is not None
        seat = turn[0]
        deadline = table.turn_deadline
        assert deadline is not None
        channel_told = timeout_seat_text("", "").split(":")[0].split(",")[1].strip()
        dm_told = dm_timeout_text("", 0, "", "", True).split(" ")[1:4]

        def in_channel() -> list[Any]:
            return [m for m in fake.messages() if channel_told in (m.content or "")]

        def by_dm() -> list[Any]:
            return [m for m in fake.dm_messages("alice", deleted=True)
                    if " ".join(dm_told) in (m.content or "")]

        fake.clock.advance(deadline - fake.clock.time() + 1)
        await fake.wait_until(lambda: table.seats[seat].away and in_channel(), 10,
                              "the timeout's post")
        if reads == "dm":
            await fake.wait_until(by_dm, 10, "the DM")
        # Told in the channel either way (the table's other players read it), by name.
        (post,) = in_channel()
        assert "alice" in post.content or f"<@{alice}>" in post.content, post.content
        mentions = [m for m, p in fake.pings() if alice in p.users and m.id == post.id]
        # Exactly one notice reaches alice: the DM, or the mention.
        assert len(by_dm()) + len(mentions) == 1, (len(by_dm()), post.content)
        assert (len(by_dm()) == 1) == (reads == "dm")
