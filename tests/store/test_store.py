"""Tests of bot.store through its public interface, on both backends where the
behaviour is the Store protocol's (the `store` and `database` fixtures run each test on
SQLite and on the test PostgreSQL server); SQLite's own options (WAL, checkpoints,
PRAGMAs) on SQLite alone."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import (
    ChannelBusyError,
    DuplicateActionError,
    GameNotActiveError,
    GameNotFoundError,
    LeaderRow,
    MemberStats,
    OutOfOrderError,
    Post,
    ResultRow,
    SeatInfo,
    SqliteStore,
    Store,
    StoreError,
    latest_version,
    migrations,
    open_store,
)
from bot.store.sqlite import split_sql
from tests.store_backends import GAME, GAME_FORMAT, Database

REPO = Path(__file__).resolve().parents[2]

# A real, complete record (conformance game_00003): 3 players, kitty, free trump.
SMALL_RECORD: dict[str, Any] = json.loads(
    """{"format":"amerikaner-record/1","rules":{"preset":"amerikaner","players":3,
"options":{"free_trump":true,"show_kitty":true,"kitty_trick":true,"bidder_double":true,
"target":15}},"first_dealer":2,"hands":[{"deal":[["QC","3S","6C","KC","3H","10S","9C",
"2D","4C","AC","2S","5H","4H","2C","10H","3D"],["7H","QD","JD","5C","AD","7S","2H","10C",
"QS","8H","JC","6H","10D","7D","5D","9H"],["KD","4D","4S","3C","5S","8S","8D","AH","JH",
"9D","9S","JS","KS","KH","AS","8C"]],"kitty":["6S","7C","QH","6D"],"actions":[
{"seat":0,"action":"bid","bid":9},{"seat":1,"action":"pass"},
{"seat":2,"action":"bid","bid":12},{"seat":0,"action":"pass"},
{"seat":2,"action":"discard","cards":["3C","4S","JH","AH"]},
{"seat":2,"action":"play","card":"JS","call":"QS","trump":"H"},
{"seat":0,"action":"play","card":"10S"},{"seat":1,"action":"play","card":"QS"},
{"seat":1,"action":"play","card":"2H"},{"seat":2,"action":"play","card":"QH"},
{"seat":0,"action":"play","card":"4H"},{"seat":2,"action":"play","card":"6D"},
{"seat":0,"action":"play","card":"3D"},{"seat":1,"action":"play","card":"10D"}]}]}"""
)

# A norsk hand with a blind and a removed list, stopping with a hand without actions.
BLIND_RECORD: dict[str, Any] = {
    "format": "amerikaner-record/1",
    "rules": {"preset": "norsk", "players": 3, "options": {"two_wins": True}},
    "first_dealer": 1,
    "hands": [
        {
            "deal": [["AS", "KS"], ["QS", "JS"], ["10S", "9S"]],
            "blind": ["2C", "3C"],
            "removed": ["2S"],
            "actions": [
                {"seat": 2, "action": "redeal"},
            ],
        },
        {
            "deal": [["AH", "KH"], ["QH", "JH"], ["10H", "9H"]],
            "blind": ["2D", "3D"],
            "actions": [],
        },
    ],
}


def _conformance_records() -> list[Path]:
    """Small and large, finished and unfinished records of tests/fixtures/conformance."""
    folder = REPO / "tests" / "fixtures" / "conformance" / "valid"
    files = sorted(p.with_name(p.name.removesuffix(".expected.json") + ".json")
                   for p in folder.glob("*.expected.json"))
    return [files[i] for i in range(0, len(files), max(1, len(files) // 8))]


def seats_for(players: int, base_user: int = 100) -> list[SeatInfo]:
    seats = [SeatInfo(seat=i, user_id=base_user + i, display_name=f"p{i}") for i in range(players)]
    seats[-1] = SeatInfo(
        seat=players - 1, user_id=None, display_name="Bot", is_ai=True, ai_level="hard"
    )
    return seats


async def write_record(
    store: Store,
    record: dict[str, Any],
    *,
    guild_id: int = 1,
    channel_id: int = 10,
    batch: bool = False,
) -> int:
    """Write a record through the store API, the way the table service would."""
    game_id = await store.create_game(
        guild_id,
        channel_id,
        host_id=100,
        rules=record["rules"],
        first_dealer=record["first_dealer"],
        seats=seats_for(record["rules"]["players"]),
        game=GAME,
    )
    for hand_index, hand in enumerate(record["hands"]):
        deal = {k: v for k, v in hand.items() if k != "actions"}
        await store.add_hand(game_id, hand_index, deal)
        actions = hand["actions"]
        if batch:
            # Alternate batch sizes, including the empty batch.
            seq = 0
            step = 1
            while seq < len(actions):
                await store.append_actions(game_id, hand_index, seq, actions[seq : seq + step])
                seq += step
                step = step % 5 + 1
        else:
            for seq, action in enumerate(actions):
                await store.append_action(game_id, hand_index, seq, action)
    return game_id


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Store]:
    s = await database.open()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def sqlite_store() -> AsyncIterator[SqliteStore]:
    s = await open_store(":memory:")
    try:
        yield s
    finally:
        await s.close()


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {r[0] for r in rows}


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


# ------------------------------------------------------------------ migrations


async def test_migrate_from_empty_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "bot.db"  # parent directories are created
    store = await open_store(path)
    assert await store.schema_version() == latest_version()
    game_id = await write_record(store, SMALL_RECORD)
    await store.close()

    assert user_version(path) == latest_version()
    assert {
        "games",
        "game_seats",
        "game_hands",
        "game_actions",
        "results",
        "player_totals",
        "guild_settings",
    } <= tables(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"

    # Re-opening is a no-op: same version, same data.
    async with await open_store(path) as again:
        assert await again.schema_version() == latest_version()
        assert await again.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD
    assert user_version(path) == latest_version()


async def test_backup_and_checkpoint(tmp_path: Path) -> None:
    async with await open_store(tmp_path / "bot.db") as store:
        game_id = await write_record(store, SMALL_RECORD)
        await store.set_guild_settings(1, GAME, {"preset": "kani"})
        await store.checkpoint()
        await store.backup(tmp_path / "backups" / "copy.db")
    async with await open_store(tmp_path / "backups" / "copy.db") as copy:
        assert await copy.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD
        assert await copy.get_guild_settings(1, GAME) == {"preset": "kani"}
        assert [g.id for g in await copy.unfinished_games()] == [game_id]


async def test_checkpoint_folds_the_log_while_writes_go_on(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with await open_store(path, autocheckpoint_pages=100_000) as store:
        for channel in range(20):
            await write_record(store, SMALL_RECORD, channel_id=100 + channel)
        wal = path.with_name(path.name + "-wal")
        assert wal.stat().st_size > 0
        # The fold runs on its own connection: a write started meanwhile completes.
        fold = asyncio.ensure_future(store.checkpoint())
        game_id = await write_record(store, SMALL_RECORD, channel_id=99)
        log_frames, done = await fold
        assert log_frames > 0 and done > 0
        assert await store.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD
        log_frames, done = await store.checkpoint()
        assert done == log_frames > 0  # quiet now: everything folded
    async with await open_store(":memory:") as memory:
        assert await memory.checkpoint() == (0, 0)


async def test_open_forms_and_options(tmp_path: Path) -> None:
    async with open_store(tmp_path / "a.db", synchronous="FULL") as store:
        game_id = await write_record(store, SMALL_RECORD)
    with pytest.raises(StoreError):  # closed at the end of the block
        await store.get_game(game_id)
    store = await open_store(tmp_path / "a.db")
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD
    await store.close()
    with pytest.raises(ValueError):
        open_store(tmp_path / "a.db", synchronous="OFF")  # type: ignore[arg-type]


async def test_appended_migration_applies_on_reopen(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await database.open() as store:
        game_id = await write_record(store, SMALL_RECORD)
    v = latest_version()
    monkeypatch.setattr(
        migrations,
        "MIGRATIONS",
        [*migrations.MIGRATIONS, (v + 1, "ALTER TABLE games ADD COLUMN note TEXT; -- a; b\n")],
    )
    async with await database.open() as store:
        assert await store.schema_version() == v + 1
        assert await store.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD
    assert "note" in await database.columns("games")
    async with await database.open() as store:  # and again: nothing to do
        assert await store.schema_version() == v + 1


async def test_failed_migration_rolls_back(database: Database,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    async with await database.open():
        pass
    v = latest_version()
    monkeypatch.setattr(
        migrations,
        "MIGRATIONS",
        [*migrations.MIGRATIONS, (v + 1, "CREATE TABLE half (x INTEGER); SELECT * FROM nope;")],
    )
    with pytest.raises(Exception, match="nope"):  # the backend's own error
        await database.open()
    monkeypatch.undo()
    async with await database.open() as store:
        assert await store.schema_version() == v
    assert "half" not in await database.tables()


async def test_newer_database_is_refused(database: Database) -> None:
    async with await database.open():
        pass
    newer = latest_version() + 5
    await database.execute(f"PRAGMA user_version = {newer}" if database.backend == "sqlite"
                           else f"UPDATE schema_version SET version = {newer}")
    with pytest.raises(StoreError, match="newer"):
        await database.open()


async def test_every_table_on_both_backends(database: Database) -> None:
    """The migrations make the same tables and columns in both dialects."""
    async with await database.open() as store:
        assert await store.schema_version() == latest_version()
    names = {"games", "game_seats", "game_hands", "game_actions", "results",
             "player_totals", "guild_settings", "guild_prefs", "outbox"}
    assert names <= await database.tables()
    assert await database.columns("results") == {
        "game_id", "guild_id", "game", "user_id", "seat", "place", "points", "won", "stats"}
    assert await database.columns("player_totals") == {
        "guild_id", "game", "user_id", "games", "wins", "points", "stats", "last_played_at"}


def test_split_sql_handles_comments_and_strings() -> None:
    script = "CREATE TABLE a (x); -- one; two\nINSERT INTO a VALUES ('x;y');\n-- end;\n"
    assert split_sql(script) == [
        "CREATE TABLE a (x);",
        "-- one; two\nINSERT INTO a VALUES ('x;y');",
    ]
    with pytest.raises(ValueError):
        split_sql("CREATE TABLE b (x")


# -------------------------------------------------------------- records round trip


async def test_small_record_round_trip(store: Store) -> None:
    game_id = await write_record(store, SMALL_RECORD)
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD


async def test_blind_removed_and_empty_hand_round_trip(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD, batch=True)
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == BLIND_RECORD


async def test_record_without_hands(store: Store) -> None:
    game_id = await store.create_game(1, 10, 100, {"preset": "kani", "players": 4}, 3, [],
                                      game=GAME)
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == {
        "format": "amerikaner-record/1",
        "rules": {"preset": "kani", "players": 4},
        "first_dealer": 3,
        "hands": [],
    }


@pytest.mark.parametrize("path", _conformance_records(), ids=lambda p: p.name)
async def test_conformance_record_round_trip(store: Store, path: Path) -> None:
    record = json.loads(path.read_text())
    game_id = await write_record(store, record, batch=True)
    loaded = await store.load_record(game_id, record_format=GAME_FORMAT)
    assert loaded == record
    assert [list(h) for h in loaded["hands"]][:1] == [list(h) for h in record["hands"]][:1]


async def test_the_record_format_is_the_callers(store: Store) -> None:
    # The store knows no game: the game names its records' format (GameKind.record_format).
    game_id = await write_record(store, SMALL_RECORD)
    toy = await store.load_record(game_id, record_format="toy-record/1")
    assert toy == {**SMALL_RECORD, "format": "toy-record/1"}


async def test_load_record_of_missing_game(store: Store) -> None:
    with pytest.raises(GameNotFoundError):
        await store.load_record(999, record_format=GAME_FORMAT)
    assert await store.get_game(999) is None


# ------------------------------------------------------------- refusing bad writes


async def test_duplicate_append_is_refused(store: Store) -> None:
    game_id = await write_record(store, SMALL_RECORD)
    n = len(SMALL_RECORD["hands"][0]["actions"])
    with pytest.raises(DuplicateActionError):
        await store.append_action(game_id, 0, n - 1, {"seat": 0, "action": "pass"})
    with pytest.raises(DuplicateActionError):
        await store.append_actions(game_id, 0, 0, [{"seat": 0, "action": "pass"}])
    with pytest.raises(DuplicateActionError):
        await store.add_hand(game_id, 0, {"deal": []})
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD


async def test_gaps_are_refused(store: Store) -> None:
    game_id = await write_record(store, SMALL_RECORD)
    n = len(SMALL_RECORD["hands"][0]["actions"])
    with pytest.raises(OutOfOrderError):
        await store.append_action(game_id, 0, n + 1, {"seat": 0, "action": "pass"})
    with pytest.raises(OutOfOrderError):  # hand 1 has no deal yet
        await store.append_action(game_id, 1, 0, {"seat": 0, "action": "pass"})
    with pytest.raises(OutOfOrderError):
        await store.add_hand(game_id, 2, {"deal": []})
    with pytest.raises(GameNotFoundError):
        await store.append_action(12345, 0, 0, {"seat": 0, "action": "pass"})
    with pytest.raises(ValueError):
        await store.add_hand(game_id, 1, {"deal": [], "actions": []})
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD
    assert await store.action_count(game_id, 0) == n


async def test_append_actions_is_all_or_nothing(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    with pytest.raises(TypeError):  # not JSON-serialisable: nothing is stored
        await store.append_actions(
            game_id, 1, 0, [{"seat": 2, "action": "pass"}, {"seat": 0, "bad": object()}]
        )
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == BLIND_RECORD


async def test_finished_game_takes_no_more_actions(store: Store) -> None:
    game_id = await write_record(store, SMALL_RECORD)
    await store.finish_game(game_id, [])
    n = len(SMALL_RECORD["hands"][0]["actions"])
    with pytest.raises(GameNotActiveError):
        await store.append_action(game_id, 0, n, {"seat": 0, "action": "pass"})
    with pytest.raises(GameNotActiveError):
        await store.add_hand(game_id, 1, {"deal": []})
    with pytest.raises(GameNotActiveError):
        await store.finish_game(game_id, [])
    assert await store.cancel_game(game_id) is False
    assert (await store.get_game(game_id)).status == "finished"  # type: ignore[union-attr]


# ------------------------------------------------------------------ transactions


async def test_transaction_commits_action_and_next_deal_together(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    next_deal = {"deal": [["AD"], ["KD"], ["QD"]], "blind": ["2H", "3H"]}
    async with store.transaction():
        await store.append_action(game_id, 1, 0, {"seat": 2, "action": "redeal"})
        await store.add_hand(game_id, 2, next_deal)
        # Reads inside the block see the block's own writes.
        assert len((await store.load_record(game_id, record_format=GAME_FORMAT))["hands"]) == 3
    record = await store.load_record(game_id, record_format=GAME_FORMAT)
    assert record["hands"][1]["actions"] == [{"seat": 2, "action": "redeal"}]
    assert record["hands"][2] == {**next_deal, "actions": []}


async def test_transaction_rolls_back_on_error(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    with pytest.raises(RuntimeError):
        async with store.transaction():
            await store.append_action(game_id, 1, 0, {"seat": 2, "action": "redeal"})
            await store.add_hand(game_id, 2, {"deal": [["AD"], ["KD"], ["QD"]]})
            raise RuntimeError("crash before commit")
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == BLIND_RECORD
    # A refused write inside the block rolls back the whole block too.
    with pytest.raises(DuplicateActionError):
        async with store.transaction():
            await store.add_hand(game_id, 2, {"deal": [["AD"], ["KD"], ["QD"]]})
            await store.append_action(game_id, 0, 0, {"seat": 2, "action": "redeal"})
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == BLIND_RECORD


async def test_other_tasks_do_not_see_uncommitted_writes(store: Store) -> None:
    """SQLite's reader waits for the block; PostgreSQL's reads the state before it.
    Neither ever sees half of it."""
    game_id = await write_record(store, BLIND_RECORD)
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with store.transaction():
            await store.append_action(game_id, 1, 0, {"seat": 2, "action": "redeal"})
            inside.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await inside.wait()
    reader = asyncio.create_task(store.load_record(game_id, record_format=GAME_FORMAT))
    await asyncio.sleep(0.01)
    if isinstance(store, SqliteStore):
        assert not reader.done()  # waits for the transaction instead of reading half
    else:
        assert await reader == BLIND_RECORD  # the committed state, without the block
    release.set()
    await task
    if isinstance(store, SqliteStore):
        assert (await reader)["hands"][1]["actions"] == [{"seat": 2, "action": "redeal"}]
    assert (await store.load_record(game_id, record_format=GAME_FORMAT))["hands"][1]["actions"] == [
        {"seat": 2, "action": "redeal"}]


async def test_cancelled_task_rolls_back_and_store_stays_usable(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    inside = asyncio.Event()

    async def writer() -> None:
        async with store.transaction():
            await store.append_action(game_id, 1, 0, {"seat": 2, "action": "redeal"})
            inside.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(writer())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == BLIND_RECORD
    await store.append_action(game_id, 1, 0, {"seat": 0, "action": "pass"})
    assert (await store.load_record(game_id, record_format=GAME_FORMAT))["hands"][1]["actions"] == [
        {"seat": 0, "action": "pass"}
    ]


async def test_closed_store_refuses_calls(database: Database) -> None:
    store = await database.open()
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(StoreError):
        await store.get_game(1)
    with pytest.raises(StoreError):
        await store.set_guild_settings(1, GAME, {})


async def test_concurrent_games(store: Store) -> None:
    async def play(channel: int) -> int:
        return await write_record(store, SMALL_RECORD, channel_id=channel)

    ids = await asyncio.gather(*(play(c) for c in range(20)))
    assert len(set(ids)) == 20
    for game_id in ids:
        assert await store.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD


# --------------------------------------------------------------- games and restart


async def test_unfinished_games_after_restart(database: Database) -> None:
    async with await database.open() as store:
        finished = await write_record(store, SMALL_RECORD, channel_id=1)
        cancelled = await write_record(store, SMALL_RECORD, channel_id=2)
        active = await write_record(store, BLIND_RECORD, channel_id=3)
        await store.set_meta(active, {"lobby_message": 42, "timer": 30.5})
        await store.finish_game(finished, [ResultRow(100, 0, place=1, points=15, won=True)])
        assert await store.cancel_game(cancelled) is True
        assert await store.cancel_game(cancelled) is False
    # (a restart)
    async with await database.open() as store:
        games = await store.unfinished_games()
        assert [g.id for g in games] == [active]
        game = games[0]
        assert game.status == "active"
        assert game.channel_id == 3
        assert game.rules == BLIND_RECORD["rules"]
        assert game.first_dealer == 1
        assert game.meta == {"lobby_message": 42, "timer": 30.5}
        assert game.seats == tuple(seats_for(3))
        assert await store.load_record(active, record_format=GAME_FORMAT) == BLIND_RECORD
        assert (await store.active_game_in_channel(3)) == game
        assert await store.active_game_in_channel(1) is None
        assert [g.id for g in await store.active_games_of_user(100)] == [active]
        cancelled_row = await store.get_game(cancelled)
        assert cancelled_row is not None
        assert cancelled_row.status == "cancelled"
        assert cancelled_row.finished_at is not None


async def test_one_active_game_per_channel(store: Store) -> None:
    first = await store.create_game(1, 10, 100, {"preset": "kani", "players": 4}, 0, [], game=GAME)
    with pytest.raises(ChannelBusyError):
        await store.create_game(1, 10, 101, {"preset": "kani", "players": 4}, 0, [], game=GAME)
    await store.create_game(1, 11, 101, {"preset": "kani", "players": 4}, 0, [], game=GAME)
    await store.cancel_game(first)
    second = await store.create_game(1, 10, 101, {"preset": "kani", "players": 4}, 0, [], game=GAME)
    assert (await store.active_game_in_channel(10)).id == second  # type: ignore[union-attr]


async def test_update_seats_and_meta(store: Store) -> None:
    game_id = await store.create_game(
        1, 10, 100, {"preset": "amerikaner", "players": 4}, 0, seats_for(4), meta={"a": 1}
    , game=GAME)
    new_seats = [*seats_for(4)[:2], SeatInfo(2, None, "Bot 2", True, "easy"), seats_for(4)[3]]
    await store.update_seats(game_id, new_seats)
    await store.set_meta(game_id, {"b": [1, 2]})
    game = await store.get_game(game_id)
    assert game is not None
    assert game.seats == tuple(new_seats)
    assert game.meta == {"b": [1, 2]}
    assert game.updated_at >= game.created_at
    with pytest.raises(StoreError):  # two players in one seat
        await store.update_seats(game_id, [SeatInfo(0, 1, "a"), SeatInfo(0, 2, "b")])
    assert (await store.get_game(game_id)).seats == tuple(new_seats)  # type: ignore[union-attr]
    with pytest.raises(GameNotFoundError):
        await store.set_meta(999, {})


# ---------------------------------------------------------- results and leaderboard


async def finish(store: Store, guild: int, channel: int, results: list[ResultRow],
                 game: str = GAME) -> int:
    game_id = await store.create_game(guild, channel, 1, {"preset": "kani", "players": 4}, 0,
                                      [], game=game)
    await store.finish_game(game_id, results)
    return game_id


def made(contracts: int = 0, failed: int = 0, top: int = 0, hands: int = 0) -> dict[str, int]:
    return {"contracts_made": contracts, "contracts_failed": failed, "top_bids_made": top,
            "hands_played": hands}


async def test_leaderboard_order_and_pagination(store: Store) -> None:
    # user: (wins, points) after the games below
    await finish(
        store,
        1,
        1,
        [
            ResultRow(1, 0, 1, points=52, won=True, stats=made(3, top=1)),
            ResultRow(2, 1, 3, points=10, won=False, stats=made(failed=2)),
            ResultRow(3, 2, 2, points=30, won=False, stats=made(1, hands=7)),
        ],
    )
    await finish(store, 1, 1, [ResultRow(2, 0, 1, 60, True), ResultRow(3, 1, 2, 5, False)])
    await finish(store, 1, 1, [ResultRow(4, 0, 1, 40, True), ResultRow(5, 1, 2, -5, False)])
    await finish(store, 2, 1, [ResultRow(1, 0, 1, 99, True)])  # other guild
    # guild 1: u1 (1 win, 52), u2 (1, 70), u3 (0, 35), u4 (1, 40), u5 (0, -5)
    by_wins = await store.leaderboard(1, GAME, "wins", limit=10)
    assert [r.user_id for r in by_wins] == [2, 1, 4, 3, 5]
    assert by_wins[0] == LeaderRow(user_id=2, games=2, wins=1, points=70)
    by_points = await store.leaderboard(1, GAME, "points", limit=10)
    assert [r.user_id for r in by_points] == [2, 1, 4, 3, 5]
    assert [r.points for r in by_points] == [70, 52, 40, 35, -5]

    pages = [await store.leaderboard(1, GAME, "wins", limit=2, offset=o) for o in (0, 2, 4, 6)]
    assert [[r.user_id for r in p] for p in pages] == [[2, 1], [4, 3], [5], []]
    assert await store.leaderboard_size(1, GAME) == 5
    assert await store.leaderboard_size(2, GAME) == 1
    assert await store.leaderboard_size(3, GAME) == 0
    assert await store.leaderboard(3, GAME) == []
    with pytest.raises(ValueError):
        await store.leaderboard(1, GAME, "elo")  # type: ignore[arg-type]

    # The stats are summed counter by counter; a game without stats adds none.
    assert await store.member_stats(1, GAME, 3) == MemberStats(
        guild_id=1, game=GAME, user_id=3, games=2, wins=0, points=35, stats=made(1, hands=7)
    )
    assert await store.member_stats(1, GAME, 1) == MemberStats(1, GAME, 1, 1, 1, 52,
                                                               made(3, top=1))
    assert await store.member_stats(2, GAME, 1) == MemberStats(2, GAME, 1, 1, 1, 99, {})
    assert await store.member_stats(1, GAME, 77) == MemberStats(1, GAME, 77)


async def test_stats_are_summed_and_may_differ_by_game(store: Store) -> None:
    await finish(store, 1, 1, [ResultRow(7, 0, 1, 10, True, {"a": 1, "b": 2})])
    await finish(store, 1, 1, [ResultRow(7, 1, 2, 5, False, {"b": 3, "c": -1})])
    await finish(store, 1, 1, [ResultRow(7, 2, 1, 0, True, {})])
    stats = await store.member_stats(1, GAME, 7)
    assert (stats.games, stats.wins, stats.points) == (3, 2, 15)
    assert stats.stats == {"a": 1, "b": 5, "c": -1}
    with pytest.raises(ValueError):  # a counter is a whole number
        await finish(store, 1, 2, [ResultRow(7, 0, 1, 0, True, {"a": 1.5})])  # type: ignore[dict-item]
    with pytest.raises(ValueError):
        await finish(store, 1, 3, [ResultRow(7, 0, 1, 0, True, {"a": True})])
    assert (await store.member_stats(1, GAME, 7)).stats == {"a": 1, "b": 5, "c": -1}


async def test_game_kinds_are_ranked_apart(store: Store) -> None:
    """A second game kind's results never show in the first one's leaderboard or stats,
    in the same guild, for the same members."""
    await finish(store, 1, 1, [ResultRow(1, 0, 1, 52, True, made(2)),
                               ResultRow(2, 1, 2, 10, False)])
    await finish(store, 1, 1, [ResultRow(2, 0, 1, 0, True, {"cards_left": 0}),
                               ResultRow(3, 1, 2, -4, False, {"cards_left": 4})],
                 game="american")
    assert [r.user_id for r in await store.leaderboard(1, GAME)] == [1, 2]
    assert [(r.user_id, r.wins, r.points) for r in await store.leaderboard(1, "american")] == [
        (2, 1, 0), (3, 0, -4)]
    assert await store.leaderboard_size(1, GAME) == 2
    assert await store.leaderboard_size(1, "american") == 2
    assert await store.member_stats(1, GAME, 2) == MemberStats(1, GAME, 2, 1, 0, 10, {})
    assert await store.member_stats(1, "american", 2) == MemberStats(
        1, "american", 2, 1, 1, 0, {"cards_left": 0})
    assert await store.member_stats(1, GAME, 3) == MemberStats(1, GAME, 3)
    assert await store.leaderboard(1, "chess") == []


async def test_game_kind_and_places_are_stored(database: Database) -> None:
    async with database.open() as store:
        game_id = await store.create_game(1, 1, 1, {"players": 3}, 0, [], game="american")
        assert (await store.get_game(game_id)).game == "american"  # type: ignore[union-attr]
        await store.finish_game(game_id, [ResultRow(5, 0, 2, 0, False, {"turns": 9}),
                                          ResultRow(6, 2, 1, 3, True)])
        default = await store.create_game(1, 2, 1, {"players": 4}, 0, [], game=GAME)
        assert (await store.get_game(default)).game == GAME  # type: ignore[union-attr]
    rows = await database.rows("SELECT user_id, seat, game, place, points, won, stats "
                               "FROM results ORDER BY seat")
    assert [(*r[:6], json.loads(r[6])) for r in rows] == [
        (5, 0, "american", 2, 0, 0, {"turns": 9}), (6, 2, "american", 1, 3, 1, {})]


async def test_leaderboard_ties_go_to_lower_user_id(store: Store) -> None:
    await finish(store, 1, 1, [ResultRow(9, 0, 1, 10, True), ResultRow(3, 1, 1, 10, True)])
    assert [r.user_id for r in await store.leaderboard(1, GAME, "wins")] == [3, 9]
    assert [r.user_id for r in await store.leaderboard(1, GAME, "points")] == [3, 9]


async def test_bad_results_roll_back_finish(store: Store) -> None:
    game_id = await store.create_game(1, 1, 1, {"preset": "kani", "players": 4}, 0, [], game=GAME)
    with pytest.raises(StoreError):  # two results for seat 0
        await store.finish_game(game_id, [ResultRow(1, 0, 1, 5, True),
                                          ResultRow(2, 0, 1, 5, True)])
    with pytest.raises(StoreError):  # no place 0
        await store.finish_game(game_id, [ResultRow(1, 0, 0, 5, True)])
    game = await store.get_game(game_id)
    assert game is not None and game.status == "active"
    assert await store.leaderboard_size(1, GAME) == 0


results_strategy = st.lists(
    st.lists(
        st.tuples(st.integers(1, 6), st.integers(-30, 60), st.booleans(), st.integers(0, 3)),
        min_size=1,
        max_size=4,
        unique_by=lambda t: t[0],
    ),
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=results_strategy)
def test_leaderboard_matches_model(games: list[list[tuple[int, int, bool, int]]]) -> None:
    async def run() -> None:
        async with await open_store(":memory:") as store:
            model: dict[int, list[int]] = {}
            for results in games:
                rows = [ResultRow(u, seat, 1, p, w, {"n": n})
                        for seat, (u, p, w, n) in enumerate(results)]
                await finish(store, 1, 1, rows)
                for u, p, w, n in results:
                    totals = model.setdefault(u, [0, 0, 0, 0])
                    totals[0] += 1
                    totals[1] += int(w)
                    totals[2] += p
                    totals[3] += n
            expected = [LeaderRow(u, g, w, p) for u, (g, w, p, _) in model.items()]
            wins_order = sorted(expected, key=lambda r: (-r.wins, -r.points, r.user_id))
            points_order = sorted(expected, key=lambda r: (-r.points, -r.wins, r.user_id))
            assert await store.leaderboard(1, GAME, "wins", limit=100) == wins_order
            assert await store.leaderboard(1, GAME, "points", limit=100) == points_order
            assert await store.leaderboard(1, GAME, "points", limit=2, offset=1) == \
                points_order[1:3]
            assert await store.leaderboard_size(1, GAME) == len(model)
            for u, (g, w, p, n) in model.items():
                assert await store.member_stats(1, GAME, u) == MemberStats(1, GAME, u, g, w, p,
                                                                           {"n": n})

    asyncio.run(run())


# ------------------------------------------------------------------ guild settings


async def test_guild_settings_round_trip(database: Database) -> None:
    settings_1 = {"preset": "norsk", "options": {"two_wins": True, "target": 52}, "timer": 60}
    async with await database.open() as store:
        assert await store.get_guild_settings(5, GAME) == {}
        await store.set_guild_settings(5, GAME, {"preset": "kani"})
        await store.set_guild_settings(5, GAME, settings_1)
        await store.set_guild_settings(6, GAME, {"timer": None, "name": "Ærø ♠"})
        await store.set_guild_settings(5, "american", {"players": 5})
    async with await database.open() as store:
        assert await store.get_guild_settings(5, GAME) == settings_1
        assert await store.get_guild_settings(6, GAME) == {"timer": None, "name": "Ærø ♠"}
        assert await store.get_guild_settings(5, "american") == {"players": 5}
        assert await store.get_guild_settings(6, "american") == {}


async def test_guild_language(database: Database) -> None:
    async with await database.open() as store:
        assert await store.get_guild_language(5) is None
        await store.set_guild_language(5, "nb")
        await store.set_guild_language(6, "en")
        await store.set_guild_language(6, "nb")
    async with await database.open() as store:
        assert await store.get_guild_language(5) == "nb"
        assert await store.get_guild_language(6) == "nb"
        await store.set_guild_language(5, None)  # forgets the choice
        assert await store.get_guild_language(5) is None
        assert await store.get_guild_settings(5, GAME) == {}  # apart from the settings


async def test_member_language(database: Database) -> None:
    """A member's own language (/language, issue 55), one for every server: chosen,
    changed, kept across a reopening, forgotten; another member's stays."""
    async with await database.open() as store:
        assert await store.get_member_language(70) is None
        await store.set_member_language(70, "fa")
        await store.set_member_language(71, "nb")
        await store.set_member_language(71, "fa")
    async with await database.open() as store:
        assert await store.get_member_language(70) == "fa"
        assert await store.get_member_language(71) == "fa"
        await store.set_member_language(70, None)  # back to their Discord's
        assert await store.get_member_language(70) is None
        assert await store.get_member_language(71) == "fa"
        assert await store.get_member_settings(5, 70) == {}  # apart from the settings


