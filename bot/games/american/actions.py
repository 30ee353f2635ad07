"""Actions (docs/rules-american.md section 10): small immutable values, one per thing a player
can do. Draws, burns and take-ups are consequences, never actions."""

from __future__ import annotations

from typing import NamedTuple

PLAY = "play"
PICKUP = "pickup"
SWAP = "swap"
FLIP = "flip"
ACTION_KINDS: tuple[str, ...] = (SWAP, PLAY, PICKUP, FLIP)


class Action(NamedTuple):
    """One action by one seat. `cards`: the cards played (one or more of one rank), or
    the hand cards given in a swap; `up`: the face-up cards taken in a swap; `position`:
    the face-down position turned over (`blind_down`), -1 otherwise."""

    seat: int
    kind: str
    cards: tuple[int, ...] = ()
    up: tuple[int, ...] = ()
    position: int = -1

    @classmethod
    def play(cls, seat: int, cards: tuple[int, ...]) -> Action:
        return cls(seat, PLAY, tuple(cards))

    @classmethod
    def pickup(cls, seat: int) -> Action:
        return cls(seat, PICKUP)

    @classmethod
    def swap(cls, seat: int, hand: tuple[int, ...], up: tuple[int, ...]) -> Action:
        return cls(seat, SWAP, tuple(hand), tuple(up))

    @classmethod
    def flip(cls, seat: int, index: int) -> Action:
        return cls(seat, FLIP, position=index)

# The refusal codes only American uses (the shared ones are in bot/errors.py; section 10
# of docs/rules-american.md fixes them all and the order in which they are checked).
MIXED_RANKS = "mixed_ranks"  # a play of cards of more than one rank
NOT_PLAYABLE = "not_playable"  # the rank cannot go on the pile now
PICKUP_NOT_ALLOWED = "pickup_not_allowed"  # a playable card is held, or the pile is empty
INVALID_INDEX = "invalid_index"  # a flip of a face-down position that is not there
