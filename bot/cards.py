"""Cards as small integers and sets of cards as integer bitmasks.

A suited card is `suit * 13 + rank`, with suits S H D C = 0 1 2 3 and rank 0 for the 2 up
to 12 for the ace, so within a suit a higher bit is a higher card. Jokers JK1..JK3 are
52..54. A set of cards is an int with bit `card` set: following suit, legal moves and
trick resolution are then a few integer operations, which keeps AI play-outs cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol, TypeAlias

from bot.errors import CARD_NOT_IN_HAND, INVALID_CARD, GameError

# Names for the ints, as python-chess names its own (`Square = int`, `Bitboard = int`):
# plain aliases, not NewType. An alias is `int` to mypy, mypyc and the interpreter alike,
# so the compiled cores keep their unboxed int arithmetic and no call wraps a value; a
# NewType would make every `mask & other` an `int` needing a cast back, for no check
# that the tests do not already make.
Card: TypeAlias = int
"""One card: `suit * 13 + rank` (0..51), a joker 52..54."""
CardMask: TypeAlias = int
"""A set of cards: bit `card` set for each card in it."""
Seat: TypeAlias = int
"""A seat at the table, 0-based in turn order."""

# `Final`: the compiled build (mypyc) reads these as C constants, not from the module dict.
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
SUIT_NAMES_SINGULAR: Final = ("spade", "heart", "diamond", "club")
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES: Final = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                     "jack", "queen", "king", "ace")

JOKER_BASE: Final = 52
JOKERS: Final = (52, 53, 54)
SUIT_MASKS: Final[tuple[int, ...]] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_PACK: Final = (1 << 52) - 1
JOKER_MASK: Final = 0b111 << JOKER_BASE
# Jacks, queens and kings: a norsk hand without any of them may claim a redeal.
COURT_MASK: Final[int] = sum(((1 << 9) | (1 << 10) | (1 << 11)) << (13 * s) for s in range(4))
TWOS_MASK: Final[int] = sum(1 << (13 * s) for s in range(4))


def suit_of(card: Card) -> int:
    """The suit index of a suited card, -1 for a joker."""
    return card // 13 if card < JOKER_BASE else -1


def rank_of(card: Card) -> int:
    return card % 13 if card < JOKER_BASE else -1


def is_joker(card: Card) -> bool:
    return card >= JOKER_BASE


def card_name(card: Card) -> str:
    """Record notation: `AS`, `10H`, `JK1`."""
    if card >= JOKER_BASE:
        return f"JK{card - JOKER_BASE + 1}"
    return RANKS[card % 13] + SUITS[card // 13]


def card_label(card: Card) -> str:
    """Readable on a phone: `A♠`, `10♥`, `🃏1`."""
    if card >= JOKER_BASE:
        return f"Joker {card - JOKER_BASE + 1}"
    return RANKS[card % 13] + SUIT_SYMBOLS[card // 13]


def card_list(cards: Iterable[Card]) -> str:
    """Cards grouped by suit in the order given: `♠ A K 10 · ♥ Q 9`; jokers last."""
    groups: dict[int, list[str]] = {}
    for card in cards:
        groups.setdefault(suit_of(card), []).append(card_label(card))
    parts: list[str] = []
    for suit in (0, 1, 2, 3):
        if suit in groups:
            parts.append(SUIT_SYMBOLS[suit] + " " + " ".join(c[:-1] for c in groups[suit]))
    if -1 in groups:
        parts.append("🃏 " + " ".join(groups[-1]))
    return " · ".join(parts) if parts else "—"


def card_long_name(card: Card) -> str:
    if card >= JOKER_BASE:
        return f"joker {card - JOKER_BASE + 1}"
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


_PARSE: Final[dict[str, int]] = {}
for _c in range(52):
    _PARSE[card_name(_c)] = _c
    if _c % 13 == 8:
        _PARSE["T" + SUITS[_c // 13]] = _c
for _j in JOKERS:
    _PARSE[card_name(_j)] = _j


# Card notation is at most 3 characters (`10H`, `JK1`): longer text is not a card.
_NOTATION_MAX: Final = 3
_ASCII_SPACE: Final = " \t\n\r\f\v"


def parse_card(text: object) -> Card:
    """The card written as `text` (case-insensitive, `T` for ten); symbols are accepted
    too (`A♠`). Anything else raises `GameError(invalid_card, reason="typed", text=...)`:
    only ASCII letters and digits are notation, so neither '²' nor a fullwidth 'Ａ' is,
    nor 'ſ', which str.upper() would turn into 'S'."""
    card = _read_card(text)
    if card < 0:
        raise GameError(INVALID_CARD, reason="typed", text=text)
    return card


def is_card(text: object) -> bool:
    """Whether `text` is card notation (`parse_card` would read it)."""
    return _read_card(text) >= 0


def _read_card(text: object) -> Card:
    """The card, or -1 if `text` is not card notation."""
    if not isinstance(text, str):
        return -1
    key = text.strip(_ASCII_SPACE)
    if len(key) > _NOTATION_MAX:
        return -1
    for symbol, letter in zip(SUIT_SYMBOLS, SUITS, strict=True):
        key = key.replace(symbol, letter)
    if not key.isascii():
        return -1
    return _PARSE.get(key.upper(), -1)


def mask_of(cards: Iterable[Card]) -> CardMask:
    if isinstance(cards, tuple):  # the usual case, which compiled code iterates faster
        return _tuple_mask(cards)
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _tuple_mask(cards: tuple[Card, ...]) -> CardMask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# Display order: S H D C, high to low, then jokers.
DISPLAY_ORDER: Final = tuple(
    [s * 13 + r for s in range(4) for r in range(12, -1, -1)] + list(JOKERS)
)


# For each suit and each 13-bit pattern, the cards it holds: ascending, and high to low.
# Splitting a mask into four table look-ups is several times faster than a bit loop.
_ASCENDING: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(s * 13 + r for r in range(13) if x >> r & 1) for x in range(8192))
    for s in range(4))
_DESCENDING: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(t[::-1] for t in table) for table in _ASCENDING)
_A0: Final = _ASCENDING[0]
_A1: Final = _ASCENDING[1]
_A2: Final = _ASCENDING[2]
_A3: Final = _ASCENDING[3]
_D0: Final = _DESCENDING[0]
_D1: Final = _DESCENDING[1]
_D2: Final = _DESCENDING[2]
_D3: Final = _DESCENDING[3]
_JOKER_CARDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(j for j in JOKERS if x >> (j - JOKER_BASE) & 1) for x in range(8))


def cards_of(mask: CardMask) -> tuple[Card, ...]:
    """The cards of a mask in display order (S H D C, high to low, jokers last)."""
    # Suit by suit, skipping empty suits: a mask of one suit (a legal follow) is then a
    # single look-up, with no tuple built.
    out = _D0[mask & 8191]
    part = mask >> 13 & 8191
    if part:
        out = out + _D1[part] if out else _D1[part]
    part = mask >> 26 & 8191
    if part:
        out = out + _D2[part] if out else _D2[part]
    part = mask >> 39 & 8191
    if part:
        out = out + _D3[part] if out else _D3[part]
    if mask >> JOKER_BASE:
        out = out + _JOKER_CARDS[mask >> JOKER_BASE & 7]
    return out


def bits(mask: CardMask) -> tuple[Card, ...]:
    """The cards of a mask in ascending order (the order AI code iterates in)."""
    out = _A0[mask & 8191]
    part = mask >> 13 & 8191
    if part:
        out = out + _A1[part] if out else _A1[part]
    part = mask >> 26 & 8191
    if part:
        out = out + _A2[part] if out else _A2[part]
    part = mask >> 39 & 8191
    if part:
        out = out + _A3[part] if out else _A3[part]
    if mask >> JOKER_BASE:
        out = out + _JOKER_CARDS[mask >> JOKER_BASE & 7]
    return out


class RandomSource(Protocol):
    """What a shuffle needs of its generator: `random.Random`, or anything with its
    `random()` (a Protocol, so compiled code accepts the same objects as Python)."""

    def random(self) -> float: ...


def shuffled(mask: CardMask, rng: RandomSource) -> list[Card]:
    """The cards of a mask in random order from `rng`: one `rng.random()` key is drawn
    per card, in ascending card order, and the cards are sorted by key (a stable sort).
    That is an unbiased shuffle, several times faster than `random.shuffle` in CPython,
    and it fixes the order a seed gives (deals depend on it)."""
    cards = list(bits(mask))
    random_key = rng.random
    cards.sort(key=lambda _card: random_key())
    return cards


def shuffled_hands(mask: CardMask, rng: RandomSource, players: int,
                   each: int) -> tuple[tuple[tuple[Card, ...], ...], list[Card]]:
    """`shuffled(mask, rng)` dealt out: `players` hands of `each` cards, each in display
    order, then the cards left over in shuffled order. (deal.deal_cards' hot part, here
    so that it is compiled with this module.)"""
    cards = shuffled(mask, rng)
    hands: list[tuple[int, ...]] = []
    start = 0
    for _ in range(players):
        held = 0
        for card in cards[start:start + each]:
            held |= 1 << card
        hands.append(cards_of(held))
        start += each
    return tuple(hands), cards[start:]


def highest_in(mask: CardMask) -> Card:
    return mask.bit_length() - 1


def names(cards: Iterable[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def held_mask(held: CardMask, cards: Iterable[Card]) -> CardMask:
    """The mask of `cards`, which must be distinct and all in `held` (a mask); else
    refused with CARD_NOT_IN_HAND, naming the first that is not (or twice)."""
    mask = 0
    for card in cards:
        bit = 1 << card
        if not held & bit or mask & bit:
            raise GameError(CARD_NOT_IN_HAND, card=card, twice=bool(mask & bit))
        mask |= bit
    return mask
