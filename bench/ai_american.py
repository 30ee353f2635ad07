"""American's AI strength and speed, by duplicate play.

Every deal is played once per seat with level A in that seat and level B in every other
(with 2 players: the same deal with the seats swapped), so card luck cancels. For each
pairing it prints how often A's seat won (went out first), with a 95% confidence
interval over the deals (each deal's games averaged, as the games of one deal are not
independent), drawn deals, and the strong player's time per decision (median, p99, max).

By default each pairing is run twice: with the default rules, and with `same_rank`,
`four_burns` and `swap` on; `--options` runs one set of options instead (`none` for the
default rules).

    python bench/ai_american.py [--deals 1000] [--pairs easy-random,strong-easy]
    python bench/ai_american.py --pairs strong-easy --deals 500 --workers 2 --installed
    python bench/ai_american.py --options same_rank,four_burns,swap --players 3

It runs the repository's sources (pure Python), so that edits are what is measured.
`--installed` imports the `bot` package as installed instead, e.g. the compiled one of a
regular install (`pip install .`, see bench/README.md). The first line printed says which.
"""

from __future__ import annotations

import importlib.util as _util
import sys as _sys
from pathlib import Path as _Path

# Run as `python bench/NAME.py`, this folder comes first on the path, where bench/bot.py
# would shadow the `bot` package: put the repository first instead (or, with
# `--installed`, drop this folder and import `bot` as installed, if it is).
_REPO = str(_Path(__file__).resolve().parent.parent)
if "--installed" in _sys.argv[1:]:
    del _sys.path[0]
    if _util.find_spec("bot") is None:
        _sys.path.insert(0, _REPO)
    else:  # (the installed `bot` comes first; the repository for `bench` alone)
        _sys.path.append(_REPO)
else:
    _sys.path[0] = _REPO

import argparse  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from types import FunctionType  # noqa: E402

from bench.tuning import apply_tuning, parse_tuning  # noqa: E402
from bot.games.american.ai import choose_action, easy, strong  # noqa: E402
from bot.games.american.deal import Deal, deal_cards  # noqa: E402
from bot.games.american.rules import Rules  # noqa: E402
from bot.games.american.state import COMPILED, DRAWN, DealState  # noqa: E402
from bot.games.american.views import deal_view  # noqa: E402

EXTRA_OPTIONS = "same_rank,four_burns,swap"  # the second set of options run by default


@dataclass(frozen=True)
class DealJob:
    players: int
    options: tuple[str, ...]
    a: str
    b: str
    seed: int
    budget: float  # strong's time budget per decision, seconds (0: the default)
    worlds: int  # strong's worlds per decision, exactly (0: the time budget decides)
    settings: tuple[tuple[str, float], ...] = ()  # strong's tuning values (`--set`)


@dataclass
class Result:
    wins: list[float] = field(default_factory=list)  # per deal: A's share of its games
    games: int = 0
    drawn: int = 0
    times: list[float] = field(default_factory=list)  # strong's decision times
    cpu: list[float] = field(default_factory=list)  # the same decisions' CPU time


# Opponents that play a variant of the easy policy (easy.py's styles), to measure the
# strong player's model of how each opponent plays (MODEL_PLAY): "spender" plays an ace
# or a 2 before any other rank; "single" one copy at a time; "spender1" both.
STYLES: dict[str, int] = {"spender": easy.SPEND, "single": easy.ONE_COPY,
                          "spender1": easy.SPEND | easy.ONE_COPY}


def play_deal(rules: Rules, deal: Deal, dealer: int, levels: list[str], seed: int,
              times: list[float], cpu: list[float]) -> DealState:
    """One deal played to its end by the given level in each seat."""
    state = DealState(rules, dealer, deal, False)
    rng = random.Random(seed)
    while not state.finished:
        seat = state.to_act
        view = deal_view(state, seat)
        start = time.perf_counter()
        start_cpu = time.thread_time()
        if levels[seat] in STYLES:  # a variant of the easy player (issue 40)
            action = easy.styled_action(view, STYLES[levels[seat]])
        else:
            action = choose_action(view, levels[seat], rng)
        if levels[seat] == "strong":
            times.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - start_cpu)
        state.apply(action)
    return state


def apply_settings(settings: tuple[tuple[str, float], ...]) -> None:
    """Set strong's tuning values (`--set`)."""
    apply_tuning(strong, settings)


def parse_settings(text: str) -> tuple[tuple[str, float], ...]:
    return tuple(parse_tuning(strong, text).items())


def run_deal(job: DealJob) -> tuple[float, int, int, list[float], list[float]]:
    """A's share of wins over the deal's games (A in each seat in turn), the games, the
    drawn games, strong's decision times (wall clock, then CPU)."""
    apply_settings(job.settings)
    if job.budget:
        strong.STRONG_BUDGET = strong.MULTI_BUDGET = job.budget
    if job.worlds:
        # a fixed number of worlds, whatever the machine's load
        strong.STRONG_BUDGET = strong.MULTI_BUDGET = 1e9
        strong.MIN_WORLDS = strong.MULTI_MIN_WORLDS = strong.MAX_WORLDS = job.worlds
    rules = Rules.create(job.players, {name: True for name in job.options})
    rng = random.Random(job.seed)
    deal = deal_cards(rules, rng)
    dealer = job.seed % job.players
    won = drawn = 0
    times: list[float] = []
    cpu: list[float] = []
    for a_seat in range(job.players):
        levels = [job.b] * job.players
        levels[a_seat] = job.a
        state = play_deal(rules, deal, dealer, levels, job.seed * 7 + a_seat, times,
                           cpu)
        if state.outcome == DRAWN:
            drawn += 1
        elif state.winner == a_seat:
            won += 1
    return won / job.players, job.players, drawn, times, cpu


