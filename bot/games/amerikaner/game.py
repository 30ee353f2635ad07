"""A game: hands one after another, dealer rotation, running totals, the end at the target."""

from __future__ import annotations

import random

from bot.errors import GAME_OVER, INVALID_RECORD, WRONG_PHASE, GameError

from .actions import Action
from .deal import Deal, deal_cards
from .hand import REDEAL, Hand
from .rules import Rules


class Game:
    """Hands to the target. The dealer of hand 0 is `first_dealer`; after every hand the
    deal passes left, except after a redeal claim, when the same dealer deals again."""

    __slots__ = ("rules", "first_dealer", "hands", "totals", "hand_totals", "finished",
                 "winners")

    def __init__(self, rules: Rules, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < rules.players:
            raise GameError(INVALID_RECORD, reason="no_dealer", seat=first_dealer)
        self.rules = rules
        self.first_dealer = first_dealer
        self.hands: list[Hand] = []
        self.totals = [0] * rules.players
        # Totals after each finished hand, for the record's output and the bot's summaries.
        self.hand_totals: list[list[int]] = []
        self.finished = False
        self.winners: list[int] = []

    @property
    def current(self) -> Hand | None:
        return self.hands[-1] if self.hands else None

    def next_dealer(self) -> int:
        if not self.hands:
            return self.first_dealer
        last = self.hands[-1]
        if last.outcome == REDEAL:
            return last.dealer
        return (last.dealer + 1) % self.rules.players

    def needs_deal(self) -> bool:
        """True when the next hand may be dealt: no hand yet, or the last one finished."""
        last = self.current
        return not self.finished and (last is None or last.finished)

    def start_hand(self, deal: Deal | None = None, rng: random.Random | None = None,
                   validate: bool = True) -> Hand:
        """Deal the next hand: the given deal, or a shuffle from `rng`."""
        if self.finished:
            raise GameError(GAME_OVER)
        hands = self.hands
        if hands and not hands[-1].finished:
            raise GameError(WRONG_PHASE, reason="hand_unfinished")
        if deal is None:
            deal = deal_cards(self.rules, rng or random.Random())
            validate = False
        hand = Hand(self.rules, self.next_dealer(), deal, validate)
        hands.append(hand)
        return hand

    def copy(self) -> Game:
        """A copy that `apply` and `start_hand` may change without touching this game:
        only the live hand is copied (a finished hand never changes again), the lists
        that grow are new."""
        new = Game.__new__(Game)
        new.rules = self.rules
        new.first_dealer = self.first_dealer
        hands = self.hands[:]
        if hands and not hands[-1].finished:
            hands[-1] = hands[-1].copy()
        new.hands = hands
        new.totals = self.totals[:]
        new.hand_totals = self.hand_totals[:]  # each entry is a new list, never changed
        new.finished = self.finished
        new.winners = self.winners[:]
        return new

    def apply(self, action: Action) -> Hand:
        """Apply an action to the current hand; settle the hand when it ends."""
        hand = self._live_hand()
        hand.apply(action)
        if hand.finished:
            self.settle()
        return hand

    def play(self, seat: int, card: int, call: int | None = None,
             trump: str | None = None) -> None:
        hand = self._live_hand()
        hand.play(seat, card, call, trump)
        if hand.finished:
            self.settle()

    def _live_hand(self) -> Hand:
        if self.finished:
            raise GameError(GAME_OVER)
        hand = self.current
        if hand is None or hand.finished:
            raise GameError(WRONG_PHASE, reason="not_dealt")
        return hand

    def settle(self) -> None:
        """Add the finished current hand's scores to the totals; end the game at the
        target (players tied for the highest total are co-winners)."""
        hand = self.current
        assert hand is not None and hand.finished
        if len(self.hand_totals) == len(self.hands):
            return
        totals = [t + s for t, s in zip(self.totals, hand.scores, strict=True)]
        self.totals = totals
        self.hand_totals.append(totals[:])
        best = max(totals)
        if best >= self.rules.target:
            self.finished = True
            self.winners = [seat for seat, t in enumerate(totals) if t == best]
