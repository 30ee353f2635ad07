"""Games over days (issue 26), the table service's half: turn timers of up to 7 days
on an injectable clock, reminders at the table's points (once per turn and point, also
across a restart), the timeout covered by the game's strongest AI, the seat handed to
the AI until its player is back, the member's games list, and the followed panels that
survive a restart.

Nothing here waits for real time: the service runs on the fake Discord's clock
(tests/fake_discord/clock.py), which the test moves forward; every wait is for a
condition (`_until`), and "nothing happened" is checked once the timer has looked at
the moved clock and gone back to sleep (`FakeClock.naps`)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.amerikaner.ai.random_player import random_action
from bot.render import error_text
from bot.store import open_store
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import LOBBY, PAUSE_CHANNEL, PAUSE_GUILD, PLAYING, POST_TIMEOUT, Table
from bot.tables.timer_settings import DEFAULT_REMINDERS, MAX_TURN_TIMER, reminder_schedule
from tests.fake_discord.clock import FakeClock

DAY = 86400.0
HOUR = 3600.0


class Levels:
    """An AI chooser that plays at random and notes the level it was asked to play."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, str]] = []

    def __call__(self, kind: Any, game: Any, seat: int, level: str,
                 rng: random.Random) -> Any:
        self.asked.append((seat, level))
        return random_action(kind.seat_view(game, seat), rng)


async def _service(clock: FakeClock, path: Path | str = ":memory:", seed: int = 1,
                   ai: Levels | None = None) -> TableService:
    store = await open_store(path)
    return TableService(store, GAMES, rng=random.Random(seed), ai_delay=0, trick_pause=0,
                        ai_chooser=ai or Levels(), clock=clock)


async def _stop(service: TableService) -> None:
    await service.registry.close(grace=1)
    await service.shared.store.close()


async def _until(condition: Any, what: str, timeout: float = 20.0) -> None:
    """Wait (real time, bounded) until `condition()` holds: for work the loop does."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.002)


async def _advance(clock: FakeClock, seconds: float) -> None:
    """Move the clock; return once a sleeper has looked at it and slept again (or the
    work it woke for is under way)."""
    naps = clock.naps
    clock.advance(seconds)
    await _until(lambda: clock.naps > naps, "a sleeper looked at the clock again")


class Events:
    """What the service told its listeners, with the clock's time when it did."""

    def __init__(self, service: TableService, clock: FakeClock) -> None:
        self.seen: list[tuple[str, dict[str, Any], float]] = []
        self.clock = clock
        service.listeners.add(self.listen)

    async def listen(self, table: Table, event: str, detail: dict[str, Any]) -> None:
        self.seen.append((event, detail, self.clock.time()))

    def reminders(self) -> list[tuple[dict[str, Any], float]]:
        return [(detail, at) for event, detail, at in self.seen if event == "reminder"]


async def _humans(service: TableService, players: int = 3, **timer: Any) -> Table:
    """A started table of `players` humans (users 1..players) in guild 10, channel 20."""
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", players, {}, **timer)
    for user in range(2, players + 1):
        await service.lobby.join(table.id, user, f"P{user}")
    await service.lobby.start(table.id, 1)
    return table


async def _move(service: TableService, table: Table, rng: random.Random) -> None:
    """The seat to act (a human) plays a random legal move."""
    seat = table.to_act
    assert seat is not None
    action = random_action(table.seat_view(seat), rng)
    await service.play.act(table.id, table.seats[seat].user_id, table.version,
                           lambda s, a=action: a._replace(seat=s))


async def _timeouts(service: TableService, table: Table) -> list[Any]:
    return [p for p in await service.shared.store.pending_posts(table.id) if p.kind == POST_TIMEOUT]


# ------------------------------------------------------------------ the clock


async def test_the_fake_clock_wakes_its_sleepers_when_moved() -> None:
    clock = FakeClock()
    woke: list[float] = []

    async def sleeper() -> None:
        await clock.sleep_until(clock.time() + 2 * DAY)
        woke.append(clock.time())

    task = asyncio.create_task(sleeper())
    await _until(lambda: clock.sleepers == 1, "the sleeper sleeps")
    start = clock.time()
    await _advance(clock, DAY)
    assert not woke  # a day is not enough: it looked and slept again
    clock.advance(DAY)
    await _until(lambda: bool(woke), "the sleeper woke")
    assert woke[0] >= start + 2 * DAY - 1
    await task
    assert clock.sleepers == 0


