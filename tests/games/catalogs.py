"""The catalogs in use, for the conformance suite's pseudo-locale: each registered game's
(bot.i18n.add_catalog) and the platform's."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import catalog_dirs


def catalog_templates() -> list[Path]:
    return [d / "messages.pot" for d in catalog_dirs() if (d / "messages.pot").is_file()]
