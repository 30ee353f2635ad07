"""The easy player: sound rules of thumb, no search.

Every decision is a function of masks and public facts, so the same code decides for a
real seat (from its `HandView`) and inside the strong player's play-outs (from a sampled
`Hand` or `Sim`, looking only at the acting seat's own cards and public facts).

Compiled with mypyc in regular installs (setup.py): the card policy runs at every card
of the strong player's play-outs.
"""

from __future__ import annotations

import random
from typing import Final

from bot.cards import (
    COURT_MASK,
    FULL_PACK,
    JOKER_BASE,
    JOKER_MASK,
    SUIT_MASKS,
    SUITS,
    bits,
    mask_of,
)
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.hand import Hand
from bot.games.amerikaner.rules import Rules
from bot.games.amerikaner.views import HandView

from .sim import GRAND, Sim, sim_from_hand, sim_from_view

# `Final`: the compiled build (mypyc) reads these as C constants.
ACE: Final = 12
KING: Final = 11
QUEEN: Final = 10
JACK: Final = 9

# --------------------------------------------------------------------------- helpers

# _COUNT13[x]: the cards in a 13-bit rank pattern (or the 3 joker bits). A table, not
# `int.bit_count()`, which compiled code (mypyc) calls as a Python-level method.
_COUNT13: Final[tuple[int, ...]] = tuple(x.bit_count() for x in range(8192))


def suit_len(held: int, suit: int) -> int:
    """The cards of `suit` (0-3) in `held`."""
    return _COUNT13[held >> (13 * suit) & 0x1FFF]


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def _rank_mask(suit_mask: int, suit: int) -> int:
    """A suit's cards as a 13-bit rank mask."""
    return (suit_mask >> (13 * suit)) & 0x1FFF


def masters(held: int, outstanding: int, suit: int) -> int:
    """The cards of `suit` in `held` that no outstanding card of the suit beats."""
    mine = held & SUIT_MASKS[suit]
    out = outstanding & SUIT_MASKS[suit]
    if not out:
        return mine
    return mine & ~((1 << out.bit_length()) - 1)


def suit_score(held: int, suit: int) -> float:
    """How good `suit` is as trumps: length and honours."""
    ranks = _rank_mask(held, suit)
    score = float(_COUNT13[ranks])
    score += 1.5 * (ranks >> ACE & 1) + 1.0 * (ranks >> KING & 1) + 0.5 * (ranks >> QUEEN & 1)
    score += 0.25 * (ranks >> JACK & 1)
    return score


def best_suit(held: int) -> int:
    """The suit this hand would choose as trumps (-1 if it holds no suited card)."""
    best, best_score = -1, -1.0
    for suit in range(4):
        if held & SUIT_MASKS[suit]:
            score = suit_score(held, suit)
            if score > best_score:
                best, best_score = suit, score
    return best


def _avg_len(rules: Rules) -> float:
    suited = (rules.pack & FULL_PACK).bit_count()
    return rules.cards_each * 13 / max(suited + rules.jokers, 1)


