"""Pictures drawn in a process of their own, so drawing never holds the bot's event loop.

A table's picture costs a few ms of CPU at every change of every table, partly in Python
code, which holds the interpreter lock: drawn on a thread, it made every answer to a
click wait its turn for the lock (`bench/bot.py` at 2,000 tables: p99 23 ms without
pictures, 96 ms with them drawn on a thread). In a process of its own, at a lower
priority, the drawing takes only the CPU the answers leave (p99 30-41 ms).

One process draws one picture at a time, started with the bot (`start`) or else when
the first picture is asked for. The words in a picture are chosen here, in the caller's
language (the scene's words by the game's text, the chart's own word by
`chart_axis_label`), and the process only draws. If the process dies it is started
again, and the picture that was lost is drawn once more; a picture that cannot be drawn
at all is None (the table shows without one).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.render.chart import chart_axis_label, totals_chart
from bot.render.table_picture import prepare_pictures, table_picture
from bot.tables.scene import Scene

__all__ = ["Painter"]

log = logging.getLogger(__name__)

PARENT_CHECK_SECONDS = 1.0
DRAWING_NICENESS = 10  # added to the drawing process's niceness: a lower priority


def _start_drawing(parent: int) -> None:
    """In the drawing process, before its first picture: give way to the bot, and end
    when the bot's process is gone."""
    # A picture can wait; an answer to a click cannot. At a lower priority the drawing
    # takes only the CPU the bot's processes (and the database) leave.
    os.nice(DRAWING_NICENESS)
    # Even a bot killed with SIGKILL, which nothing can tell, leaves no process behind.
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Painter:
    """Draws the table's picture and the running-totals chart in a process of its own."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def table(self, scene: Scene) -> bytes | None:
        """The PNG of `scene` (bot.render.table_picture)."""
        return await self._draw(table_picture, scene)

    async def chart(self, title: str, names: Sequence[str],
                    totals: Sequence[Sequence[int]], target: int | None = None,
                    places: Sequence[int] | None = None) -> bytes | None:
        """The PNG of the running totals (bot.render.chart.totals_chart), its words in
        the caller's language: the game's target drawn as a line, the standings in
        the order of `places` (each seat's place, as the final standings give them)."""
        return await self._draw(totals_chart, title, list(names),
                                [tuple(row) for row in totals], target, chart_axis_label(),
                                None if places is None else list(places))

    def start(self) -> None:
        """Start the drawing process now, and draw what every picture starts from, so
        that the first picture does not wait for a process to start (about a second on
        a busy machine)."""
        self._started().submit(prepare_pictures)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _draw(self, draw: Callable[..., bytes], *args: Any) -> bytes | None:
        loop = asyncio.get_running_loop()
        for _attempt in range(2):  # a process that died is started again, once
            pool = self._started()
            try:
                return await loop.run_in_executor(pool, draw, *args)
            except BrokenProcessPool:
                log.warning("the drawing process ended; starting another")
                if self._pool is pool:
                    self.close()
        log.error("no picture: the drawing process keeps ending")
        return None

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the bot's process has threads (the store's, discord.py's)
            # whose locks a forked child could inherit held.
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_drawing, initargs=(os.getpid(),))
        return self._pool
