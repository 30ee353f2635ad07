"""American, the shedding game of the Idiot family (docs/rules-american.md): pure
rules, records, views and the words of its refusals; no Discord, store or table-service
import, and nothing of the other games."""

from pathlib import Path

from bot.i18n import add_catalog

# The game's words are in its own catalog, beside its code (CONTRIBUTING.md, "Translations"),
# registered when any of its modules is in use. Its modules translate with these
# (`from bot.games.american import _`): its catalog first, then the platform's.
WORDS = add_catalog(Path(__file__).resolve().parent / "locales")
_, ngettext, pgettext = WORDS._, WORDS.ngettext, WORDS.pgettext
