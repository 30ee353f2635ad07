"""American's refusals, one of each kind the rules and a move give: test data for the
conformance suite (tests/games/test_conformance.py words each in every language), found
by this folder and kept out of the game's kind."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from bot.errors import GameError

from .actions import Action
from .kind import AmericanKind
from .rules import BOOLEAN_OPTIONS, MAX_PLAYERS, MIN_PLAYERS, Rules


def _out_of_turn(kind: AmericanKind) -> None:
    """A legal move of the seat to act, made by the next seat."""
    game, _ = kind.new_game(kind.make_rules(None, MIN_PLAYERS, {}), 0, random.Random(1))
    seat = kind.to_act(game)
    assert seat is not None
    move = kind.legal_actions(game, seat)[0]
    kind.apply(game, Action(1 - seat, *move[1:]), random.Random(1))


def error_examples(kind: AmericanKind) -> Iterator[GameError]:
    """One of each refusal the examples reach (each call must refuse)."""
    refusals: list[Callable[[], object]] = [
        lambda: Rules.create(MAX_PLAYERS + 1, {}),
        lambda: Rules.create("two", {}),
        lambda: Rules.create(MIN_PLAYERS, {"target": 0}),
        lambda: Rules.create(MIN_PLAYERS, {BOOLEAN_OPTIONS[0]: "yes"}),
        lambda: _out_of_turn(kind),
    ]
    for refuse in refusals:
        try:
            refuse()
        except GameError as error:
            yield error
        else:
            raise AssertionError("an example of a refusal was accepted")
