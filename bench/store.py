"""Benchmark of the store's read paths on a big database.

Builds (or reuses) a database of ``--games`` finished games across ``--guilds``
guilds and ``--users`` users (4 seats a game, some of them AI, one results row per
human, with the Amerikaner counters as its stats, and every member's rating: all time,
this month's season, a few days of trend), then times ``leaderboard()`` page 1,
``member_stats()``, the rating board's page 1 (``rating_board()``, all time and this
month) and ``member_rating()`` over random guilds and members through the public Store
API, and the cost of rating a hand's end inside its commit (the service's read, the
model, and ``record_action`` with the rating rows, against ``record_action`` alone),
and prints median and p99: on SQLite, and in the same run on
PostgreSQL, loaded with the same rows by `amerikaner db copy`'s code (the load's time
is printed) into a throwaway server started for the run (tests/pg_server.py), or into
the database of ``--postgres URL`` (which must be empty).

    .venv/bin/python bench/store.py                      # 1,000,000 games, both backends
    .venv/bin/python bench/store.py --games 20000 --db /tmp/small.db
    .venv/bin/python bench/store.py --postgres none      # SQLite alone

Target: leaderboard page 1, rating board page 1 and member_stats <= 10 ms at the median
and p99.
"""

from __future__ import annotations

import sys as _sys
from pathlib import Path as _Path

# Run as `python bench/NAME.py`, this folder comes first on the path, where bench/bot.py
# would shadow the `bot` package: put the repository first instead.
_sys.path[0] = str(_Path(__file__).resolve().parent.parent)

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.store import LeaderOrder, Store, latest_version, open_database  # noqa: E402
from bot.store.copy import copy_sqlite_to_postgres  # noqa: E402
from bot.store.models import GameRating  # noqa: E402
from bot.tables.rating_book import book_of, month_of, trend_start  # noqa: E402
from bot.tables.ratings import MIN_RATED_HANDS, RatedMatch  # noqa: E402

CHUNK = 50_000  # games per build transaction
MONTH = "2026-11"  # the season the built ratings have (the bench's "this month")
NOW = 1_795_000_000.0  # 2026-11-18: the bench's "now" (in MONTH)
GAME = "amerikaner"  # the game kind of every game built
AI_SEAT_SHARE = 0.15  # games whose last seat is an AI


def _guild_weights(guilds: int, rng: random.Random) -> list[float]:
    """Zipf-like activity: a few busy guilds, a long tail of quiet ones."""
    weights = [1.0 / (rank**0.9) for rank in range(1, guilds + 1)]
    rng.shuffle(weights)
    return weights


def _members(guilds: int, users: int, weights: list[float], rng: random.Random) -> list[list[int]]:
    """Each user joins a home guild (busier guilds have more members) and, a third
    of them, a second one; every guild gets at least 4 members."""
    pools: list[set[int]] = [set() for _ in range(guilds)]
    homes = rng.choices(range(guilds), weights=weights, k=users)
    seconds = rng.choices(range(guilds), weights=weights, k=users)
    for user, (home, second) in enumerate(zip(homes, seconds, strict=True)):
        user_id = 10**17 + user  # snowflake-sized ids
        pools[home].add(user_id)
        if rng.random() < 0.33:
            pools[second].add(user_id)
    for pool in pools:
        while len(pool) < 4:
            pool.add(10**17 + rng.randrange(users))
    return [sorted(pool) for pool in pools]


