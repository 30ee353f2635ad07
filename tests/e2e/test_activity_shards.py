"""The Activity with the bot split by shard over two processes on one PostgreSQL database
(bot/store/page_bus.py): Discord shows the Activity at one address (the app's URL
mapping), so a page's socket may reach either process, whichever runs its table. Pages
connected to each process play the tables of both, every move reaches every page of its
table wherever it is held, and a process that restarts has its handed pages reconnect.
Pages without a browser (tests/e2e/activity_page.py); every view through the leak
checker."""

from __future__ import annotations

import contextlib
import json
import socket
from pathlib import Path
from typing import Any

import aiohttp

from bot.store import open_database
from tests.e2e.activity_page import Page, check_frame
from tests.e2e.driver import NAMES, make_fake, open_table
from tests.e2e.test_shards import SHARDS, SharedView, assert_clean_run, shard_process
from tests.fake_discord import FakeClock, FakeDiscord
from tests.fake_discord.models import FakeChannel


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def first_move(view: dict[str, Any]) -> dict[str, Any]:
    """The first move a view lists, as the page sends it (a move of several cards: the
    first cards of each row, as many as it takes)."""
    if view["actions"]:
        action = json.loads(view["actions"][0]["key"])
    else:
        group = view["groups"][0]
        count = group["counts"][0]
        action = {"action": group["action"],
                  **{part["key"]: part["cards"][:count] for part in group["parts"]}}
    return {"type": "act", "version": view["version"], "action": action}


def to_act(view: dict[str, Any]) -> bool:
    seat = view["seat"]
    return seat is not None and bool(view["scene"]["seats"][seat]["to_act"])


class PagedTable:
    """A table's four pages: the first two held by shard 0's process, the others by
    shard 1's, whichever runs the table."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel, players: list[str],
                 bases: list[str], session: aiohttp.ClientSession) -> None:
        self.fake, self.channel, self.players = fake, channel, players
        self.bases, self.session = bases, session
        self.instance = fake.activity.launch(channel.id, channel.guild_id,
                                             fake.user(players[0]).id)
        self.pages: list[Page] = []

    async def open_page(self, name: str, base: str) -> Page:
        self.fake.activity.join(self.instance.instance_id, self.fake.user(name).id)
        page = Page(self.fake, base, name, self.instance.instance_id, self.session)
        await page.authorize()
        await page.connect()
        await page.wait_for(lambda f: f.get("type") in ("view", "refused"), "its first frame")
        return page

    async def open(self) -> None:
        for n, name in enumerate(self.players):
            self.pages.append(await self.open_page(name, self.bases[n // 2]))

    def version(self) -> int:
        return max(p.last_view()["version"] for p in self.pages)

    async def move(self, view: SharedView) -> None:
        """The page whose turn it is plays; every page is shown the move, and shows its
        member nothing their seat may not know."""
        version = self.version()
        for page in self.pages:
            await page.view_at(version)
        actor = next(p for p in self.pages if to_act(p.last_view()))
        await actor.send(first_move(actor.last_view()))
        frames = [await page.view_at(version + 1) for page in self.pages]
        await view.reload()
        assert view.tables is not None
        table = view.tables.registry.in_channel(self.channel.id)
        assert table is not None and table.version == version + 1
        for page, frame in zip(self.pages, frames, strict=True):
            assert not check_frame(table, self.fake.user(page.user).id, frame)


async def test_pages_on_either_process_play_the_tables_of_both(tmp_path: Path,
                                                               pg_url: str) -> None:
    fake = make_fake(shard_count=SHARDS, clock=FakeClock(real=True))
    fake.activity.enabled = True
    guilds = [fake.add_guild(f"Shard {n}", channel_names=("tables",), shard=n)
              for n in range(SHARDS)]
    ports = [free_port() for _ in range(SHARDS)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]

    def activity(n: int) -> dict[str, str]:
        return {"ACTIVITY_CLIENT_SECRET": fake.activity.client_secret,
                "ACTIVITY_PORT": str(ports[n])}

    await fake.start()
    store = await open_database(pg_url)
    view = SharedView(store)
    try:
        async with contextlib.AsyncExitStack() as stack:
            session = await stack.enter_async_context(aiohttp.ClientSession())
            procs = [await stack.enter_async_context(shard_process(
                fake, pg_url, n, guild, tmp_path, 0, **activity(n)))
                for n, guild in enumerate(guilds)]
            tables = []
            for guild in guilds:
                channel = guild.text_channels[0]
                players = list(NAMES[:4])
                await open_table(fake, players, {"preset": "amerikaner"}, channel=channel)
                tables.append(PagedTable(fake, channel, players, bases, session))
            await view.reload()
            for paged in tables:
                await paged.open()
            # Moves from the pages of both processes, on the tables of both.
            for _ in range(8):
                for paged in tables:
                    await paged.move(view)

            theirs = tables[1]  # run by shard 1's process
            held = theirs.pages[:2]  # whose sockets shard 0's process holds
            # An out-of-turn frame from a page held elsewhere is refused by the table's
            # process, in words, and changes nothing.
            version = theirs.version()
            waiting = next(p for p in held if not to_act(p.last_view()))
            actor = next(p for p in theirs.pages if to_act(p.last_view()))
            before = len(waiting.frames)
            await waiting.send({**first_move(actor.last_view()),
                                "version": waiting.last_view()["version"]})
            refused = await waiting.refusal(before)
            assert refused["text"], refused
            await view.reload()
            assert view.tables is not None
            assert view.tables.registry.in_channel(theirs.channel.id).version == version  # type: ignore[union-attr]

            # A member who is not seated watches through shard 0's process: the public
            # view, no hand.
            watcher = await theirs.open_page("erin", bases[0])
            public = await watcher.view_at(version)
            assert public["seat"] is None and "hand" not in public
            await theirs.move(view)
            await watcher.view_at(version + 1)
            await watcher.close()

            # Shard 1's process goes down: a page opened at shard 0's for its table is
            # told that the table's part of the bot is not answering.
            procs[1].kill()
            await procs[1].wait()
            await fake.wait_until(lambda: not fake.connected_for(guilds[1].id), 5.0,
                                  "the killed process's socket to close")
            late = await theirs.open_page("frank", bases[0])
            refused = await late.wait_for(lambda f: f.get("type") == "refused",
                                          "a refusal", timeout=15.0)
            assert refused["code"] == "shard_unreachable" and "not answering" in refused["text"]
            await late.close()
            # Back up: the pages shard 0's process held for it are closed to reconnect,
            # and are shown the table as it stands.
            async with shard_process(fake, pg_url, 1, guilds[1], tmp_path, 1,
                                     **activity(1)):
                for page in held:
                    assert await page.closed() == 1012
                    page.frames.clear()
                    await page.connect()
                    await page.view_at(version + 1)
                # (the pages of shard 1's process itself died with it: reopened there)
                for n in (2, 3):
                    old = theirs.pages[n]
                    await old.close()
                    theirs.pages[n] = await theirs.open_page(old.user, bases[1])
                await view.reload()
                for _ in range(4):
                    await theirs.move(view)
            for paged in tables:
                for page in paged.pages:
                    await page.close()
        assert_clean_run(fake, [tmp_path / "shard-0-0.log", tmp_path / "shard-1-1.log"])
    finally:
        await store.close()
        await fake.stop()
