"""A page too slow to take its frames never holds a table up: its queue is bounded, and
once full the page is dropped (closed with TOO_SLOW; it reconnects to the table as it is
then). A page that keeps up gets every frame, in order."""

from __future__ import annotations

import asyncio

from bot.web.outgoing import QUEUE_SIZE, TOO_SLOW, Outgoing


class StuckSocket:
    """A socket whose peer reads nothing: every send waits until `unstick`."""

    def __init__(self) -> None:
        self.closed = False
        self.sent: list[str] = []
        self.close_code: int | None = None
        self.moving = asyncio.Event()

    async def send_str(self, data: str, compress: int | None = None) -> None:
        await self.moving.wait()
        self.sent.append(data)

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        self.closed = True
        self.close_code = code
        return True


async def test_a_stuck_page_is_dropped_without_waiting() -> None:
    ws = StuckSocket()
    out = Outgoing(ws)
    accepted = [out.put(f"frame {n}") for n in range(QUEUE_SIZE + 5)]  # never awaits
    # the sender took one frame and waits on it; the queue holds QUEUE_SIZE more
    assert accepted.count(True) in (QUEUE_SIZE, QUEUE_SIZE + 1)
    assert out.dropped and not out.put("later")
    await asyncio.sleep(0)  # the close runs
    assert ws.closed and ws.close_code == TOO_SLOW


async def test_a_page_that_keeps_up_gets_every_frame_in_order() -> None:
    ws = StuckSocket()
    ws.moving.set()
    out = Outgoing(ws)
    for n in range(QUEUE_SIZE * 3):
        assert out.put(f"frame {n}")
        if n % 8 == 7:
            await asyncio.sleep(0)  # the sender's turn
    while len(ws.sent) < QUEUE_SIZE * 3:
        await asyncio.sleep(0)
    assert ws.sent == [f"frame {n}" for n in range(QUEUE_SIZE * 3)] and not out.dropped
    out.stop()
