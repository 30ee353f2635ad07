"""Amerikaner through the GameKind protocol, as the table platform drives it: new games,
actions applied whole or refused whole, the next deal dealt as one ends, records that
load back to the same game, results with places, AI actions from a seat's view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import GameError
from bot.games import GAMES
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.ai.random_player import random_action
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.record import game_to_record

KIND = AMERIKANER


def test_the_registry_names_each_game_by_its_kind() -> None:
    assert GAMES["amerikaner"] is KIND and KIND.name == "amerikaner"
    assert KIND.ai_levels[0] == "easy"


def test_rules_round_trip_and_bad_rules_are_refused_with_a_code() -> None:
    rules = KIND.make_rules(None, 4, {"no_kitty": True, "target": 40})
    assert KIND.players(rules) == 4
    assert KIND.rules_from_json(KIND.rules_to_json(rules)) == rules
    with pytest.raises(GameError) as refused:
        KIND.make_rules("kani", 5, {})
    assert refused.value.code == "invalid_rules"


def _play(seed: int, preset: str, players: int, actions: int) -> tuple[object, list]:
    rng = random.Random(seed)
    rules = KIND.make_rules(preset, players, {"target": 20})
    game, first = KIND.new_game(rules, rng.randrange(players), rng)
    stored = [{**first, "actions": []}]
    for _ in range(actions):
        seat = KIND.to_act(game)
        if seat is None:
            break
        applied = KIND.apply(game, random_action(KIND.seat_view(game, seat), rng), rng)
        assert applied.deal_index == len(stored) - 1
        assert applied.seq == len(stored[-1]["actions"])
        stored[-1]["actions"].append(applied.action)
        assert (applied.next_deal is not None) == (applied.deal_finished
                                                   and not KIND.finished(game))
        if applied.next_deal is not None:
            stored.append({**applied.next_deal, "actions": []})
    return game, stored


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["amerikaner", "norsk", "kani"]),
       actions=st.integers(0, 400))
def test_what_apply_reports_is_the_record(seed: int, preset: str, actions: int) -> None:
    game, stored = _play(seed, preset, 4, actions)
    record = game_to_record(game)  # type: ignore[arg-type]
    assert [{k: v for k, v in h.items()} for h in record["hands"]] == stored
    again = KIND.load(record)
    assert KIND.version(again) == KIND.version(game) == sum(len(h["actions"]) for h in stored)
    assert KIND.to_act(again) == KIND.to_act(game)
    assert KIND.finished(again) == KIND.finished(game)


def test_a_refused_action_changes_nothing() -> None:
    game, _ = _play(3, "amerikaner", 4, 0)
    seat = KIND.to_act(game)
    assert seat is not None
    before = game_to_record(game)  # type: ignore[arg-type]
    with pytest.raises(GameError) as refused:
        KIND.apply(game, Action.make_bid(seat, 99), random.Random(0))
    assert refused.value.code == "bid_too_high"
    with pytest.raises(GameError):
        KIND.apply(game, Action.pass_((seat + 1) % 4), random.Random(0))
    assert game_to_record(game) == before  # type: ignore[arg-type]


def test_results_give_places_points_winners_and_statistics() -> None:
    game, _ = _play(11, "amerikaner", 3, 5000)
    assert KIND.finished(game) and KIND.to_act(game) is None
    results = KIND.results(game)
    totals = [r.points for r in results]
    assert totals == list(game.totals)  # type: ignore[attr-defined]
    for r in results:
        assert r.place == 1 + sum(1 for t in totals if t > r.points)
        assert r.won == (r.place == 1)
        assert set(r.stats) == {"contracts_made", "contracts_failed", "top_bids_made",
                                "hands_played"}
    hands = [h for h in game.hands if h.outcome in ("made", "failed")]  # type: ignore
    assert sum(r.stats["contracts_made"] + r.stats["contracts_failed"]
               for r in results) == len(hands)


def test_the_ai_acts_for_the_seat_to_act_only_from_its_view() -> None:
    game, _ = _play(5, "amerikaner", 4, 6)
    seat = KIND.to_act(game)
    assert seat is not None
    for level in KIND.ai_levels:
        action = KIND.choose_action(game, seat, level, random.Random(1))
        assert action.seat == seat
    view = KIND.seat_view(game, seat)
    assert view is not None and view.seat == seat and view.legal is not None
    assert KIND.public_view(game).hand.cards is None  # nobody's cards in public
