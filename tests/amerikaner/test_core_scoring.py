"""Scoring (docs/rules-amerikaner.md section 7) and the game around the hands (section 9)."""

from __future__ import annotations

import random

import pytest

from bot.errors import GameError
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.game import Game
from bot.games.amerikaner.rules import Rules
from bot.games.amerikaner.scoring import score_hand
from tests.core_helpers import card, make_deal, new_hand, refused, run

STD = Rules.create("amerikaner", 4)


def test_worked_example_made() -> None:
    # North (0) bids 8, West (3) is the partner; they win 9 tricks, East (1) 2, South (2) 1.
    scores, made = score_hand(STD, 8, 0, 3, [5, 2, 1, 4])
    assert made and scores == [8, 2, 1, 8]


def test_worked_example_failed() -> None:
    # North (0) bids 8, South (2) is the partner; they win 7, East (1) 2, West (3) 3.
    scores, made = score_hand(STD, 8, 0, 2, [4, 2, 3, 3])
    assert not made and scores == [-8, 2, -8, 3]


def test_bidder_double_and_partner_half() -> None:
    double = Rules.create("amerikaner", 4, {"bidder_double": True})
    assert score_hand(double, 8, 0, 3, [5, 2, 1, 4])[0] == [16, 2, 1, 8]
    assert score_hand(double, 8, 0, 2, [4, 2, 3, 3])[0] == [-16, 2, -8, 3]
    half = Rules.create("amerikaner", 4, {"partner_half": True})
    assert score_hand(half, 9, 0, 3, [5, 2, 1, 4])[0] == [9, 2, 1, 5]  # 9 -> 5
    assert score_hand(half, 9, 0, 3, [4, 2, 3, 3])[0] == [-9, 2, 3, -5]


def test_bidder_alone() -> None:
    assert score_hand(STD, 7, 1, -1, [2, 7, 2, 1]) == ([2, 7, 2, 1], True)
    assert score_hand(STD, 7, 1, -1, [2, 6, 2, 2]) == ([2, -7, 2, 2], False)


def test_amerikaner_is_all_or_nothing() -> None:
    top = STD.top_value
    assert score_hand(STD, top, 2, -1, [0, 0, 12, 0]) == ([0, 0, 52, 0], True)
    assert score_hand(STD, top, 2, -1, [0, 1, 11, 0]) == ([0, 1, -52, 0], False)
    trick = Rules.create("amerikaner", 4, {"kitty_trick": True})
    assert score_hand(trick, trick.top_value, 2, -1, [0, 0, 13, 0])[1]


def test_kani_scoring() -> None:
    kani = Rules.create("kani", 4)
    assert score_hand(kani, 8, 0, 2, [5, 2, 3, 3]) == ([8, 0, 8, 0], True)
    assert score_hand(kani, 8, 0, 2, [4, 3, 3, 3]) == ([0, 8, 0, 8], False)  # nobody loses
    assert score_hand(kani, kani.top_value, 0, 2, [7, 0, 6, 0]) == ([50, 0, 50, 0], True)
    assert score_hand(kani, kani.top_value, 0, 2, [7, 1, 5, 0]) == ([0, 50, 0, 50], False)
    ten = Rules.create("kani", 4, {"fixed_ten": True})
    assert score_hand(ten, 11, 0, 1, [6, 5, 1, 1]) == ([10, 10, 0, 0], True)
    assert score_hand(ten, ten.top_value, 0, 1, [6, 7, 0, 0])[0] == [50, 50, 0, 0]


def test_all_pass_scoring() -> None:
    rules = Rules.create("amerikaner", 4, {"all_pass_play": True})
    assert score_hand(rules, 0, -1, -1, [3, 4, 5, 1], all_pass=True)[0] == [-3, -4, -5, -1]


def test_a_played_hand_scores_through_the_state_machine() -> None:
    hand = new_hand("amerikaner", 4, {"no_kitty": True},
                    {1: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"})
    run(hand, "1 bid 13", "2 pass", "3 pass", "0 pass", "1 play AH")
    while not hand.finished:
        mask = hand.legal_play_mask()
        hand.play(hand.to_act, (mask & -mask).bit_length() - 1)
    assert hand.tricks_won == [0, 13, 0, 0] and hand.scores == [0, 13, 0, 0]


# ------------------------------------------------------------------ the game

def _throw_in(game: Game) -> None:
    hand = game.start_hand(rng=random.Random(len(game.hands)))
    for _ in range(game.rules.players):
        game.apply(Action.pass_(hand.to_act))


def test_dealer_passes_left_after_every_hand() -> None:
    game = Game(Rules.create("amerikaner", 3), first_dealer=2)
    for expected in (2, 0, 1, 2):
        _throw_in(game)
        assert game.hands[-1].dealer == expected
        assert game.hands[-1].outcome == "thrown_in"
    assert game.totals == [0, 0, 0] and not game.finished


def test_redeal_keeps_the_dealer() -> None:
    rules = Rules.create("norsk", 4)
    game = Game(rules, first_dealer=1)
    low = "10S 9S 8S 7S 6S 5S 4S 3S 2S 10H 9H 8H 7H"
    game.start_hand(make_deal(rules, {2: low}))
    game.apply(Action.redeal(2))
    assert game.next_dealer() == 1
    assert game.start_hand(rng=random.Random(1)).dealer == 1


def test_the_game_ends_at_the_target_with_co_winners() -> None:
    rules = Rules.create("amerikaner", 4, {"no_kitty": True, "target": 2})
    game = Game(rules, first_dealer=3)
    # Seat 0 bids 7 and holds every heart: 13 tricks alone, +7 and the game.
    hand = game.start_hand(make_deal(rules, {0: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"}))
    run(hand, "0 bid 7", "1 pass", "2 pass")
    game.apply(Action.pass_(3))
    game.apply(Action.play(0, hand.legal_play_mask().bit_length() - 1))
    while not game.finished:
        mask = hand.legal_play_mask()
        game.play(hand.to_act, (mask & -mask).bit_length() - 1)
    assert game.totals == [7, 0, 0, 0] and game.winners == [0]
    with pytest.raises(GameError) as info:
        game.start_hand(rng=random.Random(1))
    assert info.value.code == "game_over"
    assert refused(hand, "1 play 2S") in ("wrong_phase", "game_over")


def test_ties_for_the_top_are_co_winners() -> None:
    rules = Rules.create("amerikaner", 4, {"no_kitty": True, "target": 1})
    game = Game(rules, first_dealer=0)
    hand = game.start_hand(make_deal(rules, {
        1: "AS KS QS JS 10S 9S 8S 2H 3H 4H 5H 6H 7H",
        3: "AH KH QH JH 10H 9H 8H 2S 3S 4S 5S 6S 7S"}))
    run(hand, "1 bid 7", "2 pass", "3 pass")
    game.apply(Action.pass_(0))
    game.apply(Action.play(1, card("AS"), call=card("7S")))
    while not game.finished:
        mask = hand.legal_play_mask()
        game.play(hand.to_act, mask.bit_length() - 1)  # highest legal card
    assert hand.outcome == "made" and hand.partner == 3
    assert game.totals[1] == game.totals[3] == 7
    assert game.winners == [1, 3]
