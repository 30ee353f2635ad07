"""How long Discord lets the bot edit a message: an interaction's token (the hand panels)
and a message's age (the public table message), and which refusals of an edit mean
that the table message must be posted afresh.

Ages are read by Discord's clock: a message's id says when Discord made it.
"""

from __future__ import annotations

from typing import Literal

import discord

# Discord accepts an interaction's token for 15 minutes ("Interaction tokens are valid
# for 15 minutes"): https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction
INTERACTION_TOKEN_SECONDS = 15 * 60
# A panel older than this is not followed (the player opens it again, or is pinged),
# across a restart too: a minute short of its token's life.
PANEL_TOKEN_SECONDS = INTERACTION_TOKEN_SECONDS - 60

# Discord's codes for an edit of a deleted message, and for one edit too many of a
# message older than an hour
# (https://docs.discord.com/developers/topics/opcodes-and-status-codes#json).
UNKNOWN_MESSAGE = 10008
OLD_MESSAGE_EDITS = 30046
# A table message is posted afresh at its first change after this age (seconds): a
# little before the hour after which Discord allows it few edits.
TABLE_MESSAGE_MAX_AGE = 55 * 60

# Why a table message is posted afresh (the outbox's post records it).
RepostReason = Literal["deleted", "too_old"]


def message_age(message_id: int, now: float) -> float:
    """Seconds since Discord made the message `message_id`, at `now` (epoch seconds)."""
    return now - discord.utils.snowflake_time(message_id).timestamp()


def too_old_for_edits(message_id: int, now: float) -> bool:
    """Whether a message is too old for the edits a table needs: Discord allows few
    edits of a message older than an hour (error 30046), so a table message is posted
    afresh a little before (TABLE_MESSAGE_MAX_AGE)."""
    return message_age(message_id, now) >= TABLE_MESSAGE_MAX_AGE


def repost_reason(code: int) -> RepostReason | None:
    """Why a refused edit of the table message means posting it afresh ("deleted":
    10008, "too_old": 30046), from Discord's error code; None for any other refusal."""
    if code == UNKNOWN_MESSAGE:
        return "deleted"
    if code == OLD_MESSAGE_EDITS:
        return "too_old"
    return None


def worth_another_try(status: int) -> bool:
    """Whether a refused request is worth sending again: a failure of Discord's (5xx) or
    a rate limit (429). Any other refusal (403: the bot may no longer see or write
    there; 404: the channel is gone) would only be refused again, and Discord counts
    invalid requests toward a ban."""
    return status >= 500 or status == 429
