"""What every game's commands and buttons share: the lobby, the table message, the hand
button, away/back/leave/cancel, export, score, leaderboard, stats, help; the posts of
the outbox; and the one error handler of every command and button.

A thin adapter: each handler parses the interaction, asks the table service (which checks
who may act, applies the action through the table's GameKind and commits it), and
renders the answer from views. It knows games only through GameKind and the GameUI a
game's cog registers (its hand's buttons and their actions): it never names a game.
A game's cog (cogs/amerikaner.py) adds these commands to its own group with
`add_shared_commands` and registers its GameUI.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import itertools
import json
import logging
import math
import os
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.budget import RequestBudget
from bot.config import Clock
from bot.edit_queue import EditQueue, Retry, Turn
from bot.errors import GameError
from bot.i18n import language_of, set_locale, use_locale
from bot.render import (
    CONTENT_LIMIT,
    Panel,
    away_text,
    back_text,
    button_label,
    cancelled_panel,
    cancelled_text,
    claim_text,
    committed_text,
    error_text,
    export_note,
    fit_panel,
    game_done_panel,
    game_over_text,
    game_started_text,
    hint_text,
    house_rules_placeholder,
    internal_error,
    joined_text,
    language_text,
    leaderboard_panel,
    left_button_text,
    left_text,
    lobby_panel,
    moved_on_text,
    old_button_text,
    page_footer,
    picture_seat_names,
    rating_board_panel,
    rating_lines,
    rematch_started_text,
    rematch_text,
    reminder_text,
    replaced_text,
    seat_label,
    seat_names,
    shorten,
    spectator_text,
    stats_panel,
    switches_text,
    table_closed_text,
    thread_name,
    thread_opened_text,
    timeout_text,
    turn_mention,
)
from bot.render.painter import Painter
from bot.render.text import (
    dm_failed_text,
    dm_turn_text,
    games_panel,
    lobby_ai_add,
    lobby_ai_fill,
    lobby_ai_remove,
    lobby_cancel_option,
    lobby_host_placeholder,
    lobby_turn_text,
    notify_text,
    time_left_text,
    timer_text,
    turn_ping_text,
)
from bot.store import Post, PostRow, Store
from bot.tables import ActResult, Table, TableError, TableService
from bot.tables.kind import GameKind
from bot.tables.names import safe_markdown, safe_plain
from bot.tables.outbox import Outbox, post_nonce
from bot.tables.rating_book import month_of, trend_start
from bot.tables.ratings import MIN_RATED_HANDS, MODEL
from bot.tables.service import (
    DEFAULT_REMINDERS,
    FINISHED,
    LOBBY,
    PLAYING,
    POST_CLAIM,
    POST_FINAL,
    POST_HAND_SUMMARY,
    POST_TABLE_MESSAGE,
    POST_TIMEOUT,
    check_reminders,
    check_timeout_action,
)

log = logging.getLogger(__name__)
_T = TypeVar("_T")

PAGE_SIZE = 10
# What a request made after the answer may meet and let go: Discord refusing it, the
# bot's HTTP session closed under it because the bot is stopping (aiohttp's RuntimeError),
# or the connection lost on the way (aiohttp's ClientError). The answer has been given;
# answering the click again with an error would be wrong.
_LET_GO = (discord.HTTPException, RuntimeError, aiohttp.ClientError)
# An interaction's token edits its message for 15 minutes; a panel older than this is not
# followed (the player opens it again, or is pinged), across a restart too.
PANEL_TOKEN_SECONDS = 14 * 60

# Discord's limits for components and autocomplete (those of text: bot/render/text.py).
# Over one, Discord refuses the whole reply, and the user sees "This interaction failed".
SELECT_OPTIONS_LIMIT = 25
OPTION_LABEL_LIMIT = 100
CHOICES_LIMIT = 25
CHOICE_LIMIT = 100  # a choice's name, and its value
CUSTOM_ID_LIMIT = 100
COMPONENTS_LIMIT = 25  # buttons and selects in one message (5 rows of 5)

# Discord's codes for an edit of a deleted message, and for one edit too many of a
# message older than an hour
# (https://docs.discord.com/developers/topics/opcodes-and-status-codes#json).
UNKNOWN_MESSAGE = 10008
OLD_MESSAGE_EDITS = 30046
# A table message is posted afresh at its first change after this age (seconds): a
# little before the hour after which Discord allows it few edits.
TABLE_MESSAGE_MAX_AGE = 55 * 60
# While the table edits queue (more waiting than the budget sends in a second), a
# table's picture is drawn anew at most this often (seconds), and at the end of each
# trick; the edits between show the text of the moment under the last picture. Drawing
# is the bot's costliest work (bench/render.py), and on a busy machine the drawing
# process, which runs at a lower priority so that answers never wait for it, fell
# behind the budget (bench/README.md, "The bot within Discord's limits").
PICTURE_EVERY = 15.0

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
    # A refusal is for the user: their words (read with getattr: it must never fail).
    set_locale(language_of(getattr(interaction, "locale", None)))
    committed = getattr(interaction, "extras", {}).get("committed")
    if committed is not None:
        await _answer_committed(interaction, error, *committed)
        return
    text = _error_answer(error, _game_of(interaction))
    if isinstance(error, discord.HTTPException) and interaction.response.is_done():
        return  # Discord refused a request after the answer: the user has theirs (logged)
    try:
        await _send_ephemeral(interaction, text)
    except Exception as exc:
        if text != internal_error():  # the answer itself was refused: try the plain one
            with contextlib.suppress(Exception):
                await _send_ephemeral(interaction, internal_error())
        log.error("could not answer interaction %s with %r", interaction.id,
                  shorten(text, 80), exc_info=exc)


async def _answer_committed(interaction: discord.Interaction[Any], error: BaseException,
                            what: str, table_id: int | None) -> None:
    """A request after a stored change failed (Discord refused the answer, its edit or a
    follow-up): the change stands, and the user is told so, unless they already have
    the answer that shows it. The table message is brought up to date."""
    log.warning("a request after a stored change (%s) failed", what, exc_info=error)
    with contextlib.suppress(Exception):
        await _show_committed(interaction, table_id)
    if interaction.response.is_done() and interaction.response.type not in _DEFERRED:
        return  # answered: what they see shows the change
    try:
        await _send_ephemeral(interaction, committed_text(what))
    except Exception as exc:
        log.error("could not tell interaction %s that its change stands", interaction.id,
                  exc_info=exc)


# A deferred answer ("thinking", or a silent one) says nothing yet.
_DEFERRED = (discord.InteractionResponseType.deferred_channel_message,
             discord.InteractionResponseType.deferred_message_update)


async def _show_committed(interaction: discord.Interaction[Any], table_id: int | None
                          ) -> None:
    """The public side of a stored change whose answer failed: the table message (which
    the answer may have been) edited soon, or posted if the answer was to be the lobby,
    and the next player's panel followed."""
    cog = interaction.client.get_cog("Tables")
    table = cog.tables.get(table_id) if isinstance(cog, Tables) and table_id else None
    if table is None or table.stage not in (LOBBY, PLAYING):
        return
    if table.stage == LOBBY and table.message_id is None:
        await cog.post_lobby(table)
        return
    cog.request_refresh(table)
    await cog._follow_turn(table, interaction.user.id)


def _game_of(interaction: discord.Interaction[Any]) -> GameKind | None:
    """The game whose words answer a refusal: the command group's game, else the game
    of the table in the channel (a button), else the first game."""
    # Read with getattr: it must never fail, whatever answered the interaction.
    tables = getattr(getattr(interaction, "client", None), "tables", None)
    games = getattr(tables, "games", None)
    if tables is None or not games:
        return None
    command = getattr(interaction, "command", None)
    root = getattr(command, "root_parent", None) or command
    name = getattr(root, "name", None)
    if isinstance(name, str) and name in games:
        return games[name]  # type: ignore[no-any-return]
    table = tables.in_channel(getattr(interaction, "channel_id", None) or 0)
    return table.kind if table is not None else tables.kind(None)  # type: ignore[no-any-return]


def _error_answer(error: BaseException, kind: GameKind | None = None) -> str:
    """The sentence for a failed interaction; a failure of ours is logged here."""
    if isinstance(error, GameError):  # TableError too: error_text tells them apart
        return error_text(error, kind)
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
    return internal_error()


async def _speak_the_users_language(interaction: discord.Interaction[Any]) -> bool:
    """The command tree's check before each command: the handler's task speaks the
    language of the user's Discord (it switches to the server's for public words)."""
    set_locale(language_of(interaction.locale))
    return True


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

# ----------------------------------------------------------------- persistent components

async def _run_component(item: discord.ui.Item[Any], interaction: discord.Interaction[Any],
                         work: Callable[[Tables], Awaitable[None]]) -> None:
    """Run the handler of a button or menu: an error is answered as a command's is
    (answer_error), and the objects of the click are let go."""
    set_locale(language_of(interaction.locale))  # this click's task speaks the user's language
    try:
        cog = interaction.client.get_cog("Tables")
        if not isinstance(cog, Tables):
            raise RuntimeError("the Tables cog is not loaded")
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


@dataclasses.dataclass(frozen=True, slots=True)
class OpenPanel:
    """A player's open hand panel, to edit without a click while its interaction's token
    lasts: the token and the owner's language, not the interaction itself. (Kept for
    every player for up to 14 minutes, whole interactions - each with its message, its
    components, the member - were most of a busy bot's heap, and the garbage
    collector's full passes over them paused every table for 150-200 ms.)"""

    application_id: int
    token: str
    language: str
    since: float  # when Discord created the click (its token's life starts then)
    # The message the panel is, when known (not across a restart): a new panel takes the
    # buttons off the older one only when they are surely two messages.
    message_id: int | None = None

    async def edit(self, client: discord.Client, **fields: Any) -> None:
        """Edit the panel (the interaction's original response) to `fields`."""
        webhook = discord.Webhook.partial(self.application_id, self.token, client=client)
        await webhook.edit_message(ORIGINAL_RESPONSE, **fields)  # type: ignore[arg-type]


# How a hint marks its move among the panel's controls: green, with a star (a Unicode
# emoji Discord knows; the fake checks component emoji as Discord does).
HINT_STYLE = discord.ButtonStyle.success
HINT_EMOJI = "⭐"

