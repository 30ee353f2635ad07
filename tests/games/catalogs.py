"""The catalogs in use, for the conformance suite's pseudo-locale: each registered game's
(bot.i18n.add_catalog) and the platform's; and the toy game's catalog as the splitter
writes it for a game outside bot/games/: named with its folder, and registered so that
its command words are extracted too (bot/i18n/split_catalogs.py):

    python -m tests.games.catalogs [--check]

rewrites tests/games/toy/locales (the template, and each language's .po kept in step),
or with --check writes nothing and exits 1 if a file would change."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.games import registered
from bot.games.base import GameKindBase
from bot.i18n import catalog_dirs, split_catalogs
from tests.games.toy import COG
from tests.games.toy.kind import TOY

REPO = Path(__file__).resolve().parents[2]


def catalog_templates() -> list[Path]:
    return [d / "messages.pot" for d in catalog_dirs() if (d / "messages.pot").is_file()]


def game_folder(kind: GameKindBase) -> str:
    """A game's folder (its kind's package), relative to the repository."""
    package = Path(sys.modules[type(kind).__module__].__file__ or "").resolve().parent
    return package.relative_to(REPO).as_posix()


def toy_catalog_files() -> dict[Path, bytes]:
    """The toy game's catalog files (by path) as the splitter writes them for it."""
    more_games = {TOY.name: game_folder(TOY)}
    with registered(TOY, COG):
        folder = split_catalogs.catalog_dir(TOY.name, REPO, more_games)
        return {path: data for path, data in split_catalogs.plan(REPO, (), more_games).items()
                if path.is_relative_to(folder)}


def stale_toy_catalog_files() -> dict[Path, bytes]:
    """The toy's catalog files the splitter would change, with their new contents."""
    return {path: data for path, data in toy_catalog_files().items()
            if not path.is_file()
            or not split_catalogs.same_but_stamps(path.read_bytes(), data)}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = stale_toy_catalog_files()
    for path, data in stale.items():
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        print(("out of date: " if check else "wrote ") + str(path))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
