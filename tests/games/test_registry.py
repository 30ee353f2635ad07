"""The registry is the only list of games: the bot's cogs, the CLI's choices, the
commands' words and the import contracts all follow it, the tests' own game included
while it is registered."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

from bot.app import extensions
from bot.cli import build_parser
from bot.games import COGS, GAMES, registered
from bot.games.base import GameKindBase
from bot.store import open_store
from bot.tables import TableService
from cogs.words import game_groups
from tests.games.toy.kind import ToyKind

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


class _PlainToy(ToyKind):
    """The toy game with one AI level that is not called "easy"."""

    ai_levels = ("plain",)


async def test_a_seat_left_to_the_ai_gets_the_games_weakest_level() -> None:
    """Not "easy" by name: the game's first level (GameKind.fallback_level)."""
    store = await open_store(":memory:")
    service = TableService(store, GAMES, rng=random.Random(1), ai_delay=60)
    with registered(_PlainToy(), "tests.games.toy.cog"):
        table = await service.create(10, 20, 1, "Host", None, 3, {}, game="toy")
        await service.add_ai(table.id, 1)  # the host's menu's default level
        await service.join(table.id, 2, "P2")
        await service.start(table.id, 1)
        await service.leave(table.id, 2)
        await service.set_away(table.id, 1, True)
        assert [seat.ai_level for seat in table.seats] == ["plain"] * 3
    await store.close()
