"""The registry is the only list of games: the bot's cogs, the CLI's choices, the
commands' words and the import contracts all follow it, the tests' own game included
while it is registered."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import bot.games
from bot.app import extensions
from bot.cli import build_parser, main
from bot.games import COGS, DEFAULT_GAME, GAMES, discover, registered
from bot.games.base import GameKindBase
from bot.store import open_store
from bot.tables.service import TableService
from cogs.words import game_groups
from tests.games.toy.kind import ToyKind


def _own_games() -> list[str]:
    """The bot's games by their folders under bot/games/, the default game first, then by
    name: a new game's folder adds itself here (no test names every game)."""
    folders = sorted(p.parent.name for p in
                     Path(bot.games.__file__).resolve().parent.glob("*/__init__.py"))
    return sorted(folders, key=lambda name: name != DEFAULT_GAME)


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
    assert list(GAMES) == _own_games() and {"amerikaner", "american"} <= set(GAMES)


def test_a_game_folder_dropped_among_the_games_is_registered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new game is a folder in bot/games whose kind module names KIND and COG: the
    registry finds it, and the bot's cogs, the CLI and the commands follow, with no other
    file changed (here the folder is the toy game's, beside bot/games' own)."""
    folder = tmp_path / "highcard"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "kind.py").write_text("from tests.games.toy.kind import COG, KIND  # noqa\n")
    monkeypatch.setattr(bot.games, "__path__", [*bot.games.__path__, str(tmp_path)])
    try:
        own = _own_games()
        assert discover(bot.games.__path__) == [*own, "toy"]
        assert COGS["toy"] == "tests.games.toy.cog"
        assert extensions() == ("cogs.tables", *(COGS[name] for name in own),
                                "tests.games.toy.cog")
        assert _choices("--game") == (*own, "toy")
    finally:
        del GAMES["toy"], COGS["toy"]
        for name in [name for name in sys.modules if name.startswith("bot.games.highcard")]:
            del sys.modules[name]


def test_the_games_are_found_in_their_folder_the_bots_own_first() -> None:
    assert discover() == list(GAMES) == _own_games()
    assert list(COGS.values()) == [f"cogs.{name}" for name in _own_games()]
    assert list(GAMES)[:1] == [DEFAULT_GAME] and "american" in GAMES


class _PlainToy(ToyKind):
    """The toy game with one AI level that is not called "easy"."""

    ai_levels = ("plain",)


async def test_a_seat_left_to_the_ai_gets_the_games_weakest_level() -> None:
    """Not "easy" by name: the game's first level (GameKind.fallback_level)."""
    store = await open_store(":memory:")
    service = TableService(store, GAMES, rng=random.Random(1), ai_delay=60)
    with registered(_PlainToy(), "tests.games.toy.cog"):
        table = await service.lobby.create(10, 20, 1, "Host", None, 3, {}, game="toy")
        await service.lobby.add_ai(table.id, 1)  # the host's menu's default level
        await service.lobby.join(table.id, 2, "P2")
        await service.lobby.start(table.id, 1)
        await service.seats.leave(table.id, 2)
        await service.seats.set_away(table.id, 1, True)
        assert [seat.ai_level for seat in table.seats] == ["plain"] * 3
    await store.close()


def test_play_offers_each_games_levels_and_refuses_one_the_game_lacks(
        toy: GameKindBase, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI's levels are the registered games' (the toy has "easy" alone): a level
    another game has is refused for the toy by name, not played by some other AI."""
    assert _choices("--level") == ("random", "easy", "strong")
    assert main(["play", "--game", "toy", "--level", "strong"]) == 2
    assert "toy has no AI level 'strong' (it has: random, easy)" in capsys.readouterr().err
