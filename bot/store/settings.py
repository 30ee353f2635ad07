"""The store's programs for settings (a guild's, a member's), the followed hand
panels, and the bot's own values. See :mod:`.program`."""

from __future__ import annotations

import json
from typing import Any

from .models import (
    PanelRow,
)
from .program import Dialect, Program, stmt

# ---------------------------------------------------------------- settings


def json_value(d: Dialect, sql: str, *params: Any) -> Program[dict[str, Any]]:
    text = yield stmt("val", sql, params)
    return json.loads(text) if text is not None else {}


def set_guild_settings(d: Dialect, guild_id: int, game: str, settings: str,
                        now: float) -> Program[None]:
    yield stmt("run", "INSERT INTO guild_settings (guild_id, game, settings, updated_at) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, game) DO UPDATE SET "
                    "settings = excluded.settings, updated_at = excluded.updated_at",
             (guild_id, game, settings, now))


def guild_language(d: Dialect, guild_id: int) -> Program[str | None]:
    language = yield stmt("val", "SELECT language FROM guild_prefs WHERE guild_id = $1",
                        (guild_id,))
    return language  # type: ignore[no-any-return]


def set_guild_language(d: Dialect, guild_id: int, language: str | None,
                        now: float) -> Program[None]:
    yield stmt("run", "INSERT INTO guild_prefs (guild_id, language, updated_at) "
                    "VALUES ($1, $2, $3) ON CONFLICT (guild_id) DO UPDATE SET "
                    "language = excluded.language, updated_at = excluded.updated_at",
             (guild_id, language, now))


def member_language(d: Dialect, user_id: int) -> Program[str | None]:
    language = yield stmt("val", "SELECT language FROM member_languages WHERE user_id = $1",
                        (user_id,))
    return language  # type: ignore[no-any-return]


def set_member_language(d: Dialect, user_id: int, language: str | None,
                        now: float) -> Program[None]:
    if language is None:
        yield stmt("run", "DELETE FROM member_languages WHERE user_id = $1", (user_id,))
        return
    yield stmt("run", "INSERT INTO member_languages (user_id, language, updated_at) "
                    "VALUES ($1, $2, $3) ON CONFLICT (user_id) DO UPDATE SET "
                    "language = excluded.language, updated_at = excluded.updated_at",
             (user_id, language, now))


def set_member_setting(d: Dialect, guild_id: int, user_id: int, key: str,
                        value: str | None, now: float) -> Program[None]:
    yield from d.set_member_setting(guild_id, user_id, key, value, now)


# A member's settings JSON (the SQLite dialect reads it too, for its upsert).
MEMBER_SETTINGS_SQL = ("SELECT settings FROM member_settings "
                       "WHERE guild_id = $1 AND user_id = $2")


# ------------------------------------------------------------------- panels

_PANEL_COLUMNS = "game_id, user_id, application_id, token, language, since"


def save_panel(d: Dialect, row: tuple[Any, ...]) -> Program[None]:
    yield stmt("run", f"INSERT INTO panels ({_PANEL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) "
                    "ON CONFLICT (game_id, user_id) DO UPDATE SET "
                    "application_id = excluded.application_id, token = excluded.token, "
                    "language = excluded.language, since = excluded.since", row)


def panels(d: Dialect, after: float) -> Program[list[PanelRow]]:
    rows = yield stmt("all", f"SELECT {_PANEL_COLUMNS} FROM panels WHERE since > $1 "
                           "ORDER BY since, game_id, user_id", (after,))
    return [PanelRow(*r) for r in rows]


def delete_panels(d: Dialect, table_id: int, user_id: int | None) -> Program[None]:
    if user_id is None:
        yield stmt("run", "DELETE FROM panels WHERE game_id = $1", (table_id,))
    else:
        yield stmt("run", "DELETE FROM panels WHERE game_id = $1 AND user_id = $2",
                 (table_id, user_id))


def prune_panels(d: Dialect, before: float) -> Program[int]:
    deleted = yield stmt("run", "DELETE FROM panels WHERE since <= $1", (before,))
    return int(deleted)



# ------------------------------------------------------------- the bot's values


def bot_value(d: Dialect, name: str, fresh: str) -> Program[str]:
    """The bot's value `name`, set to `fresh` if it has none yet (the first writer's
    stays: several processes on one database agree on it)."""
    yield stmt("run", "INSERT INTO bot_values (name, value) VALUES ($1, $2) "
                    "ON CONFLICT (name) DO NOTHING", (name, fresh))
    value = yield stmt("val", "SELECT value FROM bot_values WHERE name = $1", (name,))
    return str(value)

