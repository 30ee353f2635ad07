"""AI strength and speed, by duplicate play.

Whole hands (bidding included): every deal is played again with the levels' seats
swapped (for an odd table, rotated through every seat), so card luck cancels. For each
pairing it prints the average points per hand of each level with a 95% confidence
interval of the difference, contracts made and failed by each level, and for the strong
player the time per decision (median, p99).

Card play only (`--mode cardplay`): the contract is fixed, the same in both rooms: the
easy player bids in every seat (`--contracts auction`, the default; a deal nobody bids
on is replaced by the next), or the seat with the strongest hand by the easy estimate
bids the minimum and everyone else passes (`--contracts forced`: an auction that says
little true about the hands, see bench/README.md). Discards and the opening lead are
the easy player's, which fixes the bidder's team (bidder and the holder of the called
card). The deal is then played twice, as in duplicate bridge: A plays the bidder's team
against B's defence, then B the team against A's defence. The figure is the team's
tricks with A minus the team's tricks with B, per deal (A's gain in tricks, counting
both its declarer play and its defence), with a 95% interval. `--split` plays a third
room, B on both sides, and splits the gain into A's declarer play (A's team against B's
defence, minus B against B) and A's defence (B against B, minus B's team against A's
defence). `--known declarer|defence|all` lets the strong seats of that side see every
hand (they play out their candidates in the true deal instead of sampled ones): the
ceiling of the search, and what not seeing the cards costs it.

Besides the AI's levels, `--pairs` takes two of the bench's own: `alt`, the strong player
with the tuning values of `--alt` (on top of `--set`'s), so that two variants of it play
each other; and `wild`, the easy player who plays a random legal card 30% of the time in
trick play, a stand-in for people who do not play as the easy model the strong player
reads them by.

    python bench/ai.py [--deals 200] [--pairs easy-random,strong-easy]
    python bench/ai.py --mode cardplay --deals 2000 --workers 2
    python bench/ai.py --mode cardplay --deals 300 --samples 15   # fixed work per decision
    python bench/ai.py --mode cardplay --deals 400 --samples 60 --split --known defence
    python bench/ai.py --mode cardplay --deals 400 --samples 60 --diffs base.json
    python bench/ai.py --mode cardplay --deals 400 --samples 60 --set NESTED_LEADS=1 \
        --against base.json    # a variant, compared deal by deal with the first run
    python bench/ai.py --mode cardplay --deals 400 --samples 60 --pairs alt-strong \
        --alt PLAY_MISMATCH=0.1    # two variants of strong against each other

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

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from types import FunctionType
from typing import TypeVar

from bench.tuning import apply_tuning, parse_tuning
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.ai import LEVELS, choose_action, strong
from bot.games.amerikaner.ai.easy import estimate_tricks, predict_team_tricks, suit_len
from bot.games.amerikaner.ai.knowledge import build_knowledge
from bot.games.amerikaner.ai.sim import Sim, sim_from_hand
from bot.games.amerikaner.deal import Deal, deal_cards
from bot.games.amerikaner.hand import BID, COMPILED, DISCARD, EXCHANGE, LEAD, Hand
from bot.games.amerikaner.rules import Rules
from bot.games.amerikaner.views import HandView, hand_view

Job = TypeVar("Job")
Output = TypeVar("Output")


@dataclass
class Result:
    diffs: list[float] = field(default_factory=list)  # per deal: A seats minus B seats
    points: dict[str, list[float]] = field(default_factory=dict)
    made: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)  # strong decision times
    declarer: list[float] = field(default_factory=list)  # per deal, with --split


def _assignments(n: int) -> list[list[int]]:
    """Seat sets for level A: alternate seats, and their complement/rotations."""
    base = [s for s in range(n) if s % 2 == 0] if n % 2 == 0 else list(range(n // 2))
    if n % 2 == 0:
        return [base, [s for s in range(n) if s not in base]]
    return [[(s + r) % n for s in base] for r in range(n)]


def _levels(n: int, a_seats: list[int], a: str, b: str) -> list[str]:
    return [a if s in a_seats else b for s in range(n)]


def play_hand(rules: Rules, deal: Deal, dealer: int, levels: Sequence[str], seed: int,
              times: list[float]) -> Hand:
    rng = random.Random(seed)
    hand = Hand(rules, dealer, deal, validate=False)
    while not hand.finished:
        seat = hand.to_act
        level = levels[seat]
        view = hand_view(hand, seat)
        start = time.perf_counter()
        action = decide(view, level, rng)
        if level in SEARCHING:
            times.append(time.perf_counter() - start)
        hand.apply(action)
    return hand


def _best_seat(rules: Rules, deal: Deal) -> int:
    return max(range(rules.players),
               key=lambda s: estimate_tricks(rules, sum(1 << c for c in deal.hands[s])))


def _fix_contract(hand: Hand) -> None:
    """The best hand bids the minimum, everyone else passes. The dealer must be the seat
    before it (a lone bid after everyone has passed does not end the bidding)."""
    rules = hand.rules
    while hand.phase != BID:  # norsk blind: nobody exchanges
        hand.exchange(hand.to_act, ())
    best = _best_seat(rules, hand.deal)
    assert hand.to_act == best
    while hand.phase == BID:
        seat = hand.to_act
        if seat == best and hand.bidder < 0:
            hand.bid(seat, rules.min_bid)
        else:
            hand.pass_turn(seat)


KNOWN = ("none", "declarer", "defence", "all")


def cardplay_deal(rules: Rules, deal: Deal, dealer: int, a: str, b: str, seed: int,
                  times: list[float], auction: bool = False,
                  observe: Callable[[Hand, int, str], None] | None = None,
                  known: str = "none") -> tuple[float, Hand, Hand] | None:
    """The deal played twice, A's team then B's team declaring; the contract forced
    (`_fix_contract`), or with `auction` bid by the easy player in every seat (None if
    nobody bids: the hand is thrown in). `observe(hand, seat, level)` is called before
    each card-play decision. The strong seats of the side `known` names see every hand
    (`strong.known_world_action` in the true deal)."""
    first = play_room(rules, deal, dealer, a, b, seed, times, auction, observe, known)
    if first is None:
        return None
    second = play_room(rules, deal, dealer, b, a, seed, times, auction, observe, known)
    assert second is not None  # the same auction as in the first room
    return team_tricks(first) - team_tricks(second), first, second


def play_room(rules: Rules, deal: Deal, dealer: int, team_level: str, other_level: str,
              seed: int, times: list[float], auction: bool = False,
              observe: Callable[[Hand, int, str], None] | None = None,
              known: str = "none") -> Hand | None:
    """One room of `cardplay_deal`: the contract reached as there, then `team_level`
    playing the bidder's team and `other_level` the defence."""
    rng = random.Random(seed)
    hand = Hand(rules, dealer, deal, validate=False)
    if auction:
        while hand.phase in (EXCHANGE, BID):
            hand.apply(choose_action(hand_view(hand, hand.to_act), "easy", rng))
        if hand.finished or hand.bidder < 0:
            return None
    else:
        _fix_contract(hand)
    while hand.phase in (DISCARD, LEAD):
        hand.apply(choose_action(hand_view(hand, hand.to_act), "easy", rng))
    team = {hand.bidder, hand.called_holder} - {-1}
    while not hand.finished:
        seat = hand.to_act
        level = team_level if seat in team else other_level
        if observe is not None:
            observe(hand, seat, level)
        start = time.perf_counter()
        view = hand_view(hand, seat)
        if level in SEARCHING and known in ("all", "declarer" if seat in team
                                            else "defence"):
            with _values_of(level):
                action = strong.known_world_action(view, sim_from_hand(hand), rng)
        else:
            action = decide(view, level, rng)
        hand.apply(action)
        if level in SEARCHING:
            times.append(time.perf_counter() - start)
    return hand


