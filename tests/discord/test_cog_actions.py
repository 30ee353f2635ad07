"""One component class per kind of click (cogs/tables/actions.py): discord.py calls
EVERY registered dynamic item whose template matches a custom id
(discord/ui/view.py, ViewStore.dispatch_dynamic_items: no break after the first
match), so each id the bot has ever built must match exactly one class, the one for
its action; an id no action takes (any more) matches only the fallback."""

from __future__ import annotations

import pytest

from cogs.tables.actions import (
    ACTIONS,
    AiButton,
    CancelButton,
    ClaimButton,
    HandButton,
    HintButton,
    HostMenu,
    HouseRulesMenu,
    JoinButton,
    LeaveButton,
    MoveButton,
    MoveMenu,
    OldButton,
    OldSelect,
    RematchButton,
    ReviewButton,
    RulesButton,
    StandingsLeaderboard,
    StartButton,
    TableToggle,
)
from cogs.tables.components import GamesButton, HelpButton, LeaderboardButton

REGISTERED = (*ACTIONS, LeaderboardButton, HelpButton, GamesButton)

IDS = [
    ("amk:5:join", JoinButton), ("amk:5:leave", LeaveButton), ("amk:5:start", StartButton),
    ("amk:5:ai:easy", AiButton), ("amk:5:ai:fill", AiButton), ("amk:5:ai:remove", AiButton),
    ("amk:5:cancel", CancelButton), ("amks:5:host", HostMenu), ("amks:5:house", HouseRulesMenu),
    ("amk:5:rules", RulesButton), ("amk:5:hand", HandButton), ("amk:5:hand:list", HandButton),
    ("amk:5:table", TableToggle), ("amk:5:table:off", TableToggle),
    ("amk:5:hint:12", HintButton), ("amk:5:claim:12", ClaimButton),
    ("amk:5:12:pass", MoveButton), ("amk:5:12:play:10H", MoveButton),
    ("amk:5:12:lead:AS:call", MoveButton), ("amks:5:12:discard", MoveMenu),
    ("amk:5:review:0", ReviewButton), ("amk:5:rematch", RematchButton),
    ("amk:5:leaderboard", StandingsLeaderboard),
    ("amkl:amerikaner:rating:2", LeaderboardButton), ("amkl:wins:1", LeaderboardButton),
    ("amkl:american:rating:month:3", LeaderboardButton),
    ("amkh:american:1", HelpButton), ("amkg:2", GamesButton),
    # Ids no action takes: the fallback tells the user the button is old.
    ("amk:5:frobnicate", OldButton), ("amk:5:hint", OldButton), ("amk:5:hint:x", OldButton),
    ("amk:5:claim:1:2", OldButton), ("amk:5:review", OldButton), ("amk:5:ai", OldButton),
    ("amk:5:", OldButton), ("amks:5:other", OldSelect), ("amks:5:house:x", OldSelect),
]


@pytest.mark.parametrize(("custom_id", "expected"), IDS, ids=[i for i, _ in IDS])
def test_each_id_has_one_class(custom_id: str, expected: type) -> None:
    matching = [cls for cls in REGISTERED if cls.__discord_ui_compiled_template__.fullmatch(
        custom_id)]
    assert matching == [expected]


def test_every_action_class_is_registered_once() -> None:
    assert len(set(ACTIONS)) == len(ACTIONS)
    assert {OldButton, OldSelect} <= set(ACTIONS)
