"""The rules of one hand, through the Hand state machine (docs/rules-amerikaner.md §§ 3 to 6)."""

from __future__ import annotations

import pytest

from bot.cards import card_name
from tests.core_helpers import card, cards, new_hand, refused, run

# 4 players, no kitty. Seat 1 (left of dealer 0) holds A K 2 of spades and A..5 of hearts.
DEAL_A = {
    1: "AS KS 2S AH KH QH JH 10H 9H 8H 7H 6H 5H",
    2: "QS 3S AD KD QD JD 10D 9D 8D 7D 6D 5D 4D",
    3: "JS 10S 9S 8S 7S 6S 5S 4S 4H 3H 2H 3D 2D",
}
# Seat 1 holds the 2H and twelve spades; seat 3 every other heart.
DEAL_B = {
    1: "2H AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
    2: "2S AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
    3: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2D",
}
# 3 players with jokers, 18 cards each.
DEAL_J = {
    1: "JK1 AS 2S AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AD KD",
    2: "JK2 KS QS JS 10S 9S 8S 7S QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
}


def names(mask_or_cards) -> set[str]:
    if isinstance(mask_or_cards, int):
        return {card_name(c) for c in range(55) if mask_or_cards >> c & 1}
    return {card_name(c) for c in mask_or_cards}


def no_kitty(fixed=DEAL_A, **options):
    return new_hand("amerikaner", 4, {"no_kitty": True, **options}, fixed)


# ------------------------------------------------------------------ bidding

def test_left_of_dealer_speaks_first_and_turns_go_clockwise() -> None:
    hand = no_kitty()
    assert (hand.phase, hand.to_act) == ("bid", 1)
    assert refused(hand, "2 pass") == "not_your_turn"
    run(hand, "1 pass")
    assert hand.to_act == 2


def test_number_bids_must_rise_within_the_range() -> None:
    hand = no_kitty()
    assert refused(hand, "1 bid 6") == "bid_too_low"  # min is 7 with 13 tricks
    assert refused(hand, "1 bid 14") == "bid_too_high"
    assert refused(hand, "1 bid kani") == "bid_too_high"
    run(hand, "1 bid 8")
    assert refused(hand, "2 bid 8") == "bid_too_low"
    assert hand.legal_bids() == [9, 10, 11, 12, 13, 14]  # 14 = the top bid
    run(hand, "2 bid 13")
    assert refused(hand, "3 bid 13") == "bid_too_low"
    run(hand, "3 bid amerikaner")
    assert (hand.phase, hand.bidder, hand.contract) == ("lead", 3, hand.rules.top_value)


def test_a_pass_is_final_and_passed_seats_are_skipped() -> None:
    hand = no_kitty()
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 bid 8")
    assert hand.to_act == 1
    assert refused(hand, "2 bid 9") == "already_passed"
    assert refused(hand, "3 pass") == "already_passed"
    run(hand, "1 bid 9", "0 pass")
    assert (hand.phase, hand.bidder, hand.contract, hand.to_act) == ("lead", 1, 9, 1)


def test_bidding_ends_when_the_others_have_passed() -> None:
    hand = no_kitty()
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass")
    assert (hand.phase, hand.bidder, hand.contract) == ("lead", 1, 7)


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("amerikaner", 3, {}), ("amerikaner", 4, {}), ("amerikaner", 5, {}),
    ("amerikaner", 4, {"no_kitty": True}), ("norsk", 4, {}), ("kani", 4, {}),
])
def test_a_bid_after_every_other_player_passed_ends_the_bidding(preset, players,
                                                                  options) -> None:
    # docs/rules-amerikaner.md § 3, Decision: the dealer bids last after all others passed; the
    # auction ends with that bid and the dealer is not asked to speak again.
    hand = new_hand(preset, players, options)
    passes = [f"{seat} pass" for seat in range(1, players)]
    minimum = hand.rules.min_bid
    run(hand, *passes, f"0 bid {minimum}")
    assert (hand.bidder, hand.contract, hand.to_act) == (0, minimum, 0)
    assert hand.phase == ("discard" if hand.rules.kitty_size else "lead")
    assert refused(hand, "0 pass") == "wrong_phase"


def test_all_pass_throws_the_hand_in() -> None:
    hand = no_kitty()
    run(hand, "1 pass", "2 pass", "3 pass", "0 pass")
    assert (hand.phase, hand.outcome, hand.scores) == ("done", "thrown_in", [0, 0, 0, 0])
    assert refused(hand, "1 play AS") == "wrong_phase"