def team_tricks(hand: Hand) -> int:
    """The tricks the bidder's team (the bidder and the called card's holder) took."""
    return sum(hand.tricks_won[s] for s in {hand.bidder, hand.called_holder} - {-1})


# A bench level: the strong player with its own tuning values (`--alt`), set around each
# of its decisions, so that two variants of strong can play against each other (e.g. a
# reading tuned to the easy player's play against a player who does not play so).
ALT = "alt"
SEARCHING = ("strong", ALT)
_alt_settings: dict[str, float] = {}
# A bench level that stands for a player who does not play as the easy model says: the
# easy player, but in trick play a random legal card WILD_SHARE of the time.
WILD = "wild"
WILD_SHARE = 0.3


def decide(view: HandView, level: str, rng: random.Random) -> Action:
    """`choose_action`, and the bench's levels: `alt` (strong with `--alt`'s values) and
    `wild` (easy, with a random card now and then)."""
    if level == WILD:
        legal = view.legal
        assert legal is not None and view.seat is not None
        trick_play = legal.phase == "play" or (legal.phase == "lead" and not legal.calls)
        if trick_play and rng.random() < WILD_SHARE:
            return Action.play(view.seat, rng.choice(legal.cards))
        return choose_action(view, "easy", rng)
    with _values_of(level):
        return choose_action(view, "strong" if level == ALT else level, rng)


