"""The /amerikaner commands and the table's buttons: a thin adapter.

Each handler parses the interaction, asks the table service (which checks who may act,
applies the action to the rules core and commits it), and renders the answer from views.
Nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import logging
import math
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cards import SUIT_SYMBOLS, card_label, card_name, parse_card, suit_of
from bot.errors import INVALID_CARD, INVALID_LEAD, INVALID_RULES, INVALID_TRUMP, GameError
from bot.games.amerikaner.actions import INVALID_BID, TRUMP_CHOICES, Action
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.rules import BOOLEAN_OPTIONS, PRESETS, Rules, default_target
from bot.games.amerikaner.text import bid_label
from bot.games.amerikaner.views import HandView
from bot.render import (
    CONTENT_LIMIT,
    INTERNAL_ERROR,
    Panel,
    error_text,
    fit_panel,
    leaderboard_panel,
    lobby_panel,
    seat_label,
    seat_names,
    shorten,
    stats_panel,
    turn_mention,
)
from bot.store import PostRow
from bot.tables import ActResult, Table, TableError
from bot.tables.outbox import post_nonce
from bot.tables.service import (
    FINISHED,
    LOBBY,
    PLAYING,
    POST_FINAL,
    POST_HAND_SUMMARY,
    POST_TABLE_MESSAGE,
    POST_TIMEOUT,
)

if TYPE_CHECKING:
    from bot.app import AmerikanerBot

log = logging.getLogger(__name__)

PAGE_SIZE = 10
TRUMP_LABELS = {"S": "♠ Spades", "H": "♥ Hearts", "D": "♦ Diamonds", "C": "♣ Clubs",
                "grand": "No trumps"}


# Discord's limits for components and autocomplete (those of text: bot/render/text.py).
# Over one, Discord refuses the whole reply, and the user sees "This interaction failed".
SELECT_OPTIONS_LIMIT = 25
OPTION_LABEL_LIMIT = 100
CHOICES_LIMIT = 25
CHOICE_LIMIT = 100  # a choice's name, and its value
CUSTOM_ID_LIMIT = 100


def _embed(panel: Panel) -> discord.Embed:
    """The embed of a panel, cut to Discord's limits (fit_panel). Every embed of the cog
    is built here."""
    panel = fit_panel(panel)
    embed = discord.Embed(title=panel.title, description=panel.description or None,
                          colour=panel.colour)
    for name, value, inline in panel.fields:
        embed.add_field(name=name, value=value, inline=inline)
    if panel.footer:
        embed.set_footer(text=panel.footer)
    return embed


def _custom_id(prefix: str, key: object, rest: str) -> str:
    """A component's custom id. It is built from numbers and card names only, so it is
    short; one too long would make Discord refuse the whole message, so it fails here."""
    custom_id = f"{prefix}:{key}:{rest}"
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"a custom id over {CUSTOM_ID_LIMIT} characters: {custom_id[:40]}…")
    return custom_id


def _select_options(items: Iterable[tuple[str, str]]) -> list[discord.SelectOption]:
    """(label, value) pairs as a menu's options, within Discord's limits: 25 options,
    labels of 100 characters (the values are card names)."""
    return [discord.SelectOption(label=shorten(label, OPTION_LABEL_LIMIT), value=value)
            for label, value in itertools.islice(items, SELECT_OPTIONS_LIMIT)]


def _choices(items: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """(name, value) pairs as autocomplete choices, within Discord's limits: 25 choices,
    names of 100 characters. A value over 100 cut short would be another value: such a
    choice is left out."""
    fitting = ((name, value) for name, value in items if len(value) <= CHOICE_LIMIT)
    return [app_commands.Choice(name=shorten(name, CHOICE_LIMIT), value=value)
            for name, value in itertools.islice(fitting, CHOICES_LIMIT)]


# ----------------------------------------------------------------- answering errors

# Discord's code for a second answer to one interaction.
_ALREADY_ACKNOWLEDGED = 40060

# discord.py's refusals before a command runs, by what the user can do about them.
_APP_REFUSALS: tuple[tuple[type[Exception], str], ...] = (
    (app_commands.NoPrivateMessage, "guild_only"),
    (app_commands.BotMissingPermissions, "bot_not_permitted"),
    (app_commands.MissingPermissions, "not_permitted"),
    (app_commands.MissingRole, "not_permitted"),
    (app_commands.MissingAnyRole, "not_permitted"),
    (app_commands.CommandOnCooldown, "slow_down"),
    (app_commands.CheckFailure, "not_allowed_here"),
)


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one place that answers a command, button or menu that failed: a refusal
    (TableError, GameError, an option or check discord.py refused) with its sentence,
    anything else with an apology, its traceback logged once. It never raises: the user
    gets an answer even if Discord refused the first one, and that is logged once."""
    error = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    text = _error_answer(error)
    if isinstance(error, discord.HTTPException) and interaction.response.is_done():
        return  # Discord refused a request after the answer: the user has theirs (logged)
    try:
        await _send_ephemeral(interaction, text)
    except Exception as exc:
        if text != INTERNAL_ERROR:  # the answer itself was refused: try the plain one
            with contextlib.suppress(Exception):
                await _send_ephemeral(interaction, INTERNAL_ERROR)
        log.error("could not answer interaction %s with %r", interaction.id,
                  shorten(text, 80), exc_info=exc)


def _error_answer(error: BaseException) -> str:
    """The sentence for a failed interaction; a failure of ours is logged here."""
    if isinstance(error, GameError):  # TableError too: error_text tells them apart
        return error_text(error, AMERIKANER)
    if isinstance(error, app_commands.TransformerError):
        member = error.type in (discord.AppCommandOptionType.user,
                                discord.AppCommandOptionType.mentionable)
        return error_text(TableError("not_a_member" if member else "bad_option"))
    for kind, code in _APP_REFUSALS:
        if isinstance(error, kind):
            return error_text(TableError(code))
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("Discord sent a command that differs from ours: %s", error)
        return error_text(TableError("outdated_command"))
    if isinstance(error, discord.HTTPException):
        log.warning("Discord refused a request", exc_info=error)
    else:
        log.error("handler failed", exc_info=error)
    return INTERNAL_ERROR


