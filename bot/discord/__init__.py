"""What Discord allows, in one place: the request budget of the bot token, shared out
over the shard processes (budget.py), the table messages' edits within it
(edit_queue.py), who a message may ping (mentions.py), the permissions the bot needs
where a table plays (permissions.py), and how long a message may be edited: an
interaction's token, a table message's age and its re-posting (messages.py).

Only Discord's rules live here, as constants with their documentation and small pure
functions: no cog, game, store or table (pyproject.toml's import contracts). The cogs
apply them.

Inside this package `import discord` is still discord.py: imports are absolute, so the
name is the top-level library, never this package (bot.discord).
"""

from __future__ import annotations

from bot.discord.budget import PREPAID, Priority, RequestBudget, api_route, counted
from bot.discord.edit_queue import EditQueue, Retry, Turn
from bot.discord.mentions import no_mentions, pinging_user
from bot.discord.messages import (
    INTERACTION_TOKEN_SECONDS,
    OLD_MESSAGE_EDITS,
    PANEL_TOKEN_SECONDS,
    TABLE_MESSAGE_MAX_AGE,
    UNKNOWN_MESSAGE,
    message_age,
    repost_reason,
    too_old_for_edits,
    worth_another_try,
)
from bot.discord.permissions import (
    TABLE_PERMISSIONS,
    THREAD_PERMISSIONS,
    is_thread,
    missing_table_permissions,
)
from bot.discord.retries import give_back_server_errors, is_transient, one_line, own_retries

__all__ = [
    "INTERACTION_TOKEN_SECONDS", "OLD_MESSAGE_EDITS", "PANEL_TOKEN_SECONDS", "PREPAID",
    "TABLE_MESSAGE_MAX_AGE", "TABLE_PERMISSIONS", "THREAD_PERMISSIONS", "UNKNOWN_MESSAGE",
    "EditQueue", "Priority", "RequestBudget", "Retry", "Turn", "api_route", "counted",
    "give_back_server_errors", "is_thread", "is_transient", "message_age",
    "missing_table_permissions", "no_mentions", "one_line", "own_retries", "pinging_user",
    "repost_reason", "too_old_for_edits", "worth_another_try",
]
