"""Issue 52's smaller points (item 11), through the strict fake: typing "2" for the turn
timer offers 2 days first (not 2 minutes), in the member's language; the lobby of the
Amerikaner preset is not titled "Amerikaner table — Amerikaner"; a lobby with a turn
timer says about how long a game may take at it; the daily's percentages say what
matchpoints are (the first finisher's 50% included). (`daily dm:True`'s link to the DM
is tested in tests/e2e/test_daily.py.)"""

from __future__ import annotations

from bot.app import AmerikanerBot
from bot.games import GAMES
from bot.i18n import use_locale
from bot.render.daily import board_panel, result_panel
from bot.render.guide import matchpoints_text
from tests.fake_discord import FakeDiscord


async def test_a_bare_number_for_the_timer_offers_days_first(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    fake.user("bob").locale = "no"
    two = await fake.autocomplete("alice", None, "amerikaner new", "turn_timer",
                                  {"turn_timer": "2"})
    assert two.choices[:3] == [{"name": "2 days", "value": "2d"},
                               {"name": "2 hours", "value": "2h"},
                               {"name": "2 minutes", "value": "2"}], two.choices
    assert [c["value"] for c in two.choices].count("2d") == 1  # not again as a preset
    norsk = await fake.autocomplete("bob", None, "amerikaner new", "turn_timer",
                                    {"turn_timer": "2"})
    assert norsk.choices[0] == {"name": "2 døgn", "value": "2d"}, norsk.choices
    hours = await fake.autocomplete("alice", None, "amerikaner new", "turn_timer",
                                    {"turn_timer": "36"})
    assert hours.choices[0] == {"name": "36 hours", "value": "36h"}, hours.choices
    minutes = await fake.autocomplete("alice", None, "amerikaner new", "turn_timer",
                                      {"turn_timer": "90"})
    assert minutes.choices[0] == {"name": "90 minutes", "value": "90"}, minutes.choices


async def test_the_lobby_title_and_how_long_a_game_may_take(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    new = await fake.slash("alice", None, "amerikaner new",
                           {"players": 4, "preset": "amerikaner", "turn_timer": "1d"})
    assert new.message is not None, new.callback.data
    lobby = fake.message(new.message).embeds[0]
    assert lobby["title"] == "Amerikaner table", lobby["title"]
    rules = GAMES["amerikaner"].make_rules("amerikaner", 4, {})
    turns = GAMES["amerikaner"].turns_each(rules)
    assert turns is not None and 100 <= turns <= 160  # bench/game_turns.py: 130
    assert (f"About {turns} turns each in a game: at most {turns} days of your own turns,"
            f" if each takes its whole time.") in lobby["description"], lobby
    await fake.slash("alice", None, "amerikaner cancel")
    kani = await fake.slash("alice", None, "amerikaner new", {"preset": "kani"})
    assert kani.message is not None, kani.callback.data
    embed = fake.message(kani.message).embeds[0]
    assert embed["title"] == "Amerikaner table — Kani", embed["title"]
    assert "turns each" not in embed["description"]  # no timer, no estimate


def test_the_dailys_percentages_say_what_matchpoints_are() -> None:
    # The first to finish is told her place comes as others finish (no "50%" alone to
    # misread); with others, the share is said with what it is.
    alone = result_panel("Amerikaner", "2031-05-14", "+8", 0.5, 1, 1, [])
    assert "first to finish" in alone.description and "%" not in alone.description
    shared = result_panel("Amerikaner", "2031-05-14", "+8", 0.5, 2, 3, [])
    assert "50% of the matchpoints (the share of the others' results you beat)" \
        in shared.description, shared.description
    assert "alone on the deal so far: 50%" in matchpoints_text()
    for period in ("day", "week"):
        board = board_panel("Amerikaner", period, [(1, "alice", 0.5, "+8")], 3)
        assert matchpoints_text() in board.description
    with use_locale("nb"):
        assert "Matchpoeng" in matchpoints_text()