async def _send_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    """`text` for the user alone: the answer, or a follow-up if there is one already."""
    kwargs: dict[str, Any] = {"content": shorten(text, CONTENT_LIMIT), "ephemeral": True,
                              "allowed_mentions": discord.AllowedMentions.none()}
    if not interaction.response.is_done():
        try:
            await interaction.response.send_message(**kwargs)
            return
        except discord.InteractionResponded:
            pass  # answered meanwhile: follow up
        except discord.HTTPException as exc:
            if exc.code != _ALREADY_ACKNOWLEDGED:
                raise
    await interaction.followup.send(**kwargs)


def _card_style(card: int) -> discord.ButtonStyle:
    return discord.ButtonStyle.danger if suit_of(card) in (1, 2) else discord.ButtonStyle.secondary


# ----------------------------------------------------------------- persistent components

async def _run_component(item: discord.ui.Item[Any], interaction: discord.Interaction[Any],
                         work: Callable[[Amerikaner], Awaitable[None]]) -> None:
    """Run the handler of a button or menu: an error is answered as a command's is
    (answer_error), and the objects of the click are let go."""
    try:
        cog = interaction.client.get_cog("Amerikaner")
        if not isinstance(cog, Amerikaner):
            raise RuntimeError("the Amerikaner cog is not loaded")
        await work(cog)
    except Exception as exc:
        await answer_error(interaction, exc)
    finally:
        _let_go(item, interaction)


