"""One deal of American as a state machine (docs/rules-american.md sections 3 to 6 and 8).

Cards are ints (bot/cards.py), a hand is a bitmask. The state is mutable for speed (AI
play-outs copy it and play on), but only the methods here change it, and each either
applies an action whole or raises a `GameError` having changed nothing: every check comes
before the first change.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import FunctionType
from typing import Any, Final

from bot.cards import Card, CardMask, Seat, card_name, cards_of, held_mask
from bot.errors import (
    CARD_NOT_IN_HAND,
    INVALID_RECORD,
    NOT_YOUR_TURN,
    WRONG_CARD_COUNT,
    WRONG_PHASE,
    GameError,
)

from .actions import (
    FLIP,
    INVALID_INDEX,
    MIXED_RANKS,
    NOT_PLAYABLE,
    PICKUP,
    PICKUP_NOT_ALLOWED,
    PLAY,
    SWAP,
    Action,
)
from .deal import Deal
from .rules import ROW, Rules

# Ranks as bot/cards.py numbers them (card % 13): 0 is the 2, 8 the 10, 12 the ace.
TWO: Final = 0
TEN: Final = 8
ACE: Final = 12
NO_RANK: Final = -1  # the top rank of an empty pile

# The phase of the player to act: swapping (option `swap`), playing or picking up, turning
# over a face-down card (option `blind_down`); DONE once the deal has ended.
SWAP_PHASE: Final = "swap"
PLAY_PHASE: Final = "play"
FLIP_PHASE: Final = "flip"
DONE: Final = "done"
PHASE_KINDS: Final[dict[str, tuple[str, ...]]] = {
    SWAP_PHASE: (SWAP,),
    PLAY_PHASE: (PLAY, PICKUP),
    FLIP_PHASE: (FLIP,),
    DONE: (),
}

IN_PROGRESS: Final = "in_progress"
FINISHED: Final = "finished"
DRAWN: Final = "drawn"

# A deal that reaches this many actions without ending is drawn (section 6, Decision).
MAX_ACTIONS: Final = 1000
# Cards of one rank on top of the pile that burn it with option `four_burns`.
BURN_RUN: Final = 4


def _rank_mask(rank: int) -> int:
    """The four cards of a rank."""
    return sum(1 << (suit * 13 + rank) for suit in range(4))


RANK_CARDS: Final[tuple[int, ...]] = tuple(_rank_mask(rank) for rank in range(13))


def rank_playable(rank: int, top: int, same_rank: bool) -> bool:
    """Whether `rank` may go on a pile whose top rank is `top` (NO_RANK: empty), per
    section 4: anything on an empty pile or a 2; a 2 or a 10 always; only an ace on an
    ace; otherwise higher (or equal with `same_rank`)."""
    if top in (NO_RANK, TWO) or rank in (TWO, TEN):
        return True
    if top == ACE:
        return rank == ACE
    return rank > top or (same_rank and rank == top)


def _playable_cards(top: int, same_rank: bool) -> int:
    mask = 0
    for rank in range(13):
        if rank_playable(rank, top, same_rank):
            mask |= RANK_CARDS[rank]
    return mask


# PLAYABLE[same_rank][top + 1]: every card that may go on a pile with that top rank.
PLAYABLE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_playable_cards(top, same) for top in range(NO_RANK, 13)) for same in (False, True))


# True when this module runs compiled by mypyc (a regular install, see setup.py), False
# when it runs from the Python source. Both behave the same. A compiled function is a
# built-in function object.
COMPILED: Final[bool] = not isinstance(rank_playable, FunctionType)


def rank_order(card: Card) -> int:
    """A card's place in the order hands are shown: ranks 2..A, suits S H D C within."""
    return card % 13 * 4 + card // 13


def sorted_cards(mask: CardMask) -> list[Card]:
    """The cards of a mask, low to high (rank_order)."""
    return sorted(cards_of(mask), key=rank_order)


# `Final` names are static in the compiled build (no look-up in the module's dict per call).
_new_tuple: Final = tuple.__new__
_ACTION: Final = Action
if Action._fields != ("seat", "kind", "cards", "up", "position"):
    raise ImportError("bot.games.american.state builds Action tuples field by field "
                      "(see _action): update it with actions.py")


