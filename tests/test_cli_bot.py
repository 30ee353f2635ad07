"""`amerikaner bot`: its flags stand for the settings of the same names."""

from __future__ import annotations

import pytest

import bot.app
from bot.cli import main
from bot.config import load_settings


def test_the_shard_flags_set_the_shards_of_the_process(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SHARD_COUNT", "8")  # the flags win over the environment
    monkeypatch.setenv("SHARD_IDS", "")  # so that what the command sets is undone after
    seen = []
    monkeypatch.setattr(bot.app, "run_bot", lambda: seen.append(load_settings(None)) or 0)
    assert main(["bot", "--shard-count", "4", "--shards", "1,3"]) == 0
    [settings] = seen
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
