"""The deal of the day (issue 38): one deal per game, server and day, the same for every
member, played privately at any pace, one try each, scored as duplicate.

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

Knows no game (GameKind only) and no Discord: the cog (cogs/tables/daily.py) draws it.
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import datetime as dt
import hashlib
import hmac
import random
import secrets as _secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.errors import GameError
from bot.store import DailyPlay, SeatInfo, Store, StoreError, ladder_period
from bot.tables.errors import TableError
from bot.tables.kind import GameKind

# The guild setting (in each game's settings) that holds the daily's own settings:
# {"enabled": bool, "channel": id, "preset": str | None, "house": [key, ...],
#  "players": int, "level": str, "time_zone": "Europe/Oslo"}.
SETTINGS_KEY = "daily"
SECRET_NAME = "daily_secret"  # the bot value that keeps the generated secret
MIN_DAYS = 3  # the days a member must have played to be on a weekly or monthly ladder

# The daily's refusals: TableError("daily", reason=...) (bot/render/text.py words them).
DAILY = "daily"
DAILY_DONE = "done"  # the member played today's deal already
DAILY_OFF = "off"  # the server turned its daily off
DAILY_NOT_STARTED = "not_started"  # an action before /<game> daily
DAILY_STALE = "stale"  # a control drawn at another state of the play (or another day)
DAILY_OVER = "over"  # a play of a day that has ended (its grace too): scored, closed
DAILY_BETWEEN = "between"  # no day open (a time-zone change moved the day back): `at`
DAILY_SEALED = "board_first"  # a day's records or board, to a member not done with it

# A play of a day can be continued this long after its day ended (midnight in the zone
# the day was fixed in), so a deal begun late in the evening can be finished: a daily
# deal takes minutes. After it, the play is scored as abandoned: below every finished
# result of the day (`matchpoints`), so that stopping a deal that starts badly never
# helps, and a day's records are open to everyone.
GRACE = 3600.0
# The settings that make a day's deal, fixed at its first play (DailyService.fix).
FIXED = ("preset", "house", "players", "level", "time_zone")


def day_of(now: float, time_zone: str | None = None) -> str:
    """The day ('YYYY-MM-DD') at epoch second `now` in `time_zone` (UTC by default)."""
    zone: dt.tzinfo = dt.UTC
    if time_zone:
        try:
            zone = ZoneInfo(time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            zone = dt.UTC
    return dt.datetime.fromtimestamp(now, zone).date().isoformat()


def _zone(time_zone: str | None) -> dt.tzinfo:
    if time_zone:
        try:
            return ZoneInfo(time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return dt.UTC


def day_end(day: str, time_zone: str | None = None) -> float:
    """The epoch second `day` ends in `time_zone` (UTC by default): the next midnight."""
    next_day = dt.date.fromisoformat(day) + dt.timedelta(days=1)
    return dt.datetime.combine(next_day, dt.time(), _zone(time_zone)).timestamp()


def next_midnight(when: float, time_zone: str | None = None) -> float:
    """The first midnight in `time_zone` at or after epoch second `when`."""
    zone = _zone(time_zone)
    moment = dt.datetime.fromtimestamp(when, zone)
    if moment.time() == dt.time():
        return when
    return dt.datetime.combine(moment.date() + dt.timedelta(days=1), dt.time(),
                               zone).timestamp()


def days_back(day: str, count: int) -> str:
    """The first day of the `count` days that end with `day` (included)."""
    return (dt.date.fromisoformat(day) - dt.timedelta(days=count - 1)).isoformat()


def day_seed(secret: bytes, guild_id: int, game: str, day: str) -> bytes:
    """The seed of a server's deal of a game on a day."""
    return hmac.new(secret, f"daily:{guild_id}:{game}:{day}".encode(), hashlib.sha256).digest()


def seeded(seed: bytes, *parts: object) -> random.Random:
    """A random source derived from the day's seed for one purpose (`parts`)."""
    key = ":".join(str(p) for p in parts).encode()
    return random.Random(int.from_bytes(hmac.new(seed, key, hashlib.sha256).digest(), "big"))


def matchpoints(scores: Sequence[Sequence[int] | None]) -> list[float]:
    """Each result's matchpoints against the others of the same deal: the share of the
    other results it beat, a tie counting half (duplicate scoring); a result alone on its
    deal has beaten nobody and lost to nobody: half. None: an abandoned play, below
    every finished result (and tied with the other abandoned ones)."""
    keys = [(0,) if s is None else (1, *s) for s in scores]
    others = len(keys) - 1
    if others <= 0:
        return [0.5] * len(keys)
    ordered = sorted(keys)
    points = []
    for key in keys:
        below = bisect.bisect_left(ordered, key)
        equal = bisect.bisect_right(ordered, key) - below - 1  # the others with the same
        points.append((below + equal / 2) / others)
    return points


