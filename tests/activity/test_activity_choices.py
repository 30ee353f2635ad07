"""A page's moves, as every game describes them: `GameKind.legal_choices` (what a page is
offered) and `GameKind.legal_action` (the move a page names, found) give, in every state
of whole games of every game, preset and house rule, what the enumeration of every legal
action gives (GameKindBase's defaults) — a game that describes a move of several cards
without enumerating it (Amerikaner's discard: 2,380 combinations) changes nothing a page
is shown or may do. A move that is not legal now, however it is forged, is found by
neither."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from bot.cards import card_name
from bot.games import GAMES
from bot.games.base import GameKindBase
from bot.tables.kind import CARD_LISTS, record_key


def rule_sets(kind: GameKindBase) -> Iterator[Any]:
    """Every preset, plain and with each house rule it has."""
    players = kind.default_players
    for preset in kind.presets:
        rules = kind.make_rules(preset, players, {})
        yield rules
        for name, _, _ in kind.house_rules(rules):
            yield kind.with_house_rules(rules, [name])


def states(kind: GameKindBase, rules: Any, seed: int, steps: int) -> Iterator[Any]:
    """The states of a game played at random, `steps` moves at most."""
    rng = random.Random(seed)
    game, _ = kind.new_game(rules, 0, rng)
    for _ in range(steps):
        if kind.finished(game):
            return
        yield game
        seat = kind.to_act(game)
        assert seat is not None
        kind.apply(game, rng.choice(kind.legal_actions(game, seat)), rng)


def page_form(kind: GameKindBase, action: Any) -> dict[str, Any]:
    """An action as a page sends it: its record form without the seat, card lists in
    another order."""
    record = {k: v for k, v in kind.action_to_json(action).items() if k != "seat"}
    for key in CARD_LISTS:
        if isinstance(record.get(key), list):
            record[key] = list(reversed(record[key]))
    return record


def forgeries(record: Mapping[str, Any], hand: list[str]) -> list[dict[str, Any]]:
    """Moves a page may forge from a legal one: a card not in play, a card twice, one card
    too many, an unknown key, an unknown action."""
    out: list[dict[str, Any]] = [{**record, "action": "cheat"}, {**record, "extra": 1}]
    for key in CARD_LISTS:
        if isinstance(record.get(key), list) and record[key]:
            out.append({**record, key: [*record[key], record[key][0]]})
            out.append({**record, key: [*record[key][1:], "ZZ"]})
            spare = [name for name in hand if name not in record[key]]
            if spare:
                out.append({**record, key: [*record[key], spare[0]]})
    if isinstance(record.get("card"), str):
        out.append({**record, "card": "ZZ"})
        out.append({**record, "card": [record["card"]]})
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_pages_moves_are_the_legal_actions(name: str) -> None:
    kind = GAMES[name]
    assert isinstance(kind, GameKindBase)
    checked = grouped = 0
    for number, rules in enumerate(rule_sets(kind)):
        for game in states(kind, rules, seed=number, steps=70):
            seat = kind.to_act(game)
            assert seat is not None
            for who in range(kind.players(rules)):
                assert kind.legal_choices(game, who) == GameKindBase.legal_choices(
                    kind, game, who)
            legal = kind.legal_actions(game, seat)
            grouped += bool(kind.legal_choices(game, seat)[1])
            hand = [card_name(card) for card in kind.hand_cards(game, seat)]
            rng = random.Random(checked)
            for tried, action in enumerate(rng.sample(legal, min(len(legal), 4))):
                record = page_form(kind, action)
                found = kind.legal_action(game, seat, record)
                assert found == GameKindBase.legal_action(kind, game, seat, record)
                # the same move (a swap's face-up cards in any order: the first found)
                assert found is not None
                assert record_key(kind.action_to_json(found)) == record_key(record)
                other = (seat + 1) % kind.players(rules)  # not its turn: no move
                assert kind.legal_action(game, other, record) is None
                for forged in forgeries(record, hand) if not tried else ():
                    assert kind.legal_action(game, seat, forged) == \
                        GameKindBase.legal_action(kind, game, seat, forged), forged
                checked += 1
    assert checked > 200 and grouped  # moves of several cards were among them
