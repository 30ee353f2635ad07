"""One class per kind of a table's click: the custom id's template picks the class
(discord.py's DynamicItem), and the class says what the click does. The ids are those
TableButton and TableSelect build (`amk:<table>:<op>...`, `amks:<table>:<op>...`), the
same as before the classes, so buttons on messages posted long ago keep working.

discord.py calls EVERY registered dynamic item whose template matches an id
(ViewStore.dispatch_dynamic_items), so the templates never overlap: each names its own
op exactly, and the last class of each prefix (OldButton, OldSelect) takes what none of
the others does, built from the templates declared before it (`on_table`)."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar, Protocol

import discord

from bot.render import (
    back_text,
    cancelled_panel,
    cancelled_text,
    left_button_text,
    offer_answered_text,
    old_button_text,
)
from bot.render.text import cancel_confirm_labels, cancel_confirm_text, cancel_kept_text
from bot.tables.names import safe_markdown
from bot.tables.service import TableService
from bot.tables.table import LOBBY, Table, abandon_at
from cogs.tables.boards import BoardsRoom, board_pool
from cogs.tables.common import (
    Components,
    GameUIs,
    TableBot,
    launch_activity,
    mark_committed,
    reply,
    to_embed,
)
from cogs.tables.components import TableButton
from cogs.tables.errors import run_component
from cogs.tables.guards import check_bot_permissions, is_manager, seat_op
from cogs.tables.host import host_of
from cogs.tables.lifecycle import LifecycleRoom
from cogs.tables.offers import tell_seat_given
from cogs.tables.panels import PanelsRoom
from cogs.tables.settings import SettingsRoom
from cogs.tables.table_message import TableMessageRoom
from cogs.tables.views import host_choice, lobby_view

log = logging.getLogger(__name__)


def _host(interaction: discord.Interaction[Any]) -> ActionHost:
    """The table cog of the click's bot (cogs/tables/host.py)."""
    host: ActionHost = host_of(interaction.client)
    return host


class ActionHost(Protocol):
    """What a click reaches of the table cog (cogs/tables/cog.py): the rooms its
    actions use, and the cog's router of clicks."""

    bot: TableBot
    tables: TableService
    uis: GameUIs
    settings: SettingsRoom
    messages: TableMessageRoom
    panels: PanelsRoom
    boards: BoardsRoom
    lifecycle: LifecycleRoom

    async def on_click(self, interaction: discord.Interaction[Any], action: TableAction,
                       values: list[str]) -> None: ...

# The ops of each prefix declared so far (their patterns): the fallback of the prefix
# matches every other op.
_DECLARED: dict[str, list[str]] = {"amk": [], "amks": []}
_ID_CHARS = r"[A-Za-z0-9:_\-]*"


def on_table(op: str, prefix: str = "amk") -> str:
    """The template of a table's click whose op (what follows the table) fullmatches
    the pattern `op`: `amk:` a button's, `amks:` a menu's."""
    _DECLARED[prefix].append(op)
    return rf"{prefix}:(?P<table>[0-9]+):(?P<rest>{op})"


def _none_of(prefix: str) -> str:
    """The template of the ops of `prefix` no class declared so far takes."""
    declared = "|".join(f"(?:{op})" for op in _DECLARED[prefix])
    return rf"{prefix}:(?P<table>[0-9]+):(?P<rest>(?!(?:{declared})$){_ID_CHARS})"


class TableAction(discord.ui.DynamicItem[discord.ui.Item[Any]],
                  template=r"(?!)"):  # the base: never matches
    """A click on a table's control. `live`: the action needs the table in the lobby or
    in play (a closed one answers with its end); `seat_op`: a seated player may make it
    from elsewhere in the table's server or from a DM (cogs/tables/guards.py)."""

    live: ClassVar[bool] = True
    seat_op: ClassVar[bool] = False

    def __init__(self, item: discord.ui.Item[Any], table_id: int, rest: str) -> None:
        super().__init__(item)
        self.table_id = table_id
        self.parts = rest.split(":")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> TableAction:
        return cls(item, int(match["table"]), match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}  # a menu's choices, or none
        values = [str(v) for v in data.get("values", [])]
        await run_component(self, interaction,
                            lambda: _host(interaction).on_click(interaction, self, values))

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Any,
                  values: list[str]) -> None:
        """The click's work: `table` is the live table (None if the action is not
        `live`: it reads the table, finished or not, by self.table_id)."""
        raise NotImplementedError


