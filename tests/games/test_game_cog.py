"""The generated game cog (cogs/tables/api.py, issue 39): every registered game's `new`,
`settings` and `rules` are built from its kind's data (players and target ranges, presets,
house rules) with the platform's table options, and a game's own words stay in its own
catalog while the platform's stay in the platform's."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.games import GAMES
from bot.games.base import GameKindBase
from cogs.words import game_groups, platform_command_strings

TABLE_OPTIONS = ["turn-timer", "reminders", "on-timeout", "mentions", "pictures", "hints",
                 "thread"]


def _command(group: app_commands.Group, name: str) -> app_commands.Command[Any, Any, None]:
    command = group.get_command(name)
    assert isinstance(command, app_commands.Command), (group.name, name)
    return command


def test_new_settings_and_rules_follow_each_games_data(toy: GameKindBase) -> None:
    for group in game_groups():
        kind = GAMES[group.name]
        presets = ["preset"] if any(p is not None for p in kind.presets) else []
        house = [key.replace("_", "-") for key in kind.house_rule_keys]
        new = _command(group, "new")
        assert [p.display_name for p in new.parameters] == [
            *presets, "players", "target", *house, *TABLE_OPTIONS], group.name
        players = next(p for p in new.parameters if p.name == "players")
        target = next(p for p in new.parameters if p.name == "target")
        assert (players.min_value, players.max_value) == kind.players_range
        assert (target.min_value, target.max_value) == kind.target_range
        assert all(not p.required for p in new.parameters)
        settings = _command(group, "settings")
        assert [p.display_name for p in settings.parameters] == [
            *presets, "players", "target", "options", *TABLE_OPTIONS, "language"]
        assert settings.default_permissions is not None
        assert settings.default_permissions.manage_guild
        assert [p.name for p in _command(group, "rules").parameters] == presets


def test_the_platforms_command_words_are_its_own_and_a_games_are_the_games() -> None:
    platform = platform_command_strings()
    assert ("option name", "turn-timer") in platform
    assert ("option name", "time-zone") in platform  # a shared command's, as shown
    assert ("command name", "join") in platform
    assert ("option name", "same-rank") not in platform  # American's house rule
    assert ("command description", "Play Amerikaner and Kani") not in platform
