"""Who may click what, where: a component's table must be the channel's (a seated
player's own hand excepted), and the bot's permissions where a table plays (what it needs
is Discord's rule: bot/discord/permissions.py)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import is_thread, missing_table_permissions
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import Table
from cogs.tables.errors import game_of

log = logging.getLogger(__name__)

def is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user has Manage Server in the interaction's server: a table's own
    server, once check_place (components) or table_here (commands) has found it there."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


# What a seated player may do at their own table from elsewhere: open their hand and play
# from it. The turn ping by direct message, the games list (`/games`, answered in any
# channel of the server) and the hand panels these open carry the table's own custom
# ids, clicked outside its channel.
_SEAT_OPS = frozenset({"hand", "table", "hint", "claim", "rules"})


def seat_op(op: str) -> bool:
    """Whether `op` (a custom id's first part after the table) is one a player makes
    from their hand: open it, a hint, a claim, a move (`<version>:<action>`)."""
    return op in _SEAT_OPS or (op.isascii() and op.isdigit())


def shows_table(interaction: discord.Interaction[Any]) -> bool:
    """Whether the clicked hand panel shows the whole table (its toggle reads "Hide the
    table"): an edit of only its buttons keeps it so."""
    message = interaction.message
    rows = message.components if message is not None else []
    return any(str(getattr(child, "custom_id", "")).endswith(":table:off")
               for row in rows for child in getattr(row, "children", ()))


def check_place(interaction: discord.Interaction[Any], table: Table, own_seat: bool = False
                ) -> None:
    """A component's custom id names a table of the channel (or thread) it was clicked in.
    Discord sends only ids of the clicked message, but a gap on its side or a modified
    client must not reach another server's table: such an id is refused, nothing read
    or changed. One exception: a player seated at the table may open their own hand and
    play from it in another channel of the table's server (the games list) or in their
    direct messages with the bot (a turn ping by DM): it shows them only their own cards
    and lets them make only their own moves, which the service checks as always
    (`own_seat`: the click is one of those, seat_op)."""
    if own_seat and table.seat_of(interaction.user.id) is not None \
            and interaction.guild_id in (table.guild_id, None):
        return
    if table.guild_id != interaction.guild_id or table.channel_id != interaction.channel_id:
        log.warning("a component of table %s (server %s, channel %s) came from server %s, "
                    "channel %s: refused", table.id, table.guild_id, table.channel_id,
                    interaction.guild_id, interaction.channel_id)
        raise TableError("elsewhere")


def check_bot_permissions(interaction: discord.Interaction[Any], *,
                          new_thread: bool = False) -> None:
    """Refuse, naming what is missing, a table the bot could not show where it would play:
    the interaction's channel (or thread), or a thread it is to start there. What it
    needs is Discord's rule (bot.discord.missing_table_permissions); `app_permissions`
    are the bot's in the interaction's channel, overwrites included.
    https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object"""
    in_thread = is_thread(getattr(interaction.channel, "type", None))
    missing = missing_table_permissions(interaction.app_permissions, in_thread=in_thread,
                                        new_thread=new_thread)
    if missing:
        raise TableError("bot_missing", permissions=missing)

def table_here(tables: TableService, interaction: discord.Interaction[Any]) -> Table:
    """The live table of the interaction's channel; refused (no_table) if none."""
    table = tables.registry.in_channel(interaction.channel_id or 0)
    if table is None:
        kind = game_of(interaction)
        raise TableError("no_table", game=kind.name if kind else tables.registry.kind(None).name)
    return table


def my_seat(table: Table, user_id: int) -> int:
    """The seat of `user_id` at `table`; refused (not_seated) if they hold none."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError("not_seated", reason="not_playing")
    return seat
