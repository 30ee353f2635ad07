"""A lean trick-play state for AI play-outs and endgame search.

`Sim` holds only what trick play needs (hands as masks, the trick, trump, who won what)
and plays a card in a few integer operations, with no checks and no action records.
It is built either from a full `Hand` (a sampled world: every hand known) or from a
seat's `HandView` (only that seat's hand known; the others are empty masks). The easy
player's card policy reads a `Sim` and looks only at the acting seat's own hand and at
public facts, so one policy serves both real decisions and play-outs.

The trick rules follow docs/rules-amerikaner.md § 6 and `amerikaner.hand` exactly (tests compare
the two over random play-outs).

Compiled with mypyc in regular installs, with the rest of the AI's hot path (setup.py).
"""

from __future__ import annotations

from typing import Final

from bot.cards import JOKER_BASE, SUIT_MASKS, SUITS, mask_of
from bot.games.amerikaner.hand import Hand
from bot.games.amerikaner.rules import Rules
from bot.games.amerikaner.scoring import score_hand
from bot.games.amerikaner.views import HandView

# `Final`: the compiled build (mypyc) reads these as C constants.
NO_TRUMP: Final = -1
GRAND: Final = 4
LEAD_WINS: Final = 1000
JOKER_LED: Final = -2


def _table(trump: int, led: int) -> tuple[int, ...]:
    out = []
    for card in range(JOKER_BASE + 3):
        suit = card // 13 if card < JOKER_BASE else -1
        if suit < 0:
            out.append(-1)
        elif suit == trump:
            out.append(100 + card % 13)
        elif suit == led:
            out.append(50 + card % 13)
        else:
            out.append(-1)
    return tuple(out)


# STRENGTH[trump + 1][led], trump -1..4 (4 = grand), led 0..3 or 4 for a joker led.
STRENGTH: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_table(trump, led) for led in range(5)) for trump in range(-1, 5))


def trump_index(name: str | None) -> int:
    if name is None:
        return NO_TRUMP
    return GRAND if name == "grand" else SUITS.index(name)


# Sim's slots, also kept here: a compiled class has no `__slots__` attribute at run time.
SIM_SLOTS: Final = (
    "rules", "n", "hands", "trump", "two_wins", "trick", "leader", "led", "win_seat",
    "win_str", "table", "tricks_won", "tricks_done", "total", "played", "called",
    "called_holder", "partner", "bidder", "to_act", "contract", "all_pass", "discards",
    "out", "top",
)


class Sim:
    """Trick play from some point to the end of the hand. Made with no arguments, it has
    no attribute set: `sim_from_hand`, `sim_from_view` or `copy` set them all."""

    __slots__ = SIM_SLOTS

    rules: Rules
    n: int
    hands: list[int]
    trump: int
    two_wins: bool
    trick: list[int]
    leader: int
    led: int
    win_seat: int
    win_str: int
    table: tuple[int, ...]
    tricks_won: list[int]
    tricks_done: int
    total: int
    played: int
    called: int
    called_holder: int
    partner: int
    bidder: int
    to_act: int
    contract: int
    all_pass: bool
    discards: int
    out: int
    top: bool

    def copy(self) -> Sim:
        """An independent copy: lists are copied, the rest shared. Written out attribute
        by attribute (a new slot must be added here too)."""
        new = Sim()
        new.rules = self.rules
        new.n = self.n
        new.hands = self.hands[:]
        new.trump = self.trump
        new.two_wins = self.two_wins
        new.trick = self.trick[:]
        new.leader = self.leader
        new.led = self.led
        new.win_seat = self.win_seat
        new.win_str = self.win_str
        new.table = self.table
        new.tricks_won = self.tricks_won[:]
        new.tricks_done = self.tricks_done
        new.total = self.total
        new.played = self.played
        new.called = self.called
        new.called_holder = self.called_holder
        new.partner = self.partner
        new.bidder = self.bidder
        new.to_act = self.to_act
        new.contract = self.contract
        new.all_pass = self.all_pass
        new.discards = self.discards
        new.out = self.out
        new.top = self.top
        return new

    @property
    def finished(self) -> bool:
        return self.tricks_done >= self.total

    def legal(self) -> int:
        """The cards the seat to act may play (not for the opening lead of a number bid,
        which `Hand` handles)."""
        held = self.hands[self.to_act]
        if not self.trick:
            return held
        if self.tricks_done == 0 and self.to_act == self.called_holder:
            return 1 << self.called
        led = self.led
        if led < 0:
            return held
        follow = held & SUIT_MASKS[led]
        return follow if follow else held

    def play(self, card: int) -> None:
        seat = self.to_act
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        if trick:
            strength = self.table[card]
            if strength > self.win_str:
                self.win_seat = seat
                self.win_str = strength
        else:
            self.leader = seat
            self.win_seat = seat
            if card >= JOKER_BASE:
                self.led = JOKER_LED
                self.table = STRENGTH[self.trump + 1][4]
                self.win_str = LEAD_WINS
            else:
                led = self.led = card // 13
                self.table = table = STRENGTH[self.trump + 1][led]
                self.win_str = LEAD_WINS if self.two_wins and card % 13 == 0 else table[card]
        trick.append(card)
        if card == self.called:
            self.partner = seat
        if len(trick) == self.n:
            winner = self.win_seat
            self.tricks_won[winner] += 1
            self.trick = []
            self.led = -1
            self.tricks_done += 1
            self.to_act = winner
        else:
            self.to_act = seat + 1 if seat + 1 < self.n else 0

    def scores(self) -> list[int]:
        """Each seat's score for the hand (call when finished)."""
        return score_hand(self.rules, self.contract, self.bidder, self.partner,
                          self.tricks_won, self.all_pass)[0]

    def trick_seats(self) -> list[int]:
        n = self.n
        return [(self.leader + i) % n for i in range(len(self.trick))]


