"""What waits to be sent to one page: a bounded queue and the task that sends it. A page
that lets the queue fill up (a phone gone to sleep, a stalled network) is dropped: its
socket is closed with TOO_SLOW and it reconnects to the table as it is then, so a table
never waits for a slow socket and memory stays bounded."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Protocol

# Frames a page may keep unsent before it is dropped: a few dozen views.
QUEUE_SIZE = 32
TOO_SLOW = 4008  # the close code of a dropped page (the 4000s are the application's)


class Socket(Protocol):
    """What is used of aiohttp's WebSocketResponse."""

    @property
    def closed(self) -> bool: ...

    async def send_str(self, data: str, compress: int | None = None) -> None: ...

    async def close(self, *, code: int = ..., message: bytes = ...) -> bool: ...


class Outgoing:
    """The frames for one socket, sent in order by a task of their own."""

    def __init__(self, ws: Socket, size: int = QUEUE_SIZE) -> None:
        self.ws = ws
        self.dropped = False
        self._queue: asyncio.Queue[str] = asyncio.Queue(size)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sender = asyncio.create_task(self._send_all())

    def put(self, text: str) -> bool:
        """Queue a frame without waiting; False if the page is (now) dropped."""
        if self.dropped:
            return False
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True
            self._sender.cancel()
            closing = asyncio.create_task(self.ws.close(code=TOO_SLOW, message=b"too slow"))
            self._tasks.add(closing)
            closing.add_done_callback(self._tasks.discard)
            return False
        return True

    def stop(self) -> None:
        self._sender.cancel()

    async def close(self, code: int, message: bytes) -> None:
        """Stop sending and close the socket (the page reconnects)."""
        self.stop()
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=message)

    async def _send_all(self) -> None:
        while not self.ws.closed:
            text = await self._queue.get()
            with contextlib.suppress(ConnectionError):
                await self.ws.send_str(text)
