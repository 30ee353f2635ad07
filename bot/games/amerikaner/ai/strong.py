"""The strong player: determinized search (perfect-information Monte Carlo).

For a decision it
1. lists a few candidate actions (every distinct card; a few bids; a few discard sets;
   an opening lead per suit, with the highest call and, with `free_trump`, a trump),
2. samples deals of the unseen cards consistent with everything the seat knows
   (`knowledge.py`), weighted by how likely the others' public choices are with those
   hands under a model of them: the easy player, softened. For bids, passes and the
   bidder's trump suit (`likelihood`) the easy player's judgement is made a sigmoid; in
   trick play every card another seat played that the easy player would not have
   played (holding that seat's sampled cards, a card equivalent to its choice counts as
   the same) multiplies the world's likelihood by `PLAY_MISMATCH`, so people who play
   otherwise only blur the inference. Bidding and discards keep a deal with its
   likelihood (rejection, `_plausible_sinks`); trick play draws worlds from the
   posterior with a short Metropolis chain per world (`Chain`: swaps of two unseen
   cards, the likelihood factorised by seat, `_History`), each started from a draw
   picked by the likelihood of the bidding, and rebuilds the world by replaying the
   tricks on a `Sim`,
3. plays every candidate out in every sampled world, the easy player playing all seats
   (on a lean `Sim`, not views) except the first `NESTED_LEADS` leads of its own side,
   each chosen by trying every card in that world, or, once few cards are left, solves
   the end exactly by alpha-beta over that world,
4. picks the candidate with the best average value for its seat (its score, plus
   `SIDE_TRICKS_WEIGHT` for each trick its side took). The same worlds
   serve every candidate, so luck cancels between them; in trick play a candidate
   clearly beaten in them is dropped as the worlds come in (`RACE_FROM`), so the later
   worlds go to the candidates still in question.

It stops sampling at a time budget per decision (see `STRONG_BUDGET`, `MIN_SAMPLES`,
`STRONG_CAP`).

Compiled with mypyc in regular installs, with easy.py, sim.py and knowledge.py
(setup.py): a faster AI samples more worlds in the same budget. The tuning values below
are plain module globals, not `Final`, so that assigning them from outside
(`strong.STRONG_BUDGET = ...`, as bench/ai.py does) takes effect in the compiled build
too: compiled code reads a non-`Final` global from the module's dict at every use.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from bot.cards import JOKER_BASE, SUIT_MASKS, SUITS, bits, mask_of
from bot.errors import GameError
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.hand import COMPILED, DONE, LEAD, PLAY, Hand
from bot.games.amerikaner.scoring import score_hand
from bot.games.amerikaner.views import HandView

from .easy import (
    best_suit,
    choose_discards,
    easy_action,
    easy_card,
    easy_hand_action,
    highest,
    lowest,
    predict_team_tricks,
    suit_score,
)
from .knowledge import Knowledge, build_knowledge, build_world, sample_sinks
from .sim import LEAD_WINS, STRENGTH, Sim, sim_from_hand, sim_from_view
from .switch import switch_point

# Not `Final` (see above): read at each use, so patches from outside take effect.
# A decision samples worlds until STRONG_BUDGET seconds have passed and it has at least
# MIN_SAMPLES of them (at most MAX_SAMPLES), but never past STRONG_CAP seconds once it
# has 4 (targets: <= 50 ms median, <= 200 ms p99). Compiled, 60 worlds take a median 15
# ms and 126 ms at the p99 (most at the first tricks, which matter most), so the 40 ms
# alone bought fewer worlds where they count. Card play against easy (contracts by
# auction, 2,000 deals, compiled): 40 ms alone +0.82 +- 0.05 tricks a deal; at least 60
# worlds +0.87 +- 0.05 (paired +0.05 +- 0.05), a median 40.3 ms, p99 129.6 ms. Since
# issue 40's eighth session at least 100, with racing (RACE_FROM): a decision whose
# candidates are settled ends sooner, so the first tricks (often at STRONG_CAP before
# their 60) get more worlds for the candidates still in question.
STRONG_BUDGET: float = 0.040
MAX_SAMPLES: int = 200
MIN_SAMPLES: int = 100 if COMPILED else 4
STRONG_CAP: float = 0.150
# The clock the budget and the cap are read on, seconds. A module global like the tuning
# values (read at each use), so that a test can give the AI a clock of its own: what a
# decision samples under a budget must not depend on how busy the machine is.
clock: Callable[[], float] = time.perf_counter
# The deal of the day's strong AI (AmerikanerKind.fixed_action): this many worlds, no
# clock, so its answers are the same on any machine (bench/daily.py: its cost).
DAILY_SAMPLES: int = 24
# Every trick the side takes counts this much on top of the score: a trick is a point
# in the race to 52 that the other side does not get, also when the contract is safe.
# Measured (bench/ai.py --mode cardplay, 400 deals, 60 worlds): 0.25 +0.57, 1.0 +0.68,
# 2.0 +0.71, 4.0 +0.70 tricks a deal; whole hands with 1.0: +1.71 +- 0.40 points.
SIDE_TRICKS_WEIGHT: float = 1.0
# In the play-outs, the first NESTED_LEADS leads of the deciding seat's side are chosen
# by trying each card, played out by the easy player, in the sampled world: a step
# towards valuing a card by what the side will really do next, not by what the easy
# player would (most of what sampled play loses is at leads). It costs about four times
# the time per world, so it is on only when compiled (40 ms still buys ~60 worlds).
# Measured (cardplay, 400 deals, 60 worlds, paired against none): 1 lead +0.13 +- 0.11,
# 3 leads +0.22 +- 0.11 tricks a deal; 8 leads, or also the first 3 follows, no better.
NESTED_LEADS: int = 3 if COMPILED else 0
# The same for the play-outs that value bids and discards (`_evaluate_hand`).
BID_NESTED_LEADS: int = 0
INFERENCE_TRIES: int = 8
# Card-play inference (`_History`, `Chain`): a card another seat played that the model
# (the easy player, holding that seat's sampled hand) would not have played multiplies
# the world's likelihood by PLAY_MISMATCH (TEAM_MISMATCH for the deciding seat's own
# teammate in that world). Each world starts from one of RESTART_DRAWS independent draws,
# picked in proportion to the likelihood of the bidding and the plays (`Chain._resample`,
# RESTART_FULL), and takes CHAIN_STEPS Metropolis steps from there. Bids and discards
# sample by rejection on the bidding only (`_plausible_sinks`).
# Measured (bench/ai.py --mode cardplay, 300 deals, 15 worlds a decision): none +0.25,
# chain +0.41 tricks a deal; one chain of 4 steps between worlds +0.10 (too few distinct
# worlds); rejection of whole draws (24 tries, then the likeliest) +0.41 over 400 deals,
# at twice the time; PLAY_MISMATCH 0.02 instead of 0.1: +0.36. Teammate's plays not read
# (TEAM_MISMATCH 1.0): -0.06 +- 0.09 (auction contracts, 400 deals, 60 worlds).
# Issue 40 (sixth session): the others' plays read at 0.01 (0.1 before), 50 chain steps (25
# before) and each world started by the whole likelihood (RESTART_FULL) gained +0.11 +-
# 0.07 tricks a deal, paired over 1,200 deals at 60 worlds (three sets of 400 that do
# not overlap: +0.06, +0.08, +0.19); the whole-likelihood start and 50 steps with the
# reading at 0.1: +0.04 +- 0.08 over 800. 0.01 is the reading of a seat that plays as
# the easy player does, as the benchmark's opponents do; people who do not are read by
# the same model. Against two kinds of players unlike it, 0.1 did no better than 0.01
# (issue 40's seventh session, 400 deals, 60 worlds, paired): against the strong player
# (bench/ai.py --pairs alt-strong --alt PLAY_MISMATCH=0.1) +0.02 +- 0.10, against easy
# with a random card 30% of the time (alt-wild against strong-wild) -0.01 +- 0.15
# tricks a deal. People themselves were never measured.
PLAY_MISMATCH: float = 0.01
TEAM_MISMATCH: float = 0.1
CHAIN_STEPS: int = 50
# The bidding, read sharply. The easy player bids when it expects its team to take the
# bid + 0.7 tricks or more and passes otherwise (`bid_likelihood`, `pass_likelihood`: a
# sigmoid of that margin, BID_SLOPE steep, never below the floors), and it makes trumps
# of its best suit (another suit led to the first trick: TRUMP_MISMATCH). Single-card
# swaps of the chain barely move a hand's length or strength, so the start of each
# world is drawn by that likelihood (RESTART_DRAWS). Before (a soft sigmoid 1.0 trick
# below the easy player's threshold, floors 0.05 / 0.15, the trump suit 0.35, the
# likelier of 2 draws), at the first tricks the partner and the defence sampled the
# bidder with 1.6 trumps fewer than it held and its side taking 1.4-2.0 tricks fewer
# than it did (easy play-outs, contracts by auction); now 0.8 trumps and 1.1-1.4 tricks.
# Measured (contracts by auction, 400 deals, 60 worlds, paired): +0.18 +- 0.11 tricks a
# deal; the sharp bids alone are worth +0.07 of it.
TRUMP_MISMATCH: float = 0.01
BID_SLOPE: float = 3.0
BID_OFFSET: float = 0.7
BID_FLOOR: float = 0.01
PASS_FLOOR: float = 0.02
RESTART_DRAWS: int = 30
# Each world's start is picked by the whole likelihood of what the others did
# (`Chain.total`: their bids and passes, the opening lead and call, and every card they
# played), not the bidding's alone, so that the chain starts from a deal that already
# explains the play (importance resampling on the play, as the strongest Skat programs
# weight their worlds); 0 picks by the bidding alone, as before issue 40's sixth session.
RESTART_FULL: int = 1
# The bidder bid before it took the kitty: its hand now (the kitty taken, its worst cards
# discarded) looks stronger to `predict_team_tricks` than the one it bid with (easy
# bidders, 4-player amerikaner: by a mean of 0.82, a median of 0.77), and its bids are
# read with its estimate lowered by KITTY_GAIN. Off: 0.8 brought the sampled bidder
# closer to the true one (posterior mean 9.55 against 9.83 true, 9.07 without), but as a
# fixed shift it also made 16% of true bidders unlikely; card play, against the same run
# without the opening lead and call read (`opening_likelihood`), measured -0.15 +- 0.11
# tricks a deal with both, -0.07 +- 0.10 with the opening alone (400 deals, 60 worlds).
KITTY_GAIN: float = 0.0
# Racing (issue 40's eighth session): in trick play, once a decision has RACE_FROM worlds,
# every RACE_EVERY worlds a candidate is dropped when the best so far beats it by more
# than RACE_Z standard errors of their difference world by world (the same worlds), so
# the worlds left go to the candidates still in question; one left ends the decision.
# 0: every candidate is played in every world (the player before). Measured with
# MIN_SAMPLES 100 (60 before; compiled, the bot's clock, 2,000 deals, paired against the
# player before): +0.03 +- 0.05 tricks a deal (+0.98 +- 0.05 against +0.95 +- 0.05), the
# median decision 37.5 ms against 41.0, the p99 153 ms as before (STRONG_CAP).
RACE_FROM: int = 20
RACE_EVERY: int = 5
RACE_Z: float = 2.5
# The tuning values above, which `bench/ai.py --set NAME=VALUE` may change for a run.
TUNING = ("STRONG_BUDGET", "MAX_SAMPLES", "MIN_SAMPLES", "STRONG_CAP", "SIDE_TRICKS_WEIGHT",
          "NESTED_LEADS", "BID_NESTED_LEADS", "INFERENCE_TRIES", "PLAY_MISMATCH",
          "TEAM_MISMATCH", "CHAIN_STEPS", "BID_SLOPE", "BID_OFFSET", "BID_FLOOR",
          "PASS_FLOOR", "TRUMP_MISMATCH", "RESTART_DRAWS", "RESTART_FULL",
          "KITTY_GAIN", "RACE_FROM", "RACE_EVERY", "RACE_Z")


# --------------------------------------------------------------------------- candidates


def distinct_cards(legal: int, held: int, gone: int) -> list[int]:
    """Legal cards with equivalent ones dropped: two cards of a suit are equivalent when
    every card between them is in the same hand or already played."""
    out: list[int] = []
    prev = -1
    for card in bits(legal):
        if (card < JOKER_BASE and prev >= 0 and prev // 13 == card // 13
                and not ((1 << card) - (1 << (prev + 1))) & ~held & ~gone):
            prev = card
            continue  # the lowest of a run stands for it
        out.append(card)
        prev = card
    return out


def _play_candidates(view: HandView) -> list[Action]:
    assert view.legal is not None and view.seat is not None and view.cards is not None
    seat = view.seat
    held = mask_of(view.cards)
    legal = mask_of(view.legal.cards)
    gone = 0
    for trick in view.tricks:
        for _, card in trick.plays:
            gone |= 1 << card
    return [Action.play(seat, c) for c in distinct_cards(legal, held, gone)]


def _lead_candidates(view: HandView, easy: Action) -> list[Action]:
    legal = view.legal
    assert legal is not None and view.seat is not None and view.cards is not None
    seat = view.seat
    held = mask_of(view.cards)
    out = [easy]
    trumps: list[str | None] = [None]
    if legal.trumps:
        trumps.append("grand")
    for suit, calls in legal.calls:
        mine = held & SUIT_MASKS[suit]
        call = calls[0] if calls else None
        for card in {lowest(mine), highest(mine)}:
            for trump in trumps:
                action = Action.play(seat, card, call, trump)
                if action not in out:
                    out.append(action)
    # Keep the best-looking suits first when there are many.
    return out[:10]


def _bid_candidates(view: HandView, easy: Action) -> list[Action]:
    legal = view.legal
    assert legal is not None and view.seat is not None
    seat = view.seat
    out = [easy]
    if easy.kind != "pass":
        out.append(Action.pass_(seat))
    numbers = [b for b in legal.bids if isinstance(b, int)]
    for bid in numbers[:2]:
        action = Action.make_bid(seat, bid)
        if action not in out:
            out.append(action)
    return out


def _discard_candidates(view: HandView, easy: Action) -> list[Action]:
    assert view.seat is not None and view.cards is not None and view.legal is not None
    rules = view.rules
    seat = view.seat
    held = mask_of(view.cards)
    count = view.legal.card_count[0]
    out = [easy]
    # Variants: keep each reasonable trump suit in turn, discarding from the others.
    first = best_suit(held)
    for suit in sorted(range(4), key=lambda s: -suit_score(held, s)):
        if suit == first or not held & SUIT_MASKS[suit]:
            continue
        others = held & ~SUIT_MASKS[suit]
        keep = held & SUIT_MASKS[suit]
        cards = choose_discards(rules, others, min(count, others.bit_count()))
        if len(cards) < count:
            cards += tuple(bits(keep))[:count - len(cards)]
        action = Action.discard(seat, cards)
        if sorted(cards) != sorted(easy.cards) and action not in out:
            out.append(action)
        if len(out) >= 4:
            break
    # The lowest cards overall, whatever the suits.
    low = tuple(sorted(bits(held & ((1 << JOKER_BASE) - 1)), key=lambda c: c % 13)[:count])
    if len(low) == count and sorted(low) != sorted(easy.cards):
        out.append(Action.discard(seat, low))
    return out


# --------------------------------------------------------------------------- play-outs


def _advance(hand: Hand) -> None:
    """Easy actions until the hand reaches trick play or ends."""
    while hand.phase != DONE and (hand.phase != PLAY and not (
            hand.phase == LEAD and not hand.with_trumps)):
        hand.apply(easy_hand_action(hand))


def playout(sim: Sim, seat: int) -> float:
    while sim.tricks_done < sim.total:
        sim.play(easy_card(sim))
    return value_for(sim, seat)


# Cards left in each hand at which the end is solved exactly: at the decision itself,
# and (cheaper) inside play-outs.
ENDGAME_CARDS: dict[int, int] = {3: 4, 4: 3, 5: 2, 6: 2}
PLAYOUT_ENDGAME_CARDS: dict[int, int] = {3: 3, 4: 2, 5: 2, 6: 1}


def endgame_ready(sim: Sim, table: dict[int, int] = ENDGAME_CARDS) -> bool:
    left = sim.total - sim.tricks_done
    return sim.tricks_done > 0 and left <= table.get(sim.n, 2)


class _Solver:
    """Alpha-beta over a `Sim` with every hand known: the root seat's side maximizes the
    root's score, the other side minimizes it (in all-pass play everyone else is
    against it). Plays and undoes cards in place."""

    def __init__(self, sim: Sim, root: int) -> None:
        self.sim = sim
        self.root = root
        self.n = sim.n
        self.hands = sim.hands[:]
        self.won = sim.tricks_won[:]
        self.row = STRENGTH[sim.trump + 1]
        bidder, partner = sim.bidder, sim.partner
        if sim.all_pass or bidder < 0:
            self.maxer = [s == root for s in range(sim.n)]
        else:
            team = {bidder, partner} if partner >= 0 else {bidder}
            self.maxer = [(s in team) == (root in team) for s in range(sim.n)]
        self.cache: dict[tuple[int, ...], float] = {}

    def leaf(self) -> float:
        key = tuple(self.won)
        value = self.cache.get(key)
        if value is None:
            sim = self.sim
            score = score_hand(sim.rules, sim.contract, sim.bidder, sim.partner, self.won,
                               sim.all_pass)[0][self.root]
            side = 0
            maxer = self.maxer
            for s, w in enumerate(self.won):
                if maxer[s]:
                    side += w
            value = score + SIDE_TRICKS_WEIGHT * side
            self.cache[key] = value
        return value

    def search(self, seat: int, trick: list[int], leader: int, table: tuple[int, ...],
               win_seat: int, win_str: int, alpha: float, beta: float,
               only: list[int] | None = None) -> float:
        hands = self.hands
        held = hands[seat]
        if not trick and not held:
            return self.leaf()
        if trick:
            led = trick[0]
            follow = held & SUIT_MASKS[led // 13] if led < JOKER_BASE else 0
            legal = follow if follow else held
        else:
            legal = held
        if only is not None:
            moves = only
        else:
            alive = 0
            for h in hands:
                alive |= h
            for card in trick:
                alive |= 1 << card
            moves = distinct_cards(legal, held, ~alive)
        maxing = self.maxer[seat]
        best = -1e9 if maxing else 1e9
        n = self.n
        nxt = seat + 1 if seat + 1 < n else 0
        won = self.won
        two_wins = self.sim.two_wins
        for card in moves:
            bit = 1 << card
            hands[seat] ^= bit
            if trick:
                new_table = table
                strength = table[card]
                if strength > win_str:
                    w_seat, w_str = seat, strength
                else:
                    w_seat, w_str = win_seat, win_str
                new_leader = leader
            else:
                new_leader = w_seat = seat
                if card >= JOKER_BASE:
                    new_table = self.row[4]
                    w_str = LEAD_WINS
                else:
                    new_table = self.row[card // 13]
                    w_str = LEAD_WINS if two_wins and card % 13 == 0 else new_table[card]
            trick.append(card)
            if len(trick) == n:
                won[w_seat] += 1
                value = self.search(w_seat, [], -1, new_table, -1, -1, alpha, beta)
                won[w_seat] -= 1
            else:
                value = self.search(nxt, trick, new_leader, new_table, w_seat, w_str,
                                    alpha, beta)
            trick.pop()
            hands[seat] ^= bit
            if maxing:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def root_args(self) -> tuple[int, list[int], int, tuple[int, ...], int, int]:
        sim = self.sim
        return sim.to_act, sim.trick[:], sim.leader, sim.table, sim.win_seat, sim.win_str


def solve(sim: Sim, root: int, first: list[int] | None = None) -> list[float]:
    """Exact values for `root` of each card in `first` (default: every distinct legal
    card) in the world of `sim`, where all hands are known."""
    solver = _Solver(sim, root)
    seat, trick, leader, table, win_seat, win_str = solver.root_args()
    cards = first if first is not None else distinct_cards(
        sim.legal(), sim.hands[seat], sim.played & ~mask_of(sim.trick))
    return [solver.search(seat, trick, leader, table, win_seat, win_str, -1e9, 1e9, [card])
            for card in cards]


def solve_value(sim: Sim, root: int) -> float:
    """The exact value of `sim` for `root` (everyone playing as in `solve`)."""
    solver = _Solver(sim, root)
    seat, trick, leader, table, win_seat, win_str = solver.root_args()
    return solver.search(seat, trick, leader, table, win_seat, win_str, -1e9, 1e9)


# --------------------------------------------------------------------------- decisions


def strong_action(view: HandView, rng: random.Random, budget: float | None = None,
                  max_samples: int | None = None) -> Action:
    """The strong player's action for `view.seat` (whose turn it must be). It samples
    for `budget` seconds (default `STRONG_BUDGET`) and at least `MIN_SAMPLES` worlds,
    at most `max_samples`, and stops at `STRONG_CAP` seconds (or `budget`, if longer)
    once it has 4; with an unbounded budget it is deterministic for a given `rng`
    state."""
    return strong_decision(view, rng, budget, max_samples)[0]


def strong_decision(view: HandView, rng: random.Random, budget: float | None = None,
                    max_samples: int | None = None) -> tuple[Action, int]:
    """`strong_action`'s action, and how many worlds it sampled for it (0 when there was
    nothing to weigh: a single candidate, or the easy action by rule)."""
    if budget is None:
        budget = STRONG_BUDGET
    if max_samples is None:
        max_samples = MAX_SAMPLES
    legal = view.legal
    if legal is None or view.seat is None or view.cards is None:
        raise ValueError("strong_action needs the view of the seat to act")
    start = clock()
    easy = easy_action(view, rng)
    phase = legal.phase
    if phase == "exchange" or easy.kind == "redeal":
        return easy, 0
    candidates = _candidates(view, easy)
    if len(candidates) == 1:
        return candidates[0], 0
    know = build_knowledge(view)
    seat = view.seat
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    deadline = start + budget
    cap = start + max(budget, STRONG_CAP)
    floor = min(MIN_SAMPLES, 4)
    samples = failures = 0
    chain: Chain | None = Chain(_History(view, know), rng) if _trick_play(view) else None
    active = list(range(len(candidates)))  # the candidates still in (RACE_FROM)
    values: list[list[float]] = [[] for _ in candidates]  # each one's value, world by world
    while samples < max_samples and failures < 20:
        if samples >= floor:
            now = clock()
            if now > cap or (samples >= MIN_SAMPLES and now > deadline):
                break
        switch_point()  # compiled, other threads get the GIL only here (switch.py)
        if chain is not None:
            sim = chain.sample(CHAIN_STEPS, restart=True)
            if sim is None:
                failures += 1
                continue
            samples += 1
            _evaluate_play(sim, seat, candidates, totals, counts, active, values)
            if 0 < RACE_FROM <= samples and samples % RACE_EVERY == 0:
                active = _race(values, active)
                if len(active) == 1:
                    break
            continue
        sinks = _plausible_sinks(view, know, rng)
        if sinks is None:
            failures += 1
            continue
        try:
            world = build_world(view, know, sinks)
        except GameError:
            failures += 1
            continue
        samples += 1
        _evaluate_hand(world, seat, candidates, totals, counts)
    if not samples:
        return easy, 0
    return candidates[_best(totals, counts, active)], samples


def _race(values: list[list[float]], active: list[int]) -> list[int]:
    """The candidates of `active` still in question: those the best of them (by average)
    does not beat by more than RACE_Z standard errors of the difference, world by world
    (`values[i]`: candidate i's value in each world so far; every active one has played
    every world)."""
    leader = _best([sum(row) for row in values], [len(row) for row in values], active)
    lead_row = values[leader]
    n = len(lead_row)
    kept: list[int] = []
    for i in active:
        if i == leader:
            kept.append(i)
            continue
        row = values[i]
        total = squares = 0.0
        for w in range(n):
            d = lead_row[w] - row[w]
            total += d
            squares += d * d
        mean = total / n
        var = (squares - total * mean) / (n - 1) if n > 1 else 0.0
        if mean <= RACE_Z * math.sqrt(max(var, 0.0) / n):
            kept.append(i)
    return kept


def _candidates(view: HandView, easy: Action) -> list[Action]:
    """The actions weighed for `view`'s decision, the easy player's first."""
    legal = view.legal
    assert legal is not None
    phase = legal.phase
    if phase == "bid":
        return _bid_candidates(view, easy)
    if phase == "discard":
        return _discard_candidates(view, easy)
    if phase == "lead" and legal.calls:
        return _lead_candidates(view, easy)
    candidates = _play_candidates(view)
    if easy in candidates:
        candidates.remove(easy)
    # `easy` may be another card of the same run: then it stands for the run.
    candidates.insert(0, easy)
    return candidates


def _trick_play(view: HandView) -> bool:
    """Whether `view`'s decision is a card of trick play (not a bid, discards, or an
    opening lead that also names the call and trumps)."""
    legal = view.legal
    return legal is not None and (legal.phase == "play" or (
        legal.phase == "lead" and not legal.calls))


def _best(totals: list[float], counts: list[int], among: list[int] | None = None) -> int:
    """The candidate with the best average value (the first of equals), of `among` if
    given (the ones racing left in)."""
    best = 0 if among is None else among[0]
    best_value = -1e18
    for i in (range(len(totals)) if among is None else among):
        if counts[i] == 0:
            continue
        value = totals[i] / counts[i]
        if value > best_value + 1e-9:
            best, best_value = i, value
    return best


def known_world_action(view: HandView, world: Sim, rng: random.Random) -> Action:
    """The card the strong player would choose if every sampled world were `world`: for
    the benchmark's ceiling (`bench/ai.py --known`), where `world` is the true deal, so
    what the seat loses by not seeing the other hands can be measured. The bot never
    calls it (an AI player decides from its view only)."""
    if view.seat is None or not _trick_play(view):
        raise ValueError("known_world_action is for trick play: not bids, discards or the "
                         "opening lead")
    easy = easy_action(view, rng)
    candidates = _candidates(view, easy)
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    _evaluate_play(world.copy(), view.seat, candidates, totals, counts)
    return candidates[_best(totals, counts)]


def _plausible_sinks(view: HandView, know: Knowledge, rng: random.Random,
                     tries: int = INFERENCE_TRIES) -> list[int] | None:
    """A sampled deal, made plausible by the bidding: each try is accepted with the
    likelihood of the public bids, passes and trump choice given the sampled hands;
    after `tries` the likeliest is kept."""
    bidding = _Bidding(view, know)
    best: list[int] | None = None
    best_like = -1.0
    for _ in range(tries):
        sinks = sample_sinks(know, rng)
        if sinks is None:
            return best
        like = bidding.total(sinks)
        if rng.random() < like:
            return sinks
        if like > best_like:
            best, best_like = sinks, like
    return best


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def likelihood(view: HandView, know: Knowledge, sinks: list[int]) -> float:
    """How likely the others' public choices are with these hands, by a soft version of
    the easy player's judgement: a bid says the hand looked good for it, a pass that it
    did not look good for the next bid, the opening lead that the suit led was the
    bidder's best (`opening_likelihood`)."""
    return _Bidding(view, know).total(sinks)