def _finish_setup(sim: Sim, rules: Rules) -> None:
    sim.rules = rules
    sim.n = rules.players
    sim.two_wins = "two_wins" in rules.options
    sim.total = rules.cards_each
    sim.out = 0
    for card in rules.removed:
        sim.out |= 1 << card
    # The current trick's winner, recomputed from its cards.
    sim.win_seat = -1
    sim.win_str = -1
    sim.table = STRENGTH[sim.trump + 1][4]
    trick = sim.trick
    if trick:
        first = trick[0]
        if first >= JOKER_BASE:
            sim.led = JOKER_LED
            sim.table = STRENGTH[sim.trump + 1][4]
            sim.win_str = LEAD_WINS
        else:
            sim.led = first // 13
            sim.table = STRENGTH[sim.trump + 1][sim.led]
            sim.win_str = (LEAD_WINS if sim.two_wins and first % 13 == 0
                           else sim.table[first])
        sim.win_seat = sim.leader
        for i, card in enumerate(trick[1:], 1):
            strength = sim.table[card]
            if strength > sim.win_str:
                sim.win_str = strength
                sim.win_seat = (sim.leader + i) % sim.n
    else:
        sim.led = -1


def sim_from_hand(hand: Hand) -> Sim:
    """A `Sim` of a hand in trick play (after the opening lead, or an all-pass hand's
    first lead), every hand known."""
    sim = Sim()
    sim.hands = hand.hands[:]
    sim.trump = hand.trump
    sim.trick = hand.trick[:]
    sim.leader = hand.leader if hand.trick else -1
    sim.tricks_won = hand.tricks_won[:]
    sim.tricks_done = hand.tricks_done
    sim.played = hand.played
    sim.called = hand.called
    sim.called_holder = hand.called_holder
    sim.partner = hand.partner
    sim.bidder = hand.bidder
    sim.to_act = hand.to_act
    sim.contract = hand.high_bid
    sim.all_pass = hand.all_pass
    sim.discards = hand.discards
    sim.top = not hand.with_trumps and not hand.all_pass
    _finish_setup(sim, hand.rules)
    return sim


def sim_from_view(view: HandView) -> Sim:
    """A `Sim` as `view.seat` sees it: its own hand, the others empty."""
    assert view.seat is not None and view.cards is not None
    rules = view.rules
    n = rules.players
    sim = Sim()
    hands = [0] * n
    hands[view.seat] = mask_of(view.cards)
    sim.hands = hands
    sim.trump = trump_index(view.trump)
    played = 0
    for trick in view.tricks:
        for _, card in trick.plays:
            played |= 1 << card
    if view.trick:
        sim.trick = [card for _, card in view.trick.plays]
        sim.leader = view.trick.leader
        for card in sim.trick:
            played |= 1 << card
    else:
        sim.trick = []
        sim.leader = -1
    sim.played = played
    sim.tricks_won = list(view.tricks_won)
    sim.tricks_done = len(view.tricks)
    sim.called = view.called if view.called is not None else -1
    holds_called = sim.called >= 0 and hands[view.seat] >> sim.called & 1 == 1
    sim.called_holder = view.seat if holds_called else -1
    sim.partner = view.partner if view.partner is not None else -1
    sim.bidder = view.bidder if view.bidder is not None else -1
    sim.to_act = view.to_act if view.to_act is not None else view.seat
    contract = view.contract
    sim.contract = (rules.top_value if isinstance(contract, str)
                    else contract if contract is not None else 0)
    sim.all_pass = view.all_pass
    sim.discards = mask_of(view.discards) if view.discards else 0
    sim.top = sim.contract == rules.top_value and not rules.style.top_with_trumps
    _finish_setup(sim, rules)
    return sim
