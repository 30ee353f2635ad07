"""The rating model (bot/tables/ratings.py): RatedMatch's checks, Rating's ordinal, and
RatingModel.rate: winners rise, losers fall, fixed (AI) seats and seats outside the match
never change, average sides of unequal size are even, the AI levels are ordered."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bot.games  # noqa: F401  (the registry hands each game's AI figures to the model)
from bot.tables.ratings import AI_RATINGS, MIN_RATED_HANDS, MODEL, RatedMatch, Rating, RatingModel


def test_rated_match_refuses_a_malformed_match() -> None:
    with pytest.raises(ValueError):
        RatedMatch(((0, 1), (2, 3)), (0,))  # a rank missing
    with pytest.raises(ValueError):
        RatedMatch(((0, 1),), (0,))  # one team is no match
    with pytest.raises(ValueError):
        RatedMatch(((0, 1), (1, 2)), (0, 1))  # seat 1 twice
    with pytest.raises(ValueError):
        RatedMatch(((0, 1), (2, 3)), (0, 1), (1.0,))  # a score missing
    assert RatedMatch(((0, 2), (1, 3)), (0, 1)).seats == (0, 2, 1, 3)


def test_initial_rating_and_ordinal() -> None:
    first = MODEL.initial()
    assert first.ordinal == pytest.approx(first.mu - 3 * first.sigma)
    assert first.ordinal == pytest.approx(0.0)  # a new member starts at 0 on the board
    assert MIN_RATED_HANDS > 0


@pytest.mark.parametrize("pool", ["amerikaner", "american"])
def test_ai_levels_are_fixed_and_ordered(pool: str) -> None:
    easy, strong = MODEL.ai("easy", pool), MODEL.ai("strong", pool)
    assert easy.mu < MODEL.initial().mu < strong.mu  # a new member is between the levels
    assert easy.sigma < MODEL.initial().sigma  # an AI level's skill is known
    assert MODEL.ai("nonsense", pool) == Rating(MODEL.initial().mu, easy.sigma)


@pytest.mark.parametrize("pool", [None, "unknown"])
def test_a_pool_without_figures_rates_ai_levels_as_a_new_member(pool: str | None) -> None:
    # The platform names no game: a pool no game gave figures for has no favourite.
    assert MODEL.ai("easy", pool) == MODEL.ai("strong", pool) == Rating(MODEL.initial().mu,
                                                                         1.0)


def test_every_games_pool_has_its_ai_levels() -> None:
    from bot.games import GAMES

    for kind in GAMES.values():
        pool = kind.rating_pool(kind.make_rules(None, kind.default_players, {}))
        assert set(kind.ai_levels) <= set(AI_RATINGS[pool])


def test_winners_rise_losers_fall_and_fixed_seats_stay() -> None:
    seats = [MODEL.initial()] * 3 + [MODEL.ai("strong", "amerikaner")]
    match = RatedMatch(((0, 2), (1, 3)), (0, 1))
    after = MODEL.rate(match, seats, [False, False, False, True])
    assert after[0].mu > seats[0].mu and after[2].mu > seats[2].mu
    assert after[1].mu < seats[1].mu
    assert after[3] == seats[3]  # the AI seat is fixed
    assert all(a.sigma < s.sigma for a, s in zip(after[:3], seats[:3], strict=True))


def test_beating_a_strong_ai_moves_you_more_than_beating_an_easy_one() -> None:
    me = MODEL.initial()
    match = RatedMatch(((0,), (1,)), (0, 1))
    fixed = [False, True]
    over_easy = MODEL.rate(match, [me, MODEL.ai("easy", "amerikaner")], fixed)[0]
    over_strong = MODEL.rate(match, [me, MODEL.ai("strong", "amerikaner")], fixed)[0]
    assert over_strong.mu - me.mu > over_easy.mu - me.mu > 0


def test_average_sides_of_unequal_size_are_even() -> None:
    """A lone bidder of average skill against three average defenders is an even match
    (centred mu): making it gains what failing it costs, and the changes sum to zero, the
    three defenders sharing what the bidder gains or loses (zero-sum)."""
    seats = [MODEL.initial()] * 4
    solo_won = MODEL.rate(RatedMatch(((0,), (1, 2, 3)), (0, 1)), seats, [False] * 4)
    solo_lost = MODEL.rate(RatedMatch(((0,), (1, 2, 3)), (1, 0)), seats, [False] * 4)
    gain = solo_won[0].mu - seats[0].mu
    assert gain > 0
    assert solo_lost[0].mu - seats[0].mu == pytest.approx(-gain)
    assert gain == pytest.approx(RatingModel(zero_sum=False).rate(
        RatedMatch(((0,), (1, 2, 3)), (0, 1)), seats, [False] * 4)[0].mu - 25)
    for seat in (1, 2, 3):
        assert solo_lost[seat].mu - seats[seat].mu == pytest.approx(gain / 3)
        assert solo_won[seat].mu - seats[seat].mu == pytest.approx(-gain / 3)
    # openskill's plain team sums would call three average defenders near-certain
    # winners, so beating them would be worth far more than losing to them costs.
    plain = RatingModel(centred=False)
    won = plain.rate(RatedMatch(((0,), (1, 2, 3)), (0, 1)), seats, [False] * 4)
    lost = plain.rate(RatedMatch(((0,), (1, 2, 3)), (1, 0)), seats, [False] * 4)
    assert won[0].mu - 25 > 2 * (25 - lost[0].mu)
    # And without the sides' shares each defender gains what the lone bidder loses.
    raw = RatingModel(zero_sum=False).rate(RatedMatch(((0,), (1, 2, 3)), (1, 0)), seats,
                                           [False] * 4)
    assert raw[1].mu - 25 == pytest.approx(25 - raw[0].mu)


def test_ai_seats_and_settled_members_do_not_hold_a_new_member_back() -> None:
    """The sides' shares scale by the sides' sizes only: a member playing with and against
    AI seats moves as far as openskill says, and a new member (large sigma) moves more
    than the settled member they beat."""
    me = MODEL.initial()
    easy = MODEL.ai("easy", "amerikaner")
    match = RatedMatch(((0, 1), (2, 3)), (0, 1))
    fixed = [False, True, True, True]
    plain = RatingModel(zero_sum=False)
    assert MODEL.rate(match, [me, easy, easy, easy], fixed)[0] == \
        plain.rate(match, [me, easy, easy, easy], fixed)[0]
    settled = Rating(25.0, 2.0)
    after = MODEL.rate(RatedMatch(((0,), (1,)), (0, 1)), [me, settled], [False, False])
    assert after[0].mu - me.mu > 5 * (settled.mu - after[1].mu) > 0


def test_ties_share_the_change() -> None:
    seats = [MODEL.initial()] * 3
    after = MODEL.rate(RatedMatch(((0,), (1,), (2,)), (0, 1, 1)), seats, [False] * 3)
    assert after[1] == after[2]
    assert after[0].mu > seats[0].mu > after[1].mu


def test_the_bot_model_ignores_the_margin() -> None:
    """openskill's margin makes a large upset win count LESS than a narrow one (it reads
    the margin as the winner's strength, which makes the upset less surprising): not the
    evidence a margin should be, so the bot's model rates by ranks alone (margin 0)."""
    seats = [MODEL.initial(), Rating(30.0, 5.0)]
    small = RatedMatch(((0,), (1,)), (0, 1), (1.0, 0.0))
    large = RatedMatch(((0,), (1,)), (0, 1), (9.0, 0.0))
    assert MODEL.rate(small, seats, [False, False]) == MODEL.rate(large, seats, [False] * 2)
    with_margin = RatingModel(margin=2.0)
    assert with_margin.rate(large, seats, [False] * 2)[0].mu < \
        with_margin.rate(small, seats, [False] * 2)[0].mu


