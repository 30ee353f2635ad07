"""Why the strong AI's move is a good one, as a code and its parameters (the words are
the text layer's: text_guide.hint_reason): what the hint shows beside the marked move.

Read from the seat's own view before the move and, for a card, the trick as the rules
core judges it once the card is on it (`winning_after`: the seat that would then take
it), never from hidden cards.
"""

from __future__ import annotations

from typing import Any

from bot.cards import is_joker, rank_of, suit_of

from ..actions import Action
from ..hand import PLAY, Hand
from ..views import HandView, hand_view

ACE = 12  # rank_of an ace


def reason(view: HandView, action: Action, winning_after: int | None
           ) -> tuple[str, dict[str, Any]]:
    """The reason code of `action` for the seat of `view`, with its parameters."""
    legal = view.legal
    assert legal is not None and view.seat is not None
    kind = action.kind
    if kind == "pass":
        return "pass_weak", {}
    if kind == "bid":
        return "bid_strong", {"bid": action.bid}
    if kind == "redeal":
        return "no_court_cards", {}
    if kind in ("discard", "exchange"):
        return ("keep_hand", {}) if not action.cards else ("keeps_strongest", {})
    assert action.card is not None
    card = action.card
    if len(legal.cards) == 1:
        return "only_card", {}
    if action.call is not None:
        return "opening_lead", {"suit": suit_of(card)}
    trick = view.trick
    if trick is None or not trick.plays:
        return ("master", {}) if _is_master(view, card) else ("lead_low", {})
    if winning_after == view.seat:
        last = len(trick.plays) == view.rules.players - 1
        return ("wins_trick", {}) if last else ("takes_lead", {})
    side = view.side_of(view.seat) or ()
    if trick.winning is not None and trick.winning in side and trick.winning != view.seat:
        return "partner_winning", {}
    led = suit_of(trick.plays[0][1])
    if suit_of(card) != led:
        return "discard", {}
    if any(rank_of(c) == ACE and suit_of(c) == led and c != card for c in view.cards or ()):
        return "keeps_ace", {}
    if all(rank_of(card) <= rank_of(c) for c in legal.cards if suit_of(c) == led):
        return "lowest_follow", {}
    return "follows_suit", {}


def _is_master(view: HandView, card: int) -> bool:
    """Whether no other seat can hold a higher card of `card`'s suit: each is played,
    set aside by this seat, or its own."""
    if is_joker(card):
        return False
    gone = {c for t in view.tricks for _s, c in t.plays}
    if view.trick is not None:
        gone |= {c for _s, c in view.trick.plays}
    gone |= set(view.cards or ()) | set(view.discards or ())
    suit = suit_of(card)
    higher = [c for c in range(suit * 13, suit * 13 + 13) if rank_of(c) > rank_of(card)]
    return all(c in gone for c in higher)


def winning_after(hand: Hand, action: Action) -> int | None:
    """Who would take the trick once `action`'s card is on it, as the rules core says
    (public once played: the cards on the table and this one); None for other moves."""
    if action.kind != "play" or hand.phase != PLAY:
        return None
    after = hand.copy()
    after.apply(action)
    shown = hand_view(after)
    if len(shown.tricks) > len(hand.history):
        return shown.tricks[-1].winner
    return shown.trick.winning if shown.trick is not None else None
