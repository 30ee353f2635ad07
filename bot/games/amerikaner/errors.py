"""The refusal codes of Amerikaner alone (the shared ones are in bot/errors.py), worded
in the game's text_refusals.py. Stable: the conformance records pin them (docs/record-format.md,
"Errors")."""

from __future__ import annotations

BID_TOO_LOW = "bid_too_low"
BID_TOO_HIGH = "bid_too_high"
ALREADY_PASSED = "already_passed"
REDEAL_NOT_ALLOWED = "redeal_not_allowed"
MUST_FOLLOW_SUIT = "must_follow_suit"
MUST_PLAY_CALLED_CARD = "must_play_called_card"
INVALID_CALL = "invalid_call"
INVALID_TRUMP = "invalid_trump"
INVALID_LEAD = "invalid_lead"

GAME_CODES = (
    BID_TOO_LOW, BID_TOO_HIGH, ALREADY_PASSED, REDEAL_NOT_ALLOWED, MUST_FOLLOW_SUIT,
    MUST_PLAY_CALLED_CARD, INVALID_CALL, INVALID_TRUMP, INVALID_LEAD,
)
