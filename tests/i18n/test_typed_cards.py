"""Cards typed in English notation or in Norwegian (bot/typed_cards.py, issue 27)."""

from __future__ import annotations

import itertools

import pytest

from bot.cards import card_name, parse_card
from bot.errors import GameError
from bot.i18n import use_locale
from bot.typed_cards import (
    norwegian_name,
    norwegian_notation,
    read_card,
    read_cards,
    shown_with_norwegian,
)


@pytest.mark.parametrize(("typed", "card"), [
    ("rd", "QD"), ("ruter dame", "QD"), ("k10", "10C"), ("kløver 10", "10C"),
    ("klover 10", "10C"), ("hk", "KH"), ("hjerter konge", "KH"), ("sa", "AS"),
    ("se", "AS"), ("spar ess", "AS"), ("hkn", "JH"), ("hjerter knekt", "JH"),
    ("Ruter D", "QD"), ("kk", "KC"), ("r2", "2D")])
def test_norwegian_cards_are_read(typed: str, card: str) -> None:
    for language in ("nb", "en"):
        assert read_cards(typed, language) == (parse_card(card),)


@pytest.mark.parametrize("typed", ["QD", "qd", "10C", "KH", "AS", "TS", "Q♦", "JK1", "ks"])
def test_english_notation_still_reads_in_both_languages(typed: str) -> None:
    for language in ("nb", "en"):
        assert read_cards(typed, language) == (parse_card(typed),)


def test_kd_is_the_only_word_read_both_ways_and_the_language_decides() -> None:
    letters = "abcdefghijklmnopqrstuvwxyz0123456789"
    words = ["".join(w) for n in (2, 3) for w in itertools.product(letters, repeat=n)]
    both = {w for w in words if read_card(w, "nb") >= 0 and read_card(w, "en") >= 0
            and read_card(w, "nb") != read_card(w, "en")}
    assert both == {"kd"}
    assert read_card("kd", "nb") == parse_card("QC")  # kløver dame
    assert read_card("KD", "en") == parse_card("KD")  # king of diamonds
    with use_locale("nb"):
        assert read_cards("kd") == (parse_card("QC"),)
    assert read_cards("kd") == (parse_card("KD"),)  # English by default


def test_several_cards_mixed_and_errors() -> None:
    assert read_cards("rd, kløver 10 AS hkn", "nb") == tuple(
        parse_card(c) for c in ("QD", "10C", "AS", "JH"))
    with pytest.raises(GameError) as caught:
        read_cards("ruter xx", "nb")
    assert caught.value.params["text"] == "ruter"


def test_every_card_round_trips_through_its_norwegian_names() -> None:
    for card in range(52):
        assert read_cards(norwegian_name(card), "nb") == (card,)
        assert read_card(norwegian_notation(card), "nb") == card


def test_the_autocomplete_shows_both_in_norwegian() -> None:
    queen = parse_card("QD")
    assert shown_with_norwegian((queen,), "en") == card_name(queen)
    assert shown_with_norwegian((queen,), "nb") == "QD · rd (ruter dame)"


def test_autocomplete_helpers() -> None:
    from bot.typed_cards import choice_name, read_some, typed_matches, typed_value

    king = parse_card("KD")
    assert typed_value(king, "en") == "KD"
    assert read_card(typed_value(king, "nb"), "nb") == king  # K♦, not kløver dame
    assert all(read_cards(typed_value(c, lang), lang) == (c,) for c in range(55)
               for lang in ("nb", "en"))
    assert choice_name(parse_card("QD"), "nb") == "Q♦ · rd (ruter dame)"
    assert typed_matches(parse_card("QD"), "rut", "nb")
    assert typed_matches(parse_card("QD"), "rd", "nb")
    assert not typed_matches(parse_card("QD"), "rd", "en")
    assert typed_matches(parse_card("QD"), "Q", "en")
    assert read_some("rd ruter", "nb") == (parse_card("QD"),)
    assert read_some("rd ruter dame", "nb") == (parse_card("QD"),) * 2


def test_persian_card_names_are_read() -> None:
    """Persian players name a card rank first, then suit (issue 55): آس ace, شاه king,
    بی‌بی queen (also typed "بی بی"), سرباز jack; پیک spades, دل hearts, خشت diamonds,
    گشنیز or خاج clubs; Persian or Latin digits; the suit first reads too."""
    from bot.cards import card_name
    from bot.typed_cards import read_cards

    typed = "آس پیک، بی‌بی خشت, بی بی دل ۱۰ گشنیز 7 خاج دل شاه سرباز پیک QD"
    assert [card_name(c) for c in read_cards(typed)] == [
        "AS", "QD", "QH", "10C", "7C", "KH", "JS", "QD"]
    with pytest.raises(GameError):
        read_cards("آس")
