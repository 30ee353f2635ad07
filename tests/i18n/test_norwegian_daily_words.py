"""Norwegian complete, one name for one thing (issue 52, item 7): no Norwegian text of
the deal of the day or of play over days says "daily", "board", "AI" (it is KI), "1h"
(it is 1t) or "Din giv for dagen"; the daily is "Dagens giv" everywhere, its command
`dagens-giv`, and its options have Norwegian names. The catalogs are scanned whole (a
superset of the daily's and the days' texts), then the daily's own words are rendered."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from bot.i18n import pgettext, use_locale
from bot.render import daily as daily_words

POS = sorted((Path(__file__).resolve().parents[2] / "bot").glob(
    "**/locales/nb/LC_MESSAGES/messages.po"))

# English that issue 52 found in Norwegian texts, and the other names of the daily.
# (A length in hours is "1h" in English, "1t" in Norwegian; "7H" is a card.)
ENGLISH = re.compile(r"(?i:\bdaily\b|\bboard\b|din giv for dagen)|\bAI\b|\bAI-|\b\d+h\b"
                     r"|/\{\w+\} dagens\b(?!-)")


def _translations() -> list[tuple[object, str]]:
    found = []
    for path in POS:
        with path.open("rb") as fh:
            for message in read_po(fh):
                if not message.id:
                    continue
                strings = message.string if isinstance(message.string, tuple) \
                    else (message.string,)
                found += [(message.id, s) for s in strings if s]
    return found


def test_no_norwegian_text_says_the_english_words() -> None:
    translations = _translations()
    assert len(translations) > 500  # the catalogs were read
    bad = [(msgid, text) for msgid, text in translations if ENGLISH.search(text)]
    assert bad == []


def test_the_daily_has_one_norwegian_name_and_its_options_too() -> None:
    with use_locale("nb"):
        assert pgettext("command name", "daily") == "dagens-giv"
        assert pgettext("command name", "daily-settings") == "dagens-giv-innstillinger"
        for option in ("dm", "board"):
            name = pgettext("option name", option)
            assert name != option and re.fullmatch(r"[\w-]{1,32}", name), name
        public = daily_words.public_panel("Amerikaner", "amerikaner", "2026-12-07", 2)
        opened = daily_words.opened_text("Amerikaner", "2026-12-07")
        reminders = pgettext("option description", "Reminders, e.g. 50%, 1h (share of "
                             "the time, or time left; default 50%, 1h)")
    text = f"{public.title}\n{public.description}\n{opened}"
    assert "Dagens giv" in public.title and opened.startswith("Dagens giv")
    assert "/amerikaner dagens-giv" in text and "KI-spillerne" in text
    assert "1t" in reminders and "1h" not in reminders
