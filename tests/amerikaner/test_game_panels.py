"""What Amerikaner's panels show (bot/games/amerikaner/text_*.py through the GameKind): the
hand panel shows what a player at a real table sees and nothing hidden, the table panel
the trick and who is winning it, and a finished deal face up in its review."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import RANKS, card_label, mask_of
from bot.errors import GameError
from bot.games.amerikaner.ai.random_player import random_action
from bot.games.amerikaner.game import Game
from bot.games.amerikaner.hand import BID, EXCHANGE, Hand
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.text_hand import seat_panel
from bot.games.amerikaner.text_table import hand_lines, table_panel
from bot.games.amerikaner.views import GameView, hand_view
from bot.render import fit_panel
from bot.tables.panel import Panel
from tests.core_helpers import card, make_deal, run
from tests.e2e.driver import cards_in_text, hidden_from_public

KIND = AMERIKANER
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
TOTALS = (12, -5, 3, 0)


def _text(panel: Panel) -> str:
    return "\n".join([panel.title, panel.description, panel.footer or "",
                      *(f"{name}\n{value}" for name, value, _inline in panel.fields)])


def _field(panel: Panel, name: str) -> str | None:
    return next((value for field, value, _inline in panel.fields if field == name), None)


def _seat(hand: Hand, seat: int) -> Panel:
    return seat_panel(hand_view(hand, seat), NAMES[:hand.n], TOTALS)


def _table(hand: Hand) -> Panel:
    view = GameView(rules=hand.rules, hand_number=1, totals=TOTALS, finished=False,
                    winners=(), hand=hand_view(hand))
    return table_panel(view, NAMES[:hand.n])


def _called_hand() -> Hand:
    """bob (seat 1) bids 7 and leads K♠ calling A♠, which carol (seat 2) holds."""
    rules = KIND.make_rules("amerikaner", 4, {"no_kitty": True})
    deal = make_deal(rules, {1: "KS QS JS 10S 9S AH KH QH JH AD KD QD JD",
                             2: "AS 2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 5D"})
    hand = Hand(rules, 0, deal)
    return run(hand, "1 bid 7", "2 pass", "3 pass", "0 pass", "1 play KS call AS")


def test_a_panel_mid_trick_names_who_is_winning_it_now() -> None:
    hand = _called_hand()
    assert _field(_seat(hand, 3), "Current trick") == "bob K♠ · winning: **bob**"
    run(hand, "2 play AS")
    for seat in range(4):
        assert _field(_seat(hand, seat), "Current trick") == (
            "bob K♠, carol A♠ · winning: **carol**")
    assert _field(_table(hand), "Current trick") == "bob K♠, carol A♠ · winning: **carol**"
    assert _field(_seat(hand, 3), "Last trick") is None


def test_after_a_trick_the_panels_show_it_and_who_took_it() -> None:
    hand = run(_called_hand(), "2 play AS", "3 play 2C", "0 play 6S")
    last = "bob K♠, carol A♠, dave 2♣, alice 6♠ → **carol**"
    for panel in (*(_seat(hand, seat) for seat in range(4)), _table(hand)):
        assert _field(panel, "Last trick") == last
        assert _field(panel, "Current trick") is None
    run(hand, "2 play 2S")
    assert _field(_seat(hand, 0), "Current trick") == "carol 2♠ · winning: **carol**"
    assert _field(_seat(hand, 0), "Last trick") == last


def test_the_holder_of_the_called_card_knows_it_is_the_partner_and_nobody_else_does() -> None:
    hand = _called_hand()
    holder = _seat(hand, 2)
    assert _field(holder, "Called") == "A♠ — partner: **you**"
    assert "**carol** (partner)" in (_field(holder, "Scores") or "")
    for panel in (_seat(hand, 0), _seat(hand, 1), _seat(hand, 3), _table(hand)):
        assert _field(panel, "Called") == "A♠ — partner: not yet shown"
        assert "(partner)" not in _text(panel)
    run(hand, "2 play AS")
    for seat in (0, 1, 3):
        assert _field(_seat(hand, seat), "Called") == "A♠ — partner: carol"
    assert _field(_table(hand), "Called") == "A♠ — partner: carol"


def test_the_panel_shows_the_contract_the_tricks_of_the_seat_and_its_side_and_the_scores(
        ) -> None:
    hand = run(_called_hand(), "2 play AS", "3 play 2C", "0 play 6S")
    bidder = _seat(hand, 1)
    assert _field(bidder, "Contract") == "bob 7" and _field(bidder, "Trump") == "♠ spades"
    assert _field(bidder, "Tricks") == "You: 0 tricks · your side: 1 trick"
    assert _field(_seat(hand, 3), "Tricks") == "You: 0 tricks · your side: 0 tricks"
    scores = (_field(bidder, "Scores") or "").splitlines()
    assert scores[0] == "**alice** (dealer) — 12 pts, 0 tricks"
    assert scores[1] == "**bob** (bidder 7) — -5 pts, 0 tricks"
    assert scores[2] == "▶ **carol** (partner) — 3 pts, 1 trick"
    assert scores[3] == "**dave** — 0 pts, 0 tricks"


def test_before_the_partner_is_known_a_seat_sees_only_its_own_tricks() -> None:
    hand = _called_hand()
    assert _field(_seat(hand, 1), "Tricks") == "You: 0 tricks"
    assert _field(_seat(hand, 2), "Tricks") == "You: 0 tricks · your side: 0 tricks"
    bidding = _seat(Hand(hand.rules, 0, hand.deal), 1)
    assert _field(bidding, "Tricks") is None and _field(bidding, "Bidding") == "No bids yet."


def test_the_hand_is_one_suit_a_line_short_enough_for_a_phone() -> None:
    panel = _seat(_called_hand(), 2)
    lines = panel.description.splitlines()
    assert lines[:4] == ["**Your cards** (13)", "♠ A 5 4 3 2", "♥ 5 4 3 2", "♦ 5 4 3 2"]
    assert "**Your turn:** play a card." in lines
    spades = hand_lines([card(rank + "S") for rank in RANKS])
    assert spades == ["♠ A K Q J 10 9 8 7 6 5 4 3 2"] and len(spades[0]) <= 30
    assert hand_lines([card("JK2"), card("2C"), card("AH"), card("JK1")]) == [
        "♥ A", "♣ 2", "🃏 Joker 1 Joker 2"]


def test_the_kitty_is_sorted_like_a_hand_wherever_it_is_shown() -> None:
    rules = KIND.make_rules("amerikaner", 4, {"show_kitty": True})
    deal = make_deal(rules, kitty="2C AS 3H KS")
    hand = run(Hand(rules, 0, deal), "1 bid 7", "2 pass", "3 pass", "0 pass")
    assert _field(_table(hand), "Kitty (shown)") == "♠ A K · ♥ 3 · ♣ 2"
    plain = KIND.make_rules("amerikaner", 4, {})
    hand = run(Hand(plain, 0, make_deal(plain, kitty="2C AS 3H KS")),
               "1 bid 7", "2 pass", "3 pass", "0 pass")
    assert "The kitty held: ♠ A K · ♥ 3 · ♣ 2" in _seat(hand, 1).description
    assert "kitty" not in _seat(hand, 2).description.lower()


# ----------------------------------------------------------------- nothing hidden

def _hidden_from(hand: Hand, seat: int) -> int:
    """The cards `seat` may not know now, from the true state of the hand."""
    hidden = hidden_from_public(hand) & ~hand.hands[seat]
    bidding_over = hand.phase not in (EXCHANGE, BID) and hand.bidder >= 0
    if bidding_over and seat == hand.bidder:
        hidden &= ~(hand.discards | mask_of(hand.deal.kitty))
    for action in hand.actions:
        if action.kind == "exchange" and action.seat == seat:
            hidden &= ~mask_of(action.cards)  # it knows what it gave the blind
    return hidden


_TABLES = [("amerikaner", 4, {}), ("amerikaner", 3, {}), ("amerikaner", 4, {"show_kitty": True}),
           ("amerikaner", 5, {"jokers": True}), ("amerikaner", 6, {"jokers": True}),
           ("norsk", 5, {}), ("norsk", 6, {}), ("kani", 4, {}),
           ("amerikaner", 4, {"all_pass_play": True, "free_trump": True})]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), table=st.sampled_from(_TABLES))
def test_no_seat_panel_shows_a_card_hidden_from_that_seat_and_each_fits_an_embed(
        seed: int, table: tuple[str, int, dict[str, object]]) -> None:
    preset, players, options = table
    rng = random.Random(seed)
    rules = KIND.make_rules(preset, players, {**options, "target": 500})
    game, _deal = KIND.new_game(rules, 0, rng)
    names = NAMES[:players]
    while len(game.hands) == 1:
        hand = game.current
        assert hand is not None
        for seat in range(players):
            panel = KIND.words.seat_panel(game, seat, names)
            assert fit_panel(panel) == panel  # within Discord's limits as it is
            text = _text(panel)
            shown = mask_of(cards_in_text(text))
            assert not shown & _hidden_from(hand, seat), (seat, text)
            holder = hand.called_holder
            if hand.called >= 0 and hand.partner < 0 and seat != holder:
                assert "(partner)" not in text and "partner: **" not in text, text
        seat = KIND.to_act(game)
        assert seat is not None
        KIND.apply(game, random_action(KIND.seat_view(game, seat), rng), rng)
    _check_review(game, 0, names)


# ----------------------------------------------------------------- the review

_TRICK_ROW = re.compile(r"^(\d+)\. (.*) → \*\*(.+)\*\*$")


def _check_review(game: Game, index: int, names: list[str]) -> None:
    """The review of a finished deal: every hand as dealt, every trick in order with its
    leader first and its taker, within Discord's limits without cutting."""
    panel = KIND.words.deal_review(game, index, names)
    assert fit_panel(panel) == panel
    hand = game.hands[index]
    for seat, cards in enumerate(hand.deal.hands):
        assert _field(panel, f"{names[seat]} — dealt") == "\n".join(hand_lines(cards))
    rows = [row for field, value, _inline in panel.fields if field.startswith("Trick")
            for row in value.splitlines()]
    assert len(rows) == len(hand.history)
    for number, (row, (leader, cards, winner)) in enumerate(
            zip(rows, hand.history, strict=True), 1):
        match = _TRICK_ROW.match(row)
        assert match is not None, row
        assert int(match[1]) == number and match[3] == names[winner]
        plays = [(names[(leader + i) % hand.n], card_label(c)) for i, c in enumerate(cards)]
        assert match[2] == ", ".join(f"{name} {label}" for name, label in plays)


