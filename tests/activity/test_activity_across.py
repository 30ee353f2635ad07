"""Pages across shard processes (bot/web/across.py): a page another process holds (its
host) is followed here like one of this process's own, and forgotten once its host has
died, so that its member is pinged in the channel again when it is their turn.

The page bus (bot/store/page_bus.py: PostgreSQL's LISTEN/NOTIFY between the bot's
processes) is replaced by a fake with its interface, which the test drives: what it
delivers, and which processes it says are alive."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Collection
from pathlib import Path
from typing import Any

import pytest

import bot.web.across as across
from bot.app import AmerikanerBot
from bot.web.discord_api import DiscordApi
from bot.web.server import ActivityServer
from tests.e2e.driver import make_fake, open_table
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord

HOST = "process-b"  # the other process, which holds the page's socket


class FakePageBus:
    """The page bus's interface (bot/store/page_bus.py), in memory: every server is this
    process's (`owns`), what is sent is kept, and `alive` waits for the test's answer."""

    name = "process-a"

    def __init__(self) -> None:
        self.deliver: Callable[[dict[str, Any]], None] | None = None
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.asked: asyncio.Queue[tuple[set[str], asyncio.Future[set[str]]]] = \
            asyncio.Queue()

    async def start(self, deliver: Callable[[dict[str, Any]], None],
                    lost: Callable[[], None]) -> None:
        self.deliver = deliver

    async def close(self) -> None:
        pass

    def owner(self, guild_id: int) -> int:
        return 0

    def owns(self, guild_id: int) -> bool:
        return True

    def to_shard(self, shard: int, message: dict[str, Any]) -> None:
        self.sent.append((f"shard {shard}", message))

    def to_process(self, name: str, message: dict[str, Any]) -> None:
        self.sent.append((name, message))

    async def alive(self, names: Collection[str]) -> set[str]:
        answer: asyncio.Future[set[str]] = asyncio.get_running_loop().create_future()
        await self.asked.put((set(names), answer))
        return await answer


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = make_fake()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[AmerikanerBot]:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        yield bot


async def test_the_pages_of_a_dead_host_are_forgotten(
        fake: FakeDiscord, bot: AmerikanerBot, monkeypatch: pytest.MonkeyPatch) -> None:
    # the hosts are checked at once, each check waiting for the fake's answer instead of
    # ten seconds
    monkeypatch.setattr(across, "HOSTS_CHECK", 0.0)
    await open_table(fake, ["alice", "bob", "carol", "dave"], {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    bus = FakePageBus()
    server = ActivityServer(bot.tables, DiscordApi(fake.api_base, 1, "secret", "token"),
                            host="127.0.0.1", port=0, clock=lambda: 0.0,
                            bus=bus)  # type: ignore[arg-type]  # the bus's interface
    await server.start()
    try:
        bob = fake.user("bob")
        assert bus.deliver is not None
        # process-b checked bob's page and hands it to this process, the table's
        bus.deliver({"k": "open", "h": HOST, "c": "page-1", "m": bob.id, "n": "bob",
                     "ch": fake.channel.id, "g": fake.guild.id, "l": "en"})
        assert server.connections(table.id) == 1
        assert bot.tables.watching(table.id, bob.id)  # his turns reach him there
        shown = [json.loads(m["d"]) for to, m in bus.sent if to == HOST and m["k"] == "text"]
        assert shown and shown[-1]["type"] == "view" \
            and shown[-1]["seat"] == table.seat_of(bob.id)

        hosts, answer = await bus.asked.get()  # the first check: process-b lives
        assert hosts == {HOST}
        answer.set_result({HOST})
        hosts, answer = await bus.asked.get()  # the next one: it has died
        assert server.connections(table.id) == 1  # kept while its host lived
        answer.set_result(set())
        for _ in range(10):  # the check's task takes the answer (no time passes)
            if not server.connections(table.id):
                break
            await asyncio.sleep(0)
        assert server.connections(table.id) == 0
        assert not bot.tables.watching(table.id, bob.id)  # pinged in the channel again
        assert bus.asked.empty()  # no page left to check: the checks stop

        # a frame of the forgotten page, passed on late: the host is told it ended
        bus.deliver({"k": "frame", "h": HOST, "c": "page-1", "d": "{}"})
        assert bus.sent[-1] == (HOST, {"k": "end", "c": "page-1", "code": 1012})
    finally:
        await server.stop()
