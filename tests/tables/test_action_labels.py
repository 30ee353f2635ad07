"""Actions worded as actions (issue 51): a button says what it does, in the imperative
("Play 7♠", "Bid 7", "Pass"), apart from the record's narration ("a bid of 7", "played
7♠"), in every game and language; and the default hand panel's steps
(bot/tables/steps.py): a choice that follows another is offered after it."""

from __future__ import annotations

from bot.games import GAMES
from bot.games.base import WordsBase
from bot.i18n import use_locale
from bot.tables.steps import Choice, choices

AMERIKANER = GAMES["amerikaner"].words
AMERICAN = GAMES["american"].words


def test_each_games_buttons_are_imperative_and_its_record_narrated() -> None:
    bid = {"seat": 0, "action": "bid", "bid": 7}
    assert AMERIKANER.action_label(bid) == "Bid 7"
    assert AMERIKANER.describe_action(bid) == "a bid of 7"  # the record's words stay
    assert AMERIKANER.action_label({"seat": 0, "action": "pass"}) == "Pass"
    assert AMERIKANER.action_label({"seat": 0, "action": "discard",
                                    "cards": ["2S", "5H"]}) == "Discard 2♠ 5♥"
    assert AMERIKANER.action_label({"seat": 0, "action": "exchange", "cards": []}) \
        == "Keep my hand"
    play = {"seat": 1, "action": "play", "cards": ["7S", "7H"]}
    assert AMERICAN.action_label(play) == "Play 7♠ 7♥"
    assert AMERICAN.describe_action(play) == "7♠ 7♥"
    assert AMERICAN.action_label({"seat": 0, "action": "pickup"}) == "Pick up the pile"
    assert AMERICAN.action_label({"seat": 0, "action": "swap", "hand": ["7S"],
                                  "up": ["KC"]}) == "Swap 7♠ for K♣"
    with use_locale("nb"):
        assert AMERIKANER.action_label(bid) == "Meld 7"
        assert AMERIKANER.action_label({"seat": 0, "action": "pass"}) == "Pass"
        assert AMERICAN.action_label(play) == "Spill 7♠ 7♥"


def test_a_choice_that_follows_another_is_a_later_step() -> None:
    """The opening lead's call follows its card (and its trump, where one may be named);
    a swap's face-up cards follow its hand cards; a rank's cards follow the rank."""
    lead = [{"seat": 0, "action": "play", "card": "7S", "call": call}
            for call in ("AS", "KS")]
    assert AMERIKANER.action_steps(lead) == [
        ("Play 7♠", "Call A♠ (the usual call: the highest you lack)"),
        ("Play 7♠", "Call K♠")]
    free = [{**lead[0], "trump": "H"}, lead[0]]
    assert AMERIKANER.action_steps(free) == [
        ("Play 7♠", "♥ Hearts", "Call A♠ (the usual call: the highest you lack)"),
        ("Play 7♠", "Trump: ♠ (suit led)", "Call A♠ (the usual call: the highest you "
                                            "lack)")]
    assert AMERIKANER.action_steps([{"seat": 0, "action": "discard",
                                     "cards": ["2S", "5H"]}]) == [
        ("Discard 2♠", "and 5♥")]
    swaps = [{"seat": 0, "action": "swap", "hand": ["7S"], "up": [up]}
             for up in ("KC", "AD")]
    assert AMERICAN.action_steps(swaps) == [("Swap 7♠", "Take K♣"), ("Swap 7♠", "Take A♦")]
    plays = [{"seat": 0, "action": "play", "cards": cards}
             for cards in (["7S"], ["7H"], ["7S", "7H"], ["9C"])]
    assert AMERICAN.action_steps(plays) == [
        ("Play 7…", "Play 7♠"), ("Play 7…", "Play 7♥"), ("Play 7…", "Play 7♠ 7♥"),
        ("Play 9♣",)]
    with use_locale("nb"):
        assert AMERIKANER.action_steps(lead)[1] == ("Spill 7♠", "Spør etter K♠")
        assert AMERICAN.action_steps(swaps)[0] == ("Bytt 7♠", "Ta K♣")


def test_a_third_games_words_get_a_sensible_default() -> None:
    """A game that words no buttons gets the common verbs' imperative from the record's
    action (bot/games/labels.py), else its narration."""

    class Words(WordsBase):
        def describe_action(self, action: object) -> str:
            return "did something"

    Words.__abstractmethods__ = frozenset()  # the hooks it does not need here
    words = Words()  # type: ignore[abstract]
    assert words.action_label({"seat": 0, "card": "QH"}) == "Play Q♥"
    assert words.action_label({"seat": 0, "kind": "bid", "bid": 3}) == "Bid 3"
    assert words.action_label({"seat": 0, "action": "pass"}) == "Pass"
    assert words.action_label({"seat": 0, "action": "discard", "cards": ["2S", "3S"]}) \
        == "Discard 2♠ 3♠"
    assert words.action_label({"seat": 0, "action": "roll"}) == "did something"
    assert words.action_steps([{"seat": 0, "card": "QH"}]) == [("Play Q♥",)]
    with use_locale("nb"):
        assert words.action_label({"seat": 0, "card": "QH"}) == "Spill Q♥"


STEPS = [("Play 7♠", "Call A♠"), ("Play 7♠", "Call K♠"), ("Play 9♣",),
         ("Play 8♦", "Call A♦"), ("Exchange 2♠",), ("Exchange 2♠", "and 5♥")]
LABELS = ["Play 7♠ · Call A♠", "Play 7♠ · Call K♠", "Play 9♣", "Play 8♦ · Call A♦",
          "Exchange 2♠", "Exchange 2♠ · and 5♥"]


def test_the_default_panels_steps() -> None:
    """The first step: a label shared is a step (secondary), a label one action has
    plays it, worded whole (nothing it chooses hidden); the next step offers the next
    labels of the actions under it, and an action whose labels end there."""
    assert choices(STEPS, LABELS) == [
        Choice("Play 7♠", 0, 1, (0, 1)), Choice("Play 9♣", 2, 0, (2,)),
        Choice("Play 8♦ · Call A♦", 3, 0, (3,)), Choice("Exchange 2♠", 4, 1, (4, 5))]
    assert choices(STEPS, LABELS, 1, 1) == [Choice("Call A♠", 0, 0, (0,)),
                                           Choice("Call K♠", 1, 0, (1,))]
    assert choices(STEPS, LABELS, 5, 1) == [Choice("Exchange 2♠", 4, 0, (4,)),
                                           Choice("and 5♥", 5, 0, (5,))]
    assert choices(STEPS, LABELS, 99, 1) == [] and choices(STEPS, LABELS, 2, 3) == []
