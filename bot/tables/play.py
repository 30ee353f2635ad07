"""Playing at a table of a channel: a member's action, a claim of the rest of the deal,
a hint, and the one path every action takes, whoever plays it (a member, the AI, a
timeout).

An action is checked and applied by `bot.tables.moves.move` (the path a member's deal
of the day takes too) through the table's GameKind (which refuses an illegal one with a
stable code) to a copy of the game; the action is committed to the store with what it
obliges the bot to post and the ratings of the matches it finishes; only then does the
copy become the table's game, and the result go back for the caller to confirm. So
nothing is ever shown of a state that is not stored.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.store import Post
from bot.store.models import RatingUpdate
from bot.tables import deal_seats
from bot.tables.errors import TableError
from bot.tables.keeping import Keeper
from bot.tables.kind import GameKind, Hint
from bot.tables.moves import Refusals, Step, check_drawn, move, step
from bot.tables.rater import Rater
from bot.tables.registry import NextTurn, Registry
from bot.tables.shared import Shared
from bot.tables.table import (
    FINISHED,
    LOBBY,
    PLAYING,
    POST_CLAIM,
    POST_FINAL,
    POST_HAND_SUMMARY,
    POST_TABLE_MESSAGE,
    POST_TIMEOUT,
    ActResult,
    Seat,
    Table,
    deal_of,
    keys,
    results_of,
    seat_infos,
)

# (the game, its state, the seat, the AI level, a random source) -> the action
AiChooser = Callable[[GameKind, Any, int, str, random.Random], Any]
# (the seats, a seat's index) -> its name as players read it, for the service's refusals
SeatNamer = Callable[[Sequence[Seat], int], str]


def stored_name(seats: Sequence[Seat], index: int) -> str:
    return seats[index].name


def default_ai(kind: GameKind, game: Any, seat: int, level: str, rng: random.Random
               ) -> Any:
    return kind.choose_action(game, seat, level, rng)


def posts_after(deal_index: int, deal_finished: bool, game_finished: bool) -> list[Post]:
    """What the end of a deal or of the game obliges the bot to post."""
    if not deal_finished:
        return []
    posts = [Post(POST_HAND_SUMMARY, {"hand_index": deal_index})]
    posts.append(Post(POST_FINAL) if game_finished else Post(POST_TABLE_MESSAGE))
    return posts


class Play:
    """Applies and commits actions; the AI's choice of one too."""

    def __init__(self, shared: Shared, registry: Registry, keeper: Keeper, rater: Rater,
                 seat_name: SeatNamer, chooser: AiChooser, next_turn: NextTurn) -> None:
        # the store, the random source, the clock, the database's health, the outbox
        self.shared = shared
        self.registry = registry
        self.keeper = keeper
        self.rater = rater
        # Names seats in refusals ("It is AI 1 (easy)'s turn"): the bot passes the
        # renderer (bot.render.seat_label), which this package may not import.
        self.seat_name = seat_name
        self.chooser = chooser
        self.next_turn = next_turn

    async def act(self, table_id: int, user_id: int, version: int | None,
                  make: Callable[[int], Any]) -> ActResult:
        """Apply the action `make(seat)` for `user_id`'s seat. `version` is the state
        version the user's button was drawn for (None for slash commands, which always
        mean "now"); an older one is refused as stale."""
        async with self.keeper.changing(table_id, reason=None) as table:
            seat = self._acting_seat(table, user_id, None)
            assert table.game is not None
            game = table.kind.copy(table.game)  # the game deals the next deal on it too
            steps = await move(table.kind, game, seat, make, drawn=version,
                               version=table.version, refusals=self.refusals(table),
                               sources=self._source)
            result = (await self._keep(table, game, steps))[0]
        self.next_turn(table)
        return result

    async def claim(self, table_id: int, user_id: int, version: int | None) -> ActResult:
        """`user_id` claims the rest of the deal: if the game accepts the claim, every
        action that plays the deal out is applied and committed at once (with a notice to
        post), and the result is the claimer's, for the deal's end."""
        async with self.keeper.changing(table_id, reason=None) as table:
            seat = self._acting_seat(table, user_id, version)
            assert table.game is not None
            actions = table.kind.claim(table.game, seat)  # a refusal passes on
            game = table.kind.copy(table.game)
            steps = [step(table.kind, game, action, self.shared.rng) for action in actions]
            results = await self._keep(table, game, steps, POST_CLAIM)
        self.next_turn(table)
        last = results[-1]
        return ActResult(table, seat, last.action, results[0].record, last.deal_index,
                         last.deal_finished, last.game_finished, results[0].idle_before)

    async def hint(self, table_id: int, user_id: int, version: int | None) -> Hint:
        """What the strong AI would do for `user_id`'s seat now, and why (the game's
        words)."""
        table = self.registry.require(table_id)
        async with table.lock:  # the game must not change under the worker thread
            seat = self._acting_seat(table, user_id, version)
            return await asyncio.to_thread(table.kind.hint, table.game, seat,
                                           random.Random(self.shared.rng.random()))

    def _acting_seat(self, table: Table, user_id: int, version: int | None) -> int:
        """The seat of `user_id` at a game in play, drawn for the state `version`."""
        if table.stage != PLAYING:
            raise TableError("not_started",
                             reason="not_yet" if table.stage == LOBBY else "over")
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", reason="not_playing")
        check_drawn(version, table.version, self.refusals(table))
        return seat

    def refusals(self, table: Table) -> Refusals:
        """How a table refuses a move drawn for another moment: stale (the panel shows
        the hand now), or the seat to act named."""
        return Refusals(
            stale=lambda: TableError("stale", reason="choices"),
            not_your_turn=lambda seat: TableError(
                "not_your_turn", name=self.seat_name(table.seats, seat)))

    def _source(self, version: int) -> random.Random:
        return self.shared.rng  # the table's one random source, whatever the version

    async def choose(self, table: Table, seat: int, level: str) -> Any:
        """The AI's action at `level` for `seat` (in a worker thread: the strong AI
        thinks for a while)."""
        return await asyncio.to_thread(self.chooser, table.kind, table.game, seat, level,
                                       random.Random(self.shared.rng.random()))

    async def apply(self, table: Table, seat: int, action: Any,
                    notice: str | None = None, *,
                    notice_params: Mapping[str, Any] | None = None,
                    seats: list[Seat] | None = None) -> ActResult:
        """Under the table's lock: apply and commit one action. `notice`: a post the
        action itself calls for (POST_TIMEOUT), committed with it ahead of those its
        outcome calls for, with `notice_params` beside the seat and the action. `seats`:
        the table's seats after the action, committed with it (a timeout that gives the
        seat away)."""
        assert table.game is not None
        game = table.kind.copy(table.game)
        steps = await move(table.kind, game, seat, lambda _: action, drawn=None,
                           version=table.version, refusals=self.refusals(table),
                           sources=self._source)
        return (await self._keep(table, game, steps, notice, notice_params=notice_params,
                                 seats=seats))[0]

    async def _keep(self, table: Table, game: Any, steps: Sequence[Step],
                    notice: str | None = None, *,
                    notice_params: Mapping[str, Any] | None = None,
                    seats: list[Seat] | None = None) -> list[ActResult]:
        """Commit `steps`, applied to `game`, a copy of the table's, at once. The copy
        becomes the table's game only once the store has committed them: a refusal, by
        the game (before this) or by the store, leaves the table exactly as it was, so
        that nothing is ever shown of a state that is not stored. `notice` goes with the
        first; `seats` (if given) become the table's seats in the same commit. The next
        turn begins now, by the service's clock (stored with the actions)."""
        posts: list[list[Post]] = []
        after = seats or table.seats
        deal = deal_of(table, table.seats)
        rated_deal = None  # who the deal the actions finish is rated to
        for done in steps:
            mover = done.seat
            # The AI chose for a member: a timeout's move, or an away member's turn.
            by_ai = (notice == POST_TIMEOUT and not posts) or table.seats[mover].away
            if deal_seats.covered_by(deal, mover, keys(after)[mover], by_ai):
                deal = deal.cover(mover)
            if seats is not None and after[mover].away and not table.seats[mover].away:
                deal = deal.leave(mover)  # a timeout that gave the seat to the AI
            applied = done.applied
            if applied.deal_finished:
                rated_deal = deal
                deal = deal_seats.begun(keys(after), [seat.away for seat in after])
            made = [Post(notice, {"seat": mover, "action": applied.action,
                                  **(notice_params or {})})] \
                if notice and not posts else []
            made.extend(posts_after(applied.deal_index, applied.deal_finished,
                                    done.finished))
            posts.append(made)
        version = table.version
        now = self.shared.clock.time()
        meta = deal_seats.to_meta(table.meta, deal, keys(after))
        new_meta = meta if meta != table.meta else None
        try:
            if rated_deal is not None:
                async with self.rater.guild(table.guild_id):
                    ratings = await self.rater.update(table, game, rated_deal, now)
                    await self._commit(table, game, steps, posts, now, seats, ratings,
                                       new_meta)
            else:
                await self._commit(table, game, steps, posts, now, seats, meta=new_meta)
        except Exception as exc:
            await self.keeper.recover(table, exc, landed=version + len(steps))
        else:
            table.game = game
            if seats is not None:
                table.seats = seats
            if new_meta is not None:
                table.meta = new_meta
            self.shared.health.answered()
        return self._installed(table, steps, posts, now)

    async def _commit(self, table: Table, game: Any, steps: Sequence[Step],
                      posts: Sequence[list[Post]], now: float,
                      seats: list[Seat] | None = None,
                      ratings: RatingUpdate | None = None,
                      meta: dict[str, Any] | None = None) -> None:
        """Every step as one atomic commit, each with what it obliges the bot to post
        (the outbox: `posts`, one list a step), and `seats` and `meta` if given, and
        the `ratings` of the matches the steps finished (with the last); one step in
        one trip to the database."""
        if len(steps) == 1 and seats is None and meta is None:
            await self._record(table, game, steps[0], posts[0], now, ratings)
            return
        async with self.shared.store.transaction():
            if seats is not None:
                await self.shared.store.update_seats(table.id, seat_infos(seats))
            if meta is not None:
                await self.shared.store.set_meta(table.id, meta)
            last = len(steps) - 1
            for index, (done, made) in enumerate(zip(steps, posts, strict=True)):
                await self._record(table, game, done, made, now,
                                   ratings if index == last else None)

    async def _record(self, table: Table, game: Any, done: Step, posts: list[Post],
                      now: float, ratings: RatingUpdate | None = None) -> None:
        applied = done.applied
        await self.shared.store.record_action(
            table.id, applied.deal_index, applied.seq, applied.action,
            next_deal=applied.next_deal,
            results=results_of(table, game) if done.finished else None, posts=posts,
            turn_since=now, ratings=ratings)

    def _installed(self, table: Table, steps: Sequence[Step], posts: Sequence[list[Post]],
                   since: float) -> list[ActResult]:
        """The table after its committed `steps`: posts kicked, the turn's clock reset
        (the next turn began at `since`), a finished game let go; the result of each
        step."""
        if any(posts) and self.shared.outbox is not None:
            self.shared.outbox.kick(table.id)
        table.pause_after = steps[-1].applied.pause
        table.turn_since = since
        now = time.monotonic()
        idle = now - table.last_activity
        table.last_activity = now
        finished = steps[-1].finished
        if finished:
            table.stage = FINISHED
            self.registry.unregister(table)
        return [ActResult(table, done.seat, done.action, done.applied.action,
                          done.applied.deal_index, done.applied.deal_finished,
                          done.finished, idle) for done in steps]
