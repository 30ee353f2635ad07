"""Every registered game's words have their Norwegian, its slash commands' too (the toy
game's as well, registered here), and the catalog splitter takes a registered game's
catalog wherever the game lives (the toy's is under tests/)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.games import GAMES
from bot.games.base import GameKindBase
from bot.i18n import catalog_dirs, split_catalogs
from cogs.words import command_strings, game_groups
from tests.games.catalogs import stale_toy_catalog_files, toy_catalog_files

NB_PO = Path("nb") / "LC_MESSAGES" / "messages.po"


def _nb_catalogs() -> list[Catalog]:
    return [read_po((d / NB_PO).open("rb"), locale="nb")
            for d in catalog_dirs() if (d / NB_PO).is_file()]


def _untranslated(strings: list[tuple[str, str]], catalogs: list[Catalog]
                  ) -> list[tuple[str, str]]:
    """The (context, message) pairs no catalog translates (a Norwegian word may be the
    English one, "toy" as a command's name: an empty or fuzzy entry is none)."""
    def translated(context: str, message: str) -> bool:
        found = (c.get(message, context) for c in catalogs)
        return any(m is not None and m.string and not m.fuzzy for m in found)
    return [pair for pair in strings if not translated(*pair)]


def test_every_registered_games_commands_have_their_norwegian(toy: GameKindBase) -> None:
    """Discord shows a user in Norwegian each command's nb words (cogs/words.py): every
    name, description and choice of every registered game's command group."""
    groups = game_groups()
    assert [group.name for group in groups] == list(GAMES) and "toy" in GAMES
    catalogs = _nb_catalogs()
    for group in groups:
        strings = list(dict.fromkeys(command_strings([group])))
        assert strings and _untranslated(strings, catalogs) == [], group.name


def test_a_command_word_without_its_norwegian_is_found() -> None:
    catalogs = _nb_catalogs()
    assert _untranslated([("command description", "Play High card"),
                          ("command name", "no such command")], catalogs) == [
        ("command name", "no such command")]


def test_the_splitter_takes_the_toy_games_catalog_from_its_folder() -> None:
    """Named with its folder (and registered, for its command words), the toy game gets
    its words and its commands' in its own catalog under tests/, which is up to date
    (`python -m tests.games.catalogs` rewrites it); unnamed, the splitter leaves it be."""
    folder = Path(__file__).resolve().parent / "toy" / "locales"
    assert set(toy_catalog_files()) == {folder / "messages.pot"} | {
        folder / lang / "LC_MESSAGES" / "messages.po" for lang in split_catalogs.TRANSLATED}
    assert stale_toy_catalog_files() == {}
    template = read_po((folder / "messages.pot").open("rb"))
    assert template.get("toy", "command name") is not None  # its command's words
    assert template.get("High card") is not None  # its own words
    assert "toy" not in split_catalogs.games()
    assert not any(path.is_relative_to(folder) for path in split_catalogs.plan())


def test_the_splitter_gives_a_game_outside_bot_games_its_messages_by_its_folder() -> None:
    found = [("tests/games/toy/words.py", ("x", None)), ("bot/render/text.py", ("x", None)),
             ("tests/games/toy/words.py", ("y", None)), ("tests/other.py", ("z", None)),
             ("toy", ("toy", "command name")), ("platform", ("games", "command name"))]
    assert split_catalogs.split(found, ["toy"], {"toy": "tests/games/toy"}) == {
        "platform": [("x", None), ("z", None), ("games", "command name")],
        "toy": [("x", None), ("y", None), ("toy", "command name")]}


def test_the_splitters_command_line_names_a_game_by_its_folder() -> None:
    assert split_catalogs.game_folders(more_games=dict(
        [split_catalogs.named_folder("toy=tests/games/toy/")]))["toy"] == "tests/games/toy"
    with pytest.raises(argparse.ArgumentTypeError):
        split_catalogs.named_folder("toy")
