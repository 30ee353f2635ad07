"""Load benchmark of the Activity (bot/web): N live Amerikaner tables, each with its four
members' pages connected, played only from the pages, through the strict fake Discord.

The bot and the fake Discord run in this process (as bench/bot.py); the pages run in a
process of their own (this script with --pages), so that this process's CPU and memory
are the bot's and the fake's, not the pages'. Every page is a websocket client of the
bot's backend, authorized as the page's script is (the fake's one-time code, exchanged
at /.proxy/api/token, then `hello`). At each table the page of the seat to act waits
(the player thinks: uniform in [0, 2 x --think] seconds), then sends one of the legal
moves its last view lists (a random one; a move of several cards takes the first ones);
the move's time runs from that frame to the moment the last of the table's four pages
has received the view of the new state (all measured in the pages' process).

Then the same number of moves again, the pages closed, each made through the table
service as a page's is (`TableService.act`, then `tell`: the table message, the next
player's ping), with the same thinking: the Discord requests a move costs without pages.

Reported, with PASS or FAIL where the issue sets a target:
- the time from a move to every page of its table, p50/p99 (target p99 <= 100 ms);
- the bot's CPU a move (this process: the bot and the fake Discord's answers);
- the bot's memory a connected page (tracemalloc in this process, from before the pages
  connected to after: the backend's side of the socket, its queue and its last view);
- the Discord requests a move (against the bot token's global limit), with pages open
  and without them (target: no more with them);
- what held the time up: the bot's event loop's stalls and its garbage collections
  during the play, a full collection after it, and the measuring side's own CPU and
  stalls (its full collections are left off: they would count as the bot's latency; the
  bot's too, unless --no-gc-freeze, as the fake Discord's heap is in its process).

    python bench/activity.py                      # 1,000 tables, 4 pages, 10 moves each
    python bench/activity.py --tables 50 --moves 10 --think 0.5   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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

TARGET_P99 = 0.100  # seconds, the issue's


# ---------------------------------------------------------------- the pages' process

@dataclass
class BenchPage:
    """One member's page: the views it was shown."""

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


async def wait_version(page: BenchPage, version: int) -> None:
    while page.view.get("version", -1) < version:
        page.shown.clear()
        await asyncio.wait_for(page.shown.wait(), 60)


async def play(pages: list[BenchPage], moves: int, rng: random.Random,
               took: list[float], think: float) -> None:
    """`moves` moves at one table, each from the page of the seat to act, each timed to
    the last of the four pages shown the new state."""
    await asyncio.gather(*(wait_version(p, 0) for p in pages))  # every page's first view
    for _ in range(moves):
        version = max(p.view["version"] for p in pages)
        await asyncio.gather(*(wait_version(p, version) for p in pages))
        actor = next((p for p in pages if p.view["scene"]["seats"][p.seat]["to_act"]), None)
        if actor is None:
            return  # the game is over
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))  # the player thinks
        started = time.perf_counter()
        await actor.ws.send_str(json.dumps(the_move(actor.view, rng)))
        await asyncio.gather(*(wait_version(p, version + 1) for p in pages))
        took.append(time.perf_counter() - started)


