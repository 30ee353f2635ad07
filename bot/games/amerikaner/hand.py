"""One hand as a state machine: exchange, bidding, kitty, opening lead, tricks, scoring.

The state is mutable for speed (AI search copies and plays out thousands of hands), but
only the methods here change it, and each either applies an action whole or raises a
`GameError` having changed nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import FunctionType
from typing import Any, Final

from bot.cards import (
    COURT_MASK,
    JOKER_BASE,
    JOKER_MASK,
    SUIT_MASKS,
    SUITS,
    Card,
    CardMask,
    Seat,
    cards_of,
    held_mask,
    mask_of,
)
from bot.errors import (
    CARD_NOT_IN_HAND,
    INVALID_RECORD,
    NOT_YOUR_TURN,
    WRONG_CARD_COUNT,
    WRONG_PHASE,
    GameError,
)

from .actions import TRUMP_CHOICES, Action
from .deal import Deal
from .errors import (
    ALREADY_PASSED,
    BID_TOO_HIGH,
    BID_TOO_LOW,
    INVALID_CALL,
    INVALID_LEAD,
    INVALID_TRUMP,
    MUST_FOLLOW_SUIT,
    MUST_PLAY_CALLED_CARD,
    REDEAL_NOT_ALLOWED,
)
from .rules import Rules
from .scoring import score_hand

# Module constants are `Final`: the compiled build (mypyc) then reads them as C constants
# instead of looking them up in the module's dict on every use.
EXCHANGE: Final = "exchange"
BID: Final = "bid"
DISCARD: Final = "discard"
LEAD: Final = "lead"
PLAY: Final = "play"
DONE: Final = "done"

PHASE_KINDS: Final[dict[str, tuple[str, ...]]] = {
    EXCHANGE: ("exchange",),
    BID: ("pass", "bid", "redeal"),
    DISCARD: ("discard",),
    LEAD: ("play",),
    PLAY: ("play",),
    DONE: (),
}

MADE: Final = "made"
FAILED: Final = "failed"
THROWN_IN: Final = "thrown_in"
REDEAL: Final = "redeal"
ALL_PASS_PLAYED: Final = "all_pass_played"
IN_PROGRESS: Final = "in_progress"

NO_TRUMP: Final = -1
GRAND: Final = 4
PASS: Final = 0  # a pass in the auction list
LEAD_WINS: Final = 1000  # strength of a led joker, or a led 2 under `two_wins`


def _strength_table(trump: int, led: int) -> tuple[int, ...]:
    """How strongly each card bids for a trick: a trump beats the suit led, which beats
    the rest (and jokers not led), which cannot win."""
    table = []
    for card in range(JOKER_BASE + 3):
        suit = card // 13 if card < JOKER_BASE else -1
        if suit < 0:
            table.append(-1)
        elif suit == trump:
            table.append(100 + card % 13)
        elif suit == led:
            table.append(50 + card % 13)
        else:
            table.append(-1)
    return tuple(table)


# STRENGTH[trump + 1][led]: trump -1 (none) .. 3, and 4 (grand); led 0..3, 4 = a joker.
STRENGTH: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_strength_table(trump, led) for led in range(5)) for trump in range(-1, 5))

# `Final` names are static in the compiled build (no look-up in the module's dict per call).
_new_tuple: Final = tuple.__new__
_ACTION: Final = Action
if Action._fields != ("seat", "kind", "bid", "cards", "card", "call", "trump"):
    raise ImportError("bot.games.amerikaner.hand builds Action tuples field by field "
                      "(see _action): update it with actions.py")


def _action(seat: Seat, kind: str, bid: int | str | None = None, cards: tuple[Card, ...] = (),
            card: int | None = None, call: int | None = None,
            trump: str | None = None) -> Action:
    """`Action(...)` without the named tuple's Python-level `__new__` (several times
    slower than a call to `tuple.__new__`, which is all it does)."""
    return _new_tuple(_ACTION, (seat, kind, bid, cards, card, call, trump))


# Actions are immutable, so the common ones are made once and shared: a play to a trick
# is `_PLAY_ACTIONS[seat][card]`, a pass `_PASS_ACTIONS[seat]` (seats beyond the table,
# which no rule set has, are made on the spot).
_CACHED_SEATS: Final = 8
_PLAY_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action(seat, "play", None, (), card) for card in range(JOKER_BASE + 3))
    for seat in range(_CACHED_SEATS))
_PASS_ACTIONS: Final[tuple[Action, ...]] = tuple(Action(seat, "pass")
                                                 for seat in range(_CACHED_SEATS))
# A number bid is `_BID_ACTIONS[seat][number]` (below 24: every rule set's bids, made on
# the spot otherwise).
_CACHED_BIDS: Final = 24
_BID_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action(seat, "bid", number) for number in range(_CACHED_BIDS))
    for seat in range(_CACHED_SEATS))
# _NEXT_SEATS[n][seat]: the seat after `seat` at a table of n.
_NEXT_SEATS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((seat + 1) % n for seat in range(n)) if n else () for n in range(_CACHED_SEATS + 1))


def _normal_trump(text: str) -> str:
    """Trump names are case-insensitive on input: `h` is hearts, `Grand` no trumps."""
    text = text.strip()
    return "grand" if text.lower() == "grand" else text.upper()


def _trump_from_choice(choice: str) -> int:
    return GRAND if choice == "grand" else SUITS.index(choice)


def trump_name(trump: int) -> str | None:
    if trump == NO_TRUMP:
        return None
    return "grand" if trump == GRAND else SUITS[trump]


# True when the core runs compiled by mypyc (a regular install, see setup.py), False when
# it runs from the Python sources (an editable install, AMERIKANER_PURE=1, or a failed
# compile). Both behave the same. A compiled function is a built-in function object.
COMPILED: Final[bool] = not isinstance(trump_name, FunctionType)


class _RuleFacts:
    """The values of a rule set that every hand reads, read from `Rules` once per rule
    set: a `Rules` attribute costs a Python-level look-up, and its properties and
    methods a Python call (rules.py is not compiled)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.players
        self.n: int = n
        self.two_wins: bool = "two_wins" in rules.options
        self.kani: bool = rules.style.top_with_trumps
        self.min_bid: int = rules.min_bid
        self.max_bid: int = rules.max_bid
        self.top_value: int = rules.top_value
        self.cards_each: int = rules.cards_each
        self.first_phase: str = EXCHANGE if rules.blind_size else BID
        self.next_seat: tuple[int, ...] = (
            _NEXT_SEATS[n] if n <= _CACHED_SEATS else tuple((s + 1) % n for s in range(n)))


