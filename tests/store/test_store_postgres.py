"""What the PostgreSQL store guarantees beyond one process: two stores (two pools, as two
bot processes would have) on one database never double or lose a move, a result or a
game; a leaderboard page and a member's stats read one index range."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.store import (
    ChannelBusyError,
    DuplicateActionError,
    GameNotActiveError,
    MemberStats,
    ResultRow,
    SeatInfo,
    open_database,
)
from bot.store.postgres import PostgresStore
from tests.store_backends import GAME, GAME_FORMAT


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    first = await open_database(pg_url)
    second = await open_database(pg_url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_one_active_game_per_channel_across_processes(
        two: tuple[PostgresStore, PostgresStore]) -> None:
    a, b = two
    outcomes = await asyncio.gather(
        *(store.create_game(1, 77, 100 + i, {}, 0, [SeatInfo(0, 100 + i, "p")], game=GAME)
          for i, store in enumerate([a, b, a, b])),
        return_exceptions=True)
    created = [o for o in outcomes if isinstance(o, int)]
    assert len(created) == 1
    assert all(isinstance(o, ChannelBusyError) for o in outcomes if not isinstance(o, int))
    assert (await b.active_game_in_channel(77)).id == created[0]  # type: ignore[union-attr]


async def test_the_same_move_from_two_processes_is_stored_once(
        two: tuple[PostgresStore, PostgresStore]) -> None:
    a, b = two
    game_id = await a.create_game(1, 5, 100, {}, 0, [], game=GAME)
    await a.add_hand(game_id, 0, {"deal": [[], [], []]})
    for seq in range(20):
        outcomes = await asyncio.gather(
            a.record_action(game_id, 0, seq, {"seat": 0, "by": "a"}),
            b.record_action(game_id, 0, seq, {"seat": 0, "by": "b"}),
            return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["DuplicateActionError",
                                                              "NoneType"]
    actions = (await b.load_record(game_id, record_format=GAME_FORMAT))["hands"][0]["actions"]
    assert len(actions) == 20
    with pytest.raises(DuplicateActionError):
        await b.append_action(game_id, 0, 5, {"seat": 0})


async def test_a_game_is_finished_once_and_totals_add_up_across_processes(
        two: tuple[PostgresStore, PostgresStore]) -> None:
    a, b = two
    games = [await a.create_game(1, 100 + i, 1, {}, 0, [], game=GAME) for i in range(30)]

    async def finish(store: PostgresStore, game_id: int) -> str:
        try:
            await store.finish_game(game_id, [
                ResultRow(7, 0, 1, 10, True, {"a": 1}), ResultRow(8, 1, 2, 3, False, {"b": 2})])
        except GameNotActiveError:
            return "refused"
        return "finished"

    # Every game finished by both processes at once: each counts exactly once, and the
    # two members' totals, summed in concurrent upserts, lose nothing.
    outcomes = await asyncio.gather(*(finish(s, g) for g in games for s in (a, b)))
    assert outcomes.count("finished") == 30 and outcomes.count("refused") == 30
    assert await a.member_stats(1, GAME, 7) == MemberStats(1, GAME, 7, 30, 30, 300, {"a": 30})
    assert await b.member_stats(1, GAME, 8) == MemberStats(1, GAME, 8, 30, 0, 90, {"b": 60})


async def test_leaderboard_and_member_stats_are_index_range_scans(pg_url: str) -> None:
    async with open_database(pg_url) as store:
        for i in range(300):  # enough rows that the planner prefers the indexes
            game_id = await store.create_game(i % 3, 1000 + i, 1, {}, 0, [], game=GAME)
            await store.finish_game(game_id, [ResultRow(i, 0, 1, i % 17, i % 2 == 0)])
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("ANALYZE")
        await conn.execute("SET enable_seqscan = off")  # as on a big table

        async def plan(sql: str) -> str:
            rows = await conn.fetch("EXPLAIN " + sql)
            return "\n".join(r[0] for r in rows)

        wins = await plan("SELECT user_id, games, wins, points FROM player_totals WHERE "
                          "guild_id = 1 AND game = 'amerikaner' ORDER BY wins DESC, "
                          "points DESC, user_id LIMIT 10 OFFSET 20")
        points = await plan("SELECT user_id, games, wins, points FROM player_totals WHERE "
                            "guild_id = 1 AND game = 'amerikaner' ORDER BY points DESC, "
                            "wins DESC, user_id LIMIT 10")
        member = await plan("SELECT games, wins, points, stats FROM player_totals WHERE "
                            "guild_id = 1 AND game = 'amerikaner' AND user_id = 4")
    finally:
        await conn.close()
    assert "player_totals_wins" in wins and "Sort" not in wins
    assert "player_totals_points" in points and "Sort" not in points
    assert "player_totals_pkey" in member