def test_migrations_are_numbered_files_for_each_dialect() -> None:
    """One SQL file a version in each dialect's folder, shipped as package data, numbered
    1, 2, 3... alike on both sides (docs/operating.md, "Adding a migration")."""
    from importlib.resources import files

    tomllib = pytest.importorskip("tomllib")
    names = {}
    for dialect in ("sqlite", "postgresql"):
        folder = files("bot.store.migrations").joinpath(dialect)
        names[dialect] = sorted(p.name for p in folder.iterdir() if p.name.endswith(".sql"))
        assert [int(n.split("_")[0]) for n in names[dialect]] == \
            list(range(1, latest_version() + 1))
    assert names["sqlite"] == names["postgresql"]
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    shipped = data["tool"]["setuptools"]["package-data"]["bot.store.migrations"]
    assert sorted(shipped) == ["postgresql/*.sql", "sqlite/*.sql"]


def test_sqlite_store_is_a_store() -> None:
    """Every method of the protocol is there (the signatures are for mypy to check)."""
    names = [n for n in dir(Store) if not n.startswith("_") or n in ("__aenter__", "__aexit__")]
    names = [n for n in names if callable(getattr(Store, n))]
    assert len(names) > 25
    from bot.store.postgres import PostgresStore

    for name in names:
        assert callable(getattr(SqliteStore, name, None)), name
        assert callable(getattr(PostgresStore, name, None)), name


