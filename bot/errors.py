"""The one error type: a refusal with a stable code and the parameters its words need.

No English here: the sentence a player reads is looked up by code and parameters in the
render layer (bot/render for the platform's codes, a game's text.py for the game's).
The record codes below are stable (RECORD_FORMAT.md, "Errors"; the conformance records
pin them); a code only one game uses lives in that game's package.
"""

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


class GameError(Exception):
    """Something refused: an action, rule set, deal, record or request.

    `code` is stable (tests, the bot and records depend on it); `params` are plain values
    (cards as ints, numbers as ints, names as str) from which the render layer builds the
    sentence. Where one code has several sentences, `params["reason"]` says which.
    Raising it never leaves a half-applied change behind.
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:  # for logs and tracebacks, never for players
        return f"{self.code} {self.params}" if self.params else self.code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, **{self.params!r})"


class RecordError(GameError):
    """A refusal located in a game record: which hand and which action (zero-based)."""

    def __init__(self, code: str, hand: int | None = None, action: int | None = None,
                 **params: object) -> None:
        super().__init__(code, **params)
        self.hand = hand
        self.action = action

    @classmethod
    def located(cls, error: GameError, hand: int | None, action: int | None = None,
                code: str | None = None) -> RecordError:
        """`error` (a rule's refusal) as met at `hand` and `action` of a record, under
        `code` if given (a record's rules refused are all `invalid_rules`)."""
        located = cls(code or error.code, hand, action)
        located.params = dict(error.params)
        return located

    def to_json(self, message: str) -> dict[str, object]:
        """RECORD_FORMAT.md's error object; `message` is the sentence for the code."""
        return {"error": {"hand": self.hand, "action": self.action, "code": self.code,
                          "message": message}}