def test_all_pass_play_is_played_without_trumps_at_minus_one_a_trick() -> None:
    hand = no_kitty(all_pass_play=True)
    run(hand, "1 pass", "2 pass", "3 pass", "0 pass")
    assert (hand.phase, hand.to_act, hand.with_trumps) == ("lead", 1, False)
    assert refused(hand, "1 play AS call QS") == "invalid_call"
    assert refused(hand, "1 play AS trump S") == "invalid_trump"
    run(hand, "1 play 2S", "2 play 3S", "3 play 4S", "0 play AC")
    assert hand.tricks_won == [0, 0, 0, 1]  # seat 3's 4S is the highest spade
    _play_out(hand)
    assert hand.outcome == "all_pass_played"
    assert hand.scores == [-t for t in hand.tricks_won]
    assert sum(hand.tricks_won) == 13


def _play_out(hand) -> None:
    """Finish a hand playing the lowest legal card."""
    while not hand.finished:
        mask = hand.legal_play_mask()
        hand.play(hand.to_act, (mask & -mask).bit_length() - 1)


# ------------------------------------------------------------------ kitty

def test_the_bidder_takes_the_kitty_and_discards_as_many() -> None:
    hand = new_hand("amerikaner", 4, {}, kitty="2C 3C 4C 5C")
    run(hand, "1 bid 6", "2 pass", "3 pass", "0 pass")
    assert hand.phase == "discard" and hand.hands[1].bit_count() == 16
    assert refused(hand, "1 discard 2C 3C 4C") == "wrong_card_count"
    assert refused(hand, "1 discard 2C 3C 4C 4C") == "card_not_in_hand"
    assert refused(hand, "2 discard 2C 3C 4C 5C") == "not_your_turn"
    held = names(hand.hands[1])
    not_held = next(n for n in ("AS", "KS", "AH", "KD") if n not in held)
    assert refused(hand, f"1 discard 2C 3C 4C {not_held}") == "card_not_in_hand"
    run(hand, "1 discard 2C 3C 4C 5C")  # cards just picked up may be discarded
    assert hand.phase == "lead" and hand.hands[1].bit_count() == 12
    assert hand.tricks_won == [0, 0, 0, 0]


def test_kitty_trick_counts_the_discards_as_a_trick() -> None:
    hand = new_hand("amerikaner", 4, {"kitty_trick": True}, kitty="2C 3C 4C 5C")
    assert refused(hand, "1 bid 6") == "bid_too_low"  # bids rise by one
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass", "1 discard 2C 3C 4C 5C")
    assert hand.tricks_won == [0, 1, 0, 0]


# ------------------------------------------------------------------ lead and call

def test_the_opening_lead_calls_a_card_of_the_suit_led() -> None:
    hand = no_kitty()
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass")
    calls = {s: names(m) for s, m in hand.lead_calls().items()}
    assert calls == {0: names(cards("QS JS 10S 9S 8S 7S 6S 5S 4S 3S")),
                     1: {"4H", "3H", "2H"}}
    assert refused(hand, "1 play AS") == "invalid_call"  # a call is due
    assert refused(hand, "1 play AS call KS") == "invalid_call"  # own card
    assert refused(hand, "1 play AS call AD") == "invalid_call"  # another suit
    assert refused(hand, "1 play AS call QS trump H") == "invalid_trump"  # no free_trump
    assert refused(hand, "1 play AC call QC") == "card_not_in_hand"
    run(hand, "1 play AS call QS")
    assert (hand.trump, hand.called, hand.partner) == (0, card("QS"), -1)
    # The holder of the called card must play it; the partner shows only then.
    assert refused(hand, "2 play 3S") == "must_play_called_card"
    assert refused(hand, "2 play AD") == "must_play_called_card"
    assert refused(hand, "2 play 3S call KS") == "invalid_call"
    run(hand, "2 play QS")
    assert hand.partner == 2
    assert refused(hand, "3 play 4H") == "must_follow_suit"
    run(hand, "3 play 4S", "0 play 2C")
    assert hand.tricks_won == [0, 1, 0, 0] and hand.to_act == 1