# Discord's name for an interaction's original response among its webhook's messages.
ORIGINAL_RESPONSE = "@original"


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
                        template=r"amkl:(?:(?P<game>[a-z_]+):)?(?P<order>rating|wins|points):"
                                 r"(?:(?P<period>all|month):)?(?P<page>[0-9]+)"):
    """A page of a game's leaderboard: `amkl:<game>:<order>:<page>`, all time, or
    `amkl:<game>:<order>:month:<page>`, this month's. Buttons sent before there were
    several games have no game (`amkl:<order>:<page>`): the first game's."""

    def __init__(self, game: str | None, order: str, page: int, label: str = "\u200b",
                 disabled: bool = False, period: str = "all") -> None:
        key = f"{game}:{order}" if game else order
        if period != "all":
            key += f":{period}"
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=_custom_id("amkl", key, str(page))))
        self.game = game
        self.order = order
        self.page = page
        self.period = period

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: Any) -> LeaderboardButton:
        return cls(match["game"], match["order"], int(match["page"]),
                   period=match["period"] or "all")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _run_component(self, interaction, lambda cog: cog.show_leaderboard(
            interaction, cog.tables.kind(self.game).name, self.order, self.page, edit=True,
            period=self.period))


class HelpButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"amkh:(?P<game>[a-z_]+):(?P<page>[0-9]+)"):
    """A page of a game's guide: `amkh:<game>:<page>` (1 is the first)."""

    def __init__(self, game: str, page: int, label: str = "\u200b",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=_custom_id("amkh", game, str(page))))
        self.game = game
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: Any) -> HelpButton:
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _run_component(self, interaction, lambda cog: cog.show_help(
            interaction, self.game, self.page, edit=True))


class GamesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"amkg:(?P<page>[0-9]+)"):
    """A page of the member's games list (/games): `amkg:<page>`."""

    def __init__(self, page: int, label: str = "\u200b", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled, row=GAMES_PAGE,
                                           custom_id=f"amkg:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: Any) -> GamesButton:
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _run_component(self, interaction, lambda cog: cog.show_games(
            interaction, self.page, edit=True))


# Tables a page of the games list: each takes a row of buttons (its hand, its link),
# and the pages' buttons the fifth (Discord: 5 rows of 5 components).
GAMES_PAGE = 4


def _games_row(table: Table, user: int) -> tuple[str, str, str, float | None, bool]:
    """One table of a member's games list: (game, where, whose turn, deadline, theirs)."""
    link = jump_url(table.guild_id, table.channel_id, table.message_id)
    where = f"<#{table.channel_id}> · {link}"
    seat = table.to_act if table.stage == PLAYING else None
    if seat is None:
        return table.kind.words.title(table.rules), where, lobby_turn_text(), None, False
    mine = table.seats[seat].user_id == user and not table.seats[seat].played_by_ai
    return (table.kind.words.title(table.rules), where, seat_names(table.seats)[seat],
            _deadline(table), mine)


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
    """The lobby's controls in at most three rows, which a phone shows whole: Join, Leave
    and Start (three buttons fit a phone's width, four did not in Norwegian), the host's
    menu (AI players, each level explained in a line, and Cancel), and the menu of the
    house rules if the game has any (a select menu takes a row of its own:
    https://discord.com/developers/docs/components/reference#action-row)."""
    view = Components()
    t = table.id
    view.add_item(TableButton(t, "join", label=button_label("join"),
                              style=discord.ButtonStyle.success))
    view.add_item(TableButton(t, "leave", label=button_label("leave")))
    view.add_item(TableButton(t, "start", label=button_label("start"),
                              style=discord.ButtonStyle.primary, disabled=not table.full))
    view.add_item(_lobby_host_menu(table))
    house = table.kind.house_rules(table.rules)
    if house:
        options = [discord.SelectOption(label=shorten(table.kind.words.option_label(key),
                                                      OPTION_LABEL_LIMIT), value=key,
                                        description=shorten(what, OPTION_LABEL_LIMIT),
                                        default=on)
                   for key, what, on in house[:SELECT_OPTIONS_LIMIT]]
        view.add_item(TableSelect(t, "house", options,
                                  placeholder=house_rules_placeholder(),
                                  min_values=0, max_values=len(options)))
    return view


def lobby_host_options(table: Table) -> list[tuple[str, str, str]]:
    """The host's menu in this lobby, each choice (value, label, line): an AI player of
    each level THIS game has (GameKind.ai_levels, weakest first) and every free seat at
    once while a seat is free; freeing the last AI seat while there is one; cancelling
    the table, always (the host, or a member with Manage Server)."""
    levels = table.kind.ai_levels
    options: list[tuple[str, str, str]] = []
    if not table.full:
        options += [(f"add:{level}", *lobby_ai_add(level)) for level in levels]
        options.append(("fill", *lobby_ai_fill(levels[0])))
    if any(seat.is_ai for seat in table.seats):
        options.append(("remove", *lobby_ai_remove()))
    options.append(("cancel", *lobby_cancel_option()))
    return options


def _lobby_host_menu(table: Table) -> TableSelect:
    """The lobby's host menu (`amks:<table>:host`, the choice its value)."""
    options = [discord.SelectOption(label=shorten(label, OPTION_LABEL_LIMIT), value=value,
                                    description=shorten(line, OPTION_LABEL_LIMIT) or None)
               for value, label, line in lobby_host_options(table)[:SELECT_OPTIONS_LIMIT]]
    return TableSelect(table.id, "host", options, placeholder=lobby_host_placeholder())


def _host_choice(values: list[str]) -> list[str]:
    """A choice of the lobby's host menu as the parts of the id of the button it stands
    for: "add:<level>" -> ai:<level>, "fill"/"remove" -> ai:fill/ai:remove, "cancel"."""
    choice = values[0] if values else ""
    if choice == "cancel":
        return ["cancel"]
    return ["ai", choice.removeprefix("add:")]


def summary_view(table: Table, index: int) -> Components:
    """Under a deal's result: the whole deal face up, for whoever asks, and, while the
    game goes on, each player's hand (the next deal's)."""
    view = Components()
    view.add_item(TableButton(table.id, f"review:{index}", label=button_label("review"),
                              emoji="🔍"))
    if table.stage == PLAYING:
        view.add_item(_hand_button(table))
    return view


def _hand_button(table: Table) -> TableButton:
    """The table's "My hand": its player's panel, from the table message, a hand's
    summary, a turn ping (in the channel or by DM) or the games list."""
    return TableButton(table.id, "hand", label=button_label("hand"),
                       style=discord.ButtonStyle.primary, emoji="🃏")


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a message (or, without one, to a channel) that Discord opens in place.
    https://discord.com/developers/docs/reference#message-formatting (jump links)"""
    tail = f"/{message_id}" if message_id is not None else ""
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


def _table_link(table: Table) -> discord.ui.Button[Any]:
    """A link button (style 5: no custom id, no interaction) to the table message."""
    return discord.ui.Button(style=discord.ButtonStyle.link, label=button_label("to_table"),
                             url=jump_url(table.guild_id, table.channel_id, table.message_id))


def ping_view(table: Table) -> Components:
    """Under a turn ping or a reminder: the player's hand in one tap, and the table."""
    view = Components()
    view.add_item(_hand_button(table))
    view.add_item(_table_link(table))
    return view


def final_view(table: Table) -> Components:
    """Under a finished game's standings: play again with the same seats, and the
    server's leaderboard."""
    view = Components()
    started = table.meta.get("rematch_table") is not None
    view.add_item(TableButton(table.id, "rematch", label=button_label("rematch"),
                              style=discord.ButtonStyle.success, emoji="🔁",
                              disabled=started))
    view.add_item(TableButton(table.id, "leaderboard", label=button_label("leaderboard"),
                              emoji="🏆"))
    return view


def table_view(table: Table) -> Components:
    view = Components()
    view.add_item(_hand_button(table))
    view.add_item(TableButton(table.id, "rules", label=button_label("rules")))
    return view
# ----------------------------------------------------------------- panels of a table

def table_panel(table: Table) -> Panel:
    """The public table message: the lobby, or the game as everyone may see it."""
    names = seat_names(table.seats)
    kind = table.kind
    if table.stage == LOBBY:
        options = kind.words.options_line(table.rules)
        if table.turn_timer:  # the players see the clock they sign up for
            options += "\n" + timer_text(round(table.turn_timer / 60), table.reminders,
                                         table.timeout_action)
        return lobby_panel(names, table.seat_of(table.host_id), table.players,
                           kind.words.lobby_title(table.rules), options)
    return _with_deadline(table, kind.words.table_panel(table.game, names))


def hand_panel(table: Table, seat: int, details: bool = False) -> Panel:
    """A player's own hand, for them alone: compact, so that it and its buttons fit one
    phone screen; `details`: with the whole table (the panel's Table button)."""
    return _with_deadline(table, table.kind.words.seat_panel(table.game, seat,
                                                       seat_names(table.seats),
                                                       compact=not details))


def _deadline(table: Table) -> float | None:
    """When the turn's time runs out (epoch seconds), if the table has a turn timer and
    a human is to act."""
    deadline = getattr(table, "turn_deadline", None)
    return float(deadline) if deadline is not None else None


def _with_deadline(table: Table, panel: Panel) -> Panel:
    """`panel` with the time left for the turn under its text, as Discord's relative
    timestamp (it counts down by itself: no edit needed as time passes)."""
    deadline = _deadline(table)
    if deadline is None:
        return panel
    line = time_left_text(deadline)
    text = f"{panel.description}\n{line}" if panel.description else line
    return dataclasses.replace(panel, description=text)


def _final_panel(table: Table) -> Panel:
    """The standings of a finished game."""
    return table.kind.words.final_standings(table.game, seat_names(table.seats))


TABLE_PICTURE = "table.png"
CHART_PICTURE = "totals.png"
# One process draws every picture of this bot, one at a time (bot/render/painter.py):
# however many tables change at once, drawing never holds up the answers to clicks, and
# each table's coalesced edits wait their turn instead of piling up.
PAINTER = Painter()


async def _no_picture() -> None:
    return None


async def _table_picture(table: Table) -> discord.File | None:
    """The picture of the public table, if the table shows pictures. The scene is read
    here, from the game as it is now, and drawn by the painter's process."""
    if table.stage != PLAYING or table.game is None or not table.switch("pictures"):
        return None
    png = await PAINTER.table(table.kind.words.table_scene(table.game,
                                                     picture_seat_names(table.seats)))
    return None if png is None else discord.File(io.BytesIO(png), filename=TABLE_PICTURE)


async def _totals_chart(table: Table) -> discord.File | None:
    """The chart of the running totals, deal by deal, of a finished game."""
    if table.game is None or not table.switch("pictures"):
        return None
    totals = table.kind.running_totals(table.game)
    if not totals:
        return None
    # The target line, and the standings in the game's order (ties broken its way).
    places = ([result.place for result in sorted(table.kind.results(table.game),
                                                  key=lambda result: result.seat)]
              if table.kind.finished(table.game) else None)
    png = await PAINTER.chart(table.kind.words.title(table.rules), picture_seat_names(table.seats),
                              totals, getattr(table.rules, "target", None), places)
    return None if png is None else discord.File(io.BytesIO(png), filename=CHART_PICTURE)


def _with_picture(embed: discord.Embed, picture: discord.File | None) -> discord.Embed:
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    return embed


def _rematch_line(table: Table) -> str:
    """Who of a finished game has accepted its rematch, and who it waits for."""
    accepted = set(table.meta.get("rematch", ()))
    humans = [(name, seat.user_id) for name, seat
              in zip(seat_names(table.seats), table.seats, strict=True)
              if seat.user_id is not None]
    return rematch_text([name for name, user in humans if user in accepted],
                        [name for name, user in humans if user not in accepted])


def _pinging_user(user: int | None) -> discord.AllowedMentions:
    """The mentions a ping may make: `user`, named, and nobody else.
    (`AllowedMentions(users=True)` would send parse ["everyone", "users", "roles"]:
    discord.py's other flags default to true.)
    https://discord.com/developers/docs/resources/message#allowed-mentions-object"""
    users = [discord.Object(id=user)] if user is not None else []
    return discord.AllowedMentions(everyone=False, users=users, roles=False,
                                   replied_user=False)


def _version(text: str) -> int:
    """The state version in a custom id (the bot's own, but read strictly)."""
    if not (text.isascii() and text.isdigit()):
        raise TableError("bad_input", reason="old_button")
    return int(text)


# ----------------------------------------------------------------- table switches

# The languages `settings language` offers ("default": the server's own locale).
LANGUAGE_CHOICES = [app_commands.Choice(name="English", value="en"),
                    app_commands.Choice(name="Norsk (bokmål)", value="nb"),
                    app_commands.Choice(name="The server's own", value="default")]
LANGUAGE_DESCRIPTION = "The language of the tables' public messages (Manage Server)"

# A turn timer's reminders and what its end does (TableService.create), offered by every
# game's `new` and `settings` beside `turn_timer`. A description has at most 100 characters.
TIMER_DESCRIPTIONS = {
    "reminders": "Reminders, e.g. 50%, 1h (share of the time, or time left; default 50%, 1h)",
    "on_timeout": "When a turn's time runs out (default: the AI plays that turn)",
}


def _settings_timer(settings: Mapping[str, Any]) -> str:
    """A server's default reminders and timeout action, as a line (nothing without a
    default turn timer: they matter only with one)."""
    if not settings.get("turn_timer"):
        return ""
    return timer_text(int(settings["turn_timer"]), settings.get("reminders", DEFAULT_REMINDERS),
                      settings.get("timeout_action")) + "\n"


def _reminder_points(text: str | None) -> list[str] | None:
    """The reminder points a member typed ("50%, 1h" or "50% 1h"); None when blank."""
    points = (text or "").replace(",", " ").split()
    return points or None


ON_TIMEOUT_CHOICES = [
    app_commands.Choice(name="The AI plays that turn", value="play"),
    app_commands.Choice(name="The AI takes the seat until the player is back", value="seat")]

# The table switches a `new` command (and a server's `settings`) offers, described.
SWITCH_DESCRIPTIONS = {
    "mentions": "Mention a player when their turn comes (default: on with 2+ humans)",
    "pictures": "Show a picture of the table on the table message (default: on)",
    "hints": "Offer the Hint button: what the strong AI would play (default: on)",
    "thread": "Play in a thread of its own, so the channel is not flooded (default: off)",
}


def table_switches(server: dict[str, Any], **given: bool | None) -> dict[str, bool | None]:
    """A new table's switches: what its `new` command says, else the server's default
    (its settings' "switches"), else None (the table's own default)."""
    defaults = server.get("switches", {})
    return {name: value if value is not None else defaults.get(name)
            for name, value in given.items()}


# ----------------------------------------------------------------- the cog

def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user has Manage Server in the interaction's server: a table's own
    server, once _check_place (components) or _table_here (commands) has found it there."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


# What a seated player may do at their own table from elsewhere: open their hand and play
# from it. The turn ping by direct message, the games list (`/games`, answered in any
# channel of the server) and the hand panels these open carry the table's own custom
# ids, clicked outside its channel.
_SEAT_OPS = frozenset({"hand", "table", "hint", "claim", "rules"})


def _seat_op(op: str) -> bool:
    """Whether `op` (a custom id's first part after the table) is one a player makes
    from their hand: open it, a hint, a claim, a move (`<version>:<action>`)."""
    return op in _SEAT_OPS or (op.isascii() and op.isdigit())


def _shows_table(interaction: discord.Interaction[Any]) -> bool:
    """Whether the clicked hand panel shows the whole table (its toggle reads "Hide the
    table"): an edit of only its buttons keeps it so."""
    message = interaction.message
    rows = message.components if message is not None else []
    return any(str(getattr(child, "custom_id", "")).endswith(":table:off")
               for row in rows for child in getattr(row, "children", ()))


def _check_place(interaction: discord.Interaction[Any], table: Table, op: str = "") -> None:
    """A component's custom id names a table of the channel (or thread) it was clicked in.
    Discord sends only ids of the clicked message, but a gap on its side or a modified
    client must not reach another server's table: such an id is refused, nothing read
    or changed. One exception: a player seated at the table may open their own hand and
    play from it in another channel of the table's server (the games list) or in their
    direct messages with the bot (a turn ping by DM): it shows them only their own cards
    and lets them make only their own moves, which the service checks as always."""
    if _seat_op(op) and table.seat_of(interaction.user.id) is not None \
            and interaction.guild_id in (table.guild_id, None):
        return
    if table.guild_id != interaction.guild_id or table.channel_id != interaction.channel_id:
        log.warning("a component of table %s (server %s, channel %s) came from server %s, "
                    "channel %s: refused", table.id, table.guild_id, table.channel_id,
                    interaction.guild_id, interaction.channel_id)
        raise TableError("elsewhere")


# What the bot needs where a table plays, as discord.Permissions names them, in the order
# a refusal names what is missing: see the channel, post its messages (in a thread: Send
# Messages in Threads, not Send Messages), their embeds (Embed Links) and pictures
# (Attach Files), and read the channel's messages it edits (Read Message History).
# https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags
TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files",
                     "read_message_history")
