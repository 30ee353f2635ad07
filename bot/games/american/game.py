"""A match (docs/rules-american.md section 7): deals one after another, the deal passing to the
left, until one player has won `target` deals."""

from __future__ import annotations

import random

from bot.errors import GAME_OVER, INVALID_RECORD, WRONG_PHASE, GameError

from .actions import Action
from .deal import Deal, deal_cards
from .rules import Rules
from .state import FINISHED, DealState


class Game:
    """Deals to the target. Deal d's dealer is `(first_dealer + d) mod players`; a drawn
    deal counts for nobody."""

    __slots__ = ("rules", "first_dealer", "deals", "wins", "deal_wins", "finished",
                 "winners")

    def __init__(self, rules: Rules, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < rules.players:
            raise GameError(INVALID_RECORD, reason="first_dealer", last=rules.players - 1)
        self.rules = rules
        self.first_dealer = first_dealer
        self.deals: list[DealState] = []
        self.wins = [0] * rules.players
        # The running deal wins after each ended deal (the replay output's `wins`).
        self.deal_wins: list[list[int]] = []
        self.finished = False
        self.winners: list[int] = []

    @property
    def current(self) -> DealState | None:
        return self.deals[-1] if self.deals else None

    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) % self.rules.players

    def needs_deal(self) -> bool:
        """True when the next deal may be dealt: none yet, or the last one ended."""
        last = self.current
        return not self.finished and (last is None or last.finished)

    def start_deal(self, deal: Deal | None = None, rng: random.Random | None = None,
                   validate: bool = True) -> DealState:
        """Deal the next deal: the given one, or a shuffle from `rng`."""
        if self.finished:
            raise GameError(GAME_OVER)
        if not self.needs_deal():
            raise GameError(WRONG_PHASE, reason="deal_unfinished")
        if deal is None:
            deal = deal_cards(self.rules, rng or random.Random())
            validate = False
        state = DealState(self.rules, self.next_dealer(), deal, validate)
        self.deals.append(state)
        return state

    def live_deal(self) -> DealState:
        """The deal being played; `game_over` or `wrong_phase` when there is none."""
        if self.finished:
            raise GameError(GAME_OVER)
        state = self.current
        if state is None:
            raise GameError(WRONG_PHASE, reason="not_dealt")
        return state

    def copy(self) -> Game:
        """A copy that `apply` and `start_deal` may change without touching this game:
        only the live deal is copied (an ended deal never changes again), the lists
        that change are new."""
        new = Game.__new__(Game)
        new.rules = self.rules
        new.first_dealer = self.first_dealer
        deals = self.deals[:]
        if deals and not deals[-1].finished:
            deals[-1] = deals[-1].copy()
        new.deals = deals
        new.wins = self.wins[:]
        new.deal_wins = self.deal_wins[:]  # each entry is a new list, never changed
        new.finished = self.finished
        new.winners = self.winners[:]
        return new

    def apply(self, action: Action) -> DealState:
        """Apply an action to the current deal (refused whole or done whole); settle the
        deal when it ends."""
        state = self.live_deal()
        state.apply(action)
        if state.finished:
            self.settle()
        return state

    def settle(self) -> None:
        """Count the ended current deal: a win for its winner, the end of the match at
        the target."""
        state = self.current
        assert state is not None and state.finished
        if len(self.deal_wins) == len(self.deals):
            return  # settled already
        if state.outcome == FINISHED:
            winner = state.winner
            self.wins[winner] += 1
            if self.wins[winner] >= self.rules.target:
                self.finished = True
                self.winners = [winner]
        self.deal_wins.append(self.wins[:])
