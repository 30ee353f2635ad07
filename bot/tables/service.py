"""Tables: a lobby, then a game, persisted action by action. `TableService` is the one
door the cogs, the terminal and the tests use; behind it the work is done in rooms, each
an object with the few collaborators it needs, none of which knows the service:

- the live tables, found by id and channel, and their running clocks: registry.py;
- the lock discipline and the store's writes, reading a table back: keeping.py;
- opening, seating, starting, a rematch, a cancel: lobby.py; seats at a running game
  (away, back, left, replaced, offered): seats.py;
- a member's action, a claim, a hint, and the one path every action takes: play.py,
  with the ratings it commits: rater.py;
- the AI's turns: ai_turns.py; a human's turn clock (reminders, the timeout):
  turn_clock.py, its settings timer_settings.py; why a table waits: pauses.py;
- a restart (the tables reloaded, what the bot showed of them): restore.py; who hears of
  the service's own moves: listeners.py; the table itself: table.py;
- the deal of the day, the other kind of table (a member's own, kept in the store per
  step): daily.py, `TableService.daily`; a move at either kind of table is checked and
  applied by moves.py.

Every change goes through one table's lock: the seat and the state version are checked,
the action is applied through the table's GameKind (which refuses illegal ones with a
stable code) to a copy of the game, the action is committed to the store, and only then
does the copy become the table's game and the result go back for the caller to confirm.
Lobby changes likewise: stored first, then made in memory. So the table in memory is
always a state the store holds. AI turns and turn timeouts that meet a refusing store try
again with backoff until it answers. A crash after the commit loses nothing: `restore`
replays each unfinished game's record. The service knows games only through the
GameKind protocol (bot/tables/kind.py): it never names one.

Ratings: a move that finishes a deal also rates the game's matches not rated yet, in the
move's own commit (rater.py). Clocks of days: a table may have a turn timer, reminders
and a timeout action (timer_settings.py), measured on the service's clock
(`clock`: Settings.clock, the machine's by default, the fake Discord's in tests).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot.clock import SYSTEM_CLOCK, Clock
from bot.store import PANEL_TOKEN_LIFE, PanelRow, Store
from bot.store.health import FIRST_RETRY, LAST_RETRY, Health
from bot.tables.ai_turns import AiTurns
from bot.tables.daily import DailyService
from bot.tables.errors import TableError
from bot.tables.keeping import STORE_REFUSALS, Keeper
from bot.tables.kind import GameKind, Hint
from bot.tables.listeners import Listener, Listeners
from bot.tables.lobby import Lobby
from bot.tables.outbox import Outbox
from bot.tables.pauses import Pauses
from bot.tables.play import AiChooser, Play, SeatNamer, default_ai, stored_name
from bot.tables.rater import Rater
from bot.tables.registry import ForeignGuildError, Registry
from bot.tables.restore import Restore
from bot.tables.seats import Seats
from bot.tables.table import (
    ABANDON_AFTER,
    CANCELLED,
    FINISHED,
    GIVEN_AWAY,
    LOBBY,
    OFFER_MESSAGES,
    OFFERS,
    PAUSE_ABSENT,
    PAUSE_CHANNEL,
    PAUSE_GUILD,
    PAUSE_REASONS,
    PLAYING,
    POST_CLAIM,
    POST_FINAL,
    POST_HAND_SUMMARY,
    POST_TABLE_MESSAGE,
    POST_TIMEOUT,
    TABLE_SWITCHES,
    ActResult,
    Seat,
    Table,
    abandon_at,
    all_absent,
    cover_level,
)
from bot.tables.timer_settings import (
    DEFAULT_REMINDERS,
    KEEP,
    MAX_REMINDERS,
    MAX_TURN_TIMER,
    REMINDER_GAP,
    TIMEOUT_ACTIONS,
    TIMEOUT_PLAY,
    TIMEOUT_SEAT,
    Keep,
    check_reminders,
    check_timeout_action,
    check_turn_timer,
    reminder_offset,
    reminder_schedule,
)
from bot.tables.turn_clock import TurnClock

# The names callers have always imported from here (the rooms hold them now).
__all__ = [
    "ABANDON_AFTER", "CANCELLED", "DEFAULT_REMINDERS", "FINISHED", "GIVEN_AWAY", "KEEP",
    "LOBBY", "MAX_REMINDERS", "OFFER_MESSAGES",
    "MAX_TURN_TIMER", "OFFERS", "PAUSE_ABSENT", "PAUSE_CHANNEL", "PAUSE_GUILD",
    "PAUSE_REASONS", "PLAYING", "POST_CLAIM", "POST_FINAL", "POST_HAND_SUMMARY",
    "POST_TABLE_MESSAGE", "POST_TIMEOUT", "REMINDER_GAP", "STORE_REFUSALS",
    "TABLE_SWITCHES", "TIMEOUT_ACTIONS", "TIMEOUT_PLAY", "TIMEOUT_SEAT", "ActResult",
    "AiChooser", "ForeignGuildError", "Listener", "Seat", "SeatNamer", "Table",
    "TableError", "TableService", "abandon_at",
    "all_absent",
    "check_reminders", "check_timeout_action", "check_turn_timer", "cover_level",
    "reminder_offset", "reminder_schedule",
]


class TableService:
    """All tables of one bot process: those of the guilds it owns (`owns_guild`; several
    processes on one database each own the guilds of their gateway shards). It wires the
    rooms and hands each call to the room that does it."""

    def __init__(self, store: Store, games: Mapping[str, GameKind], *,
                 rng: random.Random | None = None, ai_delay: float = 0.6,
                 trick_pause: float = 1.0,
                 ai_chooser: AiChooser | None = None, outbox: Outbox | None = None,
                 seat_name: SeatNamer | None = None,
                 owns_guild: Callable[[int], bool] | None = None,
                 health: Health | None = None, retry_first: float = FIRST_RETRY,
                 retry_cap: float = LAST_RETRY, clock: Clock | None = None,
                 daily_secret: str | None = None) -> None:
        self.games = games  # name -> GameKind; the first is the default
        self.outbox = outbox  # posts what a change obliges the bot to post
        # Whether the database answers, shared with the outbox: one log line when it
        # goes away and one when it is back, whoever notices first.
        self.health = health or (outbox.health if outbox is not None else Health())
        if outbox is not None:
            outbox.health = self.health
        # Turn timers and reminders: when a turn began and when it ends are epoch
        # seconds of this clock (Settings.clock; tests pass the fake Discord's).
        self.clock: Clock = clock or SYSTEM_CLOCK
        self.restored = asyncio.Event()  # set once `restore` has run
        # Awaited, in turn, once `restore` has run (the table cog follows its panels again).
        self._when_restored: list[Callable[[], Awaitable[object]]] = []
        # table -> member -> the Activity's pages that show it to them (set_watching)
        self._watching: dict[int, dict[int, int]] = {}
        rng = rng or random.Random()
        seat_name = seat_name or stored_name
        clock, health = self.clock, self.health

        def next_turn(table: Table) -> None:
            # Every room lets the next turn go once it has changed a table: the AI room,
            # built last on the others, does it (late-bound, so no room needs it).
            ai.schedule(table)

        registry = self._registry = Registry(games, owns_guild)
        listeners = self._listeners = Listeners(health)
        keeper = self._keeper = Keeper(store, registry, health, listeners, clock, outbox,
                                       next_turn, retry_first, retry_cap)
        rater = self._rater = Rater(store)
        play = self._play = Play(store, registry, keeper, rater, health, clock, outbox, rng,
                                 seat_name, ai_chooser or default_ai, next_turn)
        pauses = self._pauses = Pauses(store, registry, keeper, clock, next_turn)
        turn_clock = self._turn_clock = TurnClock(registry, keeper, play, pauses, listeners,
                                                  clock, next_turn)
        seats = self._seats = Seats(store, keeper, pauses, seat_name, next_turn)
        self._lobby = Lobby(store, registry, keeper, seats, rater, turn_clock, health, clock,
                            outbox, rng, next_turn)
        turn_clock.abandon = self._lobby.abandon
        self._restore = Restore(store, registry, keeper, pauses, clock, next_turn)
        ai = self._ai = AiTurns(registry, keeper, play, turn_clock, listeners, ai_delay,
                                trick_pause)
        self.owns_guild = registry.owns_guild
        # The deal of the day: any process serves any server's (it lives in the store).
        # `daily_secret`: the secret its deals derive from (Settings.daily_secret; one
        # is generated and kept in the store when unset).
        self.daily = DailyService(store, games, clock.time, secret=daily_secret)

    # ------------------------------------------------------------------ settings
    # Set on a running service by the bot and the tests: held by the rooms that use them.

    @property
    def rng(self) -> random.Random:
        """The random source of the deals, the first dealer and the AI's choices."""
        return self._play.rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._play.rng = self._lobby.rng = rng

    @property
    def closed(self) -> bool:
        """Whether the service stops: new requests are refused, nothing is scheduled."""
        return self._registry.closed

    @closed.setter
    def closed(self, closed: bool) -> None:
        self._registry.closed = closed

    @property
    def retry_first(self) -> float:
        return self._keeper.retry_first

    @retry_first.setter
    def retry_first(self, seconds: float) -> None:
        self._keeper.retry_first = seconds

    @property
    def retry_cap(self) -> float:
        return self._keeper.retry_cap

    @retry_cap.setter
    def retry_cap(self, seconds: float) -> None:
        self._keeper.retry_cap = seconds

    @property
    def ai_delay(self) -> float:
        return self._ai.ai_delay

    @ai_delay.setter
    def ai_delay(self, seconds: float) -> None:
        self._ai.ai_delay = seconds

    @property
    def trick_pause(self) -> float:
        return self._ai.trick_pause

    @trick_pause.setter
    def trick_pause(self, seconds: float) -> None:
        self._ai.trick_pause = seconds

    @property
    def store(self) -> Store:
        """The store every change is committed to."""
        return self._keeper.store

    @store.setter
    def store(self, store: Store) -> None:
        # A test puts a store that fails on cue in its place (tests/outage.py).
        for room in (self._keeper, self._rater, self._play, self._pauses, self._seats,
                     self._lobby, self._restore, self.daily):
            room.store = store

    # What tests look into: the live tables, the clocks running, the AI's chooser.
    @property
    def _tables(self) -> dict[int, Table]:
        return self._registry.tables

    @property
    def _timers(self) -> dict[int, asyncio.Task[None]]:
        return self._registry.timers

    @property
    def _ai_tasks(self) -> dict[int, asyncio.Task[None]]:
        return self._registry.ai_tasks

    @property
    def _ai_chooser(self) -> AiChooser:
        return self._play.chooser

    @_ai_chooser.setter
    def _ai_chooser(self, chooser: AiChooser) -> None:
        self._play.chooser = chooser

    def _arm_timer(self, table: Table) -> None:
        self._turn_clock.arm(table)

    # ------------------------------------------------------------------ lookup

    def add_listener(self, listener: Listener) -> None:
        """`listener(table, event, detail)` is awaited after every change the service makes
        by itself (AI turns, timeouts) or is told of (`tell`): `changed`,
        `deal_finished`, `game_finished`, with
        `detail` {"seat": ..., "action": ..., "deal_index": ...} (a timeout's notice is
        in the outbox: POST_TIMEOUT); `timed_out` (TIMEOUT_SEAT gave the seat to the AI,
        {"seat": s, "user_id": ...}); and `reminder`, a human's turn is running out,
        with `detail` {"seat": s, "deadline": epoch seconds, "point": "50%" | "1h" ...}
        (one of the table's `reminders`; never twice for one turn and point, across
        restarts too)."""
        self._listeners.add(listener)

    def set_watching(self, table_id: int, user_id: int, watching: bool) -> None:
        """A page of the Activity (bot/web) shows `user_id` the table live (`watching`),
        or no longer does; counted, as a member may have two pages open."""
        counts = self._watching.setdefault(table_id, {})
        counts[user_id] = counts.get(user_id, 0) + (1 if watching else -1)
        if counts[user_id] <= 0:
            del counts[user_id]
        if not counts:
            del self._watching[table_id]

    def watching(self, table_id: int, user_id: int) -> bool:
        """Whether a page of the Activity shows `user_id` the table live: their turn
        reaches them there as it comes, and needs no ping in the channel."""
        return user_id in self._watching.get(table_id, {})

    async def tell(self, result: ActResult) -> None:
        """Tell the listeners of a move made without the bot's cog (a page of the
        Activity, bot/web), as of the service's own moves: the table message, the next
        player's panel and ping follow it as they follow an AI's."""
        await self._listeners.result(result.table, result)

    def watch(self, watcher: Callable[[Table], None]) -> Callable[[], None]:
        """`watcher(table)` is called (not awaited: it must not block) after every change
        made under a table's lock, a member's or the service's own; returns what undoes
        that. The Activity's pages follow their tables so (bot/web)."""
        self._keeper.watchers.append(watcher)
        return lambda: self._keeper.watchers.remove(watcher)

    def get(self, table_id: int) -> Table | None:
        return self._registry.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        return self._registry.in_channel(channel_id)

    def require(self, table_id: int) -> Table:
        return self._registry.require(table_id)

    def tables(self) -> list[Table]:
        return list(self._registry.tables.values())

    def tables_of(self, guild_id: int, user_id: int) -> list[Table]:
        return self._registry.tables_of(guild_id, user_id)

    def kind(self, game: str | None) -> GameKind:
        """The game called `game` (the registry's first for None)."""
        return self._registry.kind(game)

    async def load(self, table_id: int) -> Table | None:
        return await self._keeper.load(table_id)

    async def followed_panels(self, now: float | None = None,
                              max_age: float = PANEL_TOKEN_LIFE) -> list[PanelRow]:
        return await self._restore.followed_panels(now, max_age)

    # ------------------------------------------------------------------ lobby

    async def create(self, guild_id: int, channel_id: int, host_id: int, host_name: str,
                     preset: str | None, players: int, options: dict[str, object],
                     turn_timer: float | None = None, game: str | None = None,
                     switches: Mapping[str, bool | None] | None = None, *,
                     reminders: Sequence[str] | None = None,
                     timeout_action: str | None = None) -> Table:
        return await self._lobby.create(
            guild_id, channel_id, host_id, host_name, preset, players, options, turn_timer,
            game, switches, reminders=reminders, timeout_action=timeout_action)

    async def set_timer(self, table_id: int, user_id: int, *,
                        turn_timer: float | None | Keep = KEEP,
                        reminders: Sequence[str] | None | Keep = KEEP,
                        timeout_action: str | None | Keep = KEEP,
                        manager: bool = False) -> Table:
        return await self._lobby.set_timer(table_id, user_id, turn_timer=turn_timer,
                                           reminders=reminders,
                                           timeout_action=timeout_action, manager=manager)

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        return await self._lobby.join(table_id, user_id, name)

    async def add_ai(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        return await self._lobby.add_ai(table_id, user_id, level)

    async def fill_ai(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        """The host gives every empty seat to the AI at once."""
        return await self._lobby.add_ai(table_id, user_id, level, every_seat=True)

    async def set_house_rules(self, table_id: int, user_id: int, chosen: Sequence[str]
                              ) -> Table:
        return await self._lobby.set_house_rules(table_id, user_id, chosen)

    async def remove_ai(self, table_id: int, user_id: int) -> Table:
        return await self._lobby.remove_ai(table_id, user_id)

    async def start(self, table_id: int, user_id: int) -> Table:
        return await self._lobby.start(table_id, user_id)

    async def rematch(self, table_id: int, user_id: int) -> tuple[Table, Table | None]:
        return await self._lobby.rematch(table_id, user_id)

    async def cancel(self, table_id: int, user_id: int, manager: bool = False) -> Table:
        return await self._lobby.cancel(table_id, user_id, manager)

    async def end_unreachable(self, table_id: int, user_id: int) -> Table:
        return await self._lobby.end_unreachable(table_id, user_id)

    # ------------------------------------------------------------------ seats

    async def leave(self, table_id: int, user_id: int) -> Table:
        return await self._seats.leave(table_id, user_id)

    async def set_away(self, table_id: int, user_id: int, away: bool) -> Table:
        return await self._seats.set_away(table_id, user_id, away)

    async def replace(self, table_id: int, user_id: int, seat: int,
                      new_user: tuple[int, str] | None) -> Table:
        return await self._seats.replace(table_id, user_id, seat, new_user)

    async def set_offer_message(self, table_id: int, seat: int, user_id: int,
                                message_id: int) -> None:
        await self._seats.set_offer_message(table_id, seat, user_id, message_id)

    async def answer_offer(self, table_id: int, user_id: int, seat: int, accept: bool
                           ) -> Table:
        return await self._seats.answer_offer(table_id, user_id, seat, accept)

    # ------------------------------------------------------------------ playing

    async def act(self, table_id: int, user_id: int, version: int | None,
                  make: Callable[[int], Any]) -> ActResult:
        return await self._play.act(table_id, user_id, version, make)

    async def claim(self, table_id: int, user_id: int, version: int | None) -> ActResult:
        return await self._play.claim(table_id, user_id, version)

    async def hint(self, table_id: int, user_id: int, version: int | None) -> Hint:
        return await self._play.hint(table_id, user_id, version)

    # ------------------------------------------------------------------ pauses

    async def pause(self, table_id: int, reason: str) -> bool:
        return await self._pauses.pause(table_id, reason)

    async def resume(self, table_id: int, reason: str) -> bool:
        return await self._pauses.resume(table_id, reason)

    # ------------------------------------------------------------------ what the bot shows

    async def set_message(self, table: Table, message_id: int) -> None:
        await self._restore.set_message(table, message_id)

    async def set_summary_shown(self, table: Table, message_id: int, hand_index: int,
                                in_it: bool) -> None:
        await self._restore.set_summary_shown(table, message_id, hand_index, in_it)

    # ------------------------------------------------------------------ start and stop

    async def restore(self) -> list[Table]:
        restored = await self._restore.restore()
        self.restored.set()
        for callback in list(self._when_restored):
            await callback()
        return restored

    def when_restored(self, callback: Callable[[], Awaitable[object]]) -> Callable[[], None]:
        """Have `callback` awaited when `restore` has run; returns what undoes that (a cog
        that is unloaded)."""
        self._when_restored.append(callback)
        return lambda: self._when_restored.remove(callback)

    async def close(self, grace: float = 5.0) -> None:
        """Stop: refuse new requests, let actions under way finish their commit (for
        at most `grace` seconds), then stop AI turns and timers."""
        await self._registry.close(grace)
