"""Calibration of the skill ratings (issue 28): does the rating order recover the truth?

Simulated members of known strength play many games of a game: member i plays each hand
(an American deal) at the strong level `--levels HI` with probability p_i, else at the
weak level `LO` (p from 0 to 1 in equal steps, `--members` of them), so the true order is
the order of p. Each game seats `--players` members drawn at random and is played to its
end through the game's GameKind (new_game, choose_action, apply, results), and its hands
are rated through the SAME code as the bot's: `kind.rating_matches` and `MODEL.rate` (and
variants of the model's parameters, side by side on the same games).

After N rated hands per member (mean), it reports the rank correlation (Spearman's rho,
Kendall's tau-b, averaged over `--runs` independent populations) of the true order with:
the ratings' ordinal (what boards sort by) of each model variant, the wins per game and
the points per hand on the same games (a member's totals divided by their games or
hands, fairer than the raw totals, which also reward playing more). Then: the hands per
member each statistic needs for a mean rho of 0.9, the mu the pure members (p = 0, p = 1)
converge to (the AI levels' fixed ratings, each game's rating.AI_MU), and with
`--presets`, whether the presets of Amerikaner rate the same members alike (one rating
per game or per preset).

    python bench/ratings.py                                # default: under ~3 min, one core
    python bench/ratings.py --game american --players 3
    python bench/ratings.py --levels easy,strong --samples 4 --hands 500 --runs 2
    python bench/ratings.py --presets amerikaner,norsk,kani --hands 500
    python bench/ratings.py --hands 200 --absent 0.2       # members sometimes absent

With `--absent A` each member sits out a game with probability A (away before it
begins): the bot's cover (the HI level, as the bot's cover is its strongest) plays all
of it for them; as in the bot (bot/tables/rating_book.py), those deals are not theirs
(their rating unchanged, the deals not counted) and the others are rated as having
played the cover at its level's fixed rating. (A member who leaves mid-deal, whose deal
is clamped, is not simulated.)

It runs the repository's sources (pure Python). The strong AI is expensive (about two
seconds a hand in pure Python at its bot budget): `--samples K` fixes its worlds per
decision at K (weaker than the bot's strong player, which samples 40 ms a decision).
"""

from __future__ import annotations

import sys as _sys
from pathlib import Path as _Path

# Run as `python bench/ratings.py`, this folder comes first on the path, where bench/bot.py
# would shadow the `bot` package: put the repository first instead.
_sys.path[0] = str(_Path(__file__).resolve().parent.parent)

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import GAMES
from bot.tables.ratings import MODEL, Rating, RatingModel

CHECKPOINTS = (10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000)
TABLE = (10, 20, 30, 50, 100, 200, 500, 1000, 2000)


def model_variants() -> dict[str, RatingModel]:
    """The bot's model and the alternatives it is measured against."""
    return {
        "rating": MODEL,
        "beta 25/6": RatingModel(beta=25 / 6),  # openskill's default beta
        "beta 25/3": RatingModel(beta=25 / 3),
        "tau /10": RatingModel(tau=MODEL._model.tau / 10),
        "margin 2": RatingModel(margin=2.0),
        "uncentred": RatingModel(centred=False),
        "not 0-sum": RatingModel(zero_sum=False),
    }


# ----------------------------------------------------------------------------- statistics


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    return pearson(average_ranks(a), average_ranks(b))


def pearson(a: Sequence[float], b: Sequence[float]) -> float:
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    va = sum((x - ma) ** 2 for x in a)
    vb = sum((y - mb) ** 2 for y in b)
    return cov / math.sqrt(va * vb) if va and vb else 0.0


def kendall(a: Sequence[float], b: Sequence[float]) -> float:
    """Kendall's tau-b (ties in either list allowed)."""
    concordant = discordant = ties_a = ties_b = 0
    n = len(a)
    for i in range(n):
        for j in range(i + 1, n):
            da, db = a[i] - a[j], b[i] - b[j]
            if da == 0 and db == 0:
                continue
            if da == 0:
                ties_a += 1
            elif db == 0:
                ties_b += 1
            elif (da > 0) == (db > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_a)
                            * (concordant + discordant + ties_b))
    return (concordant - discordant) / denominator if denominator else 0.0


# ----------------------------------------------------------------------------- simulation


@dataclass
class Member:
    p: float  # the probability of playing a hand at the strong level
    ratings: dict[str, Rating] = field(default_factory=dict)  # by model variant
    hands: int = 0  # rated hands
    games: int = 0
    wins: float = 0.0  # co-winners share a win
    points: float = 0.0
    played: int = 0  # hands of their games (rated or not), for points per hand


