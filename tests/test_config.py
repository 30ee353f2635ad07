"""Settings from the environment: bad values end in one clear sentence."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings


@pytest.mark.parametrize("guild", ["²", "12ab", "①②"])
def test_a_dev_guild_id_that_is_not_ascii_digits_is_refused(
        monkeypatch: pytest.MonkeyPatch, guild: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DEV_GUILD_ID", guild)
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_settings(env_file=None)


def test_a_dev_guild_id_of_digits_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DEV_GUILD_ID", "123456789012345678")
    assert load_settings(env_file=None).dev_guild_id == 123456789012345678


def test_the_ai_pace_defaults_and_can_be_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    for name in ("AI_DELAY", "AI_TRICK_PAUSE"):
        monkeypatch.delenv(name, raising=False)
    default = load_settings(env_file=None)
    assert (default.ai_delay, default.trick_pause) == (0.6, 1.0)
    monkeypatch.setenv("AI_TRICK_PAUSE", "2.5")
    assert load_settings(env_file=None).trick_pause == 2.5
    monkeypatch.setenv("AI_TRICK_PAUSE", "soon")
    with pytest.raises(ConfigError, match="AI_TRICK_PAUSE"):
        load_settings(env_file=None)


def test_a_database_url_chooses_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert load_settings(env_file=None).database_url is None  # SQLite, the default
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:pw@db:5432/amerikaner")
    assert load_settings(env_file=None).database_url == "postgresql://bot:pw@db:5432/amerikaner"
    monkeypatch.setenv("DATABASE_URL", "mysql://bot@db/amerikaner")
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        load_settings(env_file=None)