class _BidFacts:
    """The values of a rule set that `estimate_tricks` and `predict_team_tricks` read,
    worked out once per rule set: the strong player's inference estimates thousands of
    hands a decision, and each `Rules` attribute costs compiled code a Python-level
    look-up (rules.py is not compiled)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.avg_len: float = _avg_len(rules)
        self.two_wins: bool = "two_wins" in rules.options
        self.kitty_trick: bool = "kitty_trick" in rules.options
        self.partner: float = 0.75 + 0.55 * rules.cards_each / rules.players
        self.kitty: float = 0.3 * rules.kitty_size
        base = (0.58 - 0.04 * rules.players) if rules.kitty_size else 0.41
        self.base_tricks: float = base * rules.cards_each
        self.kitty_trick_bonus: float = 1.0 if self.kitty_trick else 0.0


# Facts by `id(rules)`: each entry holds its `Rules`, so the id cannot be reused while the
# entry lives; the identity check is belt and braces (as bot.games.amerikaner.hand's `_facts_of`).
_BID_FACTS: Final[dict[int, _BidFacts]] = {}
_BID_FACTS_MAX: Final = 256


def _bid_facts(rules: Rules) -> _BidFacts:
    facts = _BID_FACTS.get(id(rules))
    if facts is None or facts.rules is not rules:
        if len(_BID_FACTS) >= _BID_FACTS_MAX:
            _BID_FACTS.clear()
        facts = _BID_FACTS[id(rules)] = _BidFacts(rules)
    return facts


# --------------------------------------------------------------------------- bidding


def estimate_tricks(rules: Rules, held: int) -> float:
    """Tricks the bidder's team may expect with this hand as bidder (number contract):
    the bidder's own tricks from high cards and long trumps, the called card, an average
    partner, and what a kitty adds."""
    facts = _bid_facts(rules)
    avg = facts.avg_len
    trump = best_suit(held)
    tricks = 0.0
    if trump >= 0:
        ranks = _rank_mask(held, trump)
        length = _COUNT13[ranks]
        honours = ((ranks >> ACE & 1) + 0.85 * (ranks >> KING & 1) * (length >= 2)
                   + 0.5 * (ranks >> QUEEN & 1) * (length >= 3)
                   + 0.25 * (ranks >> JACK & 1) * (length >= 4))
        tricks += min(float(length), honours + max(0.0, length - avg) * 0.9)
        spare = max(0.0, length - avg)
    else:
        spare = 0.0
    ruffs = 0.0
    for suit in range(4):
        if suit == trump:
            continue
        ranks = _rank_mask(held, suit)
        length = _COUNT13[ranks]
        ace, king, queen = ranks >> ACE & 1, ranks >> KING & 1, ranks >> QUEEN & 1
        tricks += ace
        if king:
            tricks += 0.8 if ace else 0.45 if length >= 2 else 0.1
        if queen and length >= 3:
            tricks += 0.45 if ace and king else 0.2 if ace or king else 0.05
        if length < avg:
            ruffs += (avg - length) * 0.4
    tricks += min(ruffs, spare)
    tricks += _COUNT13[held >> JOKER_BASE & 7]  # jokers
    if facts.two_wins:
        tricks += 0.7 * sum(held >> (13 * s) & 1 for s in range(4))
    tricks += facts.partner  # an average partner
    tricks += facts.kitty  # 0.3 a kitty card
    if facts.kitty_trick:
        tricks += 1.0
    return tricks


def predict_team_tricks(rules: Rules, held: int) -> float:
    """`estimate_tricks` calibrated by play: the team's tricks in easy play-outs grow
    with the estimate much more slowly than one for one (a weak bidder still gets the
    kitty, its choice of trumps and the best partner)."""
    facts = _bid_facts(rules)
    # 0.45 * the estimate + (0.58 - 0.04 * players, or 0.41 without a kitty) * cards
    # each + 1 with `kitty_trick`.
    return 0.45 * estimate_tricks(rules, held) + facts.base_tricks + facts.kitty_trick_bonus


def solid_for_top(rules: Rules, held: int) -> bool:
    """Whether this hand can win every trick alone without trumps (the Amerikaner bid):
    in every suit the top sequence covers all the cards the others can hold, allowing
    the kitty to absorb a few losers."""
    losers = 0
    for suit in range(4):
        ranks = _rank_mask(held, suit)
        length = _COUNT13[ranks]
        if not length:
            continue
        top = 0
        for rank in range(ACE, -1, -1):
            if ranks >> rank & 1:
                top += 1
            else:
                break
        others = 13 - length
        if top < min(length, others):
            losers += length - top
    return losers <= rules.kitty_size // 2


def bid_decision(rules: Rules, held: int, bids: list[int], can_redeal: bool) -> int | str:
    """"redeal", "pass" or a bid value (the top bid as `rules.top_value`); `bids` are the
    legal bid values (number bids ascending, then the top value). The same whatever the
    others did: a bid after every other player has passed wins the contract at once
    (docs/rules-amerikaner.md section 3), like any other bid that the others pass."""
    if can_redeal and _weak_for_redeal(held):
        return "redeal"
    if not bids:
        return "pass"
    top = rules.top_value
    if rules.style.top_with_trumps:  # all the tricks, with trumps and a partner
        if estimate_tricks(rules, held) >= 14.0:
            return top
    elif solid_for_top(rules, held) and held.bit_count() >= rules.cards_each:
        return top
    numbers = [b for b in bids if b != top]
    if not numbers:
        return "pass"
    est = predict_team_tricks(rules, held)
    margin = rules.style.bid_margin
    if numbers[0] <= est - margin:
        return numbers[0]
    return "pass"


def _weak_for_redeal(held: int) -> bool:
    if held & COURT_MASK:
        return False
    aces = sum(held >> (13 * s + ACE) & 1 for s in range(4))
    return aces < 2


# --------------------------------------------------------------------------- kitty, blind


def choose_discards(rules: Rules, held: int, count: int) -> tuple[int, ...]:
    """`count` cards to discard after taking the kitty: keep the trump suit, aces and
    jokers; void the shortest side suits, low cards first."""
    trump = best_suit(held)
    chosen: list[int] = []
    rest = held
    two_wins = "two_wins" in rules.options
    for _ in range(count):
        best_card, best_key = -1, 1e9
        for card in bits(rest):
            if card >= JOKER_BASE:
                key = 500.0
            else:
                suit, rank = card // 13, card % 13
                length = suit_len(rest, suit)
                key = rank + 2.0 * length
                if suit == trump:
                    key += 200
                if rank == ACE or masters(rest, FULL_PACK & ~held, suit) >> card & 1:
                    key += 100
                if rank == KING and length >= 2:
                    key += 8
                if two_wins and rank == 0:
                    key += 150
            if key < best_key:
                best_card, best_key = card, key
        chosen.append(best_card)
        rest &= ~(1 << best_card)
    return tuple(chosen)


def choose_exchange(rules: Rules, held: int) -> tuple[int, ...]:
    """Cards to give to the blind (norsk): low cards outside the likely trump suit."""
    trump = best_suit(held)
    weak = [c for c in bits(held) if c < JOKER_BASE and c // 13 != trump and c % 13 <= 4]
    weak.sort(key=lambda c: (c % 13, suit_len(held, c // 13)))
    return tuple(weak[:rules.blind_size])


# --------------------------------------------------------------------------- opening lead


def opening_choice(rules: Rules, held: int, calls: dict[int, int]) -> tuple[int, int | None,
                                                                          str | None]:
    """The opening lead of a number bid or Kani: (card, call, trump). Lead the lowest
    card of the best suit (it becomes trump) and call the highest card of it not held:
    the partner's called card then wins the first trick."""
    suit = -1
    best_score = 0.0
    for s in calls:  # the first suit of the best score, as max(..., key=...) picks
        if held & SUIT_MASKS[s]:
            score = suit_score(held, s)
            if suit < 0 or score > best_score:
                suit, best_score = s, score
    if suit < 0:
        raise ValueError("opening_choice: no callable suit is held")
    mine = held & SUIT_MASKS[suit]
    card = lowest(mine)
    if "two_wins" in rules.options and mine & (1 << (13 * suit)):
        card = 13 * suit  # a 2 led wins the trick anyway
    call_mask = calls[suit]
    call = highest(call_mask) if call_mask else None
    trump: str | None = None
    if "free_trump" in rules.options:
        length = suit_len(held, suit)
        aces = sum(held >> (13 * s + ACE) & 1 for s in range(4))
        if length <= 3 and aces >= 3:
            trump = "grand"
    return card, call, trump


