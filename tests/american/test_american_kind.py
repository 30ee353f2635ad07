"""American through the GameKind protocol, as the table platform drives it: rules and
house rules, actions applied whole or refused whole, the next deal dealt as one ends, the
store's record loading back to the same game and exporting as american-record/1, results,
panels that never show a hidden card, claims refused, hints and reviews."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import GameError
from bot.games import GAMES
from bot.games.american.actions import Action
from bot.games.american.kind import AMERICAN
from bot.games.american.record import FORMAT, game_to_record, replay
from bot.games.american.rules import BOOLEAN_OPTIONS
from bot.games.american.views import deal_view, known_cards, legal_action_list
from tests.e2e.american_leaks import hidden_from_public
from tests.e2e.driver import cards_in_text

KIND = AMERICAN
NAMES = ["alice", "bob", "carol", "dave", "erin"]


def _text(panel: object) -> str:
    parts = [panel.title, panel.description, panel.footer or ""]  # type: ignore[attr-defined]
    for name, value, _ in panel.fields:  # type: ignore[attr-defined]
        parts += [name, value]
    return "\n".join(parts)


def test_the_registry_and_the_rules() -> None:
    assert GAMES["american"] is KIND and KIND.ai_levels == ("easy", "strong")
    assert KIND.default_players == 2
    rules = KIND.make_rules(None, 3, {"swap": True, "target": 2})
    assert KIND.players(rules) == 3
    assert KIND.rules_from_json(KIND.rules_to_json(rules)) == rules
    house = KIND.house_rules(rules)
    assert [key for key, _, _ in house] == list(BOOLEAN_OPTIONS)
    assert all(what and " " in what for _, what, _ in house)  # plain words
    assert [key for key, _, on in house if on] == ["swap"]
    changed = KIND.with_house_rules(rules, ["same_rank", "four_burns"])
    assert changed.options == {"same_rank", "four_burns"} and changed.target == 2
    for players, options in [(6, {}), (2, {"jokers": True}), (2, {"target": 0})]:
        with pytest.raises(GameError) as refused:
            KIND.make_rules(None, players, options)
        assert refused.value.code == "invalid_rules"
        assert KIND.words.error_text(refused.value) != "invalid_rules"


def _play(seed: int, players: int, options: dict[str, object], limit: int = 3000
          ) -> tuple[object, list[dict[str, object]]]:
    """A game played out through the protocol with the lowest rank mostly (so that deals
    end), storing what the store would."""
    rng = random.Random(seed)
    rules = KIND.make_rules(None, players, options)
    game, first = KIND.new_game(rules, rng.randrange(players), rng)
    stored = [{**first, "actions": []}]
    for _ in range(limit):
        seat = KIND.to_act(game)
        if seat is None:
            break
        view = KIND.seat_view(game, seat).deal
        actions = legal_action_list(seat, view.legal)
        action = actions[0] if rng.random() < 0.8 else rng.choice(actions)
        panel = _text(KIND.words.table_panel(game, NAMES[:players]))
        assert not cards_in_text(panel) & hidden_from_public(game.current)
        mine = _text(KIND.words.seat_panel(game, seat, NAMES[:players]))
        assert cards_in_text(mine) <= known_cards(view)
        applied = KIND.apply(game, action, rng)
        assert applied.deal_index == len(stored) - 1
        assert applied.seq == len(stored[-1]["actions"])
        stored[-1]["actions"].append(applied.action)
        assert (applied.next_deal is not None) == (applied.deal_finished
                                                   and not KIND.finished(game))
        if applied.next_deal is not None:
            stored.append({**applied.next_deal, "actions": []})
    return game, stored


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5),
       flags=st.sets(st.sampled_from(BOOLEAN_OPTIONS)))
def test_games_through_the_protocol_load_back_and_export(seed: int, players: int,
                                                         flags: set[str]) -> None:
    options: dict[str, object] = {name: True for name in flags}
    options["target"] = 2
    game, stored = _play(seed, players, options)
    record = {"format": "amerikaner-record/1", "rules": KIND.rules_to_json(game.rules),
              "first_dealer": game.first_dealer, "hands": stored}
    loaded = KIND.load(record)
    assert game_to_record(loaded) == game_to_record(game)
    assert KIND.version(loaded) == KIND.version(game) == sum(
        len(d["actions"]) for d in stored)
    exported = KIND.record(record)
    assert exported["format"] == FORMAT and exported == game_to_record(game)
    assert "error" not in replay(exported)
    if KIND.finished(game):
        results = KIND.results(game)
        assert sorted(r.place for r in results)[0] == 1
        assert [r.seat for r in results if r.won] == game.winners
        assert _text(KIND.words.final_standings(game, NAMES[:players])).startswith("Game over")


def test_a_refused_action_changes_nothing_and_is_worded() -> None:
    rng = random.Random(5)
    game, _ = KIND.new_game(KIND.make_rules(None, 2, {}), 0, rng)
    seat = KIND.to_act(game)
    before = game_to_record(game)
    hand = KIND.seat_view(game, seat).deal.hand
    other = next(c for c in range(52) if c not in hand)
    for action in (Action.play(seat, (other,)), Action.pickup(seat),
                   Action.play(1 - seat, (hand[0],)), Action.flip(seat, 0)):
        with pytest.raises(GameError) as refused:
            KIND.apply(game, action, rng)
        assert KIND.words.error_text(refused.value) != refused.value.code
    assert game_to_record(game) == before


def test_claims_hints_and_reviews() -> None:
    rng = random.Random(8)
    game, _ = KIND.new_game(KIND.make_rules(None, 2, {"target": 2}), 0, rng)
    seat = KIND.to_act(game)
    assert not KIND.can_claim(game, seat)
    with pytest.raises(GameError) as refused:
        KIND.claim(game, seat)
    assert "no claim" in KIND.words.error_text(refused.value)
    hint = KIND.hint(game, seat, rng)
    assert hint.sentence.startswith("The strong AI would ") and " Why: " in hint.sentence
    with pytest.raises(GameError):
        KIND.hint(game, 1 - seat, rng)
    with pytest.raises(GameError) as refused:
        KIND.words.deal_review(game, 0, NAMES[:2])  # being played: it would show every card
    assert refused.value.code == "deal_not_finished"
    assert "cannot be shown face up" in KIND.words.error_text(refused.value)
    while len(game.deals) < 2 and KIND.to_act(game) is not None:
        s = KIND.to_act(game)
        KIND.apply(game, legal_action_list(s, KIND.seat_view(game, s).deal.legal)[0], rng)
    review = _text(KIND.words.deal_review(game, 0, NAMES[:2]))
    state = game.deals[0]
    assert set(state.deal.cards()) <= cards_in_text(review)  # every card, face up
    assert review.startswith("Deal 1 face up")


def test_the_seat_panel_lists_the_hand_one_rank_a_line() -> None:
    rng = random.Random(2)
    game, _ = KIND.new_game(KIND.make_rules(None, 2, {}), 0, rng)
    seat = KIND.to_act(game)
    view = deal_view(game.current, seat)
    panel = KIND.words.seat_panel(game, seat, NAMES[:2])
    ranks = sorted({c % 13 for c in view.hand})
    from bot.cards import RANKS

    lines = [line for line in panel.description.splitlines() if " · " in line
             and line.split(" · ")[0] in RANKS]
    assert [line.split(" · ")[0] for line in lines] == [RANKS[r] for r in ranks]
    assert "Your turn" in panel.description and "Face down: 3 cards" in panel.description
    assert not set(game.current.down[seat]) & cards_in_text(_text(panel))


@pytest.mark.parametrize("action", [
    {"seat": 0, "action": "play", "cards": ["7S", "7H"]},
    {"seat": 1, "action": "pickup"},
    {"seat": 0, "action": "swap", "hand": ["3C"], "up": ["KD"]},
    {"seat": 0, "action": "swap", "hand": [], "up": []},
    {"seat": 1, "action": "flip", "index": 2},
])
def test_every_action_is_described(action: dict[str, object]) -> None:
    assert KIND.words.describe_action(action)


def test_settings_stats_and_help() -> None:
    assert "2 players" in KIND.words.settings_text({}, False)
    saved = KIND.words.settings_text({"players": 3, "options": {"swap": True}, "turn_timer": 5},
                               True)
    # The turn timer is the platform's to word, as people say it (cogs/tables/settings.py).
    assert saved.startswith("Saved.") and "swap" in saved and "minute" not in saved
    assert KIND.words.stats_lines({})[0] == "Deals won (out first): 0 of 0"
    pages = KIND.words.help_pages()
    assert len(pages) >= 3 and any("example" in p.title.lower() for p in pages)
    assert "/american" in KIND.words.help_text()
    assert "same_rank" in KIND.words.rules_text(KIND.make_rules(None, 2, {"same_rank": True}))
