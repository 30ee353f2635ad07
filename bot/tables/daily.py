"""The deal of the day (issue 38): one deal per game, server and day, the same for every
member, played privately at any pace, one try each, scored as duplicate. A kind of
table: a member's play is drawn as a `Table` whose `daily` names its day (`table`), and
a move is checked and applied by the path every table's takes (bot/tables/moves.py),
the AI players answering at once.

Everything of a day's deal comes from one seed, an HMAC of the bot's secret with the
server, the game and the day: the rules (the server's daily preset and house rules),
the dealer, the member's seat, the cards (the random source `new_game` deals with) and
each AI decision's random source (keyed by the state's version). The AI players decide
from the state and that source alone, so the same play meets the same answers; without
the secret nobody can compute a day's deal ahead (RFC 2104: an HMAC is a pseudo-random
function of its key).

A member's play is stored as its actions (the store's `daily_plays`) and replayed
through the game's record (GameKind.load) when needed, so a pause, a restart or
another process takes it up where it was; each step (the member's action and the AI
answers up to the member's next turn) is one commit, made before the caller answers.
A finished play is also written as a normal finished game record, tagged with its day.

What a day's deal is: bot/tables/daily_deal.py; its calendar: days.py; its scoring:
daily_board.py. Knows no game (GameKind only) and no Discord: the cog
(cogs/tables/daily.py) draws it. The table service builds it (TableService.daily).
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import secrets as _secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.errors import GameError
from bot.store import DailyPlay, Store, ladder_period
from bot.tables.daily_board import MIN_DAYS, BoardRow, day_board, day_points, ranked
from bot.tables.daily_deal import (
    DAILY,
    DAILY_BETWEEN,
    DAILY_DONE,
    DAILY_NOT_STARTED,
    DAILY_OFF,
    DAILY_OVER,
    DAILY_STALE,
    GRACE,
    SECRET_NAME,
    DailyDeal,
    DailySettings,
    DailyState,
    daily_key,
    daily_table_id,
    day_seed,
    seeded,
)
from bot.tables.days import day_end, day_of, days_back, days_from, next_midnight
from bot.tables.errors import TableError
from bot.tables.kind import GameKind
from bot.tables.moves import Answers, Refusals, Step, answer, move, step
from bot.tables.table import PLAYING, DailyKey, Seat, Table

# A deal of the day refuses a control drawn for another moment as stale (the panel shows
# the play as it is now): in a play of one member, the AI answering at once, a control
# for another seat's turn is one drawn before.
REFUSALS = Refusals(stale=lambda: TableError(DAILY, reason=DAILY_STALE),
                    not_your_turn=lambda seat: TableError(DAILY, reason=DAILY_STALE))


class DailyService:
    """The deal of the day over the store. `clock`: epoch seconds (the bot's clock);
    `secret`: the bot's secret (a setting); without one, one is generated once and kept
    in the store, so every process on the database and every restart agree on it."""

    def __init__(self, store: Store, games: Mapping[str, GameKind], clock: Callable[[], float],
                 secret: str | None = None) -> None:
        self.store = store
        self.games = games
        self.clock = clock
        self._secret = secret.encode() if secret else None
        self._locks: dict[tuple[int, str, int], asyncio.Lock] = {}

    def kind(self, game: str) -> GameKind:
        return self.games[game]

    # ----------------------------------------------------------------- as a table

    def table_id(self, key: DailyKey) -> int:
        """The table id of the deal of the day `key` (its panels' controls name it)."""
        return daily_table_id(self.games, key)

    def key_of(self, table_id: int) -> DailyKey | None:
        """The deal of the day a table id names, or None (a stored table's); refused
        (stale) for a daily's id that names no day of a game here."""
        return daily_key(self.games, table_id)

    def table(self, state: DailyState) -> Table:
        """The member's play as a table of their own, for their panels alone: the member
        in their seat, the AI in the others, its `daily` the day's key."""
        deal = state.deal
        seats = [Seat(state.play.user_id, state.play.display_name) if s == deal.seat
                 else Seat(None, "", ai_level=deal.level) for s in range(deal.players_count)]
        return Table(self.table_id(deal.key), deal.guild_id, deal.channel_id or 0,
                     state.play.user_id, state.kind, deal.rules, deal.first_dealer, seats,
                     stage=PLAYING, game=state.game, daily=deal.key)

    async def secret(self) -> bytes:
        if self._secret is None:
            self._secret = (await self.store.bot_value(SECRET_NAME,
                                                       _secrets.token_hex(32))).encode()
        return self._secret

    async def settings(self, guild_id: int, game: str) -> DailySettings:
        kind = self.kind(game)
        return DailySettings.of(kind, await self.store.get_guild_settings(guild_id, game))

    async def today(self, guild_id: int, game: str) -> str:
        """The day open now (`current_day`); refused (DAILY_BETWEEN, with when the next
        begins) when none is."""
        day, begins = await self.current_day(guild_id, game)
        if day is None:
            raise TableError(DAILY, reason=DAILY_BETWEEN, at=int(begins))
        return day

    async def current_day(self, guild_id: int, game: str) -> tuple[str | None, float]:
        """The day open now, or (None, when the next begins). A day runs until it ends
        in the time zone it was fixed in; the next begins at the first midnight in the
        server's zone from then on (the same instant, unless the zone changed). So a
        change of time zone takes effect when the day under way ends, a day is only ever
        open from its start, and no member plays two days at once or a day twice (a
        zone moved east skips the day already begun there, one moved west waits for its
        next midnight)."""
        now = self.clock()
        zone = (await self.settings(guild_id, game)).time_zone
        last = await self.store.daily_last_day(guild_id, game)
        if last is not None:
            last_day, ends_at = last
            if now < ends_at:
                return last_day, now
            begins = next_midnight(ends_at, zone)
            if now < begins:
                return None, begins
        return day_of(now, zone), now

    async def fix(self, guild_id: int, game: str, day: str) -> tuple[dict[str, Any], float]:
        """The day's rules and end, fixed now from the current settings unless they are
        already (its first play, or the first change of the settings that day)."""
        settings = await self.settings(guild_id, game)
        return await self.store.daily_fix_day(guild_id, game, day, settings.fixed(),
                                              day_end(day, settings.time_zone))

    async def fix_today(self, guild_id: int, game: str) -> None:
        """Before a change of the server's settings: today's rules fixed as they are, so
        the change takes effect the next day (a play under way stays on its deal)."""
        day, _ = await self.current_day(guild_id, game)
        if day is not None:
            await self.fix(guild_id, game, day)

    async def deal(self, guild_id: int, game: str, day: str | None = None) -> DailyDeal:
        """The server's deal of `game` on `day` (today by default): by the rules fixed
        with the day, else (a day nobody has begun) by the current settings."""
        kind = self.kind(game)
        settings = await self.settings(guild_id, game)
        day = day or await self.today(guild_id, game)
        stored = await self.store.daily_day_rules(guild_id, game, day)
        if stored is not None:
            settings = settings.with_fixed(kind, stored[0])
            ends_at = stored[1]
        else:
            ends_at = day_end(day, settings.time_zone)
        seed = day_seed(await self.secret(), guild_id, game, day)
        rules = kind.make_rules(settings.preset, settings.players, {})
        if settings.house:
            rules = kind.with_house_rules(rules, settings.house)
        players = kind.players(rules)
        first_dealer = seeded(seed, "dealer").randrange(players)
        seat = seeded(seed, "seat").randrange(players)
        _, deal = kind.new_game(rules, first_dealer, seeded(seed, "deal"))
        return DailyDeal(guild_id, game, day, seed, rules, first_dealer, seat,
                         settings.level, deal, settings.channel_id, players, ends_at)

    async def close_day(self, deal: DailyDeal) -> bool:
        """Once the day's plays may no longer be continued (its end and the grace): the
        unfinished ones scored as abandoned. Whether the day is closed."""
        if self.clock() < deal.closes_at:
            return False
        await self.store.daily_abandon(deal.guild_id, deal.game, deal.day, deal.closes_at)
        return True

    async def sealed(self, guild_id: int, game: str, day: str, user_id: int) -> bool:
        """Whether the day's records and board (its deal face up) are closed to the
        member: while their own play of it is unfinished, and, while the day runs, until
        they have finished one. A play past its day's close is scored first."""
        play = await self.store.daily_play(guild_id, game, day, user_id)
        stored = await self.store.daily_day_rules(guild_id, game, day)
        ends_at = stored[1] if stored is not None else day_end(
            day, (await self.settings(guild_id, game)).time_zone)
        if play is not None and play.finished_at is None and \
                self.clock() >= ends_at + GRACE:
            await self.store.daily_abandon(guild_id, game, day, ends_at + GRACE)
            play = await self.store.daily_play(guild_id, game, day, user_id)
        if play is None:
            return self.clock() < ends_at
        return play.finished_at is None

    def _record(self, deal: DailyDeal, actions: Sequence[Mapping[str, Any]]
                ) -> dict[str, Any]:
        kind = self.kind(deal.game)
        return {"format": kind.record_format, "rules": kind.rules_to_json(deal.rules),
                "first_dealer": deal.first_dealer,
                "hands": [dict(deal.deal, actions=[dict(a) for a in actions])]}

    def replay(self, deal: DailyDeal, actions: Sequence[Mapping[str, Any]]) -> Any:
        """The game after `actions` of the day's deal (deal 0 only)."""
        return self.kind(deal.game).load(self._record(deal, actions))

    def _lock(self, guild_id: int, game: str, user_id: int) -> asyncio.Lock:
        return self._locks.setdefault((guild_id, game, user_id), asyncio.Lock())

    async def open(self, guild_id: int, game: str, user_id: int, name: str,
                   *, resume_only: bool = False) -> DailyState:
        """The member's play of today's deal: begun (the AI players' actions before the
        member's first turn committed with it), or taken up where it was. A finished
        play is refused (DAILY_DONE: one try per day)."""
        settings = await self.settings(guild_id, game)
        deal = await self.deal(guild_id, game)
        async with self._lock(guild_id, game, user_id):
            play = await self.store.daily_play(guild_id, game, deal.day, user_id)
            if play is None:
                if not settings.enabled:  # (a play under way goes on: the next day's off)
                    raise TableError(DAILY, reason=DAILY_OFF)
                if resume_only:
                    raise TableError(DAILY, reason=DAILY_NOT_STARTED)
                # The day's rules are fixed at its first play: a settings change from
                # now on takes effect the next day, never on a play under way.
                await self.fix(guild_id, game, deal.day)
                deal = await self.deal(guild_id, game, deal.day)
                game_state = self.replay(deal, [])
                steps = await answer(self.kind(game), game_state, self._answers(deal), 0,
                                     self._sources(deal))
                actions = [done.applied.action for done in steps]
                play = await self.store.daily_begin(guild_id, game, deal.day, user_id, name,
                                                    actions)
            if play.finished_at is not None:
                raise TableError(DAILY, reason=DAILY_DONE)
            return DailyState(deal, play, self.replay(deal, play.actions), self.kind(game))

    async def state(self, guild_id: int, game: str, user_id: int,
                    day: str | None = None) -> DailyState | None:
        """The member's play of `day` (today), finished or not; None if never begun. A
        play left unfinished past its day's close is scored as abandoned first."""
        deal = await self.deal(guild_id, game, day)
        play = await self.store.daily_play(guild_id, game, deal.day, user_id)
        if play is None:
            return None
        if play.finished_at is None and await self.close_day(deal):
            play = await self.store.daily_play(guild_id, game, deal.day, user_id)
            assert play is not None
        return DailyState(deal, play, self.replay(deal, play.actions), self.kind(game))

    async def act(self, guild_id: int, game: str, user_id: int, version: int, day: str,
                  action: Any, channel_id: int = 0) -> DailyState:
        """The member's `action` at the play's `version` (drawn on `day`), then the AI
        players' answers up to the member's next turn or the deal's end (bot/tables/
        moves.py, as at any table): one commit; a finished deal writes its game record
        and result in the same commit."""
        kind = self.kind(game)
        deal = await self.deal(guild_id, game, day)
        async with self._lock(guild_id, game, user_id):
            play = await self.store.daily_play(guild_id, game, day, user_id)
            if play is None:
                raise TableError(DAILY, reason=DAILY_NOT_STARTED)
            if play.finished_at is None and await self.close_day(deal):
                # Past its day's end and grace: scored as abandoned, not continued.
                raise TableError(DAILY, reason=DAILY_OVER, day=day)
            if play.finished_at is not None:
                raise TableError(DAILY, reason=DAILY_DONE)
            before = len(play.actions)
            game_state = self.replay(deal, play.actions)
            steps = await move(kind, game_state, deal.seat, lambda _: action, drawn=version,
                               version=before, refusals=REFUSALS,
                               sources=self._sources(deal), answers=self._answers(deal))
            actions = [*play.actions, *(done.applied.action for done in steps)]
            if not _over(kind, game_state, steps[-1]):
                await self.store.daily_save(guild_id, game, day, user_id, before, actions)
                play = _with(play, actions=tuple(actions))
                return DailyState(deal, play, game_state, kind)
            score = _score(kind, game_state, deal.seat)
            state = DailyState(deal, _with(play, actions=tuple(actions)), game_state, kind)
            hands = [dict(deal.deal, actions=actions)]
            if steps[-1].applied.next_deal is not None:
                hands.append(dict(steps[-1].applied.next_deal, actions=[]))
            game_id = await self.store.daily_finish(
                guild_id, game, day, user_id, before, actions,
                channel_id=channel_id or deal.channel_id or 0,
                rules=kind.rules_to_json(deal.rules), first_dealer=deal.first_dealer,
                seats=state.seats(), hands=hands,
                meta={"daily": {"day": day, "guild": guild_id, "seat": deal.seat}},
                score=score)
            state.play = _with(state.play, finished_at=self.clock(), score=score,
                               game_id=game_id)
            return state

    def _answers(self, deal: DailyDeal) -> Answers:
        """The day's AI players: every seat but the member's, at the day's level, each
        decision from the state and a source keyed by its version."""
        return Answers(member=deal.seat, level=deal.level,
                       choose=self.kind(deal.game).fixed_action,
                       choosing=lambda version: seeded(deal.seed, "ai", version))

    @staticmethod
    def _sources(deal: DailyDeal) -> Callable[[int], random.Random]:
        return lambda version: seeded(deal.seed, "apply", version)

    # -------------------------------------------------------------- boards

    async def board(self, guild_id: int, game: str, day: str | None = None
                    ) -> list[BoardRow]:
        """The day's board (today's by default): every finished play, by matchpoints."""
        day = day or await self.today(guild_id, game)
        return day_board(await self.store.daily_results(guild_id, game, day, day))

    async def ladder(self, guild_id: int, game: str, period: str,
                     min_days: int = MIN_DAYS) -> list[BoardRow]:
        """The weekly ("week": the calendar week, Monday to Sunday) or monthly ("month":
        the calendar month) ladder of average matchpoints, of the period that holds the
        last day that is over, members with at least `min_days` days played. Only days
        that are over count: today's results are nobody's to see before they finish
        (the day's board is shown to those who did). A day's matchpoints are final once
        it is over: each day is scored once, at the first read after it (added to its
        week's and month's per-member rows in the same commit), so a ladder reads one
        stored row per member of its period, however many days it has."""
        yesterday = await self.last_closed_day(guild_id, game)
        key = ladder_period(period, yesterday)
        start = key.split(":", 1)[1]
        first = start if period == "week" else f"{start}-01"
        scored, rows = await self.store.daily_ladder(guild_id, game, key, first, yesterday,
                                                     min_days)
        changed = False
        for name in days_from(first, yesterday):
            if name not in scored:
                # Its plays left unfinished count, as abandoned (stopping never helps).
                await self.store.daily_abandon(guild_id, game, name,
                                               await self._closes_at(guild_id, game, name))
                results = await self.store.daily_results(guild_id, game, name, name)
                await self.store.daily_score_day(guild_id, game, name, day_points(results))
                changed = True
        if changed:  # the first read after a day: once a server a day
            _, rows = await self.store.daily_ladder(guild_id, game, key, first, yesterday,
                                                    min_days)
        return ranked([(total / days, user_id, name, None, days)
                       for user_id, name, total, days in rows])

    async def _closes_at(self, guild_id: int, game: str, day: str) -> float:
        stored = await self.store.daily_day_rules(guild_id, game, day)
        if stored is not None:
            return stored[1] + GRACE
        return day_end(day, (await self.settings(guild_id, game)).time_zone) + GRACE

    async def last_closed_day(self, guild_id: int, game: str) -> str:
        """The last day whose plays may no longer be continued (its end and the grace
        are past): the ladders count the days up to it, each complete."""
        now = self.clock()
        zone = (await self.settings(guild_id, game)).time_zone
        day = days_back(day_of(now - GRACE, zone), 2)
        while await self._closes_at(guild_id, game, day) > now:  # a day fixed elsewhere
            day = days_back(day, 2)
        return day

    async def member_line(self, guild_id: int, game: str, user_id: int
                          ) -> tuple[int, float | None]:
        """A member's daily in `stats`: days played this month (the month's ladder, the
        days that are over) and their average matchpoints (None if none)."""
        for row in await self.ladder(guild_id, game, "month", min_days=1):
            if row.user_id == user_id:
                return row.days, row.matchpoints
        return 0, None

    async def played(self, guild_id: int, game: str, day: str) -> tuple[int, int]:
        """(members who began the day's deal, members who finished it)."""
        started = await self.store.daily_started(guild_id, game, day)
        finished = len(await self.store.daily_results(guild_id, game, day, day))
        return started, finished

    # ------------------------------------------------------------- after playing

    async def ai_choices(self, state: DailyState) -> list[tuple[int, Any]]:
        """After a finished play: each of the member's actions the strongest AI would
        have made otherwise, as (its version, the AI's Hint: the move and its reason,
        from the member's view then)."""
        mine = [i for i, a in enumerate(state.play.actions) if _seat_of(a) == state.deal.seat]
        return await asyncio.to_thread(self._ai_choices, state, mine)

    def _ai_choices(self, state: DailyState, mine: Sequence[int]) -> list[tuple[int, Any]]:
        kind = state.kind
        deal = state.deal
        choices: list[tuple[int, Any]] = []
        for version in mine:
            game = self.replay(deal, state.play.actions[:version])
            if kind.to_act(game) != deal.seat:
                continue
            hint = kind.hint(game, deal.seat, seeded(deal.seed, "hint", version))
            tried = kind.copy(game)
            try:
                made = step(kind, tried, hint.action, random.Random(0)).applied.action
            except GameError:
                continue
            if made != state.play.actions[version]:
                choices.append((version, hint))
        return choices

    async def best_actions(self, state: DailyState
                           ) -> tuple[str | None, list[Mapping[str, Any]]]:
        """The day's best result's name and actions; (None, []) when the member's own
        is the best (alone, or tied at the top): it is not shown twice."""
        deal = state.deal
        board = await self.board(deal.guild_id, deal.game, deal.day)
        mine = next((r for r in board if r.user_id == state.play.user_id), None)
        if not board or board[0].score is None or mine is None or mine.rank == 1:
            return None, []
        best = await self.store.daily_play(deal.guild_id, deal.game, deal.day,
                                           board[0].user_id)
        if best is None:
            return None, []
        return best.display_name, list(best.actions)


def _score(kind: GameKind, game: Any, seat: int) -> tuple[int, ...]:
    """The member's result of the day's one deal (the larger the better): the game's
    `deal_score`; for a game that totals its points only at its end (GameKindBase's
    `running_totals`, as a game of one deal would) and refuses a deal's score before,
    the points its results give the seat now, once the deal is over (it is the only one
    played)."""
    try:
        return kind.deal_score(game, 0, seat)
    except GameError as exc:
        if exc.code != "deal_not_finished":
            raise
    return (next(result.points for result in kind.results(game) if result.seat == seat),)


def _over(kind: GameKind, game: Any, last: Step) -> bool:
    """Whether the play of deal 0 is over after its `last` step: the deal ended, or the
    game, or nobody is to act."""
    return last.applied.deal_finished or last.finished or kind.to_act(game) is None


def _seat_of(action: Mapping[str, Any]) -> int | None:
    seat = action.get("seat")
    return seat if isinstance(seat, int) else None


def _with(play: DailyPlay, **changes: Any) -> DailyPlay:
    return dataclasses.replace(play, **changes)