# ------------------------------------------------------------ turn timers of days


async def test_timers_of_seven_days_are_taken_and_longer_ones_refused() -> None:
    clock = FakeClock()
    service = await _service(clock)
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 3, {},
                                       turn_timer=MAX_TURN_TIMER)
    assert table.turn_timer == 7 * DAY
    for bad in (7 * DAY + 60, float("inf")):
        with pytest.raises(TableError) as info:
            await service.lobby.create(10, 21, 1, "Host", "amerikaner", 3, {}, turn_timer=bad)
        assert info.value.code == "bad_input" and info.value.params["reason"] == "long_timer"
        assert "7 days" in error_text(info.value)  # as people say it, not in minutes
    with pytest.raises(TableError) as info:
        await service.lobby.create(10, 21, 1, "Host", "amerikaner", 3, {}, turn_timer=-60)
    assert info.value.params["reason"] == "negative_timer"
    # The host changes it later: the same checks; nothing changes on a refusal.
    with pytest.raises(TableError):
        await service.lobby.set_timer(table.id, 1, turn_timer=7 * DAY + 60)
    assert table.turn_timer == 7 * DAY
    with pytest.raises(TableError) as info:
        await service.lobby.set_timer(table.id, 2, turn_timer=HOUR)
    assert info.value.code == "not_host"
    assert error_text(info.value)
    await service.lobby.set_timer(table.id, 2, turn_timer=HOUR, manager=True)
    assert table.turn_timer == HOUR
    assert (await service.shared.store.get_game(table.id)).meta["turn_timer"] == HOUR  # type: ignore[union-attr]
    await service.lobby.set_timer(table.id, 1, turn_timer=0)
    assert table.turn_timer is None
    await _stop(service)


async def test_reminder_points_and_timeout_actions_are_checked() -> None:
    clock = FakeClock()
    service = await _service(clock)
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 3, {}, turn_timer=DAY,
                                       reminders=["25%", "2h", "1d"], timeout_action="seat")
    assert table.reminders == ("25%", "2h", "1d") and table.timeout_action == "seat"
    for bad in (["half"], ["0%"], ["100%"], ["8d"], ["1h", "2h", "3h", "4h", "5h"]):
        with pytest.raises(TableError) as info:
            await service.lobby.set_timer(table.id, 1, reminders=bad)
        assert info.value.params["reason"] == "reminder", bad
        assert error_text(info.value)
    with pytest.raises(TableError) as info:
        await service.lobby.set_timer(table.id, 1, timeout_action="nap")
    assert info.value.params["reason"] == "timeout_action"
    assert error_text(info.value)
    await service.lobby.set_timer(table.id, 1, reminders=None, timeout_action=None)
    assert table.reminders == DEFAULT_REMINDERS and table.timeout_action == "play"
    await _stop(service)


def test_reminder_points_that_do_not_fit_the_turn_are_left_out() -> None:
    # A 2-minute timer gets half time only (one hour left is before the turn began).
    assert reminder_schedule(0, 120, DEFAULT_REMINDERS) == [(60, "50%")]
    # Two days: half time and one hour left.
    assert reminder_schedule(0, 2 * DAY, DEFAULT_REMINDERS) == [(DAY, "50%"),
                                                                (2 * DAY - HOUR, "1h")]
    # Two hours: both points fall at the middle: once.
    assert reminder_schedule(0, 2 * HOUR, DEFAULT_REMINDERS) == [(HOUR, "50%")]
    # 61 minutes: one hour left would come a minute into the turn: too close to it.
    assert reminder_schedule(0, 61 * 60, DEFAULT_REMINDERS) == [(61 * 30, "50%")]


