"""What the bot shows back of a user's input, and replies cut to Discord's limits."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.text import (
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_COUNT_LIMIT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    FOOTER_LIMIT,
    QUOTE_LIMIT,
    TITLE_LIMIT,
    Panel,
    fit_panel,
    quote,
    shorten,
)


def test_shorten() -> None:
    assert shorten("abc", 3) == "abc"
    assert shorten("abcd", 3) == "ab…"
    assert shorten("abcd", 1) == "…"
    assert shorten("abcd", 0) == ""
    assert shorten("", 0) == ""


def test_quote_keeps_case_and_drops_controls() -> None:
    assert quote("Banana") == "'Banana'"
    assert quote("Ban\x00ana\x07") == "'Banana'"
    assert quote("a\n\tb  c ") == "'a b c'"
    assert quote("\u202eAS") == "'AS'"  # a right-to-left override would reorder the reply
    assert quote("²①٣🂡🔥") == "'²①٣🂡🔥'"
    assert quote("x" * 3000) == "'" + "x" * (QUOTE_LIMIT - 1) + "…'"


def test_quote_shows_markdown_and_mentions_as_typed() -> None:
    assert quote("**AS**") == "'\\*\\*AS\\*\\*'"
    assert quote("[x](https://e.com)") == "'\\[x\\](https://e.com)'"
    assert quote("<@&123>") == "'\\<@&123\\>'"
    assert quote("@everyone") == "'@\u200beveryone'"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_quote_is_short_and_printable(text: str) -> None:
    quoted = quote(text)
    assert len(quoted) <= QUOTE_LIMIT + 2
    assert quoted[0] == quoted[-1] == "'"
    # The one invisible character: the zero-width space that keeps "@everyone" and
    # "@here" from reading as a mention (bot/tables/names.py).
    assert not any(unicodedata.category(ch).startswith("C")
                   for ch in quoted.replace("@\u200b", "@"))
    assert "\n" not in quoted


def _fits(panel: Panel) -> None:
    assert len(panel.title) <= TITLE_LIMIT
    assert len(panel.description) <= DESCRIPTION_LIMIT
    assert len(panel.footer or "") <= FOOTER_LIMIT
    assert len(panel.fields) <= FIELD_COUNT_LIMIT
    for name, value, _ in panel.fields:
        assert 1 <= len(name) <= FIELD_NAME_LIMIT and 1 <= len(value) <= FIELD_VALUE_LIMIT
    total = (len(panel.title) + len(panel.description) + len(panel.footer or "")
             + sum(len(n) + len(v) for n, v, _ in panel.fields))
    assert total <= EMBED_TOTAL_LIMIT


def test_fit_panel_leaves_a_small_panel_alone() -> None:
    panel = Panel(title="T", description="D", fields=(("a", "b", True),), footer="F")
    assert fit_panel(panel) == panel


def test_fit_panel_cuts_every_part() -> None:
    huge = Panel(title="t" * 1000, description="d" * 9000,
                 fields=tuple((f"n{i}" * 300, "v" * 2000, False) for i in range(40)),
                 footer="f" * 3000)
    fitted = fit_panel(huge)
    _fits(fitted)
    assert fitted.title.endswith("…") and fitted.description.endswith("…")
    many = fit_panel(Panel(title="T", fields=tuple((f"n{i}", "v" * 1000, False)
                                                   for i in range(40))))
    _fits(many)
    assert [name for name, _, _ in many.fields] == [f"n{i}" for i in range(5)]  # the first
    empty = fit_panel(Panel(title="T", fields=(("", "", False),)))
    assert empty.fields == (("—", "—", False),)


@settings(max_examples=100, deadline=None)
@given(title=st.text(max_size=400), description=st.text(max_size=5000),
       footer=st.none() | st.text(max_size=2500),
       fields=st.lists(st.tuples(st.text(max_size=300), st.text(max_size=1200), st.booleans()),
                       max_size=30))
def test_fit_panel_always_fits(title: str, description: str, footer: str | None,
                               fields: list[tuple[str, str, bool]]) -> None:
    _fits(fit_panel(Panel(title=title, description=description, fields=tuple(fields),
                          footer=footer)))
