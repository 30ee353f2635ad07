"""The deal of the day's panel shows the state of the play (issue 52, item 3): the daily
has no public table message, so its compact panel carries, under the hand, the
contract, the last trick and who took it (in view after the AI's answers have moved
the play on to the member's next turn), the trick on the table, and the tricks she and
her side took; and it still fits a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.harness import bot_running
from tests.e2e.test_daily import DailyDriver, _open
from tests.fake_discord import FakeDiscord
from tests.fake_discord.layout import USABLE_HEIGHT
from tests.fake_discord.layout import layout as phone_layout


async def test_the_daily_panel_keeps_the_trick_just_won_in_view(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        alice = DailyDriver(fake, lambda: bot, fake.channel, 3, "alice")
        panel = await _open(fake, "alice")
        while "Last trick" not in panel.text():  # one move at a time, her turn again
            panel = await alice.play(panel, moves=1)
            assert not alice.finished, "the deal ended and the panel never showed a trick"
        # The trick she sees was won already: the AI's answers ended it, and her panel
        # moved on to her next turn with it in view, beside the tricks each seat took.
        assert alice.table.game.current.tricks_done >= 1
        assert " · You: " in panel.text(), panel.text()  # the tricks she took
        laid = phone_layout(panel)
        assert laid.fits(USABLE_HEIGHT), str(laid)
