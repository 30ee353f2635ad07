"""Why the strong AI's move is a good one, as a code and its parameters (the words are
the text layer's: text_guide.hint_reason), read from the seat's own view."""

from __future__ import annotations

from typing import Any

from ..actions import PICKUP, PLAY, SWAP, Action
from ..state import BURN_RUN, TEN, TWO
from ..views import DealView


def reason(view: DealView, action: Action) -> tuple[str, dict[str, Any]]:
    """The reason code of `action` for the seat of `view`, with its parameters."""
    legal = view.legal
    assert legal is not None
    if action.kind == SWAP:
        return ("keep_as_is", {}) if not action.cards else ("high_cards_up", {})
    if action.kind == PICKUP:
        return ("nothing_fits", {}) if not legal.ranks else ("pile_worth_taking", {})
    if action.kind != PLAY:
        return "flip_guess", {}
    rank = action.cards[0] % 13
    if rank == TEN:
        return "burns_ten", {}
    same_on_top = 0
    for card in reversed(view.pile):
        if card % 13 != rank:
            break
        same_on_top += 1
    if "four_burns" in view.rules.options and same_on_top + len(action.cards) >= BURN_RUN:
        return "burns_four", {}
    if rank == TWO:
        return "two_resets", {}
    kept = sorted({c % 13 for c in view.hand or () if c % 13 in (TWO, TEN)})
    if kept:
        return "keeps_specials", {"ranks": tuple(kept)}
    if rank == legal.ranks[0]:
        return "lowest_rank", {"count": len(action.cards)}
    return "sheds", {"count": len(action.cards)}
