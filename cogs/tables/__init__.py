"""What every game's commands and buttons share, as a package of rooms: the lobby, the
table message, the hand panels, the outbox's posts, the pings, the games list, the
boards, the daily, the settings and a table's channel coming and going, each an object
with its own state, given the rooms it calls, and built by the cog (cogs/tables/cog.py),
which routes Discord's commands, listeners and clicks to them; beside them the one error
handler, the per-game command group builder, and one component class per kind of click.
Game cogs use only the public API (cogs/tables/api.py).

A thin adapter: each handler parses the interaction, asks the table service (which checks
who may act, applies the action through the table's GameKind and commits it), and
renders the answer from views. It knows games only through GameKind and the GameUI a
game's cog registers (its hand's buttons and their actions): it never names a game.

The names other code imports from `cogs.tables` are re-exported here.
"""

from __future__ import annotations

from cogs.tables.api import GameCog
from cogs.tables.cog import Tables
from cogs.tables.commands import add_shared_commands, member_commands
from cogs.tables.common import (
    CHOICE_LIMIT,
    CHOICES_LIMIT,
    COMPONENTS_LIMIT,
    CUSTOM_ID_LIMIT,
    HINT_EMOJI,
    HINT_STYLE,
    OPTION_LABEL_LIMIT,
    SELECT_OPTIONS_LIMIT,
    Components,
    GameUI,
    OpenPanel,
    TableBot,
    choices,
    jump_url,
    make_custom_id,
    select_options,
    to_embed,
)
from cogs.tables.components import (
    GamesButton,
    HelpButton,
    LeaderboardButton,
    TableButton,
    TableSelect,
)
from cogs.tables.errors import answer_error
from cogs.tables.guards import check_bot_permissions
from cogs.tables.settings import (
    LANGUAGE_CHOICES,
    LANGUAGE_DESCRIPTION,
    ON_TIMEOUT_CHOICES,
    SWITCH_DESCRIPTIONS,
    TIMER_DESCRIPTIONS,
    table_switches,
)
from cogs.tables.views import (
    final_view,
    hand_panel,
    lobby_host_options,
    lobby_view,
    ping_view,
    summary_view,
    table_panel,
    table_view,
)

__all__ = [
    "CHOICES_LIMIT", "CHOICE_LIMIT", "COMPONENTS_LIMIT", "CUSTOM_ID_LIMIT", "HINT_EMOJI",
    "HINT_STYLE", "LANGUAGE_CHOICES", "LANGUAGE_DESCRIPTION", "ON_TIMEOUT_CHOICES",
    "OPTION_LABEL_LIMIT", "SELECT_OPTIONS_LIMIT", "SWITCH_DESCRIPTIONS",
    "TIMER_DESCRIPTIONS", "Components", "GameCog", "GameUI", "GamesButton", "HelpButton",
    "LeaderboardButton", "OpenPanel", "TableBot", "TableButton", "TableSelect", "Tables",
    "add_shared_commands", "answer_error", "check_bot_permissions", "choices",
    "final_view", "hand_panel", "jump_url", "lobby_host_options", "lobby_view",
    "make_custom_id", "member_commands", "ping_view", "select_options", "setup",
    "summary_view", "table_panel", "table_switches", "table_view", "to_embed",
]


async def setup(bot: TableBot) -> None:
    await bot.add_cog(Tables(bot))
