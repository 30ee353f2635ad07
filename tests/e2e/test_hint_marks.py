"""A hint marks the strong AI's move in the player's panel (a green button with a star,
an emoji Discord knows: the fake refuses others with 50035) and says why, in the
player's language, in both games."""

from __future__ import annotations

from typing import Any

from bot.app import AmerikanerBot
from bot.render import button_label
from tests.e2e.american_driver import AmericanButtonDriver, open_american
from tests.e2e.driver import (
    ACTION_ID,
    NAMES,
    ButtonDriver,
    in_bokmal,
    open_table,
    table_message,
)
from tests.fake_discord import FakeDiscord, StoredMessage

SUCCESS = 3  # Discord's green button style


def _marked(message: StoredMessage) -> list[dict[str, Any]]:
    return [b for b in message.buttons() if (b.get("emoji") or {}).get("name") == "⭐"]


async def _hint(fake: FakeDiscord, name: str, language: str = "en-US") -> StoredMessage:
    """`name` opens their panel (the table's words are English) and asks for a hint in
    `language`."""
    panel = (await fake.click_label(name, table_message(fake), "My hand")).message
    assert panel is not None
    hint = in_bokmal(lambda: button_label("hint")) if language == "no" else "Hint"
    it = await fake.click_label(name, panel, hint)
    assert it.response_type == 7  # the panel itself, edited
    return fake.message(panel)


async def _play_turn(fake: FakeDiscord, driver: Any, phase: str) -> str:
    """Play until a human is to act in `phase`; their name."""
    for _ in range(200):
        turn = await driver.next_turn()
        assert turn is not None
        view = driver.table.seat_view(turn[0])
        legal = view.legal if hasattr(view, "legal") else view.deal.legal
        if legal is not None and legal.phase == phase:
            return turn[1]
        await driver.step()
    raise AssertionError(f"no {phase} turn came")


async def test_an_amerikaner_hint_marks_the_card_and_says_why(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=4, refresh_share=0.0)
    for language, why in (("en-US", "Why: "), ("no", "Hvorfor: ")):
        name = await _play_turn(fake, driver, "play")
        fake.user(name).locale = language
        panel = await _hint(fake, name, language)
        (marked,) = _marked(panel)
        assert marked["style"] == SUCCESS and ACTION_ID.match(marked["custom_id"])
        assert not marked.get("disabled")
        content = panel.content
        assert why in content and marked["label"] in content, content
        # The move is one tap: the marked button plays it.
        version = driver.table.version
        await fake.click(name, panel, marked["custom_id"])
        assert driver.table.version > version
        fake.user(name).locale = "en-US"


async def test_a_bidding_hint_marks_the_bid_or_the_pass(fake: FakeDiscord,
                                                       bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    turn = ButtonDriver(fake, lambda: bot, fake.channel, seed=1).whose_turn()
    assert turn is not None
    panel = await _hint(fake, turn[1])
    (marked,) = _marked(panel)
    assert marked["style"] == SUCCESS and "Why: " in panel.content
    assert marked["label"] == "Pass" or marked["label"] in panel.content
    # With the whole table shown, a hint keeps it shown (and its toggle's way back).
    await fake.click_label(turn[1], panel, "Table")
    await fake.click_label(turn[1], panel, "Hint")
    shown = fake.message(panel)
    assert shown.embeds[0].get("fields") and shown.button("Hide the table")
    assert len(_marked(shown)) == 1


async def test_an_american_hint_marks_the_play_and_says_why(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_american(fake, list(NAMES[:3]), {})
    driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=4, refresh_share=0.0)
    for language, why in (("en-US", "Why: "), ("no", "Hvorfor: ")):
        name = await _play_turn(fake, driver, "play")
        fake.user(name).locale = language
        panel = await _hint(fake, name, language)
        content = panel.content
        assert why in content, content
        marked = _marked(panel)
        # A play of fewer cards of a rank is a menu's choice: its rank's button is
        # marked all the same; every other move has its button.
        assert len(marked) == 1 and marked[0]["style"] == SUCCESS, panel.buttons()
        fake.user(name).locale = "en-US"
        await driver.step()