@dataclass
class Snapshot:
    """Correlations with the true order at one checkpoint, one run."""

    rho: dict[str, float]
    tau: dict[str, float]
    mus: dict[str, list[float]]  # the bot model's mu by member, and sigma


def set_strong(samples: int) -> None:
    """A fixed number of worlds per strong decision, whatever the machine's load."""
    if not samples:
        return
    from bot.games.american.ai import strong as american_strong
    from bot.games.amerikaner.ai import strong as amerikaner_strong

    amerikaner_strong.STRONG_BUDGET = 0.0
    amerikaner_strong.MIN_SAMPLES = amerikaner_strong.MAX_SAMPLES = samples
    american_strong.STRONG_BUDGET = 0.0
    american_strong.MIN_WORLDS = american_strong.MAX_WORLDS = samples


def deals_of(game: Any) -> Sequence[Any]:
    """The game's hands (Amerikaner) or deals (American): to know when one ends."""
    return game.hands if hasattr(game, "hands") else game.deals


def draw_levels(seated: Sequence[Member | None], levels: tuple[str, str],
                rng: random.Random, absent: frozenset[int] = frozenset()) -> list[str]:
    """Each member's level for a hand; an AI seat (None) plays the weak level, an absent
    member's cover the strong one."""
    return [levels[1] if seat in absent else levels[0] if m is None
            else levels[rng.random() < m.p] for seat, m in enumerate(seated)]


def play_game(kind: Any, rules: Any, seated: list[Member | None], levels: tuple[str, str],
              rng: random.Random, cap: int, absent: frozenset[int] = frozenset()) -> Any:
    """One game to its end, or to `cap` finished hands (random players in Amerikaner go
    below zero for ever); each member draws its level anew for every hand."""
    n = len(seated)
    game, _ = kind.new_game(rules, rng.randrange(n), rng)
    playing = draw_levels(seated, levels, rng, absent)
    count = len(deals_of(game))
    while not kind.finished(game):
        seat = kind.to_act(game)
        action = kind.choose_action(game, seat, playing[seat], rng)
        kind.apply(game, action, rng)
        if len(deals_of(game)) != count:  # a new hand was dealt: new levels
            count = len(deals_of(game))
            if count > cap:
                break
            playing = draw_levels(seated, levels, rng, absent)
    return game


def record_game(kind: Any, game: Any, seated: list[Member | None],
                models: dict[str, RatingModel], ai: Rating,
                absent: frozenset[int] = frozenset(), cover: Rating | None = None
                ) -> None:
    """Rate the game's hands with every model variant (AI seats fixed at `ai`; the
    `absent` members' as the bot rates them: unchanged, the others rated as against the
    cover, fixed at `cover`); count the members' wins and points (an absent member's
    too: the board's wins count games, however played)."""
    fixed = [m is None for m in seated]
    for match in kind.rating_matches(game):
        for name, model in models.items():
            before = [ai if m is None else m.ratings[name] for m in seated]
            after = model.rate(match, before, fixed)
            if absent:
                assert cover is not None
                against = model.rate(match, [cover if seat in absent else rating
                                             for seat, rating in enumerate(before)],
                                     [f or seat in absent for seat, f in enumerate(fixed)])
            for seat, (member, rating) in enumerate(zip(seated, after, strict=True)):
                if member is None:
                    continue
                if seat in absent:
                    rating = before[seat]
                elif absent:
                    rating = against[seat]
                member.ratings[name] = rating
        for seat in match.seats:
            member = seated[seat]
            if member is not None and seat not in absent:
                member.hands += 1
    played = len([d for d in deals_of(game) if d.finished])
    if kind.finished(game):
        results = [(r.seat, r.won, r.points) for r in kind.results(game)]
    else:  # stopped at the cap: who leads has won
        totals = kind.running_totals(game)[-1]
        results = [(seat, total == max(totals), total) for seat, total in enumerate(totals)]
    winners = sum(won for _, won, _ in results)
    for seat, won, points in results:
        member = seated[seat]
        if member is None:
            continue
        member.games += 1
        member.wins += won / winners
        member.points += points
        member.played += played


def statistics_of(members: list[Member], models: Sequence[str]) -> dict[str, list[float]]:
    stats = {name: [m.ratings[name].ordinal for m in members] for name in models}
    stats["wins"] = [m.wins / max(m.games, 1) for m in members]
    stats["points"] = [m.points / max(m.played, 1) for m in members]
    return stats