class _Bidding:
    """What the auction and the bidder's opening lead say of each other seat's hand, as
    a seat's view shows them, read as the easy player would have bid and led."""

    def __init__(self, view: HandView, know: Knowledge) -> None:
        rules = view.rules
        seat, n = know.seat, know.n
        self.know = know
        self.rules = rules
        # Per seat: (a pass, the next bid it passed) or (a bid, its value).
        self.terms: list[list[tuple[bool, int]]] = [[] for _ in range(n)]
        high = 0
        for s, bid in view.auction:
            if bid == "pass":
                need = max(rules.min_bid, high + 1)
                if s != seat and need <= rules.max_bid:
                    self.terms[s].append((True, need))
            else:
                value = rules.top_value if isinstance(bid, str) else bid
                if s != seat and value <= rules.max_bid:
                    self.terms[s].append((False, value))
                high = value
        bidder = view.bidder
        self.bidder = bidder if bidder is not None else -1
        self.called = view.called if view.called is not None else -1
        self.lead_card = -1
        if (bidder is not None and bidder != seat and view.called is not None
                and (view.tricks or view.trick)):
            first = view.tricks[0] if view.tricks else view.trick
            assert first is not None
            self.lead_card = first.plays[0][1]

    def factor(self, s: int, orig: int) -> float:
        """The likelihood of seat `s`'s bids and passes, and for the bidder of its
        opening lead and call, if it held `orig` at the bidding."""
        like = 1.0
        terms = self.terms[s]
        if terms:
            pred = predict_team_tricks(self.rules, orig)
            if s == self.bidder and self.know.kitty_taken:
                pred -= KITTY_GAIN  # the hand it bid with did not have the kitty yet
            for is_pass, number in terms:
                if is_pass:
                    like *= pass_likelihood(pred, number)
                else:
                    like *= bid_likelihood(pred, number)
        if s == self.bidder and self.lead_card >= 0:
            like *= opening_likelihood(orig, self.lead_card, self.called, self.rules.pack)
        return like

    def total(self, sinks: list[int]) -> float:
        """The likelihood of every other seat's bidding in the sampled deal `sinks`."""
        know = self.know
        like = 1.0
        for s in range(know.n):
            if s != know.seat:
                like *= self.factor(s, _held_at_bidding(know, sinks, s))
        return like


