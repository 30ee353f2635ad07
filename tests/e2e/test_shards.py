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
from collections.abc import AsyncIterator, Collection, Sequence
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.store import Store, open_database
from bot.tables.service import TableService
from tests.e2e.driver import NAMES, ButtonDriver, make_fake, open_table
from tests.e2e.harness import wait_answering
from tests.e2e.test_process import bot_env
from tests.fake_discord import FakeClock, FakeDiscord
from tests.fake_discord.models import FakeChannel, FakeGuild, StoredMessage
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
        tables.registry.closed = True  # never schedules anything
        await tables.restore()
        self.tables = tables

    async def actions(self, table_id: int) -> list[dict[str, Any]]:
        record = await self.store.load_record(table_id, record_format=GAME_FORMAT)
        return [action for hand in record["hands"] for action in hand["actions"]]


@contextlib.asynccontextmanager
async def shard_process(fake: FakeDiscord, pg_url: str, shard: int, guild: FakeGuild,
                        cwd: Path, run: int, **extra: str
                        ) -> AsyncIterator[asyncio.subprocess.Process]:
    """`python -m bot` running shard `shard` of two, ready to answer in `guild` (`extra`:
    more of its environment); SIGKILLed at the latest on exit."""
    identified = len(fake.identify_payloads)
    log = open(cwd / f"shard-{shard}-{run}.log", "wb")  # noqa: SIM115
    env = bot_env(fake, cwd / "unused.sqlite3", DATABASE_URL=pg_url,
                  SHARD_COUNT=str(SHARDS), SHARD_IDS=str(shard), **extra)
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


def assert_clean_run(fake: FakeDiscord, logs: Sequence[Path] = (),
                     again: Collection[int] = ()) -> None:
    """What every multi-process run ends with: each interaction answered, no request
    Discord refused, and no traceback in the processes' `logs`. The one refusal a
    SIGKILL may cost is a delete made again (404 10008 Unknown Message,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes)
    of a message deleted before the kill (`again`, its ids): deletes are at least once by
    design (cogs/tables/pings.py), as a ping forgotten first and then not deleted would
    stay in the channel for good. At most one for each such message."""
    unanswered = [i for i in fake.interactions.values() if not i.responded]
    assert not unanswered, unanswered
    def deleted_again(request: Any, error: dict[str, Any]) -> int | None:
        """The message a refused delete named again (10008), else None."""
        if request.method != "DELETE" or error.get("code") != 10008:
            return None
        return int(request.path.rstrip("/").rsplit("/", 1)[-1])

    again_ids = [deleted_again(r, e) for r, e in fake.client_errors]
    others = [error for error, mid in zip(fake.client_errors, again_ids, strict=True)
              if mid is None or mid not in again]
    assert not others, others[:3]
    deleted_twice = [mid for mid in again_ids if mid is not None]
    assert len(deleted_twice) == len(set(deleted_twice)), deleted_twice
    for log in logs:
        text = log.read_text()
        assert "Traceback" not in text, text[-3000:]


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
    fake = make_fake(shard_count=SHARDS, clock=FakeClock(real=True))
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
            # What was deleted when it died: a ping it deleted but had not yet forgotten
            # (the store write after the delete) is deleted again by its restart.
            deleted_by_then = fake.deleted_message_ids()
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
        assert_clean_run(fake, again=deleted_by_then)
    finally:
        await store.close()
        await fake.stop()


def _dm_ping(fake: FakeDiscord, name: str, table_id: int) -> StoredMessage | None:
    """The last turn ping by DM to `name` for the table (its My hand button)."""
    hand = f"amk:{table_id}:hand"
    pings = [m for m in fake.dm_messages(name) if m.component(hand) is not None]
    return pings[-1] if pings else None


