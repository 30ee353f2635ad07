"""Claims ("resten står", bot/games/amerikaner/claim.py): accepted only when no lie of the
unseen cards can beat them, played out as ordinary plays the core accepts, refused with
a reason otherwise, and never changing the game."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards import JOKER_BASE, bits, mask_of, shuffled
from bot.errors import GameError
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.ai.random_player import random_action
from bot.games.amerikaner.deal import Deal
from bot.games.amerikaner.game import Game
from bot.games.amerikaner.hand import Hand
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.record import game_to_record
from bot.games.amerikaner.rules import BOOLEAN_OPTIONS, Rules
from bot.games.amerikaner.text_refusals import error_sentence
from bot.games.amerikaner.views import hand_view
from tests.core_helpers import card, cards, make_deal, run

KIND = AMERIKANER
PLAYERS = {"amerikaner": (3, 4, 5, 6), "norsk": (3, 4, 5, 6), "kani": (4,)}


# ----------------------------------------------------------------- helpers

def _state(game: Game) -> object:
    """Everything a claim could change: the record and each hand's live state."""
    return (game_to_record(game), KIND.version(game), game.totals[:], [
        (h.hands[:], h.phase, h.to_act, h.trick[:], h.tricks_won[:], h.played, h.leader,
         h.partner, len(h.actions), h.history[:]) for h in game.hands])


def _claim(game: Game, seat: int) -> list[Action]:
    """KIND.claim, checking that it changes nothing, accepted or refused."""
    before = _state(game)
    try:
        return KIND.claim(game, seat)
    finally:
        assert _state(game) == before, "a claim changed the game"


def _refusal(game: Game, seat: int) -> GameError:
    with pytest.raises(GameError) as refused:
        _claim(game, seat)
    assert refused.value.code == "invalid_claim"
    assert error_sentence(refused.value) != "invalid_claim"  # it has its words
    return refused.value


def _unseen(hand: Hand, seat: int) -> int:
    """What `seat` cannot see, worked out here apart from claim.py: the pack less its
    hand, the cards played and, for the bidder, its discards."""
    own_discards = hand.discards if seat == hand.bidder else 0
    return hand.rules.pack & ~hand.hands[seat] & ~hand.played & ~own_discards


def _holds_in_other_worlds(hand: Hand, seat: int, line: list[int], rng: random.Random,
                           worlds: int) -> None:
    """Deal the unseen cards afresh among the other hands (same sizes) and play the
    claimer's line against legal plays of the others, random or hoarding (their lowest
    card, keeping high trumps back from a draw) or spending (their highest): the
    claimer wins every trick."""
    others = [s for s in range(hand.n) if s != seat]
    policies: list[Callable[[tuple[int, ...]], int]] = [
        rng.choice, lambda legal: min(legal, key=_rank), lambda legal: max(legal, key=_rank)]
    for world_number in range(worlds):
        choose = policies[world_number % len(policies)]
        world = hand.copy()
        pool = shuffled(_unseen(hand, seat), rng)
        for other in others:
            size = hand.hands[other].bit_count()
            world.hands[other], pool = mask_of(tuple(pool[:size])), pool[size:]
        for led in line:
            world.play(seat, led)
            while world.trick:
                world.play(world.to_act, choose(bits(world.legal_play_mask())))
            assert world.history[-1][2] == seat, (line, world.history[-1])


def _rank(card: int) -> tuple[int, int]:
    return (card % 13 if card < JOKER_BASE else 13, card)


