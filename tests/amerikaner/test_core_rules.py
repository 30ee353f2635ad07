"""Presets, player counts and options (docs/rules-amerikaner.md sections 2 and 8); card notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import SUIT_SYMBOLS, card_label, card_name, is_card, parse_card
from bot.errors import GameError
from bot.games.amerikaner.rules import Rules
from bot.games.amerikaner.text_refusals import error_sentence

# preset, players, options -> cards each, kitty, blind, jokers, removed, min bid, max bid
LAYOUTS = [
    ("amerikaner", 3, {}, 16, 4, 0, 0, (), 8, 16),
    ("amerikaner", 4, {}, 12, 4, 0, 0, (), 6, 12),
    ("amerikaner", 5, {}, 10, 2, 0, 0, (), 5, 10),
    ("amerikaner", 3, {"no_kitty": True}, 17, 0, 0, 0, ("2C",), 9, 17),
    ("amerikaner", 4, {"no_kitty": True}, 13, 0, 0, 0, (), 7, 13),
    ("amerikaner", 5, {"no_kitty": True}, 10, 0, 0, 0, ("2C", "2D"), 5, 10),
    ("amerikaner", 3, {"jokers": True}, 18, 0, 0, 2, (), 9, 18),
    ("amerikaner", 4, {"jokers": True}, 13, 0, 0, 0, (), 7, 13),
    ("amerikaner", 5, {"jokers": True}, 11, 0, 0, 3, (), 6, 11),
    ("amerikaner", 6, {"jokers": True}, 9, 0, 0, 2, (), 5, 9),
    ("amerikaner", 6, {"jokers": True, "no_kitty": True}, 9, 0, 0, 2, (), 5, 9),
    ("norsk", 3, {}, 17, 0, 1, 0, (), 9, 17),
    ("norsk", 4, {}, 13, 0, 0, 0, (), 7, 13),
    ("norsk", 5, {}, 10, 0, 2, 0, (), 5, 10),
    ("norsk", 6, {}, 8, 0, 4, 0, (), 4, 8),
    ("kani", 4, {}, 13, 0, 0, 0, (), 6, 12),
    ("amerikaner", 4, {"kitty_trick": True}, 12, 4, 0, 0, (), 7, 13),
]


@pytest.mark.parametrize("preset,players,options,each,kitty,blind,jokers,removed,low,high",
                         LAYOUTS)
def test_layouts(preset, players, options, each, kitty, blind, jokers, removed, low,
                 high) -> None:
    rules = Rules.create(preset, players, options)
    assert (rules.cards_each, rules.kitty_size, rules.blind_size, rules.jokers) == (
        each, kitty, blind, jokers)
    assert tuple(card_name(c) for c in rules.removed) == removed
    assert (rules.min_bid, rules.max_bid) == (low, high)
    assert rules.pack.bit_count() == each * players + kitty + blind


def test_top_bids_and_targets() -> None:
    assert Rules.create("amerikaner", 4).top_bid == "amerikaner"
    assert Rules.create("norsk", 4).top_bid == "amerikaner"
    kani = Rules.create("kani", 4)
    assert kani.top_bid == "kani" and kani.target == 50
    assert Rules.create("amerikaner", 4).target == 52
    assert Rules.create("kani", 4, {"target": 30}).target == 30


@pytest.mark.parametrize("preset,players,options,words", [
    ("poker", 4, {}, ["poker"]),
    ("amerikaner", 6, {}, ["3 to 5"]),
    ("amerikaner", 2, {}, ["2"]),
    ("kani", 5, {}, ["exactly 4"]),
    ("norsk", 7, {}, ["3 to 6"]),
    ("amerikaner", 4, {"double_dummy": True}, ["double_dummy"]),
    ("amerikaner", 4, {"no_kitty": True, "show_kitty": True}, ["show_kitty", "no_kitty"]),
    ("amerikaner", 4, {"jokers": True, "kitty_trick": True}, ["kitty_trick", "jokers"]),
    ("amerikaner", 4, {"bidder_double": True, "partner_half": True}, ["exclude"]),
    ("amerikaner", 4, {"fixed_ten": True}, ["10 points a bid", "kani"]),
    ("norsk", 4, {"no_kitty": True}, ["no kitty"]),
    ("norsk", 4, {"show_kitty": True}, ["kitty shown"]),
    ("kani", 4, {"all_pass_play": True}, ["play when all pass"]),
    ("kani", 4, {"bidder_double": True}, ["bidder scores double"]),
    ("kani", 4, {"jokers": True}, ["jokers"]),
    ("amerikaner", 4, {"target": 0}, ["target"]),
    ("amerikaner", 4, {"target": -5}, ["target"]),
    ("amerikaner", 4, {"target": "52"}, ["target"]),
    ("amerikaner", 4, {"target": True}, ["target"]),
    ("amerikaner", 4, {"two_wins": "yes"}, ["two_wins"]),
])
def test_refused_rules_say_which_and_why(preset, players, options, words) -> None:
    with pytest.raises(GameError) as info:
        Rules.create(preset, players, options)
    assert info.value.code == "invalid_rules"
    # What the user reads: a typed name is quoted with its Markdown escaped
    # (bot/tables/names.py), which Discord shows without the backslashes.
    shown = error_sentence(info.value).replace("\\", "")
    for word in words:
        assert word in shown


def test_an_option_set_to_false_is_never_refused() -> None:
    rules = Rules.create("kani", 4, {"no_kitty": False, "bidder_double": False,
                                     "show_kitty": False, "fixed_ten": True})
    assert rules.options == {"fixed_ten"}


def test_rules_round_trip_through_json() -> None:
    rules = Rules.create("amerikaner", 5, {"kitty_trick": True, "two_wins": True,
                                           "target": 30})
    assert Rules.from_json(rules.to_json()) == rules


@pytest.mark.parametrize("text,name", [
    ("AS", "AS"), ("as", "AS"), ("10h", "10H"), ("TH", "10H"), ("th", "10H"),
    ("2c", "2C"), ("jk1", "JK1"), ("JK3", "JK3"), (" QD ", "QD"), ("A♠", "AS"),
])
def test_card_notation(text: str, name: str) -> None:
    assert is_card(text) and card_name(parse_card(text)) == name


@pytest.mark.parametrize("text", ["1S", "AX", "11H", "JK4", "", "10", "S", None, 7, "JK0",
                                  "²S", "1⁰H", "①S", "٣H", "ＡＳ", "Aſ", "AS\x00", "\u3000AS",
                                  "🂡", "AS " * 1000, "1" * 5000])
def test_not_card_notation(text: object) -> None:
    assert not is_card(text)
    with pytest.raises(GameError) as refused:
        parse_card(text)
    assert refused.value.code == "invalid_card"
    assert refused.value.params == {"reason": "typed", "text": text}


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_parse_card_reads_notation_or_refuses_with_its_code(text: str) -> None:
    try:
        card = parse_card(text)
    except GameError as refused:
        assert refused.code == "invalid_card" and not is_card(text)
        return
    # whatever is read as a card is written in ASCII notation or with the suit symbols
    assert is_card(text) and 0 <= card < 55
    assert all(ch.isascii() or ch in SUIT_SYMBOLS for ch in text.strip())


def test_labels_are_phone_friendly() -> None:
    assert card_label(parse_card("AS")) == "A♠"  # type: ignore[arg-type]
    assert card_label(parse_card("10H")) == "10♥"  # type: ignore[arg-type]


def test_presets_are_data_and_nothing_branches_on_their_names() -> None:
    """docs/rules-amerikaner.md § 2's presets are one record each (PRESET_TABLE); the rules core,
    scoring, AI and text read the record's fields, never compare a preset's name."""
    import ast
    from pathlib import Path

    from bot.games.amerikaner.rules import PRESET_TABLE, PRESETS

    assert PRESETS == ("amerikaner", "norsk", "kani")
    kani = Rules.create("kani", 4)
    assert kani.style is PRESET_TABLE["kani"] and (kani.min_bid, kani.max_bid) == (6, 12)
    assert kani.style.top_with_trumps and kani.top_bid == "kani" and kani.target == 50
    norsk = Rules.create("norsk", 5)
    assert norsk.style.redeal and norsk.blind_size == 2 and norsk.min_bid == 5
    game = Path(__file__).resolve().parents[2] / "bot" / "games" / "amerikaner"
    for path in [*game.glob("*.py"), *game.glob("ai/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                names = [n for n in (node.left, *node.comparators)
                         if isinstance(n, ast.Constant) and n.value in PRESETS]
                preset = [n for n in (node.left, *node.comparators)
                          if isinstance(n, ast.Attribute) and n.attr == "preset"]
                assert not (names and preset), f"{path.name}:{node.lineno} names a preset"
