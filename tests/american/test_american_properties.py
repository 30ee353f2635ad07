"""Property-based tests of the American core over random games of every option combination
and player count: random legal play to the end of the match, with the invariants checked
after every action."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import FULL_PACK, bits
from bot.errors import GameError
from bot.games.american.actions import Action
from bot.games.american.game import Game
from bot.games.american.record import game_to_record, load_game, replay_output
from bot.games.american.results import game_results
from bot.games.american.rules import BOOLEAN_OPTIONS, Rules
from bot.games.american.state import DONE, MAX_ACTIONS, DealState
from bot.games.american.views import deal_view, known_cards, legal_action_list

OPTION_SETS = [frozenset(c) for k in range(len(BOOLEAN_OPTIONS) + 1)
               for c in combinations(BOOLEAN_OPTIONS, k)]


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    options = draw(st.sampled_from(OPTION_SETS))
    players = draw(st.integers(2, 5))
    target = draw(st.integers(1, 2))
    return Rules.create(players, {**{name: True for name in options}, "target": target})


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def _snapshot(state: DealState) -> tuple[object, ...]:
    return (list(state.hands), list(state.known), [r[:] for r in state.up],
            [r[:] for r in state.down], state.deck_pos, state.pile[:], state.burned[:],
            state.out, state.places[:], state.phase, state.to_act, state.starter,
            state.swaps_done, state.outcome, len(state.actions))


def _check_conservation(state: DealState) -> None:
    pools = [*state.hands, *(_mask(r) for r in state.up), *(_mask(r) for r in state.down),
             _mask(list(state.deck[state.deck_pos:])), _mask(state.pile),
             _mask(state.burned)]
    union = 0
    for pool in pools:
        assert union & pool == 0, "a card is in two places"
        union |= pool
    assert union == FULL_PACK, "a card is lost"
    assert len(state.pile) + len(state.burned) == len(set(state.pile + state.burned))
    for seat in range(state.n):
        assert state.known[seat] & ~state.hands[seat] == 0, "known cards not in the hand"
        assert state.is_out(seat) == (state.holdings(seat) == 0)


def _check_views(state: DealState) -> None:
    hidden = _mask(list(state.deck[state.deck_pos:]))
    for row in state.down:
        hidden |= _mask(row)
    public_cards = set(state.pile) | set(state.burned)
    for seat in range(state.n):
        public_cards |= set(state.up[seat]) | set(bits(state.known[seat]))
    public = deal_view(state)
    assert public.hand is None and public.legal is None
    assert known_cards(public) <= public_cards
    for seat in range(state.n):
        view = deal_view(state, seat)
        seen = known_cards(view)
        assert seen <= public_cards | set(bits(state.hands[seat])), "a hidden card leaks"
        assert not seen & set(bits(hidden)), "a face-down card or the deck is shown"
        assert view.seats[seat].down == len(state.down[seat])
        assert (view.legal is not None) == (seat == state.to_act and state.phase != DONE)


def _key(action: Action) -> tuple[object, ...]:
    """An action up to the order that does not matter: of the cards played, and of the
    pairs (card given, card taken) of a swap."""
    return (action.seat, action.kind, frozenset(action.cards) if action.kind == "play"
            else frozenset(zip(action.cards, action.up, strict=False)), len(action.cards),
            action.position)


def _check_refusals(state: DealState, rng: random.Random) -> None:
    """Attempts that are not listed as legal are refused, and change nothing."""
    legal = deal_view(state, state.to_act).legal
    assert legal is not None
    listed = {_key(a) for a in legal_action_list(state.to_act, legal)}
    held = list(bits(state.holdings(state.to_act))) or [0]
    other = (state.to_act + 1) % state.n
    attempts = [
        Action.pickup(state.to_act),
        Action.play(state.to_act, (rng.randrange(52),)),
        Action.play(state.to_act, tuple(rng.sample(held, min(2, len(held))))),
        Action.play(state.to_act, ()),
        Action.flip(state.to_act, rng.randrange(-1, 4)),
        Action.swap(state.to_act, (rng.choice(held),), ()),
        Action.swap(state.to_act, (rng.choice(held),), (rng.randrange(52),)),
        Action.pickup(other),
        Action.play(other, (rng.randrange(52),)),
    ]
    for attempt in attempts:
        if _key(attempt) in listed:
            continue
        before = _snapshot(state)
        try:
            state.apply(attempt)
        except GameError:
            pass
        else:
            raise AssertionError(f"{attempt} was accepted but is not listed as legal")
        assert _snapshot(state) == before, f"{attempt} was refused but changed the state"


def _check_listed_are_accepted(state: DealState, actions: list[Action]) -> None:
    for action in actions:
        state.copy().apply(action)


def _pick(actions: list[Action], rng: random.Random, sensible: float = 0.7) -> Action:
    """A random legal action, but more often than not a sensible one (the lowest rank
    that may be played, every copy of it), and rarely a pick-up that is not forced:
    purely random play runs most deals to the draw after 1,000 actions."""
    plays = [a for a in actions if a.kind == "play"]
    if plays and rng.random() < sensible:
        low = min(a.cards[0] % 13 for a in plays)
        return max((a for a in plays if a.cards[0] % 13 == low), key=lambda a: len(a.cards))
    others = [a for a in actions if a.kind != "pickup"]
    if others and (len(others) == len(actions) or rng.random() < 0.9):
        return rng.choice(others)
    return rng.choice(actions)


def _random_match(rules: Rules, seed: int, check_every: int = 1) -> Game:
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(rules.players))
    deals = 0
    while not game.finished:
        assert deals < 40, "the match does not end"
        state = game.start_deal(rng=rng)
        deals += 1
        steps = 0
        while not state.finished:
            assert steps < MAX_ACTIONS
            seat = state.to_act
            legal = deal_view(state, seat).legal
            assert legal is not None
            actions = legal_action_list(seat, legal)
            assert actions, "the player to act has nothing to do"
            if steps % check_every == 0:
                _check_refusals(state, rng)
                _check_listed_are_accepted(state, actions[:6])
            game.apply(_pick(actions, rng))
            steps += 1
            if steps % check_every == 0:
                _check_conservation(state)
                _check_views(state)
        _check_conservation(state)
        _check_views(state)
        assert state.outcome in ("finished", "drawn")
        if state.outcome == "finished":
            assert sorted(state.places) == list(range(rules.players))
            assert state.places[0] == state.winner
    assert len(game.winners) == 1 and game.wins[game.winners[0]] == rules.target
    assert sum(game.wins) == sum(s.outcome == "finished" for s in game.deals)
    _check_results(game)
    return game


def _check_results(game: Game) -> None:
    """Places 1..n: the match winner first, then by deal wins, ties broken by the order
    out of the last finished deal."""
    results = game_results(game)
    assert [r.seat for r in results] == list(range(game.rules.players))
    assert sorted(r.place for r in results) == list(range(1, game.rules.players + 1))
    assert [r.seat for r in results if r.place == 1] == game.winners
    assert [r.won for r in results] == [seat in game.winners for seat in range(len(results))]
    by_place = sorted(results, key=lambda r: r.place)
    assert [r.points for r in by_place] == sorted(game.wins, reverse=True)
    last = next(s for s in reversed(game.deals) if s.outcome == "finished")
    for better, worse in zip(by_place, by_place[1:], strict=False):
        if better.points == worse.points:
            assert last.places.index(better.seat) < last.places.index(worse.seat)
    assert sum(r.stats["deals_won"] for r in results) == sum(game.wins)


@settings(max_examples=100, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_every_invariant(rules: Rules, seed: int) -> None:
    _random_match(rules, seed, check_every=3)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_option_combination_plays_to_the_end(players: int) -> None:
    for index, options in enumerate(OPTION_SETS):
        rules = Rules.create(players, {name: True for name in options})
        _random_match(rules, 1000 * players + index, check_every=11)


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_a_record_replays_to_the_same_state(rules: Rules, seed: int) -> None:
    game = _random_match(rules, seed, check_every=50)
    record = json.loads(json.dumps(game_to_record(game)))
    again = load_game(record)
    assert replay_output(again) == replay_output(game)
    assert [_snapshot(a) for a in again.deals] == [_snapshot(b) for b in game.deals]
    assert game_to_record(again) == record


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400))
def test_a_record_cut_mid_deal_replays_to_the_same_position(rules: Rules, seed: int,
                                                            cut: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, 0)
    state = game.start_deal(rng=rng)
    for _ in range(cut):
        if state.finished:
            break
        legal = deal_view(state, state.to_act).legal
        assert legal is not None
        game.apply(_pick(legal_action_list(state.to_act, legal), rng, sensible=0.0))
    copy = state.copy()
    out = replay_output(load_game(json.loads(json.dumps(game_to_record(game)))))
    assert out == replay_output(game)
    assert _snapshot(copy) == _snapshot(state)
    if not state.finished:
        nxt = out["next"]
        assert isinstance(nxt, dict) and nxt["seat"] == state.to_act


@settings(max_examples=10, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_a_deal_of_random_play_ends_finished_or_drawn_at_the_limit(rules: Rules,
                                                                    seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, 0)
    state = game.start_deal(rng=rng)
    while not state.finished:
        legal = deal_view(state, state.to_act).legal
        assert legal is not None
        game.apply(rng.choice(legal_action_list(state.to_act, legal)))
    _check_conservation(state)
    if state.outcome == "drawn":
        assert len(state.actions) == MAX_ACTIONS and game.wins == [0] * rules.players
        assert len(state.places) < rules.players and not game.finished
    else:
        assert state.outcome == "finished" and len(state.actions) <= MAX_ACTIONS
        assert game.wins[state.winner] == 1
    assert replay_output(game)["next"] is None
