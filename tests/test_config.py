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


def test_without_shard_settings_one_process_owns_every_guild(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    monkeypatch.delenv("SHARD_IDS", raising=False)
    settings = load_settings(env_file=None)
    assert (settings.shard_count, settings.shard_ids) == (None, None)
    assert settings.owns_guild(1 << 22) and settings.owns_guild(2 << 22)


def test_shard_ids_choose_the_guilds_of_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SHARD_COUNT", "3")
    monkeypatch.setenv("SHARD_IDS", " 2, 0 ")
    settings = load_settings(env_file=None)
    assert (settings.shard_count, settings.shard_ids) == (3, (0, 2))
    owned = [shard for shard in range(6) if settings.owns_guild((shard << 22) | 12345)]
    assert owned == [0, 2, 3, 5]  # (guild_id >> 22) % 3 in (0, 2)
    monkeypatch.delenv("SHARD_IDS")
    every = load_settings(env_file=None)  # a count alone: this process runs them all
    assert every.shard_count == 3 and every.owns_guild(1 << 22)


@pytest.mark.parametrize(("count", "ids", "named"), [
    ("", "0", "SHARD_COUNT"),  # ids without a count
    ("two", "", "SHARD_COUNT"),
    ("0", "", "SHARD_COUNT"),
    ("2", "2", "below SHARD_COUNT"),
    ("2", "0;1", "SHARD_IDS"),
    ("2", "-1", "SHARD_IDS"),
])
def test_bad_shard_settings_are_refused(monkeypatch: pytest.MonkeyPatch, count: str, ids: str,
                                        named: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(ConfigError, match=named):
        load_settings(env_file=None)
