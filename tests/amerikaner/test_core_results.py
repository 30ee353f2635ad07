"""bot.games.amerikaner.results: a finished game's places, points, winners and statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.amerikaner.game import Game
from bot.games.amerikaner.record import load_game
from bot.games.amerikaner.results import SeatResult, game_results

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
VALID = FIXTURES / "conformance" / "valid"
# The finished games of tests/fixtures/store_v2.sqlite3 (see make_v2_db.py): their
# results rows were computed by the table service before this module existed.
FIXTURE_GAMES = {1: "game_00017", 2: "game_00023", 3: "game_00052", 4: "game_00055"}
STATS = ("contracts_made", "contracts_failed", "top_bids_made", "hands_played")


def _game(name: str) -> Game:
    return load_game(json.loads((VALID / f"{name}.json").read_text()))


def test_places_share_the_better_place_on_a_tie() -> None:
    # One hand, Amerikaner made by seat 3: totals [0, 0, 0, 52].
    results = game_results(_game("game_00017"))
    assert [r.place for r in results] == [2, 2, 2, 1]
    assert [r.points for r in results] == [0, 0, 0, 52]
    assert [r.won for r in results] == [False, False, False, True]
    assert results[3] == SeatResult(3, 1, 52, True, {"contracts_made": 1,
                                                     "contracts_failed": 0,
                                                     "top_bids_made": 1,
                                                     "hands_played": 1})


@pytest.mark.parametrize("game_id", sorted(FIXTURE_GAMES))
def test_same_results_as_the_table_service_stored_before(game_id: int) -> None:
    raw = json.loads((FIXTURES / "store_v2.expected.json").read_text())["raw"]["results"]
    stored = {r[3]: r for r in raw if r[0] == game_id}  # by seat
    results = game_results(_game(FIXTURE_GAMES[game_id]))
    for seat, (_g, _guild, _user, _seat, points, won, *counters) in stored.items():
        r = results[seat]
        assert (r.points, r.won) == (points, bool(won))
        assert r.stats == dict(zip(STATS, counters, strict=True))


def test_every_seat_has_a_place_and_one_is_first() -> None:
    for name in ("game_00004", "game_00018", "game_00025", "game_00031"):
        results = game_results(_game(name))
        ranked = sorted(results, key=lambda r: -r.points)
        assert ranked[0].place == 1 and ranked[0].won
        for better, worse in zip(ranked, ranked[1:], strict=False):
            assert better.place <= worse.place
            assert (better.place == worse.place) == (better.points == worse.points)