async def test_dm_clicks_are_served_by_the_process_of_their_table(tmp_path: Path,
                                                                  pg_url: str) -> None:
    """Discord sends every DM interaction to shard 0 alone (the fake too:
    https://discord.com/developers/docs/events/gateway#sharding, cited at
    tests/fake_discord/server.py's _Session.receives), whatever server the clicked
    button's table plays in. Bob takes his turn pings by DM in two servers, one on each
    shard of two processes: in his DMs, My hand opens his hand and a move from that
    panel is played, for both tables; the process that runs the table answers, and the
    store holds the move when it is confirmed. With that process down, the click is
    answered, and nothing is changed."""
    fake = make_fake(shard_count=SHARDS, clock=FakeClock(real=True))
    guilds = [fake.add_guild(f"Shard {n}", channel_names=("tables",), shard=n)
              for n in range(SHARDS)]
    await fake.start()
    store = await open_database(pg_url)
    view = SharedView(store)
    try:
        async with contextlib.AsyncExitStack() as stack:
            procs = [await stack.enter_async_context(
                shard_process(fake, pg_url, n, guild, tmp_path, 0))
                for n, guild in enumerate(guilds)]
            channels = [guild.text_channels[0] for guild in guilds]
            for channel in channels:
                it = await fake.slash("bob", channel, "notify", {"where": "dm"})
                assert it.callback.ephemeral and "direct message" in (it.content or "")
                await open_table(fake, ["alice", "bob", "carol"],
                                 {"preset": "amerikaner", "target": 52}, channel=channel)
            await view.reload()
            drivers = [ButtonDriver(fake, lambda: view, channel, seed=n)
                       for n, channel in enumerate(channels)]
            for driver in drivers:
                table_id = driver.table.id
                # The others play from the channel until it is bob's turn.
                while True:
                    turn = await driver.next_turn()
                    assert turn is not None, "the game ended early"
                    if turn[1] == "bob":
                        break
                    await driver.step()
                await fake.wait_until(lambda t=table_id: _dm_ping(fake, "bob", t) is not None,
                                      10.0, "bob's turn ping by DM")
                ping = _dm_ping(fake, "bob", table_id)
                assert ping is not None and ping.guild_id is None
                it = await fake.click("bob", ping, f"amk:{table_id}:hand")
                # His hand, with his moves (today's code: "This table is closed." for the
                # table of shard 1, whose process never got the click).
                assert it.response_type == 4 and it.callback.ephemeral, it.callback.data
                panel = fake.message(it.message)
                assert "Your turn" in panel.text(), panel.text()
                # A move from that panel: played once, in the store when confirmed
                # (act reloads the store's game and checks the action, and that the panel
                # was edited to show the hand after it).
                await driver.act("bob", turn[0], panel)
            theirs = drivers[1]
            table_id = theirs.table.id
            version = theirs.table.version
            # From his DMs he may open his hand and move, nothing else: the process that
            # runs the table checks a relayed click as any other.
            ping = _dm_ping(fake, "bob", table_id)
            assert ping is not None
            it = await fake.forge_component("bob", ping, f"amk:{table_id}:leave")
            assert it.callback.ephemeral and "another channel" in (it.content or ""), \
                it.callback.data
            # Shard 1's process is down: bob's DM click is answered by shard 0's process,
            # and nothing is changed.
            procs[1].send_signal(signal.SIGKILL)
            await procs[1].wait()
            await fake.wait_until(lambda: not fake.connected_for(guilds[1].id), 5.0,
                                  "the killed process's socket to close")
            it = await fake.click("bob", ping, f"amk:{table_id}:hand")
            assert it.callback.ephemeral and "not answering" in (it.content or ""), \
                it.callback.data
            await view.reload()
            assert theirs.table.version == version
        assert_clean_run(fake, [tmp_path / "shard-0-0.log"])
    finally:
        await store.close()
        await fake.stop()


async def test_a_members_language_holds_in_every_shards_process_at_once(
        tmp_path: Path, pg_url: str) -> None:
    """A member is in servers of both shards, each run by its own process: /language
    given in one holds in the other at once (issue 55), not after a restart. Bob's
    answers in shard 0's server are English; he chooses Persian in shard 1's server;
    shard 0's process answers him in Persian at his next command; he goes back to his
    Discord's there, and shard 1's process answers him in English."""
    from bot.i18n import use_locale
    from bot.render import error_text
    from bot.tables.errors import TableError

    def refusal(language: str) -> str:
        with use_locale(language):
            return error_text(TableError("no_table"), GAMES["amerikaner"])

    fake = make_fake(shard_count=SHARDS, clock=FakeClock(real=True))
    guilds = [fake.add_guild(f"Shard {n}", channel_names=("tables",), shard=n)
              for n in range(SHARDS)]
    await fake.start()
    try:
        async with contextlib.AsyncExitStack() as stack:
            for n, guild in enumerate(guilds):
                await stack.enter_async_context(
                    shard_process(fake, pg_url, n, guild, tmp_path, 0))
            here, there = (guild.text_channels[0] for guild in guilds)

            async def answer(channel: FakeChannel) -> str:
                it = await fake.slash("bob", channel, "amerikaner bid", {"value": "pass"})
                assert it.callback.ephemeral
                return it.content or ""

            assert await answer(here) == refusal("en")
            chosen = await fake.slash("bob", there, "language", {"language": "fa"})
            assert chosen.callback.ephemeral
            assert await answer(there) == refusal("fa")
            assert await answer(here) == refusal("fa") != refusal("en")
            await fake.slash("bob", here, "language", {"language": "default"})
            assert await answer(here) == refusal("en")
            assert await answer(there) == refusal("en")
        assert_clean_run(fake, logs=[tmp_path / f"shard-{n}-0.log" for n in range(SHARDS)])
    finally:
        await fake.stop()
