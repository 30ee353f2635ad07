"""The rules of American (docs/rules-american.md) case by case, through the core's public
methods: who starts, what may be played, draws, burns, pick-ups, take-ups, the options,
the end of a deal and of a match, and refusals with their codes."""

from __future__ import annotations

import pytest

from bot.cards import FULL_PACK, cards_of, parse_card
from bot.errors import GameError
from bot.games.american.actions import Action
from bot.games.american.deal import Deal
from bot.games.american.game import Game
from bot.games.american.results import game_results
from bot.games.american.rules import Rules
from bot.games.american.state import (
    FLIP_PHASE,
    NO_RANK,
    PLAY_PHASE,
    SWAP_PHASE,
    DealState,
    rank_playable,
    sorted_cards,
)
from bot.games.american.views import deal_view, known_cards


def c(text: str) -> int:
    return parse_card(text)


def cs(text: str) -> tuple[int, ...]:
    return tuple(c(t) for t in text.split())


def rows(*texts: str) -> tuple[tuple[int, ...], ...]:
    return tuple(cs(t) for t in texts)


def make_deal(down: tuple[str, ...], up: tuple[str, ...], hand: tuple[str, ...],
              deck_top: str = "") -> Deal:
    """A deal with these rows per seat; the deck is `deck_top`, then the rest of the pack
    from the highest card down."""
    d, u, h, top = rows(*down), rows(*up), rows(*hand), cs(deck_top)
    used = {card for part in (d, u, h) for row in part for card in row} | set(top)
    rest = [card for card in cards_of(FULL_PACK) if card not in used]
    return Deal(down=d, up=u, hand=h, deck=top + tuple(rest))


# Two seats: seat 1 holds the 3 and starts (dealer 0).
DOWN2 = ("4S 9D KC", "2H 7S QD")
UP2 = ("AS 6H 10C", "3C JH 8D")
HAND2 = ("5C 5D KH", "3S 9C 4H")


def two_player(options: dict[str, object] | None = None, deck_top: str = "",
               hand: tuple[str, ...] = HAND2, up: tuple[str, ...] = UP2,
               down: tuple[str, ...] = DOWN2) -> DealState:
    rules = Rules.create(2, options or {})
    return DealState(rules, 0, make_deal(down, up, hand, deck_top))


def empty_deck(state: DealState) -> None:
    """Test set-up: the deck drawn out (its cards set aside as burned), as late in a deal."""
    state.burned.extend(state.deck[state.deck_pos:])
    state.deck_pos = len(state.deck)


def refused(code: str, call: object, *args: object) -> GameError:
    assert callable(call)
    with pytest.raises(GameError) as info:
        call(*args)
    assert info.value.code == code, info.value
    return info.value


# ----------------------------------------------------------------- who starts


def test_the_lowest_card_in_hand_starts() -> None:
    state = two_player()
    assert (state.starter, state.to_act, state.phase) == (1, 1, PLAY_PHASE)


def test_a_tie_is_broken_by_the_next_lowest_cards() -> None:
    state = two_player(hand=("3D 5D KH", "3S 6C 4H"))  # 3 4 6 beats 3 5 K
    assert state.starter == 1
    state = two_player(hand=("3D 5D 6D", "3S 5C 7H"))
    assert state.starter == 0


def test_equal_hands_start_from_the_dealers_left() -> None:
    rules = Rules.create(3)
    deal = make_deal(("4S 4H 4D", "5S 5H 5D", "6S 6H 6D"),
                     ("7S 7H 7D", "8S 8H 8D", "9S 9H 9D"),
                     ("2S 3S KS", "2H 3H KH", "2D 3D KD"))
    assert DealState(rules, 0, deal).starter == 1
    assert DealState(rules, 1, deal).starter == 2
    assert DealState(rules, 2, deal).starter == 0


# ----------------------------------------------------------------- what may be played


