"""A seat the host gives away (`replace`): the offer to a member, one live offer message
per member and table (issue 50), its invitee mentioned once and told by DM where the bot
can (issue 52), and the member whose seat went to someone else told so.

Mentions: a message pings exactly the users its `allowed_mentions` lists
(https://discord.com/developers/docs/resources/message#allowed-mentions-object), so the
offer names its invitee once and allows that user alone; a repeated offer to the same
member allows nobody (they were pinged by the first). DMs: the bot may open a DM with a
member of a server it shares (https://discord.com/developers/docs/resources/user#create-dm);
a member who closed theirs answers 50007 Cannot send messages to this user
(https://discord.com/developers/docs/topics/opcodes-and-status-codes#json): then the
channel tells them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.discord.mentions import no_mentions, pinging_user
from bot.render.text import offer_dm_text, seat_given_text
from bot.tables.names import safe_markdown
from bot.tables.table import OFFER_MESSAGES, Table
from cogs.tables.common import LET_GO, TableBot
from cogs.tables.pings import PingsRoom

log = logging.getLogger(__name__)


async def drop_stale_offers(pings: PingsRoom, table: Table,
                            before: Mapping[str, int]) -> None:
    """Delete the offer messages (`before`: seat -> message id, as the table held them
    before a new offer) whose offer is no longer live: replaced by a newer offer to the
    same member or of the same seat."""
    live = table.meta.get(OFFER_MESSAGES, {})
    for seat, message_id in before.items():
        if live.get(seat) != message_id:
            await pings.delete_own(table.channel_id, int(message_id))


async def _dm(bot: TableBot, pings: PingsRoom, table: Table, user: int,
              render: Callable[[str], str]) -> bool:
    """`render(server)` by DM to `user`, in their language; False if Discord refused it
    (their DMs closed) or it failed."""
    guild = bot.get_guild(table.guild_id)
    server = safe_markdown(guild.name) if guild is not None else str(table.guild_id)
    with await pings.dm_language(table.guild_id, user):
        text = render(server)
    try:
        channel = await bot.create_dm(discord.Object(id=user))
        await channel.send(text, allowed_mentions=no_mentions())
    except LET_GO as exc:
        log.info("table %s: a DM to %s failed (%r)", table.id, user, exc)
        return False
    return True


async def offer_by_dm(bot: TableBot, pings: PingsRoom, table: Table, user: int,
                      seat: int) -> None:
    """Tell the invitee of an offer by DM, if the bot can (the offer's message in the
    channel mentioned them already: a refusal changes nothing)."""
    title = table.kind.words.title(table.rules)
    await _dm(bot, pings, table, user,
              lambda server: offer_dm_text(server, table.channel_id, title, seat))


async def tell_seat_given(bot: TableBot, pings: PingsRoom, table: Table, user: int | None,
                          seat: int, name: str | None, public: Any) -> None:
    """Tell `user`, whose seat number `seat` the host gave to `name` (None: the AI for
    good), by DM; where Discord refuses it, in the table's channel, mentioning them
    alone (`public`: the server's words, SettingsRoom.public's context)."""
    if user is None:
        return
    title = table.kind.words.title(table.rules)

    def render(server: str) -> str:
        return seat_given_text(server, table.channel_id, title, seat, name)

    if await _dm(bot, pings, table, user, render):
        return
    guild = bot.get_guild(table.guild_id)
    server = safe_markdown(guild.name) if guild is not None else str(table.guild_id)
    with public:
        text = f"<@{user}> " + render(server)
    try:
        await bot.get_partial_messageable(table.channel_id).send(
            text, allowed_mentions=pinging_user(user))
    except LET_GO as exc:
        log.info("table %s: %s could not be told of their seat (%r)", table.id, user, exc)
