"""The translation function every word a player reads goes through.

`_()`, `ngettext()` and `pgettext()` translate into the locale of the moment: a
`ContextVar`, so each interaction (each asyncio task) reads its own player's language;
set it with `use_locale(lang)`. English is the source language: with no catalog (or no
entry) the message itself is returned. Catalogs are gettext .po files under
`locales/<lang>/LC_MESSAGES/messages.po`, read with Babel when first needed and compiled
in memory (no binaries in git). `messages.pot` is the template Babel extracts from the
code (CONTRIBUTING.md, "Translations"; `python -m bot.i18n.split_catalogs`).

The platform's catalog is here (`locales/`); each game keeps its own beside its code and
registers it with `add_catalog()` when its package is imported, so this package never
imports a game. A message lives in one catalog only (the splitter puts a message two
catalogs' code share into the platform's), so lookups are merged: the games' catalogs
first, in the order registered, then the platform's.

Messages use named placeholders (`_("{name} made {bid}").format(name=..., bid=...)`), so
a translation may put them in another order. This package imports nothing of the project.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

__all__ = ["LANGUAGES", "LOCALES", "N_", "SOURCE_LOCALE", "_", "add_catalog", "catalog_dirs",
           "current_locale", "install", "language_of", "ngettext", "pgettext",
           "set_locale", "use_locale"]

SOURCE_LOCALE = "en"
LANGUAGES = ("en", "nb")  # the languages the bot speaks: English, Norwegian bokmål
LOCALES = Path(__file__).resolve().parent / "locales"

_locale: ContextVar[str] = ContextVar("locale", default=SOURCE_LOCALE)
# The games' catalog directories, in the order registered (add_catalog).
_game_dirs: list[Path] = []
# Catalogs by language, merged from every directory; None: looked for and none found
# (English falls back). Installed ones (install(): tests' locales) stand alone.
_translations: dict[str, gettext.NullTranslations | None] = {}
_installed: dict[str, gettext.NullTranslations] = {}


def add_catalog(directory: Path) -> None:
    """Look messages up in the catalogs under `directory` (`<lang>/LC_MESSAGES/
    messages.po`) before the platform's: a game calls this with its `locales/` folder
    when its package is imported, before any of its words is looked up."""
    directory = Path(directory).resolve()
    if directory not in _game_dirs:
        _game_dirs.append(directory)
        _translations.clear()  # merged anew with it when next needed


def catalog_dirs() -> tuple[Path, ...]:
    """Every catalog directory in lookup order: the games' as registered, the platform's
    last."""
    return (*_game_dirs, LOCALES)


def current_locale() -> str:
    return _locale.get()


def language_of(locale: object) -> str:
    """The bot's language for a locale as Discord or an environment names it: Norwegian
    ("no" at Discord, "nb", "nn", "nb_NO.UTF-8") is bokmål, anything else English."""
    text = str(getattr(locale, "value", locale) or "").lower()
    primary = text.replace("_", "-").split("-")[0].split(".")[0]
    return "nb" if primary in ("no", "nb", "nn") else SOURCE_LOCALE


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


def _load(lang: str) -> gettext.NullTranslations | None:
    """`lang`'s catalogs of every directory, chained in lookup order (gettext's
    fallbacks: a message missing from one is looked up in the next)."""
    from babel.messages.pofile import read_po

    merged: gettext.NullTranslations | None = None
    for directory in catalog_dirs():
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


def _catalog_for(lang: str) -> gettext.NullTranslations | None:
    installed = _installed.get(lang)
    if installed is not None:
        return installed
    if lang not in _translations:
        _translations[lang] = None if lang == SOURCE_LOCALE else _load(lang)
    return _translations[lang]


def _(message: str) -> str:
    """`message` (English) in the locale of the moment."""
    catalog = _catalog_for(_locale.get())
    return message if catalog is None else catalog.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` ("{n} trick" / "{n} tricks") in the locale of the moment; the
    caller formats `n` in (`.format(n=n)`)."""
    catalog = _catalog_for(_locale.get())
    if catalog is None:
        return singular if n == 1 else plural
    return catalog.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks `message` for extraction where it is defined (a constant), unchanged: it is
    translated with `_()` where it is shown."""
    return message


def pgettext(context: str, message: str) -> str:
    """`message` where the same English word needs different translations by `context`."""
    catalog = _catalog_for(_locale.get())
    return message if catalog is None else catalog.pgettext(context, message)