# ------------------------------------------------------------- crash durability

_KILL_CHILD = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    from bot.store import open_database

    async def main() -> None:
        store = await open_database(sys.argv[1])
        game_id = int(sys.argv[2])
        seq = 0
        while True:
            await store.append_action(game_id, 0, seq, {"seat": seq % 4, "action": "pass"})
            print("committed", seq, flush=True)
            if seq == int(sys.argv[3]):
                os.kill(os.getpid(), signal.SIGKILL)  # no close, no cleanup
            seq += 1

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("self_kill", [True, False], ids=["killed-right-after", "killed-later"])
async def test_committed_action_survives_sigkill(database: Database, self_kill: bool) -> None:
    path = database.target
    async with await database.open() as store:
        game_id = await store.create_game(1, 1, 1, {"preset": "kani", "players": 4}, 0, [],
                                          game=GAME)
        await store.add_hand(game_id, 0, {"deal": [[], [], [], []]})

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    stop_at = 0 if self_kill else 10**9
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILL_CHILD, str(path), str(game_id), str(stop_at)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )
    assert proc.stdout is not None
    last = -1
    try:
        for line in proc.stdout:
            assert line.startswith("committed"), line
            last = int(line.split()[1])
            if not self_kill and last >= 30:
                proc.send_signal(signal.SIGKILL)  # kill while it is writing the next one
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        _, stderr = proc.communicate(timeout=10)
    assert proc.returncode == -signal.SIGKILL, stderr
    assert last >= (0 if self_kill else 30)

    async with await database.open() as store:
        record = await store.load_record(game_id, record_format=GAME_FORMAT)
        actions = record["hands"][0]["actions"]
    # Everything confirmed is there, in order, with nothing torn.
    assert len(actions) >= last + 1
    assert actions == [{"seat": s % 4, "action": "pass"} for s in range(len(actions))]


