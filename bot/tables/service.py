"""Tables: a lobby, then a game, persisted action by action.

Every change goes through `TableService` under the table's lock: the seat and the state
version are checked, the action is applied through the table's GameKind (which refuses
illegal ones with a stable code) to a copy of the game, the action is committed to the
store, and only then does the copy become the table's game and the result go back for
the caller to confirm. Lobby changes likewise: stored first, then made in memory. So the
table in memory is always a state the store holds: a write the store refuses (the
database away) leaves the table as it was, and the player reads why; if the store
cannot even be read back, the table is read back before its next change (the write may
have been committed with its answer lost). AI turns and turn timeouts that meet a
refusing store try again with backoff until it answers. A crash after the commit loses
nothing: `restore` replays each unfinished game's record. The service knows games only
through the GameKind protocol (bot/tables/kind.py): it never names one.

Ratings: a move that finishes a deal also rates the game's matches not rated yet
(`GameKind.rating_matches` beyond the count the store holds), by who sits at the seats
and at the move's time, and commits the rating rows with the move (`record_action`'s
`ratings`): a refused commit leaves the ratings as they were, a restart rates nothing
twice. The moves that rate at one guild's tables take turns (a lock per guild), so an
update is never computed from ratings another is about to change.

Clocks of days: a table may have a turn timer (`turn_timer`, seconds, up to 7 days).
Each turn's time is measured on the service's clock (`clock`: Settings.clock, the
machine's by default, the fake Discord's in tests) from the moment the turn began, which
is stored with each move (`turn_since`, epoch seconds): a restart changes nothing of a
deadline. Every wait for a moment of that clock is `clock.sleep_until`, so a test that
moves the fake clock wakes it. Before the deadline the player is reminded at the table's
reminder points (`reminders`, default half time and one hour left; each point once per
turn, which is stored); at the deadline the strongest AI of the game plays the turn
(`timeout_action` "play") or takes the seat until its player is back ("seat").
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.clock import SYSTEM_CLOCK, Clock
from bot.store import (
    PANEL_TOKEN_LIFE,
    ChannelBusyError,
    GameRow,
    PanelRow,
    Post,
    ResultRow,
    SeatInfo,
    Store,
)
from bot.store.health import (
    FIRST_RETRY,
    LAST_RETRY,
    Health,
    backoff,
    is_database_error,
    is_outage,
)
from bot.store.models import GameRating, RatingUpdate, Seated
from bot.tables import deal_seats
from bot.tables.errors import TableError
from bot.tables.kind import GameKind, Hint
from bot.tables.outbox import Outbox
from bot.tables.rating_book import book_of, month_of, seated

log = logging.getLogger(__name__)

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
# its own (`TableService.pause`, `TableService.resume`); the table plays on when the
# last one is lifted, the turn to play given its whole time again.
PAUSE_CHANNEL = "channel"  # the table's channel is gone, or the bot may not post there
PAUSE_GUILD = "guild"  # the bot was removed from the server, or the server is away
PAUSE_ABSENT = "absent"  # every human seated at the table is away or timed out
PAUSE_REASONS = (PAUSE_CHANNEL, PAUSE_GUILD, PAUSE_ABSENT)

# The seats the host offered to members (`replace` with a member), in the table's meta:
# {seat: [user id, name]}, until the member accepts or declines (`answer_offer`).
OFFERS = "offers"

# A table's own switches, kept in its meta; None (unset) takes the default here. A server
# sets its defaults for new tables (the cog passes them to `create`).
TABLE_SWITCHES: dict[str, bool | None] = {
    "mentions": None,  # "your turn" mentions; unset: on when two or more humans play
    "pictures": True,  # a picture of the table on the table message
    "hints": True,  # the Hint button in the players' panels
    "thread": False,  # the table plays in a thread of its own
}


# ------------------------------------------------------------------ clocks of days

MAX_TURN_TIMER = 7 * 24 * 3600.0  # seconds: a turn lasts at most 7 days (10,080 minutes)
# What happens when a turn's time runs out (a table's meta "timeout_action"):
TIMEOUT_PLAY = "play"  # the AI plays that one turn (the default, as before)
TIMEOUT_SEAT = "seat"  # the seat goes to the AI until its player is back (as `set_away`)
TIMEOUT_ACTIONS = (TIMEOUT_PLAY, TIMEOUT_SEAT)
# Reminder points (a table's meta "reminders"): "<n>%": when n % of the turn's time is
# gone (1-99); "<n>m", "<n>h", "<n>d": when n minutes, hours or days are left.
DEFAULT_REMINDERS: tuple[str, ...] = ("50%", "1h")
MAX_REMINDERS = 4
_UNITS = {"m": 60.0, "h": 3600.0, "d": 86400.0}
# A reminder closer than this share of the turn's time to the turn's start (the player
# has just been told it is their turn) or to a reminder kept before it is left out: a
# 2-hour timer gets one reminder at its middle (half time and one hour left are one), a
# 61-minute one no "one hour left" a minute after the turn began.
REMINDER_GAP = 0.1


def all_absent(table: Table) -> bool:
    """Whether a game in play has humans seated and every one of them is away."""
    humans = [seat for seat in table.seats if not seat.is_ai]
    return table.stage == PLAYING and bool(humans) and all(seat.away for seat in humans)


class _Keep:
    """The type of KEEP: a setting left as it is."""


KEEP = _Keep()  # TableService.set_timer: leave that setting as it is


def check_turn_timer(seconds: float | None) -> float | None:
    """A table's turn timer as the service keeps it: None (0 or None: no timer) or
    seconds, at most MAX_TURN_TIMER (7 days). The commands offer whole minutes from 1.
    Refused: TableError("bad_input", reason="negative_timer" | "long_timer",
    minutes=10080)."""
    if seconds is None or seconds == 0:
        return None
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        raise TableError("bad_input", reason="negative_timer") from None
    if math.isnan(value) or value < 0:
        raise TableError("bad_input", reason="negative_timer")
    if value > MAX_TURN_TIMER:
        raise TableError("bad_input", reason="long_timer", minutes=int(MAX_TURN_TIMER // 60))
    return value


def reminder_offset(point: str, limit: float) -> float:
    """Seconds after a turn's start at which the reminder `point` falls, for a turn of
    `limit` seconds (negative or beyond `limit`: it does not fall in the turn).
    ValueError for a point that is not one."""
    if not isinstance(point, str) or len(point) < 2 or not point[:-1].isdigit() \
            or not point[:-1].isascii():
        raise ValueError(point)
    number, unit = int(point[:-1]), point[-1]
    if unit == "%" and 1 <= number <= 99:
        return limit * number / 100
    if unit in _UNITS and 1 <= number * _UNITS[unit] <= MAX_TURN_TIMER:
        return limit - number * _UNITS[unit]
    raise ValueError(point)


def check_reminders(points: Sequence[str] | None) -> tuple[str, ...]:
    """A table's reminder points, checked (None: the default, DEFAULT_REMINDERS; empty:
    none). Refused: TableError("bad_input", reason="reminder", point=..., most=4)."""
    if points is None:
        return DEFAULT_REMINDERS
    if isinstance(points, str):
        points = [part.strip() for part in points.split(",") if part.strip()]
    chosen: list[str] = []
    for point in points:
        try:
            reminder_offset(point, MAX_TURN_TIMER)
        except ValueError:
            raise TableError("bad_input", reason="reminder", point=str(point),
                             most=MAX_REMINDERS) from None
        if point not in chosen:
            chosen.append(point)
    if len(chosen) > MAX_REMINDERS:
        raise TableError("bad_input", reason="reminder", point=chosen[MAX_REMINDERS],
                         most=MAX_REMINDERS)
    return tuple(chosen)


def check_timeout_action(action: str | None) -> str:
    """What happens when a turn's time runs out: TIMEOUT_PLAY (also for None) or
    TIMEOUT_SEAT. Refused: TableError("bad_input", reason="timeout_action")."""
    if action is None:
        return TIMEOUT_PLAY
    if action not in TIMEOUT_ACTIONS:
        raise TableError("bad_input", reason="timeout_action", choices=TIMEOUT_ACTIONS)
    return action


def reminder_schedule(since: float, limit: float, points: Sequence[str]
                      ) -> list[tuple[float, str]]:
    """The reminders of a turn that began at `since` (epoch seconds) and lasts `limit`
    seconds: (when, point) in time order. A point is left out if it does not fall
    inside the turn (a 2-minute timer has no "one hour left"), or falls closer than
    REMINDER_GAP of the turn's time to its start or to a point listed before it."""
    gap = limit * REMINDER_GAP
    kept: list[tuple[float, str]] = []
    for point in points:
        try:
            offset = reminder_offset(point, limit)
        except ValueError:
            continue  # stored before a rule changed: ignored, never a crash
        if offset < gap or offset >= limit:
            continue
        if any(abs(offset - other) < gap for other, _ in kept):
            continue
        kept.append((offset, point))
    return sorted((since + offset, point) for offset, point in kept)


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


