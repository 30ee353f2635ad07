"""A day-long turn timer through the fake Discord, on the fake's clock: the bot's table
service sleeps on the clock the test moves (Settings.clock), so half time, one hour
left and the deadline come at once, and each reminder pings only the player to act."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import bot_running
from tests.fake_discord.fixtures import error_logs_fixture, fake_discord_fixture  # noqa: F401

HOUR = 3600.0


async def test_a_day_long_timer_on_the_fake_clock(fake_discord, error_logs,
                                                  tmp_path: Path) -> None:
    fake = fake_discord
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 3, "turn_timer": "1d"})
        for user in ("bob", "carol"):
            await fake.click_label(user, fake.message(new.message), "Join")
        await fake.click_label("alice", fake.message(new.message), "Start")
        table = bot.tables.registry.in_channel(fake.channel.id)
        seat = table.to_act
        player = table.seats[seat].user_id
        deadline = table.turn_deadline
        assert deadline is not None and abs(deadline - (fake.clock.time() + 24 * HOUR)) < 60
        await fake.wait_until(lambda: fake.clock.sleepers >= 1, what="the turn's clock")

        pinged = len(fake.pings())
        fake.clock.advance(12 * HOUR)
        await fake.wait_until(lambda: len(fake.pings()) > pinged, timeout=15,
                              what="the half-time reminder")
        fake.clock.advance(11 * HOUR)
        await fake.wait_until(lambda: len(fake.pings()) > pinged + 1, timeout=15,
                              what="the one-hour-left reminder")
        assert table.version == 0 and table.to_act == seat
        # Nothing pinged anyone but the player to act.
        for _, pings in fake.pings():
            assert pings.users <= {player} and not pings.roles and not pings.everyone
        fake.clock.advance(HOUR)
        await fake.wait_until(lambda: table.version >= 1, timeout=15,
                              what="the AI's move for the player whose time ran out")
