"""A finished match's results for the leaderboard: each seat's place, its deal wins as
points, whether it won, and this game's own statistics, as plain data the store keeps
without knowing the game."""

from __future__ import annotations

from bot.tables.kind import SeatResult

from .game import Game
from .state import FINISHED


def final_places(game: Game) -> list[int]:
    """Each seat's place (1 for the winner), in seat order: by deal wins, then by the
    order the players went out of the last finished deal (with 3 to 5 players, and in a
    single deal, that deal's `places`). Seats alike in both share a place."""
    last_places: list[int] = []
    for state in reversed(game.deals):
        if state.outcome == FINISHED:
            last_places = state.places
            break
    n = game.rules.players

    def key(seat: int) -> tuple[int, int]:
        order = last_places.index(seat) if seat in last_places else n
        return (-game.wins[seat], order)

    keys = [key(seat) for seat in range(n)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def game_results(game: Game) -> list[SeatResult]:
    """Every seat's result, in seat order. `stats`: deals won (first out), deals played
    to the end, and deals lost (last with cards)."""
    places = final_places(game)
    return [SeatResult(seat, places[seat], game.wins[seat], seat in game.winners,
                       _seat_stats(game, seat)) for seat in range(game.rules.players)]


def _seat_stats(game: Game, seat: int) -> dict[str, int]:
    won = played = last = 0
    for state in game.deals:
        if state.outcome != FINISHED:
            continue
        played += 1
        won += state.places[0] == seat
        last += state.places[-1] == seat
    return {"deals_won": won, "deals_played": played, "deals_last": last}
