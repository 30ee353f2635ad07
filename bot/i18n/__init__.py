"""The translation function every word a player reads goes through.

`_()`, `ngettext()` and `pgettext()` translate into the locale of the moment: a
`ContextVar`, so each interaction (each asyncio task) reads its own player's language;
set it with `use_locale(lang)`. English is the source language: with no catalog (or no
entry) the message itself is returned. Catalogs are gettext .po files under
`locales/<lang>/LC_MESSAGES/messages.po`, read with Babel when first needed and compiled
in memory (no binaries in git). `messages.pot` is the template Babel extracts from the
code (README, "Translations").

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

__all__ = ["LANGUAGES", "LOCALES", "N_", "SOURCE_LOCALE", "_", "current_locale", "install",
           "language_of", "ngettext", "pgettext", "set_locale", "use_locale"]

SOURCE_LOCALE = "en"
LANGUAGES = ("en", "nb")  # the languages the bot speaks: English, Norwegian bokmål
LOCALES = Path(__file__).resolve().parent / "locales"

_locale: ContextVar[str] = ContextVar("locale", default=SOURCE_LOCALE)
# Loaded catalogs by language; None: looked for and not found (English falls back).
_translations: dict[str, gettext.NullTranslations | None] = {}


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


def install(lang: str, catalog: Catalog) -> None:
    """Use `catalog` (a Babel catalog) for `lang`: the .po loader, and tests' locales."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    _translations[lang] = gettext.GNUTranslations(buffer)


def _catalog_for(lang: str) -> gettext.NullTranslations | None:
    if lang not in _translations:
        _translations[lang] = None
        path = LOCALES / lang / "LC_MESSAGES" / "messages.po"
        if lang != SOURCE_LOCALE and path.is_file():
            from babel.messages.pofile import read_po

            with path.open("rb") as fh:
                install(lang, read_po(fh, locale=lang))
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
