"""The table as a Discord Activity (bot/web), through the strict fake: four members'
pages follow one Amerikaner table and play on it, interleaved with moves from the message
panels' buttons; every frame through the leak checker; forged, stale, out-of-turn and
too many frames refused; a dropped socket reconnects and loses nothing. (The page itself,
in a browser: tests/e2e/test_activity_browser.py.)"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import AmerikanerBot
from bot.cards import card_label
from cogs.tables.views import table_panel
from tests.e2e.activity_page import Page, check_frame
from tests.e2e.driver import NAMES, ButtonDriver, LeakChecker, open_table, table_message
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord
from tests.fake_discord.activity import ActivityInstance


def activity_on(fake: FakeDiscord) -> dict[str, Any]:
    """The settings that turn the Activity on (any free port)."""
    return {"activity_client_secret": fake.activity.client_secret, "activity_port": 0}


@pytest.fixture
async def activity_bot(fake: FakeDiscord, leaks: LeakChecker, error_logs: Any,
                       answered: None, tmp_path: Path) -> AsyncIterator[AmerikanerBot]:
    fake.activity.enabled = True
    async with bot_running(fake, tmp_path / "db.sqlite3", **activity_on(fake)) as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(41)
        yield bot


async def pages_of(fake: FakeDiscord, bot: AmerikanerBot, session: aiohttp.ClientSession,
                   names: tuple[str, ...]) -> list[Page]:
    """The members open the Activity in the table's channel, each on a page of theirs."""
    first = fake.user(names[0]).id
    instance = fake.activity.launch(fake.channel.id, fake.guild.id, first)
    server = bot.activity_server
    assert server is not None
    pages = []
    for name in names:
        fake.activity.join(instance.instance_id, fake.user(name).id)
        page = Page(fake, f"http://127.0.0.1:{server.port}", name, instance.instance_id,
                    session)
        await page.authorize()
        await page.connect()
        pages.append(page)
    return pages


def shows_now(fake: FakeDiscord, table: Any) -> bool:
    """Whether the channel's table message shows the table as it is now."""
    try:
        shown = table_message(fake).embeds[0].get("description")
    except (LookupError, IndexError):
        return False
    return bool(shown == table_panel(table).description)


def action_frame(bot: AmerikanerBot, table: Any, action: Any) -> dict[str, Any]:
    """An action as the page sends it: its record form, without the seat."""
    record = dict(table.kind.action_to_json(action))
    record.pop("seat")
    return {"type": "act", "version": table.version, "action": record}


async def test_the_activity_is_off_unless_configured(fake: FakeDiscord, tmp_path: Path,
                                                     error_logs: Any) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        assert getattr(bot, "activity_server", None) is None


async def test_four_pages_and_the_panels_play_one_table(
        fake: FakeDiscord, activity_bot: AmerikanerBot) -> None:
    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    leaks: list[str] = []
    async with aiohttp.ClientSession() as session:
        pages = await pages_of(fake, bot, session, NAMES[:4])
        by_seat = {table.seat_of(fake.user(p.user).id): p for p in pages}
        for page in pages:
            view = await page.view_at(table.version)
            seat = table.seat_of(fake.user(page.user).id)
            assert view["seat"] == seat
            assert [c["name"] for c in view["hand"]] == [
                c for c in (card["name"] for card in view["hand"])]
            assert len(view["hand"]) == len(table.kind.hand_cards(table.game, seat))
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
        pinged = len(fake.pings())
        for step in range(16):
            turn = await driver.next_turn()
            assert turn is not None
            seat, _ = turn
            before = table.version
            if step % 2:
                await driver.step()  # a click on the message panel
            else:
                _, action = driver.decide(seat)
                await by_seat[seat].send(action_frame(bot, table, action))
                await fake.wait_until(lambda b=before: table.version > b, 20, "the move")
                # the channel's table message follows the page's move, as a click's
                await fake.wait_until(lambda: shows_now(fake, table), 20,
                                      "the table message of the page's move")
            for page in pages:  # every page is shown the move
                await page.view_at(table.version)
                for frame in page.frames:
                    leaks += check_frame(table, fake.user(page.user).id, frame)
        assert not leaks, leaks
        # whose page is open sees their turn there: nobody was pinged in the channel
        assert len(fake.pings()) == pinged, fake.pings()[pinged:]
        # (the check bites: another seat's hand in a frame is caught)
        other = table.kind.hand_cards(table.game, (table.to_act + 1) % 4)
        forged = {**pages[0].last_view(), "version": table.version,
                  "hand": [{"name": "x", "label": card_label(other[0])}]}
        seat0 = table.seat_of(fake.user(pages[0].user).id)
        assert seat0 == (table.to_act + 1) % 4 or check_frame(
            table, fake.user(pages[0].user).id, forged)
        await page_refusals(fake, bot, table, by_seat)
        await dropped_socket(fake, bot, table, driver, by_seat)
        for page in pages:
            await page.close()