@contextmanager
def _values_of(level: str) -> Iterator[None]:
    """Strong's tuning values as `level` plays with them: `alt`'s while in the block."""
    if level != ALT:
        yield
        return
    saved = [(name, getattr(strong, name)) for name in _alt_settings]
    apply_tuning(strong, _alt_settings.items())
    try:
        yield
    finally:
        apply_tuning(strong, saved)


def apply_settings(settings: dict[str, float], alt: dict[str, float] | None = None
                   ) -> None:
    """Set strong's tuning values (`--set`), and the `alt` level's on top of them
    (`--alt`); also each worker's initializer."""
    apply_tuning(strong, settings.items())
    _alt_settings.clear()
    _alt_settings.update(alt or {})


def parse_settings(text: str, option: str = "--set") -> dict[str, float]:
    return parse_tuning(strong, text, option)


@dataclass(frozen=True)
class DealJob:
    """One deal of a pairing: what `run_deal` plays."""
    preset: str
    players: int
    options: dict[str, bool]
    a: str
    b: str
    seed: int
    cardplay: bool
    auction: bool = True
    split: bool = False  # card play: a third room, B on both sides
    known: str = "none"  # card play: whose strong seats see every hand (KNOWN)


DealOutput = tuple[float, dict[str, float], dict[str, int], dict[str, int], list[float],
                   float | None]


