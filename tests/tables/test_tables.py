"""The table service: lobby, acting with checks, persistence, restore, AI turns."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.errors import GameError
from bot.games import GAMES
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.ai.random_player import random_action
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.record import load_game, replay_output
from bot.render import error_text
from bot.store import open_store
from bot.tables.errors import TableError
from bot.tables.registry import ForeignGuildError
from bot.tables.service import TableService
from bot.tables.table import FINISHED, PLAYING
from tests.store_backends import Database


def _random_ai(kind, game, seat, level, rng):
    return random_action(kind.seat_view(game, seat), rng)


async def _service(path: Path | str = ":memory:", seed: int = 1) -> TableService:
    store = await open_store(path)
    return TableService(store, GAMES, rng=random.Random(seed), ai_delay=0, trick_pause=0,
                        ai_chooser=_random_ai)


async def _started(service: TableService, players: int = 4, preset: str = "amerikaner",
                   options: dict | None = None):
    table = await service.lobby.create(10, 20, 1, "Host", preset, players, options or {})
    for user in range(2, players + 1):
        await service.lobby.join(table.id, user, f"P{user}")
    await service.lobby.start(table.id, 1)
    return table


def _user_to_act(table) -> int:
    return table.seats[table.to_act].user_id


async def _play_random(service: TableService, table, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if table.stage != PLAYING:
            return
        seat = table.to_act
        view = table.seat_view(seat)
        action = random_action(view, rng)
        await service.play.act(table.id, table.seats[seat].user_id, table.version,
                               lambda s, a=action: a._replace(seat=s))


async def _play_seat_zero_until_the_end(service: TableService, table,
                                        rng: random.Random) -> None:
    """Seat 0 plays at random; the other seats are the service's AI. Bounded in time."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while table.stage != FINISHED and loop.time() < deadline:
        if table.to_act == 0:
            await _play_random(service, table, rng, 1)
        else:
            await asyncio.sleep(0.001)
    assert table.stage == FINISHED


async def test_lobby_rules() -> None:
    service = await _service()
    with pytest.raises(GameError) as info:  # the game's refusal, passed on as it is
        await service.lobby.create(10, 20, 1, "Host", "amerikaner", 4, {"fixed_ten": True})
    assert info.value.code == "invalid_rules" and info.value.params["option"] == "fixed_ten"
    assert "10 points a bid" in error_text(info.value, AMERIKANER)  # its name, not its key
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 3, {})
    with pytest.raises(TableError) as info:
        await service.lobby.create(10, 20, 2, "Other", "amerikaner", 3, {})
    assert info.value.code == "channel_busy"
    with pytest.raises(TableError) as info:
        await service.lobby.start(table.id, 1)
    assert info.value.code == "table_not_full"
    await service.lobby.join(table.id, 2, "Two")
    with pytest.raises(TableError) as info:
        await service.lobby.join(table.id, 2, "Two")
    assert info.value.code == "already_seated"
    with pytest.raises(TableError) as info:
        await service.lobby.add_ai(table.id, 2, "easy")
    assert info.value.code == "not_host"
    await service.lobby.add_ai(table.id, 1, "easy")
    with pytest.raises(TableError) as info:
        await service.lobby.join(table.id, 3, "Three")
    assert info.value.code == "table_full"
    with pytest.raises(TableError) as info:
        await service.lobby.start(table.id, 2)
    assert info.value.code == "not_host"
    await service.seats.leave(table.id, 2)
    assert len(table.seats) == 2
    await service.lobby.cancel(table.id, 1)
    assert service.registry.in_channel(20) is None
    await service.shared.store.close()


