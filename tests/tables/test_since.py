"""What a member reads above their hand after an absence (issue 35 part 4): the recap
of the record since their last move (bot/tables/since.py), worded by the game and the
platform (bot/render/text.py since_lines), at most three lines, in both languages, and
never a card the member may not see (a kitty's or an exchange's cards)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games.american.kind import AMERICAN
from bot.games.amerikaner.kind import AMERIKANER
from bot.i18n import use_locale
from bot.render import since_lines
from bot.tables.since import RECAP_ACTIONS, since_last_move
from tests.e2e.driver import cards_in_text


def _act(seat: int, n: int = 0) -> dict[str, Any]:
    return {"seat": seat, "action": "bid", "bid": n}


def test_nothing_when_the_member_moved_last_or_nobody_else_did() -> None:
    assert since_last_move([{"actions": [_act(1), _act(0)]}], 0) is None
    assert since_last_move([{"actions": []}], 0) is None
    # Their own moves in a row are not news to them.
    assert since_last_move([{"actions": [_act(1), _act(0), _act(0)]}], 0) is None


def test_the_actions_since_the_members_last_move() -> None:
    since = since_last_move([{"actions": [_act(0), _act(1, 6), _act(2, 7)]}], 0)
    assert since is not None
    assert [a["seat"] for a in since.actions] == [1, 2]
    assert not since.more and since.deal_ended is None


def test_a_move_the_ai_made_for_the_member_is_not_theirs_and_is_told() -> None:
    """Issue 52: the AI's move at the member's seat (their time ran out) does not end
    the stretch; it is told apart, however many others played since."""
    hands = [{"actions": [_act(0), _act(1), _act(0, 7), *(_act(1 + n % 2) for n in
                                                          range(RECAP_ACTIONS + 2))]}]
    assert since_last_move(hands, 0) is not None
    since = since_last_move(hands, 0, not_theirs={2})
    assert since is not None and since.first == (0, 1)
    assert [action["bid"] for _, action in since.for_them] == [7]
    assert since.more  # the AI's move is among those left out of the latest ...
    # ... and told anyway; alone (nobody else played since), it is still news.
    alone = since_last_move([{"actions": [_act(0), _act(0, 7)]}], 0, not_theirs={1})
    assert alone is not None and [a["bid"] for _, a in alone.for_them] == [7]


def test_a_panel_seen_since_is_not_told_again() -> None:
    hands = [{"actions": [_act(0), _act(1), _act(2)]}]
    assert since_last_move(hands, 0, seen=3) is None
    since = since_last_move(hands + [{"actions": [_act(3)]}], 0, seen=3)
    assert since is not None and [a["seat"] for a in since.actions] == [3]


def test_a_deal_that_ended_meanwhile_and_the_latest_actions_only() -> None:
    first = {"actions": [_act(0), *(_act(1 + n % 3) for n in range(10))]}
    second = {"actions": [*(_act(1 + n % 3) for n in range(10))]}
    since = since_last_move([first, second], 0)
    assert since is not None
    # The ended deal is told by its result; the plays named are the running deal's.
    assert since.deal_ended == 0 and since.more
    assert since.actions == tuple(second["actions"][-RECAP_ACTIONS:])
    just_dealt = since_last_move([first, {"actions": []}], 0)
    assert just_dealt is not None and just_dealt.deal_ended == 0
    assert not just_dealt.actions and not just_dealt.more
    # Within one deal: the latest RECAP_ACTIONS, the earlier ones marked as left out.
    since = since_last_move([first], 0)
    assert since is not None and since.more and since.deal_ended is None
    assert since.actions == tuple(first["actions"][-RECAP_ACTIONS:])
    # Never acted: everything so far, up to the recap's length.
    assert since_last_move([{"actions": [_act(1)]}], 0) is not None


@pytest.mark.parametrize("language, since, then, turn", [
    ("en", "Since your last move: ", "Since then: ", "Now it is your turn."),
    ("nb", "Siden ditt forrige trekk: ", "Siden da: ", "Nå er det din tur."),
])
def test_at_most_three_lines_in_the_members_language(language: str, since: str,
                                                     then: str, turn: str) -> None:
    played = [(f"player {n}", "a long description of what they did " * 5)
              for n in range(6)]
    with use_locale(language):
        lines = since_lines(played, True, 2, "12 points", None, True)
        other = since_lines(played[:1], False, None, None, "bob", False)
        dealt = since_lines([], False, 0, None, None, True)
    assert len(lines) == 3 and all(len(line) <= 300 for line in lines)
    assert "3" in lines[0] and "12 points" in lines[0]
    assert lines[1].startswith(then + "… ") and lines[2] == turn
    assert len(other) == 2 and other[0].startswith(since) and "bob" in other[1]
    assert len(dealt) == 2 and "1" in dealt[0] and dealt[1] == turn


@pytest.mark.parametrize("kind", [AMERIKANER, AMERICAN], ids=lambda k: k.name)
def test_the_recap_never_shows_a_card_hidden_from_the_member(kind: Any) -> None:
    """Whole games played by the AI: each time seat 0 is to act, its recap, worded by
    the game, names no card its own view hides (an exchange, a discard, a kitty)."""
    for seed in range(3):
        rng = random.Random(seed)
        rules = kind.make_rules(None, kind.default_players, {})
        game, _ = kind.new_game(rules, 0, rng)
        hands: list[dict[str, Any]] = [{"actions": []}]
        recaps = 0
        for _step in range(2000):
            seat = kind.to_act(game)
            if seat is None:
                break
            if seat == 0:
                since = since_last_move(hands, 0)
                if since is not None:
                    played = [(str(a["seat"]), kind.words.describe_action(a))
                              for a in since.actions]
                    text = "\n".join(since_lines(played, since.more, since.deal_ended,
                                                 None, None, True))
                    leaked = cards_in_text(text) & set(kind.secret_cards(game, 0))
                    assert not leaked, text
                    recaps += 1
            applied = kind.apply(game, kind.choose_action(game, seat, kind.ai_levels[0],
                                                          rng), rng)
            hands[applied.deal_index]["actions"].append(applied.action)
            if applied.next_deal is not None:  # dealt with the move, as the store has it
                hands.append({"actions": []})
        assert recaps > 10


def test_where_the_stretch_begins() -> None:
    """The recap knows where the member's absence began, deal and action, so a game can
    tell what happened from there on (GameWords.recap_facts)."""
    hands = [{"actions": [_act(1), _act(0), _act(1), _act(2)]}, {"actions": [_act(1)]}]
    since = since_last_move(hands, 0)
    assert since is not None and since.first == (0, 2)
    assert since.start_in(0) == 2 and since.start_in(1) == 0
    later = since_last_move([*hands, {"actions": [_act(2)]}], 1)
    assert later is not None and later.first == (2, 0)
    assert later.start_in(1) is None and later.start_in(2) == 0


def _played(kind: Any, seed: int, until: Any) -> tuple[Any, list[dict[str, Any]]]:
    """A game of `kind` played by its AI until `until(game, applied)` says stop, with
    its record's deals (each with its actions)."""
    rng = random.Random(seed)
    rules = kind.make_rules(None, kind.default_players, {})
    game, _ = kind.new_game(rules, 0, rng)
    hands: list[dict[str, Any]] = [{"actions": []}]
    while kind.to_act(game) is not None:
        seat = kind.to_act(game)
        applied = kind.apply(game, kind.choose_action(game, seat, kind.ai_levels[0], rng), rng)
        hands[applied.deal_index]["actions"].append(applied.action)
        if applied.next_deal is not None:
            hands.append({"actions": []})
        if until(game, applied):
            break
    return game, hands


