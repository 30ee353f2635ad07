"""American's AI players. Each decides only from its seat's view of the deal.

    choose_action(view, level, rng) -> Action

`level` is "random" (a uniformly random legal action), "easy" (rules of thumb: the
lowest playable rank, all copies; 2s, 10s and aces kept for when they are needed; a big
pile burned; the best cards face up) or "strong" (determinized Monte-Carlo: the unseen
cards sampled consistently with everything public, each candidate played out with the
easy policy, within a time budget). The action is legal for the view's seat, whose turn
it must be.
"""

from __future__ import annotations

import random

from bot.games.american.actions import Action
from bot.games.american.views import DealView

LEVELS = ("random", "easy", "strong")


def choose_action(view: DealView, level: str, rng: random.Random) -> Action:
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
