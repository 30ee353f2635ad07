"""Seat names are rendered when shown (bot.render.seat_label), never stored in English:
an AI seat stores "" (added as one) or the name of the human it took over from; names
stored by older versions ("AI 2 (strong)", "AI for dave") still show as they did."""

from __future__ import annotations

import random

import pytest

from bot.games import GAMES
from bot.render import ai_seat_label, error_text, lobby_panel, seat_label, seat_names
from bot.store import SeatInfo, Store, open_store
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import LOBBY, Seat


def test_ai_seat_label() -> None:
    assert ai_seat_label(1, "easy", "") == "AI 1 (easy)"
    assert ai_seat_label(3, "strong", "") == "AI 3 (strong)"
    assert ai_seat_label(2, "easy", "dave") == "AI for dave"


def test_new_ai_seats_are_numbered_among_the_ai_seats_added_as_such() -> None:
    seats = [Seat(1, "alice"), Seat(None, "", "easy"), Seat(2, "bob"),
             Seat(None, "dave", "easy"),  # dave's seat, handed to the AI for good
             Seat(None, "", "strong"), Seat(3, "carol", away=True)]
    assert seat_names(seats) == ["alice", "AI 1 (easy)", "bob", "AI for dave",
                                 "AI 2 (strong)", "carol (away, AI plays)"]
    assert seat_label(seats, 5) == "carol"  # the label alone: without the away mark


def test_legacy_names_show_as_before() -> None:
    legacy = [Seat(1, "alice"), Seat(None, "AI 1 (easy)", "easy"),
              Seat(None, "AI for dave", "easy"), Seat(None, "AI 2 (strong)", "strong")]
    assert seat_names(legacy) == ["alice", "AI 1 (easy)", "AI for dave", "AI 2 (strong)"]
    # a new AI seat after legacy ones counts them
    assert seat_names([*legacy, Seat(None, "", "easy")])[-1] == "AI 3 (easy)"
    # a human's name is theirs, whatever it looks like
    assert seat_names([Seat(5, "AI 9 (easy)")]) == ["AI 9 (easy)"]


def test_lobby_panel_from_names() -> None:
    panel = lobby_panel(["alice", "AI 1 (easy)"], 0, 4, "Amerikaner table — kani",
                        "kani · 4 players · to 50")
    assert panel.title == "Amerikaner table — kani"
    assert panel.description == ("kani · 4 players · to 50\n\n1. alice (host)\n"
                                 "2. AI 1 (easy)\n3. *free*\n4. *free*\n\n"
                                 "Waiting for 2 more players.")


async def _service(store: Store, seed: int = 1) -> TableService:
    return TableService(store, GAMES, rng=random.Random(seed), ai_delay=60,
                        seat_name=seat_label)


async def test_the_service_stores_no_ai_names() -> None:
    store = await open_store(":memory:")
    service = await _service(store, seed=2)
    table = await service.lobby.create(10, 20, 1, "alice", "amerikaner", 4, {})
    await service.lobby.add_ai(table.id, 1, "easy")
    await service.lobby.join(table.id, 2, "bob")
    await service.lobby.add_ai(table.id, 1, "strong")
    assert [s.name for s in table.seats] == ["alice", "", "bob", ""]
    assert seat_names(table.seats) == ["alice", "AI 1 (easy)", "bob", "AI 2 (strong)"]
    await service.lobby.start(table.id, 1)
    assert table.to_act == 1  # with this seed: the first AI seat (whose turn waits 60 s)
    with pytest.raises(TableError) as info:
        await service.play.act(table.id, 2, None, lambda s: None)
    assert error_text(info.value) == "It is AI 1 (easy)'s turn, not yours."
    await service.seats.set_away(table.id, 2, True)
    await service.seats.replace(table.id, 1, 2, None)
    assert table.seats[2].name == "bob" and table.seats[2].is_ai
    assert seat_label(table.seats, 2) == "AI for bob"
    row = await store.get_game(table.id)
    assert row is not None
    assert [s.display_name for s in sorted(row.seats, key=lambda s: s.seat)] \
        == ["alice", "", "bob", ""]
    await service.registry.close()
    await store.close()


async def test_legacy_seats_restored_show_as_before() -> None:
    store = await open_store(":memory:")
    rules = GAMES["amerikaner"].rules_to_json(
        GAMES["amerikaner"].make_rules("amerikaner", 5, {}))
    seats = [SeatInfo(0, 1, "alice"), SeatInfo(1, None, "AI 1 (easy)", True, "easy"),
             SeatInfo(2, None, "AI for dave", True, "easy")]
    await store.create_game(10, 20, 1, rules, 0, seats, {"stage": LOBBY}, game="amerikaner")
    service = await _service(store)
    (table,) = await service.restore()
    await service.lobby.add_ai(table.id, 1, "strong")
    assert seat_names(table.seats) == ["alice", "AI 1 (easy)", "AI for dave", "AI 2 (strong)"]
    await service.registry.close()
    await store.close()