THREAD_PERMISSIONS = ("view_channel", "send_messages_in_threads", "embed_links",
                      "attach_files", "read_message_history")
_THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
            discord.ChannelType.news_thread)


def check_bot_permissions(interaction: discord.Interaction[Any], *,
                          new_thread: bool = False) -> None:
    """Refuse, naming what is missing, a table the bot could not show where it would play:
    the interaction's channel (or thread), or a thread it is to start there (Create
    Public Threads besides). Interactions work without any of these, but every post and
    edit of the table would be refused (403). `app_permissions` are the bot's in the
    interaction's channel, overwrites included.
    https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object"""
    in_thread = new_thread or getattr(interaction.channel, "type", None) in _THREADS
    needs = THREAD_PERMISSIONS if in_thread else TABLE_PERMISSIONS
    if new_thread:
        needs = (*needs, "create_public_threads")
    have = interaction.app_permissions
    if new_thread and have.view_channel and not have.send_messages:
        # A channel where members may start threads but not post: Discord takes Embed
        # Links and Attach Files from the channel's permissions without Send Messages
        # (implicit permissions), not from its threads'. Unknown here: not asked for.
        # https://discord.com/developers/docs/topics/permissions#implicit-permissions
        needs = tuple(n for n in needs if n not in ("embed_links", "attach_files"))
    missing = tuple(name for name in needs if not getattr(have, name))
    if missing:
        raise TableError("bot_missing", permissions=missing)


def _committed(interaction: discord.Interaction[Any], table: Table | None,
               what: str = "change") -> None:
    """The interaction's change (at `table`, or a server's settings) is stored (`what`:
    "move", "start", "opened", "cancel" or "change"): whatever Discord refuses from now
    on, the user is told the truth, never that nothing was changed (answer_error)."""
    interaction.extras["committed"] = (what, table.id if table is not None else None)

# ----------------------------------------------------------------- what a game's cog gives


class GameUI(Protocol):
    """A game's own part of the hand panel: the controls of a seat's legal actions, and
    what a click on one does (`<version>:<action...>` custom ids)."""

    def hand_components(self, table: Table, view: Any, hint: Any = None
                        ) -> discord.ui.View:
        """A player's own controls: exactly the actions legal now; `hint`'s move (the
        game's action) marked (HINT_STYLE, HINT_EMOJI)."""
        ...

    async def on_action(self, interaction: discord.Interaction[Any], table: Table,
                        version: int, parts: list[str], values: list[str]) -> None:
        """A click on one of those controls, drawn at state `version`."""
        ...


class TableBot(Protocol):
    """What the cogs need of the bot (bot/app.py), without importing it."""

    store: Store
    tables: TableService
    outbox: Outbox
    budget: RequestBudget
    settings: Any
    tree: app_commands.CommandTree[Any]

    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def create_dm(self, user: discord.abc.Snowflake, /) -> discord.DMChannel: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...


