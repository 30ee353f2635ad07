"""Settings from the environment and `.env` (see `.env.example`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# The clock lives in a module of its own (the table service takes one without reading the
# environment); Settings.clock is one. Clock and SystemClock are also known by this name.
from bot.clock import SYSTEM_CLOCK, Clock
from bot.clock import SystemClock as SystemClock

DEFAULT_DATABASE = "data/amerikaner.sqlite3"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


# Requests a second the bot token may spend on Discord's global limit (50 a second for
# every process of the token together, interaction answers apart): the default leaves a
# tenth for what the count misses (bot/discord/budget.py). At 40 a second, 1,000 tables at a
# move every ~27 s each (37 moves a second) left the table messages 21 s behind at p99
# (bench/bot.py): the queue of edits was full; at 45 it has room.
DEFAULT_REQUEST_BUDGET = 45.0


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one sentence for the operator."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: str = DEFAULT_DATABASE
    # A PostgreSQL server instead of the SQLite file: postgresql://user:pw@host/db.
    database_url: str | None = None
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    ai_delay: float = 0.6  # seconds before each AI action
    trick_pause: float = 1.0  # and this much more after a completed trick
    edit_delay: float = 0.5  # coalescing window for edits of the public table message
    # A table message is edited at most once in this many seconds (Discord allows about
    # 5 edits in 5 s in a channel; bot/discord/edit_queue.py).
    edit_interval: float = 1.0
    # Requests a second for the whole bot token (every shard process together); each
    # process spends its shards' share (`request_rate`).
    request_budget: float = DEFAULT_REQUEST_BUDGET
    # Discord's time of day: the age of table messages, turn timers and reminders.
    clock: Clock = SYSTEM_CLOCK
    # Several processes: SHARD_COUNT gateway shards in all, this process runs SHARD_IDS
    # of them. Neither: one process runs every shard Discord recommends.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # The secret the deal of the day is derived from (bot/tables/daily.py): nobody
    # without it computes tomorrow's deal. Unset: one is generated once and kept in the
    # store, so every process on the database agrees on it.
    daily_secret: str | None = None
    # The table as a Discord Activity (bot/web, README "The Activity"): off unless both the
    # app's OAuth2 client secret and the port of the page's server are set.
    activity_client_secret: str | None = None
    activity_port: int | None = None
    activity_host: str = "127.0.0.1"

    @property
    def activity_on(self) -> bool:
        return self.activity_client_secret is not None and self.activity_port is not None

    @property
    def request_rate(self) -> float:
        """This process's share of the token's request budget: REQUEST_BUDGET times the
        shards it runs over SHARD_COUNT (all of it in one process)."""
        if self.shard_count is None or self.shard_ids is None:
            return self.request_budget
        return self.request_budget * len(self.shard_ids) / self.shard_count

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of `guild_id`: its tables, timers and
        AI turns live here (and nowhere else)."""
        return shard_owns(self.shard_count, self.shard_ids, guild_id)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events on."""
    return (guild_id >> 22) % shard_count


def shard_owns(shard_count: int | None, shard_ids: tuple[int, ...] | None,
               guild_id: int) -> bool:
    """Whether a process running `shard_ids` of `shard_count` shards owns the guild
    (with no ids, or no count, it runs every shard)."""
    if shard_count is None or shard_ids is None:
        return True
    return shard_of(guild_id, shard_count) in shard_ids


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read settings; values already in the environment win over `.env`."""
    if env_file is not None:
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("DISCORD_TOKEN is not set: put the bot token from the Discord "
                          "developer portal in .env (see .env.example).")
    guild = os.environ.get("DEV_GUILD_ID", "").strip()
    if guild and not (guild.isascii() and guild.isdigit()):
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
    database_url = os.environ.get("DATABASE_URL", "").strip() or None
    if database_url is not None and not database_url.startswith(POSTGRES_SCHEMES):
        raise ConfigError("DATABASE_URL must be a PostgreSQL URL "
                          "(postgresql://user:password@host:5432/database); leave it empty "
                          "to keep the SQLite file of DATABASE_PATH.")
    level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
    shard_count, shard_ids = _shards(os.environ.get("SHARD_COUNT", ""),
                                     os.environ.get("SHARD_IDS", ""))
    activity_secret, activity_port, activity_host = _activity(
        os.environ.get("ACTIVITY_CLIENT_SECRET", ""), os.environ.get("ACTIVITY_PORT", ""),
        os.environ.get("ACTIVITY_HOST", ""))
    return Settings(
        token=token,
        database_path=os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE,
        database_url=database_url,
        log_level=level,
        dev_guild_id=int(guild) if guild else None,
        api_base=os.environ.get("DISCORD_API_BASE", "").strip() or None,
        gateway_url=os.environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
        ai_delay=_float("AI_DELAY", 0.6),
        trick_pause=_float("AI_TRICK_PAUSE", 1.0),
        edit_delay=_float("TABLE_EDIT_DELAY", 0.5),
        request_budget=_request_budget(os.environ.get("REQUEST_BUDGET", "")),
        shard_count=shard_count,
        shard_ids=shard_ids,
        daily_secret=os.environ.get("DAILY_SECRET", "").strip() or None,
        activity_client_secret=activity_secret,
        activity_port=activity_port,
        activity_host=activity_host,
    )


