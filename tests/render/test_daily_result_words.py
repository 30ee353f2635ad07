"""The daily's result names at most three moments where the strong AI would have played
otherwise and counts the rest (issue 52: "the bidding, trick 1, trick 3, trick 4, trick
5, trick 6, trick 8, trick 9, trick 10" read as noise on a phone; the AI's advice button
lists them all)."""

from __future__ import annotations

from bot.i18n import use_locale
from bot.render.daily import result_panel

MOMENTS = ["the bidding", "trick 1", "trick 3", "trick 4", "trick 5", "trick 6"]


def _line(moments: list[str], locale: str = "en") -> str:
    with use_locale(locale):
        panel = result_panel("Amerikaner", "2031-05-14", "1 point", 0.5, 1, 1, moments)
    return next(line for line in panel.description.splitlines() if "AI" in line or "KI" in line)


def test_three_moments_are_named_and_the_rest_counted() -> None:
    assert _line(MOMENTS) == ("The strong AI would have played otherwise: the bidding, "
                              "trick 1, trick 3, 3 more.")
    assert _line(MOMENTS[:3]).endswith("the bidding, trick 1, trick 3.")
    assert "3 til" in _line(MOMENTS, "nb")
