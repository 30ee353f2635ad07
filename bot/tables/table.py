"""A table and its seats, as the service holds them in memory: the stages, what a change
obliges the bot to post, why a table waits, and the few pure helpers every room of the
service shares (bot/tables/service.py says how the rooms fit).

A `Table` in memory is always a state the store holds: the rooms change one only after
the store has committed the change (bot/tables/keeping.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store import ResultRow, SeatInfo
from bot.store.models import Seated
from bot.tables import deal_seats
from bot.tables.kind import GameKind
from bot.tables.rating_book import seated
from bot.tables.timer_settings import DEFAULT_REMINDERS, TIMEOUT_PLAY, reminder_schedule

LOBBY = "lobby"
PLAYING = "playing"
FINISHED = "finished"
CANCELLED = "cancelled"


# What a change obliges the bot to post (the outbox, `Store.pending_posts`): committed
# with the change, posted after it, by `bot.tables.outbox.Outbox`.
POST_HAND_SUMMARY = "hand_summary"  # {"hand_index": i}: the hand's result
POST_TABLE_MESSAGE = "table_message"  # {}: a new table message for the next hand
POST_FINAL = "final_standings"  # {}: the game's final standings
# {"seat": s, "action": record action}: the AI played for s, whose time ran out; with
# "away": True if the seat also went to the AI until its player is back (timeout_action
# "seat").
POST_TIMEOUT = "timeout"
POST_CLAIM = "claim"  # {"seat": s, "action": record action}: s claimed the rest of the deal

# Why a table waits (its meta "paused", a list of these): while any reason stands no
# turn timer runs, no AI moves and so nothing is rated. Each reason is set and lifted on
# its own (`Pauses.pause`, `Pauses.resume`); the table plays on when the
# last one is lifted, the turn to play given its whole time again.
PAUSE_CHANNEL = "channel"  # the table's channel is gone, or the bot may not post there
PAUSE_GUILD = "guild"  # the bot was removed from the server, or the server is away
PAUSE_ABSENT = "absent"  # every human seated at the table is away or timed out
PAUSE_REASONS = (PAUSE_CHANNEL, PAUSE_GUILD, PAUSE_ABSENT)

# A table held by PAUSE_ABSENT this long (its members all gone: away, left, timed out
# with TIMEOUT_SEAT) ends (`Lobby.abandon`): the deal under way is rated a forfeit for
# those who left it, and the channel is free again (README, "Ratings"). A week: the
# longest turn timer (MAX_TURN_TIMER), so a member away for as long as one turn may
# last still finds the table. When the pause began: meta ABSENT_SINCE (epoch seconds).
ABANDON_AFTER = 7 * 86400.0
ABSENT_SINCE = "absent_since"

# The seats the host offered to members (`replace` with a member), in the table's meta:
# {seat: [user id, name]}, until the member accepts or declines (`answer_offer`).
OFFERS = "offers"
# Each offer's message, once posted (cogs): {seat: message id}, dropped with its offer.
# One live offer per member and table: a new offer to the same member (or of the same
# seat) replaces the last, whose message the cog deletes (issue 50).
OFFER_MESSAGES = "offer_messages"
# The members whose seat the host gave away (to the AI for good, or to a member who took
# it): {user id: seat}, so that their `back` says what happened (issue 52).
GIVEN_AWAY = "given_away"

# A table's own switches, kept in its meta; None (unset) takes the default here. A server
# sets its defaults for new tables (the cog passes them to `create`).
TABLE_SWITCHES: dict[str, bool | None] = {
    "mentions": None,  # "your turn" mentions; unset: on when two or more humans play
    "pictures": True,  # a picture of the table on the table message
    "hints": True,  # the Hint button in the players' panels
    "thread": False,  # the table plays in a thread of its own
}



def all_absent(table: Table) -> bool:
    """Whether a game in play has humans seated and every one of them is away."""
    humans = [seat for seat in table.seats if not seat.is_ai]
    return table.stage == PLAYING and bool(humans) and all(seat.away for seat in humans)


def abandon_at(table: Table) -> float | None:
    """When a table its members all left ends (ABANDON_AFTER after the pause began), or
    None if PAUSE_ABSENT does not hold it. A pause stored before its start was kept
    counts from the last move."""
    if table.stage != PLAYING or PAUSE_ABSENT not in table.paused:
        return None
    since = table.meta.get(ABSENT_SINCE, table.turn_since)
    return None if since is None else float(since) + ABANDON_AFTER


def abandoned(table: Table, now: float) -> bool:
    """Whether the table's members left it ABANDON_AFTER ago or more (at `now`)."""
    at = abandon_at(table)
    return at is not None and now >= at


