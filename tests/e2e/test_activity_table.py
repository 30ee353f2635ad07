"""The table page as a player meets it (issue 54), in a real browser (Debian's Chromium,
as tests/e2e/test_activity_browser.py): each seat's face (the member's Discord avatar,
served by the backend under the page's own origin, else the name's initial; an AI's a
robot), the turn's time left counted down on the seat to act, a card newly in the
middle arriving with a short animation (none when less motion is asked for), a card
dragged onto the middle played as a tap plays it, the review of the deal last finished,
and the rematch of a finished game, after which the pages follow the new table. The
layout at a phone's portrait (390x844) and landscape (844x390) and a desktop's 1280x800:
no horizontal overflow, the hand in view, tap targets of 44 px in portrait; the
screenshots are saved (under the test's tmp dir and AMERIKANER_SCREENSHOTS)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.app import AmerikanerBot
from bot.tables.table import Table
from bot.web.frames import review_frame
from tests.e2e.driver import NAMES, ButtonDriver, choose_ai, open_table, wait_game_over
from tests.e2e.test_activity_browser import (  # noqa: F401 (fixtures, used by name)
    CHROMIUM,
    FLAGS,
    PHONE,
    Album,
    BrowserPage,
    activities_enabled,
    activity_bot,
    chromium,
    no_leak,
    open_pages,
    phase_of,
)
from tests.fake_discord import FakeDiscord

SIZES = {"portrait": PHONE, "landscape": {"width": 844, "height": 390},
         "desktop": {"width": 1280, "height": 800}}
TAP = 44  # px: the smallest tap target in portrait

# Where the pages' clocks stand (paused): a fixed instant, as the fake's clock starts at
# one (tests/fake_discord/clock.py); the page counts down from the spans a view gives.
PAGE_CLOCK = datetime(2031, 5, 14, 9, 30, 5, tzinfo=UTC)


async def test_faces_the_turn_clock_arrivals_drag_and_three_sizes(
        fake: FakeDiscord, activity_bot: AmerikanerBot,  # noqa: F811
        tmp_path: Path) -> None:
    from playwright.async_api import async_playwright, expect

    bot = activity_bot
    hashes = {name: fake.give_avatar(name) for name in ("alice", "bob")}
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "turn_timer": "1h"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and bot.activity_server is not None
    base = f"http://127.0.0.1:{bot.activity_server.port}"
    album = Album(tmp_path, "table")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            # the pages' clocks under the test's hand
            pages = await open_pages(browser, fake, table, base, list(NAMES[:4]),
                                     clock_at=PAGE_CLOCK)
            await faces(fake, table, base, pages["carol"], hashes)
            await turn_clock(table, pages)
            driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
            while True:  # from the panels, to the first card that follows a lead
                turn = await driver.next_turn()
                assert turn is not None
                if phase_of(table, turn[0]) == "play":
                    break
                await driver.step()
            seated = {table.seat_of(fake.user(n).id): p for n, p in pages.items()}
            player = seated[turn[0]]
            for page in pages.values():
                await page.shows(table.version)
            await layout(player, album)
            watcher = next(p for p in pages.values() if p is not player)
            await watcher.page.evaluate(  # the lead, as the watcher's page drew it
                "() => document.querySelector('#centre .played').dataset.seen = '1'")
            played = await drag_to_play(table, player)
            for page in pages.values():
                await page.shows(table.version)
                await no_leak(table, fake, page)
            await arrival(watcher, played)
            await expect(player.page.locator(f'#centre .card[data-card="{played}"]')) \
                .to_have_count(1)
        finally:
            await browser.close()


async def faces(fake: FakeDiscord, table: Table, base: str, page: BrowserPage,
                hashes: dict[str, str]) -> None:
    """Alice's and Bob's avatars (set in Discord, told the backend by their own
    /users/@me when they opened the page) are shown through the page's own origin;
    Carol and Dave have none: their initials. No other avatar is fetched."""
    view = page.last_view()
    for name in NAMES[:4]:
        user = fake.user(name)
        seat = table.seat_of(user.id)
        assert seat is not None
        person = view["people"][seat]
        face = page.page.locator(f'.seat[data-seat="{seat}"] .face')
        if name in hashes:
            assert person == {"avatar": f"/.proxy/api/avatar/{user.id}/{hashes[name]}.png",
                              "ai": False}
            await page.page.wait_for_function(
                """(seat) => { const img = document.querySelector(
                    `.seat[data-seat="${seat}"] .face img`);
                    return img && img.complete && img.naturalWidth === 64; }""", arg=seat)
        else:
            assert person == {"avatar": None, "ai": False}
            assert await face.inner_text() == name[0].upper()
    carol = fake.user("carol").id
    answer = await page.page.request.get(f"{base}/.proxy/api/avatar/{carol}/{'a' * 32}.png")
    assert answer.status == 404
    alice = fake.user("alice")
    answer = await page.page.request.get(f"{base}/.proxy/api/avatar/{alice.id}/{'b' * 32}.png")
    assert answer.status == 404  # not alice's avatar: not fetched


async def turn_clock(table: Table, pages: dict[str, BrowserPage]) -> None:
    """The seat to act shows the time left to the deadline the view carries, counted
    down by the page's own clock (moved here by Playwright, not by waiting)."""
    for page in pages.values():
        clock = page.last_view()["clock"]
        assert clock["seat"] == table.to_act and clock["deadline"] == table.turn_deadline
        node = page.page.locator(f'.seat[data-seat="{clock["seat"]}"] .clock')
        await node.wait_for()
        expected = clock["deadline"] - clock["now"]
        assert 3500 < expected <= 3600  # the turn of an hour began moments ago
        left = int(await node.get_attribute("data-left") or -1)
        assert abs(left - expected) <= 1, (left, expected)  # the page's clock is paused
        assert await page.page.locator(".clock").count() == 1
    page = next(iter(pages.values()))
    node = page.page.locator(".clock")
    before = int(await node.get_attribute("data-left") or -1)
    await page.page.clock.fast_forward(125_000)  # two minutes and five seconds
    after = int(await node.get_attribute("data-left") or -1)
    assert after == before - 125, (before, after)
    assert await node.inner_text() == f"⏱ {after // 60}:{after % 60:02d}"  # under an hour