@dataclass(frozen=True, slots=True)
class DailySettings:
    """A server's daily of one game, as its settings give it."""

    enabled: bool
    channel_id: int | None
    preset: str | None
    house: tuple[str, ...]
    players: int
    level: str
    time_zone: str | None

    @classmethod
    def of(cls, kind: GameKind, settings: Mapping[str, Any]) -> DailySettings:
        daily = settings.get(SETTINGS_KEY) or {}
        level = daily.get("level")
        players = daily.get("players") or settings.get("players") or kind.default_players
        return cls(enabled=bool(daily.get("enabled", True)),
                   channel_id=daily.get("channel"),
                   preset=daily.get("preset"),
                   house=tuple(daily.get("house") or ()),
                   players=int(players),
                   level=level if level in kind.ai_levels else kind.ai_levels[-1],
                   time_zone=daily.get("time_zone"))

    def fixed(self) -> dict[str, Any]:
        """What makes a day's deal, as a day keeps it (FIXED)."""
        return {"preset": self.preset, "house": list(self.house), "players": self.players,
                "level": self.level, "time_zone": self.time_zone}

    def with_fixed(self, kind: GameKind, fixed: Mapping[str, Any]) -> DailySettings:
        """These settings with a day's fixed ones in place of the current ones."""
        level = fixed.get("level")
        return dataclasses.replace(
            self, preset=fixed.get("preset"), house=tuple(fixed.get("house") or ()),
            players=int(fixed.get("players") or self.players),
            level=level if level in kind.ai_levels else self.level,
            time_zone=fixed.get("time_zone"))


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """A server's deal of the day: all a member's play needs besides its actions."""

    guild_id: int
    game: str
    day: str
    seed: bytes
    rules: Any
    first_dealer: int
    seat: int  # the member's seat
    level: str  # the AI players'
    deal: dict[str, Any]  # deal 0, as the record stores it
    channel_id: int | None  # the server's daily channel, if it chose one
    players_count: int
    ends_at: float = 0.0  # the epoch second the day ends (in the zone it was fixed in)

    @property
    def closes_at(self) -> float:
        """Until when a play of the day may be continued: its end and the grace."""
        return self.ends_at + GRACE


@dataclass(slots=True)
class DailyState:
    """A member's play, as the cog draws it: the game replayed to its last action."""

    deal: DailyDeal
    play: DailyPlay
    game: Any
    kind: GameKind

    @property
    def finished(self) -> bool:
        return self.play.finished_at is not None

    @property
    def abandoned(self) -> bool:
        """Finished by its day's end, not by the member: scored below every result."""
        return self.finished and self.play.score is None

    @property
    def version(self) -> int:
        return len(self.play.actions)

    def seats(self) -> list[SeatInfo]:
        return [SeatInfo(seat=s, user_id=self.play.user_id if s == self.deal.seat else None,
                         display_name=self.play.display_name if s == self.deal.seat else "",
                         is_ai=s != self.deal.seat,
                         ai_level=None if s == self.deal.seat else self.deal.level)
                for s in range(self.deal.players_count)]


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A result on the day's board (or a ladder's average): best first."""

    rank: int
    user_id: int
    name: str
    matchpoints: float  # 0..1 (a ladder: the average over the member's days)
    score: tuple[int, ...] | None  # the day's score (None on a ladder)
    days: int = 1


def _ranked(rows: list[tuple[float, int, str, tuple[int, ...] | None, int]]
            ) -> list[BoardRow]:
    rows.sort(key=lambda r: (-r[0], r[1]))
    board: list[BoardRow] = []
    for index, (points, user_id, name, score, days) in enumerate(rows):
        rank = board[-1].rank if board and abs(board[-1].matchpoints - points) < 1e-9 \
            else index + 1
        board.append(BoardRow(rank, user_id, name, points, score, days))
    return board


Result = tuple[str, int, str, tuple[int, ...] | None]  # (day, member, name, score)


def day_board(results: Sequence[Result]) -> list[BoardRow]:
    """One day's results (store.daily_results of that day) as its board."""
    points = matchpoints([r[3] for r in results])
    return _ranked([(mp, r[1], r[2], r[3], 1) for mp, r in zip(points, results, strict=True)])


