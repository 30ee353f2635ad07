"""The Activity over days (issue 54), through the strict fake: from the home page a new
table opened as `/<game> new` opens one (and refused where the command is), "While you
were away" on a page opened after others played, and the deal of the day played in the
page, with the panel's one try. (The same in a browser: test_activity_home_browser.py.)

Discord's side, each rule where the fake keeps it: the Entry Point command answered with
LAUNCH_ACTIVITY (type 12) "Launch the Activity associated with the app"
(https://discord.com/developers/docs/interactions/receiving-and-responding, interaction
callback type), and an interaction's `app_permissions`, "Bitwise set of permissions the
app or bot has within the channel the interaction was sent from"
(https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object):
what the lobby opened from the page is checked against, as the command's is."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import AmerikanerBot
from bot.tables.daily_deal import DAILY, GRACE
from bot.tables.table import LOBBY
from cogs.tables.views import table_panel
from tests.e2e.activity_page import Page, check_frame
from tests.e2e.driver import NAMES, ButtonDriver, LeakChecker, open_table
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord
from tests.fake_discord.permissions import EMBED_LINKS

pytestmark = pytest.mark.usefixtures("few_daily_worlds")

DAY = 24 * 3600


@pytest.fixture
async def activity_bot(fake: FakeDiscord, leaks: LeakChecker, error_logs: Any,
                       answered: None, tmp_path: Path) -> AsyncIterator[AmerikanerBot]:
    fake.activity.enabled = True
    async with bot_running(fake, tmp_path / "db.sqlite3",
                           activity_client_secret=fake.activity.client_secret,
                           activity_port=0) as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(41)
        yield bot


def base_of(bot: AmerikanerBot) -> str:
    assert bot.activity_server is not None
    return f"http://127.0.0.1:{bot.activity_server.port}"


async def launched(fake: FakeDiscord, bot: AmerikanerBot, session: aiohttp.ClientSession,
                   name: str, channel: Any) -> Page:
    """The member opens the app from the App Launcher in `channel`: their page, on the
    home page."""
    it = await fake.entry_point(name, channel)
    assert getattr(it, "response_type", None) == 12
    instance = next(i for i in fake.activity.instances.values()
                    if i.channel_id == channel.id)
    fake.activity.join(instance.instance_id, fake.user(name).id)
    page = Page(fake, base_of(bot), name, instance.instance_id, session)
    await page.authorize()
    await page.connect()
    await page.wait_for(lambda f: f.get("type") == "home", f"{name}'s home page")
    return page


async def opened(fake: FakeDiscord, bot: AmerikanerBot, session: aiohttp.ClientSession,
                 name: str, channel: Any) -> Page:
    """The member opens the Activity in `channel` otherwise (the table message's button):
    the channel's table."""
    instance = next((i for i in fake.activity.instances.values()
                     if i.channel_id == channel.id), None)
    if instance is None:
        instance = fake.activity.launch(channel.id, fake.guild.id, fake.user(name).id)
    fake.activity.join(instance.instance_id, fake.user(name).id)
    page = Page(fake, base_of(bot), name, instance.instance_id, session)
    await page.authorize()
    await page.connect()
    return page


def home_of(page: Page) -> dict[str, Any]:
    return next(f for f in reversed(page.frames) if f.get("type") == "home")


async def test_a_new_table_from_the_home_page(fake: FakeDiscord,
                                              activity_bot: AmerikanerBot) -> None:
    """Alice, in a channel with no table, is offered each game's "New table"; pressing
    Amerikaner's opens a lobby there hosted by her, posted in the channel as the
    command's lobby is, and her page follows it. Bob's home page in that channel then
    offers the table, not a new one, and a new table pressed anyway (a page drawn
    before) is refused with the service's code, as the command is."""
    bot = activity_bot
    channel = fake.guild.text_channels[1]
    async with aiohttp.ClientSession() as session:
        alice = await launched(fake, bot, session, "alice", channel)
        home = home_of(alice)
        assert "open" not in home
        assert [n["game"] for n in home["new"]] == list(bot.tables.registry.games)
        assert home["new"][0]["label"].startswith("New table: ")
        posted = len(fake.messages(channel))
        await alice.send({"type": "new", "game": "amerikaner"})
        lobby = await alice.wait_for(lambda f: f.get("type") == "view", "the lobby")
        table = bot.tables.registry.in_channel(channel.id)
        assert table is not None and table.stage == LOBBY
        assert table.host_id == fake.user("alice").id and lobby["table_id"] == table.id
        assert lobby["stage"] == LOBBY and lobby["seat"] == 0
        # the lobby message, as the command posts it, with its join and start buttons
        messages = fake.messages(channel)
        assert len(messages) == posted + 1
        assert messages[-1].embeds[0]["description"] == table_panel(table).description
        # bob: this channel's table to open, no new one; a forged "new" is refused
        bob = await launched(fake, bot, session, "bob", channel)
        home = home_of(bob)
        assert "open" in home and "new" not in home
        before = len(bob.frames)
        await bob.send({"type": "new", "game": "american"})
        refusal = await bob.refusal(before)
        assert refusal["code"] == "channel_busy" and refusal["text"]
        # an unknown game, or a new table from a page not on the home page: bad frames
        before = len(alice.frames)
        await alice.send({"type": "new", "game": "amerikaner"})
        assert (await alice.refusal(before))["code"] == "bad_frame"
        for page in (alice, bob):
            await page.close()


async def test_a_new_table_is_refused_where_the_bot_may_not_show_it(
        fake: FakeDiscord, activity_bot: AmerikanerBot) -> None:
    """The bot may not embed in the channel (its permissions as Discord gave them with
    the launch): the page's new table is refused as `/<game> new` is there,
    naming what is missing, and nothing is opened."""
    bot = activity_bot
    channel = fake.guild.text_channels[1]
    await fake.set_bot_permissions(channel, deny=EMBED_LINKS)
    async with aiohttp.ClientSession() as session:
        alice = await launched(fake, bot, session, "alice", channel)
        command = await fake.slash("alice", channel, "amerikaner new", {})
        before = len(alice.frames)
        await alice.send({"type": "new", "game": "amerikaner"})
        refusal = await alice.refusal(before)
        assert refusal["code"] == "bot_missing"
        assert refusal["text"] == command.content
        assert bot.tables.registry.in_channel(channel.id) is None
        await alice.close()


async def test_while_you_were_away_on_a_page_opened_a_day_later(
        fake: FakeDiscord, activity_bot: AmerikanerBot) -> None:
    """Alice moves from her page and closes it; the three others play from their panels
    and a day passes; her page opened again starts with "While you were away", naming
    their moves as her hand panel's recap does, and opened again right after it tells
    nothing new."""
    bot = activity_bot
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=41)
    alice_id = fake.user("alice").id
    async with aiohttp.ClientSession() as session:
        # until it is alice's turn, from the panels
        while True:
            turn = await driver.next_turn()
            assert turn is not None
            if table.seats[turn[0]].user_id == alice_id:
                break
            await driver.step()
        alice = await opened(fake, bot, session, "alice", fake.channel)
        first = await alice.view_at(table.version)
        seat = table.seat_of(alice_id)
        _, action = driver.decide(seat)
        record = dict(table.kind.action_to_json(action))
        record.pop("seat")
        before = table.version
        await alice.send({"type": "act", "version": table.version, "action": record})
        await fake.wait_until(lambda: table.version > before, 20, "alice's move")
        await alice.view_at(table.version)
        await alice.close()
        assert "recap" not in first
        others = []
        while len(others) < 3:
            turn = await driver.next_turn()
            assert turn is not None and table.seats[turn[0]].user_id != alice_id
            others.append(table.seats[turn[0]].name)
            await driver.step()
        fake.clock.advance(DAY)
        again = await opened(fake, bot, session, "alice", fake.channel)
        view = await again.wait_for(lambda f: f.get("type") == "view", "the first view")
        assert view["version"] == table.version
        recap = view.get("recap")
        assert recap is not None and recap["title"] == "While you were away"
        told = "\n".join(recap["lines"])
        assert "Since your last move" in told
        for name in others:
            assert name in told
        assert not check_frame(table, alice_id, view)
        await again.close()
        # right after: nothing new
        third = await opened(fake, bot, session, "alice", fake.channel)
        view = await third.wait_for(lambda f: f.get("type") == "view", "the first view")
        assert "recap" not in view
        await third.close()