# ----------------------------------------------------------------- the lobby

async def _lobby_change(cog: ActionHost, interaction: discord.Interaction[Any], table: Table
                        ) -> None:
    mark_committed(interaction, table)
    await cog.messages.show_public(interaction, table, lobby_view)


async def _ai_seats(cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                    what: str) -> None:
    """The host's AI players: `fill` every free seat, `remove` the last, or add one of
    level `what`."""
    user = interaction.user.id
    if what == "fill":
        await cog.tables.lobby.fill_ai(table.id, user)
    elif what == "remove":
        await cog.tables.lobby.remove_ai(table.id, user)
    else:
        await cog.tables.lobby.add_ai(table.id, user, what)
    await _lobby_change(cog, interaction, table)


class JoinButton(TableAction, template=on_table("join")):
    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.tables.lobby.join(table.id, interaction.user.id, interaction.user.display_name)
        await _lobby_change(cog, interaction, table)


class LeaveButton(TableAction, template=on_table("leave")):
    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.tables.seats.leave(table.id, interaction.user.id)
        if table.stage == LOBBY:
            await _lobby_change(cog, interaction, table)
            return
        mark_committed(interaction, table)
        await reply(interaction, left_button_text(table.kind.name, abandon_at(table)))
        cog.messages.request_refresh(table)


class AiButton(TableAction, template=on_table(r"ai:[A-Za-z0-9_\-]+")):
    """The AI buttons of a lobby posted before the host menu."""

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await _ai_seats(cog, interaction, table, self.parts[1])


class StartButton(TableAction, template=on_table("start")):
    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        check_bot_permissions(interaction)
        await cog.tables.lobby.start(table.id, interaction.user.id)
        mark_committed(interaction, table, "start")
        await cog.messages.show_public(interaction, table, cog.messages.table_controls)
        cog.messages.request_refresh(table)  # with its picture, drawn after the answer
        await cog.panels.follow_turn(table, None)  # the first player is pinged, host too


async def _ask_cancel(cog: ActionHost, interaction: discord.Interaction[Any], table: Table
                      ) -> None:
    """Cancelling from the lobby asks first (issue 35: it sat beside the AI choices and
    acted at once): for the one who asked alone, nothing changed yet. Only one allowed
    to cancel is asked (the service refuses the others when they confirm, too)."""
    if interaction.user.id != table.host_id and not is_manager(interaction):
        await cog.tables.lobby.cancel(table.id, interaction.user.id, False)  # refused
    yes, keep = cancel_confirm_labels()
    view = Components()
    view.add_item(TableButton(table.id, "cancel:yes", label=yes,
                              style=discord.ButtonStyle.danger))
    view.add_item(TableButton(table.id, "cancel:no", label=keep))
    await reply(interaction, cancel_confirm_text(), view=view)


class CancelButton(TableAction, template=on_table("cancel")):
    """The Cancel button of a lobby posted before the host menu: asks first."""

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await _ask_cancel(cog, interaction, table)


class CancelConfirm(TableAction, template=on_table("cancel:(?:yes|no)")):
    """The confirmation's buttons: cancel the table (its lobby message then says so),
    or keep it."""

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        if self.parts[1] == "no":
            await interaction.response.edit_message(content=cancel_kept_text(), view=None)
            return
        user = interaction.user
        table = await cog.tables.lobby.cancel(table.id, user.id, is_manager(interaction))
        # Read after the cancel, which waits on the table's lock: a lobby answered a
        # moment ago may still be storing its message (set_message holds that lock), and
        # a cancel read before it found no lobby to say "cancelled" on (seen in tests
        # clicking within 50 ms of /new).
        lobby = table.message_id
        mark_committed(interaction, table, "cancel")
        cog.panels.forget_table(table)
        with await cog.settings.public(table.guild_id):
            embed = to_embed(cancelled_panel(safe_markdown(user.display_name)))
            said = cancelled_text(safe_markdown(user.display_name))
        await interaction.response.edit_message(content=said, view=None)
        if lobby is not None:
            try:
                await cog.bot.get_partial_messageable(table.channel_id).get_partial_message(
                    lobby).edit(embed=embed, view=None)
            except discord.HTTPException as exc:  # cancelled all the same
                log.info("table %s: its lobby message could not show the cancel (%s %s)",
                         table.id, exc.status, exc.code)


