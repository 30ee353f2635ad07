"""The words every game shares (a game's own live in bot/games/<name>/text.py)."""

from .text import (
    CONTENT_LIMIT,
    INTERNAL_ERROR,
    Panel,
    SeatLike,
    ai_seat_label,
    card_list,
    error_text,
    fit_panel,
    internal_error,
    leaderboard_panel,
    lobby_panel,
    quote,
    seat_label,
    seat_names,
    shorten,
    stats_panel,
    turn_mention,
)

__all__ = [
    "CONTENT_LIMIT", "INTERNAL_ERROR", "Panel", "SeatLike", "ai_seat_label", "card_list",
    "error_text", "fit_panel", "internal_error", "leaderboard_panel", "lobby_panel", "quote",
    "seat_label", "seat_names", "shorten", "stats_panel", "turn_mention",
]
