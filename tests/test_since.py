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