async def pages_main(plan_path: str) -> None:
    """The pages' process: connect every page of the plan, say so, wait for `go` on
    stdin, play, and print the moves' times as JSON."""
    plan = json.loads(Path(plan_path).read_text())
    base = plan["base"]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        # every code first (the fake's codes live 100 s, as Discord's few minutes)
        limit = asyncio.Semaphore(32)

        async def exchange(code: str) -> str:
            async with limit, session.post(f"{base}/.proxy/api/token",
                                           json={"code": code}) as resp:
                return str((await resp.json())["access_token"])

        tokens = iter(await asyncio.gather(*(exchange(code) for table in plan["tables"]
                                             for _, code in table["pages"])))
        readers = []

        async def open_page(seat: int, token: str, instance: str) -> BenchPage:
            # at most 32 opening at once: members arrive over a while, not in a
            # millisecond (the fake Discord answers in this bot's process)
            async with limit:
                ws = await session.ws_connect(f"{base.replace('http', 'ws')}/.proxy/ws")
                await ws.send_str(json.dumps({"type": "hello", "access_token": token,
                                              "instance_id": instance}))
                page = BenchPage(seat, ws)
                readers.append(asyncio.create_task(page.read()))
                await wait_version(page, 0)
                return page

        async def open_table(table: dict[str, Any]) -> list[BenchPage]:
            pages = [(seat, next(tokens)) for seat, _ in table["pages"]]
            return list(await asyncio.gather(*(open_page(seat, token, table["instance"])
                                               for seat, token in pages)))

        tables = list(await asyncio.gather(*(open_table(t) for t in plan["tables"])))
        # The measuring side's own full collections (4,000 pages' views) would pause it
        # and count as the bot's latency: what the set-up made is frozen, and full
        # collections are left off while the pages play.
        quiet_collector()
        print("connected", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        took: list[float] = []
        rng = random.Random(plan["seed"])
        cpu = time.process_time()
        pauses = Pauses()  # the measuring side's own: late wakes inflate the times
        pauses.start()
        await asyncio.gather(*(play(pages, plan["moves"], random.Random(rng.random()), took,
                                    plan["think"]) for pages in tables))
        pauses.stop()
        late = sorted(pauses.late) or [0.0]
        Path(plan_path).with_suffix(".took").write_text(json.dumps({
            "took": took, "cpu": time.process_time() - cpu,
            "late_p99": late[int(len(late) * 0.99)], "late_max": late[-1]}))
        print("done", flush=True)
        for pages in tables:
            for page in pages:
                await page.ws.close()
        await asyncio.gather(*readers)


# ---------------------------------------------------------------- the bot's process

async def run(args: argparse.Namespace) -> None:
    from tests.e2e.harness import bot_running
    from tests.fake_discord import FakeDiscord

    names = [f"p{i}" for i in range(4 * args.tables)]
    fake = FakeDiscord(user_names=names, channel_names=[f"t{i}" for i in range(args.tables)],
                       record_gateway=False)
    fake.activity.enabled = True
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as work:
            async with bot_running(fake, Path(work) / "db.sqlite3",
                                   activity_client_secret=fake.activity.client_secret,
                                   activity_port=0, edit_delay=args.edit_delay) as bot:
                await bench(args, fake, bot, names, Path(work))
    finally:
        await fake.stop()


async def bench(args: argparse.Namespace, fake: Any, bot: Any, names: list[str],
                work: Path) -> None:
    from tests.e2e.driver import open_table

    bot.tables.shared.rng = random.Random(args.seed)
    channels = fake.guild.text_channels[:args.tables]
    seated = [names[4 * i:4 * i + 4] for i in range(args.tables)]
    tables = []
    for channel, players in zip(channels, seated, strict=True):
        await open_table(fake, players, {"preset": "amerikaner"}, channel=channel)
        tables.append(bot.tables.registry.in_channel(channel.id))
    print(f"{args.tables} tables opened", flush=True)
    server = bot.activity_server
    plan: dict[str, Any] = {"base": f"http://127.0.0.1:{server.port}", "moves": args.moves,
                            "think": args.think, "seed": args.seed, "tables": []}
    for channel, players, table in zip(channels, seated, tables, strict=True):
        instance = fake.activity.launch(channel.id, channel.guild_id, fake.user(players[0]).id)
        pages = []
        for name in players:
            user = fake.user(name)
            fake.activity.join(instance.instance_id, user.id)
            pages.append((table.seat_of(user.id), fake.activity.authorize(user.id)))
        plan["tables"].append({"instance": instance.instance_id, "pages": pages})
    (work / "plan.json").write_text(json.dumps(plan))

    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    pages_proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--pages", str(work / "plan.json"),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert pages_proc.stdout is not None and pages_proc.stdin is not None
    line = await pages_proc.stdout.readline()
    assert line.strip() == b"connected", line
    per_page = (tracemalloc.get_traced_memory()[0] - before) / (4 * args.tables)
    tracemalloc.stop()
    print(f"{4 * args.tables} pages connected: the bot's memory {per_page / 1024:.1f} KiB "
          "a page", flush=True)

    await quiet(fake)
    requests_before = len(fake.global_requests())
    thresholds = gc.get_threshold()
    if not args.no_gc_freeze:
        # The fake Discord in this process keeps every request and message: most of the
        # objects here after the play are reachable from it (1,000 tables: 818,000 of
        # 905,000), a heap only the bench has, which a full collection would walk while
        # the bot waits.
        # As bench/bot.py: what the set-up made is frozen, full collections left off
        # during the play (the young generations are still collected); what a full
        # collection of the whole process costs is measured after the play.
        quiet_collector()
    cpu_before = time.process_time()
    pauses = Pauses()
    pauses.start()
    pages_proc.stdin.write(b"go\n")
    await pages_proc.stdin.drain()
    line = await pages_proc.stdout.readline()
    assert line.strip() == b"done", line
    pauses.stop()
    gc.set_threshold(*thresholds)
    gc.unfreeze()
    measured = json.loads((work / "plan.took").read_text())
    took = measured["took"]
    cpu = time.process_time() - cpu_before
    pauses.report()
    began = time.perf_counter()
    gc.collect()
    print(f"  a full collection after the play: {len(gc.get_objects())} objects, "
          f"{(time.perf_counter() - began) * 1000:.0f} ms (the fake's heap included)",
          flush=True)
    pages_cpu = measured["cpu"] / max(1, len(took))
    print(f"the pages' process (the measuring side): {pages_cpu * 1000:.2f} ms of CPU a move;"
          f" its event loop late {measured['late_p99'] * 1000:.0f} ms (p99), "
          f"{measured['late_max'] * 1000:.0f} ms (longest)", flush=True)
    await quiet(fake)
    with_pages = (len(fake.global_requests()) - requests_before) / max(1, len(took))
    await pages_proc.wait()
    while any(server.connections(t.id) for t in tables):
        await asyncio.sleep(0.1)

    requests_before = len(fake.global_requests())
    made: list[int] = []
    rng = random.Random(args.seed)
    await asyncio.gather(*(moves_without_pages(bot, t, args.moves, args.think,
                                               random.Random(rng.random()), made)
                           for t in tables))
    await quiet(fake)
    without = (len(fake.global_requests()) - requests_before) / max(1, len(made))
    report(took, cpu, per_page, with_pages, without)


def quiet_collector() -> None:
    """Freeze what exists (out of the collector's sight) and leave full collections off
    (the young generations are still collected)."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1_000_000_000)


class Pauses:
    """What holds the bot's event loop up while the pages play: its stalls (a task that
    asks to wake every 5 ms, and how late it wakes) and the garbage collector's
    collections (each generation's count and longest)."""

    def __init__(self) -> None:
        self.late: list[float] = []
        self.collections: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._began = 0.0
        self._task: asyncio.Task[None] | None = None

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.collections[info["generation"]].append(time.perf_counter() - self._began)

    async def _watch(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.005)
            self.late.append(time.perf_counter() - asked - 0.005)

    def start(self) -> None:
        gc.callbacks.append(self._collected)
        self._task = asyncio.create_task(self._watch())

    def stop(self) -> None:
        gc.callbacks.remove(self._collected)
        if self._task is not None:
            self._task.cancel()

    def report(self) -> None:
        late = sorted(self.late) or [0.0]
        print(f"the bot's event loop: late {statistics.median(late) * 1000:.1f} ms "
              f"(median), {late[int(len(late) * 0.99)] * 1000:.0f} ms (p99), "
              f"{late[-1] * 1000:.0f} ms (longest), {sum(x > 0.05 for x in late)} stalls "
              "over 50 ms", flush=True)
        for generation, times in self.collections.items():
            print(f"  garbage collections of generation {generation}: {len(times)}, "
                  f"longest {max(times, default=0) * 1000:.0f} ms, "
                  f"{sum(times) * 1000:.0f} ms in all", flush=True)


async def moves_without_pages(bot: Any, table: Any, moves: int, think: float,
                              rng: random.Random, made: list[int]) -> None:
    """A page's moves made with no page open: through the service, then told."""
    for _ in range(moves):
        seat = table.to_act
        if seat is None or table.game is None:
            return
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        action = rng.choice(table.kind.legal_actions(table.game, seat))
        result = await bot.tables.play.act(table.id, table.seats[seat].user_id, table.version,
                                      lambda s, a=action: a)
        await bot.tables.listeners.result(result.table, result)
        made.append(1)


async def quiet(fake: Any, still: float = 2.0, limit: float = 120.0) -> None:
    """Until no request has reached the fake Discord for `still` seconds (the last
    edits have landed)."""
    deadline = time.monotonic() + limit
    seen = -1
    while time.monotonic() < deadline:
        count = len(fake.requests)
        if count == seen:
            return
        seen = count
        await asyncio.sleep(still)


def report(took: list[float], cpu: float, per_page: float, with_pages: float,
           without: float) -> None:
    if not took:
        print("no moves")
        return
    took.sort()
    p99 = took[min(len(took) - 1, int(len(took) * 0.99))]
    print(f"moves: {len(took)}")
    verdict = "PASS" if p99 <= TARGET_P99 else "FAIL"
    print(f"{verdict} move -> every page of its table: p50 "
          f"{statistics.median(took) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms "
          f"(target p99 <= {TARGET_P99 * 1000:.0f} ms)")
    print(f"CPU a move: {cpu / len(took) * 1000:.2f} ms (the bot and the fake Discord)")
    print(f"memory a connected page: {per_page / 1024:.1f} KiB (the bot's side)")
    verdict = "PASS" if with_pages <= without else "FAIL"
    print(f"{verdict} Discord requests a move (global limit): {with_pages:.2f} with pages "
          f"open, {without:.2f} without (target: no more with them)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=10, help="moves a table")
    parser.add_argument("--think", type=float, default=27.0,
                        help="seconds a player thinks, on average: the issue's pace, a move "
                             "every ~27 s at each table (as bench/bot.py); 0: every table "
                             "at once, as fast as it goes")
    parser.add_argument("--edit-delay", type=float, default=0.5,
                        help="the table message's coalescing window (the bot's default)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-gc-freeze", action="store_true",
                        help="let the bot's process (and the fake Discord in it) collect "
                             "its garbage as usual during the play")
    parser.add_argument("--pages", help=argparse.SUPPRESS)  # the pages' process, its plan
    args = parser.parse_args()
    if args.pages:
        asyncio.run(pages_main(args.pages))
    else:
        asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
