"""Five days of casual games (issue 35), through the strict fake Discord on its clock:
an Amerikaner table with a 1-day turn timer and an American table, in two channels,
moves 10 minutes to 3 hours apart, bob's turn pings by direct message, alice's DMs
closed (her pings come in the channel), a restart in the middle, one turn that runs out;
and (the second test) members who time out, are told where they read, and come back
through /games' Back button, and a table whose humans have all gone away, which waits.

What a channel and an inbox hold over days: per table the live table message, one
summary per finished hand and the final standings, and nothing stale (every older copy
of the table message and every spent ping deleted: the bot's own messages, which it may
delete without Manage Messages, https://discord.com/developers/docs/resources/message#delete-message,
and the strict fake holds it to that); each human turn reached its player exactly once
(a ping or a DM: a member who answered ten minutes later, whose panel is still open, is
pinged too, since Discord notifies of new messages and never of edits); each member has
at most one live turn DM per table, and bob's DM tells him when the AI played his turn."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

from bot.app import AmerikanerBot
from bot.discord.budget import TIDY_PATIENCE
from bot.render import back_text
from bot.render.text import timeout_seat_text
from bot.tables.table import PAUSE_ABSENT, Table
from cogs.tables.pings import LATE_TURN_SECONDS
from tests.e2e.american_driver import AmericanButtonDriver, open_american
from tests.e2e.driver import BaseDriver, ButtonDriver, choose_ai
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, StoredMessage

MINUTE = 60.0
HOUR = 3600.0
DAY = 24 * HOUR
# The minutes within which a member who acted is followed in their open panel and not
# pinged (cogs/tables/panels.py, ACTIVE_SECONDS).
ACTIVE = 5 * MINUTE
# How long the players think between their ping and their move: ten minutes (their
# panel of the last move is still open: its token lasts 15) to three hours.
THINKING = (10 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR)


def _hand_of(message: StoredMessage, table: Table) -> bool:
    return any(b.get("custom_id") == f"amk:{table.id}:hand" and not b.get("disabled")
               for b in message.buttons())


async def assert_quiet(fake: FakeDiscord, table: Table, hands: int) -> None:
    """A finished table's channel holds one summary per hand and the final standings
    (the last table message shows the last hand's summary, or was deleted when it was
    posted apart), and nothing else: no stale copy of the table, no spent ping, no
    countdown, no "⏰ time ran out" notice of a turn long passed (issue 35). The
    deletes of the last spent messages go at the bot's pace: waited for, not raced."""
    def quiet() -> bool:
        return len(fake.messages(table.channel_id)) == hands + 1

    # A delete waits while table edits want the budget, up to TIDY_PATIENCE of real
    # time (bot/discord/budget.py): the bound leaves it that and a minute more.
    with contextlib.suppress(AssertionError):  # the assertions below tell what stayed
        await fake.wait_until(quiet, TIDY_PATIENCE + 60, "a quiet channel")
    live = fake.messages(table.channel_id)
    titles = [m.embeds[0].get("title", "") if m.embeds else "" for m in live]
    finals = [t for t in titles if t.startswith("Game over")]
    summaries = [t for t in titles if t.startswith(("Hand ", "Deal "))]
    assert len(finals) == 1 and len(summaries) == hands, titles
    assert len(live) == hands + 1, [(m.content, t) for m, t in zip(live, titles,
                                                                   strict=True)]
    assert not any("<t:" in m.text() for m in live)
    assert not any((m.content or "").startswith("⏰") for m in live)