# --------------------------------------------------------------------------- card play


def friend(sim: Sim, seat: int, other: int) -> bool:
    """Whether `seat` knows `other` to be on its side (own hand and public facts only)."""
    if other == seat:
        return True
    bidder = sim.bidder
    if sim.all_pass or bidder < 0:
        return False
    if sim.top:
        return seat != bidder and other != bidder
    partner = sim.partner
    if partner < 0 and sim.called_holder == seat:
        partner = seat  # it holds the called card: it knows it is the partner
    if seat == bidder:
        return other == partner
    if seat == partner:
        return other == bidder
    if other == bidder:
        return False
    if partner >= 0:
        return other != partner
    # The partner is unknown only during the first trick (or there is none).
    return sim.called < 0 or sim.tricks_done > 0


def outstanding(sim: Sim, seat: int) -> int:
    """Cards that someone else may still play, as `seat` knows."""
    out = sim.rules.pack & ~sim.played & ~sim.hands[seat] & ~sim.out
    if seat == sim.bidder:
        out &= ~sim.discards
    return out


def easy_card(sim: Sim) -> int:
    """The easy player's card for the seat to act (trick play, not a number bid's
    opening lead)."""
    seat = sim.to_act
    legal = sim.legal()
    if legal & (legal - 1) == 0:
        return highest(legal)
    if not sim.trick:
        return _lead(sim, seat, legal)
    return _follow(sim, seat, legal)


