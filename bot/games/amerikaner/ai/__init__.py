"""AI players. Each decides only from its seat's information-set view of the core.

    choose_action(view, level, rng) -> Action

`level` is "random" (uniform legal moves), "easy" (rules of thumb) or "strong"
(determinized search with easy play-outs). The action is legal for the view's seat.
"""

from __future__ import annotations

import random

from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.views import HandView

LEVELS = ("random", "easy", "strong")


def choose_action(view: HandView, level: str, rng: random.Random) -> Action:
    """The action of `view.seat`, whose turn it must be, at the given level."""
    if level == "random":
        from .random_player import random_action

        return random_action(view, rng)
    if level == "easy":
        from .easy import easy_action

        return easy_action(view, rng)
    if level == "strong":
        from .strong import strong_action

        return strong_action(view, rng)
    raise ValueError(f"Unknown AI level {level!r}: choose one of {', '.join(LEVELS)}.")


__all__ = ["LEVELS", "choose_action"]