def cover_level(kind: GameKind) -> str:
    """The AI level that plays for an absent member (their time ran out, they are away,
    or they left a running game): the game's strongest (GameKind.ai_levels runs from the
    weakest to the strongest), chosen for the table's sake, so that partners and
    opponents play on against a seat played as well as the bot can. It is the same
    whatever made the member absent and changes nothing of their rating: a deal the AI
    played any of for them can lower it but never raise it (README, "Ratings")."""
    return kind.ai_levels[-1]


@dataclass
class Seat:
    user_id: int | None  # None for an AI seat
    # A human's display name; for an AI seat "" (added as one) or the name of the human
    # whose seat it took over for good. Words such as "AI 1 (easy)" are never stored:
    # seat names are rendered when shown (bot.render.seat_label).
    name: str
    ai_level: str | None = None
    away: bool = False  # a human whose turns the AI plays until they come back

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @property
    def played_by_ai(self) -> bool:
        return self.user_id is None or self.away


@dataclass(frozen=True, slots=True)
class DailyKey:
    """Which deal of the day: a server's deal of a game on a day (bot/tables/daily.py)."""

    guild_id: int
    game: str
    day: str  # 'YYYY-MM-DD'


@dataclass
class Table:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    kind: GameKind  # the game this table plays
    rules: Any  # the game's own rules value
    first_dealer: int
    seats: list[Seat]
    stage: str = LOBBY
    game: Any = None  # the game's own state, once started
    meta: dict[str, Any] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    last_activity: float = field(default_factory=time.monotonic)  # also: when the turn began
    pause_after: bool = False  # the last action completed a trick: the AI waits longer
    # A write failed and the store could not be read back: the store may hold a change
    # memory does not (a commit whose answer was lost). Read back before the next change.
    unsynced: bool = False
    # When the turn to play began: epoch seconds by the service's clock, stored with
    # each move (None before the game starts).
    turn_since: float | None = None
    # What kind of table this is: None, a table of a channel, played by its seats and
    # kept by the table service's rooms; a key, a member's deal of the day, drawn for
    # their panels alone from their play (DailyService.table) and played through
    # DailyService.act. Clicks and commands are routed by it.
    daily: DailyKey | None = None

    @property
    def turn_timer(self) -> float | None:
        """Seconds a human has for a turn before the AI plays it, or None (no timer)."""
        value = self.meta.get("turn_timer")
        return float(value) if value else None

    @property
    def turn_deadline(self) -> float | None:
        """When the current turn's time runs out (epoch seconds, for Discord's
        `<t:...:R>`), or None: no timer, no game in play, or a seat the AI plays."""
        limit = self.turn_timer
        seat = self.to_act
        if not limit or seat is None or self.seats[seat].played_by_ai \
                or self.turn_since is None or self.paused:
            return None
        return self.turn_since + limit

    @property
    def reminders(self) -> tuple[str, ...]:
        """The table's reminder points (meta "reminders"; DEFAULT_REMINDERS if unset)."""
        value = self.meta.get("reminders")
        return DEFAULT_REMINDERS if value is None else tuple(value)

    @property
    def timeout_action(self) -> str:
        """What the end of a turn's time does (meta "timeout_action"): TIMEOUT_PLAY or
        TIMEOUT_SEAT."""
        return str(self.meta.get("timeout_action") or TIMEOUT_PLAY)

    def reminder_times(self) -> list[tuple[float, str]]:
        """The current turn's reminders, (when, point) in time order (none without a
        deadline); those already sent included (see `reminded`)."""
        deadline = self.turn_deadline
        if deadline is None or self.turn_since is None:
            return []
        return reminder_schedule(self.turn_since, deadline - self.turn_since, self.reminders)

    def reminded(self) -> frozenset[str]:
        """The reminder points already sent (or passed over) in the current turn,
        stored in meta "reminded" ({"turn": version, "points": [...]})."""
        sent = self.meta.get("reminded") or {}
        if sent.get("turn") != self.version:
            return frozenset()
        return frozenset(sent.get("points", ()))

    @property
    def version(self) -> int:
        """The state version buttons are drawn for: the number of actions played so far.
        Derived from the game itself, so buttons drawn before a restart stay valid."""
        if self.game is None:
            return 0
        return self.kind.version(self.game)

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return self.kind.players(self.rules)

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.players

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    @property
    def to_act(self) -> int | None:
        if self.stage != PLAYING or self.game is None:
            return None
        return self.kind.to_act(self.game)

    def public_view(self) -> Any:
        """What everyone may see of the game (the game's public view), or None."""
        return self.kind.public_view(self.game) if self.game is not None else None

    def seat_view(self, seat: int) -> Any:
        """What `seat` may see (the game's seat view), or None before the game."""
        return self.kind.seat_view(self.game, seat) if self.game is not None else None

    @property
    def message_id(self) -> int | None:
        value = self.meta.get("message_id")
        return int(value) if value is not None else None

    @property
    def summary_shown(self) -> tuple[int, int, bool] | None:
        """(message id, hand index, in it): the table message whose hand ended and
        whose summary is shown, in it (an edit) or, not in it, apart (that message is
        then deleted). Meta "summary_shown", stored once the summary is shown, dropped
        when the next table message is set. No edit of the table may touch that message
        meanwhile, in this process or one started after a crash (issue 37)."""
        value = self.meta.get("summary_shown")
        return (int(value[0]), int(value[1]), bool(value[2])) if value else None

    @property
    def paused(self) -> frozenset[str]:
        """Why the table waits (PAUSE_REASONS; empty: it plays)."""
        return frozenset(self.meta.get("paused") or ())

    def switch(self, name: str) -> bool:
        """A table switch (TABLE_SWITCHES): its own value, else the default."""
        value = self.meta.get(name, TABLE_SWITCHES[name])
        if value is None:  # "mentions" unset: only useful with two humans or more
            return sum(seat.user_id is not None for seat in self.seats) >= 2
        return bool(value)


