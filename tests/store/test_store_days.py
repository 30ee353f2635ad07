"""The store's part of games over days (issue 26), on SQLite and PostgreSQL: when a
turn began (stored with each move), a member's own settings per server, and the hand
panels the bot follows (kept across restarts until their tokens run out)."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import PANEL_TOKEN_LIFE, SeatInfo, latest_version
from tests.store_backends import GAME, Database

SEATS = [SeatInfo(0, 100, "p"), SeatInfo(1, None, "", True, "easy")]


async def test_the_schema_has_the_tables_of_version_4(database: Database) -> None:
    async with database.open() as store:
        assert await store.schema_version() == latest_version() >= 4
    assert {"member_settings", "panels"} <= await database.tables()
    assert "turn_since" in await database.columns("games")


async def test_turn_since_is_stored_with_a_move_and_read_back(database: Database) -> None:
    async with database.open() as store:
        game = await store.create_game(1, 7, 100, {"preset": "amerikaner"}, 0, SEATS, {}, game=GAME)
        row = await store.get_game(game)
        assert row is not None and row.turn_since is None  # a lobby: no turn yet
        await store.add_hand(game, 0, {"deal": [["AS"]]})
        await store.set_turn_since(game, 1_000.5)
        assert (await store.get_game(game)).turn_since == 1_000.5  # type: ignore[union-attr]
        await store.record_action(game, 0, 0, {"seat": 0, "card": "AS"},
                                  turn_since=2_000.25)
        await store.set_meta(game, {"message_id": 5})  # other changes leave it be
        await store.record_action(game, 0, 1, {"seat": 1, "card": "KS"})
    async with database.open() as store:  # a restart
        [row] = await store.unfinished_games()
        assert row.turn_since == 2_000.25
        assert row.updated_at != row.turn_since


async def test_member_settings_per_server(database: Database) -> None:
    async with database.open() as store:
        assert await store.get_member_settings(1, 100) == {}
        await store.set_member_setting(1, 100, "turn_pings", "dm")
        await store.set_member_setting(1, 100, "dm_failed_told", True)
        await store.set_member_setting(2, 100, "turn_pings", "channel")
        assert await store.get_member_settings(1, 100) == {"turn_pings": "dm",
                                                           "dm_failed_told": True}
        assert await store.get_member_settings(2, 100) == {"turn_pings": "channel"}
        assert await store.get_member_settings(1, 101) == {}
        await store.set_member_setting(1, 100, "turn_pings", "channel")
        await store.set_member_setting(1, 100, "dm_failed_told", None)  # removed
        await store.set_member_setting(1, 102, "dm_failed_told", None)  # nothing to remove
        with pytest.raises(ValueError):
            await store.set_member_setting(1, 100, "Bad key'", 1)
        # Two settings of one member at once: both kept.
        await asyncio.gather(store.set_member_setting(3, 100, "a", 1),
                             store.set_member_setting(3, 100, "b", {"x": [1, "ø"]}))
    async with database.open() as store:
        assert await store.get_member_settings(1, 100) == {"turn_pings": "channel"}
        assert await store.get_member_settings(1, 102) == {}
        assert await store.get_member_settings(3, 100) == {"a": 1, "b": {"x": [1, "ø"]}}


async def test_followed_panels_survive_a_restart_until_their_tokens_expire(
        database: Database) -> None:
    now = 1_700_000_000.0
    async with database.open() as store:
        await store.save_panel(5, 100, 77, "token-a", "nb", now - 60)
        await store.save_panel(5, 101, 77, "token-b", "en", now - PANEL_TOKEN_LIFE - 1)
        await store.save_panel(6, 100, 77, "token-c", "en", now - 30)
        await store.save_panel(5, 100, 77, "token-a2", "en", now - 10)  # replaces token-a
    async with database.open() as store:
        panels = await store.panels(now)
        assert [(p.table_id, p.user_id, p.application_id, p.token, p.language, p.since)
                for p in panels] == [(6, 100, 77, "token-c", "en", now - 30),
                                     (5, 100, 77, "token-a2", "en", now - 10)]
        assert len(await store.panels(now, max_age=3 * PANEL_TOKEN_LIFE)) == 3
        assert await store.panels(now + PANEL_TOKEN_LIFE) == []
        assert await store.prune_panels(now) == 1  # token-b ran out
        assert len(await store.panels(now, max_age=3 * PANEL_TOKEN_LIFE)) == 2
        await store.delete_panel(5, 100)
        assert [p.token for p in await store.panels(now)] == ["token-c"]
        await store.save_panel(6, 101, 77, "token-d", "nb", now)
        await store.delete_panels(6)
        assert await store.panels(now) == []