def run_deal(job: DealJob) -> DealOutput:
    """One deal: A's gain, points, contracts made and failed by level, strong's decision
    times, and with `split` the part of A's gain that is its declarer play."""
    a, b, seed, players = job.a, job.b, job.seed, job.players
    rules = Rules.create(job.preset, players, job.options)
    rng = random.Random(seed)
    deal = deal_cards(rules, rng)
    dealer = seed % players
    diffs = []
    points: dict[str, float] = {a: 0.0, b: 0.0}
    made = {a: 0, b: 0}
    failed = {a: 0, b: 0}
    times: list[float] = []
    if job.cardplay:
        if job.auction:
            played = _auction_deal(rules, deal, rng, dealer, a, b, seed * 7 + 1, times,
                                   known=job.known)
        else:
            dealer = (_best_seat(rules, deal) - 1) % players
            played = cardplay_deal(rules, deal, dealer, a, b, seed * 7 + 1, times,
                                   known=job.known)
        assert played is not None
        diff, room1, room2 = played
        for hand, team_level in ((room1, a), (room2, b)):
            if hand.outcome in ("made", "failed"):
                (made if hand.outcome == "made" else failed)[team_level] += 1
        declarer = None
        if job.split:
            # The same deal (the one played, if thrown-in deals were replaced), B alone.
            same = play_room(rules, room1.deal, dealer, b, b, seed * 7 + 1, [], job.auction)
            assert same is not None
            declarer = float(team_tricks(room1) - team_tricks(same))
        return diff, points, made, failed, times, declarer
    assignments = _assignments(players)
    for a_seats in assignments:
        levels = _levels(players, a_seats, a, b)
        hand = play_hand(rules, deal, dealer, levels, seed * 7 + 1, times)
        a_vals = [hand.scores[s] for s in range(players) if levels[s] == a]
        b_vals = [hand.scores[s] for s in range(players) if levels[s] == b]
        diffs.append(statistics.fmean(a_vals) - statistics.fmean(b_vals))
        points[a] += statistics.fmean(a_vals) / len(assignments)
        points[b] += statistics.fmean(b_vals) / len(assignments)
        if hand.bidder >= 0 and hand.outcome in ("made", "failed"):
            who = levels[hand.bidder]
            (made if hand.outcome == "made" else failed)[who] += 1
    return statistics.fmean(diffs), points, made, failed, times, None


def _auction_deal(rules: Rules, deal: Deal, rng: random.Random, dealer: int, a: str,
                  b: str, seed: int, times: list[float],
                  observe: Callable[[Hand, int, str], None] | None = None,
                  known: str = "none") -> tuple[float, Hand, Hand]:
    """`cardplay_deal` with contracts by auction; a deal nobody bids on is thrown in and
    the next one (from `rng`) played instead."""
    played = cardplay_deal(rules, deal, dealer, a, b, seed, times, True, observe, known)
    while played is None:
        deal = deal_cards(rules, rng)
        played = cardplay_deal(rules, deal, dealer, a, b, seed, times, True, observe,
                               known)
    return played


class InferenceProbe:
    """How the strong player's card-play inference sees the bidder, against the truth
    (`--mode inference`): at each strong decision of the first three tricks by a seat
    other than the bidder, `worlds` sampled worlds give the bidder's trumps, its
    `predict_team_tricks` estimate (cards played included) and its side's tricks in easy
    play-outs; the true deal gives the same."""

    def __init__(self, worlds: int) -> None:
        self.worlds = worlds
        self.values: dict[str, list[float]] = {}

    def _add(self, key: str, value: float) -> None:
        self.values.setdefault(key, []).append(value)

    def __call__(self, hand: Hand, seat: int, level: str) -> None:
        bidder = hand.bidder
        if (level != "strong" or seat == bidder or not 1 <= hand.tricks_done <= 3
                or not 0 <= hand.trump < 4):
            return
        role = "partner" if seat == hand.called_holder else "defence"
        team = {bidder, hand.called_holder} - {-1}
        view = hand_view(hand, seat)
        know = build_knowledge(view)
        chain = strong.Chain(strong._History(view, know), random.Random(hand.tricks_done))
        played = know.played_by[bidder]
        for source, sims in (("true", [sim_from_hand(hand)]),
                             ("sampled", self._sample(chain))):
            for sim in sims:
                held = sim.hands[bidder]
                self._add(f"{role} {source} trumps", suit_len(held, hand.trump))
                self._add(f"{role} {source} estimate",
                          predict_team_tricks(hand.rules, held | played))
                strong.playout(sim, seat)
                self._add(f"{role} {source} tricks", sum(sim.tricks_won[s] for s in team))

    def _sample(self, chain: strong.Chain) -> list[Sim]:
        sims = []
        for _ in range(self.worlds):
            sim = chain.sample(strong.CHAIN_STEPS, restart=True)
            if sim is not None:
                sims.append(sim)
        return sims


