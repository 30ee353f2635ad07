"""The Activity's page in a real browser: Playwright drives Debian's Chromium (never a
downloaded one) against the bot and the strict fake Discord. Four members play a whole
Amerikaner game from their pages (the SDK in its mock mode, handed the code and the
instance Discord would give) and from the message panels' buttons, interleaved: bids,
the kitty's discard, the opening lead's trump and call, the tricks, a claim when the
game offers one; a fifth member without a seat watches the public table. Four more play
a whole American game the same way (swaps, plays from the hand and the face-up row,
pick-ups, flips). Every frame each page receives and the text each page shows go
through the leak checker; a forged hello is refused; a dropped socket reconnects and
loses nothing. Screenshots at a phone's 390x844 are saved per phase under the test's
tmp dir (and AMERIKANER_SCREENSHOTS, when it names a folder)."""

from __future__ import annotations

import json
import os
import random
import socket
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.errors import GameError
from bot.web.frames import view_frame
from bot.web.home import home_frame
from tests.debian import apt_install, can_install, install_lock
from tests.e2e.activity_page import check_frame
from tests.e2e.american_driver import AmericanButtonDriver
from tests.e2e.driver import (
    NAMES,
    BaseDriver,
    ButtonDriver,
    LeakChecker,
    cards_in_text,
    open_table,
    wait_game_over,
)
from tests.e2e.harness import bot_running
from tests.e2e.rtl_checker import bare_runs
from tests.fake_discord import FakeDiscord

CHROMIUM = Path("/usr/bin/chromium")  # Debian's package (the `chromium` fixture installs it)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
MOST_BUTTONS = 6  # web/src/main.js: a card with more moves offers them in a list

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


@pytest.fixture(autouse=True)
def activities_enabled(fake: FakeDiscord) -> None:
    """Every page here is an Activity's: the app has Activities enabled in the Developer
    Portal (without them Discord refuses its Entry Point command, which the bot
    registers whenever the Activity is configured)."""
    fake.activity.enabled = True


@pytest.fixture
async def activity_bot(fake: FakeDiscord, leaks: LeakChecker, error_logs: Any,
                       answered: None, tmp_path: Path) -> AsyncIterator[AmerikanerBot]:
    async with bot_running(fake, tmp_path / "db.sqlite3",
                           activity_client_secret=fake.activity.client_secret,
                           activity_port=0) as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(41)
        yield bot


class Album:
    """The pages' screenshots: the first of each phase, under the tmp dir and
    AMERIKANER_SCREENSHOTS (docs/activity.png, the README's, is Amerikaner's "play",
    copied by hand)."""

    def __init__(self, tmp_path: Path, game: str) -> None:
        self.game = game
        self.folders = [tmp_path / "screenshots"]
        extra = os.environ.get("AMERIKANER_SCREENSHOTS")
        if extra:
            self.folders.append(Path(extra))
        for folder in self.folders:
            folder.mkdir(parents=True, exist_ok=True)
        self.taken: set[str] = set()

    async def take(self, phase: str, page: Any) -> None:
        if phase in self.taken:
            return
        self.taken.add(phase)
        png = await page.screenshot(full_page=True)
        for folder in self.folders:
            (folder / f"activity-{self.game}-{phase}.png").write_bytes(png)