def _strong_deal(rules: Rules, seat: int, rng: random.Random, noise: float) -> Deal:
    """A deal where `seat` holds high cards (rank plus noise), so that claims are often
    near: the rest of the pack is shuffled out as usual."""
    pack = shuffled(rules.pack, rng)
    pack.sort(key=lambda c: -(c % 13 if c < JOKER_BASE else 13) - noise * rng.random())
    each = rules.cards_each
    strong, rest = pack[:each], shuffled(mask_of(tuple(pack[each:])), rng)
    hands: list[tuple[int, ...]] = []
    for s in range(rules.players):
        if s == seat:
            hands.append(tuple(strong))
        else:
            hands.append(tuple(rest[:each]))
            rest = rest[each:]
    kitty, rest = tuple(rest[:rules.kitty_size]), rest[rules.kitty_size:]
    return Deal(hands=tuple(hands), kitty=kitty, blind=tuple(rest), removed=rules.removed)


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(sorted(PLAYERS)))
    players = draw(st.sampled_from(PLAYERS[preset]))
    chosen = set(draw(st.sets(st.sampled_from(BOOLEAN_OPTIONS), max_size=4)))
    if preset == "amerikaner" and players == 6:
        chosen.add("jokers")
    plain = {"jokers"} if preset == "amerikaner" and players == 6 else set()
    for options in (chosen, chosen - {"partner_half"}, plain):
        try:
            return Rules.create(preset, players, {name: True for name in options})
        except GameError:
            continue
    raise AssertionError("the preset alone is valid")


def _action(hand: Hand, strong: int, top_bid: bool, rng: random.Random) -> Action:
    """The strong seat bids, the others pass (so it becomes the bidder); everything
    else is random and legal."""
    view = hand_view(hand, hand.to_act)
    assert view.legal is not None
    if view.legal.phase == "bid":
        if hand.to_act != strong or not view.legal.bids:
            return Action.pass_(hand.to_act)
        bid = view.legal.bids[-1] if top_bid else rng.choice(view.legal.bids[:-1])
        return Action.make_bid(hand.to_act, bid)
    return random_action(view, rng)


# ----------------------------------------------------------------- properties

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 2**32), noise=st.sampled_from([0.0, 2.0, 6.0]),
       top_bid=st.booleans())
def test_an_accepted_claim_wins_every_trick_in_every_world(rules: Rules, seed: int,
                                                           noise: float,
                                                           top_bid: bool) -> None:
    """Over random hands where one seat holds high cards and bids: at every lead, each
    seat's claim is either refused with its words, or its line wins against fresh deals
    of the unseen cards, and its actions, applied to the real game, win every trick."""
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(rules.players))
    strong = rng.randrange(rules.players)
    hand = game.start_hand(_strong_deal(rules, strong, rng, noise))
    while not hand.finished:
        seat = hand.to_act
        for claimer in range(rules.players):
            try:
                actions = _claim(game, claimer)
            except GameError as refused:
                assert refused.code == "invalid_claim"
                assert error_sentence(refused) != "invalid_claim"
                continue
            assert claimer == seat and not hand.trick
            line = [a.card for a in actions if a.seat == claimer]
            left = hand.hands[claimer].bit_count()
            assert len(line) == left and len(actions) == left * rules.players
            _holds_in_other_worlds(hand, claimer, line, rng, worlds=15)
            won_before = hand.tricks_won[claimer]
            for action in actions:
                KIND.apply(game, action, rng)
            assert hand.finished and hand.tricks_won[claimer] == won_before + left
            return
        game.apply(_action(hand, strong, top_bid, rng))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["amerikaner", "norsk", "kani"]))
def test_claims_in_random_games_hold_and_change_nothing(seed: int, preset: str) -> None:
    """Whole games of random play through the GameKind: every claim tried at every
    turn changes nothing, and an accepted one takes every remaining trick."""
    rng = random.Random(seed)
    rules = KIND.make_rules(preset, 4, {"target": 15})
    game, _ = KIND.new_game(rules, 0, rng)
    for _step in range(300):
        seat = KIND.to_act(game)
        if seat is None:
            break
        try:
            actions = _claim(game, seat)
        except GameError as refused:
            assert refused.code == "invalid_claim"
            KIND.apply(game, random_action(KIND.seat_view(game, seat), rng), rng)
            continue
        hand = game.current
        assert hand is not None
        left = hand.hands[seat].bit_count()
        _holds_in_other_worlds(hand, seat, [a.card for a in actions if a.seat == seat], rng,
                               worlds=5)
        won_before = hand.tricks_won[seat]
        for action in actions:
            KIND.apply(game, action, rng)
        assert hand.finished and hand.tricks_won[seat] == won_before + left


