"""American's AI players (bot/games/american/ai/): every action legal, chosen from the
seat's view only; the easy player's rules of thumb; the strong player's budget."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import parse_card
from bot.games.american.actions import Action
from bot.games.american.ai import LEVELS, choose_action
from bot.games.american.ai.easy import BIG_PILE, play_mask, swap_choice
from bot.games.american.ai.strong import strong_action
from bot.games.american.deal import deal_cards, deal_from_names
from bot.games.american.rules import BOOLEAN_OPTIONS, Rules
from bot.games.american.state import DONE, FINISHED, PLAY_PHASE, DealState
from bot.games.american.views import DealView, deal_view

OPTION_SETS = [frozenset(c) for k in range(len(BOOLEAN_OPTIONS) + 1)
               for c in combinations(BOOLEAN_OPTIONS, k)]


def _cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(name) for name in names)


def _mask(*names: str) -> int:
    return sum(1 << c for c in _cards(*names))


def _choose(view: DealView, level: str, seed: int) -> Action:
    if level == "strong":  # a few worlds: legality, not strength, is tested here
        return strong_action(view, random.Random(seed), budget=0.0, max_worlds=2)
    return choose_action(view, level, random.Random(seed))


@st.composite
def positions(draw: st.DrawFn) -> DealState:
    """A deal of random rules played at random to a random point (not ended)."""
    options = draw(st.sampled_from(OPTION_SETS))
    players = draw(st.integers(2, 5))
    rules = Rules.create(players, {name: True for name in options})
    rng = random.Random(draw(st.integers(0, 2**32)))
    state = DealState(rules, rng.randrange(players), deal_cards(rules, rng), False)
    for _ in range(draw(st.integers(0, 150))):
        if state.phase == DONE:
            break
        previous = state.copy()
        state.apply(choose_action(deal_view(state, state.to_act), "random", rng))
        if state.phase == DONE:
            return previous
    return state


@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from(LEVELS), st.integers(0, 1000))
def test_every_level_chooses_a_legal_action(state: DealState, level: str,
                                            seed: int) -> None:
    action = _choose(deal_view(state, state.to_act), level, seed)
    assert action.seat == state.to_act
    state.apply(action)  # raises GameError if illegal


def _reshuffle_hidden(state: DealState, rng: random.Random, seat: int) -> DealState:
    """The same deal with every card `seat` has not seen dealt anew into the same
    places: the other hands' unknown cards, every face-down row and the deck."""
    other = state.copy()
    places: list[tuple[str, int]] = []
    cards: list[int] = []
    for s in range(state.n):
        if s != seat:
            for card in range(52):
                if state.hands[s] >> card & 1 and not state.known[s] >> card & 1:
                    places.append(("hand", s))
                    cards.append(card)
        for _ in state.down[s]:
            places.append(("down", s))
        cards.extend(state.down[s])
    deck = list(state.deck[state.deck_pos:])
    cards.extend(deck)
    rng.shuffle(cards)
    for s in range(state.n):
        if s != seat:
            other.hands[s] = state.known[s]
        other.down[s] = []
    for (where, s), card in zip(places, cards, strict=False):
        if where == "hand":
            other.hands[s] |= 1 << card
        else:
            other.down[s].append(card)
    other.deck = tuple(state.deck[:state.deck_pos]) + tuple(cards[len(places):])
    return other


@settings(max_examples=40, deadline=None)
@given(positions(), st.sampled_from(LEVELS), st.integers(0, 1000), st.integers(0, 1000))
def test_the_choice_depends_on_the_view_only(state: DealState, level: str, seed: int,
                                            shuffle: int) -> None:
    seat = state.to_act
    other = _reshuffle_hidden(state, random.Random(shuffle), seat)
    view = deal_view(state, seat)
    assert deal_view(other, seat) == view  # nothing the seat may see has changed
    assert _choose(view, level, seed) == _choose(deal_view(other, seat), level, seed)


# ----------------------------------------------------------------- easy's rules


def test_easy_plays_the_lowest_playable_rank_with_every_copy() -> None:
    hand = _mask("3S", "3D", "7H", "KC")
    assert play_mask(hand, hand, 0, 20) == _mask("3S", "3D")
    # On a 5, the 3s cannot go: the 7 is the lowest that can.
    assert play_mask(hand, _mask("7H", "KC"), 2, 20) == _mask("7H")


