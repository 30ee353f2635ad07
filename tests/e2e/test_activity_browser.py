"""The Activity's page in a real browser: Playwright drives Debian's Chromium (never a
downloaded one) against the bot and the strict fake Discord. Four members play one
Amerikaner table from their pages (the SDK in its mock mode, handed the code and the
instance Discord would give), and from the message panels' buttons,
interleaved; every frame each page receives and the text each page shows go through
the leak checker; a forged hello is refused; a dropped socket reconnects and loses
nothing. Screenshots at a phone's 390x844 are saved per phase under the test's tmp dir."""

from __future__ import annotations

import json
import os
import random
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.web.frames import view_frame
from tests.debian import apt_install, can_install, install_lock
from tests.e2e.activity_page import check_frame
from tests.e2e.driver import NAMES, ButtonDriver, LeakChecker, cards_in_text, open_table
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord

CHROMIUM = Path("/usr/bin/chromium")  # Debian's package (the `chromium` fixture installs it)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]
PHONE = {"width": 390, "height": 844}

@pytest.fixture(scope="session", autouse=True)
def chromium() -> Path:
    """Debian's Chromium, installed here when missing (as tests/pg_server.py installs
    PostgreSQL), so the README's test command is enough on a fresh machine. Without it
    and no way to install it the tests are skipped on a developer's machine and fail in
    CI (CI=true), where they must run."""
    if not CHROMIUM.exists() and can_install():
        with install_lock():
            if not CHROMIUM.exists():
                apt_install("chromium", "fonts-dejavu-core")
    if not CHROMIUM.exists():
        message = "Debian's chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture
async def activity_bot(fake: FakeDiscord, leaks: LeakChecker, error_logs: Any,
                       answered: None, tmp_path: Path) -> AsyncIterator[AmerikanerBot]:
    async with bot_running(fake, tmp_path / "db.sqlite3",
                           activity_client_secret=fake.activity.client_secret,
                           activity_port=0) as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(41)
        yield bot