# ----------------------------------------------------------------- positions

# Four players, no kitty, dealer 0: seat 1 bids 7, the others pass, seat 1 leads.
_BIDDING = ("1 bid 7", "2 pass", "3 pass", "0 pass")


def _game(bidder_cards: str, *steps: str, options: dict[str, bool] | None = None,
          others: dict[int, str] | None = None) -> Game:
    """A game whose seat 1 holds `bidder_cards` (the rest of the pack goes to the others
    in display order, unless `others` deals them), after `steps`; then each seat follows
    the opening lead with its lowest legal card, so seat 1 is on lead with the first
    trick won."""
    rules = Rules.create("amerikaner", 4, options if options is not None else {"no_kitty": True})
    game = Game(rules, 0)
    hand = game.start_hand(make_deal(rules, {1: bidder_cards, **(others or {})}))
    run(hand, *steps)
    while hand.trick:
        legal = bits(hand.legal_play_mask())
        game.play(hand.to_act, min(legal, key=_rank))
    return game


def test_all_top_trumps_and_side_aces_are_claimed_drawing_the_trumps_first() -> None:
    game = _game("AH KH QH JH 10H 9H AS KS QS AD KD AC KC", *_BIDDING, "1 play AH call 8H")
    hand = game.current
    assert hand is not None and hand.history[-1][2] == 1 and hand.to_act == 1
    assert _unseen(hand, 1) & mask_of(cards("7H 6H 5H 4H 3H 2H"))  # trumps still out
    actions = _claim(game, 1)
    line = [a.card for a in actions if a.seat == 1]
    assert line[:5] == list(cards("KH QH JH 10H 9H"))  # trumps from the top first
    assert set(line[5:]) == set(cards("AS KS QS AD KD AC KC"))
    assert all(a.kind == "play" and a.call is None and a.trump is None for a in actions)
    for action in actions:
        KIND.apply(game, action, random.Random(0))
    assert hand.finished and hand.tricks_won[1] == 13 and hand.outcome == "made"


def test_a_two_led_under_two_wins_draws_trumps_before_the_lower_trumps_are_led() -> None:
    """Seat 0 may keep Q♥ 4♥ after the first trick: K♥ and the 2♥ (which wins when led
    under `two_wins`) draw them both before 10♥ … 5♥, which the Q♥ would beat, are led."""
    game = _game("AH KH 10H 9H 8H 7H 6H 5H 2H AS AD AC KC", *_BIDDING, "1 play AH call JH",
                 options={"no_kitty": True, "two_wins": True},
                 others={0: "QH 4H 3H KS QS JS 10S 9S 8S 7S 6S 5S 4S",
                         2: "JH 3S 2S KD QD JD 10D 9D 8D 7D 6D 5D 4D",
                         3: "3D 2D QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"})
    hand = game.current
    assert hand is not None and hand.hands[0] & mask_of(cards("QH 4H")) == mask_of(cards("QH 4H"))
    actions = _claim(game, 1)
    assert [a.card for a in actions if a.seat == 1][:3] == list(cards("KH 2H 10H"))
    for action in actions:
        KIND.apply(game, action, random.Random(0))
    assert hand.tricks_won[1] == 13


def test_a_claim_with_a_trump_that_cannot_be_drawn_is_refused() -> None:
    game = _game("AH KH 3H 2H AS KS QS AD KD QD AC KC QC", *_BIDDING, "1 play AH call QH")
    refusal = _refusal(game, 1)
    assert refusal.params["reason"] == "trump_out"
    assert refusal.params["card"] == card("JH")  # the highest trump still out
    assert error_sentence(refusal) == (
        "The rest is not surely yours: an opponent may still hold a trump, and you have too "
        "few top trumps to draw them all.")


def test_a_claim_with_a_master_missing_is_refused() -> None:
    game = _game("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H AS QS", *_BIDDING, "1 play AH call 3H")
    refusal = _refusal(game, 1)
    assert refusal.params == {"reason": "card_out", "card": card("KS"), "yours": card("QS")}
    assert error_sentence(refusal) == ("The rest is not surely yours: a higher card of that "
                                       "suit is still out and could beat your Q♠.")


