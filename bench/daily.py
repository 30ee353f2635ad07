"""Benchmark: the deal of the day (issue 38) in requests and in the store.

1. Requests: M members of one server play today's Amerikaner deal, each through their
   own panel (the e2e test's driver, tests/e2e/test_daily.py), in the bot against the
   strict fake Discord. Reported: the requests counted against the bot token's global
   limit (the day's public message: its post and its edits) per member's daily, and the
   interaction requests (answers and panel edits, exempt from the global limit) per
   member's daily.
2. The store's daily boards: a SQLite store holding S servers with P members each who
   played every one of D days (S * P * D plays); the day's board, the weekly and the
   monthly ladders of random servers read through DailyService (the day's board: the
   store's range scan, then the matchpoints in Python; a ladder: the period's stored
   per-member rows, kept as each day is scored once when first read after it ended),
   p50 and p99; the bench's clock is the day after the last, a Monday, so the week and
   the month are whole (7 and D days). On SQLite, or with `--postgres` on a
   throwaway PostgreSQL server (tests/pg_server.py: the machine's PostgreSQL binaries).

    python bench/daily.py                           # 5 members; 1,000 servers x 100, 30 days
    python bench/daily.py --members 10 --servers 200 --days 7
    python bench/daily.py --skip-requests --postgres
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.games import GAMES  # noqa: E402
from bot.store import open_database  # noqa: E402
from bot.tables.daily import DailyService  # noqa: E402
from tests.e2e.harness import bot_running  # noqa: E402
from tests.e2e.test_daily import DailyDriver  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402

GAME = "amerikaner"


async def requests(members: int, seed: int) -> None:
    names = [f"m{i}" for i in range(members)]
    fake = FakeDiscord(user_names=names)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as work:
            async with bot_running(fake, Path(work) / "db.sqlite3",
                                   daily_secret="bench") as bot:
                counted_before = len(fake.global_requests())
                all_before = len(fake.requests)
                started = time.perf_counter()
                for i, name in enumerate(names):
                    driver = DailyDriver(fake, lambda: bot, fake.channel, seed + i, name)
                    it = await fake.slash(name, None, f"{GAME} daily")
                    assert it.message is not None
                    await driver.play(it.message)
                elapsed = time.perf_counter() - started
                counted = fake.global_requests()[counted_before:]
                everything = fake.requests[all_before:]
    finally:
        await fake.stop()
    posts = sum(1 for r in counted if r.method == "POST")
    edits = sum(1 for r in counted if r.method == "PATCH")
    interaction = len(everything) - len(counted)
    print(f"{members} members played the day's deal in {elapsed:.1f} s")
    print(f"  counted requests (the day's public message): {len(counted)} in all, "
          f"{posts} posts, {edits} edits: {len(counted) / members:.2f} a member's daily")
    print(f"  interaction requests (answers, panel edits; not counted): {interaction}, "
          f"{interaction / members:.1f} a member's daily")


def rows_of(servers: int, members: int, days: int, last_day: dt.date,
            seed: int) -> Any:
    """The daily_plays rows of the bench's store, a server at a time."""
    rng = random.Random(seed)
    first = last_day - dt.timedelta(days=days - 1)
    day_names = [(first + dt.timedelta(days=d)).isoformat() for d in range(days)]
    for server in range(1, servers + 1):
        rows = []
        for day in day_names:
            for member in range(members):
                score = json.dumps([rng.randint(-20, 20)])
                rows.append((server, GAME, day, 1000 + member, f"member {member}", "[]",
                             0.0, 0.0, 1.0, score, None))
        yield rows


_COLUMNS = ("guild_id", "game", "day", "user_id", "display_name", "actions", "started_at",
            "updated_at", "finished_at", "score", "game_id")