def run_inference(args: tuple[str, int, dict[str, bool], int, int]) -> dict[str, list[float]]:
    preset, players, options, seed, worlds = args
    rules = Rules.create(preset, players, options)
    rng = random.Random(seed)
    probe = InferenceProbe(worlds)
    _auction_deal(rules, deal_cards(rules, rng), rng, seed % players, "strong", "easy",
                  seed * 7 + 1, [], probe)
    return probe.values


def report_inference(outputs: list[dict[str, list[float]]], worlds: int) -> None:
    values: dict[str, list[float]] = {}
    for output in outputs:
        for key, items in output.items():
            values.setdefault(key, []).extend(items)
    print(f"  the bidder as the strong partner / defence sees it at tricks 1-3 ({worlds} "
          "worlds a decision), sampled against true:")
    for role in ("partner", "defence"):
        decisions = len(values.get(f"{role} true trumps", []))
        if not decisions:
            continue
        parts = []
        for what in ("trumps", "estimate", "tricks"):
            sampled = statistics.fmean(values[f"{role} sampled {what}"])
            true = statistics.fmean(values[f"{role} true {what}"])
            parts.append(f"{what} {sampled:.2f} / {true:.2f}")
        print(f"    {role} ({decisions} decisions): " + ", ".join(parts))


def _pool_map(function: Callable[[Job], Output], jobs: list[Job], workers: int,
              settings: dict[str, float], alt: dict[str, float] | None = None
              ) -> list[Output]:
    """`function` over `jobs`, in `workers` processes with strong's tuning values set to
    `settings` and the `alt` level's to `alt` (once per process)."""
    if workers > 1:
        with ProcessPoolExecutor(workers, initializer=apply_settings,
                                 initargs=(settings, alt)) as pool:
            return list(pool.map(function, jobs, chunksize=4))
    apply_settings(settings, alt)
    return [function(job) for job in jobs]


def run_pairing(first: DealJob, deals: int, workers: int,
                settings: dict[str, float] | None = None,
                alt: dict[str, float] | None = None) -> Result:
    """Duplicate play of `deals` deals (`first`, then its seed + 1, + 2, ...), strong's
    tuning values set to `settings` and the `alt` level's to `alt` (once per worker
    process)."""
    a, b = first.a, first.b
    result = Result(points={a: [], b: []}, made={a: 0, b: 0}, failed={a: 0, b: 0})
    jobs = [replace(first, seed=first.seed + i) for i in range(deals)]
    outputs = _pool_map(run_deal, jobs, workers, settings or {}, alt)
    for diff, points, made, failed, times, declarer in outputs:
        result.diffs.append(diff)
        if declarer is not None:
            result.declarer.append(declarer)
        for level in (a, b):
            result.points[level].append(points[level])
            result.made[level] += made[level]
            result.failed[level] += failed[level]
        result.times.extend(times)
    return result


