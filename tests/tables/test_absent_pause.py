"""Issue 35: a table whose humans have all gone away or timed out pauses (PAUSE_ABSENT):
no AI-only finish; the first human back lifts it; a crash between a seat's change and
its pause is mended at restore. On the fake clock (tests/tables/test_days.py's helpers)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.tables.table import PAUSE_ABSENT
from bot.tables.table import copied as _copied
from bot.tables.table import seat_infos as _seat_infos
from tests.fake_discord.clock import FakeClock
from tests.tables.test_days import DAY, Levels, _humans, _service, _stop, _until


async def test_every_human_away_pauses_and_one_back_plays_on(tmp_path: Path) -> None:
    clock = FakeClock()
    ai = Levels()
    path = tmp_path / "absent.sqlite3"
    service = await _service(clock, path, ai=ai)
    table = await _humans(service, turn_timer=DAY)
    await service.seats.set_away(table.id, 1, True)
    await service.seats.leave(table.id, 2)
    assert not table.paused  # user 3 is still here
    await service.seats.set_away(table.id, 3, True)
    assert table.paused == {PAUSE_ABSENT} and table.turn_deadline is None
    version, asked = table.version, len(ai.asked)
    clock.advance(3 * DAY)
    await asyncio.sleep(0.05)
    assert table.version == version and len(ai.asked) == asked  # no AI-only game
    # A crash after a member's return was stored but before the pause was lifted (two
    # writes): the restart mends it, and the table plays on.
    seats = _copied(table.seats)
    seats[2].away = False
    await service.shared.store.update_seats(table.id, _seat_infos(seats))
    await _stop(service)
    service = await _service(clock, path, ai=ai)
    [table] = await service.restore()
    assert not table.seats[2].away and not table.paused
    await service.seats.set_away(table.id, 3, True)  # away again: paused again
    assert table.paused == {PAUSE_ABSENT}
    await service.seats.set_away(table.id, 1, False)  # one back: it plays on, a fresh turn
    assert not table.paused
    await _until(lambda: table.to_act is not None and (
        not table.seats[table.to_act].played_by_ai or table.version > version),
        "the game to go on")
    await _stop(service)