def opening_likelihood(orig: int, led: int, called: int, pack: int) -> float:
    """How likely the bidder's opening lead `led` (and call `called`, -1 if none) is
    from a hand `orig`, by the easy player's rule: trumps are its best suit, it leads
    its lowest card of it and calls the highest card of it that it does not hold (so it
    holds every card of the suit above the called one)."""
    if led >= JOKER_BASE:
        return 1.0
    suit = led // 13
    like = 1.0
    if best_suit(orig) != suit:
        like *= TRUMP_MISMATCH
    if orig & SUIT_MASKS[suit] & ((1 << led) - 1):
        like *= TRUMP_MISMATCH  # it held a lower card of the suit
    if 0 <= called < JOKER_BASE and called // 13 == suit:
        above = SUIT_MASKS[suit] & pack & ~((2 << called) - 1)
        if above & ~orig:
            like *= TRUMP_MISMATCH  # a higher card it did not hold was the one to call
    return like


def bid_likelihood(pred: float, value: int) -> float:
    """How likely a bid of `value` is from a hand whose team the easy player expects to
    take `pred` tricks (the easy player bids when `pred` is at least the bid + 0.7)."""
    return BID_FLOOR + (1.0 - BID_FLOOR) * _sigmoid((pred - value - BID_OFFSET) * BID_SLOPE)


