"""Every turn reaches its player (issue 52, item 2): a turn that comes back to a member
within seconds of their own move (the AI answered, the trick was theirs) is shown in
their open panel without a ping, so live play stays quiet; if it is still unplayed a
short delay later (cogs/tables/pings.py, LATE_TURN_SECONDS) they are pinged after all,
where they chose (in the channel, or by DM with /notify), since an edit of their panel
notifies nobody (Edit Message fires a Message Update and no notification:
https://discord.com/developers/docs/resources/message#edit-message). A turn played
within the delay is never pinged. Time is the fake's clock, moved by the test."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from cogs.tables.pings import LATE_TURN_SECONDS
from tests.e2e.driver import ButtonDriver, choose_ai
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, StoredMessage


def _turn_pings(fake: FakeDiscord, table_id: int, name: str) -> list[StoredMessage]:
    """Every turn message the bot sent `name` about the table, deleted ones too: in
    the channel naming them, or by DM; each with the My hand button."""
    def hand(message: StoredMessage) -> bool:
        return any(b.get("custom_id") == f"amk:{table_id}:hand"
                   for b in message.buttons())
    mention = f"<@{fake.user(name).id}>"
    found = [m for m in fake.messages(None, deleted=True)
             if mention in (m.content or "") and hand(m)]
    found += [m for m in fake.dm_messages(name, deleted=True)
              if m.visible_to is None and hand(m)]
    return found


async def _came_back(fake: FakeDiscord, bot: AmerikanerBot, driver: ButtonDriver
                     ) -> tuple[int, int]:
    """alice plays until a move of hers brings the turn back to her (the AI answered)
    without a ping: the table's version then and the count of her turn messages."""
    table = driver.table
    for _ in range(60):
        turn = await driver.next_turn()
        assert turn is not None and turn[1] == "alice", turn
        naps = fake.clock.naps
        before = len(_turn_pings(fake, table.id, "alice"))
        await driver.step()
        await driver.wait_for_humans()
        if driver.whose_turn() == turn and len(_turn_pings(fake, table.id, "alice")) \
                == before:
            # Her open panel follows the turn; the bot then waits on its clock for the
            # delay (a sleeper of the fake's clock: no timer runs at this table).
            panel = driver.hands["alice"]
            await fake.wait_until(lambda p=panel, n=naps: "Your turn" in
                                  fake.message(p).text() and fake.clock.naps > n, 10,
                                  "alice's panel to follow the turn")
            return table.version, before
    raise AssertionError("the turn never came back to alice")


@pytest.mark.parametrize("where", ["channel", "dm"])
async def test_a_turn_left_unplayed_is_pinged_after_the_delay(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any, where: str) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        bot.tables.shared.rng = random.Random(5)
        if where == "dm":
            await fake.slash("alice", None, "notify", {"where": "dm"})
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 4, "preset": "amerikaner", "mentions": True})
        assert new.message is not None, new.callback.data
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None
        await choose_ai(fake, "alice", fake.message(new.message), "fill")
        await fake.click("alice", new.message, f"amk:{table.id}:start")
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=3, refresh_share=1.0)

        # A turn played within the delay: never pinged.
        version, count = await _came_back(fake, bot, driver)
        fake.clock.advance(LATE_TURN_SECONDS / 2)
        await driver.step()
        assert table.version > version
        # ... and the next turn that comes back, left unplayed: pinged once, after the
        # delay, where alice reads (the earlier turn's waiter found it played).
        version, count = await _came_back(fake, bot, driver)
        assert len(_turn_pings(fake, table.id, "alice")) == count
        fake.clock.advance(LATE_TURN_SECONDS + 1)
        await fake.wait_until(lambda: len(_turn_pings(fake, table.id, "alice")) > count,
                              10, "alice's late turn ping")
        pings = _turn_pings(fake, table.id, "alice")
        assert len(pings) == count + 1, [m.content for m in pings]
        ping = pings[-1]
        assert not ping.deleted and table.version == version
        assert (ping.channel_id == table.channel_id) == (where == "channel"), ping
