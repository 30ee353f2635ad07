"""A move, at any kind of table: the one path by which a member's action is checked and
applied, whether the table is a channel's (bot/tables/play.py) or a member's deal of the
day (bot/tables/daily.py), and the AI's answers where a kind of table plays them at once.

`move` checks that the control was drawn for the state now and that the seat is to act
(each kind of table words those refusals its own way: `Refusals`), asks for the action,
and applies it through the table's GameKind, which refuses an illegal one with a stable
code; with `Answers`, the AI's actions follow until the member is to act again or the
deal ends. It changes the game it is given in place and commits nothing: the caller
hands it a copy (a table) or a replay (a deal of the day), commits the steps with its
own keeper, and only then shows them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.tables.errors import TableError
from bot.tables.kind import Applied, GameKind

# A random source for the action at a state version (the table's one source for every
# version; the day's seeded by it, so the same play meets the same deal).
Sources = Callable[[int], random.Random]


@dataclass(frozen=True, slots=True)
class Refusals:
    """How a kind of table refuses a move: `stale()`, a control drawn for another state
    version; `not_your_turn(seat)`, while `seat` is to act."""

    stale: Callable[[], TableError]
    not_your_turn: Callable[[int], TableError]


@dataclass(frozen=True, slots=True)
class Answers:
    """The AI's answers within a move: every seat but `member`'s, at `level`, chosen by
    `choose(game, seat, level, source)` (in a worker thread: the strong AI thinks for a
    while) with the source `choosing(version)`."""

    member: int
    level: str
    choose: Callable[[Any, int, str, random.Random], Any]
    choosing: Sources


class Step(NamedTuple):
    """One action applied to a game, not yet committed."""

    seat: int  # who acted
    action: Any  # the action as given (the game's own value)
    applied: Applied  # the game's answer: the action as the record stores it, ...
    finished: bool  # whether the game is over after it


def check_drawn(drawn: int | None, version: int, refusals: Refusals) -> None:
    """Refused (stale) when a control drawn at state `drawn` meets the state `version`;
    None: a slash command's, which always means "now"."""
    if drawn is not None and drawn != version:
        raise refusals.stale()


def step(kind: GameKind, game: Any, action: Any, source: random.Random) -> Step:
    """`action` applied to `game` (in place) by the seat to act, through its GameKind: a
    refusal (GameError) passes on as the game raised it, its words the game's."""
    seat = kind.to_act(game)
    applied = kind.apply(game, action, source)
    assert seat is not None
    return Step(seat, action, applied, kind.finished(game))


async def move(kind: GameKind, game: Any, seat: int, make: Callable[[int], Any], *,
               drawn: int | None, version: int, refusals: Refusals, sources: Sources,
               answers: Answers | None = None) -> list[Step]:
    """`seat`'s move on `game` (at state `version`), drawn at state `drawn`: checked
    (stale, then `make(seat)`'s action, then the turn), applied, and with `answers`
    followed by the AI's until `answers.member` is to act or the deal ends. The steps,
    the member's first."""
    check_drawn(drawn, version, refusals)
    action = make(seat)
    to_act = kind.to_act(game)
    if to_act is not None and to_act != seat:
        raise refusals.not_your_turn(to_act)
    steps = [step(kind, game, action, sources(version))]
    if answers is not None and not steps[0].applied.deal_finished and not steps[0].finished:
        steps.extend(await answer(kind, game, answers, version + 1, sources))
    return steps


async def answer(kind: GameKind, game: Any, answers: Answers, version: int,
                 sources: Sources) -> list[Step]:
    """The AI's actions on `game` (in place, at state `version`) until `answers.member`
    is to act, nobody is, or a deal ends: each chosen from the state and its version's
    source (`answers.choosing`), applied with `sources`' for its version, so the same
    state meets the same answer."""
    steps: list[Step] = []
    while (seat := kind.to_act(game)) is not None and seat != answers.member:
        at = version + len(steps)
        choice = await asyncio.to_thread(answers.choose, game, seat, answers.level,
                                         answers.choosing(at))
        steps.append(step(kind, game, choice, sources(at)))
        if steps[-1].applied.deal_finished:
            break
    return steps
