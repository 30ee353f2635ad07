"""Text every game shares: the lobby, seat names, the turn reminder, the leaderboard and
statistics, the platform's refusals by code, and replies cut to Discord's limits.

A game's own words live in its `text.py` (bot/games/<name>/text.py), reached through its
GameKind. Inputs here are plain values (seat names, counts, codes), never a `Table` or a
game's state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from bot.cards import card_list
from bot.tables.panel import BLUE, QUOTE_LIMIT, Panel, quote, shorten

__all__ = [
    "CONTENT_LIMIT", "DESCRIPTION_LIMIT", "EMBED_TOTAL_LIMIT", "ERROR_HINTS",
    "FIELD_COUNT_LIMIT", "FIELD_NAME_LIMIT", "FIELD_VALUE_LIMIT", "FOOTER_LIMIT",
    "INTERNAL_ERROR", "QUOTE_LIMIT", "TITLE_LIMIT", "Panel", "SeatLike", "ai_seat_label",
    "card_list", "error_text", "fit_panel", "leaderboard_panel", "lobby_panel", "quote",
    "seat_label", "seat_names", "shorten", "stats_panel", "turn_mention",
]


# ----------------------------------------------------------------- Discord's limits

# Discord refuses a whole message if one part is over its limit, and the user then sees
# "This interaction failed": every reply is cut to these first.
CONTENT_LIMIT = 2000
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_COUNT_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000


def _embed_size(panel: Panel) -> int:
    return (len(panel.title) + len(panel.description) + len(panel.footer or "")
            + sum(len(name) + len(value) for name, value, _ in panel.fields))


def fit_panel(panel: Panel) -> Panel:
    """The panel cut to what one embed may hold: each part to its limit (an empty field
    shows "—", as Discord refuses empty ones), at most 25 fields, and 6,000 characters in
    all, by dropping the last fields and then shortening the description."""
    fields = tuple((shorten(name, FIELD_NAME_LIMIT) or "—",
                    shorten(value, FIELD_VALUE_LIMIT) or "—", inline)
                   for name, value, inline in panel.fields[:FIELD_COUNT_LIMIT])
    fitted = replace(panel, title=shorten(panel.title, TITLE_LIMIT),
                     description=shorten(panel.description, DESCRIPTION_LIMIT),
                     footer=shorten(panel.footer, FOOTER_LIMIT) if panel.footer else None,
                     fields=fields)
    while fitted.fields and _embed_size(fitted) > EMBED_TOTAL_LIMIT:
        fitted = replace(fitted, fields=fitted.fields[:-1])
    excess = _embed_size(fitted) - EMBED_TOTAL_LIMIT
    if excess > 0:  # title and footer together are far below the total: cut the rest
        description = fitted.description
        fitted = replace(fitted, description=shorten(description, len(description) - excess))
    return fitted


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


def ai_seat_label(number: int, level: str, stored: str) -> str:
    """An AI seat's name: `AI 2 (strong)` for the second AI seat added (stored name ""),
    or `AI for dave` for dave's seat handed to the AI for good (stored name "dave")."""
    if stored:
        return f"AI for {stored}"
    return f"AI {number} ({level})"


def seat_label(seats: Sequence[SeatLike], index: int) -> str:
    """The name of seat `index` as players read it. A human's is their stored display
    name; an AI seat's is rendered now (ai_seat_label), its number being its place among
    the AI seats added as such. Names stored by older versions ("AI 2 (strong)",
    "AI for dave") are read back into those parts, so they show as they always did."""
    seat = seats[index]
    if seat.user_id is not None:
        return seat.name
    number, level, stored = _ai_parts(seat)
    if number is None:  # added as an AI: count those before it
        number = 1 + sum(1 for other in seats[:index]
                         if other.user_id is None and _ai_parts(other)[2] == "")
    return ai_seat_label(number, level, stored)


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


def seat_names(seats: Sequence[SeatLike]) -> list[str]:
    """Every seat's name as the table shows it: an absent human's marked as such."""
    names = []
    for index, seat in enumerate(seats):
        name = seat_label(seats, index)
        if seat.away:
            name += " (away, AI plays)"
        names.append(name)
    return names


# ----------------------------------------------------------------- lobby and turns

def lobby_panel(names: Sequence[str], host: int | None, players: int, title: str,
                options: str) -> Panel:
    """A table waiting for players: `names` of the seats taken, `host` the host's seat,
    `players` the seats in all; `title` and the `options` line are the game's."""
    seats = "\n".join(f"{i + 1}. {name}" + (" (host)" if i == host else "")
                      for i, name in enumerate(names))
    free = players - len(names)
    seats += "".join(f"\n{len(names) + i + 1}. *free*" for i in range(free))
    status = ("Ready: the host can start." if free == 0
              else f"Waiting for {free} more player{'s' if free != 1 else ''}.")
    return Panel(title=title, description=f"{options}\n\n{seats}\n\n{status}",
                 footer="Join to take a seat. The host can add AI players and start.",
                 colour=BLUE)


def turn_mention(user_id: int, title: str) -> str:
    """One line that mentions the player to act (sent after a quiet spell) at a table of
    the game called `title`."""
    return f"<@{user_id}>, it is your turn at the {title} table."


# ----------------------------------------------------------------- leaderboard and stats

def leaderboard_panel(rows: Sequence[tuple[str, int, int, int]], page: int, pages: int,
                      order: str) -> Panel:
    """rows: (name, games, wins, points)."""
    if not rows:
        return Panel(title="Leaderboard", description="No finished games on this server yet.",
                     colour=BLUE)
    start = (page - 1) * 10
    lines = [f"{start + i + 1}. **{name}** — {wins} wins, {points} pts ({games} games)"
             for i, (name, games, wins, points) in enumerate(rows)]
    return Panel(title=f"Leaderboard — by {order}", description="\n".join(lines),
                 footer=f"Page {page} of {pages}", colour=BLUE)


def stats_panel(name: str, games: int, wins: int, points: int,
                stats: Mapping[str, int]) -> Panel:
    """stats: the summed counters of the member's Amerikaner results (a counter the
    store never saw is 0)."""
    if not games:
        return Panel(title=f"Stats — {name}", description="No finished games yet.",
                     colour=BLUE)
    rate = f"{100 * wins / games:.0f}%"
    return Panel(title=f"Stats — {name}", colour=BLUE, description="\n".join([
        f"Games: {games} · wins: {wins} ({rate})",
        f"Points: {points}",
        f"Contracts made: {stats.get('contracts_made', 0)} · "
        f"failed: {stats.get('contracts_failed', 0)}",
        f"Amerikaner/Kani made: {stats.get('top_bids_made', 0)}",
        f"Hands played: {stats.get('hands_played', 0)}",
    ]))


# ----------------------------------------------------------------- refusals

INTERNAL_ERROR = "Something went wrong on our side; nothing was changed. Please try again."

ERROR_HINTS = {
    "no_table": "There is no table in this channel. Start one with /amerikaner new.",
    # Refusals by discord.py, before a command runs.
    "outdated_command": "Discord showed you an older version of this command: please try "
                        "again in a minute.",
    "guild_only": "This command works in a server's channels only.",
    "not_permitted": "You do not have the permission this command needs.",
    "bot_not_permitted": "I am missing a permission in this channel, so I cannot do that "
                         "here.",
    "slow_down": "Not so fast: please try again in a moment.",
    "not_allowed_here": "You cannot use this command here.",
    "not_a_member": "That member is not on this server.",
    "bad_option": "One of the options could not be read: please choose it again.",
}


def error_text(code: str, message: str) -> str:
    return ERROR_HINTS.get(code, message)
