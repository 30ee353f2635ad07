"""Skill ratings: the model that turns rated matches into members' ratings.

Platform code: it knows no game. A game maps its finished units of play (an Amerikaner
hand, an American deal) to `RatedMatch`es (`GameKind.rating_matches`); the service rates
them with `MODEL.rate` as they finish, and `amerikaner db rerate` replays the stored
records through the same two functions, so the ratings are always derived from the
records and rebuilt exactly.

The model is openskill's Plackett-Luce (Weng and Lin's Bayesian approximation, MIT, the
patent-free relative of TrueSkill): a rating is a belief about skill, a mean `mu` and an
uncertainty `sigma`; boards sort by the conservative `ordinal` (mu - 3 sigma), so that a
member with a few lucky hands does not top them. Plackett-Luce takes any number of teams
of any size with full finishing orders (American's places at 3 to 5 players, ties
included) and reduces to Bradley-Terry for two teams (an Amerikaner hand).

Teams of unequal size. openskill's team strength is the SUM of its members' mu, which
would make three defenders of average skill a near-certain favourite over a lone
Amerikaner bidder of the same skill, and would reward a member for the size of their
side. In these games the sides are unequal by the rules, not by strength (the bidder
chose a contract the bid's side can make), so `rate` hands openskill each mu as its
distance from the starting mean (mu - MU): a team's strength is then how much better
than average its members are, and average sides of any size are even. The per-member
update depends only on these differences, so this changes no other part of the model.
Then each side's changes are scaled to the smallest side's size (`_side_shares`: zero-sum
for equal sigmas, so failed solo bids do not inflate the ratings), and beta is three
times openskill's (a hand is mostly the deal's luck): both measured by bench/ratings.py,
whose figures docs/ratings.md quotes. Scores (a margin) are not used: openskill's
margin counts a big upset win for less than a narrow one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = ["MIN_RATED_HANDS", "MODEL", "Rating", "RatedMatch", "RatingModel", "min_rated",
           "set_min_rated"]

# openskill's defaults (Weng and Lin's) for a new member: mu 25 with sigma 25/3, so their
# ordinal starts at 0.
MU = 25.0
SIGMA = MU / 3
# beta, the spread of one hand's result around the players' skills: three times
# openskill's default (sigma / 2), because a hand of cards is mostly the deal's luck.
# bench/ratings.py measured it: with this beta the rating order reaches a rank correlation
# of 0.9 with the true order in about half the hands the default needs (docs/ratings.md).
BETA = 3 * SIGMA / 2
# The sigma a member's uncertainty grows by before each match, so a rating keeps moving
# with a member's form instead of freezing after thousands of hands (openskill's default).
TAU = MU / 300
# The z of the ordinal: mu - Z * sigma, about the 99.9% lower bound of the skill.
Z = 3.0


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """One rated unit of play (an Amerikaner/Kani hand, an American deal): teams of SEATS
    with their finishing ranks (0 best; equal ranks tie) and, where the model takes a
    margin, scores (higher is better) — None when there is none."""

    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.ranks) != len(self.teams) or len(self.teams) < 2:
            raise ValueError(f"a match needs two or more teams, each with a rank: {self}")
        if self.scores is not None and len(self.scores) != len(self.teams):
            raise ValueError(f"one score per team: {self}")
        seats = [seat for team in self.teams for seat in team]
        if len(set(seats)) != len(seats) or not all(self.teams):
            raise ValueError(f"each seat in one team, no empty team: {self}")

    @property
    def seats(self) -> tuple[int, ...]:
        """Every seat that played in the match."""
        return tuple(seat for team in self.teams for seat in team)


@dataclass(frozen=True, slots=True)
class Rating:
    """A belief about a member's skill: the mean `mu` and its uncertainty `sigma`."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative value boards sort by: skill is above it with ~99.9% belief."""
        return self.mu - Z * self.sigma


# The AI levels' fixed ratings, by rating pool (GameKind.rating_pool) and level. Each game
# keeps its own measured figures (GameKind.ai_mu, from bench/ratings.py --pure: members who
# always play one level, rated against each other from the same start, settle there); the
# registry hands them in with `set_ai_ratings`, so the platform names no game. Their sigma
# is small: a level's skill is known, so a hand against an AI seat moves a member's rating
# by what that known strength says of the result. A level without figures rates as a new
# member's mu.
AI_SIGMA = 1.0
AI_RATINGS: dict[str, dict[str, Rating]] = {}


def set_ai_ratings(pool: str, mu: Mapping[str, float]) -> None:
    """A pool's AI levels are rated at these mu (the registry calls it for each game)."""
    AI_RATINGS[pool] = {level: Rating(value, AI_SIGMA) for level, value in mu.items()}


