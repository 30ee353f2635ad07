"""Tables: a lobby, then a game, persisted action by action. `TableService` builds the
rooms that do the work and wires them: each an object with the few collaborators it
needs, none of which knows the service. The cogs, the terminal and the tests call the
room they use (`service.lobby.create(...)`, `service.play.act(...)`,
`service.registry.in_channel(...)`); the service itself keeps only what is its own (the
restore and who waits on it, the Activity's watchers). The rooms:

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
  step): daily.py, `service.daily`; a move at either kind of table is checked and
  applied by moves.py;
- what several rooms read and a test or the bot may change (the store, the random
  source, the clock, the database's health, the outbox): one object they share,
  shared.py.

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
(`shared.clock`: Settings.clock, the machine's by default, the fake Discord's in tests).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping

from bot.clock import SYSTEM_CLOCK, Clock
from bot.store import Store
from bot.store.health import FIRST_RETRY, LAST_RETRY, Health
from bot.tables.ai_turns import AiTurns
from bot.tables.daily import DailyService
from bot.tables.keeping import Keeper
from bot.tables.kind import GameKind
from bot.tables.listeners import Listeners
from bot.tables.lobby import Lobby
from bot.tables.outbox import Outbox
from bot.tables.pauses import Pauses
from bot.tables.play import AiChooser, Play, SeatNamer, default_ai, stored_name
from bot.tables.rater import Rater
from bot.tables.registry import Registry
from bot.tables.restore import Restore
from bot.tables.seats import Seats
from bot.tables.shared import Shared
from bot.tables.table import Table
from bot.tables.turn_clock import TurnClock


class TableService:
    """All tables of one bot process: those of the guilds it owns (`owns_guild`; several
    processes on one database each own the guilds of their gateway shards). It builds
    and wires the rooms; callers hold the room they use:

    - `registry`: the live tables (`get`, `require`, `in_channel`, `tables_of`, `kind`,
      `tables`, `closed`, `close`);
    - `lobby`: `create`, `join`, `add_ai`, `fill_ai`, `set_house_rules`, `remove_ai`,
      `set_timer`, `start`, `rematch`, `cancel`, `end_unreachable`;
    - `seats`: `leave`, `set_away`, `replace`, `set_offer_message`, `answer_offer`;
    - `play`: `act`, `claim`, `hint` (and the AI's `chooser`);
    - `pauses`: `pause`, `resume`; `turn_clock`: `arm`; `ai`: `ai_delay`, `trick_pause`;
    - `keeper`: `load`, `watch`, `retry_first`, `retry_cap`;
    - `restorer`: `set_message`, `set_summary_shown`, `followed_panels`;
    - `daily`: the deal of the day, a member's own table (bot/tables/daily.py);
    - `listeners`: `add` (a listener), `result` (tell them of a move made elsewhere);
    - `shared`: the settings they share (`store`, `rng`, `clock`, `health`, `outbox`).
    """

    def __init__(self, store: Store, games: Mapping[str, GameKind], *,
                 rng: random.Random | None = None, ai_delay: float = 0.6,
                 trick_pause: float = 1.0,
                 ai_chooser: AiChooser | None = None, outbox: Outbox | None = None,
                 seat_name: SeatNamer | None = None,
                 owns_guild: Callable[[int], bool] | None = None,
                 health: Health | None = None, retry_first: float = FIRST_RETRY,
                 retry_cap: float = LAST_RETRY, clock: Clock | None = None,
                 daily_secret: str | None = None) -> None:
        # Whether the database answers, shared with the outbox: one log line when it
        # goes away and one when it is back, whoever notices first.
        health = health or (outbox.health if outbox is not None else Health())
        if outbox is not None:
            outbox.health = health
        # Turn timers and reminders: when a turn began and when it ends are epoch
        # seconds of this clock (Settings.clock; tests pass the fake Discord's).
        shared = self.shared = Shared(store, rng or random.Random(), clock or SYSTEM_CLOCK,
                                      health, outbox)
        self.restored = asyncio.Event()  # set once `restore` has run
        # Awaited, in turn, once `restore` has run (the table cog follows its panels again).
        self._when_restored: list[Callable[[], Awaitable[object]]] = []
        # table -> member -> the Activity's pages that show it to them (set_watching)
        self._watching: dict[int, dict[int, int]] = {}
        seat_name = seat_name or stored_name

        def next_turn(table: Table) -> None:
            # Every room lets the next turn go once it has changed a table: the AI room,
            # built last on the others, does it (late-bound, so no room needs it).
            ai.schedule(table)

        registry = self.registry = Registry(games, owns_guild)
        listeners = self.listeners = Listeners(shared)
        keeper = self.keeper = Keeper(shared, registry, listeners, next_turn, retry_first,
                                      retry_cap)
        rater = self.rater = Rater(shared)
        play = self.play = Play(shared, registry, keeper, rater, seat_name,
                                ai_chooser or default_ai, next_turn)
        pauses = self.pauses = Pauses(shared, registry, keeper, next_turn)
        turn_clock = self.turn_clock = TurnClock(shared, registry, keeper, play, pauses,
                                                 listeners, next_turn)
        seats = self.seats = Seats(shared, keeper, pauses, seat_name, next_turn)
        self.lobby = Lobby(shared, registry, keeper, seats, rater, turn_clock, next_turn)
        turn_clock.abandon = self.lobby.abandon
        self.restorer = Restore(shared, registry, keeper, pauses, next_turn)
        ai = self.ai = AiTurns(registry, keeper, play, turn_clock, listeners, ai_delay,
                               trick_pause)
        # The deal of the day: any process serves any server's (it lives in the store).
        # `daily_secret`: the secret its deals derive from (Settings.daily_secret; one
        # is generated and kept in the store when unset).
        self.daily = DailyService(store, games, shared.clock.time, secret=daily_secret)
        shared.copies.append(self.daily)

    # ------------------------------------------------------------------ the Activity

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

    # ------------------------------------------------------------------ start

    async def restore(self) -> list[Table]:
        """Reload every unfinished table (restore.py), then set `restored` and await
        those waiting on it (`when_restored`)."""
        restored = await self.restorer.restore()
        self.restored.set()
        for callback in list(self._when_restored):
            await callback()
        return restored

    def when_restored(self, callback: Callable[[], Awaitable[object]]) -> Callable[[], None]:
        """Have `callback` awaited when `restore` has run; returns what undoes that (a cog
        that is unloaded)."""
        self._when_restored.append(callback)
        return lambda: self._when_restored.remove(callback)