ratings = st.builds(Rating, st.floats(0, 50), st.floats(0.5, 9))


@given(st.lists(ratings, min_size=2, max_size=6), st.data())
def test_rating_changes_no_fixed_seat_and_no_seat_outside_the_match(
        seats: list[Rating], data: st.DataObject) -> None:
    n = len(seats)
    fixed = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    playing = data.draw(st.lists(st.sampled_from(range(n)), min_size=2, max_size=n,
                                 unique=True))
    cut = data.draw(st.integers(1, len(playing) - 1))
    teams = (tuple(playing[:cut]), tuple(playing[cut:]))
    ranks = tuple(data.draw(st.permutations([0, 1])))
    after = MODEL.rate(RatedMatch(teams, ranks), seats, fixed)
    assert len(after) == n
    for seat in range(n):
        if fixed[seat] or seat not in playing:
            assert after[seat] == seats[seat]
            continue
        else:
            winner = seat in teams[ranks.index(0)]
            assert (after[seat].mu >= seats[seat].mu) == winner or \
                after[seat].mu == seats[seat].mu
            assert after[seat].sigma <= seats[seat].sigma + MODEL._model.tau
    # Each side's changes are openskill's scaled to the smallest side's size.
    plain = RatingModel(zero_sum=False).rate(RatedMatch(teams, ranks), seats, fixed)
    smallest = min(len(team) for team in teams)
    for team in teams:
        for seat in team:
            assert after[seat].mu - seats[seat].mu == pytest.approx(
                (plain[seat].mu - seats[seat].mu) * smallest / len(team), abs=1e-9)