class Inbox:
    """Every turn message the bot ever sent a member about a table (deleted ones too):
    in the table's channel naming them, or by DM; reminders (⏳) apart."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def sent(self, name: str, table: Table, live: bool = False) -> list[StoredMessage]:
        mention = f"<@{self.fake.user(name).id}>"
        found = [m for m in self.fake.messages(table.channel_id, deleted=not live)
                 if mention in (m.content or "") and _hand_of(m, table)]
        found += [m for m in self.fake.dm_messages(name, deleted=not live)
                  if m.visible_to is None  # not their hand panels, opened there
                  and (_hand_of(m, table) or f"<#{table.channel_id}>" in (m.content or ""))]
        return sorted(found, key=lambda m: m.id)

    def turns(self, name: str, table: Table) -> list[StoredMessage]:
        """The turn pings (no reminders, no notices)."""
        return [m for m in self.sent(name, table)
                if _hand_of(m, table) and "⏳" not in (m.content or "")]

    def live_dms(self, name: str, table: Table) -> list[StoredMessage]:
        return [m for m in self.fake.dm_messages(name)
                if m.visible_to is None and f"<#{table.channel_id}>" in (m.content or "")]


async def test_five_days_two_games_quiet_channels(fake: FakeDiscord, tmp_path: Path,
                                                  error_logs: Any) -> None:
    db = tmp_path / "db.sqlite3"
    inbox = Inbox(fake)
    rng = random.Random(35)
    second = fake.guild.text_channels[1]
    start = fake.clock.time()
    bot: AmerikanerBot
    drivers: list[BaseDriver] = []
    seen: dict[tuple[int, str], int] = {}  # turn pings had by the member's last move
    moved: dict[tuple[int, str], float] = {}  # when they last moved (the fake's clock)
    again: dict[tuple[int, str], bool] = {}  # their move gave them the next turn too
    began: dict[int, float] = {}  # table -> when its turn to play began
    ten_minutes = 0  # turns pinged although the member's panel was still open

    async def human_turn(driver: BaseDriver, thinking: float) -> bool:
        """The human to act at the driver's table: exactly one turn ping since their last
        move (none if their own move gave them the turn: their panel shows it), then
        `thinking`, then their move from the ping (or the panel)."""
        nonlocal ten_minutes
        turn = await driver.next_turn()
        if turn is None:
            return False
        seat, name = turn
        table = driver.table
        key = (table.id, name)
        hands: dict[str, StoredMessage] = driver.hands  # type: ignore[attr-defined]
        if again.get(key):
            # Their own move gave them this turn: their panel shows it (the answer, or
            # edited since), and they need no ping; one at most, if the bot could not
            # tell (its follow-up came after their minutes of activity).
            if fake.clock.time() - moved[key] > LATE_TURN_SECONDS:
                # Left unplayed since (the other table's turns took the clock on):
                # pinged after the short delay, like any turn shown without a ping
                # (issue 52), and waited for here, not raced.
                await fake.wait_until(
                    lambda: len(inbox.turns(name, table)) > seen.get(key, 0), 10,
                    f"{name}'s late turn ping")
            pings = inbox.turns(name, table)[seen.get(key, 0):]
            assert len(pings) <= 1, [m.content for m in pings]
            fake.clock.advance(MINUTE)
            if pings and not fake.message(pings[0]).deleted:
                it = await fake.click(name, pings[0], f"amk:{table.id}:hand")
                assert it.message is not None
                panel = fake.message(it.message)
            else:
                assert "Your turn" in fake.message(hands[name]).text()
                panel = fake.message(hands[name])
        else:
            await fake.wait_until(lambda: len(inbox.turns(name, table)) > seen.get(key, 0),
                                  10, f"{name}'s turn ping at {table.kind.name}")
            fresh = inbox.turns(name, table)[seen.get(key, 0):]
            assert len(fresh) == 1, [m.content for m in fresh]  # exactly one
            if began.get(table.id, 0) - moved.get(key, -DAY) < 14 * MINUTE:
                ten_minutes += 1  # their panel was open, and they were pinged
            fake.clock.advance(thinking)
            ping = fake.message(fresh[0])
            assert not ping.deleted  # the turn's ping lives while the turn does
            it = await fake.click(name, ping, f"amk:{table.id}:hand")
            assert it.message is not None and it.callback.ephemeral
            panel = fake.message(it.message)
        await driver.act(name, seat, panel)  # type: ignore[attr-defined]
        hands[name] = panel
        moved[key] = fake.clock.time()
        seen[key] = len(inbox.turns(name, table))
        await driver.wait_for_humans()
        began[table.id] = fake.clock.time()
        again[key] = driver.whose_turn() == (seat, name)
        following = driver.whose_turn()
        # The next turn is followed (a ping, or this member's open panel) before the
        # clock moves on at the other table: the bot's follow-up, not raced.
        if again[key]:
            await fake.wait_until(
                lambda: "Your turn" in fake.message(panel).text()
                or len(inbox.turns(name, table)) > seen[key], 10,
                f"{name}'s panel to follow the turn")
        elif following is not None:
            nxt = following[1]
            await fake.wait_until(
                lambda: len(inbox.turns(nxt, table)) > seen.get((table.id, nxt), 0), 10,
                f"{nxt}'s turn ping")
        return True

    async def recorded(bot: AmerikanerBot) -> bool:
        """Every live turn message of the bot's in the channels and inboxes is in its
        store (the member setting that says which to delete)."""
        for name in ("alice", "bob"):
            settings = await bot.store.get_member_settings(fake.guild.id,
                                                           fake.user(name).id)
            kept = {int(e[1]) for key, value in settings.items()
                    if key.startswith("live_ping_") for e in value}
            for table in (d.table for d in drivers):
                if any(m.id not in kept for m in inbox.sent(name, table, live=True)):
                    return False
        return True

    async with bot_running(fake, db) as bot:
        bot.tables.shared.rng = random.Random(35)
        for name in ("alice", "bob"):
            await fake.slash(name, None, "notify", {"where": "dm"})
        fake.close_dms("alice")
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 3, "preset": "amerikaner", "target": 20,
                                "turn_timer": "1 day"})
        lobby = new.message
        assert lobby is not None
        await fake.click_label("bob", fake.message(lobby), "Join")
        await choose_ai(fake, "alice", fake.message(lobby), "fill")
        await fake.click_label("alice", fake.message(lobby), "Start")
        await open_american(fake, ["bob", "alice"], {"turn_timer": "7 days"}, channel=second)
        amerikaner = ButtonDriver(fake, lambda: bot, fake.channel, seed=5)
        american = AmericanButtonDriver(fake, lambda: bot, second, seed=6)
        drivers = [amerikaner, american]
        timed = amerikaner.table
        assert timed.turn_timer == DAY

        async def play(moves: int) -> None:
            for _ in range(moves):
                for driver in drivers:
                    await human_turn(driver, rng.choice(THINKING))

        await play(10)
        # The case of issue 35: a member answers ten minutes after the other's move, whose
        # panel is still open (its token lasts 15 minutes): the other is pinged anyway.
        for _ in range(40):
            if ten_minutes:
                break
            await human_turn(amerikaner, 10 * MINUTE)
        assert ten_minutes
        # bob lets a turn at the timed table run out: reminders, then the AI plays it;
        # his DM of the turn is replaced each time (one live DM), the last one saying so.
        while True:
            turn = await amerikaner.next_turn()
            assert turn is not None
            if turn[1] == "bob":
                break
            await human_turn(amerikaner, HOUR)
        key = (timed.id, "bob")
        await fake.wait_until(lambda: len(inbox.turns("bob", timed)) > seen.get(key, 0),
                              10, "bob's turn DM")
        deadline = timed.turn_deadline
        assert deadline is not None
        version = timed.version
        for point in (deadline - DAY / 2 + MINUTE, deadline - HOUR + MINUTE):
            sent = len(inbox.sent("bob", timed))
            fake.clock.advance(point - fake.clock.time())
            await fake.wait_until(lambda s=sent: len(inbox.sent("bob", timed)) > s, 10,
                                  "bob's reminder")
            # The reminder takes the place of the turn's DM (deleted at the bot's pace).
            await fake.wait_until(lambda: len(inbox.live_dms("bob", timed)) == 1,
                                  TIDY_PATIENCE + 60, "one live DM")
            assert "⏳" in inbox.live_dms("bob", timed)[0].content
        fake.clock.advance(deadline - fake.clock.time() + 1)
        await fake.wait_until(lambda: timed.version > version, 10, "the timeout")
        await fake.wait_until(lambda: any("time ran out" in (m.content or "")
                                          for m in inbox.live_dms("bob", timed)),
                              10, "bob's DM of the timeout")
        await amerikaner.wait_for_humans()
        seen[key], again[key] = len(inbox.turns("bob", timed)), False
        # The reminder it replaces is deleted at the bot's pace (a delete may wait
        # TIDY_PATIENCE behind edits): a loaded run saw both still there at this point.
        await fake.wait_until(lambda: len(inbox.live_dms("bob", timed)) == 1,
                              TIDY_PATIENCE + 60, "one live DM after the timeout")
        (told,) = inbox.live_dms("bob", timed)
        assert "the AI played" in told.content
        await play(8)
        for driver in drivers:  # each turn's ping is out (and kept) before the stop
            turn = await driver.next_turn()
            assert turn is not None
            key = (driver.table.id, turn[1])
            if not again.get(key):
                await fake.wait_until(
                    lambda k=key, n=turn[1], t=driver.table:
                    len(inbox.turns(n, t)) > seen.get(k, 0), 10, "the ping")
            # ... and stored: the bot's record of each live ping, which the next process
            # deletes. (A ping sent in the moment before a stop is not recorded: the
            # store closes first. That window is the bot's, not waited away here.)
            for _ in range(200):
                if await recorded(bot):
                    break
                await asyncio.sleep(0.05)
            assert await recorded(bot)
    # A restart in the middle: the pings and DMs of before are still replaced and deleted.
    async with bot_running(fake, db) as bot:
        for driver in drivers:
            driver.get_bot = lambda: bot
        for _ in range(400):
            if not any([await human_turn(driver, rng.choice(THINKING))
                        for driver in drivers]):
                break
            # A spent DM's delete waits at the bot's pace like a spent ping's (up to
            # TIDY_PATIENCE of real time behind edits): a loaded machine (load 9, two
            # workers) saw one still there after 10 s.
            for name in ("alice", "bob"):
                for table in (d.table for d in drivers):
                    await fake.wait_until(
                        lambda n=name, t=table: len(inbox.live_dms(n, t)) <= 1,
                        TIDY_PATIENCE + 60, "at most one live DM per table")
        tables = [driver.table for driver in drivers]
        assert all(t.stage == "finished" for t in tables), [t.stage for t in tables]
        for table in tables:
            await fake.wait_until(lambda t=table: any(
                m.embeds and m.embeds[0].get("title", "").startswith("Game over")
                for m in fake.messages(t.channel_id)), 30, "the final standings")
        # Checked while the bot runs: the deletes of the last spent messages are its
        # work (a stop cuts them short), waited for, not raced.
        for table in tables:
            game = table.game
            assert game is not None and game.finished
            await assert_quiet(fake, table, len(getattr(game, "hands", None) or game.deals))
            # bob's inbox: one DM of this table, how it ended (the standings in it).
            await fake.wait_until(lambda t=table: any(
                "is over" in m.content for m in inbox.live_dms("bob", t)), 10,
                "bob's last DM")
            (last,) = inbox.live_dms("bob", table)
            assert "is over" in last.content and last.embeds
            assert not fake.dm_messages("alice")  # her DMs are closed: all in the channel
    assert fake.clock.time() - start >= 5 * DAY
    assert ten_minutes >= 1  # the case of issue 35: answered ten minutes later
    # Every copy of a table message but the live one was deleted, and every spent ping.
    assert fake.deletes > 0


async def _back_from_games(fake: FakeDiscord, name: str, channel: Any, table: Table
                           ) -> None:
    """`name` comes back to `table` from another channel: /games lists the seat the AI
    covers with its "I'm back" button, and the click gives the seat back."""
    listed = await fake.slash(name, channel, "games")
    assert listed.message is not None, listed.callback.data
    back = next(b for b in listed.message.buttons()
                if b.get("custom_id") == f"amk:{table.id}:back:list")
    it = await fake.click(name, listed.message, back["custom_id"])
    assert it.callback.ephemeral and it.content == back_text(), it.content


async def test_five_days_absent_members_told_paused_and_back(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any) -> None:
    """Five days of both games with absent members (issue 35, "Done when"): an
    Amerikaner table with a 1-day timer whose end gives the seat to the AI, and an
    American table beside it, moves hours apart. bob (turn pings by DM) lets his turn
    run out: he is told by DM. alice (DMs closed) lets hers run out: she is told in the
    channel, by a mention. With no human present the table waits three days (no
    AI-only finish), until bob, from the other table's channel, comes back through
    /games' Back button. Both games are played to their end, and each channel holds
    per table only one summary per hand and the final standings: the "⏰ time ran out"
    notices went once spent, as the pings did."""
    db = tmp_path / "db.sqlite3"
    rng = random.Random(37)
    second = fake.guild.text_channels[1]
    alice, bob = fake.user("alice").id, fake.user("bob").id
    start = fake.clock.time()
    async with bot_running(fake, db) as bot:
        bot.tables.shared.rng = random.Random(37)
        await fake.slash("bob", None, "notify", {"where": "dm"})
        fake.close_dms("alice")
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 3, "preset": "amerikaner", "target": 10,
                                "turn_timer": "1 day", "on_timeout": "seat"})
        lobby = new.message
        assert lobby is not None, new.callback.data
        await fake.click_label("bob", fake.message(lobby), "Join")
        await choose_ai(fake, "alice", fake.message(lobby), "fill")
        await fake.click_label("alice", fake.message(lobby), "Start")
        await open_american(fake, ["bob", "alice"], {"turn_timer": "7 days"}, channel=second)
        amerikaner = ButtonDriver(fake, lambda: bot, fake.channel, seed=7)
        american = AmericanButtonDriver(fake, lambda: bot, second, seed=8)
        timed = amerikaner.table
        assert timed.turn_timer == DAY

        async def step(driver: BaseDriver) -> bool:
            """One human move, one to three hours after the last."""
            fake.clock.advance(rng.choice((HOUR, 2 * HOUR, 3 * HOUR)))
            return await driver.step()

        async def run_out(name: str) -> int:
            """Play the timed table until it is `name`'s turn, then let it run out:
            the AI takes the seat. The seat."""
            for _ in range(200):
                turn = await amerikaner.next_turn()
                assert turn is not None
                if turn[1] == name:
                    break
                assert await step(amerikaner)
            assert turn[1] == name
            assert await step(american)  # its turn starts afresh (its timer: 7 days)
            deadline = timed.turn_deadline
            assert deadline is not None
            fake.clock.advance(deadline - fake.clock.time() + 1)
            await fake.wait_until(lambda: timed.seats[turn[0]].away, 10, f"{name} away")
            return turn[0]

        for _ in range(4):
            for driver in (amerikaner, american):
                assert await step(driver)
        # bob's time runs out: he is told where he reads, by DM.
        await run_out("bob")
        await fake.wait_until(lambda: any(
            "Your time ran out" in (m.content or "") and "until you come back" in m.content
            for m in fake.dm_messages("bob")), 10, "bob told by DM")
        assert not timed.paused  # alice is still here
        # alice's time runs out: she is told in the channel (DMs closed), by a mention.
        await run_out("alice")
        told = timeout_seat_text(f"<@{alice}>", "").split(":")[0]
        await fake.wait_until(lambda: any(told in (m.content or "") and alice in p.users
                                          for m, p in fake.pings()), 10, "alice told")
        # No human present: the table waits, three days, and no AI plays on alone.
        await fake.wait_until(lambda: timed.paused == {PAUSE_ABSENT}, 10, "the pause")
        version = timed.version
        for _ in range(6):
            fake.clock.advance(12 * HOUR)
            await asyncio.sleep(0.05)
        assert timed.version == version and timed.paused == {PAUSE_ABSENT}
        assert timed.stage == "playing"
        # bob comes back from the other table's channel, through /games' Back button.
        await _back_from_games(fake, "bob", second, timed)
        assert not timed.paused
        assert not timed.seats[timed.seat_of(bob) or 0].away
        # Both games to their end, moves hours apart (alice's seat stays the AI's).
        for _ in range(400):
            if not any([await step(driver) for driver in (amerikaner, american)]):
                break
        tables = [amerikaner.table, american.table]
        assert all(t.stage == "finished" for t in tables), [t.stage for t in tables]
        for table in tables:
            # The moves came faster than the channels' rate limit (5 posts in 5 s):
            # the bot's backlog of posts and deletes drains at Discord's pace.
            await fake.wait_until(lambda t=table: any(
                m.embeds and m.embeds[0].get("title", "").startswith("Game over")
                for m in fake.messages(t.channel_id)), 60, "the final standings")
        for table in tables:  # while the bot runs: the last deletes are its work
            game = table.game
            assert game is not None and game.finished
            await assert_quiet(fake, table, len(getattr(game, "hands", None) or game.deals))
    assert fake.clock.time() - start >= 5 * DAY
    # The end reached both members, wherever they were.
    final = next(m for m in fake.messages(fake.channel.id)
                 if m.embeds and m.embeds[0].get("title", "").startswith("Game over"))
    assert {alice, bob} <= final.pings.users