def ladder(results: Sequence[Result], min_days: int = MIN_DAYS) -> list[BoardRow]:
    """Average matchpoints per member over the days of `results` (each day scored
    against that day's results), members with at least `min_days` days."""
    by_day: dict[str, list[Result]] = {}
    for row in results:
        by_day.setdefault(row[0], []).append(row)
    totals: dict[int, list[Any]] = {}
    for rows in by_day.values():
        for mp, row in zip(matchpoints([r[3] for r in rows]), rows, strict=True):
            entry = totals.setdefault(row[1], [0.0, 0, row[2]])
            entry[0] += mp
            entry[1] += 1
            entry[2] = row[2]  # the latest name
    return _ranked([(total / days, user_id, name, None, days)
                    for user_id, (total, days, name) in totals.items() if days >= min_days])


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
                actions, _, _ = await self._ai_until_member(deal, game_state, [])
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
        players' answers up to the member's next turn or the deal's end: one commit; a
        finished deal writes its game record and result in the same commit."""
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
            if version != len(play.actions):
                raise TableError(DAILY, reason=DAILY_STALE)
            game_state = self.replay(deal, play.actions)
            if kind.to_act(game_state) != deal.seat:
                raise TableError(DAILY, reason=DAILY_STALE)
            actions = list(play.actions)
            applied = kind.apply(game_state, action, seeded(deal.seed, "apply",
                                                            len(actions)))
            actions.append(applied.action)
            done = applied.deal_finished or kind.finished(game_state)
            next_deal = applied.next_deal
            if not done:
                actions, done, next_deal = await self._ai_until_member(deal, game_state,
                                                                       actions)
            before = len(play.actions)
            if not done:
                await self.store.daily_save(guild_id, game, day, user_id, before, actions)
                play = _with(play, actions=tuple(actions))
                return DailyState(deal, play, game_state, kind)
            score = kind.deal_score(game_state, 0, deal.seat)
            state = DailyState(deal, _with(play, actions=tuple(actions)), game_state, kind)
            hands = [dict(deal.deal, actions=actions)]
            if next_deal is not None:
                hands.append(dict(next_deal, actions=[]))
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

    async def _ai_until_member(self, deal: DailyDeal, game: Any,
                               actions: list[dict[str, Any]]
                               ) -> tuple[list[dict[str, Any]], bool, dict[str, Any] | None]:
        """The AI players' actions from `game` (changed in place) until the member is to
        act or deal 0 ends (then True, with the next deal if the game dealt one): each
        from the state and a source keyed by its version."""
        kind = self.kind(deal.game)
        actions = list(actions)
        while (seat := kind.to_act(game)) is not None and seat != deal.seat:
            version = len(actions)
            choice = await asyncio.to_thread(kind.fixed_action, game, seat, deal.level,
                                             seeded(deal.seed, "ai", version))
            applied = kind.apply(game, choice, seeded(deal.seed, "apply", version))
            actions.append(applied.action)
            if applied.deal_finished:
                return actions, True, applied.next_deal
        return actions, kind.to_act(game) is None, None

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
        day = dt.date.fromisoformat(first)
        changed = False
        while (name := day.isoformat()) <= yesterday:
            if name not in scored:
                # Its plays left unfinished count, as abandoned (stopping never helps).
                await self.store.daily_abandon(guild_id, game, name,
                                               await self._closes_at(guild_id, game, name))
                results = await self.store.daily_results(guild_id, game, name, name)
                await self.store.daily_score_day(
                    guild_id, game, name, [(r[1], r[2], mp) for mp, r in zip(
                        matchpoints([r[3] for r in results]), results, strict=True)])
                changed = True
            day += dt.timedelta(days=1)
        if changed:  # the first read after a day: once a server a day
            _, rows = await self.store.daily_ladder(guild_id, game, key, first, yesterday,
                                                    min_days)
        return _ranked([(total / days, user_id, name, None, days)
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
                made = kind.apply(tried, hint.action, random.Random(0)).action
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


def _seat_of(action: Mapping[str, Any]) -> int | None:
    seat = action.get("seat")
    return seat if isinstance(seat, int) else None


def _with(play: DailyPlay, **changes: Any) -> DailyPlay:
    return dataclasses.replace(play, **changes)


__all__ = ["DAILY", "DAILY_BETWEEN", "DAILY_DONE", "DAILY_NOT_STARTED", "DAILY_OFF",
           "DAILY_OVER", "DAILY_SEALED", "DAILY_STALE", "GRACE", "MIN_DAYS", "BoardRow",
           "DailyDeal", "DailyService", "DailySettings", "DailyState", "StoreError",
           "day_board", "day_end", "day_of", "day_seed", "ladder", "matchpoints",
           "next_midnight", "seeded"]
