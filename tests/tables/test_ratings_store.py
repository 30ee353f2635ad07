"""Ratings stored (issue 28): the store's rating rows on both backends, the service
rating finished matches in the move's commit, and `rerate` rebuilding them exactly."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.store import (
    DayRow,
    GameRating,
    LoggedMatch,
    RatingRow,
    RatingUpdate,
    StoreError,
    migrations,
    open_database,
    open_store,
)
from bot.tables.rating_book import RatingBook, month_of, seated
from bot.tables.ratings import MIN_RATED_HANDS, MODEL, RatedMatch
from bot.tables.rerate import rerate, rerate_if_due
from bot.tables.service import TableService
from bot.tables.table import ABANDON_AFTER, CANCELLED, FINISHED, PAUSE_ABSENT, PLAYING
from tests.fake_discord.clock import FakeClock
from tests.store_backends import GAME, Database

RATING_TABLES = ("ratings", "rating_seasons", "rating_days", "rating_games",
                 "rating_counts")
_ORDER = {"ratings": "guild_id, pool, user_id",
          "rating_seasons": "guild_id, pool, month, user_id",
          "rating_days": "guild_id, pool, user_id, day", "rating_games": "game_id",
          "rating_counts": "guild_id"}


def _row(user: int, ordinal: float, hands: int = MIN_RATED_HANDS, *, pool: str = "p",
         month: str | None = None) -> RatingRow:
    return RatingRow(pool=pool, user_id=user, mu=ordinal + 3.0, sigma=1.0, ordinal=ordinal,
                     hands=hands, ranked=hands >= MIN_RATED_HANDS, updated_at=1.0 * user,
                     month=month)


async def _game(store: Any, guild: int = 5) -> int:
    return await store.create_game(guild, guild * 100 + 1, 1, {"players": 4}, 0, [], game=GAME)


async def test_rating_rows_board_and_member_on_both_backends(database: Database) -> None:
    async with database.open() as store:
        game = await _game(store)
        logged = (LoggedMatch(0, 10.5, (7, "easy", 8, 9)),)
        await store.write_ratings(RatingUpdate(
            guild_id=5, counted_before=0, games=(GameRating(game, "p", 0, logged),),
            ratings=(_row(7, 3.5), _row(8, 9.25), _row(9, 30.0, hands=2),
                     _row(10, 3.5)),
            seasons=(_row(7, 1.0, month="2026-11"), _row(8, 2.0, month="2026-12")),
            days=(DayRow("p", 7, "2026-10-01", 20.0, 5.0, 5.0),
                  DayRow("p", 7, "2026-11-20", 21.0, 4.0, 9.0))))
        # By ordinal, ties to the lower id; member 9, with too few hands, after the
        # settled members however high (provisional).
        board = await store.rating_board(5, "p")
        assert [(r.user_id, r.ordinal) for r in board] == [(8, 9.25), (7, 3.5), (10, 3.5),
                                                           (9, 30.0)]
        assert await store.rating_board_size(5, "p") == 4
        assert [r.user_id for r in await store.rating_board(5, "p", limit=1, offset=1)] == [7]
        assert [r.user_id for r in await store.rating_board(5, "p", "2026-11")] == [7]
        assert await store.rating_board_size(5, "p", "2026-12") == 1
        assert await store.rating_board(6, "p") == []
        member = await store.member_rating(5, "p", 7, "2026-11", "2026-11-01")
        assert member.rating == _row(7, 3.5)
        assert member.season == _row(7, 1.0, month="2026-11")
        assert member.before == DayRow("p", 7, "2026-10-01", 20.0, 5.0, 5.0)
        empty = await store.member_rating(5, "p", 99, "2026-11", "2026-11-01")
        assert (empty.rating, empty.season, empty.before) == (None, None, None)
        state = await store.rating_state(game, 5, "p", "2026-11", [7, 9, 99])
        assert (state.rated, state.counted) == (1, 1)
        assert set(state.ratings) == {7, 9} and set(state.seasons) == {7}
        assert await store.rating_logs() == {game: ("p", list(logged))}


async def test_an_update_computed_from_old_counts_is_refused_whole(database: Database
                                                                   ) -> None:
    async with database.open() as store:
        game = await _game(store)
        first = RatingUpdate(5, 0, (GameRating(game, "p", 0, (LoggedMatch(0, 1.0, (7,)),)),),
                             ratings=(_row(7, 1.0),))
        await store.write_ratings(first)
        with pytest.raises(StoreError):  # the guild's count moved on
            await store.write_ratings(RatingUpdate(5, 0, (), ratings=(_row(7, 50.0),)))
        with pytest.raises(StoreError):  # the game's count moved on
            await store.write_ratings(RatingUpdate(
                5, 1, (GameRating(game, "p", 0, (LoggedMatch(1, 2.0, (7,)),)),),
                ratings=(_row(7, 50.0),)))
        assert [r.ordinal for r in await store.rating_board(5, "p")] == [1.0]
        assert (await store.rating_state(game, 5, "p", "2026-11", [])).counted == 1


def test_a_season_starts_afresh_each_month() -> None:
    book = RatingBook(1, 0)
    match = RatedMatch(teams=((0,), (1,)), ranks=(0, 1))
    november = 1_795_000_000.0  # 2026-11-18
    december = november + 20 * 86400
    assert month_of(november) != month_of(december)
    for _ in range(3):
        book.rate("p", match, (1, 2), november)
    book.rate("p", match, (1, 2), december)
    fresh = MODEL.rate(match, [MODEL.initial(), MODEL.initial()], [False, False])
    season = book.seasons[("p", month_of(december), 1)]
    assert (season.mu, season.sigma, season.hands) == (fresh[0].mu, fresh[0].sigma, 1)
    assert book.ratings[("p", 1)].hands == 4
    update = book.update([])
    assert book.counted == 4 and len(update.days) == 4  # two members, two days


# ---------------------------------------------------------------- through the service


async def _play(service: TableService, guild: int, channel: int, game: str,
                players: int, humans: list[int], level: str, rng: random.Random,
                options: dict[str, object], finish: bool = True) -> Any:
    """A game of `humans` and AI seats of `level`, the humans playing at random; left
    mid-deal once two matches are rated if not `finish`."""
    preset = "amerikaner" if game == "amerikaner" else None
    table = await service.lobby.create(guild, channel, humans[0], "H", preset, players,
                                       options, game=game, switches={"pictures": False})
    for user in humans[1:]:
        await service.lobby.join(table.id, user, f"P{user}")
    if len(humans) < players:
        await service.lobby.fill_ai(table.id, humans[0], level)
    await service.lobby.start(table.id, humans[0])
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while table.stage == PLAYING and loop.time() < deadline:
        if not finish and len(table.kind.rating_matches(table.game)) >= 2 \
                and table.version % 3 == 1:
            return table
        seat = table.to_act
        if seat is not None and table.seats[seat].user_id is not None:
            action = table.kind.choose_action(table.game, seat, "easy", rng)
            await service.play.act(table.id, table.seats[seat].user_id, table.version,
                                   lambda s, a=action: a)
        else:
            await asyncio.sleep(0.001)  # the service's AI plays
    assert table.stage == FINISHED or not finish
    return table


def _to_next_month(now: float) -> float:
    """Seconds from `now` to an hour into the next month (UTC, the seasons' calendar),
    whatever the day of the month the clock started on."""
    today = datetime.fromtimestamp(now, UTC)
    first = datetime(today.year + today.month // 12, today.month % 12 + 1, 1, 1, tzinfo=UTC)
    return first.timestamp() - now


async def _play_everything(store: Any, clock: FakeClock) -> None:
    """Several guilds, both games, AI seats of both levels, a game left unfinished, and
    a month's end crossed."""
    service = TableService(store, GAMES, rng=random.Random(3), ai_delay=0, trick_pause=0,
                           clock=clock)
    rng = random.Random(11)
    try:
        await _play(service, 1, 11, "amerikaner", 4, [1, 2, 3], "strong", rng,
                    {"target": 8})
        await _play(service, 2, 21, "amerikaner", 4, [1, 4], "easy", rng, {"target": 8})
        await _play(service, 1, 12, "american", 3, [1, 2], "easy", rng, {"target": 2})
        clock.advance(_to_next_month(clock.time()))
        await _play(service, 1, 11, "amerikaner", 4, [2, 3, 5, 6], "easy", rng,
                    {"target": 8})
        await _play(service, 1, 13, "american", 4, [5, 3, 2], "strong", rng,
                    {"target": 2})
        await _play(service, 1, 14, "amerikaner", 4, [1, 2], "easy", rng, {"target": 30},
                    finish=False)
    finally:
        await service.registry.close()


async def _dump(database: Database) -> dict[str, list[tuple[Any, ...]]]:
    return {table: await database.rows(f"SELECT * FROM {table} ORDER BY {_ORDER[table]}")
            for table in RATING_TABLES}


async def test_rerate_rebuilds_exactly_the_running_ratings(database: Database) -> None:
    clock = FakeClock(offset=0.0)
    async with database.open() as store:
        await _play_everything(store, clock)
    running = await _dump(database)
    assert running["ratings"] and running["rating_seasons"] and running["rating_days"]
    months = {row[2] for row in running["rating_seasons"]}
    assert len(months) == 2
    pools = {row[1] for row in running["ratings"]}
    assert pools == {"amerikaner", "american"}
    # Every unfinished game's finished matches are rated too, and the counts add up.
    counts = {row[0]: row[1] for row in running["rating_counts"]}
    logged = {}
    for _game, guild, _pool, rated, _log in running["rating_games"]:
        logged[guild] = logged.get(guild, 0) + rated
    assert counts == logged
    async with database.open() as store:
        report = await rerate(store, GAMES)
    assert report.matches == sum(counts.values()) and not report.skipped
    assert await _dump(database) == running


async def test_a_failed_commit_leaves_the_ratings_unchanged(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "db.sqlite3")
    service = TableService(store, GAMES, rng=random.Random(3), ai_delay=0, trick_pause=0)
    rng = random.Random(4)
    table = await service.lobby.create(1, 11, 1, "H", "amerikaner", 4, {"target": 30},
                                       switches={"pictures": False})
    await service.lobby.fill_ai(table.id, 1, "easy")
    await service.lobby.start(table.id, 1)
    failed = 0
    real = store.record_action

    async def refusing(*args: Any, **kwargs: Any) -> None:
        # Every commit that carries ratings fails (the database refuses it whole).
        nonlocal failed
        if kwargs.get("ratings") is not None:
            failed += 1
            raise OSError("disk I/O error")
        await real(*args, **kwargs)

    store.record_action = refusing  # type: ignore[method-assign]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not failed and loop.time() < deadline:
        if table.to_act == 0:
            action = table.kind.choose_action(table.game, 0, "easy", rng)
            try:
                await service.play.act(table.id, 1, table.version, lambda s, a=action: a)
            except Exception:
                break
        else:
            await asyncio.sleep(0.001)
    assert failed >= 1
    state = await store.rating_state(table.id, 1, "amerikaner", "2026-11", [1])
    assert (state.rated, state.counted, state.ratings) == (0, 0, {})
    # The hand's end was not played either: memory is what the store holds.
    assert table.kind.rating_matches(table.game) == []
    await service.registry.close()
    await store.close()


async def test_sqlite_and_postgresql_agree_and_a_copy_rerates_the_same(
        tmp_path: Path, pg_url: str) -> None:
    from bot.store.copy import copy_sqlite_to_postgres

    lite = Database("sqlite", str(tmp_path / "a.sqlite3"))
    clock = FakeClock(offset=0.0)
    async with lite.open() as store:
        await _play_everything(store, clock)
    running = await _dump(lite)
    await copy_sqlite_to_postgres(lite.target, pg_url)
    pg = Database("postgresql", pg_url)
    assert await _dump(pg) == running
    async with open_database(pg_url) as store:
        await rerate(store, GAMES)
    assert await _dump(pg) == running


def test_seated_keeps_members_and_ai_levels() -> None:
    assert seated([(5, None), (None, "easy"), (7, "strong"), (None, None)]) == (
        5, "easy", 7, "")


async def test_a_restart_neither_loses_nor_doubles_a_rated_hand(tmp_path: Path) -> None:
    """Rated hands are counted in the commit of the move that finished them: a service
    restarted mid-game rates the next hands only, and the end result is what `rerate`
    makes of the whole record."""
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    store = await open_store(path)
    service = TableService(store, GAMES, rng=random.Random(8), ai_delay=0, trick_pause=0,
                           clock=clock)
    table = await _play(service, 3, 31, "amerikaner", 4, [1, 2], "easy", random.Random(2),
                        {"target": 40}, finish=False)
    before = len(table.kind.rating_matches(table.game))
    await service.registry.close()
    await store.close()
    store = await open_store(path)
    service = TableService(store, GAMES, rng=random.Random(9), ai_delay=0, trick_pause=0,
                           clock=clock)
    (table,) = await service.restore()
    assert (await store.rating_state(table.id, 3, "amerikaner", "2026-11", [])).rated \
        == before
    rng = random.Random(6)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while table.stage == PLAYING and loop.time() < deadline:
        seat = table.to_act
        if seat is not None and table.seats[seat].user_id is not None:
            action = table.kind.choose_action(table.game, seat, "easy", rng)
            await service.play.act(table.id, table.seats[seat].user_id, table.version,
                                   lambda s, a=action: a)
        else:
            await asyncio.sleep(0.001)
    assert table.stage == FINISHED
    await service.registry.close()
    matches = len(table.kind.rating_matches(table.game))
    assert matches > before
    state = await store.rating_state(table.id, 3, "amerikaner", "2026-11", [1, 2])
    assert state.rated == state.counted == matches
    assert all(row.hands == matches for row in state.ratings.values())
    await store.close()
    database = Database("sqlite", str(path))
    running = await _dump(database)
    async with open_store(path) as again:
        await rerate(again, GAMES)
    assert await _dump(database) == running


def test_the_rerate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    path = tmp_path / "db.sqlite3"

    async def play() -> None:
        async with open_store(path) as store:
            service = TableService(store, GAMES, rng=random.Random(3), ai_delay=0,
                                   trick_pause=0, clock=FakeClock())
            await _play(service, 1, 11, "american", 3, [1, 2], "easy", random.Random(1),
                        {"target": 1})
            await service.registry.close()

    asyncio.run(play())
    before = asyncio.run(_dump(Database("sqlite", str(path))))
    assert main(["db", "rerate", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rated ") and "of 1 games in 1 servers" in out
    assert asyncio.run(_dump(Database("sqlite", str(path)))) == before


async def test_two_tables_of_one_guild_rate_in_turn(tmp_path: Path) -> None:
    """The same members at two tables of one guild, playing at once: every update is
    computed from the ratings the other left (none is refused as stale, none lost), and
    rerate, replaying in the logged order, gives the same rows."""
    path = tmp_path / "db.sqlite3"
    async with open_store(path) as store:
        # From the read of the ratings to the commit of the move: at most one move of
        # the guild at a time (the read made slower, so that moves would overlap).
        busy: set[Any] = set()
        most = 0
        read, record = store.rating_state, store.record_action

        async def slow_read(*args: Any, **kwargs: Any) -> Any:
            nonlocal most
            busy.add(asyncio.current_task())
            most = max(most, len(busy))
            await asyncio.sleep(0.02)
            return await read(*args, **kwargs)

        async def recording(*args: Any, **kwargs: Any) -> Any:
            try:
                return await record(*args, **kwargs)
            finally:
                busy.discard(asyncio.current_task())

        store.rating_state = slow_read  # type: ignore[method-assign]
        store.record_action = recording  # type: ignore[method-assign]
        service = TableService(store, GAMES, rng=random.Random(3), ai_delay=0,
                               trick_pause=0, clock=FakeClock())
        await asyncio.gather(
            _play(service, 1, 11, "amerikaner", 4, [1, 2], "easy", random.Random(1),
                  {"target": 8}),
            _play(service, 1, 12, "american", 3, [1, 2], "strong", random.Random(2),
                  {"target": 2}),
            _play(service, 1, 13, "amerikaner", 4, [2, 1], "strong", random.Random(4),
                  {"target": 8}))
        await service.registry.close()
    assert most == 1
    database = Database("sqlite", str(path))
    running = await _dump(database)
    (count,) = running["rating_counts"]
    assert count[1] == sum(row[3] for row in running["rating_games"]) > 0
    async with open_store(path) as store:
        await rerate(store, GAMES)
    assert await _dump(database) == running


async def _turn_of_member(service: TableService, table: Any) -> int | None:
    """Wait (a little) for a member's turn at `table`; their seat, or None at the end."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while table.stage == PLAYING and loop.time() < deadline:
        seat = table.to_act
        if seat is not None and not table.seats[seat].played_by_ai:
            return int(seat)
        await asyncio.sleep(0.001)
    return None


async def _play_through_absences(service: TableService, clock: FakeClock,
                                 rng: random.Random) -> None:
    """Members time out (the AI plays one turn, or takes the seat), go away and come
    back, hand seats to the AI and to someone else, the host gives up her own seat, and
    a game is cancelled mid-deal."""
    table = await service.lobby.create(1, 15, 1, "H", "amerikaner", 4, {"target": 8},
                                       game="amerikaner", switches={"pictures": False})
    for user in (2, 3):
        await service.lobby.join(table.id, user, f"P{user}")
    await service.lobby.fill_ai(table.id, 1, "easy")
    await service.lobby.start(table.id, 1)
    await service.lobby.set_timer(table.id, 1, turn_timer=60.0, timeout_action="play")
    moves = 0
    done: set[str] = set()
    while (seat := await _turn_of_member(service, table)) is not None:
        moves += 1
        user = table.seats[seat].user_id
        if moves in (4, 30):  # the time runs out: the AI plays the one turn
            version = table.version
            while clock.sleepers < 1:
                await asyncio.sleep(0.001)
            clock.advance(61)
            while table.version == version:
                await asyncio.sleep(0.001)
            continue
        if moves == 8:
            await service.seats.set_away(table.id, user, True)
            continue
        if moves == 16:  # everyone away comes back
            for away in [s.user_id for s in table.seats if s.away]:
                await service.seats.set_away(table.id, away, False)
        if moves >= 24 and "left" not in done and user != 1:
            done.add("left")  # a member leaves for good
            await service.seats.leave(table.id, user)
            continue
        if moves == 40:  # another's seat goes to a newcomer
            other = next(s for s in table.seats if s.user_id not in (None, 1))
            await service.seats.set_away(table.id, other.user_id, True)
            seat = table.seat_of(other.user_id)
            await service.seats.replace(table.id, 1, seat, (7, "P7"))  # an offer: 7 accepts
            await service.seats.answer_offer(table.id, 7, seat, True)
            continue
        if moves == 60:  # the host hands her own seat to the AI for good
            if not table.seats[table.seat_of(1)].away:
                await service.seats.set_away(table.id, 1, True)
            await service.seats.replace(table.id, 1, table.seat_of(1), None)
            continue
        action = table.kind.choose_action(table.game, seat, "easy", rng)
        await service.play.act(table.id, user, table.version, lambda s, a=action: a)
    assert moves > 60 and "left" in done, moves  # every absence above happened
    while table.stage == PLAYING:
        await asyncio.sleep(0.001)
    # A game cancelled mid-deal, after one deal is rated, at a member's turn (nothing
    # moves then), one member away.
    cancelled = await service.lobby.create(1, 16, 1, "H", None, 3, {"target": 10},
                                           game="american", switches={"pictures": False})
    await service.lobby.join(cancelled.id, 5, "P5")
    await service.lobby.fill_ai(cancelled.id, 1, "easy")
    await service.lobby.start(cancelled.id, 1)
    while (seat := await _turn_of_member(service, cancelled)) is not None:
        if cancelled.kind.rating_matches(cancelled.game):
            break
        action = cancelled.kind.choose_action(cancelled.game, seat, "easy", rng)
        await service.play.act(cancelled.id, cancelled.seats[seat].user_id, cancelled.version,
                               lambda s, a=action: a)
    assert cancelled.stage == PLAYING
    await service.seats.set_away(cancelled.id, 5 if cancelled.seats[seat].user_id == 1 else 1,
                                 True)
    await service.lobby.cancel(cancelled.id, 1)
    await _abandon_and_cancel(service, clock)


async def _abandon_and_cancel(service: TableService, clock: FakeClock) -> None:
    """Issue 50: a lone member goes away mid-deal and the table ends ABANDON_AFTER
    later (a forfeit for her alone); a host cancels with a member present (a forfeit
    for the host alone, the member logged as spared); a moderator who is not seated
    cancels (a forfeit for nobody); a host away when the deal began cancels (nobody)."""
    lone = await service.lobby.create(1, 17, 5, "P5", None, 3, {"target": 10},
                                      game="american", switches={"pictures": False})
    await service.lobby.fill_ai(lone.id, 5, "easy")
    await service.lobby.start(lone.id, 5)
    await _turn_of_member(service, lone)
    await service.seats.set_away(lone.id, 5, True)
    assert lone.paused == {PAUSE_ABSENT}
    clock.advance(ABANDON_AFTER + 1)
    while lone.stage == PLAYING:
        await asyncio.sleep(0.001)
    assert lone.stage == CANCELLED
    for channel, canceller, manager in ((18, 1, False), (19, 9, True)):
        table = await service.lobby.create(1, channel, 1, "H", None, 3, {"target": 10},
                                           game="american", switches={"pictures": False})
        await service.lobby.join(table.id, 5, "P5")
        await service.lobby.fill_ai(table.id, 1, "easy")
        await service.lobby.start(table.id, 1)
        await _turn_of_member(service, table)
        await service.lobby.cancel(table.id, canceller, manager)
    # The host away when a deal began: P5 plays the first deal out alone.
    table = await service.lobby.create(1, 20, 1, "H", None, 3, {"target": 10},
                                       game="american", switches={"pictures": False})
    await service.lobby.join(table.id, 5, "P5")
    await service.lobby.fill_ai(table.id, 1, "easy")
    await service.lobby.start(table.id, 1)
    await service.seats.set_away(table.id, 1, True)
    rng = random.Random(7)
    while (seat := await _turn_of_member(service, table)) is not None:
        if table.kind.rating_matches(table.game):
            break
        action = table.kind.choose_action(table.game, seat, "easy", rng)
        await service.play.act(table.id, 5, table.version, lambda s, a=action: a)
    assert table.stage == PLAYING
    await service.lobby.cancel(table.id, 1)


async def test_rerate_rebuilds_exactly_through_absences(database: Database) -> None:
    """Timeouts, away seats, a leave, replacements and a cancel mid-deal: `rerate`
    gives back the running ratings row for row (on both backends)."""
    clock = FakeClock(offset=0.0)
    async with database.open() as store:
        service = TableService(store, GAMES, rng=random.Random(3), ai_delay=0,
                               trick_pause=0, clock=clock)
        try:
            await _play_through_absences(service, clock, random.Random(5))
        finally:
            await service.registry.close()
    running = await _dump(database)
    logs = [entry for _g, _guild, _pool, _rated, log in running["rating_games"]
            for entry in json.loads(log)]
    assert any(len(entry) > 3 and entry[3] for entry in logs)  # covered seats
    forfeits = [entry for entry in logs if len(entry) > 4 and entry[4]]
    # The first cancel's; the lone member's abandoned deal; the host's cancel with P5
    # present, P5 logged as spared; none for the moderator's or the away host's.
    assert len(forfeits) == 3, forfeits
    assert any(len(entry) > 5 and entry[5] for entry in forfeits)
    async with database.open() as store:
        await rerate(store, GAMES)
    assert await _dump(database) == running


async def test_the_migration_rerates_a_rated_database_once(database: Database) -> None:
    """A database rated under the old rules (version 5) upgrades with a rerate due; the
    bot's start rebuilds its ratings (as `db rerate` would) and then never again."""
    clock = FakeClock(offset=0.0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:5])
        async with database.open() as store:
            assert await store.schema_version() == 5
            service = TableService(store, GAMES, rng=random.Random(3), ai_delay=0,
                                   trick_pause=0, clock=clock)
            try:
                await _play(service, 1, 11, "amerikaner", 4, [1, 2], "easy",
                            random.Random(2), {"target": 8})
            finally:
                await service.registry.close()
    # The old rules' numbers, as the running bot of that time left them: made up here.
    await database.execute("UPDATE ratings SET mu = mu + 5")
    async with database.open() as store:
        assert await store.rerate_due()
        report = await rerate_if_due(store, GAMES)
        assert report is not None and report.matches > 0
        assert not await store.rerate_due()
        assert await rerate_if_due(store, GAMES) is None
    rebuilt = await _dump(database)
    async with database.open() as store:
        await rerate(store, GAMES)
    assert await _dump(database) == rebuilt
