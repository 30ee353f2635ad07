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


# For each suit and each 13-bit pattern, the cards it holds: ascending, and high to low.
# Splitting a mask into four table look-ups is several times faster than a bit loop.
_ASCENDING = tuple(
    tuple(tuple(s * 13 + r for r in range(13) if x >> r & 1) for x in range(8192))
    for s in range(4))
_DESCENDING = tuple(tuple(t[::-1] for t in table) for table in _ASCENDING)
_A0, _A1, _A2, _A3 = _ASCENDING
_D0, _D1, _D2, _D3 = _DESCENDING
_JOKER_CARDS = tuple(tuple(j for j in JOKERS if x >> (j - JOKER_BASE) & 1) for x in range(8))


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask in display order (S H D C, high to low, jokers last)."""
    out = (_D0[mask & 8191] + _D1[mask >> 13 & 8191] + _D2[mask >> 26 & 8191]
           + _D3[mask >> 39 & 8191])
    return out + _JOKER_CARDS[mask >> JOKER_BASE & 7] if mask >> JOKER_BASE else out


def bits(mask: int) -> tuple[int, ...]:
    """The cards of a mask in ascending order (the order AI code iterates in)."""
    out = (_A0[mask & 8191] + _A1[mask >> 13 & 8191] + _A2[mask >> 26 & 8191]
           + _A3[mask >> 39 & 8191])
    return out + _JOKER_CARDS[mask >> JOKER_BASE & 7] if mask >> JOKER_BASE else out


def highest_in(mask: int) -> int:
    return mask.bit_length() - 1


def names(cards: Iterable[int]) -> list[str]:
    return [card_name(c) for c in cards]