class HostMenu(TableAction, template=on_table("host", "amks")):
    """The lobby's host menu: its choice names the action (views.lobby_host_options)."""

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        parts = host_choice(values)
        if parts == ["cancel"]:
            await _ask_cancel(cog, interaction, table)
        else:
            await _ai_seats(cog, interaction, table, parts[1])


class HouseRulesMenu(TableAction, template=on_table("house", "amks")):
    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.tables.lobby.set_house_rules(table.id, interaction.user.id, values)
        await _lobby_change(cog, interaction, table)


class OfferButton(TableAction, template=on_table("offer:[0-9]+:(?:yes|no)")):
    """The member the host offered a seat takes it or leaves it (no one else may: the
    service refuses them): the offer's message says which, its buttons gone."""

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        seat, accept = int(self.parts[1]), self.parts[2] == "yes"
        holder = table.seats[seat].user_id if 0 <= seat < len(table.seats) else None
        await cog.tables.seats.answer_offer(table.id, interaction.user.id, seat, accept)
        mark_committed(interaction, table)
        name = safe_markdown(interaction.user.display_name)
        with await cog.settings.public(table.guild_id):
            text = offer_answered_text(seat + 1, name, accept)
        await interaction.response.edit_message(content=text, view=None)
        if accept:
            cog.messages.request_refresh(table)
            # The member whose seat it was is told (issue 52: he never was).
            await tell_seat_given(cog.bot, cog.panels.pings, table, holder, seat + 1, name,
                                  await cog.settings.public(table.guild_id))


# ----------------------------------------------------------------- the player's hand

class RulesButton(TableAction, template=on_table("rules")):
    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await reply(interaction, table.kind.words.rules_text(table.rules))


class ActivityButton(TableAction, template=on_table("activity")):
    """Play in the Activity, on the table message and under a turn ping in the channel
    (when the Activity is on, bot/web): Discord opens the app's Activity in this
    channel, where its page shows this table (common.launch_activity). Anyone in the
    channel may: a member without a seat watches."""

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await launch_activity(interaction)


def _ephemeral(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click came from a message for the user alone (their hand panel)."""
    return interaction.message is not None and bool(interaction.message.flags.ephemeral)


class HandButton(TableAction, template=on_table("hand(?::list)?")):
    """My hand: refreshed in place when clicked in the hand panel itself; from the games
    list (`hand:list`), a panel of its own, so the list stays."""

    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.panels.show_hand(interaction, table,
                            refresh=_ephemeral(interaction) and len(self.parts) == 1)


class BackButton(TableAction, template=on_table("back:list")):
    """The games list's "I'm back" (issue 35): the member takes back the seat the AI
    covers, from wherever they opened the list; a table paused because every human was
    away plays on."""

    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.tables.seats.set_away(table.id, interaction.user.id, False)
        mark_committed(interaction, table)
        await reply(interaction, back_text())
        cog.messages.request_refresh(table)


class TableToggle(TableAction, template=on_table("table(?::off)?")):
    """The hand panel's Table button: the whole table in the panel (`table:off`: back)."""

    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.panels.show_hand(interaction, table, refresh=_ephemeral(interaction),
                            details=self.parts[1:] != ["off"])


class HintButton(TableAction, template=on_table("hint:[0-9]+")):
    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.panels.show_hint(interaction, table, int(self.parts[1]))


class ClaimButton(TableAction, template=on_table("claim:[0-9]+")):
    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.panels.claim(interaction, table, int(self.parts[1]))


async def _game_move(cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                     parts: list[str], values: list[str]) -> None:
    """A game's own control (`<version>:<action...>`): the game's cog answers it."""
    await cog.uis.of(table).on_action(interaction, table, int(parts[0]), parts[1:], values)


class MoveButton(TableAction, template=on_table(rf"[0-9]+:{_ID_CHARS}")):
    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await _game_move(cog, interaction, table, self.parts, values)


class MoveMenu(TableAction, template=on_table(rf"[0-9]+:{_ID_CHARS}", "amks")):
    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await _game_move(cog, interaction, table, self.parts, values)


# ----------------------------------------------------------------- after a game

class ReviewButton(TableAction, template=on_table("review:[0-9]+")):
    live = False

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Any,
                  values: list[str]) -> None:
        await cog.boards.review(interaction, self.table_id, int(self.parts[1]))


