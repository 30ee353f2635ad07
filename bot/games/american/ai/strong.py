"""The strong player: determinized Monte-Carlo search over what the seat may know.

A decision samples worlds: the cards the seat has not seen (the other hands' cards not
known to be there, every face-down row, its own included, and the deck) dealt at random
into their places, consistently with everything public (the pile, the burned cards, the
face-up rows, the cards seen going into a hand, every size). In each world every
candidate action is played, then the deal is played out to its end with the easy policy
for every seat; a candidate scores the seat's place (1 for first out, 0 for last). The
same worlds serve every candidate, so their differences are not card luck. (Since issue
40 play-outs stop at the next player out and score whether it is the seat; with 3-5
players they also branch once, at the seat's own next play, where each play it has is
played out and the best counts: SEAT_REPLY.) Worlds are sampled until STRONG_BUDGET
seconds have passed and there are at least MIN_WORLDS (at most MAX_WORLDS).

Candidates: in play, each playable rank with every copy and with one copy (and the
pick-up where it is allowed); in a swap, the face-up rows the easy value ranks best
(SWAP_CANDIDATES of the twenty, the easy swap and no swap among them). A turn-over has no
choice worth searching: every face-down position is alike to the seat, so it turns the
first. A move with a single candidate is made at once.
"""

from __future__ import annotations

import random
import time
from itertools import combinations
from typing import Final

from bot.cards import FULL_PACK, cards_of
from bot.games.american.actions import Action
from bot.games.american.deal import Deal
from bot.games.american.state import (
    DONE,
    FINISHED,
    FLIP_PHASE,
    IN_PROGRESS,
    MAX_ACTIONS,
    PLAY_PHASE,
    RANK_CARDS,
    DealState,
)
from bot.games.american.views import DealView

from .easy import easy_action, easy_step, styled_step, swap_choice, swap_value
from .inference import Reading
from .switch import switch_point

# Tuning values: plain globals, read at each use, so a benchmark may set them (compiled
# too).
STRONG_BUDGET: float = 0.010  # seconds of sampling a decision aims at
MIN_WORLDS: int = 8  # worlds sampled whatever the time
MAX_WORLDS: int = 400  # never more worlds than this
# With 3-5 players, at least this many worlds and this budget: the strength there grows
# with worlds well past the two-player floor (4 players against three easy, 600 games:
# 37% at 30 worlds, 44% at 100), and a world costs about as much (bench/ai_american.py).
MULTI_MIN_WORLDS: int = 100
MULTI_BUDGET: float = 0.010
# ... but never past this many seconds once MIN_WORLDS are done: with SEAT_REPLY a world
# early in a five-player deal costs up to 15 ms (100 worlds took 1.5 s CPU at most, p99
# 250 ms, over the 200 ms budget).
MULTI_CAP: float = 0.120
DAILY_WORLDS: int = 24  # the deal of the day's strong AI: this many, no clock (kind.py)
SWAP_CANDIDATES: int = 6  # face-up rows searched in a swap
PLAYOUT_LIMIT: int = 500  # actions a play-out goes on for at most (then: a draw)
# Play-outs stop at the next player out and score 1 if it is the seat: the deal is won by
# the first out (docs/rules-american.md section 6), and once someone is out, the best place
# left. False: play to the end and score the seat's place (the player before issue 40).
NEXT_OUT: bool = True
# Worlds agree with what the table showed of the others' hands (inference.py); False:
# every unseen card anywhere (the player before issue 40).
READ_TABLE: bool = True
# With 3-5 players, a play-out branches once more at the seat's own next play: each of
# its plays there is played out, and the best counts (in that world, so a little
# optimistic); False: the easy policy there too (the player before this).
SEAT_REPLY: bool = True
# In play-outs each other seat plays the style the table has shown of it (inference.py's
# Reading.styles: easy's rules of thumb, or 2s, 10s and aces spent early, or one copy at
# a time); False: the easy policy for every seat (the player before this).
MODEL_PLAY: bool = True
TUNING: Final = ("STRONG_BUDGET", "MIN_WORLDS", "MAX_WORLDS", "MULTI_MIN_WORLDS",
                 "MULTI_BUDGET", "MULTI_CAP", "SWAP_CANDIDATES",
                 "PLAYOUT_LIMIT", "NEXT_OUT", "READ_TABLE", "SEAT_REPLY", "MODEL_PLAY")