@dataclass(frozen=True)
class ActResult:
    """What an accepted action did, for the caller to render."""

    table: Table
    seat: int
    action: Any  # the action applied (the game's own value)
    record: dict[str, Any]  # the action as the record stores it
    deal_index: int  # the deal the action was applied to
    deal_finished: bool
    game_finished: bool
    idle_before: float  # seconds the table had been idle before this action


def seat_infos(seats: list[Seat]) -> list[SeatInfo]:
    """The seats as the store keeps them."""
    # An away human is stored as is_ai with their user id, so a restart keeps them away.
    return [SeatInfo(index, seat.user_id, seat.name, seat.is_ai or seat.away, seat.ai_level)
            for index, seat in enumerate(seats)]


def results_of(table: Table, game: Any) -> list[ResultRow]:
    """The finished `game`'s results of the table's seated humans (AI seats have none)."""
    return [ResultRow(seat.user_id, r.seat, r.place, r.points, r.won, r.stats)
            for r, seat in zip(table.kind.results(game), table.seats, strict=True)
            if seat.user_id is not None]


def keys(seats: Sequence[Seat]) -> tuple[Seated, ...]:
    """Who sits at each seat, as the rating log keeps them."""
    return seated((seat.user_id, seat.ai_level) for seat in seats)


def copied(seats: Sequence[Seat]) -> list[Seat]:
    """The seats as new objects, to change without touching the table's."""
    return [dataclasses.replace(seat) for seat in seats]


def deal_of(table: Table, seats: Sequence[Seat]) -> deal_seats.DealSeats:
    """Who the deal being played is rated to, and which of its seats are covered."""
    return deal_seats.current(table.meta, keys(seats))
