"""The deal of the day (issue 38) through its service and the store, for every game:
one deal per server and day from a secret, the same AI answers to the same plays, one
try, duplicate scoring (matchpoints, ties half), the day's board and the ladders, the
records tagged and replayable, a play taken up after a restart."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.errors import GameError
from bot.games import GAMES
from bot.tables.daily import DailyService
from bot.tables.daily_board import ladder, matchpoints
from bot.tables.daily_deal import DAILY_BETWEEN, DAILY_DONE, DAILY_OFF, DAILY_STALE, DailyState
from bot.tables.days import day_end, day_of, next_midnight
from tests.store_backends import Database

# The daily's AI on 4 worlds, not 24 (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("few_daily_worlds")

DAY = 86_400.0
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def play_out(service: DailyService, state: DailyState, style: int,
                   stop_after: int | None = None) -> DailyState:
    """The member plays their seat: the "random" AI with a source keyed by `style` and
    the version, so two members of one style make the same choices at the same state."""
    kind = state.kind
    moves = 0
    while not state.finished:
        if stop_after is not None and moves >= stop_after:
            return state
        assert kind.to_act(state.game) == state.deal.seat
        rng = random.Random(f"{style}:{state.version}")
        action = kind.choose_action(state.game, state.deal.seat, "random", rng)
        d = state.deal
        state = await service.act(d.guild_id, d.game, state.play.user_id, state.version,
                                  d.day, action)
        moves += 1
    return state


def test_matchpoints_share_of_results_beaten_ties_half() -> None:
    assert matchpoints([(8,), (5,), (5,), (3,)]) == [1.0, 0.5, 0.5, 0.0]
    assert matchpoints([(-1, 0), (-2, -3), (-2, -1)]) == [1.0, 0.0, 0.5]
    assert matchpoints([(4,)]) == [0.5]  # alone on the deal
    assert matchpoints([(4,), (4,)]) == [0.5, 0.5]


def test_the_dailys_words_in_both_languages() -> None:
    from bot.i18n import use_locale
    from bot.render.daily import public_panel

    panels = {}
    for language in ("en", "nb"):
        with use_locale(language):
            panels[language] = public_panel("Amerikaner", "amerikaner", "2027-01-15", 2)
    assert panels["en"].title == "Deal of the day: Amerikaner, 2027-01-15"
    assert panels["nb"].title == "Dagens giv: Amerikaner, 2027-01-15"
    assert "2 members have played" in panels["en"].description
    assert "2 medlemmer har spilt" in panels["nb"].description
    # Where the standings are, not the standings (every member reads this message).
    assert "/amerikaner daily board:today" in panels["en"].description
    assert "/amerikaner dagens-giv tavle:i dag" in panels["nb"].description
    assert "%" not in panels["en"].description + panels["nb"].description


def test_the_day_is_the_servers() -> None:
    late = 1_800_000_000.0 + 15 * 3600  # 23:00 UTC
    assert day_of(late) == "2027-01-15"
    assert day_of(late, "Europe/Oslo") == "2027-01-16"
    assert day_of(late, "Not/AZone") == "2027-01-15"  # an unknown zone: UTC


def test_a_days_end_and_the_next_midnight_in_its_zone() -> None:
    import datetime as dt

    utc = dt.datetime(2027, 1, 16, tzinfo=dt.UTC).timestamp()
    assert day_end("2027-01-15") == utc
    assert day_end("2027-01-15", "Europe/Oslo") == utc - 3600
    # Oslo's spring change: 2027-03-28 has 23 hours, the autumn's 2027-10-31 has 25.
    assert day_end("2027-03-28", "Europe/Oslo") - day_end("2027-03-27", "Europe/Oslo") \
        == 23 * 3600
    assert day_end("2027-10-31", "Europe/Oslo") - day_end("2027-10-30", "Europe/Oslo") \
        == 25 * 3600
    assert next_midnight(utc) == utc  # a midnight is its own next
    # Midnight UTC is 14:00 in Kiritimati (UTC+14): its next midnight is 10 hours on.
    assert next_midnight(utc, "Pacific/Kiritimati") == utc + 10 * 3600
    assert next_midnight(utc, "Pacific/Honolulu") == utc + 10 * 3600  # 14:00 the day before


async def test_a_zone_moved_west_opens_no_day_twice(tmp_path: Any) -> None:
    """A day played in UTC, then the zone moved to UTC-10: once the day ends (midnight
    UTC, 14:00 in Honolulu on that same date) no day is open until Honolulu's next
    midnight, and then it is the next date, never the one played again."""
    from bot.store import open_database

    clock = Clock()  # 2027-01-15 08:00 UTC
    game = "amerikaner"
    async with open_database(str(tmp_path / "d.db"), clock=clock) as store:
        service = DailyService(store, GAMES, clock, secret="x")
        await service.open(1, game, 101, "Ada")
        await service.fix_today(1, game)
        await store.set_guild_settings(1, game, {"daily": {"time_zone": "Pacific/Honolulu"}})
        assert await service.current_day(1, game) == ("2027-01-15", clock.now)
        clock.now += 16 * 3600 + 60  # 00:01 UTC: 14:01 on the 15th in Honolulu
        day, begins = await service.current_day(1, game)
        assert day is None and begins == T0 + 26 * 3600  # 10:00 UTC: midnight there
        with pytest.raises(GameError) as between:
            await service.open(1, game, 102, "Bo")
        assert between.value.params == {"reason": DAILY_BETWEEN, "at": int(begins)}
        clock.now = begins
        assert (await service.open(1, game, 102, "Bo")).deal.day == "2027-01-16"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_one_deal_per_server_and_day_from_the_secret(game: str, tmp_path: Any) -> None:
    from bot.store import open_database

    clock = Clock()
    async with open_database(str(tmp_path / "d.db"), clock=clock) as store:
        service = DailyService(store, GAMES, clock, secret="s3cret")
        a = await service.deal(1, game)
        assert (await service.deal(1, game)).deal == a.deal  # the same for every member
        assert (await service.deal(2, game)).deal != a.deal  # another server
        assert (await DailyService(store, GAMES, clock, secret="other").deal(1, game)
                ).deal != a.deal  # nobody without the secret computes it
        clock.now += DAY
        assert (await service.deal(1, game)).deal != a.deal  # tomorrow's
        # Without a secret setting, one is made once and kept in the store.
        first = await DailyService(store, GAMES, clock).secret()
        assert await DailyService(store, GAMES, clock).secret() == first
        assert len(first) == 64


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_three_members_play_the_same_deal(game: str, database: Database) -> None:
    clock = Clock()
    kind = GAMES[game]
    async with database.open(clock=clock) as store:
        service = DailyService(store, GAMES, clock, secret="s3cret")
        a = await play_out(service, await service.open(1, game, 101, "Ada"), style=1)
        # Bo plays as Ada did, stopping halfway: a restart follows.
        b = await play_out(service, await service.open(1, game, 102, "Bo"), style=1,
                           stop_after=2)
        assert not b.finished
    async with database.open(clock=clock) as store:  # a restart: a new process
        service = DailyService(store, GAMES, clock, secret="s3cret")
        b = await play_out(service, await service.open(1, game, 102, "Bo"), style=1)
        c = await play_out(service, await service.open(1, game, 103, "Cy"), style=2)
        other = await play_out(service, await service.open(2, game, 201, "Di"), style=1)

        records = {}
        for state in (a, b, c, other):
            assert state.play.game_id is not None
            row = await store.get_game(state.play.game_id)
            assert row is not None and row.status == "finished" and row.game == game
            assert row.meta["daily"] == {"day": "2027-01-15", "guild": row.guild_id,
                                         "seat": state.deal.seat}
            record = await store.load_record(state.play.game_id,
                                             record_format=kind.record_format)
            assert "error" not in kind.replay(kind.record(record))  # replayable
            records[state.play.user_id] = record
        deal = {k: v for k, v in records[101]["hands"][0].items() if k != "actions"}
        for user in (102, 103):
            assert {k: v for k, v in records[user]["hands"][0].items()
                    if k != "actions"} == deal
            assert records[user]["first_dealer"] == records[101]["first_dealer"]
        # The same plays met the same answers: Ada's and Bo's records are one.
        assert records[101]["hands"][0]["actions"] == records[102]["hands"][0]["actions"]
        assert a.play.score == b.play.score
        # Another server's deal is another.
        assert {k: v for k, v in records[201]["hands"][0].items() if k != "actions"} != deal

        # One try a day, with a sentence's code; a stale click changes nothing.
        with pytest.raises(GameError) as refused:
            await service.open(1, game, 101, "Ada")
        assert refused.value.params["reason"] == DAILY_DONE
        with pytest.raises(GameError) as stale:
            await service.act(1, game, 101, 0, "2027-01-15", None)
        assert stale.value.params["reason"] == DAILY_DONE

        # The day's board: Ada and Bo tie.
        board = await service.board(1, game)
        assert {r.user_id for r in board} == {101, 102, 103}
        by_user = {r.user_id: r for r in board}
        assert by_user[101].matchpoints == by_user[102].matchpoints
        expected = matchpoints([a.play.score, b.play.score, c.play.score])  # type: ignore
        assert [by_user[u].matchpoints for u in (101, 102, 103)] == expected
        assert (await service.played(1, game, "2027-01-15")) == (3, 3)
        # Not part of the game's totals (nor ratings): no results rows.
        assert await store.leaderboard_size(1, game) == 0

        # After playing: the AI's own choices where the member's differ.
        for version, hint in await service.ai_choices(a):
            assert a.play.actions[version]["seat"] == a.deal.seat
            assert hint.sentence


async def test_a_stale_click_and_a_daily_turned_off(tmp_path: Any) -> None:
    from bot.store import open_database

    clock = Clock()
    game = "amerikaner"
    async with open_database(str(tmp_path / "d.db"), clock=clock) as store:
        service = DailyService(store, GAMES, clock, secret="x")
        state = await service.open(1, game, 101, "Ada")
        kind = state.kind
        action = kind.choose_action(state.game, state.deal.seat, "random", random.Random(1))
        with pytest.raises(GameError) as stale:
            await service.act(1, game, 101, state.version + 1, state.deal.day, action)
        assert stale.value.params["reason"] == DAILY_STALE
        again = await service.open(1, game, 101, "Ada")  # taken up, not begun anew
        assert again.play.actions == state.play.actions
        await store.set_guild_settings(1, game, {"daily": {"enabled": False}})
        with pytest.raises(GameError) as off:
            await service.open(1, game, 102, "Bo")
        assert off.value.params["reason"] == DAILY_OFF
        # Turned off mid-day: a play under way can still be finished.
        assert (await service.open(1, game, 101, "Ada")).play.actions == state.play.actions


def test_ladders_average_matchpoints_with_a_minimum_of_days() -> None:
    results = [
        ("2027-01-01", 1, "a", (10,)), ("2027-01-01", 2, "b", (5,)),
        ("2027-01-02", 1, "a", (5,)), ("2027-01-02", 2, "b", (5,)),
        ("2027-01-03", 1, "a", (0,)), ("2027-01-03", 2, "b", (9,)),
        ("2027-01-03", 3, "c", (5,)),
    ]
    board = ladder(results, min_days=3)
    assert [(r.user_id, r.matchpoints, r.days) for r in board] == [
        (1, pytest.approx(0.5), 3), (2, pytest.approx(0.5), 3)]
    assert [r.rank for r in board] == [1, 1]  # a tie shares the place
    everyone = ladder(results, min_days=1)
    assert [(r.user_id, r.rank, r.days) for r in everyone] == [(1, 1, 3), (2, 1, 3),
                                                               (3, 1, 1)]


async def test_the_weekly_ladder_over_days(database: Database) -> None:
    clock = Clock()
    game = "amerikaner"
    async with database.open(clock=clock) as store:
        service = DailyService(store, GAMES, clock, secret="x")
        for _ in range(3):
            for user, style in ((101, 1), (102, 2)):
                await play_out(service, await service.open(1, game, user, str(user)), style)
            clock.now += DAY
        # Today (the fourth day) nobody has played: the ladder counts the days over.
        week = await service.ladder(1, game, "week")
        assert {r.user_id for r in week} == {101, 102}
        assert all(r.days == 3 for r in week)
        assert sum(r.matchpoints for r in week) == pytest.approx(1.0)
        assert await service.ladder(1, game, "week", min_days=4) == []
        # The stored matchpoints are those of the days' results, scored day by day.
        results = await store.daily_results(1, game, "2027-01-09", "2027-01-17")
        assert week == ladder(results, min_days=3)
        # The ladder counts a day once its plays may no longer be continued (its end
        # and the grace): a play begun before midnight and finished within the grace
        # counts on its day. 2027-01-18 is today (a Monday: a new week; the month's).
        clock.now = T0 + 3 * DAY + 15.5 * 3600  # 23:30 UTC
        state = await service.open(1, game, 103, "late")
        assert state.deal.day == "2027-01-18"
        clock.now += 3600  # 00:30: the 19th, within the grace of the 18th
        state = await play_out(service, state, style=3)
        assert state.finished and state.play.score is not None
        month = await service.ladder(1, game, "month", min_days=1)
        assert "2027-01-18" not in await store.daily_scored(1, game, "2027-01-18",
                                                            "2027-01-18")
        clock.now += 3600  # 01:30: the grace is past
        month = await service.ladder(1, game, "month", min_days=1)
        results = await store.daily_results(1, game, "2027-01-01", "2027-01-18")
        assert month == ladder(results, min_days=1)
        assert {r.user_id for r in month} == {101, 102, 103}
        days, average = await service.member_line(1, game, 101)
        assert days == 3 and average is not None


async def test_the_ladders_are_the_calendar_week_and_month(database: Database) -> None:
    """A weekly ladder is its calendar week's (Monday to Sunday), a monthly one its
    calendar month's, of the last day that is over; each is read from the per-member
    rows the days' scoring keeps (migration 9), equal to the days' results averaged."""
    game = "amerikaner"
    clock = Clock(T0 + 14 * DAY)  # Friday 2027-01-29
    async with database.open(clock=clock) as store:
        service = DailyService(store, GAMES, clock, secret="x")
        for day in range(4):  # Friday to Monday 2027-02-01
            for user, style in ((101, 1), (102, 2)):
                if day == 1 and user == 102:
                    continue  # Bo skips Saturday
                await play_out(service, await service.open(1, game, user, str(user)), style)
            clock.now += DAY
            if day == 2:  # Monday: the week and the month that end on Sunday
                week = await service.ladder(1, game, "week", min_days=1)
                month = await service.ladder(1, game, "month", min_days=1)
                results = await store.daily_results(1, game, "2027-01-29", "2027-01-31")
                assert week == month == ladder(results, min_days=1)
                assert {(r.user_id, r.days) for r in week} == {(101, 3), (102, 2)}
                assert [r.user_id for r in await service.ladder(1, game, "week")] == [101]
        # Tuesday: a new week and a new month, of Monday alone.
        week = await service.ladder(1, game, "week", min_days=1)
        month = await service.ladder(1, game, "month", min_days=1)
        results = await store.daily_results(1, game, "2027-02-01", "2027-02-01")
        assert week == month == ladder(results, min_days=1)
        assert all(r.days == 1 for r in week) and len(week) == 2
        assert await service.member_line(1, game, 101) == (1, week[0].matchpoints
                                                           if week[0].user_id == 101
                                                           else week[1].matchpoints)


async def test_a_copy_into_postgresql_keeps_the_daily(tmp_path: Any, pg_url: str) -> None:
    """`amerikaner db copy` (bot/store/transfer.py) brings the daily along: the secret
    (so the same days deal the same cards), the plays, the day's message and the
    ladders' rows."""
    from bot.store import open_database
    from bot.store.copy import copy_sqlite_to_postgres

    game = "amerikaner"
    clock = Clock()
    path = tmp_path / "a.sqlite3"
    async with open_database(str(path), clock=clock) as store:
        service = DailyService(store, GAMES, clock)  # no setting: a secret is made
        await play_out(service, await service.open(1, game, 101, "Ada"), style=1)
        await service.open(1, game, 102, "Bo")  # begun, not finished
        await store.set_daily_day(1, game, "2027-01-15", 55, 66, "shown")
        clock.now += DAY
        await service.ladder(1, game, "week", min_days=1)  # scores the day
        deal = await service.deal(1, game, "2027-01-15")
        before = [await store.daily_play(1, game, "2027-01-15", u) for u in (101, 102)]
        ladder_before = await store.daily_ladder(1, game, "week:2027-01-11", "2027-01-11",
                                                    "2027-01-17", 1)
        rules_before = await store.daily_day_rules(1, game, "2027-01-15")
        assert rules_before is not None  # fixed at the day's first play
    await copy_sqlite_to_postgres(str(path), pg_url)
    async with open_database(pg_url, clock=clock) as store:
        service = DailyService(store, GAMES, clock)
        assert (await service.deal(1, game, "2027-01-15")).deal == deal.deal
        assert [await store.daily_play(1, game, "2027-01-15", u) for u in (101, 102)] \
            == before
        assert await store.daily_day(1, game, "2027-01-15") is not None
        assert await store.daily_ladder(1, game, "week:2027-01-11", "2027-01-11",
                                        "2027-01-17", 1) == ladder_before
        assert await store.daily_scored(1, game, "2027-01-15", "2027-01-15") == {
            "2027-01-15"}
        assert await store.daily_day_rules(1, game, "2027-01-15") == rules_before