class BrowserPage:
    """A member's page in its own browser context, and the frames it was sent."""

    def __init__(self, name: str, page: Any) -> None:
        self.name = name
        self.page = page
        self.frames: list[dict[str, Any]] = []
        self.album: Album | None = None  # shoots the choice of a lead's trump and call
        page.on("websocket", self._follow)

    def _follow(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def last_view(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f.get("type") == "view")

    async def shows(self, version: int) -> None:
        from playwright.async_api import expect
        await expect(self.page.locator("body")).to_have_attribute(
            "data-version", str(version), timeout=20_000)

    def card(self, name: str) -> Any:
        """A card of the member's own, in their hand or their face-up row."""
        return self.page.locator(f'#hand .card[data-card="{name}"], '
                                 f'#mine .card[data-card="{name}"]')

    def button(self, label: str) -> Any:
        return self.page.get_by_role("button", name=label, exact=True)

    async def play(self, record: dict[str, Any]) -> None:
        """Tap what a player taps for this move: its cards then the group's button, its
        card (and the trump and call it names, from the card's list of moves), or its
        button (labelled as the frame says, in the member's words)."""
        view = self.last_view()
        for group in view["groups"]:
            keys = [part["key"] for part in group["parts"]]
            if group["action"] == record["action"] and record.get(keys[0]):
                if group["counts"] == [1] and len(keys) == 1:
                    await self.card(record[keys[0]][0]).click()  # one card: the tap
                    return
                for key in keys:
                    for name in record[key]:
                        await self.card(name).click()
                await self.button(group["label"]).click()
                return
        wanted = json.dumps(record, sort_keys=True)
        action = next(a for a in view["actions"] if a["key"] == wanted)
        if not action.get("card"):
            await self.button(action["label"]).click()
            return
        await self.card(action["card"]).click()
        moves = sum(a.get("card") == action["card"] for a in view["actions"])
        if moves == 1:
            return
        if self.album is not None:
            await self.album.take("lead-choice", self.page)  # a lead's trumps and calls
        if moves <= MOST_BUTTONS:
            await self.button(action["label"]).click()
        else:
            await self.page.locator("#actions select").select_option(value=action["key"])


async def open_page(browser: Any, fake: FakeDiscord, base: str, name: str,
                    instance_id: str, *, clock_at: datetime | None = None) -> BrowserPage:
    """A member joins the instance and opens its page, in a browser context of their own
    at a phone's size; `clock_at`: the page's clock paused there (Playwright's `clock`:
    it moves only when the test moves it)."""
    fake.activity.join(instance_id, fake.user(name).id)
    context = await browser.new_context(viewport=PHONE)
    page = BrowserPage(name, await context.new_page())
    if clock_at is not None:  # a fixed instant, never today's: the page reads only spans
        await page.page.clock.install(time=clock_at - timedelta(seconds=5))
        await page.page.clock.pause_at(clock_at)
    code = fake.activity.authorize(fake.user(name).id)
    await page.page.goto(f"{base}/?mock=1&mock_code={code}&mock_instance={instance_id}")
    return page


async def open_pages(browser: Any, fake: FakeDiscord, table: Any, base: str,
                     names: list[str], *, clock_at: datetime | None = None
                     ) -> dict[str, BrowserPage]:
    """Each member opens the Activity in the table's channel (open_page); every page
    shows the table."""
    instance = fake.activity.launch(fake.channel.id, fake.guild.id, fake.user(names[0]).id)
    pages = {name: await open_page(browser, fake, base, name, instance.instance_id,
                                   clock_at=clock_at) for name in names}
    for page in pages.values():
        await page.shows(table.version)
    return pages


async def play_whole_game(fake: FakeDiscord, table: Any, driver: BaseDriver,
                          pages: dict[str, BrowserPage], album: Album,
                          page_phases: tuple[str, ...]) -> dict[str, int]:
    """Until the game is over: two moves in three from the seat's page (every move of
    `page_phases` too), the others from the message panels; from the page, Claim the
    rest when the game offers it: once where the game refuses it (its reason shown), once
    where it holds (the rest played out). After each move every page shows the table, its
    frames and text checked for leaks. What was played from where, counted."""
    seated = {table.seat_of(fake.user(name).id): page for name, page in pages.items()
              if table.seat_of(fake.user(name).id) is not None}
    counts: dict[str, int] = {"page": 0, "panel": 0, "refused": 0, "claimed": 0}
    for page in pages.values():
        page.album = album
    step = 0
    while (turn := await driver.next_turn()) is not None:
        seat, _ = turn
        phase = phase_of(table, seat)
        counts[f"phase:{phase}"] = counts.get(f"phase:{phase}", 0) + 1
        before = table.version
        if step % 3 != 2 or phase in page_phases:
            page = seated[seat]
            await page.shows(before)
            await album.take(phase, page.page)
            view = page.last_view()
            if "claim" in view and not counts["claimed"]:
                holds = claim_holds(table, seat)
                if holds or not counts["refused"]:  # one refused, then one made
                    made = await claimed(fake, table, page, before)
                    assert made == holds
                    counts["claimed" if made else "refused"] += 1
                    if made:
                        await check_pages(table, fake, pages)
                        step += 1
                        continue
            _, action = driver.decide(seat)
            record = dict(table.kind.action_to_json(action))
            record.pop("seat")
            await page.play(record)
            await fake.wait_until(lambda b=before: table.version > b, 20, "the tap")
            counts["page"] += 1
        else:
            await driver.step()  # a click on the message panel
            counts["panel"] += 1
        await check_pages(table, fake, pages)
        step += 1
    await wait_game_over(fake, table)
    await check_pages(table, fake, pages)
    from playwright.async_api import expect
    for page in pages.values():  # the standings, as the channel was told them
        await expect(page.page.locator("#final h2")).to_have_text(
            page.last_view()["final"]["title"].replace("**", ""))
    await album.take("game-over", seated[0].page)
    return counts


async def claimed(fake: FakeDiscord, table: Any, page: BrowserPage, before: int) -> bool:
    """Press Claim the rest: the game plays the rest out (True), or refuses with its
    reason, shown on the page (False)."""
    count = len(page.frames)
    await page.button(page.last_view()["claim"]).click()
    await fake.wait_until(lambda: table.version > before or any(
        f.get("type") == "refused" for f in page.frames[count:]), 20, "the claim's answer")
    if table.version > before:
        return True
    from playwright.async_api import expect
    refusal = next(f for f in page.frames[count:] if f.get("type") == "refused")
    await expect(page.page.locator("#status")).to_have_text(refusal["text"])
    return False


def claim_holds(table: Any, seat: int) -> bool:
    """Whether the game would accept the seat's claim now (on a copy)."""
    try:
        table.kind.claim(table.kind.copy(table.game), seat)
    except GameError:
        return False
    return True


def phase_of(table: Any, seat: int) -> str:
    view = table.kind.seat_view(table.game, seat)
    deal = getattr(view, "deal", None)  # American's view holds its deal
    if deal is not None:
        return str(deal.phase)
    return str(view.phase)


async def check_pages(table: Any, fake: FakeDiscord, pages: dict[str, BrowserPage]) -> None:
    for page in pages.values():
        await page.shows(table.version)
        await no_leak(table, fake, page)


async def test_four_pages_and_the_panels_play_a_whole_amerikaner_game(
        fake: FakeDiscord, activity_bot: AmerikanerBot, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    bot = activity_bot
    # to 10: a game of a hand or two, each bid, kitty, lead and trick of it played
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "target": 10})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and bot.activity_server is not None
    base = f"http://127.0.0.1:{bot.activity_server.port}"
    album = Album(tmp_path, "amerikaner")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            pages = await open_pages(browser, fake, table, base, [*NAMES[:4], "erin"])
            watcher = pages["erin"]
            await album.take("watching", watcher.page)
            driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
            (instance,) = fake.activity.instances.values()
            await forged_hello(pages[NAMES[0]], base, instance.instance_id)
            await reconnects(fake, bot, table, driver, pages)
            counts = await play_whole_game(fake, table, driver, pages, album,
                                           ("discard", "exchange", "lead"))
            # the watcher was shown the public table only, all along
            assert all(f.get("seat") is None and "hand" not in f and "actions" not in f
                       for f in watcher.frames if f.get("type") == "view")
            assert await watcher.page.locator("#hand .card").count() == 0
            assert table.game is not None and table.kind.finished(table.game)
        finally:
            await browser.close()
    assert counts["page"] > counts["panel"] > 0, counts
    assert counts["claimed"] == 1 and counts["refused"] == 1, counts
    assert {"bid", "discard", "lead", "play"} <= album.taken, album.taken
    print("amerikaner", counts)


