"""Benchmark: how many turns each player takes in a game (issue 52), the figures behind
the lobby's estimate of how long a game over days may take at its turn timer
(GameKind.turns_each: Amerikaner's TURNS_EACH_TO_52, American's TURNS_EACH_DEAL).

Whole games of easy AI players, seeded, of each game and player count: the turns each
player took (bids, discards or exchanges and cards; in American plays, pick-ups, swaps
and flips), their mean, lowest and highest over the games.

    python bench/game_turns.py              # 12 games each
    python bench/game_turns.py --games 40
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.games import GAMES  # noqa: E402

CASES = [("amerikaner", "amerikaner", 3), ("amerikaner", "amerikaner", 4),
         ("amerikaner", "kani", 4), ("amerikaner", "amerikaner", 5),
         ("amerikaner", "norsk", 6), ("american", None, 2), ("american", None, 3),
         ("american", None, 4), ("american", None, 5)]


def turns_each(game: str, preset: str | None, players: int, seed: int) -> float:
    """The mean turns a player took in one game of easy AIs."""
    kind = GAMES[game]
    rng = random.Random(seed)
    state, _ = kind.new_game(kind.make_rules(preset, players, {}), 0, rng)
    counts = [0] * players
    while not kind.finished(state):
        seat = kind.to_act(state)
        if seat is None:
            break
        kind.apply(state, kind.choose_action(state, seat, "easy", rng), rng)
        counts[seat] += 1
    return statistics.mean(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    for game, preset, players in CASES:
        runs = [turns_each(game, preset, players, seed) for seed in range(args.games)]
        rules = GAMES[game].make_rules(preset, players, {})
        print(f"{game:<10} {preset or '-':<10} {players} players, target {rules.target}: "
              f"{statistics.mean(runs):6.1f} turns each (lowest {min(runs):.1f}, highest "
              f"{max(runs):.1f}; the bot's figure {GAMES[game].turns_each(rules)})")


if __name__ == "__main__":
    main()