def _let_go(item: discord.ui.Item[Any], interaction: discord.Interaction[Any]) -> None:
    """Break the reference cycles discord.py builds around one button or select click,
    once it is answered: the view it rebuilt from the message <-> that view's items,
    and the interaction <-> its response. Their objects are then freed at once instead
    of aging into the garbage collector's full passes, which pause every table."""
    if item.view is not None:
        item.view.clear_items()
    # Its handler is done (a stop waits for interactions in flight, bot.app); said
    # here because `interaction.response` no longer tells once it is let go.
    interaction.extras["handled"] = True
    for cached in ("_cs_response", "_cs_followup"):
        with contextlib.suppress(AttributeError):
            delattr(interaction, cached)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"amk:(?P<table>[0-9]+):(?P<rest>[A-Za-z0-9:_\-]*)"):
    """Every button of a table: `amk:<table>:<version>:<op>[:<arg>...]` for actions,
    `amk:<table>:<op>` for the rest. It keeps working across restarts."""

    def __init__(self, table_id: int, rest: str, *, label: str = "\u200b",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled,
                                           emoji=emoji,
                                           custom_id=_custom_id("amk", table_id, rest)))
        self.table_id = table_id
        self.rest = rest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: Any) -> TableButton:
        return cls(int(match["table"]), match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _run_component(self, interaction, lambda cog: cog.on_component(
            interaction, self.table_id, self.rest, []))


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"amks:(?P<table>[0-9]+):(?P<rest>[A-Za-z0-9:_\-]*)"):
    """The select menus of a table (discard, exchange, call)."""

    def __init__(self, table_id: int, rest: str, options: list[discord.SelectOption] | None
                 = None, *, placeholder: str | None = None, min_values: int = 1,
                 max_values: int = 1) -> None:
        super().__init__(discord.ui.Select(custom_id=_custom_id("amks", table_id, rest),
                                           options=options or [], placeholder=placeholder,
                                           min_values=min_values, max_values=max_values))
        self.table_id = table_id
        self.rest = rest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Select[Any], match: Any) -> TableSelect:
        return cls(int(match["table"]), match["rest"], list(item.options),
                   min_values=item.min_values, max_values=item.max_values)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        await _run_component(self, interaction, lambda cog: cog.on_component(
            interaction, self.table_id, self.rest, values))


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"amkl:(?P<order>wins|points):(?P<page>[0-9]+)"):
    def __init__(self, order: str, page: int, label: str = "\u200b",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=_custom_id("amkl", order, str(page))))
        self.order = order
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: Any) -> LeaderboardButton:
        return cls(match["order"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _run_component(self, interaction, lambda cog: cog.show_leaderboard(
            interaction, self.order, self.page, edit=True))


# ----------------------------------------------------------------- views of a table

class Components(discord.ui.View):
    """Buttons and selects for one message. Every item is a DynamicItem, routed by its
    custom_id pattern, so discord.py never needs the view after it is sent. It is
    stopped before sending, because discord.py keeps an unfinished view (an ephemeral
    one for 15 minutes, with a timer); and it lets go of its items once serialised,
    because each item points back at its view: at a busy bot those cycles pile up
    for the garbage collector's slow full passes."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        components = super().to_components()
        self.clear_items()
        return components


def lobby_view(table: Table) -> Components:
    view = Components()
    t = table.id
    view.add_item(TableButton(t, "join", label="Join", style=discord.ButtonStyle.success))
    view.add_item(TableButton(t, "leave", label="Leave"))
    view.add_item(TableButton(t, "start", label="Start", style=discord.ButtonStyle.primary,
                              disabled=not table.full))
    view.add_item(TableButton(t, "cancel", label="Cancel", style=discord.ButtonStyle.danger))
    view.add_item(TableButton(t, "ai:easy", label="Add AI (easy)", disabled=table.full))
    view.add_item(TableButton(t, "ai:strong", label="Add AI (strong)", disabled=table.full))
    view.add_item(TableButton(t, "ai:remove", label="Remove AI",
                              disabled=not any(s.is_ai for s in table.seats)))
    return view


def table_view(table: Table) -> Components:
    view = Components()
    view.add_item(TableButton(table.id, "hand", label="My hand",
                              style=discord.ButtonStyle.primary, emoji="🂠"))
    view.add_item(TableButton(table.id, "rules", label="Rules"))
    return view


def hand_view_components(table: Table, view: HandView) -> Components:
    """A player's own controls: exactly the actions legal now."""
    ui = Components()
    t, v = table.id, table.version
    legal = view.legal
    if legal is None:
        ui.add_item(TableButton(t, "hand", label="Refresh", emoji="🔄"))
        return ui
    if legal.phase == "bid":
        ui.add_item(TableButton(t, f"{v}:pass", label="Pass"))
        if legal.can_redeal:
            ui.add_item(TableButton(t, f"{v}:redeal", label="Redeal",
                                    style=discord.ButtonStyle.danger))
        for bid in legal.bids:
            ui.add_item(TableButton(t, f"{v}:bid:{bid}", label=bid_label(bid),
                                    style=discord.ButtonStyle.primary
                                    if isinstance(bid, int) else discord.ButtonStyle.success))
    elif legal.phase in ("discard", "exchange"):
        low, high = legal.card_count
        options = _select_options((card_label(c), card_name(c)) for c in legal.cards)
        if legal.phase == "discard":
            ui.add_item(TableSelect(t, f"{v}:discard", options,
                                    placeholder=f"Choose {high} cards to discard",
                                    min_values=high, max_values=high))
        else:
            ui.add_item(TableSelect(t, f"{v}:exchange", options,
                                    placeholder=f"Give up to {high} cards to the blind",
                                    min_values=1, max_values=high))
            ui.add_item(TableButton(t, f"{v}:exchange", label="Keep my hand"))
    else:
        op = "lead" if legal.phase == "lead" and legal.calls else "play"
        playable = set(legal.cards)
        assert view.cards is not None
        for card in view.cards[:24]:
            ui.add_item(TableButton(t, f"{v}:{op}:{card_name(card)}", label=card_label(card),
                                    style=_card_style(card), disabled=card not in playable))
    ui.add_item(TableButton(t, "hand", label="Refresh", emoji="🔄"))
    return ui


def lead_trump_components(table: Table, card: int) -> Components:
    ui = Components()
    t, v, name = table.id, table.version, card_name(card)
    led = SUIT_SYMBOLS[suit_of(card)]
    ui.add_item(TableButton(t, f"{v}:trump:{name}:led", label=f"Trump: {led} (suit led)",
                            style=discord.ButtonStyle.primary))
    for choice in ("S", "H", "D", "C", "grand"):
        if choice != "SHDC"[suit_of(card)]:
            ui.add_item(TableButton(t, f"{v}:trump:{name}:{choice}",
                                    label=TRUMP_LABELS[choice]))
    ui.add_item(TableButton(t, "hand", label="Back", emoji="↩"))
    return ui


def call_components(table: Table, card: int, trump: str, calls: tuple[int, ...]
                    ) -> Components:
    ui = Components()
    options = _select_options((f"Call {card_label(c)}", card_name(c)) for c in calls)
    ui.add_item(TableSelect(table.id, f"{table.version}:call:{card_name(card)}:{trump}",
                            options, placeholder="Call a card: its holder is your partner"))
    ui.add_item(TableButton(table.id, "hand", label="Back", emoji="↩"))
    return ui


# ----------------------------------------------------------------- panels of a table

def table_panel(table: Table) -> Panel:
    """The public table message: the lobby, or the game as everyone may see it."""
    names = seat_names(table.seats)
    kind = table.kind
    if table.stage == LOBBY:
        return lobby_panel(names, table.seat_of(table.host_id), table.players,
                           kind.lobby_title(table.rules), kind.options_line(table.rules))
    return kind.table_panel(table.game, names)


def hand_panel(table: Table, seat: int) -> Panel:
    """A player's own hand, for them alone."""
    return table.kind.seat_panel(table.game, seat, seat_names(table.seats))


def _final_panel(table: Table) -> Panel:
    """The standings of a finished game."""
    return table.kind.final_standings(table.game, seat_names(table.seats))


def _turn_mention(table: Table) -> str | None:
    """A line that mentions the human to act, or None if the AI plays the turn."""
    seat = table.to_act
    if seat is None:
        return None
    user = table.seats[seat].user_id
    if user is None or table.seats[seat].played_by_ai:
        return None
    return turn_mention(user, table.kind.title(table.rules))


# ----------------------------------------------------------------- the cog

def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


class Amerikaner(commands.Cog):
    """Amerikaner and Kani at the table in this channel."""

    group = app_commands.Group(name="amerikaner", description="Play Amerikaner and Kani",
                               guild_only=True)

    def __init__(self, bot: AmerikanerBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self._dirty: set[int] = set()
        self._editors: dict[int, asyncio.Task[None]] = {}
        self.edit_delay = bot.settings.edit_delay

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TableButton, TableSelect, LeaderboardButton)
        self.tables.add_listener(self._on_table_event)
        self.bot.outbox.send = self._send_post
        # The slash commands raise; the tree hands every error to answer_error, also
        # those raised before a command runs (an option or check refused, an outdated
        # command), which a cog's own error handler would never see.
        self._tree_on_error = self.bot.tree.on_error
        self.bot.tree.error(answer_error)

    async def cog_unload(self) -> None:
        for task in self._editors.values():
            task.cancel()
        self.bot.tree.error(self._tree_on_error)

    # ------------------------------------------------------------- answering

    async def _reply(self, interaction: discord.Interaction[Any], text: str | None = None, *,
                     panel: Panel | None = None, view: discord.ui.View | None = None,
                     ephemeral: bool = True, file: discord.File | None = None) -> None:
        # No mentions: a reply quotes names and what users typed, never to ping anyone.
        kwargs: dict[str, Any] = {"ephemeral": ephemeral,
                                  "allowed_mentions": discord.AllowedMentions.none()}
        if text is not None:
            kwargs["content"] = shorten(text, CONTENT_LIMIT)
        if panel is not None:
            kwargs["embed"] = _embed(panel)
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    def _table_here(self, interaction: discord.Interaction[Any]) -> Table:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table")
        return table

    def _my_seat(self, table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", reason="not_playing")
        return seat

    # ------------------------------------------------------------- table message

    def request_refresh(self, table: Table) -> None:
        """Edit the public table message soon; edits are coalesced, so a burst of actions
        makes few edits, and the last one always shows the current state."""
        self._dirty.add(table.id)
        task = self._editors.get(table.id)
        if task is None or task.done():
            self._editors[table.id] = asyncio.create_task(self._editor(table))

    async def _editor(self, table: Table) -> None:
        while table.id in self._dirty:
            await asyncio.sleep(self.edit_delay)
            self._dirty.discard(table.id)
            try:
                await self._edit_table_message(table)
            except discord.HTTPException:
                log.warning("could not edit the table message of table %s", table.id,
                            exc_info=True)

    async def _edit_table_message(self, table: Table) -> None:
        if table.message_id is None:
            return
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
            table.message_id)
        if table.stage == LOBBY:
            await message.edit(embed=_embed(table_panel(table)), view=lobby_view(table))
        elif table.stage == PLAYING:
            await message.edit(embed=_embed(table_panel(table)), view=table_view(table))
        else:
            await message.edit(view=None)

    # ------------------------------------------------------------- posts (the outbox)

    async def _send_post(self, row: PostRow) -> int | None:
        """Render and send one post of the outbox (bot.tables.outbox): the id of the
        message, or None if it can never be posted. Sent with the post's nonce, so a
        post sent again after a crash is not posted twice."""
        table = await self.tables.load(row.game_id)
        if table is None:
            return None
        channel = self.bot.get_partial_messageable(row.channel_id)
        nonce = post_nonce(row)
        try:
            if row.kind == POST_HAND_SUMMARY:
                panel = table.kind.deal_summary(table.game, int(row.params["hand_index"]),
                                                seat_names(table.seats))
                message = await channel.send(embed=_embed(panel), nonce=nonce)
            elif row.kind == POST_FINAL:
                message = await channel.send(embed=_embed(_final_panel(table)), nonce=nonce)
                await self._retire_table_message(table, table.message_id)
            elif row.kind == POST_TABLE_MESSAGE:
                if table.stage != PLAYING:
                    return None  # the game ended or was cancelled meanwhile
                message = await self._post_table_message(table, nonce)
            elif row.kind == POST_TIMEOUT:
                seat = int(row.params["seat"])
                played = table.kind.describe_action(row.params["action"])
                message = await channel.send(
                    f"⏰ {seat_label(table.seats, seat)}'s time ran out: the AI played "
                    f"{played} for them.", nonce=nonce)
            else:
                log.error("unknown post %r of table %s", row.kind, table.id)
                return None
        except (discord.Forbidden, discord.NotFound):
            return None
        return message.id

    async def _post_table_message(self, table: Table, nonce: str) -> discord.Message:
        """A new table message at the bottom of the channel, for the next hand; the old
        one loses its buttons."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        old = table.message_id
        message = await channel.send(embed=_embed(table_panel(table)), view=table_view(table),
                                     nonce=nonce)
        await self.tables.set_message(table, message.id)
        if old is not None and old != message.id:
            await self._retire_table_message(table, old)
        return message

    async def _retire_table_message(self, table: Table, message_id: int | None) -> None:
        """Take the buttons off a table message that no longer is the live one (at the
        end of a game, with the final state)."""
        if message_id is None:
            return
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
            message_id)
        with contextlib.suppress(discord.HTTPException):
            if table.stage == PLAYING:
                await message.edit(view=None)
            else:
                self._dirty.discard(table.id)
                await message.edit(embed=_embed(table_panel(table)), view=None)

    def _after_change(self, table: Table, deal_finished: bool) -> None:
        """Public consequences of a change beyond its posts (which the outbox makes):
        the table message, edited soon, unless the hand ended (a new one is posted)."""
        if not deal_finished:
            self.request_refresh(table)

    async def _on_table_event(self, table: Table, event: str, detail: dict[str, Any]
                              ) -> None:
        """Changes the service made by itself (AI turns, turn timers)."""
        if event == "reminder":
            text = _turn_mention(table)
            if text:
                await self.bot.get_partial_messageable(table.channel_id).send(
                    f"⏳ {text} Half your time is gone.",
                    allowed_mentions=discord.AllowedMentions(users=True))
            return
        self._after_change(table, event in ("deal_finished", "game_finished"))
        if event != "game_finished":
            await self._maybe_mention(table, 0)

    async def _maybe_mention(self, table: Table, idle: float) -> None:
        if idle < self.bot.settings.idle_mention_seconds:
            return
        text = _turn_mention(table)
        if text:
            await self.bot.get_partial_messageable(table.channel_id).send(
                text, allowed_mentions=discord.AllowedMentions(users=True))

    # ------------------------------------------------------------- components

    async def on_component(self, interaction: discord.Interaction[Any], table_id: int,
                           rest: str, values: list[str]) -> None:
        """A button or menu of a table; errors are answered by the caller (_run_component)."""
        parts = rest.split(":")
        user = interaction.user
        table = self.tables.get(table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            await self._closed_table(interaction, table_id)
            return
        op = parts[0]
        if op == "join":
            await self.tables.join(table.id, user.id, user.display_name)
            await interaction.response.edit_message(embed=_embed(table_panel(table)),
                                                    view=lobby_view(table))
        elif op == "leave":
            await self.tables.leave(table.id, user.id)
            if table.stage == LOBBY:
                await interaction.response.edit_message(embed=_embed(table_panel(table)),
                                                        view=lobby_view(table))
            else:
                await self._reply(interaction, "You left: the AI plays your seat. Come back "
                                  "with /amerikaner back.")
                self.request_refresh(table)
        elif op == "ai":
            if parts[1] == "remove":
                await self.tables.remove_ai(table.id, user.id)
            else:
                await self.tables.add_ai(table.id, user.id, parts[1])
            await interaction.response.edit_message(embed=_embed(table_panel(table)),
                                                    view=lobby_view(table))
        elif op == "start":
            await self.tables.start(table.id, user.id)
            await interaction.response.edit_message(embed=_embed(table_panel(table)),
                                                    view=table_view(table))
        elif op == "cancel":
            await self.tables.cancel(table.id, user.id, _is_manager(interaction))
            await interaction.response.edit_message(
                embed=_embed(Panel(title="Table cancelled",
                                   description=f"Cancelled by {user.display_name}.")),
                view=None)
        elif op == "rules":
            await self._reply(interaction, table.kind.rules_text(table.rules))
        elif op == "hand":
            await self._show_hand(interaction, table, refresh=interaction.message is not None
                                  and bool(interaction.message.flags.ephemeral))
        elif op.isascii() and op.isdigit() and len(parts) >= 2:  # <version>:<action>
            await self._hand_action(interaction, table, int(op), parts[1:], values)
        else:
            await self._reply(interaction, "That button is no longer in use.")

    async def _closed_table(self, interaction: discord.Interaction[Any], table_id: int
                            ) -> None:
        """A button of a table that is no longer live. A finished game answers with its
        final standings (read from the store: it may have ended before a restart), in
        place of the clicked panel when that is the player's own."""
        table = await self.tables.load(table_id)
        if table is None or table.stage != FINISHED:
            await self._reply(interaction, "This table is closed.")
            return
        embed = _embed(_final_panel(table))
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(content="This game is over.", embed=embed,
                                                    view=None)
        else:
            await self._reply(interaction, "This game is over.", panel=_final_panel(table))

    async def _show_hand(self, interaction: discord.Interaction[Any], table: Table,
                         refresh: bool = False) -> None:
        if table.stage != PLAYING:
            raise TableError("not_started", reason="not_yet")
        seat = self._my_seat(table, interaction.user.id)
        view = table.seat_view(seat)
        assert view is not None
        embed = _embed(hand_panel(table, seat))
        components = hand_view_components(table, view)
        if refresh:
            await interaction.response.edit_message(embed=embed, view=components)
        else:
            await interaction.response.send_message(embed=embed, view=components,
                                                    ephemeral=True)

    async def _hand_action(self, interaction: discord.Interaction[Any], table: Table,
                           version: int, parts: list[str], values: list[str]) -> None:
        op, args = parts[0], parts[1:]
        if op in ("lead", "trump"):
            await self._lead_step(interaction, table, version, op, args)
            return
        make = self._component_action(op, args, values, table.rules)
        try:
            result = await self.tables.act(table.id, interaction.user.id, version, make)
        except TableError as exc:
            if exc.code == "stale":
                await self._reply(interaction, "That has moved on: here is your hand as it "
                                  "is now.", panel=self._hand_panel_or_none(table, interaction),
                                  view=self._hand_components_or_none(table, interaction))
                return
            raise
        await self._confirm(interaction, table, result, edit=True)

    def _hand_panel_or_none(self, table: Table, interaction: discord.Interaction[Any]
                            ) -> Panel | None:
        seat = table.seat_of(interaction.user.id)
        return hand_panel(table, seat) if seat is not None and table.stage == PLAYING else None

    def _hand_components_or_none(self, table: Table, interaction: discord.Interaction[Any]
                                 ) -> discord.ui.View | None:
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.stage != PLAYING:
            return None
        view = table.seat_view(seat)
        return hand_view_components(table, view) if view is not None else None

    @staticmethod
    def _component_action(op: str, args: list[str], values: list[str], rules: Rules
                          ) -> Callable[[int], Action]:
        """The action of a button or menu. Its custom id and values are the bot's own,
        but read as strictly as what users type."""
        def cards_of(names: list[str]) -> tuple[int, ...]:
            return tuple(_parse_card(name) for name in names)

        if op == "pass":
            return Action.pass_
        if op == "redeal":
            return Action.redeal
        if op == "bid":
            return lambda seat: _bid_action(seat, args[0], rules)
        if op == "discard":
            chosen = cards_of(values)
            return lambda seat: Action.discard(seat, chosen)
        if op == "exchange":
            chosen = cards_of(values)
            return lambda seat: Action.exchange(seat, chosen)
        if op == "play":
            (card,) = cards_of(args[:1])
            return lambda seat: Action.play(seat, card)
        if op == "call":
            (card,) = cards_of(args[:1])
            trump = None if args[1] == "led" else _parse_trump(args[1])
            (call,) = cards_of(values[:1]) if values else (None,)
            return lambda seat: Action.play(seat, card, call, trump)
        raise TableError("bad_input", reason="old_button")

    async def _lead_step(self, interaction: discord.Interaction[Any], table: Table,
                         version: int, op: str, args: list[str]) -> None:
        """The opening lead in steps: the card, then the trump (free_trump), then the call.
        Nothing changes until the call is chosen."""
        if version != table.version:
            raise TableError("stale")
        seat = self._my_seat(table, interaction.user.id)
        view = table.seat_view(seat)
        if view is None or view.legal is None or view.legal.phase != "lead":
            raise TableError("stale")
        card = parse_card(args[0])
        if card is None or card not in view.legal.cards:
            raise GameError(INVALID_LEAD, reason="not_legal")
        if op == "lead" and view.legal.trumps:
            panel = Panel(title=f"Lead {card_label(card)}: choose trump",
                          description="The suit led is trump unless you name another, "
                          "or no trumps.")
            await interaction.response.edit_message(embed=_embed(panel),
                                                    view=lead_trump_components(table, card))
            return
        trump = args[1] if op == "trump" and len(args) > 1 else "led"
        calls = view.legal.calls_for(suit_of(card))
        if not calls:
            result = await self.tables.act(
                table.id, interaction.user.id, version,
                lambda s: Action.play(s, card, None, None if trump == "led" else trump))
            await self._confirm(interaction, table, result, edit=True)
            return
        panel = Panel(title=f"Lead {card_label(card)}: call a card",
                      description="Whoever holds the called card is your partner, revealed "
                      "when it is played.")
        await interaction.response.edit_message(embed=_embed(panel),
                                                view=call_components(table, card, trump, calls))

    async def _confirm(self, interaction: discord.Interaction[Any], table: Table,
                       result: ActResult, edit: bool) -> None:
        """The action is stored: refresh the player's hand, then the public side."""
        seat = result.seat
        view = table.seat_view(seat) if table.stage == PLAYING else None
        if view is not None:
            embed = _embed(hand_panel(table, seat))
            components = hand_view_components(table, view)
        else:
            embed = _embed(Panel(title="Done", description="The game is over."))
            components = None
        if edit:
            await interaction.response.edit_message(embed=embed, view=components)
        elif components is not None:
            await interaction.response.send_message(embed=embed, view=components,
                                                    ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        self._after_change(table, result.deal_finished)
        if not result.game_finished:
            await self._maybe_mention(table, result.idle_before)

    # ------------------------------------------------------------- slash commands

    @group.command(name="new", description="Open a table in this channel")
    @app_commands.describe(preset="Which game", players="Number of players",
                           target="Winning score (52; Kani 50)",
                           turn_timer="Minutes per turn before the AI plays it (0: no timer)")
    @app_commands.choices(preset=[app_commands.Choice(name=p, value=p) for p in PRESETS])
    async def new(self, interaction: discord.Interaction[Any],
                  preset: str | None = None,
                  players: app_commands.Range[int, 3, 6] | None = None,
                  target: app_commands.Range[int, 1, 1000] | None = None,
                  no_kitty: bool | None = None, jokers: bool | None = None,
                  show_kitty: bool | None = None, kitty_trick: bool | None = None,
                  free_trump: bool | None = None, two_wins: bool | None = None,
                  bidder_double: bool | None = None, partner_half: bool | None = None,
                  all_pass_play: bool | None = None, fixed_ten: bool | None = None,
                  turn_timer: app_commands.Range[int, 0, 1440] | None = None) -> None:
        given = {"no_kitty": no_kitty, "jokers": jokers, "show_kitty": show_kitty,
                 "kitty_trick": kitty_trick, "free_trump": free_trump,
                 "two_wins": two_wins, "bidder_double": bidder_double,
                 "partner_half": partner_half, "all_pass_play": all_pass_play,
                 "fixed_ten": fixed_ten}
        defaults = await self.bot.store.get_guild_settings(interaction.guild_id or 0)
        chosen_preset = preset or defaults.get("preset", "amerikaner")
        same_preset = chosen_preset == defaults.get("preset", "amerikaner")
        options: dict[str, object] = dict(defaults.get("options", {})) if same_preset else {}
        options.update({k: v for k, v in given.items() if v is not None})
        count = players or (defaults.get("players") if same_preset else None) or 4
        timer = turn_timer if turn_timer is not None else int(
            defaults.get("turn_timer", 0) or 0)
        options["target"] = target or (defaults.get("target") if same_preset else None) \
            or default_target(chosen_preset)
        table = await self.tables.create(interaction.guild_id or 0,
                                         interaction.channel_id or 0, interaction.user.id,
                                         interaction.user.display_name, chosen_preset,
                                         int(count), options, timer * 60 or None)
        response = await interaction.response.send_message(
            embed=_embed(table_panel(table)), view=lobby_view(table))
        if response.message_id is not None:
            await self.tables.set_message(table, response.message_id)

    @group.command(name="hand", description="See your cards and act (only you see it)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self._show_hand(interaction, self._table_here(interaction))

    @group.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = self._table_here(interaction)
        await self.tables.join(table.id, interaction.user.id, interaction.user.display_name)
        await self._reply(interaction, f"You joined (seat {len(table.seats)}).")
        self.request_refresh(table)

    @group.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        table = self._table_here(interaction)
        await self.tables.start(table.id, interaction.user.id)
        await self._reply(interaction, "The game is on.", ephemeral=False)
        self.request_refresh(table)

    async def _act_command(self, interaction: discord.Interaction[Any], table: Table,
                           make: Callable[[int], Action]) -> None:
        """The action `make(seat)` by the user's seat. `make` reads what they typed: it
        runs once the service has checked that they play at this table."""
        result = await self.tables.act(table.id, interaction.user.id, None, make)
        await self._confirm(interaction, table, result, edit=False)

    @group.command(name="bid", description="Bid, or pass")
    @app_commands.describe(value="A number, the top bid, pass or redeal")
    async def bid(self, interaction: discord.Interaction[Any], value: str) -> None:
        table = self._table_here(interaction)
        await self._act_command(interaction, table,
                                lambda seat: _bid_action(seat, value, table.rules))

    @bid.autocomplete("value")
    async def bid_complete(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase != "bid":
            return []
        typed = current.strip().lower()
        words = ["pass", *(["redeal"] if legal.can_redeal else []), *legal.bids]
        return _choices((bid_label(w), str(w)) for w in words if str(w).startswith(typed))

    @group.command(name="discard", description="Discard after taking the kitty")
    @app_commands.describe(cards="The cards, e.g. 2C 3C 10H KD")
    async def discard(self, interaction: discord.Interaction[Any], cards: str) -> None:
        await self._act_command(interaction, self._table_here(interaction),
                                lambda s: Action.discard(s, _parse_cards(cards)))

    @group.command(name="exchange", description="Exchange cards with the blind (norsk)")
    @app_commands.describe(cards="Cards to give, e.g. 2C 3C; 'none' to keep your hand")
    async def exchange(self, interaction: discord.Interaction[Any], cards: str = "none"
                       ) -> None:
        table = self._table_here(interaction)
        keep = _ascii_word(cards) in ("", "none")
        await self._act_command(interaction, table, lambda s: Action.exchange(
            s, () if keep else _parse_cards(cards)))

    @discard.autocomplete("cards")
    @exchange.autocomplete("cards")
    async def cards_complete(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase not in ("discard", "exchange"):
            return []
        words = current.upper().split()
        done = [w for w in words if parse_card(w) is not None]
        prefix = " ".join(done)
        chosen = {parse_card(w) for w in done}
        if len(done) >= legal.card_count[1]:
            return _choices([(prefix, prefix)]) if prefix else []
        values = ((prefix + " " + card_name(card)).strip() for card in legal.cards
                  if card not in chosen)
        return _choices((value, value) for value in values)

    @group.command(name="play", description="Play a card (the opening lead names a call)")
    @app_commands.describe(card="The card, e.g. AS or 10H",
                           call="Opening lead: the card to call (your partner holds it)",
                           trump="Opening lead with free_trump: S, H, D, C or grand")
    async def play(self, interaction: discord.Interaction[Any], card: str,
                   call: str | None = None, trump: str | None = None) -> None:
        def make(seat: int) -> Action:
            (played,) = _parse_cards(card, 1)
            called = _parse_cards(call, 1)[0] if call else None
            return Action.play(seat, played, called, _parse_trump(trump) if trump else None)
        await self._act_command(interaction, self._table_here(interaction), make)

    @play.autocomplete("card")
    async def card_complete(self, interaction: discord.Interaction[Any], current: str
                            ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase not in ("lead", "play"):
            return []
        text = current.strip().upper()
        return _choices((card_label(c), card_name(c)) for c in legal.cards
                        if card_name(c).startswith(text) or card_label(c).upper().startswith(text))

    @play.autocomplete("call")
    async def call_complete(self, interaction: discord.Interaction[Any], current: str
                            ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase != "lead" or not legal.calls:
            return []
        led = parse_card(str(getattr(interaction.namespace, "card", "") or ""))
        suits = [suit_of(led)] if led is not None else [s for s, _ in legal.calls]
        text = current.strip().upper()
        return _choices((card_label(c), card_name(c)) for s in suits for c in legal.calls_for(s)
                        if card_name(c).startswith(text))

    @play.autocomplete("trump")
    async def trump_complete(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or not legal.trumps:
            return []
        typed = current.strip().lower()
        return _choices((TRUMP_LABELS[t], t) for t in legal.trumps if t.lower().startswith(typed))

    def _legal_for(self, interaction: discord.Interaction[Any]):  # noqa: ANN202
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None or table.stage != PLAYING:
            return None
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return None
        view = table.seat_view(seat)
        return view.legal if view is not None else None

    @group.command(name="rules", description="The rules of this table (or of a preset)")
    @app_commands.choices(preset=[app_commands.Choice(name=p, value=p) for p in PRESETS])
    async def rules(self, interaction: discord.Interaction[Any], preset: str | None = None
                    ) -> None:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if preset is not None or table is None:
            kind = self.tables.kind(None)
            rules = kind.make_rules(preset, 4, {})
        else:
            kind, rules = table.kind, table.rules
        await self._reply(interaction, kind.rules_text(rules))

    @group.command(name="score", description="The running totals of this table")
    async def score(self, interaction: discord.Interaction[Any]) -> None:
        table = self._table_here(interaction)
        await self._reply(interaction, panel=table_panel(table))

    @group.command(name="leave", description="Leave the table (the AI takes over in a game)")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = self._table_here(interaction)
        await self.tables.leave(table.id, interaction.user.id)
        await self._reply(interaction, "You left the table." if table.stage == LOBBY else
                          "You left: the AI plays your seat. /amerikaner back to return.")
        self.request_refresh(table)

    @group.command(name="away", description="Let the AI play your seat until you are back")
    async def away(self, interaction: discord.Interaction[Any]) -> None:
        table = self._table_here(interaction)
        await self.tables.set_away(table.id, interaction.user.id, True)
        await self._reply(interaction, "The AI plays for you until /amerikaner back.")
        self.request_refresh(table)

    @group.command(name="back", description="Take your seat back from the AI")
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        table = self._table_here(interaction)
        await self.tables.set_away(table.id, interaction.user.id, False)
        await self._reply(interaction, "Welcome back: your seat is yours again.")
        self.request_refresh(table)

    @group.command(name="replace", description="Host: hand an away player's seat to "
                   "someone else, or to the AI for good")
    @app_commands.describe(seat="The seat number (1 is the first seat)",
                           member="Who takes the seat (leave empty: the AI keeps it)")
    async def replace(self, interaction: discord.Interaction[Any],
                      seat: app_commands.Range[int, 1, 6],
                      member: discord.Member | None = None) -> None:
        table = self._table_here(interaction)
        newcomer = (member.id, member.display_name) if member is not None else None
        await self.tables.replace(table.id, interaction.user.id, seat - 1, newcomer)
        who = member.display_name if member is not None else "the AI"
        await self._reply(interaction, f"Seat {seat} now belongs to {who}.",
                          ephemeral=False)
        self.request_refresh(table)

    @group.command(name="cancel", description="Cancel the table (host or Manage Server)")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        table = self._table_here(interaction)
        await self.tables.cancel(table.id, interaction.user.id, _is_manager(interaction))
        await self._reply(interaction, f"The table was cancelled by "
                          f"{interaction.user.display_name}.", ephemeral=False)
        if table.message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(table.channel_id).get_partial_message(
                    table.message_id).edit(view=None)

    @group.command(name="export", description="The game record as a JSON file")
    @app_commands.describe(game="A finished game's number (default: this channel's)")
    async def export(self, interaction: discord.Interaction[Any], game: int | None = None
                     ) -> None:
        game_id, note = await self._export_target(interaction, game)
        row = await self.bot.store.get_game(game_id)
        if row is None or row.guild_id != interaction.guild_id:
            raise TableError("no_game")
        record = await self.bot.store.load_record(game_id)
        if row.status == "active":
            # The hand being played would show every hidden card: leave it out.
            record["hands"] = record["hands"][:-1]
        data = json.dumps(record, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"amerikaner-{game_id}.json")
        await self._reply(interaction, note, file=file)

    async def _export_target(self, interaction: discord.Interaction[Any], game: int | None
                             ) -> tuple[int, str]:
        if game is not None:
            return game, f"Game {game}."
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is not None and table.stage == PLAYING:
            return table.id, (f"Game {table.id} so far, without the hand being played "
                              "(its cards are still hidden).")
        finished = await self.bot.store.last_game_in_channel(interaction.channel_id or 0,
                                                             "finished")
        if finished is not None:
            return finished.id, f"Game {finished.id}."
        raise TableError("no_game", reason="nothing_here")

    @group.command(name="leaderboard", description="This server's top players")
    @app_commands.choices(order=[app_commands.Choice(name="wins", value="wins"),
                                 app_commands.Choice(name="points", value="points")])
    async def leaderboard(self, interaction: discord.Interaction[Any], order: str = "wins",
                          page: app_commands.Range[int, 1, 10000] = 1) -> None:
        await self.show_leaderboard(interaction, order, page, edit=False)

    async def show_leaderboard(self, interaction: discord.Interaction[Any], order: str,
                               page: int, edit: bool) -> None:
        guild = interaction.guild_id or 0
        size = await self.bot.store.leaderboard_size(guild)
        pages = max(1, math.ceil(size / PAGE_SIZE))
        current = min(max(1, page), pages)
        rows = await self.bot.store.leaderboard(guild, order, PAGE_SIZE,  # type: ignore[arg-type]
                                                (current - 1) * PAGE_SIZE)
        panel = leaderboard_panel([(f"<@{r.user_id}>", r.games, r.wins, r.points)
                                   for r in rows], current, pages, order)
        view = Components()
        view.add_item(LeaderboardButton(order, current - 1, "◀ Previous",
                                        disabled=current <= 1))
        view.add_item(LeaderboardButton(order, current + 1, "Next ▶",
                                        disabled=current >= pages))
        if edit:
            await interaction.response.edit_message(embed=_embed(panel), view=view)
        else:
            await interaction.response.send_message(
                embed=_embed(panel), view=view,
                allowed_mentions=discord.AllowedMentions.none())

    @group.command(name="stats", description="A member's results on this server")
    async def stats(self, interaction: discord.Interaction[Any],
                    member: discord.Member | None = None) -> None:
        who = member or interaction.user
        s = await self.bot.store.member_stats(interaction.guild_id or 0, who.id)
        panel = stats_panel(who.display_name, s.games, s.wins, s.points, s.contracts_made,
                            s.contracts_failed, s.top_bids_made, s.hands_played)
        await self._reply(interaction, panel=panel, ephemeral=False)

    @group.command(name="settings", description="This server's default table (Manage Server)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.choices(preset=[app_commands.Choice(name=p, value=p) for p in PRESETS])
    async def settings(self, interaction: discord.Interaction[Any], preset: str | None = None,
                       players: app_commands.Range[int, 3, 6] | None = None,
                       target: app_commands.Range[int, 1, 1000] | None = None,
                       options: str | None = None,
                       turn_timer: app_commands.Range[int, 0, 1440] | None = None) -> None:
        guild = interaction.guild_id or 0
        current = await self.bot.store.get_guild_settings(guild)
        if preset is None and players is None and target is None and options is None \
                and turn_timer is None:
            await self._reply(interaction, _settings_text(current))
            return
        if not _is_manager(interaction):
            raise TableError("not_allowed")
        new = dict(current)
        if preset is not None:
            new["preset"] = preset
        if players is not None:
            new["players"] = players
        if target is not None:
            new["target"] = target
        if turn_timer is not None:
            new["turn_timer"] = turn_timer
        if options is not None:
            names = [o.strip() for o in options.replace(",", " ").split() if o.strip()]
            unknown = [n for n in names if n not in BOOLEAN_OPTIONS and n != "none"]
            if unknown:
                raise GameError(INVALID_RULES, reason="typed_option", option=unknown[0])
            new["options"] = {n: True for n in names if n != "none"}
        check = {**new.get("options", {}), "target": new.get("target")}
        Rules.create(new.get("preset", "amerikaner"), new.get("players", 4), check)
        await self.bot.store.set_guild_settings(guild, new)
        await self._reply(interaction, "Saved. " + _settings_text(new))

    @group.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await self._reply(interaction, self.tables.kind(None).help_text())


def _settings_text(settings: dict[str, Any]) -> str:
    if not settings:
        return "Server defaults: amerikaner, 4 players, to 52, no house rules."
    options = ", ".join(sorted(settings.get("options", {}))) or "no house rules"
    timer = settings.get("turn_timer") or 0
    return (f"Server defaults: {settings.get('preset', 'amerikaner')}, "
            f"{settings.get('players', 4)} players, to "
            f"{settings.get('target') or default_target(settings.get('preset', 'amerikaner'))},"
            f" {options}, " + (f"{timer} minutes a turn." if timer else "no turn timer."))


# ----------------------------------------------------------------- what users type

# Read strictly: ASCII words and digits only. str.isdigit() takes '²', which int()
# refuses, and str.lower() turns look-alikes into letters (the Kelvin sign 'K' into
# 'k'). What is not read is refused here, quoted as typed, with what was expected; what
# is read, the core judges, with the rule it breaks.
_ASCII_SPACE = " \t\n\r\f\v"
_NUMBER = re.compile(r"[+-]?[0-9]+")
# A number of more digits than this is beyond every bid, and read as 10**6 (of its sign):
# int() of thousands of digits is slow, and Python refuses more than 4,300.
_NUMBER_DIGITS = 6


def _ascii_word(text: str) -> str | None:
    """`text` without the whitespace around it, in lower case; None unless ASCII."""
    word = text.strip(_ASCII_SPACE)
    return word.lower() if word.isascii() else None


def _parse_number(text: str) -> int | None:
    """A whole number in ASCII digits, with a sign or not; else None."""
    word = text.strip(_ASCII_SPACE)
    if _NUMBER.fullmatch(word) is None:
        return None
    digits = word.lstrip("+-").lstrip("0") or "0"
    value = int(digits) if len(digits) <= _NUMBER_DIGITS else 10 ** _NUMBER_DIGITS
    return -value if word.startswith("-") else value


def _bid_action(seat: int, text: str, rules: Rules) -> Action:
    """A bid as typed: pass, redeal, the top bid's name, or a number (-3 too: the core
    answers that the lowest bid is 6)."""
    word = _ascii_word(text)
    if word == "pass":
        return Action.pass_(seat)
    if word == "redeal":
        return Action.redeal(seat)
    if word == rules.top_bid:
        return Action.make_bid(seat, rules.top_bid)
    number = _parse_number(text)
    if number is None:
        raise GameError(INVALID_BID, reason="typed", text=text, min_bid=rules.min_bid,
                        max_bid=rules.max_bid, top_bid=rules.top_bid)
    return Action.make_bid(seat, number)


def _parse_card(text: str) -> int:
    card = parse_card(text)
    if card is None:
        raise GameError(INVALID_CARD, reason="typed", text=text)
    return card


def _parse_cards(text: str, exactly: int | None = None) -> tuple[int, ...]:
    """Cards as typed, separated by spaces or commas."""
    cards = tuple(_parse_card(word) for word in text.replace(",", " ").split())
    if exactly is not None and len(cards) != exactly:
        raise GameError(INVALID_CARD, reason="count", count=exactly)
    return cards


def _parse_trump(text: str) -> str:
    """A trump as typed: S, H, D, C or grand, in any case."""
    word = _ascii_word(text)
    if word == "grand":
        return word
    if word is not None and word.upper() in TRUMP_CHOICES:
        return word.upper()
    raise GameError(INVALID_TRUMP, reason="typed", text=text)


async def setup(bot: AmerikanerBot) -> None:
    await bot.add_cog(Amerikaner(bot))
