"""A game's catalog beside it: `bot.i18n.add_catalog` (words beside the game, branch
rd-words), or, until that is merged, the same done here for the tests' own game: its
messages added to the platform's catalog of each language."""

from __future__ import annotations

from pathlib import Path

import bot.i18n as i18n

_added: list[Path] = []  # the catalog directories added through the stand-in below


def _add_catalog(directory: Path) -> None:
    """The stand-in: `directory`'s messages installed over the platform's catalog."""
    from babel.messages.pofile import read_po

    _added.append(Path(directory))
    for po in sorted(Path(directory).glob("*/LC_MESSAGES/messages.po")):
        lang = po.parent.parent.name
        with (i18n.LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
            merged = read_po(fh, locale=lang)
        with po.open("rb") as fh:
            for message in read_po(fh, locale=lang):
                if message.id:
                    merged[message.id] = message
        i18n.install(lang, merged)


add_catalog = getattr(i18n, "add_catalog", _add_catalog)


def catalog_dirs() -> list[Path]:
    """Every catalog directory in use: each registered game's, and the platform's."""
    dirs = getattr(i18n, "catalog_dirs", None)
    return list(dirs()) if dirs is not None else [*_added, i18n.LOCALES]


def catalog_templates() -> list[Path]:
    return [d / "messages.pot" for d in catalog_dirs() if (d / "messages.pot").is_file()]
