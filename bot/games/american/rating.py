"""American deals as rated matches (issue 28; bot/tables/ratings.py).

Each finished deal is rated by its finishing places: every player is their own team,
ranked by the order they went out (the first out best, the one left holding cards last);
with 2 players that is one against the other. A drawn deal (1,000 actions without an
end: docs/rules-american.md section 6) is not rated: nobody went out, so it ranks nobody.
There is no margin: a deal has only its order (`RatedMatch.scores` is None).
"""

from __future__ import annotations

from bot.tables.ratings import RatedMatch

from .game import Game
from .state import FINISHED, DealState

# One rating per game: the house rules and the number of players change the same skill.
POOL = "american"

# The AI levels' fixed ratings in this pool, measured as Amerikaner's (rating.py there).
AI_MU = {"easy": 16.2, "strong": 33.8}

# Rated deals a member needs to be settled on American's board (before it: provisional).
# A deal is short and a game is one deal by default, so a member playing one evening a
# week plays about five: ten is within about two weeks. bench/ratings.py --game american
# --players 3 --hands 30 --runs 4 --seed 2: the rating order's rank correlation with the
# true order is 0.91 after 10 deals a member (0.97 after 20), where Amerikaner's needs
# 200 hands (docs/ratings.md).
MIN_RATED_DEALS = 10


def rating_matches(game: Game) -> list[RatedMatch]:
    """Every finished deal of the match so far, in play order."""
    return [deal_match(state) for state in game.deals if state.outcome == FINISHED]


def deal_match(state: DealState) -> RatedMatch:
    """A finished deal's places as a rated match: team i is the seat that finished i-th."""
    places = state.places
    return RatedMatch(tuple((seat,) for seat in places), tuple(range(len(places))))
