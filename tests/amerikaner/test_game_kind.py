"""Amerikaner through the GameKind protocol, as the table platform drives it: new games,
actions applied whole or refused whole, the next deal dealt as one ends, records that
load back to the same game, results with places, AI actions from a seat's view."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import card_label
from bot.errors import GameError
from bot.games import GAMES
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.ai.random_player import random_action
from bot.games.amerikaner.deal import Deal
from bot.games.amerikaner.game import Game
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.record import game_to_record
from bot.games.amerikaner.text_guide import hint_sentence
from tests.core_helpers import card, cards, make_deal, parse_step

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


# ----------------------------------------------------------------- hints

@pytest.fixture
def steady_strong(monkeypatch: pytest.MonkeyPatch) -> None:
    """The strong AI without its clock (a fixed number of worlds), so that a seed fixes
    its choice, as bench/ai.py sets it."""
    from bot.games.amerikaner.ai import strong

    monkeypatch.setattr(strong, "STRONG_BUDGET", 1e9)
    monkeypatch.setattr(strong, "MAX_SAMPLES", 6)


def _named(action: Action) -> list[str]:
    """The words a hint of `action` must show: its bid, or its cards."""
    if action.kind == "bid":
        return [str(action.bid).capitalize()]
    shown = [*action.cards, *(c for c in (action.card, action.call) if c is not None)]
    return [card_label(c) for c in shown]


@pytest.mark.usefixtures("steady_strong")
@pytest.mark.parametrize(("preset", "players", "actions", "phase"), [
    ("amerikaner", 4, 0, "bid"), ("amerikaner", 4, 7, "discard"), ("amerikaner", 4, 8, "lead"),
    ("amerikaner", 4, 9, "play"), ("norsk", 3, 0, "exchange"), ("norsk", 3, 6, "lead"),
    ("kani", 4, 4, "bid"), ("kani", 4, 20, "play")])
def test_a_hint_names_the_strong_ais_legal_action(preset: str, players: int, actions: int,
                                                  phase: str) -> None:
    game, _ = _play(8, preset, players, actions)
    seat = KIND.to_act(game)
    assert seat is not None and game.current.phase == phase  # type: ignore[attr-defined]
    hint = KIND.hint(game, seat, random.Random(2)).sentence
    action = KIND.choose_action(game, seat, "strong", random.Random(2))
    assert hint.startswith(hint_sentence(action) + " Why: ")  # the move, then its reason
    assert hint.startswith("The strong AI would ") and hint.endswith(".")
    assert all(word in hint for word in _named(action)), (hint, action)
    KIND.apply(copy.deepcopy(game), action, random.Random(0))  # legal: accepted


def test_hints_in_words() -> None:
    assert hint_sentence(Action.pass_(0)) == "The strong AI would pass."
    assert hint_sentence(Action.make_bid(0, 8)) == "The strong AI would bid 8."
    assert hint_sentence(Action.make_bid(0, "amerikaner")) == "The strong AI would bid Amerikaner."
    assert hint_sentence(Action.discard(0, cards("2C 3C 4D 5D"))) == \
        "The strong AI would discard 2♣ 3♣ 4♦ 5♦."
    assert hint_sentence(Action.exchange(0, ())) == "The strong AI would keep its hand."
    assert hint_sentence(Action.exchange(0, cards("2C"))) == \
        "The strong AI would give 2♣ to the blind."
    assert hint_sentence(Action.redeal(0)) == "The strong AI would claim a redeal."
    assert hint_sentence(Action.play(0, card("KS"))) == "The strong AI would play K♠."
    assert hint_sentence(Action.play(0, card("KS"), card("AS"))) == \
        "The strong AI would lead K♠ and call A♠."
    assert hint_sentence(Action.play(0, card("KS"), card("AS"), "grand")) == \
        "The strong AI would lead K♠ and call A♠; trump: no trumps (grand)."
    assert hint_sentence(Action.play(0, card("2H"), None, "S")) == \
        "The strong AI would lead 2♥; trump: ♠ spades."


def test_a_hint_is_refused_when_the_seat_is_not_to_act() -> None:
    game, _ = _play(3, "amerikaner", 4, 5)
    seat = KIND.to_act(game)
    assert seat is not None
    with pytest.raises(GameError) as refused:
        KIND.hint(game, (seat + 1) % 4, random.Random(0))
    assert refused.value.code == "not_your_turn"
    over, _ = _play(11, "amerikaner", 3, 5000)
    assert KIND.finished(over)
    with pytest.raises(GameError) as refused:
        KIND.hint(over, 0, random.Random(0))
    assert refused.value.code == "game_over"


@pytest.mark.usefixtures("steady_strong")
def test_a_hint_reads_only_the_seats_view() -> None:
    """Two games that differ only in the cards of seats 2 and 3 (swapped) give seat 1
    the same hints, in the bidding and at its opening lead."""
    rules = KIND.make_rules("kani", 4, {})
    deal = make_deal(rules, {1: "AS KS QS JS 10S AH KH AD 5D 4D 3C 2C 7H"})
    swapped = Deal(hands=(deal.hands[0], deal.hands[1], deal.hands[3], deal.hands[2]))
    games = []
    for dealt in (deal, swapped):
        game = Game(rules, 0)
        game.start_hand(dealt)
        games.append(game)
    for steps in ((), ("1 bid 7", "2 pass", "3 pass", "0 pass")):
        for game in games:
            for step in steps:
                KIND.apply(game, parse_step(step), random.Random(0))
        first, second = (KIND.hint(game, 1, random.Random(5)) for game in games)
        assert first == second