async def page_refusals(fake: FakeDiscord, bot: AmerikanerBot, table: Any,
                        by_seat: dict[Any, Page]) -> None:
    """Forged, stale and out-of-turn frames each get a refusal; nothing changes."""
    seat = table.to_act
    page, other = by_seat[seat], by_seat[(seat + 1) % 4]
    version = table.version
    legal = table.kind.legal_actions(table.game, seat)[0]
    cases = [
        (page, "not json", "bad_frame"),
        (page, {"type": "act", "version": version, "action": {"action": "play", "card": "ZZ"}},
         "unknown_action"),
        (page, {**action_frame(bot, table, legal), "version": version - 1}, "stale"),
        (other, action_frame(bot, table, legal), "not_your_turn"),
    ]
    for sender, frame, code in cases:
        count = len(sender.frames)
        await sender.send(frame)
        refused = await sender.refusal(count)
        assert refused["code"] == code and refused["text"], refused
    assert table.version == version
    # too many frames at once: with the backend's clock standing still, the burst passes
    # and the frames after it are refused
    server = bot.activity_server
    assert server is not None
    server.clock = lambda: 10_000.0
    count = len(other.frames)
    for _ in range(30):
        await other.send("{}")
    await other.wait_for(lambda f: f.get("code") == "rate_limited"
                         and other.frames.index(f) >= count, "a rate limit")


async def dropped_socket(fake: FakeDiscord, bot: AmerikanerBot, table: Any,
                         driver: ButtonDriver, by_seat: dict[Any, Page]) -> None:
    """A page whose socket dropped reconnects with its token and is shown the table as it
    is now, moves it missed included."""
    page = by_seat[(table.to_act + 2) % 4]
    await page.close()
    await driver.next_turn()
    await driver.step()
    page.frames.clear()
    await page.connect()
    view = await page.view_at(table.version)
    seat = table.seat_of(fake.user(page.user).id)
    assert len(view["hand"]) == len(table.kind.hand_cards(table.game, seat))


async def test_who_and_where_are_discords_to_say(fake: FakeDiscord,
                                                 activity_bot: AmerikanerBot) -> None:
    """The member is whom the token names, never whom the page says; a member not in the
    instance, a made-up token and a channel without a table are refused."""
    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    async with aiohttp.ClientSession() as session:
        (bob,) = await pages_of(fake, bot, session, ("bob",))
        await bob.close()
        bob.frames.clear()
        await bob.connect(user_id=str(fake.user("alice").id), seat=0)
        view = await bob.view_at(table.version)
        assert view["seat"] == table.seat_of(fake.user("bob").id)
        erin = Page(fake, bob.base, "erin", bob.instance_id, session)
        await erin.authorize()  # a real token, but erin never joined the instance
        await erin.connect()
        assert (await erin.refusal(0))["code"] == "not_in_instance"
        # once in the instance, a member without a seat watches: the public table only
        fake.activity.join(bob.instance_id, fake.user("erin").id)
        erin.frames.clear()
        await erin.connect()
        watched = await erin.view_at(table.version)
        assert watched["seat"] is None and "hand" not in watched and watched["scene"]
        assert not check_frame(table, fake.user("erin").id, watched)
        liar = Page(fake, bob.base, "carol", bob.instance_id, session, token="made-up")
        await liar.connect()
        assert (await liar.refusal(0))["code"] == "unauthorized"
        elsewhere = fake.activity.launch(fake.guild.text_channels[1].id, fake.guild.id,
                                         fake.user("dave").id)
        dave = Page(fake, bob.base, "dave", elsewhere.instance_id, session)
        await dave.authorize()
        await dave.connect()
        assert (await dave.refusal(0))["code"] == "no_table"
        async with session.post(f"{bob.base}/.proxy/api/token", json={"code": "x"}) as resp:
            assert resp.status == 401
        for page in (bob, erin, liar, dave):
            await page.close()


