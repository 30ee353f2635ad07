"""The deal of the day, sealed and fair (issue 50 items 3 and 4, issue 52 items 4 and 6),
through the strict fake: a day's records stay closed to a member whose play of it is
unfinished, a play cannot go on past its day's end and is then scored, an abandoned
play counts in the ladders, a day's rules stay those of its first play, a time-zone
change opens no second day, a member whose DMs are closed gets the panel every time,
the result can be reopened all day, and a day's message closes when its day ends."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.tables.daily import DailyService
from bot.tables.days import day_of
from tests.e2e.harness import bot_running
from tests.e2e.test_daily import AmericanDailyDriver, DailyDriver, _open, reopened
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.layout import USABLE_HEIGHT
from tests.fake_discord.layout import layout as phone_layout

# The daily's AI on 4 worlds, not 24 (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("few_daily_worlds")

GAME = "amerikaner"


async def commands_done(fake: FakeDiscord) -> None:
    """Until every slash command the bot took has run to its end (what it does after
    its answer too): discord.py runs each in a task named "CommandTree-invoker"
    (discord/app_commands/tree.py), so the bot is not stopped under one."""
    await fake.wait_until(lambda: not any(
        t.get_name() == "CommandTree-invoker" and not t.done()
        for t in asyncio.all_tasks()), 30, "the commands to end")


async def test_a_member_with_closed_dms_gets_the_panel_here_every_time(
        fake: FakeDiscord, error_logs: Any, tmp_path: Path) -> None:
    """Discord answers every message to a member who closed their DMs from the server
    403 50007 "Cannot send messages to this user" (the fake does:
    tests/fake_discord/server.py, close_dms); after the first, the bot sends no more
    requests to that DM channel for a while (bot/discord/access.py: each would be an
    invalid request), and the daily shows its panel in the channel then too."""
    fake.close_dms("alice")
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e"):
        for _ in range(2):  # noqa: B007
            it = await fake.slash("alice", None, f"{GAME} daily", {"dm": True})
            assert it.callback.ephemeral and it.message is not None
            shown = it.message.id
            # The AI's first answers may take their time (a deferred answer, then edited).
            panel = await fake.wait_until(
                lambda s=shown: (m := fake.message(s)).components and m, 30, "the panel")
            assert "would not let me send you a direct message" in panel.text()
            assert panel.embeds and panel.visible_to == fake.user("alice").id
        await commands_done(fake)
        assert fake.dm_messages("alice") == []
        # One refused request: the first; the second was not sent.
        assert [e[1]["code"] for e in fake.client_errors] == [50007]


DAY = 86_400.0
HOUR = 3600.0


def to_hour(fake: FakeDiscord, hour: float) -> None:
    """The fake's clock moved forward to the next `hour` o'clock UTC (the servers of
    these tests keep UTC unless they set a time zone): a day's start or end, whatever
    the date the clock began at."""
    now = fake.clock.time()
    fake.clock.advance((hour * HOUR - now % DAY) % DAY or DAY)


def _public_daily(fake: FakeDiscord) -> list[StoredMessage]:
    return [m for m in fake.messages(fake.channel) if m.visible_to is None
            and any("Deal of the day" in (e.get("title") or "") for e in m.embeds)]


def service(bot: Any) -> DailyService:
    return bot.get_cog("Tables").daily.daily_service


async def test_the_late_peek_is_closed_and_the_abandoned_play_scored(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    """Bob begins the day's deal and stops. After midnight, while his play may still be
    finished (the grace), the day's records stay closed to him (not to Carol, who did
    not play that day); once the grace is past his old panel is refused with a
    sentence, his play is scored as abandoned (below Alice's), counted in the ladders
    and his stats, and the records open to him."""
    to_hour(fake, 8)
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        alice = DailyDriver(fake, lambda: bot, fake.channel, 3, "alice")
        await alice.play(await _open(fake, "alice"))
        day = await service(bot).today(fake.guild.id, GAME)
        done = await bot.store.daily_play(fake.guild.id, GAME, day, fake.user("alice").id)
        assert done is not None and done.game_id is not None
        bob = DailyDriver(fake, lambda: bot, fake.channel, 4, "bob")
        panel = await bob.play(await _open(fake, "bob"), moves=1)
        assert not bob.finished

        to_hour(fake, 0.25)  # 00:15: a new day; Bob's play of the last may still end
        peek = await fake.slash("bob", None, f"{GAME} export", {"game": done.game_id})
        assert "Your play of that day's deal is not finished" in (peek.content or "")
        assert not (peek.message and peek.message.attachments)
        other = await fake.slash("carol", None, f"{GAME} export", {"game": done.game_id})
        assert other.message is not None and other.message.attachments

        fake.clock.advance(HOUR)  # 01:15: the grace is past
        refresh = next(b["custom_id"] for b in fake.message(panel).buttons()
                       if b["custom_id"].endswith(":hand"))
        late = await fake.click("bob", panel, refresh)
        assert "That day's deal is over" in (late.content or ""), late.callback.data
        play = await bot.store.daily_play(fake.guild.id, GAME, day, fake.user("bob").id)
        assert play is not None and play.finished_at is not None and play.score is None
        after = await fake.slash("bob", None, f"{GAME} export", {"game": done.game_id})
        assert after.message is not None and after.message.attachments

        # The abandoned play counts: below Alice's, in the month's ladder and his stats.
        month = await service(bot).ladder(fake.guild.id, GAME, "month", min_days=1)
        assert [(r.name, r.matchpoints) for r in month] == [("alice", 1.0), ("bob", 0.0)]
        stats = await fake.slash("bob", None, f"{GAME} stats")
        assert stats.message is not None and stats.callback.ephemeral  # his alone
        assert "Deal of the day: 0% average over 1 day this month." in stats.message.text(), \
            stats.message.text()
        await commands_done(fake)


async def test_a_settings_change_mid_day_takes_effect_the_next_day(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    """Alice begins the day's deal; the server's daily preset changes; her next moves
    go on on the same deal to the end, Bob meets the same deal that day, and the new
    preset deals the next day's."""
    kind = GAMES[GAME]
    to_hour(fake, 8)
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        alice = DailyDriver(fake, lambda: bot, fake.channel, 3, "alice")
        panel = await alice.play(await _open(fake, "alice"), moves=1)
        before = await service(bot).state(fake.guild.id, GAME, fake.user("alice").id)
        assert before is not None
        changed = await fake.slash("alice", None, f"{GAME} daily-settings",
                                   {"preset": "norsk"})
        assert "Preset: norsk" in (changed.content or ""), changed.callback.data
        await alice.play(panel)
        assert alice.finished
        after = await service(bot).state(fake.guild.id, GAME, fake.user("alice").id)
        assert after is not None and after.deal.deal == before.deal.deal
        assert after.play.game_id is not None
        record = await bot.store.load_record(after.play.game_id,
                                             record_format=kind.record_format)
        assert record["rules"] == kind.rules_to_json(before.deal.rules)
        bob = DailyDriver(fake, lambda: bot, fake.channel, 4, "bob")
        await bob.play(await _open(fake, "bob"), moves=1)
        same = await service(bot).state(fake.guild.id, GAME, fake.user("bob").id)
        assert same is not None and same.deal.deal == before.deal.deal

        to_hour(fake, 8)  # the next day
        await _open(fake, "carol")
        tomorrow = await service(bot).state(fake.guild.id, GAME, fake.user("carol").id)
        assert tomorrow is not None and tomorrow.deal.day > before.deal.day
        assert kind.rules_to_json(tomorrow.deal.rules) == kind.rules_to_json(
            kind.make_rules("norsk", kind.players(before.deal.rules), {}))
        await commands_done(fake)


async def test_a_time_zone_change_opens_no_second_day(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    """At noon UTC the server moves its daily to UTC+14 (Pacific/Kiritimati: already
    tomorrow there). The day under way runs to its end at midnight UTC; the next
    begins at the next midnight in the new zone (10:00 UTC), skipping the date already
    begun there: until then no day is open, with a sentence saying when."""
    to_hour(fake, 12)
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        await _open(fake, "alice")
        begun = await service(bot).state(fake.guild.id, GAME, fake.user("alice").id)
        assert begun is not None
        changed = await fake.slash("alice", None, f"{GAME} daily-settings",
                                   {"time-zone": "Pacific/Kiritimati"})
        assert "Time zone: Pacific/Kiritimati" in (changed.content or "")
        await _open(fake, "bob")
        bob = await service(bot).state(fake.guild.id, GAME, fake.user("bob").id)
        assert bob is not None and bob.deal.day == begun.deal.day  # not tomorrow's

        to_hour(fake, 0.5)  # 00:30 UTC: 14:30 in Kiritimati, a day begun there already
        between = await fake.slash("alice", None, f"{GAME} daily")
        assert "the next day begins <t:" in (between.content or ""), between.callback.data
        to_hour(fake, 10.5)  # 10:30 UTC: 00:30 in Kiritimati
        await _open(fake, "alice")
        new = await service(bot).state(fake.guild.id, GAME, fake.user("alice").id,
                                       await service(bot).today(fake.guild.id, GAME))
        assert new is not None
        assert new.deal.day == day_of(fake.clock.time(), "Pacific/Kiritimati")
        assert new.deal.day == (dt.date.fromisoformat(begun.deal.day)
                                + dt.timedelta(days=2)).isoformat()
        await commands_done(fake)


async def test_the_result_fits_a_phone_and_is_reopened_all_day(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    """Alice's result fits one phone screen with its details a tap away (the deal face
    up, her line, the AI's advice by trick); alone on the day's board she is not shown
    her own line as "the best line"; `daily` and `board:today` (and `leaderboard
    kind:daily`) answer her alone and lead back to it all day."""
    to_hour(fake, 8)
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        alice = DailyDriver(fake, lambda: bot, fake.channel, 3, "alice")
        result = await alice.play(await _open(fake, "alice"))
        assert "Your result:" in result.text()
        assert "first to finish" in result.text() and "place 1 of 1" not in result.text()
        laid = phone_layout(result)
        assert laid.fits(USABLE_HEIGHT), str(laid)
        labels = [b.get("label") for b in result.buttons()]
        assert labels == ["Deal face up", "Lines", "AI's advice"]

        lines = await fake.click_label("alice", result, "Lines")
        assert lines.callback.ephemeral and lines.message is not None
        assert "Your line (the day's best so far)" in lines.message.text()
        assert "The best line" not in lines.message.text()
        before = {m.id for m in fake.ephemeral_messages("alice")}
        await fake.click_label("alice", result, "AI's advice")
        # A message of its own (after a deferred answer if the AI takes its time).
        advice = await fake.wait_until(lambda: next(
            (m for m in fake.ephemeral_messages("alice")
             if m.id not in before and m.embeds), None), 30, "the advice")
        text = advice.text()
        assert "would have made every one" in text or "**Trick " in text \
            or "**The bidding:**" in text, text
        deal = await fake.click_label("alice", result, "Deal face up")
        assert deal.callback.ephemeral and deal.message is not None

        fake.clock.advance(4 * HOUR)  # later the same day
        again = await reopened(fake, "alice")
        assert "one try a day" in (again.content or "")
        assert "Your result:" in again.text()
        board = await fake.slash("alice", None, f"{GAME} daily", {"board": "day"})
        assert board.callback.ephemeral and board.message is not None
        shown = board.message.id
        await fake.click_label("alice", board.message, "Your result")
        # The board, in place, shows the result (after a deferred update if slow).
        await fake.wait_until(lambda: "Your result:" in fake.message(shown).text(), 30,
                              "the result in the board's place")
        ladder = await fake.slash("alice", None, f"{GAME} leaderboard", {"kind": "daily"})
        assert ladder.callback.ephemeral
        await commands_done(fake)


async def test_the_days_message_closes_when_its_day_ends(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    """The day's public message says "today" while its day runs; at midnight it is
    edited to say the day is over (not posted again), and the next day has its own."""
    to_hour(fake, 20)
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        alice = DailyDriver(fake, lambda: bot, fake.channel, 3, "alice")
        await alice.play(await _open(fake, "alice"))
        await fake.wait_until(lambda: any("1 member has played" in m.text()
                                          for m in _public_daily(fake)), 30, "the message")
        [first] = _public_daily(fake)
        assert "/amerikaner daily" in first.text()
        to_hour(fake, 0.02)  # just past midnight
        await fake.wait_until(lambda: "This day's deal is over" in fake.message(
            first.id).text(), 30, "the day's message closed")
        closed = fake.message(first.id)
        assert "1 member played it" in closed.text()
        assert "The standings" not in closed.text()
        await _open(fake, "bob")
        await fake.wait_until(lambda: len(_public_daily(fake)) == 2, 30, "the next day's")
        assert "This day's deal is over" in fake.message(first.id).text()
        await commands_done(fake)


async def test_the_servers_players_change_takes_effect_the_next_day(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    """American's daily deals at the server's table `players`: changed while Alice's
    play runs, her next move is on the same deal, Bob's that day too; the next day's
    deal has the new count."""
    game = "american"
    to_hour(fake, 8)
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        daily = service(bot)
        panel = await _open(fake, "alice", game=game)
        before = await daily.state(fake.guild.id, game, fake.user("alice").id)
        assert before is not None and before.deal.players_count == 2
        changed = await fake.slash("alice", None, f"{game} settings", {"players": 3})
        assert changed.callback.ephemeral is not None
        alice = AmericanDailyDriver(fake, lambda: bot, fake.channel, 5, "alice")
        await alice.play(panel, moves=1)
        after = await daily.state(fake.guild.id, game, fake.user("alice").id)
        assert after is not None and after.deal.deal == before.deal.deal
        assert after.version > before.version
        await _open(fake, "bob", game=game)
        bob = await daily.state(fake.guild.id, game, fake.user("bob").id)
        assert bob is not None and bob.deal.deal == before.deal.deal

        to_hour(fake, 8)  # the next day
        await _open(fake, "carol", game=game)
        carol = await daily.state(fake.guild.id, game, fake.user("carol").id)
        assert carol is not None and carol.deal.day > before.deal.day
        assert carol.deal.players_count == 3
        await commands_done(fake)


async def test_the_american_result_fits_a_phone(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    """American's result (2,939-3,585 px before, issue 52) fits one phone screen, and
    no longer says "You made place 2 ... place 1 of 1"."""
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        alice = AmericanDailyDriver(fake, lambda: bot, fake.channel, 5, "alice")
        result = await alice.play(await _open(fake, "alice", game="american"))
        assert alice.finished
        laid = phone_layout(fake.message(result))
        assert laid.fits(USABLE_HEIGHT), str(laid)
        text = fake.message(result).text()
        assert "Your result:" in text and "You made" not in text
        assert "place 1 of 1" not in text
        await commands_done(fake)
