"""A table from its lobby to its end: opening one, seating members and the AI, house
rules and the timer settings, the start, a rematch, and a cancel. Each change is stored
first, then made in memory (bot/tables/keeping.py)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store import ChannelBusyError, Post
from bot.tables.errors import TableError
from bot.tables.keeping import Keeper, failure_code
from bot.tables.rater import Rater
from bot.tables.registry import NextTurn, Registry
from bot.tables.seats import Seats, require_host
from bot.tables.shared import Shared
from bot.tables.table import (
    CANCELLED,
    FINISHED,
    LOBBY,
    PAUSE_CHANNEL,
    PLAYING,
    POST_FINAL,
    POST_TABLE_MESSAGE,
    TABLE_SWITCHES,
    Seat,
    Table,
    abandoned,
    copied,
    deal_of,
    seat_infos,
)
from bot.tables.timer_settings import KEEP, Keep, timer_meta
from bot.tables.turn_clock import TurnClock

_TIMER_KEYS = ("turn_timer", "reminders", "timeout_action")


def rematch_answers(table: Table, names: Sequence[str]) -> tuple[list[str], list[str]]:
    """The names (`names`: a seat's each, as the caller shows them) of a finished game's
    members who accepted its rematch, and of those it waits for (AI seats are not asked)."""
    accepted = set(table.meta.get("rematch", ()))
    humans = [(name, seat.user_id) for name, seat in zip(names, table.seats, strict=True)
              if seat.user_id is not None]
    return ([name for name, user in humans if user in accepted],
            [name for name, user in humans if user not in accepted])


def _require_lobby(table: Table) -> None:
    if table.stage != LOBBY:
        raise TableError("already_started")


class Lobby:
    """Opens, fills, starts and ends tables."""

    def __init__(self, shared: Shared, registry: Registry, keeper: Keeper, seats: Seats,
                 rater: Rater, turn_clock: TurnClock, next_turn: NextTurn) -> None:
        self.shared = shared  # the store, the random source, the clock, the outbox
        self.registry = registry
        self.keeper = keeper
        self.seats = seats
        self.rater = rater
        self.turn_clock = turn_clock
        self.next_turn = next_turn

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
        self.registry.require_owned(guild_id)
        present = self.registry.in_channel(channel_id)
        if present is not None:
            raise TableError("channel_busy", game=present.kind.name)
        kind = self.registry.kind(game)
        rules = kind.make_rules(preset, players, options)  # a game's refusal passes on
        first_dealer = self.shared.rng.randrange(players)
        seats = [Seat(host_id, host_name)]
        meta: dict[str, Any] = {"stage": LOBBY,
                                **timer_meta(turn_timer, reminders, timeout_action)}
        for name, value in (switches or {}).items():
            if name not in TABLE_SWITCHES:
                raise ValueError(f"no table switch {name!r}")
            if value is not None:
                meta[name] = bool(value)
        try:
            table_id = await self.shared.store.create_game(
                guild_id, channel_id, host_id, kind.rules_to_json(rules), first_dealer,
                seat_infos(seats), meta, game=kind.name)
        except ChannelBusyError:
            raise TableError("channel_busy", reason="taken_meanwhile", game=kind.name) from None
        except Exception as exc:
            self.keeper.write_failed(exc, f"could not create a table in channel {channel_id}")
            raise TableError(failure_code(exc), reason="change") from None
        self.shared.health.answered()
        table = Table(table_id, guild_id, channel_id, host_id, kind, rules, first_dealer,
                      seats, meta=meta)
        self.registry.register(table)
        return table

    async def set_timer(self, table_id: int, user_id: int, *,
                        turn_timer: float | None | Keep = KEEP,
                        reminders: Sequence[str] | None | Keep = KEEP,
                        timeout_action: str | None | Keep = KEEP,
                        manager: bool = False) -> Table:
        """The host (or a server manager, `manager`) changes the table's turn timer,
        its reminder points or what a timeout does, in the lobby or during the game
        (KEEP: unchanged; None: the default). A running turn's clock keeps its start:
        its deadline moves with the new timer."""
        async with self.keeper.changing(table_id) as table:
            if user_id != table.host_id and not manager:
                raise TableError("not_host", action="settings")
            meta = {key: value for key, value in table.meta.items()
                    if key not in _TIMER_KEYS}
            meta.update(timer_meta(
                table.turn_timer if isinstance(turn_timer, Keep) else turn_timer,
                table.meta.get("reminders") if isinstance(reminders, Keep) else reminders,
                table.meta.get("timeout_action") if isinstance(timeout_action, Keep)
                else timeout_action))
            await self.keeper.set_meta(table, meta)
        self.turn_clock.arm(table)
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        async with self.keeper.changing(table_id) as table:
            _require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise TableError("already_seated")
            if table.full:
                raise TableError("table_full")
            await self.seats.save(table, [*table.seats, Seat(user_id, name)])
        return table

    async def add_ai(self, table_id: int, user_id: int, level: str | None = None,
                     every_seat: bool = False) -> Table:
        """The host gives an empty seat to the AI at `level` (the game's fallback level
        for None); with `every_seat`, every empty seat at once."""
        async with self.keeper.changing(table_id) as table:
            _require_lobby(table)
            require_host(table, user_id, "add_ai")
            levels = table.kind.ai_levels
            level = level or table.kind.fallback_level
            if level not in levels:
                raise TableError("bad_input", reason="ai_level", levels=levels)
            if table.full:
                raise TableError("table_full")
            empty = table.players - len(table.seats) if every_seat else 1
            await self.seats.save(
                table, [*table.seats, *(Seat(None, "", ai_level=level) for _ in range(empty))])
        return table

    async def fill_ai(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        """The host gives every empty seat to the AI at once."""
        return await self.add_ai(table_id, user_id, level, every_seat=True)

    async def set_house_rules(self, table_id: int, user_id: int, chosen: Sequence[str]
                              ) -> Table:
        """The host switches the lobby's house rules to exactly `chosen`."""
        async with self.keeper.changing(table_id) as table:
            _require_lobby(table)
            require_host(table, user_id, "house_rules")
            rules = table.kind.with_house_rules(table.rules, chosen)  # a refusal passes on
            await self.keeper.write(table, self.shared.store.set_rules(
                table.id, table.kind.rules_to_json(rules)))
            table.rules = rules
        return table

    async def remove_ai(self, table_id: int, user_id: int) -> Table:
        async with self.keeper.changing(table_id) as table:
            _require_lobby(table)
            require_host(table, user_id, "remove_ai")
            seats = copied(table.seats)
            for index in range(len(seats) - 1, -1, -1):
                if seats[index].is_ai:
                    del seats[index]
                    break
            else:
                raise TableError("no_ai")
            await self.seats.save(table, seats)
        return table

    async def start(self, table_id: int, user_id: int) -> Table:
        async with self.keeper.changing(table_id) as table:
            _require_lobby(table)
            require_host(table, user_id, "start")
            if not table.full:
                missing = table.players - len(table.seats)
                raise TableError("table_not_full", missing=missing)
            game, first_deal = table.kind.new_game(table.rules, table.first_dealer, self.shared.rng)
            meta = {**table.meta, "stage": PLAYING}
            now = self.shared.clock.time()
            await self.keeper.write(table, self._start_writes(table, meta, first_deal, now))
            table.game = game
            table.meta = meta
            table.stage = PLAYING
            table.last_activity = time.monotonic()
            table.turn_since = now
        self.next_turn(table)
        return table

    async def _start_writes(self, table: Table, meta: dict[str, Any],
                            first_deal: dict[str, Any], now: float) -> None:
        async with self.shared.store.transaction():
            await self.shared.store.set_meta(table.id, meta)
            await self.shared.store.add_hand(table.id, 0, first_deal)
            await self.shared.store.set_turn_since(table.id, now)

    async def rematch(self, table_id: int, user_id: int) -> tuple[Table, Table | None]:
        """A player of the finished game `table_id` asks for (or accepts) a rematch: the
        same seats and rules at a new table in the same channel. It starts once every
        human of the finished game has accepted, with its table message in the outbox.
        Returns the finished table (its meta "rematch" lists who accepted) and the new
        table once started, else None."""
        if self.registry.closed:
            raise TableError("restarting")
        old = await self.keeper.load(table_id)
        if old is None or old.stage != FINISHED:
            raise TableError("no_game", reason="rematch")
        async with old.lock:
            await self.keeper.sync(old)
            if old.seat_of(user_id) is None:
                raise TableError("not_seated", reason="not_playing")
            if old.meta.get("rematch_table") is not None:
                raise TableError("rematch_started")
            accepted = sorted({*old.meta.get("rematch", ()), user_id})
            humans = {seat.user_id for seat in old.seats if seat.user_id is not None}
            new = None
            try:
                async with self.shared.store.transaction():
                    if humans <= set(accepted):
                        new = await self._start_rematch(old)
                    meta = {**old.meta, "rematch": accepted,
                            "rematch_table": new.id if new is not None else None}
                    await self.shared.store.set_meta(old.id, meta)
            except TableError:
                raise
            except Exception as exc:
                await self.keeper.recover(old, exc)
            self.shared.health.answered()
            old.meta = meta
        self.keeper.tell_watchers(old)  # who is in now (the Activity's pages)
        if new is not None:
            self.registry.register(new)
            if self.shared.outbox is not None:
                self.shared.outbox.kick(new.id)
            self.next_turn(new)
            self.keeper.tell_watchers(new)  # the pages of the channel follow it
        return old, new

    async def _start_rematch(self, old: Table) -> Table:
        """The rematch of `old`, created and started (in the caller's transaction)."""
        self.registry.require_owned(old.guild_id)
        present = self.registry.in_channel(old.channel_id)
        if present is not None:
            raise TableError("channel_busy", game=present.kind.name)
        kind, rules = old.kind, old.rules
        seats = [Seat(seat.user_id, seat.name, seat.ai_level if seat.is_ai else None)
                 for seat in old.seats]
        first_dealer = (old.first_dealer + 1) % len(seats)
        switches = {name: old.meta[name] for name in TABLE_SWITCHES if name in old.meta}
        meta: dict[str, Any] = {**switches, "stage": PLAYING, "rematch_of": old.id}
        meta.update({key: old.meta[key] for key in _TIMER_KEYS if key in old.meta})
        game, first_deal = kind.new_game(rules, first_dealer, self.shared.rng)
        now = self.shared.clock.time()
        try:
            table_id = await self.shared.store.create_game(
                old.guild_id, old.channel_id, old.host_id, kind.rules_to_json(rules),
                first_dealer, seat_infos(seats), meta, game=kind.name)
        except ChannelBusyError:
            raise TableError("channel_busy", reason="taken_meanwhile", game=kind.name) from None
        await self.shared.store.add_hand(table_id, 0, first_deal)
        await self.shared.store.set_turn_since(table_id, now)
        await self.shared.store.add_posts(table_id, [Post(POST_TABLE_MESSAGE)])
        return Table(table_id, old.guild_id, old.channel_id, old.host_id, kind, rules,
                     first_dealer, seats, stage=PLAYING, game=game, meta=meta,
                     turn_since=now)

    async def cancel(self, table_id: int, user_id: int, manager: bool = False) -> Table:
        async with self.keeper.changing(table_id) as table:
            if user_id != table.host_id and not manager:
                raise TableError("not_host", action="cancel")
            await self.keeper.write(table, self._cancel_writes(table, user_id))
            table.stage = CANCELLED
            self.registry.unregister(table)
        return table

    async def abandon(self, table_id: int) -> Table | None:
        """End a table whose members have all left it (PAUSE_ABSENT held
        ABANDON_AFTER): cancelled, the deal under way rated a forfeit for those who left
        it (README, "Ratings"), the standings as they stood posted (POST_FINAL,
        `ended`), in one write; so the channel is free again. None if the table is no
        longer waiting that long (someone came back meanwhile)."""
        table = self.registry.get(table_id)
        if table is None:
            return None
        async with table.lock:
            await self.keeper.sync(table)
            if table.stage != PLAYING or not abandoned(table, self.shared.clock.time()):
                return None
            posts = [Post(POST_FINAL, {"ended": True, "abandoned": True})]
            await self.keeper.write(table, self._cancel_writes(table, None, posts))
            table.stage = CANCELLED
            self.registry.unregister(table)
        if self.shared.outbox is not None:
            self.shared.outbox.kick(table.id)
        return table

    async def end_unreachable(self, table_id: int, user_id: int) -> Table:
        """End a table whose channel is gone or refuses the bot (it waits for
        PAUSE_CHANNEL), by any member seated there: nobody could end it in its channel.
        Cancelled (nothing rated), with the standings as they stood posted to the
        members (POST_FINAL, `ended`), in one write."""
        async with self.keeper.changing(table_id) as table:
            if table.seat_of(user_id) is None:
                raise TableError("not_seated")
            if PAUSE_CHANNEL not in table.paused:
                raise TableError("not_host", action="cancel")
            posts = [Post(POST_FINAL, {"ended": True})] if table.stage == PLAYING else []
            await self.keeper.write(table, self.shared.store.cancel_game(table.id, posts))
            table.stage = CANCELLED
            self.registry.unregister(table)
        if self.shared.outbox is not None and posts:
            self.shared.outbox.kick(table.id)
        return table

    async def _cancel_writes(self, table: Table, by: int | None,
                             posts: Sequence[Post] = ()) -> None:
        """Cancel the game (with `posts`), and rate the deal it abandons a forfeit for
        the members who caused its end: `by`, who ended it, if it was theirs, and those
        who left it (README, "Ratings"), in one commit."""
        if table.stage != PLAYING or table.game is None \
                or table.kind.finished(table.game):
            await self.shared.store.cancel_game(table.id, list(posts))
            return
        async with self.rater.guild(table.guild_id):
            deal = deal_of(table, table.seats)
            ratings = await self.rater.update(table, table.game, deal, self.shared.clock.time(),
                                              forfeit=deal.forfeits(by))
            async with self.shared.store.transaction():
                if ratings is not None:
                    await self.shared.store.write_ratings(ratings)
                await self.shared.store.cancel_game(table.id, list(posts))