def test_easy_keeps_twos_tens_and_aces_while_anything_else_can_go() -> None:
    hand = _mask("2S", "10H", "AS", "9C")
    assert play_mask(hand, hand, 0, 20) == _mask("9C")
    # When they are needed, one at a time: an ace first, then a 2, then a 10.
    assert play_mask(hand, _mask("2S", "10H", "AS"), 2, 20) == _mask("AS")
    assert play_mask(_mask("2S", "2D", "10H"), _mask("2S", "2D", "10H"), 2, 20) == \
        _mask("2S")
    assert play_mask(_mask("10H", "10D", "4C"), _mask("10H", "10D"), 2, 20) == _mask("10H")
    # Nothing to play: pick up.
    assert play_mask(_mask("4C", "5C"), 0, 3, 20) == 0


def test_easy_burns_a_big_pile() -> None:
    hand = _mask("10H", "5C", "9D")
    assert play_mask(hand, hand, BIG_PILE, 20) == _mask("10H")
    assert play_mask(hand, hand, BIG_PILE - 1, 20) == _mask("5C")


def test_easy_swaps_its_best_cards_face_up() -> None:
    given, taken = swap_choice(_cards("10H", "3C", "AS"), _cards("4D", "KS", "2C"))
    assert set(given) == set(_cards("10H", "AS"))
    assert set(taken) == set(_cards("4D", "KS"))
    assert swap_choice(_cards("3C", "4C", "5C"), _cards("AS", "KS", "QS")) == ((), ())


def test_easy_through_the_view() -> None:
    rules = Rules.create(2, {})
    deal = deal_from_names(
        down=[["4S", "9D", "KC"], ["2H", "7S", "QD"]],
        up=[["AS", "6H", "10C"], ["3C", "JH", "8D"]],
        hand=[["5C", "5D", "KH"], ["3S", "9C", "4H"]],
        deck=[name for name in _all_names() if name not in {
            "4S", "9D", "KC", "2H", "7S", "QD", "AS", "6H", "10C", "3C", "JH", "8D", "5C",
            "5D", "KH", "3S", "9C", "4H"}])
    state = DealState(rules, 0, deal)
    assert state.to_act == 1  # the 3 is the lowest card
    view = deal_view(state, 1)
    assert choose_action(view, "easy", random.Random(1)) == Action.play(1, _cards("3S"))
    state.apply(Action.play(1, _cards("3S")))
    action = choose_action(deal_view(state, 0), "easy", random.Random(1))
    assert action.kind == "play" and set(action.cards) == set(_cards("5C", "5D"))


def _all_names() -> list[str]:
    from bot.cards import card_name

    return [card_name(c) for c in range(52)]


# ----------------------------------------------------------------- strong


def test_strong_returns_a_legal_action_on_any_budget() -> None:
    rules = Rules.create(2, {"swap": True, "voluntary_pickup": True})
    rng = random.Random(3)
    state = DealState(rules, 0, deal_cards(rules, rng), False)
    for budget in (0.0, 0.001):
        for _ in range(30):
            if state.phase == DONE:
                break
            view = deal_view(state, state.to_act)
            state.apply(strong_action(view, rng, budget=budget, max_worlds=50))


def test_strong_takes_a_single_move_at_once() -> None:
    """A forced pick-up, or one card to play, is made without sampling."""
    rules = Rules.create(2, {})
    rng = random.Random(8)
    for _ in range(200):
        state = DealState(rules, 0, deal_cards(rules, rng), False)
        while state.phase == PLAY_PHASE and state.playable_mask():
            state.apply(choose_action(deal_view(state, state.to_act), "easy", rng))
        if state.phase == PLAY_PHASE:
            break
    view = deal_view(state, state.to_act)
    assert view.legal is not None and view.legal.can_pickup and not view.legal.cards
    # max_worlds 0: no world may be sampled, and none is needed.
    assert strong_action(view, rng, max_worlds=0) == Action.pickup(state.to_act)


def _strong_against_easy(rules: Rules, seed: int, strong_seat: int) -> list[Action]:
    """One deal, strong (a fixed number of worlds, no clock) in `strong_seat` against
    easy: every action, each applied through the core (which refuses an illegal one)."""
    rng = random.Random(seed)
    state = DealState(rules, 0, deal_cards(rules, random.Random(seed)), False)
    actions: list[Action] = []
    while state.phase != DONE:
        view = deal_view(state, state.to_act)
        if state.to_act == strong_seat:
            action = strong_action(view, rng, budget=1e9, max_worlds=8)
        else:
            action = choose_action(view, "easy", rng)
        state.apply(action)
        actions.append(action)
    assert state.outcome == FINISHED
    return actions


@pytest.mark.parametrize("options", [{}, {"same_rank": True, "four_burns": True,
                                          "swap": True}])
