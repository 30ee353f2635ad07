"""The words every game shares (a game's own live in bot/games/<name>/text_*.py)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .text import (
        BUTTON_LABELS,
        CONTENT_LIMIT,
        INTERNAL_ERROR,
        Panel,
        SeatLike,
        ai_seat_label,
        away_text,
        back_text,
        button_label,
        cancelled_panel,
        cancelled_text,
        card_list,
        claim_text,
        committed_text,
        error_text,
        export_note,
        fit_panel,
        game_done_panel,
        game_over_text,
        game_started_text,
        gone_standings_text,
        hint_text,
        house_rules_placeholder,
        internal_error,
        joined_text,
        language_text,
        leaderboard_panel,
        left_button_text,
        left_text,
        lobby_panel,
        member_language_text,
        moved_on_text,
        offer_answered_text,
        old_button_text,
        page_footer,
        picture_seat_names,
        quote,
        rating_board_panel,
        rating_lines,
        rematch_started_text,
        rematch_text,
        reminder_text,
        replaced_text,
        seat_label,
        seat_names,
        shorten,
        since_lines,
        spectator_text,
        stats_panel,
        switches_text,
        table_closed_text,
        thread_name,
        thread_opened_text,
        timeout_text,
        turn_mention,
    )

__all__ = [
    "BUTTON_LABELS", "CONTENT_LIMIT", "INTERNAL_ERROR", "Panel", "SeatLike", "ai_seat_label",
    "away_text", "back_text", "button_label", "cancelled_panel", "cancelled_text",
    "card_list", "claim_text", "committed_text", "error_text", "export_note", "fit_panel",
    "game_done_panel",
    "game_over_text", "game_started_text", "gone_standings_text", "hint_text",
    "house_rules_placeholder", "internal_error", "joined_text",
    "language_text", "member_language_text", "leaderboard_panel", "left_button_text",
    "left_text", "lobby_panel",
    "moved_on_text",
    "since_lines",
    "offer_answered_text", "old_button_text", "page_footer", "picture_seat_names", "quote",
    "rating_board_panel",
    "rating_lines", "rematch_started_text",
    "rematch_text",
    "reminder_text",
    "replaced_text", "seat_label", "seat_names", "shorten", "spectator_text", "stats_panel",
    "switches_text", "table_closed_text", "thread_name",
    "thread_opened_text", "timeout_text", "turn_mention",
]


def __getattr__(name: str) -> object:
    # The words load when first asked for, not with bot.render.pictures or .painter:
    # the process that draws pictures needs none of them.
    if name in __all__:
        from . import text

        return getattr(text, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
