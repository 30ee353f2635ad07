"""Error codes where they belong (issue 29, point 6): bot/errors.py holds only the codes
every game shares, and the platform words each of them once (bot/render/text.py) for a
game that does not word it itself; a code of one game lives in that game, worded there;
RecordError is one type for every game's records; the card ints have names."""

from __future__ import annotations

import pytest

from bot import cards, errors
from bot.errors import SHARED_CODES, SHARED_REASONS, GameError, RecordError
from bot.games import GAMES
from bot.games.american import record as american_record
from bot.games.amerikaner import errors as amerikaner_errors
from bot.games.amerikaner import text_refusals as amerikaner_text_refusals
from bot.i18n import use_locale
from bot.render import error_text
from bot.render.text import shared_sentence


class _Wordless:
    """A game that words none of its refusals (it gives the code back, as the games'
    error_sentence does for a code not theirs)."""

    name = "wordless"

    @property
    def words(self) -> _Wordless:  # a game's words are one object (GameKind.words)
        return self

    def error_text(self, error: GameError) -> str:
        return error.code


# Parameters as the games raise them, and none at all.
_PARAMS: list[dict[str, object]] = [{}, {"to_act": 2, "seat": 1, "card": 12}]


def test_the_shared_codes_are_the_codes_every_game_shares() -> None:
    codes = {value for name, value in vars(errors).items()
             if name.isupper() and isinstance(value, str)}
    assert codes == set(SHARED_CODES) and len(SHARED_CODES) == 9
    assert not set(amerikaner_errors.GAME_CODES) & set(SHARED_CODES)


@pytest.mark.parametrize("code", SHARED_CODES)
@pytest.mark.parametrize("params", _PARAMS)
def test_the_platform_words_every_shared_code_for_a_game_that_does_not(
        code: str, params: dict[str, object]) -> None:
    error = GameError(code, **params)
    with use_locale("en"):
        english = error_text(error, _Wordless())
    with use_locale("nb"):
        norwegian = error_text(error, _Wordless())
    assert english == shared_sentence(error) != code
    assert norwegian not in (english, code)


@pytest.mark.parametrize("kind", list(GAMES.values()), ids=list(GAMES))
def test_a_game_that_words_a_shared_code_keeps_its_words(kind: object) -> None:
    error = GameError(errors.GAME_OVER)
    with use_locale("en"):
        assert error_text(error, kind) == kind.words.error_text(error)  # type: ignore[attr-defined]


# The parameters each reason every game's records share is raised with.
_REASON_PARAMS: dict[str, dict[str, object]] = {"first_dealer": {"last": 3}, "twice": {"card": 12},
                                                "missing": {"cards": [0, 13]}}


@pytest.mark.parametrize("kind", list(GAMES.values()), ids=list(GAMES))
@pytest.mark.parametrize(("code", "reason"), [(code, reason) for code, reasons in
                                              SHARED_REASONS.items() for reason in reasons])
def test_the_reasons_every_game_shares_are_worded_once_by_the_platform(
        kind: object, code: str, reason: str) -> None:
    error = GameError(code, reason=reason, **_REASON_PARAMS.get(reason, {}))
    assert kind.words.error_text(error) == code  # type: ignore[attr-defined]
    with use_locale("en"):
        english = error_text(error, kind)  # type: ignore[arg-type]
    with use_locale("nb"):
        norwegian = error_text(error, kind)  # type: ignore[arg-type]
    assert english == shared_sentence(error) != code
    assert english != shared_sentence(GameError(code))  # its own words, not the code's
    assert norwegian not in (english, code)


def test_amerikaners_own_codes_are_worded_by_amerikaner() -> None:
    assert set(amerikaner_errors.GAME_CODES) <= set(amerikaner_text_refusals.ERROR_CODES)


def test_one_record_error_for_every_game() -> None:
    assert american_record.RecordError is RecordError
    located = RecordError(errors.INVALID_RECORD, 2, 5, part="down")  # a game's own `part`
    assert (located.part, located.action, located.params) == (2, 5, {"part": "down"})
    assert located.to_json("m", part="deal")["error"] == {
        "deal": 2, "action": 5, "code": "invalid_record", "message": "m"}
    assert located.to_json("m")["error"]["hand"] == 2


def test_the_card_ints_have_names_that_are_ints() -> None:
    """Plain aliases (python-chess's `Square = int`): the compiled cores see `int`."""
    assert cards.Card is int and cards.CardMask is int and cards.Seat is int