async def build(target: str, servers: int, members: int, days: int, last_day: dt.date,
                seed: int) -> None:
    """Fill the daily_plays table directly (the store's schema, migrated by opening it)."""
    if target.startswith("postgresql://"):
        import asyncpg

        conn = await asyncpg.connect(target)
        try:
            for rows in rows_of(servers, members, days, last_day, seed):
                await conn.copy_records_to_table("daily_plays", records=rows,
                                                 columns=_COLUMNS)
            await conn.execute("ANALYZE")
        finally:
            await conn.close()
        return
    conn = sqlite3.connect(target)
    with conn:
        for rows in rows_of(servers, members, days, last_day, seed):
            conn.executemany(f"INSERT INTO daily_plays ({', '.join(_COLUMNS)}) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.close()


async def boards(servers: int, members: int, days: int, reads: int, seed: int,
                 postgres: bool) -> None:
    last_day = dt.date(2027, 1, 31)  # a Sunday: the week and the month end with it
    now = dt.datetime(2027, 2, 1, 12, tzinfo=dt.UTC).timestamp()  # the day after
    with tempfile.TemporaryDirectory() as work, _database(work, postgres) as target:
        async with open_database(target):
            pass  # migrated
        started = time.perf_counter()
        await build(target, servers, members, days, last_day, seed)
        size = "" if postgres else f", {Path(target).stat().st_size / 2**20:.0f} MiB"
        print(f"built {servers * members * days:,} plays ({servers:,} servers x {members} "
              f"members x {days} days) in {time.perf_counter() - started:.1f} s{size}"
              f" ({'PostgreSQL' if postgres else 'SQLite'})")
        async with open_database(target, clock=lambda: now) as store:
            service = DailyService(store, GAMES, lambda: now, secret="bench")
            # Each day that is over is scored once, at the first ladder read after it
            # (one day a server a day, in steady state): done here for every server,
            # then the reads measured.
            started = time.perf_counter()
            for guild in range(1, servers + 1):
                await service.ladder(guild, GAME, "month")
                await service.ladder(guild, GAME, "week")
            scoring = time.perf_counter() - started
            print(f"  scoring the days that are over once: {scoring:.1f} s, "
                  f"{scoring * 1000 / (servers * days):.2f} ms a server's day")
            rng = random.Random(seed)
            kinds: dict[str, Any] = {
                "day's board": lambda g: service.board(g, GAME, last_day.isoformat()),
                "weekly ladder": lambda g: service.ladder(g, GAME, "week"),
                "monthly ladder": lambda g: service.ladder(g, GAME, "month"),
            }
            for name, read in kinds.items():
                times, cpu = [], []
                for _ in range(reads):
                    guild = rng.randint(1, servers)
                    t0, c0 = time.perf_counter(), time.process_time()
                    rows = await read(guild)
                    times.append((time.perf_counter() - t0) * 1000)
                    cpu.append((time.process_time() - c0) * 1000)
                    assert rows
                # Wall time, and the process's CPU time (both threads: the store's
                # runs on its own), which other jobs on a shared machine do not inflate.
                print(f"  {name}: p50 {statistics.median(times):.2f} ms, p99 "
                      f"{_p99(times):.2f} ms; CPU p50 {statistics.median(cpu):.2f} ms, p99 "
                      f"{_p99(cpu):.2f} ms ({reads} reads)")


@contextlib.contextmanager
def _database(work: str, postgres: bool) -> Iterator[str]:
    """The bench's store: a SQLite file in `work`, or an empty database on a throwaway
    PostgreSQL server."""
    if not postgres:
        yield str(Path(work) / "daily.db")
        return
    from tests.pg_server import PostgresServer

    server = PostgresServer.start()
    try:
        yield server.new_database()
    finally:
        server.stop()


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--members", type=int, default=5)
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--per-server", type=int, default=100)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-requests", action="store_true")
    parser.add_argument("--postgres", action="store_true",
                        help="the boards on a throwaway PostgreSQL server, not SQLite")
    args = parser.parse_args()
    if not args.skip_requests:
        asyncio.run(requests(args.members, args.seed))
    asyncio.run(boards(args.servers, args.per_server, args.days, args.reads, args.seed,
                       args.postgres))


if __name__ == "__main__":
    main()