@pytest.mark.parametrize(("rank", "top", "same", "ok"), [
    ("5", None, False, True), ("3", "2", False, True), ("2", "K", False, True),
    ("10", "A", False, True), ("2", "A", False, True), ("K", "A", False, False),
    ("A", "A", False, True), ("A", "K", False, True), ("9", "9", False, False),
    ("9", "9", True, True), ("8", "9", True, False), ("J", "9", False, True),
])
def test_which_rank_may_go_on_the_pile(rank: str, top: str | None, same: bool,
                                       ok: bool) -> None:
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    top_rank = NO_RANK if top is None else ranks.index(top)
    assert rank_playable(ranks.index(rank), top_rank, same) is ok


def test_a_play_of_several_cards_of_one_rank_then_the_draw_back_to_three() -> None:
    state = two_player(deck_top="6S 6D 7C", hand=("5C 5D KH", "3S 3H 4H"))
    state.play(1, cs("3S 3H"))
    assert state.pile == list(cs("3S 3H"))
    assert state.hands[1] == sum(1 << x for x in cs("4H 6S 6D"))
    assert state.deck_size == 52 - 18 - 2
    assert (state.to_act, state.phase) == (0, PLAY_PHASE)


@pytest.mark.parametrize(("cards", "code"), [
    ("", "wrong_card_count"), ("AS", "card_not_in_hand"), ("3S 3S", "card_not_in_hand"),
    ("3S 4H", "mixed_ranks"),
])
def test_bad_plays_are_refused_and_change_nothing(cards: str, code: str) -> None:
    state = two_player()
    before = (state.hands[:], state.pile[:], state.to_act, len(state.actions))
    refused(code, state.play, 1, cs(cards))
    assert (state.hands[:], state.pile[:], state.to_act, len(state.actions)) == before


def test_a_lower_rank_is_not_playable_and_a_pickup_is_refused_when_a_play_is_possible(
) -> None:
    state = two_player()
    state.play(1, cs("9C"))
    error = refused("not_playable", state.play, 0, cs("5C"))
    assert error.params["top"] == c("9C")
    error = refused("pickup_not_allowed", state.pickup, 0)
    assert error.params["cards"] == (c("KH"),)
    refused("not_your_turn", state.play, 1, cs("4H"))


def test_a_pickup_takes_the_pile_in_sight_of_all_without_a_draw() -> None:
    state = two_player(hand=("5C 5D 6C", "3S 9C 4H"))
    state.play(1, cs("9C"))
    deck = state.deck_size
    state.pickup(0)
    assert state.pile == [] and state.deck_size == deck
    assert state.hands[0] >> c("9C") & 1 and state.known[0] == 1 << c("9C")
    assert state.to_act == 1
    refused("pickup_not_allowed", state.pickup, 1)  # the pile is empty


def test_the_known_card_is_public_until_it_is_played_again() -> None:
    state = two_player(hand=("5C 5D 6C", "3S 9C 4H"), deck_top="2C 7C")
    state.play(1, cs("9C"))
    state.pickup(0)
    assert c("9C") in deal_view(state, 1).seats[0].known
    assert c("9C") in known_cards(deal_view(state))
    state.play(1, cs("3S"))
    state.play(0, cs("9C"))
    assert deal_view(state).seats[0].known == ()


def test_voluntary_pickup_allows_a_pickup_whenever_the_pile_is_not_empty() -> None:
    state = two_player({"voluntary_pickup": True})
    refused("pickup_not_allowed", state.pickup, 1)
    state.play(1, cs("3S"))
    state.pickup(0)
    assert state.hands[0] >> c("3S") & 1


# ----------------------------------------------------------------- 2s and 10s, burns


def test_a_two_resets_the_pile_and_the_turn_passes() -> None:
    state = two_player(hand=("5C 5D KH", "2S 9C 4H"), down=("4S 9D KC", "3S 7S QD"))
    state.play(1, cs("2S"))
    assert state.to_act == 0 and state.top_rank == 0
    state.play(0, cs("5C"))  # anything goes on a 2


def test_a_ten_burns_the_pile_and_the_same_player_plays_again() -> None:
    state = two_player(hand=("5C 5D KH", "3S 10S 4H"), up=("AS 6H 10C", "3C JH 8D"))
    state.play(1, cs("3S"))
    state.play(0, cs("KH"))
    state.play(1, cs("10S"))
    assert state.pile == [] and state.burned == list(cs("3S KH 10S"))
    assert state.to_act == 1 and state.hands[1].bit_count() == 3  # drew first


