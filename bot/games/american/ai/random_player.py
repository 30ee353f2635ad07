"""A player that picks uniformly among the legal actions of its view: the baseline the
other AI players are measured against, and a driver for property-based tests."""

from __future__ import annotations

import random

from bot.games.american.actions import Action
from bot.games.american.views import DealView, legal_action_list


def random_action(view: DealView, rng: random.Random) -> Action:
    """A uniformly random legal action for the seat of `view`, whose turn it must be."""
    legal = view.legal
    seat = view.seat
    if legal is None or seat is None:
        raise ValueError("random_action needs the view of the seat to act")
    return rng.choice(legal_action_list(seat, legal))