def test_strong_plays_whole_deals_legally_and_the_same_for_a_seed(
        options: dict[str, bool]) -> None:
    """Whole two-player deals, strong in either seat against easy: every action legal,
    and the same seed plays the same deal the same way. (How strong it is is measured
    by bench/ai_american.py over thousands of games, never asserted here.)"""
    rules = Rules.create(2, options)
    for seed in range(2):
        for strong_seat in (0, 1):
            first = _strong_against_easy(rules, seed, strong_seat)
            assert _strong_against_easy(rules, seed, strong_seat) == first


# ----------------------------------------------------------------- strong's reading
# (issue 40: the others' hidden hand cards read from what the table showed)

from bot.games.american.actions import PICKUP  # noqa: E402
from bot.games.american.ai.inference import Reading  # noqa: E402
from bot.games.american.state import rank_playable  # noqa: E402


def _fits(cards: list[int], excluded: list[int]) -> bool:
    """Whether each entry can be given a different one of `cards` whose rank it allows
    (a bipartite matching, by augmenting paths)."""
    owner: dict[int, int] = {}

    def place(entry: int, tried: set[int]) -> bool:
        for card in cards:
            if excluded[entry] >> (card % 13) & 1 or card in tried:
                continue
            tried.add(card)
            if card not in owner or place(owner[card], tried):
                owner[card] = entry
                return True
        return False

    return all(place(entry, set()) for entry in range(len(excluded)))


@pytest.mark.parametrize("options", [(), ("same_rank", "four_burns", "swap"),
                                     ("voluntary_pickup", "blind_down")])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_reading_never_rules_out_a_card_an_easy_player_holds(
        options: tuple[str, ...], players: int) -> None:
    """Against easy players (the policy the reading models) every entry the reading keeps
    for a seat can be matched to a different hidden card that seat really holds, and
    there is one entry per hidden card."""
    rules = Rules.create(players, {name: True for name in options})
    ruled_out = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = DealState(rules, seed % players, deal_cards(rules, rng), False)
        while state.phase != DONE:
            seat = state.to_act
            view = deal_view(state, seat)
            reading = Reading(view)
            for other in range(players):
                hidden = [card for card in range(52) if state.hands[other] >> card & 1
                          and not state.known[other] >> card & 1]
                excluded = reading.excluded[other]
                if other == seat:
                    assert not any(excluded)  # its own hand is no guess
                    continue
                assert len(excluded) == len(hidden)
                assert _fits(hidden, excluded)
                ruled_out += sum(1 for mask in excluded if mask)
            state.apply(choose_action(view, "easy", rng))
    assert ruled_out > 0  # the reading did read something


def test_a_forced_pickup_rules_out_every_rank_that_could_go_on_that_top() -> None:
    """Without voluntary pick-ups the rules say the picker held nothing playable: a player
    who plays nothing like the easy policy (random play) is still read by the rules."""
    rules = Rules.create(4, {})
    checked = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = DealState(rules, 0, deal_cards(rules, rng), False)
        while state.phase != DONE:
            seat = state.to_act
            view = deal_view(state, seat)
            action = choose_action(view, "random", rng)
            top = state.pile[-1] % 13 if state.pile else -1
            hidden = state.hands[seat] & ~state.known[seat]
            state.apply(action)
            if action.kind != PICKUP or not hidden or state.phase == DONE:
                continue
            playable = sum(1 << rank for rank in range(13)
                           if rank_playable(rank, top, False))
            excluded = Reading(deal_view(state, state.to_act)).excluded[seat]
            assert len(excluded) == hidden.bit_count()
            assert all(mask & playable == playable for mask in excluded)
            checked += 1
    assert checked > 0


def _strong_asked_twice(rules: Rules, seed: int, dealer: int, worlds: int) -> DealState:
    """A deal played to its end, strong in seat `dealer` (a fixed number of worlds, no
    clock) and easy in the others; each strong action asked twice must be the same (the
    core refuses an illegal one)."""
    rng = random.Random(seed)
    state = DealState(rules, dealer, deal_cards(rules, rng), False)
    while state.phase != DONE:
        view = deal_view(state, state.to_act)
        if state.to_act == dealer:
            action = strong_action(view, random.Random(len(view.history)), budget=1e9,
                                   max_worlds=worlds)
            assert action == strong_action(view, random.Random(len(view.history)),
                                           budget=1e9, max_worlds=worlds)
        else:
            action = choose_action(view, "easy", rng)
        state.apply(action)
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_strong_is_legal_and_deterministic_for_a_seed_with_more_players(
        players: int) -> None:
    """A fixed number of worlds (as the deal of the day plays): the same view and seed
    give the same action, which is legal, through a whole deal."""
    state = _strong_asked_twice(Rules.create(players, {"swap": True}), players, 0, 3)
    assert state.outcome == FINISHED


@pytest.mark.parametrize("seat_reply", [True, False])
@pytest.mark.parametrize("options", [(), ("same_rank", "four_burns", "voluntary_pickup"),
                                     ("blind_down",)])