async def test_the_deal_of_the_day_in_the_page(fake: FakeDiscord,
                                               activity_bot: AmerikanerBot) -> None:
    """Alice plays today's Amerikaner deal in the page from its home page: her seat of
    her own daily table, AI in the others, each move through the daily service; a part
    played in the page is the play her panel takes up (the same play); at the end, her
    result and the day's board; a second try is refused with the panel's code; a day
    later the home page offers the new day's deal."""
    bot = activity_bot
    daily = bot.tables.daily
    alice_id = fake.user("alice").id
    async with aiohttp.ClientSession() as session:
        alice = await launched(fake, bot, session, "alice", fake.channel)
        (offer,) = [d for d in home_of(alice)["daily"] if d["game"] == "amerikaner"]
        day = offer["day"]
        assert "label" in offer and "note" not in offer
        await alice.send({"type": "daily", "game": "amerikaner"})
        view = await alice.wait_for(lambda f: f.get("type") == "view", "the daily")
        assert view["daily"]["day"] == day and view["seat"] is not None
        # the day's one public message, owed from the first play on, as the panel's
        place = await bot.tables.shared.store.daily_day(fake.guild.id, "amerikaner", day)
        assert place is not None and place.message_id is not None
        assert place.message_id in {m.id for m in fake.messages(place.channel_id)}
        moves = 0
        while "result" not in view:
            state = await daily.state(fake.guild.id, "amerikaner", alice_id)
            assert state is not None and not state.finished
            assert view["version"] == state.version  # the page shows the stored play
            table = daily.table(state)
            assert not check_frame(table, alice_id, view)
            seat = state.deal.seat
            action = state.kind.choose_action(state.game, seat, "easy", random.Random(moves))
            record = dict(state.kind.action_to_json(action))
            record.pop("seat")
            count = len(alice.frames)
            await alice.send({"type": "act", "version": view["version"], "action": record})
            view = await alice.wait_for(
                lambda f, c=count: f.get("type") in ("view", "refused")
                and alice.frames.index(f) >= c, "the daily's next view")
            assert view["type"] == "view", view
            moves += 1
            if moves == 1:  # her panel takes up the play the page began: the same one
                panel = await fake.slash("alice", fake.channel, "amerikaner daily", {})
                assert panel.callback.ephemeral and panel.callback.data.get("embeds")
                shown = await daily.state(fake.guild.id, "amerikaner", alice_id)
                assert shown is not None and shown.version == view["version"]
        state = await daily.state(fake.guild.id, "amerikaner", alice_id)
        assert state is not None and state.finished and state.play.score is not None
        board = await daily.board(fake.guild.id, "amerikaner", day)
        assert [row.user_id for row in board] == [alice_id]
        assert view["result"]["title"]
        # a second try: refused, as the panel's (one try a day)
        before = len(alice.frames)
        await alice.send({"type": "daily", "game": "amerikaner"})
        refusal = await alice.refusal(before)
        assert refusal["code"] == DAILY
        command = await fake.slash("alice", fake.channel, "amerikaner daily", {})
        assert command.callback.ephemeral  # the panel shows the result, one try
        # home: played today; a day later the new day's deal is offered
        await alice.send({"type": "home"})
        home = await alice.wait_for(lambda f: f.get("type") == "home"
                                    and alice.frames.index(f) > before, "home again")
        (offer,) = [d for d in home["daily"] if d["game"] == "amerikaner"]
        assert offer["day"] == day and "note" in offer and "label" not in offer
        fake.clock.advance(DAY)
        await alice.send({"type": "home"})
        count = len(alice.frames)
        home = await alice.wait_for(lambda f: f.get("type") == "home"
                                    and alice.frames.index(f) >= count, "home a day later")
        (offer,) = [d for d in home["daily"] if d["game"] == "amerikaner"]
        assert offer["day"] != day and "label" in offer
        await alice.close()