def ci95(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def report(result: Result, a: str, b: str, cardplay: bool) -> None:
    mean, half = ci95(result.diffs)
    if cardplay:
        print(f"  card play, {len(result.diffs)} deals: bidder's team tricks with {a} "
              f"minus with {b} = {mean:+.2f} ± {half:.2f} tricks per deal (95% CI "
              f"[{mean - half:+.2f}, {mean + half:+.2f}])")
        for level in (a, b):
            made, failed = result.made[level], result.failed[level]
            print(f"    fixed contracts played by {level}: {made} made, {failed} failed")
        if result.declarer:
            dec, dec_half = ci95(result.declarer)
            defence = [d - x for d, x in zip(result.diffs, result.declarer, strict=True)]
            dfn, dfn_half = ci95(defence)
            print(f"    split against {b} on both sides: {a}'s declarer play "
                  f"{dec:+.2f} ± {dec_half:.2f}, {a}'s defence {dfn:+.2f} ± {dfn_half:.2f}"
                  " tricks per deal")
    else:
        pa, pb = statistics.fmean(result.points[a]), statistics.fmean(result.points[b])
        print(f"  {len(result.diffs)} deals, seats swapped: "
              f"{a} {pa:+.2f}, {b} {pb:+.2f} points per hand per seat; "
              f"difference {mean:+.2f} ± {half:.2f} (95% CI [{mean - half:+.2f}, "
              f"{mean + half:+.2f}])")
        for level in (a, b):
            made, failed = result.made[level], result.failed[level]
            total = made + failed
            rate = f"{100 * made / total:.0f}%" if total else "-"
            print(f"    contracts bid by {level}: {made} made, {failed} failed ({rate})")
    if result.times:
        times = sorted(result.times)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        searching = " and ".join(level for level in (a, b) if level in SEARCHING)
        print(f"    {searching} decision time: median {1000 * statistics.median(times):.1f} ms, "
              f"p99 {1000 * p99:.1f} ms, max {1000 * times[-1]:.1f} ms "
              f"({len(times)} decisions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("hands", "cardplay", "inference"),
                        default="hands",
                        help="inference: how the strong player's card-play inference "
                        "sees the bidder, against the truth (contracts by auction)")
    parser.add_argument("--contracts", choices=("auction", "forced"), default="auction",
                        help="card play: how the contract is reached, the same in both "
                        "rooms (default auction: the easy player bids in every seat; "
                        "forced: the strongest hand bids the minimum, the rest pass)")
    parser.add_argument("--split", action="store_true",
                        help="card play: also play each deal with B on both sides, and "
                        "split A's gain into its declarer play and its defence")
    parser.add_argument("--known", choices=KNOWN, default="none",
                        help="card play: the strong seats of this side see every hand "
                        "(the search's ceiling)")
    parser.add_argument("--deals", type=int, default=None,
                        help="deals per pairing (default 300 hands, 2000 card play)")
    parser.add_argument("--pairs", default=None,
                        help="comma-separated A-B pairings (default easy-random,strong-easy;"
                        " card play: strong-easy) of the levels random, easy, strong, alt "
                        "(strong with --alt's values) and wild (easy, a random card "
                        f"{WILD_SHARE:.0%} of the time in trick play)")
    parser.add_argument("--preset", default="amerikaner")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--options", default="", help="comma-separated options")
    parser.add_argument("--seed", type=int, default=1,
                        help="the first deal's seed: deal i is seeded SEED + i, so runs "
                        "meant to be on other deals need seeds at least --deals apart")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--samples", type=int, default=0,
                        help="strong: exactly this many sampled worlds per decision, no "
                        "time budget (deterministic; for comparing variants)")
    parser.add_argument("--set", default="", metavar="NAME=VALUE,...",
                        help="strong's tuning values for this run, e.g. "
                        "NESTED_LEADS=0,SIDE_TRICKS_WEIGHT=0.25")
    parser.add_argument("--alt", default="", metavar="NAME=VALUE,...",
                        help="the level `alt` of --pairs: strong with these tuning "
                        "values on top of --set's, e.g. --pairs alt-strong --alt "
                        "PLAY_MISMATCH=0.1")
    parser.add_argument("--diffs", default="", metavar="FILE",
                        help="write the per-deal differences to FILE as JSON (for a "
                        "later run's --against)")
    parser.add_argument("--against", default="", metavar="FILE",
                        help="an earlier run's --diffs file (same deals and seed): print "
                        "this run minus that one, deal by deal")
    parser.add_argument("--installed", action="store_true",
                        help="import the installed `bot` package (e.g. compiled), not the "
                        "repository's sources")
    args = parser.parse_args()
    cardplay = args.mode == "cardplay"
    known = args.known if cardplay else "none"  # card play only, as --split
    deals = args.deals or (2000 if cardplay else 300)
    pairs = args.pairs or ("strong-easy" if cardplay else "easy-random,strong-easy")
    pairings = [(pair, _pairing(pair)) for pair in pairs.split(",")]
    options = {name: True for name in args.options.split(",") if name}
    settings = parse_settings(args.set)
    alt = parse_settings(args.alt, "--alt")
    if alt and not any(ALT in pair for _, pair in pairings):
        raise SystemExit("--alt: no pairing of --pairs plays the level alt")
    if args.samples:  # a fixed number of worlds per decision, whatever the machine's load
        settings.update(STRONG_BUDGET=1e9, MAX_SAMPLES=args.samples)
    ai_compiled = not isinstance(strong.strong_action, FunctionType)
    print(f"core {'compiled' if COMPILED else 'pure Python'}, AI "
          f"{'compiled' if ai_compiled else 'pure Python'}, from "
          f"{_Path(strong.__file__).parent.parent}")
    print(f"{args.preset}, {args.players} players, options {sorted(options) or 'none'}, "
          f"mode {args.mode}" + (f", contracts {args.contracts}" if cardplay else "")
          + f", seed {args.seed} (the deals seeded {args.seed}-{args.seed + deals - 1})"
          + (f", samples {args.samples}" if args.samples else "")
          + (f", hands known to strong's {known}" if known != "none" else "")
          + (f", set {args.set}" if args.set else "")
          + (f", alt: strong with {args.alt}" if args.alt else ""))
    if args.mode == "inference":
        worlds = args.samples or 30
        start = time.perf_counter()
        jobs = [(args.preset, args.players, options, args.seed + i, worlds)
                for i in range(args.deals or 30)]
        outputs = _pool_map(run_inference, jobs, args.workers, settings)
        print(f"inference ({time.perf_counter() - start:.0f} s):")
        report_inference(outputs, worlds)
        return
    for pair, (a, b) in pairings:
        start = time.perf_counter()
        first = DealJob(args.preset, args.players, options, a, b, args.seed, cardplay,
                        args.contracts == "auction", args.split and cardplay, known)
        result = run_pairing(first, deals, args.workers, settings, alt)
        print(f"{a} vs {b} ({time.perf_counter() - start:.0f} s):")
        report(result, a, b, cardplay)
        if args.against:
            paired(result.diffs, args.against, pair)
        if args.diffs:
            _write_diffs(args.diffs, pair, result.diffs)


