"""`amerikaner db copy` moves a SQLite database into PostgreSQL with nothing lost: every
game replays the same, every leaderboard, stat, setting and pending post is equal; and
the PostgreSQL store's backup writes it all back into a SQLite file."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.games.amerikaner import record as amerikaner
from bot.store import Post, ResultRow, SeatInfo, Store, open_database, open_store
from tests.store_backends import GAME, GAME_FORMAT

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONFORMANCE = FIXTURES / "conformance" / "valid"


def _replay(record: dict[str, Any]) -> dict[str, object]:
    return amerikaner.replay(record)


async def _write(store: Store, record: dict[str, Any], channel: int, kind: str) -> int:
    game_id = await store.create_game(
        2002, channel, 700, record["rules"], record.get("first_dealer", 0),
        [SeatInfo(0, 700, "Åse"), SeatInfo(1, 701, "Bjørn"),
         SeatInfo(2, None, "Bot", True, "strong")],
        {"lobby_message": channel * 10}, game=kind)
    for index, hand in enumerate(record["hands"]):
        await store.add_hand(game_id, index, {k: v for k, v in hand.items() if k != "actions"})
        await store.append_actions(game_id, index, 0, hand["actions"])
    return game_id


async def _build(path: Path) -> None:
    """The schema-2 fixture, upgraded, plus new games of both kinds, results with
    stats, settings, a language and posts still to be made."""
    async with open_store(path) as store:
        for n, file in enumerate(sorted(CONFORMANCE.glob("game_000[0-4]?.json"))[:6]):
            record = json.loads(file.read_text())
            game_id = await _write(store, record, 9000 + n, "amerikaner")
            if n % 2:
                await store.finish_game(game_id, [
                    ResultRow(700, 0, 1, 30 + n, True, {"contracts_made": n}),
                    ResultRow(701, 1, 2, -n, False, {"hands_played": 2})])
        for n in range(3):  # another game kind: its own leaderboard
            game_id = await store.create_game(2002, 9100 + n, 700, {"players": 2}, 0, [],
                                              game="american")
            await store.finish_game(game_id, [ResultRow(701, 1, 1, 0, True, {"turns": 7}),
                                              ResultRow(700 + n, 0, 2, -n, False)])
        live = await store.create_game(2002, 9200, 700, {"players": 3}, 0, [], game="american")
        await store.add_posts(live, [Post("table_message", {"n": 1})])
        await store.set_guild_settings(2002, "american", {"players": 5, "name": "Ærø ♠"})
        await store.set_guild_language(2002, "nb")
        await store.set_member_language(700, "fa")


def _ids(path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def _assert_same(sqlite_path: Path, a: Store, b: Store) -> None:
    """Everything the bot reads is equal in the two stores."""
    games = [r[0] for r in _ids(sqlite_path, "SELECT id FROM games ORDER BY id")]
    assert len(games) > 10
    replayed = 0
    for game_id in games:
        assert await b.get_game(game_id) == await a.get_game(game_id), game_id
        record = await a.load_record(game_id, record_format=GAME_FORMAT)
        assert await b.load_record(game_id, record_format=GAME_FORMAT) == record, game_id
        if record["hands"]:
            copied = await b.load_record(game_id, record_format=GAME_FORMAT)
            assert _replay(copied) == _replay(record)
            replayed += 1
    assert replayed > 5
    boards = _ids(sqlite_path, "SELECT DISTINCT guild_id, game FROM player_totals")
    assert len(boards) >= 3
    for guild_id, game in boards:
        assert await b.leaderboard_size(guild_id, game) == await a.leaderboard_size(
            guild_id, game)
        for order in ("wins", "points"):
            assert await b.leaderboard(guild_id, game, order, 1000) == await a.leaderboard(
                guild_id, game, order, 1000)
        for (user_id,) in _ids(sqlite_path, "SELECT user_id FROM player_totals WHERE "
                                            f"guild_id = {guild_id} AND game = '{game}'"):
            assert await b.member_stats(guild_id, game, user_id) == await a.member_stats(
                guild_id, game, user_id)
    for guild_id, game in _ids(sqlite_path, "SELECT guild_id, game FROM guild_settings"):
        assert await b.get_guild_settings(guild_id, game) == await a.get_guild_settings(
            guild_id, game)
    for (guild_id,) in _ids(sqlite_path, "SELECT guild_id FROM guild_prefs"):
        assert await b.get_guild_language(guild_id) == await a.get_guild_language(guild_id)
    for (user_id,) in _ids(sqlite_path, "SELECT user_id FROM member_languages"):
        assert await b.get_member_language(user_id) == await a.get_member_language(user_id)
    assert await b.get_member_language(700) == "fa"
    assert await b.pending_posts() == await a.pending_posts()
    assert await b.unfinished_games() == await a.unfinished_games()


def test_db_copy_moves_everything(tmp_path: Path, pg_url: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "amerikaner.sqlite3"
    shutil.copyfile(FIXTURES / "store_v2.sqlite3", path)
    asyncio.run(_build(path))

    assert main(["db", "copy", "--from", str(path), "--to", pg_url]) == 0
    out = capsys.readouterr().out
    assert "game_actions" in out and "copied" in out

    async def check() -> None:
        async with open_store(path) as a, open_database(pg_url) as b:
            await _assert_same(path, a, b)
            # New games take new ids, after the copied ones.
            newest = max(r[0] for r in _ids(path, "SELECT id FROM games"))
            assert await b.create_game(1, 1, 1, {}, 0, [], game=GAME) > newest

    asyncio.run(check())
    # A second copy into the same database is refused: nothing is doubled.
    assert main(["db", "copy", "--from", str(path), "--to", pg_url]) == 1
    assert "not empty" in capsys.readouterr().err


def test_db_copy_refuses_what_it_cannot_do(tmp_path: Path, pg_url: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "copy", "--from", str(tmp_path / "none.sqlite3"), "--to", pg_url]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    assert main(["db", "copy", "--from", "x.sqlite3", "--to", str(tmp_path / "b")]) == 2


async def test_postgres_backup_is_a_sqlite_file(tmp_path: Path, pg_url: str) -> None:
    sqlite_path = tmp_path / "amerikaner.sqlite3"
    shutil.copyfile(FIXTURES / "store_v2.sqlite3", sqlite_path)
    await _build(sqlite_path)
    assert await asyncio.to_thread(
        main, ["db", "copy", "--from", str(sqlite_path), "--to", pg_url]) == 0
    backup = tmp_path / "backup" / "copy.sqlite3"
    backup.parent.mkdir()
    async with open_database(pg_url) as pg:
        await pg.backup(backup)
    async with open_store(backup) as copy, open_store(sqlite_path) as original:
        await _assert_same(sqlite_path, original, copy)