async def test_pages_play_american_too(fake: FakeDiscord, activity_bot: AmerikanerBot) -> None:
    """The page knows no game: American's moves (several cards at once, picking the pile
    up) come as the same frames, played through the same path."""
    bot = activity_bot
    names = NAMES[:3]
    await open_table(fake, list(names), {}, game="american")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.kind.name == "american"
    rng = random.Random(5)
    async with aiohttp.ClientSession() as session:
        pages = await pages_of(fake, bot, session, names)
        by_seat = {table.seat_of(fake.user(p.user).id): p for p in pages}
        for _ in range(12):
            seat = table.to_act
            assert seat is not None
            page = by_seat[seat]
            view = await page.view_at(table.version)
            assert len(view["hand"]) == len(table.kind.hand_cards(table.game, seat))
            action = rng.choice(table.kind.legal_actions(table.game, seat))
            before = table.version
            await page.send(action_frame(bot, table, action))
            await fake.wait_until(lambda b=before: table.version > b, 20, "the move")
            for other in pages:
                await other.view_at(table.version)
                leaks = [p for f in other.frames
                         for p in check_frame(table, fake.user(other.user).id, f)]
                assert not leaks, leaks
        for page in pages:
            await page.close()


async def test_pages_follow_the_channels_next_table(fake: FakeDiscord,
                                                    activity_bot: AmerikanerBot) -> None:
    """The table is cancelled and a new one opens in the channel: the pages open there
    follow the new one (a member without a seat at it watches)."""
    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    first = bot.tables.registry.in_channel(fake.channel.id)
    assert first is not None
    async with aiohttp.ClientSession() as session:
        pages = await pages_of(fake, bot, session, NAMES[:4])
        for page in pages:
            await page.view_at(first.version)
        it = await fake.slash("alice", None, "amerikaner cancel")
        assert not it.callback.ephemeral, it.callback.data
        await open_table(fake, ["bob", "carol", "dave", "erin"], {"preset": "amerikaner"})
        second = bot.tables.registry.in_channel(fake.channel.id)
        assert second is not None and second.id != first.id
        for page in pages:
            view = await page.wait_for(lambda f: f.get("table_id") == second.id
                                       and f.get("stage") == "playing",
                                       "the new table in play")
            assert view["seat"] == second.seat_of(fake.user(page.user).id)
            assert ("hand" in view) == (page.user != "alice")
        for page in pages:
            await page.close()


async def test_the_table_message_opens_the_activity(fake: FakeDiscord,
                                                    activity_bot: AmerikanerBot) -> None:
    """With the Activity on, the table message has Play in the Activity: Discord launches
    the app's Activity in the channel (LAUNCH_ACTIVITY), and the page opened there shows
    that table (erin, without a seat, watches)."""
    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    await fake.wait_until(lambda: any(b.get("label") == "Play in the Activity"
                                      for b in table_message(fake).buttons()), 20,
                          "the table message's button")
    it = await fake.click_label("erin", table_message(fake), "Play in the Activity")
    assert it.response_type == 12
    (instance,) = fake.activity.instances.values()
    assert instance.channel_id == fake.channel.id
    assert instance.users == [fake.user("erin").id]
    async with aiohttp.ClientSession() as session:
        server = bot.activity_server
        assert server is not None
        page = Page(fake, f"http://127.0.0.1:{server.port}", "erin", instance.instance_id,
                    session)
        await page.authorize()
        await page.connect()
        view = await page.view_at(table.version)
        assert view["table_id"] == table.id and view["seat"] is None
        await page.close()


