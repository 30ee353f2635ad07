"""The painter: pictures drawn in a process of their own are the same pictures, their
words in the caller's language; a drawing process that dies is replaced, and one whose
bot dies ends with it."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cards import parse_card
from bot.i18n import use_locale
from bot.render.painter import Painter
from bot.render.pictures import table_picture, totals_chart
from bot.tables.scene import NO_SEAT, CardGroup, Scene, SeatScene

REPO = Path(__file__).resolve().parents[2]
SCENE = Scene("Amerikaner · hand 2", (
    SeatScene("Kari", ("5 pts",), backs=12, to_act=True), SeatScene("Ola", backs=12),
    SeatScene("Per", backs=13), SeatScene("Pål", backs=13)),
    centre=((1, parse_card("AS")), (2, parse_card("10H"))), lines=("Trick 2 of 13",),
    groups=(CardGroup("Called card", (parse_card("QS"),)),))
NAMES = ["Kari", "Ola", "Per"]
TOTALS = [(3, -2, 1), (5, 0, -4)]


@pytest.fixture(scope="module")
def painter() -> Iterator[Painter]:
    painter = Painter()
    yield painter
    painter.close()


def test_the_painter_draws_the_same_picture(painter: Painter) -> None:
    assert asyncio.run(painter.table(SCENE)) == table_picture(SCENE)


def test_the_chart_speaks_the_callers_language(painter: Painter) -> None:
    async def chart() -> bytes | None:
        with use_locale("nb"):
            return await painter.chart("Amerikaner", NAMES, TOTALS)

    norwegian = asyncio.run(chart())
    with use_locale("nb"):
        assert norwegian == totals_chart("Amerikaner", NAMES, TOTALS)
    assert norwegian != totals_chart("Amerikaner", NAMES, TOTALS)  # "Giv", not "Deal"


def test_a_drawing_process_that_dies_is_replaced() -> None:
    others = set(multiprocessing.active_children())  # other painters' (the cogs')
    painter = Painter()
    try:
        asyncio.run(painter.table(SCENE))
        (worker,) = set(multiprocessing.active_children()) - others
        os.kill(worker.pid, signal.SIGKILL)
        worker.join(5)
        other = Scene("American", (SeatScene("Kari"), SeatScene("Ola")),
                      centre=((NO_SEAT, parse_card("7C")),))
        assert asyncio.run(painter.table(other)) == table_picture(other)
        (replacement,) = set(multiprocessing.active_children()) - others
        assert replacement.pid != worker.pid
    finally:
        painter.close()


def test_the_drawing_process_ends_with_its_bot() -> None:
    """A bot killed with SIGKILL leaves no drawing process behind."""
    script = textwrap.dedent("""
        import asyncio, multiprocessing, sys, time
        from bot.render.painter import Painter
        from bot.tables.scene import Scene, SeatScene
        if __name__ == "__main__":
            asyncio.run(Painter().table(Scene("x", (SeatScene("a"), SeatScene("b")))))
            print(multiprocessing.active_children()[0].pid, flush=True)
            time.sleep(60)
    """)
    bot = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE,
                           text=True)
    try:
        worker = int(bot.stdout.readline())
        assert _alive(worker)
    finally:
        bot.kill()
        bot.wait()
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker)


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_started_painter_has_its_process_before_the_first_picture() -> None:
    others = set(multiprocessing.active_children())
    painter = Painter()
    try:
        painter.start()
        assert len(set(multiprocessing.active_children()) - others) == 1
        assert asyncio.run(painter.table(SCENE)) == table_picture(SCENE)
    finally:
        painter.close()