Listener = Callable[[Table, str, dict[str, Any]], Awaitable[None]]
# (the game, its state, the seat, the AI level, a random source) -> the action
AiChooser = Callable[[GameKind, Any, int, str, random.Random], Any]
# (the seats, a seat's index) -> its name as players read it, for the service's refusals
SeatNamer = Callable[[Sequence[Seat], int], str]


def _stored_name(seats: Sequence[Seat], index: int) -> str:
    return seats[index].name


def _default_ai(kind: GameKind, game: Any, seat: int, level: str, rng: random.Random
                ) -> Any:
    return kind.choose_action(game, seat, level, rng)


# The refusals that mean "the database did not take it": work nobody waits on (AI turns,
# timeouts) tries again later instead of giving up.
STORE_REFUSALS = ("database_down", "storage_failed")


class _Step(NamedTuple):
    """One action applied to the working copy of a game, not yet committed."""

    seat: int
    action: Any
    applied: Any  # the game's Applied
    finished: bool
    posts: list[Post]


class ForeignGuildError(RuntimeError):
    """A table of a guild whose shard another process runs: this process must not hold
    it (it would play its AI and run its timers beside the owner). Interactions arrive on
    the owning shard only, so this means processes disagree about SHARD_COUNT."""


def _every_guild(guild_id: int) -> bool:
    return True


