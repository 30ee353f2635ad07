"""A database written by the store before it was game-neutral (schema version 2)
upgrades in place with nothing lost.

tests/fixtures/store_v2.sqlite3 was made by tests/fixtures/make_v2_db.py with the code of
that time, and store_v2.expected.json is what that code read back from it. Each test
upgrades a copy with the current code and compares, on both backends: on PostgreSQL the
copy is a database migrated to version 2 holding the fixture's rows, which PostgreSQL's
own migration 3 then upgrades.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.games import GAMES
from bot.games.amerikaner.record import load_game, replay_output
from bot.store import ResultRow, Store, latest_version, migrations
from bot.store.copy import copy_rows
from bot.tables.service import TableService
from bot.tables.table import PLAYING
from tests.store_backends import GAME, GAME_FORMAT, Database

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FIXTURE = FIXTURES / "store_v2.sqlite3"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "store_v2.expected.json").read_text())
RAW: dict[str, Any] = EXPECTED["raw"]
OLD_STATS = ("contracts_made", "contracts_failed", "top_bids_made", "hands_played")


@pytest.fixture
async def copy(database: Database) -> Database:
    """The fixture's schema-2 database, not yet upgraded, on the test's backend."""
    if database.backend == "sqlite":
        shutil.copyfile(FIXTURE, database.target)
        return database
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:2])
        async with database.open() as store:
            assert await store.schema_version() == 2
    source = sqlite3.connect(f"file:{FIXTURE}?mode=ro&immutable=1", uri=True)
    dest = await asyncpg.connect(database.target)
    try:
        async with dest.transaction():
            await copy_rows(source, dest)
    finally:
        source.close()
        await dest.close()
    return database


@pytest.fixture
async def store(copy: Database) -> AsyncIterator[Store]:
    store = await copy.open()
    try:
        yield store
    finally:
        await store.close()


def test_the_fixture_is_schema_2_in_one_file() -> None:
    # Read-only and immutable: reading the committed file must leave no log beside it.
    conn = sqlite3.connect(f"file:{FIXTURE}?mode=ro&immutable=1", uri=True)
    try:
        assert conn.execute("PRAGMA user_version").fetchone() == (2,)
    finally:
        conn.close()
    assert EXPECTED["schema_version"] == 2
    assert not FIXTURE.with_name(FIXTURE.name + "-wal").exists()


async def test_upgrade_keeps_every_row(store: Store, copy: Database) -> None:
    assert await store.schema_version() == latest_version() == 11
    for table, count in RAW["counts"].items():
        assert await copy.rows(f"SELECT COUNT(*) FROM {table}") == [(count,)], table
    assert await copy.rows("SELECT COUNT(*) FROM guild_prefs") == [(0,)]
    # Version 4 (games over days): no member settings or followed panels yet, and the
    # games' turn times unknown (a timer then runs from `updated_at`).
    assert await copy.rows("SELECT COUNT(*) FROM member_settings") == [(0,)]
    assert await copy.rows("SELECT COUNT(*) FROM panels") == [(0,)]
    assert await copy.rows("SELECT COUNT(*) FROM games WHERE turn_since IS NOT NULL") \
        == [(0,)]
    # Version 5 (ratings): none until `db rerate` rates the games played before.
    for table in ("ratings", "rating_seasons", "rating_days", "rating_games",
                  "rating_counts"):
        assert await copy.rows(f"SELECT COUNT(*) FROM {table}") == [(0,)], table
    # Version 6 (DM clicks relayed between shard processes): rows of seconds only.
    assert await copy.rows("SELECT COUNT(*) FROM relayed_interactions") == [(0,)]
    # Versions 7 and 9 (the deal of the day, its ladders): no plays, days or values yet.
    for table in ("daily_plays", "daily_days", "bot_values", "daily_points", "daily_scored",
                  "daily_ladders"):
        assert await copy.rows(f"SELECT COUNT(*) FROM {table}") == [(0,)], table
    # Version 10 (a day's rules kept with the day): no day fixed yet.
    assert await copy.rows("SELECT COUNT(*) FROM daily_rules") == [(0,)]
    # Version 11 (a member's own language, issue 55): nobody has chosen one yet.
    assert await copy.rows("SELECT COUNT(*) FROM member_languages") == [(0,)]
    # Version 8 (ratings of a member's own play): nothing rated, so no rerate due.
    assert await copy.rows("SELECT COUNT(*) FROM rerate_due") == [(0,)]
    if copy.backend == "sqlite":
        assert await copy.rows("PRAGMA foreign_key_check") == []
        assert await copy.rows("PRAGMA integrity_check") == [("ok",)]


async def test_games_seats_meta_and_records_are_unchanged(store: Store) -> None:
    for game_id, want in EXPECTED["games"].items():
        row = await store.get_game(int(game_id))
        assert row is not None
        assert row.game == GAME
        got = {
            "guild_id": row.guild_id, "channel_id": row.channel_id, "host_id": row.host_id,
            "status": row.status, "rules": row.rules, "first_dealer": row.first_dealer,
            "meta": row.meta, "created_at": row.created_at, "updated_at": row.updated_at,
            "finished_at": row.finished_at,
            "seats": [[s.seat, s.user_id, s.display_name, s.is_ai, s.ai_level]
                      for s in row.seats],
        }
        assert got == {k: v for k, v in want.items() if k in got}, game_id
        record = await store.load_record(int(game_id), record_format=GAME_FORMAT)
        text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256(text.encode()).hexdigest() == want["record_sha256"], game_id
        assert sum(len(h["actions"]) for h in record["hands"]) == want["actions"]
    assert [g.id for g in await store.unfinished_games()] == EXPECTED["unfinished"]


async def test_results_become_places_points_won_and_stats(copy: Database, store: Store
                                                          ) -> None:
    new = await copy.rows("SELECT game_id, guild_id, game, user_id, seat, place, points, won, "
                     "stats FROM results ORDER BY game_id, seat")
    expected = []
    for game_id, guild_id, user_id, seat, points, won, *counters in RAW["results"]:
        better = sum(1 for r in RAW["results"] if r[0] == game_id and r[4] > points)
        stats = dict(zip(OLD_STATS, counters, strict=True))
        expected.append((game_id, guild_id, GAME, user_id, seat, 1 + better, points, won,
                         stats))
    assert [(*r[:8], json.loads(r[8])) for r in new] == expected
    # The first game: seats 0 and 1 tied at 0 behind seat 3 (seat 2, an AI, has no row).
    tie = EXPECTED["ids"]["g1_tie"]
    assert [r[4:6] for r in new if r[0] == tie] == [(0, 2), (1, 2), (3, 1)]


async def test_totals_keep_every_counter(copy: Database, store: Store) -> None:
    new = await copy.rows("SELECT guild_id, game, user_id, games, wins, points, stats, "
                     "last_played_at FROM player_totals ORDER BY guild_id, user_id")
    expected = [(guild_id, GAME, user_id, games, wins, points,
                 dict(zip(OLD_STATS, counters, strict=True)), last)
                for guild_id, user_id, games, wins, points, *counters, last
                in RAW["player_totals"]]
    assert [(*r[:6], json.loads(r[6]), r[7]) for r in new] == expected


async def test_leaderboards_and_member_stats_read_the_same(store: Store) -> None:
    for guild, want in EXPECTED["guilds"].items():
        guild_id = int(guild)
        assert await store.leaderboard_size(guild_id, GAME) == want["leaderboard_size"]
        for order, board in want["leaderboard"].items():
            got = await store.leaderboard(guild_id, GAME, order, 100)
            assert [[r.user_id, r.games, r.wins, r.points] for r in got] == board
        for user, stats in want["member_stats"].items():
            got = await store.member_stats(guild_id, GAME, int(user))
            assert (got.games, got.wins, got.points) == (
                stats["games"], stats["wins"], stats["points"])
            # A member who never finished a game has no stats at all (zeros before).
            expected = {k: stats[k] for k in OLD_STATS} if stats["games"] else {}
            assert got.stats == expected, (guild, user)
        assert await store.leaderboard_size(guild_id, "american") == 0


async def test_settings_are_amerikaner_settings(store: Store) -> None:
    for guild, want in EXPECTED["guilds"].items():
        assert await store.get_guild_settings(int(guild), GAME) == want["settings"]
        assert await store.get_guild_settings(int(guild), "american") == {}
        assert await store.get_guild_language(int(guild)) is None


async def test_outbox_is_carried_over(copy: Database, store: Store) -> None:
    pending = await store.pending_posts()
    assert [[p.id, p.game_id, p.channel_id, p.kind, p.params, p.created_at]
            for p in pending] == EXPECTED["pending_posts"]
    assert [list(r) for r in await copy.rows("SELECT id, game_id, channel_id, kind, params, "
                                        "created_at, message_id, done_at FROM outbox "
                                        "ORDER BY id")] == RAW["outbox"]


async def test_active_game_replays_and_restores(store: Store) -> None:
    active = EXPECTED["ids"]["g1_active"]
    source = json.loads((FIXTURES / "conformance" / "valid" / "game_00004.json").read_text())
    hand = source["hands"][0]
    want = {**source, "hands": [{**hand, "actions": hand["actions"][:6]}]}
    record = await store.load_record(active, record_format=GAME_FORMAT)
    assert record == want
    assert replay_output(load_game(record)) == replay_output(load_game(want))
    # The table service's restart path rebuilds it, the away player still away.
    service = TableService(store, GAMES)
    service.registry.closed = True  # never schedules an AI turn
    tables = await service.restore()
    assert [t.id for t in tables] == [active]
    table = tables[0]
    assert table.stage == PLAYING and table.game is not None
    assert sum(len(h.actions) for h in table.game.hands) == 6
    assert [(s.user_id, s.away) for s in table.seats] == [
        (503, False), (None, False), (505, True), (501, False)]


async def test_upgraded_database_takes_new_games(copy: Database) -> None:
    async with copy.open() as store:
        active = EXPECTED["ids"]["g1_active"]
        before = await store.member_stats(1001, GAME, 501)
        await store.finish_game(active, [
            ResultRow(501, 3, 1, 20, True, {"contracts_made": 1, "hands_played": 1}),
            ResultRow(503, 0, 2, 5, False, {"hands_played": 1, "new_counter": 2}),
        ])
        after = await store.member_stats(1001, GAME, 501)
        assert (after.games, after.wins, after.points) == (
            before.games + 1, before.wins + 1, before.points + 20)
        assert after.stats == {**before.stats,
                               "contracts_made": before.stats["contracts_made"] + 1,
                               "hands_played": before.stats["hands_played"] + 1}
        carol = await store.member_stats(1001, GAME, 503)
        assert carol.stats["new_counter"] == 2
    async with copy.open() as store:  # and opening again changes nothing
        assert await store.schema_version() == latest_version()
        assert (await store.member_stats(1001, GAME, 501)) == after


async def test_rerate_rates_the_games_played_before_the_ratings(store: Store,
                                                                 copy: Database) -> None:
    """The games of a database older than the ratings have no rating log: `rerate` rates
    their matches (in the order the games ended) and logs them, so a second rerate, and
    the running bot, go on from the same numbers."""
    from bot.tables.rerate import rerate

    first = await rerate(store, GAMES)
    assert first.matches > 0 and first.members > 0 and not first.skipped
    tables = ("ratings", "rating_seasons", "rating_days", "rating_games", "rating_counts")
    dump = {t: await copy.rows(f"SELECT * FROM {t} ORDER BY 1, 2") for t in tables}
    logged = await store.rating_logs()
    assert sum(len(matches) for _pool, matches in logged.values()) == first.matches
    again = await rerate(store, GAMES)
    assert again == first
    assert {t: await copy.rows(f"SELECT * FROM {t} ORDER BY 1, 2") for t in tables} \
        == dump
