"""Cards as small integers and sets of cards as integer bitmasks.

A suited card is `suit * 13 + rank`, with suits S H D C = 0 1 2 3 and rank 0 for the 2 up
to 12 for the ace, so within a suit a higher bit is a higher card. Jokers JK1..JK3 are
52..54. A set of cards is an int with bit `card` set: following suit, legal moves and
trick resolution are then a few integer operations, which keeps AI play-outs cheap.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_NAMES_SINGULAR = ("spade", "heart", "diamond", "club")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king", "ace")

JOKER_BASE = 52
JOKERS = (52, 53, 54)
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_PACK = (1 << 52) - 1
JOKER_MASK = 0b111 << JOKER_BASE
# Jacks, queens and kings: a norsk hand without any of them may claim a redeal.
COURT_MASK = sum(((1 << 9) | (1 << 10) | (1 << 11)) << (13 * s) for s in range(4))
TWOS_MASK = sum(1 << (13 * s) for s in range(4))


def suit_of(card: int) -> int:
    """The suit index of a suited card, -1 for a joker."""
    return card // 13 if card < JOKER_BASE else -1


def rank_of(card: int) -> int:
    return card % 13 if card < JOKER_BASE else -1


def is_joker(card: int) -> bool:
    return card >= JOKER_BASE


def card_name(card: int) -> str:
    """Record notation: `AS`, `10H`, `JK1`."""
    if card >= JOKER_BASE:
        return f"JK{card - JOKER_BASE + 1}"
    return RANKS[card % 13] + SUITS[card // 13]


def card_label(card: int) -> str:
    """Readable on a phone: `A♠`, `10♥`, `🃏1`."""
    if card >= JOKER_BASE:
        return f"Joker {card - JOKER_BASE + 1}"
    return RANKS[card % 13] + SUIT_SYMBOLS[card // 13]


def card_long_name(card: int) -> str:
    if card >= JOKER_BASE:
        return f"joker {card - JOKER_BASE + 1}"
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


_PARSE: dict[str, int] = {}
for _c in range(52):
    _PARSE[card_name(_c)] = _c
    if _c % 13 == 8:
        _PARSE["T" + SUITS[_c // 13]] = _c
for _j in JOKERS:
    _PARSE[card_name(_j)] = _j


def parse_card(text: object) -> int | None:
    """The card written as `text` (case-insensitive, `T` for ten), or None if it is not
    card notation. Symbols are accepted too (`A♠`)."""
    if not isinstance(text, str):
        return None
    key = text.strip().upper()
    for symbol, letter in zip(SUIT_SYMBOLS, SUITS, strict=True):
        key = key.replace(symbol, letter)
    return _PARSE.get(key)


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# Display order: S H D C, high to low, then jokers.
DISPLAY_ORDER = tuple(
    [s * 13 + r for s in range(4) for r in range(12, -1, -1)] + list(JOKERS)
)


def cards_of(mask: int) -> list[int]:
    """The cards of a mask in display order (S H D C, high to low, jokers last)."""
    return [c for c in DISPLAY_ORDER if mask >> c & 1]


def bits(mask: int) -> list[int]:
    """The cards of a mask in ascending bit order (cheaper than display order)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def highest_in(mask: int) -> int:
    return mask.bit_length() - 1


def names(cards: Iterable[int]) -> list[str]:
    return [card_name(c) for c in cards]