async def test_acting_checks_seat_turn_version_and_rules() -> None:
    service = await _service()
    table = await _started(service)
    seat = table.to_act
    user = _user_to_act(table)
    other = next(s.user_id for i, s in enumerate(table.seats) if i != seat)
    with pytest.raises(TableError) as info:
        await service.play.act(table.id, 99, None, Action.pass_)
    assert info.value.code == "not_seated"
    with pytest.raises(TableError) as info:
        await service.play.act(table.id, other, None, Action.pass_)
    assert info.value.code == "not_your_turn"
    with pytest.raises(GameError) as info:
        await service.play.act(table.id, user, None, lambda s: Action.make_bid(s, 99))
    assert info.value.code == "bid_too_high"
    version = table.version
    result = await service.play.act(table.id, user, version, lambda s: Action.make_bid(s, 6))
    assert result.action == Action(seat, "bid", bid=6)
    assert table.version == version + 1
    next_user = _user_to_act(table)
    with pytest.raises(TableError) as info:
        await service.play.act(table.id, next_user, version, Action.pass_)
    assert info.value.code == "stale"
    record = await service.shared.store.load_record(table.id,
                                                    record_format=table.kind.record_format)
    assert record["hands"][0]["actions"] == [{"seat": seat, "action": "bid", "bid": 6}]
    await service.shared.store.close()


async def test_simultaneous_clicks_apply_once() -> None:
    service = await _service()
    table = await _started(service)
    user = _user_to_act(table)
    version = table.version
    results = await asyncio.gather(
        *(service.play.act(table.id, user, version, Action.pass_) for _ in range(5)),
        return_exceptions=True)
    accepted = [r for r in results if not isinstance(r, Exception)]
    assert len(accepted) == 1
    assert all(isinstance(r, TableError) and r.code in ("stale", "not_your_turn")
               for r in results if isinstance(r, Exception))
    record = await service.shared.store.load_record(table.id,
                                                    record_format=table.kind.record_format)
    assert len(record["hands"][0]["actions"]) == 1
    await service.shared.store.close()


async def test_restart_restores_the_game_and_its_version(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    service = await _service(path)
    table = await _started(service, 4, "amerikaner", {"no_kitty": True})
    rng = random.Random(5)
    await _play_random(service, table, rng, 30)
    before = replay_output(table.game)
    version = table.version
    await service.registry.close()
    await service.shared.store.close()

    again = await _service(path, seed=2)
    restored = await again.restore()
    assert [t.id for t in restored] == [table.id]
    table2 = again.registry.get(table.id)
    assert table2.version == version
    assert replay_output(table2.game) == before
    # The buttons drawn before the restart still work.
    await _play_random(again, table2, rng, 5)
    assert table2.version == version + 5
    await again.shared.store.close()


async def test_hands_follow_each_other_and_the_game_ends_in_the_store() -> None:
    service = await _service()
    table = await _started(service, 4, "amerikaner", {"target": 8})
    rng = random.Random(3)
    for _ in range(3000):
        if table.stage == FINISHED:
            break
        await _play_random(service, table, rng, 1)
    assert table.stage == FINISHED and table.game.finished
    record = await service.shared.store.load_record(table.id,
                                                    record_format=table.kind.record_format)
    replayed = load_game(record)
    assert replayed.totals == table.game.totals
    board = await service.shared.store.leaderboard(10, "amerikaner", "points", 10, 0)
    assert {row.user_id for row in board} == {1, 2, 3, 4}
    winners = {table.seats[s].user_id for s in table.game.winners}
    assert {row.user_id for row in board if row.wins} == winners
    assert service.registry.in_channel(20) is None
    await service.shared.store.close()


async def test_ai_seats_play_their_turns() -> None:
    service = await _service()
    events: list[str] = []

    async def listener(table, event, detail):
        events.append(event)

    service.listeners.add(listener)
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 4, {"target": 5})
    for _ in range(3):
        await service.lobby.add_ai(table.id, 1, "easy")
    await service.lobby.start(table.id, 1)
    await _play_seat_zero_until_the_end(service, table, random.Random(9))
    assert "changed" in events and "game_finished" in events
    await service.registry.close()
    await service.shared.store.close()


async def test_an_away_player_is_covered_by_the_ai() -> None:
    service = await _service()
    table = await _started(service, 4, "amerikaner", {"target": 3})
    for user in (2, 3, 4):
        await service.seats.set_away(table.id, user, True)
    await _play_seat_zero_until_the_end(service, table, random.Random(4))
    await service.registry.close()
    await service.shared.store.close()