def pass_likelihood(pred: float, need: int) -> float:
    """How likely a pass is when the next bid would be `need` (the easy player passes
    when `pred` is below `need` + 0.7)."""
    return PASS_FLOOR + (1.0 - PASS_FLOOR) * _sigmoid((need + 0.7 - pred) * BID_SLOPE)


def _held_at_bidding(know: Knowledge, sinks: list[int], s: int) -> int:
    """Seat `s`'s cards at the bidding in the sampled deal `sinks`."""
    return sinks[s] | know.fixed[s] | know.played_by[s]


def _evaluate_play(sim: Sim, seat: int, candidates: list[Action], totals: list[float],
                   counts: list[int], active: list[int] | None = None,
                   values: list[list[float]] | None = None) -> None:
    """Add each candidate's value in the world of `sim` to `totals` (and `values`, per
    world), only those of `active` if given."""
    chosen = active if active is not None else range(len(candidates))
    cards: list[int] = []
    for i in chosen:
        card = candidates[i].card
        assert card is not None
        cards.append(card)
    if endgame_ready(sim):
        found = solve(sim, seat, cards)
    else:
        found = []
        for card in cards:
            child = sim.copy()
            child.play(card)
            found.append(_finish(child, seat))
    for k, i in enumerate(chosen):
        totals[i] += found[k]
        counts[i] += 1
        if values is not None:
            values[i].append(found[k])