def test_several_tens_burn_once() -> None:
    state = two_player(hand=("5C 5D KH", "3S 10S 10H"), up=("AS 6H 10C", "3C JH 8D"),
                       down=("4S 9D KC", "2H 7S 10D"))
    state.play(1, cs("10S 10H"))
    assert state.burned == list(cs("10S 10H")) and state.to_act == 1


def test_four_of_a_rank_burn_across_plays_with_four_burns() -> None:
    hand = ("7C 7D KH", "7S 7H 4H")
    for options, burns in (({"four_burns": True, "same_rank": True}, True),
                           ({"same_rank": True}, False)):
        state = two_player(options, hand=hand, down=("4S 9D KC", "2H 3S QD"))
        assert state.starter == 1
        state.play(1, cs("4H"))
        state.play(0, cs("7C 7D"))
        state.play(1, cs("7S 7H"))
        assert (state.pile == []) is burns
        assert state.to_act == (1 if burns else 0)


def test_aces_on_aces_and_four_aces_burn() -> None:
    state = two_player({"four_burns": True}, hand=("AC AD KH", "AS AH 3S"),
                       up=("9S 6H 10C", "3C JH 8D"), down=("4S 9D KC", "2H 7S QD"))
    state.play(1, cs("3S"))
    state.play(0, cs("AC AD"))
    state.play(1, cs("AS AH"))
    assert state.pile == [] and state.to_act == 1


# ----------------------------------------------------------------- take-ups and going out


def test_the_face_up_then_the_face_down_cards_are_taken_up_as_the_hand_empties() -> None:
    state = two_player(hand=("5C 5D KH", "3S 9C 4H"))
    empty_deck(state)
    state.play(1, cs("3S"))
    state.play(0, cs("5C 5D"))
    state.play(1, cs("9C"))
    state.play(0, cs("KH"))  # seat 0's hand empties: the face-up cards come up at once
    assert state.hands[0] == sum(1 << x for x in cs("AS 6H 10C"))
    assert state.known[0] == state.hands[0] and state.up[0] == []
    assert c("AS") in known_cards(deal_view(state, 1))
    state.pickup(1)  # the 4H cannot go on the king
    state.play(0, cs("10C"))
    assert state.to_act == 0  # burned: seat 0 again
    state.play(0, cs("6H"))
    state.play(1, cs("9C"))
    state.play(0, cs("AS"))  # empty again: the face-down cards, seen only by seat 0
    assert state.hands[0] == sum(1 << x for x in cs("4S 9D KC")) and state.down[0] == []
    assert c("4S") not in known_cards(deal_view(state, 1))
    assert c("4S") not in known_cards(deal_view(state))
    assert c("4S") in known_cards(deal_view(state, 0))


def test_the_first_player_out_wins_a_two_player_deal() -> None:
    state = two_player(hand=("5C 5D KH", "3S 9C 2C"))
    empty_deck(state)
    state.up[1] = []
    state.down[1] = []
    state.play(1, cs("3S"))
    state.play(0, cs("5C"))
    state.play(1, cs("9C"))
    state.play(0, cs("KH"))
    state.play(1, cs("2C"))
    assert state.finished and state.outcome == "finished"
    assert state.places == [1, 0] and state.winner == 1
    refused("wrong_phase", state.pickup, 0)


def test_three_players_play_on_after_the_first_is_out() -> None:
    rules = Rules.create(3)
    deal = make_deal(("4S 9D KC", "2H 7S QD", "2C 2D 3D"),
                     ("AS 6H 10C", "3C JH 8D", "5H 5S 6S"),
                     ("5C 5D KH", "3S 10S 4H", "7H 8H 9H"))
    state = DealState(rules, 0, deal)
    empty_deck(state)
    state.up[1] = []
    state.down[1] = []
    state.play(1, cs("3S"))
    state.play(2, cs("7H"))
    state.play(0, cs("KH"))
    state.play(1, cs("10S"))  # burns; seat 1 plays again
    assert state.to_act == 1
    state.play(1, cs("4H"))  # seat 1 is out; seat 2 is next
    assert state.places == [1] and not state.finished and state.to_act == 2
    state.play(2, cs("8H"))
    assert state.to_act == 0  # seat 1 is skipped


