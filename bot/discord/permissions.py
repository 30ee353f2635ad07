"""What the bot needs where a table plays, and what it lacks there: a pure function
over a discord.Permissions value (cogs/tables/guards.py reads the interaction's and
refuses with the names this returns).

Interactions work without any of these, but every post and edit of the table would be
refused (403): `app_permissions` are the bot's in the interaction's channel,
overwrites included.
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object
"""

from __future__ import annotations

import discord

# What the bot needs where a table plays, as discord.Permissions names them, in the order
# a refusal names what is missing: see the channel, post its messages (in a thread: Send
# Messages in Threads, not Send Messages), their embeds (Embed Links) and pictures
# (Attach Files), and read the channel's messages it edits (Read Message History).
# https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags
TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files",
                     "read_message_history")
THREAD_PERMISSIONS = ("view_channel", "send_messages_in_threads", "embed_links",
                      "attach_files", "read_message_history")
# Besides, to start a thread for the table.
NEW_THREAD_PERMISSION = "create_public_threads"
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                discord.ChannelType.news_thread)


def is_thread(channel_type: discord.ChannelType | None) -> bool:
    """Whether a channel of this type is a thread (its posts need Send Messages in
    Threads)."""
    return channel_type in THREAD_TYPES


def missing_table_permissions(have: discord.Permissions, *, in_thread: bool,
                              new_thread: bool = False) -> tuple[str, ...]:
    """What the bot lacks, of what it needs to show a table in a channel (`in_thread`: a
    thread) or in a thread it is to start there (`new_thread`: Create Public Threads
    besides), in the order a refusal names them; () if nothing."""
    needs: tuple[str, ...] = THREAD_PERMISSIONS if in_thread or new_thread \
        else TABLE_PERMISSIONS
    if new_thread:
        needs = (*needs, NEW_THREAD_PERMISSION)
    if new_thread and have.view_channel and not have.send_messages:
        # A channel where members may start threads but not post: Discord takes Embed
        # Links and Attach Files from the channel's permissions without Send Messages
        # (implicit permissions), not from its threads'. Unknown here: not asked for.
        # https://discord.com/developers/docs/topics/permissions#implicit-permissions
        needs = tuple(n for n in needs if n not in ("embed_links", "attach_files"))
    return tuple(name for name in needs if not getattr(have, name))
