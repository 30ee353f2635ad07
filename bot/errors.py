"""The one error type: a refusal with a stable code and the parameters its words need.

No English here: the sentence a player reads is looked up by code and parameters in the
render layer (bot/render for the platform's codes, a game's text_refusals.py for the game's).
The record codes below are stable (docs/record-format.md, "Errors"; the conformance records
pin them); a code only one game uses lives in that game's package.
"""

from __future__ import annotations

# The codes every game shares (a record, its rules and deal, a card, turn and phase, a
# hand's card count, the game's end), in the order in which they are checked where one
# action could earn two. The platform words them once (bot/render/text.py); a game may
# word one more closely where its parameters say more. A code only one game uses lives
# in that game's package (Amerikaner's: bot/games/amerikaner/errors.py).
INVALID_RECORD = "invalid_record"
INVALID_RULES = "invalid_rules"
INVALID_DEAL = "invalid_deal"
INVALID_CARD = "invalid_card"
NOT_YOUR_TURN = "not_your_turn"
WRONG_PHASE = "wrong_phase"
CARD_NOT_IN_HAND = "card_not_in_hand"
WRONG_CARD_COUNT = "wrong_card_count"
GAME_OVER = "game_over"

SHARED_CODES = (
    INVALID_RECORD, INVALID_RULES, INVALID_DEAL, INVALID_CARD, NOT_YOUR_TURN, WRONG_PHASE,
    CARD_NOT_IN_HAND, WRONG_CARD_COUNT, GAME_OVER,
)

# The reasons of a shared code that every game's records give alike: the platform words
# them once (bot/render/refusals.py), and a game gives the code back for them.
SHARED_REASONS: dict[str, tuple[str, ...]] = {
    INVALID_RECORD: ("not_object", "no_rules", "action_not_object", "no_seat_or_kind",
                     "first_dealer"),
    INVALID_RULES: ("players_not_whole", "options_not_object"),
    INVALID_DEAL: ("twice", "missing"),
}


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
    """A refusal located in a game record: which part of it (a hand of Amerikaner, a deal
    of American: each game names its parts) and which action of that part, zero-based;
    None where the fault is in neither. Every game's records raise this one type."""

    # Positional only: a game's parameters may use the same names (`part=` in American).
    def __init__(self, code: str, part: int | None = None, action: int | None = None, /,
                 **params: object) -> None:
        super().__init__(code, **params)
        self.part = part
        self.action = action

    @classmethod
    def located(cls, error: GameError, part: int | None, action: int | None = None,
                code: str | None = None) -> RecordError:
        """`error` (a rule's refusal) as met at `part` and `action` of a record, under
        `code` if given (a record's rules refused are all `invalid_rules`)."""
        located = cls(code or error.code, part, action)
        located.params = dict(error.params)
        return located

    def to_json(self, message: str, part: str = "hand") -> dict[str, object]:
        """The record format's error object, the part under the game's name for it
        (`hand` in docs/record-format.md, `deal` in docs/rules-american.md section 10); `message`
        is the sentence for the code."""
        return {"error": {part: self.part, "action": self.action, "code": self.code,
                          "message": message}}
