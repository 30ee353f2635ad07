"""Whose deal it is: who sat at each seat when the deal being played began, and which
seats the AI has played for since (README, "Ratings"). Pure: no Discord, no store.

A deal is rated to the members who sat at its seats when it began, whatever happened to
the seats later (an away, a timeout, a seat handed to someone else or to the AI for
good, a cancel); a seat the AI played for at any point of the deal, or that someone else
took over, is "covered": its member's rating may fall for the deal but not rise
(bot/tables/rating_book.py). The service keeps this in the table's meta ("deal_seats"),
written in the commit of the move that changes it, so a restart keeps it; the rating log
keeps it per rated match, so `rerate` replays it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.models import Seated

META_KEY = "deal_seats"


@dataclass(frozen=True, slots=True)
class DealSeats:
    """The deal being played began with `seats` (a member's id or an AI's level, as the
    rating log keeps them); `covered`: the seats played for by the AI, or by someone
    else, since."""

    seats: tuple[Seated, ...]
    covered: frozenset[int] = frozenset()
    # The seats whose member was away when the deal began: a deal they had no part in,
    # whatever they do later in it (coming back to a hand they have seen included).
    absent: frozenset[int] = frozenset()
    # The seats whose member left the deal by their own doing (`away`, `leave`, or a
    # timeout that gave the seat to the AI) and is not back: the members a deal that
    # is abandoned unfinished is rated a forfeit for (README, "Ratings").
    left: frozenset[int] = frozenset()

    def cover(self, seat: int) -> DealSeats:
        """The same deal with `seat` covered."""
        return DealSeats(self.seats, self.covered | {seat}, self.absent, self.left)

    def leave(self, seat: int) -> DealSeats:
        """The same deal with `seat`'s member gone from it (nothing if the deal is not
        theirs: someone else began it, or they were away when it began)."""
        if seat in self.absent or isinstance(self.seats[seat], str):
            return self
        return DealSeats(self.seats, self.covered, self.absent, self.left | {seat})

    def returned(self, seat: int) -> DealSeats:
        """The same deal with `seat`'s member back in it."""
        return DealSeats(self.seats, self.covered, self.absent, self.left - {seat})

    def forfeits(self, by: int | None) -> frozenset[int]:
        """The seats a deal abandoned unfinished is a forfeit for: those who left it,
        and the member `by` who ended it, if it was theirs (seated and present when it
        began). Nobody else: those who stayed did not cause its end."""
        ended = {seat for seat, who in enumerate(self.seats)
                 if by is not None and who == by and seat not in self.absent}
        return frozenset(self.left | ended)

    def to_json(self) -> dict[str, Any]:
        out = {"seats": list(self.seats), "covered": sorted(self.covered),
               "absent": sorted(self.absent)}
        if self.left:
            out["left"] = sorted(self.left)
        return out


def current(meta: Mapping[str, Any], sitting: Sequence[Seated]) -> DealSeats:
    """The deal being played: as stored, or (nothing stored: nothing has happened to its
    seats since it began) begun by those `sitting` now, nobody covered."""
    stored = meta.get(META_KEY)
    if isinstance(stored, Mapping) and len(stored.get("seats", ())) == len(sitting):
        return DealSeats(tuple(stored["seats"]),
                         frozenset(int(seat) for seat in stored.get("covered", ())),
                         frozenset(int(seat) for seat in stored.get("absent", ())),
                         frozenset(int(seat) for seat in stored.get("left", ())))
    return DealSeats(tuple(sitting))


def begun(sitting: Sequence[Seated], away: Sequence[bool]) -> DealSeats:
    """A deal that begins now: `sitting` at its seats, the `away` members absent."""
    return DealSeats(tuple(sitting), absent=frozenset(
        seat for seat, (who, gone) in enumerate(zip(sitting, away, strict=True))
        if gone and not isinstance(who, str)))


def to_meta(meta: Mapping[str, Any], deal: DealSeats, sitting: Sequence[Seated]
            ) -> dict[str, Any]:
    """`meta` keeping `deal`: stored only while it says more than `current` would
    (someone covered, or a seat changed hands), so most deals write nothing."""
    out = {key: value for key, value in meta.items() if key != META_KEY}
    if deal.covered or deal.absent or deal.left or deal.seats != tuple(sitting):
        out[META_KEY] = deal.to_json()
    return out


def changed_hands(deal: DealSeats, sitting: Sequence[Seated]) -> DealSeats:
    """`deal` with every seat now held by someone else than its member covered."""
    for seat, who in enumerate(sitting):
        if who != deal.seats[seat]:
            deal = deal.cover(seat)
    return deal


def covered_by(deal: DealSeats, seat: int, sitting: Seated, by_ai: bool) -> bool:
    """Whether a move at `seat` (by `sitting`, chosen by the AI or not) covers it: the
    AI chose it, or someone other than the member the deal is rated to sits there."""
    return by_ai or sitting != deal.seats[seat]
