"""What a seat knows about the cards it cannot see, and deals sampled consistently with it.

From a `HandView` alone: the cards played and by whom, suits a seat has shown void in
(failing to follow, or a joker played to a suit led), the called card's possible holders
(not the bidder, not a seat that played to the first trick without it, nobody once the
first trick is over without it), the kitty when known, the seat's own discards, where
the cards it gave to the blind went (norsk: the blind is a queue and the exchange counts
are public), and how many cards each hand holds.

`sample_world` then distributes the unseen cards among the other hands, the aside pile
(the kitty before it is taken, or the bidder's unknown discards) and the blind, and
rebuilds a full `Hand` by replaying the public history on that deal. The replay goes
through the core's own checks, so a sampled world is always a legal one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.cards import JOKER_BASE, bits
from bot.games.amerikaner.deal import Deal
from bot.games.amerikaner.hand import DISCARD, EXCHANGE, LEAD, Hand
from bot.games.amerikaner.views import HandView


def _mask(cards: tuple[int, ...] | None) -> int:
    out = 0
    for card in cards or ():
        out |= 1 << card
    return out


@dataclass(slots=True)
class Knowledge:
    seat: int
    n: int
    mine: int
    played_by: list[int]
    voids: list[int]  # per seat, a 4-bit mask of suits it cannot hold
    fixed: list[int]  # cards known to be in another seat's hand
    blind_known: int
    unseen: int
    caps: list[int]  # capacities of sinks: seats 0..n-1, aside (n), blind (n+1)
    allowed: list[tuple[int, tuple[int, ...]]]  # (card, sinks it may go to), hardest first
    kitty_taken: bool
    kitty: int  # the kitty's cards, when known to this seat
    discards: int  # this seat's own discards (if it is the bidder)


def exchange_order(view: HandView) -> list[int]:
    n = view.rules.players
    return [(view.dealer + 1 + i) % n for i in range(n)]


def build_knowledge(view: HandView) -> Knowledge:
    rules = view.rules
    n = rules.players
    seat = view.seat
    assert seat is not None and view.cards is not None
    mine = _mask(view.cards)
    played_by = [0] * n
    voids = [0] * n
    first_trick_seats = 0
    tricks = list(view.tricks) + ([view.trick] if view.trick else [])
    for index, trick in enumerate(tricks):
        led = trick.plays[0][1]
        for i, (s, card) in enumerate(trick.plays):
            played_by[s] |= 1 << card
            if index == 0:
                first_trick_seats |= 1 << s
            if i and led < JOKER_BASE and (card >= JOKER_BASE or card // 13 != led // 13):
                voids[s] |= 1 << (led // 13)
    played = 0
    for mask in played_by:
        played |= mask

    fixed = [0] * n
    blind_known = 0
    if rules.blind_size and view.exchange_given is not None:
        queue: list[int] = [-1] * rules.blind_size
        for s in exchange_order(view):
            k = view.exchanged[s]
            if k is None:
                break
            taken, queue = queue[:k], queue[k:]
            queue += list(view.exchange_given) if s == seat else [-1] * k
            if s != seat:
                for card in taken:
                    if card >= 0:
                        fixed[s] |= 1 << card
        for card in queue:
            if card >= 0:
                blind_known |= 1 << card
    for s in range(n):
        fixed[s] &= ~played_by[s]
    fixed[seat] = 0

    bidder = view.bidder
    kitty_taken = bool(rules.kitty_size) and bidder is not None
    kitty = _mask(view.kitty)
    discards = _mask(view.discards)
    removed = _mask(rules.removed)
    known_fixed = 0
    for mask in fixed:
        known_fixed |= mask
    unseen = rules.pack & ~mine & ~played & ~removed & ~blind_known & ~known_fixed & ~discards

    aside_cap = 0
    if rules.kitty_size and (not kitty_taken or bidder != seat):
        aside_cap = rules.kitty_size
    caps = [0] * (n + 2)
    for s in range(n):
        if s != seat:
            caps[s] = view.hand_sizes[s] - fixed[s].bit_count()
    caps[n] = aside_cap
    caps[n + 1] = rules.blind_size - blind_known.bit_count() if rules.blind_size else 0

    called = view.called
    called_open = called is not None and not played >> called & 1
    allowed: list[tuple[int, tuple[int, ...]]] = []
    for card in bits(unseen):
        suit = card // 13 if card < JOKER_BASE else -1
        sinks = [s for s in range(n) if s != seat and (suit < 0 or not voids[s] >> suit & 1)]
        sinks += [n, n + 1]
        if kitty_taken and bidder != seat and kitty >> card & 1:
            sinks = [s for s in sinks if s in (bidder, n)]
        if called_open and card == called:
            sinks = [s for s in sinks if s != bidder and s != n]
            if view.tricks:
                sinks = [s for s in sinks if s >= n]
            else:
                sinks = [s for s in sinks if s >= n or not first_trick_seats >> s & 1]
        allowed.append((card, tuple(s for s in sinks if caps[s] > 0)))
    allowed.sort(key=lambda item: len(item[1]))
    return Knowledge(seat=seat, n=n, mine=mine, played_by=played_by, voids=voids,
                     fixed=fixed, blind_known=blind_known, unseen=unseen, caps=caps,
                     allowed=allowed, kitty_taken=kitty_taken, kitty=kitty,
                     discards=discards)


def sample_sinks(know: Knowledge, rng: random.Random, tries: int = 20) -> list[int] | None:
    """The unseen cards dealt to sinks (seats, aside, blind), each card to a sink it may
    be in, each sink filled to its size; None if no such deal was found."""
    rand = rng.random
    allowed = know.allowed
    for _ in range(tries):
        caps = know.caps[:]
        out = [0] * len(caps)
        ok = True
        for card, sinks in allowed:
            total = 0
            for s in sinks:
                total += caps[s]
            if total <= 0:
                ok = False
                break
            pick = rand() * total
            chosen = sinks[-1]
            for s in sinks:
                c = caps[s]
                if pick < c:
                    chosen = s
                    break
                pick -= c
            if caps[chosen] <= 0:  # rounding at the edge
                chosen = next(s for s in sinks if caps[s] > 0)
            caps[chosen] -= 1
            out[chosen] |= 1 << card
        if ok:
            return out
    return None


def build_world(view: HandView, know: Knowledge, sinks: list[int]) -> Hand:
    """A full `Hand` at the view's moment, on the sampled deal: the public history is
    replayed through the core (which raises `GameError` if the sample breaks a rule)."""
    rules = view.rules
    n = know.n
    seat = know.seat
    now = [know.mine if s == seat else sinks[s] | know.fixed[s] for s in range(n)]
    orig = [now[s] | know.played_by[s] for s in range(n)]
    aside = sinks[n]
    blind = sinks[n + 1] | know.blind_known
    kitty = 0
    discards = 0
    bidder = view.bidder
    if rules.kitty_size:
        if know.kitty_taken:
            assert bidder is not None
            if bidder == seat:
                kitty = know.kitty
                discards = know.discards
            elif know.kitty:
                kitty = know.kitty
                discards = aside
            else:
                kitty = discards = aside  # which cards were the kitty is unknown
            orig[bidder] = (orig[bidder] | discards) & ~kitty
        else:
            kitty = aside
    kitty_cards = view.kitty if view.kitty is not None else bits(kitty)
    deal = Deal(hands=tuple(bits(o) for o in orig), kitty=kitty_cards, blind=bits(blind),
                removed=rules.removed)
    hand = Hand(rules, view.dealer, deal, validate=False)
    if rules.blind_size:
        for s in exchange_order(view):
            if hand.phase != EXCHANGE or view.exchanged[s] is None:
                break
            hand.exchange(s, ())
    for s, bid in view.auction:
        if bid == "pass":
            hand.pass_turn(s)
        else:
            hand.bid(s, bid)
    if hand.phase == DISCARD and view.phase != DISCARD:
        assert bidder is not None
        hand.discard(bidder, bits(discards))
    free_trump = "free_trump" in rules.options
    tricks = list(view.tricks) + ([view.trick] if view.trick else [])
    for trick in tricks:
        for s, card in trick.plays:
            if hand.phase == LEAD and hand.with_trumps:
                hand.play(s, card, view.called, view.trump if free_trump else None)
            else:
                hand.play(s, card)
    return hand
