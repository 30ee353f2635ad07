"""The turn timer's table settings chosen in `new` (issue 26): `reminders` (the points
at which the player to act is reminded) and `on_timeout` (what the end of the time
does), through the fake Discord on its clock; and a bad `reminders` value refused with
the service's sentence, no table opened."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import bot_running
from tests.fake_discord.fixtures import error_logs_fixture, fake_discord_fixture  # noqa: F401

HOUR = 3600.0


async def test_new_with_reminders_and_on_timeout_seat(fake_discord, error_logs,
                                                      tmp_path: Path) -> None:
    fake = fake_discord
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 3, "turn_timer": "3h", "reminders": "1h",
                                "on_timeout": "seat"})
        for user in ("bob", "carol"):
            await fake.click_label(user, fake.message(new.message), "Join")
        # The lobby shows the clock the players sign up for.
        lobby = fake.message(new.message).embeds[0]["description"]
        assert "reminders: 1h" in lobby and "takes the seat" in lobby, lobby
        await fake.click_label("alice", fake.message(new.message), "Start")
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table.reminders == ("1h",) and table.timeout_action == "seat"
        seat = table.to_act
        assert seat is not None
        player = table.seats[seat].user_id
        since = table.turn_since
        # One reminder, at one hour left: not the default half time.
        assert [p for _, p in table.reminder_times()] == ["1h"]
        await fake.wait_until(lambda: fake.clock.sleepers >= 1, what="the turn's clock")

        def reminders() -> list[str]:
            return [m.content for m, _ in fake.pings() if m.content.startswith("⏳")]

        fake.clock.advance(2 * HOUR)
        await fake.wait_until(lambda: len(reminders()) >= 1, timeout=15,
                              what="the one-hour-left reminder")
        assert table.reminded() == {"1h"} and table.version == 0 and table.to_act == seat
        assert fake.clock.time() >= since + 2 * HOUR and len(reminders()) == 1
        assert f"<@{player}>" in reminders()[0]
        for _, pings in fake.pings():
            assert pings.users <= {player} and not pings.roles and not pings.everyone
        fake.clock.advance(HOUR)
        await fake.wait_until(lambda: table.version >= 1, timeout=15,
                              what="the AI's move for the player whose time ran out")
        # "seat": the AI keeps the seat until its player is back.
        assert table.seats[seat].away and table.seats[seat].user_id == player


async def test_a_bad_reminders_value_is_refused(fake_discord, error_logs,
                                                tmp_path: Path) -> None:
    fake = fake_discord
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        it = await fake.slash("alice", None, "amerikaner new",
                              {"turn_timer": "1h", "reminders": "50%, soon"})
        assert it.callback.ephemeral, it.callback.data
        assert "soon is not a reminder point" in (it.content or ""), it.content
        assert bot.tables.registry.in_channel(fake.channel.id) is None
        it = await fake.slash("alice", None, "american settings", {"reminders": "101%"})
        assert "101% is not a reminder point" in (it.content or ""), it.content