def test_top_cards_without_trumps_are_claimed_at_the_opening_lead_of_amerikaner() -> None:
    game = _game("AS KS QS JS AH KH QH AD KD QD AC KC QC", "1 bid amerikaner")
    hand = game.current
    assert hand is not None and hand.phase == "lead"
    actions = _claim(game, 1)
    assert len(actions) == 13 * 4
    for action in actions:
        KIND.apply(game, action, random.Random(0))
    assert hand.outcome == "made" and hand.tricks_won[1] == 13 and hand.scores[1] == 52


def test_a_joker_led_wins_so_it_spoils_no_claim() -> None:
    rules = Rules.create("amerikaner", 5, {"jokers": True})
    game = Game(rules, 0)
    hand = game.start_hand(make_deal(rules, {1: "JK1 AS KS QS AH KH QH AD KD QD AC"}))
    run(hand, "1 bid amerikaner")
    actions = _claim(game, 1)  # JK2 and JK3 are out, but a joker played to a trick is powerless
    for action in actions:
        KIND.apply(game, action, random.Random(0))
    assert hand.tricks_won[1] == 11


def test_without_trumps_a_single_card_out_spoils_the_claim() -> None:
    game = _game("AS KS QS JS AH KH QH AD KD QD AC KC 2C", "1 bid amerikaner")
    refusal = _refusal(game, 1)
    assert refusal.params == {"reason": "card_out", "card": card("QC"), "yours": card("2C")}


def test_a_led_two_wins_under_two_wins_so_it_needs_no_draw() -> None:
    """With `two_wins` a 2 led wins the trick whatever is out."""
    game = _game("AS KS QS JS AH KH QH AD KD QD AC KC 2C", "1 bid amerikaner",
                 options={"no_kitty": True, "two_wins": True})
    actions = _claim(game, 1)
    hand = game.current
    assert hand is not None
    for action in actions:
        KIND.apply(game, action, random.Random(0))
    assert hand.tricks_won[1] == 13


def test_a_claim_is_refused_when_it_may_not_be_made_now() -> None:
    rules = Rules.create("amerikaner", 4, {"no_kitty": True})
    game = Game(rules, 0)
    hand = game.start_hand(make_deal(rules, {1: "AH KH QH JH 10H 9H AS KS QS AD KD AC KC"}))
    assert _refusal(game, 1).params == {"reason": "not_play", "phase": "bid"}
    run(hand, *_BIDDING)
    assert _refusal(game, 1).params["reason"] == "opening_lead"  # it names the call first
    assert _refusal(game, 2).params["reason"] == "not_your_turn"
    run(hand, "1 play AH call 8H")
    assert _refusal(game, 2).params["reason"] == "not_on_lead"  # seat 2 is to follow
    assert _refusal(game, 1).params["reason"] == "not_your_turn"


@pytest.mark.parametrize(("params", "sentence"), [
    ({"reason": "not_play", "phase": "bid"},
     "You can claim the rest only in the card play: the bidding is on."),
    ({"reason": "not_your_turn", "to_act": 2, "seat": 1},
     "You can claim the rest only on your turn."),
    ({"reason": "not_on_lead"},
     "You can claim the rest only when you are to lead to a trick."),
    ({"reason": "opening_lead"},
     "Make the opening lead first: it decides the trump and names the called card. Then "
     "you may claim the rest."),
])
def test_each_refusal_has_its_words(params: dict[str, object], sentence: str) -> None:
    assert error_sentence(GameError("invalid_claim", **params)) == sentence


def test_a_claim_after_the_game_is_over_is_refused() -> None:
    rng = random.Random(4)
    rules = KIND.make_rules("amerikaner", 3, {"target": 5})
    game, _ = KIND.new_game(rules, 0, rng)
    while (seat := KIND.to_act(game)) is not None:
        KIND.apply(game, random_action(KIND.seat_view(game, seat), rng), rng)
    assert _refusal(game, 0).params["reason"] == "not_play"
