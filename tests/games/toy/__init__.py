"""High card, the toy game: a game is a folder, a cog and its words.

It lives under tests/ alone and is registered by the tests only (tests/games/conftest.py,
`bot.games.registered`): nothing outside this folder names it. Its catalog is beside it
(./locales: messages.pot from `pybabel extract -k _ -k ngettext:1,2 --no-location
--omit-header -o tests/games/toy/locales/messages.pot tests/games/toy/words.py`, and the
Norwegian in nb/LC_MESSAGES/messages.po), registered as every game registers its own.
"""

from pathlib import Path

from bot.i18n import add_catalog

add_catalog(Path(__file__).resolve().parent / "locales")
