"""A claim ("resten står"): a player on lead claims every remaining trick of the hand.

When: only in the card play, by the seat to act, when it is to lead a trick. Not at the
opening lead of a number bid or Kani, which must name the called card (and with
`free_trump` the trump) with the card it leads (docs/rules-amerikaner.md § 5); the opening lead of
Amerikaner, or of a hand everyone passed, names nothing, so a claim may come there.

Accepted when it holds against *every* distribution of the cards the claimer cannot see
and every legal play of the others, the claimer playing one fixed line:

1. its trumps that no unseen card beats when led (the top trumps; a 2 under
   `two_wins`), from the top. Each trump led makes every other hand that still holds a
   trump play one, so once the claimer has led as many of them as one hand may hold
   unseen trumps (all the unseen trumps, or the cards left in a hand if fewer), no trump
   can remain outside its hand;
2. then its other trumps from the top, and its other cards, suit by suit from the top.

So a claim holds when every card the claimer holds wins its trick once the trumps are
drawn (no unseen card of its suit beats it: it is the highest left, a joker, or a 2 led
under `two_wins`), and, if some card needs the trumps drawn, it has enough such top
trumps to draw them all. Otherwise it is refused, naming a card that could still beat it.

The unseen cards are the pack's cards not in the claimer's hand, not yet played and, for
the bidder, not among its discards. Where they lie (the other hands, the blind, the
bidder's discards) and the voids players have shown are not used: a claim that some
distribution could beat is never accepted, and a few that could not fail are refused
(a lone king that must fall under the ace, say). The claimer plays alone: its partner's
cards are unseen like anyone's. The check reads only the claimer's seat view, so a
refusal tells the claimer nothing it did not know.

An accepted claim is played out by the rules core on a copy of the hand: the claimer's
line, and for every other seat its lowest legal card in the true hand. The result is
ordinary `play` actions, exactly as the core records them, to be applied one by one: the
game record stays standard, and the claim itself changes nothing.
"""

from __future__ import annotations

from typing import Final

from bot.cards import JOKER_BASE, SUIT_MASKS, SUITS, bits, cards_of, highest_in, mask_of
from bot.errors import GameError

from .actions import Action
from .game import Game
from .hand import DONE, GRAND, LEAD, LEAD_WINS, NO_TRUMP, PLAY, STRENGTH, Hand
from .views import HandView, hand_view

# The refusal code of a claim (only Amerikaner makes claims); `reason` says which:
# not_play, not_your_turn, not_on_lead, opening_lead, card_out, trump_out.
INVALID_CLAIM: Final = "invalid_claim"


def claim(game: Game, seat: int) -> list[Action]:
    """`seat` claims every remaining trick of the current hand: the plays, every seat's
    in order, that finish the hand with the claimer winning each trick. Refused with
    `GameError(invalid_claim, reason=...)` when the claim could fail or may not be made
    now. Changes nothing."""
    hand = game.current
    if game.finished or hand is None or hand.finished:
        raise GameError(INVALID_CLAIM, reason="not_play", phase=DONE)
    return claim_hand(hand, seat)


def claim_hand(hand: Hand, seat: int) -> list[Action]:
    """`claim` for one hand."""
    check_claim_time(hand, seat)
    line = claim_line(hand_view(hand, seat))
    return _play_out(hand, seat, line)


def check_claim_time(hand: Hand, seat: int) -> None:
    """Refuse a claim that may not be made now (only public facts are read)."""
    if hand.phase not in (LEAD, PLAY):
        raise GameError(INVALID_CLAIM, reason="not_play", phase=hand.phase)
    if seat != hand.to_act:
        raise GameError(INVALID_CLAIM, reason="not_your_turn", to_act=hand.to_act, seat=seat)
    if hand.trick:
        raise GameError(INVALID_CLAIM, reason="not_on_lead")
    if hand.phase == LEAD and hand.with_trumps:
        raise GameError(INVALID_CLAIM, reason="opening_lead")


def claim_line(view: HandView) -> tuple[int, ...]:
    """The cards the claimer leads, in order, when its claim holds against every
    distribution of the cards it cannot see (see the module's docstring); refused with
    `GameError(invalid_claim)` naming a card that could beat it otherwise. Reads only
    the claimer's view, on lead in the card play."""
    assert view.seat is not None and view.cards is not None
    held = mask_of(view.cards)
    unseen = view.rules.pack & ~held & ~_played(view) & ~mask_of(view.discards or ())
    trump = _trump_index(view.trump)
    trumps = SUIT_MASKS[trump] if 0 <= trump < 4 else 0
    two_wins = "two_wins" in view.rules.options
    masters = needs_draw = 0
    for card in cards_of(held):  # from the top, so a refusal names the claimer's best card
        threats = _beaten_by(card, trump, two_wins) & unseen
        if not threats:
            masters |= 1 << card
        elif threats & ~trumps:  # a higher card of its suit is out: drawing trumps won't help
            raise GameError(INVALID_CLAIM, reason="card_out",
                            card=highest_in(threats & ~trumps), yours=card)
        else:
            needs_draw |= 1 << card
    unseen_trumps = unseen & trumps
    if needs_draw:
        most_in_a_hand = max(size for other, size in enumerate(view.hand_sizes)
                             if other != view.seat)
        leads_to_draw = min(unseen_trumps.bit_count(), most_in_a_hand)
        if (masters & trumps).bit_count() < leads_to_draw:
            raise GameError(INVALID_CLAIM, reason="trump_out", card=highest_in(unseen_trumps))
    return (cards_of(masters & trumps) + cards_of(needs_draw & trumps)
            + cards_of(held & ~trumps))


def _beaten_by(card: int, trump: int, two_wins: bool) -> int:
    """The cards that would win a trick over `card` led, by the core's trick strengths
    (hand.py: `STRENGTH`, and `LEAD_WINS` for what wins whenever it is led)."""
    if card >= JOKER_BASE or (two_wins and card % 13 == 0):
        return 0  # a joker led, or a 2 led under two_wins: strength LEAD_WINS, unbeatable
    table = STRENGTH[trump + 1][card // 13]
    led = table[card]
    assert led < LEAD_WINS
    return sum(1 << other for other, strength in enumerate(table) if strength > led)


def _played(view: HandView) -> int:
    tricks = (*view.tricks, *((view.trick,) if view.trick else ()))
    return mask_of(tuple(card for trick in tricks for _seat, card in trick.plays))


def _trump_index(trump: str | None) -> int:
    """The view's trump name as the core's index: a suit 0..3, GRAND or NO_TRUMP."""
    if trump is None:
        return NO_TRUMP
    return GRAND if trump == "grand" else SUITS.index(trump)


def _play_out(hand: Hand, seat: int, line: tuple[int, ...]) -> list[Action]:
    """The plays that finish the hand: `line` for `seat`, the lowest legal card for the
    others, played by the core on a copy of the hand (so they are exactly the actions it
    accepts, and the real hand is untouched)."""
    play = hand.copy()
    start = len(play.actions)
    for card in line:
        play.play(seat, card)
        while play.trick:
            play.play(play.to_act, _lowest(play.legal_play_mask()))
        winner = play.history[-1][2]
        if winner != seat:  # claim_line let through a claim that fails: a bug, not a refusal
            raise AssertionError(f"claimed trick won by seat {winner}, not {seat}")
    return play.actions[start:]


def _lowest(mask: int) -> int:
    """The lowest card by rank (a joker counts as highest), then by suit: deterministic."""
    return min(bits(mask), key=lambda card: (13 if card >= JOKER_BASE else card % 13, card))