class TableService:
    """All tables of one bot process: those of the guilds it owns (`owns_guild`; several
    processes on one database each own the guilds of their gateway shards)."""

    def __init__(self, store: Store, games: Mapping[str, GameKind], *,
                 rng: random.Random | None = None, ai_delay: float = 0.6,
                 trick_pause: float = 1.0,
                 ai_chooser: AiChooser | None = None, outbox: Outbox | None = None,
                 seat_name: SeatNamer | None = None,
                 owns_guild: Callable[[int], bool] | None = None,
                 health: Health | None = None, retry_first: float = FIRST_RETRY,
                 retry_cap: float = LAST_RETRY, clock: Clock | None = None) -> None:
        if not games:
            raise ValueError("a table service needs at least one game")
        self.store = store
        self.games = games  # name -> GameKind; the first is the default
        self.outbox = outbox  # posts what a change obliges the bot to post
        self.rng = rng or random.Random()
        self.ai_delay = ai_delay  # seconds before an AI acts (a card every ~0.6 s)
        self.trick_pause = trick_pause  # and this much more after a completed trick
        self._ai_chooser = ai_chooser or _default_ai
        # Names seats in refusals ("It is AI 1 (easy)'s turn"): the bot passes the
        # renderer (bot.render.seat_label), which this package may not import.
        self.seat_name = seat_name or _stored_name
        # Which guilds' tables live in this process (the app: those of its shards).
        self.owns_guild = owns_guild or _every_guild
        # Whether the database answers, shared with the outbox: one log line when it
        # goes away and one when it is back, whoever notices first.
        self.health = health or (outbox.health if outbox is not None else Health())
        if outbox is not None:
            outbox.health = self.health
        # Work nobody waits on retries a refused write after backoff(n) seconds.
        self.retry_first = retry_first
        self.retry_cap = retry_cap
        # Turn timers and reminders: when a turn began and when it ends are epoch
        # seconds of this clock (Settings.clock; tests pass the fake Discord's).
        self.clock: Clock = clock or SYSTEM_CLOCK
        self._background: set[asyncio.Task[None]] = set()
        self._tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        self._listeners: list[Listener] = []
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        # A guild's ratings are read, rated and committed by one move at a time: the
        # moves that finish matches at two tables of one guild take turns, so no update
        # is computed from ratings another is about to change (a guild's tables all
        # live in this process: the one that owns its shard).
        self._rating_locks: dict[int, asyncio.Lock] = {}
        self.closed = False
        self.restored = asyncio.Event()  # set once `restore` has run

    # ------------------------------------------------------------------ lookup

    def add_listener(self, listener: Listener) -> None:
        """`listener(table, event, detail)` is awaited after every change the service makes
        by itself (AI turns, timeouts): `changed`, `deal_finished`, `game_finished`, with
        `detail` {"seat": ..., "action": ..., "deal_index": ...} (a timeout's notice is
        in the outbox: POST_TIMEOUT); and `reminder`, a human's turn is running out,
        with `detail` {"seat": s, "deadline": epoch seconds, "point": "50%" | "1h" ...}
        (one of the table's `reminders`; never twice for one turn and point, across
        restarts too)."""
        self._listeners.append(listener)

    def get(self, table_id: int) -> Table | None:
        return self._tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return self._tables.get(table_id) if table_id is not None else None

    def require(self, table_id: int) -> Table:
        if self.closed:
            raise TableError("restarting")
        table = self._tables.get(table_id)
        if table is None or table.stage in (FINISHED, CANCELLED):
            raise TableError("no_table")
        return table

    def tables(self) -> list[Table]:
        return list(self._tables.values())

    def tables_of(self, guild_id: int, user_id: int) -> list[Table]:
        """The member's games list: the open tables (lobby and playing) of that server
        where `user_id` holds a seat (away or not), those where it is their turn
        first, then by deadline (soonest first; no deadline last), then oldest first.
        A server's tables all live in the process that owns its shard."""
        mine = [table for table in self._tables.values()
                if table.guild_id == guild_id and table.stage in (LOBBY, PLAYING)
                and table.seat_of(user_id) is not None]

        def order(table: Table) -> tuple[bool, float, int]:
            seat = table.to_act
            their_turn = seat is not None and table.seats[seat].user_id == user_id \
                and not table.seats[seat].away
            deadline = table.turn_deadline
            return (not their_turn, math.inf if deadline is None else deadline, table.id)

        return sorted(mine, key=order)

    async def followed_panels(self, now: float | None = None,
                              max_age: float = PANEL_TOKEN_LIFE) -> list[PanelRow]:
        """After a restart: the stored hand panels still worth following (the store's
        `save_panel`), of the games in play this process holds whose user is still
        seated, with a token younger than `max_age` at `now` (epoch seconds; None: the
        service's clock, which is Discord's). The panels whose token ran out are
        deleted from the store, and those of tables no longer in play too."""
        now = self.clock.time() if now is None else now
        await self.store.prune_panels(now, max_age)
        followed = []
        for panel in await self.store.panels(now, max_age):
            table = self._tables.get(panel.table_id)
            if table is None:
                if await self.load(panel.table_id) is None or \
                        self._tables.get(panel.table_id) is not None:
                    await self.store.delete_panels(panel.table_id)  # over or gone
                continue  # another process's table: theirs to follow
            if table.stage == PLAYING and table.seat_of(panel.user_id) is not None:
                followed.append(panel)
            elif table.stage in (FINISHED, CANCELLED):
                await self.store.delete_panels(panel.table_id)
        return followed

    # ------------------------------------------------------------------ lobby

    async def create(self, guild_id: int, channel_id: int, host_id: int, host_name: str,
                     preset: str | None, players: int, options: dict[str, object],
                     turn_timer: float | None = None, game: str | None = None,
                     switches: Mapping[str, bool | None] | None = None, *,
                     reminders: Sequence[str] | None = None,
                     timeout_action: str | None = None) -> Table:
        """Open a lobby of `game` (the registry's first game if None). `switches`: the
        table's own TABLE_SWITCHES (None or left out: the default). `turn_timer`:
        seconds a human has for a turn (None or 0: no timer; at most 7 days);
        `reminders`: the reminder points (None: DEFAULT_REMINDERS); `timeout_action`:
        TIMEOUT_PLAY (None) or TIMEOUT_SEAT. Bad values: TableError "bad_input"."""
        self._require_owned(guild_id)
        present = self.in_channel(channel_id)
        if present is not None:
            raise TableError("channel_busy", game=present.kind.name)
        kind = self.kind(game)
        rules = kind.make_rules(preset, players, options)  # a game's refusal passes on
        first_dealer = self.rng.randrange(players)
        seats = [Seat(host_id, host_name)]
        meta: dict[str, Any] = {"stage": LOBBY,
                                **_timer_meta(turn_timer, reminders, timeout_action)}
        for name, value in (switches or {}).items():
            if name not in TABLE_SWITCHES:
                raise ValueError(f"no table switch {name!r}")
            if value is not None:
                meta[name] = bool(value)
        try:
            table_id = await self.store.create_game(
                guild_id, channel_id, host_id, kind.rules_to_json(rules), first_dealer,
                _seat_infos(seats), meta, game=kind.name)
        except ChannelBusyError:
            raise TableError("channel_busy", reason="taken_meanwhile", game=kind.name) from None
        except Exception as exc:
            self._write_failed(exc, f"could not create a table in channel {channel_id}")
            raise TableError(_failure_code(exc), reason="change") from None
        self.health.answered()
        table = Table(table_id, guild_id, channel_id, host_id, kind, rules, first_dealer,
                      seats, meta=meta)
        self._register(table)
        return table

    def kind(self, game: str | None) -> GameKind:
        """The game called `game` (the registry's first for None)."""
        if game is None:
            return next(iter(self.games.values()))
        kind = self.games.get(game)
        if kind is None:
            raise TableError("unknown_game", game=game)
        return kind

    async def set_timer(self, table_id: int, user_id: int, *,
                        turn_timer: float | None | _Keep = KEEP,
                        reminders: Sequence[str] | None | _Keep = KEEP,
                        timeout_action: str | None | _Keep = KEEP,
                        manager: bool = False) -> Table:
        """The host (or a server manager, `manager`) changes the table's turn timer,
        its reminder points or what a timeout does, in the lobby or during the game
        (KEEP: unchanged; None: the default). A running turn's clock keeps its start:
        its deadline moves with the new timer."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            if user_id != table.host_id and not manager:
                raise TableError("not_host", action="settings")
            meta = {key: value for key, value in table.meta.items()
                    if key not in ("turn_timer", "reminders", "timeout_action")}
            meta.update(_timer_meta(
                table.turn_timer if isinstance(turn_timer, _Keep) else turn_timer,
                table.meta.get("reminders") if isinstance(reminders, _Keep) else reminders,
                table.meta.get("timeout_action") if isinstance(timeout_action, _Keep)
                else timeout_action))
            await self._write(table, self.store.set_meta(table.id, meta))
            table.meta = meta
        self._arm_timer(table)
        return table

    def _require_owned(self, guild_id: int) -> None:
        if not self.owns_guild(guild_id):
            raise ForeignGuildError(f"guild {guild_id} belongs to another process's shard")

    def _register(self, table: Table) -> None:
        self._require_owned(table.guild_id)
        self._tables[table.id] = table
        self._by_channel[table.channel_id] = table.id

    def _unregister(self, table: Table) -> None:
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        for tasks in (self._ai_tasks, self._timers):
            task = tasks.pop(table.id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            self._require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise TableError("already_seated")
            if table.full:
                raise TableError("table_full")
            await self._save_seats(table, [*table.seats, Seat(user_id, name)])
        return table

    async def add_ai(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            self._require_lobby(table)
            self._require_host(table, user_id, "add_ai")
            levels = table.kind.ai_levels
            level = level or table.kind.fallback_level
            if level not in levels:
                raise TableError("bad_input", reason="ai_level", levels=levels)
            if table.full:
                raise TableError("table_full")
            await self._save_seats(table, [*table.seats, Seat(None, "", ai_level=level)])
        return table

    async def fill_ai(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        """The host gives every empty seat to the AI at once."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            self._require_lobby(table)
            self._require_host(table, user_id, "add_ai")
            level = level or table.kind.fallback_level
            if level not in table.kind.ai_levels:
                raise TableError("bad_input", reason="ai_level", levels=table.kind.ai_levels)
            if table.full:
                raise TableError("table_full")
            empty = table.players - len(table.seats)
            await self._save_seats(
                table, [*table.seats, *(Seat(None, "", ai_level=level) for _ in range(empty))])
        return table

    async def set_house_rules(self, table_id: int, user_id: int, chosen: Sequence[str]
                              ) -> Table:
        """The host switches the lobby's house rules to exactly `chosen`."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            self._require_lobby(table)
            self._require_host(table, user_id, "house_rules")
            rules = table.kind.with_house_rules(table.rules, chosen)  # a refusal passes on
            await self._write(table, self.store.set_rules(table.id,
                                                          table.kind.rules_to_json(rules)))
            table.rules = rules
        return table

    async def remove_ai(self, table_id: int, user_id: int) -> Table:
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            self._require_lobby(table)
            self._require_host(table, user_id, "remove_ai")
            seats = _copied(table.seats)
            for index in range(len(seats) - 1, -1, -1):
                if seats[index].is_ai:
                    del seats[index]
                    break
            else:
                raise TableError("no_ai")
            await self._save_seats(table, seats)
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave a lobby; at a running table, hand the seat to the AI for good (the deal
        being played stays rated to the member, as one the AI covered)."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            seats = _copied(table.seats)
            if table.stage == LOBBY:
                if user_id == table.host_id:
                    raise TableError("host_leaving", game=table.kind.name)
                del seats[seat]
                await self._save_seats(table, seats)
                return table
            # The AI's for good: stored under the name of the member it replaces.
            seats[seat] = Seat(None, seats[seat].name, ai_level=cover_level(table.kind))
            await self._save_seats(table, seats)
        await self._absent_pause(table)
        self._schedule_ai(table)
        return table

    async def set_away(self, table_id: int, user_id: int, away: bool) -> Table:
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if table.stage != PLAYING:
                raise TableError("not_started")
            if table.seats[seat].away == away:  # nothing to change: say so, not "done"
                if away:
                    raise TableError("already_away", game=table.kind.name)
                raise TableError("not_away")
            seats = _copied(table.seats)
            seats[seat].away = away
            # Back: the seat is the member's own again, nothing kept of the cover; away:
            # the cover the table gets, whatever covered the seat before.
            seats[seat].ai_level = cover_level(table.kind) if away else None
            await self._save_seats(table, seats)
        await self._absent_pause(table)
        # Away: the AI plays the seat's turns; back: a turn of theirs has its clock again.
        self._schedule_ai(table)
        return table

    async def replace(self, table_id: int, user_id: int, seat: int,
                      new_user: tuple[int, str] | None) -> Table:
        """The host hands an away player's seat for good to the AI, or offers it to a
        member (`new_user`: id, name): nobody is seated without their own click, so
        the offer is stored (meta "offers") and the seat changes hands only when they
        accept it (`answer_offer`)."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            self._require_host(table, user_id, "replace")
            if table.stage != PLAYING:
                raise TableError("not_started")
            if not 0 <= seat < len(table.seats):
                raise TableError("bad_input", reason="no_seat", seat=seat + 1)
            current = table.seats[seat]
            if not current.away:
                name = self.seat_name(table.seats, seat)
                raise TableError("not_away", name=name)
            seats = _copied(table.seats)
            if new_user is not None:
                if table.seat_of(new_user[0]) is not None:
                    raise TableError("already_seated", reason="someone_else")
                offers = {**table.meta.get(OFFERS, {}), str(seat): list(new_user)}
                meta = {**table.meta, OFFERS: offers}
                await self._write(table, self.store.set_meta(table.id, meta))
                table.meta = meta
                return table
            else:
                # The AI's for good: stored under the name of the human it replaces.
                seats[seat] = Seat(None, current.name, ai_level=cover_level(table.kind))
            await self._save_seats(table, seats)
        await self._absent_pause(table)
        self._schedule_ai(table)
        return table

    async def answer_offer(self, table_id: int, user_id: int, seat: int, accept: bool
                           ) -> Table:
        """`user_id` accepts (takes the seat, from the next deal rated to them: the deal
        being played stays its member's) or declines the seat the host offered them."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            offers = dict(table.meta.get(OFFERS, {}))
            offered = offers.get(str(seat))
            if table.stage != PLAYING or offered is None or offered[0] != user_id:
                raise TableError("not_offered")
            del offers[str(seat)]
            meta = {key: value for key, value in table.meta.items() if key != OFFERS}
            if offers:
                meta[OFFERS] = offers
            if not accept:
                await self._write(table, self.store.set_meta(table.id, meta))
                table.meta = meta
                return table
            if not table.seats[seat].away:  # back meanwhile: the seat is theirs again
                raise TableError("not_away", name=self.seat_name(table.seats, seat))
            if table.seat_of(user_id) is not None:
                raise TableError("already_seated")
            seats = _copied(table.seats)
            seats[seat] = Seat(user_id, str(offered[1]))
            await self._save_seats(table, seats, meta)
        self._schedule_ai(table)
        return table

    async def start(self, table_id: int, user_id: int) -> Table:
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            self._require_lobby(table)
            self._require_host(table, user_id, "start")
            if not table.full:
                missing = table.players - len(table.seats)
                raise TableError("table_not_full", missing=missing)
            game, first_deal = table.kind.new_game(table.rules, table.first_dealer, self.rng)
            meta = {**table.meta, "stage": PLAYING}
            now = self.clock.time()
            await self._write(table, self._start_writes(table, meta, first_deal, now))
            table.game = game
            table.meta = meta
            table.stage = PLAYING
            table.last_activity = time.monotonic()
            table.turn_since = now
        self._schedule_ai(table)
        return table

    async def _start_writes(self, table: Table, meta: dict[str, Any],
                            first_deal: dict[str, Any], now: float) -> None:
        async with self.store.transaction():
            await self.store.set_meta(table.id, meta)
            await self.store.add_hand(table.id, 0, first_deal)
            await self.store.set_turn_since(table.id, now)

    async def rematch(self, table_id: int, user_id: int) -> tuple[Table, Table | None]:
        """A player of the finished game `table_id` asks for (or accepts) a rematch: the
        same seats and rules at a new table in the same channel. It starts once every
        human of the finished game has accepted, with its table message in the outbox.
        Returns the finished table (its meta "rematch" lists who accepted) and the new
        table once started, else None."""
        if self.closed:
            raise TableError("restarting")
        old = await self.load(table_id)
        if old is None or old.stage != FINISHED:
            raise TableError("no_game", reason="rematch")
        async with old.lock:
            await self._sync(old)
            if old.seat_of(user_id) is None:
                raise TableError("not_seated", reason="not_playing")
            if old.meta.get("rematch_table") is not None:
                raise TableError("rematch_started")
            accepted = sorted({*old.meta.get("rematch", ()), user_id})
            humans = {seat.user_id for seat in old.seats if seat.user_id is not None}
            new = None
            try:
                async with self.store.transaction():
                    if humans <= set(accepted):
                        new = await self._start_rematch(old)
                    meta = {**old.meta, "rematch": accepted,
                            "rematch_table": new.id if new is not None else None}
                    await self.store.set_meta(old.id, meta)
            except TableError:
                raise
            except Exception as exc:
                await self._recover(old, exc)
            self.health.answered()
            old.meta = meta
        if new is not None:
            self._register(new)
            if self.outbox is not None:
                self.outbox.kick(new.id)
            self._schedule_ai(new)
        return old, new

    async def _start_rematch(self, old: Table) -> Table:
        """The rematch of `old`, created and started (in the caller's transaction)."""
        self._require_owned(old.guild_id)
        present = self.in_channel(old.channel_id)
        if present is not None:
            raise TableError("channel_busy", game=present.kind.name)
        kind, rules = old.kind, old.rules
        seats = [Seat(seat.user_id, seat.name, seat.ai_level if seat.is_ai else None)
                 for seat in old.seats]
        first_dealer = (old.first_dealer + 1) % len(seats)
        switches = {name: old.meta[name] for name in TABLE_SWITCHES if name in old.meta}
        meta: dict[str, Any] = {**switches, "stage": PLAYING, "rematch_of": old.id}
        meta.update({key: old.meta[key] for key in ("turn_timer", "reminders",
                                                     "timeout_action") if key in old.meta})
        game, first_deal = kind.new_game(rules, first_dealer, self.rng)
        now = self.clock.time()
        try:
            table_id = await self.store.create_game(
                old.guild_id, old.channel_id, old.host_id, kind.rules_to_json(rules),
                first_dealer, _seat_infos(seats), meta, game=kind.name)
        except ChannelBusyError:
            raise TableError("channel_busy", reason="taken_meanwhile", game=kind.name) from None
        await self.store.add_hand(table_id, 0, first_deal)
        await self.store.set_turn_since(table_id, now)
        await self.store.add_posts(table_id, [Post(POST_TABLE_MESSAGE)])
        table = Table(table_id, old.guild_id, old.channel_id, old.host_id, kind, rules,
                      first_dealer, seats, stage=PLAYING, game=game, meta=meta,
                      turn_since=now)
        return table

    async def cancel(self, table_id: int, user_id: int, manager: bool = False) -> Table:
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            if user_id != table.host_id and not manager:
                raise TableError("not_host", action="cancel")
            await self._write(table, self._cancel_writes(table))
            table.stage = CANCELLED
            self._unregister(table)
        return table

    async def end_unreachable(self, table_id: int, user_id: int) -> Table:
        """End a table whose channel is gone or refuses the bot (it waits for
        PAUSE_CHANNEL), by any member seated there: nobody could end it in its channel.
        Cancelled (nothing rated), with the standings as they stood posted to the
        members (POST_FINAL, `ended`), in one write."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated")
            if PAUSE_CHANNEL not in table.paused:
                raise TableError("not_host", action="cancel")
            posts = [Post(POST_FINAL, {"ended": True})] if table.stage == PLAYING else []
            await self._write(table, self.store.cancel_game(table.id, posts))
            table.stage = CANCELLED
            self._unregister(table)
        if self.outbox is not None and posts:
            self.outbox.kick(table.id)
        return table

    async def _cancel_writes(self, table: Table) -> None:
        """Cancel the game, and rate the deal it abandons (a loss for every member who
        sat at it: README, "Ratings"), in one commit."""
        if table.stage != PLAYING or table.game is None \
                or table.kind.finished(table.game):
            await self.store.cancel_game(table.id)
            return
        async with self._rating_locks.setdefault(table.guild_id, asyncio.Lock()):
            deal = self._deal(table, table.seats)
            ratings = await self._rating_update(table, table.game, deal, self.clock.time(),
                                                forfeit=True)
            async with self.store.transaction():
                if ratings is not None:
                    await self.store.write_ratings(ratings)
                await self.store.cancel_game(table.id)

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember the public table message, so that it is edited after a restart.
        Under the table's lock, as every change of its meta: the meta is written whole,
        and one built from a copy read before another change (the start's stage, say)
        and written after it would undo that change in the store."""
        async with table.lock:
            if table.meta.get("message_id") == message_id:
                return
            # The message that showed a hand's summary is no longer the live one.
            meta = {k: v for k, v in table.meta.items() if k != "summary_shown"}
            meta["message_id"] = message_id
            await self._write(table, self.store.set_meta(table.id, meta))
            table.meta = meta

    async def set_summary_shown(self, table: Table, message_id: int, hand_index: int,
                                in_it: bool) -> None:
        """Remember (stored) that the summary of hand `hand_index` is shown, `in_it` the
        table message `message_id` or apart (Table.summary_shown), so that no later
        process edits the table over it. Under the table's lock, as every change of its
        meta."""
        async with table.lock:
            if table.summary_shown == (message_id, hand_index, in_it):
                return
            meta = {**table.meta, "summary_shown": [message_id, hand_index, in_it]}
            await self._write(table, self.store.set_meta(table.id, meta))
            table.meta = meta

    async def pause(self, table_id: int, reason: str) -> bool:
        """Hold the table for `reason` (PAUSE_REASONS): stored first, then no timer
        runs and no AI moves until every reason is lifted. False if it was held for
        that reason already (or is no longer live)."""
        table = self._tables.get(table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            return False
        async with table.lock:
            if reason not in PAUSE_REASONS:
                raise ValueError(f"unknown pause reason {reason!r}")
            if reason in table.paused:
                return False
            meta = {**table.meta, "paused": sorted(table.paused | {reason})}
            await self._write(table, self.store.set_meta(table.id, meta))
            table.meta = meta
        self._stop_clocks(table)
        return True

    async def resume(self, table_id: int, reason: str) -> bool:
        """Lift `reason`; once no reason stands the table plays on, the turn to play
        starting afresh (a member is never timed out for the time the table waited).
        False if the table was not held for `reason`."""
        table = self._tables.get(table_id)
        if table is None or reason not in table.paused:
            return False
        async with table.lock:
            if reason not in table.paused:
                return False
            left = sorted(table.paused - {reason})
            meta = {k: v for k, v in table.meta.items() if k != "paused"}
            if left:
                meta["paused"] = left
            now = self.clock.time()
            await self._write(table, self._resume_writes(table, meta, now, not left))
            table.meta = meta
            if not left:
                table.turn_since = now
                table.last_activity = time.monotonic()
        self._schedule_ai(table)
        return True

    async def _resume_writes(self, table: Table, meta: dict[str, Any], now: float,
                             playing: bool) -> None:
        async with self.store.transaction():
            await self.store.set_meta(table.id, meta)
            if playing and table.stage == PLAYING:
                await self.store.set_turn_since(table.id, now)

    async def _absent_pause(self, table: Table) -> None:
        """PAUSE_ABSENT follows the seats: held while every human seated is away (gone
        away, left, or timed out with TIMEOUT_SEAT), so that the AIs never finish a
        game alone; lifted as soon as one is back (or a member takes a seat)."""
        if all_absent(table):
            await self.pause(table.id, PAUSE_ABSENT)
        elif PAUSE_ABSENT in table.paused:
            await self.resume(table.id, PAUSE_ABSENT)

    def _stop_clocks(self, table: Table) -> None:
        """Cancel the table's turn timer and AI task (a paused table's)."""
        for tasks in (self._timers, self._ai_tasks):
            task = tasks.pop(table.id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def _require_lobby(self, table: Table) -> None:
        if table.stage != LOBBY:
            raise TableError("already_started")

    def _require_host(self, table: Table, user_id: int, action: str) -> None:
        """`action`: what the host alone may do (add_ai, remove_ai, replace, start)."""
        if user_id != table.host_id:
            raise TableError("not_host", action=action)

    async def _save_seats(self, table: Table, seats: list[Seat],
                          meta: dict[str, Any] | None = None) -> None:
        """Store `seats` as the table's, then (only then) make them the table's (and
        `meta`, if given, in the same commit). At a running game a seat that changes
        hands is covered in the deal being played (which stays rated to whoever sat
        there when it began), in the same commit."""
        meta = table.meta if meta is None else meta
        if table.stage == PLAYING:
            deal = deal_seats.changed_hands(self._deal(table, table.seats), _keys(seats))
            meta = deal_seats.to_meta(meta, deal, _keys(seats))
        if meta == table.meta:
            await self._write(table, self.store.update_seats(table.id, _seat_infos(seats)))
        else:
            await self._write(table, self._seats_and_meta(table.id, seats, meta))
            table.meta = meta
        table.seats = seats

    async def _seats_and_meta(self, table_id: int, seats: list[Seat],
                              meta: dict[str, Any]) -> None:
        async with self.store.transaction():
            await self.store.update_seats(table_id, _seat_infos(seats))
            await self.store.set_meta(table_id, meta)

    def _deal(self, table: Table, seats: Sequence[Seat]) -> deal_seats.DealSeats:
        """Who the deal being played is rated to, and which of its seats are covered."""
        return deal_seats.current(table.meta, _keys(seats))

    # ------------------------------------------------------------------ the store

    async def _write(self, table: Table, write: Awaitable[Any]) -> Any:
        """Await a store write of `table`'s. Memory is changed by the caller only after
        it returns; if it fails, memory is brought back to what the store holds and the
        player reads why (TableError "database_down" or "storage_failed")."""
        try:
            result = await write
        except TableError:
            raise
        except Exception as exc:
            await self._recover(table, exc)
        self.health.answered()
        return result

    async def _recover(self, table: Table, exc: Exception, landed: int | None = None
                       ) -> None:
        """After the failed write `exc` of `table`: read the table back from the store,
        so memory holds exactly what is stored, then refuse. `landed`: the version the
        table has if the write was committed after all (a commit whose answer was lost);
        then this returns instead of refusing. If the store cannot be read either, the
        table is marked unsynced (read back before its next change)."""
        self._write_failed(exc, f"could not store a change of table {table.id}")
        try:
            await self._resync(table)
        except Exception as again:
            table.unsynced = True
            if is_outage(again):
                self.health.failed(again)
            raise TableError("database_down", reason=_reason(landed)) from None
        if landed is not None and table.game is not None and table.version == landed:
            log.warning("the change of table %s was stored after all", table.id)
            return
        raise TableError(_failure_code(exc), reason=_reason(landed)) from None

    def _write_failed(self, exc: Exception, what: str) -> None:
        if is_outage(exc):
            self.health.failed(exc)
            log.warning("%s: %s: %s", what, type(exc).__name__, exc)
        else:  # the store refused it on its merits: memory and store disagreed (a bug)
            log.error("%s", what, exc_info=exc)

    async def _sync(self, table: Table, reason: str | None = "change") -> None:
        """Before a change of an unsynced table: read it back from the store first
        (refused with "database_down" and `reason` if the store does not answer)."""
        if not table.unsynced:
            return
        version = table.version
        try:
            await self._resync(table)
        except Exception as exc:
            if is_outage(exc):
                self.health.failed(exc)
            raise TableError("database_down", reason=reason) from None
        if table.version != version:
            # A change whose commit answer was lost is in the store: show it, post what
            # it obliges, and let the AI go on from there.
            if self.outbox is not None:
                self.outbox.kick(table.id)
            self._in_background(self._announce_resync(table))

    async def _announce_resync(self, table: Table) -> None:
        async with table.lock:  # after the change under way
            pass
        await self._notify(table, "changed", resynced=True)
        self._schedule_ai(table)

    def _in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resync(self, table: Table) -> None:
        """Make `table` what the store holds: seats, rules, meta, stage and game."""
        row = await self.store.get_game(table.id)
        if row is None:
            raise ValueError(f"table {table.id} is not in the store")
        stored = await self._table_from_row(row)
        table.seats, table.rules, table.meta = stored.seats, stored.rules, stored.meta
        table.stage, table.game = stored.stage, stored.game
        table.turn_since = stored.turn_since
        table.unsynced = False
        if table.stage in (FINISHED, CANCELLED):
            self._unregister(table)

    # ------------------------------------------------------------------ acting

    async def act(self, table_id: int, user_id: int, version: int | None,
                  make: Callable[[int], Any]) -> ActResult:
        """Apply the action `make(seat)` for `user_id`'s seat. `version` is the state
        version the user's button was drawn for (None for slash commands, which always
        mean "now"); an older one is refused as stale."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table, reason=None)
            seat = self._acting_seat(table, user_id, version)
            result = await self._apply(table, seat, make(seat))
        self._schedule_ai(table)
        return result

    async def claim(self, table_id: int, user_id: int, version: int | None) -> ActResult:
        """`user_id` claims the rest of the deal: if the game accepts the claim, every
        action that plays the deal out is applied and committed at once (with a notice to
        post), and the result is the claimer's, for the deal's end."""
        table = self.require(table_id)
        async with table.lock:
            await self._sync(table, reason=None)
            seat = self._acting_seat(table, user_id, version)
            actions = table.kind.claim(table.game, seat)  # a refusal passes on
            results = await self._play(table, actions, POST_CLAIM)
        self._schedule_ai(table)
        last = results[-1]
        return ActResult(table, seat, last.action, results[0].record, last.deal_index,
                         last.deal_finished, last.game_finished, results[0].idle_before)

    async def hint(self, table_id: int, user_id: int, version: int | None) -> Hint:
        """What the strong AI would do for `user_id`'s seat now, and why (the game's
        words)."""
        table = self.require(table_id)
        async with table.lock:  # the game must not change under the worker thread
            seat = self._acting_seat(table, user_id, version)
            return await asyncio.to_thread(table.kind.hint, table.game, seat,
                                           random.Random(self.rng.random()))

    def _acting_seat(self, table: Table, user_id: int, version: int | None) -> int:
        """The seat of `user_id` at a game in play, drawn for the state `version`."""
        if table.stage != PLAYING:
            raise TableError("not_started",
                             reason="not_yet" if table.stage == LOBBY else "over")
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", reason="not_playing")
        if version is not None and version != table.version:
            raise TableError("stale", reason="choices")
        return seat

    async def _apply(self, table: Table, seat: int, action: Any,
                     notice: str | None = None, *,
                     notice_params: Mapping[str, Any] | None = None,
                     seats: list[Seat] | None = None) -> ActResult:
        """Apply and commit one action. `notice`: a post the action itself calls for
        (POST_TIMEOUT), committed with it ahead of those its outcome calls for, with
        `notice_params` beside the seat and the action. `seats`: the table's seats
        after the action, committed with it (a timeout that gives the seat away)."""
        assert table.game is not None
        to_act = table.kind.to_act(table.game)
        if to_act is not None and to_act != seat:
            name = self.seat_name(table.seats, to_act)
            raise TableError("not_your_turn", name=name)
        return (await self._play(table, [action], notice, notice_params=notice_params,
                                 seats=seats))[0]

    async def _play(self, table: Table, actions: Sequence[Any],
                    notice: str | None = None, *,
                    notice_params: Mapping[str, Any] | None = None,
                    seats: list[Seat] | None = None) -> list[ActResult]:
        """Apply `actions` in order (each by the seat to act then) and commit them at
        once. They are applied to a copy of the game, which
        becomes the table's game only once the store has committed them: a refusal, by
        the game or by the store, leaves the table exactly as it was, so that nothing is
        ever shown of a state that is not stored. `notice` goes with the first; `seats`
        (if given) become the table's seats in the same commit. The next turn begins
        now, by the service's clock (stored with the actions)."""
        kind = table.kind
        assert table.game is not None
        game = kind.copy(table.game)  # the game deals the next deal on this copy too
        steps: list[_Step] = []
        after = seats or table.seats
        deal = self._deal(table, table.seats)
        rated_deal = None  # who the deal the actions finish is rated to
        for action in actions:
            mover = kind.to_act(game)
            assert mover is not None
            # The AI chose for a member: a timeout's move, or an away member's turn.
            by_ai = (notice == POST_TIMEOUT and not steps) or table.seats[mover].away
            if deal_seats.covered_by(deal, mover, _keys(after)[mover], by_ai):
                deal = deal.cover(mover)
            # A refusal (GameError) passes on as the game raised it: its words are the
            # game's, and only the copy saw the attempt.
            applied = kind.apply(game, action, self.rng)
            if applied.deal_finished:
                rated_deal = deal
                deal = deal_seats.begun(_keys(after), [seat.away for seat in after])
            finished = kind.finished(game)
            posts = [Post(notice, {"seat": mover, "action": applied.action,
                                   **(notice_params or {})})] \
                if notice and not steps else []
            posts.extend(_posts_after(applied.deal_index, applied.deal_finished, finished))
            steps.append(_Step(mover, action, applied, finished, posts))
        version = table.version
        now = self.clock.time()
        meta = deal_seats.to_meta(table.meta, deal, _keys(after))
        new_meta = meta if meta != table.meta else None
        try:
            if rated_deal is not None:
                async with self._rating_locks.setdefault(table.guild_id, asyncio.Lock()):
                    ratings = await self._rating_update(table, game, rated_deal, now)
                    await self._commit(table, game, steps, now, seats, ratings, new_meta)
            else:
                await self._commit(table, game, steps, now, seats, meta=new_meta)
        except Exception as exc:
            await self._recover(table, exc, landed=version + len(steps))
        else:
            table.game = game
            if seats is not None:
                table.seats = seats
            if new_meta is not None:
                table.meta = new_meta
            self.health.answered()
        return self._installed(table, steps, now)

    async def _commit(self, table: Table, game: Any, steps: Sequence[_Step], now: float,
                      seats: list[Seat] | None = None,
                      ratings: RatingUpdate | None = None,
                      meta: dict[str, Any] | None = None) -> None:
        """Every step as one atomic commit, each with what it obliges the bot to post
        (the outbox), and `seats` and `meta` if given, and the `ratings` of the matches
        the steps finished (with the last); one step in one trip to the database."""
        if len(steps) == 1 and seats is None and meta is None:
            await self._record(table, game, steps[0], now, ratings)
            return
        async with self.store.transaction():
            if seats is not None:
                await self.store.update_seats(table.id, _seat_infos(seats))
            if meta is not None:
                await self.store.set_meta(table.id, meta)
            for step in steps:
                await self._record(table, game, step, now,
                                   ratings if step is steps[-1] else None)

    async def _record(self, table: Table, game: Any, step: _Step, now: float,
                      ratings: RatingUpdate | None = None) -> None:
        applied = step.applied
        await self.store.record_action(
            table.id, applied.deal_index, applied.seq, applied.action,
            next_deal=applied.next_deal,
            results=_results(table, game) if step.finished else None, posts=step.posts,
            turn_since=now, ratings=ratings)

    async def _rating_update(self, table: Table, game: Any, deal: deal_seats.DealSeats,
                             now: float, forfeit: bool = False) -> RatingUpdate | None:
        """The ratings of the game's matches not rated yet (those the move finished, or
        any a failed rating left behind), rated at `now` to who sat at the seats when
        the `deal` began (its covered seats clamped), to commit with the move; with
        `forfeit`, then the unfinished deal as a loss for its members (a cancel). None
        if there is nothing to rate. The store's read fails the move
        as its commit would; a failure of the rating itself (a bug) is logged and the
        move goes on unrated: the matches are rated with the next move that ends one,
        and `rerate` rebuilds from the records whatever happens here."""
        kind = table.kind
        try:
            matches = kind.rating_matches(game)
            pool = kind.rating_pool(table.rules)
        except Exception:
            log.exception("could not map the matches of table %s for ratings", table.id)
            return None
        month = month_of(now)
        members = [user for user in deal.seats if not isinstance(user, str)]
        state = await self.store.rating_state(table.id, table.guild_id, pool, month,
                                              members)
        new = matches[state.rated:]
        if not new and not forfeit:
            return None
        try:
            book = book_of(table.guild_id, pool, month, state.counted, state.ratings,
                           state.seasons)
            logged = tuple(book.rate(pool, match, deal.seats, now, deal.covered,
                                     absent=deal.absent) for match in new)
            if forfeit:
                logged += (book.rate(pool, None, deal.seats, now, deal.covered,
                                     forfeit=True, absent=deal.absent),)
        except Exception:
            log.exception("could not rate the matches of table %s", table.id)
            return None
        return book.update([GameRating(table.id, pool, state.rated, logged)])

    def _installed(self, table: Table, steps: Sequence[_Step], since: float
                   ) -> list[ActResult]:
        """The table after its committed `steps`: posts kicked, the turn's clock reset
        (the next turn began at `since`), a finished game let go; the result of each
        step."""
        if any(step.posts for step in steps) and self.outbox is not None:
            self.outbox.kick(table.id)
        table.pause_after = steps[-1].applied.pause
        table.turn_since = since
        now = time.monotonic()
        idle = now - table.last_activity
        table.last_activity = now
        finished = steps[-1].finished
        if finished:
            table.stage = FINISHED
            self._unregister(table)
        return [ActResult(table, step.seat, step.action, step.applied.action,
                          step.applied.deal_index, step.applied.deal_finished,
                          step.finished, idle) for step in steps]

    async def _reload(self, table: Table) -> None:
        record = await self.store.load_record(table.id,
                                             record_format=table.kind.record_format)
        table.game = table.kind.load(record) if record.get("hands") else None

    # ------------------------------------------------------------------ AI turns

    def _schedule_ai(self, table: Table) -> None:
        """If the seat to act is an AI (or away), play its turn after a short pause; if it
        is a human and the table has a turn timer, start the clock."""
        self._arm_timer(table)
        if self.closed or table.stage != PLAYING or table.paused:
            return
        seat = table.to_act
        if seat is None or not table.seats[seat].played_by_ai:
            return
        running = self._ai_tasks.get(table.id)
        if running is not None and not running.done():
            return
        self._ai_tasks[table.id] = asyncio.create_task(self._ai_loop(table))

    async def _ai_loop(self, table: Table) -> None:
        failures = 0  # tries in a row the store refused: the next waits backoff(failures)
        try:
            while not self.closed and table.stage == PLAYING and not table.paused:
                seat = table.to_act
                if seat is None or not table.seats[seat].played_by_ai:
                    self._arm_timer(table)  # a human's turn: their clock starts now
                    return
                pause = self.trick_pause if table.pause_after else 0.0
                wait = self._retry_wait(failures) if failures else self.ai_delay + pause
                await asyncio.sleep(wait)
                async with table.lock:
                    if self.closed:
                        return  # stopping: the turn is played after the next start
                    try:
                        result = await self._ai_turn(table, seat)
                    except TableError as exc:
                        if exc.code not in STORE_REFUSALS:
                            raise
                        failures += 1  # the database: wait, then try again
                        self._retrying(table, "an AI turn", failures)
                        continue
                failures = 0
                if result is not None:
                    await self._notify_result(table, result)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI turn failed at table %s", table.id)

    async def _ai_turn(self, table: Table, seat: int) -> ActResult | None:
        """Under the table's lock: the AI's action for `seat`, applied, if it is still
        that seat's turn to be played by the AI (else None)."""
        await self._sync(table)
        if table.stage != PLAYING or table.to_act != seat or table.paused \
                or not table.seats[seat].played_by_ai:
            return None
        level = table.seats[seat].ai_level or table.kind.ai_levels[0]
        action = await asyncio.to_thread(self._ai_chooser, table.kind, table.game, seat,
                                         level, random.Random(self.rng.random()))
        return await self._apply(table, seat, action)

    def _retry_wait(self, failures: int) -> float:
        return backoff(failures - 1, self.retry_first, self.retry_cap)

    def _retrying(self, table: Table, what: str, failures: int) -> None:
        """One line for the first refused try of `what` (the health line says the
        rest); the following tries at debug level, so an outage is no log storm."""
        level = logging.WARNING if failures == 1 else logging.DEBUG
        log.log(level, "%s at table %s waits for the database (try %d failed; next in "
                "%.1f s)", what, table.id, failures, self._retry_wait(failures))

    # ------------------------------------------------------------------ turn timers

    def _arm_timer(self, table: Table) -> None:
        """(Re)start the clock task of the current turn, if a human with a timer is to
        act: it sends the turn's reminders, then plays the turn out at its deadline."""
        old = self._timers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        seat = table.to_act
        if self.closed or table.stage != PLAYING or seat is None or table.paused \
                or table.turn_deadline is None:
            return
        self._timers[table.id] = asyncio.create_task(
            self._timer(table, seat, table.version))

    def _turn_moved(self, table: Table, seat: int, version: int) -> bool:
        """Whether the turn the timer was armed for is over (or the service stops)."""
        return (self.closed or table.stage != PLAYING or table.version != version
                or bool(table.paused) or table.to_act != seat
                or table.seats[seat].played_by_ai)

    async def _timer(self, table: Table, seat: int, version: int) -> None:
        try:
            deadline = table.turn_deadline
            if deadline is None or self._turn_moved(table, seat, version):
                return
            schedule = table.reminder_times()
            for index, (when, point) in enumerate(schedule):
                if point in table.reminded():
                    continue  # sent before (before a restart, too)
                await self.clock.sleep_until(when)
                if self._turn_moved(table, seat, version):
                    return
                now = self.clock.time()
                if now >= deadline:
                    break
                if any(later <= now for later, _ in schedule[index + 1:]):
                    continue  # a later point is due too (the bot was away): that one
                due = [p for w, p in schedule if w <= now]
                await self._remind(table, seat, version, point, due, deadline)
            await self.clock.sleep_until(deadline)
            if self._turn_moved(table, seat, version):
                return
            failures = 0
            while True:
                async with table.lock:
                    try:
                        result = await self._timeout(table, seat, version)
                    except TableError as exc:
                        if exc.code not in STORE_REFUSALS:
                            raise
                        result = None
                        failures += 1
                        self._retrying(table, "a turn timeout", failures)
                    else:
                        if result is None:
                            return
                if result is not None:
                    break
                await asyncio.sleep(self._retry_wait(failures))
            # Timed out for good (TIMEOUT_SEAT) and no human left present: the table
            # waits for one, not an AI-only finish; its post tells them so.
            await self._absent_pause(table)
            await self._notify_result(table, result)
            if table.timeout_action == TIMEOUT_SEAT and table.seats[seat].away:
                # For the listeners: the member was told in the channel (the timeout
                # post); a listener may tell them where else they read (a DM).
                await self._notify(table, "timed_out", seat=seat,
                                   user_id=table.seats[seat].user_id)
            self._schedule_ai(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timer failed at table %s", table.id)

    async def _timeout(self, table: Table, seat: int, version: int) -> ActResult | None:
        """Under the table's lock: the game's strongest AI plays `seat`'s turn whose
        time ran out, if the game still stands where the timer started (else None);
        with TIMEOUT_SEAT the seat goes to that AI until its player is back (marked
        away, in the same commit)."""
        await self._sync(table)
        if self._turn_moved(table, seat, version):
            return None
        level = cover_level(table.kind)
        action = await asyncio.to_thread(self._ai_chooser, table.kind, table.game, seat,
                                         level, random.Random(self.rng.random()))
        if table.timeout_action != TIMEOUT_SEAT:
            return await self._apply(table, seat, action, notice=POST_TIMEOUT)
        seats = _copied(table.seats)
        seats[seat].away = True
        seats[seat].ai_level = level
        return await self._apply(table, seat, action, notice=POST_TIMEOUT,
                                 notice_params={"away": True}, seats=seats)

    async def _remind(self, table: Table, seat: int, version: int, point: str,
                      due: Sequence[str], deadline: float) -> None:
        """The reminder `point` of the turn: stored as sent first (with the points
        `due` passed over), so that no restart sends it again (at most once: a crash
        between the two loses it), then told to the listeners. Both are tried again
        while the database does not answer, until the turn moves on or ends."""
        failures = 0
        while True:
            try:
                async with table.lock:
                    if self._turn_moved(table, seat, version):
                        return
                    await self._mark_reminded(table, version, due)
                break
            except TableError as exc:
                if exc.code not in STORE_REFUSALS:
                    raise
                failures += 1
                self._retrying(table, "a reminder", failures)
                if not await self._retry_before(deadline, failures):
                    return
        while not await self._notify(table, "reminder", seat=seat, deadline=deadline,
                                     point=point):
            failures += 1
            if not await self._retry_before(deadline, failures) \
                    or self._turn_moved(table, seat, version):
                return

    async def _retry_before(self, deadline: float, failures: int) -> bool:
        """Wait before the next try, unless that would reach `deadline` (False)."""
        wait = self._retry_wait(failures)
        if self.clock.time() + wait >= deadline:
            return False
        await asyncio.sleep(wait)
        return True

    async def _mark_reminded(self, table: Table, version: int, points: Sequence[str]
                             ) -> None:
        """Store that the turn's `points` are sent (meta "reminded")."""
        sent = sorted({*table.reminded(), *points})
        meta = {**table.meta, "reminded": {"turn": version, "points": sent}}
        await self._write(table, self.store.set_meta(table.id, meta))
        table.meta = meta

    async def _notify_result(self, table: Table, result: ActResult) -> None:
        event = ("game_finished" if result.game_finished else "deal_finished"
                 if result.deal_finished else "changed")
        await self._notify(table, event, seat=result.seat, action=result.action,
                           deal_index=result.deal_index)

    async def _notify(self, table: Table, event: str, **detail: Any) -> bool:
        """Tell every listener; False if one failed on the database (worth another
        try: nothing of its was done, it could not read what it needed)."""
        retry = False
        for listener in self._listeners:
            try:
                await listener(table, event, detail)
            except Exception as exc:
                if event == "reminder" and is_database_error(exc):
                    self.health.failed(exc)
                    retry = True
                    continue
                log.exception("table listener failed")
        return not retry

    async def close(self, grace: float = 5.0) -> None:
        """Stop: refuse new requests, let actions under way finish their commit (for
        at most `grace` seconds), then stop AI turns and timers."""
        self.closed = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._quiesce(), grace)
        tasks = [*self._ai_tasks.values(), *self._timers.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _quiesce(self) -> None:
        """Return once no table is in the middle of a change: each table's lock is
        taken in turn (new changes are refused meanwhile, `self.closed`)."""
        for table in list(self._tables.values()):
            async with table.lock:
                pass

    # ------------------------------------------------------------------ restore

    async def restore(self) -> list[Table]:
        """Load every unfinished game of the guilds this process owns from the store
        (after a restart); the other processes' games are theirs to restore."""
        restored = []
        for row in await self.store.unfinished_games():
            if not self.owns_guild(row.guild_id):
                continue
            try:
                table = await self._table_from_row(row)
            except Exception:
                log.exception("could not restore table %s; it is left as it was", row.id)
                continue
            self._register(table)
            restored.append(table)
            if all_absent(table) != (PAUSE_ABSENT in table.paused):
                # A crash between a seat's change and its pause (two writes): mended.
                try:
                    await self._absent_pause(table)
                except TableError:
                    log.warning("table %s: its absent pause could not be mended", table.id)
            self._schedule_ai(table)
        self.restored.set()
        return restored

    async def load(self, table_id: int) -> Table | None:
        """A table as the store has it, whatever its stage: the live one if this
        process holds it, else rebuilt from the store (a finished game, for its posts
        and its answers), or None if there is no such game."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        row = await self.store.get_game(table_id)
        if row is None:
            return None
        table = await self._table_from_row(row)
        if table.stage in (FINISHED, CANCELLED):
            # Kept, as a game that ends in this process is: its posts and old buttons
            # after a restart would otherwise replay it again each time.
            self._tables[table.id] = table
        return table

    async def _table_from_row(self, row: GameRow) -> Table:
        kind = self.kind(row.game)
        rules = kind.rules_from_json(row.rules)
        seats = [Seat(s.user_id, s.display_name, s.ai_level, away=s.is_ai
                      and s.user_id is not None)
                 for s in sorted(row.seats, key=lambda s: s.seat)]
        table = Table(row.id, row.guild_id, row.channel_id, row.host_id, kind, rules,
                      row.first_dealer, seats, meta=dict(row.meta))
        table.stage = {"finished": FINISHED, "cancelled": CANCELLED}.get(
            row.status, row.meta.get("stage", LOBBY))
        # The turn began when it was stored to begin (a game stored before the store
        # kept that: at its last stored change): a timer keeps running across a
        # restart instead of starting afresh.
        table.turn_since = row.turn_since if row.turn_since is not None else row.updated_at
        table.last_activity = time.monotonic() - max(0.0, self.clock.time()
                                                     - table.turn_since)
        if table.stage in (PLAYING, FINISHED):
            await self._reload(table)
            if table.game is None:
                raise ValueError("a started game without hands")
        return table


def _timer_meta(turn_timer: float | None, reminders: Sequence[str] | None,
                timeout_action: str | None) -> dict[str, Any]:
    """A table's timer settings as its meta keeps them, checked (defaults left out)."""
    meta: dict[str, Any] = {}
    limit = check_turn_timer(turn_timer)
    if limit is not None:
        meta["turn_timer"] = limit
    if reminders is not None:
        meta["reminders"] = list(check_reminders(reminders))
    if timeout_action is not None:
        meta["timeout_action"] = check_timeout_action(timeout_action)
    return meta


def _posts_after(deal_index: int, deal_finished: bool, game_finished: bool) -> list[Post]:
    """What the end of a deal or of the game obliges the bot to post."""
    if not deal_finished:
        return []
    posts = [Post(POST_HAND_SUMMARY, {"hand_index": deal_index})]
    posts.append(Post(POST_FINAL) if game_finished else Post(POST_TABLE_MESSAGE))
    return posts


def _seat_infos(seats: list[Seat]) -> list[SeatInfo]:
    # An away human is stored as is_ai with their user id, so a restart keeps them away.
    return [SeatInfo(index, seat.user_id, seat.name, seat.is_ai or seat.away, seat.ai_level)
            for index, seat in enumerate(seats)]


def _results(table: Table, game: Any) -> list[ResultRow]:
    """The finished `game`'s results of the table's seated humans (AI seats have none)."""
    return [ResultRow(seat.user_id, r.seat, r.place, r.points, r.won, r.stats)
            for r, seat in zip(table.kind.results(game), table.seats, strict=True)
            if seat.user_id is not None]


def _keys(seats: Sequence[Seat]) -> tuple[Seated, ...]:
    """Who sits at each seat, as the rating log keeps them."""
    return seated((seat.user_id, seat.ai_level) for seat in seats)


def _copied(seats: Sequence[Seat]) -> list[Seat]:
    """The seats as new objects, to change without touching the table's."""
    return [dataclasses.replace(seat) for seat in seats]


def _failure_code(exc: Exception) -> str:
    """The refusal a player reads for a write the store did not take: the database
    away or unable to write, or (a bug) a store refusal."""
    return "database_down" if is_outage(exc) else "storage_failed"


def _reason(landed: int | None) -> str | None:
    """A refused move (None: "your move was not played") or another change ("change":
    "nothing was changed")."""
    return None if landed is not None else "change"
