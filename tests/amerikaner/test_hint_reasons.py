"""The reasons a hint gives (ai/reasons.py of each game, worded in its text_guide.py): for
constructed positions, the reason code of a move, and its words in English and bokmål."""

from __future__ import annotations

from types import SimpleNamespace

from bot.games.american.actions import Action as AmericanAction
from bot.games.american.ai.reasons import reason as american_reason
from bot.games.american.rules import Rules as AmericanRules
from bot.games.american.text_guide import hint_reason as american_words
from bot.games.american.views import LegalActions as AmericanLegal
from bot.games.amerikaner.ai.reasons import reason, winning_after
from bot.games.amerikaner.hand import Hand
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.text_guide import hint_reason
from bot.games.amerikaner.views import hand_view
from bot.i18n import use_locale
from tests.core_helpers import cards, make_deal, parse_step, run

# bob (seat 1) bids 7 and leads K♠ calling A♠ (carol's): spades are trump.
DEAL = {0: "6S 7S 8S AC KC QC JC 10C 9C 8C 7C 6C 5C",
        1: "KS QS JS 10S 9S AH KH QH JH AD KD QD JD",
        2: "AS 2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 5D",
        3: "6H 7H 8H 9H 10H 6D 7D 8D 9D 10D 2C 3C 4C"}
BIDDING = ("1 bid 7", "2 pass", "3 pass", "0 pass")


def _hand(*steps: str) -> Hand:
    rules = AMERIKANER.make_rules("amerikaner", 4, {"no_kitty": True})
    return run(Hand(rules, 0, make_deal(rules, DEAL)), *BIDDING, *steps)


def _after(hand: Hand, *steps: str) -> Hand:
    """`hand` after `steps`, itself unchanged."""
    return run(hand.copy(), *steps)


def _why(hand: Hand, step: str) -> str:
    """The reason code of `step` (a move of the seat to act) in `hand`."""
    action = parse_step(step)
    code, _params = reason(hand_view(hand, action.seat), action, winning_after(hand, action))
    return code


def test_the_reasons_of_amerikaner_moves() -> None:
    rules = AMERIKANER.make_rules("amerikaner", 4, {"no_kitty": True})
    bidding = Hand(rules, 0, make_deal(rules, DEAL))
    assert _why(bidding, "1 bid 7") == "bid_strong"
    assert _why(bidding, "1 pass") == "pass_weak"
    assert _why(_hand(), "1 play KS call AS") == "opening_lead"
    first = _hand("1 play KS call AS")
    assert _why(first, "2 play AS") == "only_card"  # the called card must be played
    assert _why(_after(first, "2 play AS"), "3 play 2C") == "discard"
    # alice cannot beat carol's A♠: her lowest spade.
    trick = _after(first, "2 play AS", "3 play 2C")
    assert _why(trick, "0 play 6S") == "lowest_follow"
    assert _why(trick, "0 play 8S") == "follows_suit"
    # Trick 2, carol leads: a low heart (the A♥ is out), dave takes the lead.
    second = _after(trick, "0 play 6S")
    assert _why(second, "2 play 2H") == "lead_low"
    hearts = _after(second, "2 play 2H")
    assert _why(hearts, "3 play 10H") == "takes_lead"
    # alice trumps; bob, last, cannot beat a trump: he keeps his ace.
    trumped = _after(hearts, "3 play 10H", "0 play 7S")
    assert _why(trumped, "1 play JH") == "keeps_ace"
    # Trick 2 in diamonds instead: bob, last, wins it with his ace ...
    diamonds = _after(second, "2 play 2D", "3 play 6D", "0 play AC")
    assert _why(diamonds, "1 play AD") == "wins_trick"
    # ... then leads the Q♦, the highest left (his own K♦ aside); carol, his partner,
    # lets it stand.
    third = _after(diamonds, "1 play AD")
    assert _why(third, "1 play QD") == "master"
    assert _why(_after(third, "1 play QD"), "2 play 3D") == "partner_winning"


def test_amerikaner_reasons_read_in_both_languages() -> None:
    assert hint_reason("partner_winning", {}) == "Why: your partner is winning the trick."
    assert hint_reason("bid_strong", {"bid": 8}) == "Why: your hand is strong enough for 8."
    with use_locale("nb"):
        assert hint_reason("partner_winning", {}) == "Hvorfor: makkeren din vinner stikket."
        assert hint_reason("keeps_ace", {}) == "Hvorfor: du sparer esset ditt til senere."


def _american(pile: str, hand: str, play: str, options: tuple[str, ...] = ()
              ) -> tuple[str, dict[str, object]]:
    """The reason of playing `play` from `hand` on `pile` (bottom first)."""
    held = cards(hand)
    view = SimpleNamespace(pile=cards(pile), hand=held,
                           rules=AmericanRules.create(3, {o: True for o in options}),
                           legal=AmericanLegal(phase="play", cards=held, can_pickup=True))
    action = (AmericanAction.pickup(0) if play == "pickup"
              else AmericanAction.play(0, cards(play)))
    return american_reason(view, action)  # type: ignore[arg-type]


def test_the_reasons_of_american_moves() -> None:
    assert _american("5S", "10H 6C KD", "10H")[0] == "burns_ten"
    assert _american("5S 7S 7H", "7C 7D KD", "7C 7D", ("four_burns",))[0] == "burns_four"
    assert _american("5S 7S 7H", "7C 7D KD", "7C 7D")[0] != "burns_four"  # not a house rule
    assert _american("KS", "2H 6C", "2H")[0] == "two_resets"
    assert _american("5S", "2H 10C 6C KD", "6C") == ("keeps_specials", {"ranks": (0, 8)})
    assert _american("5S", "6C 6D KD", "6C 6D") == ("lowest_rank", {"count": 2})
    assert _american("5S", "6C KD", "KD") == ("sheds", {"count": 1})
    assert _american("5S", "6C", "pickup")[0] == "pile_worth_taking"


def test_american_reasons_read_in_both_languages() -> None:
    assert american_words("keeps_specials", {"ranks": (0, 8)}) == \
        "Why: it keeps your 2 and 10 for later."
    assert american_words("burns_ten", {}) == "Why: the 10 burns the pile and you play again."
    with use_locale("nb"):
        assert american_words("burns_ten", {}) == \
            "Hvorfor: tieren slår ut bunken, og du spiller igjen."
