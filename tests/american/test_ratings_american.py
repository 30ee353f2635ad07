"""American deals as rated matches (bot/games/american/rating.py, issue 28): each finished
deal by its finishing places (2 to 5 players), a drawn deal not rated, the conformance
records against their expected places, random matches (hypothesis)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import GAMES
from bot.games.american.game import Game
from bot.games.american.rating import POOL, rating_matches
from bot.games.american.record import load_game
from bot.games.american.state import DRAWN, FINISHED
from bot.tables.ratings import MODEL

KIND = GAMES["american"]
CONFORMANCE = Path(__file__).parent.parent / "fixtures" / "conformance-american" / "valid"


def random_match(players: int, target: int, seed: int, levels: tuple[str, ...] = ("easy",)
                 ) -> Game:
    rules = KIND.make_rules(None, players, {"target": target})
    rng = random.Random(seed)
    game, _ = KIND.new_game(rules, rng.randrange(players), rng)
    seat_levels = [rng.choice(levels) for _ in range(players)]
    while not KIND.finished(game):
        seat = KIND.to_act(game)
        KIND.apply(game, KIND.choose_action(game, seat, seat_levels[seat], rng), rng)
    return game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_deal_is_rated_by_its_finishing_places(players: int) -> None:
    game = random_match(players, 1, players)
    matches = KIND.rating_matches(game)
    assert matches == rating_matches(game)
    finished = [d for d in game.deals if d.outcome == FINISHED]
    assert len(matches) == len(finished) == 1
    match, state = matches[0], finished[0]
    assert match.teams == tuple((seat,) for seat in state.places)  # the first out first
    assert match.ranks == tuple(range(players))
    assert match.scores is None
    assert match.teams[0] == (game.winners[0],)


def test_a_match_of_several_deals_rates_each_deal_in_order() -> None:
    game = random_match(3, 2, 7)
    matches = rating_matches(game)
    finished = [d for d in game.deals if d.outcome == FINISHED]
    assert len(finished) >= 2
    assert [m.teams[0][0] for m in matches] == [d.winner for d in finished]


def test_a_drawn_deal_is_not_rated() -> None:
    game = random_match(2, 3, 3)
    assert len(rating_matches(game)) == len(game.deals)
    game.deals[0].outcome = DRAWN  # as if it had reached 1,000 actions
    assert len(rating_matches(game)) == len(game.deals) - 1


def test_an_unfinished_deal_is_not_rated() -> None:
    rules = KIND.make_rules(None, 2, {})
    game, _ = KIND.new_game(rules, 0, random.Random(1))
    assert rating_matches(game) == []


def test_one_rating_for_american() -> None:
    assert KIND.rating_pool(KIND.make_rules(None, 3, {"same_rank": True})) == POOL \
        == "american"


RECORDS = sorted(CONFORMANCE.glob("game_*[0-9].json"))


def test_conformance_records_are_present() -> None:
    assert len(RECORDS) > 10


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_conformance_record_deals_rate_as_their_expected_places(path: Path) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    if "error" in expected:
        pytest.skip("a record that does not replay")
    game = load_game(json.loads(path.read_text()))
    wanted = [tuple((seat,) for seat in deal["places"]) for deal in expected["deals"]
              if deal["outcome"] == "finished"]
    assert [m.teams for m in rating_matches(game)] == wanted


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_every_seat_in_one_team_and_the_winner_first(players: int, target: int,
                                                    seed: int) -> None:
    game = random_match(players, target, seed, ("random", "easy"))
    ratings = [MODEL.initial()] * players
    for match, state in zip(rating_matches(game),
                            [d for d in game.deals if d.outcome == FINISHED], strict=True):
        assert sorted(match.seats) == list(range(players))
        assert match.teams[0] == (state.winner,)
        assert match.ranks == tuple(range(players))
        fixed = [seat == 0 for seat in range(players)]
        after = MODEL.rate(match, ratings, fixed)
        assert after[0] == ratings[0]
        assert after[state.winner].mu >= ratings[state.winner].mu or state.winner == 0
        ratings = after
