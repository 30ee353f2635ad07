"""Errors the rules core raises, each with a stable code (RECORD_FORMAT.md, "Errors")."""

from __future__ import annotations

# The stable codes, in the order in which they are checked where one action could earn two.
INVALID_RECORD = "invalid_record"
INVALID_RULES = "invalid_rules"
INVALID_DEAL = "invalid_deal"
INVALID_CARD = "invalid_card"
NOT_YOUR_TURN = "not_your_turn"
WRONG_PHASE = "wrong_phase"
BID_TOO_LOW = "bid_too_low"
BID_TOO_HIGH = "bid_too_high"
ALREADY_PASSED = "already_passed"
REDEAL_NOT_ALLOWED = "redeal_not_allowed"
CARD_NOT_IN_HAND = "card_not_in_hand"
WRONG_CARD_COUNT = "wrong_card_count"
MUST_FOLLOW_SUIT = "must_follow_suit"
MUST_PLAY_CALLED_CARD = "must_play_called_card"
INVALID_CALL = "invalid_call"
INVALID_TRUMP = "invalid_trump"
INVALID_LEAD = "invalid_lead"
GAME_OVER = "game_over"

ALL_CODES = (
    INVALID_RECORD, INVALID_RULES, INVALID_DEAL, INVALID_CARD, NOT_YOUR_TURN, WRONG_PHASE,
    BID_TOO_LOW, BID_TOO_HIGH, ALREADY_PASSED, REDEAL_NOT_ALLOWED, CARD_NOT_IN_HAND,
    WRONG_CARD_COUNT, MUST_FOLLOW_SUIT, MUST_PLAY_CALLED_CARD, INVALID_CALL, INVALID_TRUMP,
    INVALID_LEAD, GAME_OVER,
)


class RuleError(Exception):
    """An action, rule set, deal or record that the rules refuse.

    `code` is stable (tests, the bot and records depend on it); `message` is a sentence a
    player understands. Raising it never leaves a half-applied change behind.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


class RecordError(RuleError):
    """A rule error located in a game record: which hand and which action (zero-based)."""

    def __init__(self, code: str, message: str, hand: int | None = None,
                 action: int | None = None) -> None:
        super().__init__(code, message)
        self.hand = hand
        self.action = action

    def to_json(self) -> dict[str, object]:
        return {"error": {"hand": self.hand, "action": self.action, "code": self.code,
                          "message": self.message}}
