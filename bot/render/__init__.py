"""Every word a player reads, built only from the core's views (one place, translatable)."""

from .text import (
    CONTENT_LIMIT,
    INTERNAL_ERROR,
    Panel,
    bid_label,
    card_list,
    error_text,
    final_panel,
    fit_panel,
    hand_panel,
    hand_summary_panel,
    help_text,
    leaderboard_panel,
    lobby_panel,
    not_a_bid,
    not_a_card,
    not_a_trump,
    quote,
    rules_text,
    shorten,
    stats_panel,
    table_panel,
    turn_mention,
    unknown_option,
)

__all__ = [
    "CONTENT_LIMIT", "INTERNAL_ERROR", "Panel", "bid_label", "card_list", "error_text",
    "final_panel", "fit_panel", "hand_panel", "hand_summary_panel", "help_text",
    "leaderboard_panel", "lobby_panel", "not_a_bid", "not_a_card", "not_a_trump", "quote",
    "rules_text", "shorten", "stats_panel", "table_panel", "turn_mention", "unknown_option",
]