def _discard_key(sim: Sim, held: int, card: int, out: int) -> float:
    if card >= JOKER_BASE:
        return 400.0
    suit, rank = card // 13, card % 13
    key = rank + 1.5 * suit_len(held, suit)
    if suit == sim.trump:
        key += 200
    if masters(held, out, suit) >> card & 1:
        key += 100
    if sim.two_wins and rank == 0:
        key += 150
    return key


def _cheap(sim: Sim, seat: int, legal: int) -> int:
    """The card that costs least: lowest of the suit led when following, else a
    discard from a short side suit, keeping trumps, masters and jokers."""
    if sim.led >= 0 and legal & SUIT_MASKS[sim.led] == legal:
        return lowest(legal)
    held = sim.hands[seat]
    out = outstanding(sim, seat)
    best, best_key = -1, 1e9
    for card in bits(legal):
        key = _discard_key(sim, held, card, out)
        if key < best_key:
            best, best_key = card, key
    return best


def _lead(sim: Sim, seat: int, legal: int) -> int:
    held = legal
    if sim.all_pass:
        return _misere_lead(sim, seat, held)
    jokers = held & JOKER_MASK
    if jokers:
        return highest(jokers)
    if sim.two_wins:
        for suit in range(4):
            if held >> (13 * suit) & 1:
                return 13 * suit
    out = outstanding(sim, seat)
    trump = sim.trump
    bidder_side = seat == sim.bidder or friend(sim, seat, sim.bidder)
    real_trump = 0 <= trump < 4
    if real_trump and bidder_side:
        mine = held & SUIT_MASKS[trump]
        theirs = out & SUIT_MASKS[trump]
        if mine and theirs:
            top = masters(held, out, trump)
            if top:
                return lowest(top)
            if suit_len(held, trump) >= suit_len(out, trump) + 1:
                return lowest(mine)
    # A master in a side suit (the suit with most cards still out stands best).
    best, best_out = -1, -1
    for suit in range(4):
        if real_trump and suit == trump:
            continue
        top = masters(held, out, suit)
        if top:
            left = suit_len(out, suit)
            if left > best_out:
                best, best_out = lowest(top), left
    if best >= 0 and (best_out > 0 or not real_trump or not out & SUIT_MASKS[trump]):
        return best
    # Otherwise low from the longest side suit.
    best, best_len = -1, -1
    for suit in range(4):
        if real_trump and suit == trump and held & ~SUIT_MASKS[trump] & ~JOKER_MASK:
            continue
        length = suit_len(held, suit)
        if length > best_len:
            best, best_len = lowest(held & SUIT_MASKS[suit]), length
    if best < 0:
        best = lowest(held)
    return best


def _misere_lead(sim: Sim, seat: int, held: int) -> int:
    """All-pass play: every trick costs a point. Lead the card least likely to win."""
    out = outstanding(sim, seat)
    best, best_key = -1, 1e9
    for card in bits(held):
        if card >= JOKER_BASE:
            key = 1000.0
        else:
            suit, rank = card // 13, card % 13
            if sim.two_wins and rank == 0:
                key = 900.0
            else:
                above = (out & SUIT_MASKS[suit] & ~((1 << (card + 1)) - 1)).bit_count()
                key = rank - 3.0 * above
        if key < best_key:
            best, best_key = card, key
    return best


def _follow(sim: Sim, seat: int, legal: int) -> int:
    table = sim.table
    win_str = sim.win_str
    n = sim.n
    last = len(sim.trick) == n - 1
    winners = 0
    for card in bits(legal):
        if table[card] > win_str:
            winners |= 1 << card
    if sim.all_pass:
        losers = legal & ~winners
        if losers:
            if sim.led >= 0 and losers & SUIT_MASKS[sim.led]:
                return highest(losers & SUIT_MASKS[sim.led])
            return _highest_rank(losers)
        return highest(legal) if last else _cheapest_winner(table, winners)
    if friend(sim, seat, sim.win_seat):
        return _cheap(sim, seat, legal)
    if not winners:
        return _cheap(sim, seat, legal)
    cheapest = _cheapest_winner(table, winners)
    if last:
        return cheapest
    led = sim.led
    if led >= 0 and not legal & SUIT_MASKS[led]:
        return cheapest  # ruff as cheaply as possible
    out = outstanding(sim, seat)
    if led >= 0:
        top = masters(legal, out, led) & winners
        trumped = 0 <= sim.trump < 4 and sim.trump != led and win_str >= 100
        if top and not trumped:
            return lowest(top)
    # Third hand high when no partner is still to play; otherwise let the partner win.
    for i in range(1, n - len(sim.trick)):
        if friend(sim, seat, (seat + i) % n):
            return _cheap(sim, seat, legal)
    return cheapest


