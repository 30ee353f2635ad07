"""What a deal of the day is (bot/tables/daily.py says how it is played): a server's
daily settings, the day's deal drawn from its seed, a member's play of it, the daily's
refusals, and its table ids.

A member's daily is drawn as a table of their own (DailyService.table): a `Table` whose
`daily` names the day, with an id no stored table has, so the game's own controls draw
it and their clicks name it (`daily_table_id`, `daily_key`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import hmac
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.store import DailyPlay, SeatInfo
from bot.tables.errors import TableError
from bot.tables.kind import GameKind
from bot.tables.table import DailyKey

# The guild setting (in each game's settings) that holds the daily's own settings:
# {"enabled": bool, "channel": id, "preset": str | None, "house": [key, ...],
#  "players": int, "level": str, "time_zone": "Europe/Oslo"}.
SETTINGS_KEY = "daily"
SECRET_NAME = "daily_secret"  # the bot value that keeps the generated secret

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


def day_seed(secret: bytes, guild_id: int, game: str, day: str) -> bytes:
    """The seed of a server's deal of a game on a day."""
    return hmac.new(secret, f"daily:{guild_id}:{game}:{day}".encode(), hashlib.sha256).digest()


def seeded(seed: bytes, *parts: object) -> random.Random:
    """A random source derived from the day's seed for one purpose (`parts`)."""
    key = ":".join(str(p) for p in parts).encode()
    return random.Random(int.from_bytes(hmac.new(seed, key, hashlib.sha256).digest(), "big"))


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

    @property
    def key(self) -> DailyKey:
        return DailyKey(self.guild_id, self.game, self.day)


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


# A daily's table id: "9", the game's index (among the games' names, sorted), the day's
# 8 digits, then the server's id (a snowflake of 17 digits or more). A stored table's id
# (the store numbers them from 1, in 64 bits: 19 digits at most) never has that form.
_DAILY_ID = re.compile(r"9([0-9])([0-9]{8})([0-9]{17,})")


def daily_table_id(games: Iterable[str], key: DailyKey) -> int:
    """The table id of a member's deal of the day (the same for every member: the
    click's member says whose play it is)."""
    index = sorted(games).index(key.game)
    return int(f"9{index}{key.day.replace('-', '')}{key.guild_id}")


def daily_key(games: Iterable[str], table_id: int) -> DailyKey | None:
    """The deal of the day a table id names (`daily_table_id`), or None for an id of
    another form (a stored table's); refused (stale) for one of the form that names no
    day of a game this bot plays."""
    found = _DAILY_ID.fullmatch(str(table_id))
    if found is None:
        return None
    names = sorted(games)
    digits = found[2]
    day = f"{digits[:4]}-{digits[4:6]}-{digits[6:]}"
    try:
        dt.date.fromisoformat(day)
    except ValueError:
        raise TableError(DAILY, reason=DAILY_STALE) from None
    if int(found[1]) >= len(names):
        raise TableError(DAILY, reason=DAILY_STALE)
    return DailyKey(int(found[3]), names[int(found[1])], day)