def test_a_ten_as_the_last_card_goes_out_and_the_next_starts_on_an_empty_pile() -> None:
    rules = Rules.create(3)
    deal = make_deal(("4S 9D KC", "2H 7S QD", "2C 2D 3D"),
                     ("AS 6H 10C", "3C JH 8D", "5H 5S 6S"),
                     ("5C 5D KH", "3S 3H 10S", "7H 8H 9H"))
    state = DealState(rules, 0, deal)
    empty_deck(state)
    state.up[1] = []
    state.down[1] = []
    state.play(1, cs("3S 3H"))
    state.play(2, cs("7H"))
    state.play(0, cs("KH"))
    state.play(1, cs("10S"))
    assert state.is_out(1) and state.places == [1]
    assert state.pile == [] and state.burned[-4:] == list(cs("3S 3H 7H KH 10S"))[-4:]
    assert state.to_act == 2 and state.phase == PLAY_PHASE


# ----------------------------------------------------------------- options


def test_swap_exchanges_hand_and_face_up_cards_position_by_position() -> None:
    state = two_player({"swap": True})
    assert (state.phase, state.to_act, state.starter) == (SWAP_PHASE, 1, -1)
    refused("wrong_phase", state.play, 1, cs("3S"))
    refused("not_your_turn", state.swap, 0, (), ())
    refused("wrong_card_count", state.swap, 1, cs("3S"), ())
    refused("card_not_in_hand", state.swap, 1, cs("3S"), cs("AS"))
    refused("card_not_in_hand", state.swap, 1, cs("AS"), cs("3C"))
    state.swap(1, cs("3S 4H"), cs("8D JH"))
    assert state.up[1] == list(cs("3C 4H 3S"))
    assert state.known[1] == sum(1 << x for x in cs("8D JH"))
    assert state.to_act == 0 and state.phase == SWAP_PHASE
    state.swap(0, (), ())
    assert state.phase == PLAY_PHASE and state.starter == 0  # 5 5 K beats 8 9 J


def test_blind_down_turns_over_a_face_down_card_by_position() -> None:
    state = two_player({"blind_down": True}, hand=("5C 5D KH", "3S 3H 3D"))
    empty_deck(state)
    state.up[1] = []
    state.play(1, cs("3S 3H 3D"))  # the hand is gone: no take-up of face-down cards
    assert not state.is_out(1) and state.to_act == 0
    state.play(0, cs("5C 5D"))
    assert state.phase == FLIP_PHASE and state.to_act == 1
    legal = deal_view(state, 1).legal
    assert legal is not None and legal.indexes == (0, 1, 2) and not legal.can_pickup
    refused("wrong_phase", state.pickup, 1)
    refused("wrong_phase", state.play, 1, cs("QD"))
    refused("invalid_index", state.flip, 1, 3)
    refused("invalid_index", state.flip, 1, -1)
    state.flip(1, 2)  # QD on the 5s: played
    assert state.pile[-1] == c("QD") and state.down[1] == list(cs("2H 7S"))
    assert deal_view(state).turned == c("QD")
    state.play(0, cs("KH"))  # seat 0 takes up its face-up cards
    state.flip(1, 1)  # 7S on a king: not playable, picked up with the pile
    assert state.pile == [] and state.to_act == 0
    assert state.hands[1] == sum(1 << x for x in cs("3S 3H 3D 5C 5D QD KH 7S"))
    assert state.known[1] == state.hands[1]


def test_the_owner_never_sees_a_face_down_card_before_it_is_taken_up() -> None:
    for options in ({}, {"blind_down": True}, {"swap": True}):
        state = two_player(options)
        for seat in (None, 0, 1):
            seen = known_cards(deal_view(state, seat))
            assert not seen & {c(t) for t in ["4S", "9D", "KC", "2H", "7S", "QD"]}
            assert not seen & set(state.deck)