async def test_the_table_command_opens_the_activity_for_both_games(
        fake: FakeDiscord, activity_bot: AmerikanerBot) -> None:
    """`/amerikaner table` and `/american table` answer with LAUNCH_ACTIVITY (type 12,
    https://discord.com/developers/docs/interactions/receiving-and-responding: "Launch
    the Activity associated with the app"): Discord opens it in the channel of the
    command, and the page there shows that channel's table."""
    bot = activity_bot
    channels = fake.guild.text_channels[:2]
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"}, channel=channels[0])
    await open_table(fake, list(NAMES[:3]), {}, channel=channels[1], game="american")
    server = bot.activity_server
    assert server is not None
    async with aiohttp.ClientSession() as session:
        for channel, game in zip(channels, ("amerikaner", "american"), strict=True):
            table = bot.tables.registry.in_channel(channel.id)
            assert table is not None and table.kind.name == game
            it = await fake.slash("erin", channel, f"{game} table")
            assert it.response_type == 12, it.callback.data
            instance = next(i for i in fake.activity.instances.values()
                            if i.channel_id == channel.id)
            assert fake.user("erin").id in instance.users
            page = Page(fake, f"http://127.0.0.1:{server.port}", "erin",
                        instance.instance_id, session)
            await page.authorize()
            await page.connect()
            view = await page.view_at(table.version)
            assert view["table_id"] == table.id and view["seat"] is None  # erin watches
            await page.close()


async def test_a_turn_ping_in_the_channel_opens_the_activity(
        fake: FakeDiscord, activity_bot: AmerikanerBot) -> None:
    """The member whose turn it is gets Play in the Activity under the ping too (within
    Discord's limits: one row, three buttons); a click launches the Activity there."""
    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
    await driver.next_turn()
    to_act = fake.user(table.seats[table.to_act].name).id

    def ping() -> Any:
        return next((m for m, p in fake.pings() if to_act in p.users
                     and m.id != table.message_id), None)
    await fake.wait_until(lambda: ping() is not None, 20, "the turn ping")
    message = ping()
    assert len(message.components) == 1  # one row
    labels = [b.get("label") for b in message.buttons()]
    assert len(labels) == 3 and "Play in the Activity" in labels, labels
    name = table.seats[table.to_act].name
    it = await fake.click_label(name, message, "Play in the Activity")
    assert it.response_type == 12
    (instance,) = fake.activity.instances.values()
    assert instance.channel_id == fake.channel.id and instance.users == [to_act]


