"""Amerikaner and Kani hands as rated matches (issue 28; bot/tables/ratings.py).

A hand is rated as the teams that formed in it: the bidder and the partner (the holder
of the called card) against the defenders, ranked by whether the contract was made. The
bidder plays alone, one against the rest, with the top bid Amerikaner (no call), when no
card could be called (every card of the suit led was the bidder's), and when the called
card lay in the blind or out of the pack (nobody held it). (A bidder cannot call their
own card: docs/rules-amerikaner.md § 5 allows only cards outside the bidder's hand and discards,
so these are all the ways a bidder is left alone.) Kani is played with a partner
and rated like a number bid. Jokers, 3 to 6 players, the kitty and the blind change
nothing here: the hand's outcome and its partner are all that count.

A hand played out after everyone passed (option `all_pass_play`) is every player for
themselves, scored -1 per trick: it is rated as a free-for-all ranked by tricks taken,
fewest first (equal counts tie), as the points rank it. A thrown-in hand (everyone passed,
no play) and a redeal are not rated: no card was played, so they say nothing of skill.

The margin, for a model that takes one (`RatedMatch.scores`): the winning side's score is
ahead of the losing side's by the tricks by which the contract was made, plus one, or by
the tricks by which it failed.
"""

from __future__ import annotations

from bot.tables.ratings import RatedMatch

from .game import Game
from .hand import ALL_PASS_PLAYED, FAILED, MADE, Hand

# One rating per game, whatever the preset (amerikaner, norsk, kani) and options: the
# presets share the skills that count (bidding to the hand, finding and helping the
# partner, card play), and bench/ratings.py measured that the presets rate the same
# members alike (docs/ratings.md), so a member's hands all count toward one rating.
POOL = "amerikaner"

# The AI levels' fixed ratings in this pool (bot/tables/ratings.py), measured with
# bench/ratings.py --pure: members who always play one level, rated against each other
# from 25, settle here (two measurements: 21.5/28.5 and 22.5/28.1; README, "Ratings").
AI_MU = {"easy": 22.0, "strong": 28.3}


def rating_matches(game: Game) -> list[RatedMatch]:
    """Every finished rated hand of the game so far, in play order."""
    matches = []
    for hand in game.hands:
        match = hand_match(hand)
        if match is not None:
            matches.append(match)
    return matches


def hand_match(hand: Hand) -> RatedMatch | None:
    """The rated match of one hand, or None when the hand is not rated (unfinished,
    thrown in, redealt)."""
    if hand.outcome == ALL_PASS_PLAYED:
        return _free_for_all(hand)
    if hand.outcome not in (MADE, FAILED):
        return None
    bidder = hand.bidder
    partner = hand.partner
    team = (bidder,) if partner < 0 or partner == bidder else (bidder, partner)
    defenders = tuple(seat for seat in range(hand.n) if seat not in team)
    tricks = sum(hand.tricks_won[seat] for seat in team)
    contract = hand.high_bid
    if contract == hand.rules.top_value:
        contract = sum(hand.tricks_won)  # every trick (Kani and Amerikaner alike)
    made = hand.outcome == MADE
    margin = float(tricks - contract + 1 if made else contract - tricks)
    ranks = (0, 1) if made else (1, 0)
    scores = (margin, 0.0) if made else (0.0, margin)
    return RatedMatch((team, defenders), ranks, scores)


def _free_for_all(hand: Hand) -> RatedMatch:
    tricks = hand.tricks_won
    teams = tuple((seat,) for seat in range(hand.n))
    ranks = tuple(sum(other < mine for other in tricks) for mine in tricks)
    return RatedMatch(teams, ranks, tuple(-float(t) for t in tricks))