async def layout(page: BrowserPage, album: Album) -> None:
    """At each size: nothing wider than the screen, the hand's cards in view without
    scrolling, and in portrait every card and button at least 44x44 px."""
    for size, viewport in SIZES.items():
        await page.page.set_viewport_size(viewport)
        await album.take(size, page.page)
        facts = await page.page.evaluate("""() => {
            const box = (n) => { const r = n.getBoundingClientRect();
              return {x: r.left, y: r.top, right: r.right, bottom: r.bottom,
                      w: r.width, h: r.height}; };
            return {width: innerWidth, height: innerHeight,
                    scroll: document.documentElement.scrollWidth,
                    hand: [...document.querySelectorAll('#hand .card')].map(box),
                    trick: box(document.getElementById('trick')),
                    taps: [...document.querySelectorAll('#hand .card, #actions button')]
                      .map(box)};
        }""")
        assert facts["scroll"] <= facts["width"], (size, facts["scroll"])
        assert facts["hand"], size
        for card in facts["hand"]:
            assert card["x"] >= 0 and card["right"] <= facts["width"], (size, card)
            assert card["y"] >= 0 and card["bottom"] <= facts["height"], (size, card)
        trick = facts["trick"]
        assert trick["y"] >= 0 and trick["bottom"] <= facts["height"], (size, trick)
        if size == "portrait":
            small = [t for t in facts["taps"] if t["w"] < TAP or t["h"] < TAP]
            assert not small, small
    await page.page.set_viewport_size(PHONE)


async def drag_to_play(table: Table, page: BrowserPage) -> str:
    """A legal card dragged elsewhere stays in the hand; another dragged onto the middle
    is played (the same move a tap sends): the table moves on by exactly that card."""
    view = page.last_view()
    legal = [a["card"] for a in view["actions"] if a.get("card")]
    assert len(legal) >= 1
    before = table.version
    mouse = page.page.mouse

    async def drag(card: str, to: str) -> None:
        start = await page.page.locator(f'#hand .card[data-card="{card}"]').bounding_box()
        end = await page.page.locator(to).bounding_box()
        assert start is not None and end is not None
        await mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
        await mouse.down()
        await mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
        await mouse.up()

    await drag(legal[0], "#title")  # dropped on the title: nothing
    played = legal[-1]
    await drag(played, "#trick")
    await page.shows(before + 1)
    assert table.version == before + 1
    hand = [c["name"] for c in page.last_view()["hand"]]
    assert played not in hand and (legal[0] in hand or legal[0] == played)
    return played


