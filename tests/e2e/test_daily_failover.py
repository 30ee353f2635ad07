"""The deal of the day survives a failover (issue 38): two bot processes (`python -m bot`,
shards 0 and 1 of two) on one PostgreSQL database. Alice plays her daily in a server of
shard 1, on that shard's process, and sends it to her DMs; that process is killed with
SIGKILL; she plays on from her DMs, which Discord sends to shard 0 alone ("Gateway events
that do not contain a guild_id will only be sent to the first shard":
https://discord.com/developers/docs/events/gateway#sharding; the fake does the same), so
the other process answers her, from the store: nothing she was shown as done is lost,
the deal ends once, and a second try is refused when shard 1 is back."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.store import Store, open_database
from bot.tables.daily import DailyService
from tests.e2e.driver import make_fake
from tests.e2e.test_daily import DailyDriver
from tests.e2e.test_shards import SHARDS, assert_clean_run, shard_process
from tests.fake_discord import FakeClock

GAME = "amerikaner"
KIND = GAMES[GAME]
# The bot processes run on the machine's clock (a process cannot be given the fake's),
# and the test's checks name one day: it starts at least this long (5 minutes) before a midnight
# (UTC, the daily's default zone), waiting past it if need be, so that the day does not
# turn in the middle (issue 38's note: it failed across midnight).
DAY_MARGIN = 300.0


async def _not_near_midnight() -> None:
    left = 86400 - time.time() % 86400
    if left < DAY_MARGIN:
        await asyncio.sleep(left + 1)


class SharedDaily:
    """The daily as the shared database holds it, read by a service of our own (the
    secret the bots generated is in the store), for the driver: it stands in for the
    bot's Tables cog (`daily_service`)."""

    def __init__(self, store: Store) -> None:
        self.daily_service = DailyService(store, GAMES, time.time)
        self.daily = self  # the cog's daily room (`cog.daily.daily_service`)

    def get_cog(self, name: str) -> Any:
        return self


async def test_a_daily_goes_on_on_the_other_process_after_a_sigkill(
        tmp_path: Path, pg_url: str) -> None:
    await _not_near_midnight()
    fake = make_fake(shard_count=SHARDS, clock=FakeClock(real=True))
    guilds = [fake.add_guild(f"Shard {n}", channel_names=("tables",), shard=n)
              for n in range(SHARDS)]
    guild = guilds[1]
    channel = guild.text_channels[0]
    await fake.start()
    store = await open_database(pg_url)
    shared = SharedDaily(store)
    alice = fake.user("alice").id
    try:
        async with contextlib.AsyncExitStack() as stack:
            procs = [await stack.enter_async_context(
                shard_process(fake, pg_url, n, g, tmp_path, 0))
                for n, g in enumerate(guilds)]
            driver = DailyDriver(fake, lambda: shared, channel, 5, "alice")
            it = await fake.slash("alice", channel, f"{GAME} daily")
            assert it.message is not None and it.callback.ephemeral
            await driver.play(it.message, moves=2)
            assert not driver.finished
            # The same play, sent to her DMs by shard 1's process.
            it = await fake.slash("alice", channel, f"{GAME} daily", {"dm": True})
            assert "direct messages" in (it.content or it.callback.data.get("content")
                                         or ""), it.callback.data
            [dm_panel] = fake.dm_messages("alice")
            day = (await shared.daily_service.deal(guild.id, GAME)).day
            shown = await store.daily_play(guild.id, GAME, day, alice)
            assert shown is not None and shown.finished_at is None

            # Shard 1's process dies.
            procs[1].send_signal(signal.SIGKILL)
            await procs[1].wait()
            await fake.wait_until(lambda: not fake.connected_for(guild.id), 5.0,
                                  "the killed process's socket to close")
            # Alice plays on from her DMs: shard 0's process answers, from the store.
            result = await driver.play(dm_panel)
            assert driver.finished and result.id == dm_panel.id
            assert "Deal of the day" in result.embeds[0]["title"]
            play = await store.daily_play(guild.id, GAME, day, alice)
            assert play is not None and play.finished_at is not None
            # Nothing she had been shown as done was lost: the actions before the kill
            # are the first of the finished play's.
            assert play.actions[:len(shown.actions)] == shown.actions
            assert len(play.actions) > len(shown.actions)
            # One game record, replayable, tagged with its day and server.
            assert play.game_id is not None
            row = await store.get_game(play.game_id)
            assert row is not None and row.status == "finished"
            assert row.meta["daily"] == {"day": day, "guild": guild.id,
                                         "seat": driver.table.seat_of(alice)}
            record = await store.load_record(play.game_id, record_format=KIND.record_format)
            assert "error" not in KIND.replay(KIND.record(record))
            assert record["hands"][0]["actions"] == list(play.actions)

            # Shard 1 back (a new process): still one try.
            async with shard_process(fake, pg_url, 1, guild, tmp_path, 1):
                again = await fake.slash("alice", channel, f"{GAME} daily")
                assert "one try a day" in (again.content or ""), again.callback.data
        assert_clean_run(fake, [tmp_path / "shard-0-0.log"])
    finally:
        await store.close()
        await fake.stop()
