"""The outbox's posts rendered and sent: a deal's summary, the final standings, a
fresh table message, a claim, a timeout."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.render import (
    claim_text,
    seat_label,
    seat_names,
    timeout_text,
)
from bot.render.text import dm_timeout_text
from bot.store import PostRow
from bot.tables import Table
from bot.tables.outbox import post_nonce
from bot.tables.service import (
    LOBBY,
    PLAYING,
    POST_CLAIM,
    POST_FINAL,
    POST_HAND_SUMMARY,
    POST_TABLE_MESSAGE,
    POST_TIMEOUT,
)
from cogs.tables.common import Room, to_embed
from cogs.tables.views import final_panel, final_view, summary_view, totals_chart, with_picture

log = logging.getLogger(__name__)

class PostsRoom(Room):
    """The outbox's posts, rendered and sent."""

    # ------------------------------------------------------------- posts (the outbox)

    async def _send_post(self, row: PostRow) -> int | None:
        """Render and send one post of the outbox (bot.tables.outbox): the id of the
        message, or None if it can never be posted. Sent with the post's nonce, so a
        post sent again after a crash is not posted twice."""
        table = await self.tables.load(row.game_id)
        if table is None:
            return None
        with await self.public(table.guild_id):
            return await self._send_post_of(table, row)

    async def _send_post_of(self, table: Table, row: PostRow) -> int | None:
        channel = self.bot.get_partial_messageable(row.channel_id)
        nonce = post_nonce(row)
        try:
            if row.kind == POST_HAND_SUMMARY:
                return await self._post_summary(table, int(row.params["hand_index"]), nonce)
            elif row.kind == POST_FINAL:
                chart = await totals_chart(table)
                message = await channel.send(
                    embed=with_picture(to_embed(final_panel(table)), chart),
                    view=final_view(table), nonce=nonce,
                    **({"file": chart} if chart is not None else {}))
                # The last table message shows the last hand's summary (an edit, or,
                # where it could not be edited, it was retired when the summary was
                # posted): it is left as it is, after a restart too.
                self._summarised.pop(table.id, None)
                self._edits.forget(table.id)
            elif row.kind == POST_TABLE_MESSAGE:
                if table.stage not in (LOBBY, PLAYING):
                    # The game ended or was cancelled meanwhile: the old message keeps
                    # the summary it shows (the next summary is posted apart).
                    log.info("table %s ended before its new table message was posted: "
                             "none is", table.id)
                    return None
                self._summarised.pop(table.id, None)
                # Only a message too old to edit loses its buttons here: a deleted one
                # cannot, and the last hand's table message shows its summary (with
                # Review and My hand), or was retired when the summary was posted.
                message = await self._post_table_message(
                    table, nonce, retire=row.params.get("why") == "too_old")
            elif row.kind == POST_CLAIM:
                message = await channel.send(
                    claim_text(seat_label(table.seats, int(row.params["seat"]))), nonce=nonce)
            elif row.kind == POST_TIMEOUT:
                seat = int(row.params["seat"])
                played = table.kind.words.describe_action(row.params["action"])
                message = await channel.send(
                    timeout_text(seat_label(table.seats, seat), played), nonce=nonce)
                await self._tell_timeout(table, seat, row.params)
            else:
                log.error("unknown post %r of table %s", row.kind, table.id)
                return None
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("table %s: Discord refused its %s post: %s %s (%s)", table.id,
                        row.kind, exc.status, exc.code, exc.text)
            if row.kind == POST_TABLE_MESSAGE:
                # Not posted: the table's next change tries its old message again (and
                # replaces it again if it must), rather than wait for this post.
                self._replacing.pop(table.id, None)
            return None
        return message.id


    async def _post_summary(self, table: Table, index: int, nonce: str) -> int | None:
        """A hand's summary. Quiet channels: it takes the place of the hand's table
        message (an edit, with Review and My hand), and the next hand's table message is
        the one new message of the hand, so the table stays on a phone's screen.
        Posted as a message of its own where the table message cannot be edited (none,
        too old, deleted, refused); that one then loses its buttons."""
        with await self.public(table.guild_id):
            panel = table.kind.words.deal_summary(table.game, index, seat_names(table.seats))
            embed, view = to_embed(panel), summary_view(table, index)
        old = table.message_id
        shows_summary = old is not None and self._summarised.get(table.id) == old
        if old is not None and self._replacing.get(table.id) != old \
                and not shows_summary and not self._too_old(old):
            async with self._message_lock(table.id):  # after an edit under way
                # The edit queue leaves this message be from now on (see
                # _edit_table_message): the next table message replaces it.
                self._replacing[table.id] = old
                try:
                    await self.bot.get_partial_messageable(
                        table.channel_id).get_partial_message(old).edit(
                        embed=embed, view=view, attachments=[])
                except discord.HTTPException as exc:
                    self._replacing.pop(table.id, None)
                    if exc.status >= 500 or exc.status == 429:
                        raise  # Discord's failure: the outbox tries again
                    log.info("table %s: the summary could not replace message %s (%s %s):"
                             " posted", table.id, old, exc.status, exc.code)
                else:
                    self._summarised[table.id] = old
                    return old
        message = await self.bot.get_partial_messageable(table.channel_id).send(
            embed=embed, view=view, nonce=nonce)
        if not shows_summary:  # an earlier hand's summary keeps its buttons
            # The hand's table message, too old to show the summary: a stale copy.
            await self._drop_table_copy(table, old)
        return message.id

    async def _tell_timeout(self, table: Table, seat: int, params: dict[str, Any]) -> None:
        """A member who reads by DM is told there that the AI played their turn (and,
        `away`, took their seat), in place of the turn's DM."""
        user = table.seats[seat].user_id
        if user is None:
            return
        title = table.kind.words.title(table.rules)

        def render(server: str) -> tuple[str, discord.Embed | None]:
            played = table.kind.words.describe_action(params["action"])
            return dm_timeout_text(server, table.channel_id, title, played,
                                   bool(params.get("away"))), None

        await self.tell_by_dm(table, user, render)
