"""A finished game's results for the leaderboard: each seat's place, points, whether it
won, and this game's own statistics, as plain data the store keeps without knowing the
game (its counters are summed per member)."""

from __future__ import annotations

from bot.tables.kind import SeatResult

from .game import Game
from .hand import ALL_PASS_PLAYED, FAILED, MADE

# The hands that count as played: finished with a score (not redealt, not abandoned).
_PLAYED = (MADE, FAILED, ALL_PASS_PLAYED)


def game_results(game: Game) -> list[SeatResult]:
    """Every seat's result, in seat order (AI seats too: the caller decides whose to
    keep). ``stats``: contracts made and failed as the bidder, top bids (Amerikaner or
    Kani) made, and hands played."""
    totals = game.totals
    return [
        SeatResult(seat, 1 + sum(other > points for other in totals), points,
                   seat in game.winners, _seat_stats(game, seat))
        for seat, points in enumerate(totals)
    ]


def _seat_stats(game: Game, seat: int) -> dict[str, int]:
    made = failed = top = played = 0
    for hand in game.hands:
        if hand.outcome not in _PLAYED:
            continue
        played += 1
        if hand.bidder == seat and not hand.all_pass:
            if hand.outcome == MADE:
                made += 1
                top += hand.high_bid == game.rules.top_value
            else:
                failed += 1
    return {"contracts_made": made, "contracts_failed": failed, "top_bids_made": top,
            "hands_played": played}
