"""Amerikaner and Kani hands as rated matches (bot/games/amerikaner/rating.py, issue 28):
every kind of hand (a number bid with a partner, a called card nobody holds, no card to
call, the Amerikaner bid, Kani, thrown in, redeal, all passed and played, jokers, 3 and 5
players), the conformance records' hands against their expected outcomes, and random
games (hypothesis): every seat in exactly one team, ranks as the outcome says."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import GAMES
from bot.games.amerikaner.deal import Deal
from bot.games.amerikaner.game import Game
from bot.games.amerikaner.hand import FAILED, MADE, REDEAL, THROWN_IN, Hand
from bot.games.amerikaner.rating import POOL, hand_match, rating_matches
from bot.games.amerikaner.record import load_game
from bot.games.amerikaner.rules import PRESETS, Rules
from bot.tables.ratings import MODEL, RatedMatch
from tests.core_helpers import card, make_deal, parse_step

KIND = GAMES["amerikaner"]
CONFORMANCE = Path(__file__).parent.parent / "fixtures" / "conformance" / "valid"


def holder(deal: Deal, name: str) -> int:
    return next(s for s, held in enumerate(deal.hands) if card(name) in held)


def play(preset: str, players: int, options: dict[str, object] | None,
         fixed: dict[int, str], steps: list[str], seed: int = 0, kitty: str | None = None
         ) -> Game:
    """A game whose first hand (dealer 0) is dealt with `fixed` (the rest shuffled by
    `seed`), opened with `steps`, and played out with random legal cards (seeded)."""
    rules = Rules.create(preset, players, options or {})
    game = Game(rules, 0)
    game.start_hand(make_deal(rules, fixed, kitty, seed=seed))
    for step in steps:
        game.apply(parse_step(step))
    hand = game.current
    assert hand is not None
    rng = random.Random(seed)
    while not hand.finished:
        legal = [c for c in range(64) if hand.legal_play_mask() >> c & 1]
        game.play(hand.to_act, rng.choice(legal))
    return game


def team_made(hand: Hand, team: tuple[int, ...], contract: int) -> bool:
    """Made or failed, counted here from the tricks (not from the hand's outcome)."""
    return sum(hand.tricks_won[s] for s in team) >= contract


def only_match(game: Game) -> RatedMatch:
    matches = rating_matches(game)
    assert len(matches) == 1
    assert matches == KIND.rating_matches(game)  # the GameKind method is the same
    return matches[0]


FOUR = "AS 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H"


@pytest.mark.parametrize("seed", range(8))
def test_number_bid_with_partner_is_bidder_and_partner_against_the_defenders(
        seed: int) -> None:
    steps = ["1 bid 7", "2 pass", "3 pass", "0 pass", "1 discard 2C 3C 4C 5C",
             "1 play AS call KS"]
    rules = Rules.create("amerikaner", 4, {})
    partner = holder(make_deal(rules, {1: FOUR}, "2C 3C 4C 5C", seed=seed), "KS")
    game = play("amerikaner", 4, None, {1: FOUR}, steps, seed, kitty="2C 3C 4C 5C")
    match = only_match(game)
    hand = game.hands[0]
    team = (1, partner)
    defenders = tuple(s for s in range(4) if s not in team)
    made = team_made(hand, team, 7)
    assert match.teams == (team, defenders)
    assert match.ranks == ((0, 1) if made else (1, 0))
    tricks = sum(hand.tricks_won[s] for s in team)
    # The winning side is ahead by the tricks over the contract plus one, or under it.
    assert match.scores == ((tricks - 6, 0.0) if made else (0.0, 7 - tricks))


def test_random_play_gives_both_made_and_failed_hands() -> None:
    """The parametrized test above meets both outcomes (its seeds are chosen so)."""
    steps = ["1 bid 7", "2 pass", "3 pass", "0 pass", "1 discard 2C 3C 4C 5C",
             "1 play AS call KS"]
    outcomes = {play("amerikaner", 4, None, {1: FOUR}, steps, seed,
                     kitty="2C 3C 4C 5C").hands[0].outcome for seed in range(8)}
    assert outcomes == {MADE, FAILED}


def test_called_card_held_by_nobody_is_one_against_the_rest() -> None:
    """3 players without kitty: 2C is out of the pack; the bidder holds every other club,
    so the call must be 2C, which nobody holds: the bidder plays alone (1 against 2)."""
    bidder = "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C AS KS QS JS 10S"
    game = play("amerikaner", 3, {"no_kitty": True}, {1: bidder},
                ["1 bid 9", "2 pass", "0 pass", "1 play AC call 2C"])
    match = only_match(game)
    assert game.hands[0].partner == -1
    assert match.teams == ((1,), (0, 2))
    assert match.ranks == (0, 1)  # 17 tricks: the clubs and spades win everything


def test_no_card_to_call_is_one_against_the_rest() -> None:
    """The bidder holds every spade and leads one: nothing to call (4 players, no kitty)."""
    spades = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"
    game = play("amerikaner", 4, {"no_kitty": True}, {1: spades},
                ["1 bid 7", "2 pass", "3 pass", "0 pass", "1 play AS"])
    match = only_match(game)
    assert match.teams == ((1,), (0, 2, 3))
    assert match.ranks == (0, 1)


@pytest.mark.parametrize("seed", range(3))
def test_the_amerikaner_bid_is_one_against_the_rest(seed: int) -> None:
    game = play("amerikaner", 4, None, {}, ["1 bid amerikaner", "1 discard 2C 3C 4C 5C"],
                seed, kitty="2C 3C 4C 5C")
    match = only_match(game)
    hand = game.hands[0]
    made = hand.tricks_won[1] == 12
    assert match.teams == ((1,), (0, 2, 3))
    assert match.ranks == ((0, 1) if made else (1, 0))
    assert match.scores == ((1.0, 0.0) if made else (0.0, 12.0 - hand.tricks_won[1]))


@pytest.mark.parametrize("seed", range(3))
def test_kani_is_played_and_rated_with_a_partner(seed: int) -> None:
    kani_hand = "AS KS QS JS 10S 9S AH KH QH JH 10H 9H AD"
    rules = Rules.create("kani", 4, {})
    partner = holder(make_deal(rules, {1: kani_hand}, seed=seed), "8S")
    game = play("kani", 4, None, {1: kani_hand}, ["1 bid kani", "1 play AS call 8S"], seed)
    match = only_match(game)
    team = (1, partner)
    assert match.teams == (team, tuple(s for s in range(4) if s not in team))
    assert match.ranks == ((0, 1) if team_made(game.hands[0], team, 13) else (1, 0))


def test_thrown_in_and_redealt_hands_are_not_rated() -> None:
    rules = Rules.create("amerikaner", 4, {})
    game = Game(rules, 0)
    game.start_hand(make_deal(rules, seed=0))
    for step in ("1 pass", "2 pass", "3 pass", "0 pass"):
        game.apply(parse_step(step))
    assert game.hands[0].outcome == THROWN_IN
    assert rating_matches(game) == [] and hand_match(game.hands[0]) is None
    norsk = Rules.create("norsk", 4, {})
    game = Game(norsk, 0)
    game.start_hand(make_deal(norsk, {1: "AS 10S 9S 8S 7S 6S 5S 4S 3S 2S AH 10H 9H"}, seed=0))
    game.apply(parse_step("1 redeal"))
    assert game.hands[0].outcome == REDEAL
    assert rating_matches(game) == []


def test_an_unfinished_hand_is_not_rated() -> None:
    rules = Rules.create("amerikaner", 4, {})
    game = Game(rules, 0)
    game.start_hand(make_deal(rules, seed=0))
    game.apply(parse_step("1 bid 6"))
    assert rating_matches(game) == []


@pytest.mark.parametrize("seed", range(3))
def test_all_passed_and_played_is_everyone_for_themselves_by_tricks(seed: int) -> None:
    game = play("amerikaner", 4, {"all_pass_play": True}, {},
                ["1 pass", "2 pass", "3 pass", "0 pass"], seed)
    match = only_match(game)
    tricks = game.hands[0].tricks_won
    assert match.teams == ((0,), (1,), (2,), (3,))
    for a in range(4):
        for b in range(4):  # fewer tricks is better (-1 a trick); equal tricks tie
            assert (match.ranks[a] < match.ranks[b]) == (tricks[a] < tricks[b])
    assert match.scores == tuple(-float(t) for t in tricks)


def test_jokers_with_five_players_is_two_against_three() -> None:
    rules = Rules.create("amerikaner", 5, {"jokers": True})
    bidder = "AS KS QS JS 10S AH KH QH JH 10H 9H"
    partner = holder(make_deal(rules, {1: bidder}, seed=0), "9S")
    game = play("amerikaner", 5, {"jokers": True}, {1: bidder},
                ["1 bid 6", "2 pass", "3 pass", "4 pass", "0 pass", "1 play AS call 9S"])
    match = only_match(game)
    team = (1, partner)
    assert match.teams == (team, tuple(s for s in range(5) if s not in team))
    assert len(match.teams[1]) == 3
    assert match.ranks == ((0, 1) if team_made(game.hands[0], team, 6) else (1, 0))


def test_three_players_with_a_partner_is_two_against_one() -> None:
    bidder = "AS KS QS JS 10S 9S AH KH QH JH 10H 9H AD KD QD JD"
    rules = Rules.create("amerikaner", 3, {})
    partner = holder(make_deal(rules, {1: bidder}, kitty="2C 3C 4C 5C", seed=0), "8S")
    game = play("amerikaner", 3, None, {1: bidder},
                ["1 bid 8", "2 pass", "0 pass", "1 discard 2C 3C 4C 5C", "1 play AS call 8S"],
                kitty="2C 3C 4C 5C")
    match = only_match(game)
    assert match.teams == ((1, partner), tuple(s for s in range(3) if s not in (1, partner)))


def test_one_rating_per_game_whatever_the_preset() -> None:
    pools = {KIND.rating_pool(KIND.make_rules(p, 4, {})) for p in PRESETS}
    assert pools == {POOL} == {"amerikaner"}


# ----------------------------------------------------------------- conformance records


def _expected_match(hand: dict, players: int) -> RatedMatch | None:
    """The match a hand of a record's expected output (tests/fixtures/conformance) describes."""
    if hand["outcome"] == "all_pass_played":
        tricks = hand["tricks"]
        return RatedMatch(tuple((s,) for s in range(players)),
                          tuple(sum(o < t for o in tricks) for t in tricks))
    if hand["outcome"] not in ("made", "failed"):
        return None
    bidder, partner = hand["bidder"], hand["partner"]
    team = (bidder,) if partner is None else (bidder, partner)
    ranks = (0, 1) if hand["outcome"] == "made" else (1, 0)
    return RatedMatch((team, tuple(s for s in range(players) if s not in team)), ranks)


RECORDS = sorted(CONFORMANCE.glob("game_*[0-9].json"))


def test_conformance_records_are_present() -> None:
    assert len(RECORDS) > 20


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_conformance_record_hands_rate_as_their_expected_outcomes(path: Path) -> None:
    record = json.loads(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    if "error" in expected:
        pytest.skip("a record that does not replay")
    game = load_game(record)
    players = game.rules.players
    wanted = [m for m in (_expected_match(h, players) for h in expected["hands"]) if m]
    got = rating_matches(game)
    assert [(m.teams, m.ranks) for m in got] == [(m.teams, m.ranks) for m in wanted]


# ----------------------------------------------------------------- random games


games = st.tuples(st.sampled_from(["amerikaner", "norsk", "kani"]), st.integers(3, 6),
                  st.sets(st.sampled_from(["no_kitty", "jokers", "all_pass_play",
                                           "kitty_trick", "two_wins", "free_trump"])),
                  st.integers(0, 2**32 - 1))


def _random_game(preset: str, players: int, options: set[str], seed: int) -> Game | None:
    try:
        rules = KIND.make_rules(preset, players, {o: True for o in options})
    except Exception:  # a combination the rules refuse
        return None
    rng = random.Random(seed)
    game, _ = KIND.new_game(rules, rng.randrange(rules.players), rng)
    levels = [rng.choice(["random", "easy"]) for _ in range(rules.players)]
    while not KIND.finished(game) and len(game.hands) <= 6:
        seat = KIND.to_act(game)
        KIND.apply(game, KIND.choose_action(game, seat, levels[seat], rng), rng)
    return game


@settings(max_examples=40, deadline=None)
@given(games)
def test_every_seat_in_one_team_and_ranks_as_the_outcome(params: tuple) -> None:
    game = _random_game(*params)
    if game is None:
        return
    n = game.rules.players
    matches = rating_matches(game)
    rated = [h for h in game.hands if h.finished and h.outcome not in (THROWN_IN, REDEAL)]
    assert len(matches) == len(rated)
    ratings = [MODEL.initial()] * n
    for hand, match in zip(rated, matches, strict=True):
        assert sorted(match.seats) == list(range(n))  # every seat in exactly one team
        if hand.outcome in (MADE, FAILED):
            team = match.teams[0]
            assert team[0] == hand.bidder and len(match.teams) == 2
            assert match.ranks == ((0, 1) if hand.outcome == MADE else (1, 0))
            assert hand.called_holder in team or hand.called_holder < 0 \
                or hand.called < 0
        else:
            tricks = hand.tricks_won
            assert all((match.ranks[a] < match.ranks[b]) == (tricks[a] < tricks[b])
                       for a in range(n) for b in range(n))
        fixed = [seat % 2 == 0 for seat in range(n)]
        after = MODEL.rate(match, ratings, fixed)
        assert all(after[s] == ratings[s] for s in range(n) if fixed[s])
        ratings = after
