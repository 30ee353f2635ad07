"""The toy game's refusals, one of each code and reason its words say: test data for
the conformance suite (tests/games/test_conformance.py), which finds this module by the
game's folder (a game's `examples` module beside its `kind`), so the game's kind carries
no test data."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.errors import GameError

from .game import Action
from .kind import ToyKind


def error_examples(kind: ToyKind) -> Iterator[GameError]:
    """One of each refusal of the game (the conformance suite words them all)."""
    rng = random.Random(1)
    game, _ = kind.new_game(kind.make_rules(None, 2, {}), 0, rng)
    to_act = kind.to_act(game)
    assert to_act is not None
    absent = next(c for c in range(52) if c not in game.deals[-1].held[to_act])
    for action in (Action(1 - to_act, absent), Action(to_act, absent)):
        try:
            kind.apply(game, action, rng)
        except GameError as error:
            yield error
    for options in ({"trumps": True}, {"target": 99}):
        try:
            kind.make_rules(None, 2, options)
        except GameError as error:
            yield error
    try:
        kind.make_rules(None, 7, {})
    except GameError as error:
        yield error
