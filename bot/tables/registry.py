"""The live tables of one bot process, and the one lock discipline they change under.

The registry holds the tables of the guilds this process owns (several processes on one
database each own the guilds of their gateway shards), found by id and by channel, the
games they may play, and the two clocks each table may have running: its AI task and
its turn timer. Every room of the service finds a table here and changes it only under
its `lock` (bot/tables/keeping.py, `Keeper.changing`); `closed` refuses new requests
while the process stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Callable, Mapping

from bot.tables.errors import TableError
from bot.tables.kind import GameKind
from bot.tables.table import CANCELLED, FINISHED, LOBBY, PLAYING, Table

# A room that has changed a table lets the next turn go (the AI plays it, or a human's
# clock starts): the service's AI room does that (bot/tables/ai_turns.py), handed to the
# rooms below it as this callable, so that no room imports one above it.
NextTurn = Callable[[Table], None]


class ForeignGuildError(RuntimeError):
    """A table of a guild whose shard another process runs: this process must not hold
    it (it would play its AI and run its timers beside the owner). Interactions arrive on
    the owning shard only, so this means processes disagree about SHARD_COUNT."""


def every_guild(guild_id: int) -> bool:
    return True


class Registry:
    """The live tables by id and by channel, their running clocks, and the games."""

    def __init__(self, games: Mapping[str, GameKind],
                 owns_guild: Callable[[int], bool] | None = None) -> None:
        if not games:
            raise ValueError("a table service needs at least one game")
        self.games = games  # name -> GameKind; the first is the default
        # Which guilds' tables live in this process (the app: those of its shards).
        self.owns_guild = owns_guild or every_guild
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.ai_tasks: dict[int, asyncio.Task[None]] = {}
        self.timers: dict[int, asyncio.Task[None]] = {}
        self.closed = False

    def kind(self, game: str | None) -> GameKind:
        """The game called `game` (the registry's first for None)."""
        if game is None:
            return next(iter(self.games.values()))
        kind = self.games.get(game)
        if kind is None:
            raise TableError("unknown_game", game=game)
        return kind

    def get(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self.by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id is not None else None

    def require(self, table_id: int) -> Table:
        """The live table `table_id`, or the refusal a player reads."""
        if self.closed:
            raise TableError("restarting")
        table = self.tables.get(table_id)
        if table is None or table.stage in (FINISHED, CANCELLED):
            raise TableError("no_table")
        return table

    def tables_of(self, guild_id: int, user_id: int) -> list[Table]:
        """The member's games list: the open tables (lobby and playing) of that server
        where `user_id` holds a seat (away or not), those where it is their turn
        first, then by deadline (soonest first; no deadline last), then oldest first.
        A server's tables all live in the process that owns its shard."""
        mine = [table for table in self.tables.values()
                if table.guild_id == guild_id and table.stage in (LOBBY, PLAYING)
                and table.seat_of(user_id) is not None]

        def order(table: Table) -> tuple[bool, float, int]:
            seat = table.to_act
            their_turn = seat is not None and table.seats[seat].user_id == user_id \
                and not table.seats[seat].away
            deadline = table.turn_deadline
            return (not their_turn, math.inf if deadline is None else deadline, table.id)

        return sorted(mine, key=order)

    def require_owned(self, guild_id: int) -> None:
        if not self.owns_guild(guild_id):
            raise ForeignGuildError(f"guild {guild_id} belongs to another process's shard")

    def register(self, table: Table) -> None:
        self.require_owned(table.guild_id)
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def unregister(self, table: Table) -> None:
        """The table is over: its channel is free and its clocks stop (it stays found by
        id, for its posts and old buttons)."""
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        self.stop_clocks(table)

    def stop_clocks(self, table: Table) -> None:
        """Cancel the table's turn timer and AI task (a paused or finished table's); a
        task that asks for this itself runs on to its end."""
        for tasks in (self.timers, self.ai_tasks):
            task = tasks.pop(table.id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def close(self, grace: float = 5.0) -> None:
        """Stop: refuse new requests, let changes under way finish their commit (for at
        most `grace` seconds), then stop AI turns and timers."""
        self.closed = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._quiesce(), grace)
        tasks = [*self.ai_tasks.values(), *self.timers.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _quiesce(self) -> None:
        """Return once no table is in the middle of a change: each table's lock is
        taken in turn (new changes are refused meanwhile, `closed`)."""
        for table in list(self.tables.values()):
            async with table.lock:
                pass
