"""The Activity's settings: off unless both are set; bad values end in one clear sentence."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings


@pytest.fixture(autouse=True)
def token_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    for name in ("ACTIVITY_CLIENT_SECRET", "ACTIVITY_PORT", "ACTIVITY_HOST"):
        monkeypatch.delenv(name, raising=False)


def test_the_activity_is_off_by_default() -> None:
    settings = load_settings(env_file=None)
    assert not settings.activity_on and settings.activity_port is None


def test_both_settings_turn_it_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACTIVITY_CLIENT_SECRET", "s3cret")
    monkeypatch.setenv("ACTIVITY_PORT", "8080")
    settings = load_settings(env_file=None)
    assert settings.activity_on and settings.activity_port == 8080
    assert settings.activity_host == "127.0.0.1"


@pytest.mark.parametrize(("secret", "port", "named"), [
    ("s3cret", "", "ACTIVITY_PORT"), ("", "8080", "ACTIVITY_CLIENT_SECRET"),
    ("s3cret", "http", "ACTIVITY_PORT"), ("s3cret", "70000", "ACTIVITY_PORT"),
    ("s3cret", "0", "ACTIVITY_PORT"),
])
def test_half_or_bad_settings_are_refused(monkeypatch: pytest.MonkeyPatch, secret: str,
                                          port: str, named: str) -> None:
    monkeypatch.setenv("ACTIVITY_CLIENT_SECRET", secret)
    monkeypatch.setenv("ACTIVITY_PORT", port)
    with pytest.raises(ConfigError, match=named):
        load_settings(env_file=None)
