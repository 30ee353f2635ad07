"""Two bot processes (`python -m bot`, SHARD_COUNT=2, SHARD_IDS=0 and 1) on one PostgreSQL
database, tables in guilds of both shards. The process of shard 1 is killed with SIGKILL
right after a confirmed action and started again: its games go on from that action, the
games of shard 0 are played on throughout the outage, and at the end the store holds
exactly the actions that were confirmed, each once."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.store import Store, open_database
from bot.tables import TableService
from tests.e2e.driver import NAMES, ButtonDriver, make_fake, open_table
from tests.e2e.harness import wait_answering
from tests.e2e.test_process import bot_env
from tests.fake_discord import FakeDiscord
from tests.fake_discord.models import FakeChannel, FakeGuild
from tests.store_backends import GAME_FORMAT

SHARDS = 2


class SharedView:
    """Every game as the shared database holds it, rebuilt by a table service of our own
    (the bots' restore path), so the drivers know whose turn it is at each table."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: TableService | None = None

    async def reload(self) -> None:
        tables = TableService(self.store, GAMES)
        tables.closed = True  # never schedules anything
        await tables.restore()
        self.tables = tables

    async def actions(self, table_id: int) -> list[dict[str, Any]]:
        record = await self.store.load_record(table_id, record_format=GAME_FORMAT)
        return [action for hand in record["hands"] for action in hand["actions"]]


@contextlib.asynccontextmanager
async def shard_process(fake: FakeDiscord, pg_url: str, shard: int, guild: FakeGuild,
                        cwd: Path, run: int) -> AsyncIterator[asyncio.subprocess.Process]:
    """`python -m bot` running shard `shard` of two, ready to answer in `guild`;
    SIGKILLed at the latest on exit."""
    identified = len(fake.identify_payloads)
    log = open(cwd / f"shard-{shard}-{run}.log", "wb")  # noqa: SIM115
    env = bot_env(fake, cwd / "unused.sqlite3", DATABASE_URL=pg_url,
                  SHARD_COUNT=str(SHARDS), SHARD_IDS=str(shard))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env, stdout=log,
        stderr=asyncio.subprocess.STDOUT)
    try:
        await fake.wait_until(
            lambda: [shard, SHARDS] in [p.get("shard") for p in
                                        fake.identify_payloads[identified:]]
            and fake.connected_for(guild.id), 20.0, f"shard {shard}'s process to connect")
        await wait_answering(fake, "alice", guild.text_channels[0])
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
        log.close()
        await fake.wait_until(lambda: not fake.connected_for(guild.id), 5.0,
                              f"shard {shard}'s socket to close")


class Table:
    """One table and its driver, with every action the bot confirmed to its player."""

    def __init__(self, fake: FakeDiscord, view: SharedView, channel: FakeChannel,
                 seed: int) -> None:
        self.channel = channel
        self.driver = ButtonDriver(fake, lambda: view, channel, seed=seed)
        self.confirmed: list[tuple[str, int]] = []

    async def step(self) -> None:
        """One action, confirmed: the bot answered and the database has it."""
        assert await self.driver.step(), "the game ended early"
        game = self.driver.table.game
        assert game is not None
        last = next(h for h in reversed(game.hands) if h.actions).actions[-1]
        self.confirmed.append((last.kind, last.seat))


async def test_two_shard_processes_one_killed_and_restarted(tmp_path: Path, pg_url: str
                                                           ) -> None:
    fake = make_fake(shard_count=SHARDS)
    guilds = [fake.add_guild(f"Shard {n}", channel_names=("tables", "more"), shard=n)
              for n in range(SHARDS)]
    assert [(g.id >> 22) % SHARDS for g in guilds] == [0, 1]
    await fake.start()
    store = await open_database(pg_url)
    view = SharedView(store)
    try:
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(
                shard_process(fake, pg_url, 0, guilds[0], tmp_path, 0))
            killed = await stack.enter_async_context(
                shard_process(fake, pg_url, 1, guilds[1], tmp_path, 0))
            assert sorted(p["shard"] for p in fake.identify_payloads) == [[0, 2], [1, 2]]

            tables: list[Table] = []
            for guild in guilds:
                for n, channel in enumerate(guild.text_channels):
                    players = list(NAMES[3 * n:3 * n + 3])
                    await open_table(fake, players, {"preset": "amerikaner", "target": 52},
                                     channel=channel)
                    tables.append(Table(fake, view, channel, seed=len(tables)))
            await view.reload()
            ours = [t for t in tables if t.channel.guild_id == guilds[0].id]
            theirs = [t for t in tables if t.channel.guild_id == guilds[1].id]
            for _ in range(3):
                for table in tables:
                    await table.step()

            # Shard 1's process dies right after confirming an action.
            await theirs[0].step()
            killed.send_signal(signal.SIGKILL)
            await killed.wait()
            await fake.wait_until(lambda: not fake.connected_for(guilds[1].id), 5.0,
                                  "the killed process's socket to close")
            # Shard 0's games never notice.
            for _ in range(4):
                for table in ours:
                    await table.step()

            async with shard_process(fake, pg_url, 1, guilds[1], tmp_path, 1):
                # Its games are back where they stood: every confirmed action, no other.
                await view.reload()
                for table in tables:
                    assert table.driver.table.version == len(table.confirmed)
                for _ in range(4):
                    for table in tables:
                        await table.step()
                restart_log = (tmp_path / "shard-1-1.log").read_text()
        # What the store holds is exactly what the players were told, action by action.
        for table in tables:
            assert table.driver.table_id is not None
            stored = await view.actions(table.driver.table_id)
            assert [(a["action"], a["seat"]) for a in stored] == table.confirmed
        # Shard 0's process ran throughout: it identified once.
        assert [p["shard"] for p in fake.identify_payloads].count([0, 2]) == 1
        # The restarted process took up its own two tables and nothing of shard 0's.
        assert "restored 2 unfinished table(s) of shard(s) 1 of 2" in restart_log
        unanswered = [i for i in fake.interactions.values() if not i.responded]
        assert not unanswered, unanswered
        assert not fake.client_errors, fake.client_errors[:3]
    finally:
        await store.close()
        await fake.stop()
