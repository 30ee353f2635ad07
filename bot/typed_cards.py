"""Cards as players type them, in English notation or in Norwegian (issue 27).

English notation is the rank, then the suit: `QD`, `10C`, `KH`, `AS` (`T` for ten, suit
symbols too), read by bot.cards.parse_card. Norwegian players name the suit first and
use their own letters (D dame = queen, K konge = king, E or A ess = ace, Kn knekt =
jack; suits kløver, ruter, hjerter, spar): compact, `rd`, `k10`, `hk`, `sa`, `hkn`, or
in words, `ruter dame`, `kløver 10`, `spar ess`.

One compact word reads both ways: `kd` is the king of diamonds in English notation and
kløver dame (the queen of clubs) in Norwegian (every other word reads one way only;
tests/i18n/test_typed_cards.py checks the whole list). The reader's language decides it:
Norwegian (`nb`) reads `kd` as kløver dame, any other language as K♦. Words and symbols
(`kløver dame`, `K♦`) are never ambiguous, and the autocomplete shows the card each
word stands for, so a player sees which one was meant.
"""

from __future__ import annotations

from typing import Final

from bot.cards import SUITS, card_label, card_name, is_card, parse_card
from bot.errors import INVALID_CARD, GameError
from bot.i18n import current_locale, language_of

__all__ = ["NORWEGIAN", "choice_name", "norwegian_name", "norwegian_notation", "read_card",
           "norwegian_suffix", "read_cards", "read_some", "shown_with_norwegian",
           "typed_matches", "typed_value"]

NORWEGIAN: Final = "nb"

# Norwegian suit words and letters, to the English suit letter.
_SUIT_WORDS: Final = {"kløver": "C", "klover": "C", "ruter": "D", "hjerter": "H",
                      "spar": "S"}
_SUIT_LETTERS: Final = {"k": "C", "r": "D", "h": "H", "s": "S"}
# Norwegian rank words and letters, to the English rank.
_RANK_WORDS: Final = {"ess": "A", "konge": "K", "dame": "Q", "knekt": "J",
                      **{str(n): str(n) for n in range(2, 11)}}
_RANK_LETTERS: Final = {"e": "A", "a": "A", "k": "K", "d": "Q", "kn": "J",
                        **{str(n): str(n) for n in range(2, 11)}}
_NORWEGIAN_RANK: Final = {"A": "E", "K": "K", "Q": "D", "J": "Kn"}
_NORWEGIAN_RANK_WORD: Final = {"A": "ess", "K": "konge", "Q": "dame", "J": "knekt"}
_NORWEGIAN_SUIT: Final = {"C": ("k", "kløver"), "D": ("r", "ruter"), "H": ("h", "hjerter"),
                          "S": ("s", "spar")}


# Persian card names (issue 55), as Persian players say them: the rank, then the suit
# ("آس پیک", "بی‌بی خشت", "10 گشنیز"; the suit first reads too), Persian or Latin digits.
# Suits: پیک spades, دل hearts, خشت diamonds, گشنیز or خاج clubs; ranks: آس ace,
# شاه king, بی‌بی queen (with its zero-width non-joiner, or written "بی بی"), سرباز jack.
_PERSIAN_SUITS: Final = {"پیک": "S", "دل": "H", "خشت": "D", "گشنیز": "C", "خاج": "C"}
_PERSIAN_RANKS: Final = {"آس": "A", "شاه": "K", "بی\u200cبی": "Q", "بیبی": "Q",
                         "سرباز": "J", **{str(n): str(n) for n in range(2, 11)}}
_PERSIAN_DIGITS: Final = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")


def _persian_pair(first: str, second: str) -> int:
    """A Persian rank and suit in two words, either order: the card, or -1."""
    for rank_word, suit_word in ((first, second), (second, first)):
        rank = _PERSIAN_RANKS.get(rank_word.translate(_PERSIAN_DIGITS))
        suit = _PERSIAN_SUITS.get(suit_word)
        if rank is not None and suit is not None:
            return parse_card(rank + suit)
    return -1


def _norwegian_compact(word: str) -> int:
    """`rd`, `k10`, `hkn`: the card, or -1."""
    suit = _SUIT_LETTERS.get(word[:1])
    rank = _RANK_LETTERS.get(word[1:])
    return parse_card(rank + suit) if suit and rank else -1


def _language(language: str | None) -> str:
    return language_of(language if language is not None else current_locale())


def read_card(word: str, language: str | None = None) -> int:
    """One card typed as one word (`QD`, `Q♦`, `rd`), or -1. A word that reads both
    ways (`kd`) reads in the Norwegian way in Norwegian, else in the English way."""
    key = word.strip().lower()
    english = parse_card(key) if is_card(key) else -1
    norwegian = _norwegian_compact(key) if key.isascii() else -1
    if english >= 0 and norwegian >= 0:
        return norwegian if _language(language) == NORWEGIAN else english
    return english if english >= 0 else norwegian