def _finish(sim: Sim, seat: int, nested: int = -1) -> float:
    """Play the rest out with the easy player, solving the end exactly; the first
    `nested` leads of `seat`'s side (default `NESTED_LEADS`) by `_best_lead`."""
    # (`sim.play(...)`, not a bound method kept in a local: compiled, that is a direct
    # call, the local a Python-level one.)
    if nested < 0:
        nested = NESTED_LEADS
    endgame = PLAYOUT_ENDGAME_CARDS
    while sim.tricks_done < sim.total:
        if not sim.trick:
            if endgame_ready(sim, endgame):
                return solve_value(sim, seat)
            if nested > 0 and same_side(sim, sim.to_act, seat):
                nested -= 1
                sim.play(_best_lead(sim, seat))
                continue
        sim.play(easy_card(sim))
    return value_for(sim, seat)


def same_side(sim: Sim, a: int, b: int) -> bool:
    """Whether seats `a` and `b` play on the same side in the world of `sim` (the
    bidder and the called card's holder against the rest)."""
    if a == b:
        return True
    if sim.all_pass or sim.bidder < 0:
        return False
    team = (sim.bidder, sim.called_holder)
    return (a in team) == (b in team)


def _best_lead(sim: Sim, seat: int) -> int:
    """The lead, for the seat to act, that does best for `seat` in this world when the
    rest is played out by the easy player."""
    best, best_value = -1, -1e18
    for card in distinct_cards(sim.legal(), sim.hands[sim.to_act], sim.played):
        child = sim.copy()
        child.play(card)
        value = _finish(child, seat, 0)
        if value > best_value:
            best, best_value = card, value
    return best