# Facts by `id(rules)`: each entry holds its `Rules`, so the id cannot be reused while the
# entry lives; the identity check is belt and braces. Tables use a handful of rule sets.
_FACTS: Final[dict[int, _RuleFacts]] = {}
_FACTS_MAX: Final = 256


def _facts_of(rules: Rules) -> _RuleFacts:
    facts = _FACTS.get(id(rules))
    if facts is None or facts.rules is not rules:
        if len(_FACTS) >= _FACTS_MAX:
            _FACTS.clear()
        facts = _FACTS[id(rules)] = _RuleFacts(rules)
    return facts


# Hand's slots, also kept here: a compiled class has no `__slots__` attribute at run time.
_HAND_SLOTS: Final = (
    "rules", "n", "dealer", "deal", "hands", "kitty", "blind", "phase", "to_act",
    "passed", "bid_made", "high_bid", "bidder", "auction", "exchanges", "discards",
    "trump", "called", "called_holder", "partner", "trick", "leader", "led_suit",
    "win_seat", "win_strength", "tricks_won", "tricks_done", "history", "played",
    "outcome", "scores", "actions", "all_pass", "_two_wins", "_strength", "_next_seat",
    "_kani", "_min_bid", "_max_bid", "_top_value", "_cards_each",
)


class Hand:
    """The state of one hand. Create it with a `Deal`; act with `apply` or the methods
    named after each action; ask `legal_*` for what the player to act may do."""

    __slots__ = _HAND_SLOTS

    rules: Rules
    n: int
    dealer: int
    deal: Deal
    hands: list[int]
    kitty: int
    blind: list[int]
    phase: str
    to_act: int
    passed: int
    bid_made: int
    high_bid: int
    bidder: int
    auction: list[tuple[int, int]]
    exchanges: list[int]
    discards: int
    trump: int
    called: int
    called_holder: int
    partner: int
    trick: list[int]
    leader: int
    led_suit: int
    win_seat: int
    win_strength: int
    tricks_won: list[int]
    tricks_done: int
    history: list[tuple[int, tuple[int, ...], int]]
    played: int
    outcome: str | None
    scores: list[int]
    actions: list[Action]
    all_pass: bool
    _two_wins: bool
    _strength: tuple[int, ...]
    _next_seat: tuple[int, ...]
    # Copies of rule values read on every bid or trick (a `Rules` attribute or property
    # costs a dict or Python-level lookup; these are plain slots).
    _kani: bool
    _min_bid: int
    _max_bid: int
    _top_value: int
    _cards_each: int

    def __init__(self, rules: Rules, dealer: int, deal: Deal, validate: bool = True,
                 *, _blank: bool = False) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deal = deal
        if _blank:
            return  # for `copy`, which sets every other attribute itself
        if validate:
            deal.validate(rules)
        facts = _facts_of(rules)
        n = facts.n
        self.n = n
        self.hands = [mask_of(cards) for cards in deal.hands]
        self.kitty = mask_of(deal.kitty)
        self.blind = list(deal.blind)
        self.passed = 0
        self.bid_made = 0
        self.high_bid = 0
        self.bidder = -1
        self.auction = []
        self.exchanges = [-1] * n
        self.discards = 0
        self.trump = NO_TRUMP
        self.called = -1
        self.called_holder = -1
        self.partner = -1
        self.trick = []
        self.leader = -1
        self.led_suit = -1
        self.win_seat = -1
        self.win_strength = -1
        self.tricks_won = [0] * n
        self.tricks_done = 0
        self.history = []
        self.played = 0
        self.outcome = None
        self.scores = [0] * n
        self.actions = []
        self.all_pass = False
        self._two_wins = facts.two_wins
        self._kani = facts.kani
        self._min_bid = facts.min_bid
        self._max_bid = facts.max_bid
        self._top_value = facts.top_value
        self._cards_each = facts.cards_each
        self._strength = STRENGTH[0][4]
        self._next_seat = facts.next_seat
        self.to_act = (dealer + 1) % n
        self.phase = facts.first_phase

    # ----------------------------------------------------------------- copying

    def copy(self) -> Hand:
        """An independent copy (for search): lists are copied, immutable parts shared.
        Written out attribute by attribute (no loop over `__slots__`): it is faster, and
        the compiled build (mypyc) needs it. A new slot must be added here too."""
        new = _blank_hand(self.rules, self.dealer, self.deal)
        new.n = self.n
        new.hands = self.hands[:]
        new.kitty = self.kitty
        new.blind = self.blind[:]
        new.phase = self.phase
        new.to_act = self.to_act
        new.passed = self.passed
        new.bid_made = self.bid_made
        new.high_bid = self.high_bid
        new.bidder = self.bidder
        new.auction = self.auction[:]
        new.exchanges = self.exchanges[:]
        new.discards = self.discards
        new.trump = self.trump
        new.called = self.called
        new.called_holder = self.called_holder
        new.partner = self.partner
        new.trick = self.trick[:]
        new.leader = self.leader
        new.led_suit = self.led_suit
        new.win_seat = self.win_seat
        new.win_strength = self.win_strength
        new.tricks_won = self.tricks_won[:]
        new.tricks_done = self.tricks_done
        new.history = self.history[:]
        new.played = self.played
        new.outcome = self.outcome
        new.scores = self.scores[:]
        new.actions = self.actions[:]
        new.all_pass = self.all_pass
        new._two_wins = self._two_wins
        new._strength = self._strength
        new._next_seat = self._next_seat
        new._kani = self._kani
        new._min_bid = self._min_bid
        new._max_bid = self._max_bid
        new._top_value = self._top_value
        new._cards_each = self._cards_each
        return new

    def __reduce__(self) -> tuple[object, ...]:
        """For pickle, copy.copy and copy.deepcopy, the same compiled or not: the default
        way (`Hand.__new__`, then set the slots) cannot make a compiled Hand, whose
        `__new__` runs `__init__`. copy.copy still shares the lists, deepcopy copies them."""
        return (_restore_hand, ({name: getattr(self, name) for name in _HAND_SLOTS},))

    # ----------------------------------------------------------------- questions

    @property
    def finished(self) -> bool:
        phase = self.phase
        # The identity test first answers the common case (asked before every card) without
        # comparing characters: "play" and "done" are the same length. This class only
        # assigns the phase constants; an equal string from elsewhere still compares equal.
        return phase is not PLAY and phase == DONE

    @property
    def contract(self) -> int:
        """The winning bid as a number (the top bid is `rules.top_value`), 0 if none."""
        if self.bidder < 0 or self.phase in (EXCHANGE, BID) or self.outcome == REDEAL:
            return 0
        return self.high_bid

    @property
    def is_top_contract(self) -> bool:
        return self.contract == self._top_value

    @property
    def with_trumps(self) -> bool:
        """Whether the contract is played with trumps and a call (number bids, Kani)."""
        return (not self.all_pass and self.bidder >= 0
                and (self._kani or self.high_bid != self._top_value))

    def holder_of(self, card: Card) -> Seat:
        bit = 1 << card
        for seat, held in enumerate(self.hands):
            if held & bit:
                return seat
        return -1

    def can_redeal(self, seat: Seat) -> bool:
        return (self.rules.style.redeal and self.phase == BID and seat == self.to_act
                and not self.bid_made >> seat & 1 and not self.hands[seat] & COURT_MASK)

    def legal_bids(self) -> list[int]:
        """The number bids open to the player to act, then the top bid (as its value)."""
        if self.phase != BID:
            return []
        bids = [bid for bid in range(max(self._min_bid, self.high_bid + 1), self._max_bid + 1)]
        bids.append(self._top_value)
        return bids

    def legal_play_mask(self) -> CardMask:
        """The cards the player to act may play now (lead or follow), as a mask."""
        held = self.hands[self.to_act]
        phase = self.phase
        if phase is not PLAY and phase != PLAY:  # `is` first: see `finished`
            if phase == LEAD:
                return held & ~JOKER_MASK if self.with_trumps else held
            return 0
        if not self.trick:
            return held
        if self.tricks_done == 0 and self.to_act == self.called_holder:
            return 1 << self.called
        led = self.led_suit
        if led < 0:
            return held  # a joker was led: anything goes
        follow = held & SUIT_MASKS[led]
        return follow if follow else held

    def callable_mask(self, suit: int) -> CardMask:
        """Cards the bidder may call when leading `suit`: that suit's cards not in the
        bidder's hand nor discards (they may lie in the blind or be out of the pack)."""
        return SUIT_MASKS[suit] & ~self.hands[self.bidder] & ~self.discards

    def lead_calls(self) -> dict[int, int]:
        """For the opening lead of a number bid or Kani: suit -> mask of callable cards,
        for every suit that may be led."""
        if self.phase != LEAD or not self.with_trumps:
            return {}
        held = self.hands[self.bidder]
        return {s: self.callable_mask(s) for s in range(4) if held & SUIT_MASKS[s]}

    # ----------------------------------------------------------------- acting

    def check_actor(self, seat: object, kind: str) -> None:
        """The checks that come before an action's own (docs/record-format.md order): the seat
        exists, redeal only in norsk, the phase, a passed seat, the turn."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise GameError(INVALID_RECORD, reason="no_seat", seat=seat, players=self.n)
        if kind == "redeal" and not self.rules.style.redeal:
            raise GameError(REDEAL_NOT_ALLOWED, reason="preset")
        if kind not in PHASE_KINDS[self.phase]:
            raise GameError(WRONG_PHASE, kind=kind, phase=self.phase)
        if self.phase == BID and self.passed >> seat & 1:
            raise GameError(ALREADY_PASSED)
        if seat != self.to_act:
            raise GameError(NOT_YOUR_TURN, to_act=self.to_act, seat=seat)

    def apply(self, action: Action) -> None:
        kind = action.kind
        if kind == "play":
            assert action.card is not None
            self.play(action.seat, action.card, action.call, action.trump)
        elif kind == "pass":
            self.pass_turn(action.seat)
        elif kind == "bid":
            assert action.bid is not None
            self.bid(action.seat, action.bid)
        elif kind == "discard":
            self.discard(action.seat, action.cards)
        elif kind == "exchange":
            self.exchange(action.seat, action.cards)
        elif kind == "redeal":
            self.redeal(action.seat)
        else:
            raise GameError(INVALID_RECORD, reason="unknown_action", kind=kind)

    def exchange(self, seat: Seat, cards: Sequence[Card]) -> None:
        self.check_actor(seat, "exchange")
        size = self.rules.blind_size
        if len(cards) > size:
            raise GameError(WRONG_CARD_COUNT, reason="exchange", size=size, count=len(cards))
        given = self._take_cards(seat, cards)
        k = len(cards)
        taken = self.blind[:k]
        self.hands[seat] = (self.hands[seat] & ~given) | sum(1 << c for c in taken)
        self.blind = self.blind[k:] + list(cards)
        self.exchanges[seat] = k
        self.actions.append(_action(seat, "exchange", cards=tuple(cards)))
        if all(count >= 0 for count in self.exchanges):
            self.phase = BID
            self.to_act = (self.dealer + 1) % self.n
        else:
            self.to_act = (seat + 1) % self.n

    def _take_cards(self, seat: Seat, cards: Sequence[Card]) -> CardMask:
        """The mask of `cards`, which must all be distinct and held by `seat`."""
        return held_mask(self.hands[seat], cards)

    def redeal(self, seat: Seat) -> None:
        self.check_actor(seat, "redeal")
        if self.bid_made >> seat & 1:
            raise GameError(REDEAL_NOT_ALLOWED, reason="after_bid")
        if self.hands[seat] & COURT_MASK:
            raise GameError(REDEAL_NOT_ALLOWED, reason="court_card")
        self.actions.append(_action(seat, "redeal"))
        self.outcome = REDEAL
        self.phase = DONE

    def bid(self, seat: Seat, value: object) -> None:
        """Bid `value`: a number, or the top bid's name. Anything else is refused with a
        `GameError` (records may hold anything)."""
        self.check_actor(seat, "bid")
        rules = self.rules
        if isinstance(value, str):
            if value.strip().lower() != rules.top_bid:
                raise GameError(BID_TOO_HIGH, reason="not_top_bid", value=value,
                                top_bid=rules.top_bid)
            number = self._top_value
        elif isinstance(value, int) and not isinstance(value, bool):
            number = value
            if number > self._max_bid:
                raise GameError(BID_TOO_HIGH, reason="above_maximum", max_bid=rules.max_bid,
                                top_bid=rules.top_bid)
            if number < self._min_bid:
                raise GameError(BID_TOO_LOW, reason="below_minimum", min_bid=rules.min_bid)
            if number <= self.high_bid:
                raise GameError(BID_TOO_LOW, reason="not_higher", high_bid=self.high_bid)
        else:
            raise GameError(BID_TOO_HIGH, reason="not_a_bid", value=value)
        top = number == self._top_value
        if top:  # recorded by name: rules.bid_name(number), without its Python-level call
            self.actions.append(_action(seat, "bid", bid=rules.top_bid))
        elif seat < _CACHED_SEATS and number < _CACHED_BIDS:
            self.actions.append(_BID_ACTIONS[seat][number])
        else:
            self.actions.append(_action(seat, "bid", bid=number))
        self.auction.append((seat, number))
        self.high_bid = number
        self.bidder = seat
        self.bid_made |= 1 << seat
        # Bidding ends at once on the top bid, and when every other player has passed
        # (docs/rules-amerikaner.md § 3, Decision): also when this bid comes after all the others
        # passed, so the bidder is not asked to speak again.
        if top or self._active_seats() == 1:
            self._end_bidding()
        else:
            self.to_act = self._next_bidder(seat)

    def pass_turn(self, seat: Seat) -> None:
        self.check_actor(seat, "pass")
        self.actions.append(_PASS_ACTIONS[seat] if seat < _CACHED_SEATS
                            else _action(seat, "pass"))
        self.auction.append((seat, PASS))
        self.passed |= 1 << seat
        active = self._active_seats()
        if active == 1 and self.bidder >= 0 and not self.passed >> self.bidder & 1:
            self._end_bidding()
        elif active == 0:
            # Everyone passed without a bid (a bid by the last player to speak ends the
            # bidding, so no bid can be left standing here).
            if "all_pass_play" in self.rules.options:
                self.all_pass = True
                self.phase = LEAD
                self.to_act = (self.dealer + 1) % self.n
            else:
                self.outcome = THROWN_IN
                self.phase = DONE
        else:
            self.to_act = self._next_bidder(seat)

    def _active_seats(self) -> int:
        return self.n - self.passed.bit_count()

    def _next_bidder(self, seat: Seat) -> Seat:
        n = self.n
        nxt = (seat + 1) % n
        while self.passed >> nxt & 1:
            nxt = (nxt + 1) % n
        return nxt

    def _end_bidding(self) -> None:
        self.to_act = self.bidder
        if self.kitty:
            self.hands[self.bidder] |= self.kitty
            self.phase = DISCARD
        else:
            self.phase = LEAD

    def discard(self, seat: Seat, cards: Sequence[Card]) -> None:
        self.check_actor(seat, "discard")
        size = self.rules.kitty_size
        if len(cards) != size:
            raise GameError(WRONG_CARD_COUNT, reason="discard", size=size, count=len(cards))
        mask = self._take_cards(seat, cards)
        self.hands[seat] &= ~mask
        self.discards = mask
        if "kitty_trick" in self.rules.options:
            self.tricks_won[seat] += 1
        self.actions.append(_action(seat, "discard", cards=tuple(cards)))
        self.phase = LEAD

    def play(self, seat: Seat, card: Card, call: Card | None = None,
             trump: str | None = None) -> None:
        if self.phase != PLAY or seat != self.to_act or call is not None \
                or trump is not None:
            self._play_checked(seat, card, call, trump)
            return
        # The common case, kept tight for AI play-outs: a card played to a trick.
        held = self.hands[seat]
        bit = 1 << card
        if not held & bit:
            raise GameError(CARD_NOT_IN_HAND, card=card, twice=False)
        trick = self.trick
        if trick:
            if self.tricks_done == 0 and seat == self.called_holder and card != self.called:
                raise GameError(MUST_PLAY_CALLED_CARD, card=self.called)
            led = self.led_suit
            if led >= 0 and held & SUIT_MASKS[led] and not bit & SUIT_MASKS[led]:
                raise GameError(MUST_FOLLOW_SUIT, suit=led, led=trick[0])
        self.actions.append(_PLAY_ACTIONS[seat][card] if seat < _CACHED_SEATS
                            else _action(seat, "play", card=card))
        self._play_card(seat, card, bit)

    def _play_checked(self, seat: Seat, card: Card, call: Card | None,
                      trump: str | None) -> None:
        self.check_actor(seat, "play")
        if not self.hands[seat] >> card & 1:
            raise GameError(CARD_NOT_IN_HAND, card=card, twice=False)
        if self.phase == LEAD:
            self._check_opening_lead(card, call, trump)
            self.actions.append(_action(seat, "play", card=card, call=call, trump=trump))
            self._open(card, call, trump)
            self._play_card(seat, card, 1 << card)
            return
        if trump is not None:
            raise GameError(INVALID_TRUMP, reason="not_opening_lead")
        if call is not None:
            raise GameError(INVALID_CALL, reason="not_opening_lead")
        self.play(seat, card)

    def _check_opening_lead(self, card: Card, call: Card | None, trump: str | None) -> None:
        if not self.with_trumps:
            if trump is not None:
                raise GameError(INVALID_TRUMP, reason="no_trumps")
            if call is not None:
                raise GameError(INVALID_CALL, reason="all_passed" if self.all_pass
                                else "bidder_alone")
            return
        if card >= JOKER_BASE:
            raise GameError(INVALID_LEAD, reason="joker")
        if trump is not None:
            if "free_trump" not in self.rules.options:
                raise GameError(INVALID_TRUMP, reason="not_free_trump")
            trump = _normal_trump(trump)
            if trump not in TRUMP_CHOICES:
                raise GameError(INVALID_TRUMP, reason="unknown", trump=trump)
        suit = card // 13
        callable_cards = self.callable_mask(suit)
        if call is None:
            if callable_cards:
                raise GameError(INVALID_CALL, reason="missing", suit=suit)
        elif not callable_cards:
            raise GameError(INVALID_CALL, reason="all_yours", suit=suit)
        elif not 0 <= call < JOKER_BASE or call // 13 != suit:
            raise GameError(INVALID_CALL, reason="other_suit", suit=suit)
        elif not callable_cards >> call & 1:
            raise GameError(INVALID_CALL, reason="own_card", card=call)

    def _open(self, card: Card, call: Card | None, trump: str | None) -> None:
        if self.with_trumps:
            self.trump = card // 13 if trump is None else _trump_from_choice(_normal_trump(trump))
            if call is not None:
                self.called = call
                self.called_holder = self.holder_of(call)
        self.phase = PLAY

    def _play_card(self, seat: Seat, card: Card, bit: CardMask) -> None:
        hands = self.hands
        hands[seat] = hands[seat] ^ bit
        self.played |= bit
        trick = self.trick
        if trick:
            strength = self._strength[card]
            if strength > self.win_strength:
                self.win_seat = seat
                self.win_strength = strength
        else:
            self.leader = seat
            self.win_seat = seat
            if card >= JOKER_BASE:
                self.led_suit = -2
                self._strength = STRENGTH[self.trump + 1][4]
                self.win_strength = LEAD_WINS
            else:
                led = self.led_suit = card // 13
                self._strength = table = STRENGTH[self.trump + 1][led]
                self.win_strength = (LEAD_WINS if self._two_wins and card % 13 == 0
                                     else table[card])
        trick.append(card)
        if card == self.called:
            self.partner = seat
        if len(trick) == self.n:
            self._finish_trick()
        else:
            self.to_act = self._next_seat[seat]

    def _finish_trick(self) -> None:
        winner = self.win_seat
        won = self.tricks_won
        won[winner] = won[winner] + 1
        self.history.append((self.leader, tuple(self.trick), winner))
        self.trick = []
        self.led_suit = -1
        self.tricks_done += 1
        self.to_act = winner
        if self.tricks_done == self._cards_each:
            self._score()

    # ----------------------------------------------------------------- scoring

    def _score(self) -> None:
        self.phase = DONE
        scores, made = score_hand(self.rules, self.high_bid, self.bidder, self.partner,
                                  self.tricks_won, self.all_pass)
        self.scores = scores
        self.outcome = ALL_PASS_PLAYED if self.all_pass else MADE if made else FAILED

    # ----------------------------------------------------------------- record helpers

    def legal_summary(self) -> dict[str, object] | None:
        """Who acts next and what they may do, as docs/record-format.md's `next`."""
        from bot.cards import card_name

        phase = self.phase
        if phase == DONE:
            return None
        seat = self.to_act
        out: dict[str, object] = {"seat": seat, "phase": phase}
        if phase in (EXCHANGE, DISCARD):
            out["legal"] = [card_name(c) for c in cards_of(self.hands[seat])]
        elif phase == BID:
            legal: list[object] = ["pass"]
            if self.can_redeal(seat):
                legal.append("redeal")
            legal.extend(self.rules.bid_name(v) for v in self.legal_bids())
            out["legal"] = legal
        else:
            out["legal"] = [card_name(c) for c in cards_of(self.legal_play_mask())]
            if phase == LEAD and self.with_trumps:
                out["calls"] = {SUITS[s]: [card_name(c) for c in cards_of(mask)]
                                for s, mask in self.lead_calls().items()}
        return out


def _blank_hand(rules: Rules, dealer: int, deal: Deal) -> Hand:
    """A Hand with only rules, dealer and deal set: `copy` sets the rest."""
    return Hand(rules, dealer, deal, False, _blank=True)


def _restore_hand(state: dict[str, Any]) -> Hand:
    """The Hand `Hand.__reduce__` describes (pickle, copy.copy, copy.deepcopy)."""
    hand = _blank_hand(state["rules"], state["dealer"], state["deal"])
    for name, value in state.items():
        setattr(hand, name, value)
    return hand