async def test_four_pages_and_the_panels_play_a_whole_american_game(
        fake: FakeDiscord, activity_bot: AmerikanerBot, tmp_path: Path) -> None:
    """The page knows no game: American's table (the pile, each seat's face-up row and
    face-down count, the deck) and its moves (a swap of hand cards for face-up ones, a
    play of several cards of a rank, from the hand or the face-up row, a pick-up, a
    flip) come as the same frames."""
    from playwright.async_api import async_playwright

    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"target": 1, "swap": True, "blind_down": True},
                     game="american")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.kind.name == "american"
    assert bot.activity_server is not None
    base = f"http://127.0.0.1:{bot.activity_server.port}"
    album = Album(tmp_path, "american")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            pages = await open_pages(browser, fake, table, base, list(NAMES[:4]))
            driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=7)
            counts = await play_whole_game(fake, table, driver, pages, album, ("swap",))
            assert table.game is not None and table.kind.finished(table.game)
        finally:
            await browser.close()
    assert counts["page"] > counts["panel"] > 0, counts
    assert {"swap", "play", "flip"} <= album.taken, album.taken
    print("american", counts)


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


async def reconnects(fake: FakeDiscord, bot: AmerikanerBot, table: Any,
                     driver: ButtonDriver, pages: dict[str, BrowserPage]) -> None:
    """Every page's socket dropped, a move made meanwhile: each page comes back on its
    own and shows the table as it is, that move included."""
    server = bot.activity_server
    assert server is not None
    await server.disconnect(table.id)
    await driver.next_turn()
    await driver.step()  # a move from a panel button while the pages are away
    for name, page in pages.items():
        await page.shows(table.version)
        seat = table.seat_of(fake.user(name).id)
        hand = await page.page.locator("#hand .card").count()
        assert hand == (len(table.kind.hand_cards(table.game, seat)) if seat is not None
                        else 0)


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


