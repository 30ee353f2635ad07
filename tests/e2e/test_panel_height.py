"""The hand panel fits one phone screen with its move buttons visible: real panels, as the
bot sent them to the fake Discord, laid out by the mobile layout model
(tests/fake_discord/layout.py: a 390 x 844 phone, USABLE_HEIGHT for messages) at the
worst moments of both games, in English and in Norwegian."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.app import AmerikanerBot
from tests.e2e.american_driver import AmericanButtonDriver, open_american
from tests.e2e.driver import (
    ACTION_ID,
    NAMES,
    ButtonDriver,
    open_table,
    table_message,
)
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.layout import USABLE_HEIGHT, Layout, layout


async def play_until(driver: Any, moment: Callable[[Any, int], bool],
                     who: tuple[str, ...] = NAMES) -> tuple[int, str]:
    """Play (through the panels) until one of `who`, to act, is at `moment` (their view)."""
    for _ in range(600):
        turn = await driver.next_turn()
        assert turn is not None, "the game ended before the moment came"
        seat, name = turn
        if name in who and moment(driver.table.seat_view(seat), seat):
            return turn
        await driver.step()
    raise AssertionError("the moment never came")


async def open_panel(fake: FakeDiscord, name: str, label: str = "My hand") -> StoredMessage:
    it = await fake.click_label(name, table_message(fake), label)
    assert it.response_type == 4 and it.message is not None, it
    return fake.message(it.message)


def check_fits(message: StoredMessage, what: str) -> Layout:
    """The panel is at most one screen, and every move button lies within it."""
    shown = layout(message)
    print(f"{what}: {shown}")  # the figures quoted in docs/pictures-and-panels.md (pytest -s)
    moves = [b["custom_id"] for b in message.buttons()
             if ACTION_ID.match(b.get("custom_id", ""))]
    assert moves, message.buttons()
    assert shown.height <= USABLE_HEIGHT, f"{what}: {shown}"
    lowest = max(shown.component_bottoms[cid] for cid in moves)
    assert lowest <= USABLE_HEIGHT, (what, lowest)
    return shown


def mid_trick_with_call(view: Any, seat: int) -> bool:
    """A full hand in the second trick of a deal, cards on the table, a called card, a
    last trick: the most an Amerikaner panel shows."""
    return (view.legal is not None and view.phase == "play" and len(view.tricks) == 1
            and view.trick is not None and len(view.trick.plays) >= 1
            and view.called is not None and view.cards is not None
            and len(view.cards) >= view.rules.cards_each - 1)


async def test_an_amerikaner_panel_with_16_cards_and_the_kitty_fits_a_phone(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:3]), {"preset": "amerikaner", "show_kitty": True})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=5, refresh_share=0.0)
    _seat, name = await play_until(driver, mid_trick_with_call)
    panel = await open_panel(fake, name)
    assert panel.embeds[0]["title"] == f"Your hand — {name}"
    check_fits(panel, "amerikaner 3 players, kitty shown")
    assert not panel.embeds[0].get("fields")  # the table in a few lines of text
    # The whole table is one tap away, in the same panel, and one tap back.
    it = await fake.click_label(name, panel, "Table")
    assert it.response_type == 7
    fields = [f["name"] for f in fake.message(panel).embeds[0]["fields"]]
    assert {"Contract", "Kitty (shown)", "Current trick", "Last trick", "Scores"} <= set(
        fields), fields
    it = await fake.click_label(name, panel, "Hide the table")
    assert it.response_type == 7 and not fake.message(panel).embeds[0].get("fields")
    assert fake.message(panel).button("Table")


async def test_an_amerikaner_panel_with_18_cards_and_jokers_fits_a_phone(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """The most cards a hand holds (3 players with jokers: 18), five rows of buttons."""
    await open_table(fake, list(NAMES[:3]), {"preset": "amerikaner", "jokers": True})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=7, refresh_share=0.0)
    _seat, name = await play_until(driver, mid_trick_with_call)
    check_fits(await open_panel(fake, name), "amerikaner 3 players, jokers")


async def test_a_kani_panel_with_13_cards_fits_a_phone(fake: FakeDiscord,
                                                       bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "kani"})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=6, refresh_share=0.0)
    _seat, name = await play_until(driver, mid_trick_with_call)
    check_fits(await open_panel(fake, name), "kani 4 players")


def big_hand(view: Any, _seat: int) -> bool:
    """An American hand of eight cards or more, with a pile on the table."""
    deal = view.deal
    return (deal is not None and deal.legal is not None and deal.legal.phase == "play"
            and deal.hand is not None and len(deal.hand) >= 8 and len(deal.pile) >= 2)


async def test_an_american_panel_with_a_big_hand_fits_a_phone(fake: FakeDiscord,
                                                              bot: AmerikanerBot) -> None:
    await open_american(fake, list(NAMES[:5]), {})
    driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=2, refresh_share=0.0)
    _seat, name = await play_until(driver, big_hand)
    panel = await open_panel(fake, name)
    check_fits(panel, "american 5 players")
    await fake.click_label(name, panel, "Table")  # the others, one tap away
    assert [f["name"] for f in fake.message(panel).embeds[0]["fields"]][:2] == [
        "Pile", "Players"]
    await fake.click_label(name, panel, "Hide the table")
    check_fits(fake.message(panel), "american 5 players, table hidden again")


async def test_an_american_panel_in_norwegian_fits_a_phone(fake: FakeDiscord,
                                                           bot: AmerikanerBot) -> None:
    """Its words are longer: the player whose panel is measured reads bokmål."""
    await open_american(fake, list(NAMES[:5]), {})
    driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=3, refresh_share=0.0)
    _seat, name = await play_until(driver, big_hand)
    fake.user(name).locale = "no"
    panel = await open_panel(fake, name)
    assert panel.embeds[0]["title"] == f"Din hånd — {name}"
    check_fits(panel, "american 5 players, bokmål")