def run_population(args: argparse.Namespace, preset: str | None, seed: int,
                   checkpoints: Sequence[int]) -> dict[int, Snapshot]:
    """One population of members playing until the last checkpoint: a snapshot at each."""
    kind = GAMES[args.game]
    rules = kind.make_rules(preset, args.players, {})
    rng = random.Random(seed)
    models = model_variants()
    if args.pure:  # half the members always at the weak level, half always strong
        members = [Member(float(i % 2)) for i in range(args.members)]
    else:
        members = [Member(i / (args.members - 1)) for i in range(args.members)]
    for member in members:
        member.ratings = {name: model.initial() for name, model in models.items()}
    truth = [m.p for m in members]
    levels = tuple(args.levels.split(","))
    assert len(levels) == 2
    snapshots: dict[int, Snapshot] = {}
    pending = list(checkpoints)
    ai = Rating(args.ai_mu, 1.0)
    # The cover plays the HI level: rated for the others at that level's fixed rating,
    # on this bench's scale (--cover-mu, as --ai-mu for the LO level).
    cover = Rating(args.cover_mu, 1.0)
    # The weaker a member, the more often they play alone with AI seats of the weak level
    # (--ai-tables): the worst case for ranking by wins and points.
    shelter = [1.05 - m.p for m in members]
    while pending:
        seated: list[Member | None]
        if rng.random() < args.ai_tables:
            seated = [rng.choices(members, shelter)[0]] + [None] * (args.players - 1)
            rng.shuffle(seated)
        else:
            seated = list(rng.sample(members, args.players))
        absent = frozenset(seat for seat, m in enumerate(seated)
                           if m is not None and rng.random() < args.absent)
        game = play_game(kind, rules, seated, (levels[0], levels[1]), rng, args.cap,
                         absent)
        record_game(kind, game, seated, models, ai, absent, cover)
        mean_hands = statistics.fmean(m.hands for m in members)
        while pending and mean_hands >= pending[0]:
            stats = statistics_of(members, list(models))
            snapshots[pending.pop(0)] = Snapshot(
                {k: spearman(truth, v) for k, v in stats.items()},
                {k: kendall(truth, v) for k, v in stats.items()},
                {"mu": [m.ratings["rating"].mu for m in members],
                 "sigma": [m.ratings["rating"].sigma for m in members],
                 "p": truth})
    return snapshots


# ----------------------------------------------------------------------------- report


def mean_of(runs: list[dict[int, Snapshot]], n: int, pick: Callable[[Snapshot], float]
            ) -> float:
    return statistics.fmean(pick(run[n]) for run in runs)


def report(runs: list[dict[int, Snapshot]], checkpoints: Sequence[int]) -> None:
    names = list(runs[0][checkpoints[0]].rho)
    shown = [n for n in checkpoints if n in TABLE] or list(checkpoints)
    print("\nSpearman rho / Kendall tau-b with the true order, mean over runs")
    print(f"{'hands/member':>13} " + " ".join(f"{name:>15}" for name in names))
    for n in shown:
        cells = [f"{mean_of(runs, n, lambda s, k=k: s.rho[k]):+.2f} / "
                 f"{mean_of(runs, n, lambda s, k=k: s.tau[k]):+.2f}" for k in names]
        print(f"{n:>13} " + " ".join(f"{cell:>15}" for cell in cells))
    print("\nhands per member for a mean rho >= 0.9 (>= 0.8)")
    for name in names:
        needed = []
        for goal in (0.9, 0.8):
            hit = [n for n in checkpoints
                   if mean_of(runs, n, lambda s, k=name: s.rho[k]) >= goal]
            needed.append(str(hit[0]) if hit else f"> {checkpoints[-1]}")
        print(f"  {name:>10}: {needed[0]} ({needed[1]})")
    last = checkpoints[-1]
    mus = [statistics.fmean(run[last].mus["mu"][i] for run in runs)
           for i in range(len(runs[0][last].mus["mu"]))]
    sigmas = [statistics.fmean(run[last].mus["sigma"][i] for run in runs)
              for i in range(len(mus))]
    print(f"\nthe bot's model after {last} hands/member, by p (mean over runs):")
    truth = runs[0][last].mus["p"]
    for p, mu, sigma in zip(truth, mus, sigmas, strict=True):
        print(f"  p={p:.2f}: mu {mu:6.2f}  sigma {sigma:5.2f}  ordinal {mu - 3 * sigma:6.2f}")
    weak = [mu for p, mu in zip(truth, mus, strict=True) if p == 0]
    strong = [mu for p, mu in zip(truth, mus, strict=True) if p == 1]
    gap = statistics.fmean(strong) - statistics.fmean(weak)
    print(f"  always weak: mu {statistics.fmean(weak):.2f}; always strong: mu "
          f"{statistics.fmean(strong):.2f}; gap {gap:.2f}; mean of all "
          f"{statistics.fmean(mus):.2f}")
    for n in (n for n in checkpoints if n in (20, 50)):
        sig = statistics.fmean(statistics.fmean(run[n].mus["sigma"]) for run in runs)
        print(f"  mean sigma after {n} hands/member: {sig:.2f}")


