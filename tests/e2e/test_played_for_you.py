"""The card the AI played for you is not lost (issue 52, item 10): alice lets her turn
run out, the AI plays it in her name and the game goes on; the DM (or the channel's
notice) that told her is replaced by her next turn's ping, and the hand panel she opens
from that ping names the move in its "while you were away" lines. On the fake's clock."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.driver import ButtonDriver, choose_ai
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, StoredMessage


def _live_turn_message(fake: FakeDiscord, table_id: int, name: str
                       ) -> StoredMessage | None:
    """alice's live turn message (a ping in the channel or a DM) with My hand."""
    mention = f"<@{fake.user(name).id}>"
    found = [m for m in fake.messages(None) if mention in (m.content or "")]
    found += [m for m in fake.dm_messages(name) if m.visible_to is None]
    found = [m for m in found if any(b.get("custom_id") == f"amk:{table_id}:hand"
                                     for b in m.buttons())]
    return max(found, key=lambda m: m.id) if found else None


@pytest.mark.parametrize("reads", ["dm", "channel"])
async def test_the_recap_names_the_move_the_ai_made_for_you(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any, reads: str) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        bot.tables.shared.rng = random.Random(7)
        if reads == "dm":
            await fake.slash("alice", None, "notify", {"where": "dm"})
        new = await fake.slash("bob", None, "amerikaner new",
                               {"players": 3, "preset": "amerikaner", "turn_timer": "1d"})
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
        position = table.version  # the next action's place in the game's record
        deadline = table.turn_deadline
        assert deadline is not None
        fake.clock.advance(deadline - fake.clock.time() + 1)
        await fake.wait_until(lambda: table.version > position, 10, "the timeout")
        record = await bot.store.load_record(table.id,
                                             record_format=table.kind.record_format)
        actions = [a for hand in record["hands"] for a in hand["actions"]]
        assert actions[position]["seat"] == turn[0]
        played = table.kind.words.describe_action(actions[position])
        told = f"the AI played {played} for you"

        # The game goes on to alice's next turn; her ping of it replaces what told her.
        while (turn := await driver.next_turn()) is not None and turn[1] != "alice":
            await driver.step()
        assert turn is not None
        await fake.wait_until(lambda: (m := _live_turn_message(fake, table.id, "alice"))
                              is not None and "ran out" not in (m.content or ""), 10,
                              "alice's next turn ping")
        ping = _live_turn_message(fake, table.id, "alice")
        assert ping is not None
        it = await fake.click("alice", ping, f"amk:{table.id}:hand")
        assert it.message is not None and it.callback.ephemeral
        assert told in (fake.message(it.message).content or ""), \
            (told, fake.message(it.message).content)
