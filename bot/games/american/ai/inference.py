"""What the others' hidden hand cards cannot be, read from what everyone saw (issue 40).

The strong player replays the deal's public actions (`DealView.history`, from the face-up
rows as dealt) and keeps, for every other seat, one entry per hand card nobody has seen
(dealt, drawn or a face-down card taken up): the ranks that card cannot be. Two kinds of
reading add ranks:

- **Rules** (certain): a player who picks up the pile without `voluntary_pickup` could
  play nothing on it (section 4): no hidden card is of a rank playable on that top.
- **The seat's way of playing** (a model): a player who has played like the easy policy
  so far (the lowest rank first with every copy, 2s, 10s and aces kept for when nothing
  else goes, a 10 on a big pile, a pick-up only when it must) is read as one: a 7 played on
  a 5 says no 6 was held, nor another 7; an ace says nothing lower could go. A player seen
  to play otherwise (a higher rank while holding a lower playable one everyone knew of,
  or a hidden card that the reading had ruled out) is read by the rules only from then on.

Entries are removed as the seat plays hidden cards; cards drawn or taken up face down
come in with no ranks ruled out. The sampler deals each world's unseen cards into these
entries first (`Reading.excluded`), so sampled hands agree with what the table showed.
A face-down card turned over (`blind_down`) is not in the history: the replay stops there
and the entries are fitted to the sizes the view shows.
"""

from __future__ import annotations

from bot.games.american.actions import FLIP, PICKUP, PLAY, SWAP
from bot.games.american.rules import ROW
from bot.games.american.state import ACE, NO_RANK, RANK_CARDS, TEN, TWO, rank_playable
from bot.games.american.views import DealView

from .easy import BIG_PILE, EASY_STYLE, ONE_COPY, SPEND

_ALL_RANKS = (1 << 13) - 1
_SPECIAL_RANKS = (1 << TWO) | (1 << TEN) | (1 << ACE)
# Set to False (a benchmark may) to read by the rules only.
READ_POLICY: bool = True
# A seat is read as playing another style than easy's (easy.py: SPEND, ONE_COPY) once
# the table has shown it this many times, and more often than the easy way.
STYLE_EVIDENCE: int = 2
# A 2 or an ace played from a full hand on a top this many normal ranks could go on
# counts as spent by choice: an easy player holds none of them about 1 time in 50 (a 6
# on top, 7 ranks, is 1 in 12: too often, the tests found an easy seat misread so).
_OPEN_TOP: int = 9


def _playable_ranks(top: int, same_rank: bool) -> int:
    mask = 0
    for rank in range(13):
        if rank_playable(rank, top, same_rank):
            mask |= 1 << rank
    return mask


def _easy_excluded(rank: int, count_played: int, playable: int, pile_size: int,
                   deck: int) -> int:
    """The ranks an easy-like player cannot have held (hidden) when it played
    `count_played` cards of `rank` with `playable` the ranks that could go on the pile."""
    excluded = 0
    if pile_size >= BIG_PILE and rank != TEN:
        excluded |= 1 << TEN  # it would have burned the big pile with a 10
    normal = playable & ~_SPECIAL_RANKS
    if not (1 << rank) & _SPECIAL_RANKS:
        # The lowest normal playable rank, every copy: nothing lower, no copy left.
        excluded |= normal & ((1 << rank) - 1)
        excluded |= 1 << rank
        return excluded
    if rank == TEN and pile_size >= BIG_PILE:
        return excluded
    excluded |= normal  # a 2, 10 or ace only when nothing normal could go
    if rank == ACE:
        if deck == 0:
            excluded |= 1 << ACE  # every ace goes at once when the deck is gone
        return excluded
    excluded |= playable & (1 << ACE)  # an ace before a 2, a 2 before a 10
    if rank == TEN:
        excluded |= playable & (1 << TWO)
    return excluded