# ------------------------------------------- record_action: one move, one commit


async def test_record_action_commits_action_and_next_deal(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    next_deal = {"deal": [["AD"], ["KD"], ["QD"]], "blind": ["2H", "3H"]}
    await store.record_action(game_id, 1, 0, {"seat": 2, "action": "redeal"}, next_deal=next_deal)
    record = await store.load_record(game_id, record_format=GAME_FORMAT)
    assert record["hands"][1]["actions"] == [{"seat": 2, "action": "redeal"}]
    assert record["hands"][2] == {**next_deal, "actions": []}
    # Without a deal or results it is a plain append.
    await store.record_action(game_id, 2, 0, {"seat": 0, "action": "pass"})
    assert await store.action_count(game_id, 2) == 1
    assert len((await store.load_record(game_id, record_format=GAME_FORMAT))["hands"]) == 3


async def test_record_action_can_finish_the_game(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    results = [ResultRow(user_id=100, seat=0, place=1, points=15, won=True)]
    await store.record_action(game_id, 1, 0, {"seat": 2, "action": "pass"}, results=results)
    game = await store.get_game(game_id)
    assert game is not None and game.status == "finished" and game.finished_at is not None
    assert (await store.member_stats(1, "amerikaner", 100)).wins == 1
    assert (await store.load_record(game_id, record_format=GAME_FORMAT))["hands"][1]["actions"] == [
        {"seat": 2, "action": "pass"}
    ]
    with pytest.raises(GameNotActiveError):
        await store.record_action(game_id, 1, 1, {"seat": 0, "action": "pass"})


async def test_record_action_refuses_duplicates_and_gaps(store: Store) -> None:
    game_id = await write_record(store, SMALL_RECORD)
    n = len(SMALL_RECORD["hands"][0]["actions"])
    with pytest.raises(DuplicateActionError):
        await store.record_action(game_id, 0, n - 1, {"seat": 0, "action": "pass"})
    with pytest.raises(DuplicateActionError):
        await store.record_action(game_id, 0, 0, {"seat": 0, "action": "pass"})
    with pytest.raises(OutOfOrderError):
        await store.record_action(game_id, 0, n + 1, {"seat": 0, "action": "pass"})
    with pytest.raises(OutOfOrderError):  # hand 1 has no deal yet
        await store.record_action(game_id, 1, 0, {"seat": 0, "action": "pass"})
    with pytest.raises(GameNotFoundError):
        await store.record_action(12345, 0, 0, {"seat": 0, "action": "pass"})
    with pytest.raises(ValueError):
        await store.record_action(game_id, 0, n, {"seat": 0}, next_deal={})  # a deal is an object
    with pytest.raises(ValueError):
        await store.record_action(game_id, 0, n, "pass")  # type: ignore[arg-type]
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == SMALL_RECORD


async def test_record_action_is_all_or_nothing(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    # Hand 1 already exists: the deal is refused, and the action with it.
    with pytest.raises(DuplicateActionError):
        await store.record_action(
            game_id, 0, 1, {"seat": 0, "action": "pass"}, next_deal={"deal": [[], [], []]}
        )
    # Invalid results (the same seat twice): nothing of the move is kept.
    bad = [ResultRow(user_id=100, seat=0, place=1, points=1, won=True)] * 2
    with pytest.raises(StoreError):
        await store.record_action(
            game_id,
            1,
            0,
            {"seat": 2, "action": "redeal"},
            next_deal={"deal": [["AD"], ["KD"], ["QD"]]},
            results=bad,
        )
    with pytest.raises(TypeError):  # not JSON-serialisable
        await store.record_action(game_id, 1, 0, {"seat": 2, "bad": object()})
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == BLIND_RECORD
    game = await store.get_game(game_id)
    assert game is not None and game.status == "active"
    assert await store.leaderboard_size(1, GAME) == 0
    # The store is still usable afterwards.
    await store.record_action(game_id, 1, 0, {"seat": 2, "action": "redeal"})
    assert await store.action_count(game_id, 1) == 1


async def test_record_action_joins_an_open_transaction(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    with pytest.raises(RuntimeError):
        async with store.transaction():
            await store.record_action(
                game_id, 1, 0, {"seat": 2, "action": "redeal"}, next_deal={"deal": [[], [], []]}
            )
            assert len((await store.load_record(game_id, record_format=GAME_FORMAT))["hands"]) == 3
            raise RuntimeError("crash before commit")
    assert await store.load_record(game_id, record_format=GAME_FORMAT) == BLIND_RECORD


async def test_record_action_is_one_trip_to_the_database_thread(
    sqlite_store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = sqlite_store
    game_id = await write_record(store, BLIND_RECORD)
    thread = store._thread  # a hop to the database thread is a submit
    real = thread.submit
    calls = 0

    def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(fn, *args, **kwargs)

    monkeypatch.setattr(thread, "submit", counting)
    await store.append_action(game_id, 1, 0, {"seat": 2, "action": "redeal"})
    assert calls == 1
    await store.record_action(
        game_id,
        1,
        1,
        {"seat": 0, "action": "pass"},
        next_deal={"deal": [["AD"], ["KD"], ["QD"]]},
        results=[ResultRow(user_id=100, seat=0, place=1, points=15, won=True)],
    )
    assert calls == 2
    assert (await store.get_game(game_id)).status == "finished"  # type: ignore[union-attr]


async def test_cancelled_record_action_is_whole_or_absent(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    next_deal = {"deal": [["AD"], ["KD"], ["QD"]]}
    task = asyncio.create_task(
        store.record_action(game_id, 1, 0, {"seat": 2, "action": "redeal"}, next_deal=next_deal)
    )
    await asyncio.sleep(0)  # queued on the database thread, then cancelled
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    record = await store.load_record(game_id, record_format=GAME_FORMAT)
    assert record == BLIND_RECORD or (
        record["hands"][1]["actions"] == [{"seat": 2, "action": "redeal"}]
        and record["hands"][2] == {**next_deal, "actions": []}
    )
    # Many concurrent moves on different games: each is committed exactly once.
    ids = [await write_record(store, BLIND_RECORD, channel_id=100 + i) for i in range(10)]
    await asyncio.gather(
        *(store.record_action(g, 1, 0, {"seat": 2, "action": "redeal"}) for g in ids)
    )
    for g in ids:
        assert await store.action_count(g, 1) == 1


async def test_refused_write_inside_a_transaction_leaves_no_partial_rows(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    async with store.transaction():
        # The action is fine but hand 1 already exists: the whole call is undone, and
        # the block can carry on.
        with pytest.raises(DuplicateActionError):
            await store.record_action(
                game_id, 0, 1, {"seat": 0, "action": "pass"}, next_deal={"deal": [[], [], []]}
            )
        await store.append_action(game_id, 1, 0, {"seat": 2, "action": "redeal"})
    record = await store.load_record(game_id, record_format=GAME_FORMAT)
    assert record["hands"][0]["actions"] == BLIND_RECORD["hands"][0]["actions"]
    assert record["hands"][1]["actions"] == [{"seat": 2, "action": "redeal"}]


async def test_posts_are_committed_with_the_move_or_not_at_all(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    with pytest.raises(DuplicateActionError):  # the move is refused: no post with it
        await store.record_action(game_id, 0, 0, {"seat": 0, "action": "pass"},
                                  posts=[Post("hand_summary", {"hand_index": 0})])
    assert await store.pending_posts() == []
    await store.record_action(game_id, 1, 0, {"seat": 2, "action": "redeal"},
                              posts=[Post("hand_summary", {"hand_index": 1}),
                                     Post("table_message")])
    [summary, message] = await store.pending_posts(game_id)
    assert (summary.kind, summary.params, message.kind) == (
        "hand_summary", {"hand_index": 1}, "table_message")
    game = await store.get_game(game_id)
    assert game is not None and summary.channel_id == game.channel_id
    await store.mark_posted(summary.id, 1234)
    assert await store.pending_posts() == [message]
    await store.mark_posted(message.id, None)  # could not be posted: not tried forever
    assert await store.pending_posts(game_id) == []


async def test_the_last_finished_game_of_a_channel(store: Store) -> None:
    assert await store.last_game_in_channel(5, "finished") is None
    games = []
    for _ in range(3):
        game_id = await store.create_game(1, 5, 100, SMALL_RECORD["rules"], 0,
                                          seats_for(3), {}, game=GAME)
        games.append(game_id)
        if len(games) < 3:
            await store.finish_game(game_id, [])
    found = await store.last_game_in_channel(5, "finished")
    assert found is not None and found.id == games[1]  # the newest finished, not active
    assert (await store.last_game_in_channel(5, "active")).id == games[2]  # type: ignore
    assert await store.last_game_in_channel(6, "finished") is None


async def test_leaderboard_and_member_stats_are_index_range_scans(tmp_path: Path) -> None:
    """What the store runs for a leaderboard page or a member's stats reads a range of
    one index in order (no table scan, no sort), however big the guild."""
    path = tmp_path / "bot.db"
    statements: list[str] = []
    async with open_store(path) as store:
        await finish(store, 1, 1, [ResultRow(1, 0, 1, 5, True), ResultRow(2, 1, 2, 3, False)])
        store._db.set_trace_callback(statements.append)  # with the values bound in
        await store.leaderboard(1, GAME, "wins", 10, 20)
        await store.leaderboard(1, GAME, "points", 10, 0)
        await store.member_stats(1, GAME, 2)
        await store.leaderboard_size(1, GAME)
    reads = [s for s in statements if "player_totals" in s]
    assert len(reads) == 4
    conn = sqlite3.connect(path)
    try:
        plans = [" / ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + s))
                 for s in reads]
    finally:
        conn.close()
    assert "INDEX player_totals_wins (guild_id=? AND game=?)" in plans[0]
    assert "INDEX player_totals_points (guild_id=? AND game=?)" in plans[1]
    assert "PRIMARY KEY (guild_id=? AND game=? AND user_id=?)" in plans[2]
    assert "(guild_id=? AND game=?)" in plans[3]
    for plan in plans:
        assert plan.startswith("SEARCH") and "SCAN" not in plan and "TEMP B-TREE" not in plan


async def test_a_cancelled_callers_write_still_completes(store: Store) -> None:
    game_id = await write_record(store, BLIND_RECORD)
    task = asyncio.create_task(store.append_action(game_id, 1, 0, {"seat": 2, "action": "redeal"}))
    await asyncio.sleep(0)  # handed to the database thread, and then its caller gives up
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The next call runs after it on the same thread: the write is there, committed.
    assert await store.action_count(game_id, 1) == 1
    await store.append_action(game_id, 1, 1, {"seat": 0, "action": "pass"})
    assert await store.action_count(game_id, 1) == 2
