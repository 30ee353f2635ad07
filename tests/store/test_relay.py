"""The relay of DM interactions between shard processes (bot/store/relay.py), on the test
PostgreSQL server: a forwarded payload reaches the process of its guild's shard alone,
whatever its size; one that no process takes is taken back by its sender, and nobody answers it
after; the rows do not outlive their interactions."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from bot.store import open_database
from bot.store.relay import InteractionRelay

SHARDS = 2


def guild_of_shard(shard: int) -> int:
    """A guild id whose events go to `shard` of SHARDS (Discord's formula)."""
    return ((1 << 40) + shard) << 22


async def _rows(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM relayed_interactions"))
    finally:
        await conn.close()


async def test_a_dm_click_reaches_the_process_of_its_table_once(pg_url: str) -> None:
    await (await open_database(pg_url)).close()  # migrated
    got: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    zero = await InteractionRelay.open(pg_url, SHARDS, (0,), got[0].append)
    one = await InteractionRelay.open(pg_url, SHARDS, (1,), got[1].append)
    try:
        payload = {"id": "11", "type": 3, "token": "t", "data": {"custom_id": "amk:5:hand"},
                   "message": {"content": "x" * 9000}}  # more than NOTIFY's 8,000 bytes
        assert await zero.forward(guild_of_shard(1), 11, payload) is True
        # Taken (the sender is told at the owner's commit): delivered just after.
        async with asyncio.timeout(10):
            while not got[1]:
                await asyncio.sleep(0.01)
        assert got == {0: [], 1: [payload]}
        assert await _rows(pg_url) == 0
    finally:
        await zero.close()
        await one.close()


async def test_a_click_nobody_takes_is_taken_back_and_never_delivered(pg_url: str) -> None:
    await (await open_database(pg_url)).close()
    got: list[dict[str, Any]] = []
    zero = await InteractionRelay.open(pg_url, SHARDS, (0,), got.append, wait=0.2)
    try:
        assert await zero.forward(guild_of_shard(1), 12, {"id": "12"}) is False
        assert await _rows(pg_url) == 0
        # The owner comes up later: there is nothing left for it to answer.
        late: list[dict[str, Any]] = []
        one = await InteractionRelay.open(pg_url, SHARDS, (1,), late.append)
        await asyncio.sleep(0.2)
        await one.close()
        assert late == [] and got == []
    finally:
        await zero.close()