# ----------------------------------------------------------------- the match


def _lowest_play(state: DealState) -> Action:
    """Every copy of the lowest rank that may be played, else the pick-up."""
    seat = state.to_act
    playable = sorted_cards(state.playable_mask())
    if not playable:
        return Action.pickup(seat)
    return Action.play(seat, tuple(x for x in playable if x % 13 == playable[0] % 13))


def test_a_match_goes_to_the_target_with_the_deal_passing_left() -> None:
    game = Game(Rules.create(2, {"target": 2}), first_dealer=1)
    while not game.finished:
        assert len(game.deals) < 10
        state = game.start_deal(make_deal(DOWN2, UP2, HAND2))
        while not state.finished:
            game.apply(_lowest_play(state))
    assert [state.dealer for state in game.deals] == [(1 + d) % 2 for d in range(len(game.deals))]
    assert max(game.wins) == 2 and game.winners == [game.wins.index(2)]
    assert game.deal_wins[-1] == game.wins and len(game.deal_wins) == len(game.deals)
    refused("game_over", game.apply, Action.pickup(0))
    refused("game_over", game.start_deal, make_deal(DOWN2, UP2, HAND2))
    places = [r.place for r in game_results(game)]
    assert sorted(places) == [1, 2] and places[game.winners[0]] == 1


def test_an_unfinished_deal_is_not_followed_by_another() -> None:
    game = Game(Rules.create(2))
    game.start_deal(make_deal(DOWN2, UP2, HAND2))
    refused("wrong_phase", game.start_deal, make_deal(DOWN2, UP2, HAND2))


# ----------------------------------------------------------------- rules and deals


@pytest.mark.parametrize(("players", "options", "reason"), [
    (1, {}, "player_count"), (6, {}, "player_count"), ("2", {}, "players_not_whole"),
    (2, {"jokers": True}, "unknown_option"), (2, {"swap": "yes"}, "not_on_or_off"),
    (2, {"target": 0}, "bad_target"), (2, {"target": True}, "bad_target"),
])
def test_bad_rules_are_refused_with_a_reason(players: object, options: dict[str, object],
                                             reason: str) -> None:
    error = refused("invalid_rules", Rules.create, players, options)
    assert error.params["reason"] == reason


def test_rules_round_trip_and_name_their_game() -> None:
    rules = Rules.create(4, {"swap": True, "same_rank": True, "four_burns": False,
                             "target": 3})
    assert rules.to_json() == {"game": "american", "players": 4,
                               "options": {"same_rank": True, "swap": True, "target": 3}}
    assert Rules.from_json(rules.to_json()) == rules
    error = refused("invalid_rules", Rules.from_json, {"game": "amerikaner"})
    assert error.params["reason"] == "wrong_game"


def test_bad_deals_are_refused() -> None:
    rules = Rules.create(2)
    good = make_deal(DOWN2, UP2, HAND2)
    good.validate(rules)
    twice = Deal(good.down, good.up, good.hand, good.deck[:-1] + (good.deck[0],))
    assert refused("invalid_deal", twice.validate, rules).params["reason"] == "twice"
    short = Deal(good.down[:1], good.up, good.hand, good.deck)
    assert refused("invalid_deal", short.validate, rules).params["reason"] == "row_count"
    missing = Deal(good.down, good.up, good.hand, good.deck[:-1])
    assert refused("invalid_deal", missing.validate, rules).params["reason"] == "missing"


# ----------------------------------------------------------------- copies


def test_copies_pickles_and_deep_copies_are_independent() -> None:
    import copy
    import pickle

    state = two_player({"swap": True})
    for twin in (state.copy(), pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        twin.swap(1, (), ())
        assert state.swaps_done == 0 and state.to_act == 1 and twin.to_act == 0
        assert twin.up == state.up and twin.hands == state.hands
    twin = state.copy()
    state.swap(1, cs("3S"), cs("3C"))
    assert twin.up[1] == list(cs("3C JH 8D")) and not twin.actions