def test_strong_with_or_without_the_seats_reply_is_legal_and_deterministic(
        options: tuple[str, ...], seat_reply: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """With 3-5 players the play-outs branch at the seat's next play (SEAT_REPLY, issue
    40); with it and without, five-player deals under any options are played legally (the
    core refuses anything else) and the same view and seed give the same action."""
    from bot.games.american.ai import strong

    monkeypatch.setattr(strong, "SEAT_REPLY", seat_reply)
    rules = Rules.create(5, {name: True for name in options})
    for seed in range(2):
        assert _strong_asked_twice(rules, seed, seed, 4).phase == DONE


# ------------------------------------------- strong's model of how each seat plays
# (issue 40: play-outs in which each other seat plays the style the table showed of it)

from bot.games.american.ai.easy import (  # noqa: E402
    EASY_STYLE,
    ONE_COPY,
    SPEND,
    styled_action,
)


def _styles_seen(rules: Rules, seed: int, styles: list[int]) -> list[set[int]]:
    """A deal played to its end, each seat by the easy policy with its style; per seat,
    every style seat 0's reading gave it along the way."""
    rng = random.Random(seed)
    state = DealState(rules, seed % rules.players, deal_cards(rules, rng), False)
    seen: list[set[int]] = [set() for _ in range(rules.players)]
    while state.phase != DONE:
        reading = Reading(deal_view(state, 0))
        for seat, style in enumerate(reading.styles):
            seen[seat].add(style)
        view = deal_view(state, state.to_act)
        state.apply(styled_action(view, styles[state.to_act]))
    return seen


def test_a_seat_seen_spending_aces_and_twos_early_is_read_so_and_easy_seats_stay_easy(
        ) -> None:
    """Seat 1 spends its aces and 2s before anything else; the others play easy. Seat
    0's reading comes to model seat 1 as a spender, and never reads an easy seat (nor
    itself) as anything but easy: against easy players the model stays easy's."""
    read_as_spender = 0
    for players in (3, 4, 5):
        rules = Rules.create(players, {})
        for seed in range(6):
            styles = [EASY_STYLE] * players
            styles[1] = SPEND
            seen = _styles_seen(rules, seed, styles)
            if any(style & SPEND for style in seen[1]):
                read_as_spender += 1
            for seat in range(players):
                if seat != 1:
                    assert seen[seat] == {EASY_STYLE}, (players, seed, seat, seen)
    assert read_as_spender >= 9  # of 18 deals; the evidence needs two open tops


def test_easy_seats_are_read_as_easy_under_any_options() -> None:
    for options in ({"same_rank": True, "four_burns": True}, {"voluntary_pickup": True},
                    {"swap": True}):
        rules = Rules.create(4, options)
        for seed in range(4):
            for seat_styles in _styles_seen(rules, seed, [EASY_STYLE] * 4):
                assert seat_styles == {EASY_STYLE}


def test_a_style_plays_legally_and_as_named() -> None:
    """The styles' own plays: a spender puts an ace before a 5 (while no big pile
    waits for a 10), a single-copy player one 5 of two."""
    from bot.games.american.ai.easy import styled_play_mask

    hand = _mask("5h", "5s", "Ad")
    assert styled_play_mask(hand, hand, 0, 10, SPEND) == _mask("Ad")
    single = styled_play_mask(hand, hand, 0, 10, ONE_COPY)
    assert single in (_mask("5h"), _mask("5s"))
    assert styled_play_mask(hand, hand, 0, 10, EASY_STYLE) == _mask("5h", "5s")


@pytest.mark.parametrize("next_out", [True, False])
@pytest.mark.parametrize("players", [4, 5])
def test_strong_against_other_styles_is_legal_and_deterministic(
        players: int, next_out: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Strong in seat 0 against seats that spend aces and 2s and play single copies
    (so its play-outs use the model, to the next player out or, NEXT_OUT off, to the
    deal's end): every action legal (the core refuses anything else) and the same view
    and seed give the same action."""
    from bot.games.american.ai import strong

    monkeypatch.setattr(strong, "NEXT_OUT", next_out)
    for seed in range(2):
        rng = random.Random(seed)
        rules = Rules.create(players, {})
        state = DealState(rules, seed, deal_cards(rules, rng), False)
        while state.phase != DONE:
            view = deal_view(state, state.to_act)
            if state.to_act == 0:
                action = strong_action(view, random.Random(len(view.history)),
                                       budget=1e9, max_worlds=3)
                assert action == strong_action(view, random.Random(len(view.history)),
                                               budget=1e9, max_worlds=3)
            else:
                action = styled_action(view, SPEND | ONE_COPY)
            state.apply(action)
