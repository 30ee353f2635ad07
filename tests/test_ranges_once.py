"""A range is declared once (issue 51: American's "2 to 5 players" was written in the
rules, the kind, the guide and the commands, nothing keeping them in step): the rules
hold it, and the kind, the words and the commands read it. The words are checked in both
languages, so a translation cannot keep old numbers either."""

from __future__ import annotations

import pytest

from bot.games.american import rules as american_rules
from bot.games.amerikaner import rules as amerikaner_rules
from bot.i18n import use_locale
from bot.render.guide import days_help_pages
from bot.render.refusals import error_text
from bot.render.replies import duration_text
from bot.tables.errors import TableError
from bot.tables.kind import GameKind
from bot.tables.timer_settings import MAX_TURN_TIMER

# How each language says "from low to high" in the words checked here.
_TO = {"en": "{low} to {high}", "nb": "{low} til {high}"}


def _kind(name: str) -> GameKind:
    from bot.games import GAMES

    return GAMES[name]


def test_american_players_are_the_rules_range() -> None:
    low, high = american_rules.MIN_PLAYERS, american_rules.MAX_PLAYERS
    assert _kind("american").players_range == (low, high)


def test_amerikaner_players_are_its_presets_range() -> None:
    """`new` offers every count some preset allows (the jokers rule allows one more)."""
    presets = amerikaner_rules.PRESET_TABLE.values()
    low = min(p.players[0] for p in presets)
    high = max(amerikaner_rules.JOKERS_MAX_PLAYERS, *(p.players[1] for p in presets))
    assert _kind("amerikaner").players_range == amerikaner_rules.PLAYERS_RANGE == (low, high)


@pytest.mark.parametrize("language", sorted(_TO))
def test_american_guide_says_the_rules_range(language: str) -> None:
    kind = _kind("american")
    low, high = kind.players_range
    with use_locale(language):
        first = kind.words.help_pages()[0].description
    assert _TO[language].format(low=low, high=high) in first, first


@pytest.mark.parametrize("language", sorted(_TO))
def test_amerikaner_guide_says_the_kinds_range(language: str) -> None:
    """Amerikaner's guide still writes its numbers in the sentence (its text.py is being
    split by audience: a placeholder there is for after); until then this keeps them in
    step with the kind's range."""
    kind = _kind("amerikaner")
    low, high = kind.players_range
    with use_locale(language):
        first = kind.words.help_pages()[0].description
    assert _TO[language].format(low=low, high=high) in first, first


def test_american_commands_describe_the_rules_range() -> None:
    """`new` and `settings` describe `players` with the rules' range, and take only it
    (the option's own bounds come from the kind: cogs/tables/api.py)."""
    from cogs.words import game_groups

    low, high = american_rules.MIN_PLAYERS, american_rules.MAX_PLAYERS
    group = next(g for g in game_groups() if g.name == "american")
    for name in ("new", "settings"):
        command = group.get_command(name)
        assert command is not None
        players = next(p for p in command.parameters if p.name == "players")  # type: ignore[union-attr]
        assert f"({low} to {high})" in players.description, (name, players.description)
        assert (players.min_value, players.max_value) == (low, high), name


@pytest.mark.parametrize("language", ["en", "nb"])
def test_the_longest_turn_timer_is_worded_from_its_constant(language: str) -> None:
    """The guide and the refusal of a timer that is no length say the longest timer from
    MAX_TURN_TIMER, in the reader's language."""
    with use_locale(language):
        longest = duration_text(int(MAX_TURN_TIMER // 60))
        guide = days_help_pages("american")[0].description
        refusal = error_text(TableError("bad_input", reason="timer", typed="soon",
                                        minutes=int(MAX_TURN_TIMER // 60)))
    assert longest in guide, guide
    assert longest in refusal, refusal


def test_the_timer_refusal_carries_the_longest_timer() -> None:
    """What the command raises for a timer that is no length carries the longest timer,
    which the refusal words."""
    from cogs.tables.settings import timer_minutes

    with pytest.raises(TableError) as raised:
        timer_minutes("soon")
    assert raised.value.params["minutes"] == int(MAX_TURN_TIMER // 60)


@pytest.mark.parametrize("language", sorted(_TO))
def test_amerikaner_refusal_says_the_jokers_most(language: str) -> None:
    """The refusal of a player count names the most the jokers rule allows; its text.py
    still writes the number (being split now: a placeholder there is for after), so
    this keeps it in step with JOKERS_MAX_PLAYERS."""
    from bot.errors import GameError
    from bot.render.text import error_text as game_error_text

    kind = _kind("amerikaner")
    with pytest.raises(GameError) as raised:
        amerikaner_rules.Rules.create("amerikaner", amerikaner_rules.JOKERS_MAX_PLAYERS + 1)
    with use_locale(language):
        worded = game_error_text(raised.value, kind)
    assert f"({amerikaner_rules.JOKERS_MAX_PLAYERS} " in worded, worded
