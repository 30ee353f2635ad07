"""Right-to-left text (issue 55, bot/i18n/rtl.py): in Persian, what runs left to right in a
message (its arguments: names, numbers, cards, mentions, timestamps; its own Latin words:
commands, typed examples, numbers) is isolated, in one place, the translation functions;
in English and Norwegian nothing changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

import bot.games  # noqa: F401 - registers every game's catalog
from bot.i18n import LOCALES, _, add_catalog, catalog_dirs, isolate, ngettext, pgettext, use_locale
from bot.i18n.rtl import FSI, LRI, PDI, isolate_template, isolated, strip_isolates
from bot.render import error_text, language_text
from bot.tables.errors import TableError
from tests.e2e.rtl_checker import bare_runs


def test_an_argument_is_isolated_whole_whatever_its_script() -> None:
    """A display name in Latin letters and one in Arabic script each stay one isolate
    (FSI: the direction of its own first strong letter), so neither reorders the
    sentence nor is split by it; a number, a mention and a timestamp too."""
    message = "It is seat {to_act}'s turn, not seat {seat}'s."
    with use_locale("fa"):
        for name in ("alice", "Ali Rezaei 2", "علی رضایی", "Sara (سارا)"):
            said = error_text(TableError("not_your_turn", name=name))
            assert FSI + name + PDI in said, said
            assert said.count(FSI) == said.count(PDI)
        sentence = _("Missing from the deal: {cards}.").format(cards="<@12> <t:99:R> 10♠")
        assert FSI + "<@12> <t:99:R> 10♠" + PDI in sentence
        assert message not in sentence


def test_english_and_norwegian_are_unchanged() -> None:
    for language in ("en", "nb"):
        with use_locale(language):
            said = error_text(TableError("not_your_turn", name="alice"))
            assert strip_isolates(said) == said
            assert isolate("alice 12") == "alice 12"
    assert language_text("fa") == "Public messages: Persian."


def test_a_command_in_persian_words_is_one_left_to_right_run() -> None:
    """The Latin words of a message's own text (a command with its options, a typed
    example, a number) are one LRI run each, Markdown and punctuation outside it; a
    placeholder inside a command stays in its run."""
    assert isolate_template("با **/{command} settings language:** عوض کنید.") == (
        "با **" + LRI + "/{command} settings language:" + PDI + "** عوض کنید.")
    assert isolate_template("مثال: AS, 10H") == f"مثال: {LRI}AS{PDI}, {LRI}10H{PDI}"
    assert isolate_template("(`first_dealer`) ۳") == f"({LRI}`first_dealer`{PDI}) ۳"
    assert isolate_template("{name}: {points} امتیاز") == "{name}: {points} امتیاز"
    assert isolate_template("سطر یک\n30 ثانیه") == f"سطر یک\n{LRI}30{PDI} ثانیه"


def test_what_spans_lines_or_is_isolated_already_is_left_alone() -> None:
    """A Markdown list passed in keeps each line's start; an isolate is not wrapped
    again."""
    with use_locale("fa"):
        lines = "- a\n- b"
        assert isolate(lines) == lines
        once = isolate("alice")
        assert once == FSI + "alice" + PDI and isolated(once) and isolate(once) == once
        assert not isolated(FSI + "a" + PDI + " " + FSI + "b" + PDI)
        assert isolate("") == ""


def test_a_plural_form_and_its_number_are_isolated() -> None:
    with use_locale("fa"):
        said = ngettext("{count} trick", "{count} tricks", 3).format(count=3)
    assert FSI + "3" + PDI in said


class _Any(dict[str, Any]):
    """Any placeholder's value: a number, which every format spec of the catalogs takes."""

    def __missing__(self, key: str) -> int:
        return 7


# What Discord shows every member in their Discord's language (never Persian): not read
# in a Persian sentence.
_DISCORDS = {"command name", "option name", "option description", "command description",
             "choice"}


def _persian_messages() -> Iterator[tuple[str, Any, str | None]]:
    for directory in catalog_dirs():
        path = directory / "fa" / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as fh:
            for message in read_po(fh, locale="fa"):
                if message.id and message.context not in _DISCORDS:
                    yield str(directory), message.id, message.context


def _translator(directory: str) -> Any:
    """The translation functions of a catalog directory: a game's, or the platform's."""
    return None if Path(directory) == LOCALES else add_catalog(Path(directory))


@pytest.mark.parametrize("where", sorted({d for d, *_ in _persian_messages()}),
                         ids=lambda where: Path(where).parent.name)
def test_every_persian_message_isolates_its_left_to_right_runs(where: str) -> None:
    """Every entry of every Persian catalog, formatted with numbers for its arguments:
    on a line with Persian letters, no Latin letter or digit is left outside an isolate
    (the e2e checker's own rule, tests/e2e/rtl_checker.py)."""
    game = _translator(where)
    gettext_ = game._ if game else _
    ngettext_ = game.ngettext if game else ngettext
    pgettext_ = game.pgettext if game else pgettext
    faults, checked = [], 0
    with use_locale("fa"):
        for directory, msgid, context in _persian_messages():
            if directory != where:
                continue
            if isinstance(msgid, tuple):
                texts = [ngettext_(msgid[0], msgid[1], n) for n in (1, 7)]
            else:
                texts = [pgettext_(context, msgid) if context else gettext_(msgid)]
            for text in texts:
                checked += 1
                shown = text.format_map(_Any())
                for line in shown.split("\n"):
                    if any("\u0600" <= c <= "\u06ff" for c in line) and bare_runs(line):
                        faults.append((msgid, line))
    assert checked >= 30  # read, not skipped: the smallest catalog (the toy game's) has 41
    assert not faults, faults[:10]