async def test_away_and_back_only_change_something() -> None:
    service = await _service()
    table = await _started(service)
    with pytest.raises(TableError) as info:
        await service.seats.set_away(table.id, 2, False)
    assert info.value.code == "not_away"
    await service.seats.set_away(table.id, 2, True)
    with pytest.raises(TableError) as info:
        await service.seats.set_away(table.id, 2, True)
    assert info.value.code == "already_away"
    await service.seats.set_away(table.id, 2, False)
    assert not table.seats[1].away
    await service.registry.close()
    await service.shared.store.close()


async def test_turn_timer_reminds_then_lets_the_ai_play(tmp_path: Path) -> None:
    service = await _service(tmp_path / "db.sqlite3")
    events: list[tuple[str, dict]] = []

    async def listener(table, event, detail):
        events.append((event, detail))

    service.listeners.add(listener)
    # A second: long enough that a busy machine still reaches the half-time reminder
    # before the deadline (a reminder already overdue is skipped), short for a test.
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 3, {}, turn_timer=1.0)
    await service.lobby.join(table.id, 2, "Two")
    await service.lobby.join(table.id, 3, "Three")
    await service.lobby.start(table.id, 1)
    seat = table.to_act
    loop = asyncio.get_running_loop()

    async def timeout_posts() -> list:
        return [p for p in await service.shared.store.pending_posts(table.id)
                if p.kind == "timeout"]

    # The timeout notice is committed with the AI's action, into the outbox.
    deadline = loop.time() + 20
    while not await timeout_posts() and loop.time() < deadline:
        await asyncio.sleep(0.01)
    assert [e for e, _ in events][:1] == ["reminder"] and events[0][1]["seat"] == seat
    [post] = await timeout_posts()
    assert post.params["seat"] == seat
    assert table.version >= 1
    record = await service.shared.store.load_record(table.id,
                                                    record_format=table.kind.record_format)
    assert record["hands"][0]["actions"][0] == post.params["action"]
    assert record["hands"][0]["actions"][0]["seat"] == seat
    # The clock keeps running for the next player: it survives a restart too.
    await service.registry.close()
    await service.shared.store.close()
    service = again = await _service(tmp_path / "db.sqlite3")
    [restored] = await again.restore()
    assert restored.turn_timer == 1.0
    deadline = loop.time() + 20
    version = restored.version
    while len(await timeout_posts()) < 2 and loop.time() < deadline:
        await asyncio.sleep(0.01)
    assert len(await timeout_posts()) == 2
    assert restored.version > version
    await again.registry.close()
    await again.shared.store.close()


async def test_host_replaces_an_away_seat() -> None:
    service = await _service()
    table = await _started(service)
    with pytest.raises(TableError) as info:
        await service.seats.replace(table.id, 1, 1, (7, "Seven"))
    assert info.value.code == "not_away"
    await service.seats.set_away(table.id, 2, True)
    with pytest.raises(TableError) as info:
        await service.seats.replace(table.id, 3, 1, (7, "Seven"))
    assert info.value.code == "not_host"
    # A member is offered the seat: not seated until they take it, and only they can.
    await service.seats.replace(table.id, 1, 1, (7, "Seven"))
    assert table.seats[1].user_id == 2 and table.seats[1].away
    with pytest.raises(TableError) as info:
        await service.seats.answer_offer(table.id, 8, 1, True)
    assert info.value.code == "not_offered"
    await service.seats.answer_offer(table.id, 7, 1, True)
    assert table.seats[1].user_id == 7 and not table.seats[1].away
    with pytest.raises(TableError) as info:  # taken: the offer is gone
        await service.seats.answer_offer(table.id, 7, 1, True)
    assert info.value.code == "not_offered"
    await service.seats.set_away(table.id, 3, True)
    await service.seats.replace(table.id, 1, 2, None)
    assert table.seats[2].is_ai
    await service.registry.close()
    await service.shared.store.close()