NAMES = ["alice", "bob", "carol", "dave", "erin"]


@pytest.mark.parametrize("seed", range(4))
def test_amerikaner_names_who_took_the_tricks_and_the_hands_result(seed: int) -> None:
    """The tricks completed since an action, counted per winner as the hand's history
    has them, and a finished hand's result ("bob with carol made 8"), in both
    languages."""
    game, hands = _played(AMERIKANER, seed, lambda g, a: a.deal_finished)
    hand = game.hands[0]
    facts = AMERIKANER.words.recap_facts(game, 0, 0, NAMES)
    counts = {NAMES[s]: hand.history.count(t) for t in hand.history for s in [t[2]]}
    won = {NAMES[seat]: sum(1 for *_, w in hand.history if w == seat)
           for seat in range(hand.n) if any(w == seat for *_, w in hand.history)}
    assert counts  # the hand was played out
    for name, count in won.items():
        assert f"{name} took {count} trick" in "; ".join(facts), facts
    assert len(facts) == len(won) + 1 and facts[-1]  # and the result, last
    if hand.bidder >= 0 and hand.outcome in ("made", "failed"):
        assert NAMES[hand.bidder] in facts[-1] and hand.outcome in facts[-1], facts
    # From the last trick's last card on: that trick alone.
    last = max(i for i, a in enumerate(hand.actions) if a.kind == "play")
    only = AMERIKANER.words.recap_facts(game, 0, last, NAMES)
    assert only[0] == f"{NAMES[hand.history[-1][2]]} took 1 trick", only
    with use_locale("nb"):
        norsk = AMERIKANER.words.recap_facts(game, 0, 0, NAMES)
    assert any("stikk" in fact for fact in norsk), norsk


@pytest.mark.parametrize("seed", range(4))
def test_american_names_pickups_burns_and_who_went_out(seed: int) -> None:
    """Pickups, burns and who went out, from a deal's record replayed (they are
    consequences, not actions), from a given action on; a finished deal names its
    winner (the first out), not twice."""
    from bot.games.american.actions import PICKUP

    game, _hands = _played(AMERICAN, seed, lambda g, a: a.deal_finished)
    deal = game.deals[0]
    facts = AMERICAN.words.recap_facts(game, 0, 0, NAMES)
    told = "; ".join(facts)
    winner = NAMES[deal.places[0]]
    assert facts[-1] == f"{winner} won the deal" and "went out first" not in told, facts
    pickups = sum(1 for a in deal.actions if a.kind == PICKUP)
    said = sum(int(f.split(" times")[0].rsplit(" ", 1)[-1]) if f.endswith("times") else 1
               for f in facts if "picked up the pile" in f)
    assert said >= pickups  # a turned-over card that could not go on takes it too
    if deal.burned:
        assert "burned the pile" in told, facts
    # Nothing after the deal's last action: only its result.
    assert AMERICAN.words.recap_facts(game, 0, len(deal.actions), NAMES) == facts[-1:]
    with use_locale("nb"):
        norsk = AMERICAN.words.recap_facts(game, 0, 0, NAMES)
    assert norsk[-1] != facts[-1]  # worded in bokmål


def test_the_games_facts_come_first_within_three_lines() -> None:
    lines = since_lines([("bob", "7♠")], False, 0, "12 points", "carol", False,
                        ["bob with carol made 8"], ["alice took 1 trick"])
    assert lines == ["Deal 1 is over: bob with carol made 8. You: 12 points",
                     "Since then: alice took 1 trick; bob: 7♠", "Now it is carol's turn."]
    only_facts = since_lines([], False, None, None, None, True, (), ["bob took 2 tricks"])
    assert only_facts == ["Since your last move: bob took 2 tricks", "Now it is your turn."]