def compare_presets(by_preset: dict[str, list[dict[int, Snapshot]]], n: int) -> None:
    """Do the presets rate the same members alike? Spearman between the presets' mean
    mu orders, and each preset's spread (mu of p=1 minus mu of p=0)."""
    print(f"\npresets after {n} hands/member (mean mu over runs):")
    mean_mu = {}
    for preset, runs in by_preset.items():
        count = len(runs[0][n].mus["mu"])
        mean_mu[preset] = [statistics.fmean(run[n].mus["mu"][i] for run in runs)
                           for i in range(count)]
        mu = mean_mu[preset]
        print(f"  {preset:>10}: " + " ".join(f"{x:6.2f}" for x in mu)
              + f"   spread {mu[-1] - mu[0]:+.2f}")
    presets = list(mean_mu)
    for i, a in enumerate(presets):
        for b in presets[i + 1:]:
            diffs = [abs(x - y) for x, y in zip(mean_mu[a], mean_mu[b], strict=True)]
            print(f"  {a} vs {b}: rho {spearman(mean_mu[a], mean_mu[b]):+.2f}, "
                  f"mean |mu difference| {statistics.fmean(diffs):.2f}, max {max(diffs):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="amerikaner", choices=sorted(GAMES))
    parser.add_argument("--preset", default=None, help="the game's preset (its default)")
    parser.add_argument("--presets", default=None,
                        help="comma-separated presets to compare (same members in each)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--members", type=int, default=9)
    parser.add_argument("--levels", default="random,easy", help="LO,HI: the mixed levels")
    parser.add_argument("--hands", type=int, default=1000, help="hands per member at the end")
    parser.add_argument("--runs", type=int, default=4, help="independent populations")
    parser.add_argument("--samples", type=int, default=4,
                        help="the strong AI's worlds per decision (0: its time budget)")
    parser.add_argument("--cap", type=int, default=30,
                        help="a game stops after this many hands (the leader wins)")
    parser.add_argument("--pure", action="store_true",
                        help="members play one level only (half each): the levels' mu")
    parser.add_argument("--ai-tables", type=float, default=0.0,
                        help="the share of games one member plays with AI seats of the weak "
                        "level, the weaker members more often")
    parser.add_argument("--ai-mu", type=float, default=13.2,
                        help="the AI seats' fixed mu (--pure measures it: the weak level's; "
                        "random in Amerikaner 13.2)")
    parser.add_argument("--cover-mu", type=float, default=38.4,
                        help="the cover's (the HI level's) fixed mu for --absent (--pure "
                        "measures it: easy against random in Amerikaner 38.4)")
    parser.add_argument("--absent", type=float, default=0.0,
                        help="the chance a member sits out a game, the cover playing it "
                        "(rated as the bot rates a covered deal)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    set_strong(args.samples)
    checkpoints = [n for n in CHECKPOINTS if n <= args.hands]
    presets = args.presets.split(",") if args.presets else [args.preset]
    print(f"{args.game}, {args.players} players, {args.members} members (p = 0..1), levels "
          f"{args.levels}, {args.runs} runs, up to {args.hands} hands/member, presets "
          f"{', '.join(str(p or 'default') for p in presets)}"
          + (f", {args.ai_tables:.0%} of games at AI tables (AI mu {args.ai_mu})"
             if args.ai_tables else "")
          + (f", members absent from {args.absent:.0%} of their games"
             if args.absent else ""))
    start = time.perf_counter()
    by_preset = {}
    for preset in presets:
        runs = []
        for r in range(args.runs):
            runs.append(run_population(args, preset, args.seed * 1000 + r, checkpoints))
            print(f"  run {r + 1}/{args.runs} of {preset or 'default'}: "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
        by_preset[str(preset)] = runs
        print(f"\n== preset {preset or 'default'} ({time.perf_counter() - start:.0f} s)")
        report(runs, checkpoints)
    if len(presets) > 1:
        compare_presets(by_preset, checkpoints[-1])
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