class BrowserPage:
    """A member's page in its own browser context, and the frames it was sent."""

    def __init__(self, name: str, page: Any) -> None:
        self.name = name
        self.page = page
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", self._follow)

    def _follow(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def last_view(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f.get("type") == "view")

    async def shows(self, version: int) -> None:
        from playwright.async_api import expect
        await expect(self.page.locator("body")).to_have_attribute(
            "data-version", str(version), timeout=20_000)

    async def play(self, record: dict[str, Any]) -> None:
        """Tap what a player taps for this move: its card, its cards then the group's
        button, or its button (labelled as the frame says, in the member's words)."""
        view = self.last_view()
        page = self.page
        for key in ("cards", "hand"):
            if isinstance(record.get(key), list):
                for name in record[key]:
                    await page.locator(f'#hand .card[data-card="{name}"]').click()
                group = next(g for g in view["groups"] if g["action"] == record["action"])
                await page.get_by_role("button", name=group["label"], exact=True).click()
                return
        wanted = json.dumps(record, sort_keys=True)
        action = next(a for a in view["actions"] if a["key"] == wanted)
        if action.get("card"):
            await page.locator(f'#hand .card[data-card="{action["card"]}"]').click()
            if sum(a.get("card") == action["card"] for a in view["actions"]) == 1:
                return
        await page.get_by_role("button", name=action["label"], exact=True).click()


async def test_four_pages_and_the_panels_play_one_table(
        fake: FakeDiscord, activity_bot: AmerikanerBot, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and bot.activity_server is not None
    base = f"http://127.0.0.1:{bot.activity_server.port}"
    instance = fake.activity.launch(fake.channel.id, fake.guild.id, fake.user("alice").id)
    for name in NAMES[1:4]:
        fake.activity.join(instance.instance_id, fake.user(name).id)
    shots: dict[str, Path] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            pages: dict[int, BrowserPage] = {}
            for name in NAMES[:4]:
                context = await browser.new_context(viewport=PHONE)
                page = BrowserPage(name, await context.new_page())
                code = fake.activity.authorize(fake.user(name).id)
                await page.page.goto(f"{base}/?mock=1&mock_code={code}"
                                     f"&mock_instance={instance.instance_id}")
                pages[table.seat_of(fake.user(name).id)] = page
            for page in pages.values():
                await page.shows(table.version)
            driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
            for step in range(24):
                turn = await driver.next_turn()
                assert turn is not None
                seat, _ = turn
                phase = table.kind.seat_view(table.game, seat).phase
                # two moves in three from the pages (every discard: its cards are
                # tapped, then the button), the others from the panels' buttons
                if step % 3 != 2 or phase in ("discard", "exchange"):
                    await pages[seat].shows(table.version)
                    if phase not in shots:
                        shots[phase] = tmp_path / f"activity-{phase}.png"
                        await pages[seat].page.screenshot(path=str(shots[phase]))
                    _, action = driver.decide(seat)
                    record = dict(table.kind.action_to_json(action))
                    record.pop("seat")
                    before = table.version
                    await pages[seat].play(record)
                    await fake.wait_until(lambda b=before: table.version > b, 20, "the tap")
                else:
                    await driver.step()  # a click on the message panel
                for page in pages.values():
                    await page.shows(table.version)
                    await no_leak(table, fake, page)
            await forged_hello(pages[next(iter(pages))], base, instance.instance_id)
            await reconnects(bot, table, driver, pages)
        finally:
            await browser.close()
    # (docs/activity.png, the README's, is one of these, copied by hand)
    assert {"bid", "discard", "play"} <= set(shots), shots


async def no_leak(table: Any, fake: FakeDiscord, page: BrowserPage) -> None:
    """The page's frames and its text show only what its member's seat may know."""
    user_id = fake.user(page.name).id
    problems = [p for frame in page.frames for p in check_frame(table, user_id, frame)]
    view = page.last_view()
    offered = {c for a in view.get("actions", ()) for c in cards_in_text(a["label"])}
    hidden = set(table.kind.secret_cards(table.game, table.seat_of(user_id))) - offered
    text = await page.page.inner_text("main")
    problems += [f"{page.name}'s page shows {sorted(cards_in_text(text) & hidden)}"] \
        if cards_in_text(text) & hidden else []
    assert not problems, problems


async def forged_hello(page: BrowserPage, base: str, instance_id: str) -> None:
    """A socket opened with a made-up token is refused; the page's own goes on."""
    answer = await page.page.evaluate("""(instance) => new Promise((done) => {
        const ws = new WebSocket(location.origin.replace('http', 'ws') + '/.proxy/ws');
        ws.onopen = () => ws.send(JSON.stringify({type: 'hello', access_token: 'made-up',
                                                  instance_id: instance}));
        ws.onmessage = (event) => done(JSON.parse(event.data));
    })""", instance_id)
    assert answer["type"] == "refused" and answer["code"] == "unauthorized", answer


async def reconnects(bot: AmerikanerBot, table: Any, driver: ButtonDriver,
                     pages: dict[int, BrowserPage]) -> None:
    """Every page's socket dropped, a move made meanwhile: each page comes back on its
    own and shows the table as it is, that move included."""
    server = bot.activity_server
    assert server is not None
    await server.disconnect(table.id)
    await driver.next_turn()
    await driver.step()  # a move from a panel button while the pages are away
    for seat, page in pages.items():
        await page.shows(table.version)
        hand = await page.page.locator("#hand .card").count()
        assert hand == len(table.kind.hand_cards(table.game, seat))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_page_comes_back_after_a_restart_in_its_members_words(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Path) -> None:
    """The bot restarts under an open page (the same database and port): the page
    reconnects by itself and shows the same table, and a move made after the restart
    reaches it. Bob's Discord is Norwegian: so is his page."""
    from playwright.async_api import async_playwright, expect

    db, port = tmp_path / "db.sqlite3", free_port()
    settings = {"activity_client_secret": fake.activity.client_secret, "activity_port": port}
    current: dict[str, AmerikanerBot] = {}
    driver = ButtonDriver(fake, lambda: current["bot"], fake.channel, seed=43)
    running = bot_running(fake, db, **settings)
    current["bot"] = await running.__aenter__()
    leaks.bot = current["bot"]
    try:
        current["bot"].tables.shared.rng = random.Random(43)
        await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
        table = current["bot"].tables.registry.in_channel(fake.channel.id)
        assert table is not None
        bob = fake.user("bob")
        seat = table.seat_of(bob.id)
        instance = fake.activity.launch(fake.channel.id, fake.guild.id, bob.id)
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            try:
                context = await browser.new_context(viewport=PHONE)
                page = BrowserPage("bob", await context.new_page())
                code = fake.activity.authorize(bob.id)
                await page.page.goto(f"http://127.0.0.1:{port}/?mock=1&mock_code={code}"
                                     f"&mock_instance={instance.instance_id}&mock_locale=no")
                await page.shows(table.version)
                english = view_frame(table, bob.id, "en")["panel"]["title"]
                norwegian = view_frame(table, bob.id, "nb")["panel"]["title"]
                assert english != norwegian
                await expect(page.page.locator("#panel h2")).to_have_text(norwegian)
                version = table.version
                await running.__aexit__(None, None, None)  # the bot stops...
                running = bot_running(fake, db, **settings)
                current["bot"] = await running.__aenter__()  # ...and starts again
                leaks.bot = current["bot"]
                table = current["bot"].tables.registry.in_channel(fake.channel.id)
                assert table is not None and table.version == version
                await page.shows(version)
                await driver.next_turn()
                await driver.step()  # a move after the restart, from a panel
                await page.shows(table.version)
                cards = await page.page.locator("#hand .card").count()
                assert cards == len(table.kind.hand_cards(table.game, seat))
                await no_leak(table, fake, page)
                await page.page.screenshot(path=str(tmp_path / "activity-after-restart.png"))
            finally:
                await browser.close()
    finally:
        await running.__aexit__(None, None, None)
