"""Amerikaner's words (bot/games/amerikaner/text_*.py), built from views and seat names."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.errors import GameError
from bot.games.amerikaner.actions import INVALID_BID
from bot.games.amerikaner.hand import FAILED, MADE
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.text_refusals import error_sentence
from bot.games.amerikaner.text_results import deal_summary, final_standings
from bot.games.amerikaner.text_table import describe_action, table_panel
from bot.games.amerikaner.views import GameView, HandView, hand_view
from bot.tables.panel import GOLD, GREEN, RED
from tests.core_helpers import new_hand, parse_step

NAMES = ["alice", "bob", "AI 1 (easy)", "dave (away, AI plays)"]


def _done(outcome: str, bidder: int, partner: int | None, contract: int,
          scores: tuple[int, ...], tricks: tuple[int, ...]) -> HandView:
    """A finished hand's public view (a real view, its result filled in)."""
    return replace(hand_view(new_hand()), phase="done", to_act=None, bidder=bidder,
                   high_bidder=bidder, contract=contract, partner=partner, outcome=outcome,
                   scores=scores, tricks_won=tricks)


def _after(hand: HandView, number: int, totals: tuple[int, ...]) -> GameView:
    return GameView(rules=hand.rules, hand_number=number, totals=totals, finished=False,
                    winners=(), hand=hand)


def test_summary_of_a_made_hand() -> None:
    hand = _done(MADE, 0, 2, 8, (8, 2, 8, 1), (6, 2, 3, 1))
    panel = deal_summary(_after(hand, 3, (20, 5, 18, 2)), NAMES)
    assert panel.title == "Hand 3: alice with AI 1 (easy) made 8"
    assert panel.colour == GREEN
    assert panel.description.splitlines() == [
        "**alice**: 6 tricks, +8 → 20", "**bob**: 2 tricks, +2 → 5",
        "**AI 1 (easy)**: 3 tricks, +8 → 18", "**dave (away, AI plays)**: 1 trick, +1 → 2"]


def test_summary_of_a_failed_hand_alone() -> None:
    hand = _done(FAILED, 1, None, 9, (3, -9, 4, 5), (3, 0, 4, 5))
    panel = deal_summary(_after(hand, 4, (23, -4, 22, 7)), NAMES)
    assert panel.title == "Hand 4: bob alone failed 9"
    assert panel.colour == RED
    assert panel.description.splitlines()[1] == "**bob**: 0 tricks, -9 → -4"


def test_final_standings_with_co_winners_and_one_winner() -> None:
    rules = hand_view(new_hand()).rules
    view = GameView(rules=rules, hand_number=7, totals=(52, 30, 52, 10), finished=True,
                    winners=(0, 2), hand=None)
    panel = final_standings(view, NAMES)
    assert panel.title == "Game over — alice and AI 1 (easy) win!"
    assert panel.colour == GOLD
    assert panel.description.splitlines() == [
        "🥇 **alice** — 52", "🥈 **AI 1 (easy)** — 52", "🥉 **bob** — 30",
        "4. **dave (away, AI plays)** — 10"]
    assert panel.footer == "7 hands · /amerikaner export for the record"
    alone = final_standings(replace(view, totals=(52, 30, 40, 10), winners=(0,)), NAMES)
    assert alone.title == "Game over — alice wins!"


def test_table_panel_shows_the_public_view_only() -> None:
    hand = new_hand(fixed={1: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"})
    hand.apply(parse_step("1 bid 7"))
    rules = hand.rules
    view = GameView(rules=rules, hand_number=2, totals=(1, 2, 3, 4), finished=False,
                    winners=(), hand=hand_view(hand))
    panel = table_panel(view, NAMES)
    # The preset by its name (issue 27), not its key.
    assert panel.description.startswith("Hand 2 · Bidding · Amerikaner · 4 players · to 52")
    assert "**AI 1 (easy)** to bid or pass." in panel.description
    assert dict((n, v) for n, v, _ in panel.fields)["Bidding"] == "bob: 7"
    assert "A♠" not in str(panel) and "♠ A" not in str(panel)  # bob's hand is his


def test_describe_action_and_refusals() -> None:
    assert describe_action(parse_step("1 pass")) == "a pass"
    assert describe_action(parse_step("1 bid amerikaner")) == "a bid of Amerikaner"
    assert describe_action(parse_step("2 discard 2C 3C")) == "a discard of 2 cards"
    assert describe_action(parse_step("0 play AS")) == "the A♠"
    rules = hand_view(new_hand()).rules
    typed = GameError(INVALID_BID, reason="typed", text="x\x00y", min_bid=rules.min_bid,
                      max_bid=rules.max_bid, top_bid=rules.top_bid)
    assert error_sentence(typed) == ("'xy' is not a bid: bid a number from 6 to 12, "
                                     "amerikaner, or pass.")


def test_the_kind_renders_a_played_hand_from_its_views() -> None:
    kind = AMERIKANER
    rng = random.Random(5)
    game, _ = kind.new_game(kind.make_rules("amerikaner", 4, {}), 0, rng)
    while len(game.hands) == 1:
        seat = kind.to_act(game)
        kind.apply(game, kind.choose_action(game, seat, "easy", rng), rng)
    names = ["a", "b", "c", "d"]
    summary = kind.words.deal_summary(game, 0, names)
    assert summary.title.startswith("Hand 1: ")
    rows = summary.description.splitlines()
    assert [row.rsplit("→ ", 1)[1] for row in rows] == [str(t) for t in game.hand_totals[0]]
    panel = kind.words.table_panel(game, names)
    assert panel.description.startswith("Hand 2 · ")
    assert kind.words.describe_action({"seat": 1, "action": "bid", "bid": 8}) == "a bid of 8"


def test_a_clash_of_house_rules_names_them_in_words() -> None:
    """Refused house rules are named as the lobby's menu names them, never by their keys
    (issue 35: no snake_case a player reads), in both languages."""
    from bot.errors import INVALID_RULES
    from bot.i18n import use_locale

    clashes = [GameError(INVALID_RULES, reason="exclusive",
                         options=("bidder_double", "partner_half")),
               GameError(INVALID_RULES, reason="not_for_preset", option="no_kitty",
                         preset="kani")]
    for locale, words in (("en", ("bidder scores double", "no kitty")),
                          ("nb", ("spillføreren får dobbelt", "uten talong"))):
        with use_locale(locale):
            texts = [AMERIKANER.words.error_text(error) for error in clashes]
        assert not any("_" in text for text in texts), texts
        assert all(word in text for word, text in zip(words, texts, strict=True)), texts