class RematchButton(TableAction, template=on_table("rematch")):
    live = False

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Any,
                  values: list[str]) -> None:
        await cog.boards.rematch(interaction, self.table_id)


class StandingsLeaderboard(TableAction, template=on_table("leaderboard")):
    """The leaderboard under a finished game's standings."""

    live = False

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Any,
                  values: list[str]) -> None:
        finished = await cog.tables.keeper.load(self.table_id)
        kind = finished.kind if finished is not None else cog.tables.registry.kind(None)
        # The rating board, once anyone is on it; before that (a server's first
        # games) the board by wins, where the game just played shows.
        rated = await cog.bot.store.rating_board_size(interaction.guild_id or 0,
                                                      board_pool(kind))
        await cog.boards.show_leaderboard(interaction, kind.name, "rating" if rated else "wins",
                                   1, edit=False, ephemeral=True)


# ----------------------------------------------------------------- a channel gone

class GoneEndButton(TableAction, template=on_table("gone:end")):
    """/games' End for a table whose channel is gone or refuses the bot: any member
    seated there ends it (cogs/tables/lifecycle.py), once they have read what it does
    and confirmed (issue 52: it acted at one tap)."""

    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.lifecycle.ask_unreachable(interaction, table, end=True)


class GoneLeaveButton(TableAction, template=on_table("gone:leave")):
    """/games' Leave for a table whose channel is gone or refuses the bot: asks first."""

    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.lifecycle.ask_unreachable(interaction, table, end=False)


class GoneConfirm(TableAction, template=on_table("gone:(?:end|leave):(?:yes|no)")):
    """The confirmation of /games' End or Leave: do it (the confirmation then says what
    was done), or keep the table as it is."""

    seat_op = True

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await cog.lifecycle.confirm_unreachable(interaction, table, end=self.parts[1] == "end",
                                                yes=self.parts[2] == "yes")


# ----------------------------------------------------------------- what no class takes

class OldButton(TableAction, template=_none_of("amk")):
    """A button no action takes (any more): the user is told it is old."""

    def __init__(self, item: discord.ui.Item[Any], table_id: int, rest: str) -> None:
        super().__init__(item, table_id, rest)
        self.seat_op = seat_op(self.parts[0])  # type: ignore[misc]

    async def run(self, cog: ActionHost, interaction: discord.Interaction[Any], table: Table,
                  values: list[str]) -> None:
        await reply(interaction, old_button_text())


class OldSelect(OldButton, template=_none_of("amks")):
    """A menu no action takes (any more)."""


# Every class above, for the bot to register (Tables.cog_load).
ACTIONS: tuple[type[TableAction], ...] = (
    JoinButton, LeaveButton, AiButton, StartButton, CancelButton, CancelConfirm, HostMenu,
    HouseRulesMenu, OfferButton, RulesButton, ActivityButton, HandButton, BackButton,
    TableToggle, HintButton,
    ClaimButton, MoveButton, MoveMenu, ReviewButton, RematchButton, StandingsLeaderboard,
    GoneEndButton, GoneLeaveButton, GoneConfirm, OldButton, OldSelect)