async def test_a_stop_lets_the_change_under_way_commit_and_refuses_new_ones() -> None:
    service = await _service()
    table = await _started(service)
    store = service.shared.store
    real = store.record_action
    committing = asyncio.Event()

    async def slow_commit(*args, **kwargs):
        committing.set()
        await asyncio.sleep(0.05)
        await real(*args, **kwargs)

    store.record_action = slow_commit  # type: ignore[method-assign]
    user = _user_to_act(table)
    acting = asyncio.create_task(service.play.act(table.id, user, None, Action.pass_))
    await committing.wait()
    await service.registry.close()
    result = await acting  # finished, not cut off
    assert result.action.kind == "pass"
    record = await store.load_record(table.id, record_format=table.kind.record_format)
    assert record["hands"][0]["actions"] == [{"seat": result.seat, "action": "pass"}]
    with pytest.raises(TableError) as refused:
        await service.play.act(table.id, _user_to_act(table), None, Action.pass_)
    assert refused.value.code == "restarting"
    await store.close()


async def test_the_end_of_a_hand_commits_its_posts_with_the_last_card() -> None:
    service = await _service(seed=3)
    table = await _started(service, players=3)
    rng = random.Random(5)
    while len(table.game.hands) == 1:
        await _play_random(service, table, rng, 1)
    posts = await service.shared.store.pending_posts(table.id)
    assert [p.kind for p in posts] == ["hand_summary", "table_message"]
    assert posts[0].params == {"hand_index": 0} and posts[0].channel_id == table.channel_id
    await service.shared.store.close()


async def test_fill_ai_gives_every_empty_seat_to_the_ai_host_only() -> None:
    service = await _service()
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 5, {})
    await service.lobby.join(table.id, 2, "P2")
    with pytest.raises(TableError) as refused:
        await service.lobby.fill_ai(table.id, 2)
    assert refused.value.code == "not_host"
    with pytest.raises(TableError) as bad:
        await service.lobby.fill_ai(table.id, 1, "grandmaster")
    assert bad.value.params["reason"] == "ai_level"
    await service.lobby.fill_ai(table.id, 1, "strong")
    assert [(s.user_id, s.ai_level) for s in table.seats] == \
        [(1, None), (2, None), (None, "strong"), (None, "strong"), (None, "strong")]
    with pytest.raises(TableError) as full:
        await service.lobby.fill_ai(table.id, 1)
    assert full.value.code == "table_full"
    row = await service.shared.store.get_game(table.id)
    assert row is not None and len(row.seats) == 5  # stored
    await service.shared.store.close()


async def test_mentions_default_to_on_with_two_humans_and_follow_the_switch() -> None:
    service = await _service()
    alone = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 4, {})
    await service.lobby.fill_ai(alone.id, 1)
    assert not alone.switch("mentions") and alone.switch("pictures") and alone.switch("hints")
    pair = await service.lobby.create(10, 21, 1, "Host", "amerikaner", 4, {})
    await service.lobby.join(pair.id, 2, "P2")
    assert pair.switch("mentions")
    off = await service.lobby.create(10, 22, 1, "Host", "amerikaner", 4, {},
                                     switches={"mentions": False, "pictures": False, "hints": None})
    await service.lobby.join(off.id, 2, "P2")
    assert not off.switch("mentions") and not off.switch("pictures") and off.switch("hints")
    row = await service.shared.store.get_game(off.id)
    assert row is not None and row.meta["mentions"] is False and "hints" not in row.meta
    await service.shared.store.close()


async def _finished(service: TableService, humans: int = 2) -> object:
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 4, {"target": 1},
                                       switches={"pictures": False})
    for user in range(2, humans + 1):
        await service.lobby.join(table.id, user, f"P{user}")
    await service.lobby.fill_ai(table.id, 1, "strong")
    await service.lobby.start(table.id, 1)
    rng = random.Random(5)
    deadline = asyncio.get_running_loop().time() + 60
    while table.stage != FINISHED and asyncio.get_running_loop().time() < deadline:
        seat = table.to_act
        if seat is not None and table.seats[seat].user_id is not None:
            await _play_random(service, table, rng, 1)
        else:
            await asyncio.sleep(0.001)  # the service's AI plays
    assert table.stage == FINISHED
    return table