def value_for(sim: Sim, seat: int) -> float:
    """A finished hand's worth to `seat`: its score, plus `SIDE_TRICKS_WEIGHT` for every
    trick its side took (a point the other side did not get, and a margin of safety)."""
    score = sim.scores()[seat]
    if sim.all_pass or sim.bidder < 0:
        return score + SIDE_TRICKS_WEIGHT * sim.tricks_won[seat]
    bidder, partner = sim.bidder, sim.partner
    mine = seat in (bidder, partner)
    side = 0
    for s, w in enumerate(sim.tricks_won):
        if (s in (bidder, partner)) == mine:
            side += w
    return score + SIDE_TRICKS_WEIGHT * side


def _evaluate_hand(world: Hand, seat: int, candidates: list[Action], totals: list[float],
                   counts: list[int]) -> None:
    for i, action in enumerate(candidates):
        hand = world.copy()
        try:
            hand.apply(action)
        except GameError:
            continue
        _advance(hand)
        if hand.phase == DONE:
            value = float(hand.scores[seat])  # thrown in or redealt: no tricks
        else:
            # Bids and discards are valued by plain play-outs: with tried leads, which
            # see every hand of the world, nearly every contract looks safe and the
            # player overbids (bench/ai.py, 300 deals, compiled: 53% of its contracts
            # made, +0.44 +- 0.51 points a hand against easy; plain: 75%, +1.59 +- 0.41).
            value = _finish(sim_from_hand(hand), seat, BID_NESTED_LEADS)
        totals[i] += value
        counts[i] += 1



