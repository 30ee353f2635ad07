"""Seat names every game shares: a member's, an AI player's by its level and number,
as text and as a picture draws them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from bot.i18n import _
from bot.tables.names import safe_markdown, safe_plain

# ----------------------------------------------------------------- seat names

class SeatLike(Protocol):
    """What a seat's name is made of (bot.tables.Seat has it): who sits there, the name
    stored with the seat, its AI level, and whether the AI covers an absent human."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def name(self) -> str: ...

    @property
    def ai_level(self) -> str | None: ...

    @property
    def away(self) -> bool: ...


# Names older versions stored for AI seats, in English: recognised and rendered anew.
_LEGACY_NUMBERED = re.compile(r"AI ([0-9]+) \(([a-z]+)\)")
_LEGACY_REPLACED = re.compile(r"AI for (.+)", re.DOTALL)


def ai_seat_label(number: int, level: str, stored: str,
                  shown: Callable[[str], str] = safe_markdown) -> str:
    """An AI seat's name: `AI 2 (strong)` for the second AI seat added (stored name ""),
    or `AI for dave` for dave's seat handed to the AI for good (stored name "dave", as
    `shown` makes it harmless: for text, or for a picture)."""
    if stored:
        return _("AI for {name}").format(name=shown(stored))
    return _("AI {number} ({level})").format(number=number, level=level_name(level))


def level_name(level: str) -> str:
    """An AI level as shown (stored by its key: "easy", "strong")."""
    return {"easy": _("easy"), "strong": _("strong"), "random": _("random")}.get(level, level)


def seat_label(seats: Sequence[SeatLike], index: int,
               shown: Callable[[str], str] = safe_markdown) -> str:
    """The name of seat `index` as players read it in a message. A human's is their
    stored display name, made harmless by `shown` (bot/tables/names.py: safe_markdown for
    text, safe_plain for a picture); an AI seat's is rendered now (ai_seat_label), its
    number being its place among the AI seats added as such. Names stored by older
    versions ("AI 2 (strong)", "AI for dave") are read back into those parts, so they show
    as they always did."""
    seat = seats[index]
    if seat.user_id is not None:
        return shown(seat.name)
    number, level, stored = _ai_parts(seat)
    if number is None:  # added as an AI: count those before it
        number = 1 + sum(1 for other in seats[:index]
                         if other.user_id is None and _ai_parts(other)[2] == "")
    return ai_seat_label(number, level, stored, shown)


def _ai_parts(seat: SeatLike) -> tuple[int | None, str, str]:
    """(its number if stored, level, stored name of the human it replaced) of an AI seat."""
    level = seat.ai_level or "easy"
    numbered = _LEGACY_NUMBERED.fullmatch(seat.name)
    if numbered:
        return int(numbered.group(1)), numbered.group(2), ""
    replaced = _LEGACY_REPLACED.fullmatch(seat.name)
    if replaced:
        return None, level, replaced.group(1)
    return None, level, seat.name


def seat_names(seats: Sequence[SeatLike], shown: Callable[[str], str] = safe_markdown,
               paused: bool = False) -> list[str]:
    """Every seat's name as the table shows it in a message (`shown`: see seat_label):
    an absent human's marked as such. `paused`: the table waits for its members
    (every one away): nobody plays for them, and the mark says only "away" (short: the
    pause line under the table says the rest once)."""
    names = []
    for index, seat in enumerate(seats):
        name = seat_label(seats, index, shown)
        if seat.away:
            name = _("{name} (away)").format(name=name) if paused \
                else _("{name} (away, AI plays)").format(name=name)
        names.append(name)
    return names


def picture_seat_names(seats: Sequence[SeatLike], paused: bool = False) -> list[str]:
    """Every seat's name as a picture shows it: without invisible characters, and no
    Markdown escapes (a picture renders none); `paused` as for seat_names (the picture
    says what the text under it says: issue 52, it said "(away, AI plays)")."""
    return seat_names(seats, safe_plain, paused)
