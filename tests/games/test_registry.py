"""The registry is the only list of games: the bot's cogs, the CLI's choices, the
commands' words and the import contracts all follow it, the tests' own game included
while it is registered."""

from __future__ import annotations

import tomllib
from pathlib import Path

from bot.app import extensions
from bot.cli import build_parser
from bot.games import COGS, GAMES
from bot.games.base import GameKindBase
from cogs.words import game_groups

REPO = Path(__file__).resolve().parents[2]


def _choices(option: str) -> tuple[str, ...]:
    play = build_parser()._subparsers._group_actions[0].choices["play"]  # type: ignore[union-attr]
    action = next(a for a in play._actions if option in a.option_strings)
    return tuple(action.choices or ())


def test_the_bot_the_cli_and_the_commands_follow_the_registry(toy: GameKindBase) -> None:
    assert "toy" in GAMES and COGS["toy"] == "tests.games.toy.cog"
    assert extensions() == ("cogs.tables", *COGS.values())
    assert _choices("--game") == tuple(GAMES)
    assert [group.name for group in game_groups()] == list(GAMES)
    for kind in GAMES.values():
        assert kind.fallback_level == kind.ai_levels[0]


def test_registering_for_a_while_leaves_the_registry_as_it_was() -> None:
    assert "toy" not in GAMES and "toy" not in COGS
    assert list(GAMES) == ["amerikaner", "american"]


def test_every_registered_game_has_its_independence_contract() -> None:
    """pyproject.toml's "Games never import each other" lists every game of bot.games."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    contract = next(c for c in config["tool"]["importlinter"]["contracts"]
                    if c["type"] == "independence")
    packages = {type(kind).__module__.rsplit(".", 1)[0] for kind in GAMES.values()}
    assert packages == set(contract["modules"])
