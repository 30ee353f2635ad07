"""Property-based tests over random games of every preset and option set."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.cards import JOKER_BASE, bits
from bot.errors import GameError
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.ai.random_player import random_action
from bot.games.amerikaner.game import Game
from bot.games.amerikaner.hand import DONE, Hand
from bot.games.amerikaner.record import game_to_record, load_game, replay_output
from bot.games.amerikaner.rules import BOOLEAN_OPTIONS, Rules
from bot.games.amerikaner.views import hand_view, known_cards

PLAYERS = {"amerikaner": (3, 4, 5, 6), "norsk": (3, 4, 5, 6), "kani": (4,)}


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(sorted(PLAYERS)))
    players = draw(st.sampled_from(PLAYERS[preset]))
    chosen = draw(st.sets(st.sampled_from(BOOLEAN_OPTIONS), max_size=5))
    if preset == "amerikaner" and players == 6:
        chosen.add("jokers")
    try:
        return Rules.create(preset, players, {name: True for name in chosen} | {"target": 40})
    except GameError:
        assume(False)
        raise


def _check_conservation(hand: Hand) -> None:
    pools = [*hand.hands, hand.played, hand.discards, sum(1 << c for c in hand.blind)]
    if hand.bidder < 0 or hand.phase in ("bid", "exchange") or hand.all_pass:
        pools.append(hand.kitty)  # the kitty lies aside until the bidder takes it
    union = 0
    for pool in pools:
        assert union & pool == 0, "a card is in two places"
        union |= pool
    assert union == hand.rules.pack | sum(1 << c for c in hand.blind)


def _check_views(hand: Hand) -> None:
    rules = hand.rules
    kitty = set(hand.deal.kitty)
    shown_kitty = "show_kitty" in rules.options and hand.bidder >= 0 and \
        hand.phase not in ("bid", "exchange")
    played = set(bits(hand.played))
    public = hand_view(hand)
    assert public.cards is None and public.discards is None
    assert public.exchange_given is None and public.legal is None
    if hand.partner < 0:
        assert public.partner is None
    allowed_public = played | ({hand.called} if hand.called >= 0 else set())
    if shown_kitty:
        allowed_public |= kitty
    assert known_cards(public) <= allowed_public
    for seat in range(rules.players):
        view = hand_view(hand, seat)
        allowed = set(bits(hand.hands[seat])) | allowed_public
        if seat == hand.bidder and hand.phase not in ("bid", "exchange"):
            allowed |= kitty | set(bits(hand.discards))
        if view.exchange_given is not None:
            allowed |= set(view.exchange_given) | set(view.exchange_taken or ())
        assert known_cards(view) <= allowed, f"seat {seat} sees a hidden card"
        assert view.partner == (hand.partner if hand.partner >= 0 else None)
        assert (view.legal is not None) == (seat == hand.to_act and hand.phase != DONE)


def _check_legal_listing(hand: Hand, rng: random.Random) -> None:
    """Listed cards are accepted; cards held but not listed are refused."""
    view = hand_view(hand, hand.to_act)
    legal = view.legal
    assert legal is not None
    if legal.phase not in ("play", "lead"):
        return
    seat = hand.to_act
    listed = set(legal.cards)
    for card in bits(hand.hands[seat]):
        twin = hand.copy()
        call = None
        if legal.phase == "lead" and legal.calls and card < JOKER_BASE:
            options = legal.calls_for(card // 13)
            call = options[0] if options else None
        try:
            twin.play(seat, card, call)
        except GameError as exc:
            assert card not in listed, exc
            assert exc.code in ("must_follow_suit", "must_play_called_card", "invalid_lead")
        else:
            assert card in listed


def _check_tricks_and_scores(hand: Hand) -> None:
    extra = 1 if "kitty_trick" in hand.rules.options and hand.discards else 0
    assert sum(hand.tricks_won) == hand.tricks_done + extra
    if hand.phase != DONE or hand.outcome in ("thrown_in", "redeal"):
        return
    assert hand.tricks_done == hand.rules.cards_each
    rules = hand.rules
    team = {hand.bidder, hand.partner} - {-1}
    for seat, score in enumerate(hand.scores):
        if hand.outcome == "all_pass_played":
            assert score == -hand.tricks_won[seat]
        elif rules.preset == "kani":
            assert score >= 0
            assert (score > 0) == ((seat in team) == (hand.outcome == "made"))
        elif seat not in team:
            assert score == hand.tricks_won[seat]
        else:
            assert (score > 0) == (hand.outcome == "made")


def _play_game(rules: Rules, seed: int, hands: int, check: bool) -> Game:
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(rules.players))
    for _ in range(hands):
        if game.finished:
            break
        hand = game.start_hand(rng=rng)
        while not hand.finished:
            if check:
                _check_conservation(hand)
                _check_views(hand)
                if rng.random() < 0.3:
                    _check_legal_listing(hand, rng)
            action = random_action(hand_view(hand, hand.to_act), rng)
            game.apply(action)
            _check_tricks_and_scores(hand)
        if check:
            _check_conservation(hand)
            _check_views(hand)
    return game


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(rules: Rules, seed: int) -> None:
    _play_game(rules, seed, hands=3, check=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=rule_sets(), seed=st.integers(0, 2**32), hands=st.integers(1, 12),
       cut=st.integers(0, 60))
def test_records_round_trip(rules: Rules, seed: int, hands: int, cut: int) -> None:
    game = _play_game(rules, seed, hands, check=False)
    # Also cut the last hand short, as a record may stop anywhere.
    last = game.hands[-1]
    record = game_to_record(game)
    if not game.finished and cut < len(last.actions):
        record["hands"][-1]["actions"] = record["hands"][-1]["actions"][:cut]
        expected_game = load_game(json.loads(json.dumps(record)))
    else:
        expected_game = game
    again = load_game(json.loads(json.dumps(record)))
    assert replay_output(again) == replay_output(expected_game)
    assert game_to_record(again) == record


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_unlisted_bids_are_refused_and_listed_ones_accepted(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, 0)
    hand = game.start_hand(rng=rng)
    while hand.phase == "exchange":
        game.apply(random_action(hand_view(hand, hand.to_act), rng))
    steps = 0
    while hand.phase == "bid" and steps < 12:
        steps += 1
        legal = hand_view(hand, hand.to_act).legal
        assert legal is not None
        seat = hand.to_act
        for value in [*range(0, rules.max_bid + 3), rules.top_bid, "grand"]:
            twin = hand.copy()
            try:
                twin.bid(seat, value)
            except GameError as exc:
                assert value not in legal.bids
                assert exc.code in ("bid_too_low", "bid_too_high")
            else:
                assert value in legal.bids
        game.apply(random_action(hand_view(hand, seat), rng, pass_bias=0.4))
    assert Action.pass_(0).kind == "pass"


def _auction_over(rules: Rules, auction: list[tuple[int, int | str]]) -> bool:
    """docs/rules-amerikaner.md § 3, read independently of the core: the auction is over once the
    top bid is made, once one player has bid and every other player has passed (also
    when that bid came last), or once every player has passed."""
    passed = {seat for seat, bid in auction if bid == "pass"}
    bidders = [seat for seat, bid in auction if bid != "pass"]
    if any(bid == rules.top_bid for _, bid in auction):
        return True
    if bidders and len(passed) == rules.players - 1 and bidders[-1] not in passed:
        return True
    return len(passed) == rules.players


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=rule_sets(), seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 30)))
def test_the_auction_ends_at_the_first_moment_the_rules_say(rules: Rules, seed: int,
                                                             choices: list[int]) -> None:
    rng = random.Random(seed)
    game = Game(rules, 0)
    hand = game.start_hand(rng=rng)
    while hand.phase == "exchange":
        game.apply(random_action(hand_view(hand, hand.to_act), rng))
    auction: list[tuple[int, int | str]] = []
    picks = iter(choices)
    while hand.phase == "bid":
        seat = hand.to_act
        assert not _auction_over(rules, auction), "the bidding went on past its end"
        numbers = [b for b in hand.legal_bids() if b != rules.top_value]
        # Mostly passes and low bids, so every way an auction can end is reached.
        pick = next(picks, 0)
        options: list[int | str] = ["pass", *numbers[:2], rules.top_bid]
        value = options[pick % len(options)] if pick % 3 else "pass"
        if value == "pass":
            hand.pass_turn(seat)
        else:
            hand.bid(seat, value)
        auction.append((seat, value))
    assert _auction_over(rules, auction), "the bidding ended early"
    bids = [(seat, bid) for seat, bid in auction if bid != "pass"]
    if bids:
        assert hand.bidder == bids[-1][0]
        assert hand.to_act == hand.bidder and hand.phase in ("discard", "lead")
    else:
        assert hand.bidder == -1 and hand.phase in ("done", "lead")