def _pairing(pair: str) -> tuple[str, str]:
    """`A-B` of --pairs, both levels checked (the AI's, and the bench's `alt`, `wild`)."""
    levels = (*LEVELS, ALT, WILD)
    a, _, b = pair.partition("-")
    for level in (a, b):
        if level not in levels:
            raise SystemExit(f"--pairs: {level!r} in {pair!r} is not a level "
                             f"({', '.join(levels)})")
    return a, b


def _read_runs(path: str) -> dict[str, list[float]]:
    """A `--diffs` file: per-deal differences by pairing; a missing file has none."""
    if not _Path(path).exists():
        return {}
    runs = json.loads(_Path(path).read_text())
    if not isinstance(runs, dict):
        raise ValueError("not a --diffs file")
    return runs


def _write_diffs(path: str, pair: str, diffs: list[float]) -> None:
    runs = _read_runs(path)
    runs[pair] = diffs
    _Path(path).write_text(json.dumps(runs))


def paired(diffs: list[float], path: str, pair: str) -> None:
    """This run minus an earlier one (`--diffs` FILE) on the same deals, deal by deal."""
    if not _Path(path).exists():
        print(f"    (cannot compare with {path}: no such file)")
        return
    try:
        before = _read_runs(path).get(pair)
    except (OSError, ValueError) as exc:
        print(f"    (cannot compare with {path}: {exc})")
        return
    if not before or len(before) != len(diffs):
        print(f"    (no run of {pair} over {len(diffs)} deals in {path} to compare with)")
        return
    mean, half = ci95([x - y for x, y in zip(diffs, before, strict=True)])
    print(f"    against {path}, deal by deal: {mean:+.2f} ± {half:.2f} per deal")


if __name__ == "__main__":
    main()
