"""Load benchmark of the Activity (bot/web): N live Amerikaner tables, each with its four
members' pages connected, played only from the pages, through the strict fake Discord.

Every page is a websocket client of the bot's backend, authorized as the page's script
is (the fake's one-time code, exchanged at /.proxy/api/token, then `hello`). The page of
the seat to act sends one of the legal moves its last view lists (a random one; the
cards of a discard are its first ones); the move's time runs from that frame to the
moment every page of the table has been sent the view of the new state.

Reported: moves, the time from a move to every page of its table p50/p99 (the issue's
target: p99 <= 100 ms at 1,000 tables), the bot's CPU per move (this process: the bot,
the fake and the pages share it, so it is an upper bound), memory per connected page
(tracemalloc, from before the pages connected to after), and the Discord requests per
move counted against the bot token's global limit (the table messages' edits: pages add
none of their own).

    python bench/activity.py                     # 1,000 tables, 4 pages, ~5 s a move
    python bench/activity.py --tables 50 --moves 10 --think 0   # saturated
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.e2e.driver import open_table  # noqa: E402
from tests.e2e.harness import bot_running  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402


@dataclass
class BenchPage:
    """One member's page: the versions it was shown, when."""

    seat: int
    ws: aiohttp.ClientWebSocketResponse
    view: dict[str, Any] = field(default_factory=dict)
    shown: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            if frame.get("type") == "refused":
                print(f"refused: {frame.get('code')}", file=sys.stderr, flush=True)
            if frame.get("type") == "view":
                self.view = frame
                self.shown.set()


def the_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move the view lists, as the page sends it."""
    options: list[dict[str, Any]] = [json.loads(a["key"]) for a in view.get("actions", ())]
    for group in view.get("groups", ()):
        count = group["counts"][0]  # as many of each row's cards (a swap's two rows)
        options.append({"action": group["action"],
                        **{part["key"]: part["cards"][:count] for part in group["parts"]}})
    return {"type": "act", "version": view["version"], "action": rng.choice(options)}


async def play(pages: list[BenchPage], moves: int, rng: random.Random,
               took: list[float], think: float) -> None:
    """`moves` moves at one table, each from the page of the seat to act, each timed to
    the last of the four pages shown the new state."""
    await asyncio.gather(*(wait_version(p, 0) for p in pages))  # every page's first view
    for _ in range(moves):
        version = max(p.view["version"] for p in pages)
        await asyncio.gather(*(wait_version(p, version) for p in pages))
        actor = next((p for p in pages
                      if any(s["to_act"] for i, s in enumerate(p.view["scene"]["seats"])
                             if i == p.seat)), None)
        if actor is None:
            return  # the game is over
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))  # the player thinks
        for page in pages:
            page.shown.clear()
        started = time.perf_counter()
        await actor.ws.send_str(json.dumps(the_move(actor.view, rng)))
        await asyncio.gather(*(wait_version(p, version + 1) for p in pages))
        took.append(time.perf_counter() - started)


async def wait_version(page: BenchPage, version: int) -> None:
    while page.view.get("version", -1) < version:
        page.shown.clear()
        await asyncio.wait_for(page.shown.wait(), 30)


async def connect(fake: FakeDiscord, session: aiohttp.ClientSession, base: str,
                  channel: Any, names: list[str], table: Any) -> list[BenchPage]:
    instance = fake.activity.launch(channel.id, channel.guild_id, fake.user(names[0]).id)
    pages = []
    for name in names:
        user = fake.user(name)
        fake.activity.join(instance.instance_id, user.id)
        async with session.post(f"{base}/.proxy/api/token",
                                json={"code": fake.activity.authorize(user.id)}) as resp:
            token = (await resp.json())["access_token"]
        ws = await session.ws_connect(f"{base.replace('http', 'ws')}/.proxy/ws")
        await ws.send_str(json.dumps({"type": "hello", "access_token": token,
                                      "instance_id": instance.instance_id}))
        page = BenchPage(table.seat_of(user.id), ws)
        asyncio.create_task(page.read())
        pages.append(page)
    return pages


async def run(args: argparse.Namespace) -> None:
    names = [f"p{i}" for i in range(4 * args.tables)]
    fake = FakeDiscord(user_names=names, channel_names=[f"t{i}" for i in range(args.tables)],
                       record_gateway=False)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as work:
            async with bot_running(fake, Path(work) / "db.sqlite3",
                                   activity_client_secret=fake.activity.client_secret,
                                   activity_port=0) as bot:
                await bench(args, fake, bot, names)
    finally:
        await fake.stop()


async def bench(args: argparse.Namespace, fake: FakeDiscord, bot: Any, names: list[str]
                ) -> None:
    bot.tables.shared.rng = random.Random(args.seed)
    channels = fake.guild.text_channels[:args.tables]
    seated = [names[4 * i:4 * i + 4] for i in range(args.tables)]
    for channel, players in zip(channels, seated, strict=True):
        await open_table(fake, players, {"preset": "amerikaner"}, channel=channel)
    print(f"{args.tables} tables opened", flush=True)
    base = f"http://127.0.0.1:{bot.activity_server.port}"
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        tables = []
        for channel, players in zip(channels, seated, strict=True):
            table = bot.tables.registry.in_channel(channel.id)
            tables.append(await connect(fake, session, base, channel, players, table))
        per_page = (tracemalloc.get_traced_memory()[0] - before) / (4 * args.tables)
        tracemalloc.stop()
        print(f"{4 * args.tables} pages connected: {per_page / 1024:.1f} KiB a page "
              "(tracemalloc: the page's client side is in this process too)", flush=True)
        took: list[float] = []
        requests_before = len(fake.global_requests())
        cpu_before = time.process_time()
        rng = random.Random(args.seed)
        await asyncio.gather(*(play(pages, args.moves, rng, took, args.think)
                               for pages in tables))
        cpu = time.process_time() - cpu_before
        requests = len(fake.global_requests()) - requests_before
        report(took, cpu, requests)
        for pages in tables:
            for page in pages:
                await page.ws.close()


def report(took: list[float], cpu: float, requests: int) -> None:
    if not took:
        print("no moves")
        return
    took.sort()
    p99 = took[min(len(took) - 1, int(len(took) * 0.99))]
    print(f"moves: {len(took)}")
    print(f"move -> every page of its table: p50 {statistics.median(took) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms (target p99 <= 100 ms)")
    print(f"CPU a move: {cpu / len(took) * 1000:.2f} ms (bot, fake and pages together)")
    print(f"Discord requests a move (global limit): {requests / len(took):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=20, help="moves a table")
    parser.add_argument("--think", type=float, default=5.0,
                        help="seconds a player thinks, on average (0: every table at once, "
                             "as fast as it goes)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
