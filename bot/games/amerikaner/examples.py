"""Amerikaner's refusals, one of each kind the rules and a move give: test data for the
conformance suite (tests/games/test_conformance.py words each in every language), found
by this folder and kept out of the game's kind."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from bot.errors import GameError

from .actions import Action
from .kind import AmerikanerKind
from .rules import PLAYERS_RANGE, Rules


def _out_of_turn(kind: AmerikanerKind) -> None:
    """A legal move of the seat to act, made by the next seat."""
    rules = kind.make_rules(None, kind.default_players, {})
    game, _ = kind.new_game(rules, 0, random.Random(1))
    seat = kind.to_act(game)
    assert seat is not None
    move = kind.legal_actions(game, seat)[0]
    kind.apply(game, Action((seat + 1) % rules.players, *move[1:]), random.Random(1))


def error_examples(kind: AmerikanerKind) -> Iterator[GameError]:
    """One of each refusal the examples reach (each call must refuse)."""
    refusals: list[Callable[[], object]] = [
        lambda: Rules.create("amerikaner", PLAYERS_RANGE[1] + 1, {}),
        lambda: Rules.create("no_such_preset", 4, {}),
        lambda: Rules.create("amerikaner", 4.5, {}),  # type: ignore[arg-type]
        lambda: Rules.create("amerikaner", 4, {"target": 0}),
        lambda: _out_of_turn(kind),
    ]
    for refuse in refusals:
        try:
            refuse()
        except GameError as error:
            yield error
        else:
            raise AssertionError("an example of a refusal was accepted")
