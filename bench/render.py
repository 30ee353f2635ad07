"""Rendering pictures: time and size of the public table's picture and the running-totals
chart (bot/render/pictures.py).

Plays random games (random legal actions, fixed seed) of 3 to 6 players to a random point
in the middle of a trick, builds the table's Scene through the GameKind
(`table_scene`) and times `table_picture` alone; then times `totals_chart` for random
running totals of about ten deals. Prints the median and p99 time per picture and the
PNG's size (median and largest). A few pictures are drawn first and not counted: the
first draws fill the caches of fonts, card faces and words, as in a bot that has run a
while. The players' names come from a few; a second line draws tables whose names no
picture had before (a name's words are then drawn, not taken from the cache), as at a
bot with many tables.

    python bench/render.py [--tables 400] [--charts 200] [--seed 1]
"""

from __future__ import annotations

import sys as _sys
from pathlib import Path as _Path

# Run as `python bench/NAME.py`, this folder comes first on the path, where bench/bot.py
# would shadow the `bot` package: put the repository first instead.
_sys.path[0] = str(_Path(__file__).resolve().parent.parent)

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.games.amerikaner.ai.random_player import random_action
from bot.games.amerikaner.kind import AMERIKANER
from bot.render.pictures import table_picture, totals_chart
from bot.tables.scene import Scene

NAMES = ("alice", "Bjørn", "Åse Ærlig", "dave", "Émile the Long-Named", "frank", "Kari",
         "Ola Nordmann")
WARM_UP = 20  # pictures drawn before timing: caches are filled in a running bot


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def table_scene(rng: random.Random, new_names: bool = False) -> Scene:
    """The public table of a random game of 3 to 6 players in the middle of a trick; with
    `new_names`, names no picture had before (the words of a name are drawn anew)."""
    players = rng.randint(3, 6)
    options = {"jokers": True} if players == 6 or rng.random() < 0.2 else {}
    kind = AMERIKANER
    game, _deal = kind.new_game(kind.make_rules("amerikaner", players, options), 0, rng)
    while True:
        seat = kind.to_act(game)
        assert seat is not None
        kind.apply(game, random_action(kind.seat_view(game, seat), rng), rng)
        hand = kind.public_view(game).hand
        if hand is not None and hand.trick is not None and rng.random() < 0.15:
            names = rng.sample(NAMES, players)
            if new_names:
                names = [f"{name} {rng.randrange(10**6)}" for name in names]
            return kind.words.table_scene(game, names)


def chart_input(rng: random.Random) -> tuple[list[str], list[tuple[int, ...]]]:
    """Names and running totals of about ten deals for 3 to 6 players."""
    players = rng.randint(3, 6)
    deals = rng.randint(8, 12)
    running = [0] * players
    totals = []
    for _ in range(deals):
        running = [total + rng.randint(-10, 14) for total in running]
        totals.append(tuple(running))
    return rng.sample(NAMES, players), totals


def measure(draw: Callable[[Any], bytes], inputs: Sequence[Any]) -> dict[str, float]:
    for item in inputs[:WARM_UP]:
        draw(item)
    times, sizes = [], []
    for item in inputs:
        start = time.perf_counter()
        data = draw(item)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data))
    return {"count": len(inputs), "median": statistics.median(times),
            "p99": _percentile(times, 0.99), "size_median": statistics.median(sizes) / 1000,
            "size_max": max(sizes) / 1000}


def report(what: str, stats: dict[str, float]) -> str:
    return (f"{what}: {stats['count']:.0f} pictures, median {stats['median']:.1f} ms, "
            f"p99 {stats['p99']:.1f} ms; size median {stats['size_median']:.1f} KB, "
            f"max {stats['size_max']:.1f} KB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--charts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    scenes = [table_scene(rng) for _ in range(args.tables)]
    charts = [chart_input(rng) for _ in range(args.charts)]
    fresh = [table_scene(rng, new_names=True) for _ in range(args.tables)]
    print(report("table, mid-trick, 3-6 players", measure(table_picture, scenes)))
    print(report("the same, every name new", measure(table_picture, fresh)))
    print(report("running totals, 8-12 deals, 3-6 players", measure(
        lambda item: totals_chart("Amerikaner", item[0], item[1], target=52), charts)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
