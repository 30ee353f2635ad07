"""A player's hand panel: shown, refreshed, followed while its token lasts (one live
panel a player), its Table toggle, Hint and Claim, and the confirmation of a move."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

import discord

from bot.discord import PANEL_TOKEN_SECONDS
from bot.i18n import current_locale, use_locale
from bot.render import (
    button_label,
    game_done_panel,
    game_over_text,
    hint_text,
    moved_on_text,
    spectator_text,
)
from bot.render.text import dm_game_over_text
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import FINISHED, PLAYING, ActResult, Table
from cogs.tables.common import (
    COMPONENTS_LIMIT,
    LET_GO,
    Background,
    GameUIs,
    OpenPanel,
    ResultT,
    TableBot,
    mark_committed,
    reply,
    to_embed,
)
from cogs.tables.components import TableButton
from cogs.tables.guards import my_seat, shows_table
from cogs.tables.pings import PingsRoom
from cogs.tables.recaps import Recaps
from cogs.tables.table_message import TableMessageRoom
from cogs.tables.views import deadline_of, final_panel, final_view, hand_panel

log = logging.getLogger(__name__)

# A member who acted at a table this recently (seconds) sees its next turn in their open
# panel, followed without a click, and is not pinged. Minutes: a member who answered
# ten minutes later may long have put their phone away (issue 35: alice got nothing
# until the 12-hour reminder).
ACTIVE_SECONDS = 5 * 60


class PanelsRoom:
    """A player's hand panel, shown, followed and confirmed."""

    def __init__(self, bot: TableBot, tables: TableService, uis: GameUIs,
                 background: Background, messages: TableMessageRoom, pings: PingsRoom
                 ) -> None:
        self.bot = bot
        self.tables = tables
        self.uis = uis  # the games' own controls
        self.background = background  # the panels stored after the answer
        self.messages = messages  # the public side of a change
        self.pings = pings  # who is pinged, or told by DM
        self.clock = bot.settings.clock  # Discord's time of day (a token's age)
        # (table, user) -> the user's hand panel as the last click showed it: its
        # token edits that panel for 15 minutes (the panel follows the game).
        self._panels: dict[tuple[int, int], OpenPanel] = {}
        # table -> the state version whose turn was last followed (a panel edited or the
        # player mentioned): each turn once.
        self._followed: dict[int, int] = {}
        # catch_up_turns: started once a process; `caught_up` is set when it is done.
        self._catching_up = False
        self.caught_up = asyncio.Event()
        # (table, user) -> the state version of the hand panel the user last opened:
        # its "While you were away" lines are not told again (_recap).
        self._seen: dict[tuple[int, int], int] = {}
        self.recaps = Recaps(bot, pings)  # its "While you were away" lines

    def hand_controls(self, table: Table, seat: int, view: Any, details: bool = False,
                       hint: Any = None) -> discord.ui.View:
        """A player's controls: the game's for the legal actions, then the platform's
        Hint (if the table gives hints) and Claim (when the game allows one now), and
        the Table button that shows the whole table in the panel (`details`: back to
        the compact panel), as long as Discord's 25 components leave room."""
        controls = self.uis.of(table).hand_components(table, view, hint)
        if table.to_act == seat and not table.seats[seat].played_by_ai:
            self._turn_controls(table, seat, controls)
        if len(controls.children) < COMPONENTS_LIMIT:
            # Its own custom id both ways: a message's custom ids must differ from each
            # other (Refresh is "hand"), or Discord refuses the whole message
            # (https://discordx.js.org/docs/discordx/decorators/gui/button-component:
            # "custom_ids being unique within a message"; the fake checks it too).
            controls.add_item(TableButton(table.id, "table:off" if details else "table",
                                          emoji="🃏" if details else "📋",
                                          label=button_label("hide_table" if details
                                                             else "table")))
        return controls

    def _turn_controls(self, table: Table, seat: int, controls: discord.ui.View) -> None:
        """Hint and Claim, for the player to act."""
        version = table.version
        if table.switch("hints") and len(controls.children) < COMPONENTS_LIMIT:
            controls.add_item(TableButton(table.id, f"hint:{version}", emoji="💡",
                                          label=button_label("hint")))
        if table.kind.can_claim(table.game, seat) \
                and len(controls.children) < COMPONENTS_LIMIT:
            controls.add_item(TableButton(table.id, f"claim:{version}", emoji="🙌",
                                          label=button_label("claim")))


    async def show_hint(self, interaction: discord.Interaction[Any], table: Table,
                    version: int) -> None:
        """What the strong AI would do and why, shown in the clicked panel for its player
        alone: the move's control marked, the reason above the hand."""
        if not table.switch("hints"):
            raise TableError("hints_off")
        hint = await self.unless_stale(
            interaction, table, self.tables.play.hint(table.id, interaction.user.id, version))
        if hint is None:
            return
        seat = my_seat(table, interaction.user.id)
        view = table.seat_view(seat)
        if view is None:
            await interaction.response.edit_message(content=hint_text(hint.sentence))
            return
        await interaction.response.edit_message(
            content=hint_text(hint.sentence),
            view=self.hand_controls(table, seat, view, shows_table(interaction),
                                     hint=hint.action))

    async def claim(self, interaction: discord.Interaction[Any], table: Table,
                     version: int) -> None:
        """The rest of the deal claimed: played out at once if the claim holds."""
        result = await self.unless_stale(
            interaction, table, self.tables.play.claim(table.id, interaction.user.id, version))
        if result is not None:
            await self.confirm(interaction, table, result, edit=True)  # marks it committed

    async def unless_stale(self, interaction: discord.Interaction[Any], table: Table,
                            work: Awaitable[ResultT]) -> ResultT | None:
        """`work`'s result; None when it was drawn for an earlier state, which the
        clicked panel is then edited to show as it is now."""
        try:
            return await work
        except TableError as exc:
            if exc.code != "stale":
                raise
        await self.answer_stale(interaction, table)
        return None


    async def show_hand(self, interaction: discord.Interaction[Any], table: Table,
                         refresh: bool = False, details: bool = False) -> None:
        if table.stage != PLAYING:
            raise TableError("not_started", reason="not_yet")
        if table.seat_of(interaction.user.id) is None:
            await reply(interaction, spectator_text())
            return
        seat = my_seat(table, interaction.user.id)
        view = table.seat_view(seat)
        assert view is not None
        embed = to_embed(hand_panel(table, seat, details))
        components = self.hand_controls(table, seat, view, details)
        # A DM that Discord refused is told here, once: the panel is theirs alone.
        note = await self.pings.untold_dm_failure(table.guild_id, interaction.user.id)
        # What happened since their last move comes first (issue 35: "While you were
        # away"); read before _remember_panel marks this state seen.
        lines = [*await self._recap(table, seat, interaction.user.id),
                 *([note] if note is not None else [])]
        said: dict[str, Any] = {"content": "\n".join(lines)} if lines else {}
        if refresh:
            await interaction.response.edit_message(embed=embed, view=components, **said)
            self._remember_panel(table, interaction)
        else:
            sent = await interaction.response.send_message(embed=embed, view=components,
                                                           ephemeral=True, **said)
            self._remember_panel(table, interaction, sent.message_id)

    async def _recap(self, table: Table, seat: int, user: int) -> list[str]:
        """What happened since `user`'s last move or the panel they last opened
        (cogs/tables/recaps.py)."""
        return await self.recaps.lines(table, seat, user,
                                       self._seen.get((table.id, user), 0))

    async def answer_stale(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click drawn for an earlier state: the clicked panel shows the hand as it is
        now (edited in place: a stale or double click never adds a message)."""
        seat = table.seat_of(interaction.user.id)
        view = table.seat_view(seat) if seat is not None and table.stage == PLAYING else None
        message = interaction.message
        if seat is None or view is None or message is None or not message.flags.ephemeral:
            await reply(interaction, moved_on_text())
            return
        await interaction.response.edit_message(
            content=moved_on_text(), embed=to_embed(hand_panel(table, seat)),
            view=self.hand_controls(table, seat, view))
        self._remember_panel(table, interaction)

    # ------------------------------------------------------------- the panel follows

    def _remember_panel(self, table: Table, interaction: discord.Interaction[Any],
                        sent: int | None = None) -> None:
        """The user's hand panel is the one this interaction answered with: the message
        `sent`, or else the clicked one, edited. It is stored too (in the background:
        the answer is given), so a restart goes on following it while its token lasts
        (restore_panels). One panel a player is live: an older one, another message
        whose token still lasts, loses its buttons."""
        clicked = interaction.message
        message_id = sent if sent is not None else clicked.id if clicked is not None else None
        # The language it was drawn in: the user's (/language, else their Discord's).
        panel = OpenPanel(interaction.application_id, interaction.token,
                          current_locale(),
                          discord.utils.snowflake_time(interaction.id).timestamp(),
                          message_id)
        key = (table.id, interaction.user.id)
        self._seen[key] = table.version  # what this panel shows is told: no recap of it
        older = self._panel_of(table, interaction.user.id)
        self._panels[key] = panel
        self.background.run(self._store_panel(key, panel))
        if older is not None and None not in (older.message_id, message_id) \
                and older.message_id != message_id:
            self.background.run(self._retire_panel(older))

    async def _retire_panel(self, panel: OpenPanel) -> None:
        """Take the buttons off a player's older panel (its hand stays as it was shown),
        through its interaction's token: a webhook route, outside the global request
        limit (bot/discord/budget.py). It is cosmetic: whatever fails here is let go, and a click
        on the old panel would still be answered with the current one."""
        try:
            await panel.edit(self.bot, view=None)
        except Exception as exc:  # never the new panel's concern
            log.info("could not take the buttons off an older panel: %r", exc)

    async def _store_panel(self, key: tuple[int, int], panel: OpenPanel) -> None:
        """Store a followed panel; a store that does not answer loses only the panel's
        life across a restart (the ping takes over), so it is not tried again."""
        try:
            await self.bot.store.save_panel(key[0], key[1], panel.application_id,
                                            panel.token, panel.language, panel.since)
        except Exception as exc:
            log.warning("could not store the panel of %s at table %s: %r", key[1], key[0],
                        exc)


    async def restore_panels(self) -> int:
        """After a restart: follow again the stored panels whose token still lasts (by
        Discord's clock), of the tables this process plays; how many."""
        try:
            rows = await self.tables.restorer.followed_panels(self.clock.time(),
                                                              PANEL_TOKEN_SECONDS)
        except Exception as exc:
            log.warning("could not read the followed panels: %r", exc)
            return 0
        for row in rows:
            self._panels[(row.table_id, row.user_id)] = OpenPanel(
                row.application_id, row.token, row.language, row.since)
        return len(rows)

    async def catch_up_turns(self) -> int:
        """After a restart: a turn whose ping never went out (the bot stopped, or
        crashed, between a move and the ping it obliged: a ping is a message of its own,
        not an outbox post) is followed now, as if the move had just been made: the
        player's panel shows it, or they are pinged. A turn already announced is left
        alone. Once a process (READY comes again after a reconnect). How many turns
        were followed."""
        if self._catching_up:
            return 0
        self._catching_up = True
        followed = 0
        try:
            for table in list(list(self.tables.registry.tables.values())):
                seat = table.to_act
                if table.stage != PLAYING or table.paused or seat is None \
                        or table.seats[seat].played_by_ai:
                    continue
                user = table.seats[seat].user_id
                if user is None or await self.pings.pinged_for(table, user):
                    continue
                await self.follow_turn(table, None)
                followed += 1
        finally:
            self.caught_up.set()
        if followed:
            log.info("followed %d turn(s) not announced before the restart", followed)
        return followed

    def _panel_of(self, table: Table, user_id: int) -> OpenPanel | None:
        panel = self._panels.get((table.id, user_id))
        if panel is None:
            return None
        if self.clock.time() - panel.since > PANEL_TOKEN_SECONDS:  # by Discord's clock
            del self._panels[(table.id, user_id)]  # its token has run out
            return None
        return panel

    async def follow_turn(self, table: Table, acted_by: int | None) -> None:
        """The turn moved on: the open panel of the human to act shows their hand and
        their moves, without a click; with no panel to edit (none open, or its token ran
        out) they are mentioned in the channel once, if the table mentions. At the end
        of the game every open panel shows the result. The player who just acted has
        had theirs in the answer."""
        # The pings of turns passed are deleted, after (and apart from) this turn's
        # ping or panel: a delete may wait on its route's rate limit.
        self.background.run(self.pings.spend_pings(table))
        if table.stage == FINISHED:
            await self._close_panels(table)
            await self._tell_game_over(table)
            await self.recaps.forget(table)
            return
        seat = table.to_act
        if seat is None or table.stage != PLAYING or table.seats[seat].played_by_ai:
            return
        user = table.seats[seat].user_id
        if user is None or self._followed.get(table.id) == table.version:
            return
        version = self._followed[table.id] = table.version  # this turn is followed once
        if user == acted_by:
            # Their answer shows them the turn (a change told late changes nothing);
            # pinged only if they leave it unplayed (PingsRoom.ping_if_late).
            self._ping_if_late(table, user, version)
            return
        edited = await self._edit_panel(table, seat, user)
        if edited and self._active(table, user):
            # They played here minutes ago, and their panel shows the turn: pinged only
            # if it stays unplayed a little while (they may have put the phone down).
            self._ping_if_late(table, user, version)
            return
        if self.tables.watching(table.id, user):
            return  # the Activity's page shows them the turn as it comes (bot/web)
        if not table.switch("mentions"):
            return
        # Discord notifies of new messages, never of edits
        # (https://discord.com/developers/docs/resources/message#edit-message fires a
        # Message Update, no notification): a member who may have gone is pinged.
        await self.pings.ping(table, user, deadline=deadline_of(table), version=version)

    def _ping_if_late(self, table: Table, user: int, version: int) -> None:
        """A turn shown without a ping (in the answer, or the open panel edited) is
        pinged after a short delay if it is still unplayed, where the table mentions."""
        if table.switch("mentions"):
            self.pings.ping_if_late(table, user, version, deadline_of)

    def _active(self, table: Table, user: int) -> bool:
        """Whether `user` acted at `table` (a click on their panel: a move, a hint, the
        table) in the last ACTIVE_SECONDS, by Discord's clock: their open panel then
        shows them the turn, and they are not pinged. Longer ago they may have gone,
        and an edit alone would not reach them."""
        panel = self._panel_of(table, user)
        return panel is not None and self.clock.time() - panel.since <= ACTIVE_SECONDS

    async def _tell_game_over(self, table: Table) -> None:
        """The game is over: each member who reads by DM gets the final standings there,
        in place of their last DM of the table."""
        title = table.kind.words.title(table.rules)
        def render(server: str) -> tuple[str, discord.Embed | None]:
            return (dm_game_over_text(server, table.channel_id, title),
                    to_embed(final_panel(table)))

        for seat in table.seats:
            if seat.user_id is not None:
                await self.pings.tell_by_dm(table, seat.user_id, render)


    async def _edit_panel(self, table: Table, seat: int, user: int) -> bool:
        """Show `user`'s open panel their hand and moves now; False if there is none."""
        panel = self._panel_of(table, user)
        view = table.seat_view(seat)
        if panel is None or view is None:
            return False
        try:
            with use_locale(panel.language):  # the panel's owner reads it
                embed = to_embed(hand_panel(table, seat))
                controls = self.hand_controls(table, seat, view)
            await panel.edit(self.bot, content=None, embed=embed, view=controls)
        except LET_GO:
            self._panels.pop((table.id, user), None)  # gone or expired: it is not followed
            self.background.run(self._drop_stored_panel(table.id, user))
            return False
        return True

    async def _drop_stored_panel(self, table_id: int, user: int | None) -> None:
        """Forget a stored panel (None: every panel of the table)."""
        with contextlib.suppress(Exception):
            if user is None:
                await self.bot.store.delete_panels(table_id)
            else:
                await self.bot.store.delete_panel(table_id, user)

    def forget_table(self, table: Table) -> list[OpenPanel]:
        """A table has ended: drop what the cog keeps for it; the panels still open (and
        within their token's time), for the caller to close."""
        self._followed.pop(table.id, None)
        self.messages.forget(table.id)
        self.background.run(self._drop_stored_panel(table.id, None))
        open_panels = []
        for key in [key for key in self._panels if key[0] == table.id]:
            panel = self._panel_of(table, key[1])
            self._panels.pop(key, None)
            if panel is not None:
                open_panels.append(panel)
        return open_panels

    async def _close_panels(self, table: Table) -> None:
        """The game is over: each open panel shows the final standings (in its owner's
        words), with Rematch and the leaderboard."""
        for panel in self.forget_table(table):
            with use_locale(panel.language):
                content, embed, view = game_over_text(), to_embed(final_panel(table)), \
                    final_view(table)
            with contextlib.suppress(*LET_GO):
                await panel.edit(self.bot, content=content, embed=embed, view=view)

    async def confirm(self, interaction: discord.Interaction[Any], table: Table,
                       result: ActResult, edit: bool) -> None:
        """The action is stored: refresh the player's hand, then the public side."""
        mark_committed(interaction, table, "move")
        seat = result.seat
        view = table.seat_view(seat) if table.stage == PLAYING else None
        if view is not None:
            embed = to_embed(hand_panel(table, seat))
            components = self.hand_controls(table, seat, view)
        else:
            embed = to_embed(game_done_panel())
            components = None
        if edit:
            await interaction.response.edit_message(content=None, embed=embed,
                                                    view=components)
        elif components is not None:
            sent = await interaction.response.send_message(embed=embed, view=components,
                                                           ephemeral=True)
            self._remember_panel(table, interaction, sent.message_id)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        if components is not None and edit:
            self._remember_panel(table, interaction)
        self.messages.after_change(table, result.deal_finished)
        await self.follow_turn(table, interaction.user.id)


