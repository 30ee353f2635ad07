"""Settings from the environment and `.env` (see `.env.example`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = "data/amerikaner.sqlite3"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


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
    )


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