async def test_rematch_waits_for_every_human_then_starts_the_same_seats(tmp_path: Path
                                                                        ) -> None:
    service = await _service(tmp_path / "db.sqlite3")
    old = await _finished(service)
    with pytest.raises(TableError) as stranger:
        await service.lobby.rematch(old.id, 99)
    assert stranger.value.code == "not_seated"
    same, new = await service.lobby.rematch(old.id, 2)
    assert new is None and same.meta["rematch"] == [2]
    _, new = await service.lobby.rematch(old.id, 2)  # twice: still waiting
    assert new is None
    _, new = await service.lobby.rematch(old.id, 1)
    assert new is not None and new.stage == PLAYING and service.registry.in_channel(20) is new
    assert [(s.user_id, s.ai_level) for s in new.seats] == \
        [(s.user_id, s.ai_level) for s in old.seats]
    assert new.rules == old.rules and new.meta["pictures"] is False
    assert new.first_dealer == (old.first_dealer + 1) % 4
    with pytest.raises(TableError) as late:
        await service.lobby.rematch(old.id, 1)
    assert late.value.code == "rematch_started"
    # Committed with its table message to post, and restored as any game after a crash.
    posts = await service.shared.store.pending_posts(new.id)
    assert [p.kind for p in posts] == ["table_message"]
    await service.registry.close()
    await service.shared.store.close()
    again = await _service(tmp_path / "db.sqlite3")
    restored = await again.restore()
    assert [t.id for t in restored] == [new.id]
    assert restored[0].version == new.version
    await again.shared.store.close()


async def test_rematch_needs_a_free_channel_and_a_finished_game() -> None:
    service = await _service()
    old = await _finished(service, humans=1)
    other = await service.lobby.create(10, 20, 7, "Other", "amerikaner", 4, {})
    with pytest.raises(TableError) as busy:
        await service.lobby.rematch(old.id, 1)
    assert busy.value.code == "channel_busy"
    assert "rematch_table" not in old.meta or old.meta["rematch_table"] is None
    with pytest.raises(TableError) as unfinished:
        await service.lobby.rematch(other.id, 7)
    assert unfinished.value.code == "no_game"
    assert error_text(unfinished.value) == "Only a finished game can be played again."
    await service.shared.store.close()


async def test_the_ai_pauses_longer_after_a_completed_trick(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """An AI action comes after `ai_delay` seconds, and `trick_pause` more when the action
    before it completed a trick (read off the sleeps the AI loop asks for)."""
    real_sleep = asyncio.sleep
    asked: list[tuple[float, bool]] = []
    store = await open_store(":memory:")
    service = TableService(store, GAMES, rng=random.Random(2), ai_delay=0.6, trick_pause=1.0,
                           ai_chooser=_random_ai)
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 3, {"target": 1})
    await service.lobby.fill_ai(table.id, 1)

    async def sleep(seconds: float) -> None:
        if seconds >= 0.6:  # the AI loop's pause: note it, and whether a trick just ended
            asked.append((seconds, table.pause_after))
        await real_sleep(0)

    monkeypatch.setattr("bot.tables.service.asyncio.sleep", sleep)
    await service.lobby.start(table.id, 1)
    rng = random.Random(1)
    await _play_seat_zero_until_the_end(service, table, rng)
    assert asked and {round(s, 6) for s, _ in asked} == {0.6, 1.6}
    assert all((seconds > 1) == trick_done for seconds, trick_done in asked)
    await store.close()


