"""What happened at a table since a member's last move, above their hand panel ("While
you were away", issue 35; bot/tables/since.py reads it from the record, bot/render/
recap.py words it, for the Activity's page too), and the moves
the AI made in their name, which it names first (issue 52: the card the AI played for
you on a timeout was lost when the next ping replaced the DM that told it)."""

from __future__ import annotations

import logging

from bot.render import seat_names
from bot.render.recap import recap_lines
from bot.tables.since import played_for_key
from bot.tables.table import Table
from cogs.tables.common import TableBot
from cogs.tables.pings import PingsRoom

log = logging.getLogger(__name__)

# The moves the AI made in a member's name that are kept for their recap, per table.
PLAYED_FOR_KEPT = 40


class Recaps:
    """The recap of a member's hand panel (PanelsRoom shows it)."""

    def __init__(self, bot: TableBot, pings: PingsRoom) -> None:
        self.bot = bot
        self.pings = pings  # a member's own settings hold the moves played for them

    async def lines(self, table: Table, seat: int, user: int, seen: int) -> list[str]:
        """At most three lines of what happened at `table` since `user`'s last move
        there, or since the panel they last opened (bot/tables/since.py says what
        counts as away); none if nobody else acted since. Worded from the public record
        only (the game's describe_action words an action as everyone saw it: an
        exchange by its count, never its cards). A recap that cannot be read (the
        store, a record the game refuses) is left out: the hand matters more. `seen`:
        the state version of the panel the member last opened."""
        if table.game is None or table.version <= seen:
            return []
        try:
            record = await self.bot.store.load_record(
                table.id, record_format=table.kind.record_format)
            for_them = await self._played_for(table, user)
            return recap_lines(table.kind, table.game, table.to_act, seat_names(table.seats),
                               record, seat, seen, for_them)
        except Exception as exc:
            log.warning("no recap for %s at table %s: %r", user, table.id, exc)
            return []

    async def _played_for(self, table: Table, user: int) -> list[int]:
        """The positions (in the game's actions) of the moves the AI made in `user`'s
        name at `table` (note_played_for); none if the store does not answer."""
        try:
            settings = await self.pings.member_settings(table.guild_id, user)
        except Exception as exc:
            log.info("no moves played for %s at table %s: %r", user, table.id, exc)
            return []
        return [int(p) for p in settings.get(played_for_key(table.id)) or ()]

    async def note_played_for(self, table: Table, seat: int | None) -> None:
        """The service played `seat`'s turn by itself (its time ran out, or the AI
        covers it): if a member holds the seat, the move's position is kept (a member
        setting, so a restart keeps it) for their recap to name it ("the AI played the
        7♠ for you"), the DM or notice that told it being replaced by their next turn
        message (issue 52). Called as the service tells the move, before it plays on:
        the move is the game's last. The latest PLAYED_FOR_KEPT are kept."""
        if seat is None or not 0 <= seat < len(table.seats):
            return
        user = table.seats[seat].user_id
        if user is None or table.version < 1:
            return
        key = played_for_key(table.id)
        try:
            settings = await self.pings.member_settings(table.guild_id, user)
            kept = [*(settings.get(key) or ()), table.version - 1][-PLAYED_FOR_KEPT:]
            await self.pings.set_member_setting(table.guild_id, user, key, kept)
        except Exception as exc:  # the store: the recap names it as the member's move
            log.warning("could not keep the move played for %s at table %s: %r", user,
                        table.id, exc)

    async def forget(self, table: Table) -> None:
        """The game is over: the moves kept for its members' recaps go (no recap is
        shown of a finished game)."""
        key = played_for_key(table.id)
        for user in {s.user_id for s in table.seats if s.user_id is not None}:
            try:
                if (await self.pings.member_settings(table.guild_id, user)).get(key):
                    await self.pings.set_member_setting(table.guild_id, user, key, None)
            except Exception as exc:  # the store: a few numbers stay behind
                log.info("could not forget the moves played for %s at table %s: %r",
                         user, table.id, exc)
