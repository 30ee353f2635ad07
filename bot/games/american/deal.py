"""A deal: the cards face down, face up and in hand of each seat, and the deck."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.cards import FULL_PACK, JOKER_BASE, card_name, cards_of, parse_card, shuffled
from bot.errors import INVALID_DEAL, GameError

from .rules import ROW, Rules

# The parts of a deal per seat, as the record names them.
ROWS = ("down", "up", "hand")


@dataclass(frozen=True, slots=True)
class Deal:
    """Per seat, the face-down and face-up cards in their order on the table and the
    hand; the deck, top first. Together the whole pack, once."""

    down: tuple[tuple[int, ...], ...]
    up: tuple[tuple[int, ...], ...]
    hand: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]

    def validate(self, rules: Rules) -> None:
        """Refuse a deal that does not fit the rules (code `invalid_deal`): rows per
        seat, cards per row, a card twice, a card missing."""
        for part, rows in zip(ROWS, (self.down, self.up, self.hand), strict=True):
            if len(rows) != rules.players:
                raise GameError(INVALID_DEAL, reason="row_count", part=part,
                                count=len(rows), players=rules.players)
            for seat, row in enumerate(rows):
                if len(row) != ROW:
                    raise GameError(INVALID_DEAL, reason="row_cards", part=part, seat=seat,
                                    count=len(row), expected=ROW)
        seen = 0
        for card in self.cards():
            if seen >> card & 1:
                raise GameError(INVALID_DEAL, reason="twice", card=card)
            seen |= 1 << card
        if seen != FULL_PACK:
            raise GameError(INVALID_DEAL, reason="missing", cards=cards_of(FULL_PACK & ~seen))

    def cards(self) -> tuple[int, ...]:
        """Every card of the deal, seat rows first, then the deck."""
        out: list[int] = []
        for rows in (self.down, self.up, self.hand):
            for row in rows:
                out.extend(row)
        out.extend(self.deck)
        return tuple(out)

    def to_json(self) -> dict[str, object]:
        return {
            "down": [[card_name(c) for c in row] for row in self.down],
            "up": [[card_name(c) for c in row] for row in self.up],
            "hand": [[card_name(c) for c in row] for row in self.hand],
            "deck": [card_name(c) for c in self.deck],
        }


def deal_cards(rules: Rules, rng: random.Random) -> Deal:
    """A shuffled deal for `rules`, from `rng` (seed it for a reproducible game): each
    seat's face-down row, then its face-up row, then its hand, then the deck."""
    cards = shuffled(FULL_PACK, rng)
    n = rules.players

    def rows(start: int) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(cards[start + ROW * seat:start + ROW * (seat + 1)])
                     for seat in range(n))

    return Deal(down=rows(0), up=rows(ROW * n), hand=rows(2 * ROW * n),
                deck=tuple(cards[3 * ROW * n:]))


def parse_card_of_pack(text: object) -> int:
    """The card `text` names in card notation, -1 if it names none of the 52 (American
    has no jokers)."""
    try:
        card = parse_card(text)
    except GameError:
        return -1
    return card if card < JOKER_BASE else -1


def deal_from_names(down: Sequence[Sequence[str]], up: Sequence[Sequence[str]],
                    hand: Sequence[Sequence[str]], deck: Sequence[str]) -> Deal:
    """A deal written in card notation (records, tests and examples); a word that is no
    card is refused as `invalid_deal`."""

    def row(texts: Sequence[str]) -> tuple[int, ...]:
        out = []
        for text in texts:
            card = parse_card_of_pack(text)
            if card < 0:
                raise GameError(INVALID_DEAL, reason="not_a_card", value=text)
            out.append(card)
        return tuple(out)

    return Deal(down=tuple(row(r) for r in down), up=tuple(row(r) for r in up),
                hand=tuple(row(r) for r in hand), deck=row(deck))
