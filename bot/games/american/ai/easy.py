"""The easy player: rules of thumb, and the policy the strong player's play-outs use.

- Play the lowest playable rank that is not a 2, a 10 or an ace, every copy held (the
  hand is drawn back up to 3 anyway, and a low card is worth least later).
- Keep 2s, 10s and aces for when they are needed: only when nothing else can be played,
  one at a time (an ace first: the next player needs an ace, a 2 or a 10; then a 2; then
  a 10), every ace at once once the deck is gone.
- Burn a big pile: with BIG_PILE cards or more on it, a 10 goes on it first.
- Pick up only when there is no play (never by choice with `voluntary_pickup`).
- Swap (option `swap`): the three best cards face up (10s, 2s, aces, then high ranks),
  the low ones in hand, to be played first.
- Turn over (option `blind_down`): the first face-down card; all are alike to the seat.

The policy works on card masks, so the strong player's play-outs call it on the state of a
sampled world as cheaply as on a view.
"""

from __future__ import annotations

import random
from typing import Final

from bot.cards import cards_of, mask_of
from bot.games.american.actions import Action
from bot.games.american.state import (
    ACE,
    DONE,
    FLIP_PHASE,
    PLAY_PHASE,
    RANK_CARDS,
    TEN,
    TWO,
    DealState,
)
from bot.games.american.views import DealView

# A pile of this many cards or more is burned with a 10 before anything else is played.
BIG_PILE: Final = 6
# 2s, 10s and aces: kept for when nothing else can be played.
SPECIAL: Final = RANK_CARDS[TWO] | RANK_CARDS[TEN] | RANK_CARDS[ACE]
# A swap's value of a card kept face up: 10s, then 2s, then aces, then the rank.
_SWAP_VALUE: Final[tuple[int, ...]] = (13, 1, 2, 3, 4, 5, 6, 7, 14, 9, 10, 11, 12)


def lowest_card(mask: int) -> int:
    """The single lowest-numbered card of a non-empty mask, as a mask."""
    return mask & -mask


def play_mask(hand: int, playable: int, pile_size: int, deck_size: int) -> int:
    """The cards to play (a mask of one rank), or 0 to pick up the pile. `hand`: the
    cards held; `playable`: those that may go on the pile now."""
    if not playable:
        return 0
    tens = playable & RANK_CARDS[TEN]
    if tens and pile_size >= BIG_PILE:
        return lowest_card(tens)
    normal = playable & ~SPECIAL
    if normal:
        for rank in range(1, 12):  # 3 .. K
            if normal & RANK_CARDS[rank]:
                return hand & RANK_CARDS[rank]
    aces = playable & RANK_CARDS[ACE]
    if aces:
        return aces if deck_size == 0 else lowest_card(aces)
    twos = playable & RANK_CARDS[TWO]
    if twos:
        return lowest_card(twos)
    return lowest_card(tens)


def swap_value(card: int) -> int:
    return _SWAP_VALUE[card % 13]


def swap_choice(hand: tuple[int, ...], up: tuple[int, ...]) -> tuple[tuple[int, ...],
                                                                       tuple[int, ...]]:
    """The best cards face up: (hand cards given, face-up cards taken), equally many."""
    pool = sorted(hand + up, key=lambda c: (-swap_value(c), c))
    keep_up = set(pool[:len(up)])
    given = tuple(c for c in hand if c in keep_up)
    taken = tuple(c for c in up if c not in keep_up)
    return given, taken


def easy_action(view: DealView, rng: random.Random) -> Action:
    """The easy player's action for the seat of `view`, whose turn it must be (`rng` is
    not needed: the easy player is deterministic)."""
    return styled_action(view, EASY_STYLE)


def easy_step(state: DealState) -> None:
    """Play the easy player's action for the seat to act in `state` (play-outs)."""
    seat = state.to_act
    phase = state.phase
    if phase == PLAY_PHASE:
        chosen = play_mask(state.hands[seat], state.playable_mask(), len(state.pile),
                           len(state.deck) - state.deck_pos)
        if chosen:
            state.play(seat, cards_of(chosen))
        else:
            state.pickup(seat)
    elif phase == FLIP_PHASE:
        state.flip(seat, 0)
    elif phase != DONE:
        given, taken = swap_choice(cards_of(state.hands[seat]), tuple(state.up[seat]))
        state.swap(seat, given, taken)


# Issue 40: a model of how each other player has been playing, for the strong player's
# play-outs. A style is the easy policy with some of its rules of thumb turned the other
# way; EASY_STYLE is the easy policy itself (what every seat is taken to play until the
# table shows otherwise, inference.py's Reading.styles).
SPEND: Final = 1  # plays an ace, then a 2, before any other rank (10s as easy does)
ONE_COPY: Final = 2  # plays one copy of a rank, not every copy held
EASY_STYLE: Final = 0


def styled_play_mask(hand: int, playable: int, pile_size: int, deck_size: int,
                     style: int) -> int:
    """`play_mask` for a player of `style` (flags SPEND, ONE_COPY; 0: the easy policy)."""
    if style & SPEND and playable & (RANK_CARDS[ACE] | RANK_CARDS[TWO]) and not (
            pile_size >= BIG_PILE and playable & RANK_CARDS[TEN]):
        for rank in (ACE, TWO):
            cards = playable & RANK_CARDS[rank]
            if cards:
                return cards if rank == ACE and deck_size == 0 else lowest_card(cards)
    chosen = play_mask(hand, playable, pile_size, deck_size)
    if style & ONE_COPY and chosen:
        return lowest_card(chosen)
    return chosen


def styled_action(view: DealView, style: int) -> Action:
    """The action of a player of `style` for the seat of `view`, whose turn it must be
    (EASY_STYLE: the easy player's; other styles: the benchmark's opponents)."""
    legal = view.legal
    seat = view.seat
    if legal is None or seat is None or view.hand is None:
        raise ValueError("the easy player needs the view of the seat to act")
    if legal.phase == FLIP_PHASE:
        return Action.flip(seat, legal.indexes[0])
    if legal.phase != PLAY_PHASE:
        given, taken = swap_choice(legal.hand, legal.up)
        return Action.swap(seat, given, taken)
    chosen = styled_play_mask(mask_of(view.hand), mask_of(legal.cards), len(view.pile),
                              view.deck, style)
    if not chosen:
        return Action.pickup(seat)
    return Action.play(seat, cards_of(chosen))


def styled_step(state: DealState, styles: list[int]) -> None:
    """`easy_step`, but the seat to act plays its style (`styles`, per seat)."""
    seat = state.to_act
    style = styles[seat]
    if not style or state.phase != PLAY_PHASE:
        easy_step(state)
        return
    chosen = styled_play_mask(state.hands[seat], state.playable_mask(), len(state.pile),
                              len(state.deck) - state.deck_pos, style)
    if chosen:
        state.play(seat, cards_of(chosen))
    else:
        state.pickup(seat)