__all__ = ["strong_action", "strong_decision", "known_world_action", "solve", "distinct_cards",
           "playout", "SUITS"]


# --------------------------------------------------------------------------- card-play inference


def _equivalent(held: int, played: int, a: int, b: int) -> bool:
    """Whether cards `a` and `b` of one hand are equivalent: the same suit, every card
    between them in that hand or already played."""
    if a >= JOKER_BASE or b >= JOKER_BASE or a // 13 != b // 13:
        return False
    lo, hi = (a, b) if a < b else (b, a)
    between = (1 << hi) - (1 << (lo + 1))
    return not between & ~held & ~played


class _History:
    """The public card play of a view, replayed on sampled deals: the replay both scores
    how well the others' plays fit the model (the easy player with the sampled hands:
    a soft assumption, since opponents may be people who play otherwise) and yields the
    sampled world as a `Sim` at the view's moment."""

    def __init__(self, view: HandView, know: Knowledge) -> None:
        self.view = view
        self.know = know
        seat = know.seat
        sim = sim_from_view(view)
        self.current = sim
        self.plays: list[tuple[int, int, bool]] = []
        tricks = list(view.tricks) + ([view.trick] if view.trick else [])
        with_trumps = not sim.all_pass and not sim.top and sim.trump >= 0
        for index, trick in enumerate(tricks):
            for i, (s, card) in enumerate(trick.plays):
                opening = index == 0 and i == 0 and with_trumps
                self.plays.append((s, card, s != seat and not opening))
        self.first = tricks[0].leader if tricks else sim.to_act
        rules = view.rules
        bidder = view.bidder
        self.discards_known = know.discards if bidder == seat else -1
        self.aside_discards = bool(rules.kitty_size) and know.kitty_taken and bidder != seat
        # Who plays on whose side (`_teammate`), for the replay and the chain alike.
        self.bidder = bidder if bidder is not None else -1
        self.all_pass = sim.all_pass
        called = sim.called
        self.holds_called = called >= 0 and bool(
            (know.mine | know.played_by[seat]) >> called & 1)

    def world(self, sinks: list[int], like: float, threshold: float) -> tuple[Sim | None,
                                                                            float]:
        """The sampled world at the view's moment and its likelihood, or (None, the
        likelihood so far) once it falls below `threshold` (or the deal is impossible)."""
        know = self.know
        seat = know.seat
        n = know.n
        cur = self.current
        sim = cur.copy()
        hands = [know.mine | know.played_by[s] if s == seat
                 else sinks[s] | know.fixed[s] | know.played_by[s] for s in range(n)]
        sim.hands = hands
        sim.trick = []
        sim.leader = -1
        sim.led = -1
        sim.win_seat = -1
        sim.win_str = -1
        sim.table = STRENGTH[sim.trump + 1][4]
        sim.tricks_done = 0
        sim.played = 0
        sim.partner = -1
        sim.to_act = self.first
        holder = -1
        if sim.called >= 0:
            bit = 1 << sim.called
            for s in range(n):
                if hands[s] & bit:
                    holder = s
        sim.called_holder = holder
        if self.discards_known >= 0:
            sim.discards = self.discards_known
        elif self.aside_discards:
            sim.discards = sinks[n]
        else:
            sim.discards = 0
        # Each seat's unlike-easy card counts as in `factor`: the teammate's less.
        mismatch = [self._mismatch(s, holder == s) for s in range(n)]
        for s, card, check in self.plays:
            if check:
                if sim.to_act != s or not sim.legal() >> card & 1:
                    return None, 0.0
                choice = easy_card(sim)
                if choice != card and not _equivalent(hands[s], sim.played, choice, card):
                    like *= mismatch[s]
                    if like < threshold:
                        return None, like
            sim.play(card)
        if sim.to_act != cur.to_act:
            return None, 0.0
        if not sim.trick:
            sim.leader = -1
            sim.win_seat = -1
            sim.win_str = -1
            sim.table = STRENGTH[sim.trump + 1][4]
        sim.tricks_won = cur.tricks_won[:]
        return sim, like

    # ---- the likelihood factorised by seat, for the Markov chain (`Chain`)

    def _prepare_factors(self) -> None:
        view, know = self.view, self.know
        n = know.n
        self.bidding = _Bidding(view, know)
        # Snapshots of the public state before each checked play, per seat.
        sim = self.current.copy()
        sim.hands = [0] * n
        sim.trick = []
        sim.leader = sim.led = sim.win_seat = sim.win_str = -1
        sim.table = STRENGTH[sim.trump + 1][4]
        sim.tricks_done = 0
        sim.played = 0
        sim.partner = -1
        sim.to_act = self.first
        sim.called_holder = -1
        self.checks: list[list[tuple[Sim, int, int]]] = [[] for _ in range(n)]
        later = know.played_by[:]
        for s, card, check in self.plays:
            if check:
                snap = sim.copy()
                self.checks[s].append((snap, card, later[s]))
            later[s] &= ~(1 << card)
            sim.hands[s] = 0
            sim.play(card)
        self.cache: dict[tuple[int, int, int], float] = {}

    def factor(self, s: int, now: int, aside: int, bound: float = 0.0) -> float:
        """The likelihood of seat `s`'s public choices (bids, passes, the bidder's
        opening suit, its cards played) if it holds `now` (and `aside` is the bidder's
        unknown discards). Once it falls below `bound` it stops there (and returns an
        upper bound below `bound`)."""
        key = (s, now, aside if s == self.bidder else 0)
        value = self.cache.get(key)
        if value is not None:
            return value
        know = self.know
        orig = now | know.played_by[s]
        like = self.bidding.factor(s, orig)
        called = self.current.called
        holds = called >= 0 and orig >> called & 1
        mismatch = self._mismatch(s, bool(holds))
        for snap, card, later in self.checks[s]:
            hand = now | later
            snap.hands[s] = hand
            snap.called_holder = s if holds else -1
            if s == self.bidder:
                snap.discards = aside if self.aside_discards else 0
            if not snap.legal() >> card & 1:
                like = 0.0
                break
            choice = easy_card(snap)
            if choice != card and not _equivalent(hand, snap.played, choice, card):
                like *= mismatch
                if like < bound:
                    return like
        self.cache[key] = like
        return like

    def _mismatch(self, s: int, holds: bool) -> float:
        """What one card of seat `s` unlike the easy player's multiplies a world's
        likelihood by, if `s` holds the called card exactly when `holds`: the teammate's
        counts less (the replay, `world`, and the chain, `factor`, alike)."""
        return TEAM_MISMATCH if self._teammate(s, holds) else PLAY_MISMATCH

    def _teammate(self, s: int, holds: bool) -> bool:
        """Whether seat `s` plays on the deciding seat's side if `s` holds the called
        card exactly when `holds`."""
        bidder = self.bidder
        if self.all_pass or bidder < 0:
            return False
        if self.know.seat == bidder:
            return holds
        if self.holds_called:
            return s == bidder
        return s != bidder and not holds