async def test_a_persian_members_page_reads_right_to_left(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Path) -> None:
    """Persian is never a Discord locale: carol chose it with /language (stored), and her
    page follows that choice, not her Discord's English: right to left (dir="rtl",
    lang="fa"), her panel in Persian words with every name, number and card inside them
    isolated, the cards' own faces left to right (issue 55)."""
    from playwright.async_api import async_playwright, expect

    db, port = tmp_path / "db.sqlite3", free_port()
    settings = {"activity_client_secret": fake.activity.client_secret, "activity_port": port}
    async with bot_running(fake, db, **settings) as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(43)
        await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None
        carol = fake.user("carol")
        await bot.tables.shared.store.set_member_language(carol.id, "fa")
        instance = fake.activity.launch(fake.channel.id, fake.guild.id, carol.id)
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            try:
                context = await browser.new_context(viewport=PHONE)
                page = BrowserPage("carol", await context.new_page())
                code = fake.activity.authorize(carol.id)
                await page.page.goto(f"http://127.0.0.1:{port}/?mock=1&mock_code={code}"
                                     f"&mock_instance={instance.instance_id}&mock_locale=en-US")
                await page.shows(table.version)
                html = page.page.locator("html")
                await expect(html).to_have_attribute("dir", "rtl")
                await expect(html).to_have_attribute("lang", "fa")
                persian = view_frame(table, carol.id, "fa")["panel"]["title"]
                assert persian != view_frame(table, carol.id, "en")["panel"]["title"]
                assert any("\u0600" <= char <= "\u06ff" for char in persian)
                await expect(page.page.locator("#panel h2")).to_have_text(persian)
                text = await page.page.locator("#panel").inner_text()
                persian_lines = [line for line in text.splitlines()
                                 if any("\u0600" <= char <= "\u06ff" for char in line)]
                assert persian_lines
                assert [bare_runs(line) for line in persian_lines
                        if bare_runs(line)] == []
                first_card = page.page.locator("#hand .card").first
                assert await first_card.evaluate("c => getComputedStyle(c).direction") == "ltr"
                await no_leak(table, fake, page)
                await Album(tmp_path, "amerikaner").take("persian", page.page)
            finally:
                await browser.close()


async def test_the_app_launcher_opens_the_home_page(fake: FakeDiscord, leaks: LeakChecker,
                                                    error_logs: Any, answered: None,
                                                    tmp_path: Path) -> None:
    """Bob (his Discord in Norwegian) opens the app from the App Launcher: its Entry
    Point command (cogs/tables/entry_point.py) launches the Activity on its home page,
    in his words: his tables in this server, this channel's first, with how to open a
    table and play the deal of the day; its button opens this channel's table."""
    from playwright.async_api import async_playwright, expect

    fake.activity.enabled = True
    async with bot_running(fake, tmp_path / "db.sqlite3",
                           activity_client_secret=fake.activity.client_secret,
                           activity_port=0) as bot:
        leaks.bot = bot
        await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None and bot.activity_server is not None
        bob = fake.user("bob")
        it = await fake.entry_point("bob", fake.channel)
        assert getattr(it, "response_type", None) == 12
        (instance,) = fake.activity.instances.values()
        home = home_frame(bot.tables, fake.guild.id, fake.channel.id, bob.id, "nb")
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            try:
                context = await browser.new_context(viewport=PHONE)
                page = BrowserPage("bob", await context.new_page())
                code = fake.activity.authorize(bob.id)
                await page.page.goto(f"http://127.0.0.1:{bot.activity_server.port}/?mock=1"
                                     f"&mock_code={code}&mock_instance={instance.instance_id}"
                                     "&mock_locale=no")
                body = page.page.locator("body")
                await expect(body).to_have_attribute("data-home", "1")
                await expect(page.page.locator("#title")).to_have_text(home["panel"]["title"])
                await expect(page.page.locator("#panel")).to_contain_text("Denne kanalen")
                await expect(page.page.locator("#panel .begin")).to_have_text(
                    home["begin"].replace("**", ""))
                await page.page.screenshot(path=str(tmp_path / "activity-home.png"))
                await page.page.locator("#actions button.open-table").click()
                await page.shows(table.version)
                cards = await page.page.locator("#hand .card").count()
                assert cards == len(table.kind.hand_cards(table.game, table.seat_of(bob.id)))
                await no_leak(table, fake, page)
            finally:
                await browser.close()