async def test_a_daily_begun_in_the_page_is_closed_after_its_day(
        fake: FakeDiscord, activity_bot: AmerikanerBot) -> None:
    """Bob begins today's American deal in the page and leaves it unfinished; past the
    day's end and its grace his next move is refused as the panel's is (the play is
    scored as abandoned, not continued), and his panel says the same."""
    bot = activity_bot
    daily = bot.tables.daily
    bob_id = fake.user("bob").id
    async with aiohttp.ClientSession() as session:
        bob = await launched(fake, bot, session, "bob", fake.channel)
        await bob.send({"type": "daily", "game": "american"})
        view = await bob.wait_for(lambda f: f.get("type") == "view", "the daily")
        assert "hint" not in view and "claim" not in view  # as the daily's panel
        state = await daily.state(fake.guild.id, "american", bob_id)
        assert state is not None and not state.finished
        fake.clock.advance(state.deal.ends_at + GRACE - fake.clock.time() + 1)
        seat = state.deal.seat
        action = state.kind.legal_actions(state.game, seat)[0]
        record = dict(state.kind.action_to_json(action))
        record.pop("seat")
        before = len(bob.frames)
        await bob.send({"type": "act", "version": view["version"], "action": record})
        refusal = await bob.refusal(before)
        assert refusal["code"] == DAILY and refusal["text"]
        state = await daily.state(fake.guild.id, "american", bob_id, state.deal.day)
        assert state is not None and state.abandoned
        await bob.close()
