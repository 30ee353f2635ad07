"""Norwegian finished (issue 27): house rules, presets and options by translated names
(their keys stay what commands take), the shedding game shown as "Idiot", one word for
one thing in the catalog (its glossary in the header; "bordkort" never the kitty), and
the preset option described as a variant, not a game ("parti")."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.games.american import text_table as american_text_table
from bot.games.american.kind import AMERICAN
from bot.games.american.rules import BOOLEAN_OPTIONS as AMERICAN_OPTIONS
from bot.games.amerikaner import text_guide as amerikaner_text_guide
from bot.games.amerikaner import text_table as amerikaner_text_table
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.rules import BOOLEAN_OPTIONS as AMERIKANER_OPTIONS
from bot.i18n import use_locale

# Every nb catalog: the platform's and each game's (CONTRIBUTING.md, "Translations").
POS = sorted((Path(__file__).resolve().parents[2] / "bot").glob(
    "**/locales/nb/LC_MESSAGES/messages.po"))


def test_every_house_rule_has_a_norwegian_name_and_keeps_its_key() -> None:
    for kind, keys in ((AMERIKANER, AMERIKANER_OPTIONS), (AMERICAN, AMERICAN_OPTIONS)):
        with use_locale("nb"):
            names = [kind.words.option_label(key) for key in keys]
        english = [kind.words.option_label(key) for key in keys]
        for key, nb, en in zip(keys, names, english, strict=True):
            assert nb != key and "_" not in nb and nb != en, (key, nb)


def test_the_lobby_line_and_rules_read_the_names_not_the_keys() -> None:
    rules = AMERIKANER.make_rules("norsk", 4, {"free_trump": True, "two_wins": True})
    with use_locale("nb"):
        line = amerikaner_text_table.options_line(rules)
        rules_text = amerikaner_text_guide.rules_text(rules)
        settings = amerikaner_text_guide.settings_text({"preset": "norsk",
                                                  "options": {"free_trump": True}})
    assert "free_trump" not in line and "two_wins" not in line
    assert "fri trumf" in line and "Norsk" in line and "norsk" not in line
    assert "fri trumf" in rules_text and "`free_trump`" in rules_text  # the key to type
    assert "fri trumf" in settings and "free_trump" not in settings
    shedding = AMERICAN.make_rules(None, 3, {"four_burns": True})
    with use_locale("nb"):
        assert "fire like slår ut" in american_text_table.options_line(shedding)


def test_the_shedding_game_is_idiot_in_norwegian() -> None:
    rules = AMERICAN.make_rules(None, 3, {})
    with use_locale("nb"):
        assert AMERICAN.words.title(rules) == "Idiot"
        assert "Idiot" in AMERICAN.words.lobby_title(rules)
    assert AMERICAN.words.title(rules) == "American"


def _catalog() -> Catalog:
    """The nb catalogs as one (a message is in one of them only)."""
    merged = Catalog(locale="nb")
    for path in POS:
        with path.open("rb") as fh:
            for message in read_po(fh):
                if message.id:
                    merged[message.id] = message
    return merged


def test_bordkort_is_never_the_kitty_and_the_glossary_says_so() -> None:
    catalog = _catalog()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if any("kitty" in i.lower() for i in ids if i) and message.context != "option name":
            assert not any("bordkort" in s.lower() for s in strings), message.id
    for path in POS:
        header = path.read_text(encoding="utf-8").split("msgid", 1)[0]
        assert "Glossary" in header and "talong" in header and "bordkort" in header


def test_the_preset_option_is_a_variant_not_a_game() -> None:
    catalog = _catalog()
    described = catalog.get("Which game", context="option description")
    assert described is not None and described.string == "Hvilken variant"
    assert all("Hvilket parti" not in path.read_text(encoding="utf-8") for path in POS)