def _game_rows(
    first_id: int,
    count: int,
    game_guilds: list[int],
    pools: list[list[int]],
    rng: random.Random,
) -> Iterator[tuple[tuple[object, ...], list[tuple[object, ...]], list[tuple[object, ...]]]]:
    rules = json.dumps({"preset": "amerikaner", "players": 4, "options": {"target": 52}})
    for game_id in range(first_id, first_id + count):
        guild = game_guilds[game_id - 1]
        guild_id = 1000 + guild
        players = rng.sample(pools[guild], 4)
        ai_last = rng.random() < AI_SEAT_SHARE
        created = 1.6e9 + game_id * 30.0
        finished = created + 1800.0
        game = (
            game_id,
            guild_id,
            GAME,
            guild_id * 10 + rng.randrange(3),
            players[0],
            "finished",
            rules,
            rng.randrange(4),
            "{}",
            created,
            finished,
            finished,
        )
        points = [rng.randint(-20, 70) for _ in range(4)]
        winner = max(range(4), key=points.__getitem__)
        points[winner] = max(points[winner], 52)
        hands = rng.randint(4, 14)
        stored = [s for s in range(4) if not (ai_last and s == 3)]
        seats: list[tuple[object, ...]] = []
        results: list[tuple[object, ...]] = []
        for seat, user_id in enumerate(players):
            is_ai = ai_last and seat == 3
            seats.append(
                (
                    game_id,
                    seat,
                    None if is_ai else user_id,
                    int(is_ai),
                    "medium" if is_ai else None,
                    "Bot" if is_ai else f"user{user_id % 100000}",
                )
            )
            if not is_ai:
                made = rng.randint(0, 3)
                stats = {
                    "contracts_made": made,
                    "contracts_failed": rng.randint(0, 2),
                    "top_bids_made": int(made and rng.random() < 0.05),
                    "hands_played": hands,
                }
                place = 1 + sum(points[s] > points[seat] for s in stored)
                results.append(
                    (
                        game_id,
                        guild_id,
                        GAME,
                        user_id,
                        seat,
                        place,
                        points[seat],
                        int(seat == winner),
                        json.dumps(stats, separators=(",", ":")),
                    )
                )
        yield game, seats, results


async def _create_schema(path: Path) -> None:
    store = await open_database(path)
    await store.close()


