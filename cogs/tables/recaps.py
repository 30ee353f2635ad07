"""What happened at a table since a member's last move, above their hand panel ("While
you were away", issue 35; bot/tables/since.py reads it from the record), and the moves
the AI made in their name, which it names first (issue 52: the card the AI played for
you on a timeout was lost when the next ping replaced the DM that told it)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence

from bot.errors import GameError
from bot.render import seat_names, since_lines
from bot.render.days import played_for_you
from bot.tables.since import Since, since_last_move
from bot.tables.table import Table
from cogs.tables.common import TableBot
from cogs.tables.pings import PingsRoom

log = logging.getLogger(__name__)

# The moves the AI made in a member's name that are kept for their recap, per table.
PLAYED_FOR_KEPT = 40


def played_for_key(table_id: int) -> str:
    """The member setting that holds the moves the AI made in their name at a table."""
    return f"played_for_{table_id}"


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
            since = since_last_move(record.get("hands", ()), seat, seen, for_them)
            if since is None:
                return []
            words, names = table.kind.words, seat_names(table.seats)
            told = {id(action) for _, action in since.for_them}  # named below, apart
            played = [(names[int(action["seat"])], words.describe_action(action))
                      for action in since.actions if id(action) not in told]
            result = None
            ended_facts: list[str] = []
            if since.deal_ended is not None:
                with contextlib.suppress(GameError):
                    result = words.deal_score_text(
                        table.kind.deal_score(table.game, since.deal_ended, seat))
                ended_facts = self._facts(table, since, since.deal_ended, names)
            # The running deal's facts (who took the tricks since, ...), the game's own.
            running = len(record.get("hands", ())) - 1
            facts = self._facts(table, since, running, names)
            # First of all, what the AI played in the member's name (issue 52).
            ended_facts = [*played_for_you([words.describe_action(action) for deal, action
                                            in since.for_them if deal != running]),
                           *ended_facts]
            facts = [*played_for_you([words.describe_action(action) for deal, action
                                      in since.for_them if deal == running]), *facts]
            to_act = table.to_act
            return since_lines(played, since.more, since.deal_ended, result,
                               names[to_act] if to_act is not None else None,
                               to_act == seat, ended_facts, facts)
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

    @staticmethod
    def _facts(table: Table, since: Since, deal: int, names: Sequence[str]) -> list[str]:
        """The game's facts of `deal` within the stretch `since` tells (none if the deal
        lies before it): GameWords.recap_facts."""
        start = since.start_in(deal)
        if start is None or deal < 0:
            return []
        return table.kind.words.recap_facts(table.game, deal, start, names)

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
