"""Scoring of one played hand (docs/rules-amerikaner.md section 7), as a pure function.

Compiled with mypyc in regular installs (setup.py): `Hand` scores every hand with it, and
AI play-outs score thousands."""

from __future__ import annotations

from collections.abc import Sequence

from .rules import Rules


def score_hand(rules: Rules, contract: int, bidder: int, partner: int,
               tricks: Sequence[int], all_pass: bool = False) -> tuple[list[int], bool]:
    """Each seat's score for a played hand, and whether the contract was made.

    `contract` is the winning bid as a number (`rules.top_value` for the top bid),
    `partner` is -1 when the bidder played alone, `tricks` the tricks won per seat (with
    `kitty_trick`, the bidder's discards already counted). An all-pass hand scores -1 per
    trick won, and "made" is then meaningless (False).
    """
    if all_pass:
        return [-t for t in tricks], False
    top = contract == rules.max_bid + 1  # rules.top_value (a property: a Python call)
    team_tricks = tricks[bidder] + (tricks[partner] if partner >= 0 else 0)
    if rules.style.scoring == "fixed":
        made = team_tricks >= (13 if top else contract)
        value = 50 if top else 10 if "fixed_ten" in rules.options else contract
        # Made: the team scores; failed: each opponent scores. Nobody loses points.
        return [value if (seat in (bidder, partner)) == made else 0
                for seat in range(rules.players)], made
    scores = list(tricks)  # everyone outside the team scores +1 per trick
    if top:
        made = team_tricks == sum(tricks)  # the bidder alone won every trick
        scores[bidder] = 52 if made else -52
        return scores, made
    made = team_tricks >= contract
    sign = 1 if made else -1
    scores[bidder] = sign * contract * (2 if "bidder_double" in rules.options else 1)
    if partner >= 0:
        half = "partner_half" in rules.options
        scores[partner] = sign * ((contract + 1) // 2 if half else contract)
    return scores, made