async def test_a_process_restores_and_holds_only_the_tables_of_its_own_guilds(
        database: Database) -> None:
    """Processes on one database own the guilds of their shards: each restores only its
    own guilds' tables (their timers and AI turns run there), and refuses to open one
    in another's guild."""
    async with database.open() as store:
        everyone = TableService(store, GAMES, rng=random.Random(3), ai_delay=60,
                                ai_chooser=_random_ai)
        ours = await everyone.lobby.create(4 << 22, 20, 1, "Host", "amerikaner", 3, {})
        theirs = await everyone.lobby.create(5 << 22, 21, 1, "Host", "amerikaner", 3, {})
        for table in (ours, theirs):
            await everyone.lobby.fill_ai(table.id, 1)
            await everyone.lobby.start(table.id, 1)
        await everyone.registry.close(grace=0)

    def even_shard(guild: int) -> bool:
        return (guild >> 22) % 2 == 0

    async with database.open() as store:
        service = TableService(store, GAMES, ai_delay=60, ai_chooser=_random_ai,
                               owns_guild=even_shard)
        restored = await service.restore()
        assert [t.id for t in restored] == [ours.id]
        assert [t.id for t in list(service.registry.tables.values())] == [ours.id]
        assert service.registry.get(theirs.id) is None and service.registry.in_channel(21) is None
        with pytest.raises(TableError, match="no_table"):
            service.registry.require(theirs.id)
        with pytest.raises(ForeignGuildError):
            await service.lobby.create(7 << 22, 22, 1, "Host", "amerikaner", 3, {})
        assert await store.active_game_in_channel(22) is None  # nothing was stored
        await service.registry.close(grace=0)


async def test_the_turn_timer_starts_when_an_ai_hands_the_turn_to_a_human() -> None:
    """The turn timer runs for a human whose turn comes after an AI's, not only after
    another human's: the AI plays for them when it runs out, with its notice."""
    service = await _service(seed=2)  # the first dealer is seat 0: an AI bids first
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 4, {}, turn_timer=0.2)
    assert table.first_dealer == 0
    await service.lobby.fill_ai(table.id, 1, "easy")
    await service.lobby.start(table.id, 1)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while not (await service.shared.store.pending_posts(table.id)):  # the timeout's notice
        assert loop.time() < deadline, "the human's time never ran out"
        await asyncio.sleep(0.01)
    posts = await service.shared.store.pending_posts(table.id)
    assert posts[0].kind == "timeout" and posts[0].params["seat"] == 0
    await service.registry.close(grace=1)
    await service.shared.store.close()


async def test_the_table_message_remembered_during_the_start_keeps_the_stage(
        tmp_path: Path) -> None:
    """The lobby's message id is stored while the host starts (the id comes back from
    Discord late): both changes of the meta stay, so a restart restores a game, not a
    lobby. (Found in CI: a shard process restored a started game as a lobby.)"""
    path = tmp_path / "db.sqlite3"
    service = await _service(path)
    table = await service.lobby.create(10, 20, 1, "Host", "amerikaner", 3, {})
    for user in (2, 3):
        await service.lobby.join(table.id, user, f"P{user}")
    writing, release = asyncio.Event(), asyncio.Event()
    set_meta = service.shared.store.set_meta

    async def slow_set_meta(game_id: int, meta: dict) -> None:
        if "message_id" in meta and not writing.is_set():  # the message id's write
            writing.set()
            await release.wait()
        await set_meta(game_id, meta)

    service.shared.store.set_meta = slow_set_meta  # type: ignore[method-assign]
    remember = asyncio.create_task(service.restorer.set_message(table, 777))
    await writing.wait()
    start = asyncio.create_task(service.lobby.start(table.id, 1))
    for _ in range(20):  # let the start run as far as it can
        await asyncio.sleep(0)
    release.set()
    await asyncio.gather(remember, start)
    assert table.stage == PLAYING and table.meta["message_id"] == 777
    await service.registry.close()
    await service.shared.store.close()

    again = await _service(path, seed=2)
    [restored] = await again.restore()
    assert restored.stage == PLAYING and restored.meta.get("message_id") == 777
    await again.shared.store.close()