class Chain:
    """Worlds drawn from the posterior of the others' hands by a Metropolis chain: the
    state is a sampled deal of the unseen cards, a step swaps two unseen cards between
    two places (where both may be), accepted with the ratio of the likelihoods
    (`_History.factor`, which only the two places' seats change)."""

    def __init__(self, history: _History, rng: random.Random, start_tries: int = 2
                 ) -> None:
        history._prepare_factors()
        self.h = history
        self.rng = rng
        know = history.know
        self.n = know.n
        self.allowed: dict[int, tuple[int, ...]] = {card: sinks for card, sinks in know.allowed}
        self.cards = [card for card, _ in know.allowed]
        self.start_tries = start_tries
        self.sinks: list[int] | None = None
        self.where: dict[int, int] = {}  # the sink of each unseen card in `sinks`
        self.restart()

    def restart(self) -> None:
        """A fresh state: the likeliest of a few independent draws from the prior or,
        with `RESTART_DRAWS`, one of that many draws picked with probability in
        proportion to the likelihood of what the others did (`_resample`: the bidding,
        which moves slowest by swaps of single cards, and the cards they played)."""
        know = self.h.know
        best: list[int] | None = None
        if RESTART_DRAWS > 0:
            best = self._resample(RESTART_DRAWS)
        else:
            best_like = -1.0
            for _ in range(self.start_tries):
                sinks = sample_sinks(know, self.rng)
                if sinks is None:
                    break
                like = self.total(sinks)
                if like > best_like:
                    best, best_like = sinks, like
        self.sinks = best
        if best is not None:
            self.where = {}
            for card in self.cards:
                for s, mask in enumerate(best):
                    if mask >> card & 1:
                        self.where[card] = s
                        break

    def _resample(self, draws: int) -> list[int] | None:
        """One of `draws` independent draws, picked in proportion to the likelihood of
        what the others did (`RESTART_FULL`), or of the bidding alone (importance
        resampling)."""
        h = self.h
        know = h.know
        deals: list[list[int]] = []
        weights: list[float] = []
        total = 0.0
        full = RESTART_FULL > 0
        for _ in range(draws):
            sinks = sample_sinks(know, self.rng)
            if sinks is None:
                break
            like = self.total(sinks) if full else h.bidding.total(sinks)
            deals.append(sinks)
            weights.append(like)
            total += like
        if not deals:
            return None
        pick = self.rng.random() * total
        for i, like in enumerate(weights):
            if pick < like:
                return deals[i]
            pick -= like
        return deals[-1]

    def _seat_factor(self, sinks: list[int], s: int, bound: float = 0.0) -> float:
        if s >= self.n or s == self.h.know.seat:
            return 1.0
        return self.h.factor(s, sinks[s] | self.h.know.fixed[s], sinks[self.n], bound)

    def total(self, sinks: list[int]) -> float:
        like = 1.0
        for s in range(self.n):
            like *= self._seat_factor(sinks, s)
        return like

    def step(self) -> None:
        sinks = self.sinks
        assert sinks is not None
        cards = self.cards
        if len(cards) < 2:
            return
        rng = self.rng
        x = cards[int(rng.random() * len(cards))]
        y = cards[int(rng.random() * len(cards))]
        a, b = self.where[x], self.where[y]
        if a == b or b not in self.allowed[x] or a not in self.allowed[y]:
            return
        n = self.n
        bidder = self.h.bidder
        touched = {s for s in (a, b, bidder if n in (a, b) else -1) if 0 <= s < n}
        old = 1.0
        for s in touched:
            old *= self._seat_factor(sinks, s)
        new_sinks = sinks[:]
        bx, by = 1 << x, 1 << y
        new_sinks[a] = new_sinks[a] & ~bx | by
        new_sinks[b] = new_sinks[b] & ~by | bx
        threshold = rng.random() * old  # accepted with probability min(1, new / old)
        new = 1.0
        for s in touched:
            new *= self._seat_factor(new_sinks, s, threshold / new if new > 0 else 1.0)
            if new <= threshold:
                return
        if new > threshold:
            self.sinks = new_sinks
            self.where[x], self.where[y] = b, a

    def sample(self, steps: int, restart: bool = False) -> Sim | None:
        if restart:
            self.restart()
        if self.sinks is None:
            return None
        for _ in range(steps):
            self.step()
        return self.h.world(self.sinks, 1.0, -1.0)[0]