def _cheapest_winner(table: tuple[int, ...], winners: int) -> int:
    """The winner of least strength (the lowest card of those, as min(..., key=...))."""
    best, best_str = -1, 0
    for card in bits(winners):
        strength = table[card]
        if best < 0 or strength < best_str:
            best, best_str = card, strength
    if best < 0:
        raise ValueError("_cheapest_winner: no winner")
    return best


def _highest_rank(cards: int) -> int:
    """The card of highest rank (jokers lowest), the lowest card of those: as
    max(bits(cards), key=...) picks."""
    best, best_rank = -1, 0
    for card in bits(cards):
        rank = card % 13 if card < JOKER_BASE else -1
        if best < 0 or rank > best_rank:
            best, best_rank = card, rank
    return best


# --------------------------------------------------------------------------- hands


def easy_hand_action(hand: Hand, rng: random.Random | None = None) -> Action:
    """The easy player's action for the seat to act in a full `Hand` (play-outs): uses
    only that seat's cards and public facts."""
    seat = hand.to_act
    phase = hand.phase
    rules = hand.rules
    held = hand.hands[seat]
    if phase == "bid":
        choice = bid_decision(rules, held, hand.legal_bids(), hand.can_redeal(seat))
        if choice == "redeal":
            return Action.redeal(seat)
        if choice == "pass":
            return Action.pass_(seat)
        assert isinstance(choice, int)
        return Action.make_bid(seat, rules.bid_name(choice))
    if phase == "exchange":
        return Action.exchange(seat, choose_exchange(rules, held))
    if phase == "discard":
        return Action.discard(seat, choose_discards(rules, held, rules.kitty_size))
    if phase == "lead" and hand.with_trumps:
        card, call, trump = opening_choice(rules, held, hand.lead_calls())
        return Action.play(seat, card, call, trump)
    return Action.play(seat, easy_card(sim_from_hand(hand)))


# --------------------------------------------------------------------------- views


def easy_action(view: HandView, rng: random.Random) -> Action:
    """The easy player's action for `view.seat` (whose turn it must be)."""
    legal = view.legal
    seat = view.seat
    if legal is None or seat is None or view.cards is None:
        raise ValueError("easy_action needs the view of the seat to act")
    rules = view.rules
    held = mask_of(view.cards)
    phase = legal.phase
    if phase == "bid":
        bids = [rules.top_value if isinstance(b, str) else b for b in legal.bids]
        choice = bid_decision(rules, held, bids, legal.can_redeal)
        if choice == "redeal":
            return Action.redeal(seat)
        if choice == "pass" or choice not in bids:
            return Action.pass_(seat)
        assert isinstance(choice, int)
        return Action.make_bid(seat, rules.bid_name(choice))
    if phase == "exchange":
        return Action.exchange(seat, choose_exchange(rules, held))
    if phase == "discard":
        return Action.discard(seat, choose_discards(rules, held, legal.card_count[0]))
    if phase == "lead" and legal.calls:
        calls = {s: sum(1 << c for c in cards) for s, cards in legal.calls}
        card, call, trump = opening_choice(rules, held, calls)
        if trump is not None and trump not in legal.trumps:
            trump = None
        return Action.play(seat, card, call, trump)
    sim = sim_from_view(view)
    card = easy_card(sim)
    if card not in legal.cards:  # never expected; stay legal whatever happens
        card = legal.cards[-1]
    return Action.play(seat, card)


__all__ = ["GRAND", "SUITS", "easy_action", "easy_card", "easy_hand_action",
           "estimate_tricks", "bid_decision", "choose_discards", "choose_exchange",
           "opening_choice", "friend"]
