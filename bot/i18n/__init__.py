"""The translation function every word a player reads goes through.

`_()`, `ngettext()` and `pgettext()` translate into the locale of the moment: a
`ContextVar`, so each interaction (each asyncio task) reads its own player's language;
set it with `use_locale(lang)`. English is the source language: with no catalog (or no
entry) the message itself is returned. Catalogs are gettext .po files under
`locales/<lang>/LC_MESSAGES/messages.po`, read with Babel when first needed and compiled
in memory (no binaries in git). `messages.pot` is the template Babel extracts from the
code (CONTRIBUTING.md, "Translations"; `python -m bot.i18n.split_catalogs`).

The platform's catalog is here (`locales/`), and `_()`, `ngettext()` and `pgettext()`
below look up the platform's words in it. Each game keeps its own catalog beside its code
(as Red's cogs do): its package calls `add_catalog()` when imported, and translates its
words with the `Translator` that returns, which looks a message up in the game's catalog
first, then in the platform's. So a game's words stay in its own catalog, the same English
may stand in two catalogs translated differently, and a new game changes no catalog but
its own; this package never imports a game.

Messages use named placeholders (`_("{name} made {bid}").format(name=..., bid=...)`), so
a translation may put them in another order. This package imports nothing of the project.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .rtl import RightToLeft, isolate_template, strip_isolates
from .rtl import isolate as _isolate

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

__all__ = ["LANGUAGES", "LOCALES", "N_", "RIGHT_TO_LEFT", "SOURCE_LOCALE", "Translator", "_",
           "add_catalog", "catalog_dirs", "current_locale", "install", "isolate",
           "language_of", "ngettext", "pgettext", "right_to_left", "set_locale",
           "strip_isolates", "translator_for", "use_locale"]

SOURCE_LOCALE = "en"
# The languages the bot speaks: English, Norwegian bokmål, Persian (فارسی, issue 55).
LANGUAGES = ("en", "nb", "fa")
# Those written right to left: their messages isolate what runs left to right in them,
# their own words and the arguments formatted in (rtl.py; discord-api-docs#5341, open:
# https://github.com/discord/discord-api-docs/issues/5341).
RIGHT_TO_LEFT = frozenset({"fa"})
LOCALES = Path(__file__).resolve().parent / "locales"

_locale: ContextVar[str] = ContextVar("locale", default=SOURCE_LOCALE)
# Installed catalogs (install(): tests' locales) stand alone, for every translator.
_installed: dict[str, gettext.NullTranslations] = {}


class Translator:
    """The translation functions of one catalog directory (`<lang>/LC_MESSAGES/
    messages.po` under `directory`), falling back to the platform's catalog: a game's
    words, found in its own catalog first (`add_catalog`). The platform's own is the
    module's `_`, `ngettext` and `pgettext` below."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = None if directory is None else Path(directory).resolve()
        # By language: the catalogs chained (this one, then the platform's); None: none
        # found (English falls back to the message itself).
        self._by_lang: dict[str, gettext.NullTranslations | None] = {}

    def _catalog(self) -> gettext.NullTranslations | None:
        lang = _locale.get()
        installed = _installed.get(lang)
        if installed is not None:
            return installed
        if lang not in self._by_lang:
            dirs = (LOCALES,) if self.directory is None else (self.directory, LOCALES)
            self._by_lang[lang] = None if lang == SOURCE_LOCALE else _load(lang, dirs)
        return self._by_lang[lang]

    def _(self, message: str) -> str:
        """`message` (English) in the locale of the moment."""
        catalog = self._catalog()
        return message if catalog is None else _directed(catalog.gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for `n` ("{n} trick" / "{n} tricks") in the locale of the moment; the
        caller formats `n` in (`.format(n=n)`)."""
        catalog = self._catalog()
        if catalog is None:
            return singular if n == 1 else plural
        return _directed(catalog.ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        """`message` where the same English needs different translations by `context`."""
        catalog = self._catalog()
        return message if catalog is None else _directed(catalog.pgettext(context, message))


def _directed(text: str) -> str:
    """A translation as the locale of the moment writes it: in a right-to-left language,
    with its left-to-right runs isolated and a `format()` that isolates each argument
    (rtl.py), the one place this is done; else as it is."""
    return _right_to_left(text) if _locale.get() in RIGHT_TO_LEFT else text


def right_to_left() -> bool:
    """Whether the language of the moment is written right to left."""
    return _locale.get() in RIGHT_TO_LEFT


def isolate(text: str) -> str:
    """A piece of text the render layer joins with others outside a message (a number
    and a name in an embed field's name, a button's label), isolated when the language
    of the moment is written right to left (rtl.py); else as it is."""
    return _isolate(text) if _locale.get() in RIGHT_TO_LEFT else text


@lru_cache(maxsize=8192)
def _right_to_left(text: str) -> str:
    isolated = isolate_template(text)
    # Only a message with placeholders needs its own format(); the rest stay plain str.
    return RightToLeft(isolated) if "{" in isolated else isolated


_PLATFORM = Translator(None)
# The games' translators by catalog directory, in the order registered (add_catalog).
_games: dict[Path, Translator] = {}


def add_catalog(directory: Path) -> Translator:
    """A game's catalog (`directory`, its `locales/` folder), registered when its package
    is imported: the `Translator` its words go through (its catalog, then the
    platform's)."""
    directory = Path(directory).resolve()
    if directory not in _games:
        _games[directory] = Translator(directory)
    return _games[directory]


def translator_for(package: str) -> Translator | None:
    """The translator of the game whose catalog lies in the folder named `package` (a
    command group's name is its game's), if one is registered."""
    return next((t for d, t in _games.items() if d.parent.name == package), None)


def catalog_dirs() -> tuple[Path, ...]:
    """Every catalog directory: the games' as registered, the platform's last."""
    return (*_games, LOCALES)


def current_locale() -> str:
    return _locale.get()


def language_of(locale: object) -> str:
    """The bot's language for a locale as Discord, a member's choice or an environment
    names it: Norwegian ("no" at Discord, "nb", "nn", "nb_NO.UTF-8") is bokmål, Persian
    ("fa", "fa_IR.UTF-8"; Discord never sends it: its locales have no Persian, so a
    member chooses it with /language), anything else English."""
    text = str(getattr(locale, "value", locale) or "").lower()
    primary = text.replace("_", "-").split("-")[0].split(".")[0]
    if primary in ("no", "nb", "nn"):
        return "nb"
    return "fa" if primary == "fa" else SOURCE_LOCALE


def set_locale(lang: str) -> None:
    """Translate into `lang` from now on in this task (an interaction's handler: each runs
    in a task of its own)."""
    _locale.set(lang)


@contextmanager
def use_locale(lang: str) -> Iterator[None]:
    """Translate into `lang` within the block (this task and what it awaits)."""
    token = _locale.set(lang)
    try:
        yield
    finally:
        _locale.reset(token)


def _compiled(catalog: Catalog) -> gettext.GNUTranslations:
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def install(lang: str, catalog: Catalog) -> None:
    """Use `catalog` (a Babel catalog) alone for `lang`, whatever the catalog directories
    hold: tests' locales (a pseudo-locale marking every message)."""
    _installed[lang] = _compiled(catalog)


def _load(lang: str, dirs: tuple[Path, ...]) -> gettext.NullTranslations | None:
    """`lang`'s catalogs of `dirs`, chained in that order (gettext's fallbacks: a message
    missing from one is looked up in the next)."""
    from babel.messages.pofile import read_po

    merged: gettext.NullTranslations | None = None
    for directory in dirs:
        path = directory / lang / "LC_MESSAGES" / "messages.po"
        if not path.is_file():
            continue
        with path.open("rb") as fh:
            translations = _compiled(read_po(fh, locale=lang))
        if merged is None:
            merged = translations
        else:
            merged.add_fallback(translations)  # appended at the end of the chain
    return merged


def _(message: str) -> str:
    """`message` (English) in the locale of the moment, from the platform's catalog."""
    return _PLATFORM._(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` ("{n} trick" / "{n} tricks") in the locale of the moment; the
    caller formats `n` in (`.format(n=n)`)."""
    return _PLATFORM.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks `message` for extraction where it is defined (a constant), unchanged: it is
    translated with `_()` where it is shown."""
    return message


def pgettext(context: str, message: str) -> str:
    """`message` where the same English word needs different translations by `context`."""
    return _PLATFORM.pgettext(context, message)