def _action(seat: Seat, kind: str, cards: tuple[Card, ...] = (), up: tuple[Card, ...] = (),
            position: int = -1) -> Action:
    """`Action(...)` without the named tuple's Python-level `__new__` (several times
    slower than a call to `tuple.__new__`, which is all it does)."""
    return _new_tuple(_ACTION, (seat, kind, cards, up, position))


def _mask(cards: Sequence[Card]) -> CardMask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# DealState's slots, also kept here: a compiled class has no `__slots__` at run time.
_STATE_SLOTS: Final = (
    "rules", "n", "dealer", "deal", "same_rank", "four_burns", "blind_down",
    "voluntary_pickup", "hands", "known", "up", "down", "deck", "deck_pos", "pile",
    "burned", "out", "places", "phase", "to_act", "starter", "swaps_done", "outcome",
    "actions",
)


class DealState:
    """The state of one deal. Create it with a `Deal` and the dealer; act with `apply`
    or the method named after each action; ask `playable_mask`, `can_pickup` and
    `legal_summary` what the player to act may do."""

    __slots__ = _STATE_SLOTS

    rules: Rules
    n: int
    dealer: int
    deal: Deal
    same_rank: bool
    four_burns: bool
    blind_down: bool
    voluntary_pickup: bool
    hands: list[int]  # per seat, the hand as a mask
    known: list[int]  # per seat, the hand's cards everyone saw go there (section 9)
    up: list[list[int]]  # per seat, the face-up cards left, in their order on the table
    down: list[list[int]]  # per seat, the face-down cards left, in the order dealt
    deck: tuple[int, ...]  # the deck as dealt, top first; deck[deck_pos:] is left
    deck_pos: int
    pile: list[int]  # bottom first
    burned: list[int]  # in the order burned
    out: int  # the seats that are out, as a mask
    places: list[int]  # seats in the order they went out, then the last (once ended)
    phase: str  # the phase of the player to act (SWAP_PHASE, PLAY_PHASE, FLIP_PHASE, DONE)
    to_act: int
    starter: int  # -1 until decided (after the swaps with option `swap`)
    swaps_done: int
    outcome: str
    actions: list[Action]

    def __init__(self, rules: Rules, dealer: int, deal: Deal, validate: bool = True,
                 *, _blank: bool = False) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deal = deal
        if _blank:
            return  # for `copy`, which sets every other attribute itself
        if validate:
            deal.validate(rules)
        n = rules.players
        self.n = n
        options = rules.options
        self.same_rank = "same_rank" in options
        self.four_burns = "four_burns" in options
        self.blind_down = "blind_down" in options
        self.voluntary_pickup = "voluntary_pickup" in options
        self.hands = [_mask(row) for row in deal.hand]
        self.known = [0] * n
        self.up = [list(row) for row in deal.up]
        self.down = [list(row) for row in deal.down]
        self.deck = deal.deck
        self.deck_pos = 0
        self.pile = []
        self.burned = []
        self.out = 0
        self.places = []
        self.swaps_done = 0
        self.outcome = IN_PROGRESS
        self.actions = []
        self.starter = -1
        if "swap" in options:
            self.phase = SWAP_PHASE
            self.to_act = (dealer + 1) % n
        else:
            self._start_play()

    def copy(self) -> DealState:
        """An independent copy (for search): lists are copied, immutable parts shared.
        Written out attribute by attribute: faster than a loop, and what the compiled
        build needs. A new attribute must be added here too."""
        # Not `DealState.__new__`: the compiled class's `__new__` runs `__init__`.
        new = DealState(self.rules, self.dealer, self.deal, False, _blank=True)
        new.n = self.n
        new.same_rank = self.same_rank
        new.four_burns = self.four_burns
        new.blind_down = self.blind_down
        new.voluntary_pickup = self.voluntary_pickup
        new.hands = self.hands[:]
        new.known = self.known[:]
        new.up = [row[:] for row in self.up]
        new.down = [row[:] for row in self.down]
        new.deck = self.deck
        new.deck_pos = self.deck_pos
        new.pile = self.pile[:]
        new.burned = self.burned[:]
        new.out = self.out
        new.places = self.places[:]
        new.phase = self.phase
        new.to_act = self.to_act
        new.starter = self.starter
        new.swaps_done = self.swaps_done
        new.outcome = self.outcome
        new.actions = self.actions[:]
        return new

    def __reduce__(self) -> tuple[object, ...]:
        """For pickle, copy.copy and copy.deepcopy, the same compiled or not (a compiled
        class's `__new__` runs `__init__`, so the default way cannot make one)."""
        return (_restore_state, ({name: getattr(self, name) for name in _STATE_SLOTS},))

    # ----------------------------------------------------------------- questions

    @property
    def finished(self) -> bool:
        """Whether the deal has ended (finished or drawn)."""
        return self.phase == DONE

    @property
    def deck_size(self) -> int:
        return len(self.deck) - self.deck_pos

    @property
    def top_rank(self) -> int:
        pile = self.pile
        return pile[-1] % 13 if pile else NO_RANK

    @property
    def winner(self) -> Seat:
        """The first player out of a finished deal, -1 otherwise."""
        return self.places[0] if self.outcome == FINISHED else -1

    def is_out(self, seat: Seat) -> bool:
        return bool(self.out >> seat & 1)

    def playable_mask(self) -> CardMask:
        """The hand cards the player to act may play now (0 outside the play phase)."""
        if self.phase != PLAY_PHASE:
            return 0
        same = 1 if self.same_rank else 0
        return self.hands[self.to_act] & PLAYABLE[same][self.top_rank + 1]

    def can_pickup(self) -> bool:
        """Whether the player to act may pick up the pile now."""
        return (self.phase == PLAY_PHASE and bool(self.pile)
                and (self.voluntary_pickup or not self.playable_mask()))

    def flip_indexes(self) -> tuple[int, ...]:
        """The face-down positions the player to act may turn over now."""
        if self.phase != FLIP_PHASE:
            return ()
        return tuple(range(len(self.down[self.to_act])))

    def holdings(self, seat: Seat) -> CardMask:
        """Every card `seat` still has: hand, face-up and face-down (a mask)."""
        return self.hands[seat] | _mask(self.up[seat]) | _mask(self.down[seat])

    # ----------------------------------------------------------------- acting

    def check_actor(self, seat: object, kind: str) -> None:
        """The checks that come before an action's own (section 10's order): the seat
        exists, the deal goes on, the action fits the phase of the player to act, it is
        this seat's turn."""
        if (type(seat) is int and seat == self.to_act and self.phase == PLAY_PHASE
                and kind in (PLAY, PICKUP)):
            return  # the common case, answered at once (play-outs)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise GameError(INVALID_RECORD, reason="no_seat", seat=seat, players=self.n)
        phase = self.phase
        if phase == DONE:
            raise GameError(WRONG_PHASE, reason="deal_over", kind=kind)
        if kind not in PHASE_KINDS[phase]:
            raise GameError(WRONG_PHASE, kind=kind, phase=phase, to_act=self.to_act)
        if seat != self.to_act:
            raise GameError(NOT_YOUR_TURN, to_act=self.to_act, seat=seat)

    def apply(self, action: Action) -> None:
        kind = action.kind
        if kind == PLAY:
            self.play(action.seat, action.cards)
        elif kind == PICKUP:
            self.pickup(action.seat)
        elif kind == SWAP:
            self.swap(action.seat, action.cards, action.up)
        elif kind == FLIP:
            self.flip(action.seat, action.position)
        else:
            raise GameError(INVALID_RECORD, reason="unknown_action", kind=kind)

    def play(self, seat: Seat, cards: Sequence[Card]) -> None:
        """Play one or more cards of one rank from the hand onto the pile."""
        self.check_actor(seat, PLAY)
        if not cards:
            raise GameError(WRONG_CARD_COUNT, reason="empty_play")
        mask = self._held(seat, cards)
        rank = cards[0] % 13
        for card in cards:
            if card % 13 != rank:
                raise GameError(MIXED_RANKS, cards=tuple(cards))
        top = self.top_rank
        if not rank_playable(rank, top, self.same_rank):
            raise GameError(NOT_PLAYABLE, rank=rank, top=self.pile[-1])
        self.actions.append(_action(seat, PLAY, tuple(cards)))
        self.hands[seat] &= ~mask
        self.known[seat] &= ~mask
        self.pile.extend(cards)
        self._draw(seat)
        self._after_pile_grew(seat, rank)
        self._count_action()

    def pickup(self, seat: Seat) -> None:
        """Take the whole pile into the hand; the turn passes."""
        self.check_actor(seat, PICKUP)
        if not self.pile:
            raise GameError(PICKUP_NOT_ALLOWED, reason="empty")
        if not self.voluntary_pickup:
            playable = self.playable_mask()
            if playable:
                raise GameError(PICKUP_NOT_ALLOWED, reason="can_play", seat=seat,
                                cards=tuple(sorted_cards(playable)))
        self.actions.append(_action(seat, PICKUP))
        self._take_pile(seat, 0)
        self._next_turn(seat)
        self._count_action()

    def swap(self, seat: Seat, given: Sequence[Card], taken: Sequence[Card]) -> None:
        """Option `swap`: hand cards `given` for as many face-up cards `taken`; the i-th
        card given takes the table position of the i-th taken."""
        self.check_actor(seat, SWAP)
        if len(given) != len(taken):
            raise GameError(WRONG_CARD_COUNT, reason="swap", given=len(given),
                            taken=len(taken))
        given_mask = self._held(seat, given)
        row = self.up[seat]
        taken_mask = 0
        for card in taken:
            bit = 1 << card
            if card not in row or taken_mask & bit:
                raise GameError(CARD_NOT_IN_HAND, reason="not_face_up", card=card,
                                twice=bool(taken_mask & bit))
            taken_mask |= bit
        self.actions.append(_action(seat, SWAP, tuple(given), tuple(taken)))
        for give, take in zip(given, taken, strict=True):
            row[row.index(take)] = give
        self.hands[seat] = (self.hands[seat] & ~given_mask) | taken_mask
        # The cards taken lay face up: everyone saw them go into the hand.
        self.known[seat] = (self.known[seat] & ~given_mask) | taken_mask
        self.swaps_done += 1
        if self.swaps_done == self.n:
            self._start_play()
        else:
            self.to_act = (seat + 1) % self.n
        self._count_action()

    def flip(self, seat: Seat, index: int) -> None:
        """Option `blind_down`: turn over the face-down card at `index` (among those
        left, in the order dealt); play it if it may go on the pile, else pick up the
        pile and it."""
        self.check_actor(seat, FLIP)
        row = self.down[seat]
        if not 0 <= index < len(row):
            raise GameError(INVALID_INDEX, seat=seat, size=len(row), index=index)
        self.actions.append(_action(seat, FLIP, position=index))
        card = row.pop(index)
        rank = card % 13
        if rank_playable(rank, self.top_rank, self.same_rank):
            self.pile.append(card)
            self._after_pile_grew(seat, rank)
        else:
            self._take_pile(seat, 1 << card)
            self._next_turn(seat)
        self._count_action()

    # ----------------------------------------------------------------- consequences

    def _held(self, seat: Seat, cards: Sequence[Card]) -> CardMask:
        """The mask of `cards`, which must all be distinct and in `seat`'s hand."""
        return held_mask(self.hands[seat], cards)

    def _draw(self, seat: Seat) -> None:
        """Draw back up to the hand size of the deal while the deck lasts."""
        hand = self.hands[seat]
        deck = self.deck
        pos = self.deck_pos
        while hand.bit_count() < ROW and pos < len(deck):
            hand |= 1 << deck[pos]
            pos += 1
        self.hands[seat] = hand
        self.deck_pos = pos

    def _take_pile(self, seat: Seat, extra: CardMask) -> None:
        """The pile (and `extra`, a turned-over card) into `seat`'s hand, in sight of all."""
        taken = _mask(self.pile) | extra
        self.hands[seat] |= taken
        self.known[seat] |= taken
        self.pile = []

    def _burns(self, rank: int) -> bool:
        if rank == TEN:
            return True
        if not self.four_burns:
            return False
        pile = self.pile
        if len(pile) < BURN_RUN:
            return False
        return all(card % 13 == rank for card in pile[-BURN_RUN:])

    def _after_pile_grew(self, seat: int, rank: int) -> None:
        """After a play or a turned-over card went onto the pile (and the draw): the
        burn, the take-up of face-up or face-down cards, going out, the next turn."""
        burned = self._burns(rank)
        if burned:
            self.burned.extend(self.pile)
            self.pile = []
        if not self.hands[seat] and self.deck_pos == len(self.deck):
            self._take_up(seat)
        if not self.hands[seat] and not self.up[seat] and not self.down[seat]:
            self._go_out(seat)
        elif burned:
            self._give_turn(seat)  # the same player plays again, onto the empty pile
        else:
            self._next_turn(seat)

    def _take_up(self, seat: Seat) -> None:
        """An empty hand with the deck gone takes up the face-up cards, and once those
        are gone the face-down ones (not with `blind_down`, which turns them over)."""
        up = self.up[seat]
        if up:
            mask = _mask(up)
            self.hands[seat] = mask
            self.known[seat] |= mask  # everyone saw them
            self.up[seat] = []
        elif self.down[seat] and not self.blind_down:
            self.hands[seat] = _mask(self.down[seat])
            self.down[seat] = []

    def _go_out(self, seat: Seat) -> None:
        self.out |= 1 << seat
        self.places.append(seat)
        n = self.n
        if len(self.places) == n - 1:
            for other in range(n):
                if not self.out >> other & 1:
                    self.places.append(other)
            self.outcome = FINISHED
            self.phase = DONE
        else:
            self._next_turn(seat)

    def _next_turn(self, seat: Seat) -> None:
        """The turn passes clockwise to the next player who still has cards."""
        n = self.n
        nxt = (seat + 1) % n
        while self.out >> nxt & 1:
            nxt = (nxt + 1) % n
        self._give_turn(nxt)

    def _give_turn(self, seat: Seat) -> None:
        self.to_act = seat
        # A player still in with an empty hand has only face-down cards, under
        # `blind_down` (otherwise they were taken up when the hand emptied).
        self.phase = PLAY_PHASE if self.hands[seat] else FLIP_PHASE

    def _start_play(self) -> None:
        """Decide the starter (section 3) and give them the turn."""
        starter = -1
        best: list[int] = []
        for i in range(1, self.n + 1):
            seat = (self.dealer + i) % self.n
            ranks = sorted(card % 13 for card in cards_of(self.hands[seat]))
            if starter < 0 or ranks < best:
                starter, best = seat, ranks
        self.starter = starter
        self._give_turn(starter)

    def _count_action(self) -> None:
        if self.phase != DONE and len(self.actions) >= MAX_ACTIONS:
            self.outcome = DRAWN
            self.phase = DONE

    # ----------------------------------------------------------------- record helpers

    def legal_summary(self) -> dict[str, object] | None:
        """Who acts next and what they may do, as section 10's `next`."""
        phase = self.phase
        if phase == DONE:
            return None
        seat = self.to_act
        legal: list[object]
        if phase == SWAP_PHASE:
            legal = [card_name(c) for c in sorted_cards(self.hands[seat])]
            legal.extend(card_name(c) for c in self.up[seat])
        elif phase == FLIP_PHASE:
            legal = list(self.flip_indexes())
        else:
            legal = [card_name(c) for c in sorted_cards(self.playable_mask())]
            if self.can_pickup():
                legal.append(PICKUP)
        return {"seat": seat, "phase": phase, "legal": legal}


def _restore_state(values: dict[str, Any]) -> DealState:
    """The DealState `DealState.__reduce__` describes."""
    state = DealState(values["rules"], values["dealer"], values["deal"], False, _blank=True)
    for name, value in values.items():
        setattr(state, name, value)
    return state