def read_cards(text: str, language: str | None = None) -> tuple[int, ...]:
    """The cards in `text`, separated by spaces or commas: each a word (`QD`, `rd`) or a
    Norwegian suit and rank in two words (`ruter dame`, `kløver 10`), or a Persian rank
    and suit (`آس پیک`, `بی‌بی خشت`). Anything else raises GameError(invalid_card,
    reason="typed", text=the word)."""
    words = text.replace(",", " ").replace("،", " ").replace("بی بی", "بی\u200cبی").split()
    cards: list[int] = []
    index = 0
    while index < len(words):
        word = words[index]
        persian = (_persian_pair(word, words[index + 1]) if index + 1 < len(words)
                   else -1)
        if persian >= 0:
            cards.append(persian)
            index += 2
            continue
        suit = _SUIT_WORDS.get(word.lower())
        if suit is not None and index + 1 < len(words):
            rank_word = words[index + 1].lower()
            rank = _RANK_WORDS.get(rank_word) or _RANK_LETTERS.get(rank_word)
            if rank is not None:
                cards.append(parse_card(rank + suit))
                index += 2
                continue
        card = read_card(word, language)
        if card < 0:
            raise GameError(INVALID_CARD, reason="typed", text=word)
        cards.append(card)
        index += 1
    return tuple(cards)


def norwegian_notation(card: int) -> str:
    """The card in Norwegian letters, suit first: `rd`, `k10`, `hkn`."""
    name = card_name(card)
    rank, suit = name[:-1], name[-1]
    if suit not in SUITS:
        return name  # a joker: JK1
    return _NORWEGIAN_SUIT[suit][0] + _NORWEGIAN_RANK.get(rank, rank).lower()


def norwegian_name(card: int) -> str:
    """The card in Norwegian words: `ruter dame`, `kløver 10`."""
    name = card_name(card)
    rank, suit = name[:-1], name[-1]
    if suit not in SUITS:
        return name
    return _NORWEGIAN_SUIT[suit][1] + " " + _NORWEGIAN_RANK_WORD.get(rank, rank)


def shown_with_norwegian(cards: tuple[int, ...], language: str | None = None) -> str:
    """An autocomplete choice's name for `cards`: the English notation, and in
    Norwegian also the Norwegian letters and words (`QD · rd (ruter dame)`)."""
    english = " ".join(card_name(card) for card in cards)
    if _language(language) != NORWEGIAN or not cards:
        return english
    if len(cards) == 1:
        card = cards[0]
        return f"{english} · {norwegian_notation(card)} ({norwegian_name(card)})"
    return f"{english} · {' '.join(norwegian_notation(card) for card in cards)}"


def read_some(text: str, language: str | None = None) -> tuple[int, ...]:
    """The cards typed so far (autocomplete): all of `text`, or all but its last word
    (still being typed), or none."""
    words = text.replace(",", " ").split()
    for end in (len(words), len(words) - 1):
        try:
            return read_cards(" ".join(words[:max(0, end)]), language)
        except GameError:
            continue
    return ()


def typed_value(card: int, language: str | None = None) -> str:
    """How an autocomplete choice writes `card` for the command to read back: English
    notation (`QD`), or its symbol (`K♦`) where the notation reads as another card in
    the reader's language (`KD` is kløver dame in Norwegian)."""
    name = card_name(card)
    return name if read_card(name, language) == card else card_label(card)


def choice_name(card: int, language: str | None = None) -> str:
    """An autocomplete choice's name: the card's label, and in Norwegian its Norwegian
    letters and words too (`Q♦ · rd (ruter dame)`)."""
    label = card_label(card)
    if _language(language) != NORWEGIAN or card_name(card)[-1] not in SUITS:
        return label
    return f"{label} · {norwegian_notation(card)} ({norwegian_name(card)})"


def norwegian_suffix(cards: tuple[int, ...], language: str | None = None) -> str:
    """What an autocomplete choice naming `cards` adds in Norwegian: their Norwegian
    letters (` · s2 r2`); nothing in another language."""
    if _language(language) != NORWEGIAN or not cards:
        return ""
    return " · " + " ".join(norwegian_notation(card) for card in cards)


def typed_matches(card: int, typed: str, language: str | None = None) -> bool:
    """Whether what is typed so far starts one of the card's names: its notation, its
    label, or (in Norwegian) its Norwegian letters or words."""
    key = typed.strip().lower()
    names = [card_name(card), card_label(card)]
    if _language(language) == NORWEGIAN:
        names += [norwegian_notation(card), norwegian_name(card),
                  norwegian_name(card).replace("ø", "o")]
    return any(name.lower().startswith(key) for name in names)
