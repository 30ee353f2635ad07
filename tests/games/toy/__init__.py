"""High card, the toy game: a game is a folder, a cog and its words.

It lives under tests/ alone and is registered by the tests only (tests/games/conftest.py,
`bot.games.registered`, with its cog `COG`): nothing outside this folder names it. Its
catalog is beside it (./locales: messages.pot and the Norwegian in
nb/LC_MESSAGES/messages.po, its words and its command's), registered as every game
registers its own, and extracted by the splitter as every game's is, the toy registered
(`python -m tests.games.catalogs`).
"""

from pathlib import Path

from bot.i18n import add_catalog

COG = f"{__name__}.cog"  # its cog's module, as the registry names a game's cog

WORDS = add_catalog(Path(__file__).resolve().parent / "locales")  # its words: _, ngettext
_, ngettext = WORDS._, WORDS.ngettext
