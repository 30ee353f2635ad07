"""The hand panel follows the game: when the turn comes to a player whose panel is open,
the bot edits that panel to their hand and moves, without a click and without a new
message; at the end of the game every open panel shows the result."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import AmerikanerBot
from tests.e2e.driver import NAMES, ButtonDriver, open_table, table_message
from tests.fake_discord import FakeDiscord


@pytest.fixture
def bot_seed() -> int:
    return 7


def _live_buttons(fake: FakeDiscord, message: Any) -> list[str]:
    return [b["label"] for b in fake.message(message).buttons() if not b.get("disabled")]


async def test_the_next_players_open_panel_turns_to_their_move(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    seat = table.to_act
    assert seat is not None
    now, after = table.seats[seat].name, table.seats[(seat + 1) % 4].name
    waiting = (await fake.click_label(after, table_message(fake), "My hand")).message
    assert waiting is not None and "Pass" not in _live_buttons(fake, waiting)
    own = len(fake.ephemeral_messages(after))
    mine = (await fake.click_label(now, table_message(fake), "My hand")).message
    await fake.click_label(now, mine, "Pass")
    # No click by `after`: their panel now offers their bids.
    await fake.wait_until(lambda: "Pass" in _live_buttons(fake, waiting), 5.0,
                          "the next player's panel to follow the turn")
    assert "Your turn" in fake.message(waiting).text()
    assert len(fake.ephemeral_messages(after)) == own  # edited, not added
    # ... and a move from it is one tap.
    version = table.version
    await fake.click_label(after, waiting, "Pass")
    assert table.version == version + 1


async def test_at_the_end_every_open_panel_shows_the_result(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:3]), {"preset": "amerikaner", "target": 1})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=3, refresh_share=1.0)
    table = driver.table
    await driver.play_to_end()
    panels = list(driver.hands.values())
    assert len(panels) == 3

    def closed() -> bool:
        return all(_labels(fake, p) == {"Rematch", "Leaderboard"}
                   and "Game over" in fake.message(p).text() for p in panels)
    await fake.wait_until(closed, 5.0, "every open panel to show the result")
    assert table.stage == "finished"


def _labels(fake: FakeDiscord, message: object) -> set[str]:
    return {b.get("label") for b in fake.message(message).buttons()}