class Tables(commands.Cog):
    """The part of every table that no game owns."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        # The public table messages: edited within the request budget, coalesced and
        # fairest first (bot/edit_queue.py); the tables they show, by id.
        self._edits = EditQueue(bot.budget, self._edit_queued,
                                delay=bot.settings.edit_delay,
                                interval=bot.settings.edit_interval)
        self._shown_tables: dict[int, Table] = {}
        # table -> the id of its table message being replaced by a fresh post (too old
        # to edit, or deleted): edits wait for the fresh one.
        self._replacing: dict[int, int] = {}
        self.clock: Clock = bot.settings.clock  # Discord's time of day (message age)
        self._reporter: asyncio.Task[None] | None = None
        self._pictured: dict[int, float] = {}  # table -> when its picture was last drawn
        self._uis: dict[str, GameUI] = {}
        # (table, user) -> the user's hand panel as the last click showed it: its
        # token edits that panel for 15 minutes (the panel follows the game).
        self._panels: dict[tuple[int, int], OpenPanel] = {}
        # table -> the state version whose turn was last followed (a panel edited or the
        # player mentioned): each turn once.
        self._followed: dict[int, int] = {}
        self._languages: dict[int, str] = {}  # guild -> the language of its public words
        # table -> its last table message, which now shows a hand's summary (quiet
        # channels): the next table message leaves its buttons be.
        self._summarised: dict[int, int] = {}
        self._message_locks: dict[int, asyncio.Lock] = {}
        self._background: set[asyncio.Future[None]] = set()  # stores of panels
        # (guild, user) -> the member's own settings there (the store's), as read once.
        self._members: dict[tuple[int, int], dict[str, Any]] = {}

    def register(self, game: str, ui: GameUI) -> None:
        """A game's cog gives its hand controls (at its own cog_load)."""
        self._uis[game] = ui

    def _hand_controls(self, table: Table, seat: int, view: Any, details: bool = False,
                       hint: Any = None) -> discord.ui.View:
        """A player's controls: the game's for the legal actions, then the platform's
        Hint (if the table gives hints) and Claim (when the game allows one now), and
        the Table button that shows the whole table in the panel (`details`: back to
        the compact panel), as long as Discord's 25 components leave room."""
        controls = self.ui(table).hand_components(table, view, hint)
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

    def ui(self, table: Table) -> GameUI:
        ui = self._uis.get(table.kind.name)
        if ui is None:
            raise RuntimeError(f"no cog plays {table.kind.name!r}")
        return ui

    async def cog_load(self) -> None:
        PAINTER.start()  # while the bot connects, not at its first table change
        every = float(os.environ.get("AMERIKANER_REPORT_SECONDS", "60") or 60)
        self._reporter = asyncio.create_task(self._report(every))
        self.bot.add_dynamic_items(TableButton, TableSelect, LeaderboardButton, HelpButton,
                                   GamesButton)
        for command in member_commands():
            self.bot.tree.add_command(command)
        self.tables.add_listener(self._on_table_event)
        self.bot.outbox.send = self._send_post
        # The slash commands raise; the tree hands every error to answer_error, also
        # those raised before a command runs (an option or check refused, an outdated
        # command), which a cog's own error handler would never see.
        self._tree_on_error = self.bot.tree.on_error
        self.bot.tree.error(answer_error)
        # Each command (and autocomplete) runs in a task of its own: it speaks the
        # user's language, and switches to the server's for what everyone reads.
        self._tree_check = self.bot.tree.interaction_check
        self.bot.tree.interaction_check = _speak_the_users_language  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        for command in member_commands():
            self.bot.tree.remove_command(command.name)
        if self._reporter is not None:
            self._reporter.cancel()
        await self._edits.close()
        self.bot.tree.error(self._tree_on_error)
        self.bot.tree.interaction_check = self._tree_check  # type: ignore[method-assign]

    async def _report(self, every: float) -> None:
        """The budget and the table edits, in the log every `every` seconds (INFO):
        an operator sees the bot near its budget before the players do."""
        while True:
            await asyncio.sleep(every)
            log.info("%s; %s", self.bot.budget.summary(), self._edits.summary())

    # ------------------------------------------------------------- languages

    async def server_language(self, guild_id: int) -> str:
        """The language of what everyone in a server reads (table messages, posts,
        mentions): the one set with `settings language`, else the server's own
        preferred locale as Discord gives it, else English."""
        if guild_id in self._languages:
            return self._languages[guild_id]
        chosen = await self.bot.store.get_guild_language(guild_id)
        if chosen is None:
            guild = self.bot.get_guild(guild_id)
            chosen = language_of(guild.preferred_locale) if guild is not None else None
        self._languages[guild_id] = language = chosen or language_of(None)
        return language

    async def public(self, guild_id: int) -> AbstractContextManager[None]:
        """`with await self.public(guild)`: words for everyone in the server."""
        return use_locale(await self.server_language(guild_id))

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        await self.bot.store.set_guild_language(guild_id, language)
        self._languages.pop(guild_id, None)

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
            kind = _game_of(interaction)
            raise TableError("no_table", game=kind.name if kind else self.tables.kind(None).name)
        return table

    def _my_seat(self, table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", reason="not_playing")
        return seat

    # ------------------------------------------------------------- table message

    def request_refresh(self, table: Table) -> None:
        """Show the table's current state on its public message soon: edits wait their
        turn in the request budget and are coalesced (an edit shows the table as it is
        when its turn comes), the tables waiting longest first (bot/edit_queue.py)."""
        self._shown_tables[table.id] = table
        self._edits.request(table.id)

    async def _edit_queued(self, table_id: int, turn: Turn) -> None:
        """The edit queue's turn for a table: its message shows the table as it is now
        (`turn`: its slot of the budget). Raises Retry to be tried again later."""
        table = self._shown_tables.get(table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            self._shown_tables.pop(table_id, None)
            return  # over: its last message is the final post's business
        with await self.public(table.guild_id):
            await self._edit_table_message(table, turn)

    def _too_old(self, message_id: int) -> bool:
        """Whether a message is too old for the edits a table needs: Discord allows few
        edits of a message older than an hour (error 30046), so a table message is
        posted afresh a little before (its age from its id, by Discord's clock)."""
        posted = discord.utils.snowflake_time(message_id).timestamp()
        return self.clock.time() - posted >= TABLE_MESSAGE_MAX_AGE

    async def _edit_table_message(self, table: Table, turn: Turn) -> None:
        message_id = table.message_id
        if message_id is None:
            return
        if self._replacing.get(table.id) == message_id:
            # A fresh message is on its way through the outbox: it shows the table as
            # it is when it is sent (and is edited after, if the table moved meanwhile).
            self.bot.outbox.kick(table.id)
            return
        if self._too_old(message_id):
            await self._replace_table_message(table, message_id, "too_old")
            return
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
            message_id)
        # The text and the picture's scene are read together, before the drawing waits;
        # drawn before the budget's slot is taken, and again if the table moved meanwhile.
        draw = self._picture_due(table)
        embed, view, drawing = self._table_message_parts(table, draw)
        picture = await drawing
        if await turn():
            embed, view, drawing = self._table_message_parts(table, draw)
            picture = await drawing
        if self._too_old(message_id):
            # It aged while the picture was drawn and the edit waited for its slot (a
            # long wait, or a clock moved on): the edit would spend one of the few an old
            # message takes, and this edit has taken the changes made meanwhile.
            await self._replace_table_message(table, message_id, "too_old")
            return
        pictures: dict[str, Any] = {}
        if picture is not None:
            self._pictured[table.id] = time.monotonic()
            pictures["attachments"] = [picture]
        elif draw or table.stage != PLAYING or not table.switch("pictures"):
            pictures["attachments"] = []  # no picture (any more)
        else:  # the last picture stays: the message keeps its attachment
            embed.set_image(url=f"attachment://{TABLE_PICTURE}")
        try:
            async with self._message_lock(table.id):
                if self._replacing.get(table.id) == message_id \
                        or self._summarised.get(table.id) == message_id \
                        or table.message_id != message_id \
                        or table.stage not in (LOBBY, PLAYING):
                    return  # it became a hand's summary, was replaced, or the game ended
                await message.edit(embed=_with_picture(embed, picture), view=view,
                                   **pictures)
        except discord.HTTPException as exc:
            await self._edit_refused(table, message_id, exc)
        except (aiohttp.ClientError, OSError) as exc:  # the connection, not Discord
            raise Retry(f"connection: {exc!r}") from None

    def _table_message_parts(self, table: Table, draw: bool = True
                             ) -> tuple[discord.Embed, Components, Awaitable[discord.File | None]]:
        """The table message as it is now: its embed, its buttons, and its picture (to
        draw, if `draw`: a coroutine, started from the state of this moment)."""
        embed = _embed(table_panel(table))
        if table.stage == LOBBY:
            return embed, lobby_view(table), _no_picture()
        return embed, table_view(table), _table_picture(table) if draw else _no_picture()

    def _picture_due(self, table: Table) -> bool:
        """Whether this edit draws the table's picture anew: always while the edits
        keep up; while they queue, at the end of a trick or after PICTURE_EVERY."""
        if not self._edits.behind() or table.pause_after:
            return True
        last = self._pictured.get(table.id)
        return last is None or time.monotonic() - last >= PICTURE_EVERY

    async def _edit_refused(self, table: Table, message_id: int,
                            exc: discord.HTTPException) -> None:
        """Discord did not take an edit of the table message: a deleted or too old
        message is replaced by a fresh one; a failure of Discord's or a 429 is tried
        again (Retry); a refusal to the bot in the channel waits for the next change."""
        if exc.code in (UNKNOWN_MESSAGE, OLD_MESSAGE_EDITS):
            await self._replace_table_message(
                table, message_id, "deleted" if exc.code == UNKNOWN_MESSAGE else "too_old")
            return
        if exc.status >= 500 or exc.status == 429:
            raise Retry(f"{exc.status} {exc.code}") from None
        # 403 (the bot may no longer see or write in the channel), 404 (the channel is
        # gone): trying again would only add invalid requests, which Discord counts
        # toward a ban. The next change tries again.
        log.warning("the table message of table %s was refused: %s %s (%s)", table.id,
                    exc.status, exc.code, exc.text)

    async def _replace_table_message(self, table: Table, old: int, why: str) -> None:
        """Post a fresh table message at the bottom of the channel, through the outbox
        (committed first, so it survives a restart, and sent with a nonce, so it is not
        posted twice); the old one loses its buttons once the fresh one is there."""
        log.info("table %s: its message %s is %s: posting a fresh one", table.id, old, why)
        self._replacing[table.id] = old
        await self.bot.store.add_posts(table.id, [Post(POST_TABLE_MESSAGE,
                                                       {"replaces": old, "why": why})])
        self.bot.outbox.kick(table.id)

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
                chart = await _totals_chart(table)
                message = await channel.send(
                    embed=_with_picture(_embed(_final_panel(table)), chart),
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

    def _message_lock(self, table_id: int) -> asyncio.Lock:
        """Held around each edit of a table's message by the edit queue or the summary:
        a summary never lands under an edit of the table that was already on its way."""
        lock = self._message_locks.get(table_id)
        if lock is None:
            lock = self._message_locks[table_id] = asyncio.Lock()
        return lock

    async def _post_summary(self, table: Table, index: int, nonce: str) -> int | None:
        """A hand's summary. Quiet channels: it takes the place of the hand's table
        message (an edit, with Review and My hand), and the next hand's table message is
        the one new message of the hand, so the table stays on a phone's screen.
        Posted as a message of its own where the table message cannot be edited (none,
        too old, deleted, refused); that one then loses its buttons."""
        with await self.public(table.guild_id):
            panel = table.kind.words.deal_summary(table.game, index, seat_names(table.seats))
            embed, view = _embed(panel), summary_view(table, index)
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
            await self._retire_table_message(table, old)
        return message.id

    async def _post_table_message(self, table: Table, nonce: str, retire: bool = True
                                  ) -> discord.Message:
        """A new table message at the bottom of the channel (for the next hand, or in
        place of one too old to edit or deleted); the old one loses its buttons."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        old = table.message_id
        embed, view, drawing = self._table_message_parts(table)
        shown = embed.to_dict()
        picture = await drawing
        message = await channel.send(
            embed=_with_picture(embed, picture), view=view,
            nonce=nonce, **({"file": picture} if picture is not None else {}))
        if picture is not None:
            self._pictured[table.id] = time.monotonic()
        else:
            self._pictured.pop(table.id, None)  # a fresh message has no picture to keep
        await self.tables.set_message(table, message.id)
        self._replacing.pop(table.id, None)
        if _embed(table_panel(table)).to_dict() != shown:
            self.request_refresh(table)  # the table moved while the post was made
        if retire and old is not None and old != message.id:
            await self._retire_table_message(table, old)
        return message

    async def _retire_table_message(self, table: Table, message_id: int | None) -> None:
        """Take the buttons off a table message that no longer is the live one (at the
        end of a game, with the final state). Best effort: Discord may refuse it (a
        message too old to edit, or deleted)."""
        if message_id is None:
            return
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
            message_id)
        with contextlib.suppress(*_LET_GO):
            if table.stage in (LOBBY, PLAYING):
                await message.edit(view=None)
            else:
                self._edits.forget(table.id)  # the game is over: no picture of it
                await message.edit(embed=_embed(table_panel(table)), view=None, attachments=[])

    def _after_change(self, table: Table, deal_finished: bool) -> None:
        """Public consequences of a change beyond its posts (which the outbox makes):
        the table message, edited soon, unless the hand ended (a new one is posted)."""
        if not deal_finished:
            self.request_refresh(table)

    async def _on_table_event(self, table: Table, event: str, detail: dict[str, Any]
                              ) -> None:
        """Changes the service made by itself (AI turns, turn timers)."""
        set_locale(await self.server_language(table.guild_id))  # the listener's task
        if event == "reminder":
            seat = detail.get("seat", table.to_act)
            user = table.seats[seat].user_id if seat is not None else None
            if user is not None and seat == table.to_act \
                    and not table.seats[seat].played_by_ai:
                await self._ping(table, user, reminder=True,
                                 deadline=detail.get("deadline", _deadline(table)))
            return
        self._after_change(table, event in ("deal_finished", "game_finished"))
        await self._follow_turn(table, None)
    # ------------------------------------------------------------- components

    async def on_component(self, interaction: discord.Interaction[Any], table_id: int,
                           rest: str, values: list[str]) -> None:
        """A button or menu of a table; errors are answered by the caller (_run_component)."""
        parts = rest.split(":")
        user = interaction.user
        # Before anything is read or changed: the id names a table of this channel.
        owner = await self.tables.load(table_id)
        if owner is not None:
            _check_place(interaction, owner, parts[0])
        if parts[0] == "rematch":
            await self._rematch(interaction, table_id)
            return
        if parts[0] == "review" and len(parts) == 2:
            await self._review(interaction, table_id, _version(parts[1]))
            return
        if parts[0] == "leaderboard":
            finished = await self.tables.load(table_id)
            kind = finished.kind if finished is not None else self.tables.kind(None)
            # The rating board, once anyone is on it; before that (a server's first
            # games) the board by wins, where the game just played shows.
            rated = await self.bot.store.rating_board_size(interaction.guild_id or 0,
                                                           board_pool(kind))
            await self.show_leaderboard(interaction, kind.name, "rating" if rated else "wins",
                                        1, edit=False, ephemeral=True)
            return
        table = self.tables.get(table_id)
        if table is None or table.stage not in (LOBBY, PLAYING):
            await self._closed_table(interaction, table_id)
            return
        if parts[0] == "host":  # the lobby's host menu: its choice names the action
            parts = _host_choice(values)
        op = parts[0]
        if op == "join":
            await self.tables.join(table.id, user.id, user.display_name)
            _committed(interaction, table)
            await self._show_public(interaction, table, lobby_view)
        elif op == "leave":
            await self.tables.leave(table.id, user.id)
            _committed(interaction, table)
            if table.stage == LOBBY:
                await self._show_public(interaction, table, lobby_view)
            else:
                await self._reply(interaction, left_button_text(table.kind.name))
                self.request_refresh(table)
        elif op == "ai":  # the host menu's AI choices, or an old lobby's AI buttons
            if parts[1] == "fill":
                await self.tables.fill_ai(table.id, user.id)
            elif parts[1] == "remove":
                await self.tables.remove_ai(table.id, user.id)
            else:
                await self.tables.add_ai(table.id, user.id, parts[1])
            _committed(interaction, table)
            await self._show_public(interaction, table, lobby_view)
        elif op == "house":
            await self.tables.set_house_rules(table.id, user.id, values)
            _committed(interaction, table)
            await self._show_public(interaction, table, lobby_view)
        elif op == "start":
            check_bot_permissions(interaction)
            await self.tables.start(table.id, user.id)
            _committed(interaction, table, "start")
            await self._show_public(interaction, table, table_view)
            self.request_refresh(table)  # with its picture, drawn after the answer
            await self._follow_turn(table, None)  # the first player is pinged, host too
        elif op == "cancel":
            await self.tables.cancel(table.id, user.id, _is_manager(interaction))
            _committed(interaction, table, "cancel")
            self._forget(table)
            with await self.public(table.guild_id):
                embed = _embed(cancelled_panel(safe_markdown(user.display_name)))
            await interaction.response.edit_message(embed=embed, view=None)
        elif op == "rules":
            await self._reply(interaction, table.kind.words.rules_text(table.rules))
        elif op == "hand":
            # Refreshed in place when clicked in the hand panel itself; from the games
            # list ("hand:list"), a panel of its own, so the list stays.
            await self._show_hand(interaction, table, refresh=interaction.message is not None
                                  and bool(interaction.message.flags.ephemeral)
                                  and len(parts) == 1)
        elif op == "table":  # the hand panel's Table button: the whole table in it, or off
            await self._show_hand(interaction, table, refresh=interaction.message is not None
                                  and bool(interaction.message.flags.ephemeral),
                                  details=parts[1:] != ["off"])
        elif op == "hint" and len(parts) == 2:
            await self._hint(interaction, table, _version(parts[1]))
        elif op == "claim" and len(parts) == 2:
            await self._claim(interaction, table, _version(parts[1]))
        elif op.isascii() and op.isdigit() and len(parts) >= 2:  # <version>:<action>
            await self.ui(table).on_action(interaction, table, int(op), parts[1:], values)
        else:
            await self._reply(interaction, old_button_text())

    async def _show_public(self, interaction: discord.Interaction[Any], table: Table,
                           controls: Callable[[Table], Components]) -> None:
        """Answer a click on the public table message by editing it, in the server's
        words, with `controls` (the lobby's, or the game's). A table message too old to
        edit (a lobby that waited an hour) is answered without an edit, and the table is
        shown in a fresh message at the bottom of the channel."""
        clicked = interaction.message
        if clicked is not None and clicked.id == table.message_id \
                and self._too_old(clicked.id):
            await interaction.response.defer()
            await self._replace_table_message(table, clicked.id, "too_old")
            return
        with await self.public(table.guild_id):
            embed, view = _embed(table_panel(table)), controls(table)
        await interaction.response.edit_message(embed=embed, view=view)

    async def _closed_table(self, interaction: discord.Interaction[Any], table_id: int
                            ) -> None:
        """A button of a table that is no longer live. A finished game answers with its
        final standings (read from the store: it may have ended before a restart), in
        place of the clicked panel when that is the player's own."""
        table = await self.tables.load(table_id)
        if table is None or table.stage != FINISHED:
            await self._reply(interaction, table_closed_text())
            return
        embed = _embed(_final_panel(table))
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(content=game_over_text(), embed=embed,
                                                    view=final_view(table))
        else:
            await self._reply(interaction, game_over_text(), panel=_final_panel(table))

    async def _hint(self, interaction: discord.Interaction[Any], table: Table,
                    version: int) -> None:
        """What the strong AI would do and why, shown in the clicked panel for its player
        alone: the move's control marked, the reason above the hand."""
        if not table.switch("hints"):
            raise TableError("hints_off")
        hint = await self.unless_stale(
            interaction, table, self.tables.hint(table.id, interaction.user.id, version))
        if hint is None:
            return
        seat = self._my_seat(table, interaction.user.id)
        view = table.seat_view(seat)
        if view is None:
            await interaction.response.edit_message(content=hint_text(hint.sentence))
            return
        await interaction.response.edit_message(
            content=hint_text(hint.sentence),
            view=self._hand_controls(table, seat, view, _shows_table(interaction),
                                     hint=hint.action))

    async def _claim(self, interaction: discord.Interaction[Any], table: Table,
                     version: int) -> None:
        """The rest of the deal claimed: played out at once if the claim holds."""
        result = await self.unless_stale(
            interaction, table, self.tables.claim(table.id, interaction.user.id, version))
        if result is not None:
            await self.confirm(interaction, table, result, edit=True)  # marks it committed

    async def unless_stale(self, interaction: discord.Interaction[Any], table: Table,
                            work: Awaitable[_T]) -> _T | None:
        """`work`'s result; None when it was drawn for an earlier state, which the
        clicked panel is then edited to show as it is now."""
        try:
            return await work
        except TableError as exc:
            if exc.code != "stale":
                raise
        await self.answer_stale(interaction, table)
        return None

    async def _review(self, interaction: discord.Interaction[Any], table_id: int,
                      index: int) -> None:
        """Deal `index` face up, once it is over, for the one who asked (anyone)."""
        table = await self.tables.load(table_id)
        if table is None or table.game is None:
            await self._reply(interaction, table_closed_text())
            return
        panel = table.kind.words.deal_review(table.game, index, seat_names(table.seats))
        await self._reply(interaction, panel=panel)

    async def _rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A click on Rematch under a finished game (its standings, or a closed panel):
        the click's message says who is in, and the new game starts once all are."""
        old, new = await self.tables.rematch(table_id, interaction.user.id)
        _committed(interaction, new or old, "start" if new is not None else "change")
        message = interaction.message
        private = message is not None and message.flags.ephemeral  # a closed panel
        with use_locale(language_of(interaction.locale) if private
                        else await self.server_language(old.guild_id)):
            text = rematch_started_text() if new is not None else _rematch_line(old)
            view = final_view(old)
        await interaction.response.edit_message(content=text, view=view)

    async def _show_hand(self, interaction: discord.Interaction[Any], table: Table,
                         refresh: bool = False, details: bool = False) -> None:
        if table.stage != PLAYING:
            raise TableError("not_started", reason="not_yet")
        if table.seat_of(interaction.user.id) is None:
            await self._reply(interaction, spectator_text())
            return
        seat = self._my_seat(table, interaction.user.id)
        view = table.seat_view(seat)
        assert view is not None
        embed = _embed(hand_panel(table, seat, details))
        components = self._hand_controls(table, seat, view, details)
        # A DM that Discord refused is told here, once: the panel is theirs alone.
        note = await self._untold_dm_failure(table.guild_id, interaction.user.id)
        said = {"content": note} if note is not None else {}
        if refresh:
            await interaction.response.edit_message(embed=embed, view=components, **said)
            self._remember_panel(table, interaction)
        else:
            sent = await interaction.response.send_message(embed=embed, view=components,
                                                           ephemeral=True, **said)
            self._remember_panel(table, interaction, sent.message_id)

    async def answer_stale(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click drawn for an earlier state: the clicked panel shows the hand as it is
        now (edited in place: a stale or double click never adds a message)."""
        seat = table.seat_of(interaction.user.id)
        view = table.seat_view(seat) if seat is not None and table.stage == PLAYING else None
        message = interaction.message
        if seat is None or view is None or message is None or not message.flags.ephemeral:
            await self._reply(interaction, moved_on_text())
            return
        await interaction.response.edit_message(
            content=moved_on_text(), embed=_embed(hand_panel(table, seat)),
            view=self._hand_controls(table, seat, view))
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
        panel = OpenPanel(interaction.application_id, interaction.token,
                          language_of(interaction.locale),
                          discord.utils.snowflake_time(interaction.id).timestamp(),
                          message_id)
        key = (table.id, interaction.user.id)
        older = self._panel_of(table, interaction.user.id)
        self._panels[key] = panel
        self._in_background(self._store_panel(key, panel))
        if older is not None and None not in (older.message_id, message_id) \
                and older.message_id != message_id:
            self._in_background(self._retire_panel(older))

    async def _retire_panel(self, panel: OpenPanel) -> None:
        """Take the buttons off a player's older panel (its hand stays as it was shown),
        through its interaction's token: a webhook route, outside the global request
        limit (bot/budget.py). It is cosmetic: whatever fails here is let go, and a click
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

    def _in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def restore_panels(self) -> int:
        """After a restart: follow again the stored panels whose token still lasts (by
        Discord's clock), of the tables this process plays; how many."""
        try:
            rows = await self.tables.followed_panels(self.clock.time(), PANEL_TOKEN_SECONDS)
        except Exception as exc:
            log.warning("could not read the followed panels: %r", exc)
            return 0
        for row in rows:
            self._panels[(row.table_id, row.user_id)] = OpenPanel(
                row.application_id, row.token, row.language, row.since)
        return len(rows)

    def _panel_of(self, table: Table, user_id: int) -> OpenPanel | None:
        panel = self._panels.get((table.id, user_id))
        if panel is None:
            return None
        if self.clock.time() - panel.since > PANEL_TOKEN_SECONDS:  # by Discord's clock
            del self._panels[(table.id, user_id)]  # its token has run out
            return None
        return panel

    async def _follow_turn(self, table: Table, acted_by: int | None) -> None:
        """The turn moved on: the open panel of the human to act shows their hand and
        their moves, without a click; with no panel to edit (none open, or its token ran
        out) they are mentioned in the channel once, if the table mentions. At the end
        of the game every open panel shows the result. The player who just acted has
        had theirs in the answer."""
        if table.stage == FINISHED:
            await self._close_panels(table)
            return
        seat = table.to_act
        if seat is None or table.stage != PLAYING or table.seats[seat].played_by_ai:
            return
        user = table.seats[seat].user_id
        if user is None or user == acted_by or self._followed.get(table.id) == table.version:
            return
        self._followed[table.id] = table.version  # this turn is followed once
        if await self._edit_panel(table, seat, user):
            return
        if not table.switch("mentions"):
            return
        await self._ping(table, user, deadline=_deadline(table))

    async def _ping(self, table: Table, user: int, *, reminder: bool = False,
                    deadline: float | None = None) -> None:
        """Tell `user` it is their turn (or, `reminder`, that its time runs out at
        `deadline`): a new message, since Discord notifies of new messages and never of
        edits, with their hand's button and a link to the table. By direct message if
        they chose so in this server (/notify), else in the table's channel, naming
        them alone. A ping that cannot be sent (the channel is gone, or the bot is
        stopping and its connection closed) is let go."""
        if await self._wants_dm(table.guild_id, user) \
                and await self._ping_by_dm(table, user, reminder, deadline):
            return
        title = table.kind.words.title(table.rules)
        with await self.public(table.guild_id):
            line = turn_ping_text(user, title, None if reminder else deadline)
            if reminder:
                line = reminder_text(turn_mention(user, title), deadline)
            view = ping_view(table)
        with contextlib.suppress(*_LET_GO):
            await self.bot.get_partial_messageable(table.channel_id).send(
                line, view=view, allowed_mentions=_pinging_user(user))

    # ------------------------------------------------------------- turn pings by DM

    async def member_settings(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """A member's own settings in a server (the store's), read once and kept: this
        cog is the only one that changes them."""
        key = (guild_id, user_id)
        if key not in self._members:
            self._members[key] = dict(await self.bot.store.get_member_settings(guild_id,
                                                                               user_id))
        return self._members[key]

    async def set_member_setting(self, guild_id: int, user_id: int, key: str,
                                 value: Any) -> None:
        await self.bot.store.set_member_setting(guild_id, user_id, key, value)
        settings = self._members.setdefault((guild_id, user_id), {})
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = value

    async def _wants_dm(self, guild_id: int, user_id: int) -> bool:
        """Whether the member asked for their turn pings by direct message (/notify).
        A store that does not answer: the channel, as by default."""
        try:
            settings = await self.member_settings(guild_id, user_id)
        except Exception as exc:
            log.warning("could not read the settings of member %s: pinging in the channel",
                        user_id, exc_info=exc)
            return False
        return settings.get("turn_pings") == "dm"

    async def _ping_by_dm(self, table: Table, user: int, reminder: bool,
                          deadline: float | None) -> bool:
        """The turn ping by direct message: the server, channel and game named, with the
        hand's button and the link. False if it was not delivered (the caller pings in
        the channel instead)."""
        guild = self.bot.get_guild(table.guild_id)
        server = safe_markdown(guild.name) if guild is not None else str(table.guild_id)
        with await self.public(table.guild_id):
            text = dm_turn_text(server, table.channel_id, table.kind.words.title(table.rules),
                                deadline, reminder)
            view = ping_view(table)
        try:
            # discord.py keeps the DM channel once opened: one request a member.
            channel = await self.bot.create_dm(discord.Object(id=user))
            await channel.send(text, view=view,
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as exc:
            await self._dm_refused(table.guild_id, user, exc)
            return False
        except _LET_GO as exc:
            log.info("a turn ping by DM to %s failed (%r): in the channel", user, exc)
            return False
        return True

    async def _dm_refused(self, guild_id: int, user: int, exc: discord.Forbidden) -> None:
        """Discord refused the DM: 50007 "Cannot send messages to this user" (the member
        closed their direct messages from the server, or blocked the bot).
        https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
        Their pings go back to the channel (each refused DM would be an invalid request,
        which Discord counts toward a ban), and they are told once, privately, the next
        time they open their hand (dm_failed_told: False until told)."""
        log.info("member %s of server %s takes no DMs (%s %s): pinging in the channel",
                 user, guild_id, exc.status, exc.code)
        with contextlib.suppress(Exception):
            await self.set_member_setting(guild_id, user, "turn_pings", "channel")
            await self.set_member_setting(guild_id, user, "dm_failed_told", False)

    async def _untold_dm_failure(self, guild_id: int | None, user: int) -> str | None:
        """The note for a member whose DM failed and who was not told yet (then marked
        told), or None."""
        if guild_id is None:
            return None
        with contextlib.suppress(Exception):
            if (await self.member_settings(guild_id, user)).get("dm_failed_told") is False:
                await self.set_member_setting(guild_id, user, "dm_failed_told", True)
                return dm_failed_text()
        return None

    async def notify(self, interaction: discord.Interaction[Any], where: str) -> None:
        """/notify: where this member's turn pings and reminders go in this server."""
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        where = "dm" if where == "dm" else "channel"
        await self.set_member_setting(guild, interaction.user.id, "turn_pings", where)
        await self.set_member_setting(guild, interaction.user.id, "dm_failed_told", None)
        _committed(interaction, None)
        await self._reply(interaction, notify_text(where))

    # ------------------------------------------------------------- the games list

    async def show_games(self, interaction: discord.Interaction[Any], page: int,
                         edit: bool) -> None:
        """/games: every open table of this server where the member holds a seat, their
        turn first, with the time left, a link to each table and their hand's button
        there; for them alone, GAMES_PAGE tables a page (Discord's 5 rows of buttons)."""
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        user = interaction.user.id
        mine = self.tables.tables_of(guild, user)
        pages = max(1, math.ceil(len(mine) / GAMES_PAGE))
        current = min(max(1, page), pages)
        first = (current - 1) * GAMES_PAGE
        shown = mine[first:first + GAMES_PAGE]
        panel = games_panel([_games_row(table, user) for table in shown], current, pages)
        view = Components()
        for row, table in enumerate(shown):
            number = first + row + 1
            if table.stage == PLAYING:
                hand = TableButton(table.id, "hand:list", style=discord.ButtonStyle.primary,
                                   emoji="🃏", label=f"{number}. {button_label('open_hand')}")
                hand.item.row = row
                view.add_item(hand)
            link = _table_link(table)
            link.label = f"{number}. {button_label('to_table')}"
            link.row = row
            view.add_item(link)
        if pages > 1:
            view.add_item(GamesButton(current - 1, button_label("previous"),
                                      disabled=current <= 1))
            view.add_item(GamesButton(current + 1, button_label("next"),
                                      disabled=current >= pages))
        if edit:
            await interaction.response.edit_message(embed=_embed(panel), view=view)
        else:
            await self._reply(interaction, panel=panel, view=view)

    async def _edit_panel(self, table: Table, seat: int, user: int) -> bool:
        """Show `user`'s open panel their hand and moves now; False if there is none."""
        panel = self._panel_of(table, user)
        view = table.seat_view(seat)
        if panel is None or view is None:
            return False
        try:
            with use_locale(panel.language):  # the panel's owner reads it
                embed = _embed(hand_panel(table, seat))
                controls = self._hand_controls(table, seat, view)
            await panel.edit(self.bot, content=None, embed=embed, view=controls)
        except _LET_GO:
            self._panels.pop((table.id, user), None)  # gone or expired: it is not followed
            self._in_background(self._drop_stored_panel(table.id, user))
            return False
        return True

    async def _drop_stored_panel(self, table_id: int, user: int | None) -> None:
        """Forget a stored panel (None: every panel of the table)."""
        with contextlib.suppress(Exception):
            if user is None:
                await self.bot.store.delete_panels(table_id)
            else:
                await self.bot.store.delete_panel(table_id, user)

    def _forget(self, table: Table) -> list[OpenPanel]:
        """A table has ended: drop what the cog keeps for it; the panels still open (and
        within their token's time), for the caller to close."""
        self._followed.pop(table.id, None)
        self._edits.forget(table.id)
        self._shown_tables.pop(table.id, None)
        self._pictured.pop(table.id, None)
        self._replacing.pop(table.id, None)
        self._message_locks.pop(table.id, None)
        self._in_background(self._drop_stored_panel(table.id, None))
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
        for panel in self._forget(table):
            with use_locale(panel.language):
                content, embed, view = game_over_text(), _embed(_final_panel(table)), \
                    final_view(table)
            with contextlib.suppress(*_LET_GO):
                await panel.edit(self.bot, content=content, embed=embed, view=view)

    async def confirm(self, interaction: discord.Interaction[Any], table: Table,
                       result: ActResult, edit: bool) -> None:
        """The action is stored: refresh the player's hand, then the public side."""
        _committed(interaction, table, "move")
        seat = result.seat
        view = table.seat_view(seat) if table.stage == PLAYING else None
        if view is not None:
            embed = _embed(hand_panel(table, seat))
            components = self._hand_controls(table, seat, view)
        else:
            embed = _embed(game_done_panel())
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
        self._after_change(table, result.deal_finished)
        await self._follow_turn(table, interaction.user.id)

    # ------------------------------------------------------------- shared commands
    # Each game's group gets these (add_shared_commands); `game` is the group's game.

    async def hand(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self._show_hand(interaction, self._table_here(interaction))

    async def join(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = self._table_here(interaction)
        await self.tables.join(table.id, interaction.user.id, interaction.user.display_name)
        _committed(interaction, table)
        await self._reply(interaction, joined_text(len(table.seats)))
        self.request_refresh(table)

    async def start(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = self._table_here(interaction)
        check_bot_permissions(interaction)
        await self.tables.start(table.id, interaction.user.id)
        _committed(interaction, table, "start")
        with await self.public(table.guild_id):
            text = game_started_text()
        await self._reply(interaction, text, ephemeral=False)
        self.request_refresh(table)
        await self._follow_turn(table, None)  # the first player is pinged, host too

    async def new_table(self, interaction: discord.Interaction[Any], game: str, *,
                        preset: str | None, players: int | None, target: int | None,
                        turn_timer: int | None, options: Mapping[str, bool | None],
                        switches: Mapping[str, bool | None], reminders: str | None = None,
                        on_timeout: str | None = None) -> None:
        """A game's `new`: a lobby with what the host asked for, else the server's
        defaults for the game (its `settings`; a preset's options and counts only for
        that preset), else the game's own."""
        guild = interaction.guild_id or 0
        defaults = await self.bot.store.get_guild_settings(guild, game)
        chosen = preset or defaults.get("preset")
        same = chosen == defaults.get("preset")
        merged: dict[str, object] = dict(defaults.get("options", {})) if same else {}
        merged.update({name: on for name, on in options.items() if on is not None})
        kind = self.tables.kind(game)
        count = players or (defaults.get("players") if same else None) or kind.default_players
        merged["target"] = target or (defaults.get("target") if same else None)
        timer = turn_timer if turn_timer is not None else int(defaults.get("turn_timer") or 0)
        # Checked before a thread is started for the table (a bad value: the service's
        # sentence); blank reminders are the default ones.
        points = check_reminders(_reminder_points(reminders)
                                 or defaults.get("reminders"))
        action = check_timeout_action(on_timeout or defaults.get("timeout_action"))
        chosen_switches = table_switches(defaults, **switches)
        channel = interaction.channel_id or 0
        new_thread = bool(chosen_switches.get("thread")) \
            and isinstance(interaction.channel, discord.TextChannel)
        check_bot_permissions(interaction, new_thread=new_thread)
        if new_thread:
            # The rules are judged before a thread is started for them.
            rules = kind.make_rules(chosen, int(count), merged)
            # Starting the thread and posting its lobby are two requests: the interaction
            # is answered first ("thinking"), so Discord's 3 seconds are never at risk.
            # https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction
            await interaction.response.defer(thinking=True)
            channel = await self.table_channel(interaction, kind.words.title(rules))
        table = await self.tables.create(guild, channel, interaction.user.id,
                                         interaction.user.display_name, chosen, int(count),
                                         merged, timer * 60 or None, game=game,
                                         switches=chosen_switches, reminders=points,
                                         timeout_action=action)
        _committed(interaction, table, "opened")
        await self.open_lobby(interaction, table)

    async def save_settings(self, interaction: discord.Interaction[Any], game: str, *,
                            preset: str | None, players: int | None, target: int | None,
                            options: str | None, turn_timer: int | None,
                            switches: Mapping[str, bool | None],
                            language: str | None = None, reminders: str | None = None,
                            on_timeout: str | None = None) -> None:
        """A game's `settings`: this server's defaults for new tables of the game, shown,
        or changed (Manage Server) once the game accepts them."""
        guild = interaction.guild_id or 0
        kind = self.tables.kind(game)
        current = await self.bot.store.get_guild_settings(guild, game)
        changed = {name: on for name, on in switches.items() if on is not None}
        asked: dict[str, object] = {
            "preset": preset, "players": players, "target": target, "turn_timer": turn_timer,
            # Checked now, not at the next `new` (blank: the default reminders).
            "reminders": None if reminders is None else list(check_reminders(
                _reminder_points(reminders))),
            "timeout_action": None if on_timeout is None else check_timeout_action(on_timeout)}
        if options is None and not changed and language is None \
                and all(v is None for v in asked.values()):
            await self._reply(interaction, kind.words.settings_text(current, False) + "\n"
                              + switches_text(current.get("switches", {})) + "\n"
                              + _settings_timer(current)
                              + language_text(await self.server_language(guild)))
            return
        if not _is_manager(interaction):
            raise TableError("not_allowed")
        if language is not None:  # the server's, for every game: "default" unsets it
            await self.set_server_language(guild, None if language == "default"
                                           else language_of(language))
        new = {**current, **{key: value for key, value in asked.items() if value is not None}}
        if changed:
            new["switches"] = {**new.get("switches", {}), **changed}
        if options is not None:
            names = [o.strip() for o in options.replace(",", " ").split() if o.strip()]
            new["options"] = {name: True for name in names if name != "none"}
        # What the game refuses is refused here (a typo, a clash), not at the next `new`.
        kind.make_rules(new.get("preset"), int(new.get("players") or kind.default_players),
                        {**new.get("options", {}), "target": new.get("target")})
        await self.bot.store.set_guild_settings(guild, game, new)
        _committed(interaction, None)
        await self._reply(interaction, kind.words.settings_text(new, True) + "\n"
                          + switches_text(new.get("switches", {})) + "\n"
                          + _settings_timer(new)
                          + language_text(await self.server_language(guild)))

    async def table_channel(self, interaction: discord.Interaction[Any], title: str) -> int:
        """Where a new table that asks for a thread plays: a thread of its own started
        in the channel (in a text channel where the bot may start one), else the
        channel."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            return interaction.channel_id or 0
        # The bot's permissions for threads were checked (check_bot_permissions).
        with await self.public(channel.guild.id):
            # A thread's name renders no Markdown: the name without escapes.
            name = shorten(thread_name(title, safe_plain(interaction.user.display_name)), 100)
        try:
            opened = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread, auto_archive_duration=1440)
        except discord.HTTPException:
            log.info("could not start a thread in channel %s: playing there", channel.id)
            return channel.id
        return opened.id

    async def open_lobby(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The lobby of a table a game's `new` command has just created: the answer
        itself, or, for a table in a thread of its own, a message in the thread and an
        answer in the channel that links to it."""
        with await self.public(table.guild_id):
            embed, view = _embed(table_panel(table)), lobby_view(table)
            link = thread_opened_text(table.channel_id, table.kind.words.title(table.rules))
        deferred = interaction.response.is_done()  # a thread was asked for (new_table)
        if table.channel_id == interaction.channel_id:
            if deferred:  # the thread could not be started: the lobby plays here
                answer = await interaction.followup.send(embed=embed, view=view, wait=True)
                await self.tables.set_message(table, answer.id)
                return
            response = await interaction.response.send_message(embed=embed, view=view)
            if response.message_id is not None:
                await self.tables.set_message(table, response.message_id)
            return
        await self.post_lobby(table)
        if deferred:
            await interaction.followup.send(link)
        else:
            await interaction.response.send_message(link)

    async def post_lobby(self, table: Table) -> None:
        """The lobby as a message of the table's channel (or thread) of its own: its
        table message."""
        with await self.public(table.guild_id):
            embed, view = _embed(table_panel(table)), lobby_view(table)
        lobby = await self.bot.get_partial_messageable(table.channel_id).send(embed=embed,
                                                                             view=view)
        await self.tables.set_message(table, lobby.id)

    async def act(self, interaction: discord.Interaction[Any], table: Table,
                  make: Callable[[int], Any]) -> None:
        """The action `make(seat)` by the user's seat, from a slash command. `make`
        reads what they typed: it runs once the service has checked that they play at
        this table."""
        result = await self.tables.act(table.id, interaction.user.id, None, make)
        await self.confirm(interaction, table, result, edit=False)

    async def score(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = self._table_here(interaction)
        await self._reply(interaction, panel=table_panel(table))

    async def leave(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = self._table_here(interaction)
        await self.tables.leave(table.id, interaction.user.id)
        _committed(interaction, table)
        await self._reply(interaction, left_text(game, table.stage == LOBBY))
        self.request_refresh(table)

    async def away(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = self._table_here(interaction)
        await self.tables.set_away(table.id, interaction.user.id, True)
        _committed(interaction, table)
        await self._reply(interaction, away_text(game))
        self.request_refresh(table)

    async def back(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = self._table_here(interaction)
        await self.tables.set_away(table.id, interaction.user.id, False)
        _committed(interaction, table)
        await self._reply(interaction, back_text())
        self.request_refresh(table)

    async def replace(self, interaction: discord.Interaction[Any], game: str, seat: int,
                      member: discord.Member | None) -> None:
        table = self._table_here(interaction)
        newcomer = (member.id, member.display_name) if member is not None else None
        await self.tables.replace(table.id, interaction.user.id, seat - 1, newcomer)
        _committed(interaction, table)
        who = safe_markdown(member.display_name) if member is not None else None
        with await self.public(table.guild_id):
            text = replaced_text(seat, who)
        await self._reply(interaction, text, ephemeral=False)
        self.request_refresh(table)

    async def cancel(self, interaction: discord.Interaction[Any], game: str) -> None:
        table = self._table_here(interaction)
        await self.tables.cancel(table.id, interaction.user.id, _is_manager(interaction))
        _committed(interaction, table, "cancel")
        self._forget(table)
        with await self.public(table.guild_id):
            text = cancelled_text(safe_markdown(interaction.user.display_name))
        await self._reply(interaction, text, ephemeral=False)
        if table.message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(table.channel_id).get_partial_message(
                    table.message_id).edit(view=None)

    async def export(self, interaction: discord.Interaction[Any], game: str,
                     number: int | None) -> None:
        game_id, note = await self._export_target(interaction, number)
        row = await self.bot.store.get_game(game_id)
        if row is None or row.guild_id != interaction.guild_id:
            raise TableError("no_game")
        stored = await self.bot.store.load_record(game_id)
        if row.status == "active":
            # The deal being played would show every hidden card: leave it out.
            stored["hands"] = stored["hands"][:-1]
        record = self.tables.kind(row.game).record(stored)
        data = json.dumps(record, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"{row.game}-{game_id}.json")
        await self._reply(interaction, note, file=file)

    async def _export_target(self, interaction: discord.Interaction[Any], game: int | None
                             ) -> tuple[int, str]:
        if game is not None:
            return game, export_note(game)
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is not None and table.stage == PLAYING:
            return table.id, export_note(table.id, partial=True)
        finished = await self.bot.store.last_game_in_channel(interaction.channel_id or 0,
                                                             "finished")
        if finished is not None:
            return finished.id, export_note(finished.id)
        raise TableError("no_game", reason="nothing_here")

    async def show_leaderboard(self, interaction: discord.Interaction[Any], game: str,
                               order: str, page: int, edit: bool, ephemeral: bool = False,
                               period: str = "all") -> None:
        """A page of the game's leaderboard in this server: by rating (all time, or this
        month's season: `period` "month"), by wins or by points (all time)."""
        guild = interaction.guild_id or 0
        month = month_of(self.tables.clock.time()) if period == "month" else None
        pool = board_pool(self.tables.kind(game))
        store = self.bot.store
        size = (await store.rating_board_size(guild, pool, month) if order == "rating"
                else await store.leaderboard_size(guild, game))
        pages = max(1, math.ceil(size / PAGE_SIZE))
        current = min(max(1, page), pages)
        offset = (current - 1) * PAGE_SIZE
        message = interaction.message
        public = not ephemeral and not (edit and message is not None
                                        and message.flags.ephemeral)
        if order == "rating":
            rated = await store.rating_board(guild, pool, month, PAGE_SIZE, offset)
            rows: list[Any] = [(f"<@{r.user_id}>", r.ordinal, r.hands) for r in rated]
        else:
            totals = await store.leaderboard(guild, game, order,  # type: ignore[arg-type]
                                             PAGE_SIZE, offset)
            rows = [(f"<@{r.user_id}>", r.games, r.wins, r.points) for r in totals]
        with use_locale(await self.server_language(guild) if public
                        else language_of(interaction.locale)):
            panel = (rating_board_panel(rows, current, pages, month, MIN_RATED_HANDS)
                     if order == "rating" else
                     leaderboard_panel(rows, current, pages, order,
                                       month_asked=period == "month"))
            view = Components()
            view.add_item(LeaderboardButton(game, order, current - 1,
                                            button_label("previous"), disabled=current <= 1,
                                            period=period))
            view.add_item(LeaderboardButton(game, order, current + 1, button_label("next"),
                                            disabled=current >= pages, period=period))
        if edit:
            await interaction.response.edit_message(embed=_embed(panel), view=view)
        else:
            await interaction.response.send_message(
                embed=_embed(panel), view=view, ephemeral=ephemeral,
                allowed_mentions=discord.AllowedMentions.none())

    async def stats(self, interaction: discord.Interaction[Any], game: str,
                    member: discord.Member | None) -> None:
        who = member or interaction.user
        guild = interaction.guild_id or 0
        s = await self.bot.store.member_stats(guild, game, who.id)
        now = self.tables.clock.time()
        rated = await self.bot.store.member_rating(guild, board_pool(self.tables.kind(game)),
                                                   who.id, month_of(now), trend_start(now))
        rating = rated.rating
        # The board value's change over 30 days: from the end of the last day rated
        # before them, or from the first rating if the member began within them.
        trend = None if rating is None else rating.ordinal - (
            rated.before.ordinal if rated.before is not None else MODEL.initial().ordinal)
        with await self.public(guild):
            lines = self.tables.kind(game).words.stats_lines(s.stats)
            rating_text = rating_lines(
                None if rating is None else (rating.mu, rating.sigma, rating.ordinal,
                                             rating.hands),
                None if rated.season is None else (rated.season.mu, rated.season.sigma,
                                                   rated.season.ordinal, rated.season.hands),
                trend, MIN_RATED_HANDS)
            panel = stats_panel(safe_markdown(who.display_name), s.games, s.wins, s.points,
                                lines, rating_text)
        await self._reply(interaction, panel=panel, ephemeral=False)

    async def help(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self.show_help(interaction, game, 1, edit=False)

    async def show_help(self, interaction: discord.Interaction[Any], game: str, page: int,
                        edit: bool) -> None:
        """Page `page` of the game's guide, with the way to the others (for the reader
        alone; a click turns the page in place)."""
        pages = self.tables.kind(game).words.help_pages()
        current = min(max(1, page), len(pages))
        shown = pages[current - 1]
        panel = Panel(title=shown.title, description=shown.description, fields=shown.fields,
                      colour=shown.colour, footer=page_footer(current, len(pages)))
        view = Components()
        view.add_item(HelpButton(game, current - 1, button_label("previous"),
                                 disabled=current <= 1))
        view.add_item(HelpButton(game, current + 1, button_label("next"),
                                 disabled=current >= len(pages)))
        if edit:
            await interaction.response.edit_message(embed=_embed(panel), view=view)
        else:
            await self._reply(interaction, panel=panel, view=view)


class GameCog(commands.Cog):
    """What every game's cog shares: its command group (`group`, declared by the game's
    cog) gets the commands every game has, the cog gives the table cog its hand controls
    (the GameUI), and reaches it as `host`."""

    game: str  # the game's registry name, also its command group's
    group: app_commands.Group

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        add_shared_commands(self.group, self.game)

    async def cog_load(self) -> None:
        self.host.register(self.game, self)  # type: ignore[arg-type]

    @property
    def host(self) -> Tables:
        """The shared table cog (loaded first, bot/app.py)."""
        cog = self.bot.get_cog("Tables")
        if not isinstance(cog, Tables):
            raise RuntimeError("the Tables cog is not loaded")
        return cog

    async def act_on_click(self, interaction: discord.Interaction[Any], table: Table,
                           version: int, make: Callable[[int], Any]) -> None:
        """The action `make(seat)` of a click drawn at state `version`: confirmed in the
        clicked panel, or, drawn for an earlier state, the panel shows the state now."""
        result = await self.host.unless_stale(
            interaction, table, self.tables.act(table.id, interaction.user.id, version, make))
        if result is not None:
            await self.host.confirm(interaction, table, result, edit=True)


def add_shared_commands(group: app_commands.Group, game: str) -> None:
    """Give a game's command group the commands every game shares, each answered by the
    Tables cog for `game`."""

    def host(interaction: discord.Interaction[Any]) -> Tables:
        cog = interaction.client.get_cog("Tables")
        if not isinstance(cog, Tables):
            raise RuntimeError("the Tables cog is not loaded")
        return cog

    async def hand(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).hand(interaction, game)

    async def join(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).join(interaction, game)

    async def start(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).start(interaction, game)

    async def score(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).score(interaction, game)

    async def leave(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).leave(interaction, game)

    async def away(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).away(interaction, game)

    async def back(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).back(interaction, game)

    @app_commands.describe(seat="The seat number (1 is the first seat)",
                           member="Who takes the seat (leave empty: the AI keeps it)")
    async def replace(interaction: discord.Interaction[Any],
                      seat: app_commands.Range[int, 1, 6],
                      member: discord.Member | None = None) -> None:
        await host(interaction).replace(interaction, game, seat, member)

    async def cancel(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).cancel(interaction, game)

    @app_commands.describe(game="A finished game's number (default: this channel's)")
    async def export(interaction: discord.Interaction[Any], game: int | None = None) -> None:
        await host(interaction).export(interaction, group_game, game)

    @app_commands.describe(order="Rank by rating (the default), wins or points",
                           period="The rating board of all time (the default) or of this "
                                  "month")
    @app_commands.choices(order=[app_commands.Choice(name="rating", value="rating"),
                                 app_commands.Choice(name="wins", value="wins"),
                                 app_commands.Choice(name="points", value="points")],
                          period=[app_commands.Choice(name="all time", value="all"),
                                  app_commands.Choice(name="this month", value="month")])
    async def leaderboard(interaction: discord.Interaction[Any], order: str = "rating",
                          period: str = "all",
                          page: app_commands.Range[int, 1, 10000] = 1) -> None:
        await host(interaction).show_leaderboard(interaction, group_game, order, page,
                                                 edit=False, period=period)

    async def stats(interaction: discord.Interaction[Any],
                    member: discord.Member | None = None) -> None:
        await host(interaction).stats(interaction, game, member)

    async def help(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).help(interaction, game)

    group_game = game  # `export` and `leaderboard` have an option called `game`/`order`
    described = [
        (hand, "hand", "See your cards and act (only you see it)"),
        (join, "join", "Take a seat at the table in this channel"),
        (start, "start", "Start the game (host)"),
        (score, "score", "The running totals of this table"),
        (leave, "leave", "Leave the table (the AI takes over in a game)"),
        (away, "away", "Let the AI play your seat until you are back"),
        (back, "back", "Take your seat back from the AI"),
        (replace, "replace", "Host: hand an away player's seat to someone else, or to the "
         "AI for good"),
        (cancel, "cancel", "Cancel the table (host or Manage Server)"),
        (export, "export", "The game record as a JSON file"),
        (leaderboard, "leaderboard", "This server's top players"),
        (stats, "stats", "A member's results on this server"),
        (help, "help", "How to play with this bot"),
    ]
    for callback, name, description in described:
        group.add_command(app_commands.Command(name=name, description=description,
                                               callback=callback))


def board_pool(kind: GameKind) -> str:
    """The rating pool a game's boards and stats show: the pool of its default rules
    (GameKind.rating_pool; one pool per game today)."""
    return kind.rating_pool(kind.make_rules(None, kind.default_players, {}))


# Where a member's turn pings go (/notify): Discord shows the choices' names.
NOTIFY_CHOICES = [app_commands.Choice(name="By direct message", value="dm"),
                  app_commands.Choice(name="In the table's channel", value="channel")]


def member_commands() -> list[app_commands.Command[Any, Any, None]]:
    """The member's own commands, one for every game (top level, not in a game's group):
    `/games`, their open tables of every game in this server, and `/notify`, where
    their turn pings go. A member at tables of two games wants them in one list, and
    one setting for every game; Discord lists a bot's commands together under the bot,
    so a top-level command is as easy to find as a game's. Built afresh for each bot."""

    def host(interaction: discord.Interaction[Any]) -> Tables:
        cog = interaction.client.get_cog("Tables")
        if not isinstance(cog, Tables):
            raise RuntimeError("the Tables cog is not loaded")
        return cog

    @app_commands.guild_only()
    async def games(interaction: discord.Interaction[Any]) -> None:
        await host(interaction).show_games(interaction, 1, edit=False)

    @app_commands.guild_only()
    @app_commands.describe(where="Where your turn pings and reminders go")
    @app_commands.choices(where=NOTIFY_CHOICES)
    async def notify(interaction: discord.Interaction[Any], where: str) -> None:
        await host(interaction).notify(interaction, where)

    return [
        app_commands.Command(name="games", callback=games,
                             description="Your tables in this server, your turn first "
                                         "(only you see it)"),
        app_commands.Command(name="notify", callback=notify,
                             description="Get your turn pings by direct message or in "
                                         "the channel (this server)"),
    ]


async def setup(bot: TableBot) -> None:
    await bot.add_cog(Tables(bot))
