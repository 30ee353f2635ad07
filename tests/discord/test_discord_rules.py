"""What Discord allows (bot/discord/), alone: the mentions a message may make, the
permissions the bot needs where a table plays, how long a message may be edited, and
that the cogs take these rules from there instead of writing their own."""

from __future__ import annotations

import datetime
from pathlib import Path

import discord
import pytest

from bot.discord import (
    INTERACTION_TOKEN_SECONDS,
    PANEL_TOKEN_SECONDS,
    TABLE_MESSAGE_MAX_AGE,
    TABLE_PERMISSIONS,
    THREAD_PERMISSIONS,
    is_thread,
    message_age,
    missing_table_permissions,
    no_mentions,
    pinging_user,
    repost_reason,
    too_old_for_edits,
    worth_another_try,
)

REPO = Path(__file__).resolve().parents[2]
NOW = datetime.datetime(2026, 11, 27, 12, 0, tzinfo=datetime.UTC)


def _posted_ago(seconds: float) -> int:
    """The id Discord gives a message it made `seconds` before NOW."""
    return discord.utils.time_snowflake(NOW - datetime.timedelta(seconds=seconds))


def _permissions(*names: str) -> discord.Permissions:
    return discord.Permissions(**dict.fromkeys(names, True))


# ------------------------------------------------------------------ mentions


def test_no_mentions_parses_nothing_and_is_never_shared() -> None:
    """https://discord.com/developers/docs/resources/message#allowed-mentions-object: an
    empty `parse` and no ids ping nobody, whatever the content holds."""
    first, second = no_mentions(), no_mentions()
    assert first.to_dict() == {"parse": []}
    assert first is not second  # a caller changing one changes no other send


def test_a_ping_names_its_player_alone() -> None:
    allowed = pinging_user(42).to_dict()
    assert allowed["parse"] == [] and allowed["users"] == [42]
    assert not allowed.get("roles") and not allowed.get("replied_user")
    assert pinging_user(None).to_dict() == {"parse": [], "users": []}


def test_no_mentions_are_built_outside_bot_discord() -> None:
    """One definition: the bot and the cogs take their allowed_mentions from bot.discord
    (no_mentions, pinging_user), never build their own."""
    builders = [path.relative_to(REPO) for folder in ("bot", "cogs")
                for path in sorted((REPO / folder).rglob("*.py"))
                if "AllowedMentions" in path.read_text()
                and (REPO / "bot" / "discord") not in path.parents]
    assert builders == []


# ------------------------------------------------------------------ permissions


def test_every_permission_present_misses_nothing() -> None:
    assert missing_table_permissions(discord.Permissions.all(), in_thread=False) == ()
    assert missing_table_permissions(discord.Permissions.all(), in_thread=True,
                                     new_thread=True) == ()


def test_missing_permissions_are_named_in_order() -> None:
    assert missing_table_permissions(discord.Permissions.none(),
                                     in_thread=False) == TABLE_PERMISSIONS
    have = _permissions("view_channel", "send_messages", "read_message_history")
    assert missing_table_permissions(have, in_thread=False) == ("embed_links",
                                                                "attach_files")


def test_a_thread_needs_send_messages_in_threads_not_send_messages() -> None:
    have = _permissions(*TABLE_PERMISSIONS)
    assert missing_table_permissions(have, in_thread=True) == ("send_messages_in_threads",)
    assert missing_table_permissions(_permissions(*THREAD_PERMISSIONS), in_thread=True) == ()


def test_a_new_thread_needs_create_public_threads_besides() -> None:
    have = _permissions(*THREAD_PERMISSIONS, "send_messages")
    assert missing_table_permissions(have, in_thread=False, new_thread=True) == (
        "create_public_threads",)


def test_a_new_thread_in_a_channel_without_send_messages_asks_no_embeds() -> None:
    """https://discord.com/developers/docs/topics/permissions#implicit-permissions: without
    Send Messages the channel's Embed Links and Attach Files say nothing of its threads'."""
    have = _permissions("view_channel", "send_messages_in_threads", "read_message_history",
                        "create_public_threads")
    assert missing_table_permissions(have, in_thread=False, new_thread=True) == ()


def test_threads_are_the_three_thread_types() -> None:
    assert is_thread(discord.ChannelType.public_thread)
    assert is_thread(discord.ChannelType.private_thread)
    assert is_thread(discord.ChannelType.news_thread)
    assert not is_thread(discord.ChannelType.text)
    assert not is_thread(None)


# ------------------------------------------------------------------ message age


def test_a_panel_is_followed_within_its_tokens_life() -> None:
    """https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction:
    "Interaction tokens are valid for 15 minutes"."""
    assert INTERACTION_TOKEN_SECONDS == 15 * 60
    assert 0 < PANEL_TOKEN_SECONDS < INTERACTION_TOKEN_SECONDS


def test_a_messages_age_is_read_from_its_id() -> None:
    assert message_age(_posted_ago(600), NOW.timestamp()) == pytest.approx(600, abs=0.001)


def test_a_table_message_is_too_old_a_little_before_the_hour() -> None:
    """Discord allows few edits of a message older than an hour (30046): the table message
    is posted afresh from TABLE_MESSAGE_MAX_AGE on."""
    now = NOW.timestamp()
    assert TABLE_MESSAGE_MAX_AGE < 60 * 60
    assert not too_old_for_edits(_posted_ago(TABLE_MESSAGE_MAX_AGE - 1), now)
    assert too_old_for_edits(_posted_ago(TABLE_MESSAGE_MAX_AGE), now)
    assert too_old_for_edits(_posted_ago(2 * 60 * 60), now)


@pytest.mark.parametrize(("code", "reason"), [
    (10008, "deleted"),    # Unknown Message
    (30046, "too_old"),    # Maximum number of edits to messages older than 1 hour
    (50013, None),         # Missing Permissions: posting afresh would be refused too
    (0, None),
])
def test_which_refused_edits_mean_a_fresh_table_message(code: int, reason: str | None
                                                        ) -> None:
    """https://docs.discord.com/developers/topics/opcodes-and-status-codes#json"""
    assert repost_reason(code) == reason


@pytest.mark.parametrize(("status", "again"), [
    (500, True), (502, True), (503, True), (429, True),
    (400, False), (401, False), (403, False), (404, False),
])
def test_only_discords_failures_and_rate_limits_are_tried_again(status: int,
                                                                again: bool) -> None:
    assert worth_another_try(status) is again