async def test_a_two_day_timer_reminds_at_half_time_and_one_hour_left(
        tmp_path: Path) -> None:
    clock = FakeClock()
    ai = Levels()
    service = await _service(clock, tmp_path / "db.sqlite3", ai=ai)
    events = Events(service, clock)
    table = await _humans(service, turn_timer=2 * DAY)
    seat = table.to_act
    assert table.turn_since is not None
    start = table.turn_since
    assert table.turn_deadline == start + 2 * DAY
    await _until(lambda: clock.sleepers == 1, "the turn's clock sleeps")
    await _advance(clock, DAY - 60)  # not yet half time
    assert events.reminders() == []
    await _advance(clock, 60)
    await _until(lambda: len(events.reminders()) == 1, "the half-time reminder")
    [(detail, at)] = events.reminders()
    assert detail == {"seat": seat, "deadline": start + 2 * DAY, "point": "50%"}
    assert start + DAY <= at < start + DAY + 60
    await _advance(clock, DAY - HOUR - 120)  # not yet one hour left
    assert len(events.reminders()) == 1
    await _advance(clock, 120)
    await _until(lambda: len(events.reminders()) == 2, "the one-hour-left reminder")
    detail, at = events.reminders()[1]
    assert detail == {"seat": seat, "deadline": start + 2 * DAY, "point": "1h"}
    assert start + 2 * DAY - HOUR <= at < start + 2 * DAY
    assert await _timeouts(service, table) == []  # the player still has their hour
    assert table.to_act == seat and table.version == 0
    # The deadline: the game's strongest AI plays that turn, and the turn moves on.
    clock.advance(HOUR)
    await _until(lambda: table.version == 1, "the timeout's move")
    [post] = await _timeouts(service, table)
    assert post.params["seat"] == seat and "away" not in post.params
    assert ai.asked == [(seat, GAMES["amerikaner"].ai_levels[-1])] == [(seat, "strong")]
    assert not table.seats[seat].away  # "play": that one turn only
    # The next turn has a clock of its own, from the timeout's move.
    assert table.turn_deadline is not None and table.turn_deadline >= clock.time() + 2 * DAY - 60
    await _stop(service)


