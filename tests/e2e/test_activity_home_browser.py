"""The Activity over days in a real browser (Playwright and Debian's Chromium, as
test_activity_browser.py): from the App Launcher's home page a member plays today's deal
of the day in the page to its end against the AI seats, sees their result, finds the
day played on the home page, and a day later (the fake's clock) is offered the new
day's deal; another opens a new table from the home page and their page follows its
lobby; a page opened after others played starts with "While you were away", dismissed
with its button. (The same rules through a bare socket: test_activity_home.py.)"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from tests.e2e.activity_page import check_frame
from tests.e2e.driver import NAMES, ButtonDriver, LeakChecker, open_table
from tests.e2e.test_activity_browser import (  # noqa: F401 (autouse fixtures)
    CHROMIUM,
    FLAGS,
    PHONE,
    BrowserPage,
    activities_enabled,
    chromium,
    no_leak,
    open_page,
)
from tests.e2e.test_activity_home import activity_bot  # noqa: F401 (a fixture)
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.usefixtures("few_daily_worlds")

DAY = 24 * 3600


async def launched(browser: Any, fake: FakeDiscord, bot: AmerikanerBot, name: str,
                   channel: Any, *, launcher: bool = True) -> BrowserPage:
    """The member opens the Activity in `channel` (from the App Launcher: its home
    page), in a browser context of their own at a phone's size."""
    assert bot.activity_server is not None
    if launcher:
        it = await fake.entry_point(name, channel)
        assert getattr(it, "response_type", None) == 12
    instance = next((i for i in fake.activity.instances.values()
                     if i.channel_id == channel.id), None)
    if instance is None:
        instance = fake.activity.launch(channel.id, fake.guild.id, fake.user(name).id)
    return await open_page(browser, fake, f"http://127.0.0.1:{bot.activity_server.port}",
                           name, instance.instance_id)


async def test_the_deal_of_the_day_and_a_new_table_in_the_page(
        fake: FakeDiscord, activity_bot: AmerikanerBot,  # noqa: F811
        leaks: LeakChecker,
        tmp_path: Path) -> None:
    from playwright.async_api import async_playwright, expect

    bot = activity_bot
    daily = bot.tables.daily
    alice_id = fake.user("alice").id
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            alice = await launched(browser, fake, bot, "alice", fake.channel)
            body = alice.page.locator("body")
            await expect(body).to_have_attribute("data-home", "1")
            today = alice.page.locator('#actions button.daily[data-game="amerikaner"]')
            await expect(today).to_have_count(1)
            day = await today.get_attribute("data-day")
            await alice.page.screenshot(path=str(tmp_path / "activity-home-daily.png"))
            await today.click()
            await expect(body).to_have_attribute("data-daily", str(day))
            moves = 0
            while True:
                state = await daily.state(fake.guild.id, "amerikaner", alice_id)
                assert state is not None
                await alice.shows(state.version)
                view = alice.last_view()
                assert not check_frame(daily.table(state), alice_id, view)
                if state.finished:
                    break
                action = state.kind.choose_action(state.game, state.deal.seat, "easy",
                                                  random.Random(moves))
                record = dict(state.kind.action_to_json(action))
                record.pop("seat")
                await alice.play(record)
                await fake.wait_until(lambda v=state.version: alice.last_view()["version"]
                                      > v, 20, "the daily's next view")
                moves += 1
            # the result, as the panel words it, and the day's board holds it
            result = alice.last_view()["result"]
            assert "hand" not in alice.last_view()  # the result, not a next deal
            await expect(alice.page.locator("#final h2")).to_have_text(result["title"])
            board = await daily.board(fake.guild.id, "amerikaner", str(day))
            assert [row.user_id for row in board] == [alice_id]
            await alice.page.screenshot(path=str(tmp_path / "activity-daily-result.png"))
            # back home: today's deal is played (no button, a note)
            await alice.button(alice.last_view()["daily"]["home"]).click()
            await expect(body).to_have_attribute("data-home", "1")
            await expect(today).to_have_count(0)
            await expect(alice.page.locator(
                '#actions .daily-played[data-game="amerikaner"]')).to_have_count(1)
            # a second try, from the panel: refused (one try a day), its result shown
            again = await fake.slash("alice", fake.channel, "amerikaner daily", {})
            assert again.callback.ephemeral
            # over midnight: the home page offers the new day's deal
            fake.clock.advance(DAY)
            # the App Launcher again, the next day
            alice2 = await launched(browser, fake, bot, "alice", fake.channel)
            next_day = alice2.page.locator('#actions button.daily[data-game="amerikaner"]')
            await expect(next_day).to_have_count(1)
            assert await next_day.get_attribute("data-day") not in (None, day)
            # a new table from the home page: the lobby, hosted by alice, followed
            new = alice2.page.locator('#actions button.new-table[data-game="amerikaner"]')
            await new.click()
            await fake.wait_until(lambda: bot.tables.registry.in_channel(fake.channel.id)
                                  is not None, 20, "the new table")
            table = bot.tables.registry.in_channel(fake.channel.id)
            assert table is not None and table.host_id == alice_id
            await alice2.shows(table.version)
            await expect(alice2.page.locator("body")).not_to_have_attribute("data-home", "1")
            await expect(alice2.page.locator("#title")).to_have_text(
                alice2.last_view()["title"])  # the lobby's, as its message's
        finally:
            await browser.close()


async def test_while_you_were_away_in_the_page(
        fake: FakeDiscord, activity_bot: AmerikanerBot,  # noqa: F811
        leaks: LeakChecker,
        tmp_path: Path) -> None:
    """Others play three moves from their panels and a day passes while alice's page is
    closed: her page opens on "While you were away" naming them, on top of the table,
    until she dismisses it."""
    from playwright.async_api import async_playwright, expect

    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
    alice_id = fake.user("alice").id
    others = []
    while len(others) < 3:
        turn = await driver.next_turn()
        assert turn is not None
        if table.seats[turn[0]].user_id == alice_id:
            await driver.step()  # alice's own move, from her panel
            others.clear()
            continue
        others.append(table.seats[turn[0]].name)
        await driver.step()
    fake.clock.advance(DAY)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            alice = await launched(browser, fake, bot, "alice", fake.channel,
                                   launcher=False)
            await alice.shows(table.version)
            recap = alice.page.locator("#recap")
            await expect(recap.locator("h2")).to_have_text("While you were away")
            for name in others:
                await expect(recap).to_contain_text(name)
            await alice.page.screenshot(path=str(tmp_path / "activity-recap.png"))
            await no_leak(table, fake, alice)
            await recap.locator("button.dismiss").click()
            await expect(recap).to_have_count(0)
        finally:
            await browser.close()
