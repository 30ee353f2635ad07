"""What a restart finds: every unfinished game reloaded from the store (its record
replayed), and what the bot showed of each, remembered for the next process: the table
message to edit, the hand summary shown over it, the hand panels still worth following.
A crash after a commit loses nothing."""

from __future__ import annotations

import logging

from bot.store import PANEL_TOKEN_LIFE, PanelRow
from bot.tables.errors import TableError
from bot.tables.keeping import Keeper
from bot.tables.pauses import Pauses
from bot.tables.registry import NextTurn, Registry
from bot.tables.shared import Shared
from bot.tables.table import CANCELLED, FINISHED, PAUSE_ABSENT, PLAYING, Table, all_absent

log = logging.getLogger(__name__)


class Restore:
    """Brings the tables of this process back, and keeps what the next one needs."""

    def __init__(self, shared: Shared, registry: Registry, keeper: Keeper, pauses: Pauses,
                 next_turn: NextTurn) -> None:
        self.shared = shared  # the store, the clock
        self.registry = registry
        self.keeper = keeper
        self.pauses = pauses
        self.next_turn = next_turn

    async def restore(self) -> list[Table]:
        """Load every unfinished game of the guilds this process owns from the store
        (after a restart); the other processes' games are theirs to restore."""
        restored = []
        for row in await self.shared.store.unfinished_games():
            if not self.registry.owns_guild(row.guild_id):
                continue
            try:
                table = await self.keeper.table_from_row(row)
            except Exception:
                log.exception("could not restore table %s; it is left as it was", row.id)
                continue
            self.registry.register(table)
            restored.append(table)
            if all_absent(table) != (PAUSE_ABSENT in table.paused):
                # A crash between a seat's change and its pause (two writes): mended.
                try:
                    await self.pauses.follow_seats(table)
                except TableError:
                    log.warning("table %s: its absent pause could not be mended", table.id)
            self.next_turn(table)
        return restored

    async def followed_panels(self, now: float | None = None,
                              max_age: float = PANEL_TOKEN_LIFE) -> list[PanelRow]:
        """After a restart: the stored hand panels still worth following (the store's
        `save_panel`), of the games in play this process holds whose user is still
        seated, with a token younger than `max_age` at `now` (epoch seconds; None: the
        service's clock, which is Discord's). The panels whose token ran out are
        deleted from the store, and those of tables no longer in play too."""
        now = self.shared.clock.time() if now is None else now
        await self.shared.store.prune_panels(now, max_age)
        followed = []
        for panel in await self.shared.store.panels(now, max_age):
            table = self.registry.get(panel.table_id)
            if table is None:
                if await self.keeper.load(panel.table_id) is None or \
                        self.registry.get(panel.table_id) is not None:
                    await self.shared.store.delete_panels(panel.table_id)  # over or gone
                continue  # another process's table: theirs to follow
            if table.stage == PLAYING and table.seat_of(panel.user_id) is not None:
                followed.append(panel)
            elif table.stage in (FINISHED, CANCELLED):
                await self.shared.store.delete_panels(panel.table_id)
        return followed

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember the public table message, so that it is edited after a restart.
        Under the table's lock, as every change of its meta: the meta is written whole,
        and one built from a copy read before another change (the start's stage, say)
        and written after it would undo that change in the store."""
        async with table.lock:
            if table.meta.get("message_id") == message_id:
                return
            # The message that showed a hand's summary is no longer the live one.
            meta = {k: v for k, v in table.meta.items() if k != "summary_shown"}
            meta["message_id"] = message_id
            await self.keeper.set_meta(table, meta)

    async def set_summary_shown(self, table: Table, message_id: int, hand_index: int,
                                in_it: bool) -> None:
        """Remember (stored) that the summary of hand `hand_index` is shown, `in_it` the
        table message `message_id` or apart (Table.summary_shown), so that no later
        process edits the table over it. Under the table's lock, as every change of its
        meta."""
        async with table.lock:
            if table.summary_shown == (message_id, hand_index, in_it):
                return
            await self.keeper.set_meta(table, {**table.meta, "summary_shown":
                                               [message_id, hand_index, in_it]})