def _finished_deal(preset: str, players: int, options: dict[str, object], seed: int
                   ) -> Game:
    """A game whose first deal was played to its last trick (AI players)."""
    for attempt in range(50):
        rng = random.Random(seed + attempt)
        rules = KIND.make_rules(preset, players, {**options, "target": 500})
        game, _deal = KIND.new_game(rules, 0, rng)
        while len(game.hands) == 1:
            seat = KIND.to_act(game)
            assert seat is not None
            KIND.apply(game, KIND.choose_action(game, seat, "easy", rng), rng)
        if game.hands[0].history:
            return game
    raise AssertionError("no played deal")


def test_the_review_shows_the_deal_the_kitty_the_discards_and_every_trick() -> None:
    game = _finished_deal("amerikaner", 4, {}, 7)
    names = NAMES[:4]
    panel = KIND.words.deal_review(game, 0, names)
    hand = game.hands[0]
    bidder = names[hand.bidder]
    assert panel.title.startswith("Hand 1: ")
    assert panel.description.startswith("**Bidding:** ")
    assert f"Contract: {bidder} " in panel.description
    discards = next(a.cards for a in hand.actions if a.kind == "discard")
    kitty = _field(panel, "Kitty")
    assert kitty is not None and cards_in_text(kitty) == set(hand.deal.kitty)
    assert kitty == "\n".join(hand_lines(hand.deal.kitty)).replace("\n", " · ")
    shown = _field(panel, f"{bidder} discarded")
    assert shown is not None and cards_in_text(shown) == set(discards)
    result = (_field(panel, "Result") or "").splitlines()
    assert [row.rsplit("→ ", 1)[1] for row in result] == [str(t) for t in game.hand_totals[0]]
    _check_review(game, 0, names)


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("norsk", 6, {}), ("amerikaner", 6, {"jokers": True}),
    ("amerikaner", 3, {"no_kitty": True}), ("norsk", 3, {})])
