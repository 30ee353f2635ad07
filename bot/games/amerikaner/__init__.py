"""Amerikaner, Kani and the Norwegian-American rules: the trick-taking game of bids and a
called partner (docs/rules-amerikaner.md). Pure rules, records, views, AI players, text and the
terminal game; no Discord, store or table-service import."""

from pathlib import Path

from bot.i18n import add_catalog

# The game's words are in its own catalog, beside its code (CONTRIBUTING.md, "Translations"),
# registered when any of its modules is in use. Its modules translate with these
# (`from bot.games.amerikaner import _`): its catalog first, then the platform's.
WORDS = add_catalog(Path(__file__).resolve().parent / "locales")
_, ngettext, pgettext = WORDS._, WORDS.ngettext, WORDS.pgettext
