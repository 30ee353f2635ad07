"""The messages of the Activity's pages between shard processes (bot/store/page_bus.py),
on the test PostgreSQL server: a message to a shard reaches the process of that shard
alone, one to a process that process alone, all in the order sent, whatever their size
(NOTIFY takes less than 8,000 bytes); a process that connects says so to the others
with its shards; `alive` tells the processes that still listen."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.store.page_bus import PageBus

SHARDS = 2


async def until(test: Any) -> None:
    async def wait() -> None:
        while not test():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(wait(), 10)


async def test_messages_reach_their_process_in_order_whatever_their_size(pg_url: str
                                                                        ) -> None:
    got: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    zero, one = PageBus(pg_url, SHARDS, (0,)), PageBus(pg_url, SHARDS, (1,))
    await zero.start(got[0].append, lambda: None)
    await one.start(got[1].append, lambda: None)
    try:
        # the second to connect told the first, with its shards
        await until(lambda: {"k": "up", "s": [1], "from": one.name} in got[0])
        assert not [m for m in got[1] if m["k"] == "up"]  # not itself
        got[0].clear()
        assert zero.owner(((1 << 40) + 1) << 22) == 1 and one.owns(((1 << 40) + 1) << 22)
        sent = [{"k": "text", "n": n, "d": ("x" * (n * 3000))} for n in range(12)]
        for message in sent:
            zero.to_shard(1, message)
        zero.to_process(one.name, {"k": "text", "n": 99, "d": "é" * 20000})
        for _ in range(3):  # alike, in one transaction: each delivered
            zero.to_shard(1, {"k": "end"})
        await until(lambda: len(got[1]) == 16)
        assert got[1] == [*sent, {"k": "text", "n": 99, "d": "é" * 20000}, *[{"k": "end"}] * 3]
        one.to_process(zero.name, {"k": "end"})
        await until(lambda: got[0] == [{"k": "end"}])
        assert await zero.alive({one.name, zero.name}) == {one.name, zero.name}
        name = one.name
        await one.close()
        assert await zero.alive({name, zero.name}) == {zero.name}
    finally:
        await zero.close()
        await one.close()