class Reading:
    """Per seat, the ranks each hidden hand card cannot be (most ruled out first)."""

    def __init__(self, view: DealView) -> None:
        n = view.rules.players
        options = view.rules.options
        same_rank = "same_rank" in options
        four_burns = "four_burns" in options
        voluntary = "voluntary_pickup" in options
        me = view.seat if view.seat is not None else -1
        # The replay's public state.
        hand_size = [ROW] * n
        known = [0] * n
        up: list[list[int]] = [list(row) for row in view.dealt_up]
        if len(up) != n:
            up = [[] for _ in range(n)]
        down = [ROW] * n
        deck = 52 - 3 * ROW * n
        pile: list[int] = []  # cards, bottom first
        slots: list[list[int]] = [[0] * ROW for _ in range(n)]  # per hidden card: ranks out
        erratic = [not READ_POLICY] * n
        # The evidence of each seat's style: special cards spent by choice and kept
        # while a normal rank went; single copies played while holding another, and
        # several copies played at once.
        spent = [0] * n
        kept = [0] * n
        single = [0] * n
        several = [0] * n
        for action in view.history:
            seat = action.seat
            kind = action.kind
            if kind == FLIP:
                break  # the card turned over is not in the history: stop reading here
            if kind == SWAP:
                for card in action.cards:  # hand cards given: go face up
                    if known[seat] >> card & 1:
                        known[seat] &= ~(1 << card)
                    else:
                        _remove(slots[seat], card % 13)
                for card in action.up:
                    known[seat] |= 1 << card
                row = up[seat]
                for give, take in zip(action.cards, action.up, strict=False):
                    if take in row:
                        row[row.index(take)] = give
                continue
            top = pile[-1] % 13 if pile else NO_RANK
            playable = _playable_ranks(top, same_rank)
            if kind == PICKUP:
                if voluntary:
                    if not erratic[seat]:
                        _exclude(slots[seat], playable, False)
                else:
                    _exclude(slots[seat], playable, True)
                for card in pile:
                    known[seat] |= 1 << card
                hand_size[seat] += len(pile)
                pile = []
                continue
            if kind != PLAY:
                continue
            cards = action.cards
            rank = cards[0] % 13
            if seat != me:
                _style_evidence(seat, cards, playable, known[seat], len(pile),
                                hand_size[seat], spent, kept, single, several)
            if seat != me and not erratic[seat]:
                held_normal = _ranks_of(known[seat])
                lower = playable & ~_SPECIAL_RANKS & ((1 << rank) - 1)
                if not (1 << rank) & _SPECIAL_RANKS and held_normal & lower:
                    erratic[seat] = True  # skipped a lower playable rank it held
                    _clear_soft(slots[seat])
            for card in cards:
                if known[seat] >> card & 1:
                    known[seat] &= ~(1 << card)
                elif not _remove(slots[seat], rank) and not erratic[seat]:
                    erratic[seat] = True  # a card the reading ruled out
                    _clear_soft(slots[seat])
            if seat != me and not erratic[seat]:
                _exclude(slots[seat], _easy_excluded(rank, len(cards), playable, len(pile),
                                                     deck), False)
            hand_size[seat] -= len(cards)
            drawn = min(deck, max(0, ROW - hand_size[seat]))
            deck -= drawn
            hand_size[seat] += drawn
            slots[seat].extend([0] * drawn)
            pile.extend(cards)
            if rank == TEN or (four_burns and len(pile) >= 4 and pile[-1] % 13
                               == pile[-2] % 13 == pile[-3] % 13 == pile[-4] % 13):
                pile = []
            if hand_size[seat] == 0 and deck == 0:
                if up[seat]:
                    for card in up[seat]:
                        known[seat] |= 1 << card
                    hand_size[seat] = len(up[seat])
                    up[seat] = []
                elif down[seat] and "blind_down" not in options:
                    hand_size[seat] = down[seat]
                    slots[seat].extend([0] * down[seat])
                    down[seat] = 0
        # Per seat, the style its play-outs use (0: the easy policy, also for this seat).
        self.styles: list[int] = [
            EASY_STYLE
            | (SPEND if spent[s] >= STYLE_EVIDENCE and spent[s] > kept[s] else 0)
            | (ONE_COPY if single[s] >= STYLE_EVIDENCE and single[s] > several[s] else 0)
            for s in range(n)]
        # Fit the entries to the hidden cards the view shows (they differ only after a
        # card turned over, which the replay does not follow).
        self.excluded: list[list[int]] = []
        for other in view.seats:
            hidden = other.hand_size - len(other.known)
            entries = slots[other.seat][:] if other.seat != me else []
            entries.sort(reverse=True, key=_weight)
            while len(entries) > hidden:
                entries.pop()
            while len(entries) < hidden:
                entries.append(0)
            self.excluded.append([(mask | mask >> _SOFT_SHIFT) & _ALL_RANKS
                                  for mask in entries])


def _ranks_of(cards: int) -> int:
    """The ranks (bit r for rank r) of the cards in a mask."""
    ranks = 0
    for rank in range(13):
        if cards & RANK_CARDS[rank]:
            ranks |= 1 << rank
    return ranks


def _style_evidence(seat: int, cards: tuple[int, ...], playable: int, known: int,
                    pile_size: int, hand_size: int, spent: list[int], kept: list[int],
                    single: list[int], several: list[int]) -> None:
    """Count what the play of `cards` by `seat` shows of its style. `playable`: the
    ranks that could go on the pile; `known`: the seat's hand cards everyone saw."""
    rank = cards[0] % 13
    normal = playable & ~_SPECIAL_RANKS
    known_ranks = _ranks_of(known)
    if (1 << rank) & _SPECIAL_RANKS:
        if rank == TEN:
            return  # a style spends aces and 2s early, not 10s
        if pile_size >= BIG_PILE and playable & (1 << TEN) and known_ranks & (1 << TEN):
            return  # it held a 10 for the big pile: neither style would play this
        if hand_size >= ROW and (known_ranks & normal or normal.bit_count() >= _OPEN_TOP):
            spent[seat] += 1
        return
    if known_ranks & playable & _SPECIAL_RANKS:
        kept[seat] += 1
    if len(cards) > 1:
        several[seat] += 1
    elif known & RANK_CARDS[rank] & ~(1 << cards[0]):
        single[seat] += 1


# An entry holds the ranks ruled out by the rules in its low 16 bits and those ruled out
# by the seat's way of playing above them; `_weight` orders entries most ruled out first.
_SOFT_SHIFT = 16


def _weight(mask: int) -> int:
    return (mask | mask >> _SOFT_SHIFT).bit_count()


def _exclude(slots: list[int], ranks: int, certain: bool) -> None:
    add = ranks if certain else ranks << _SOFT_SHIFT
    for i in range(len(slots)):
        slots[i] |= add


def _clear_soft(slots: list[int]) -> None:
    for i in range(len(slots)):
        slots[i] &= 0xFFFF


def _remove(slots: list[int], rank: int) -> bool:
    """Remove the entry a hidden card of `rank` was: the most ruled out one that allows
    it. False (and the least ruled-out entry removed) if none does."""
    if not slots:
        return False
    bit = 1 << rank
    best = -1
    for i in range(len(slots)):
        both = slots[i] | slots[i] >> _SOFT_SHIFT
        if not both & bit and (best < 0 or _weight(slots[i]) > _weight(slots[best])):
            best = i
    if best >= 0:
        slots.pop(best)
        return True
    least = 0
    for i in range(1, len(slots)):
        if _weight(slots[i]) < _weight(slots[least]):
            least = i
    slots.pop(least)
    return False