async def arrival(page: BrowserPage, played: str) -> None:
    """On another member's page the card just played arrives animated, the lead that
    was there before stays as it was drawn (its arrival not played again); with less
    motion asked for, no animation."""
    centre = page.page.locator("#centre .played")
    assert await centre.count() == 2
    assert await centre.nth(0).get_attribute("data-seen") == "1"
    arrived = centre.nth(1)
    assert await arrived.get_attribute("class") == "played arrive"
    assert await arrived.locator(".card").get_attribute("data-card") == played
    name = "e => getComputedStyle(e).animationName"
    assert await arrived.evaluate(name) == "arrive"
    duration = await arrived.evaluate("e => getComputedStyle(e).animationDuration")
    assert float(duration.removesuffix("s")) <= 0.25, duration
    await page.page.emulate_media(reduced_motion="reduce")
    assert await arrived.evaluate(name) == "none"
    await page.page.emulate_media(reduced_motion="no-preference")


async def test_review_and_rematch_from_the_page(
        fake: FakeDiscord, activity_bot: AmerikanerBot,  # noqa: F811
        tmp_path: Path) -> None:
    """Alice and Bob play a short game with two AIs (robots at the table). At its end
    Alice's page reviews the last deal (the game's own review, as the channel's Review
    button shows it) and asks for the rematch (the lobby's rematch, as the Rematch
    button): the page says who it waits for; Bob accepts from the channel's message,
    and both pages follow the new table."""
    from playwright.async_api import async_playwright, expect

    bot = activity_bot
    new = await fake.slash("alice", None, "amerikaner new", {"players": 4, "target": 1})
    lobby = new.message
    assert lobby is not None
    await fake.click_label("bob", lobby, "Join")
    await choose_ai(fake, "alice", lobby, "strong")
    await choose_ai(fake, "alice", lobby, "fill")
    await fake.click_label("alice", lobby, "Start")
    old = bot.tables.registry.in_channel(fake.channel.id)
    assert old is not None and bot.activity_server is not None
    base = f"http://127.0.0.1:{bot.activity_server.port}"
    album = Album(tmp_path, "table")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            pages = await open_pages(browser, fake, old, base, ["alice", "bob"])
            alice = pages["alice"]
            people = alice.last_view()["people"]
            robots = [i for i, seat in enumerate(old.seats) if seat.user_id is None]
            assert len(robots) == 2 and all(people[i]["ai"] for i in robots)
            for seat in robots:
                await expect(alice.page.locator(f'.seat[data-seat="{seat}"] .face')) \
                    .to_have_text("🤖")
            await ButtonDriver(fake, lambda: bot, fake.channel, seed=2).play_to_end()
            await wait_game_over(fake, old)
            for page in pages.values():
                await page.shows(old.version)
            # the last trick, as the game's Scene has it: who took it marked
            view = alice.last_view()
            (last,) = [g for g in view["scene"]["groups"] if g["marked"] is not None]
            marked = alice.page.locator(".group .card.marked")
            await expect(marked).to_have_count(1)
            assert await marked.get_attribute("data-card") == \
                last["cards"][last["marked"]]["name"]
            # the review of the last deal: a frame of its own, the game's words
            assert view["final"] and view["review"]
            review = review_frame(old, "en")
            assert review is not None
            await alice.button(view["review"]["label"]).click()
            await expect(alice.page.locator("#review h2")).to_have_text(
                review["panel"]["title"].replace("**", ""))
            await album.take("review", alice.page)
            await alice.button(view["review"]["close"]).click()
            await expect(alice.page.locator("#review")).to_be_empty()
            # the rematch: Alice from her page, Bob from the channel's message
            await alice.button(view["rematch"]["label"]).click()
            await expect(alice.page.locator("#rematch")).to_contain_text("waiting for bob")
            await expect(alice.button(view["rematch"]["label"])).to_have_count(0)
            await album.take("rematch", alice.page)
            assert old.meta["rematch"] == [fake.user("alice").id]
            final = next(m for m in reversed(fake.messages())
                         if "Rematch" in {b.get("label") for b in m.buttons()})
            await fake.click_label("bob", final, "Rematch")
            assert "everyone is in" in fake.message(final).content
            table = bot.tables.registry.in_channel(fake.channel.id)
            assert table is not None and table.id != old.id
            for page in pages.values():  # each page follows the new table
                await fake.wait_until(lambda p=page: p.last_view()["table_id"] == table.id,
                                      20, "the new table's view")
                await expect(page.page.locator("#final")).to_be_empty()
                await expect(page.page.locator("#hand .card")).not_to_have_count(0)
                # the new table's frames (the old one's, of another deal, are over)
                page.frames = [f for f in page.frames if f.get("table_id") == table.id]
                await no_leak(table, fake, page)
        finally:
            await browser.close()