class RatingModel:
    """The one place the model and its parameters live."""

    def __init__(self, *, mu: float = MU, sigma: float = SIGMA, beta: float = BETA,
                 tau: float = TAU, margin: float = 0.0,
                 ai: dict[str, dict[str, Rating]] | None = None, centred: bool = True,
                 zero_sum: bool = True) -> None:
        # margin 0: a match's scores are not used (see `rate`). centred False: openskill's
        # own team sums; zero_sum False: its own changes, not scaled by the sides' sizes
        # (bench/ratings.py compares them).
        self.mu = mu
        self.centred = centred
        self.zero_sum = zero_sum
        self.sigma = sigma
        self.margin = margin
        # The registry's live table unless given one (the games register after import).
        self.ai_ratings = AI_RATINGS if ai is None else dict(ai)
        self._model = PlackettLuce(mu=mu, sigma=sigma, beta=beta, tau=tau, margin=margin)

    def initial(self) -> Rating:
        """A member's first rating."""
        return Rating(self.mu, self.sigma)

    def ai(self, level: str, pool: str | None = None) -> Rating:
        """An AI seat's FIXED rating of its level in a rating pool (GameKind.rating_pool;
        the levels differ by game); a level or pool without figures rates as a new
        member's mu."""
        return self.ai_ratings.get(pool or "", {}).get(level, Rating(self.mu, AI_SIGMA))

    def cover(self, pool: str | None = None) -> str:
        """The level of the AI that covers an absent member in a pool: its strongest
        (the highest fixed rating; "" where the pool has no figures)."""
        levels = self.ai_ratings.get(pool or "", {})
        return max(levels, key=lambda level: levels[level].mu, default="")

    def rate(self, match: RatedMatch, seats: Sequence[Rating],
             fixed: Sequence[bool]) -> list[Rating]:
        """The new rating of every seat, in seat order, after `match`: seats outside the
        match and fixed seats (AI) come back unchanged."""
        if len(fixed) != len(seats):
            raise ValueError("one `fixed` flag per seat")
        model = self._model
        centre = self.mu if self.centred else 0.0
        teams: list[list[Any]] = [
            [model.rating(mu=seats[seat].mu - centre, sigma=seats[seat].sigma)
             for seat in team] for team in match.teams]
        # openskill takes ranks or scores, not both; scores count only with a margin.
        if self.margin > 0 and match.scores is not None:
            rated = model.rate(teams, scores=list(match.scores))
        else:
            rated = model.rate(teams, ranks=[float(rank) for rank in match.ranks])
        new_mu = {seat: new.mu + centre for team, new_team in zip(match.teams, rated, strict=True)
                  for seat, new in zip(team, new_team, strict=True)}
        new_sigma = {seat: new.sigma for team, new_team in zip(match.teams, rated, strict=True)
                     for seat, new in zip(team, new_team, strict=True)}
        if self.zero_sum:
            new_mu = _side_shares(match, new_mu, seats)
        out = list(seats)
        for seat, mu in new_mu.items():
            if not fixed[seat]:
                out[seat] = Rating(mu, new_sigma[seat])
        return out


def _side_shares(match: RatedMatch, new_mu: dict[int, float], seats: Sequence[Rating]
                 ) -> dict[int, float]:
    """`new_mu` with each side's changes scaled to the smallest side's size.

    openskill moves each member of a side as far as a lone opponent of the same sigma
    moves: a lone bidder's failure would lift each of three defenders by what the bidder
    loses, and the ratings would inflate with every failed solo bid (bench/ratings.py
    measured +6 mu in 500 hands a member). A member of a side of three moves a third as
    far (of two against one, half): with equal sigmas what the winners gain the losers
    lose. Each member's own sigma still sets how far they move against their side (a new
    member moves more than a settled one), and AI seats play no part in the scaling."""
    smallest = min(len(team) for team in match.teams)
    share = {seat: smallest / len(team) for team in match.teams for seat in team}
    return {seat: seats[seat].mu + (mu - seats[seat].mu) * share[seat]
            for seat, mu in new_mu.items()}


MODEL = RatingModel()

# Rated hands (American: deals) a member needs to appear on a rating board: about two
# games of Amerikaner. It only keeps off members who have barely played: the ordinal
# already ranks the uncertain low (bench/ratings.py: sigma is still about 7.3 after 20
# hands, against about 3 once settled, and the rating order reaches a rank correlation
# of 0.8 with the true order after 50-75 hands a member, 0.9 after 150).
MIN_RATED_HANDS = 20

# A pool's own number, where its game sets one (GameKindBase.min_rated: American's deals
# are shorter and more of them are played; README, "Ratings"); the registry hands it in.
MIN_RATED: dict[str, int] = {}


def set_min_rated(pool: str, deals: int) -> None:
    """Members of `pool` are settled on its board after `deals` rated deals."""
    MIN_RATED[pool] = deals


def min_rated(pool: str) -> int:
    """The rated deals a member of `pool` needs to be settled (not provisional)."""
    return MIN_RATED.get(pool, MIN_RATED_HANDS)