def run_pairing(first: DealJob, deals: int, workers: int) -> Result:
    jobs = [DealJob(first.players, first.options, first.a, first.b, first.seed + i,
                    first.budget, first.worlds, first.settings) for i in range(deals)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            outputs = list(pool.map(run_deal, jobs, chunksize=4))
    else:
        outputs = [run_deal(job) for job in jobs]
    result = Result()
    for share, games, drawn, times, cpu in outputs:
        result.wins.append(share)
        result.games += games
        result.drawn += drawn
        result.times.extend(times)
        result.cpu.extend(cpu)
    return result


def ci95(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def report(result: Result, a: str, b: str) -> None:
    mean, half = ci95(result.wins)
    # Every deal is played as often (A in each seat): the shares' mean times the games
    # is the games won, printed so that runs on other deals can be pooled exactly.
    won = round(mean * result.games)
    print(f"  {a} beats {b} in {100 * mean:.1f}% of {result.games} games ({won} won; "
          f"{len(result.wins)} deals, seats swapped; 95% CI "
          f"[{100 * (mean - half):.1f}%, {100 * (mean + half):.1f}%]); drawn {result.drawn}")
    if result.times:
        times = sorted(result.times)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"    strong decision time: median {1000 * statistics.median(times):.2f} ms, "
              f"p99 {1000 * p99:.2f} ms, max {1000 * times[-1]:.2f} ms "
              f"({len(times)} decisions)")
        cpu = sorted(result.cpu)
        p99 = cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))]
        # CPU time does not grow with the machine's load, which wall time does a lot on
        # a shared machine.
        print(f"    its CPU time: median {1000 * statistics.median(cpu):.2f} ms, "
              f"p99 {1000 * p99:.2f} ms, max {1000 * cpu[-1]:.2f} ms")


def option_sets(text: str | None) -> list[tuple[str, ...]]:
    if text is None:
        return [(), tuple(EXTRA_OPTIONS.split(","))]
    if text in ("", "none"):
        return [()]
    return [tuple(name for name in text.split(",") if name)]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=0,
                        help="deals per pairing (default 1000 for easy-random, 500 for "
                        "pairings with strong: 2,000 and 1,000 games with 2 players)")
    parser.add_argument("--pairs", default="easy-random,strong-easy",
                        help="comma-separated A-B pairings of random, easy, strong, "
                        "spender, single, spender1")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--options", default=None,
                        help=f"comma-separated options, or none (default: none, then "
                        f"{EXTRA_OPTIONS})")
    parser.add_argument("--seed", type=int, default=1,
                        help="the first deal's seed: deal i is seeded SEED + i, so runs "
                        "meant to be on other deals need seeds at least --deals apart")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget", type=float, default=0.0,
                        help="strong's time budget per decision in seconds "
                        f"(default {strong.STRONG_BUDGET})")
    parser.add_argument("--worlds", type=int, default=0,
                        help="strong: exactly this many sampled worlds per decision, no "
                        "time budget (deterministic; for comparing variants)")
    parser.add_argument("--set", default="", metavar="NAME=VALUE,...",
                        help="strong's tuning values (strong.TUNING), e.g. "
                        "--set NEXT_OUT=0 (for comparing variants)")
    parser.add_argument("--installed", action="store_true",
                        help="import the installed `bot` package (e.g. compiled), not the "
                        "repository's sources")
    args = parser.parse_args()
    settings = parse_settings(args.set)
    levels = ("random", "easy", "strong", *STYLES)
    pairs = []
    for pair in args.pairs.split(","):
        a, _, b = pair.partition("-")
        if a not in levels or b not in levels:
            parser.error(f"a pairing is two of {', '.join(levels)}, like strong-easy; "
                         f"not {pair!r}")
        pairs.append((a, b))
    try:
        for options in option_sets(args.options):
            Rules.create(args.players, {name: True for name in options})
    except Exception as exc:  # GameError: the rules' own refusal, said in one line
        parser.error(f"these rules cannot be played: {exc}")
    ai_compiled = not isinstance(strong.strong_action, FunctionType)
    print(f"core {'compiled' if COMPILED else 'pure Python'}, AI "
          f"{'compiled' if ai_compiled else 'pure Python'}, from "
          f"{_Path(strong.__file__).parent.parent}")
    for options in option_sets(args.options):
        print(f"american, {args.players} players, options {', '.join(options) or 'none'}, "
              f"seed {args.seed}" + (f", worlds {args.worlds}" if args.worlds else "")
              + (f", budget {1000 * args.budget:g} ms" if args.budget else "")
              + (f", set {args.set}" if settings else ""))
        for a, b in pairs:
            deals = args.deals or (500 if "strong" in (a, b) else 1000)
            start = time.perf_counter()
            first = DealJob(args.players, options, a, b, args.seed, args.budget,
                            args.worlds, settings)
            result = run_pairing(first, deals, args.workers)
            print(f"{a} vs {b} ({time.perf_counter() - start:.0f} s; the deals seeded "
                  f"{args.seed}-{args.seed + deals - 1}):")
            report(result, a, b)


if __name__ == "__main__":
    main()
