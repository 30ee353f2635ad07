"""Hints and claims through the fake Discord: the Hint button shows the strong AI's move
in the player's own panel (and is absent when the table plays without hints); a claim
that holds plays the deal out at once and is announced, one that could fail is refused
with its reason and changes nothing."""

from __future__ import annotations

import copy

from bot.app import AmerikanerBot
from bot.errors import GameError
from tests.e2e.driver import NAMES, ButtonDriver, open_table, table_message, wait_game_over
from tests.fake_discord import FakeDiscord


def _labels(fake: FakeDiscord, message: object) -> set[str]:
    return {b.get("label") for b in fake.message(message).buttons() if not b.get("disabled")}


async def test_a_hint_shows_in_the_players_own_panel(fake: FakeDiscord,
                                                     bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=4, refresh_share=0.0)
    hints = 0
    for _ in range(12):
        turn = await driver.next_turn()
        assert turn is not None
        seat, name = turn
        panel = await driver.open_hand(name)
        assert "Hint" in _labels(fake, panel)
        version = driver.table.version
        own = len(fake.ephemeral_messages(name))
        it = await fake.click_label(name, panel, "Hint")
        assert it.response_type == 7  # the clicked panel, edited: no new message
        assert len(fake.ephemeral_messages(name)) == own
        text = fake.message(panel).content
        assert text.startswith("💡 Hint: The strong AI would "), text
        assert driver.table.version == version  # a hint changes nothing
        hints += 1
        # A panel opened off one's turn offers no hint.
        other = NAMES[(NAMES.index(name) + 1) % 4]
        watching = (await fake.click_label(other, table_message(fake), "My hand")).message
        assert "Hint" not in _labels(fake, watching)
        await driver.act(name, seat, fake.message(panel))
    assert hints == 12


async def test_a_table_without_hints_offers_none(fake: FakeDiscord, bot: AmerikanerBot
                                                 ) -> None:
    await open_table(fake, list(NAMES[:3]), {"preset": "amerikaner", "hints": False})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=4, refresh_share=0.0)
    for _ in range(6):
        turn = await driver.next_turn()
        assert turn is not None
        panel = await driver.open_hand(turn[1])
        assert "Hint" not in _labels(fake, panel)
        await driver.act(turn[1], turn[0], panel)


async def test_claims_are_played_out_when_they_hold_and_refused_otherwise(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "target": 30})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=8, refresh_share=0.0)
    table = driver.table
    accepted = refused = 0
    while (turn := await driver.next_turn()) is not None:
        seat, name = turn
        panel = await driver.open_hand(name)
        if "Claim the rest" not in _labels(fake, panel):
            await driver.act(name, seat, panel)
            continue
        game = table.game
        try:
            table.kind.claim(copy.deepcopy(game), seat)
            holds = True
        except GameError:
            holds = False
        version, deals = table.version, len(game.hands)
        it = await fake.click_label(name, panel, "Claim the rest")
        if holds:
            accepted += 1
            assert it.response_type == 7, it.content
            assert len(table.game.hands) > deals or table.game.finished  # the deal is over
            await fake.wait_until(
                lambda n=name: any(f"{n} claimed the remaining tricks" in m.content
                                   for m in fake.messages()), 5.0, "the claim's notice")
        else:
            refused += 1
            assert it.callback.ephemeral, it.content
            assert (it.content or "").startswith("The rest is not surely yours"), it.content
            assert table.version == version  # nothing changed
            await driver.act(name, seat, fake.message(panel))
    await wait_game_over(fake, table)
    assert accepted and refused, (accepted, refused)