_NO_DEAL: Final = Deal((), (), (), ())  # a world's state needs a Deal; nothing reads it


def _mask(cards: tuple[int, ...]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


class Sampler:
    """The seat's view, and the worlds consistent with it."""

    def __init__(self, view: DealView) -> None:
        seat = view.seat
        hand = view.hand
        if seat is None or hand is None:
            raise ValueError("the strong player needs a seat's view")
        self.view = view
        self.seat = seat
        seen = _mask(hand) | _mask(view.pile) | _mask(view.burned)
        hidden_hand: list[int] = []
        for other in view.seats:
            seen |= _mask(other.up) | _mask(other.known)
            hidden_hand.append(0 if other.seat == seat
                               else other.hand_size - len(other.known))
        self.hand_mask = _mask(hand)
        self.unseen: list[int] = list(cards_of(FULL_PACK & ~seen))
        self.hidden_hand = hidden_hand
        slots = sum(hidden_hand) + sum(s.down for s in view.seats) + view.deck
        if slots != len(self.unseen):
            raise ValueError(f"{len(self.unseen)} unseen cards for {slots} places")
        n = view.rules.players
        self.out = 0
        for other in view.seats:
            if other.out:
                self.out |= 1 << other.seat
        self.swaps_done = (view.to_act or 0) - view.dealer - 1
        self.swaps_done %= n
        # Per seat, the ranks each of its hidden hand cards cannot be (inference.py):
        # only the entries that rule something out, most first.
        self.excluded: list[list[int]] = []
        self.constrained = False
        reading = Reading(view) if READ_TABLE else None
        for other in view.seats:
            entries = [] if reading is None else \
                [mask for mask in reading.excluded[other.seat] if mask]
            self.excluded.append(entries)
            if entries:
                self.constrained = True
        # Per seat, the style its play-outs use; None: every seat plays easy's.
        self.styles: list[int] | None = None
        if reading is not None and MODEL_PLAY and any(reading.styles):
            self.styles = reading.styles

    def world(self, rng: random.Random) -> DealState:
        """A deal state with the unseen cards dealt at random into their places."""
        view = self.view
        cards = self.unseen[:]
        rng.shuffle(cards)
        chosen: list[list[int]] = [[] for _ in view.seats]
        if self.constrained:
            # First the hidden hand cards the table's reading rules ranks out for: each
            # the first card of the shuffled rest it allows (none allows: the first).
            for other in view.seats:
                for ruled_out in self.excluded[other.seat]:
                    pick = 0
                    for i in range(len(cards)):
                        if not ruled_out >> (cards[i] % 13) & 1:
                            pick = i
                            break
                    chosen[other.seat].append(cards[pick])
                    cards[pick] = cards[-1]
                    cards.pop()
        state = DealState(view.rules, view.dealer, _NO_DEAL, False, _blank=True)
        n = view.rules.players
        options = view.rules.options
        state.n = n
        state.same_rank = "same_rank" in options
        state.four_burns = "four_burns" in options
        state.blind_down = "blind_down" in options
        state.voluntary_pickup = "voluntary_pickup" in options
        pos = 0
        hands: list[int] = []
        known: list[int] = []
        up: list[list[int]] = []
        down: list[list[int]] = []
        for other in view.seats:
            seat_known = _mask(other.known)
            if other.seat == self.seat:
                hand = self.hand_mask
            else:
                hand = seat_known
                for card in chosen[other.seat]:
                    hand |= 1 << card
                free = self.hidden_hand[other.seat] - len(chosen[other.seat])
                for card in cards[pos:pos + free]:
                    hand |= 1 << card
                pos += free
            hands.append(hand)
            known.append(seat_known)
            up.append(list(other.up))
            down.append(cards[pos:pos + other.down])
            pos += other.down
        state.hands = hands
        state.known = known
        state.up = up
        state.down = down
        state.deck = tuple(cards[pos:])
        state.deck_pos = 0
        state.pile = list(view.pile)
        state.burned = list(view.burned)
        state.out = self.out
        state.places = list(view.out_order)
        state.phase = view.phase
        state.to_act = view.to_act if view.to_act is not None else 0
        state.starter = view.starter if view.starter is not None else -1
        state.swaps_done = self.swaps_done
        state.outcome = IN_PROGRESS
        state.actions = []
        return state


def place_score(state: DealState, seat: int) -> float:
    """The seat's result of a played-out world: 1 for first out, 0 for last, a half for
    a deal not ended (or drawn)."""
    if state.phase != DONE or state.outcome != FINISHED:
        return 0.5
    n = state.n
    return (n - 1 - state.places.index(seat)) / (n - 1)


def _step(state: DealState, styles: list[int] | None) -> None:
    """One action of a play-out: the easy policy's, or the seat's style (`styles`)."""
    if styles is None:
        easy_step(state)
    else:
        styled_step(state, styles)


def _play_out(state: DealState, limit: int, styles: list[int] | None) -> None:
    """Play `state` on to the deal's end (or `limit` actions) with the easy policy, each
    seat in its style (`styles`, if given), as `_next_out_score` does to the next out."""
    steps = 0
    while state.phase != DONE and steps < limit:
        _step(state, styles)
        steps += 1


def _next_out_score(state: DealState, seat: int, placed: int, limit: int,
                    styles: list[int] | None) -> float:
    """Play `state` on with the easy policy (each seat's style in `styles`, if given)
    until a player more than `placed` is out: 1 if that player is `seat`, else 0; a half
    if the deal ends drawn or `limit` actions pass first."""
    steps = 0
    while state.phase != DONE and steps < limit and len(state.places) == placed:
        _step(state, styles)
        steps += 1
    if len(state.places) == placed:
        return 0.5
    return 1.0 if state.places[placed] == seat else 0.0


def _reply_score(state: DealState, seat: int, placed: int, limit: int,
                 styles: list[int] | None) -> float:
    """As `_next_out_score`, but at the seat's next play with a choice every play it
    has (each rank with every copy and with one) is played out, and the best scores."""
    steps = 0
    while state.phase != DONE and steps < limit and len(state.places) == placed:
        if state.to_act == seat and state.phase == PLAY_PHASE:
            playable = state.playable_mask()
            if playable & (playable - 1):  # more than one card: a choice
                return _best_play(state, seat, placed, limit - steps, playable, styles)
        _step(state, styles)
        steps += 1
    if len(state.places) == placed:
        return 0.5
    return 1.0 if state.places[placed] == seat else 0.0


def _best_play(state: DealState, seat: int, placed: int, limit: int,
               playable: int, styles: list[int] | None) -> float:
    best = 0.0
    hand = state.hands[seat]
    for rank in range(13):
        if not playable & RANK_CARDS[rank]:
            continue
        same = cards_of(hand & RANK_CARDS[rank])
        for count in (len(same), 1):
            branch = state.copy()
            branch.play(seat, same[:count])
            if len(branch.places) > placed:
                value = 1.0 if branch.places[placed] == seat else 0.0
            else:
                value = _next_out_score(branch, seat, placed, limit, styles)
            if value > best:
                best = value
                if best >= 1.0:
                    return best
            if len(same) == 1:
                break
    return best


def play_candidates(view: DealView) -> list[Action]:
    """Each playable rank with every copy and with one copy; the pick-up if allowed.
    The easy player's choice first (it wins ties)."""
    legal = view.legal
    seat = view.seat
    assert legal is not None and seat is not None
    first = easy_action(view, random.Random(0))
    out = [first]
    for rank in legal.ranks:
        same = legal.cards_of_rank(rank)
        for cards in (same, same[:1]):
            action = Action.play(seat, cards)
            if action not in out:
                out.append(action)
    if legal.can_pickup and Action.pickup(seat) not in out:
        out.append(Action.pickup(seat))
    return out


def swap_candidates(view: DealView) -> list[Action]:
    """The easy swap, no swap, and the face-up rows of the best easy value, to
    SWAP_CANDIDATES in all."""
    legal = view.legal
    seat = view.seat
    assert legal is not None and seat is not None
    hand, up = legal.hand, legal.up
    given, taken = swap_choice(hand, up)
    out = [Action.swap(seat, given, taken), Action.swap(seat, (), ())]
    rows = sorted(combinations(hand + up, len(up)),
                  key=lambda row: (-sum(swap_value(c) for c in row), row))
    for row in rows:
        if len(out) >= SWAP_CANDIDATES:
            break
        given = tuple(c for c in hand if c in row)
        taken = tuple(c for c in up if c not in row)
        action = Action.swap(seat, given, taken)
        if action not in out:
            out.append(action)
    return out


def strong_action(view: DealView, rng: random.Random, budget: float | None = None,
                  max_worlds: int | None = None) -> Action:
    """The strong player's action for the seat of `view`, whose turn it must be:
    sampling for `budget` seconds (default STRONG_BUDGET; MULTI_BUDGET with 3-5
    players) and at least MIN_WORLDS worlds (MULTI_MIN_WORLDS with 3-5 players), at most
    `max_worlds` (default MAX_WORLDS), which also caps the least."""
    legal = view.legal
    seat = view.seat
    if legal is None or seat is None:
        raise ValueError("strong_action needs the view of the seat to act")
    if legal.phase == FLIP_PHASE:
        return Action.flip(seat, legal.indexes[0])
    candidates = play_candidates(view) if legal.phase == PLAY_PHASE else swap_candidates(view)
    if len(candidates) == 1:
        return candidates[0]
    multi = view.rules.players > 2
    if budget is None:
        budget = MULTI_BUDGET if multi else STRONG_BUDGET
    min_worlds = MULTI_MIN_WORLDS if multi else MIN_WORLDS
    if max_worlds is None:
        max_worlds = MAX_WORLDS
    # The cap only with the clock on (a budget of 1e9, as the deal of the day and the
    # tests give, counts worlds only).
    cap = MULTI_CAP if multi and budget < 1.0 else budget
    return _search(view, candidates, rng, budget, min(min_worlds, max_worlds), max_worlds,
                   cap, min(MIN_WORLDS, max_worlds))


def _search(view: DealView, candidates: list[Action], rng: random.Random, budget: float,
            min_worlds: int, max_worlds: int, cap: float, floor: int) -> Action:
    sampler = Sampler(view)
    seat = sampler.seat
    limit = min(PLAYOUT_LIMIT, MAX_ACTIONS - view.actions - 1)
    totals = [0.0] * len(candidates)
    start = time.perf_counter()
    worlds = 0
    next_out = NEXT_OUT
    reply = SEAT_REPLY and view.rules.players > 2
    styles = sampler.styles
    while worlds < max_worlds:
        world = sampler.world(rng)
        placed = len(world.places)
        for index, action in enumerate(candidates):
            state = world.copy()
            state.apply(action)
            if not next_out:
                _play_out(state, limit, styles)
                totals[index] += place_score(state, seat)
            elif len(state.places) > placed:  # the action itself put the seat out
                totals[index] += 1.0 if state.places[placed] == seat else 0.0
            elif reply:
                totals[index] += _reply_score(state, seat, placed, limit, styles)
            else:
                totals[index] += _next_out_score(state, seat, placed, limit, styles)
        worlds += 1
        switch_point()  # compiled, other threads get the GIL only here (switch.py)
        elapsed = time.perf_counter() - start
        if (worlds >= min_worlds and elapsed > budget) or (worlds >= floor
                                                           and elapsed > cap):
            break
    best = 0
    for index in range(1, len(candidates)):
        if totals[index] > totals[best]:
            best = index
    return candidates[best]