async def test_without_the_activity_no_button_and_the_table_command_shows_the_table(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """Off (the settings unset): no Play in the Activity on the table message or under a
    turn ping, and `/amerikaner table` shows the table as its message does, to the
    member alone."""
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    labels = [b.get("label") for b in table_message(fake).buttons()]
    assert labels and "Play in the Activity" not in labels
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
    await driver.next_turn()
    to_act = fake.user(table.seats[table.to_act].name).id
    await fake.wait_until(lambda: any(to_act in p.users for _m, p in fake.pings()), 20,
                          "the turn ping")
    for message, _pings in fake.pings():
        assert "Play in the Activity" not in [b.get("label") for b in message.buttons()]
    it = await fake.slash("erin", fake.channel, "amerikaner table")
    assert it.response_type == 4 and it.callback.ephemeral
    assert it.embeds and it.embeds[0]["title"] == table_message(fake).embeds[0]["title"]
    assert not fake.activity.instances


async def test_an_app_without_activities_enabled_gets_a_clear_answer(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, tmp_path: Path) -> None:
    """The settings are on but the Developer Portal's Activities switch is off: Discord
    refuses LAUNCH_ACTIVITY (the strict fake too), and the member is told why."""
    assert not fake.activity.enabled  # a new app's
    async with bot_running(fake, tmp_path / "db.sqlite3", **activity_on(fake)) as bot:
        leaks.bot = bot
        await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
        await fake.wait_until(lambda: any(b.get("label") == "Play in the Activity"
                                          for b in table_message(fake).buttons()), 20,
                              "the table message's button")
        it = await fake.click_label("bob", table_message(fake), "Play in the Activity")
        assert it.response_type == 4 and it.callback.ephemeral
        assert "not turned on for this app" in (it.content or "")
        assert not fake.activity.instances


async def test_the_page_is_served_and_nothing_else(fake: FakeDiscord,
                                                   activity_bot: AmerikanerBot) -> None:
    """The built page and the app's client id are served; no other file of the bot."""
    server = activity_bot.activity_server
    assert server is not None
    base = f"http://127.0.0.1:{server.port}"
    async with aiohttp.ClientSession() as session:
        for path, status in (("/", 200), ("/app.js", 200), ("/app.css", 200),
                             ("/.proxy/api/config", 200), ("/SOURCES.sha256", 200),
                             ("/.env", 404), ("/%2e%2e%2fpyproject.toml", 404),
                             ("/..%2f..%2fconfig.py", 404), ("/nothing.js", 404)):
            async with session.get(base + path) as resp:
                assert resp.status == status, (path, resp.status)
                if path == "/.proxy/api/config":
                    assert (await resp.json()) == {"client_id": str(fake.app_id)}
        async with session.post(base + "/.proxy/api/token", data="not json") as resp:
            assert resp.status == 400


async def test_hint_and_claim_from_a_page(fake: FakeDiscord,
                                          activity_bot: AmerikanerBot) -> None:
    """The page offers Hint and Claim the rest when the panel would, and both go through
    the table service as the panel's do: the hint for the member alone, the claim
    decided by the game (played out, or refused with its reason)."""
    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    async with aiohttp.ClientSession() as session:
        pages = await pages_of(fake, bot, session, NAMES[:4])
        by_seat = {table.seat_of(fake.user(p.user).id): p for p in pages}
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
        await driver.next_turn()
        page = by_seat[table.to_act]
        view = await page.view_at(table.version)
        count = len(page.frames)
        await page.send({"type": "hint", "version": table.version})
        answer = await page.wait_for(lambda f: f.get("type") in ("hint", "refused")
                                     and page.frames.index(f) >= count, "the hint")
        if table.switch("hints"):
            assert view["hint"] and answer["type"] == "hint" and answer["text"]
        else:
            assert "hint" not in view and answer["code"] == "hints_off"
        others = [p for p in pages if p is not page]
        assert all(f.get("type") != "hint" for p in others for f in p.frames)
        for _ in range(120):  # on until the member to act may claim
            await driver.next_turn()
            view = await by_seat[table.to_act].view_at(table.version)
            if "claim" in view:
                break
            await driver.step()
        else:
            raise AssertionError("no claim offered")
        page, version = by_seat[table.to_act], table.version
        count = len(page.frames)
        await page.send({"type": "claim", "version": version})
        outcome = await page.wait_for(
            lambda f: page.frames.index(f) >= count and (
                f.get("type") == "refused" or f.get("version", version) > version),
            "the claim's outcome")
        assert outcome["type"] == "view" or outcome["text"], outcome
        for page in pages:
            await page.close()


async def test_the_entry_point_opens_the_home_page(fake: FakeDiscord,
                                                   activity_bot: AmerikanerBot) -> None:
    """The bot's commands include the app's Entry Point command with APP_HANDLER (so the
    bot answers it: cogs/tables/entry_point.py); from the App Launcher it launches the
    Activity (LAUNCH_ACTIVITY) on its home page: the member's tables in this server, this
    channel's first, and how to open a table and play the deal of the day; from there,
    this channel's table. A page opened otherwise opens on the table, as before."""
    bot = activity_bot
    (entry,) = [c for c in fake.global_commands.values() if c["type"] == 4]
    assert entry["handler"] == 1 and entry["name"] == "launch"
    assert entry["description_localizations"]["no"] != entry["description"]
    here, other = fake.guild.text_channels[:2]
    await open_table(fake, ["carol", "alice", "bob", "dave"], {"preset": "amerikaner"},
                     channel=other)
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"}, channel=here)
    table = bot.tables.registry.in_channel(here.id)
    assert table is not None
    it = await fake.entry_point("alice", here)
    assert not isinstance(it, ActivityInstance) and it.response_type == 12
    (instance,) = fake.activity.instances.values()
    async with aiohttp.ClientSession() as session:
        base = f"http://127.0.0.1:{bot.activity_server.port}"  # type: ignore[union-attr]
        alice = Page(fake, base, "alice", instance.instance_id, session)
        await alice.authorize()
        await alice.connect()
        home = await alice.wait_for(lambda f: f.get("type") == "home", "the home page")
        assert home["panel"]["title"] == "Your games"
        rows = home["panel"]["fields"]
        assert [r["value"].split("\n")[0] for r in rows] == ["This channel", "Another channel"]
        assert "/amerikaner new" in home["begin"] and "/amerikaner daily" in home["begin"]
        assert home["open"] == "Open this channel's table"
        await alice.send({"type": "table"})
        view = await alice.view_at(table.version)
        assert view["seat"] == table.seat_of(fake.user("alice").id) and view["hand"]
        # bob opens the Activity from the table message, not the App Launcher: the table
        fake.activity.join(instance.instance_id, fake.user("bob").id)
        bob = Page(fake, base, "bob", instance.instance_id, session)
        await bob.authorize()
        await bob.connect()
        assert (await bob.view_at(table.version))["seat"] is not None
        # erin, at no table, launched from the App Launcher: where to begin
        await fake.entry_point("erin", here)
        erin = Page(fake, base, "erin", instance.instance_id, session)
        await erin.authorize()
        await erin.connect()
        home = await erin.wait_for(lambda f: f.get("type") == "home", "erin's home page")
        assert not home["panel"]["fields"]
        assert "/amerikaner new" in home["panel"]["description"]
        for page in (alice, bob, erin):
            await page.close()


async def test_a_member_away_takes_the_seat_back_from_the_page(
        fake: FakeDiscord, activity_bot: AmerikanerBot) -> None:
    """Away (the AI plays the seat), the member's page offers the panel's I'm back; it
    gives the seat back as `/back` does, and the channel's table message says so. Back
    from a seat that is not away is refused as `/back` is (not_away)."""
    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    async with aiohttp.ClientSession() as session:
        pages = await pages_of(fake, bot, session, NAMES[:4])
        # a member whose turn it is not: nobody plays meanwhile (the humans wait), so
        # only the way back changes the table message
        page = next(p for p in pages if table.seat_of(fake.user(p.user).id) != table.to_act)
        seat = table.seat_of(fake.user(page.user).id)
        assert seat is not None
        view = await page.view_at(table.version)
        assert "seat_back" not in view
        count = len(page.frames)
        await page.send({"type": "back", "version": table.version})
        refusal = await page.wait_for(lambda f: page.frames.index(f) >= count
                                      and f.get("type") == "refused", "the refusal")
        assert refusal["code"] == "not_away" and refusal["text"]
        away = await fake.slash(page.user, None, "amerikaner away")
        assert away.callback.ephemeral and table.seats[seat].away
        version = table.version
        view = await page.wait_for(lambda f: f.get("type") == "view"
                                   and "seat_back" in f, "the way back offered")
        assert view["seat_back"] == "I'm back"
        await fake.wait_until(lambda: shows_now(fake, table), 30,
                              "the table message showing the seat away")
        count = len(page.frames)
        await page.send({"type": "back", "version": view["version"]})
        await fake.wait_until(lambda: not table.seats[seat].away, 10, "the seat back")
        # (a frame equal to one before the away: looked for among the new ones only)
        await page.wait_for(lambda f: any(g is f for g in page.frames[count:])
                            and f.get("type") == "view" and "seat_back" not in f,
                            "the view of the seat back")
        # the table message as the table is now: the seat no longer away
        assert table.version == version  # (no move meanwhile)
        await fake.wait_until(lambda: shows_now(fake, table), 30,
                              "the table message showing the seat back")
        for page in pages:
            await page.close()