def _activity(secret: str, port_text: str, host: str) -> tuple[str | None, int | None, str]:
    """ACTIVITY_CLIENT_SECRET and ACTIVITY_PORT (and ACTIVITY_HOST), checked together:
    both or neither (the Activity off)."""
    secret, port_text, host = secret.strip(), port_text.strip(), host.strip()
    if not secret and not port_text:
        return None, None, host or "127.0.0.1"
    if not secret:
        raise ConfigError("ACTIVITY_PORT is set but ACTIVITY_CLIENT_SECRET is not: put the "
                          "app's OAuth2 client secret (Developer Portal -> OAuth2) in .env, "
                          "or leave both empty to run without the Activity.")
    if not port_text:
        raise ConfigError("ACTIVITY_CLIENT_SECRET is set but ACTIVITY_PORT is not: the port "
                          "the Activity's page is served on (e.g. 8080), or leave both empty "
                          "to run without the Activity.")
    if not (port_text.isascii() and port_text.isdigit()) or not 1 <= int(port_text) <= 65535:
        raise ConfigError(f"ACTIVITY_PORT must be a port number (1 to 65535), "
                          f"not {port_text!r}.")
    return secret, int(port_text), host or "127.0.0.1"


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1"), checked together."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    count: int | None = None
    if count_text:
        if not (count_text.isascii() and count_text.isdigit()) or int(count_text) < 1:
            raise ConfigError(f"SHARD_COUNT must be a whole number of shards (1 or more), "
                              f"not {count_text!r}.")
        count = int(count_text)
    if not ids_text:
        return count, None
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT: the shards of every process together "
                          "(e.g. SHARD_COUNT=2 and SHARD_IDS=0 here, SHARD_IDS=1 in the "
                          "other process).")
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise ConfigError(f"SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), "
                          f"not {ids_text!r}.")
    ids = tuple(sorted({int(part) for part in parts}))
    if ids[-1] >= count:
        raise ConfigError(f"SHARD_IDS must be below SHARD_COUNT ({count}): shards are "
                          f"numbered 0 to {count - 1}.")
    return count, ids


def _request_budget(raw: str) -> float:
    """REQUEST_BUDGET: requests a second, more than 0; Discord allows 50 unless it raised
    the bot's limit on request."""
    raw = raw.strip()
    if not raw:
        return DEFAULT_REQUEST_BUDGET
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise ConfigError(f"REQUEST_BUDGET must be a number of requests a second above 0 "
                          f"(Discord allows 50 a bot; default {DEFAULT_REQUEST_BUDGET:g}), "
                          f"not {raw!r}.")
    return value


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}.") from None
    if value < 0:
        raise ConfigError(f"{name} cannot be negative.")
    return value
