"""American records (docs/rules-american.md section 10) beyond the conformance set: the order
of the checks, malformed documents, and the round trip of a record written by the core."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from bot.games.american.game import Game
from bot.games.american.record import game_to_record, load_game, replay
from bot.games.american.rules import Rules
from bot.games.american.views import deal_view, legal_action_list


def _record(options: dict[str, object] | None = None, players: int = 2,
            actions: int = 6, seed: int = 7) -> dict[str, Any]:
    """A record of a game played at random for `actions` actions."""
    rng = random.Random(seed)
    game = Game(Rules.create(players, options or {}), 0)
    state = game.start_deal(rng=rng)
    for _ in range(actions):
        legal = deal_view(state, state.to_act).legal
        assert legal is not None
        game.apply(rng.choice(legal_action_list(state.to_act, legal)))
    return json.loads(json.dumps(game_to_record(game)))


def _error(record: object) -> tuple[object, object, object]:
    out = replay(record)
    assert "error" in out, out
    error = out["error"]
    assert isinstance(error, dict) and error["message"]
    return error["code"], error["deal"], error["action"]


def test_a_record_replays_and_says_who_is_next() -> None:
    record = _record(actions=0)
    out = replay(record)
    assert out["finished"] is False and out["wins"] == [0, 0]
    deal = out["deals"][0]  # type: ignore[index]
    assert deal["outcome"] == "in_progress" and deal["places"] == [] and deal["winner"] is None
    nxt = out["next"]
    assert isinstance(nxt, dict) and nxt["phase"] == "play" and nxt["seat"] == deal["starter"]
    state = out["state"]
    assert isinstance(state, dict) and state["deck"] == 52 - 18
    assert [s["down"] for s in state["seats"]] == [3, 3]


def test_swaps_come_first_with_no_starter_yet() -> None:
    out = replay(_record({"swap": True}, actions=0))
    assert out["deals"][0]["starter"] is None  # type: ignore[index]
    nxt = out["next"]
    assert isinstance(nxt, dict) and nxt["phase"] == "swap" and nxt["seat"] == 1
    assert len(nxt["legal"]) == 6  # the hand and the face-up cards


@pytest.mark.parametrize(("change", "code"), [
    (lambda r: r.update(format="amerikaner-record/1"), "invalid_record"),
    (lambda r: r.pop("deals"), "invalid_record"),
    (lambda r: r["deals"][0].update(deck="AS"), "invalid_record"),
    (lambda r: r["deals"][0]["actions"].append({"seat": 0, "action": "pass"}),
     "invalid_record"),
    (lambda r: r["deals"][0]["actions"][0].update(extra=1), "invalid_record"),
    (lambda r: r["deals"][0]["actions"][0].update(seat=True), "invalid_record"),
    (lambda r: r["deals"][0]["actions"][0].update(seat=2), "invalid_record"),
    (lambda r: r.update(first_dealer=2), "invalid_record"),
    (lambda r: r["rules"].update(players=6), "invalid_rules"),
    (lambda r: r["rules"]["options"].update(jokers=True), "invalid_rules"),
    (lambda r: r["deals"][0]["deck"].pop(), "invalid_deal"),
    (lambda r: r["deals"][0]["hand"][0].__setitem__(0, "ZZ"), "invalid_deal"),
])
def test_malformed_records_are_refused(change: Any, code: str) -> None:
    record = _record()
    change(record)
    assert _error(record)[0] == code


def test_the_shape_is_checked_before_the_rules_and_the_rules_before_the_deals() -> None:
    record = _record()
    record["rules"]["players"] = 9
    record["deals"][0]["deck"].pop()
    assert _error(record) == ("invalid_rules", None, None)
    record["deals"][0]["actions"][3]["bogus"] = True
    assert _error(record) == ("invalid_record", 0, 3)


def test_the_order_of_action_refusals() -> None:
    record = _record()
    first = record["deals"][0]["actions"][0]
    other = 1 - first["seat"]
    # Another seat naming a card that is no card: the turn is judged first.
    record["deals"][0]["actions"][0] = {"seat": other, "action": "play", "cards": ["XX"]}
    assert _error(record) == ("not_your_turn", 0, 0)
    # Another seat, in the wrong phase (a flip without blind_down): the phase comes first.
    record["deals"][0]["actions"][0] = {"seat": other, "action": "flip", "index": 9}
    assert _error(record) == ("wrong_phase", 0, 0)
    record["deals"][0]["actions"][0] = {"seat": first["seat"], "action": "play",
                                        "cards": ["XX"]}
    assert _error(record) == ("invalid_card", 0, 0)
    record["deals"][0]["actions"][0] = {"seat": first["seat"], "action": "play", "cards": []}
    assert _error(record) == ("wrong_card_count", 0, 0)


def test_an_unfinished_deal_followed_by_another_is_invalid() -> None:
    record = _record()
    second = copy.deepcopy(record["deals"][0])
    second["actions"] = []
    record["deals"].append(second)
    assert _error(record) == ("invalid_record", 1, None)


def test_a_record_without_deals_replays_to_nothing_dealt() -> None:
    record = _record()
    record["deals"] = []
    out = replay(record)
    assert out["deals"] == [] and out["state"] is None and out["next"] is None


def test_a_loaded_game_plays_on_like_the_original() -> None:
    record = _record({"blind_down": True, "four_burns": True}, players=3, actions=40)
    game = load_game(record)
    state = game.current
    assert state is not None
    legal = deal_view(state, state.to_act).legal
    assert legal is not None
    game.apply(legal_action_list(state.to_act, legal)[0])
    again = load_game(game_to_record(game))
    assert replay(game_to_record(again)) == replay(game_to_record(game))
