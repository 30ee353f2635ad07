"""A deal: who holds which cards at the start of a hand, and what lies aside."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.cards import card_name, cards_of, shuffled_hands
from bot.errors import INVALID_DEAL, GameError

from .rules import Rules


@dataclass(frozen=True, slots=True)
class Deal:
    """Seat i's cards as dealt, in the order dealt; the kitty (presets with one); the
    blind, in order (`norsk`); and the cards removed from the pack."""

    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...] = ()
    blind: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()

    def validate(self, rules: Rules) -> None:
        """Refuse a deal that does not fit the rules: wrong counts, unknown, duplicate or
        missing cards (code `invalid_deal`)."""
        if len(self.hands) != rules.players:
            raise GameError(INVALID_DEAL, reason="hand_count", count=len(self.hands),
                            players=rules.players)
        for seat, cards in enumerate(self.hands):
            if len(cards) != rules.cards_each:
                raise GameError(INVALID_DEAL, reason="seat_cards", seat=seat,
                                count=len(cards), expected=rules.cards_each)
        if len(self.kitty) != rules.kitty_size:
            raise GameError(INVALID_DEAL, reason="kitty_cards", count=len(self.kitty),
                            expected=rules.kitty_size)
        if len(self.blind) != rules.blind_size:
            raise GameError(INVALID_DEAL, reason="blind_cards", count=len(self.blind),
                            expected=rules.blind_size)
        if self.removed and sorted(self.removed) != sorted(rules.removed):
            raise GameError(INVALID_DEAL, reason="removed", cards=rules.removed)
        seen = 0
        for card in (c for hand in self.hands for c in hand):
            if seen >> card & 1:
                raise GameError(INVALID_DEAL, reason="twice", card=card)
            seen |= 1 << card
        for card in (*self.kitty, *self.blind):
            if seen >> card & 1:
                raise GameError(INVALID_DEAL, reason="twice", card=card)
            seen |= 1 << card
        if seen & ~rules.pack:
            extra = cards_of(seen & ~rules.pack)
            raise GameError(INVALID_DEAL, reason="not_in_pack", cards=extra)
        if seen != rules.pack:
            missing = cards_of(rules.pack & ~seen)
            raise GameError(INVALID_DEAL, reason="missing", cards=missing)

    def to_json(self, rules: Rules) -> dict[str, object]:
        out: dict[str, object] = {"deal": [[card_name(c) for c in h] for h in self.hands]}
        if rules.kitty_size:
            out["kitty"] = [card_name(c) for c in self.kitty]
        if rules.blind_size:
            out["blind"] = [card_name(c) for c in self.blind]
        if rules.removed:
            out["removed"] = [card_name(c) for c in rules.removed]
        return out


# `Deal(hands, kitty, blind, removed)` as its generated `__init__` makes it, for the one
# caller on a hot path (deal_cards): the frozen dataclass's `__init__` sets each field with
# a Python-level `object.__setattr__` call, about twice the cost of setting the slots
# directly (Deal has no __post_init__ or validation in __init__; tests check equality).
_new_object = object.__new__
_set_hands, _set_kitty, _set_blind, _set_removed = (
    vars(Deal)[name].__set__ for name in ("hands", "kitty", "blind", "removed"))


def deal_cards(rules: Rules, rng: random.Random) -> Deal:
    """A shuffled deal for `rules`, from `rng` (seed it for a reproducible game). Each hand
    is sorted in display order, which is how a player holds it."""
    # The shuffle and split are in cards.py, which is compiled (setup.py); this module is
    # not, so that `Deal` stays an ordinary dataclass.
    hands, rest = shuffled_hands(rules.pack, rng, rules.players, rules.cards_each)
    kitty_size = rules.kitty_size
    deal = _new_object(Deal)
    _set_hands(deal, hands)
    _set_kitty(deal, tuple(rest[:kitty_size]))
    _set_blind(deal, tuple(rest[kitty_size:]))
    _set_removed(deal, rules.removed)
    return deal


def deal_from_names(hands: Sequence[Sequence[str]], kitty: Sequence[str] = (),
                    blind: Sequence[str] = ()) -> Deal:
    """A deal written in card notation (for tests and examples)."""
    from bot.cards import parse_card

    def conv(cards: Sequence[str]) -> tuple[int, ...]:
        out = []
        for text in cards:
            try:
                out.append(parse_card(text))
            except GameError:
                raise GameError(INVALID_DEAL, reason="not_a_card", value=text) from None
        return tuple(out)

    return Deal(hands=tuple(conv(h) for h in hands), kitty=conv(kitty), blind=conv(blind))