async def test_a_restart_keeps_the_deadline_and_does_not_repeat_a_reminder(
        tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "db.sqlite3"
    service = await _service(clock, path)
    events = Events(service, clock)
    table = await _humans(service, turn_timer=2 * DAY)
    deadline = table.turn_deadline
    await _until(lambda: clock.sleepers == 1, "the turn's clock sleeps")
    clock.advance(DAY + 60)
    await _until(lambda: len(events.reminders()) == 1, "the half-time reminder")
    # Other stored changes do not move the turn's start (the table message's id).
    await service.restorer.set_message(table, 123456)
    await _stop(service)
    clock.advance(HOUR)  # the bot is away for an hour

    again = await _service(clock, path)
    later = Events(again, clock)
    [restored] = await again.restore()
    assert restored.turn_deadline == deadline  # exactly: the stored start of the turn
    assert restored.reminded() == {"50%"}
    await _until(lambda: clock.sleepers == 1, "the restored turn's clock sleeps")
    await _advance(clock, 60)
    assert later.reminders() == []  # half time was told before the restart
    assert deadline is not None
    clock.advance(deadline - HOUR - clock.time())
    await _until(lambda: len(later.reminders()) == 1, "the one-hour-left reminder")
    assert later.reminders()[0][0]["point"] == "1h"
    await _stop(again)


async def test_a_reminder_due_while_the_bot_was_away_is_sent_once_after(
        tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "db.sqlite3"
    service = await _service(clock, path)
    table = await _humans(service, turn_timer=2 * DAY)
    await _stop(service)
    clock.advance(DAY + HOUR)  # away across half time
    again = await _service(clock, path)
    events = Events(again, clock)
    [restored] = await again.restore()
    await _until(lambda: len(events.reminders()) == 1, "the late half-time reminder")
    assert events.reminders()[0][0]["point"] == "50%"
    await _until(lambda: clock.sleepers == 1, "the clock sleeps until one hour left")
    await _advance(clock, 60)
    assert len(events.reminders()) == 1
    assert restored.id == table.id
    await _stop(again)


async def test_timeout_action_seat_hands_the_seat_to_the_ai_until_back() -> None:
    clock = FakeClock()
    ai = Levels()
    service = await _service(clock, seed=3, ai=ai)
    rng = random.Random(5)
    table = await _humans(service, turn_timer=DAY, timeout_action="seat")
    sleeper = table.to_act
    assert sleeper is not None
    user = table.seats[sleeper].user_id
    await _until(lambda: clock.sleepers == 1, "the turn's clock sleeps")
    clock.advance(DAY)
    await _until(lambda: table.seats[sleeper].away, "the seat goes to the AI")
    [post] = await _timeouts(service, table)
    assert post.params["seat"] == sleeper and post.params["away"] is True
    assert table.seats[sleeper].ai_level == "strong"
    stored = await service.shared.store.get_game(table.id)
    assert stored is not None and stored.seats[sleeper].is_ai  # a restart keeps it away
    # The others play on; the AI plays each of the away seat's turns at once, with no
    # timer of its own.
    played_by_ai = len(ai.asked)
    while len(ai.asked) < played_by_ai + 2:
        await _until(lambda: table.to_act is not None
                     and not table.seats[table.to_act].played_by_ai, "a human's turn")
        await _move(service, table, rng)
        await asyncio.sleep(0)
    assert {seat for seat, _ in ai.asked} == {sleeper}
    assert {level for _, level in ai.asked} == {"strong"}
    # Back: the seat is theirs again; their turn waits for them, with its clock.
    assert user is not None
    await service.seats.set_away(table.id, user, False)
    assert not table.seats[sleeper].away
    while table.to_act != sleeper:
        await _until(lambda: table.to_act is not None
                     and not table.seats[table.to_act].played_by_ai, "a human's turn")
        await _move(service, table, rng)
    assert table.turn_deadline is not None
    asked = len(ai.asked)
    await _advance(clock, 60)
    assert len(ai.asked) == asked and table.to_act == sleeper
    await _stop(service)


# ------------------------------------------------------------------ the games list


async def _turn_of(service: TableService, table: Table, user: int, mine: bool,
                   rng: random.Random) -> None:
    """Play random moves until it is (mine) or is not (not mine) `user`'s turn."""
    while (table.seats[table.to_act].user_id == user) != mine:  # type: ignore[index]
        await _move(service, table, rng)


async def test_the_games_list_puts_the_members_turns_first_then_by_deadline() -> None:
    clock = FakeClock()
    service = await _service(clock)
    rng = random.Random(2)

    async def table_in(channel: int, timer: float | None, guild: int = 10) -> Table:
        table = await service.lobby.create(guild, channel, 1, "Host", "amerikaner", 3, {},
                                           turn_timer=timer)
        for user in (2, 3):
            await service.lobby.join(table.id, user, f"P{user}")
        await service.lobby.start(table.id, 1)
        return table

    slow = await table_in(31, 2 * DAY)
    await _turn_of(service, slow, 1, True, rng)
    untimed = await table_in(32, None)
    await _turn_of(service, untimed, 1, True, rng)
    fast = await table_in(33, HOUR)
    await _turn_of(service, fast, 1, True, rng)
    others = await table_in(34, HOUR)
    await _turn_of(service, others, 1, False, rng)
    lobby = await service.lobby.create(10, 35, 1, "Host", "amerikaner", 3, {})
    elsewhere = await table_in(36, HOUR, guild=11)
    await _turn_of(service, elsewhere, 1, True, rng)
    not_seated = await service.lobby.create(10, 37, 9, "Nine", "amerikaner", 3, {})
    cancelled = await service.lobby.create(10, 38, 1, "Host", "amerikaner", 3, {})
    await service.lobby.cancel(cancelled.id, 1)

    listed = service.registry.tables_of(10, 1)
    assert [t.id for t in listed] == [fast.id, slow.id, untimed.id, others.id, lobby.id]
    assert listed[-1].stage == LOBBY and listed[0].stage == PLAYING
    assert [t.id for t in service.registry.tables_of(11, 1)] == [elsewhere.id]
    assert [t.id for t in service.registry.tables_of(10, 9)] == [not_seated.id]
    # After a move the list follows: the table where it was their turn moves down.
    await _move(service, fast, rng)
    assert service.registry.tables_of(10, 1)[0].id == slow.id
    await _stop(service)


# ------------------------------------------------------------------ followed panels


async def test_followed_panels_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "db.sqlite3"
    service = await _service(clock, path)
    table = await _humans(service)
    gone = await service.lobby.create(10, 21, 1, "Host", "amerikaner", 3, {})
    now = clock.time()
    store = service.shared.store
    await store.save_panel(table.id, 1, 77, "fresh", "nb", now - 60)
    await store.save_panel(table.id, 2, 77, "old", "en", now - 15 * 60 - 1)
    await store.save_panel(table.id, 9, 77, "not seated", "en", now - 60)
    await store.save_panel(gone.id, 1, 77, "cancelled", "en", now - 60)
    await service.lobby.cancel(gone.id, 1)
    await _stop(service)

    again = await _service(clock, path)
    await again.restore()
    [panel] = await again.restorer.followed_panels()
    assert (panel.table_id, panel.user_id, panel.token, panel.language) == (
        table.id, 1, "fresh", "nb")
    # The expired one and the cancelled table's are gone from the store.
    assert {(p.table_id, p.user_id) for p in await again.shared.store.panels(now, 3600)} == {
        (table.id, 1), (table.id, 9)}
    clock.advance(15 * 60)
    assert await again.restorer.followed_panels() == []
    assert table.id not in {p.table_id for p in await again.shared.store.panels(clock.time())}
    await _stop(again)


def test_a_table_without_a_timer_has_no_deadline() -> None:
    table = Table(1, 10, 20, 1, GAMES["amerikaner"], None, 0, [])
    assert table.turn_deadline is None and table.reminder_times() == []
    assert table.stage == LOBBY


async def test_a_reminder_waits_for_the_database_and_is_sent_once() -> None:
    clock = FakeClock()
    service = await _service(clock)
    service.keeper.retry_first = service.keeper.retry_cap = 0.01  # retries within the test's time
    events = Events(service, clock)
    table = await _humans(service, turn_timer=2 * DAY)
    store = service.shared.store
    real_set_meta = store.set_meta
    refused: list[dict[str, Any]] = []

    async def away(game_id: int, meta: dict[str, Any]) -> None:
        if len(refused) < 3:  # the database is away for three tries
            refused.append(meta)
            raise OSError("connection refused")
        await real_set_meta(game_id, meta)

    store.set_meta = away  # type: ignore[method-assign]
    await _until(lambda: clock.sleepers == 1, "the turn's clock sleeps")
    clock.advance(DAY)
    await _until(lambda: len(events.reminders()) == 1, "the half-time reminder")
    assert len(refused) == 3 and all(m["reminded"]["points"] == ["50%"] for m in refused)
    assert (await store.get_game(table.id)).meta["reminded"] == {  # type: ignore[union-attr]
        "turn": 0, "points": ["50%"]}
    await _advance(clock, 60)
    assert len(events.reminders()) == 1
    await _stop(service)


# ------------------------------------------------------------------ pauses


async def test_a_paused_table_runs_no_clock_and_plays_on_with_a_fresh_turn(
        tmp_path: Path) -> None:
    """A table held for a reason (its channel gone, the bot removed, every human away)
    times out nobody and moves no AI, across a restart; lifted, the turn starts afresh."""
    clock = FakeClock()
    ai = Levels()
    path = tmp_path / "pause.sqlite3"
    service = await _service(clock, path, ai=ai)
    table = await _humans(service, turn_timer=DAY)
    await _until(lambda: clock.sleepers == 1, "the turn's clock sleeps")
    assert await service.pauses.pause(table.id, PAUSE_CHANNEL)
    assert not await service.pauses.pause(table.id, PAUSE_CHANNEL)  # held for that already
    assert await service.pauses.pause(table.id, PAUSE_GUILD)
    assert table.paused == {PAUSE_CHANNEL, PAUSE_GUILD} and table.turn_deadline is None
    version = table.version
    await _stop(service)
    service = await _service(clock, path, ai=ai)  # a restart keeps the pause
    [table] = await service.restore()
    assert table.paused == {PAUSE_CHANNEL, PAUSE_GUILD}
    clock.advance(3 * DAY)
    await asyncio.sleep(0.05)
    assert table.version == version and ai.asked == [] and clock.sleepers == 0
    assert await service.pauses.resume(table.id, PAUSE_CHANNEL)
    assert table.paused == {PAUSE_GUILD} and clock.sleepers == 0  # still held
    assert not await service.pauses.resume(table.id, PAUSE_CHANNEL)
    resumed_at = clock.time()
    assert await service.pauses.resume(table.id, PAUSE_GUILD)
    assert table.paused == frozenset() and table.turn_since is not None
    assert table.turn_since >= resumed_at  # the whole day again, from now
    assert table.turn_deadline == table.turn_since + DAY
    await _until(lambda: clock.sleepers == 1, "the turn's clock sleeps again")
    stored = await service.shared.store.get_game(table.id)
    assert stored is not None and "paused" not in stored.meta
    assert stored.turn_since == table.turn_since
    await _advance(clock, DAY - 60)
    assert table.version == version and ai.asked == []
    clock.advance(60)
    await _until(lambda: table.version == version + 1, "the AI plays the timed-out turn")
    await _stop(service)
