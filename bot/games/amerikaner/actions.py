"""Actions: small immutable values, one per thing a player can do."""

from __future__ import annotations

from typing import Literal, NamedTuple

ActionKind = Literal["pass", "bid", "redeal", "exchange", "discard", "play"]
ACTION_KINDS: tuple[str, ...] = ("pass", "bid", "redeal", "exchange", "discard", "play")

# A trump named with `free_trump`: a suit letter or "grand" (no trumps).
TRUMP_CHOICES = ("S", "H", "D", "C", "grand")

# The one refusal code only Amerikaner uses (the shared ones are in bot/errors.py): what a
# player typed as a bid is not a number, the top bid or pass. Never in a record: records
# refuse such a bid as `invalid_record` or `bid_too_high`.
INVALID_BID = "invalid_bid"


class Action(NamedTuple):
    """One action by one seat. `bid` is a number or the top bid's name ("amerikaner",
    "kani"); `cards` are given (exchange) or discarded; `card` is played, with `call`
    and `trump` only on the opening lead. A named tuple: immutable and cheap to make,
    which matters in AI play-outs."""

    seat: int
    kind: str
    bid: int | str | None = None
    cards: tuple[int, ...] = ()
    card: int | None = None
    call: int | None = None
    trump: str | None = None

    @classmethod
    def pass_(cls, seat: int) -> Action:
        return cls(seat, "pass")

    @classmethod
    def make_bid(cls, seat: int, bid: int | str) -> Action:
        return cls(seat, "bid", bid=bid)

    @classmethod
    def redeal(cls, seat: int) -> Action:
        return cls(seat, "redeal")

    @classmethod
    def exchange(cls, seat: int, cards: tuple[int, ...]) -> Action:
        return cls(seat, "exchange", cards=tuple(cards))

    @classmethod
    def discard(cls, seat: int, cards: tuple[int, ...]) -> Action:
        return cls(seat, "discard", cards=tuple(cards))

    @classmethod
    def play(cls, seat: int, card: int, call: int | None = None,
             trump: str | None = None) -> Action:
        return cls(seat, "play", card=card, call=call, trump=trump)