def build(path: Path, games: int, guilds: int, users: int, seed: int) -> float:
    """Create the database from scratch; returns the seconds it took."""
    start = time.perf_counter()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    asyncio.run(_create_schema(path))  # the schema comes from the real migrations

    rng = random.Random(seed)
    weights = _guild_weights(guilds, rng)
    pools = _members(guilds, users, weights, rng)
    game_guilds = rng.choices(range(guilds), weights=weights, k=games)
    deal = json.dumps({"deal": [["AS"], ["KS"], ["QS"], ["JS"]], "kitty": []})

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -1000000")  # 1 GB
    conn.execute("PRAGMA foreign_keys = OFF")
    done = 0
    while done < games:
        count = min(CHUNK, games - done)
        game_rows: list[tuple[object, ...]] = []
        seat_rows: list[tuple[object, ...]] = []
        result_rows: list[tuple[object, ...]] = []
        hand_rows: list[tuple[object, ...]] = []
        for game, seats, results in _game_rows(done + 1, count, game_guilds, pools, rng):
            game_rows.append(game)
            seat_rows.extend(seats)
            result_rows.extend(results)
            hand_rows.append((game[0], 0, deal, game[9]))
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO games (id, guild_id, game, channel_id, host_id, status, rules, "
            "first_dealer, meta, created_at, updated_at, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        conn.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, is_ai, ai_level, display_name) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            seat_rows,
        )
        conn.executemany(
            "INSERT INTO game_hands (game_id, hand_index, deal, created_at) VALUES (?, ?, ?, ?)",
            hand_rows,
        )
        conn.executemany(
            "INSERT INTO results (game_id, guild_id, game, user_id, seat, place, points, "
            "won, stats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            result_rows,
        )
        conn.execute("COMMIT")
        done += count
        print(f"\r  built {done:,} / {games:,} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    # player_totals is what finish_game maintains incrementally; build it in one go
    # (the stats JSON summed counter by counter, as finish_game sums it).
    conn.execute("BEGIN")
    conn.execute(
        "INSERT INTO player_totals (guild_id, game, user_id, games, wins, points, stats, "
        "last_played_at) "
        "SELECT r.guild_id, r.game, r.user_id, COUNT(*), SUM(r.won), SUM(r.points), "
        "json_object("
        "'contracts_made', SUM(json_extract(r.stats, '$.contracts_made')), "
        "'contracts_failed', SUM(json_extract(r.stats, '$.contracts_failed')), "
        "'top_bids_made', SUM(json_extract(r.stats, '$.top_bids_made')), "
        "'hands_played', SUM(json_extract(r.stats, '$.hands_played'))), MAX(g.finished_at) "
        "FROM results r JOIN games g ON g.id = r.game_id "
        "GROUP BY r.guild_id, r.game, r.user_id"
    )
    conn.execute("COMMIT")
    _build_ratings(conn)
    conn.execute("ANALYZE")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return time.perf_counter() - start


def _build_ratings(conn: sqlite3.Connection) -> None:
    """Every (guild, member) of player_totals gets a rating (what the service keeps
    hand by hand; built in one go here): made-up mu and sigma from the member's id, as
    many rated hands as they played; two thirds of them are in this month's season, and
    each has three days of trend."""
    v = "((user_id * 2654435761) % 1000)"
    conn.execute("BEGIN")
    conn.execute(
        "INSERT INTO ratings (guild_id, pool, user_id, mu, sigma, ordinal, hands, ranked, "
        f"updated_at) SELECT guild_id, game, user_id, 15 + {v} / 50.0, 1 + {v} % 7, "
        f"15 + {v} / 50.0 - 3 * (1 + {v} % 7), json_extract(stats, '$.hands_played'), "
        "json_extract(stats, '$.hands_played') >= ?, last_played_at "
        "FROM player_totals", (MIN_RATED_HANDS,))
    conn.execute(
        "INSERT INTO rating_seasons (guild_id, pool, month, user_id, mu, sigma, ordinal, "
        "hands, ranked, updated_at) SELECT guild_id, pool, ?, user_id, mu - 1, sigma + 1, "
        "ordinal - 4, hands / 3, hands / 3 >= ?, updated_at FROM ratings "
        "WHERE user_id % 3 != 0", (MONTH, MIN_RATED_HANDS))
    for day in ("2026-10-01", "2026-10-15", "2026-11-10"):
        conn.execute(
            "INSERT INTO rating_days (guild_id, pool, user_id, day, mu, sigma, ordinal) "
            "SELECT guild_id, pool, user_id, ?, mu, sigma, ordinal FROM ratings", (day,))
    conn.execute("COMMIT")


def existing_games(path: Path) -> int | None:
    """How many games the bench database holds; None if there is none, or one of an
    older schema (built again rather than migrated: the build is the quicker)."""
    if not path.exists():
        return None
    try:
        with sqlite3.connect(path) as conn:
            if conn.execute("PRAGMA user_version").fetchone()[0] != latest_version():
                return None
            return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return None


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _time(
    name: str, calls: list[Callable[[], Awaitable[object]]], warmup: int = 50
) -> dict[str, float]:
    for call in calls[:warmup]:
        await call()
    samples: list[float] = []
    for call in calls:
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
    stats = {
        "median": statistics.median(samples),
        "p99": _percentile(samples, 0.99),
        "max": max(samples),
    }
    print(
        f"  {name:<40} n={len(samples):>5}  median {stats['median']:6.3f} ms  "
        f"p99 {stats['p99']:6.3f} ms  max {stats['max']:6.3f} ms"
    )
    return stats


async def measure(path: Path, target: str, samples: int, seed: int
                  ) -> dict[str, dict[str, float]]:
    """Time the reads (and a commit) on the store at ``target``, which holds the rows of
    the SQLite file at ``path`` (the file itself, or their copy on PostgreSQL)."""
    rng = random.Random(seed + 1)
    with sqlite3.connect(path) as conn:
        guild_ids = [r[0] for r in conn.execute("SELECT DISTINCT guild_id FROM player_totals")]
        # Every game is Amerikaner: the guild's whole board is one game kind's.
        members = conn.execute("SELECT guild_id, user_id FROM player_totals").fetchall()
        biggest = conn.execute(
            "SELECT guild_id, COUNT(*) AS n FROM player_totals GROUP BY guild_id "
            "ORDER BY n DESC LIMIT 1"
        ).fetchone()
    print(
        f"  {len(guild_ids):,} guilds, {len(members):,} (guild, member) totals rows; "
        f"biggest guild has {biggest[1]:,} ranked members"
    )

    async with await open_database(target) as store:
        results: dict[str, dict[str, float]] = {}
        guilds = [rng.choice(guild_ids) for _ in range(samples)]
        orders: tuple[LeaderOrder, LeaderOrder] = ("wins", "points")
        results["leaderboard page 1"] = await _time(
            "leaderboard(page 1, 10 rows)",
            [
                partial(store.leaderboard, g, GAME, orders[i % 2], limit=10, offset=0)
                for i, g in enumerate(guilds)
            ],
        )
        picks = [rng.choice(members) for _ in range(samples)]
        results["member_stats"] = await _time(
            "member_stats()",
            [partial(store.member_stats, g, GAME, u) for g, u in picks],
        )
        results["leaderboard_size"] = await _time(
            "leaderboard_size()",
            [partial(store.leaderboard_size, g, GAME) for g in guilds],
        )
        results["rating board page 1"] = await _time(
            "rating_board(page 1, all time/month)",
            [partial(store.rating_board, g, GAME, None if i % 2 else MONTH, 10, 0)
             for i, g in enumerate(guilds)],
        )
        results["rating_board_size"] = await _time(
            "rating_board_size()",
            [partial(store.rating_board_size, g, GAME, None if i % 2 else MONTH)
             for i, g in enumerate(guilds)],
        )
        results["member_rating"] = await _time(
            "member_rating() (stats)",
            [partial(store.member_rating, g, GAME, u, MONTH, trend_start(NOW))
             for g, u in picks],
        )
        big = biggest[0]
        results["rating board, biggest, page 5"] = await _time(
            "rating_board(biggest guild, page 5)",
            [partial(store.rating_board, big, GAME, None, 10, 40) for _ in range(samples)],
        )
        results["biggest guild, page 5"] = await _time(
            "leaderboard(biggest guild, page 5)",
            [
                partial(store.leaderboard, big, GAME, orders[i % 2], limit=10, offset=40)
                for i in range(samples)
            ],
        )
        # Write latency on the big file: one committed action per call.
        game_id = await store.create_game(1, 1, 1, {"preset": "kani", "players": 4}, 0, [],
                                          game=GAME)
        await store.add_hand(game_id, 0, {"deal": [[], [], [], []]})
        results["append_action"] = await _time(
            "append_action() (commit)",
            [
                partial(store.append_action, game_id, 0, seq, {"seat": 0, "action": "pass"})
                for seq in range(min(samples, 1000))
            ],
            warmup=0,
        )
        await _forget_game(store, target, game_id)  # leave the bench DB as it was
        big_members = [u for g, u in members if g == big]
        results.update(await _hand_ends(store, target, big, big_members, rng,
                                        min(samples, 500)))
    return results


async def _hand_ends(store: Store, target: str, guild: int, members: list[int],
                     rng: random.Random, count: int) -> dict[str, dict[str, float]]:
    """The commit of a hand's last card, `count` times, without and with its rating:
    the service's read of the four members' ratings (all time and this month), the
    model's update, and `record_action` carrying the rating rows."""
    game_id = await store.create_game(guild, 1, 1, {"preset": "kani", "players": 4}, 0, [],
                                      game=GAME)
    await store.add_hand(game_id, 0, {"deal": [[], [], [], []]})
    action = {"seat": 0, "action": "pass"}
    plain = await _time("hand end, record_action() alone",
                        [partial(store.record_action, game_id, 0, seq, action)
                         for seq in range(count)], warmup=0)
    match = RatedMatch(teams=((0, 2), (1, 3)), ranks=(0, 1))
    seq = count

    async def rated_end() -> None:
        nonlocal seq
        seats = rng.sample(members, 4)
        state = await store.rating_state(game_id, guild, GAME, month_of(NOW), seats)
        book = book_of(guild, GAME, month_of(NOW), state.counted, state.ratings,
                       state.seasons)
        logged = (book.rate(GAME, match, tuple(seats), NOW),)
        await store.record_action(game_id, 0, seq, action, ratings=book.update(
            [GameRating(game_id, GAME, state.rated, logged)]))
        seq += 1

    rated = await _time("hand end, read + rate + record_action()",
                        [rated_end for _ in range(count)], warmup=0)
    print(f"  the rating's cost per hand end: {rated['median'] - plain['median']:.3f} ms "
          f"(median), {rated['p99'] - plain['p99']:.3f} ms (p99)")
    await _forget_game(store, target, game_id)
    return {"hand end": plain, "hand end, rated": rated}


async def _forget_game(store: Store, target: str, game_id: int) -> None:
    await store.cancel_game(game_id)
    if target.startswith("postgresql://"):
        import asyncpg

        conn = await asyncpg.connect(target)
        try:
            await conn.execute("DELETE FROM games WHERE id = $1", game_id)
        finally:
            await conn.close()
        return
    with sqlite3.connect(target) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("DELETE FROM games WHERE id = ?", (game_id,))


async def load_postgres(path: Path, url: str) -> float:
    """Copy the bench database into the empty PostgreSQL database at ``url`` (as
    `amerikaner db copy` does) and ANALYZE it; returns the seconds it took."""
    import asyncpg

    start = time.perf_counter()
    counts = await copy_sqlite_to_postgres(path, url)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("ANALYZE")
        size = await conn.fetchval("SELECT pg_database_size(current_database())")
    finally:
        await conn.close()
    seconds = time.perf_counter() - start
    print(f"  loaded {sum(counts.values()):,} rows in {seconds:.1f} s; "
          f"database size {size / 2**20:.0f} MiB")
    return seconds


def _run_postgres(args: argparse.Namespace) -> dict[str, dict[str, float]] | None:
    """The PostgreSQL half of the run, or None when it is switched off."""
    if args.postgres == "none":
        return None
    server = None
    url = args.postgres
    if url == "auto":
        from tests.pg_server import PostgresServer

        # A server of the machine's PostgreSQL in a temporary directory, its durability
        # settings left at PostgreSQL's defaults (fsync on), unlike the test suite's.
        server = PostgresServer.start(durable=True)
        url = server.new_database()
        print(f"PostgreSQL: a throwaway server on 127.0.0.1:{server.port} "
              f"({server.bin_dir.parent.name})")
    try:
        print(f"loading {args.games:,} games into PostgreSQL ...")
        asyncio.run(load_postgres(args.db, url))
        print("PostgreSQL:")
        return asyncio.run(measure(args.db, url, args.samples, args.seed))
    finally:
        if server is not None:
            server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, default=REPO / "data" / "bench" / "store.db")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--guilds", type=int, default=1_000)
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rebuild", action="store_true", help="rebuild even if present")
    parser.add_argument("--target-ms", type=float, default=10.0)
    parser.add_argument("--postgres", default="auto",
                        help="auto: a throwaway PostgreSQL server for the run (default); "
                        "a postgresql:// URL of an empty database; none: SQLite alone")
    args = parser.parse_args(argv)

    args.db.parent.mkdir(parents=True, exist_ok=True)
    have = existing_games(args.db)
    if args.rebuild or have != args.games:
        print(f"building {args.db} with {args.games:,} games ...")
        seconds = build(args.db, args.games, args.guilds, args.users, args.seed)
        print(f"  build time {seconds:.1f} s")
    else:
        print(f"reusing {args.db} ({have:,} games)")
    size = sum(
        Path(f"{args.db}{s}").stat().st_size for s in ("", "-wal") if Path(f"{args.db}{s}").exists()
    )
    print(f"  database size {size / 2**20:.0f} MiB")

    print("SQLite:")
    runs = {"SQLite": asyncio.run(measure(args.db, str(args.db), args.samples, args.seed))}
    postgres = _run_postgres(args)
    if postgres is not None:
        runs["PostgreSQL"] = postgres
    ok = True
    for backend, results in runs.items():
        met = all(results[k]["p99"] <= args.target_ms
                  for k in ("leaderboard page 1", "member_stats"))
        ok = ok and met
        print(f"{backend}: target {args.target_ms} ms for leaderboard page 1 and "
              f"member_stats p99 at {args.games:,} games: {'met' if met else 'MISSED'}")
        board = results["rating board page 1"]["p99"]
        met = board <= args.target_ms
        ok = ok and met
        cost = results["hand end, rated"]["median"] - results["hand end"]["median"]
        print(f"{backend}: rating board page 1 p99 {board:.3f} ms at {args.games:,} games "
              f"(target {args.target_ms} ms: {'met' if met else 'MISSED'}); the rating "
              f"adds {cost:.3f} ms to a hand end's commit (median)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
