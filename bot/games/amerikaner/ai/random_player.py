"""A player that picks uniformly among the legal actions of its view: the baseline the
other AI players are measured against, and a driver for property-based tests."""

from __future__ import annotations

import random

from bot.cards import suit_of
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.views import HandView


def random_action(view: HandView, rng: random.Random, pass_bias: float = 0.5) -> Action:
    """A random legal action for the seat of `view`, which must be that seat's turn.
    `pass_bias` is the chance to pass in bidding (uniform bids make absurd contracts)."""
    legal = view.legal
    seat = view.seat
    if legal is None or seat is None:
        raise ValueError("random_action needs the view of the seat to act")
    phase = legal.phase
    if phase == "bid":
        if legal.can_redeal and rng.random() < 0.5:
            return Action.redeal(seat)
        if not legal.bids or rng.random() < pass_bias:
            return Action.pass_(seat)
        return Action.make_bid(seat, rng.choice(legal.bids[:3]) if rng.random() < 0.9
                               else rng.choice(legal.bids))
    if phase in ("exchange", "discard"):
        low, high = legal.card_count
        count = rng.randint(low, high)
        return Action(seat, phase, cards=tuple(rng.sample(legal.cards, count)))
    card = rng.choice(legal.cards)
    if phase == "lead" and legal.calls:
        options = legal.calls_for(suit_of(card))
        call = rng.choice(options) if options else None
        trump = rng.choice((None, *legal.trumps)) if legal.trumps else None
        return Action.play(seat, card, call, trump)
    return Action.play(seat, card)