def test_the_review_fits_an_embed_with_long_names(preset: str, players: int,
                                                  options: dict[str, object]) -> None:
    game = _finished_deal(preset, players, options, 1)
    names = [f"{'Wolfeschlegelsteinhausen'[:20]} {seat} (away, AI plays)"
             for seat in range(players)]
    panel = KIND.words.deal_review(game, 0, names)
    assert fit_panel(panel) == panel
    assert sum(len(n) + len(v) for n, v, _ in panel.fields) + len(panel.description) \
        + len(panel.title) <= 6000
    if preset == "norsk":
        assert _field(panel, "Blind exchanges") is not None and _field(panel, "Blind")
    _check_review(game, 0, names)


def test_the_review_refuses_the_deal_being_played_and_deals_that_are_not() -> None:
    game = _finished_deal("amerikaner", 4, {}, 3)
    assert len(game.hands) == 2 and not game.hands[1].finished
    for index in (1, 2, -1, 99):
        with pytest.raises(GameError) as refused:
            KIND.words.deal_review(game, index, NAMES[:4])
        assert refused.value.code == "deal_not_finished"
        assert KIND.words.error_text(refused.value)
    with pytest.raises(GameError) as refused:
        KIND.words.deal_review(game, 1, NAMES[:4])
    assert KIND.words.error_text(refused.value) == (
        "Hand 2 cannot be shown face up: it is not over, or there is no such hand yet.")
    assert KIND.words.deal_review(game, 0, NAMES[:4]).title.startswith("Hand 1")