def test_a_suit_the_bidder_holds_whole_allows_no_call() -> None:
    fixed = {1: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"}
    hand = no_kitty(fixed)
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass")
    assert hand.lead_calls() == {1: 0}
    assert refused(hand, "1 play AH call AS") == "invalid_call"
    run(hand, "1 play AH")
    assert hand.called == -1
    _play_out(hand)
    assert hand.partner == -1 and hand.outcome == "made"  # 13 heart tricks, alone


def test_calling_a_card_out_of_play_means_playing_alone() -> None:
    # 3 players without a kitty: the 2C is out of the pack, yet it may be called.
    rules_fixed = {1: "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C AS KS QS JS 10S"}
    hand = new_hand("amerikaner", 3, {"no_kitty": True}, rules_fixed)
    run(hand, "1 bid 9", "2 pass", "0 pass")
    assert names(hand.lead_calls()[3]) == {"2C"}
    run(hand, "1 play AC call 2C")
    assert hand.called_holder == -1
    _play_out(hand)
    assert hand.partner == -1


def test_free_trump_names_any_suit_or_grand() -> None:
    for trump, expected in (("H", 1), ("grand", 4), ("d", 2), ("GRAND", 4)):
        hand = no_kitty(free_trump=True)
        run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass", f"1 play AS call QS trump {trump}")
        assert hand.trump == expected
    hand = no_kitty(free_trump=True)
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass")
    assert refused(hand, "1 play AS call QS trump X") == "invalid_trump"
    run(hand, "1 play AS call QS")
    assert hand.trump == 0  # naming none: the suit led


def test_amerikaner_has_no_trump_and_no_call() -> None:
    hand = no_kitty()
    run(hand, "1 bid amerikaner")
    assert refused(hand, "1 play AS call QS") == "invalid_call"
    assert refused(hand, "1 play AS trump S") == "invalid_trump"
    run(hand, "1 play 2S", "2 play 3S", "3 play 4S", "0 play AC")
    assert hand.trump == -1 and hand.tricks_won == [0, 0, 0, 1]
    _play_out(hand)
    assert (hand.outcome, hand.scores[1]) == ("failed", -52)


# ------------------------------------------------------------------ tricks

@pytest.mark.parametrize("options,winner", [
    ({}, 3),  # hearts are trump; the AH wins
    ({"two_wins": True}, 1),  # a 2 led wins the trick
    ({"free_trump": True}, 2),  # spades named trump: the 2S ruffs
    ({"free_trump": True, "two_wins": True}, 1),  # even a trump does not beat a led 2
])
def test_trick_winner(options, winner) -> None:
    hand = no_kitty(DEAL_B, **options)
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass")
    trump = " trump S" if options.get("free_trump") else ""
    run(hand, f"1 play 2H call AH{trump}")
    run(hand, "2 play 2S", "3 play AH", "0 play AC")
    assert hand.tricks_won[winner] == 1 and hand.to_act == winner


def test_void_players_may_play_any_card_and_off_suit_cards_never_win() -> None:
    hand = no_kitty(DEAL_B, two_wins=True)
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass", "1 play AS call 2S")
    assert names(hand.legal_play_mask()) == {"2S"}
    run(hand, "2 play 2S")
    assert hand.legal_play_mask() == hand.hands[3]  # void in spades
    run(hand, "3 play AH", "0 play AC")
    assert hand.tricks_won == [0, 1, 0, 0]


def test_jokers() -> None:
    hand = new_hand("amerikaner", 3, {"jokers": True}, DEAL_J)
    run(hand, "1 bid 9", "2 pass", "0 pass")
    assert refused(hand, "1 play JK1 call 6S") == "invalid_lead"  # number bid: suited lead
    hand = new_hand("amerikaner", 3, {"jokers": True}, DEAL_J)
    run(hand, "1 bid amerikaner", "1 play JK1")
    assert hand.legal_play_mask() == hand.hands[2]  # a joker led: anything goes
    run(hand, "2 play JK2", "0 play 2C")  # two jokers: the one led wins
    assert hand.tricks_won == [0, 1, 0]
    run(hand, "1 play 2S")
    assert refused(hand, "2 play JK2") == "card_not_in_hand"  # already played
    run(hand, "2 play 7S", "0 play 3S")
    assert hand.tricks_won == [0, 1, 1]


def test_a_joker_cannot_be_played_while_following_and_has_no_power_when_void() -> None:
    hand = new_hand("amerikaner", 3, {"jokers": True}, DEAL_J)
    run(hand, "1 bid amerikaner", "1 play 2S")
    assert refused(hand, "2 play JK2") == "must_follow_suit"
    run(hand, "2 play 7S", "0 play 3S", "2 play QD", "0 play 2D", "1 play KD")
    assert hand.tricks_won == [0, 1, 1]
    run(hand, "1 play 2H", "2 play JK2", "0 play 2C")  # void: the joker has no power
    assert hand.tricks_won == [0, 2, 1]


# ------------------------------------------------------------------ norsk

def test_norsk_exchange_with_the_blind() -> None:
    hand = new_hand("norsk", 5, {}, blind="2C 3C")
    assert (hand.phase, hand.to_act) == ("exchange", 1)
    given = tuple(sorted(hand.hands[1].bit_length() - 1 - i for i in range(2)))
    before = hand.hands[1]
    assert refused(hand, "1 bid 5") == "wrong_phase"
    assert refused(hand, "1 exchange AS KS QS") == "wrong_card_count"
    run(hand, "1 exchange " + " ".join(card_name(c) for c in given))
    taken = {card("2C"), card("3C")}
    assert {c for c in range(52) if hand.hands[1] >> c & 1} == (
        {c for c in range(52) if before >> c & 1} - set(given)) | taken
    assert hand.blind == list(given)
    run(hand, "2 exchange", "3 exchange", "4 exchange", "0 exchange")
    assert (hand.phase, hand.to_act) == ("bid", 1)


def test_norsk_redeal_claim() -> None:
    low_hand = "10S 9S 8S 7S 6S 5S 4S 3S 2S 10H"
    hand = new_hand("norsk", 5, {}, {2: low_hand})
    run(hand, *(f"{s} exchange" for s in (1, 2, 3, 4, 0)))
    assert refused(hand, "1 redeal") == "redeal_not_allowed"  # seat 1 holds court cards
    run(hand, "1 pass")
    assert hand.can_redeal(2)
    run(hand, "2 redeal")
    assert (hand.phase, hand.outcome) == ("done", "redeal")
    hand = new_hand("norsk", 5, {}, {2: low_hand})
    run(hand, *(f"{s} exchange" for s in (1, 2, 3, 4, 0)), "1 bid 5", "2 bid 6", "3 bid 7",
        "4 pass", "0 pass", "1 pass")
    assert refused(hand, "2 redeal") == "redeal_not_allowed"  # seat 2 has bid


def test_redeal_outside_norsk_is_refused_first() -> None:
    hand = no_kitty()
    assert refused(hand, "3 redeal") == "redeal_not_allowed"


def test_copy_is_independent() -> None:
    hand = no_kitty()
    run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass")
    twin = hand.copy()
    run(twin, "1 play AS call QS")
    assert hand.phase == "lead" and twin.phase == "play"
    assert hand.hands[1] != twin.hands[1]


def test_a_seeded_deal_is_a_plain_frozen_deal_and_fixed_by_its_seed() -> None:
    # deal_cards builds its Deal without the dataclass __init__ (speed): it must be the
    # same value, still frozen, and a seed must keep giving the same cards.
    import dataclasses
    import random

    from bot.games.amerikaner.deal import Deal, deal_cards
    from bot.games.amerikaner.rules import Rules

    for preset, players in (("amerikaner", 4), ("norsk", 5), ("amerikaner", 3)):
        rules = Rules.create(preset, players)
        deal = deal_cards(rules, random.Random(11))
        again = Deal(hands=deal.hands, kitty=deal.kitty, blind=deal.blind,
                     removed=rules.removed)
        assert deal == again and hash(deal) == hash(again) and type(deal) is Deal
        assert deal == deal_cards(rules, random.Random(11))
        with pytest.raises(dataclasses.FrozenInstanceError):
            deal.kitty = ()  # type: ignore[misc]


def test_hands_of_different_rule_sets_keep_their_own_rules() -> None:
    # Hand caches per-rule-set values (by rule set): two rule sets must not mix.
    import random

    from bot.games.amerikaner.deal import deal_cards
    from bot.games.amerikaner.hand import Hand
    from bot.games.amerikaner.rules import Rules

    for _ in range(3):
        plain = Rules.create("amerikaner", 4)
        tricky = Rules.create("amerikaner", 4, {"kitty_trick": True, "two_wins": True})
        a = Hand(plain, 0, deal_cards(plain, random.Random(2)))
        b = Hand(tricky, 0, deal_cards(tricky, random.Random(2)))
        assert a.legal_bids()[0] == 6 and b.legal_bids()[0] == 7
        assert a.legal_bids()[-1] == 13 and b.legal_bids()[-1] == 14
        assert not a._two_wins and b._two_wins
