"""Every word a player reads, built only from the core's views (one place, translatable)."""

from .text import (
    Panel,
    bid_label,
    card_list,
    error_text,
    final_panel,
    hand_panel,
    hand_summary_panel,
    help_text,
    leaderboard_panel,
    lobby_panel,
    rules_text,
    stats_panel,
    table_panel,
    turn_mention,
)

__all__ = [
    "Panel", "bid_label", "card_list", "error_text", "final_panel", "hand_panel",
    "hand_summary_panel", "help_text", "leaderboard_panel", "lobby_panel", "rules_text",
    "stats_panel", "table_panel", "turn_mention",
]
