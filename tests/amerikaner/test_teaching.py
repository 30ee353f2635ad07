"""Teach as you play (issue 27): before the opening lead of a number bid the table and
the leader's panel say what the lead does (the suit led becomes trump, a card the leader
lacks is called, its holder is the partner) and name the usual call; the call menu marks
it; the help's example hand is the hand its words describe."""

from __future__ import annotations

from bot.cards import card_label, parse_card, rank_of
from bot.games.amerikaner import text_guide, text_hand, text_table
from bot.games.amerikaner.views import GameView, hand_view
from tests.core_helpers import new_hand, run

NAMES = ["alice", "bob", "carol", "dave"]
BIDDER_HAND = "AS KS AH KH QH JH 10H 9H 8H 7H 6H 5H 4H"


def _before_the_lead() -> object:
    return run(new_hand(options={"no_kitty": True}, fixed={1: BIDDER_HAND}),
               "1 bid 7", "2 pass", "3 pass", "0 pass")


def _game_view(hand: object) -> GameView:
    return GameView(rules=hand.rules, hand_number=1, totals=(0, 0, 0, 0), finished=False,
                    winners=(), hand=hand_view(hand))


def test_the_table_says_what_the_opening_lead_does() -> None:
    hand = _before_the_lead()
    description = text_table.table_panel(_game_view(hand), NAMES).description
    assert "trump" in description and "partner" in description and "calls" in description
    after = run(hand, "1 play AS call QS")
    assert "calls a card" not in text_table.table_panel(_game_view(after), NAMES).description


def test_the_leaders_panel_says_what_the_lead_does_and_the_usual_call() -> None:
    hand = _before_the_lead()
    panel = text_hand.seat_panel(hand_view(hand, 1), NAMES, (0, 0, 0, 0))
    assert "becomes trump" in panel.description
    assert "usual call" in panel.description and "highest" in panel.description
    # No card is named there (a card named in a panel reads as a card seen): the call
    # menu marks the usual one.
    assert not any(card_label(card) in panel.description.split("**Your turn:**")[1]
                   for card in range(52))
    # The others' panels (not to act) do not.
    assert "becomes trump" not in text_hand.seat_panel(hand_view(hand, 2), NAMES,
                                                   (0, 0, 0, 0)).description


def test_the_call_menu_marks_the_usual_call() -> None:
    spades = [parse_card(c) for c in ("2S", "10S", "QS")]
    usual = text_table.usual_call(spades)
    assert usual == parse_card("QS")
    assert text_hand.call_label(usual, True) != text_hand.call_label(usual)
    assert "usual" in text_hand.call_label(usual, True)


def test_the_help_example_hand_is_the_hand_its_words_describe() -> None:
    hand = [parse_card(c) for c in text_guide._EXAMPLE_HAND]
    page = next(body for title, body in
                ((panel.title, panel.description) for panel in text_guide.help_pages())
                if "two more aces" in body or "example" in title.lower())
    assert "two more aces" in page
    hearts = [c for c in hand if card_label(c).endswith("♥")]
    aces = [c for c in hand if rank_of(c) == rank_of(parse_card("AS"))]
    assert len(hearts) == 5 and parse_card("AH") in hand and parse_card("KH") in hand
    assert len(aces) == 3  # the ace of hearts "and two more aces"
    assert text_table.usual_call([parse_card(c) for c in ("2H", "3H", "4H", "5H", "7H", "8H",
                                                     "10H", "QH")]) == parse_card("QH")
